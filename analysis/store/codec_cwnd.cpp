// SPDX-License-Identifier: GPL-3.0-or-later
// The cwnd part: the pipeline's inferred congestion window of every connection
// (cwnd::CwndInference), so that a project reopens without replaying the models. The
// series is most of the bytes: it is stored as columns, one value per data segment.
#include "codec_parts.h"

namespace windscope::analysis::store::codec {

namespace {

template <typename Io, typename V> void vantageFields(Io& io, V& v)
{
    io(v.point);
    io(v.upstreamRttNs);
    io(v.downstreamRttNs);
    io(v.oneWayShiftNs);
    io(v.queueingFromTimestamps);
}

template <typename Io, typename F> void fitCounts(Io& io, F& f)
{
    io(f.sends);
    io(f.violations);
    io(f.burstEnds);
    io(f.meanGap);
    io(f.lossEpisodes);
}

template <typename Io, typename E> void rateEvidenceFields(Io& io, E& e)
{
    io(e.flightRetainedAfterLoss);
    io(e.episodes);
    io(e.unclockedSends);
    io(e.rateBased);
}

template <typename Io, typename I> void inferenceFields(Io& io, I& i)
{
    io(i.notFollowed);
    io(i.mss);
    io(i.model);
    io(i.modelOverridden);
    io(i.confidence);
    io(i.undetermined);
}

} // namespace

void encodeCwnd(Writer& w, const std::vector<cwnd::CwndInference>& all)
{
    auto put = [&](const auto& v) { w.put(v); };
    w.list(all, [&](const cwnd::CwndInference& i) {
        w.put(static_cast<std::uint64_t>(i.connection));
        w.put(static_cast<std::int32_t>(i.sender));
        inferenceFields(put, i);
        vantageFields(put, i.vantage);
        rateEvidenceFields(put, i.rateEvidence);
        w.list(i.fits, [&](const cwnd::ModelFit& f) {
            w.put(std::string(f.model));
            fitCounts(put, f);
        });
        // The series as columns.
        std::vector<std::uint64_t> row, cwndBytes, ssthresh, pipe, rwnd;
        std::vector<std::uint8_t> phase;
        for (const cwnd::CwndSample& x : i.series) {
            row.push_back(x.row);
            cwndBytes.push_back(x.cwndBytes);
            ssthresh.push_back(x.ssthreshBytes);
            pipe.push_back(x.pipeBytes);
            rwnd.push_back(x.rwndBytes);
            phase.push_back(static_cast<std::uint8_t>(x.phase));
        }
        for (const auto* c : {&row, &cwndBytes, &ssthresh, &pipe, &rwnd})
            w.column(*c);
        w.column(phase);
    });
}

bool decodeCwnd(Reader& r, std::vector<cwnd::CwndInference>& all, std::string& error)
{
    all.clear();
    bool consistent = true;
    auto get = [&](auto& v) { r.get(v); };
    r.list(all, 60, [&](cwnd::CwndInference& i) {
        std::uint64_t connection = 0;
        std::int32_t sender = 0;
        r.get(connection);
        r.get(sender);
        i.connection = static_cast<std::size_t>(connection);
        i.sender = sender;
        inferenceFields(get, i);
        vantageFields(get, i.vantage);
        rateEvidenceFields(get, i.rateEvidence);
        r.list(i.fits, 48, [&](cwnd::ModelFit& f) {
            // Model names are the registry's static strings: interned, they stay valid.
            const char* model = nullptr;
            r.get(model);
            f.model = model;
            fitCounts(get, f);
        });
        std::vector<std::uint64_t> row, cwndBytes, ssthresh, pipe, rwnd;
        std::vector<std::uint8_t> phase;
        for (auto* c : {&row, &cwndBytes, &ssthresh, &pipe, &rwnd})
            r.column(*c);
        r.column(phase);
        if (!r.ok())
            return;
        const std::size_t n = row.size();
        if (cwndBytes.size() != n || ssthresh.size() != n || pipe.size() != n || rwnd.size() != n ||
            phase.size() != n) {
            consistent = false;
            return;
        }
        i.series.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            i.series[k] = {.row = row[k], .cwndBytes = cwndBytes[k], .ssthreshBytes = ssthresh[k],
                           .pipeBytes = pipe[k], .rwndBytes = rwnd[k],
                           .phase = static_cast<cwnd::SenderPhase>(phase[k])};
    });
    if (!r.finish(error))
        return false;
    if (!consistent)
        return error = "damaged cached cwnd: series columns of different lengths", false;
    for (std::size_t c = 0; c < all.size(); ++c)
        if (all[c].connection != c || (all[c].sender != 0 && all[c].sender != 1))
            return error = "damaged cached cwnd: inferences out of connection order", false;
    return true;
}

} // namespace windscope::analysis::store::codec
