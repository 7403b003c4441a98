// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a station's scans cost the data, read where the held releases found their pattern
// (steps_held_releases.cpp): at the sender, the loss episodes that follow the scans
// beyond chance; at the AP's radio, the frames it sent into the scans its retries show
// and gave up.

#include "derivation_steps.h"

#include <cstdint>
#include <vector>

namespace windscope::analysis::replay {
struct DownstreamView;
}

namespace windscope::analysis::replay::derive {

// The sender's loss episodes, by the capture's time of their first resend, as the
// calibration counts them (metricsOf(): a mean round trip an episode).
std::vector<std::int64_t> lossEpisodeStarts(const DerivationInput& in);

// Every scan of a pattern over [firstNs, lastNs], not only those whose silence the round
// trips told (a scan that cost a frame ends in a resend, which times nothing, Karn): a
// cycle without one takes its end from the nearest that had it, whole periods away (a
// period read a little off drifts least from the nearest). endsNs: sorted, not empty.
std::vector<std::int64_t> scanEndsOfPattern(const std::vector<std::int64_t>& endsNs, std::int64_t periodNs,
                                            std::int64_t firstNs, std::int64_t lastNs);

// Of the scans that end at these capture times, how many more were followed within
// windowNs by a loss episode than chance puts in a window of that length: the episodes
// the scans cost. Chance is read from the rest of each cycle until the next scan (the
// station present: presentNs from the scan's end), cut into windows of the same length
// after the scan's (where a scan's losses cannot be). Under chance alone a loss in any
// of those windows falls in the scan's with probability one over their number; the
// excess counts where the binomial (mid-p) tail of the scans' share is under 5 %
// (one-sided).
std::uint64_t lossesAfterScans(const std::vector<std::int64_t>& episodeStarts,
                               const std::vector<std::int64_t>& scanEndsNs, std::int64_t windowNs,
                               std::int64_t presentNs);

struct ListedScansHeld
{
    std::size_t held = 0;    // listed scans that fell on the pattern
    std::size_t givenUp = 0; // segments placed as lost in them
};

// Scans listed from the AP's retries that fall on s.periodicScan (within a dwell of its
// phase) are its own instances: the AP retried what its radio already had when the
// station left, which does not say it held nothing (the releases say it held the rest).
// They keep their times and take the pattern's mode; the frames the capture saw the AP
// send into them and give up (downstream, the radio's own, MissingSegment::givenUpNs) are
// lost there as the scans' own (PeriodicScan::lostSegments), not the holes a queue
// upstream left. radioShiftS: capture time to simulated time past firstDataNs.
ListedScansHeld holdListedScansAsPattern(Scenario& s, const DownstreamView* downstream, std::int64_t firstDataNs,
                                         double radioShiftS);

} // namespace windscope::analysis::replay::derive
