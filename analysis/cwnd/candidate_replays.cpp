// SPDX-License-Identifier: GPL-3.0-or-later
#include "candidate_replays.h"

#include <limits>
#include <tuple>

namespace windscope::analysis::cwnd {

void ReplayHelpers::run(ReplayBatch& batch, ReplayScratch& scratch)
{
    {
        std::lock_guard lock(m_mutex);
        m_open.push_back(&batch);
    }
    m_changed.notify_all();
    batch.work(scratch);
    std::unique_lock lock(m_mutex);
    // Taken back under the lock: no helper joins after this, and those inside finish
    // the items they claimed.
    std::erase(m_open, &batch);
    m_changed.wait(lock, [&] { return batch.running == 0; });
}

void ReplayHelpers::ownerDone()
{
    {
        std::lock_guard lock(m_mutex);
        --m_remaining;
    }
    m_changed.notify_all();
}

void ReplayHelpers::help()
{
    ReplayScratch scratch;
    std::unique_lock lock(m_mutex);
    for (;;) {
        while (!m_open.empty() && m_open.front()->exhausted())
            m_open.pop_front();
        if (!m_open.empty()) {
            ReplayBatch* batch = m_open.front();
            ++batch->running;
            lock.unlock();
            batch->work(scratch);
            lock.lock();
            --batch->running;
            m_changed.notify_all();
            continue;
        }
        if (m_remaining == 0)
            return;
        m_changed.wait(lock);
    }
}

std::size_t replayCandidates(const FlowEvents& flow, const std::vector<Candidate>& candidates,
                             std::vector<CandidateResult>& out, ReplayScratch& scratch, ReplayHelpers* helpers)
{
    const std::size_t n = candidates.size();
    out.clear();
    out.resize(n);
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    const auto better = [&](std::size_t a, std::size_t b) {
        if (b == kNone)
            return true;
        const Candidate& x = candidates[a];
        const Candidate& y = candidates[b];
        return std::make_tuple(out[a].fit.cost(), x.slot, x.rank) < std::make_tuple(out[b].fit.cost(), y.slot, y.rank);
    };
    std::atomic<std::size_t> next{0};
    std::mutex bestMutex;
    std::size_t best = kNone;
    ReplayBatch batch;
    batch.exhausted = [&] { return next.load() >= n; };
    batch.work = [&](ReplayScratch& own) {
        // Samples are kept only while they may be needed: the best of this worker's
        // items so far, and the ones asked for; the others' buffers are reused.
        std::size_t localBest = kNone;
        const auto release = [&](std::size_t i) {
            if (!candidates[i].keepSamples)
                own.recycle(std::move(out[i].samples));
        };
        for (std::size_t i = next++; i < n; i = next++) {
            ReplayResult r = replayFlow(flow, *candidates[i].model, true, &own);
            out[i].fit = r.fit;
            out[i].costBeforeFirstLoss = r.costBeforeFirstLoss;
            out[i].samples = std::move(r.samples);
            if (better(i, localBest)) {
                if (localBest != kNone)
                    release(localBest);
                localBest = i;
            } else {
                release(i);
            }
        }
        if (localBest == kNone)
            return;
        std::lock_guard lock(bestMutex);
        if (better(localBest, best)) {
            if (best != kNone && !candidates[best].keepSamples)
                out[best].samples = {};
            best = localBest;
        } else if (!candidates[localBest].keepSamples) {
            out[localBest].samples = {};
        }
    };
    if (helpers)
        helpers->run(batch, scratch);
    else
        batch.work(scratch);
    return best;
}

} // namespace windscope::analysis::cwnd
