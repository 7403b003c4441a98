// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli cwnd: the reconstructed congestion window of one flow, one row per
// data segment of its sender (CLI contract in DESIGN.md). Where the capture cannot
// support an estimate the rows say not_followed and stderr says why.
#include "cli_cwnd.h"
#include "cli_flow.h"

#include "analysis/sender/congestion_model.h"
#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/report/json_writer.h"
#include "analysis/report/report_json.h"
#include "analysis/tcp/tcp_analysis.h"
#include "dissectors/ingest.h"

#include <cstdio>
#include <iostream>

namespace windscope::cli {

namespace {

constexpr const char* kUsage =
    "usage: windscope-cli cwnd FILE --flow ID|ADDR:PORT-ADDR:PORT [--csv | --json] [--model NAME]\n";

std::string bytesOrEmpty(std::uint64_t bytes, bool known)
{
    return known ? std::to_string(bytes) : std::string();
}

} // namespace

int runCwnd(const std::vector<std::string>& args)
{
    std::string path, flow;
    bool json = false, csv = false;
    analysis::cwnd::CwndOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            json = true;
        else if (a == "--csv")
            csv = true;
        else if (a == "--flow" && i + 1 < args.size())
            flow = args[++i];
        else if (a == "--model" && i + 1 < args.size())
            options.model = args[++i];
        else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "windscope-cli cwnd: unknown option %s\n%s", a.c_str(), kUsage);
            return 2;
        } else if (path.empty())
            path = a;
        else {
            std::fprintf(stderr, "windscope-cli cwnd: one capture file at a time (%s)\n", a.c_str());
            return 2;
        }
    }
    if (path.empty() || flow.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    if (json && csv) {
        std::fprintf(stderr, "windscope-cli cwnd: choose --json or --csv, not both\n");
        return 2;
    }
    if (!options.model.empty()) {
        const auto model = analysis::cwnd::makeCongestionModel(options.model);
        if (!model || model->traits().rateBased) {
            const std::string names = analysis::cwnd::congestionModelNameList(", ", true);
            std::fprintf(stderr, "windscope-cli cwnd: %s model '%s' (models: %s)\n",
                         model ? "the inference follows window-based models, not the rate-based" : "unknown",
                         options.model.c_str(), names.c_str());
            return 2;
        }
    }

    LoadedFlow loaded;
    if (const int status = loadFlow("cwnd", path, flow, loaded))
        return status;
    const dissect::CaptureTables& tables = loaded.tables;
    const analysis::TcpAnalysis& tcp = loaded.tcp;
    const std::size_t connection = loaded.connection;
    const int sender = loaded.sender;
    std::string error;
    analysis::cwnd::CwndInference inf;
    if (!analysis::cwnd::inferCwnd(tables, tcp, connection, sender, options, inf, error)) {
        std::fprintf(stderr, "windscope-cli cwnd: %s\n", error.c_str());
        return 2;
    }
    const bool followed = inf.notFollowed == analysis::cwnd::NotFollowedReason::None;
    if (!followed)
        std::fprintf(stderr, "windscope-cli cwnd: connection %zu: cwnd not followed: %s\n", connection,
                     analysis::cwnd::notFollowedReasonText(inf.notFollowed));
    if (followed && inf.undetermined != analysis::cwnd::ModelUndetermined::None)
        std::fprintf(stderr, "windscope-cli cwnd: connection %zu: model undetermined: %s; the window shown is %s's\n",
                     connection, analysis::cwnd::modelUndeterminedText(inf.undetermined), inf.model.c_str());
    const std::string label = analysis::cwnd::modelLabel(inf);
    const std::string modelText = label.empty() ? std::string("none") : label;
    const dissect::TcpColumns& t = tables.tcp;

    if (json) {
        analysis::JsonWriter w(std::cout);
        w.beginObject();
        w.field("connection", static_cast<std::uint64_t>(connection));
        w.field("from", analysis::endpointText(tables, tcp.connections[connection].address[sender],
                                               tcp.connections[connection].port[sender]));
        w.field("to", analysis::endpointText(tables, tcp.connections[connection].address[1 - sender],
                                             tcp.connections[connection].port[1 - sender]));
        w.field("model", modelText);
        w.field("model_overridden", inf.modelOverridden);
        w.field("model_undetermined_reason", analysis::cwnd::modelUndeterminedName(inf.undetermined));
        w.field("series_model", inf.model.empty() ? std::string("none") : inf.model);
        w.field("confidence", inf.confidence);
        w.field("vantage", analysis::cwnd::vantagePointName(inf.vantage.point));
        w.field("one_way_shift_ms", static_cast<double>(inf.vantage.oneWayShiftNs) / 1e6);
        w.field("mss", inf.mss);
        w.field("followed", followed);
        w.field("not_followed_reason", analysis::cwnd::notFollowedReasonName(inf.notFollowed));
        w.key("fits").beginArray();
        for (const analysis::cwnd::ModelFit& f : inf.fits) {
            w.beginObject();
            w.field("model", f.model);
            w.field("cost", f.cost());
            w.field("sends", f.sends);
            w.field("violations", f.violations);
            w.field("mean_gap", f.meanGap);
            w.field("loss_episodes", f.lossEpisodes);
            w.endObject();
        }
        w.endArray();
        w.key("series").beginArray();
        for (const analysis::cwnd::CwndSample& x : inf.series) {
            w.beginObject();
            w.key("epoch_s").number(analysis::epochText(tables, t.timeNs[x.row]));
            w.key("cwnd_bytes");
            followed ? w.value(x.cwndBytes) : w.null();
            w.key("ssthresh_bytes");
            followed && x.ssthreshBytes < analysis::cwnd::kInfiniteSsthresh ? w.value(x.ssthreshBytes) : w.null();
            w.field("bytes_in_flight", static_cast<std::uint64_t>(tcp.segments.bytesInFlight[x.row]));
            w.key("rwnd_bytes");
            followed ? w.value(x.rwndBytes) : w.null();
            w.field("state", analysis::cwnd::senderPhaseName(x.phase));
            w.field("model", modelText);
            w.endObject();
        }
        w.endArray();
        w.endObject();
        std::cout << '\n';
    } else {
        // CSV, also the default: the contract's columns in the contract's order.
        std::cout << "epoch_s,cwnd_bytes,ssthresh_bytes,bytes_in_flight,rwnd_bytes,state,model\n";
        for (const analysis::cwnd::CwndSample& x : inf.series) {
            std::cout << analysis::epochText(tables, t.timeNs[x.row]) << ','
                      << bytesOrEmpty(x.cwndBytes, followed) << ','
                      << bytesOrEmpty(x.ssthreshBytes, followed && x.ssthreshBytes < analysis::cwnd::kInfiniteSsthresh)
                      << ',' << tcp.segments.bytesInFlight[x.row] << ',' << bytesOrEmpty(x.rwndBytes, followed) << ','
                      << analysis::cwnd::senderPhaseName(x.phase);
            if (!followed)
                std::cout << ':' << analysis::cwnd::notFollowedReasonName(inf.notFollowed);
            std::cout << ',' << modelText << '\n';
        }
    }
    std::cout.flush();
    return 0;
}

} // namespace windscope::cli
