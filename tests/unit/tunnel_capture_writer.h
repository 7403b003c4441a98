// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Writes small derived captures for the tunnel and capture-limit tests: a radiotap
// capture's 802.11 frames put into a tunnel (Aruba's GRE, TZSP, PEEKREMOTE), or the
// same capture with frames left out. Classic pcap, microsecond timestamps (the sources
// are microsecond captures, so times carry over exactly).

#include "dissector_test_kit.h"

#include "dissectors/capture_reader.h"
#include "dissectors/dissector_set.h"

#include <array>
#include <fstream>
#include <functional>
#include <map>
#include <tuple>

namespace windscope::test {

class PcapWriter
{
public:
    PcapWriter(const std::filesystem::path& path, int linkType) : m_out(path, std::ios::binary)
    {
        Bytes h;
        h.le32(0xa1b2c3d4).le16(2).le16(4).le32(0).le32(0).le32(262144).le32(static_cast<std::uint32_t>(linkType));
        put(h.v);
    }
    // originalLength 0: the packet was not cut.
    void write(std::int64_t epochNs, const std::vector<std::uint8_t>& bytes, std::uint32_t originalLength = 0)
    {
        const auto captured = static_cast<std::uint32_t>(bytes.size());
        Bytes r;
        r.le32(static_cast<std::uint32_t>(epochNs / 1'000'000'000))
            .le32(static_cast<std::uint32_t>(epochNs % 1'000'000'000 / 1000))
            .le32(captured)
            .le32(originalLength ? originalLength : captured);
        put(r.v);
        put(bytes);
    }

private:
    void put(const std::vector<std::uint8_t>& v)
    {
        m_out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size()));
    }
    std::ofstream m_out;
};

inline void forEachPacket(const std::filesystem::path& path, const std::function<void(const dissect::RawPacket&)>& fn)
{
    std::string error;
    auto reader = dissect::CaptureReader::open(path.string(), error);
    ASSERT_TRUE(reader) << error;
    dissect::RawPacket p;
    while (reader->next(p) == dissect::CaptureReader::Status::Packet)
        fn(p);
}

inline Bytes udp(unsigned src, unsigned dst, const Bytes& payload)
{
    Bytes b;
    b.bigEndian = true;
    b.u16(src).u16(dst).u16(static_cast<unsigned>(8 + payload.size())).u16(0);
    return b.append(payload);
}

// Ethernet, an 802.1Q tag (VLAN 100, as an Aruba controller's uplink), IPv4 10.0.0.1 ->
// 10.0.0.2 with the given protocol.
inline Bytes ethernetIpv4(unsigned protocol, const Bytes& payload)
{
    Bytes b;
    b.bigEndian = true;
    b.raw({0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02});
    b.u16(0x8100).u16(100).u16(0x0800);
    b.u8(0x45).u8(0).u16(static_cast<unsigned>(20 + payload.size())).u16(0x1234).u16(0);
    b.u8(64).u8(protocol).u16(0);
    b.raw({10, 0, 0, 1, 10, 0, 0, 2});
    return b.append(payload);
}

enum class Tunnel { ArubaGre, Tzsp, PeekremoteLegacy, PeekremoteNew, ArubaErmPcap };

struct TunnelWriteResult
{
    std::uint64_t frames = 0;        // written
    std::uint64_t badFcsLeftOut = 0; // not written (GRE: a controller drops them)
};

// The 802.11 frame of a radiotap packet, and what its radio header said.
struct RadiotapFrame
{
    Bytes wlan; // without FCS
    std::array<std::uint8_t, 4> fcs{};
    bool hadFcs = false, badFcs = false;
    bool hasSignal = false;
    std::int8_t signalDbm = 0;
};

inline bool splitRadiotap(const dissect::RawPacket& p, RadiotapFrame& out)
{
    static const dissect::DissectorSet set = dissect::DissectorSet::standard();
    if (p.linkType != dissect::linktype::kRadiotap || p.capturedLength < 8)
        return false;
    dissect::Frame f;
    f.reset(p.number, p.epochNs, p.capturedLength, p.originalLength, p.linkType);
    set.decodeLinkLayer(dissect::ByteView(p.data, p.capturedLength), f);
    if (!f.hasRadio)
        return false;
    const std::size_t itLen = static_cast<std::size_t>(p.data[2] | p.data[3] << 8);
    std::size_t end = p.capturedLength;
    out = {};
    out.hadFcs = f.radio.fcsAtEnd() && p.capturedLength == p.originalLength && end >= itLen + 4;
    if (out.hadFcs) {
        end -= 4;
        std::copy(p.data + end, p.data + end + 4, out.fcs.begin());
    }
    out.wlan.v.assign(p.data + itLen, p.data + end);
    out.badFcs = f.radio.badFcs();
    out.hasSignal = f.radio.hasSignal;
    out.signalDbm = f.radio.signalDbm;
    return true;
}

inline TunnelWriteResult writeTunnelled(const std::filesystem::path& source, const std::filesystem::path& out,
                                        Tunnel tunnel)
{
    TunnelWriteResult result;
    PcapWriter w(out, dissect::linktype::kEthernet);
    forEachPacket(source, [&](const dissect::RawPacket& p) {
        RadiotapFrame r;
        if (!splitRadiotap(p, r))
            return;
        Bytes packet;
        switch (tunnel) {
        case Tunnel::ArubaGre: {
            if (r.badFcs) {
                ++result.badFcsLeftOut;
                return;
            }
            // RFC 2890 key present (Aruba numbers its tunnels), protocol type 0x0000.
            Bytes gre{0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x01};
            packet = ethernetIpv4(47, gre.append(r.wlan));
            break;
        }
        case Tunnel::Tzsp: {
            Bytes tzsp{0x01, 0x00, 0x00, 18};
            if (r.hasSignal)
                tzsp.raw({10, 1, static_cast<std::uint8_t>(r.signalDbm)});
            tzsp.raw({17, 1, r.badFcs ? 1u : 0u, 18, 1, 6, 0x01});
            packet = ethernetIpv4(17, udp(40000, 37008, tzsp.append(r.wlan)));
            break;
        }
        case Tunnel::PeekremoteLegacy: {
            Bytes wlan = r.wlan;
            wlan.raw({r.fcs[0], r.fcs[1], r.fcs[2], r.fcs[3]});
            Bytes peek;
            peek.bigEndian = true;
            peek.u8(r.hasSignal ? static_cast<std::uint8_t>(r.signalDbm) : 0x80).u8(0xa0);
            peek.u16(static_cast<unsigned>(wlan.size())).u16(static_cast<unsigned>(wlan.size()));
            peek.u8(r.badFcs ? 0x02 : 0x00).u8(0).u64(0).u8(12).u8(6).u8(50).u8(10);
            packet = ethernetIpv4(17, udp(5000, 40000, peek.append(wlan)));
            break;
        }
        case Tunnel::PeekremoteNew: {
            Bytes wlan = r.wlan;
            wlan.raw({r.fcs[0], r.fcs[1], r.fcs[2], r.fcs[3]});
            Bytes peek;
            peek.bigEndian = true;
            peek.u32(0x00ffabcd).u8(2).u32(55);             // magic, version 2, header size
            peek.u32(6).u16(7).u16(6).u32(2437).u32(0).u32(0); // type, MCS, channel, MHz, band, ext
            peek.u8(50).u8(10).u8(r.hasSignal ? static_cast<std::uint8_t>(r.signalDbm) : 0x80).u8(0xa0);
            peek.zeros(8).u16(static_cast<unsigned>(wlan.size())).u16(static_cast<unsigned>(wlan.size()));
            peek.u8(r.badFcs ? 0x02 : 0x00).u8(0).u64(0);
            // The new header on PEEKREMOTE's port, recognised by its magic number.
            packet = ethernetIpv4(17, udp(5000, 5001, peek.append(wlan)));
            break;
        }
        case Tunnel::ArubaErmPcap: {
            // Type 0: a pcap record header, then the frame with its FCS; no FCS verdict
            // travels, so (as with GRE) only frames received whole are sent.
            if (r.badFcs) {
                ++result.badFcsLeftOut;
                return;
            }
            Bytes wlan = r.wlan;
            wlan.raw({r.fcs[0], r.fcs[1], r.fcs[2], r.fcs[3]});
            Bytes erm;
            erm.bigEndian = true;
            erm.u32(static_cast<std::uint32_t>(p.epochNs / 1'000'000'000))
                .u32(static_cast<std::uint32_t>(p.epochNs % 1'000'000'000 / 1000))
                .u32(static_cast<std::uint32_t>(wlan.size()))
                .u32(static_cast<std::uint32_t>(wlan.size()));
            packet = ethernetIpv4(17, udp(41000, 5555, erm.append(wlan)));
            break;
        }
        }
        w.write(p.epochNs, packet.v);
        ++result.frames;
    });
    return result;
}

// The source with every `every`-th QoS data frame left out among those that a hole
// must show: sent once (no retry copy), individually addressed, with a body, neither the
// first nor the last of its <transmitter, receiver, TID> stream. Returns how many.
inline std::uint64_t writeWithSequenceHoles(const std::filesystem::path& source, const std::filesystem::path& out,
                                            unsigned every)
{
    static const dissect::DissectorSet set = dissect::DissectorSet::standard();
    using Stream = std::tuple<std::string, std::string, unsigned>;
    auto decode = [&](const dissect::RawPacket& p, dissect::Frame& f) {
        f.reset(p.number, p.epochNs, p.capturedLength, p.originalLength, p.linkType);
        set.decodeLinkLayer(dissect::ByteView(p.data, p.capturedLength), f);
        const dissect::WlanInfo& w = f.wlan;
        return f.hasWlan && w.type == 2 && (w.subtype & 0x8) && !(w.subtype & 0x4) && w.hasSequence &&
               w.fragment == 0 && !(w.addr1.bytes[0] & 1) && !(f.hasRadio && f.radio.badFcs());
    };
    auto streamOf = [](const dissect::Frame& f) {
        return Stream{f.wlan.addr2.toString(), f.wlan.addr1.toString(), f.wlan.tid()};
    };
    std::map<std::tuple<std::string, std::string, unsigned, unsigned>, unsigned> copies;
    std::map<Stream, std::uint64_t> first, last;
    dissect::Frame f;
    forEachPacket(source, [&](const dissect::RawPacket& p) {
        if (!decode(p, f))
            return;
        const Stream s = streamOf(f);
        ++copies[{std::get<0>(s), std::get<1>(s), std::get<2>(s), f.wlan.sequence}];
        first.try_emplace(s, p.number);
        last[s] = p.number;
    });
    std::uint64_t candidates = 0, dropped = 0;
    PcapWriter w(out, dissect::linktype::kRadiotap);
    forEachPacket(source, [&](const dissect::RawPacket& p) {
        if (decode(p, f) && !f.wlan.retry()) {
            const Stream s = streamOf(f);
            const bool once = copies[{std::get<0>(s), std::get<1>(s), std::get<2>(s), f.wlan.sequence}] == 1;
            if (once && first[s] != p.number && last[s] != p.number && ++candidates % every == 0) {
                ++dropped;
                return;
            }
        }
        w.write(p.epochNs, std::vector<std::uint8_t>(p.data, p.data + p.capturedLength), p.originalLength);
    });
    return dropped;
}

} // namespace windscope::test
