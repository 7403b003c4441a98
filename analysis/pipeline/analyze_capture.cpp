// SPDX-License-Identifier: GPL-3.0-or-later
#include "analyze_capture.h"

namespace windscope::analysis::pipeline {

bool analyzeCapture(const std::string& path, AnalysisBundle& out, std::string& error,
                    const AnalyzeControl& control)
{
    out = AnalysisBundle{};
    PipelineOptions options;
    options.ingest = control.ingest;
    CapturePipeline pipeline(path, std::move(options));
    ControlObserver observer(control);
    pipeline.setObserver(&observer);
    if (!pipeline.run(AnalysisStage::Done, error))
        return false;
    if (control.onStage)
        control.onStage(AnalysisStage::Done);
    out = std::move(pipeline).releaseProducts();
    return true;
}

} // namespace windscope::analysis::pipeline
