// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_loader.h"


#include <QThread>
#include <QTimer>

namespace windscope::gui {

namespace {

class AtomicObserver final : public dissect::IngestObserver
{
public:
    AtomicObserver(std::atomic<bool>& cancel, std::atomic<std::uint64_t>& bytes,
                   std::atomic<std::uint64_t>& size)
        : m_cancel(cancel), m_bytes(bytes), m_size(size)
    {
    }
    void progress(const dissect::IngestProgress& p) override
    {
        m_bytes.store(p.bytesConsumed, std::memory_order_relaxed);
        m_size.store(p.fileSize, std::memory_order_relaxed);
    }
    bool cancelRequested() override { return m_cancel.load(std::memory_order_relaxed); }

private:
    std::atomic<bool>& m_cancel;
    std::atomic<std::uint64_t>& m_bytes;
    std::atomic<std::uint64_t>& m_size;
};

} // namespace

CaptureLoader::CaptureLoader(QString path, QObject* parent) : QObject(parent), m_path(std::move(path))
{
    m_timer = new QTimer(this);
    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, &CaptureLoader::reportProgress);
}

CaptureLoader::~CaptureLoader()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
}

void CaptureLoader::start()
{
    if (m_thread)
        return;
    m_thread = QThread::create([this] { run(); });
    m_thread->setObjectName(QStringLiteral("capture-loader"));
    connect(m_thread, &QThread::finished, this, &CaptureLoader::onThreadFinished);
    m_timer->start();
    m_thread->start();
}

void CaptureLoader::cancel() { m_cancel = true; }

bool CaptureLoader::isRunning() const { return m_thread && m_thread->isRunning(); }

void CaptureLoader::reportProgress()
{
    const auto stage = static_cast<AnalysisStage>(m_stage.load());
    int percent = 0;
    if (m_source) {
        emit progress(stage == AnalysisStage::Reading ? 10 : 50,
                      stage == AnalysisStage::Reading ? tr("Loading the cached tables")
                                                      : tr("Loading the cached packet columns"));
        return;
    }
    if (stage == AnalysisStage::Reading) {
        const std::uint64_t size = m_size.load();
        percent = size ? static_cast<int>(80.0 * static_cast<double>(m_bytes.load()) / static_cast<double>(size)) : 0;
    } else {
        // Reading dominates; the analysis stages share the rest.
        percent = 80 + 4 * static_cast<int>(stage);
    }
    emit progress(std::min(percent, 100), stageName(stage));
}

void CaptureLoader::setCachedSource(std::unique_ptr<CachedProductsSource> source) { m_source = std::move(source); }

// Runs on the worker.
bool CaptureLoader::loadFromSource()
{
    namespace pl = analysis::pipeline;
    pl::AnalysisBundle products;
    const auto overviewReady = [&] {
        // The tables can show while the columns load; the view gets its own copy, the
        // worker goes on filling this one.
        QMetaObject::invokeMethod(
            this,
            [this, shown = std::make_shared<const CaptureAnalysis>(std::make_shared<const pl::CapturePipeline>(products))] {
                emit overviewLoaded(shown);
            },
            Qt::QueuedConnection);
        // Any stage past Reading: reportProgress() tells the column step by it.
        m_stage = static_cast<int>(AnalysisStage::Tcp);
        if (m_cancel)
            m_wasCancelled = true;
        return !m_wasCancelled;
    };
    if (!m_source->load(products, overviewReady, m_error, m_staleStatus))
        return false;
    // Every product cached, the cwnd of each connection with them: nothing is recomputed.
    m_result = std::make_shared<CaptureAnalysis>(std::make_shared<const pl::CapturePipeline>(std::move(products)));
    m_fromCache = true;
    return true;
}

void CaptureLoader::run()
{
    if (m_source) {
        m_stage = static_cast<int>(AnalysisStage::Reading);
        if (loadFromSource())
            m_stage = static_cast<int>(AnalysisStage::Done);
        return;
    }
    AtomicObserver observer(m_cancel, m_bytes, m_size);
    dissect::IngestOptions options;
    options.observer = &observer;
    options.progressInterval = 1u << 14;
    m_result = analyzeCapture(
        m_path, options, [this](AnalysisStage stage) { m_stage = static_cast<int>(stage); },
        [this] { return m_cancel.load(); }, m_error);
    m_wasCancelled = !m_result && m_error.isEmpty();
}

void CaptureLoader::onThreadFinished()
{
    m_timer->stop();
    // The finished thread stays with the loader and goes in its destructor: a deferred
    // delete of its own would leak it when the window closes before the event loop
    // runs again.
    m_thread->wait();
    if (m_wasCancelled)
        emit cancelled();
    else if (!m_result)
        emit failed(m_error.isEmpty() ? tr("%1: could not be read").arg(m_path) : m_error);
    else {
        emit progress(100, stageName(AnalysisStage::Done));
        emit finished(m_result);
    }
}

} // namespace windscope::gui
