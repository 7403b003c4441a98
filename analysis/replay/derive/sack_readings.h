// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Readings of a sender's capture that need its SACK scoreboard: what each segment's
// first transmission met (delivered when, lost or not), where the cumulative ACK alone
// stops telling. Used by deriveScenario().

#include "derive_scenario.h"

#include <cstdint>
#include <vector>

namespace windscope::analysis::replay {

struct SackReadings
{
    // The largest RTT rise above the minimum over kSustainedSamples consecutive samples taken
    // from SACKs while a lone loss away from the queue held the cumulative ACK (ms; 0
    // without enough of them): a segment SACKed for the first time and sent once, its
    // time to the SACK. A queue that overflows behind such a loss shows only in these.
    double sackedRttRiseMs = 0;
    std::uint64_t sackedRttSamples = 0;
    // Segments lost on their first transmission with their neighbours delivered (a
    // queue overflowing in slow start drops one of every three: an ACK releases three)
    // and where the queue was under half the fullest any loss met (the segments sent
    // just before a drop-tail queue's drops saw it full): the radio's, not the queue's.
    // Indices of MSS-sized segments from the first data byte, as the simulator numbers
    // them.
    struct LoneLoss
    {
        std::int64_t segment = 0;
        double queueBeforeMs = 0;  // RTT rise of the segments sent just before it
        std::int64_t sequence = 0; // its relative sequence number
        // Capture time: at the sender its first transmission, downstream the arrival
        // before the hole.
        std::int64_t atNs = 0;
    };
    std::vector<LoneLoss> loneLosses;
    std::uint64_t firstTransmissionLosses = 0; // all segments lost first time
};

// rttMinMs: the path's base RTT; cumulativeRiseMs: the largest sustained RTT rise the
// cumulative ACKs show (a lone loss is away from the queue under half of it).
SackReadings readSackScoreboard(const DerivationInput& in, std::uint32_t mss, double rttMinMs,
                                double cumulativeRiseMs);

} // namespace windscope::analysis::replay
