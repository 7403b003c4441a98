// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-make-bulk-capture: builds a large benchmark capture out of real Linux TCP
// transfers (the lab's sender.pcap runs). Each run is tiled many times as concurrent
// flows, every copy with its own client address, client port and start time, and the
// copies are merged by timestamp. The same merged packet stream is written twice:
// as the Ethernet frames the lab recorded, and as a monitor-mode 802.11 capture
// (radiotap + QoS data + LLC/SNAP, an 802.11 ACK after every data frame, and MAC
// retries for a few percent of the data frames).
//
// The TCP behaviour (loss, RTOs, SACK recovery) is the kernel's; only addresses,
// ports, checksums and times are rewritten, so per-flow packet order is kept.

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <random>
#include <string>
#include <vector>

namespace windscope::bench {

namespace {

constexpr std::uint32_t kLinkTypeEthernet = 1;
constexpr std::uint32_t kLinkTypeRadiotap = 127;
constexpr std::size_t kEthHeader = 14;

// One input run held in memory: the lab runs are a few MB each (snaplen 128).
struct InputPacket
{
    std::int64_t relNs = 0;        // since the run's first packet
    std::uint32_t ipOffset = 0;    // into InputRun::bytes: captured IP header onward
    std::uint16_t ipCaptured = 0;  // captured bytes of the IP packet
    std::uint32_t ipOriginal = 0;  // original length of the IP packet
    bool toClient = false;         // sent by the run's server (data direction)
};

struct InputRun
{
    std::string path;
    std::vector<std::uint8_t> bytes;
    std::vector<InputPacket> packets;
    std::array<std::uint8_t, 6> serverMac{}, clientMac{};
    std::int64_t firstNs = 0; // absolute time of the first packet
    std::uint32_t serverAddr = 0, clientAddr = 0; // host order
    std::uint16_t serverPort = 0, clientPort = 0;
};

struct Options
{
    std::uint64_t packets = 3'000'000;
    unsigned concurrency = 16;       // flows running at the same time
    double retryPercent = 3.0;       // data frames sent twice at the MAC layer
    std::uint64_t seed = 1;
    std::string ethPath, wlanPath;
    std::vector<std::string> inputs;
};

std::uint32_t rd32(const std::uint8_t* p, bool swap)
{
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}
std::uint16_t be16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint32_t be32(const std::uint8_t* p)
{
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}
void putBe16(std::uint8_t* p, std::uint16_t v)
{
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
}
bool readFile(const std::string& path, std::vector<std::uint8_t>& out, std::string& error)
{
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        error = path + ": " + std::strerror(errno);
        return false;
    }
    std::uint8_t buffer[1 << 16];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
        out.insert(out.end(), buffer, buffer + n);
    std::fclose(f);
    return true;
}

// Reads a classic pcap of Ethernet frames carrying one IPv4 TCP connection (the lab's
// sender.pcap). The server is the side that sends the first SYN-ACK, or failing that
// the side that sends more payload.
bool loadRun(const std::string& path, InputRun& run, std::string& error)
{
    std::vector<std::uint8_t> file;
    if (!readFile(path, file, error))
        return false;
    if (file.size() < 24) {
        error = path + ": too short for a pcap file";
        return false;
    }
    std::uint32_t magic;
    std::memcpy(&magic, file.data(), 4);
    bool swap = false, nano = false;
    switch (magic) {
    case 0xa1b2c3d4: break;
    case 0xa1b23c4d: nano = true; break;
    case 0xd4c3b2a1: swap = true; break;
    case 0x4d3cb2a1: swap = nano = true; break;
    default:
        error = path + ": not a classic pcap file (pcapng is not supported here)";
        return false;
    }
    const std::uint32_t linkType = rd32(file.data() + 20, swap) & 0x0fffffff;
    if (linkType != kLinkTypeEthernet) {
        error = path + ": link type " + std::to_string(linkType) + ", expected Ethernet (1)";
        return false;
    }
    run.path = path;
    run.bytes.reserve(file.size());
    std::int64_t firstNs = -1;
    std::uint64_t skipped = 0;
    std::array<std::int64_t, 2> payloadBySide{}; // [0]: sent by the first source seen
    std::uint32_t firstSrc = 0;
    std::uint16_t firstSrcPort = 0, firstDstPort = 0;
    std::uint32_t firstDst = 0;
    int synAckSide = -1;
    std::array<std::uint8_t, 6> firstSrcMac{}, firstDstMac{};
    bool haveFirst = false;

    std::size_t off = 24;
    while (off + 16 <= file.size()) {
        const std::uint8_t* h = file.data() + off;
        const std::uint32_t sec = rd32(h, swap), frac = rd32(h + 4, swap);
        const std::uint32_t caplen = rd32(h + 8, swap), origlen = rd32(h + 12, swap);
        off += 16;
        if (caplen > file.size() - off) {
            std::fprintf(stderr, "%s: cut short in a record, using the packets before it\n",
                         path.c_str());
            break;
        }
        const std::uint8_t* p = file.data() + off;
        off += caplen;
        const std::int64_t ns = std::int64_t(sec) * 1'000'000'000 + (nano ? frac : frac * 1000LL);
        // Only untagged IPv4 carrying TCP with its ports and checksum captured.
        if (caplen < kEthHeader + 20 + 20 || be16(p + 12) != 0x0800 || (p[14] >> 4) != 4 ||
            p[14 + 9] != 6) {
            ++skipped;
            continue;
        }
        const std::size_t ihl = (p[14] & 0x0f) * 4u;
        if (ihl < 20 || caplen < kEthHeader + ihl + 18) {
            ++skipped;
            continue;
        }
        const std::uint8_t* ip = p + kEthHeader;
        const std::uint32_t src = be32(ip + 12), dst = be32(ip + 16);
        const std::uint16_t sport = be16(ip + ihl), dport = be16(ip + ihl + 2);
        if (!haveFirst) {
            haveFirst = true;
            firstSrc = src;
            firstDst = dst;
            firstSrcPort = sport;
            firstDstPort = dport;
            std::memcpy(firstDstMac.data(), p, 6);
            std::memcpy(firstSrcMac.data(), p + 6, 6);
        }
        const bool fromFirst = src == firstSrc && sport == firstSrcPort;
        if (!fromFirst && !(src == firstDst && sport == firstDstPort)) {
            ++skipped; // a second connection: the lab runs have one, keep it that way
            continue;
        }
        const std::size_t tcpOff = ihl;
        const std::uint8_t flags = ip[tcpOff + 13];
        if ((flags & 0x12) == 0x12 && synAckSide < 0)
            synAckSide = fromFirst ? 0 : 1;
        const std::uint32_t ipTotal = be16(ip + 2);
        const std::uint32_t tcpHeader = caplen >= kEthHeader + ihl + 13 ? (ip[tcpOff + 12] >> 4) * 4u : 20;
        if (ipTotal > ihl + tcpHeader)
            payloadBySide[fromFirst ? 0 : 1] += ipTotal - ihl - tcpHeader;
        if (firstNs < 0)
            firstNs = ns;

        InputPacket packet;
        packet.relNs = ns - firstNs;
        packet.ipOffset = static_cast<std::uint32_t>(run.bytes.size());
        packet.ipCaptured = static_cast<std::uint16_t>(caplen - kEthHeader);
        packet.ipOriginal = origlen > kEthHeader ? static_cast<std::uint32_t>(origlen - kEthHeader) : packet.ipCaptured;
        packet.toClient = fromFirst; // fixed below once the server side is known
        run.bytes.insert(run.bytes.end(), ip, ip + packet.ipCaptured);
        run.packets.push_back(packet);
    }
    if (run.packets.empty()) {
        error = path + ": no IPv4 TCP packets";
        return false;
    }
    const int serverSide = synAckSide >= 0 ? synAckSide : (payloadBySide[0] >= payloadBySide[1] ? 0 : 1);
    for (InputPacket& packet : run.packets)
        packet.toClient = serverSide == 0 ? packet.toClient : !packet.toClient;
    run.firstNs = firstNs;
    run.serverAddr = serverSide == 0 ? firstSrc : firstDst;
    run.clientAddr = serverSide == 0 ? firstDst : firstSrc;
    run.serverPort = serverSide == 0 ? firstSrcPort : firstDstPort;
    run.clientPort = serverSide == 0 ? firstDstPort : firstSrcPort;
    run.serverMac = serverSide == 0 ? firstSrcMac : firstDstMac;
    run.clientMac = serverSide == 0 ? firstDstMac : firstSrcMac;
    if (skipped)
        std::fprintf(stderr, "%s: skipped %llu packets that are not the run's IPv4 TCP connection\n",
                     path.c_str(), static_cast<unsigned long long>(skipped));
    return true;
}

// RFC 1624 eqn. 3: update a one's-complement checksum when one 16-bit word changes,
// so the rewritten packets keep the correct checksums the lab recorded.
std::uint16_t checksumAdjust(std::uint16_t checksum, std::uint16_t oldWord, std::uint16_t newWord)
{
    std::uint32_t sum = static_cast<std::uint16_t>(~checksum);
    sum += static_cast<std::uint16_t>(~oldWord);
    sum += newWord;
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    return static_cast<std::uint16_t>(~sum);
}

// One tiled copy of a run, as a concurrent flow.
struct Copy
{
    const InputRun* run = nullptr;
    std::int64_t startNs = 0;
    std::size_t next = 0;           // cursor into run->packets
    std::uint32_t clientAddr = 0;   // host order
    std::uint16_t clientPort = 0;
    std::array<std::uint8_t, 6> stationMac{};
    std::uint16_t apSequence = 0;   // AP -> station, TID 0
    std::uint16_t staSequence = 0;  // station -> AP, TID 0
    std::int8_t stationSignal = -60; // as the sniffer next to the AP hears the station
};

// Rewrites the client endpoint of an IP packet in place; fixes IP and TCP checksums.
void rewriteClient(std::uint8_t* ip, std::size_t captured, const InputPacket& packet, const Copy& copy)
{
    const std::size_t ihl = (ip[0] & 0x0f) * 4u;
    const std::size_t addrOff = packet.toClient ? 16 : 12;
    const std::size_t portOff = ihl + (packet.toClient ? 2 : 0);
    const std::size_t tcpSumOff = ihl + 16;
    std::uint16_t ipSum = be16(ip + 10);
    const bool haveTcpSum = captured >= tcpSumOff + 2;
    std::uint16_t tcpSum = haveTcpSum ? be16(ip + tcpSumOff) : 0;
    const std::uint16_t newAddr[2] = {static_cast<std::uint16_t>(copy.clientAddr >> 16),
                                      static_cast<std::uint16_t>(copy.clientAddr)};
    for (int i = 0; i < 2; ++i) {
        const std::uint16_t old = be16(ip + addrOff + 2 * i);
        ipSum = checksumAdjust(ipSum, old, newAddr[i]);
        tcpSum = checksumAdjust(tcpSum, old, newAddr[i]); // pseudo-header, RFC 793 3.1
        putBe16(ip + addrOff + 2 * i, newAddr[i]);
    }
    putBe16(ip + 10, ipSum);
    const std::uint16_t oldPort = be16(ip + portOff);
    tcpSum = checksumAdjust(tcpSum, oldPort, copy.clientPort);
    putBe16(ip + portOff, copy.clientPort);
    if (haveTcpSum)
        putBe16(ip + tcpSumOff, tcpSum);
}

// Buffered classic pcap writer with nanosecond timestamps.
class PcapWriter
{
public:
    bool open(const std::string& path, std::uint32_t linkType, std::uint32_t snaplen, std::string& error)
    {
        m_file = std::fopen(path.c_str(), "wb");
        if (!m_file) {
            error = path + ": " + std::strerror(errno);
            return false;
        }
        m_path = path;
        m_buffer.reserve(kFlushAt + 70000);
        std::uint8_t header[24];
        const std::uint32_t magic = 0xa1b23c4d; // nanosecond resolution
        const std::uint16_t major = 2, minor = 4;
        const std::uint32_t zero = 0;
        std::memcpy(header, &magic, 4);
        std::memcpy(header + 4, &major, 2);
        std::memcpy(header + 6, &minor, 2);
        std::memcpy(header + 8, &zero, 4);
        std::memcpy(header + 12, &zero, 4);
        std::memcpy(header + 16, &snaplen, 4);
        std::memcpy(header + 20, &linkType, 4);
        m_buffer.insert(m_buffer.end(), header, header + 24);
        return true;
    }
    bool isOpen() const { return m_file != nullptr; }
    bool ok() const { return m_ok; }
    // Reserves a record and returns where its captured bytes go.
    std::uint8_t* begin(std::int64_t timeNs, std::uint32_t captured, std::uint32_t original)
    {
        const std::size_t at = m_buffer.size();
        m_buffer.resize(at + 16 + captured);
        std::uint8_t* h = m_buffer.data() + at;
        const std::uint32_t sec = static_cast<std::uint32_t>(timeNs / 1'000'000'000);
        const std::uint32_t nsec = static_cast<std::uint32_t>(timeNs % 1'000'000'000);
        std::memcpy(h, &sec, 4);
        std::memcpy(h + 4, &nsec, 4);
        std::memcpy(h + 8, &captured, 4);
        std::memcpy(h + 12, &original, 4);
        ++m_records;
        return h + 16;
    }
    bool endRecord()
    {
        if (m_buffer.size() >= kFlushAt)
            m_ok = flush() && m_ok;
        return m_ok;
    }
    bool close(std::string& error)
    {
        bool ok = flush() && m_ok;
        if (m_file && std::fclose(m_file) != 0)
            ok = false;
        m_file = nullptr;
        if (!ok)
            error = m_path + ": write failed: " + std::strerror(errno);
        return ok;
    }
    std::uint64_t records() const { return m_records; }

private:
    bool flush()
    {
        bool ok = std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) == m_buffer.size();
        m_buffer.clear();
        return ok;
    }
    static constexpr std::size_t kFlushAt = 4u << 20;
    FILE* m_file = nullptr;
    std::string m_path;
    std::vector<std::uint8_t> m_buffer;
    std::uint64_t m_records = 0;
    bool m_ok = true; // a failed write is reported once, at close
};

// The monitor-mode view of the merged stream: one AP (BSSID) on 5 GHz channel 36, every
// copy a station associated to it, the sniffer next to the AP.
class WlanEncoder
{
public:
    WlanEncoder(PcapWriter& out, double retryPercent, std::uint64_t seed)
        : m_out(out), m_retryProbability(retryPercent / 100.0), m_random(seed ^ 0x9e3779b97f4a7c15ULL)
    {
    }

    void add(std::int64_t timeNs, const std::uint8_t* ip, std::uint32_t ipCaptured, std::uint32_t ipOriginal,
             bool fromAp, Copy& copy, const std::array<std::uint8_t, 6>& serverMac)
    {
        // Frames of one exchange follow each other on the air; the pcap must stay in
        // time order, so an exchange starts no earlier than the previous one ended.
        std::int64_t t = std::max(timeNs, m_clock);
        const std::uint16_t sequence = fromAp ? copy.apSequence++ : copy.staSequence++;
        copy.apSequence &= 0x0fff;
        copy.staSequence &= 0x0fff;
        const std::array<std::uint8_t, 6>& transmitter = fromAp ? kBssid : copy.stationMac;
        const bool retried = m_uniform(m_random) < m_retryProbability;
        writeData(t, ip, ipCaptured, ipOriginal, fromAp, false, sequence, copy, serverMac);
        t += kSifsNs;
        writeAck(t, transmitter, fromAp ? copy.stationSignal : kApSignal);
        if (retried) {
            ++m_retries;
            // The ACK was heard here but lost at the transmitter (802.11-2020 10.3.2.3:
            // no ACK within AckTimeout means a retry); same sequence number, Retry bit.
            t += kRetryGapNs;
            writeData(t, ip, ipCaptured, ipOriginal, fromAp, true, sequence, copy, serverMac);
            t += kSifsNs;
            writeAck(t, transmitter, fromAp ? copy.stationSignal : kApSignal);
        }
        m_clock = t + 1000;
    }

    std::uint64_t retries() const { return m_retries; }

private:
    // Radiotap fields present on data frames: Flags (1), Rate (2), Channel (3),
    // dBm antenna signal (5), A-MPDU status (20); ACKs carry no A-MPDU status.
    static constexpr std::uint32_t kPresentData = 1u << 1 | 1u << 2 | 1u << 3 | 1u << 5 | 1u << 20;
    static constexpr std::uint32_t kPresentAck = 1u << 1 | 1u << 2 | 1u << 3 | 1u << 5;
    static constexpr std::size_t kRadiotapData = 24; // with the A-MPDU field aligned to 4
    static constexpr std::size_t kRadiotapAck = 15;
    static constexpr std::size_t kQosDataHeader = 26;
    static constexpr std::size_t kLlcSnap = 8;
    static constexpr std::size_t kAckFrame = 10;
    static constexpr std::size_t kFcs = 4;
    static constexpr std::int64_t kSifsNs = 16'000;      // OFDM SIFS, 802.11-2020 Table 17-21
    static constexpr std::int64_t kRetryGapNs = 120'000; // AckTimeout plus a short backoff
    static constexpr std::int8_t kApSignal = -38;
    static constexpr std::uint16_t kFreqMhz = 5180;      // channel 36
    static constexpr std::uint16_t kChannelFlags = 0x0140; // OFDM | 5 GHz
    static constexpr std::uint8_t kRadiotapFcs = 0x10;     // radiotap.flags.fcs: FCS at end
    // A prefix of its own, so no station address can equal it.
    static constexpr std::array<std::uint8_t, 6> kBssid{0x02, 0x57, 0x41, 0x50, 0x00, 0x01};

    std::uint8_t* writeRadiotap(std::uint8_t* p, bool data, std::uint8_t rate500k, std::int8_t signal)
    {
        const std::uint16_t length = static_cast<std::uint16_t>(data ? kRadiotapData : kRadiotapAck);
        const std::uint32_t present = data ? kPresentData : kPresentAck;
        p[0] = 0; // version
        p[1] = 0;
        std::memcpy(p + 2, &length, 2); // radiotap is little-endian; so is this host
        std::memcpy(p + 4, &present, 4);
        p[8] = kRadiotapFcs;
        p[9] = rate500k;
        std::memcpy(p + 10, &kFreqMhz, 2);
        std::memcpy(p + 12, &kChannelFlags, 2);
        // A couple of dB of fading from frame to frame.
        p[14] = static_cast<std::uint8_t>(signal + static_cast<std::int8_t>(m_random() % 5) - 2);
        if (data) {
            p[15] = 0; // pad to the A-MPDU field's 4-byte alignment
            // A single-MPDU A-MPDU (S-MPDU): acknowledged by a normal ACK. Flags: last
            // subframe known and set, EOF known and set.
            const std::uint32_t reference = m_ampduReference++;
            const std::uint16_t flags = 0x0004 | 0x0008 | 0x0040 | 0x0080;
            std::memcpy(p + 16, &reference, 4);
            std::memcpy(p + 20, &flags, 2);
            p[22] = 0;
            p[23] = 0;
        }
        return p + length;
    }

    void writeData(std::int64_t t, const std::uint8_t* ip, std::uint32_t ipCaptured, std::uint32_t ipOriginal,
                   bool fromAp, bool retry, std::uint16_t sequence, const Copy& copy,
                   const std::array<std::uint8_t, 6>& serverMac)
    {
        const std::size_t headers = kRadiotapData + kQosDataHeader + kLlcSnap;
        // The sender-side capture had snaplen 128: a cut IP packet stays cut, and then
        // the FCS at the end of the MPDU is not captured either.
        const bool whole = ipCaptured >= ipOriginal;
        const std::uint32_t captured = static_cast<std::uint32_t>(headers + ipCaptured + (whole ? kFcs : 0));
        const std::uint32_t original = static_cast<std::uint32_t>(headers + ipOriginal + kFcs);
        std::uint8_t* p = m_out.begin(t, captured, original);
        std::uint8_t* mac = writeRadiotap(p, true, 108 /* 54 Mb/s */, fromAp ? kApSignal : copy.stationSignal);
        // QoS Data (type 2, subtype 8). FromDS from the AP to a station, ToDS the other
        // way (802.11-2020 9.3.2.1 Table 9-30): addr1 RA, addr2 TA, addr3 SA or DA.
        mac[0] = 0x88;
        mac[1] = static_cast<std::uint8_t>((fromAp ? 0x02 : 0x01) | (retry ? 0x08 : 0x00));
        const std::uint16_t duration = 44; // SIFS + ACK at 24 Mb/s, in microseconds
        std::memcpy(mac + 2, &duration, 2);
        if (fromAp) {
            std::memcpy(mac + 4, copy.stationMac.data(), 6);
            std::memcpy(mac + 10, kBssid.data(), 6);
            std::memcpy(mac + 16, serverMac.data(), 6);
        } else {
            std::memcpy(mac + 4, kBssid.data(), 6);
            std::memcpy(mac + 10, copy.stationMac.data(), 6);
            std::memcpy(mac + 16, serverMac.data(), 6);
        }
        const std::uint16_t sequenceControl = static_cast<std::uint16_t>(sequence << 4);
        std::memcpy(mac + 22, &sequenceControl, 2);
        mac[24] = 0; // QoS control: TID 0 (best effort), normal ack policy
        mac[25] = 0;
        static constexpr std::uint8_t kSnapIpv4[kLlcSnap] = {0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00};
        std::memcpy(mac + kQosDataHeader, kSnapIpv4, kLlcSnap);
        std::memcpy(mac + kQosDataHeader + kLlcSnap, ip, ipCaptured);
        if (whole) {
            const std::size_t mpdu = kQosDataHeader + kLlcSnap + ipCaptured;
            const std::uint32_t fcs = static_cast<std::uint32_t>(crc32(0L, mac, static_cast<uInt>(mpdu)));
            std::memcpy(mac + mpdu, &fcs, 4); // transmitted least significant byte first
        }
        m_out.endRecord();
    }

    void writeAck(std::int64_t t, const std::array<std::uint8_t, 6>& receiver, std::int8_t signal)
    {
        const std::uint32_t length = static_cast<std::uint32_t>(kRadiotapAck + kAckFrame + kFcs);
        std::uint8_t* p = m_out.begin(t, length, length);
        std::uint8_t* mac = writeRadiotap(p, false, 48 /* 24 Mb/s */, signal);
        mac[0] = 0xd4; // Control (type 1), subtype 13: Ack
        mac[1] = 0;
        mac[2] = 0;
        mac[3] = 0;
        std::memcpy(mac + 4, receiver.data(), 6);
        const std::uint32_t fcs = static_cast<std::uint32_t>(crc32(0L, mac, kAckFrame));
        std::memcpy(mac + kAckFrame, &fcs, 4);
        m_out.endRecord();
    }

    PcapWriter& m_out;
    double m_retryProbability;
    std::mt19937_64 m_random;
    std::uniform_real_distribution<double> m_uniform{0.0, 1.0};
    std::uint32_t m_ampduReference = 1;
    std::int64_t m_clock = 0;
    std::uint64_t m_retries = 0;
};

void printUsage(FILE* out)
{
    std::fprintf(out,
                 "usage: windscope-make-bulk-capture [options] SENDER.pcap...\n"
                 "  --packets N       TCP packets to produce, at least (default 3000000)\n"
                 "  --concurrency K   flows running at the same time (default 16)\n"
                 "  --retry-percent P data frames repeated as MAC retries (default 3)\n"
                 "  --seed S          random seed for start jitter, signal, retries (default 1)\n"
                 "  --eth FILE        write the Ethernet capture (link type 1)\n"
                 "  --wlan FILE       write the 802.11 radiotap capture (link type 127)\n"
                 "Inputs are classic Ethernet pcaps of one TCP connection each, such as\n"
                 "../shared/captures/lab/linux/*/sender.pcap.\n");
}

bool parseArgs(int argc, char** argv, Options& options)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char* name) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "windscope-make-bulk-capture: %s needs a value\n", name);
                return nullptr;
            }
            return argv[++i];
        };
        const char* v = nullptr;
        if (arg == "--help" || arg == "-h") {
            printUsage(stdout);
            std::exit(0);
        } else if (arg == "--packets") {
            if (!(v = value("--packets")))
                return false;
            options.packets = std::strtoull(v, nullptr, 10);
        } else if (arg == "--concurrency") {
            if (!(v = value("--concurrency")))
                return false;
            options.concurrency = static_cast<unsigned>(std::max(1ul, std::strtoul(v, nullptr, 10)));
        } else if (arg == "--retry-percent") {
            if (!(v = value("--retry-percent")))
                return false;
            options.retryPercent = std::clamp(std::strtod(v, nullptr), 0.0, 100.0);
        } else if (arg == "--seed") {
            if (!(v = value("--seed")))
                return false;
            options.seed = std::strtoull(v, nullptr, 10);
        } else if (arg == "--eth") {
            if (!(v = value("--eth")))
                return false;
            options.ethPath = v;
        } else if (arg == "--wlan") {
            if (!(v = value("--wlan")))
                return false;
            options.wlanPath = v;
        } else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "windscope-make-bulk-capture: unknown option %s\n", arg.c_str());
            return false;
        } else {
            options.inputs.push_back(arg);
        }
    }
    if (options.inputs.empty() || (options.ethPath.empty() && options.wlanPath.empty())) {
        printUsage(stderr);
        return false;
    }
    return true;
}

int run(int argc, char** argv)
{
    Options options;
    if (!parseArgs(argc, argv, options))
        return 2;
    const auto started = std::chrono::steady_clock::now();

    std::vector<InputRun> runs(options.inputs.size());
    std::string error;
    std::int64_t baseNs = INT64_MAX; // the merged capture starts where the earliest run did
    std::int64_t longestNs = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!loadRun(options.inputs[i], runs[i], error)) {
            std::fprintf(stderr, "windscope-make-bulk-capture: %s\n", error.c_str());
            return 1;
        }
        longestNs = std::max(longestNs, runs[i].packets.back().relNs);
        baseNs = std::min(baseNs, runs[i].firstNs);
    }
    // Tile copies, cycling through the runs, until the packet target is reached. A copy
    // starts every longest-run / concurrency seconds (with jitter), so about
    // `concurrency` flows overlap at any time like clients of one busy server.
    std::mt19937_64 random(options.seed);
    const std::int64_t strideNs = std::max<std::int64_t>(longestNs / options.concurrency, 1'000'000);
    std::vector<Copy> copies;
    std::uint64_t total = 0;
    while (total < options.packets) {
        const std::size_t index = copies.size();
        if (index >= (1u << 22)) {
            std::fprintf(stderr, "windscope-make-bulk-capture: too many copies needed\n");
            return 1;
        }
        Copy copy;
        copy.run = &runs[index % runs.size()];
        const std::int64_t jitter = static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(strideNs / 2 + 1));
        copy.startNs = baseNs + static_cast<std::int64_t>(index) * strideNs + jitter;
        // Clients 10.128.0.2 onwards (10.128.0.0/9), ephemeral ports (RFC 6335 range
        // 32768-60999 as Linux uses) stepped by a prime so neighbours differ.
        copy.clientAddr = (10u << 24 | 128u << 16) + 2u + static_cast<std::uint32_t>(index);
        copy.clientPort = static_cast<std::uint16_t>(32768 + (index * 7919) % 28232);
        // Locally administered station addresses carrying the copy number.
        copy.stationMac = {0x02, 0x57, 0x53, static_cast<std::uint8_t>(index >> 16),
                           static_cast<std::uint8_t>(index >> 8), static_cast<std::uint8_t>(index)};
        copy.apSequence = static_cast<std::uint16_t>(random() & 0x0fff);
        copy.staSequence = static_cast<std::uint16_t>(random() & 0x0fff);
        copy.stationSignal = static_cast<std::int8_t>(-48 - static_cast<int>(random() % 30));
        total += copy.run->packets.size();
        copies.push_back(copy);
    }

    PcapWriter eth, wlan;
    if (!options.ethPath.empty() && !eth.open(options.ethPath, kLinkTypeEthernet, 65535, error)) {
        std::fprintf(stderr, "windscope-make-bulk-capture: %s\n", error.c_str());
        return 1;
    }
    if (!options.wlanPath.empty() && !wlan.open(options.wlanPath, kLinkTypeRadiotap, 65535, error)) {
        std::fprintf(stderr, "windscope-make-bulk-capture: %s\n", error.c_str());
        return 1;
    }
    WlanEncoder encoder(wlan, options.retryPercent, options.seed);

    // Merge by timestamp: a min-heap of each copy's next packet. Ties go to the lower
    // copy number so the output is reproducible.
    using Entry = std::pair<std::int64_t, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    for (std::uint32_t i = 0; i < copies.size(); ++i)
        heap.emplace(copies[i].startNs + copies[i].run->packets.front().relNs, i);
    std::vector<std::uint8_t> scratch(65536);
    std::uint64_t written = 0;
    while (!heap.empty()) {
        const auto [timeNs, index] = heap.top();
        heap.pop();
        Copy& copy = copies[index];
        const InputRun& source = *copy.run;
        const InputPacket& packet = source.packets[copy.next++];
        if (copy.next < source.packets.size())
            heap.emplace(copy.startNs + source.packets[copy.next].relNs, index);

        std::uint8_t* ip = scratch.data() + kEthHeader;
        std::memcpy(ip, source.bytes.data() + packet.ipOffset, packet.ipCaptured);
        rewriteClient(ip, packet.ipCaptured, packet, copy);
        if (eth.isOpen()) {
            // The lab's Ethernet header with the client's MAC replaced by the station's.
            std::uint8_t* frame = eth.begin(timeNs, kEthHeader + packet.ipCaptured, kEthHeader + packet.ipOriginal);
            const auto& dst = packet.toClient ? copy.stationMac : source.serverMac;
            const auto& src = packet.toClient ? source.serverMac : copy.stationMac;
            std::memcpy(frame, dst.data(), 6);
            std::memcpy(frame + 6, src.data(), 6);
            frame[12] = 0x08;
            frame[13] = 0x00;
            std::memcpy(frame + kEthHeader, ip, packet.ipCaptured);
            if (!eth.endRecord())
                break;
        }
        if (wlan.isOpen()) {
            encoder.add(timeNs, ip, packet.ipCaptured, packet.ipOriginal, packet.toClient, copy, source.serverMac);
            if (!wlan.ok())
                break;
        }
        ++written;
    }

    bool ok = true;
    if (eth.isOpen() && !eth.close(error)) {
        std::fprintf(stderr, "windscope-make-bulk-capture: %s\n", error.c_str());
        ok = false;
    }
    const std::uint64_t wlanFrames = wlan.records();
    if (wlan.isOpen() && !wlan.close(error)) {
        std::fprintf(stderr, "windscope-make-bulk-capture: %s\n", error.c_str());
        ok = false;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::fprintf(stderr,
                 "windscope-make-bulk-capture: %llu TCP packets in %zu flows from %zu runs "
                 "(%u concurrent)%s%s; %llu 802.11 frames (%llu MAC retries)%s%s; %.1f s\n",
                 static_cast<unsigned long long>(written), copies.size(), runs.size(),
                 options.concurrency, options.ethPath.empty() ? "" : " -> ", options.ethPath.c_str(),
                 static_cast<unsigned long long>(wlanFrames), static_cast<unsigned long long>(encoder.retries()),
                 options.wlanPath.empty() ? "" : " -> ", options.wlanPath.c_str(), seconds);
    return ok ? 0 : 1;
}

} // namespace

} // namespace windscope::bench

int main(int argc, char** argv)
{
    return windscope::bench::run(argc, argv);
}
