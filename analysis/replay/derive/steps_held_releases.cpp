// SPDX-License-Identifier: GPL-3.0-or-later
// The held-releases step of deriveScenario(). A scan the capture shows neither in power-save frames
// nor in retries (the AP held the station's frames and none was in flight) still shows in the
// delivery of the data: a silence, then the frames held through it released faster than the path's
// bottleneck can deliver them (deriveHeldReleases).

#include "derivation_steps.h"

#include "periodic_outages.h"
#include "sample_statistics.h"
#include "scan_losses.h"
#include "scan_period.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace windscope::analysis::replay::derive {

namespace {

// Capture times rebuilt from milliseconds or seconds (an RTT sample's ACK, a delivery
// relative to the first data) are within this of the packet they stand for.
constexpr std::int64_t kRebuiltTimeSlackNs = 1'000;
// A silence no longer than two of the longest 802.11n PPDUs (aPPDUMaxTime 5.484 ms,
// 802.11-2020 Table 19-25) may be one aggregate's airtime and its backoff, not an
// absence.
constexpr std::int64_t kMinHeldSilenceNs = 10'968'000;
// Released bytes beyond what the bottleneck could have delivered since the silence
// ended, in segments, for the silence to count as a hold: one segment is a delivery's
// own size (the bytes arrive at once), a second one the timing of the segment before.
constexpr double kMinReleasedAheadSegments = 2;

// A silence in the deliveries that a hold explains: from the last delivery before it to
// the first after it (capture times).
struct Hold
{
    std::int64_t startNs, endNs;
    // Told by the sender's clock (the data after it waited through it), not by a release
    // faster than the bottleneck's rate.
    bool byWait = false;
    // A flight's own gap ran into it: the silence began before the hold did, and only how
    // long the data after it waited (from startNs) is known of the hold.
    bool openStart = false;
};

// At the sender a hold shows in its ACKs: they stop, and the first round trip that
// comes back after the silence timed data sent before it, longer than the round trip
// before the silence by at least half the silence (the data waited through most of it
// at the radio). The ACK clock's own gaps (a window-limited sender waiting for its
// flight's ACKs) end in a round trip like the ones before; a loss ends in a resend,
// which times nothing (Karn). No rate is needed: the rate read from ACKs is what the
// releases after the holds inflate.
std::vector<Hold>
heldAckSilences(const std::vector<std::pair<std::int64_t, std::int64_t>>& deliveries,
                const std::vector<SenderRtt>& senderRtt, double deliveryNs)
{
    struct Sample
    {
        std::int64_t ackNs, dataNs;
        double ms;
    };
    std::vector<Sample> samples;
    samples.reserve(senderRtt.size());
    for (const SenderRtt& r : senderRtt)
        samples.push_back(
            {r.dataNs + static_cast<std::int64_t>(std::llround(r.ms * 1e6)), r.dataNs, r.ms});
    std::sort(samples.begin(), samples.end(),
              [](const Sample& a, const Sample& b) { return a.ackNs < b.ackNs; });
    std::vector<Hold> holds;
    for (std::size_t i = 1; i < deliveries.size(); ++i) {
        const std::int64_t fromNs = deliveries[i - 1].first, toNs = deliveries[i].first;
        const std::int64_t silenceNs = toNs - fromNs;
        if (silenceNs < kMinHeldSilenceNs || static_cast<double>(silenceNs) < 2 * deliveryNs)
            continue;
        const auto after =
            std::lower_bound(samples.begin(), samples.end(), toNs - kRebuiltTimeSlackNs,
                             [](const Sample& s, std::int64_t ns) { return s.ackNs < ns; });
        if (after == samples.begin() || after == samples.end() ||
            after->ackNs > toNs + silenceNs / 2 || after->dataNs >= fromNs)
            continue;
        auto before = after;
        while (before != samples.begin() && before->ackNs > fromNs + kRebuiltTimeSlackNs)
            --before;
        if (before->ackNs > fromNs + kRebuiltTimeSlackNs)
            continue;
        if ((after->ms - before->ms) * 1e6 >= static_cast<double>(silenceNs) / 2)
            holds.push_back({fromNs, toNs});
    }
    return holds;
}

// What the bottleneck went on delivering into the AP's queue through a hold (the
// silence before delivery i) comes out at once when it ends: at least half of it (the
// sender's flight may have run out during the hold), and the release is over within
// half the silence (a hold's frames leave at the radio's rate, above the bottleneck's).
// A silence of the sender's own (its flight waiting for ACKs) ends in data at the
// bottleneck's pace, or in one aggregate's worth, far less; so does a hold at a radio
// that is itself the bottleneck.
bool releasedAhead(const std::vector<std::pair<std::int64_t, std::int64_t>>& deliveries,
                   std::size_t i, double bytesPerNs, double deliveryNs, double aheadNeeded)
{
    const std::int64_t silenceNs = deliveries[i].first - deliveries[i - 1].first;
    const double heldBytes = bytesPerNs * (static_cast<double>(silenceNs) - deliveryNs);
    double ahead = 0;
    for (std::size_t k = i; k < deliveries.size(); ++k) {
        const double sinceNs = static_cast<double>(deliveries[k].first - deliveries[i].first);
        if (sinceNs > static_cast<double>(silenceNs) / 2)
            break;
        ahead =
            std::max(ahead, static_cast<double>(deliveries[k].second - deliveries[i - 1].second) -
                                sinceNs * bytesPerNs);
    }
    return ahead >= std::max(aheadNeeded, heldBytes / 2);
}

// Where a hold's release ends: the AP's backlog is what the path brought in, at its
// rate, since the silence began, less what went out; the release lasts until the
// deliveries since the silence's start have caught up with that inflow. A radio much
// faster than the link in front drains it quickly, one barely faster slowly, so the
// span is read from the deliveries, at least half the silence after its end (a release
// within it), and never into the next hold.
std::int64_t releaseEndNs(const std::vector<std::pair<std::int64_t, std::int64_t>>& deliveries,
                          std::int64_t holdStartNs, std::int64_t holdEndNs, std::int64_t nextHoldNs,
                          double bytesPerNs)
{
    const std::int64_t atLeastNs = holdEndNs + (holdEndNs - holdStartNs) / 2;
    auto it = std::lower_bound(deliveries.begin(), deliveries.end(), holdStartNs,
                               [](const auto& d, std::int64_t ns) { return d.first < ns; });
    if (it == deliveries.end())
        return atLeastNs;
    const std::int64_t startBytes = it->second;
    for (; it != deliveries.end() && it->first < nextHoldNs; ++it)
        if (it->first >= holdEndNs && static_cast<double>(it->second - startBytes) >=
                                          bytesPerNs * static_cast<double>(it->first - holdStartNs))
            return std::min(std::max(atLeastNs, it->first), nextHoldNs);
    return std::min(
        std::max(atLeastNs, it == deliveries.end() ? deliveries.back().first : it->first),
        nextHoldNs);
}

// A station that does not announce its scans on air leaves once the medium it hears has
// paused long enough; a frame the AP had handed its radio and was still backing off for
// then goes into the absence and is lost, a hole the first arrival after the silence
// reveals. The AP's next frame leaves DIFS and a backoff of 0 to CWmin slots (uniform,
// 802.11-2020 10.3.4.3) after the medium's last frame: a station that leaves after a
// pause of DIFS and k slots loses it with probability (CWmin - k) / (CWmin + 1). The
// share of holds whose silence ended in a hole gives k. Returns -1 where too few holds.
double stationLeavePauseFromHoles(const std::vector<MissingSegment>& missing,
                                  const std::vector<std::int64_t>& holdEndsNs, const MacParams& mac,
                                  std::size_t& holes)
{
    holes = 0;
    if (holdEndsNs.size() < kMinAbsences)
        return -1;
    std::vector<std::int64_t> revealedNs;
    revealedNs.reserve(missing.size());
    for (const MissingSegment& m : missing)
        revealedNs.push_back(m.revealedNs);
    std::sort(revealedNs.begin(), revealedNs.end());
    constexpr std::int64_t kClockSlackNs = 1000; // the arrivals' times went through seconds
    for (const std::int64_t endNs : holdEndsNs) {
        const auto it =
            std::lower_bound(revealedNs.begin(), revealedNs.end(), endNs - kClockSlackNs);
        holes += it != revealedNs.end() && *it <= endNs + kClockSlackNs;
    }
    const double share = static_cast<double>(holes) / static_cast<double>(holdEndsNs.size());
    const double slots = std::clamp(static_cast<double>(mac.cwMin) - share * (mac.cwMin + 1), 0.0,
                                    static_cast<double>(mac.cwMin));
    return mac.difsUs() + slots * mac.slotUs;
}

// Whether the receiver sent an ACK (seen in the capture) within withinNs from fromNs.
bool answeredWithin(const std::vector<std::pair<std::int64_t, std::int64_t>>& receiverAcks,
                    std::int64_t fromNs, std::int64_t withinNs)
{
    const auto it = std::lower_bound(receiverAcks.begin(), receiverAcks.end(), fromNs,
                                     [](const auto& a, std::int64_t ns) { return a.first < ns; });
    return it != receiverAcks.end() && it->first <= fromNs + withinNs;
}

// A silence the data after it waited through: the first new segment after it had
// waited on the path longer than the last one before it, by half the silence or more
// (on the sender's TSval clock). Its own silence -- a flight's ACKs on their way --
// ends in data sent after it began, which waited no longer than the data before; a
// queue grows only while it is fed, by far less than the silence.
// Where a flight's own gap runs into the hold (a window that the radio empties each
// round trip), the silence is longer than the hold and the test fails. The segment that
// ends it still waited beyond the least wait of the segments around it (an empty queue):
// at the AP's own radio, where the air is the bottleneck and so the AP's the only queue,
// a frame that waited through a silence of that radio was held (an AP with a frame and a
// free medium sends it within AIFS and CWmin slots). Known to two of the TSval clock's
// ticks (the frame's and the least's truncation) and that channel access, the wait is
// then how long it was held at least. Returns 0 (no hold), the silence (the first test),
// or the wait (the second, given the AP's channel access; 0: not read).
struct WaitedThrough
{
    std::int64_t heldNs = 0;
    bool openStart = false;
};
// The least wait is taken within this of the segment: the TSval clock's rate, read over
// the capture to a tick, drifts by less than a tick in it, and a flow that leaves its
// queue empty between flights does so many times a second.
constexpr std::int64_t kLeastWaitSpanNs = 1'000'000'000;
WaitedThrough waitedThrough(const SenderDataWaits& data, double channelAccessMs, std::int64_t fromNs,
                            std::int64_t toNs)
{
    const std::vector<DataWait>& waits = data.waits;
    const auto after =
        std::lower_bound(waits.begin(), waits.end(), toNs - kRebuiltTimeSlackNs,
                         [](const DataWait& w, std::int64_t ns) { return w.timeNs < ns; });
    if (after == waits.begin() || after == waits.end() || !after->firstSeen ||
        after->timeNs > toNs + kRebuiltTimeSlackNs)
        return {};
    auto before = std::prev(after);
    if (before->timeNs > fromNs + kRebuiltTimeSlackNs)
        return {};
    if (after->waitMs - before->waitMs >= static_cast<double>(toNs - fromNs) / 2e6)
        return {toNs - fromNs, false};
    if (channelAccessMs <= 0)
        return {};
    double leastWaitMs = after->waitMs;
    for (auto w = std::lower_bound(waits.begin(), waits.end(), after->timeNs - kLeastWaitSpanNs,
                                   [](const DataWait& d, std::int64_t ns) { return d.timeNs < ns; });
         w != waits.end() && w->timeNs <= after->timeNs + kLeastWaitSpanNs; ++w)
        leastWaitMs = std::min(leastWaitMs, w->waitMs);
    const double heldMs = after->waitMs - leastWaitMs;
    if (heldMs <= 2 * data.tickMs + channelAccessMs)
        return {};
    const auto heldNs = static_cast<std::int64_t>(heldMs * 1e6);
    return {std::min(heldNs, toNs - fromNs), heldNs < toNs - fromNs};
}

} // namespace

// Scans on the pattern the AP's retries must show before they read its dwell: one run
// of unanswered retries at the phase can be a collision cascade that fell there by
// chance (scan_detector.cpp admits runs from 3 retries and 2 ms); two in different
// cycles are not chance.
constexpr std::size_t kMinRetriedScans = 2;

// Holds the capture shows only in the delivery of the data. Downstream of the path
// (the AP's radio, the receiver): a FIFO bottleneck delivers at most its rate (a token
// bucket its burst on top), so bytes that arrive faster, right after a silence, were
// held past it, by the AP while the station was away. At the sender: its ACKs stop,
// and the first round trip after the silence is longer by most of it
// (heldAckSilences()). Silences of that kind that repeat at one phase of a period are
// a periodic scan the AP covered by holding: power-save-announced mode, the dwell the
// silences' length less half a delivery interval (the station left somewhere in the
// interval after the last delivery), at the capture's phase moved to the radio's.

void deriveHeldReleases(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    // The test needs the bottleneck's rate as a bound the deliveries cannot beat: one the
    // capture bounds only from below (a window-limited sender) is not one.
    // Behind a slow reader (deriveReceiver()) the deliveries pace at its reads, not at the
    // path's rate, and a burst after each read beats the rate read from them; at the
    // sender the data it sent into the closed window is answered at the next read, a
    // round trip longer by most of the silence, as data an AP held through a scan.
    if (s.periodicScan.intervalMs > 0 || ctx.rateMbps <= 0 || !out.pathRateUnseen.empty() ||
        s.receiver.appReadBytes > 0)
        return;
    // (capture ns, bytes delivered so far): downstream the data's arrivals; upstream of
    // the radio the ACKs' progress, which tells of the same releases but crosses the
    // 802.11 uplink, whose contention and aggregation bunch the ACKs whatever happened
    // to the data: there a hold is told by the round trips instead.
    const bool downstream = ctx.downstream.downstream;
    std::vector<std::pair<std::int64_t, std::int64_t>> deliveries;
    if (downstream) {
        std::int64_t delivered = 0;
        for (const TransmissionTime& a : ctx.downstream.arrivals)
            if (!a.lost)
                deliveries.emplace_back(out.firstDataNs + static_cast<std::int64_t>(a.timeS * 1e9),
                                        delivered += s.sender.mss);
    } else {
        for (const auto& [ns, bytes] : ctx.ackProgress)
            if (deliveries.empty() || bytes > deliveries.back().second)
                deliveries.emplace_back(ns, bytes);
    }
    if (deliveries.size() < 2)
        return;
    const double aheadNeeded =
        static_cast<double>(s.path.burstBytes) + kMinReleasedAheadSegments * s.sender.mss;
    std::vector<double> intervalBytes, intervalNs;
    for (std::size_t i = 1; i < deliveries.size(); ++i) {
        intervalBytes.push_back(
            static_cast<double>(deliveries[i].second - deliveries[i - 1].second));
        intervalNs.push_back(static_cast<double>(deliveries[i].first - deliveries[i - 1].first));
    }
    // A window-limited sender's silences are its own: it sends its window and waits for
    // the ACKs, which then come back at the bottleneck's pace whatever else held them.
    // So is one whose flight reached the receiver's largest window (within two segments:
    // the delayed ACK's), which paced it. At the sender such silences are not read as holds.
    if (!downstream &&
        (windowLimited(in, ctx) || (s.receiver.bufferBytes > 0 &&
                                    ctx.maxFlight + 2 * s.sender.mss >= s.receiver.bufferBytes))) {
        out.notes.push_back(
            "held releases: not read from the ACKs: the sender was window-limited (its flight "
            "reached its send buffer or the receiver's largest window), so its ACK silences are "
            "its own");
        return;
    }
    // The holds against a rate: the releases are tested against it, and the silences
    // measured against an interval -- downstream the bottleneck's time for one
    // delivery's bytes; at the sender, where the rate is what the releases inflate, the
    // ACKs' own median spacing.
    struct HoldSearch
    {
        double bytesPerNs = 0, deliveryNs = 0;
        std::vector<Hold> holds;
        std::vector<double> timesS;
        PeriodFit fit;
    };
    // Downstream, the sender's send times (its TSvals) tell a hold where the releases
    // cannot: at a radio that is itself the bottleneck they leave at its own pace.
    const SenderDataWaits waits = downstream ? senderDataWaits(in, ctx.downstream) : SenderDataWaits{};
    // A hold whose start a flight's gap hides is read at the AP's radio where the air is
    // the bottleneck (waitedThrough()). At the station's own radio a silence is also its
    // own absence, which the stretches it heard nothing in tell better
    // (deriveStationRadioScans()).
    const bool atStationRadio =
        in.events && std::any_of(in.events->events.begin(), in.events->events.end(),
                                 [](const WlanEvent& e) { return e.fromStationRadio(); });
    const double channelAccessMs = s.mac.enabled && !atStationRadio ? s.mac.firstAttemptAccessUs() / 1e3 : 0;
    const auto searchHolds = [&](double mbps) {
        HoldSearch h;
        h.bytesPerNs = mbps * 1e6 / 8 / 1e9;
        h.deliveryNs = downstream ? percentile(intervalBytes, 0.5) / h.bytesPerNs
                                  : percentile(intervalNs, 0.5);
        if (!downstream)
            h.holds = heldAckSilences(deliveries, ctx.senderRtt, h.deliveryNs);
        for (std::size_t i = 1; downstream && i < deliveries.size(); ++i) {
            const std::int64_t silenceNs = deliveries[i].first - deliveries[i - 1].first;
            if (silenceNs < kMinHeldSilenceNs || static_cast<double>(silenceNs) < 2 * h.deliveryNs)
                continue;
            // A hold ends when the station is back: it answers what the AP releases. After
            // it left for good (a handoff away from this AP) the AP's queue only grows.
            if (!answeredWithin(ctx.ackProgress, deliveries[i].first, silenceNs))
                continue;
            if (releasedAhead(deliveries, i, h.bytesPerNs, h.deliveryNs, aheadNeeded))
                h.holds.push_back({deliveries[i - 1].first, deliveries[i].first});
            else if (const WaitedThrough held =
                         waitedThrough(waits, channelAccessMs, deliveries[i - 1].first, deliveries[i].first);
                     held.heldNs > 0)
                h.holds.push_back({deliveries[i].first - held.heldNs, deliveries[i].first, true, held.openStart});
        }
        std::vector<std::int64_t> holdStarts;
        for (const Hold& hold : h.holds)
            holdStarts.push_back(hold.startNs);
        h.timesS = secondsFromFirst(holdStarts);
        if (h.holds.size() >= kMinAbsences)
            h.fit = searchPeriod(h.timesS);
        // A hold is seen to begin at the last delivery before the station left: within
        // one delivery's interval of the scan timer's instant.
        if (!h.timesS.empty())
            preferLattice(h.fit, searchLattice(h.timesS, h.deliveryNs / 1e9), h.timesS.back());
        // Scans the AP's retries show (the station gone when the AP sent to it) are
        // scans whatever the data met: a period they fall between is too long.
        std::vector<double> awayS;
        if (in.events && !holdStarts.empty())
            for (const WlanEvent* e : absencesOfMostAbsentStation(*in.events, "retry-absence").second)
                if (e->kind == WlanEventKind::Scan)
                    awayS.push_back(static_cast<double>(e->startNs - holdStarts.front()) / 1e9);
        std::sort(awayS.begin(), awayS.end());
        wholeMultipleOfPeriod(h.timesS, h.fit);
        periodOfSeenScans(h.timesS, h.fit, awayS);
        return h;
    };
    HoldSearch search = searchHolds(ctx.rateMbps);
    // Downstream, a rate read from windows that held the releases (a radio that left
    // often enough that most windows saw one) hides them: where the queue's link
    // delivered less over its standing stretches (deriveBottleneck()), by more than two
    // readings of one rate differ by, the releases are tested against that -- also
    // where the holds were found by the data's waits alone, which do not test the rate.
    const auto holdsByWait = [](const HoldSearch& h) {
        return std::count_if(h.holds.begin(), h.holds.end(),
                             [](const Hold& hold) { return hold.byWait; });
    };
    const bool releasesUnseen =
        !search.fit.found || 2 * holdsByWait(search) > std::ssize(search.holds);
    bool releasesAtStanding = false;
    if (downstream && releasesUnseen && ctx.standingStretchesMbps > 0 &&
        kSameRateBand * ctx.standingStretchesMbps < ctx.rateMbps) {
        HoldSearch slower = searchHolds(ctx.standingStretchesMbps);
        if (slower.fit.found) {
            search = std::move(slower);
            releasesAtStanding = true;
        }
    }
    const double bytesPerNs = search.bytesPerNs, deliveryNs = search.deliveryNs;
    const std::vector<Hold>& holds = search.holds;
    const std::vector<double>& timesS = search.timesS;
    const PeriodFit& fit = search.fit;
    if (holds.size() < kMinAbsences && !fit.found)
        return;
    const double n = static_cast<double>(timesS.size());
    if (!fit.found) {
        out.notes.push_back(format(
            downstream ? "held releases: %.0f silences ended by more data than the bottleneck "
                         "carries or by data that waited through them; no period "
                         "concentrates them (R %.2f, Rayleigh -ln p %.1f)"
                       : "held releases: %.0f silences in the ACKs ended by a round trip longer "
                         "by half the silence; no period concentrates them (R %.2f, Rayleigh "
                         "-ln p %.1f)",
            n, fit.r, fit.z));
        return;
    }
    // At the sender the ACK clock has a rhythm of its own: a flight a round trip, whose
    // silences fold at the round trip whatever held them, where the round trip holds
    // steady within the eighth of a period a hold at the phase may deviate by. (Holds
    // lengthen the round trips of the data they held: where the silences are a scan's,
    // the round trip spreads over its dwell.)
    const double periodMs = fit.periodS * 1000;
    if (!downstream && periodMs >= ctx.rttMin && periodMs <= ctx.rttP95 &&
        ctx.rttP95 - ctx.rttMin <= periodMs / 8) {
        out.notes.push_back(
            format("held releases: %.0f silences in the ACKs fold at %.2f ms (", n, periodMs) +
            periodEvidence(fit) + "), " +
            format("within the round trip's steady range (%.1f to %.1f ms, its minimum and 95th "
                   "percentile): the ACK clock's own flights, not a periodic scan",
                   ctx.rttMin, ctx.rttP95));
        return;
    }
    const double meanPhase = phaseOf(timesS, fit);
    const std::vector<double> deviations = phaseDeviations(timesS, fit.periodS, meanPhase);
    // The holds at the pattern's phase: their dwells and starts, and the spans the rate
    // is read again without (below).
    std::vector<double> dwellsMs, startsS, openWaitsMs;
    std::vector<std::size_t> atPhase;
    std::vector<std::int64_t> scanEndsNs;
    std::vector<std::pair<std::int64_t, std::int64_t>> heldSpans;
    std::size_t releasedAtOnce = 0, byWait = 0;
    for (std::size_t i = 0; i < holds.size(); ++i)
        if (std::abs(deviations[i]) <= phaseBand(fit)) {
            if (!downstream) {
                const auto end =
                    std::lower_bound(deliveries.begin(), deliveries.end(), holds[i].endNs,
                                     [](const auto& d, std::int64_t ns) { return d.first < ns; });
                const auto index = static_cast<std::size_t>(end - deliveries.begin());
                releasedAtOnce +=
                    index > 0 && index < deliveries.size() &&
                    releasedAhead(deliveries, index, bytesPerNs, deliveryNs, aheadNeeded);
            }
            byWait += holds[i].byWait;
            const std::int64_t silenceNs = holds[i].endNs - holds[i].startNs;
            if (holds[i].openStart) {
                openWaitsMs.push_back(static_cast<double>(silenceNs) / 1e6);
            } else {
                dwellsMs.push_back(std::max(0.0, static_cast<double>(silenceNs) - deliveryNs / 2) /
                                   1e6);
                startsS.push_back(static_cast<double>(holds[i].startNs - out.firstDataNs) / 1e9 +
                                  deliveryNs / 2e9);
            }
            atPhase.push_back(i);
            heldSpans.emplace_back(holds[i].startNs,
                                   releaseEndNs(deliveries, holds[i].startNs, holds[i].endNs,
                                                i + 1 < holds.size()
                                                    ? holds[i + 1].startNs
                                                    : std::numeric_limits<std::int64_t>::max(),
                                                bytesPerNs));
            scanEndsNs.push_back(holds[i].endNs);
        }
    if (atPhase.size() < (fit.toleranceS > 0 ? kMinLatticeTimes : kMinAbsences))
        return;
    // Where most holds ran on from a flight's gap, only their ends and how long the data
    // after them waited are known: the head of a hold waited the whole dwell where it
    // reached the AP as the scan began, any other less, so each wait bounds the dwell
    // from below and the longest reads it; each such hold began that long before its end.
    if (2 * openWaitsMs.size() > atPhase.size()) {
        const double dwellMs = *std::max_element(openWaitsMs.begin(), openWaitsMs.end());
        dwellsMs.assign(atPhase.size(), dwellMs);
        startsS.clear();
        for (const std::size_t i : atPhase)
            startsS.push_back(static_cast<double>(holds[i].endNs - out.firstDataNs) / 1e9 - dwellMs / 1e3);
        std::sort(startsS.begin(), startsS.end());
    } else {
        for (const double waitMs : openWaitsMs)
            dwellsMs.push_back(waitMs);
    }
    // The bottleneck's rate was read before the holds were known, over windows some of
    // which held a release (the AP's held data at the radio's rate): read again as the
    // bottleneck step reads it, without each hold from its silence's start to its
    // release's end (a window inside a silence reads nothing of the path either), and
    // with at least as many windows as holds (else the path was seldom seen between
    // them); a lower reading replaces it and the queue it sized.
    double reread = windowedDeliveryRate(deliveries, heldSpans, kMinAbsences).mbps();
    // Within the two percentiles' own spread the first reading stands.
    constexpr double kRateAgreement = 0.95;
    // Deliveries outside the releases that run faster than the rate say it is no bound
    // (a rate read low, e.g. from trains spaced by something slower than the path):
    // the releases were then the path's own pace.
    // At the sender the holds were found by the round trips, without the rate, and so
    // downstream were those the data's waits told: there a faster reading says only that
    // the rate stands.
    const double boundMbps = bytesPerNs * 8e3;
    if (downstream && reread * kRateAgreement > boundMbps && 2 * byWait < dwellsMs.size()) {
        out.notes.push_back(format(
            "held releases: %.0f silences fold at %.2f ms, but the deliveries outside them run "
            "at %.3f Mb/s, above the rate they were measured against: no periodic scan",
            n, fit.periodS * 1000, reread));
        return;
    }
    // No path delivers faster on average than its bottleneck serialises: a reading below
    // the capture's own goodput read windows the path left idle (a sender whose round
    // trip spans several scans sends little between them), not the path. Where the
    // releases were found against the rate of the link's standing stretches, that
    // reading is the link in front's.
    const double goodputMbps = in.tcp->connections[in.connection].direction[in.sender].goodputBps / 1e6;
    bool readAtStanding = false;
    if (reread <= 0 && releasesAtStanding) {
        out.notes.push_back(format("held releases: too few windows between the holds and their releases to read "
                                   "the path; they were found against the link's standing stretches (%.3f Mb/s)",
                                   ctx.standingStretchesMbps));
        reread = ctx.standingStretchesMbps;
        readAtStanding = true;
    } else if (reread > 0 && reread < kRateAgreement * goodputMbps) {
        out.notes.push_back(format("held releases: the deliveries between the holds run at %.3f Mb/s, under the "
                                   "capture's own goodput (%.3f): no bound on the path",
                                   reread, goodputMbps) +
                            (releasesAtStanding ? format("; the link's standing stretches read it (%.3f Mb/s)",
                                                         ctx.standingStretchesMbps)
                                                : std::string("; its rate stands")));
        reread = releasesAtStanding ? ctx.standingStretchesMbps : 0;
        readAtStanding = releasesAtStanding;
    }
    // A rate read from packet trains at the sender did not count the releases: it
    // stands. Downstream the trains are the radio's: the AP sends what it held back to
    // back, at its own pace, whatever spacing the link in front gave them.
    if (reread > 0 && reread < kRateAgreement * ctx.rateMbps &&
        (downstream || !ctx.rateFromDispersion)) {
        const double scale = reread / ctx.rateMbps;
        // Where the air was taken for the bottleneck on the rate the releases inflated
        // (the AP's held data at the radio's rate) and the path's own rate lies well
        // below what the air carries, the link in front of the radio limits the flow:
        // it comes back. The air stays the 802.11 model's: through the scans it sends
        // what they held at its own pace, faster than the link refills it, and into
        // each absence only what its hardware queue held (without it the backlog would
        // leave at the link's pace, never clear, and be lost to the next scan whole).
        const bool linkInFront = s.mac.enabled && ctx.airCapacityMbps > 0 &&
                                 reread < kAirLimitsShare * ctx.airCapacityMbps;
        const double linkMbps = linkInFront ? ctx.linkBeforeAirMbps : s.path.bottleneckMbps;
        const std::uint64_t queueBytes = linkInFront ? ctx.queueBeforeAirBytes : s.path.queueBytes;
        out.notes.push_back(
            format("path.bottleneck_mbps %.3f: the rate ", linkMbps * scale) +
            (readAtStanding ? "of the link's standing stretches" : "delivered between the holds and their releases") +
            format(" (%.3f Mb/s payload, not %.3f)", reread, ctx.rateMbps) +
            (linkInFront
                 ? format(" is under %.0f %% of what the air carries (about %.1f Mb/s for TCP): the link in "
                          "front of the radio is the bottleneck, the air the 802.11 model's",
                          kAirLimitsShare * 100, ctx.airCapacityMbps)
                 : std::string()));
        s.path.bottleneckMbps = linkMbps * scale;
        s.path.queueBytes =
            static_cast<std::uint64_t>(std::llround(static_cast<double>(queueBytes) * scale));
        ctx.rateMbps = reread;
    }
    // Downstream the capture sees the data one wired delay after the sender sent it; at
    // the sender the ACKs stop one wired delay after the station left.
    const double radioShiftS = (downstream ? 1 : -1) * s.path.wiredDelayMs / 1000;
    // At the sender, holds whose data came back at the bottleneck's pace, not ahead of it,
    // were held at the bottleneck itself: the AP's radio, which then carried nothing
    // through them. Most releases ahead: a slower link in front went on filling the
    // AP's queue.
    // Where the sender's own link is the bottleneck (its host queued before the capture)
    // the radio is not: the releases came at that link's pace because nothing faster
    // fed the AP.
    const bool heldAtBottleneck =
        !downstream && !ctx.rateFromSendersLink && 2 * releasedAtOnce < dwellsMs.size();
    s.path.atRadio = heldAtBottleneck;
    // A radio that held is the bottleneck and carried nothing through its holds: a rate
    // read over windows some of which spanned a hold's silence reads it low. Its back-to-
    // back trains, timed between the holds, read it as it serialises.
    // On the wire, with the IP and TCP headers (timestamps on), as deriveBottleneck() sets it.
    const double trainsMbps =
        ctx.dispersion.mbps * static_cast<double>(s.sender.mss + 52) / s.sender.mss;
    if (heldAtBottleneck && !ctx.rateFromDispersion && ctx.dispersion.read() &&
        ctx.dispersion.mbps > kSameRateBand * ctx.rateMbps && trainsMbps > s.path.bottleneckMbps) {
        const double scale = trainsMbps / s.path.bottleneckMbps;
        out.notes.push_back(
            format("path.bottleneck_mbps %.3f: packet-train dispersion (%.3f Mb/s payload), not "
                   "the %.3f read over windows the holds left silent",
                   trainsMbps, ctx.dispersion.mbps, ctx.rateMbps));
        s.path.bottleneckMbps = trainsMbps;
        s.path.queueBytes = static_cast<std::uint64_t>(
            std::llround(static_cast<double>(s.path.queueBytes) * scale));
        ctx.rateMbps = ctx.dispersion.mbps;
    }
    PeriodicScan& scan = s.periodicScan;
    scan.intervalMs = fit.periodS * 1000;
    scan.dwellMs = percentile(dwellsMs, 0.5);
    scan.mode = OutageMode::PsAnnounced;
    // At the AP's radio the scans that met its frames show in its retries, however few
    // for a pattern of their own (deriveScanAbsences()): the station was away until the
    // last unacknowledged attempt at least and back by its answer, the dwell bounded on
    // both sides, where a silence there ends at each new frame the AP sends into the
    // absence and a wait bounds it only from below.
    RetriedScans retried;
    const bool dwellFromWaits = 2 * openWaitsMs.size() > atPhase.size();
    const auto lineNs = [&] { return out.firstDataNs + static_cast<std::int64_t>(startsS.front() * 1e9); };
    if (downstream && s.mac.enabled) {
        retried = readRetriedScans(in, s, lineNs(), fit.periodS);
        if (retried.bounded >= kMinRetriedScans) {
            const double lowMs =
                dwellFromWaits ? std::max(retried.dwellLowMs, scan.dwellMs) : retried.dwellLowMs;
            const double dwellMs =
                lowMs <= retried.dwellHighMs ? (lowMs + retried.dwellHighMs) / 2 : lowMs;
            // Holds read from their ends began a dwell before them.
            if (dwellFromWaits)
                for (double& startS : startsS)
                    startS -= (dwellMs - scan.dwellMs) / 1e3;
            out.notes.push_back(format("periodic_scan.dwell_ms %.1f: between the last unacknowledged attempt "
                                       "(90th percentile %.1f ms) and the station's answer (10th percentile "
                                       "%.1f ms) ",
                                       dwellMs, retried.dwellLowMs, retried.dwellHighMs) +
                                format("in the %.0f scans at the phase that met the AP's frames, not %.1f ms",
                                       static_cast<double>(retried.bounded), scan.dwellMs));
            scan.dwellMs = dwellMs;
            // The pauses the station stayed through are read from the scans' starts.
            retried = readRetriedScans(in, s, lineNs(), fit.periodS);
        }
    }
    // The first scan: the earliest hold at the phase, back by whole periods while no
    // data was delivered inside the earlier window (a scan there met no backlog to
    // hold; a delivery inside it says the station was there).
    double firstS = startsS.front();
    const auto deliveredIn = [&](double fromS) {
        const auto fromNs = out.firstDataNs + static_cast<std::int64_t>(fromS * 1e9);
        const auto toNs = fromNs + static_cast<std::int64_t>(scan.dwellMs * 1e6);
        const auto next =
            std::lower_bound(deliveries.begin(), deliveries.end(), fromNs,
                             [](const auto& d, std::int64_t ns) { return d.first < ns; });
        return next != deliveries.end() && next->first < toNs;
    };
    while (firstS - fit.periodS >= 0 && !deliveredIn(firstS - fit.periodS))
        firstS -= fit.periodS;
    scan.firstS = std::max(0.0, firstS + radioShiftS);
    scan.untilS = 0;
    const ListedScansHeld listed =
        holdListedScansAsPattern(s, downstream ? &ctx.downstream : nullptr, out.firstDataNs, radioShiftS);
    char evidence[160];
    if (downstream)
        std::snprintf(evidence, sizeof evidence,
                      "silences in the data's arrivals ended by more data than the bottleneck "
                      "carries (%.2f Mb/s) "
                      "or by data that waited through them",
                      bytesPerNs * 8e3);
    else
        std::snprintf(evidence, sizeof evidence,
                      "silences in the ACKs ended by a round trip longer by half the silence or "
                      "more (data held "
                      "through it)");
    char buf[500];
    std::snprintf(
        buf, sizeof buf,
        "periodic_scan: %.1f ms off every %.2f ms from %.3f s (power save announced, "
        "frames held): %zu %s fold at that period (%s); the %zu at its phase give the dwell",
        scan.dwellMs, scan.intervalMs, scan.firstS, holds.size(), evidence,
        periodEvidence(fit).c_str(), dwellsMs.size());
    out.notes.push_back(buf);
    if (listed.held > 0)
        out.notes.push_back(format("periodic_scan: %.0f scans listed from the AP's retries fall on it and hold as it "
                                   "does; the %.0f segments the AP gave up in them are lost there "
                                   "(periodic_scan.lost_segments)",
                                   static_cast<double>(listed.held), static_cast<double>(listed.givenUp)));
    // The station's wait to leave: at the AP's radio, from the pauses it stayed through
    // and left at in the scans that met the AP's frames; further downstream, where the
    // AP's retries are not in the capture, from the holes the scans left.
    if (retried.leaveFound) {
        s.mac.stationLeavePauseUs = retried.leaveUs;
        out.notes.push_back(retried.leaveNote);
    } else if (downstream && s.mac.enabled && s.mac.stationLeavePauseUs > 0) {
        std::size_t holes = 0;
        const double pauseUs =
            stationLeavePauseFromHoles(ctx.downstream.missing, scanEndsNs, s.mac, holes);
        if (pauseUs >= 0) {
            s.mac.stationLeavePauseUs = pauseUs;
            out.scanHoles = holes;
            out.notes.push_back(format(
                "mac.station_leave_pause_us %.1f: %.0f of the %.0f silences at the "
                "phase ended in a hole (frames the AP sent into the absence): DIFS and "
                "the backoff slots that share of the AP's first attempts outlasts",
                pauseUs, static_cast<double>(holes), static_cast<double>(scanEndsNs.size())));
        }
    }
    if (retried.bounded > 0)
        out.notes.push_back(applyRetryChains(retried.chains, s.mac));
    if (!downstream) {
        // The frames the AP had handed to its radio when the station left were sent into
        // the absence; one dropped at the retry limit is a hole the first ACKs after the
        // return show, resent once DupThresh (3, RFC 5681 3.2) segments beyond it are
        // acknowledged: within a round trip of the silence's end and three segments at
        // the bottleneck's rate. Later in the cycle no scan's loss can be.
        const double segmentNs = s.sender.mss * 8 / (ctx.rateMbps * 1e6) * 1e9;
        const auto periodNs = static_cast<std::int64_t>(fit.periodS * 1e9);
        const std::int64_t windowNs =
            std::min(periodNs / 2, static_cast<std::int64_t>(ctx.rttMin * 1e6 + 3 * segmentNs));
        const std::vector<std::int64_t> patternEnds =
            scanEndsOfPattern(scanEndsNs, periodNs, out.firstDataNs, ctx.lastDataNs);
        out.scanLossEpisodes =
            lossesAfterScans(lossEpisodeStarts(in), patternEnds, windowNs,
                             periodNs - static_cast<std::int64_t>(scan.dwellMs * 1e6));
        if (out.scanLossEpisodes > 0)
            out.notes.push_back(format(
                "periodic_scan: %.0f more of its %.0f scans were followed by a loss within "
                "%.1f ms than chance puts in windows that long over the rest of the cycles: "
                "the frames the AP sent into the absences",
                static_cast<double>(out.scanLossEpisodes), static_cast<double>(patternEnds.size()),
                static_cast<double>(windowNs) / 1e6));
    }
    if (!downstream)
        out.notes.push_back(
            std::string("path.bottleneck_at_radio ") + (heldAtBottleneck ? "true: " : "false: ") +
            format(
                "%.0f of the %.0f holds at the phase released their data ahead of the bottleneck's "
                "rate",
                static_cast<double>(releasedAtOnce), static_cast<double>(dwellsMs.size())) +
            (heldAtBottleneck ? " (the rest at its pace: the radio that held is the bottleneck, "
                                "and carries nothing while the station is away)"
             : ctx.rateFromSendersLink
                 ? " (the sender's own link is the bottleneck: nothing faster "
                   "fed the AP)"
                 : " (a slower link in front fills the AP's queue through them)"));
}

} // namespace windscope::analysis::replay::derive
