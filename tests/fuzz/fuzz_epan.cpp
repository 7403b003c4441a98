// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the input as a capture file through the libwireshark packet path
// (wiretap, the first pass with decryption, re-dissection into tree records, the
// decrypted export read back by the native reader). The module's sources are compiled
// into this program, so its table is taken directly instead of loading the module.
#include "fuzz_epan.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    namespace ws = windscope::dissect::wireshark;
    static const ws::EpanModuleApi& api = *windscope_epan_module_api();
    const std::string broken = windscope::fuzz::fuzzEpan(api, ws::epanIsolation(), data, size);
    if (!broken.empty()) {
        std::fprintf(stderr, "fuzz_epan: invariant broken: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
