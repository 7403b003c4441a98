// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The columnar result of ingest: one struct-of-arrays per layer. Rows are in capture
// order; frame numbers are 64-bit and 1-based like Wireshark's frame.number, so a row
// can be matched to any other tool's view of the same packet.

#include "frame.h"
#include "rising_number_column.h"

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace windscope::dissect {

// Interns values so that rows store a 32-bit id instead of the value.
template <typename Value, typename Hash>
class Dictionary
{
public:
    std::uint32_t intern(const Value& value)
    {
        auto [it, inserted] = m_index.try_emplace(value, static_cast<std::uint32_t>(m_values.size()));
        if (inserted)
            m_values.push_back(value);
        return it->second;
    }
    const Value& at(std::uint32_t id) const { return m_values[id]; }
    std::size_t size() const { return m_values.size(); }

private:
    std::vector<Value> m_values;
    std::unordered_map<Value, std::uint32_t, Hash> m_index;
};

struct MacHash
{
    std::size_t operator()(const MacAddress& m) const noexcept;
};
struct IpHash
{
    std::size_t operator()(const IpAddress& a) const noexcept;
};

// A TCP conversation: the two endpoints, ordered so that a is the lower
// (address, port). Splitting a conversation into connections (port reuse) is
// analysis's job; ingest only groups by the address/port 4-tuple.
struct ConversationKey
{
    std::uint32_t addrA = 0, addrB = 0; // ids in CaptureTables::ipAddresses
    std::uint16_t portA = 0, portB = 0;
    bool operator==(const ConversationKey&) const = default;
};
struct ConversationHash
{
    std::size_t operator()(const ConversationKey& k) const noexcept;
};

struct MalformedRecord
{
    std::uint64_t frame = 0;
    Annotation annotation;
};

struct CaptureSummary
{
    std::string path;
    std::uint64_t packets = 0;          // every record read, including malformed ones
    std::uint64_t bytesCaptured = 0;
    std::int64_t firstEpochNs = 0;      // absolute time of the first packet
    std::int64_t lastEpochNs = 0;
    std::vector<int> linkTypes;         // distinct, in order of first appearance
    std::vector<std::string> warnings;  // truncation, unknown link types, ...
    bool truncated = false;
    bool cancelled = false;
    std::uint64_t malformedPackets = 0;
    std::vector<MalformedRecord> malformed; // the first kMaxMalformedRecords of them
    static constexpr std::size_t kMaxMalformedRecords = 10000;
    std::uint64_t unknownLinkTypePackets = 0;
    std::uint64_t wlanFrames = 0;
    std::uint64_t badFcsFrames = 0;     // counted and kept out of TCP analysis
    std::uint64_t macDuplicateFrames = 0; // 802.11 retries of a frame already heard
    std::uint64_t ipFragmentsSkipped = 0;
    std::uint64_t tcpSegments = 0;
    // What the capture cannot show (each also named in warnings):
    std::array<std::uint64_t, kUndecodedKinds> undecodedPackets{}; // by Undecoded kind
    std::uint64_t repeatedPackets = 0;      // records repeating earlier ones: not analysed again
    std::uint64_t protectedDataFrames = 0;  // 802.11 data frames with an encrypted body
    // 802.11 sequence numbers never heard, per transmitter (SequenceGapCounter), most first.
    struct SequenceGaps
    {
        std::uint32_t mac = 0;    // id in CaptureTables::macAddresses
        std::uint64_t frames = 0; // sequence numbers heard
        std::uint64_t missing = 0;
    };
    std::vector<SequenceGaps> sequenceGaps;
};

// Address 1, 2 and 3 of an 802.11 frame: ids in CaptureTables::macAddresses,
// WlanColumns::kNoAddress where the frame has fewer addresses.
struct WlanAddressSet
{
    std::array<std::uint32_t, 3> mac{};
    bool operator==(const WlanAddressSet&) const = default;
};
struct WlanAddressSetHash
{
    std::size_t operator()(const WlanAddressSet& a) const noexcept;
};

// One row per 802.11 frame (any link type that carries 802.11).
struct WlanColumns
{
    static constexpr std::int8_t kNoSignal = -128;
    static constexpr std::uint32_t kNoAddress = 0xffffffffu;
    RisingNumberColumn frame;
    RisingTimeColumn timeNs;                 // relative to the capture's first packet
    std::vector<std::uint16_t> frameControl; // raw, little-endian value
    std::vector<std::uint16_t> sequenceControl; // seq << 4 | frag; 0xffff = none
    std::vector<std::uint16_t> duration;
    // A capture holds few distinct (addr1, addr2, addr3) sets (per link and direction,
    // plus ACKs and broadcasts), so a row keeps the id of its set: 4 bytes, not 12.
    std::vector<std::uint32_t> addresses;    // ids in addressSets
    Dictionary<WlanAddressSet, WlanAddressSetHash> addressSets;
    std::uint32_t addr1(std::size_t row) const { return addressSets.at(addresses[row]).mac[0]; }
    std::uint32_t addr2(std::size_t row) const { return addressSets.at(addresses[row]).mac[1]; }
    std::uint32_t addr3(std::size_t row) const { return addressSets.at(addresses[row]).mac[2]; }
    std::vector<std::int8_t> signalDbm;      // kNoSignal = absent
    std::vector<std::uint8_t> radioFlags;    // radiotap.flags
    std::vector<std::uint8_t> mcs;           // 0xff = none
    std::vector<std::uint32_t> dataRateKbps; // 0 = unknown
    std::vector<std::uint16_t> channelFreqMhz;
    std::vector<std::uint32_t> ampduReference; // 0 = not in an A-MPDU (+1 offset applied)
    std::vector<std::uint8_t> status;        // bit 0: bad FCS, bit 1: MAC duplicate, bit 2: relayed
    static constexpr std::uint8_t kBadFcs = 0x01, kMacDuplicate = 0x02;
    static constexpr std::uint8_t kRelayed = 0x04; // an IP packet heard before, forwarded by a relay (RelayFilter)
    std::size_t size() const { return frame.size(); }
    void reserve(std::size_t rows);
};

// Management frames are few next to data frames, so what their bodies say lives in
// this sparse side table, one record per management frame whose body was read, in
// WlanColumns row order; the per-frame row stays the same size.
struct WlanManagementRecord
{
    static constexpr std::uint32_t kNoSsid = 0xffffffffu;
    std::uint32_t row = 0;                 // row in WlanColumns
    std::uint32_t ssid = kNoSsid;          // id in CaptureTables::ssids
    std::uint16_t beaconIntervalTu = 0;    // 0 = absent
    std::uint16_t capability = 0;
    std::uint16_t statusCode = 0xffff;     // 0xffff = absent
    std::uint16_t reasonCode = 0;          // 0 = absent
    std::uint16_t authAlgorithm = 0xffff;  // 0xffff = absent
    std::uint16_t authSequence = 0;
    std::uint8_t dsChannel = 0;            // 0 = absent
    std::uint8_t actionCategory = 0xff, actionCode = 0xff;
};

struct StringHash
{
    std::size_t operator()(const std::string& s) const noexcept { return std::hash<std::string>{}(s); }
};

// Options that appear on few segments (handshake options, SACK blocks) live in a
// side table so the per-segment row stays small.
struct TcpSideOptions
{
    std::uint16_t mss = 0;
    std::int8_t windowScale = -1;
    bool sackPermitted = false;
    std::uint8_t sackBlockCount = 0;
    std::array<std::uint32_t, 8> sackBlocks{};
};

// One TCP segment as appended to TcpColumns (see there for each field's meaning).
struct TcpRow
{
    std::uint64_t frame = 0;
    std::int64_t timeNs = 0;
    std::uint32_t conversation = 0;
    std::uint32_t seq = 0, ack = 0;
    std::uint16_t window = 0;
    std::uint16_t flags = 0;
    std::uint32_t payloadLength = 0;
    std::uint32_t tsVal = 0, tsEcr = 0;
    std::uint32_t sideOptions = 0xffffffffu;
};

// One row per TCP segment seen once at the MAC layer and with a good FCS.
struct TcpColumns
{
    static constexpr std::uint32_t kNoSideOptions = 0xffffffffu;
    static constexpr std::uint16_t kDirectionBit = 0x8000; // set when sent b -> a
    static constexpr std::uint16_t kHasTimestamps = 0x4000;
    static constexpr std::uint16_t kHasSideOptions = 0x2000;
    RisingNumberColumn frame;
    std::vector<std::int64_t> timeNs;         // relative to the capture's first packet
    std::vector<std::uint32_t> conversation;  // index into CaptureTables::conversations
    std::vector<std::uint32_t> seq, ack;      // raw 32-bit values as on the wire
    std::vector<std::uint16_t> window;        // unscaled tcp.window_size_value
    std::vector<std::uint16_t> flags;         // tcp.flags | kDirectionBit | kHasTimestamps
    std::vector<std::uint32_t> payloadLength; // tcp.len
    std::vector<std::uint32_t> tsVal, tsEcr;
    // Sparse: the row of each CaptureTables::tcpSideOptions entry, ascending (few
    // segments carry handshake options or SACK blocks; their rows have kHasSideOptions).
    std::vector<std::uint64_t> sideOptionRows;
    std::size_t size() const { return frame.size(); }
    void reserve(std::size_t rows);
    std::size_t capacity() const { return frame.capacity(); } // rows reserved
    // row.sideOptions, when set, must name the next entry of tcpSideOptions: rows and
    // their options are appended together, in row order.
    void append(const TcpRow& row);
    // Index into CaptureTables::tcpSideOptions of the row's options, or kNoSideOptions.
    std::uint32_t sideOptionsIndex(std::size_t row) const;
    bool fromB(std::size_t row) const { return flags[row] & kDirectionBit; }
    std::uint16_t tcpFlags(std::size_t row) const { return flags[row] & 0x01ff; }
};

// A TCP segment kept out of analysis because its 802.11 frame repeats one already
// heard (MAC retry). Kept so the exclusion can be reported per connection.
struct ExcludedTcpSegment
{
    std::uint64_t frame = 0;
    std::int64_t timeNs = 0;
    std::uint32_t conversation = 0;
    bool fromB = false;
};

// A TCP segment heard again after a relay on the air forwarded it (RelayFilter): kept
// out of analysis, kept here so the chain of relays can be read from it.
struct RelayedTcpSegment
{
    std::uint64_t frame = 0;      // the relayed copy
    std::uint64_t firstFrame = 0; // the copy heard first
    std::int64_t timeNs = 0;
    std::uint32_t conversation = 0;
    bool fromB = false;
    std::uint8_t firstTtl = 0, ttl = 0; // ip.ttl of the first copy and of this one
};

struct CaptureTables
{
    CaptureSummary summary;
    WlanColumns wlan;
    TcpColumns tcp;
    std::vector<TcpSideOptions> tcpSideOptions;
    std::vector<ConversationKey> conversations;
    std::vector<ExcludedTcpSegment> macDuplicateTcp;
    std::vector<RelayedTcpSegment> relayedTcp;
    // Per conversation, the ip.ttl of the first segment heard from a and from b (0: none
    // heard): how many routers a packet passed on its way to the capture point.
    std::vector<std::array<std::uint8_t, 2>> conversationTtl;
    Dictionary<IpAddress, IpHash> ipAddresses;
    Dictionary<MacAddress, MacHash> macAddresses;
    std::vector<WlanManagementRecord> wlanManagement;
    Dictionary<std::string, StringHash> ssids; // raw SSID octets (may be any bytes)
};

} // namespace windscope::dissect
