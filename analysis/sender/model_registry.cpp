// SPDX-License-Identifier: GPL-3.0-or-later
// The model registry: a fixed table of names and constructors, no self-registration. A
// new model is its file and one row here; every list of model names (help texts, value
// hints, error messages, validation) is read from this table.
#include "bbr.h"
#include "congestion_model.h"
#include "cubic.h"
#include "newreno.h"
#include "reno.h"
#include "veno.h"
#include "westwood_plus.h"

namespace windscope::analysis::cwnd {

namespace {

struct Entry
{
    std::string_view name;
    std::unique_ptr<CongestionModel> (*make)();
};

template <typename Model>
std::unique_ptr<CongestionModel> construct()
{
    return std::make_unique<Model>();
}

template <typename Model>
std::unique_ptr<CongestionModel> constructNs3()
{
    return std::make_unique<Model>(ModelStack::Ns3);
}

// The inference candidates, in the order inference tries them (and breaks exact ties
// by: the models that differ from Reno/NewReno only after a loss come last). The
// Linux implementation is the one makeCongestionModel(name) gives; makeNs3 is set
// where ns-3 implements the same algorithm otherwise (see ModelStack).
struct Candidate
{
    Entry entry;
    std::unique_ptr<CongestionModel> (*makeNs3)();
};

constexpr Candidate kModels[] = {
    {{"reno", construct<RenoModel>}, constructNs3<RenoModel>},
    {{"newreno", construct<NewRenoModel>}, nullptr},
    {{"cubic", construct<CubicModel>}, constructNs3<CubicModel>},
    {{"westwood-plus", construct<WestwoodPlusModel>}, constructNs3<WestwoodPlusModel>},
    {{"veno", construct<VenoModel>}, constructNs3<VenoModel>},
};

// Models the replay engine's sender runs but inference does not try: a rate-based
// sender (BBR) is recognised by its own evidence, not by a window fit.
constexpr Entry kSenderOnlyModels[] = {
    {"bbr", construct<BbrModel>},
};

} // namespace

std::unique_ptr<CongestionModel> makeCongestionModel(std::string_view name)
{
    for (const Candidate& c : kModels)
        if (c.entry.name == name)
            return c.entry.make();
    for (const Entry& e : kSenderOnlyModels)
        if (e.name == name)
            return e.make();
    return nullptr;
}

std::unique_ptr<CongestionModel> makeCongestionModel(std::string_view name, ModelStack stack)
{
    for (const Candidate& c : kModels)
        if (c.entry.name == name)
            return stack == ModelStack::Ns3 && c.makeNs3 ? c.makeNs3() : c.entry.make();
    return makeCongestionModel(name);
}

ModelStack modelStackOf(const CongestionModel& model)
{
    return model.traits().cwndLimited == CwndLimitedRule::EveryAck ? ModelStack::Ns3 : ModelStack::Linux;
}

std::string_view modelStackName(ModelStack stack)
{
    return stack == ModelStack::Ns3 ? "ns-3" : "linux";
}

bool parseModelStack(std::string_view name, ModelStack& stack)
{
    for (const ModelStack s : {ModelStack::Linux, ModelStack::Ns3})
        if (name == modelStackName(s)) {
            stack = s;
            return true;
        }
    return false;
}

const std::vector<std::string_view>& congestionModelNames()
{
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> out;
        for (const Candidate& c : kModels)
            out.push_back(c.entry.name);
        return out;
    }();
    return names;
}

const std::vector<std::string_view>& allCongestionModelNames()
{
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> out = congestionModelNames();
        for (const Entry& e : kSenderOnlyModels)
            out.push_back(e.name);
        return out;
    }();
    return names;
}

std::string congestionModelNameList(std::string_view separator, bool inferenceCandidatesOnly)
{
    std::string out;
    for (std::string_view n : inferenceCandidatesOnly ? congestionModelNames() : allCongestionModelNames()) {
        if (!out.empty())
            out += separator;
        out += n;
    }
    return out;
}

std::string_view rateBasedModelName()
{
    for (std::string_view n : allCongestionModelNames())
        if (makeCongestionModel(n)->traits().rateBased)
            return n;
    return {};
}

} // namespace windscope::analysis::cwnd
