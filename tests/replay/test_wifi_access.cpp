// SPDX-License-Identifier: GPL-3.0-or-later
// Channel access as 802.11's DCF defines it (IEEE 802.11-2020 10.3.4): a backoff after
// every transmission, counted down on an idle medium whether or not a frame waits, and
// a frame queued once it has run out sent after DIFS alone.

#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/scenario/presets.h"
#include "analysis/replay/sim/event_queue.h"
#include "analysis/replay/sim/wifi_chain.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace windscope {
namespace {

using analysis::replay::EventQueue;
using analysis::replay::MacParams;
using analysis::replay::Packet;
using analysis::replay::WifiChain;

// 802.11a at 12 Mb/s with DCF (data frames without QoS), as the derivation reads it.
MacParams dcfAt12()
{
    MacParams mac = analysis::replay::ofdmMac(12, 12);
    mac.symbolUs = 4;
    mac.dataPreambleUs = 0;
    mac.aifsSlots = 2;
    mac.hops = 1;
    return mac;
}

// One data frame to the station, whose receiver answers it at once with a TCP ACK: the
// station has sent nothing before (no backoff drawn) and the medium is idle when its
// ACK is queued, so the ACK goes DIFS after the exchange that brought the data, on
// every seed. Hand-computed at 12 Mb/s OFDM (802.11a, Clause 17): a PPDU is a 20 us
// preamble and 4 us symbols of 48 bits holding 16 + 8 * bytes + 6 bits; DIFS is SIFS
// (16 us) and two 9 us slots, 34 us.
//   data  (1448 B + 52 B IP/TCP + 36 B MAC = 1536 B): 257 symbols, 1048 us
//   ACK   (14 B): 3 symbols, 32 us
//   TCP ACK (52 + 36 = 88 B): 16 symbols, 84 us
//   the AP, idle with nothing drawn, sends at DIFS: 34 .. 1082; ACK 1098 .. 1130
//   the station's TCP ACK at 1130 + 34 = 1164 .. 1248; its ACK 1264 .. 1296 us
TEST(WifiAccess, AStationWithItsBackoffRunOutAnswersAfterDifsAlone)
{
    const MacParams mac = dcfAt12();
    std::vector<std::int64_t> answeredNs;
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
        EventQueue queue;
        std::int64_t uplinkNs = -1;
        WifiChain* chainPtr = nullptr;
        WifiChain chain(
            queue, mac, seed,
            [&](const Packet& p, bool downlink) {
                if (!downlink) {
                    uplinkNs = queue.now();
                    return;
                }
                Packet ack;
                ack.kind = Packet::Kind::Ack;
                ack.ackSegment = p.segment + 1;
                ack.id = 2;
                chainPtr->sendUplink(ack);
            },
            [](const Packet&, bool, bool) {});
        chainPtr = &chain;
        Packet data;
        data.kind = Packet::Kind::Data;
        data.length = 1448;
        data.id = 1;
        chain.sendDownlink(data);
        queue.run(1'000'000'000, [] { return false; });
        answeredNs.push_back(uplinkNs);
    }
    for (std::size_t i = 0; i < answeredNs.size(); ++i)
        EXPECT_EQ(answeredNs[i], 1'296'000) << "seed " << i + 1;
}

// A station that keeps sending draws a backoff after each frame, so the next one it
// queues while that count still runs waits out what is left of it: two answers in a
// row, the second queued as the first exchange ends, are at least DIFS apart and at most
// DIFS and CWmin slots, and over seeds both ends of that range occur.
TEST(WifiAccess, ABackToBackFrameWaitsOutTheBackoffOfTheLastOne)
{
    const MacParams mac = dcfAt12();
    std::vector<std::int64_t> gapsNs;
    for (std::uint64_t seed = 1; seed <= 64; ++seed) {
        EventQueue queue;
        std::vector<std::int64_t> uplinkNs;
        WifiChain* chainPtr = nullptr;
        WifiChain chain(
            queue, mac, seed,
            [&](const Packet& p, bool downlink) {
                if (downlink)
                    return;
                uplinkNs.push_back(queue.now());
                if (p.id == 1) {
                    Packet next = p;
                    next.id = 2;
                    chainPtr->sendUplink(next);
                }
            },
            [](const Packet&, bool, bool) {});
        chainPtr = &chain;
        Packet ack;
        ack.kind = Packet::Kind::Ack;
        ack.id = 1;
        chain.sendUplink(ack);
        queue.run(1'000'000'000, [] { return false; });
        ASSERT_EQ(uplinkNs.size(), 2u);
        // From one exchange's end to the next one's: DIFS, the slots, the 84 us TCP ACK,
        // SIFS and the 32 us ACK.
        gapsNs.push_back(uplinkNs[1] - uplinkNs[0] - (34 + 84 + 16 + 32) * 1000);
    }
    for (const std::int64_t g : gapsNs) {
        EXPECT_GE(g, 0);
        EXPECT_LE(g, 15 * 9000);
        EXPECT_EQ(g % 9000, 0);
    }
    EXPECT_EQ(*std::min_element(gapsNs.begin(), gapsNs.end()), 0);
    EXPECT_EQ(*std::max_element(gapsNs.begin(), gapsNs.end()), 15 * 9000);
}

// The MPDUs of an A-MPDU reach the station one by one while the PPDU is still on air:
// an answer the first one prompts is queued on a busy medium and draws a backoff, where
// the answer to a lone MPDU, queued as its exchange ends, goes after AIFS alone. So over
// seeds the answer to an A-MPDU of four comes a whole number of slots (0 to CWmin) after
// the answer to a lone MPDU would, and not always at the same slot.
TEST(WifiAccess, AnAnswerToAnAggregateMeetsABusyMedium)
{
    MacParams mac = dcfAt12();
    mac.phyRateMbps = 13; // HT MCS 1, mixed-format preamble, QoS Data (EDCA best effort)
    mac.dataPreambleUs = 36;
    mac.aifsSlots = 3;
    mac.ampduMax = 4;
    mac.ampduBlockAck = true;
    const auto answerAfterDeliveryNs = [&](std::uint64_t seed, std::uint32_t mpdus) {
        EventQueue queue;
        std::int64_t deliveredNs = -1, answeredNs = -1;
        WifiChain* chainPtr = nullptr;
        WifiChain chain(
            queue, mac, seed,
            [&](const Packet& p, bool downlink) {
                if (!downlink) {
                    answeredNs = queue.now();
                    return;
                }
                if (p.id != 1)
                    return;
                deliveredNs = queue.now();
                Packet ack;
                ack.kind = Packet::Kind::Ack;
                ack.id = 100;
                chainPtr->sendUplink(ack);
            },
            [](const Packet&, bool, bool) {});
        chainPtr = &chain;
        for (std::uint32_t i = 0; i < mpdus; ++i) {
            Packet data;
            data.kind = Packet::Kind::Data;
            data.segment = i;
            data.length = 1448;
            data.id = i + 1;
            chain.sendDownlink(data);
        }
        queue.run(1'000'000'000, [] { return false; });
        return answeredNs - deliveredNs;
    };
    const std::int64_t lone = answerAfterDeliveryNs(1, 1);
    std::vector<std::int64_t> slots;
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
        const std::int64_t extra = answerAfterDeliveryNs(seed, 4) - lone;
        EXPECT_EQ(extra % 9000, 0) << "seed " << seed;
        slots.push_back(extra / 9000);
    }
    EXPECT_GE(*std::min_element(slots.begin(), slots.end()), 0);
    EXPECT_LE(*std::max_element(slots.begin(), slots.end()), 15);
    EXPECT_GT(*std::max_element(slots.begin(), slots.end()),
              *std::min_element(slots.begin(), slots.end()));
}

// An ns-3 station passes its TCP ACK down as it receives the data: the lab's AP capture
// shows it on air a DIFS after the station's MAC ACK, with nothing more. The round trip
// from the AP to the station and back (0.3-0.4 ms, the handshake's least) is air the
// 802.11 model now carries; kept as a delay as well, it put the station's ACKs behind
// the AP's next frame, to a backoff of their own.
TEST(WifiAccess, TheLabsStationAnswersWithinItsMacAck)
{
    const std::filesystem::path file = test::labDir("ns3/A-scan-T200/wifi-ap.pcap");
    if (!std::filesystem::exists(file))
        GTEST_SKIP() << "needs " << file << " (shared test material is absent)";
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(file, lab, error)) << error;
    const analysis::replay::DerivedScenario d = analysis::replay::deriveScenario(lab.input());
    ASSERT_TRUE(d.scenario.mac.enabled);
    EXPECT_EQ(d.scenario.path.wirelessDelayMs, 0.0);
    EXPECT_TRUE(std::any_of(d.notes.begin(), d.notes.end(), [](const std::string& n) {
        return n.starts_with(
            "path.wireless_delay_ms 0.000: the station's TCP ACKs follow its MAC ACK");
    }));
}

} // namespace
} // namespace windscope
