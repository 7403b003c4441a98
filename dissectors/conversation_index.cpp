// SPDX-License-Identifier: GPL-3.0-or-later
#include "conversation_index.h"

#include <bit>
#include <cstring>

namespace windscope::dissect {

namespace {

bool lessEndpoint(const IpAddress& a, std::uint16_t portA, const IpAddress& b, std::uint16_t portB)
{
    int c = std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size());
    return c < 0 || (c == 0 && portA < portB);
}

std::uint64_t mixAddress(const IpAddress& a)
{
    std::uint64_t half[2];
    std::memcpy(half, a.bytes.data(), sizeof half);
    return (half[0] ^ half[1] * 0x9e3779b97f4a7c15ull) * 0xc2b2ae3d27d4eb4full;
}

} // namespace

std::size_t ConversationIndex::recentSlot(const IpInfo& ip, const TcpInfo& tcp)
{
    // Any spread will do: the slot decides only how often the cache hits. Bytes, not
    // IpHash's byte-wise FNV, which cost more than the rest of the lookup.
    std::uint64_t x = mixAddress(ip.src) ^ std::rotl(mixAddress(ip.dst), 31) ^
                      (std::uint64_t(tcp.srcPort) << 16 | tcp.dstPort);
    x *= 0x9e3779b97f4a7c15ull;
    return static_cast<std::size_t>(x >> (64 - std::countr_zero(kRecentSlots)));
}

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
    Recent& recent = m_recent[recentSlot(ip, tcp)];
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
