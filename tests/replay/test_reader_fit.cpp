// SPDX-License-Identifier: GPL-3.0-or-later
// The reader fit on hand-made exchanges: flights of segments reach a receiver whose
// application reads up to R bytes a call and is then busy 1 ms + p per byte; the
// receiver ACKs every second segment before its application reads (as Linux and ns-3
// do) and advertises its free space in whole segments.

#include "analysis/replay/derive/reader_fit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

namespace windscope::analysis::replay {
namespace {

constexpr std::uint32_t kMss = 1448;
constexpr std::uint64_t kBuffer = 24 * kMss + 700;

// 300 flights of `flight` segments 2 ms apart (a 5.8 Mb/s path), one every 100 ms; readBytes 0: an
// application that takes each segment as it comes.
ReaderFitInput exchange(int flight, std::uint64_t readBytes, double perByteUs)
{
    ReaderFitInput in;
    in.mss = kMss;
    std::int64_t readPtr = 0, received = 0, busyUntil = 0;
    const auto readAt = [&](std::int64_t now) {
        const std::int64_t k = std::min<std::int64_t>(received - readPtr, static_cast<std::int64_t>(readBytes));
        readPtr += k;
        busyUntil = now + static_cast<std::int64_t>((1000 + static_cast<double>(k) * perByteUs) * 1000);
    };
    for (int f = 0; f < 300; ++f)
        for (int i = 0; i < flight; ++i) {
            const std::int64_t ns = f * 100'000'000LL + i * 2'000'000LL;
            // The reads the application began before this arrival, each as the last ended.
            while (readBytes > 0 && readPtr < received && busyUntil <= ns)
                readAt(busyUntil);
            received += kMss;
            in.arrivals.emplace_back(ns, received);
            if (readBytes == 0)
                readPtr = received - kMss; // every earlier segment, read as it came
            if (i % 2 == 1) {
                const std::uint64_t free = kBuffer - static_cast<std::uint64_t>(received - readPtr);
                in.acks.push_back({ns, received, free / kMss * kMss});
            }
            if (readBytes > 0 && busyUntil <= ns)
                readAt(ns); // an idle application takes what came, after the ACK
            if (i == flight - 1 && i % 2 == 0) {
                // The odd last segment: ACKed when the delayed-ACK timer runs out.
                const std::int64_t timerNs = ns + 40'000'000LL;
                while (readBytes > 0 && readPtr < received && busyUntil <= timerNs)
                    readAt(busyUntil);
                if (readBytes == 0)
                    readPtr = received;
                const std::uint64_t free = kBuffer - static_cast<std::uint64_t>(received - readPtr);
                in.acks.push_back({timerNs, received, free / kMss * kMss});
            }
        }
    return in;
}

TEST(ReaderFit, AReaderThatLagsWithinEachFlightIsReadFromItsBacklogs)
{
    // 4 kB reads at 4 us a byte: 1.885 Mb/s when data waits, above the flights' 1.39,
    // so it catches up between them and never holds the window below half.
    const ReaderFit fit = fitReader(exchange(13, 4096, 4.0));
    ASSERT_TRUE(fit.found) << fit.meanErrorBytes << " against " << fit.keepsUpErrorBytes;
    const double truth = 4096 * 8 / (1000 + 4096 * 4.0) * 1e6;
    EXPECT_NEAR(fit.drainBps(), truth, 0.15 * truth);
    EXPECT_LE(fit.slowestBps, fit.drainBps() * (1 + 1e-9));
    EXPECT_GE(fit.fastestBps, fit.drainBps() * (1 - 1e-9));
}

TEST(ReaderFit, AnApplicationThatKeepsUpIsNotTakenForASlowReader)
{
    const ReaderFit fit = fitReader(exchange(13, 0, 0));
    EXPECT_FALSE(fit.found) << fit.readBytes << " B at " << fit.drainBps() << " b/s";
    EXPECT_LT(fit.keepsUpErrorBytes, kMss / 2.0);
}

} // namespace
} // namespace windscope::analysis::replay
