// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <string>
#include <vector>

class QGuiApplication;

namespace windscope::cli {

// windscope-cli export figure|series|report FILE ...: the desktop application's figures
// (drawn by its plot code on Qt's offscreen platform), the plotted series as CSV, and
// reports as HTML or PDF.
int runExport(const std::vector<std::string>& args);

// Fonts and image writers need a QGuiApplication; without a platform chosen it runs on
// the offscreen one, so figures are drawn on a server with no display. Keep it alive
// while drawing.
class FigureApplication
{
public:
    FigureApplication();
    ~FigureApplication();

private:
    std::unique_ptr<QGuiApplication> m_app;
};

} // namespace windscope::cli
