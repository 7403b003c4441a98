// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <unordered_map>

namespace windscope::dissect {

struct FrameRecord;

// A relay of a multi-hop 802.11 path (an ad hoc string, a mesh) is an IP router: it
// forwards each packet it receives with the TTL (hop limit) one lower (RFC 1812
// 5.3.1, RFC 8200 3.0). A radio in range of the relay hears the packet twice, from its
// sender and again from the relay, with other transmitter and receiver addresses, so
// the MAC duplicate filter (802.11-2020 10.3.2.14, keyed by transmitter) keeps both.
// The second copy is neither a new segment nor a retransmission of the TCP sender; a
// later copy of the same IP packet and TCP segment with a lower TTL is a relayed one.
class RelayFilter
{
public:
    struct FirstCopy
    {
        std::uint64_t frame = 0;
        std::uint8_t ttl = 0;
    };
    // For an 802.11 TCP frame: true, with the copy heard first, when the frame repeats
    // an IP packet heard before with a higher TTL. A copy with the same TTL is the
    // sender's own (a TCP retransmission or a MAC retry) and is not a relay.
    bool isRelay(const FrameRecord& record, std::int64_t timeNs, FirstCopy& first);

private:
    // A relay's queues (802.11's MSDU lifetime of 512 TU, a qdisc at link rate) hold a
    // packet well under a second; the age only bounds the memory, the key and the TTL
    // decide.
    static constexpr std::int64_t kMaxAgeNs = 1'000'000'000;
    struct Entry
    {
        std::uint64_t frame = 0;
        std::int64_t timeNs = 0;
        std::uint8_t ttl = 0;
    };
    void purge(std::int64_t nowNs);

    std::unordered_map<std::uint64_t, Entry> m_seen; // by a hash of the packet's identity
    std::size_t m_purgeAt = 4096;
};

} // namespace windscope::dissect
