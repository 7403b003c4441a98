// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the text of a replay scenario file through scenarioFromJson
// (analysis/replay/scenario/scenario_json.cpp).
#include "fuzz_decoders.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string broken = windscope::fuzz::fuzzScenario(data, size);
    if (!broken.empty()) {
        std::fprintf(stderr, "fuzz_scenario: invariant broken: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
