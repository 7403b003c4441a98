// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a cached analysis part as the project file stores it (one byte picks
// the part), through its decoder (analysis/store/codec_*.cpp).
#include "fuzz_decoders.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string broken = windscope::fuzz::fuzzCache(data, size);
    if (!broken.empty()) {
        std::fprintf(stderr, "fuzz_cache: invariant broken: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
