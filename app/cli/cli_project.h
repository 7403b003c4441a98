// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli project create|add|list|show|events|annotate|notes|remove P.wsproj ...
int runProject(const std::vector<std::string>& args);

} // namespace windscope::cli
