// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: one frame through a link-layer decoder and the table builder.
// Input: 2-byte little-endian link type selector, then the frame (see fuzz_targets.h).
#include "fuzz_targets.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const windscope::fuzz::FuzzOutcome outcome = windscope::fuzz::fuzzDissectors(data, size);
    const std::string broken = windscope::fuzz::checkOutcome(outcome, false);
    if (!broken.empty()) {
        // An inconsistent table is a bug even without a memory error: make it a crash
        // so libFuzzer keeps the input.
        std::fprintf(stderr, "fuzz_dissectors: invariant broken (link type %d): %s\n",
                     outcome.linkType, broken.c_str());
        std::abort();
    }
    return 0;
}
