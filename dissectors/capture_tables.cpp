// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_tables.h"

#include <algorithm>
#include <stdexcept>

#include <arpa/inet.h>
#include <cstdio>

namespace windscope::dissect {

namespace {
std::size_t hashBytes(const std::uint8_t* p, std::size_t n, std::size_t seed)
{
    // FNV-1a: short keys, good spread, no allocation.
    std::size_t h = 1469598103934665603ull ^ seed;
    for (std::size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}
} // namespace

std::size_t MacHash::operator()(const MacAddress& m) const noexcept
{
    return hashBytes(m.bytes.data(), m.bytes.size(), 0);
}

std::size_t IpHash::operator()(const IpAddress& a) const noexcept
{
    return hashBytes(a.bytes.data(), a.family == 4 ? 4 : 16, a.family);
}

std::size_t ConversationHash::operator()(const ConversationKey& k) const noexcept
{
    std::uint64_t x = (std::uint64_t(k.addrA) << 32 | k.addrB) * 0x9e3779b97f4a7c15ull;
    x ^= (std::uint64_t(k.portA) << 16 | k.portB) * 0xc2b2ae3d27d4eb4full;
    return static_cast<std::size_t>(x ^ (x >> 29));
}

std::size_t WlanAddressSetHash::operator()(const WlanAddressSet& a) const noexcept
{
    std::uint64_t x = (std::uint64_t(a.mac[0]) << 32 | a.mac[1]) * 0x9e3779b97f4a7c15ull;
    x ^= std::uint64_t(a.mac[2]) * 0xc2b2ae3d27d4eb4full;
    return static_cast<std::size_t>(x ^ (x >> 29));
}

void WlanColumns::reserve(std::size_t rows)
{
    frame.reserve(rows);
    timeNs.reserve(rows);
    frameControl.reserve(rows);
    sequenceControl.reserve(rows);
    duration.reserve(rows);
    addresses.reserve(rows);
    signalDbm.reserve(rows);
    radioFlags.reserve(rows);
    mcs.reserve(rows);
    dataRateKbps.reserve(rows);
    channelFreqMhz.reserve(rows);
    ampduReference.reserve(rows);
    status.reserve(rows);
}

void TcpColumns::reserve(std::size_t rows)
{
    frame.reserve(rows);
    timeNs.reserve(rows);
    conversation.reserve(rows);
    seq.reserve(rows);
    ack.reserve(rows);
    window.reserve(rows);
    flags.reserve(rows);
    payloadLength.reserve(rows);
    tsVal.reserve(rows);
    tsEcr.reserve(rows);
}

void TcpColumns::append(const TcpRow& row)
{
    std::uint16_t rowFlags = row.flags;
    if (row.sideOptions != kNoSideOptions) {
        if (row.sideOptions != sideOptionRows.size())
            throw std::logic_error("TCP side options appended out of row order");
        sideOptionRows.push_back(frame.size());
        rowFlags |= kHasSideOptions;
    }
    frame.push_back(row.frame);
    timeNs.push_back(row.timeNs);
    conversation.push_back(row.conversation);
    seq.push_back(row.seq);
    ack.push_back(row.ack);
    window.push_back(row.window);
    flags.push_back(rowFlags);
    payloadLength.push_back(row.payloadLength);
    tsVal.push_back(row.tsVal);
    tsEcr.push_back(row.tsEcr);
}

std::uint32_t TcpColumns::sideOptionsIndex(std::size_t row) const
{
    if (!(flags[row] & kHasSideOptions))
        return kNoSideOptions;
    const auto it = std::lower_bound(sideOptionRows.begin(), sideOptionRows.end(), std::uint64_t(row));
    if (it == sideOptionRows.end() || *it != row)
        return kNoSideOptions;
    return static_cast<std::uint32_t>(it - sideOptionRows.begin());
}

std::string MacAddress::toString() const
{
    char text[18];
    std::snprintf(text, sizeof text, "%02x:%02x:%02x:%02x:%02x:%02x", bytes[0], bytes[1],
                  bytes[2], bytes[3], bytes[4], bytes[5]);
    return text;
}

std::string IpAddress::toString() const
{
    char text[INET6_ADDRSTRLEN] = {};
    if (family == 4)
        inet_ntop(AF_INET, bytes.data(), text, sizeof text);
    else if (family == 6)
        inet_ntop(AF_INET6, bytes.data(), text, sizeof text);
    return text;
}

} // namespace windscope::dissect
