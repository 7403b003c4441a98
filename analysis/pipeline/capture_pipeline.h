// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one way from a capture to its results, which every front-end asks (the CLI's
// commands, the desktop application, the Wireshark plugin, benchmarks and tests):
//
//   ingest + TCP analysis -> 802.11 inventory -> 802.11 events -> cwnd inference
//                                                               -> event correlation
//
// Each stage's product is computed once, on first request, and kept: `analyze` reads
// and analyses TCP and nothing else; a connection's congestion window is inferred when
// a view, the correlation or the replay derivation first asks for it, and every
// connection's at once when a project caches them. A pipeline is built either on a
// capture file or on the products a project cached (then nothing cached is computed
// again). Progress and cancellation go through a Qt-free observer.

#include "analysis/cwnd/cwnd_source.h"
#include "analysis/pipeline/analysis_bundle.h"
#include "dissectors/ingest.h"

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace windscope::analysis::pipeline {

// The stages in the order run() goes through them. Reading and Tcp overlap (the TCP
// analysis follows the reading, TcpAnalyzer); Cwnd is every connection's inference at
// once, which only a project's cache needs: the correlation and the views ask per
// connection before that.
enum class AnalysisStage { Reading, Tcp, Inventory, Events, Correlation, Cwnd, Done };
const char* analysisStageName(AnalysisStage stage); // "reading", "tcp", ...

class PipelineObserver
{
public:
    virtual ~PipelineObserver() = default;
    // A stage is about to be computed (not told for products that are already there).
    virtual void stageStarted(AnalysisStage stage) { (void)stage; }
    // One cwnd inference was run (not loaded); may be told from several threads.
    virtual void cwndInferred(std::size_t connection, int sender)
    {
        (void)connection;
        (void)sender;
    }
    // Asked between stages; the reading asks dissect::IngestOptions::observer.
    virtual bool cancelRequested() { return false; }
};

struct PipelineOptions
{
    dissect::IngestOptions ingest; // progress and cancellation while reading
    TcpAnalysisOptions tcp;
    WlanEventOptions events;
    CorrelationOptions correlation;
    // The name the results give the capture when the file read is a stand-in for it
    // (analyze --key reads a decrypted temporary copy); empty: the path read.
    std::string reportedPath;
    // Workers for every connection's cwnd at once (0: one per hardware thread); the
    // result does not depend on it.
    unsigned cwndThreads = 0;
};

class CapturePipeline final : public cwnd::CwndSource
{
public:
    // On a capture file; nothing is read until run().
    explicit CapturePipeline(std::string path, PipelineOptions options = {});
    // On products computed before (a project's cache): the stages up to `through` are
    // taken as they are, the cwnd product too when it holds one inference per
    // connection; later stages are computed on request.
    explicit CapturePipeline(AnalysisBundle products, AnalysisStage through = AnalysisStage::Done,
                             PipelineOptions options = {});
    ~CapturePipeline() override;
    CapturePipeline(const CapturePipeline&) = delete;
    CapturePipeline& operator=(const CapturePipeline&) = delete;

    void setObserver(PipelineObserver* observer) { m_observer = observer; }

    // Computes the stages up to and including `stage` that are not there yet, in order,
    // asking the observer for cancellation between them. False with error set when the
    // capture cannot be read; false with error empty when cancelled.
    bool run(AnalysisStage stage, std::string& error);
    bool has(AnalysisStage stage) const;

    const std::string& path() const { return m_path; }
    const PipelineOptions& options() const { return m_options; }

    // The products. tables() and tcp() need a successful run(AnalysisStage::Tcp) (or a
    // pipeline built on products); the others are computed on first call. Each returned
    // reference stays valid, and its product unchanged, for the pipeline's life.
    const dissect::CaptureTables& tables() const { return m_products.tables; }
    const TcpAnalysis& tcp() const { return m_products.tcp; }
    const WlanInventory& inventory() const;
    const WlanEvents& events() const;
    const Correlation& correlation() const;
    // cwnd::CwndSource: a connection's inference with default options, computed once.
    const cwnd::CwndInference& cwndOfSender(std::size_t connection, int sender) const override;
    // Every connection's data-sender inference (the missing ones computed on
    // options().cwndThreads workers), indexed by connection.
    const std::vector<cwnd::CwndInference>& cwndAll() const;
    // With other than the default options (cwnd --model NAME): run on every call, not
    // kept. False with error set for a bad option.
    bool inferCwnd(std::size_t connection, int sender, const cwnd::CwndOptions& options,
                   cwnd::CwndInference& out, std::string& error) const;

    // The products as they are, computing nothing: stages not computed yet are empty.
    const AnalysisBundle& products() const { return m_products; }
    // Every product, the cwnd of every connection included: what a project caches.
    const AnalysisBundle& cacheProducts() const;
    // The same handed over; the pipeline is left empty.
    AnalysisBundle releaseProducts() &&;

private:
    bool readCapture(std::string& error);
    void started(AnalysisStage stage) const;
    bool cancelled() const;
    const cwnd::CwndInference& dataSenderCwnd(std::size_t connection, const std::vector<std::uint64_t>* rows,
                                              cwnd::ReplayHelpers* helpers = nullptr) const;
    void prepareCwnd(bool loaded);

    std::string m_path;
    PipelineOptions m_options;
    PipelineObserver* m_observer = nullptr;
    mutable std::mutex m_stageMutex;         // the stages after Tcp, computed on request
    mutable AnalysisBundle m_products;       // cwnd: the data senders' inferences
    mutable std::array<bool, 7> m_have{};    // by AnalysisStage
    // cwnd slots, two per connection: 2c the data sender (in m_products.cwnd), 2c + 1 the
    // other endpoint (in m_otherCwnd), each inferred once.
    std::unique_ptr<std::once_flag[]> m_cwndOnce;
    mutable std::vector<cwnd::CwndInference> m_otherCwnd;
    bool m_cwndLoaded = false;
    mutable std::once_flag m_cwndAllOnce;
};

} // namespace windscope::analysis::pipeline
