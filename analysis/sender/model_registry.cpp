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

constexpr Entry kModels[] = {
    {"reno", construct<RenoModel>},
    {"newreno", construct<NewRenoModel>},
    {"cubic", construct<CubicModel>},
};

// Models the replay engine's sender runs but inference does not try: their signature
// in a capture (bandwidth-set or 4/5 reductions) is not separated from the others yet;
// a rate-based sender (BBR) is recognised by its own evidence, not by a window fit.
constexpr Entry kSenderOnlyModels[] = {
    {"westwood-plus", construct<WestwoodPlusModel>},
    {"veno", construct<VenoModel>},
    {"bbr", construct<BbrModel>},
};

} // namespace

std::unique_ptr<CongestionModel> makeCongestionModel(std::string_view name)
{
    for (const Entry& e : kModels)
        if (e.name == name)
            return e.make();
    for (const Entry& e : kSenderOnlyModels)
        if (e.name == name)
            return e.make();
    return nullptr;
}

const std::vector<std::string_view>& congestionModelNames()
{
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> out;
        for (const Entry& e : kModels)
            out.push_back(e.name);
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
