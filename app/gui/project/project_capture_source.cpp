// SPDX-License-Identifier: GPL-3.0-or-later
#include "project_capture_source.h"

#include "analysis/store/project_store.h"

#include <QCoreApplication>

namespace windscope::gui {

ProjectCaptureSource::ProjectCaptureSource(QString projectPath, qint64 captureId, QString capturePath,
                                           bool acceptStale)
    : m_projectPath(std::move(projectPath)), m_captureId(captureId), m_capturePath(std::move(capturePath)),
      m_acceptStale(acceptStale)
{
}

// Runs on the loader's worker: its own connection to the project (one per thread).
bool ProjectCaptureSource::load(analysis::pipeline::AnalysisBundle& products,
                                const std::function<bool()>& overviewReady, QString& error, QString& staleStatus)
{
    namespace store = analysis::store;
    std::string message;
    auto project = store::ProjectStore::open(m_projectPath.toStdString(), message);
    store::CaptureRecord record;
    if (!project || !project->findCapture(std::to_string(m_captureId), record, message)) {
        error = QString::fromStdString(message);
        return false;
    }
    // Hashes the file only when its size or time changed.
    const store::CaptureStatus status = project->checkCapture(record);
    staleStatus = QString::fromLatin1(store::captureStatusName(status));
    if (status != store::CaptureStatus::Ok && !m_acceptStale) {
        error = status == store::CaptureStatus::Moved
                      ? QCoreApplication::translate("CaptureLoader", "%1 is no longer there (moved, renamed or deleted) since it was added to the project.")
                            .arg(m_capturePath)
                      : QCoreApplication::translate("CaptureLoader", "%1 changed since it was analysed: its content is not the one the project cached.")
                            .arg(m_capturePath);
        return false;
    }
    if (!record.cached) {
        error = QCoreApplication::translate("CaptureLoader", "%1: the project holds no cached results for it that this Windscope can read; "
                     "re-analyse it.").arg(m_capturePath);
        staleStatus = QStringLiteral("uncached");
        return false;
    }
    if (!project->loadResults(record.id, store::kOverviewCacheParts, products, message)) {
        error = QString::fromStdString(message);
        return false;
    }
    if (!overviewReady())
        return false;
    // The column parts (the cwnd among them) load side by side, each on a connection of
    // its own.
    if (!project->loadResults(record.id, store::kDetailCacheParts, products, message, 2)) {
        error = QString::fromStdString(message);
        return false;
    }
    return true;
}

} // namespace windscope::gui
