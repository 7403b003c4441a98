// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tcp/tcp_analysis.h"

#include <ostream>

namespace windscope::analysis {

// Writes a CSV field, quoted when it holds a separator, quote or line break (RFC 4180).
void writeCsvField(std::ostream& out, const std::string& text);

// windscope-cli analyze FILE --csv: one row per connection direction.
void writeConnectionsCsv(std::ostream& out, const dissect::CaptureTables& tables,
                         const TcpAnalysis& analysis);

// windscope-cli analyze FILE --csv --segments: one row per TCP segment, with sequence
// and acknowledgement numbers relative to each direction's first sequence number and
// unwrapped to 64 bits, the scaled window, and the classifications.
void writeSegmentsCsv(std::ostream& out, const dissect::CaptureTables& tables,
                      const TcpAnalysis& analysis);

// Semicolon-separated classification names of a flags word ("" when none).
std::string classificationText(std::uint32_t flags);

} // namespace windscope::analysis
