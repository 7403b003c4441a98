// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A scenario from one analyzed connection: what the capture shows about the path
// (base RTT and spread, bottleneck rate, queue, wired and wireless one-way delays
// where the capture point splits them), the outage timeline (802.11 events, else
// outages inferred from TCP), the receiver (buffer, application drain when the window
// says the reader is the bottleneck), MSS, SACK, and the congestion-control model the
// cwnd inference chose. Each derived value comes with a note saying where it came
// from; what the capture cannot tell keeps a documented default.

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/tcp/tcp_analysis.h"
#include "analysis/wlan/wlan_events.h"
#include "analysis/replay/scenario/scenario.h"

#include <string>
#include <vector>

namespace windscope::analysis::replay {

struct DerivationInput
{
    const dissect::CaptureTables* tables = nullptr;
    const TcpAnalysis* tcp = nullptr;
    std::size_t connection = 0;
    int sender = 0;
    const WlanEvents* events = nullptr;            // optional
    const cwnd::CwndInference* inference = nullptr; // optional
};

struct DerivedScenario
{
    Scenario scenario;
    std::vector<std::string> notes;                // one line per derived parameter
    std::int64_t firstDataNs = 0;                  // capture time of simulated time 0
    // Empty when the simulator has a model of the capture's sender; else why not (a
    // rate-based sender such as BBR: the baseline then runs a loss-based stand-in).
    std::string senderNotModelled;
    // Empty when the capture shows the path's rate; else why it does not (a sender held
    // by a fixed window throughout): the derived rate is then a lower bound.
    std::string pathRateUnseen;
    // Non-zero when the capture never showed the bottleneck queue full and its size was
    // taken as one BDP (the queue step): the least the queue can be, its fullest
    // reading. A fix that lets the flight grow past what the capture reached meets a
    // queue the capture did not measure, so the replay runs it at this end too
    // (ReplayReport::atQueueFloor).
    std::uint64_t queueFloorBytes = 0;
    // The sender was still sending new data when the capture ended: the capture was cut,
    // not the transfer done, so a fix's effect is what it delivers in the capture's time.
    bool endedMidTransfer = false;
    // Downstream of the losses (downstream_view.h), the capture's loss episodes as the
    // calibration compares them: counted from its holes, over its mean round trip.
    bool downstream = false;
    // At the sender, of the periodic scans read from its ACKs: how many more were
    // followed by a loss episode within a round trip of the station's return than were
    // the same stretch half a period later (chance). The losses the AP's frames sent into
    // the absences cost, for PeriodicScan::lossShare.
    std::uint64_t scanLossEpisodes = 0;
    // The radio's own losses (segments lost first time alone while the queue was short):
    // those that reached it within a dwell of a scan (PeriodicScan::lostSegments), the
    // rest, and the share of the scans' cycle that window covers, where chance alone
    // puts that share of the radio's losses.
    std::uint64_t loneLossesAtScans = 0, loneLossesElsewhere = 0;
    double scanLossWindowShare = 0;
    // Downstream: the silences of the scans' pattern whose first arrival revealed a hole
    // (frames the AP sent into the absence), which set mac.station_leave_pause_us.
    std::uint64_t scanHoles = 0;
    std::uint64_t holeEpisodes = 0, holeEpisodesOffQueue = 0;
    double holeMeanRttMs = 0;
};

DerivedScenario deriveScenario(const DerivationInput& input);

} // namespace windscope::analysis::replay
