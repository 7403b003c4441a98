// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A replay run as the analysis sees captures: the sender-side trace turned into
// dissect::CaptureTables TCP rows (handshake with MSS, window scale, SACK-permitted and
// timestamps; data, probes and ACKs with SACK blocks), so analyzeTcp() and everything
// built on it (statistics, classifications, plots, exports) works on a replay run as
// on a capture.

#include "dissectors/capture_tables.h"
#include "simulator.h"

namespace windscope::analysis::replay {

// Addresses of the simulated endpoints (documentation prefix, RFC 5737).
inline constexpr const char* kSimSenderAddress = "192.0.2.1";
inline constexpr const char* kSimReceiverAddress = "192.0.2.2";
inline constexpr std::uint16_t kSimSenderPort = 5001, kSimReceiverPort = 49152;

// The leading records of run.trace (in time order, the event queue's) a capture of the
// run would hold: those within Scenario::measuredOverS of its first data segment where
// the sender was still sending then (a capture cut mid-transfer), else all of them.
std::size_t recordsInSpan(const SimResult& run);

// firstEpochNs: absolute time of the first row (the SYN); 0 gives 1970. Over
// recordsInSpan() of the trace; a cut run ends without the FIN.
dissect::CaptureTables traceToTables(const SimResult& run, std::int64_t firstEpochNs = 0);

} // namespace windscope::analysis::replay
