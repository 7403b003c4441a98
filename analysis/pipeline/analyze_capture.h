// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The analysis a project caches for each capture, with default options: ingest, TCP
// analysis, 802.11 inventory, events and their correlation with TCP. One function so
// the CLI, the GUI and the tests cache (and compare against) the same thing.

#include "analysis/pipeline/analysis_bundle.h"
#include "dissectors/ingest.h"

#include <functional>
#include <string>

namespace windscope::analysis::pipeline {

enum class AnalysisStage { Reading, Tcp, Inventory, Events, Correlation, Done };

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

} // namespace windscope::analysis::pipeline
