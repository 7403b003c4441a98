// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli fleet PROJECT [--json | --csv] [--by station|ap|ssid|capture|day]: what
// Wi-Fi events cost TCP over every capture of a project, grouped and ranked.
int runFleet(const std::vector<std::string>& args);

} // namespace windscope::cli
