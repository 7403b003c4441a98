// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tcp/tcp_analysis.h"

#include <string>

namespace windscope::cli {

// --flow: a connection id from analyze, or "ADDR:PORT-ADDR:PORT" naming the data
// sender first. Returns false when nothing matches.
bool resolveFlow(const dissect::CaptureTables& tables, const analysis::TcpAnalysis& tcp, const std::string& flow,
                 std::size_t& connection, int& sender);

// A capture read, its TCP analysed and one --flow picked out.
struct LoadedFlow
{
    dissect::CaptureTables tables;
    analysis::TcpAnalysis tcp;
    std::size_t connection = 0;
    int sender = 0;
};

// Reads path, analyses its TCP and resolves flow, saying on stderr what went wrong
// (as "windscope-cli COMMAND: ..."). Returns 0, or the exit status to end with.
int loadFlow(const char* command, const std::string& path, const std::string& flow, LoadedFlow& out);

} // namespace windscope::cli
