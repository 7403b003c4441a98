// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_pipeline.h"

#include "analysis/cwnd/flow_events.h"
#include "analysis/sender/congestion_model.h"
#include "analysis/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace windscope::analysis::pipeline {

namespace {

std::size_t index(AnalysisStage stage) { return static_cast<std::size_t>(stage); }

} // namespace

const char* analysisStageName(AnalysisStage stage)
{
    switch (stage) {
    case AnalysisStage::Reading: return "reading";
    case AnalysisStage::Tcp: return "tcp";
    case AnalysisStage::Inventory: return "inventory";
    case AnalysisStage::Events: return "events";
    case AnalysisStage::Correlation: return "correlation";
    case AnalysisStage::Cwnd: return "cwnd";
    case AnalysisStage::Done: return "done";
    }
    return "";
}

CapturePipeline::CapturePipeline(std::string path, PipelineOptions options)
    : m_path(std::move(path)), m_options(std::move(options))
{
}

CapturePipeline::CapturePipeline(AnalysisBundle products, AnalysisStage through, PipelineOptions options)
    : m_path(products.tables.summary.path), m_options(std::move(options)), m_products(std::move(products))
{
    for (std::size_t s = 0; s <= index(through) && s < m_have.size(); ++s)
        m_have[s] = true;
    prepareCwnd(index(through) >= index(AnalysisStage::Tcp) &&
                m_products.cwnd.size() == m_products.tcp.connections.size());
}

CapturePipeline::~CapturePipeline() = default;

void CapturePipeline::prepareCwnd(bool loaded)
{
    const std::size_t n = m_products.tcp.connections.size();
    m_cwndLoaded = loaded;
    m_have[index(AnalysisStage::Cwnd)] = loaded;
    if (!loaded)
        m_products.cwnd.assign(n, cwnd::CwndInference{});
    m_otherCwnd.assign(n, cwnd::CwndInference{});
    m_cwndOnce = std::make_unique<std::once_flag[]>(2 * n);
}

void CapturePipeline::started(AnalysisStage stage) const
{
    if (m_observer)
        m_observer->stageStarted(stage);
}

bool CapturePipeline::cancelled() const { return m_observer && m_observer->cancelRequested(); }

bool CapturePipeline::readCapture(std::string& error)
{
    m_products = AnalysisBundle{};
    started(AnalysisStage::Reading);
    // The TCP analysis follows the reading; what is left of it when the reading ends is
    // the Tcp stage.
    TcpAnalyzer analyzer(m_products.tables, m_options.tcp);
    if (!dissect::ingestCapture(m_path, analyzer.following(m_options.ingest), m_products.tables, error)) {
        if (error.empty())
            error = m_path + ": could not be read";
        m_products = AnalysisBundle{};
        return false;
    }
    if (m_products.tables.summary.cancelled || cancelled()) {
        m_products = AnalysisBundle{};
        return false;
    }
    started(AnalysisStage::Tcp);
    m_products.tcp = analyzer.finish();
    if (std::string warning = oneDirectionWarning(m_products.tables, m_products.tcp); !warning.empty())
        m_products.tables.summary.warnings.push_back(std::move(warning));
    if (!m_options.reportedPath.empty() && m_options.reportedPath != m_path) {
        // Results name the capture the user named, not the stand-in read.
        auto rename = [&](std::string& text) {
            for (std::size_t at = text.find(m_path); at != std::string::npos;
                 at = text.find(m_path, at + m_options.reportedPath.size()))
                text.replace(at, m_path.size(), m_options.reportedPath);
        };
        rename(m_products.tables.summary.path);
        for (std::string& warning : m_products.tables.summary.warnings)
            rename(warning);
    }
    m_have[index(AnalysisStage::Reading)] = m_have[index(AnalysisStage::Tcp)] = true;
    prepareCwnd(false);
    return true;
}

bool CapturePipeline::run(AnalysisStage stage, std::string& error)
{
    error.clear();
    if (!has(AnalysisStage::Reading) && !readCapture(error))
        return false;
    if (!has(AnalysisStage::Tcp)) {
        // Tables that were read elsewhere (a replay run's trace): their TCP analysis alone.
        started(AnalysisStage::Tcp);
        m_products.tcp = analyzeTcp(m_products.tables, m_options.tcp);
        {
            std::lock_guard lock(m_stageMutex);
            m_have[index(AnalysisStage::Tcp)] = true;
        }
        prepareCwnd(false);
    }
    for (AnalysisStage next : {AnalysisStage::Inventory, AnalysisStage::Events, AnalysisStage::Correlation,
                               AnalysisStage::Cwnd}) {
        if (index(next) > index(stage))
            break;
        if (has(next))
            continue;
        if (cancelled())
            return false;
        switch (next) {
        case AnalysisStage::Inventory: inventory(); break;
        case AnalysisStage::Events: events(); break;
        case AnalysisStage::Correlation: correlation(); break;
        default: cwndAll(); break;
        }
    }
    if (index(stage) >= index(AnalysisStage::Done))
        m_have[index(AnalysisStage::Done)] = true;
    return true;
}

bool CapturePipeline::has(AnalysisStage stage) const
{
    std::lock_guard lock(m_stageMutex);
    return m_have[index(stage)];
}

const WlanInventory& CapturePipeline::inventory() const
{
    std::lock_guard lock(m_stageMutex);
    if (!m_have[index(AnalysisStage::Inventory)]) {
        started(AnalysisStage::Inventory);
        m_products.inventory = buildWlanInventory(m_products.tables, m_products.tcp);
        m_have[index(AnalysisStage::Inventory)] = true;
    }
    return m_products.inventory;
}

const WlanEvents& CapturePipeline::events() const
{
    const WlanInventory& stations = inventory();
    std::lock_guard lock(m_stageMutex);
    if (!m_have[index(AnalysisStage::Events)]) {
        started(AnalysisStage::Events);
        m_products.events = detectWlanEvents(m_products.tables, stations, m_products.tcp, m_options.events);
        m_have[index(AnalysisStage::Events)] = true;
    }
    return m_products.events;
}

const Correlation& CapturePipeline::correlation() const
{
    const WlanEvents& found = events();
    std::lock_guard lock(m_stageMutex);
    if (!m_have[index(AnalysisStage::Correlation)]) {
        started(AnalysisStage::Correlation);
        // The cwnd slots do not take the stage lock: asking them from here is safe.
        m_products.correlation = correlateEvents(m_products.tables, m_products.tcp, m_products.inventory,
                                                 found, *this, m_options.correlation);
        m_have[index(AnalysisStage::Correlation)] = true;
    }
    return m_products.correlation;
}

const cwnd::CwndInference& CapturePipeline::dataSenderCwnd(std::size_t connection,
                                                           const std::vector<std::uint64_t>* rows,
                                                           cwnd::ReplayHelpers* helpers) const
{
    if (!m_cwndLoaded)
        std::call_once(m_cwndOnce[2 * connection], [&] {
            cwnd::inferDataSenderCwnd(m_products.tables, m_products.tcp, connection, {}, rows,
                                      m_products.cwnd[connection], helpers);
            if (m_observer)
                m_observer->cwndInferred(connection, m_products.cwnd[connection].sender);
        });
    return m_products.cwnd[connection];
}

const cwnd::CwndInference& CapturePipeline::cwndOfSender(std::size_t connection, int sender) const
{
    const Connection& c = m_products.tcp.connections.at(connection);
    if (sender < 0 || sender == cwnd::dataSenderOf(c))
        return dataSenderCwnd(connection, nullptr);
    std::call_once(m_cwndOnce[2 * connection + 1], [&] {
        std::string ignored; // default options cannot be refused
        cwnd::inferCwnd(m_products.tables, m_products.tcp, connection, sender, {}, m_otherCwnd[connection],
                        ignored);
        if (m_observer)
            m_observer->cwndInferred(connection, sender);
    });
    return m_otherCwnd[connection];
}

const std::vector<cwnd::CwndInference>& CapturePipeline::cwndAll() const
{
    std::call_once(m_cwndAllOnce, [&] {
        if (m_cwndLoaded)
            return;
        started(AnalysisStage::Cwnd);
        const std::size_t n = m_products.tcp.connections.size();
        const std::vector<std::vector<std::uint64_t>> rows = cwnd::rowsByConnection(m_products.tcp);
        unsigned threads = m_options.cwndThreads ? m_options.cwndThreads : std::max(1u, std::thread::hardware_concurrency());
        // Beyond one per connection, the extra workers only help with candidates' replays.
        threads = static_cast<unsigned>(
            std::min<std::size_t>(threads, std::max<std::size_t>(n, 1) * cwnd::congestionModelNames().size()));
        // Workers take the next connection from a shared counter (flows differ in size
        // by orders of magnitude); a connection already inferred is kept. A worker with
        // none left helps replay the candidates of those still being inferred.
        std::atomic<std::size_t> next{0};
        cwnd::ReplayHelpers helpers(n);
        runOnThreads(threads, [&] {
            for (std::size_t c = next++; c < n; c = next++) {
                dataSenderCwnd(c, &rows[c], threads > 1 ? &helpers : nullptr);
                helpers.ownerDone();
            }
            helpers.help();
        });
        std::lock_guard lock(m_stageMutex);
        m_have[index(AnalysisStage::Cwnd)] = true;
    });
    return m_products.cwnd;
}

bool CapturePipeline::inferCwnd(std::size_t connection, int sender, const cwnd::CwndOptions& options,
                                cwnd::CwndInference& out, std::string& error) const
{
    if (!cwnd::inferCwnd(m_products.tables, m_products.tcp, connection, sender, options, out, error))
        return false;
    if (m_observer)
        m_observer->cwndInferred(connection, sender);
    return true;
}

const AnalysisBundle& CapturePipeline::cacheProducts() const
{
    correlation();
    cwndAll();
    m_products.fleet = summarizeForFleet(m_products.tables, m_products.tcp, m_products.inventory,
                                         m_products.events, m_products.correlation);
    return m_products;
}

AnalysisBundle CapturePipeline::releaseProducts() &&
{
    cacheProducts();
    AnalysisBundle out = std::move(m_products);
    m_products = AnalysisBundle{};
    m_have = {};
    prepareCwnd(false);
    return out;
}

} // namespace windscope::analysis::pipeline
