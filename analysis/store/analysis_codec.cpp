// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis_codec.h"
#include "codec_parts.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <set>
#include <type_traits>

namespace windscope::analysis::store {

static_assert(std::endian::native == std::endian::little,
              "the cache layout is little-endian; add byte swapping for this target");

const char* internedText(const std::string& text)
{
    static std::mutex mutex;
    static std::set<std::string, std::less<>>* pool = new std::set<std::string, std::less<>>;
    std::lock_guard lock(mutex);
    return pool->insert(text).first->c_str();
}

void StreamChecksum::update(const std::uint8_t* p, std::size_t n)
{
    constexpr std::uint64_t kPrime = 0x9e3779b97f4a7c15ull;
    m_total += n;
    // Complete a block started by an earlier update.
    while (m_pending && n) {
        m_block[m_pending++] = *p++;
        --n;
        if (m_pending == 32) {
            for (int i = 0; i < 4; ++i) {
                std::uint64_t w;
                std::memcpy(&w, m_block + 8 * i, 8);
                m_lane[i] = (m_lane[i] ^ w) * kPrime;
            }
            m_pending = 0;
        }
    }
    // Four independent lanes keep the multiplier busy; one lane would be latency-bound.
    while (n >= 32) {
        for (int i = 0; i < 4; ++i) {
            std::uint64_t w;
            std::memcpy(&w, p + 8 * i, 8);
            m_lane[i] = (m_lane[i] ^ w) * kPrime;
        }
        p += 32;
        n -= 32;
    }
    if (n) // an empty column's data() may be null, and memcpy from null is undefined even for 0
        std::memcpy(m_block + m_pending, p, n);
    m_pending += n;
}

std::uint64_t StreamChecksum::value() const
{
    constexpr std::uint64_t kPrime = 0x9e3779b97f4a7c15ull;
    std::uint64_t h = m_total;
    for (std::uint64_t l : m_lane)
        h = (h ^ l) * kPrime;
    for (std::size_t i = 0; i < m_pending; ++i)
        h = (h ^ m_block[i]) * kPrime;
    return h ^ (h >> 29);
}

std::uint64_t blobChecksum(std::span<const std::uint8_t> blob)
{
    StreamChecksum checksum;
    checksum.update(blob.data(), blob.size());
    return checksum.value();
}

const char* cachePartName(CachePart part)
{
    switch (part) {
    case CachePart::Capture:
        return "capture";
    case CachePart::FrameColumns:
        return "frame_columns";
    case CachePart::Connections:
        return "connections";
    case CachePart::Segments:
        return "segments";
    case CachePart::Events:
        return "events";
    case CachePart::Inventory:
        return "inventory";
    case CachePart::Correlation:
        return "correlation";
    case CachePart::Cwnd:
        return "cwnd";
    case CachePart::Fleet:
        return "fleet";
    }
    return "?";
}

std::vector<std::uint8_t> encodePart(CachePart part, const AnalysisBundle& results)
{
    codec::Writer w(codec::partTag(part));
    switch (part) {
    case CachePart::Capture: codec::encodeCapture(w, results.tables); break;
    case CachePart::FrameColumns: codec::encodeFrameColumns(w, results.tables); break;
    case CachePart::Connections: codec::encodeConnections(w, results.tcp); break;
    case CachePart::Segments: codec::encodeSegments(w, results.tcp); break;
    case CachePart::Events: codec::encodeEvents(w, results.events); break;
    case CachePart::Inventory: codec::encodeInventory(w, results.inventory); break;
    case CachePart::Correlation: codec::encodeCorrelation(w, results.correlation); break;
    case CachePart::Cwnd: codec::encodeCwnd(w, results.cwnd); break;
    case CachePart::Fleet: codec::encodeFleet(w, results.fleet); break;
    }
    return w.take();
}

bool decodePart(CachePart part, BlobSource& source, AnalysisBundle& out, std::string& error,
                std::uint64_t* checksum)
{
    const std::string what = std::string("cached ") + cachePartName(part);
    codec::Reader r(source, codec::partTag(part), what.c_str());
    bool ok = false;
    switch (part) {
    case CachePart::Capture: ok = codec::decodeCapture(r, out.tables, error); break;
    case CachePart::FrameColumns: ok = codec::decodeFrameColumns(r, out.tables, error); break;
    case CachePart::Connections: ok = codec::decodeConnections(r, out.tcp, error); break;
    case CachePart::Segments: ok = codec::decodeSegments(r, out.tcp, error); break;
    case CachePart::Events: ok = codec::decodeEvents(r, out.events, error); break;
    case CachePart::Inventory: ok = codec::decodeInventory(r, out.inventory, error); break;
    case CachePart::Correlation: ok = codec::decodeCorrelation(r, out.correlation, error); break;
    case CachePart::Cwnd: ok = codec::decodeCwnd(r, out.cwnd, error); break;
    case CachePart::Fleet: ok = codec::decodeFleet(r, out.fleet, error); break;
    }
    if (checksum)
        *checksum = r.checksum();
    return ok;
}

bool decodePart(CachePart part, std::span<const std::uint8_t> blob, AnalysisBundle& out,
                std::string& error)
{
    codec::SpanSource source(blob);
    return decodePart(part, source, out, error);
}

} // namespace windscope::analysis::store
