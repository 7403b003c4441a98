// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tcp_analysis.h"

#include <string>

namespace windscope::cli {

// --flow: a connection id from analyze, or "ADDR:PORT-ADDR:PORT" naming the data
// sender first. Returns false when nothing matches.
bool resolveFlow(const dissect::CaptureTables& tables, const analysis::TcpAnalysis& tcp, const std::string& flow,
                 std::size_t& connection, int& sender);

} // namespace windscope::cli
