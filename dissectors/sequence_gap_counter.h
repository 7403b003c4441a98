// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a monitor-mode sniffer missed, counted from the holes in each transmitter's
// 802.11 sequence numbers (IEEE 802.11-2020 10.3.2.14): a transmitter numbers its
// frames one by one, so frames neither heard first-hand nor as a retry leave a hole.
// Frames the sniffer missed are absent from every result; saying how many is the only
// honest answer.
//
// Counted streams: individually addressed QoS data frames with a body, per <transmitter,
// receiver, TID> (10.3.2.14.3), and non-QoS data frames per transmitter, whose counter
// management frames share (10.3.2.14.2): the management frames heard from the
// transmitter in between fill a non-QoS hole first, so a device that numbers its
// beacons apart is never charged with a gap. Numbers compare modulo 4096: a jump of
// 2048 or more (half the space) is taken as going back, not as a hole; a frame up to 64
// numbers behind fills the hole it belonged to (Block Ack retransmissions come out of
// order, 10.25), and one further behind restarts the count (a new association).

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace windscope::dissect {

class SequenceGapCounter
{
public:
    // A frame with a good FCS and a sequence number, addresses as MAC ids (receiver:
    // kNoReceiver for non-QoS streams), queue the TID of QoS data, 16 otherwise.
    static constexpr std::uint32_t kNoReceiver = 0xffffffffu;
    void dataFrame(std::uint32_t transmitter, std::uint32_t receiver, std::uint8_t queue,
                   std::uint16_t sequence);
    void managementFrame(std::uint32_t transmitter);

    struct Transmitter
    {
        std::uint32_t mac = 0;        // id in CaptureTables::macAddresses
        std::uint64_t frames = 0;     // distinct sequence numbers heard
        std::uint64_t missing = 0;    // sequence numbers never heard
    };
    // Transmitters with at least one hole, most missing first.
    std::vector<Transmitter> gaps() const;

private:
    struct Key
    {
        std::uint32_t transmitter, receiver;
        std::uint8_t queue;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash
    {
        std::size_t operator()(const Key& k) const noexcept
        {
            return (std::uint64_t(k.transmitter) << 32 | k.receiver) * 0x9e3779b97f4a7c15ull ^ k.queue;
        }
    };
    struct Stream
    {
        Transmitter* transmitter = nullptr; // in m_transmitters (its nodes stay put)
        std::uint16_t highest = 0;
        std::uint64_t missingBelow = 0; // bit i: highest - 1 - i was never heard
        std::uint32_t managementSince = 0;
    };
    void advance(const Key& key, std::uint16_t sequence);

    std::unordered_map<Key, Stream, KeyHash> m_streams;
    std::unordered_map<std::uint32_t, Transmitter> m_transmitters;
};

} // namespace windscope::dissect
