// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a monitor-mode sniffer missed, counted from the holes in each transmitter's
// 802.11 sequence numbers (IEEE 802.11-2020 10.3.2.14): a transmitter numbers its
// frames one by one, so frames neither heard first-hand nor as a retry leave a hole.
// Frames the sniffer missed are absent from every result; saying how many is the only
// honest answer.
//
// Counted streams: individually addressed QoS data frames with a body, per <transmitter,
// receiver, TID> (10.3.2.14.3), and non-QoS data frames per transmitter (10.3.2.14.2).
// A number missing from a stream is not a missed frame when the transmitter gave it to
// another of its frames: management frames and non-QoS data share the non-QoS counter,
// and many devices (mac80211_hwsim's lab stations and APs among them) number QoS data,
// Null frames and beacons from that one counter too. So every sequence-numbered frame
// heard from a transmitter, of any stream, fills a hole of its other streams with its
// number (one heard since the stream's previous frame or among the transmitter's last 64
// frames, or, heard later, up to 64 numbers behind the stream's latest).
// Numbers compare modulo 4096: a jump of 2048 or more (half the space) is taken as going
// back, not as a hole; a frame up to 64 numbers behind fills the hole it belonged to
// (Block Ack retransmissions come out of order, 10.25), and one further behind restarts
// the count (a new association).

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
    // Any other frame with a sequence number (management, Null, group-addressed data):
    // not a stream of its own, it only fills holes.
    void otherFrame(std::uint32_t transmitter, std::uint16_t sequence);

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
    struct Stream;
    static constexpr unsigned kRecent = 64;
    struct Owner
    {
        Transmitter counts;
        std::uint32_t clock = 0;            // frames heard from it so far
        // By sequence number: clock when last heard, 0 never; made with its first stream
        // (most transmitters send management frames only), until then the last kRecent
        // numbers heard.
        std::vector<std::uint32_t> heardAt;
        std::array<std::uint16_t, kRecent> recent{};
        std::vector<Stream*> streams;
    };
    struct Stream
    {
        Owner* owner = nullptr;             // in m_transmitters (its nodes stay put)
        std::uint16_t highest = 0;
        std::uint32_t lastClock = 0;        // owner's clock at this stream's latest frame
        std::uint64_t missingBelow = 0;     // bit i: highest - 1 - i was never heard
    };
    Owner& owner(std::uint32_t transmitter);
    void advance(const Key& key, std::uint16_t sequence);
    // The number heard from the owner: fills the holes of its streams other than except.
    void heard(Owner& o, std::uint16_t sequence, const Stream* except);

    std::unordered_map<Key, Stream, KeyHash> m_streams;
    std::unordered_map<std::uint32_t, Owner> m_transmitters;
};

} // namespace windscope::dissect
