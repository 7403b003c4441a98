// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/pipeline/capture_pipeline.h"

#include <memory>

#include <string>

namespace windscope::cli {

// The capture's warnings (damage, a cut, what could not be decoded), one line each on
// stderr, in every output mode: standard output holds only the result.
void printCaptureWarnings(const dissect::CaptureTables& tables);

// --flow: a connection id from analyze, or "ADDR:PORT-ADDR:PORT" naming the data
// sender first. Returns false when nothing matches.
bool resolveFlow(const dissect::CaptureTables& tables, const analysis::TcpAnalysis& tcp, const std::string& flow,
                 std::size_t& connection, int& sender);

// A capture's pipeline, run through its TCP analysis, and one --flow picked out.
struct LoadedFlow
{
    std::unique_ptr<analysis::pipeline::CapturePipeline> pipeline;
    std::size_t connection = 0;
    int sender = 0;
};

// Runs the pipeline on path through the TCP analysis and resolves flow (empty: the
// direction that delivered the most data), saying on stderr what went wrong
// (as "windscope-cli COMMAND: ..."). Returns 0, or the exit status to end with.
int loadFlow(const char* command, const std::string& path, const std::string& flow, LoadedFlow& out);

} // namespace windscope::cli
