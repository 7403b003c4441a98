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

void SequenceGapCounter::otherFrame(std::uint32_t transmitter, std::uint16_t sequence)
{
    heard(owner(transmitter), sequence, nullptr);
}

SequenceGapCounter::Owner& SequenceGapCounter::owner(std::uint32_t transmitter)
{
    auto [it, inserted] = m_transmitters.try_emplace(transmitter);
    if (inserted)
        it->second.counts.mac = transmitter;
    return it->second;
}

void SequenceGapCounter::heard(Owner& o, std::uint16_t sequence, const Stream* except)
{
    if (o.heardAt.empty()) {
        // No stream yet: nothing to fill; keep the recent numbers for the first one.
        o.recent[o.clock % kRecent] = static_cast<std::uint16_t>(sequence % kSequenceSpace);
        ++o.clock;
        return;
    }
    for (Stream* s : o.streams) {
        if (s == except)
            continue;
        const unsigned behind = static_cast<unsigned>(s->highest - sequence + kSequenceSpace) % kSequenceSpace;
        if (behind == 0 || behind > kRecentHoles)
            continue;
        const std::uint64_t bit = std::uint64_t{1} << (behind - 1);
        if (s->missingBelow & bit) {
            s->missingBelow &= ~bit;
            --o.counts.missing;
        }
    }
    o.heardAt[sequence % kSequenceSpace] = ++o.clock;
}

void SequenceGapCounter::advance(const Key& key, std::uint16_t sequence)
{
    Owner& o = owner(key.transmitter);
    auto [it, inserted] = m_streams.try_emplace(key);
    Stream& s = it->second;
    if (inserted) {
        if (o.heardAt.empty()) {
            o.heardAt.assign(kSequenceSpace, 0);
            for (std::uint32_t c = o.clock > kRecent ? o.clock - kRecent : 0; c < o.clock; ++c)
                o.heardAt[o.recent[c % kRecent]] = c + 1;
        }
        s.owner = &o;
        o.streams.push_back(&s);
        s.highest = sequence;
        ++o.counts.frames;
        heard(o, sequence, &s);
        s.lastClock = o.clock;
        return;
    }
    Transmitter& t = o.counts;
    const unsigned ahead = static_cast<unsigned>(sequence - s.highest + kSequenceSpace) % kSequenceSpace;
    if (ahead == 0) {
        heard(o, sequence, &s);
        s.lastClock = o.clock;
        return; // a retry or a copy of the latest
    }
    if (ahead < kHalfSpace) {
        // The numbers in between: missing unless the transmitter gave them to another of
        // its frames heard since this stream's previous one, or among its last
        // kRecentHoles frames (a frame numbered, queued, and sent after a later-numbered
        // Beacon). Bit i is sequence - 1 - i.
        std::uint64_t holes = 0, fresh = 0;
        for (unsigned i = 0; i + 1 < ahead; ++i) {
            const unsigned number = (sequence + kSequenceSpace - 1 - i) % kSequenceSpace;
            const std::uint32_t at = o.heardAt[number];
            if (at > s.lastClock || (at != 0 && o.clock - at < kRecentHoles))
                continue;
            ++holes;
            if (i < kRecentHoles)
                fresh |= std::uint64_t{1} << i;
        }
        const std::uint64_t shifted = ahead >= kRecentHoles ? 0 : s.missingBelow << ahead;
        s.missingBelow = shifted | fresh;
        s.highest = sequence;
        t.missing += holes;
        ++t.frames;
        heard(o, sequence, &s);
        s.lastClock = o.clock;
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
        heard(o, sequence, &s);
        return;
    }
    // Far behind: the counter restarted (a new association); number on from here.
    s.highest = sequence;
    s.missingBelow = 0;
    ++t.frames;
    heard(o, sequence, &s);
    s.lastClock = o.clock;
}

std::vector<SequenceGapCounter::Transmitter> SequenceGapCounter::gaps() const
{
    std::vector<Transmitter> out;
    for (const auto& [mac, o] : m_transmitters)
        if (o.counts.missing > 0)
            out.push_back(o.counts);
    std::sort(out.begin(), out.end(), [](const Transmitter& a, const Transmitter& b) {
        return a.missing != b.missing ? a.missing > b.missing : a.mac < b.mac;
    });
    return out;
}

} // namespace windscope::dissect
