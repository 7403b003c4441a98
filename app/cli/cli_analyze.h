// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli analyze FILE [--json | --csv [--segments]] [--low-window BYTES]
int runAnalyze(const std::vector<std::string>& args);

} // namespace windscope::cli
