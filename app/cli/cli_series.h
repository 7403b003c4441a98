// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli series FILE --flow F [--bin MS]: the series the desktop plots of a
// connection are drawn from, as long-format CSV (analysis::writeSeriesCsv).
int runSeries(const std::vector<std::string>& args);

} // namespace windscope::cli
