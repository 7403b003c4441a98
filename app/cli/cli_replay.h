// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli replay FILE --flow F [--fix NAME[=VALUE]]... [--json]
// windscope-cli replay --scenario FILE.json | --preset NAME [--fix ...] [--json]
// ... [--sweep PARAM=from:to:step] [--dump-scenario PATH|-]
int runReplay(const std::vector<std::string>& args);

} // namespace windscope::cli
