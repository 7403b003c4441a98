// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Passive congestion-window inference for one direction of a connection: the vantage
// point, the model that best explains the sender (fewest sends beyond min(cwnd, rwnd),
// smallest gap between the window and what a window-limited sender put in flight),
// the series of that model, and -- where the capture cannot support an estimate -- the
// reason instead of a plausible-looking line.

#include "flow_events.h"
#include "candidate_replays.h"
#include "model_fit.h"

#include <string>
#include <string_view>
#include <vector>

namespace windscope::analysis::cwnd {

struct CwndOptions
{
    std::string model;          // empty: choose; else one of congestionModelNames()
    // Capture loss: ACKs for data the capture never saw, per data segment sent.
    double maxCaptureLossRatio = 0.02;
};

// Why a connection's cwnd is not followed.
enum class NotFollowedReason : std::uint8_t { None, NoData, MissingHandshake, CaptureLoss, RateBased };
const char* notFollowedReasonName(NotFollowedReason r); // "", "no_data", "missing_handshake", ...
const char* notFollowedReasonText(NotFollowedReason r); // a sentence for people

// Why the congestion-control model is not named although the cwnd is followed.
enum class ModelUndetermined : std::uint8_t { None, FitsTie, NoWindowExplains };
const char* modelUndeterminedName(ModelUndetermined u); // "", "fits_tie", "no_window_explains"
const char* modelUndeterminedText(ModelUndetermined u); // a sentence for people

struct RateBasedEvidence
{
    // Flight after a loss episode over flight before it, median over episodes: a
    // loss-based sender halves (Reno) or cuts to 0.7 (CUBIC); BBR keeps its rate.
    double flightRetainedAfterLoss = 0;
    std::uint64_t episodes = 0;
    // Share of sends on the sender's clock that no ACK arrival preceded within
    // 0.5 ms: ACK-clocked senders answer ACKs, paced senders answer their timer.
    double unclockedSends = 0;
    bool rateBased = false;
};

struct CwndInference
{
    std::size_t connection = 0;
    int sender = 0;                         // endpoint index of the data sender
    NotFollowedReason notFollowed = NotFollowedReason::None;
    Vantage vantage;
    std::uint64_t acksRebuilt = 0;          // ACKs the capture missed, from the sender's TSecr
    std::uint32_t mss = 0;
    std::string model;                      // chosen or overridden
    bool modelOverridden = false;
    double confidence = 0;                  // 0..1, margin of the best fit over the next
    // Set when the best fits tie: model is then only the stand-in the series was drawn
    // with (the tied models give the same window there), not an identification.
    ModelUndetermined undetermined = ModelUndetermined::None;
    std::vector<ModelFit> fits;             // every model tried, best first
    RateBasedEvidence rateEvidence;
    std::vector<CwndSample> series;         // one per data segment of the sender
};

// The candidates that explain the capture equally well when the model is undetermined
// (FitsTie), best-ordered; empty when a model is named.
std::vector<std::string_view> tiedModels(const CwndInference& inference);

// The model as reported: its name, or "undetermined" where the capture cannot tell.
std::string modelLabel(const CwndInference& inference);

// The endpoint that sent more payload (ties: endpoint 1, the server).
int dataSenderOf(const Connection& connection);

// Returns false with error set only for a bad option (unknown model name).
bool inferCwnd(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
               std::size_t connection, int sender, const CwndOptions& options,
               CwndInference& out, std::string& error);

// The inference with `options` for the data sender of one connection, as inferCwndAll
// gives it (an empty series with NotFollowedReason::NoData when it carried no data).
// rows: the connection's rows in CaptureTables::tcp (rowsByConnection), nullptr to
// find them by a scan. helpers: idle workers to share the candidates' replays with
// (nullptr: the calling thread alone); the result is the same either way.
void inferDataSenderCwnd(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
                         std::size_t connection, const CwndOptions& options,
                         const std::vector<std::uint64_t>* rows, CwndInference& out,
                         ReplayHelpers* helpers = nullptr);

// How many inferences (one replay of every model over a flow) this process has run: the
// analysis pipeline computes each once and a project caches them, and tests count on it.
std::uint64_t inferenceCount();

// The inference for the data sender of every connection that carried data, indexed
// by connection (an empty series with NotFollowedReason::NoData for the others).
// Connections are independent, so they are spread over `threads` workers (0: one per
// hardware thread); the result does not depend on the number of threads.
bool inferCwndAll(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
                  const CwndOptions& options, unsigned threads, std::vector<CwndInference>& out,
                  std::string& error);

} // namespace windscope::analysis::cwnd
