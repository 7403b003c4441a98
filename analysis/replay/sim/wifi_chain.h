// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The 802.11 part: nodes 0 (the AP, or the first node of an ad hoc string) to H (the
// receiving station), one hop between neighbours. Each node has one transmit queue
// (one access category) and contends with DCF (IEEE 802.11-2020 10.3): DIFS (AIFS for
// best effort), a backoff of uniform [0, CW] slots counted down only while the medium
// is idle and frozen, not restarted, while it is busy (10.3.4.3), CW doubling after a
// failure up to CWmax and reset after a success, retries up to the retry limit (and,
// with RTS/CTS, up to the long retry limit for PPDUs lost after their CTS), then the
// frame is dropped. An exchange is [RTS SIFS CTS SIFS] PPDU SIFS ACK, or a Block
// Ack after an A-MPDU of up to ampduMax MPDUs for the same receiver (10.12, 10.25);
// each MPDU of an A-MPDU is acknowledged on its own, so frame errors cost a retry of
// that MPDU only.
//
// The air is modelled frame by frame (RTS, CTS, PPDU, ACK), each with its own time
// on air. Who hears whom (an ad hoc string, as in paper 003 and the lab's
// RangePropagation): neighbours decode each other's frames; nodes within senseHops
// sense the energy of a frame without decoding it (carrier sense busy, then EIFS,
// 10.3.2.3.7); only a decoded RTS, CTS or data frame sets the NAV (10.3.2.4). A
// frame is lost at its receiver when another frame overlaps it from a transmitter
// within interferenceHops of that receiver (or the receiver itself transmits). So an
// RTS into a busy receiver costs only the RTS and the CTS timeout; a receiver whose
// NAV is set does not answer (10.3.2.9); and a node that senses a receiver's CTS but
// cannot decode it, and cannot sense the sender, is free to transmit during the PPDU
// and corrupts it if it is within interference range of the receiver: the hidden
// terminal of a string, which a longer PPDU is exposed to for longer. Two nodes that
// sense each other and pick the same slot collide.
//
// The station (node H) can be away (scan, power save, handoff); what the node before
// it does with frames for it is the outage's mode (scenario.h). A station that
// announces its absence (power save) does so in a frame exchange of its own, a Null
// frame with the PM bit (802.11-2020 11.2.3.2), which contends like any frame: it
// leaves when the AP has it, so an exchange under way ends first, and only what the AP
// has handed to its radio by then is sent after it left.

#include "event_queue.h"
#include "packet.h"
#include "rng.h"
#include "analysis/replay/scenario/scenario.h"

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <vector>

namespace windscope::analysis::replay {

// A part of a frame overlapped by a transmission as strong as its own (SINR 0 dB): the
// chance it is lost, by its bits and its rate. Only BPSK rate 1/2 decodes there (OFDM
// rates of half a bit per data subcarrier and symbol: 6 Mb/s, HT/VHT/HE MCS 0).
bool bpskHalfRate(double rateMbps);
double equalPowerLoss(double bits, double rateMbps);

struct MacCounters
{
    std::uint64_t exchanges = 0, failures = 0, collisions = 0, hiddenFailures = 0, absentFailures = 0;
    // Absences whose first failed exchange was a first attempt: the station left while
    // its sender backed off for a frame not tried yet.
    std::uint64_t leftInFirstBackoff = 0;
    std::uint64_t drops = 0, queueDrops = 0, mpdusDelivered = 0, ampdus = 0;
    std::int64_t airtimeNs = 0;
};

class WifiChain
{
public:
    // Delivered at the far end: downlink at node H (to the receiver host), uplink at
    // node 0 (to the wired side / the sender host).
    using Deliver = std::function<void(const Packet&, bool downlink)>;
    using Dropped = std::function<void(const Packet&, bool downlink, bool stationAway)>;
    WifiChain(EventQueue& queue, const MacParams& params, std::uint64_t seed, Deliver deliver, Dropped dropped);

    void sendDownlink(const Packet& p); // enters node 0's queue
    void sendUplink(const Packet& p);   // enters node H's queue
    // Puts a packet at the head of node 0's queue (a local retransmission).
    void requeueDownlinkFront(const Packet& p);

    // Announced absences (OutageMode::PsAnnounced) begin when the AP has the
    // announcement; the others at once.
    void stationAway(const Outage& outage);
    void stationBack();

    const MacCounters& counters() const { return m_counters; }
    // Airtime of one exchange carrying `count` MPDUs of `bytes` payload each.
    std::int64_t exchangeNs(std::uint32_t bytes, std::uint32_t count) const;

private:
    struct Frame
    {
        Packet packet;
        bool downlink = true;
        std::uint32_t retries = 0;
        bool committed = false; // handed to the radio before a power-save announcement
        std::uint64_t tag = 0;  // unique in the chain, to find the frame after its exchange
        std::uint32_t longRetries = 0; // PPDUs lost after a CTS
        bool received = false;  // the next node has it (its ACK was lost): not delivered twice
        bool announcement = false; // the station's Null frame announcing its doze
        std::uint64_t seq = 0;  // sequence number on its link, from its sender's queue
        // In an A-MPDU whose Block Ack was missed: a Block Ack Request asks for it before
        // anything else is sent (MacParams::blockAckRequest).
        bool unanswered = false;
    };
    // One exchange in progress, kept by its sender.
    struct Exchange
    {
        std::uint32_t to = 0;
        std::vector<std::uint64_t> tags;
        std::vector<bool> mpduOk;       // frame errors drawn per MPDU
        std::int64_t startNs = 0, endNs = 0; // endNs: as planned, the NAV that RTS and CTS announce
        std::int64_t dataNs = 0, ackNs = 0;
        bool protectedData = false;     // the PPDU went out after a CTS
        bool received = false;          // the PPDU reached the receiver intact
        bool blockAckAnswer = false;    // an A-MPDU, answered by a Block Ack
        bool blockAckRequest = false;   // a Block Ack Request for the MPDUs in tags
    };
    struct Node
    {
        std::deque<Frame> queue;
        std::uint32_t cw = 15;
        bool contending = false, transmitting = false;
        bool counting = false; // backoff counting down (an attempt is scheduled if contending)
        // A backoff drawn and not yet counted out: after every transmission, with or
        // without a frame queued (10.3.4.3), or for a frame queued on a busy medium.
        bool backoffPending = false;
        bool mayHaveUnanswered =
            false; // a Frame::unanswered may be queued (else no request to look for)
        std::uint64_t attemptToken = 0;
        std::uint32_t backoffSlots = 0;
        std::int64_t countFromNs = 0;   // when the current countdown began
        std::int64_t quietNs = 0;       // end of the last frame sensed + AIFS, or EIFS if not decoded
        std::int64_t navNs = 0;         // virtual carrier sense
        Exchange ex;
        std::uint64_t nextSeq[2] = {0, 0}; // per direction (uplink, downlink) it sends in
    };
    // Block Ack's receive reordering at a node, per direction (10.25.4): MPDUs go up in
    // their sequence order; one received ahead of a missing one waits until that one
    // arrives or its sender gives it up (a Block Ack Request moves the window on).
    struct Reorder
    {
        std::uint64_t expected = 0;
        std::map<std::uint64_t, Frame> held;
        std::set<std::uint64_t> skipped;
    };
    enum class Kind : std::uint8_t { Rts, Cts, Data, Ack };
    struct OnAir
    {
        std::uint64_t id = 0;
        Kind kind = Kind::Data;
        std::uint32_t from = 0, to = 0;
        std::uint32_t exchange = 0;     // the node whose exchange it belongs to
        std::int64_t startNs = 0, endNs = 0;
        std::int64_t navEndNs = 0;      // its Duration field, for those who decode it
        // Every transmission while it was on air: who, and when (for a PPDU's MPDUs one
        // by one, receiveMpdus()).
        struct Overlap
        {
            std::uint32_t from = 0;
            std::int64_t startNs = 0, endNs = 0;
        };
        std::vector<Overlap> overlaps;
    };

    void enqueue(std::uint32_t node, const Frame& frame, bool front = false);
    // A frame the next node has: up to the host at the chain's end, else into its queue.
    void handOver(std::uint32_t node, const Frame& frame);
    // Through the receiver's reordering (received, or given up by the sender).
    void reorderReceived(std::uint32_t node, const Frame& frame);
    void reorderGivenUp(std::uint32_t sender, const Frame& frame);
    void reorderRelease(std::uint32_t node, bool downlink);
    void leave(const Outage& outage);
    // Frames already handed to the AP's radio when it starts holding for the station.
    void commitApFrames();
    // The station without a frame of its own leaves at the first pause it hears.
    void leaveAtPause(std::uint64_t token);
    void contend(std::uint32_t node);
    void resume(std::uint32_t node);
    void freeze(std::uint32_t node, std::int64_t busyFromNs);
    // The earliest start of a frame on air that `node` senses, among those starting
    // before `before`; -1 when none.
    std::int64_t sensedBusySince(std::uint32_t node, std::int64_t before) const;
    void attempt(std::uint32_t node, std::uint64_t token);
    // A Block Ack Request for the node's unanswered MPDUs, if any is eligible.
    bool startBlockAckRequest(std::uint32_t node, std::int64_t now);
    void transmit(Kind kind, std::uint32_t from, std::uint32_t to, std::uint32_t exchange, std::int64_t startNs,
                  std::int64_t durationNs, std::int64_t navEndNs);
    void frameEnd(std::uint64_t id);
    void afterFrame(const OnAir& f, bool received);
    void failExchange(std::uint32_t node, const OnAir& lost, bool blocked);
    void finish(std::uint32_t node, bool acked);
    bool receives(const OnAir& f, std::uint32_t node) const;
    // The rate a frame's body is sent at (data, or a control frame's basic rate).
    double rateOf(const OnAir& f) const;
    // Whether the part [fromNs, toNs) of f, at rateMbps, decodes at node through the
    // overlap o of an equally strong transmission (part: which MPDU, for its own draw).
    bool survivesOverlap(const OnAir& f, std::uint32_t node, const OnAir::Overlap& o,
                         std::int64_t fromNs, std::int64_t toNs, double rateMbps,
                         std::uint64_t part) const;
    // A data PPDU at its receiver: false when it was not received at all (away, its PHY
    // header disturbed, the receiver itself transmitting); else clears mpduOk of the
    // MPDUs another transmission overlapped in time.
    bool receiveMpdus(const OnAir& f, std::vector<bool>& mpduOk) const;
    // A-MPDUs acknowledged MPDU by MPDU (MacParams::ampduBlockAck), not as a whole.
    bool blockAck() const { return m_params.ampduMax > 1 && m_params.ampduBlockAck; }
    bool eligible(std::uint32_t node, const Frame& f) const;
    // The A-MPDU limit (MacParams::ampduSubframeBytes): the most MPDUs, and whether the
    // next one still fits in the bytes picked so far (the first always does).
    std::uint32_t ampduMpdus() const;
    // Time on air of a PPDU (MacParams::symbolUs, dataPreambleUs).
    double ppduUs(double bytes, double rateMbps, double preambleUs) const;
    double dataPreamble() const { return m_params.dataPpduPreambleUs(); }
    bool fitsAggregate(std::uint64_t& bytes, const Packet& p, bool first) const;
    std::uint32_t receiverOf(std::uint32_t node, const Frame& f) const { return f.downlink ? node + 1 : node - 1; }
    static std::uint32_t distance(std::uint32_t a, std::uint32_t b) { return a > b ? a - b : b - a; }
    bool hears(std::uint32_t a, std::uint32_t b) const { return distance(a, b) <= m_params.senseHops; }
    bool decodes(std::uint32_t a, std::uint32_t b) const { return distance(a, b) <= 1; }
    bool disturbs(std::uint32_t a, std::uint32_t b) const { return distance(a, b) <= m_params.interferenceHops; }
    std::uint32_t wireBytes(const Packet& p) const;
    std::uint32_t wireBytes(const Frame& f) const;
    static std::int64_t usToNs(double us) { return static_cast<std::int64_t>(us * 1000); }

    EventQueue& m_queue;
    MacParams m_params;
    Rng m_rng;
    std::uint64_t m_seed; // keyed draws (Rng::keyed): who decodes what through an overlap
    Deliver m_deliver;
    Dropped m_dropped;
    std::vector<Node> m_nodes;
    std::vector<Reorder> m_reorder[2]; // per receiving node, per direction (uplink, downlink)
    std::vector<OnAir> m_air;           // frames on air, or starting within a SIFS
    std::vector<std::size_t> m_picked;  // scratch of attempt()
    std::vector<Frame> m_delivered;     // scratch of finish()
    std::uint64_t m_tags = 0, m_frames = 0;
    bool m_away = false;
    bool m_absenceLost = false;         // the current absence has cost an exchange
    bool m_arrivingMidPpdu = false;     // finish() hands over MPDUs of an A-MPDU still on air
    bool m_announcing = false;          // the station's announcement is queued, not yet had
    // An announcement off air (MacParams::stationLeavePauseUs): the AP holds new frames
    // while the station waits for a pause to leave in.
    bool m_holding = false;
    std::uint64_t m_leaveToken = 0;          // the pending check for that pause
    std::int64_t m_stationHeardUntilNs = -1; // end of the last frame the station sent or heard
    Outage m_announced;                 // the absence it announces
    OutageMode m_awayMode = OutageMode::Drop;
    MacCounters m_counters;
    std::int64_t m_difsNs, m_eifsNs, m_slotNs, m_sifsNs;
    std::int64_t m_rtsNs, m_ctsNs, m_timeoutNs;
};

} // namespace windscope::analysis::replay
