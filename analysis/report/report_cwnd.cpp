// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_cwnd.h"

#include "json_writer.h"
#include "report_json.h"

#include <string>

namespace windscope::analysis {

namespace {

std::string bytesOrEmpty(std::uint64_t bytes, bool known)
{
    return known ? std::to_string(bytes) : std::string();
}

bool followed(const cwnd::CwndInference& inf)
{
    return inf.notFollowed == cwnd::NotFollowedReason::None;
}

std::string modelText(const cwnd::CwndInference& inf)
{
    const std::string label = cwnd::modelLabel(inf);
    return label.empty() ? std::string("none") : label;
}

} // namespace

void writeCwndCsv(std::ostream& out, const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                  const cwnd::CwndInference& inf)
{
    const bool isFollowed = followed(inf);
    const std::string model = modelText(inf);
    const dissect::TcpColumns& t = tables.tcp;
    // The contract's columns in the contract's order.
    out << "epoch_s,cwnd_bytes,ssthresh_bytes,bytes_in_flight,rwnd_bytes,state,model\n";
    for (const cwnd::CwndSample& x : inf.series) {
        out << epochText(tables, t.timeNs[x.row]) << ',' << bytesOrEmpty(x.cwndBytes, isFollowed) << ','
            << bytesOrEmpty(x.ssthreshBytes, isFollowed && x.ssthreshBytes < cwnd::kInfiniteSsthresh) << ','
            << tcp.segments.bytesInFlight[x.row] << ',' << bytesOrEmpty(x.rwndBytes, isFollowed) << ','
            << cwnd::senderPhaseName(x.phase);
        if (!isFollowed)
            out << ':' << cwnd::notFollowedReasonName(inf.notFollowed);
        out << ',' << model << '\n';
    }
}

void writeCwndJson(std::ostream& out, const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                   std::size_t connection, int sender, const cwnd::CwndInference& inf)
{
    const bool isFollowed = followed(inf);
    const std::string model = modelText(inf);
    const dissect::TcpColumns& t = tables.tcp;
    const Connection& k = tcp.connections[connection];
    JsonWriter w(out);
    w.beginObject();
    w.field("connection", static_cast<std::uint64_t>(connection));
    w.field("from", endpointText(tables, k.address[sender], k.port[sender]));
    w.field("to", endpointText(tables, k.address[1 - sender], k.port[1 - sender]));
    w.field("model", model);
    w.field("model_overridden", inf.modelOverridden);
    w.field("model_undetermined_reason", cwnd::modelUndeterminedName(inf.undetermined));
    w.key("tied_models").beginArray();
    for (std::string_view m : cwnd::tiedModels(inf))
        w.value(m);
    w.endArray();
    w.field("series_model", inf.model.empty() ? std::string("none") : inf.model);
    w.field("confidence", inf.confidence);
    w.field("vantage", cwnd::vantagePointName(inf.vantage.point));
    w.field("one_way_shift_ms", static_cast<double>(inf.vantage.oneWayShiftNs) / 1e6);
    w.field("acks_rebuilt", inf.acksRebuilt);
    w.field("mss", inf.mss);
    w.field("followed", isFollowed);
    w.field("not_followed_reason", cwnd::notFollowedReasonName(inf.notFollowed));
    w.key("fits").beginArray();
    for (const cwnd::ModelFit& f : inf.fits) {
        w.beginObject();
        w.field("model", f.model);
        w.field("stack", cwnd::modelStackName(f.stack));
        w.field("cost", f.cost());
        w.field("sends", f.sends);
        w.field("violations", f.violations);
        w.field("mean_gap", f.meanGap);
        w.field("loss_episodes", f.lossEpisodes);
        w.field("fit_as", f.standsAtGrowthFit ? f.growthOf : std::string_view());
        w.endObject();
    }
    w.endArray();
    w.key("series").beginArray();
    for (const cwnd::CwndSample& x : inf.series) {
        w.beginObject();
        w.key("epoch_s").number(epochText(tables, t.timeNs[x.row]));
        w.field("tcp.seq_raw", static_cast<std::uint64_t>(t.seq[x.row]));
        w.key("cwnd_bytes");
        isFollowed ? w.value(x.cwndBytes) : w.null();
        w.key("ssthresh_bytes");
        isFollowed && x.ssthreshBytes < cwnd::kInfiniteSsthresh ? w.value(x.ssthreshBytes) : w.null();
        w.field("bytes_in_flight", static_cast<std::uint64_t>(tcp.segments.bytesInFlight[x.row]));
        w.key("rwnd_bytes");
        isFollowed ? w.value(x.rwndBytes) : w.null();
        w.field("state", cwnd::senderPhaseName(x.phase));
        w.field("model", model);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    out << '\n';
}

} // namespace windscope::analysis
