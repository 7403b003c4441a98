// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Binary encoding of analysis results for the project file's cache. This is the one
// file that knows the layout of CaptureTables, TcpAnalysis and WlanEvents field by
// field: when one of those structs changes, adapt encode/decode here and bump
// kAnalysisCodecVersion, and caches written by the old layout are recomputed rather
// than misread.
//
// Layout: little-endian fixed-width integers and IEEE doubles; a vector is its count
// then its elements; columns of plain numbers are stored as one contiguous run (the
// columnar tables load with one copy per column). Decoding is bounds-checked: a
// short or damaged blob gives an error, never a partly filled result.

#include "analysis/tcp_analysis.h"
#include "analysis/wlan_events.h"
#include "dissectors/capture_tables.h"

#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis::store {

inline constexpr std::uint32_t kAnalysisCodecVersion = 1;

// Everything a fresh analysis of one capture produces that the project caches.
struct AnalysisBundle
{
    dissect::CaptureTables tables;
    TcpAnalysis tcp;
    WlanEvents events;
};

std::vector<std::uint8_t> encodeTables(const dissect::CaptureTables& tables);
std::vector<std::uint8_t> encodeTcp(const TcpAnalysis& tcp);
std::vector<std::uint8_t> encodeEvents(const WlanEvents& events);

bool decodeTables(const std::vector<std::uint8_t>& blob, dissect::CaptureTables& tables,
                  std::string& error);
bool decodeTcp(const std::vector<std::uint8_t>& blob, TcpAnalysis& tcp, std::string& error);
bool decodeEvents(const std::vector<std::uint8_t>& blob, WlanEvents& events, std::string& error);

// A stable pointer for text that the result structs hold as const char* (annotation
// fields and messages, event bases): decoded text is interned for the process's life.
const char* internedText(const std::string& text);

} // namespace windscope::analysis::store
