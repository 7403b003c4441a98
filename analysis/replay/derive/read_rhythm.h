// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A slow reader's rhythm from the receiver's window updates: an update goes out after a
// read, so the times between updates are whole numbers of read periods.

#include <cstdint>
#include <utility>
#include <vector>

namespace windscope::analysis::replay {

// The reader's rhythm from the window updates (time, bytes opened).
struct ReadRhythm
{
    double periodUs = 0;          // 0: not found
    bool oneReadPerUpdate = false;
    double bytesPerUpdate = 0;
};

// updates: (time, bytes the window opened by) of each window update.
ReadRhythm readRhythm(const std::vector<std::pair<std::int64_t, std::uint64_t>>& updates);

} // namespace windscope::analysis::replay
