// SPDX-License-Identifier: GPL-3.0-or-later
#include "dissector_set.h"

#include <stdexcept>

namespace windscope::dissect {

void DispatchTable::index(std::uint32_t key, DecodeFn fn)
{
    if (m_entries.size() >= kSlots)
        throw std::logic_error(std::string(m_name) + " table: more decoders than its index holds");
    for (std::size_t slot = slotOf(key);; slot = (slot + 1) % kSlots) {
        Slot& s = m_slots[slot];
        if (!s.fn || s.key == key) {
            if (!s.fn) // a key registered twice keeps its first decoder, as a scan would find
                s = {key, fn};
            return;
        }
    }
}

std::vector<std::uint32_t> DispatchTable::keys() const
{
    std::vector<std::uint32_t> out;
    out.reserve(m_entries.size());
    for (const auto& entry : m_entries)
        out.push_back(entry.first);
    return out;
}

DissectorSet DissectorSet::standard()
{
    DissectorSet set;
    registerEth(set);
    registerSll(set);
    registerNull(set);
    registerPpp(set);
    registerIp(set);
    registerIpv6(set);
    registerTcp(set);
    registerUdp(set);
    registerGre(set);
    registerVxlan(set);
    registerTzsp(set);
    registerPeekremote(set);
    registerArubaErm(set);
    registerRadiotap(set);
    registerPpi(set);
    registerPrism(set);
    registerWlan(set);
    registerLlc(set);
    return set;
}

bool DissectorSet::decodeLinkLayer(ByteView bytes, Frame& frame) const
{
    DecodeFn fn = linkTypes.find(static_cast<std::uint32_t>(frame.linkType));
    if (!fn)
        return false;
    fn(*this, bytes, frame);
    return true;
}

const char* undecodedName(Undecoded kind)
{
    switch (kind) {
    case Undecoded::None: return "";
    case Undecoded::CapwapDtls: return "CAPWAP data with DTLS (encrypted)";
    case Undecoded::CapwapFragment: return "CAPWAP fragments after the first (not reassembled)";
    case Undecoded::CapwapBinding: return "CAPWAP native frames of a wireless binding other than 802.11";
    case Undecoded::GreVersion: return "GRE version 1 (PPTP) or an unknown GRE version";
    case Undecoded::GreProtocol: return "GRE with an unknown protocol type";
    case Undecoded::L2tp: return "L2TP";
    case Undecoded::Esp: return "IPsec ESP (encrypted)";
    case Undecoded::TzspEncapsulation: return "TZSP with an unknown encapsulation";
    case Undecoded::ArubaErmFormat: return "UDP port 5555 (Aruba ERM) in no recognised format (AirMagnet's type 2, or not ERM)";
    case Undecoded::PeekremoteVersion: return "PEEKREMOTE with an unusable header size";
    case Undecoded::LwappData: return "LWAPP data (UDP 12222, 802.11 frames in Cisco's pre-CAPWAP tunnel)";
    case Undecoded::Count: break;
    }
    return "";
}

std::string linkTypeName(int linkType)
{
    switch (linkType) {
    case linktype::kNull: return "NULL";
    case linktype::kEthernet: return "ETHERNET";
    case linktype::kPpp: return "PPP";
    case linktype::kRaw: return "RAW";
    case linktype::kIeee80211: return "IEEE802_11";
    case linktype::kLoop: return "LOOP";
    case linktype::kSll: return "LINUX_SLL";
    case linktype::kPrism: return "IEEE802_11_PRISM";
    case linktype::kRadiotap: return "IEEE802_11_RADIOTAP";
    case linktype::kAvs: return "IEEE802_11_AVS";
    case linktype::kPpi: return "PPI";
    case linktype::kIpv4: return "IPV4";
    case linktype::kIpv6: return "IPV6";
    case linktype::kSll2: return "LINUX_SLL2";
    default: return "LINKTYPE_" + std::to_string(linkType);
    }
}

} // namespace windscope::dissect
