// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tcp/tcp_analysis.h"

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli analyze FILE [--json | --csv [--segments]] [--low-window BYTES]
int runAnalyze(const std::vector<std::string>& args);
// The text report of analyze (capture summary and connection table), also printed by
// `project show` from a project's cached results.
void printAnalyzeSummary(const dissect::CaptureTables& tables, const analysis::TcpAnalysis& result);

} // namespace windscope::cli
