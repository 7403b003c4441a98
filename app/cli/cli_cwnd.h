// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli cwnd FILE --flow F [--csv | --json] [--model NAME]
int runCwnd(const std::vector<std::string>& args);

} // namespace windscope::cli
