// SPDX-License-Identifier: GPL-3.0-or-later
// What the desktop app's packet detail pane costs on a capture: Wireshark's first pass
// over the file (paid once per capture, on the pane's worker thread), then the
// re-dissection of single frames deep in it (paid per selected packet).
//
//     windscope-bench-packet-detail CAPTURE [FRAME...]    (default: the last frame,
//                                                          the middle one, the first)

#include "dissectors/wireshark/epan_session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace ws = windscope::dissect::wireshark;

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: windscope-bench-packet-detail CAPTURE [FRAME...]\n");
        return 2;
    }
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point from) {
        return std::chrono::duration<double, std::milli>(Clock::now() - from).count();
    };
    std::string error;
    const auto start = Clock::now();
    auto session = ws::EpanSession::open(argv[1], ws::EpanOptions{}, error);
    if (!session) {
        std::fprintf(stderr, "windscope-bench-packet-detail: %s\n", error.c_str());
        return 1;
    }
    const double openMs = ms(start);
    const std::uint64_t frames = session->frameCount();
    std::printf("%s: %llu frames; first pass (once per capture) %.0f ms\n", argv[1],
                static_cast<unsigned long long>(frames), openMs);
    std::vector<std::uint64_t> wanted;
    for (int i = 2; i < argc; ++i)
        wanted.push_back(std::stoull(argv[i]));
    if (wanted.empty())
        wanted = {frames, frames / 2 + 1, 1};
    for (std::uint64_t frame : wanted) {
        // The median of several runs: the first dissection of a frame warms caches.
        std::vector<double> times;
        std::size_t nodes = 0;
        for (int run = 0; run < 7; ++run) {
            ws::PacketDetail detail;
            const auto t = Clock::now();
            if (!session->dissect(frame, detail, error)) {
                std::fprintf(stderr, "windscope-bench-packet-detail: %s\n", error.c_str());
                return 1;
            }
            times.push_back(ms(t));
            nodes = detail.tree.size();
        }
        const double first = times.front();
        std::sort(times.begin(), times.end());
        std::printf("frame %llu: tree of %zu protocols, dissected in %.3f ms (median of 7, first %.3f ms)\n",
                    static_cast<unsigned long long>(frame), nodes, times[3], first);
    }
    return 0;
}
