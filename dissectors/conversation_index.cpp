// SPDX-License-Identifier: GPL-3.0-or-later
#include "conversation_index.h"

#include <cstring>

namespace windscope::dissect {

namespace {

bool lessEndpoint(const IpAddress& a, std::uint16_t portA, const IpAddress& b, std::uint16_t portB)
{
    int c = std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size());
    return c < 0 || (c == 0 && portA < portB);
}

} // namespace

bool ConversationIndex::numbers(const Frame& frame)
{
    if (!frame.hasTcp)
        return false;
    if (frame.hasWlan && frame.hasRadio && frame.radio.badFcs())
        return false;
    return !frame.ip.moreFragments && frame.ip.fragmentOffset == 0;
}

ConversationIndex::Entry ConversationIndex::of(const IpInfo& ip, const TcpInfo& tcp)
{
    const std::size_t slot =
        (IpHash{}(ip.src) ^ (IpHash{}(ip.dst) * 31) ^ (std::size_t(tcp.srcPort) << 16 | tcp.dstPort)) &
        (kRecentSlots - 1);
    Recent& recent = m_recent[slot];
    if (recent.valid && recent.srcPort == tcp.srcPort && recent.dstPort == tcp.dstPort && recent.src == ip.src &&
        recent.dst == ip.dst)
        return recent.entry;

    const bool srcIsA = lessEndpoint(ip.src, tcp.srcPort, ip.dst, tcp.dstPort);
    ConversationKey key;
    if (srcIsA)
        key = {m_addresses.intern(ip.src), m_addresses.intern(ip.dst), tcp.srcPort, tcp.dstPort};
    else
        key = {m_addresses.intern(ip.dst), m_addresses.intern(ip.src), tcp.dstPort, tcp.srcPort};
    auto [it, inserted] = m_index.try_emplace(key, static_cast<std::uint32_t>(m_conversations.size()));
    if (inserted)
        m_conversations.push_back(key);
    recent = {true, tcp.srcPort, tcp.dstPort, {it->second, srcIsA}, ip.src, ip.dst};
    return recent.entry;
}

void ConversationIndex::moveInto(CaptureTables& tables)
{
    tables.conversations = std::move(m_conversations);
    tables.ipAddresses = std::move(m_addresses);
    *this = ConversationIndex{};
}

} // namespace windscope::dissect
