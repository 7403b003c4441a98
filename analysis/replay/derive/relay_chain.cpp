// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay_chain.h"

#include <algorithm>
#include <vector>

namespace windscope::analysis::replay::derive {

std::uint8_t initialTtl(std::uint8_t ttl)
{
    for (const std::uint8_t initial : {std::uint8_t{32}, std::uint8_t{64}, std::uint8_t{128}})
        if (ttl <= initial)
            return initial;
    return 255;
}

RelayChain readRelayChain(const dissect::CaptureTables& tables, const TcpAnalysis& tcp, std::size_t connection,
                          int sender)
{
    RelayChain chain;
    if (connection >= tcp.connections.size())
        return chain;
    const Connection& c = tcp.connections[connection];
    const dissect::ConversationKey& key = tables.conversations.at(c.conversation);
    // The sender's packets in the conversation's terms: from a (fromB false) or from b.
    const bool senderIsB = !(key.addrA == c.address[sender] && key.portA == c.port[sender]);
    if (c.conversation < tables.conversationTtl.size()) {
        const auto& ttl = tables.conversationTtl[c.conversation];
        chain.dataTtl = ttl[senderIsB ? 1 : 0];
        chain.ackTtl = ttl[senderIsB ? 0 : 1];
    }
    // The sender's segments that carry data, as the capture first heard them.
    std::vector<std::uint64_t> dataFrames;
    for (std::size_t row = 0; row < tables.tcp.size(); ++row)
        if (tcp.segments.connection[row] == connection && tables.tcp.payloadLength[row] > 0 &&
            tcp.directionOf(tables, row) == sender)
            dataFrames.push_back(tables.tcp.frame[row]);
    std::sort(dataFrames.begin(), dataFrames.end());
    // Relayed copies of those: a relay's data MPDUs. The sender's pure ACKs (the
    // handshake's last) ride in the same A-MPDUs but are no data MPDU the limit counts.
    std::vector<std::uint64_t> relayedDataFrames;
    for (const dissect::RelayedTcpSegment& r : tables.relayedTcp) {
        if (r.conversation != c.conversation || r.timeNs < c.firstTimeNs || r.timeNs > c.lastTimeNs)
            continue;
        if (r.fromB == senderIsB) {
            ++chain.relayedData;
            if (std::binary_search(dataFrames.begin(), dataFrames.end(), r.firstFrame))
                relayedDataFrames.push_back(r.frame);
        } else {
            ++chain.relayedAcks;
        }
    }
    if (chain.dataTtl == 0 || chain.ackTtl == 0 || (chain.relayedData == 0 && chain.relayedAcks == 0))
        return chain;
    // Relays crossed by each end's packets before the capture heard them.
    const std::uint32_t dataRelays = initialTtl(chain.dataTtl) - chain.dataTtl;
    const std::uint32_t ackRelays = initialTtl(chain.ackTtl) - chain.ackTtl;
    if (chain.relayedData > 0 && chain.relayedAcks == 0) {
        chain.vantageNode = 0;
        chain.hops = ackRelays + 1;
    } else if (chain.relayedAcks > 0 && chain.relayedData == 0) {
        chain.hops = dataRelays + 1;
        chain.vantageNode = chain.hops;
    } else {
        // A relay: the data crossed dataRelays relays before the one before it.
        chain.vantageNode = dataRelays + 1;
        chain.hops = dataRelays + ackRelays + 2;
    }

    // The vantage's own data MPDUs: those from the transmitter of the sender's data
    // frames as the capture first heard them.
    const auto& w = tables.wlan;
    std::sort(relayedDataFrames.begin(), relayedDataFrames.end());
    std::uint32_t transmitter = dissect::WlanColumns::kNoAddress;
    for (std::size_t i = 0; i < w.size() && transmitter == dissect::WlanColumns::kNoAddress; ++i)
        if (std::binary_search(dataFrames.begin(), dataFrames.end(), w.frame[i]))
            transmitter = w.addr2(i);
    std::uint32_t run = 0, lastRef = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        const bool data = (w.frameControl[i] & 0x0c) == 0x08 && !(w.status[i] & dissect::WlanColumns::kBadFcs);
        if (data && w.addr2(i) == transmitter && transmitter != dissect::WlanColumns::kNoAddress) {
            ++chain.vantageMpdus;
            if (w.frameControl[i] & 0x0800)
                ++chain.vantageRetries;
        }
        const std::uint32_t ref = w.ampduReference[i];
        if (ref == 0 || !(w.status[i] & dissect::WlanColumns::kRelayed) ||
            !std::binary_search(relayedDataFrames.begin(), relayedDataFrames.end(), w.frame[i])) {
            continue;
        }
        run = ref == lastRef ? run + 1 : 1;
        lastRef = ref;
        chain.relayAmpduMax = std::max(chain.relayAmpduMax, run);
    }
    return chain;
}

} // namespace windscope::analysis::replay::derive
