// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_loader.h"

#include "analysis/store/project_store.h"

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
    if (!m_projectPath.isEmpty()) {
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

void CaptureLoader::setProjectSource(const QString& projectPath, qint64 captureId, bool acceptStale)
{
    m_projectPath = projectPath;
    m_captureId = captureId;
    m_acceptStale = acceptStale;
}

// Runs on the worker: its own connection to the project (one per thread).
bool CaptureLoader::loadFromProject()
{
    namespace store = analysis::store;
    std::string error;
    auto project = store::ProjectStore::open(m_projectPath.toStdString(), error);
    store::CaptureRecord record;
    if (!project || !project->findCapture(std::to_string(m_captureId), record, error)) {
        m_error = QString::fromStdString(error);
        return false;
    }
    // Hashes the file only when its size or time changed.
    const store::CaptureStatus status = project->checkCapture(record);
    m_staleStatus = QString::fromLatin1(store::captureStatusName(status));
    if (status != store::CaptureStatus::Ok && !m_acceptStale) {
        m_error = status == store::CaptureStatus::Moved
                      ? tr("%1 is no longer there (moved, renamed or deleted) since it was added to the project.")
                            .arg(m_path)
                      : tr("%1 changed since it was analysed: its content is not the one the project cached.")
                            .arg(m_path);
        return false;
    }
    if (!record.cached) {
        m_error = tr("%1: the project holds no cached results for it that this Windscope can read; "
                     "re-analyse it.").arg(m_path);
        m_staleStatus = QStringLiteral("uncached");
        return false;
    }
    namespace pl = analysis::pipeline;
    pl::AnalysisBundle products;
    if (!project->loadResults(record.id, store::kOverviewCacheParts, products, error)) {
        m_error = QString::fromStdString(error);
        return false;
    }
    // The tables can show while the columns load; the view gets its own copy, the
    // worker goes on filling this one.
    QMetaObject::invokeMethod(
        this, [this, shown = std::make_shared<const CaptureAnalysis>(std::make_shared<const pl::CapturePipeline>(products))] {
            emit overviewLoaded(shown);
        },
        Qt::QueuedConnection);
    // Any stage past Reading: reportProgress() tells the column step by it.
    m_stage = static_cast<int>(AnalysisStage::Tcp);
    if (m_cancel) {
        m_wasCancelled = true;
        return false;
    }
    // The column parts load side by side, each on a connection of its own.
    if (!project->loadResults(record.id, store::kDetailCacheParts, products, error, 2)) {
        m_error = QString::fromStdString(error);
        return false;
    }
    // Every product cached, the cwnd of each connection with them: nothing is recomputed.
    auto overview = std::make_shared<CaptureAnalysis>(std::make_shared<const pl::CapturePipeline>(std::move(products)));
    m_fromCache = true;
    m_result = std::move(overview);
    return true;
}

void CaptureLoader::run()
{
    if (!m_projectPath.isEmpty()) {
        m_stage = static_cast<int>(AnalysisStage::Reading);
        if (loadFromProject())
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
    m_thread->deleteLater();
    m_thread = nullptr;
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
