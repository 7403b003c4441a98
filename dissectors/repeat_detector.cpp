// SPDX-License-Identifier: GPL-3.0-or-later
#include "repeat_detector.h"

#include <algorithm>
#include <cstring>

namespace windscope::dissect {

namespace {

// Headers decide: the first bytes hold every header up to TCP's, with the IP ID, the
// sequence numbers and the radio header's TSF timer, which differ between any two
// transmissions.
constexpr std::size_t kFingerprintBytes = 128;

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

std::uint64_t fingerprint(const RawPacket& p)
{
    std::uint64_t h = mix(static_cast<std::uint64_t>(p.epochNs),
                          std::uint64_t(p.capturedLength) << 32 | p.originalLength);
    h = mix(h, static_cast<std::uint64_t>(p.linkType));
    const std::size_t n = std::min<std::size_t>(p.capturedLength, kFingerprintBytes);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, p.data + i, 8);
        h = mix(h, word);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, p.data + i, n - i);
    h = mix(h, tail);
    return h | 1; // 0 marks an empty slot
}

} // namespace

RepeatDetector::RepeatDetector(std::size_t slots)
{
    std::size_t size = kWays;
    while (size < slots)
        size <<= 1;
    m_table.assign(size, 0);
    m_mask = size - 1;
}

bool RepeatDetector::isRepeat(const RawPacket& packet)
{
    if (m_any && packet.epochNs < m_latestNs)
        m_steppedBack = true;
    m_latestNs = m_any ? std::max(m_latestNs, packet.epochNs) : packet.epochNs;
    m_any = true;
    const std::uint64_t f = fingerprint(packet);
    // Four ways per set: a fingerprint is pushed out only when its set fills, not by the
    // first other fingerprint that hashes to its slot.
    std::uint64_t* set = m_table.data() + ((f >> 17) & m_mask & ~std::uint64_t{kWays - 1});
    for (std::size_t way = 0; way < kWays; ++way)
        if (set[way] == f)
            return m_steppedBack;
    for (std::size_t way = 0; way < kWays; ++way)
        if (set[way] == 0) {
            set[way] = f;
            return false;
        }
    set[(f >> 8) & (kWays - 1)] = f;
    return false;
}

} // namespace windscope::dissect
