// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>

namespace windscope::dissect {

// Receiver-side duplicate detection as in IEEE 802.11-2020 10.3.2.14: a frame with
// the Retry bit set whose <transmitter, TID, sequence number, fragment number> was
// already received is a MAC retransmission, not new data. A monitor-mode sniffer hears
// both copies; only the first good one may reach TCP analysis. The cache keeps the
// last kWindow tuples per transmitter and TID, because block-ack retransmissions of an
// A-MPDU repeat several, not only the latest, sequence numbers.
class MacDuplicateFilter
{
public:
    MacDuplicateFilter() = default;
    // The recent-history cache points into the map: moving keeps the map's nodes,
    // copying would not.
    MacDuplicateFilter(const MacDuplicateFilter&) = delete;
    MacDuplicateFilter& operator=(const MacDuplicateFilter&) = delete;
    MacDuplicateFilter(MacDuplicateFilter&&) = default;
    MacDuplicateFilter& operator=(MacDuplicateFilter&&) = default;

    // Returns true when this frame duplicates one already accepted.
    bool isDuplicate(std::uint32_t transmitter, std::uint32_t receiver, std::uint8_t tid,
                     std::uint16_t sequence,
                     std::uint8_t fragment, bool retry, std::int64_t timeNs);

private:
    static constexpr std::size_t kWindow = 64;
    // A retry arrives within a few ms; a sequence number seen long ago has wrapped.
    static constexpr std::int64_t kMaxAgeNs = 500'000'000;
    struct Entry
    {
        std::uint16_t sequenceControl = 0xffff;
        std::int64_t timeNs = 0;
    };
    struct History
    {
        std::array<Entry, kWindow> entries{};
        std::uint32_t next = 0;
    };
    struct Key
    {
        std::uint32_t transmitter, receiver;
        std::uint8_t tid;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash
    {
        std::size_t operator()(const Key& k) const noexcept
        {
            return (std::uint64_t(k.transmitter) << 32 | k.receiver) * 0x9e3779b97f4a7c15ull ^ k.tid;
        }
    };
    History& historyOf(const Key& key);

    // Keyed by receiver too: a QoS transmitter numbers each <RA, TID> separately
    // (802.11-2020 10.3.2.14.3), so an AP's frames to two stations can share numbers.
    std::unordered_map<Key, History, KeyHash> m_history;
    // A few links carry most frames: a direct-mapped cache of their histories spares
    // the map's lookup (a division by its bucket count) on most frames.
    struct Recent
    {
        Key key{};
        History* history = nullptr;
    };
    std::array<Recent, 64> m_recent{};
};

} // namespace windscope::dissect
