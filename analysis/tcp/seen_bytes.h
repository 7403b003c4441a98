// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The sequence space a sender's segments covered in the capture: the union of their
// byte ranges, not the distance from the first byte to the highest. Bytes the capture
// never shows (a frame dropped for a bad FCS whose retry was not heard either, a
// sniffer gap) leave holes that are not counted as delivered; a later segment that
// covers a hole (a retransmission, a reordered segment) fills it.

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace windscope::analysis {

class SeenBytes
{
public:
    // Bytes [from, from + length) of relative sequence space were seen.
    void add(std::int64_t from, std::int64_t length);
    std::uint64_t total() const { return m_total; }

private:
    void fill(std::int64_t from, std::int64_t to);

    // Holes kept at most; beyond, the lowest is forgotten, and bytes that fill it later
    // go uncounted: an undercount, never an overcount.
    static constexpr std::size_t kMaxHoles = 256;
    std::int64_t m_end = std::numeric_limits<std::int64_t>::min();
    std::uint64_t m_total = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_holes; // [from, to), ascending
};

} // namespace windscope::analysis
