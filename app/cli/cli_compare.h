// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli compare A[:FLOW] B[:FLOW] [--name-a TEXT] [--name-b TEXT] [--json | --csv]
int runCompare(const std::vector<std::string>& args);

} // namespace windscope::cli
