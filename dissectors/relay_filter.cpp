// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay_filter.h"

#include "frame_record.h"

#include <algorithm>

namespace windscope::dissect {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

// What a router leaves alone: the conversation and direction (the IP addresses and
// ports), the IP identification and the whole TCP header that identifies the segment.
std::uint64_t identity(const FrameRecord& r)
{
    std::uint64_t h = mix(0, r.conversation);
    h = mix(h, std::uint64_t(r.tcpFlags) << 48 | std::uint64_t(r.ipId) << 32 | r.payloadLength);
    h = mix(h, std::uint64_t(r.seq) << 32 | r.ack);
    h = mix(h, std::uint64_t(r.tsVal) << 32 | r.tsEcr);
    return mix(h, r.window);
}

} // namespace

bool RelayFilter::isRelay(const FrameRecord& record, std::int64_t timeNs, FirstCopy& first)
{
    if (record.ipTtl == 0)
        return false;
    const std::uint64_t key = identity(record);
    auto [it, inserted] = m_seen.try_emplace(key, Entry{record.number, timeNs, record.ipTtl});
    if (!inserted) {
        Entry& e = it->second;
        if (timeNs - e.timeNs <= kMaxAgeNs && record.ipTtl < e.ttl) {
            first = {e.frame, e.ttl};
            return true;
        }
        if (timeNs - e.timeNs > kMaxAgeNs || record.ipTtl > e.ttl)
            e = {record.number, timeNs, record.ipTtl};
    }
    if (m_seen.size() >= m_purgeAt)
        purge(timeNs);
    return false;
}

void RelayFilter::purge(std::int64_t nowNs)
{
    std::erase_if(m_seen, [&](const auto& kv) { return nowNs - kv.second.timeNs > kMaxAgeNs; });
    m_purgeAt = std::max<std::size_t>(4096, 2 * m_seen.size());
}

} // namespace windscope::dissect
