// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// deriveScenario() as a table of small steps, in the order the notes come: each step
// reads the capture's products (the DerivationInput) and what earlier steps read from
// them (the DerivationContext), and writes its own scenario fields with their notes.
// A step is a plain function, so a test can set a context by hand and run one.

#include "derive_scenario.h"
#include "downstream_view.h"
#include "path_dispersion.h"
#include "sack_readings.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace windscope::analysis::replay::derive {

// A path that delivered above this share of what the air can carry for it is taken as
// limited by the air (deriveMac()): its estimate leaves out collisions and the rate's
// own spread, and below it the air kept up with a slower link in front.
constexpr double kAirLimitsShare = 0.8;

// One RTT sample of the sender's data, as the capture shows it (senderRttSamples()).
struct SenderRtt
{
    std::int64_t dataNs = 0;      // capture time of the data segment
    double ms = 0;
    std::int64_t flightBytes = 0; // in flight when the data was sent
    // At the sender: how long the segment waited on the sender's host before the
    // capture saw it (its TSval against the capture's clock), part of the round trip
    // TCP timed but not of the capture's.
    double waitBeforeCaptureMs = 0;
};

// A TCP-inferred outage in the scenario's outage list (index, capture start and end),
// for the periodic-outage step to take out again where its pattern explains it.
struct InferredOutage
{
    std::size_t index = 0;
    std::int64_t startNs = 0, endNs = 0;
};

// What the steps read from the capture and hand on to later steps.
struct DerivationContext
{
    // The connection's rows (readConnectionRows()).
    std::uint32_t maxPayload = 0;
    std::uint32_t maxFlight = 0;    // most bytes in flight the sender had
    std::int64_t lastDataNs = 0;    // capture time of the sender's last data segment
    std::int64_t lastNewDataNs = 0; // and of the last that carried data never sent before
    bool carriedBy80211 = false;    // an 802.11 frame of the capture carries the sender's data
    // (time, bytes delivered: the relative ACK and what was SACKed above it), so that
    // a hole filled late does not count its whole window as delivered at that moment.
    std::vector<std::pair<std::int64_t, std::int64_t>> ackProgress;
    // The sender's data as the capture saw it leave, in capture order.
    struct Departure
    {
        std::int64_t ns = 0;
        std::uint32_t payload = 0;
        std::uint32_t tsVal = 0, tsEcr = 0;
        bool timestamps = false;
        std::int64_t end = 0; // relative sequence number just past its payload
    };
    std::vector<Departure> departures;
    // Window updates: an ACK that acknowledges nothing new and opens the window (time,
    // bytes it opened by), i.e. what the application read since the last ACK.
    std::vector<std::pair<std::int64_t, std::uint64_t>> windowUpdates;
    // The window each ACK advertised (time, bytes).
    std::vector<std::pair<std::int64_t, std::uint64_t>> advertisedWindows;
    // Each ACK's right edge, its acknowledgement plus its window (time, relative bytes;
    // one per ACK, as advertisedWindows): behind a reader that holds the window, it
    // moves as the application reads.
    std::vector<std::pair<std::int64_t, std::int64_t>> rightEdges;
    // The round trips (deriveRtt()).
    DownstreamView downstream;
    std::vector<SenderRtt> senderRtt;
    double rttMin = 0, rttP95 = 0;
    double rttSustainedMax = 0;     // the queue at its fullest, when it overflowed
    // The bottleneck's payload rate (deriveBottleneck()), and its reading from the
    // dispersion of packet trains (path_dispersion.h), which set it where the sender
    // never filled the path.
    double rateMbps = 0;
    // Downstream, the delivered rate over the stretches the queue stood (0 unread).
    double standingStretchesMbps = 0;
    DispersionCapacity dispersion;
    bool rateFromDispersion = false;
    // Where deriveMac() took the air for the bottleneck: what the air carries for TCP,
    // and the path's link and queue it replaced (a later reading of the rate may put
    // the bottleneck back in front of the radio, deriveHeldReleases()).
    double airCapacityMbps = 0;
    double linkBeforeAirMbps = 0;
    std::uint64_t queueBeforeAirBytes = 0;
    // The rate is the sender's own link's, read from its host queue's departures: the
    // bottleneck lies before the capture, not at the radio.
    bool rateFromSendersLink = false;
    // What the SACK scoreboard (or downstream, the holes) showed (deriveQueue()).
    SackReadings sackReadings;
    // TCP-inferred outages in the outage list (deriveOutages()).
    std::vector<InferredOutage> inferred;
};

using DerivationStepFn = void (*)(const DerivationInput&, DerivationContext&, DerivedScenario&);

struct DerivationStep
{
    const char* name;
    DerivationStepFn run;
};

// The steps in the order deriveScenario() runs them.
std::span<const DerivationStep> derivationSteps();

// printf into a note (at most 255 characters).
std::string format(const char* fmt, double a, double b = 0, double c = 0);

// steps_scans.cpp: the scans and absences of one basis (WlanEvent::basis), of the
// station with the most of them: the connection's.
std::pair<std::uint32_t, std::vector<const WlanEvent*>> absencesOfMostAbsentStation(const WlanEvents& events,
                                                                                   const char* basis);

// A sender that never had more in flight than a fixed window (its receive window or
// send buffer), delivered about that window per round trip and lost nothing.
bool windowLimited(const DerivationInput& in, const DerivationContext& ctx);

// steps_path.cpp: the connection's rows, size, round trips, bottleneck, queue, timing.
void readConnectionRows(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void deriveSegmentSize(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void deriveRtt(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void deriveDelaySplit(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void deriveBottleneck(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void deriveQueue(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void derivePathRateBound(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void derivePathTiming(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
// The delivery rate (payload Mb/s) over windows of windowNs of a delivery progress (time,
// bytes delivered so far), its p-th percentile; windows that overlap an excluded span
// (sorted, disjoint) are left out; 0 with fewer than minWindows windows.
double deliveredRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& progress, std::int64_t windowNs,
                     double p, const std::vector<std::pair<std::int64_t, std::int64_t>>& excluded = {},
                     std::size_t minWindows = 1);
// The bottleneck step's reading: the higher of the 95th percentile over 20 ms windows
// and the 90th over 5 ms ones.
struct WindowedRate
{
    double rate20 = 0, rate5 = 0;
    double mbps() const { return std::max(rate20, rate5); }
};
WindowedRate windowedDeliveryRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& progress,
                                  const std::vector<std::pair<std::int64_t, std::int64_t>>& excluded = {},
                                  std::size_t minWindows = 1);

// steps_sender.cpp: the receiver's drain, congestion control, the RTO rule, recovery.
void deriveReceiver(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void deriveCongestionControl(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void deriveSenderPacing(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void deriveRtoRule(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void noteLossRecovery(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);

// steps_wlan.cpp: the 802.11 MAC and its aggregation.
void deriveMac(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);

// steps_outages.cpp: the outage timeline, periodic outages, lone losses.
void deriveOutages(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void derivePeriodicOutages(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
void placeLoneLosses(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);

// steps_scans.cpp: a station's periodic scans, the AP's retry limit and hardware queue,
// from the AP's retries to the absent station.
void deriveScanAbsences(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
// The chains of retries the AP gave up (the next attempt a new frame) when one length
// repeats, and the most frames one absence was sent.
struct RetryChains
{
    std::uint32_t attempts = 0; // 0: no chain length the AP gave up at repeats
    std::size_t count = 0;
    std::uint32_t mostMpdus = 0;
};
// The retry limit and hardware queue depth they show, set in mac, with their note.
std::string applyRetryChains(const RetryChains& chains, MacParams& mac);
// At the AP's radio, the scans of a pattern read from elsewhere (scan k from scanStartNs +
// k periodS, capture time) as the AP's retries into the few that met its frames show
// them: the dwell's bounds, the station's wait to leave, the chains.
struct RetriedScans
{
    std::size_t bounded = 0; // scans on the pattern with both of the dwell's bounds
    double dwellLowMs = 0, dwellHighMs = 0;
    bool leaveFound = false;
    double leaveUs = 0;
    std::string leaveNote;
    RetryChains chains;
};
RetriedScans readRetriedScans(const DerivationInput& in, const Scenario& s, std::int64_t scanStartNs, double periodS);
// steps_held_releases.cpp: where neither shows them, from the data the AP held through them.
void deriveHeldReleases(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);
// Scans from the stretches the station's own radio heard nothing in (events' "deaf-retry"),
// where no earlier step read a pattern.
void deriveStationRadioScans(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out);

} // namespace windscope::analysis::replay::derive
