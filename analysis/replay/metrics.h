// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary of one transfer, from TcpAnalysis for a capture and a replay run alike
// (the CLI contract's M: goodput_bps, completion_s, retransmissions, rto_timeouts), and
// the calibration error of a baseline run against its capture.

#include "analysis/tcp_analysis.h"
#include "simulator.h"

#include <string>

namespace windscope::analysis::replay {

struct Metrics
{
    double goodputBps = 0;          // DirectionStats::goodputBps of the data sender
    double completionS = 0;         // first to last packet of the connection
    std::uint64_t retransmissions = 0;
    std::uint64_t rtoTimeouts = 0;
    std::uint64_t bytes = 0;        // unique bytes sent
    // Segments below the highest sequence sent that the analysis calls out of order
    // rather than retransmitted (Wireshark's 3 ms rule): from a sender, also resent data.
    std::uint64_t outOfOrder = 0;
    std::uint64_t dataPackets = 0;
};

Metrics metricsOf(const TcpAnalysis& analysis, std::size_t connection, int sender);
// Runs analyzeTcp over the run's trace tables.
Metrics metricsOf(const SimResult& run);

struct CalibrationError
{
    // Relative errors |baseline - capture| / capture (counts: over max(capture, 1)).
    double goodput = 0, completion = 0, retransmissions = 0, rtoTimeouts = 0;
    double threshold = 0.10;        // on goodput
    bool exceeded = false;
    std::string warning;            // set when exceeded
};

CalibrationError calibrationError(const Metrics& capture, const Metrics& baseline, double threshold = 0.10);

} // namespace windscope::analysis::replay
