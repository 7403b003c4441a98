// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli export figure|series|report FILE ...: the desktop application's figures
// (drawn by its plot code on Qt's offscreen platform), the plotted series as CSV, and
// reports as HTML or PDF.
int runExport(const std::vector<std::string>& args);

} // namespace windscope::cli
