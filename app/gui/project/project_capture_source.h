// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A capture's products from a project's cache instead of its file, for CaptureLoader:
// the one place the loader's work touches the project file (the store library).

#include "model/capture_loader.h"

namespace windscope::gui {

class ProjectCaptureSource final : public CachedProductsSource
{
public:
    // acceptStale: load even when the file changed or moved since it was cached.
    ProjectCaptureSource(QString projectPath, qint64 captureId, QString capturePath, bool acceptStale);
    bool load(analysis::pipeline::AnalysisBundle& products, const std::function<bool()>& overviewReady,
              QString& error, QString& staleStatus) override;

private:
    QString m_projectPath;
    qint64 m_captureId = 0;
    QString m_capturePath;
    bool m_acceptStale = false;
};

} // namespace windscope::gui
