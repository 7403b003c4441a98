// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Dispatch tables in the Wireshark manner: each protocol file registers its decoder
// in its parent's table ("link type 127 -> radiotap", "ethertype 0x0800 -> ip").
// The set is an ordinary object built by standard(); nothing is global.

#include "byte_view.h"
#include "frame.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace windscope::dissect {

class DissectorSet;
using DecodeFn = void (*)(const DissectorSet&, ByteView, Frame&);

class DispatchTable
{
public:
    explicit DispatchTable(const char* name) : m_name(name) {}
    void add(std::uint32_t key, DecodeFn fn)
    {
        m_entries.emplace_back(key, fn);
        index(key, fn);
    }
    DecodeFn find(std::uint32_t key) const
    {
        // Every frame asks each layer's table once: an open-addressed index, not a
        // scan (radiotap, registered late, took ten comparisons per frame).
        for (std::size_t slot = slotOf(key);; slot = (slot + 1) % kSlots) {
            const Slot& s = m_slots[slot];
            if (!s.fn || s.key == key)
                return s.fn;
        }
    }
    const char* name() const { return m_name; }
    std::vector<std::uint32_t> keys() const;

private:
    static constexpr std::size_t kSlots = 64; // more than any table holds: probes end
    struct Slot
    {
        std::uint32_t key = 0;
        DecodeFn fn = nullptr;
    };
    static std::size_t slotOf(std::uint32_t key) { return (key * 0x9e3779b1u) >> 26; }
    void index(std::uint32_t key, DecodeFn fn);

    const char* m_name;
    std::vector<std::pair<std::uint32_t, DecodeFn>> m_entries; // in registration order
    std::array<Slot, kSlots> m_slots{};
};

class DissectorSet
{
public:
    DispatchTable linkTypes{"link type"};
    DispatchTable etherTypes{"ethertype"};
    DispatchTable ipProtocols{"ip.proto"};
    DispatchTable udpPorts{"udp.port"};     // tunnels and remote-capture protocols over UDP

    // Every protocol Windscope decodes natively, registered in its parent's table.
    static DissectorSet standard();

    // Entry point for a captured frame. Unknown link types are counted, not errors.
    bool decodeLinkLayer(ByteView bytes, Frame& frame) const;
    void decodeEtherType(std::uint16_t etherType, ByteView bytes, Frame& frame) const
    {
        if (DecodeFn fn = etherTypes.find(etherType))
            fn(*this, bytes, frame);
    }
    void decodeIpProtocol(std::uint8_t protocol, ByteView bytes, Frame& frame) const
    {
        if (DecodeFn fn = ipProtocols.find(protocol))
            fn(*this, bytes, frame);
    }
};

// Registration functions, one per protocol file.
void registerEth(DissectorSet&);      // eth.cpp: Ethernet II, 802.3+LLC, 802.1Q/802.1ad VLAN
void registerSll(DissectorSet&);      // sll.cpp: Linux cooked v1 and v2
void registerNull(DissectorSet&);     // null.cpp: BSD loopback / null, and raw IP link types
void registerPpp(DissectorSet&);      // ppp.cpp: link type 9 (PPP, as ns-3 writes it)
void registerIp(DissectorSet&);       // ip.cpp: IPv4
void registerIpv6(DissectorSet&);     // ipv6.cpp: IPv6 with extension headers
void registerTcp(DissectorSet&);      // tcp.cpp
void registerUdp(DissectorSet&);      // udp.cpp: UDP, and the CAPWAP data channel it carries
void registerGre(DissectorSet&);      // gre.cpp: GRE, with Aruba's 802.11 and ERSPAN payloads
void registerVxlan(DissectorSet&);    // vxlan.cpp: VXLAN (UDP 4789)
void registerTzsp(DissectorSet&);     // tzsp.cpp: TZSP remote capture (UDP 37008)
void registerPeekremote(DissectorSet&); // peekremote.cpp: AiroPeek/OmniPeek remote (UDP 5000)
void registerArubaErm(DissectorSet&); // aruba_erm.cpp: Aruba ERM remote capture (UDP 5555)
void registerRadiotap(DissectorSet&); // radiotap.cpp: link type 127
void registerPpi(DissectorSet&);      // ppi.cpp: link type 192
void registerPrism(DissectorSet&);    // prism.cpp: link types 119 (Prism) and 163 (AVS)
void registerWlan(DissectorSet&);     // wlan.cpp: link type 105, and 802.11 below radio headers
void registerLlc(DissectorSet&);      // llc.cpp: LLC/SNAP below 802.11

// Entry points shared between protocol files (a parent calling a child it carries).
void decodeWlan(const DissectorSet&, ByteView, Frame&);
void decodeLlc(const DissectorSet&, ByteView, Frame&);
// 802.11 as remote-capture and tunnel protocols carry it: fcsAtEnd says the frame ends in
// its 4-byte FCS (cut off here as far as it was captured; radiotap's rule).
void decodeWlanFrame(const DissectorSet&, ByteView, Frame&, bool fcsAtEnd);
// peekremote.cpp, for Aruba ERM: false (frame untouched) when the bytes are not PEEKREMOTE.
bool decodePeekremote(const DissectorSet&, ByteView, Frame&);
// A radio header from a channel number (2.4 GHz 1-14, 5 GHz above): prism.cpp's rule.
std::uint16_t channelToMhz(std::uint32_t channel);

// Link-layer type numbers (LINKTYPE_* from the tcpdump.org registry).
namespace linktype {
inline constexpr int kNull = 0, kEthernet = 1, kPpp = 9, kRaw = 101, kIeee80211 = 105, kLoop = 108,
                     kSll = 113, kPrism = 119, kRadiotap = 127, kAvs = 163, kPpi = 192,
                     kIpv4 = 228, kIpv6 = 229, kSll2 = 276;
}

} // namespace windscope::dissect

namespace windscope::dissect {
// The tcpdump.org LINKTYPE_ name without its prefix ("ETHERNET", "IEEE802_11_RADIOTAP"),
// or "LINKTYPE_<n>" for types this table does not name.
std::string linkTypeName(int linkType);
} // namespace windscope::dissect
