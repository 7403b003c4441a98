// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A reader's pace read from the windows the receiver advertised. The window is the
// buffer less what the application has not read, so each ACK samples the reader's
// backlog; a reader that takes up to R bytes a call and is then busy for a fixed cost
// plus a per-byte cost leaves a backlog at each ACK that follows from when the data
// arrived. Replaying the arrivals through such readers and keeping the one whose
// backlogs match the windows reads the reader's rate where it never held the window
// (a window-limited flow whose reader catches up between flights), which the
// window's own pace cannot.

#include <cstdint>
#include <utility>
#include <vector>

namespace windscope::analysis::replay {

struct ReaderFitInput
{
    // When each in-order byte became readable at the receiver, on the ACKs' clock
    // (time, relative sequence number just past it), in sequence order.
    std::vector<std::pair<std::int64_t, std::int64_t>> arrivals;
    // Each ACK: (time, relative acknowledgement, window in bytes).
    struct Ack
    {
        std::int64_t ns = 0;
        std::int64_t ack = 0;
        std::uint64_t window = 0;
    };
    std::vector<Ack> acks;
    std::uint32_t mss = 1448;
    double readFixedUs = 1000; // what a read call costs besides its bytes
};

struct ReaderFit
{
    bool found = false;          // a reader explains the windows far better than one that keeps up
    std::uint64_t readBytes = 0; // most a read call takes
    double readPerByteUs = 0;
    double readFixedUs = 0;
    std::uint64_t largestWindow = 0;
    double meanErrorBytes = 0;      // the windows' mean distance from the fitted reader's
    double keepsUpErrorBytes = 0;   // and from a reader that takes each byte as it arrives
    std::size_t acks = 0;           // ACKs compared
    // The paces (drainBps()) of the readers that explain the windows about as well.
    double slowestBps = 0, fastestBps = 0;
    // The reader's pace when data waits, one full read after another (a read takes
    // at most what the largest window let in).
    double drainBps() const;
};

ReaderFit fitReader(const ReaderFitInput& in);

// The windows' mean distance from a given reader's (readBytes 0: one that keeps up),
// with the buffer hiddenSteps window steps beyond the largest window offered.
double readerWindowError(const ReaderFitInput& in, std::uint64_t readBytes, double readFixedUs, double readPerByteUs,
                         int hiddenSteps = 0);

} // namespace windscope::analysis::replay
