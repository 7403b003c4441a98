// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Binary encoding of analysis results for the project file's cache. The codec_*.cpp
// files beside it are the ones that know the layout of CaptureTables, TcpAnalysis, the
// 802.11 products and the cwnd inference field by field (codec_parts.h): when one of
// those structs changes, adapt encode/decode there and bump
// kAnalysisCodecVersion, and caches written by the old layout are recomputed rather
// than misread.
//
// Layout: little-endian fixed-width integers and IEEE doubles; a vector is its count
// then its elements; columns of plain numbers are stored as one contiguous run (the
// columnar tables load with one copy per column). Decoding is bounds-checked: a
// short or damaged blob gives an error, never a partly filled result.

#include "analysis/pipeline/analysis_bundle.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace windscope::analysis::store {

using pipeline::AnalysisBundle;

// 5: the cwnd part (every connection's inferred congestion window).
// 6: relayed TCP segments and each conversation's TTLs in the capture part.
// 7: 802.11 lifecycle events, role conflicts, event attribution in the correlation.
// 8: the effective window around each event in the correlation.
// 9: what each event cost a connection (stalled time, goodput lost); the fleet part.
inline constexpr std::uint32_t kAnalysisCodecVersion = 9;

// The cache is stored in parts so that what a view needs can be loaded alone: the
// capture summary, connection, station and event tables and the event correlation are
// small; the per-frame and per-segment columns are most of the bytes and are needed
// only by plots and packet lists.
enum class CachePart : std::uint8_t {
    Capture,      // CaptureSummary, conversations, address/SSID dictionaries, side tables
    FrameColumns, // CaptureTables::wlan and ::tcp, one row per frame / segment
    Connections,  // TcpAnalysis::connections
    Segments,     // TcpAnalysis::segments and ::rtt
    Events,       // WlanEvents
    Inventory,    // WlanInventory
    Correlation,  // Correlation
    Cwnd,         // AnalysisBundle::cwnd, the data sender's inference of every connection
    Fleet,        // AnalysisBundle::fleet, what the events cost TCP by station, AP and SSID
};
inline constexpr CachePart kAllCacheParts[] = {
    CachePart::Capture, CachePart::FrameColumns, CachePart::Connections, CachePart::Segments,
    CachePart::Events,  CachePart::Inventory,    CachePart::Correlation, CachePart::Cwnd,
    CachePart::Fleet};
// Enough for the analyze report (writeAnalyzeJson): no per-frame data.
inline constexpr CachePart kReportCacheParts[] = {CachePart::Capture, CachePart::Connections};
// Everything but the per-frame and per-segment columns: what the desktop application
// shows first (summary, connection, event, station and correlation tables).
inline constexpr CachePart kOverviewCacheParts[] = {CachePart::Capture, CachePart::Connections,
                                                    CachePart::Events, CachePart::Inventory,
                                                    CachePart::Correlation};
// The rest: what plots and packet lists read (the cwnd series among them).
inline constexpr CachePart kDetailCacheParts[] = {CachePart::FrameColumns, CachePart::Segments,
                                                  CachePart::Cwnd};

const char* cachePartName(CachePart part); // "capture", "frame_columns", ...

std::vector<std::uint8_t> encodePart(CachePart part, const AnalysisBundle& results);
// Where a stored blob is read from: memory, or the database's pages directly.
class BlobSource
{
public:
    virtual ~BlobSource() = default;
    virtual std::size_t size() const = 0;
    // Copies n bytes at offset to out; false on an I/O error.
    virtual bool read(std::size_t offset, void* out, std::size_t n) = 0;
};

// Fills the members of out that the part holds (and only those).
bool decodePart(CachePart part, std::span<const std::uint8_t> blob, AnalysisBundle& out,
                std::string& error);
// The same from a source read front to back once; checksum (when given) receives
// blobChecksum of the bytes read, the whole blob when decoding succeeded.
bool decodePart(CachePart part, BlobSource& source, AnalysisBundle& out, std::string& error,
                std::uint64_t* checksum = nullptr);

// A fast checksum of a stored blob (four interleaved multiply-xor lanes over 64-bit
// words): SQLite checks page structure, not content, so a flipped bit inside a cached
// column would otherwise load as a wrong number. Not a defence against tampering.
std::uint64_t blobChecksum(std::span<const std::uint8_t> blob);
// The same checksum computed over a blob that arrives in pieces.
class StreamChecksum
{
public:
    void update(const std::uint8_t* bytes, std::size_t n);
    std::uint64_t value() const;

private:
    std::uint64_t m_lane[4] = {1, 2, 3, 4};
    std::uint8_t m_block[32] = {};
    std::size_t m_pending = 0;
    std::uint64_t m_total = 0;
};

// A stable pointer for text that the result structs hold as const char* (annotation
// fields and messages, event bases): decoded text is interned for the process's life.
const char* internedText(const std::string& text);

} // namespace windscope::analysis::store
