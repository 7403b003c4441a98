// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli events FILE [--json | --csv] [--max-scan MS]
int runEvents(const std::vector<std::string>& args);
// windscope-cli correlate FILE [--json | --csv] [--max-scan MS] [--pre MS] [--post MS]
int runCorrelate(const std::vector<std::string>& args);

} // namespace windscope::cli
