// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One worker function run on several threads at once, the calling thread among them;
// the workers share out their items themselves (an atomic counter), so what they
// produce does not depend on how many threads there were.

#include <thread>
#include <vector>

namespace windscope::analysis {

template <class Worker>
void runOnThreads(unsigned threads, Worker&& worker)
{
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back([&worker] { worker(); });
    worker();
    for (std::thread& t : pool)
        t.join();
}

} // namespace windscope::analysis
