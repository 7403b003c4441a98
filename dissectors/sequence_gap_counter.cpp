// SPDX-License-Identifier: GPL-3.0-or-later
#include "sequence_gap_counter.h"

#include <algorithm>

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kSequenceSpace = 4096, kHalfSpace = 2048; // 12-bit numbers
constexpr unsigned kRecentHoles = 64;

} // namespace

void SequenceGapCounter::dataFrame(std::uint32_t transmitter, std::uint32_t receiver, std::uint8_t queue,
                                   std::uint16_t sequence)
{
    advance({transmitter, receiver, queue}, sequence);
}

void SequenceGapCounter::managementFrame(std::uint32_t transmitter)
{
    auto it = m_streams.find({transmitter, kNoReceiver, 16});
    if (it != m_streams.end())
        ++it->second.managementSince;
}

void SequenceGapCounter::advance(const Key& key, std::uint16_t sequence)
{
    auto [it, inserted] = m_streams.try_emplace(key);
    Stream& s = it->second;
    if (inserted) {
        Transmitter& owner = m_transmitters[key.transmitter];
        owner.mac = key.transmitter;
        s.transmitter = &owner;
        s.highest = sequence;
        ++owner.frames;
        return;
    }
    Transmitter& t = *s.transmitter;
    const unsigned ahead = static_cast<unsigned>(sequence - s.highest + kSequenceSpace) % kSequenceSpace;
    if (ahead == 0)
        return; // a retry or a copy of the latest
    if (ahead < kHalfSpace) {
        std::uint64_t holes = ahead - 1;
        // Non-QoS numbers are shared with management frames (10.3.2.14.2).
        const std::uint64_t filled = std::min<std::uint64_t>(holes, s.managementSince);
        holes -= filled;
        s.managementSince = 0;
        const std::uint64_t shifted = ahead >= kRecentHoles ? 0 : s.missingBelow << ahead;
        const std::uint64_t fresh = holes >= kRecentHoles ? ~std::uint64_t{0} : (std::uint64_t{1} << holes) - 1;
        s.missingBelow = shifted | fresh;
        s.highest = sequence;
        t.missing += holes;
        ++t.frames;
        return;
    }
    const unsigned behind = kSequenceSpace - ahead;
    if (behind <= kRecentHoles) {
        const std::uint64_t bit = std::uint64_t{1} << (behind - 1);
        if (s.missingBelow & bit) {
            s.missingBelow &= ~bit;
            --t.missing;
            ++t.frames;
        }
        return;
    }
    // Far behind: the counter restarted (a new association); number on from here.
    s.highest = sequence;
    s.missingBelow = 0;
    s.managementSince = 0;
    ++t.frames;
}

std::vector<SequenceGapCounter::Transmitter> SequenceGapCounter::gaps() const
{
    std::vector<Transmitter> out;
    for (const auto& [mac, t] : m_transmitters)
        if (t.missing > 0)
            out.push_back(t);
    std::sort(out.begin(), out.end(), [](const Transmitter& a, const Transmitter& b) {
        return a.missing != b.missing ? a.missing > b.missing : a.mac < b.mac;
    });
    return out;
}

} // namespace windscope::dissect
