// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What each 802.11 event did to the TCP connections of its station: losses,
// timeouts, duplicate-ACK bursts, closed or low windows and throughput before, during
// and after, with the time TCP took to get back to most of its earlier pace; and the
// same summed per event kind and per scan pattern.
//
// Throughput is delivered data: the advance of the receiver's cumulative ACK for the
// connection's data direction (the one that carried more bytes), so a capture at the
// sender, at the AP or at the receiver measure the same quantity.

#include "wlan_events.h"
#include "analysis/cwnd/cwnd_source.h"

#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis {

struct CorrelationOptions
{
    // Window around an event: from preNs before its start to postNs after its end;
    // preNs < 0 means one RTT of the connection (100 ms when it has no RTT sample).
    std::int64_t preNs = -1;
    std::int64_t postNs = 2'000'000'000;
    // "Before" throughput is measured over max(pre window, minBaselineNs) before the
    // event, so that one RTT of ACKs is not the whole reference.
    std::int64_t minBaselineNs = 100'000'000;
    // Recovered when throughput over a sliding window of max(RTT, minBaselineNs / 2)
    // is back to this fraction of the before level.
    double recoveryFraction = 0.9;
    // Scan-free reference periods shorter than this are too short to compare with.
    std::int64_t minScanFreeNs = 500'000'000;
    // Congestion window before and after each event (from the cwnd source).
    bool cwnd = true;
};

struct ConnectionImpact
{
    std::uint32_t connection = 0;          // index in TcpAnalysis::connections
    int dataDirection = 0;
    std::int64_t windowStartNs = 0, windowEndNs = 0;
    // Attributed to this event: each retransmission and timeout of the connection is
    // charged to at most one event, the one in force when it was sent (see
    // correlateEvents). The *InWindow counts are all of them in this event's window.
    std::uint32_t retransmissions = 0, fastRetransmissions = 0, rtoTimeouts = 0;
    std::uint32_t retransmissionsInWindow = 0, fastRetransmissionsInWindow = 0, rtoTimeoutsInWindow = 0;
    std::vector<std::uint64_t> overlappingEvents; // ids of other events whose window on this connection overlaps
    std::uint32_t dupAcks = 0, dupAckBursts = 0; // bursts: >= 3 duplicate ACKs in a row
    std::uint32_t zeroWindows = 0, lowWindows = 0;
    double throughputBeforeBps = 0, throughputDuringBps = 0, throughputAfterBps = 0;
    std::int64_t recoveryNs = -1;          // -1: not back to the level within the window, or nothing to recover
    // No throughput before the event: there is no level to get back to, so no recovery
    // time (recoveryNs stays -1; the outputs say "nothing to recover", not "not recovered").
    bool nothingToRecover() const { return throughputBeforeBps <= 0; }
    // The data sender's congestion window (cwnd inference, the model it chose): at the
    // last data segment sent before the event, the lowest from the event's start to the
    // window's end (the loss response often comes an RTT after a short event), and at
    // the last segment sent in the window (with ssthresh then); -1 where there is no
    // such segment or the cwnd cannot be followed, and then cwndNotFollowed says why
    // ("" when followed).
    std::int64_t cwndBeforeBytes = -1, cwndMinBytes = -1, cwndAfterBytes = -1, ssthreshAfterBytes = -1;
    // The same moments' effective window, min(cwnd, the receive window the sender knew):
    // what the sender could have in flight. A cwnd grown while the receive window held
    // the sender (ns-3 grows it on every ACK) is far above what limited it.
    std::int64_t windowBeforeBytes = -1, windowMinBytes = -1, windowAfterBytes = -1;
    std::string cwndModel;
    std::string cwndNotFollowed;
    // What the event cost the connection, each charged to at most one event like the
    // retransmissions. stalledNs: time the ACK clock stood still (no cumulative ACK
    // advance for longer than SRTT + 4 RTTVAR with two full segments outstanding: RFC
    // 5681 has the receiver ACK at least every second full segment, so the sender hears
    // within an RTT unless the path is broken), charged at the moment the missed ACK
    // was due.
    // goodputLostBytes: what the connection's own event-free goodput would have
    // delivered from the event's start to its recovery (or the window's end) and was
    // not; -1 when the connection has less than CorrelationOptions::minScanFreeNs of
    // event-free transfer to take that rate from; 0 when nothing flowed before.
    std::int64_t stalledNs = 0;
    std::int64_t stallStartNs = -1, stallEndNs = -1; // first start, last end of those stalls
    std::int64_t goodputLostBytes = -1;
    double referenceGoodputBps = -1;       // that event-free rate, -1 unknown
    std::int64_t costEndNs = 0;            // end of the span the loss was counted over
};

struct EventImpact
{
    std::uint64_t event = 0;               // WlanEvent::id
    std::vector<ConnectionImpact> connections;
};

struct KindAggregate
{
    WlanEventKind kind = WlanEventKind::Scan;
    std::uint64_t events = 0, eventsWithConnections = 0;
    double meanDurationMs = 0;
    std::uint64_t retransmissions = 0, rtoTimeouts = 0, dupAckBursts = 0, zeroWindows = 0;
    double meanThroughputDuringPct = 0;    // during / before, over impacts with a before level
    double meanRecoveryMs = 0;             // over the impacts that recovered
    std::uint64_t notRecovered = 0;        // impacts with throughput before that did not get back to it
    // Sums of the impacts' charged costs; lostUnknown counts impacts without a reference rate.
    std::int64_t stalledNs = 0, goodputLostBytes = 0;
    std::uint64_t lostUnknown = 0;
};

struct ScanIntervalAggregate
{
    std::uint32_t station = 0;
    double intervalMs = 0, dwellMs = 0;
    bool periodic = false;
    std::uint64_t scans = 0;
    std::int64_t scanningStartNs = 0, scanningEndNs = 0;
    double throughputScanningBps = 0;      // station's connections while it scanned
    double throughputScanFreeBps = -1;     // outside that phase; -1 = could not be determined
    double throughputPct = -1;             // scanning / scan-free * 100; -1 = unknown
    double lossesPerScan = 0, timeoutsPerScan = 0;
};

struct Correlation
{
    std::vector<EventImpact> impacts;      // one per event id (WlanEvents::at), same order
    std::vector<KindAggregate> kinds;      // kinds that occurred
    std::vector<ScanIntervalAggregate> scanIntervals;
    std::vector<std::string> notes;
};

// A retransmission or timeout in the windows of several events is charged to one: an
// event in force when it was sent (absences and moves before lifecycle events, then the
// latest started), else the one that ended last before it, else the next to start.
// cwnd: the data senders' inferred windows (the pipeline's cwnd stage), asked only for the
// connections an event touches and only with options.cwnd.
Correlation correlateEvents(const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                            const WlanInventory& inventory, const WlanEvents& events,
                            const cwnd::CwndSource& cwnd, const CorrelationOptions& options = {});

} // namespace windscope::analysis
