// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which events and connections the views put first, and the per-event totals the event
// table shows: rules on the correlation (wlan_correlation.h), kept here so that every
// front-end ranks and sums the same way and a test can check them.

#include "wlan_correlation.h"

#include <cstdint>
#include <vector>

namespace windscope::analysis {

// How much an event hurt one connection: retransmissions, RTO timeouts counted three
// times (a timeout costs more than a fast retransmission: the sender waits out the RTO
// and restarts from one segment, RFC 6298 5.5 and RFC 5681 3.1), plus the fraction of
// the throughput lost during the event.
double impactScore(const ConnectionImpact& impact);

// One event's impact summed over the connections it touched.
struct EventTotals
{
    std::uint32_t connections = 0, retransmissions = 0, rtoTimeouts = 0;
    double throughputBeforeBps = 0, throughputDuringBps = 0; // sums over the connections
    std::int64_t recoveryNs = -1; // the slowest of those that recovered; -1 when none did
};

// One entry per event (eventCount of them), indexed like WlanEvents::events.
std::vector<EventTotals> eventTotals(const Correlation& correlation, std::size_t eventCount);

// What to show first: the event that hurt TCP most (by impactScore) and its most
// affected connection; without any impact, the connection that moved the most data and
// the first event, if any. -1 where there is none.
struct ImpactSelection
{
    int connection = -1;
    int event = -1;
};
ImpactSelection mostAffected(const TcpAnalysis& tcp, const WlanEvents& events, const Correlation& correlation);

// The connection to show an event (index in WlanEvents::events) on: `preferred` when the
// event touched it, else the affected connection with the most retransmissions and
// timeouts, else the connection an inferred outage belongs to; -1 when none.
int connectionForEvent(const WlanEvents& events, const Correlation& correlation, std::size_t event,
                       int preferred = -1);

} // namespace windscope::analysis
