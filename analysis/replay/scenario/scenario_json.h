// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scenario <-> JSON. The file is indented, one parameter per line, keys in snake_case
// with their unit in the name (`wired_delay_ms`), so it can be edited by hand. Reading
// rejects unknown keys (a misspelt parameter would otherwise be silently ignored);
// missing keys keep their defaults.

#include "scenario.h"

#include <string>

namespace windscope::analysis::replay {

std::string scenarioToJson(const Scenario& scenario);
bool scenarioFromJson(const std::string& text, Scenario& out, std::string& error);
bool readScenarioFile(const std::string& path, Scenario& out, std::string& error);

} // namespace windscope::analysis::replay
