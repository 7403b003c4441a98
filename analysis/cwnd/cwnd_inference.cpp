// SPDX-License-Identifier: GPL-3.0-or-later
#include "cwnd_inference.h"

#include "analysis/parallel.h"
#include "candidate_replays.h"
#include "analysis/sender/congestion_model.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <optional>
#include <thread>

namespace windscope::analysis::cwnd {

namespace {

constexpr std::int64_t kAckClockNs = 500'000;
// CUBIC's multiplicative decrease leaves 0.7 of the window (RFC 9438 beta_cubic): the
// smallest cut a loss-based sender makes.
constexpr double kSmallestLossCut = 1.0 - 0.7;
// Fits whose costs differ by no more than rounding are the same fit.
constexpr double kTie = 1e-9;

// Rate-based senders (BBR, RFC draft-ietf-ccwg-bbr) do not cut their flight on loss
// and pace their segments; loss-based ones do the first always and, without fq
// pacing, send only in answer to ACKs.
// What the inference asks of each candidate model's two stacks, read once: every flow
// of a capture would otherwise build the models again just to read their traits.
struct CandidateStacks
{
    std::string_view name;
    ModelTraits linuxTraits, ns3Traits;
    bool twoStacks = false; // Linux and ns-3 implement it each their own way (ModelStack)
};

const std::vector<CandidateStacks>& candidateStacks()
{
    static const std::vector<CandidateStacks> table = [] {
        std::vector<CandidateStacks> out;
        for (std::string_view name : congestionModelNames()) {
            const auto linuxModel = makeCongestionModel(name, ModelStack::Linux);
            const auto ns3Model = makeCongestionModel(name, ModelStack::Ns3);
            out.push_back({name, linuxModel->traits(), ns3Model->traits(),
                           modelStackOf(*ns3Model) != modelStackOf(*linuxModel)});
        }
        return out;
    }();
    return table;
}

const CandidateStacks& stacksOf(std::string_view name)
{
    for (const CandidateStacks& c : candidateStacks())
        if (c.name == name)
            return c;
    return candidateStacks().front(); // every fit's model is a candidate
}

RateBasedEvidence detectRateBased(const FlowEvents& flow, const CandidateResult& bestLossBased)
{
    RateBasedEvidence ev;
    const std::vector<CwndSample>& s = bestLossBased.samples;
    // Flight retained: pipe over the RTT-long stretch after recovery ends against the
    // largest pipe before it began, from the best loss-based replay's own phases.
    std::vector<double> ratios;
    std::size_t i = 0;
    while (i < s.size()) {
        if (s[i].phase != SenderPhase::FastRecovery) {
            ++i;
            continue;
        }
        std::uint64_t before = 0;
        for (std::size_t j = i >= 64 ? i - 64 : 0; j < i; ++j)
            before = std::max(before, s[j].pipeBytes);
        std::size_t end = i;
        while (end < s.size() && s[end].phase == SenderPhase::FastRecovery)
            ++end;
        std::uint64_t after = 0;
        std::size_t n = 0;
        for (std::size_t j = end; j < s.size() && n < 64; ++j, ++n) {
            if (s[j].phase == SenderPhase::FastRecovery || s[j].phase == SenderPhase::Loss)
                break;
            after = std::max(after, s[j].pipeBytes);
        }
        if (before > 0 && n >= 16)
            ratios.push_back(static_cast<double>(after) / static_cast<double>(before));
        i = end;
    }
    ev.episodes = ratios.size();
    if (!ratios.empty()) {
        std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
        ev.flightRetainedAfterLoss = ratios[ratios.size() / 2];
    }
    std::int64_t lastAck = -1;
    std::uint64_t sends = 0, unclocked = 0;
    for (const FlowEvent& e : flow.events) {
        if (e.kind == FlowEvent::Kind::Ack) {
            lastAck = e.senderTimeNs;
            continue;
        }
        ++sends;
        if (lastAck < 0 || e.senderTimeNs - lastAck > kAckClockNs)
            ++unclocked;
    }
    ev.unclockedSends = sends ? static_cast<double>(unclocked) / static_cast<double>(sends) : 0;
    // A loss-based sender keeps at most ~0.85 of its flight (CUBIC's 0.7 plus a few
    // RTTs of growth); BBR keeps it all. Pacing alone is not enough (fq paces CUBIC
    // too). The sender's clock is only seen directly at the sender: there a paced
    // sender that keeps its flight is rate-based. On the Linux lab runs BBR sends 49%
    // of its segments on its own clock, Reno and CUBIC at most 6% (CUBIC's hold-mode
    // run, whose ACKs arrive in bursts: its apparent recoveries, replayed from delayed
    // ACKs, kept all the flight, which is why flight alone does not decide there).
    // Without a loss episode there is no telling: a station's frames also leave late,
    // when the channel is free, not when the ACK came. Elsewhere only the flight is
    // seen, and must be kept through several episodes.
    // Keeping the flight is not enough either: Westwood+ sets ssthresh to its bandwidth
    // estimate times the minimum RTT, which keeps nearly all of a flight that losses on
    // the radio, not a queue, cut short. A loss-based sender fills the window its model
    // sets at the end of each burst; a flight that stays closer to the best loss-based
    // window than the smallest cut any of them makes (CUBIC's beta 0.7, RFC 9438) shows
    // that window's cuts, and BBR's stays about twice as far from it.
    const bool windowExplainsFlight = bestLossBased.fit.meanGap <= kSmallestLossCut;
    if (flow.vantage.point == VantagePoint::Sender) {
        const bool paced = ev.unclockedSends > 0.25;
        ev.rateBased = paced && ev.episodes >= 1 && ev.flightRetainedAfterLoss > 0.8 && !windowExplainsFlight;
    } else {
        ev.rateBased = ev.episodes >= 3 && ev.flightRetainedAfterLoss > 0.9 && !windowExplainsFlight;
    }
    return ev;
}

} // namespace

const char* notFollowedReasonName(NotFollowedReason r)
{
    switch (r) {
    case NotFollowedReason::None: return "";
    case NotFollowedReason::NoData: return "no_data";
    case NotFollowedReason::MissingHandshake: return "missing_handshake";
    case NotFollowedReason::CaptureLoss: return "capture_loss";
    case NotFollowedReason::RateBased: return "rate_based_sender";
    }
    return "";
}

const char* notFollowedReasonText(NotFollowedReason r)
{
    switch (r) {
    case NotFollowedReason::None: return "";
    case NotFollowedReason::NoData: return "the sender sent no data";
    case NotFollowedReason::MissingHandshake:
        return "the handshake is not in the capture: window scale, MSS and the initial window are unknown";
    case NotFollowedReason::CaptureLoss:
        return "the capture misses too many of the sender's segments (ACKs for data never seen)";
    case NotFollowedReason::RateBased:
        return "the sender is rate-based (BBR-like): it keeps its flight through losses and paces, so its "
               "cwnd is a cap rather than the window it sends by";
    }
    return "";
}

const char* modelUndeterminedName(ModelUndetermined u)
{
    switch (u) {
    case ModelUndetermined::None: return "";
    case ModelUndetermined::FitsTie: return "fits_tie";
    case ModelUndetermined::NoWindowExplains: return "no_window_explains";
    }
    return "";
}

const char* modelUndeterminedText(ModelUndetermined u)
{
    switch (u) {
    case ModelUndetermined::None: return "";
    case ModelUndetermined::FitsTie:
        return "the candidate models explain the capture equally well: they set the same window wherever "
               "the window limited the sender (no loss, or only losses where their rules agree, as Veno's "
               "and NewReno's halving behind a queue; or a receive window or send buffer below their windows)";
    case ModelUndetermined::NoWindowExplains:
        return "no model's window explains the capture: at the ends of the sender's bursts its flight stayed "
               "further from the best model's window than the smallest cut any of them makes at a loss (CUBIC's "
               "0.3), so the windows after losses, where the models differ, are not seen";
    }
    return "";
}

std::vector<std::string_view> tiedModels(const CwndInference& inference)
{
    std::vector<std::string_view> out;
    if (inference.undetermined == ModelUndetermined::None || inference.fits.empty())
        return out;
    const double best = inference.fits.front().cost();
    for (const ModelFit& f : inference.fits)
        if (inference.undetermined == ModelUndetermined::NoWindowExplains || f.cost() - best <= kTie * std::max(1.0, best))
            out.push_back(f.model);
    return out;
}

std::string modelLabel(const CwndInference& inference)
{
    return inference.undetermined == ModelUndetermined::None ? inference.model : std::string("undetermined");
}

int dataSenderOf(const Connection& connection)
{
    return connection.direction[0].dataBytes > connection.direction[1].dataBytes ? 0 : 1;
}

namespace {

// A model named by the caller, if the inference can follow it: a rate-based one sets
// its window from its own estimates, which a window fit cannot replay (a rate-based
// sender is recognised by its own evidence instead).
std::unique_ptr<CongestionModel> followableModel(const std::string& name, std::string& error)
{
    auto model = makeCongestionModel(name);
    if (!model)
        error = "unknown congestion-control model '" + name + "' (models: " +
                congestionModelNameList(", ", true) + ")";
    else if (model->traits().rateBased)
        error = "model '" + name + "' is rate-based: the inference follows window-based models";
    else
        return model;
    return nullptr;
}

std::atomic<std::uint64_t> g_inferences{0};

bool inferCwndOnRows(const dissect::CaptureTables& tables, const TcpAnalysis& analysis, std::size_t connection,
                     int sender, const CwndOptions& options, const std::vector<std::uint64_t>* rows,
                     ReplayHelpers* helpers, CwndInference& out, std::string& error)
{
    g_inferences.fetch_add(1, std::memory_order_relaxed);
    out = {};
    out.connection = connection;
    out.sender = sender;
    std::unique_ptr<CongestionModel> forced;
    if (!options.model.empty()) {
        forced = followableModel(options.model, error);
        if (!forced)
            return false;
    }
    const Connection& c = analysis.connections[connection];
    const FlowEvents flow = collectFlowEvents(tables, analysis, connection, sender, rows);
    out.vantage = flow.vantage;
    out.acksRebuilt = flow.missedAcks;
    out.mss = flow.mss;

    auto markAll = [&](NotFollowedReason reason) {
        out.notFollowed = reason;
        out.series.clear();
        for (const FlowEvent& e : flow.events)
            if (e.kind == FlowEvent::Kind::Data)
                out.series.push_back({.row = e.row, .cwndBytes = 0, .phase = SenderPhase::NotFollowed});
    };
    if (flow.dataSegments == 0) {
        markAll(NotFollowedReason::NoData);
        return true;
    }
    if (!c.handshakeSeen) {
        markAll(NotFollowedReason::MissingHandshake);
        return true;
    }
    if (static_cast<double>(flow.ackLostSegments) > options.maxCaptureLossRatio * static_cast<double>(flow.dataSegments)) {
        markAll(NotFollowedReason::CaptureLoss);
        return true;
    }

    // Every model replays the flow; the best fit wins unless the user chose. A model both
    // stacks implement, each its own way (ModelStack), is replayed as both when their
    // slow starts are alike (Reno and CUBIC count every segment acked in Linux and in
    // ns-3), the better standing for it. Those (as their Linux stack) and the models one
    // stack implements run first; Westwood+ and Veno, which grow as Reno/NewReno and
    // whose stacks differ in slow start, are then replayed as the stack whose growth
    // rule fitted the slow start before the first loss better (ns-3 one SMSS per ACK,
    // Linux every segment acked), or as both when the slow start cannot tell.
    // The candidates' samples are kept for the best fit and the named model alone.
    const auto named = [&](std::string_view name) { return forced && forced->name() == name; };
    const auto slowStartAlike = [](std::string_view name) {
        const CandidateStacks& s = stacksOf(name);
        return s.linuxTraits.slowStartOneSmssPerAck == s.ns3Traits.slowStartOneSmssPerAck;
    };
    std::vector<Candidate> oneStack;
    std::vector<std::string_view> twoStack;
    std::vector<Candidate> otherStack; // the ns-3 stacks of models replayed first as Linux's
    for (std::string_view name : congestionModelNames()) {
        const bool bothStacks = stacksOf(name).twoStacks;
        if (bothStacks && !slowStartAlike(name)) {
            twoStack.push_back(name);
            continue;
        }
        if (bothStacks)
            otherStack.push_back({.model = makeCongestionModel(name, ModelStack::Ns3), .slot = oneStack.size(),
                                  .rank = static_cast<int>(ModelStack::Ns3), .keepSamples = named(name)});
        oneStack.push_back({.model = makeCongestionModel(name), .slot = oneStack.size(), .keepSamples = named(name)});
    }
    ReplayScratch scratch;
    std::vector<CandidateResult> results;
    replayCandidates(flow, oneStack, results, scratch, helpers);
    double bestBefore[2] = {std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
    for (std::size_t i = 0; i < results.size(); ++i) {
        double& b = bestBefore[static_cast<int>(modelStackOf(*oneStack[i].model))];
        b = std::min(b, results[i].costBeforeFirstLoss);
    }
    const double linuxBefore = bestBefore[static_cast<int>(ModelStack::Linux)];
    const double ns3Before = bestBefore[static_cast<int>(ModelStack::Ns3)];
    const bool tryLinux = linuxBefore <= ns3Before + kTie * std::max(1.0, ns3Before);
    const bool tryNs3 = ns3Before <= linuxBefore + kTie * std::max(1.0, linuxBefore);
    // Their loss rules are evidence only where a window explains the sender at all: on
    // a sender that exceeds every one-stack model's window on most of its sends, the
    // window after a loss tells nothing, and they are not tried either.
    const auto growsAsReno = [](std::string_view name) { return stacksOf(name).linuxTraits.growsAsReno; };
    const auto explains = [](const CandidateResult& r) { return 2 * r.fit.violations < r.fit.sends; };
    if (std::none_of(results.begin(), results.end(), explains))
        std::erase_if(twoStack, [&](std::string_view name) { return !named(name) && growsAsReno(name); });
    // Each is replayed as the stack(s) the slow start allows; the Linux one stands for
    // the model on a tie (rank), as the first replayed did.
    std::vector<Candidate> stacked = std::move(otherStack);
    for (std::size_t k = 0; k < twoStack.size(); ++k) {
        for (const ModelStack stack : {ModelStack::Linux, ModelStack::Ns3}) {
            if (!(stack == ModelStack::Linux ? tryLinux : tryNs3))
                continue;
            stacked.push_back({.model = makeCongestionModel(twoStack[k], stack),
                               .slot = results.size() + k,
                               .rank = static_cast<int>(stack),
                               .keepSamples = named(twoStack[k])});
        }
    }
    if (!stacked.empty()) {
        std::vector<CandidateResult> stackedResults;
        replayCandidates(flow, stacked, stackedResults, scratch, helpers);
        const std::size_t first = results.size();
        results.resize(first + twoStack.size());
        std::vector<bool> filled(results.size(), false);
        std::fill(filled.begin(), filled.begin() + static_cast<std::ptrdiff_t>(first), true);
        for (std::size_t i = 0; i < stacked.size(); ++i) {
            const std::size_t slot = stacked[i].slot;
            if (!filled[slot] || stackedResults[i].fit.cost() < results[slot].fit.cost()) {
                results[slot] = std::move(stackedResults[i]);
                filled[slot] = true;
            }
        }
    }
    // Away from the sender, a send beyond a window is also the capture's rebuilt clock
    // putting an ACK after the data it released (TSval ticks of 1 ms), and the RTT a loss
    // rule reads (Westwood+'s bandwidth samples, Veno's backlog of a few segments) is
    // rebuilt from those ticks and a one-way shift, while what a loss rule sets -- the
    // window the bursts fill after a loss -- is seen as well as at the sender. A
    // loss-rule variant stands there only when its window is nearer the bursts' ends
    // than every window of the models its rule departs from, or when it set the same
    // windows as its growth model (below): then the capture cannot tell the two apart,
    // and says so (a tie), as at the sender.
    std::vector<std::size_t> order;
    double ownGrowthGap = std::numeric_limits<double>::max();
    for (const CandidateResult& r : results)
        if (!growsAsReno(r.fit.model))
            ownGrowthGap = std::min(ownGrowthGap, r.fit.meanGap);
    // Anywhere, a loss-rule variant whose rule set the windows its growth model's did
    // after every loss has no evidence of its own: what else parts its replay from that
    // model's is the stack's detail below what the capture resolves (ns-3's Veno runs
    // its own growth branch on an ACK now and then; on the draw's ns-3 runs it fitted 2
    // to 4 % better than NewReno whichever of the two the sender ran). It stands at the
    // growth model's fit, a tie, where it fitted better.
    for (CandidateResult& r : results) {
        if (r.fit.growthOf.empty() || named(r.fit.model))
            continue;
        for (const CandidateResult& g : results)
            if (g.fit.model == r.fit.growthOf && g.fit.lossWindows == r.fit.lossWindows &&
                r.fit.cost() < g.fit.cost()) {
                r.fit.sends = g.fit.sends;
                r.fit.violations = g.fit.violations;
                r.fit.burstEnds = g.fit.burstEnds;
                r.fit.meanGap = g.fit.meanGap;
                r.fit.standsAtGrowthFit = true;
            }
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
        if (growsAsReno(results[i].fit.model) && flow.vantage.point != VantagePoint::Sender &&
            !named(results[i].fit.model) && results[i].fit.meanGap >= ownGrowthGap &&
            !results[i].fit.standsAtGrowthFit)
            continue;
        order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return results[a].fit.cost() < results[b].fit.cost();
    });
    for (std::size_t i : order)
        out.fits.push_back(results[i].fit);
    const double best = out.fits[0].cost();
    const double second = out.fits.size() > 1 ? out.fits[1].cost() : 1.0;
    out.confidence = second > 0 ? std::clamp((second - best) / second, 0.0, 1.0) : 0.0;

    out.rateEvidence = detectRateBased(flow, results[order[0]]);
    if (out.rateEvidence.rateBased && !forced) {
        out.model = std::string(rateBasedModelName());
        markAll(NotFollowedReason::RateBased);
        return true;
    }
    std::size_t chosen = order[0];
    if (forced) {
        out.modelOverridden = true;
        for (std::size_t i = 0; i < results.size(); ++i)
            if (results[i].fit.model == forced->name())
                chosen = i;
    }
    out.model = std::string(results[chosen].fit.model);
    // Equal costs mean the replays agreed wherever the sender showed its window: the
    // capture holds no evidence for one model over the other, so none is named.
    if (!forced && out.fits.size() > 1 && second - best <= kTie * std::max(1.0, best))
        out.undetermined = ModelUndetermined::FitsTie;
    // The models differ in the windows they set after losses; where even the best
    // window stays further from the flight at the bursts' ends than the smallest cut
    // any of them makes there, those differences are below what the capture shows, and
    // none is named (the rate-based test above uses the same bound).
    else if (!forced && out.fits.size() > 1 && out.fits.front().meanGap > kSmallestLossCut)
        out.undetermined = ModelUndetermined::NoWindowExplains;
    out.series = std::move(results[chosen].samples);
    return true;
}

} // namespace

bool inferCwnd(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
               std::size_t connection, int sender, const CwndOptions& options,
               CwndInference& out, std::string& error)
{
    return inferCwndOnRows(tables, analysis, connection, sender, options, nullptr, nullptr, out, error);
}

std::uint64_t inferenceCount() { return g_inferences.load(std::memory_order_relaxed); }

void inferDataSenderCwnd(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
                         std::size_t connection, const CwndOptions& options,
                         const std::vector<std::uint64_t>* rows, CwndInference& out, ReplayHelpers* helpers)
{
    const Connection& c = analysis.connections[connection];
    out = {};
    out.connection = connection;
    out.sender = dataSenderOf(c);
    if (c.direction[0].dataBytes + c.direction[1].dataBytes == 0) {
        out.notFollowed = NotFollowedReason::NoData;
        return;
    }
    std::string ignored;
    inferCwndOnRows(tables, analysis, connection, out.sender, options, rows, helpers, out, ignored);
}

bool inferCwndAll(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
                  const CwndOptions& options, unsigned threads, std::vector<CwndInference>& out,
                  std::string& error)
{
    if (!options.model.empty() && !followableModel(options.model, error))
        return false;
    const std::size_t n = analysis.connections.size();
    out.assign(n, CwndInference{});
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    // Beyond one per connection, the extra workers only help with candidates' replays.
    threads = static_cast<unsigned>(
        std::min<std::size_t>(threads, std::max<std::size_t>(n, 1) * congestionModelNames().size()));
    // Workers take the next connection from a shared counter: flows differ in size by
    // orders of magnitude, so a static split would leave one worker with the big ones.
    const std::vector<std::vector<std::uint64_t>> rows = rowsByConnection(analysis);
    // A worker with no connection left helps replay the candidates of those still
    // being inferred (a capture often has one large connection and a few small ones).
    std::atomic<std::size_t> next{0};
    ReplayHelpers helpers(n);
    const auto work = [&] {
        for (std::size_t c = next++; c < n; c = next++) {
            inferDataSenderCwnd(tables, analysis, c, options, &rows[c], out[c], threads > 1 ? &helpers : nullptr);
            helpers.ownerDone();
        }
        helpers.help();
    };
    runOnThreads(threads, work);
    return true;
}

} // namespace windscope::analysis::cwnd
