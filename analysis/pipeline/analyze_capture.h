// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Everything a project caches for a capture, in one call: the whole pipeline
// (CapturePipeline) run on the file with default options, its products handed over.
// For the tests and tools that compare a fresh analysis with a project's cache.

#include "analysis/pipeline/capture_pipeline.h"

#include <functional>
#include <string>

namespace windscope::analysis::pipeline {

struct AnalyzeControl
{
    dissect::IngestOptions ingest;                 // progress and cancellation while reading
    std::function<void(AnalysisStage)> onStage;    // told each stage as it starts
    std::function<bool()> stop;                    // asked between stages
};

// False with error set when the file cannot be read; false with error empty when
// stopped (by control.stop or the ingest observer's cancellation).
bool analyzeCapture(const std::string& path, AnalysisBundle& out, std::string& error,
                    const AnalyzeControl& control = {});

// A pipeline's observer that calls control.onStage and control.stop.
class ControlObserver final : public PipelineObserver
{
public:
    explicit ControlObserver(const AnalyzeControl& control) : m_control(control) {}
    void stageStarted(AnalysisStage stage) override
    {
        if (m_control.onStage)
            m_control.onStage(stage);
    }
    bool cancelRequested() override { return m_control.stop && m_control.stop(); }

private:
    const AnalyzeControl& m_control;
};

} // namespace windscope::analysis::pipeline
