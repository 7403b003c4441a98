// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Machine-readable reports for the CLI contract (docs/cli.md); the GUI's
// export uses the same functions, so both show the same numbers.

#include "analysis/tcp/tcp_analysis.h"

#include <ostream>
#include <string>

namespace windscope::analysis {

// "addr:port", IPv6 addresses in brackets.
std::string endpointText(const dissect::CaptureTables& tables, std::uint32_t addressId,
                         std::uint16_t port);
// Absolute epoch seconds of a capture-relative time, as exact decimal text with nine
// fractional digits (a double would lose the nanoseconds at present-day epochs).
std::string epochText(const dissect::CaptureTables& tables, std::int64_t relativeNs);

// A number with a fixed count of decimals, for CSV columns.
std::string fixedText(double value, int decimals);

class JsonWriter;
// The "capture" object every machine report starts with: counts, times, link types,
// warnings and malformed packets.
void writeCapture(JsonWriter& json, const dissect::CaptureTables& tables);

// windscope-cli analyze FILE --json
void writeAnalyzeJson(std::ostream& out, const dissect::CaptureTables& tables,
                      const TcpAnalysis& analysis);

} // namespace windscope::analysis
