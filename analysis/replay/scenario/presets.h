// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scenarios for the published setups of papers 000-004 (docs/replay.md, "Published
// effects"), so each effect can be re-simulated, edited (--dump-scenario) and
// tested. Each preset's description names the paper and what it measured.

#include "scenario.h"

#include <string>
#include <string_view>
#include <vector>

namespace windscope::analysis::replay {

struct PresetInfo
{
    std::string_view name;
    std::string_view summary;
};

const std::vector<PresetInfo>& presetCatalog();
// False for an unknown name.
bool makePreset(std::string_view name, Scenario& out);

// Building blocks the presets (and scenarios derived from captures) share.
// 802.11a/g OFDM timing (IEEE 802.11-2020 17.4.4): 20 us preamble, 9 us slot, 16 us SIFS.
MacParams ofdmMac(double phyRateMbps, double basicRateMbps);
// 802.11b DSSS/HR-DSSS timing (16.3.4, 15.4.5): long preamble 192 us, 20 us slot,
// 10 us SIFS, CWmin 31.
MacParams dsssMac(double phyRateMbps, double basicRateMbps);

} // namespace windscope::analysis::replay
