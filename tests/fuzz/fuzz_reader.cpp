// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the input as a capture file through ingestCapture (libpcap, gzip,
// the native pcapng reader, every decoder, the table builder).
#include "fuzz_targets.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const windscope::fuzz::FuzzOutcome outcome = windscope::fuzz::fuzzReader(data, size);
    const std::string broken = windscope::fuzz::checkOutcome(outcome, true);
    if (!broken.empty()) {
        std::fprintf(stderr, "fuzz_reader: invariant broken: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
