// SPDX-License-Identifier: GPL-3.0-or-later
#include "standing_queue.h"

#include "sample_statistics.h"

#include <algorithm>
#include <iterator>

namespace windscope::analysis::replay::derive {

namespace {
// Windows of 20 ms, the bottleneck step's, and at least ten of them (200 ms of queue).
constexpr std::int64_t kWindowNs = 20'000'000;
constexpr std::size_t kMinWindows = 10;
} // namespace

// The bottleneck's rate while its queue stood: over windows of 20 ms in which every RTT
// sample (by the time its ACK came back) stayed above the minimum by more than
// riseMs, the bottleneck never idled, so what the ACKs delivered is its service rate.
// The median of those windows: a bottleneck with a variable service time (an 802.11
// hop's backoff and retries) delivers faster than its mean over some windows and
// slower over others, and a high percentile of all windows reads its fast ones; a
// flow that fills the path for only a part of the run (one slow-start overshoot on
// a long path) has most of its windows below the rate. 0 when fewer than kMinWindows.
StandingQueueRate standingQueueRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& ackProgress,
                                    const std::vector<std::pair<std::int64_t, double>>& rttByAck, double rttMinMs,
                                    double riseMs)
{
    StandingQueueRate out;
    std::vector<double> rates;
    std::size_t j = 0, r = 0;
    std::int64_t lastStartNs = -kWindowNs;
    for (std::size_t i = 0; i < ackProgress.size(); ++i) {
        // Windows that do not overlap: each stretch of the queue counts once.
        if (ackProgress[i].first - lastStartNs < kWindowNs)
            continue;
        while (j < ackProgress.size() && ackProgress[j].first - ackProgress[i].first < kWindowNs)
            ++j;
        if (j >= ackProgress.size())
            break;
        while (r < rttByAck.size() && rttByAck[r].first < ackProgress[i].first)
            ++r;
        std::size_t samples = 0;
        bool standing = true;
        for (std::size_t k = r; k < rttByAck.size() && rttByAck[k].first <= ackProgress[j].first; ++k) {
            ++samples;
            standing = standing && rttByAck[k].second - rttMinMs > riseMs;
        }
        if (!standing || samples < 2)
            continue;
        lastStartNs = ackProgress[i].first;
        const double bytes = static_cast<double>(ackProgress[j].second - ackProgress[i].second);
        const double secs = static_cast<double>(ackProgress[j].first - ackProgress[i].first) / 1e9;
        if (secs > 0 && bytes > 0)
            rates.push_back(bytes * 8 / secs / 1e6);
    }
    out.windows = rates.size();
    if (rates.size() >= kMinWindows)
        out.mbps = percentile(rates, 0.5);
    return out;
}

// Downstream of the bottleneck, the same rate over the standing stretches as a whole
// (runs of consecutive RTT samples all above the rise, each at least a window long):
// bytes delivered over their time. A radio after the queue that leaves periodically
// (a scanning station) delivers in bursts, nothing while away and its held data at the
// air's rate on return, and windows of 20 ms with samples in them see only the bursts;
// the queue's link served throughout, so the whole stretch reads its rate. A silence
// the sender's retransmission timer outlasts (its 200 ms minimum, Linux's TCP_RTO_MIN)
// ends the stretch: the sender timed out and the queue drained (a handoff, not a hold).
StandingQueueRate standingQueueMeanRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& ackProgress,
                                        const std::vector<std::pair<std::int64_t, double>>& rttByAck,
                                        double rttMinMs, double riseMs)
{
    constexpr std::int64_t kTimerOutlastsNs = 200'000'000;
    // Bytes delivered by a time: the progress of the last ACK at or before it.
    const auto deliveredBy = [&](std::int64_t ns) -> std::int64_t {
        const auto it = std::upper_bound(ackProgress.begin(), ackProgress.end(), ns,
                                         [](std::int64_t v, const auto& p) { return v < p.first; });
        return it == ackProgress.begin() ? 0 : std::prev(it)->second;
    };
    StandingQueueRate out;
    double bytes = 0, ns = 0;
    for (std::size_t i = 0; i < rttByAck.size();) {
        if (rttByAck[i].second - rttMinMs <= riseMs) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < rttByAck.size() && rttByAck[j + 1].second - rttMinMs > riseMs &&
               rttByAck[j + 1].first - rttByAck[j].first < kTimerOutlastsNs)
            ++j;
        const std::int64_t spanNs = rttByAck[j].first - rttByAck[i].first;
        if (spanNs >= kWindowNs) {
            bytes += static_cast<double>(deliveredBy(rttByAck[j].first) - deliveredBy(rttByAck[i].first));
            ns += static_cast<double>(spanNs);
            out.windows += static_cast<std::size_t>(spanNs / kWindowNs);
        }
        i = j + 1;
    }
    if (out.windows >= kMinWindows && bytes > 0)
        out.mbps = bytes * 8 / (ns / 1e9) / 1e6;
    return out;
}

} // namespace windscope::analysis::replay::derive
