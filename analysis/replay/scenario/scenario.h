// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A replay scenario: everything the simulator needs to re-run one TCP transfer over a
// wired path and an 802.11 last hop (or an ad hoc chain). Plain data, written and read
// as JSON (scenario_json.h) so a user can inspect, edit or write one by hand; presets
// (presets.h) are scenarios for the published setups, derivation (derive_scenario.h)
// builds one from a captured connection.
//
// Topology, data direction (the sender is the wired server, the receiver the station):
//   sender -> bottleneck link (rate, drop-tail queue) -> wired one-way delay
//          -> AP (node 0) -> 802.11 hop(s) -> station (node hops) -> receiver
// ACKs take the reverse path. With the MAC model off the wireless hop is a delay line
// that applies the outage timeline and random loss, as the lab's relay does.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis::replay {

enum class OutageKind : std::uint8_t { Scan, Handoff, PowerSave };
// What the AP does with frames for an absent station:
// - Drop: it does not know; it transmits them, retries unacknowledged and drops them
//   at the retry limit (a handoff, an unannounced absence; the lab relay's "drop");
// - Hold: it keeps them until the station is back (power save honoured, "hold");
// - PsAnnounced: the station announced power save (802.11-2020 11.2.3): the AP keeps
//   new frames, but those already handed to its radio are still sent to the absent
//   station (the background-scan loss mechanism of paper 004).
enum class OutageMode : std::uint8_t { Drop, Hold, PsAnnounced };

const char* outageKindName(OutageKind kind);
const char* outageModeName(OutageMode mode);
bool parseOutageKind(const std::string& text, OutageKind& kind);
bool parseOutageMode(const std::string& text, OutageMode& mode);

struct Outage
{
    OutageKind kind = OutageKind::Scan;
    OutageMode mode = OutageMode::Drop;
    double startS = 0;
    double durationS = 0;
    double endS() const { return startS + durationS; }
};

// A periodic background scan, expanded into outages by Scenario::outages().
struct PeriodicScan
{
    double intervalMs = 0;      // 0: no periodic scan
    double dwellMs = 10;
    double firstS = 1.0;
    double untilS = 0;          // 0: until the end of the run
    OutageMode mode = OutageMode::PsAnnounced;
    // Without the 802.11 model the scans lose nothing themselves: the share of
    // path.lossFwd that stands for the frames the AP sent into their absences (a loss
    // found right after a scan more often than half a period later). Fixes that change
    // the scans scale that share (scaleScanLoss()); 0: none of it is theirs.
    double lossShare = 0;
    // Also without it: segments (indexed as path.lostSegments) the capture lost alone
    // and away from the queue at the scans, the frames the AP's radio held when the
    // station left; their first transmission is lost again. The fixes that change the
    // scans keep a share of them (scaleScanLoss()).
    std::vector<std::int64_t> lostSegments;
};

struct PathParams
{
    double bottleneckMbps = 20;     // rate of the link in front of the wireless part
    std::uint64_t queueBytes = 50000; // its drop-tail queue
    // 0: a link that serialises each packet at the rate. Otherwise a token bucket
    // shaper (Linux tbf) in front of a faster link: tokens accrue at the rate up to
    // this many bytes, and a packet leaves at once when the bucket holds its size, so
    // after a pause a few packets pass back to back.
    std::uint64_t burstBytes = 0;
    // The bottleneck is the AP's radio (without the 802.11 model): it carries nothing
    // while the station is away and the AP holds its frames, and what it held leaves at
    // the rate, not at once. false: a link in front of a faster radio, which goes on
    // filling the AP's queue through a hold.
    bool atRadio = false;
    // The bottleneck is the sender's own link and the capture point lies past its
    // queue (a capture on the sender's host sees a segment when its link sends it):
    // the run's trace takes the data as the link sends it, as the capture did.
    // false: as the sender sends it, in front of the bottleneck's queue.
    bool tracedPastQueue = false;
    // The capture point lies past the bottleneck, at the last radio (an AP's monitor or
    // the station): the run's trace takes the data as that radio sends it and the ACKs
    // as it hears them, after every queue and hold on the way, as the capture did (over
    // tracedPastQueue where both are set).
    bool tracedAtRadio = false;
    double wiredDelayMs = 20;       // one-way, sender <-> AP
    double wirelessDelayMs = 0;     // one-way, AP <-> station (propagation, driver)
    double reverseDelayMs = -1;     // one-way delay of the ACK path; -1: same as forward
    double jitterMs = 0;            // uniform extra delay per packet, FIFO kept
    double lossFwd = 0;             // random loss TCP sees, data direction
    double lossRev = 0;             // ... ACK direction
    // Segments (indices from the first data byte, MSS each) whose first transmission the
    // radio loses: the capture's own losses away from the queue, placed where they were.
    std::vector<std::int64_t> lostSegments;
};

struct MacParams
{
    bool enabled = false;           // false: the wireless hop is a delay line
    std::uint32_t hops = 1;         // 802.11 hops from the AP (node 0) to the receiver
    double phyRateMbps = 12;        // data frames
    double basicRateMbps = 6;       // control frames (ACK, Block Ack, RTS, CTS)
    double preambleUs = 20;         // PLCP preamble + header (OFDM 20 us, DSSS long 192 us)
    // Data PPDUs in another format than the control frames: HT-mixed adds HT-SIG, HT-STF
    // and an HT-LTF to the legacy preamble (36 us, IEEE 802.11-2020 19.3.2); 0: preambleUs.
    double dataPreambleUs = 0;
    // OFDM: a PPDU's payload is whole symbols of this length, carrying the 16 SERVICE and 6
    // tail bits too (17.4.3, 19.4.3; 4 us); 0: the bits at the rate, unrounded.
    double symbolUs = 0;
    // A data PPDU's preamble: dataPreambleUs, else the control frames' preambleUs.
    double dataPpduPreambleUs() const { return dataPreambleUs > 0 ? dataPreambleUs : preambleUs; }
    // Time on air of a PPDU of these bytes at this rate (symbolUs: OFDM's SERVICE, PSDU
    // and tail bits in whole symbols).
    double ppduUs(double bytes, double rateMbps, double preamble) const
    {
        if (symbolUs <= 0)
            return preamble + bytes * 8 / rateMbps;
        return preamble + symbolUs * std::ceil((16 + bytes * 8 + 6) / (rateMbps * symbolUs));
    }
    double slotUs = 9;
    double sifsUs = 16;
    // The wait after the medium goes idle: SIFS + aifsSlots slots. 2 is DCF's DIFS
    // (10.3.2.3.4), for stations without QoS; 3 is EDCA's best effort (AIFSN 3, Table
    // 9-155), where data frames are QoS Data.
    std::uint32_t aifsSlots = 3;
    // The idle wait before a backoff: DIFS, or AIFS[BE] (10.22.2.4).
    double difsUs() const { return sifsUs + aifsSlots * slotUs; }
    std::uint32_t cwMin = 15, cwMax = 1023;
    // The longest a frame's first attempt waits on an idle medium: AIFS and CWmin slots
    // (10.3.4.3). A radio with a frame and a free medium has sent it by then.
    double firstAttemptAccessUs() const { return difsUs() + cwMin * slotUs; }
    std::uint32_t retryLimit = 7;   // attempts after the first
    // With RTS/CTS, a frame is also dropped once this many PPDUs carrying it were lost
    // after a CTS (dot11LongRetryLimit; the RTS attempts count against retryLimit).
    std::uint32_t longRetryLimit = 4;
    std::uint32_t ampduMax = 1;     // MPDUs per A-MPDU; 1: no aggregation (normal ACKs)
    // 0: ampduMax counts MPDUs of any size. Otherwise the A-MPDU's limit is in bytes, as
    // 802.11n's Maximum A-MPDU Length (9.4.2.55.3): ampduMax subframes of this many
    // bytes (a full-sized data MPDU), so more of a flow's small TCP ACKs fit in one, up
    // to the Block Ack window of 64 MPDUs (10.25.6.3).
    std::uint32_t ampduSubframeBytes = 0;
    // 802.11n's Block Ack (10.25): each MPDU of an A-MPDU is acknowledged on its own, so
    // an interferer or a frame error costs the MPDUs it hit. false: the aggregate is
    // acknowledged by one ACK as a whole (paper 003's QualNet implementation), so any
    // MPDU lost loses the PPDU.
    bool ampduBlockAck = true;
    // With Block Acks: a sender that missed the Block Ack after an A-MPDU does not know
    // which of its MPDUs arrived, and asks with a Block Ack Request (9.3.1.7) before it
    // sends them again, as the Block Ack procedure solicits the answer (10.25.2; ns-3's
    // default). false: it sends the MPDUs again at once, a Block Ack Request only to move
    // the window past one it gave up (mac80211).
    bool blockAckRequest = true;
    bool rtsCts = false;
    // Ad hoc string geometry in hops: a node defers to transmitters and receivers within
    // senseHops (carrier sense, NAV); a transmitter within interferenceHops of a receiver
    // that the sender cannot sense corrupts the reception (hidden terminal).
    std::uint32_t senseHops = 1;
    std::uint32_t interferenceHops = 1;
    std::uint32_t macOverheadBytes = 36; // data header (24, QoS 26) + FCS + LLC/SNAP
    std::uint32_t ipTcpHeaderBytes = 52; // IPv4 + TCP with timestamps
    std::uint32_t apQueueFrames = 100;   // qdisc in front of the AP radio
    std::uint32_t hwQueueFrames = 32;    // frames already handed to the radio
    // How a station announcing power save for a scan leaves. 0: it sends a Null frame
    // with the Power Management bit (802.11-2020 11.2.3.2) and goes once the AP has
    // acknowledged it. Otherwise its announcement is not on air: the AP holds new frames
    // from the scan's start, and the station, which leaves only between frame exchanges,
    // goes at the first pause of this many microseconds in the frames it hears.
    double stationLeavePauseUs = 0;
    double frameErrorRate = 0;      // per MPDU attempt, hidden from TCP by retries
};

// The probability that a frame sent to a station that has just left is dropped within
// ms: its whole retry chain (the first attempt and mac.retryLimit retries, each after a
// DIFS/AIFS and a backoff drawn uniformly from a contention window doubling from CWmin to
// CWmax, 802.11-2020 10.23.2) over before the station is back. Airtimes are left out, so
// this is the chain's shortest reading: an upper bound of the drop.
double retryChainEndsWithin(const MacParams& mac, double ms);

struct ReceiverParams
{
    std::uint64_t bufferBytes = 1u << 20;  // socket receive buffer (advertised window cap)
    // Application: 0 reads everything at once (never the bottleneck). Otherwise each
    // read takes at most appReadBytes and keeps the reader busy readFixedUs +
    // k * readPerByteUs for k bytes read (the handheld of paper 000, lab scenario E).
    std::uint64_t appReadBytes = 0;
    double readFixedUs = 0;
    double readPerByteUs = 0;
    // A slow host's receive path (paper 000's PDA): arriving segments wait in a driver
    // ring of rxRingPackets (0: no CPU model) and each takes rxPerPacketUs of CPU, which
    // also stalls the reader; a full ring drops what arrives.
    std::uint32_t rxRingPackets = 0;
    double rxPerPacketUs = 0;
    std::uint32_t delayedAckSegments = 2;  // RFC 5681 4.2: at least every second segment
    double delayedAckMs = 40;
};

struct SenderParams
{
    std::string cc = "newreno";    // one of cwnd::allCongestionModelNames()
    // The stack whose implementation of cc runs, cwnd::modelStackName(): where Linux and
    // ns-3 part ways on one algorithm (cwnd::ModelStack); a model only one of them has
    // runs as written whatever this says.
    std::string stack = "linux";
    std::uint32_t mss = 1448;
    std::uint32_t initialWindowSegments = 10; // RFC 6928
    std::uint64_t maxWindowBytes = 0;  // send buffer / window clamp; 0: no limit
    bool sack = true;
    // RACK-TLP (RFC 8985; needs SACK): time-based loss marking, so a lost
    // retransmission or a burst of losses is found an RTT after a later segment
    // arrived, and a probe 2 SRTT into a silence that turns a tail loss into a fast
    // recovery instead of a timeout. Linux's default since 4.18; off, the sender
    // recovers as RFC 6675 and RFC 6298 alone say, as the published setups did.
    bool rackTlp = false;
    // Proportional Rate Reduction (RFC 6937 with the slow-start reduction bound, Linux
    // tcp_cwnd_reduction(); needs SACK): during recovery the window follows what was
    // delivered, so the sends stay spread over the round trip. Off, the window drops
    // to ssthresh at once and the sender waits for the flight to drain to it, then
    // sends at the ACKs' pace (RFC 6675), as the published setups did.
    bool prr = false;
    double minRtoMs = 200;             // Linux TCP_RTO_MIN
    // How the minimum bounds the RTO. false: Linux __tcp_set_rto(), srtt + max(4 rttvar,
    // min_rto), so an RTO is always at least min_rto above the smoothed RTT. true: RFC
    // 6298 2.4 as ns-3 and the BSDs do, max(min_rto, srtt + 4 rttvar): on a long path
    // the RTO sits a few milliseconds above the RTT, and a retransmission that meets a
    // full queue times out spuriously. An RTO then halves the data in flight by RFC
    // 6675's pipe (ns-3 TcpSocketBase::ReTxTimeout()), not all that is outstanding.
    bool rtoRfc6298 = false;
    double initialRtoMs = 1000;        // RFC 6298 2.1
    double maxRtoMs = 120000;          // Linux TCP_RTO_MAX
    double paceMs = 0;                 // minimum gap between data segments (0: none)
};

struct Scenario
{
    std::string name;
    std::string description;
    std::uint64_t seed = 1;
    double durationS = 20;             // stop time (the sender stops sending new data)
    std::uint64_t bytes = 0;           // bytes to send; 0: send for durationS
    // > 0: the run's figures (metricsOf()) are read over this span from its first data
    // segment, as a capture cut mid-transfer reads its own: what the sender sent in it.
    double measuredOverS = 0;
    PathParams path;
    MacParams mac;
    ReceiverParams receiver;
    SenderParams sender;
    std::vector<Outage> outageList;    // explicit windows (from a capture or by hand)
    PeriodicScan periodicScan;         // plus a periodic scan pattern
    std::vector<std::string> fixes;    // "name" or "name=value", applied in order

    // The outage timeline: outageList plus the periodic scans, sorted by start; a scan
    // overlapping another outage is left out.
    std::vector<Outage> outages() const;
    // Scales the part of path.lossFwd the scans stand for (PeriodicScan::lossShare) by
    // factor, the rest of the random loss as it was, and keeps that share of the scans'
    // placed losses (PeriodicScan::lostSegments; all of them at a factor of 1 or more,
    // which cannot place losses the capture did not show).
    void scaleScanLoss(double factor);
    // Empty when the scenario can run, else what is wrong with it.
    std::string validate() const;
};

} // namespace windscope::analysis::replay
