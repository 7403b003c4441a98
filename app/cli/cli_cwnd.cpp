// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli cwnd: the reconstructed congestion window of one flow, one row per
// data segment of its sender (docs/cli.md, written by analysis/report/report_cwnd.h).
// Where the capture cannot support an estimate the rows say not_followed and stderr
// says why.
#include "cli_cwnd.h"
#include "cli_flow.h"

#include "analysis/sender/congestion_model.h"
#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/report/report_cwnd.h"
#include "analysis/tcp/tcp_analysis.h"

#include <cstdio>
#include <iostream>

namespace windscope::cli {

namespace {

constexpr const char* kUsage =
    "usage: windscope-cli cwnd FILE --flow ID|ADDR:PORT-ADDR:PORT [--csv | --json] [--model NAME]\n";

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
        else if (a.size() > 1 && a[0] == '-') { // "-" alone is standard input
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
    const analysis::pipeline::CapturePipeline& pipeline = *loaded.pipeline;
    const dissect::CaptureTables& tables = pipeline.tables();
    const analysis::TcpAnalysis& tcp = pipeline.tcp();
    const std::size_t connection = loaded.connection;
    const int sender = loaded.sender;
    // Default options: the pipeline's cwnd product; --model or other options: an
    // inference of their own.
    const bool defaults = options.model.empty() &&
                          options.maxCaptureLossRatio == analysis::cwnd::CwndOptions{}.maxCaptureLossRatio;
    analysis::cwnd::CwndInference own;
    if (!defaults) {
        std::string error;
        if (!pipeline.inferCwnd(connection, sender, options, own, error)) {
            std::fprintf(stderr, "windscope-cli cwnd: %s\n", error.c_str());
            return 2;
        }
    }
    const analysis::cwnd::CwndInference& inf = defaults ? pipeline.cwndOfSender(connection, sender) : own;
    const bool followed = inf.notFollowed == analysis::cwnd::NotFollowedReason::None;
    if (!followed)
        std::fprintf(stderr, "windscope-cli cwnd: connection %zu: cwnd not followed: %s\n", connection,
                     analysis::cwnd::notFollowedReasonText(inf.notFollowed));
    if (followed && inf.undetermined != analysis::cwnd::ModelUndetermined::None)
        std::fprintf(stderr, "windscope-cli cwnd: connection %zu: model undetermined: %s; the window shown is %s's\n",
                     connection, analysis::cwnd::modelUndeterminedText(inf.undetermined), inf.model.c_str());
    if (json)
        analysis::writeCwndJson(std::cout, tables, tcp, connection, sender, inf);
    else
        analysis::writeCwndCsv(std::cout, tables, tcp, inf); // also the default
    std::cout.flush();
    return 0;
}

} // namespace windscope::cli
