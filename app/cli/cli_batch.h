// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli batch PATH... --project OUT.wsproj [--jobs N] [--json]: every capture
// under the paths into one project, incrementally (docs/batch.md).
int runBatch(const std::vector<std::string>& args);

} // namespace windscope::cli
