// SPDX-License-Identifier: GPL-3.0-or-later
#include "analyze_capture.h"

namespace windscope::analysis::pipeline {

bool analyzeCapture(const std::string& path, AnalysisBundle& out, std::string& error,
                    const AnalyzeControl& control)
{
    out = AnalysisBundle{};
    error.clear();
    auto stage = [&](AnalysisStage s) {
        if (control.onStage)
            control.onStage(s);
    };
    auto stopped = [&] { return (control.stop && control.stop()) || out.tables.summary.cancelled; };
    // The TCP analysis follows the reading (readAndAnalyzeTcp); what is left of it when
    // the reading ends is the Tcp stage.
    stage(AnalysisStage::Reading);
    TcpAnalyzer analyzer(out.tables);
    if (!dissect::ingestCapture(path, analyzer.following(control.ingest), out.tables, error)) {
        if (error.empty())
            error = path + ": could not be read";
        return false;
    }
    if (stopped())
        return false;
    stage(AnalysisStage::Tcp);
    out.tcp = analyzer.finish();
    if (stopped())
        return false;
    stage(AnalysisStage::Inventory);
    out.inventory = buildWlanInventory(out.tables, out.tcp);
    stage(AnalysisStage::Events);
    out.events = detectWlanEvents(out.tables, out.inventory, out.tcp);
    if (stopped())
        return false;
    stage(AnalysisStage::Correlation);
    out.correlation = correlateEvents(out.tables, out.tcp, out.inventory, out.events);
    stage(AnalysisStage::Done);
    return true;
}

} // namespace windscope::analysis::pipeline
