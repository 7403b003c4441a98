// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A multi-hop 802.11 chain read from the relayed frames of one connection. Ingest keeps
// a relay's copy of a packet out of TCP analysis (dissect::RelayFilter) and lists it in
// CaptureTables::relayedTcp; here those copies say where the capture stands on the
// chain and the TTLs how long it is:
// - a radio that hears the data relayed but not the ACKs is the data sender's (node 0:
//   nobody forwards the ACKs to it, it is their destination); one that hears the ACKs
//   relayed but not the data is the receiver's (node H); one that hears both is a relay.
// - every relay is an IP router and takes one off the TTL (RFC 1812 5.3.1), so the
//   packets of the end the capture is not at arrive with their initial TTL less the
//   relays they crossed; stacks start from 64 (RFC 1700, Linux, BSD, ns-3), 128
//   (Windows) or 255, and the initial one is the first of those at or above what is seen.
// On one hop nothing is relayed and the chain reads as one hop.

#include "dissectors/capture_tables.h"
#include "analysis/tcp/tcp_analysis.h"

#include <cstdint>

namespace windscope::analysis::replay::derive {

struct RelayChain
{
    std::uint32_t hops = 1;        // 802.11 hops between the two ends
    std::uint32_t vantageNode = 0; // 0: the data sender's radio, hops: the receiver's
    std::uint64_t relayedData = 0, relayedAcks = 0; // the connection's copies heard from a relay
    std::uint8_t dataTtl = 0, ackTtl = 0;           // as heard first, 0 unknown
    // The vantage's own data MPDUs (the first copies' transmitter) and how many of them
    // went out again with the Retry bit: lost at the next hop. On a chain where the
    // vantage hears only its neighbours, a loss at the next hop is mostly a frame from
    // two hops away that the vantage could not sense (a hidden terminal).
    std::uint64_t vantageMpdus = 0, vantageRetries = 0;
    std::uint32_t relayAmpduMax = 1; // most data MPDUs of one relayed A-MPDU
    bool chain() const { return hops > 1; }
};

// The initial TTL of a stack whose packet arrives with `ttl` (the first of 64, 128 and
// 255 at or above it; 32 for older stacks below).
std::uint8_t initialTtl(std::uint8_t ttl);

RelayChain readRelayChain(const dissect::CaptureTables& tables, const TcpAnalysis& tcp, std::size_t connection,
                          int sender);

} // namespace windscope::analysis::replay::derive
