// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Periodic outages seen from the sender alone. A station's background scan (paper 004:
// about 10 ms off channel every 100-300 ms) leaves no trace a wired capture can show,
// except in what the sender lost: the transmissions that were later resent cluster at
// one phase of the scan period, where random loss spreads over all phases.
//
// The detector folds the times of the lost transmissions over candidate periods and
// measures their phase concentration (the mean resultant length R of circular
// statistics); the Rayleigh test, with its threshold raised for the number of periods
// searched, says whether the best one could be chance. A burst (segments lost within
// burstGapS of each other) is one event: one outage hit, and the test assumes
// independent events. The outage window is then read from all transmissions folded at
// that period: the arc around the concentrated phase where the sends were mostly lost.
// A rhythm of the sender's own (congestion losses repeating with its sawtooth) passes
// the Rayleigh test but not this one: at that phase most sends got through.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis::replay {

struct TransmissionTime
{
    double timeS = 0;  // when the data segment left the sender
    bool lost = false; // the same data was sent again later
};

struct PeriodicOutageOptions
{
    double minPeriodS = 0.05;
    double maxPeriodS = 0.5;
    double burstGapS = 0.005;       // lost sends closer than this are one event
    double alpha = 0.01;            // family-wise false-detection rate over the search
    std::size_t minEvents = 10;     // fewer events than this: no test
    std::size_t minExplainedEvents = 8;
    double binS = 0.001;            // phase resolution of the outage window
    // The window spans the phases where at least edgeLossShare of the sends were lost;
    // it is an outage when at least minWindowLossShare of all its sends were.
    double edgeLossShare = 0.2;
    double minWindowLossShare = 0.5;
    // Of the loss bursts, the share the windows must hold (other causes of loss may
    // add the rest: random loss, a full queue).
    double minExplainedShare = 0.25;
    // The lost times are placed, not seen: a downstream capture's holes, each at when
    // the missing segment would have arrived between its neighbours, a cycle's later
    // holes spread after its first. The period is then refined on the first loss of
    // each cycle (linePeriod), and the window grows from where most sends were lost
    // (the bins before it hold the last arrivals of every flight it cut).
    // The caller moves the holes of flights lost whole first (relocateSilenceLosses).
    bool placedLosses = false;
};

// The Rayleigh test's -ln p for n phases of mean resultant length r, by Zar's
// approximation, p = exp(sqrt(1 + 4n + 4(n^2 - (nr)^2)) - (1 + 2n)) (Biostatistical
// Analysis, 27.4). The large-sample p = exp(-n r^2) cannot fall below exp(-n): ten
// absences of a scan every 800 ms in phase to the millisecond would never pass a test
// over the hundreds of periods searched.
double rayleighSurprise(double n, double r);

// Offset of t from the nearest centre + k period, in [-period/2, period/2).
double foldedOffset(double t, double centreS, double periodS);

struct PeriodicOutageFit
{
    bool found = false;
    std::string reason;             // why not, when not found
    std::size_t events = 0;         // lost bursts tested
    double periodS = 0;
    double concentration = 0;       // mean resultant length R of the events at periodS
    double rayleighZ = 0;           // -ln p of the Rayleigh test (rayleighSurprise())
    double thresholdZ = 0;          // what it had to exceed
    double windowStartS = 0;        // first window start (times as given)
    double dwellS = 0;
    std::size_t firstCycle = 0, lastCycle = 0; // windows k: windowStartS + k periodS
    double windowLossShare = 0;     // of the sends folded into the window, lost
    std::size_t explainedEvents = 0;
    std::size_t explainedLost = 0;  // lost transmissions in a window
    std::size_t lostTransmissions = 0;

    // True when timeS falls in one of the windows from firstCycle to lastCycle,
    // widened by marginS on both sides (the windows as estimated, found or not).
    bool covers(double timeS, double marginS = 0) const { return windowAt(timeS, marginS) >= 0; }
    // The window k that covers timeS so, or -1.
    std::int64_t windowAt(double timeS, double marginS = 0) const;
};

// Downstream, a flight lost whole leaves no hole: the receiver sees nothing until the
// sender's loss probe or timeout, two round trips or more later, and the holes that
// arrival or the first ones after it reveal are placed right after the last arrival,
// a round trip before the outage that took them (the last arrivals' ACKs released the
// lost flight, which would have arrived one round trip after them). Each silence
// longer than silenceRoundTrips round trips becomes a loss one round trip after its
// start: the holes revealed by its end and by the arrival after that (within two
// round trips; the timeout's retransmission arrives in order, the rest of the flight
// shows as a hole behind the data sent after it) move there, all to that instant (the
// flight left the bottleneck's bucket together; spread at the busy pace they would
// widen the window by the flight's length), and a silence without such holes (its flight resent in order) gets one lost mark
// there. roundTripS: from an arrival to the data its ACK releases (0: unknown).
// Returns the transmissions sorted by time; unchanged without a round trip.
inline constexpr double kSilenceRoundTrips = 2;
std::vector<TransmissionTime> relocateSilenceLosses(std::vector<TransmissionTime> transmissions, double roundTripS,
                                                    double silenceRoundTrips = kSilenceRoundTrips);

// Transmissions sorted by time.
PeriodicOutageFit detectPeriodicOutages(const std::vector<TransmissionTime>& transmissions,
                                        const PeriodicOutageOptions& options = {});

} // namespace windscope::analysis::replay
