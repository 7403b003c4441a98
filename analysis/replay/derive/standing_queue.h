// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bottleneck's rate while its queue stood, read from the ACKs' progress and the
// round trips (deriveBottleneck()).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace windscope::analysis::replay::derive {

struct StandingQueueRate
{
    double mbps = 0; // payload
    std::size_t windows = 0;
};

// ackProgress: (time, bytes delivered so far); rttByAck: (time, RTT ms), both in time
// order. The windows' median (standingQueueRate()) and, downstream of the bottleneck,
// the rate over the standing stretches as a whole (standingQueueMeanRate()).
StandingQueueRate standingQueueRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& ackProgress,
                                    const std::vector<std::pair<std::int64_t, double>>& rttByAck, double rttMinMs,
                                    double riseMs);
StandingQueueRate standingQueueMeanRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& ackProgress,
                                        const std::vector<std::pair<std::int64_t, double>>& rttByAck,
                                        double rttMinMs, double riseMs);

} // namespace windscope::analysis::replay::derive
