// SPDX-License-Identifier: GPL-3.0-or-later
// The 802.11 step of deriveScenario(): with radio frames, whether the air is the
// bottleneck, and the MAC model (rate, A-MPDU size) the baseline then runs.
#include "derivation_steps.h"

#include "analysis/replay/scenario/presets.h"
#include "analysis/wlan/wlan_frames.h"
#include "relay_chain.h"
#include "sample_statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <span>

namespace windscope::analysis::replay::derive {

namespace {

constexpr double kAckBytes = 14; // ACK frame (9.3.1.4)

// The radio's PHY as its frames show it: DSSS/HR-DSSS carries only 1, 2, 5.5 and 11
// Mb/s (IEEE 802.11-2020 Clauses 15, 16); any other legacy rate, and every MCS, is
// OFDM (Clauses 17-19), whose PPDUs are whole 4 us symbols, an HT one with 36 us of
// preamble in mixed format (19.3.2). Control frames (ACK, Block Ack, RTS, CTS) go at a
// basic rate (10.6.6.5): the one the frames show where the radio header gives it, else
// the highest mandatory rate of the modulation at or below the data's (OFDM 6, 12, 24;
// DSSS 1, 2).
MacParams radioMac(const dissect::WlanColumns& w, double phyRateMbps)
{
    bool dsss = true, ht = false, powerSaveOnAir = false;
    std::size_t dataFrames = 0, qosDataFrames = 0;
    std::vector<double> control;
    for (std::size_t i = 0; i < w.size(); ++i) {
        const std::uint16_t fc = w.frameControl[i];
        const double mbps = w.dataRateKbps[i] / 1000.0;
        powerSaveOnAir =
            powerSaveOnAir || (wlan::toDs(fc) && wlan::powerManagement(fc) && !wlan::badFcs(w, i));
        if (wlan::frameType(fc) == wlan::kData) {
            ++dataFrames;
            qosDataFrames += wlan::isQosData(fc) ? 1 : 0;
            ht = ht || w.mcs[i] != 0xff;
            if (w.dataRateKbps[i] > 0 && !wlan::isDsssRateKbps(w.dataRateKbps[i]))
                dsss = false;
        } else if (wlan::frameType(fc) == wlan::kControl && mbps > 0) {
            control.push_back(mbps);
        }
    }
    dsss = dsss && !ht;
    static constexpr std::array<double, 2> kDsssMandatory{1, 2};
    static constexpr std::array<double, 3> kOfdmMandatory{6, 12, 24};
    double basic = 0;
    for (const double mandatory : dsss ? std::span<const double>(kDsssMandatory) : std::span<const double>(kOfdmMandatory))
        if (mandatory <= phyRateMbps || basic == 0)
            basic = mandatory;
    if (!control.empty())
        basic = percentile(control, 0.5);
    MacParams mac = dsss ? dsssMac(phyRateMbps, basic) : ofdmMac(phyRateMbps, basic);
    if (!dsss) {
        mac.symbolUs = 4;
        mac.dataPreambleUs = ht ? 36 : 0;
    }
    // Stations that send QoS Data contend with EDCA (best effort: AIFSN 3) and carry a
    // 2-byte QoS Control field; the others with DCF's DIFS (AIFSN 2).
    const bool qos = 2 * qosDataFrames > dataFrames;
    mac.aifsSlots = qos ? 3 : 2;
    mac.macOverheadBytes = qos ? 38 : 36;
    // A station that announces power save does it on air, in a frame to its AP with the
    // Power Management bit (802.11-2020 11.2.3.2), and leaves when the AP has it. Where
    // no such frame shows, the announcement is not on air (or there is none); a station
    // then leaves only between frame exchanges: once no response can follow the last
    // frame it heard, an ACKTimeout after its end (SIFS, a slot and the PHY's receive
    // start delay, the response's preamble; 10.3.2.11). The scan step reads the pause
    // where the AP's retries show it, the held-release step downstream from the holes
    // the scans left.
    mac.stationLeavePauseUs = powerSaveOnAir ? 0 : mac.sifsUs + mac.slotUs + mac.preambleUs;
    return mac;
}

// Whether a sender that missed a Block Ack asks with a Block Ack Request before it
// sends the MPDUs again (MacParams::blockAckRequest), from the capture's exchanges:
// each A-MPDU or request answered leaves one Block Ack, so those left without are the
// misses. A sender that asks after every miss sends a request per miss (its requests
// are missed too, and asked again); one that asks only to move the window past an
// MPDU it gave up sends one per retry chain it ran out. Half the misses tells the two
// apart; without misses the capture cannot, and the default stands. Only pairs whose
// Block Acks the capture hears count: a relay's aggregates to a node out of the
// capture's reach are answered where it cannot hear.
void deriveBlockAckRequest(const dissect::WlanColumns& w, MacParams& mac,
                           std::vector<std::string>& notes)
{
    struct Pair
    {
        std::uint64_t asked = 0, requests = 0, blockAcks = 0;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, Pair> pairs; // (originator, recipient)
    std::uint32_t lastRef = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        const std::uint16_t fc = w.frameControl[i];
        const std::uint32_t ref = w.ampduReference[i];
        if (wlan::frameType(fc) == wlan::kData && ref != 0 && ref != lastRef)
            ++pairs[{w.addr2(i), w.addr1(i)}].asked;
        if (ref != 0)
            lastRef = ref;
        if (wlan::isControl(fc, wlan::subtype::kBlockAckRequest)) {
            Pair& p = pairs[{w.addr2(i), w.addr1(i)}];
            ++p.asked;
            ++p.requests;
        } else if (wlan::isControl(fc, wlan::subtype::kBlockAck)) {
            ++pairs[{w.addr1(i), w.addr2(i)}].blockAcks;
        }
    }
    std::uint64_t asked = 0, requests = 0, missed = 0;
    for (const auto& [link, p] : pairs)
        if (p.blockAcks > 0) {
            asked += p.asked;
            requests += p.requests;
            missed += p.asked > p.blockAcks ? p.asked - p.blockAcks : 0;
        }
    if (missed == 0)
        return;
    mac.blockAckRequest = 2 * requests >= missed;
    notes.push_back(
        std::string(mac.blockAckRequest ? "mac.block_ack_request on: "
                                        : "mac.block_ack_request off: ") +
        format("%.0f Block Ack Requests for %.0f Block Acks missed (of %.0f A-MPDUs and requests)",
               static_cast<double>(requests), static_cast<double>(missed),
               static_cast<double>(asked)) +
        (mac.blockAckRequest ? ": the senders ask after a miss"
                             : ": the senders send again at once"));
}

// The MAC of a multi-hop chain (relay_chain.h): its length, where the capture stands,
// the rates and aggregation the frames show, and who hears whom.
void deriveChainMac(const DerivationInput& in, const RelayChain& chain, MacParams mac, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const dissect::WlanColumns& w = in.tables->wlan;
    bool rts = false;
    for (std::size_t i = 0; i < w.size(); ++i)
        rts = rts || wlan::isControl(w.frameControl[i], wlan::subtype::kRts);
    mac.hops = chain.hops;
    mac.ampduMax = std::min<std::uint32_t>(std::max(mac.ampduMax, chain.relayAmpduMax), 64);
    mac.rtsCts = rts;
    // 802.11n limits an A-MPDU in bytes (9.4.2.55.3): the data MPDUs it held, in full-sized
    // subframes (delimiter and padding to 4 octets, 9.7.1), hold more of the small ACKs.
    mac.ampduSubframeBytes = static_cast<std::uint32_t>(
        wlan::ampduSubframeBytes(std::uint64_t{s.sender.mss} + mac.ipTcpHeaderBytes + mac.macOverheadBytes));
    // What the capture cannot show is a radio's reach beyond the frames it decodes; it
    // is taken as what it decodes (a node senses and is disturbed by its neighbours
    // only): the chain's hidden terminals, two hops apart, then follow (wifi_chain.h).
    mac.senseHops = 1;
    mac.interferenceHops = 1;
    s.mac = mac;
    s.path.bottleneckMbps = std::max(s.path.bottleneckMbps, 10 * mac.phyRateMbps);
    s.path.queueBytes = std::max(s.path.queueBytes, s.receiver.bufferBytes * (s.sender.mss + 52) / s.sender.mss);
    out.notes.push_back(format("mac: a chain of %.0f 802.11 hops (relayed copies: %.0f of the data, %.0f of the "
                               "ACKs; the far end's TTL)",
                               chain.hops, static_cast<double>(chain.relayedData), static_cast<double>(chain.relayedAcks)));
    out.notes.push_back(format("mac: the capture at node %.0f; 802.11 model at %.1f Mb/s, control frames at %.1f Mb/s",
                               chain.vantageNode, mac.phyRateMbps, mac.basicRateMbps));
    out.notes.push_back(format("mac: A-MPDU of %.0f; %.1f%% of the vantage's data MPDUs sent again (lost at the next "
                               "hop, a hidden terminal's share); neighbours only hear each other",
                               mac.ampduMax,
                               chain.vantageMpdus ? 100.0 * static_cast<double>(chain.vantageRetries) /
                                                        static_cast<double>(chain.vantageMpdus)
                                                  : 0.0));
}

// Whether the AP's queue stood while it served the flow. A transmitter with a frame
// queued sends it after AIFS and a backoff of at most CWmin slots once the medium's last
// frame is over (802.11-2020 10.3.4.3, a fresh backoff after each success); a longer
// pause means its queue was empty, the air idle for want of data. Read from the AP's
// full-sized data frames that follow its own acknowledged one (data, ACK, data): their
// stamps are one exchange (the data PPDU, SIFS, the ACK) and the pause apart, whichever
// end of a frame a capture stamps.
struct QueueStood
{
    std::size_t pairs = 0, idle = 0;
    // The pairs the AP waited for: where their data came as fast as a busy link in front
    // brought it, one full-sized packet per span, the spans agree to within the AP's
    // backoff (their middle half within CWmin slots) and their median is that link's
    // pace; else (a window's bursts and the waits between them) 0.
    double idleSpanUs = 0;
};

QueueStood apQueueStood(const dissect::WlanColumns& w,
                        const std::vector<std::uint64_t>& fullSizedFrames, const MacParams& mac,
                        std::uint32_t mss)
{
    const auto fullSized = [&](std::size_t row) {
        return wlan::frameType(w.frameControl[row]) == wlan::kData && !wlan::badFcs(w, row) &&
               std::binary_search(fullSizedFrames.begin(), fullSizedFrames.end(), w.frame[row]);
    };
    const double psduBytes = mss + mac.ipTcpHeaderBytes + mac.macOverheadBytes;
    // A pause up to AIFS and CWmin slots is a backoff; the headers' length is known to a
    // symbol and each stamp to a microsecond.
    const double longestBackoffUs =
        mac.firstAttemptAccessUs() + std::max(mac.symbolUs, 1.0) + 2;
    QueueStood out;
    std::vector<double> idleSpansUs;
    for (std::size_t row = 0; row + 2 < w.size(); ++row) {
        if (!fullSized(row) || !wlan::isAckTo(w, row + 1, w.addr2(row)) || !fullSized(row + 2) ||
            w.addr2(row + 2) != w.addr2(row) || wlan::retry(w.frameControl[row + 2]) ||
            w.dataRateKbps[row] == 0 || w.dataRateKbps[row + 2] != w.dataRateKbps[row])
            continue;
        const double exchangeUs =
            mac.ppduUs(psduBytes, w.dataRateKbps[row] / 1000.0, mac.dataPpduPreambleUs()) +
            mac.sifsUs + mac.ppduUs(kAckBytes, mac.basicRateMbps, mac.preambleUs);
        const double spanUs = static_cast<double>(w.timeNs[row + 2] - w.timeNs[row]) / 1000;
        ++out.pairs;
        if (spanUs - exchangeUs > longestBackoffUs)
            idleSpansUs.push_back(spanUs);
    }
    out.idle = idleSpansUs.size();
    const double spread = percentile(idleSpansUs, 0.75) - percentile(idleSpansUs, 0.25);
    if (spread <= mac.cwMin * mac.slotUs + 2)
        out.idleSpanUs = percentile(std::move(idleSpansUs), 0.5);
    return out;
}

// How soon the station answers what it is given, as the air shows it. Its TCP ACK,
// queued by the time its own MAC ACK ends and with its backoff run out, goes after AIFS
// and nothing more (10.3.4.2): [data to the station] [its ACK] [its TCP ACK] then follow
// each other with AIFS and one of the two frames between the last two stamps, whichever
// end of a frame a capture stamps. The least pause beyond that, over enough such
// triples that one went with no backoff, is what the station's host added.
struct StationTurnaround
{
    std::size_t triples = 0;
    double leastExtraUs = -1; // -1: too few triples
};

StationTurnaround stationTurnaround(const dissect::WlanColumns& w,
                                    const std::vector<std::uint64_t>& ackFrames,
                                    const MacParams& mac)
{
    StationTurnaround out;
    double least = std::numeric_limits<double>::max();
    for (std::size_t row = 0; row + 2 < w.size(); ++row) {
        const std::uint16_t fc = w.frameControl[row], next = w.frameControl[row + 2];
        if (wlan::frameType(fc) != wlan::kData || !wlan::fromDs(fc) || wlan::badFcs(w, row))
            continue;
        const std::uint32_t station = w.addr1(row);
        if (!wlan::isAckTo(w, row + 1, w.addr2(row)) || wlan::frameType(next) != wlan::kData ||
            !wlan::toDs(next) || wlan::badFcs(w, row + 2) || wlan::retry(next) ||
            w.addr2(row + 2) != station || w.dataRateKbps[row + 2] == 0 ||
            !std::binary_search(ackFrames.begin(), ackFrames.end(), w.frame[row + 2]))
            continue;
        const double ackFrameUs =
            mac.ppduUs(mac.ipTcpHeaderBytes + mac.macOverheadBytes,
                       w.dataRateKbps[row + 2] / 1000.0, mac.dataPpduPreambleUs());
        const double macAckUs = mac.ppduUs(kAckBytes, mac.basicRateMbps, mac.preambleUs);
        const double gapUs = static_cast<double>(w.timeNs[row + 2] - w.timeNs[row + 1]) / 1000;
        least = std::min(least, gapUs - mac.difsUs() - std::max(ackFrameUs, macAckUs));
        ++out.triples;
    }
    // A backoff drawn from CWmin + 1 slots is zero once in as many draws on average.
    if (out.triples > static_cast<std::size_t>(mac.cwMin))
        out.leastExtraUs = std::max(0.0, least);
    return out;
}

} // namespace

void deriveMac(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    const double rateMbps = ctx.rateMbps;
    // 802.11: with radio frames, their data rate says whether the air is the bottleneck.
    if (!tables.wlan.frame.empty()) {
        std::vector<double> phy;
        for (std::size_t i = 0; i < tables.wlan.size(); ++i)
            if (tables.wlan.dataRateKbps[i] > 0 && wlan::frameType(tables.wlan.frameControl[i]) == wlan::kData)
                phy.push_back(tables.wlan.dataRateKbps[i] / 1000.0);
        const double phyRate = percentile(phy, 0.5);
        // A-MPDU size: the most of the sender's data MPDUs seen under one radiotap
        // A-MPDU reference (the receiver's TCP ACKs are small: many more fit in one).
        std::vector<std::uint64_t> dataFrames, fullSizedFrames,
            ackFrames; // ackFrames: the receiver's pure ACKs
        for (std::size_t row = 0; row < t.size(); ++row) {
            if (tcp.segments.connection[row] != in.connection)
                continue;
            if (tcp.directionOf(tables, row) != in.sender) {
                if (t.payloadLength[row] == 0)
                    ackFrames.push_back(t.frame[row]);
            } else if (t.payloadLength[row] > 0) {
                dataFrames.push_back(t.frame[row]);
                if (t.payloadLength[row] == s.sender.mss)
                    fullSizedFrames.push_back(t.frame[row]);
            }
        }
        std::sort(dataFrames.begin(), dataFrames.end());
        std::sort(ackFrames.begin(), ackFrames.end());
        std::sort(fullSizedFrames.begin(), fullSizedFrames.end());
        std::uint32_t ampdu = 1, run = 0;
        std::uint32_t lastRef = 0;
        std::vector<std::uint32_t> aggregates; // data MPDUs of each A-MPDU
        for (std::size_t i = 0; i < tables.wlan.size(); ++i) {
            const std::uint32_t ref = tables.wlan.ampduReference[i];
            if (ref == 0 || !std::binary_search(dataFrames.begin(), dataFrames.end(), tables.wlan.frame[i])) {
                run = 0;
                continue;
            }
            run = ref == lastRef ? run + 1 : 1;
            if (run == 1)
                aggregates.push_back(0);
            ++aggregates.back();
            lastRef = ref;
            ampdu = std::max(ampdu, run);
        }
        // An AP whose queue stands (the air the bottleneck) fills every aggregate to its
        // limit; where the aggregates of the largest size carry under half of the
        // aggregated data, the queue seldom held a full one: the air kept up with what
        // arrived, and the queue the RTT shows is upstream, in front of a slower link.
        std::uint64_t aggregatedFrames = 0, inLargest = 0;
        for (const std::uint32_t a : aggregates) {
            aggregatedFrames += a;
            inLargest += a == ampdu ? a : 0;
        }
        const bool aggregatesBelowLimit = ampdu > 1 && 2 * inLargest < aggregatedFrames;
        MacParams mac = radioMac(tables.wlan, phyRate);
        mac.ampduMax = std::min<std::uint32_t>(ampdu, 64);
        deriveBlockAckRequest(tables.wlan, mac, out.notes);
        // Relayed frames: the capture stands on a chain of 802.11 hops, whose air is the
        // path (every hop shares one channel), whatever the rates say.
        const RelayChain chain = readRelayChain(tables, tcp, in.connection, in.sender);
        if (phyRate > 0 && chain.chain()) {
            deriveChainMac(in, chain, mac, out);
            return;
        }
        // What the air can carry for this flow: data frames of one MSS and, every
        // second one, a TCP ACK, each after DIFS (or AIFS) and an average backoff.
        const double frameUs =
            static_cast<double>(mac.preambleUs) + mac.difsUs() + mac.cwMin / 2.0 * mac.slotUs;
        const double headerBytes = mac.ipTcpHeaderBytes + mac.macOverheadBytes;
        const double dataUs = frameUs / mac.ampduMax + (s.sender.mss + headerBytes) * 8 / phyRate + mac.preambleUs +
                              14 * 8 / mac.basicRateMbps;
        const double ackUs = frameUs + headerBytes * 8 / phyRate + mac.preambleUs + 14 * 8 / mac.basicRateMbps;
        const double capacityMbps = phyRate > 0 ? s.sender.mss * 8 / (dataUs + ackUs / 2) : 0;
        // Within kAirLimitsShare of that the air is what limits the flow; below, the path does.
        if (phyRate > 0 && rateMbps > kAirLimitsShare * capacityMbps && aggregatesBelowLimit) {
            out.notes.push_back(format("mac: off; the A-MPDUs of %.0f carry %.1f%% of the aggregated data frames: the "
                                       "AP's queue seldom held a full aggregate, so the air (at least %.1f Mb/s for TCP) "
                                       "kept up and the path's link in front of it is the bottleneck",
                                       static_cast<double>(ampdu),
                                       100.0 * static_cast<double>(inLargest) /
                                           static_cast<double>(std::max<std::uint64_t>(1, aggregatedFrames)),
                                       capacityMbps));
        } else if (const QueueStood stood =
                       phyRate > 0 && rateMbps > kAirLimitsShare * capacityMbps
                           ? apQueueStood(tables.wlan, fullSizedFrames, mac, s.sender.mss)
                           : QueueStood{};
                   2 * stood.idle > stood.pairs) {
            out.notes.push_back(format(
                "mac: off; before %.0f of the AP's %.0f full-sized data frames that followed "
                "its own the air stood idle longer than AIFS and CWmin slots: its queue was "
                "empty, so the air (about %.1f Mb/s for TCP) kept up and the path's link in "
                "front of it is the bottleneck",
                static_cast<double>(stood.idle), static_cast<double>(stood.pairs), capacityMbps));
            // Those frames came at the pace of the link in front: one packet per span. A
            // rate read from the deliveries counted the bursts the AP sent whenever its
            // queue did stand (releases after a hold, recoveries); this one does not.
            const double paceMbps = stood.idleSpanUs > 0 ? s.sender.mss * 8 / stood.idleSpanUs : 0;
            if (paceMbps > 0 && paceMbps < rateMbps) {
                const double scale = paceMbps / rateMbps;
                s.path.bottleneckMbps *= scale;
                s.path.queueBytes = static_cast<std::uint64_t>(
                    std::llround(static_cast<double>(s.path.queueBytes) * scale));
                ctx.rateMbps = paceMbps;
                ctx.rateFromDispersion = true;
                out.notes.push_back(format(
                    "path.bottleneck_mbps %.3f: the pace of the link in front, one full-sized "
                    "packet every %.0f us (the median span of the frames the AP waited for; "
                    "%.3f Mb/s payload), the queue scaled with it",
                    s.path.bottleneckMbps, stood.idleSpanUs, paceMbps));
            }
        } else if (phyRate > 0 && rateMbps > kAirLimitsShare * capacityMbps) {
            s.mac = mac;
            // The air between the AP and the station is the model's now; what stays a
            // delay is the station's host turnaround beyond its MAC ACK, where the
            // frames show it (the round trip's split counted the air with it).
            if (const StationTurnaround turn = stationTurnaround(tables.wlan, ackFrames, mac);
                turn.leastExtraUs >= 0) {
                const double oneWayMs = std::min(s.path.wirelessDelayMs, turn.leastExtraUs / 2000);
                out.notes.push_back(
                    format("path.wireless_delay_ms %.3f: the station's TCP ACKs follow its MAC "
                           "ACK after AIFS and at least %.0f us more (least of %.0f), the host's "
                           "turnaround; the air is the 802.11 model's",
                           oneWayMs, turn.leastExtraUs, static_cast<double>(turn.triples)));
                s.path.wirelessDelayMs = oneWayMs;
            }
            ctx.airCapacityMbps = capacityMbps;
            ctx.linkBeforeAirMbps = s.path.bottleneckMbps;
            ctx.queueBeforeAirBytes = s.path.queueBytes;
            s.path.bottleneckMbps = std::max(s.path.bottleneckMbps, 10 * phyRate);
            // The queue that fills is the AP's; the wired link in front of it must not
            // drop what the window lets through.
            s.path.queueBytes = std::max(s.path.queueBytes, s.receiver.bufferBytes * (s.sender.mss + 52) / s.sender.mss);
            out.notes.push_back(
                format("mac: 802.11 model at %.1f Mb/s (median data-frame rate), A-MPDU of %.0f, ",
                       phyRate, mac.ampduMax) +
                (mac.aifsSlots == 2 ? "DCF (data frames without QoS)"
                                    : "EDCA best effort (QoS Data)") +
                format("; the air (about %.1f Mb/s for TCP) is the bottleneck", capacityMbps) +
                (mac.stationLeavePauseUs > 0
                     ? format("; no frame carries the Power Management bit: a station announcing a "
                              "scan leaves at a pause of %.0f us (an ACKTimeout: no response follows)",
                              mac.stationLeavePauseUs)
                     : std::string("; stations announce power save on air")));
        } else if (phyRate > 0) {
            out.notes.push_back(format("mac: off; the air (about %.1f Mb/s for TCP at %.1f Mb/s) is well above the "
                                       "path's rate",
                                       capacityMbps, phyRate));
        }
    }
}

} // namespace windscope::analysis::replay::derive
