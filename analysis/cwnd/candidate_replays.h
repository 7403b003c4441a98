// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The candidate models' replays of one flow, run on the calling thread and on whichever
// workers of the same inference run have nothing else to do (ReplayHelpers): a capture
// with one large connection would otherwise keep every other hardware thread idle
// while its candidates are replayed one after another. Each candidate's fit lands in
// its own slot, and the best is chosen by (cost, slot, rank) -- the order a sequential
// run gives -- so the result does not depend on the threads or on who ran what.

#include "model_fit.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace windscope::analysis::cwnd {

// A set of work items that several threads can share out: an owner posts it, works on
// it, and takes it back once its items are all claimed.
struct ReplayBatch
{
    std::function<void(ReplayScratch&)> work; // claims and runs items until none is left
    std::function<bool()> exhausted;          // every item claimed
    int running = 0;                          // helpers inside work(), under ReplayHelpers' lock
};

// Idle workers of one inference run (inferCwndAll, the pipeline's cwnd stage), lent to
// the connections still being inferred.
class ReplayHelpers
{
public:
    // owners: how many items (connections) the workers share; help() returns once
    // ownerDone() has been called that often.
    explicit ReplayHelpers(std::size_t owners) : m_remaining(owners) {}

    // Runs a batch on the calling thread and on any helper that joins; returns when all
    // of its items are done.
    void run(ReplayBatch& batch, ReplayScratch& scratch);
    void ownerDone();
    // Called by a worker with no item left: works on posted batches until every owner
    // is done.
    void help();

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<ReplayBatch*> m_open;
    std::size_t m_remaining;
};

struct Candidate
{
    std::unique_ptr<CongestionModel> model;
    std::size_t slot = 0; // results index; a slot's candidates are alternatives of one model
    int rank = 0;         // among a slot's candidates: the lower wins a tie
    bool keepSamples = false; // kept whatever its cost (the model the user named)
};

struct CandidateResult
{
    ModelFit fit;
    double costBeforeFirstLoss = 0;
    std::vector<CwndSample> samples; // only the best's and keepSamples candidates'
};

// Replays every candidate over flow; out[i] is candidates[i]'s. Returns the index of the
// best fit (lowest cost, then lowest slot, then lowest rank); its samples are kept.
// helpers: nullptr to run on the calling thread alone.
std::size_t replayCandidates(const FlowEvents& flow, const std::vector<Candidate>& candidates,
                             std::vector<CandidateResult>& out, ReplayScratch& scratch, ReplayHelpers* helpers);

} // namespace windscope::analysis::cwnd
