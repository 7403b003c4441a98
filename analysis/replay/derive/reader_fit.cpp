// SPDX-License-Identifier: GPL-3.0-or-later
#include "reader_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace windscope::analysis::replay {

namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// Windows come in steps of a segment where the receiver rounds its free space down to
// whole segments (Linux without window scaling), else to the byte.
std::uint64_t windowStep(const ReaderFitInput& in)
{
    for (const ReaderFitInput::Ack& a : in.acks)
        if (a.window % in.mss != 0)
            return 1;
    return in.mss;
}

// A reader's pace when data waits, one full read after another (a read takes at most
// what the largest window let in), in b/s.
double drainBpsOf(std::uint64_t readBytes, std::uint64_t largestWindow, double readFixedUs, double readPerByteUs)
{
    const auto bytes = static_cast<double>(std::min(readBytes, largestWindow));
    const double us = readFixedUs + bytes * readPerByteUs;
    return us > 0 ? bytes * 8 / us * 1e6 : 0;
}

} // namespace

double ReaderFit::drainBps() const
{
    return drainBpsOf(readBytes, largestWindow, readFixedUs, readPerByteUs);
}

namespace {

double windowError(const ReaderFitInput& in, std::uint64_t step, std::uint64_t readBytes, double readFixedUs,
                   double readPerByteUs, int hiddenSteps)
{
    if (in.acks.empty())
        return 0;
    std::uint64_t largest = 0;
    std::int64_t readPtr = in.acks.front().ack, readable = readPtr, busyUntil = -1;
    std::size_t next = 0;
    while (next < in.arrivals.size() && in.arrivals[next].second <= readPtr)
        ++next;
    const auto readAt = [&](std::int64_t now) {
        if (readable <= readPtr || busyUntil > now)
            return;
        const auto k = readBytes == 0 ? readable - readPtr
                                      : std::min<std::int64_t>(readable - readPtr, static_cast<std::int64_t>(readBytes));
        readPtr += k;
        busyUntil = now + static_cast<std::int64_t>((readFixedUs + static_cast<double>(k) * readPerByteUs) * 1000);
    };
    double error = 0;
    for (const ReaderFitInput::Ack& a : in.acks) {
        // Arrivals and reads before the ACK: a stack ACKs a segment before its
        // application can read it (Linux wakes the reader after the softirq that ACKs).
        for (;;) {
            const std::int64_t arrival = next < in.arrivals.size() ? in.arrivals[next].first : kNever;
            const std::int64_t wake = busyUntil > 0 && readable > readPtr ? busyUntil : kNever;
            const std::int64_t now = std::min(arrival, wake);
            if (now >= a.ns)
                break;
            if (arrival == now)
                readable = std::max(readable, in.arrivals[next++].second);
            readAt(now);
        }
        // What the ACK covers has come by its time at the latest: an idle reader
        // takes it from then, not from when it went idle.
        if (a.ack > readable && readable <= readPtr)
            busyUntil = std::max(busyUntil, a.ns);
        readable = std::max(readable, a.ack);
        // The buffer: the largest window offered up to then (autotuning only raises
        // it), plus half the rounding the step hides, plus the steps hidden by what was
        // always unread when the receiver ACKed.
        largest = std::max(largest, a.window);
        const std::uint64_t buffer = largest + step / 2 + static_cast<std::uint64_t>(hiddenSteps) * step;
        const auto windowFor = [&](std::int64_t readTo) {
            const std::uint64_t backlog = a.ack > readTo ? static_cast<std::uint64_t>(a.ack - readTo) : 0;
            const std::uint64_t free = buffer > backlog ? buffer - backlog : 0;
            return std::min(largest, free / step * step);
        };
        // An ACK the data drew leaves before the reader takes that data; one a read
        // drew (a window update) after it: an idle reader may read what came with it.
        const auto seen = static_cast<double>(a.window);
        double e = std::fabs(static_cast<double>(windowFor(readPtr)) - seen);
        if (busyUntil <= a.ns && a.ack > readPtr) {
            const auto k = readBytes == 0 ? a.ack - readPtr
                                          : std::min<std::int64_t>(a.ack - readPtr, static_cast<std::int64_t>(readBytes));
            const double after = std::fabs(static_cast<double>(windowFor(readPtr + k)) - seen);
            if (after < e) {
                e = after;
                readAt(a.ns);
            }
        }
        error += e;
        // Each ACK then sets the backlog to what its window shows (within the step it
        // rounds to), so that a reader a little slower than the data does not pile up
        // a backlog the real one never had: each ACK judges the pace since the last.
        const auto shown = static_cast<std::int64_t>(buffer) - static_cast<std::int64_t>(a.window);
        const std::int64_t lowest = a.ack - shown; // the most unread the window allows
        const std::int64_t highest =
            a.window >= largest ? a.ack : std::min(a.ack, lowest + static_cast<std::int64_t>(step) - 1);
        readPtr = std::clamp(readPtr, std::min(lowest, highest), highest);
    }
    return error / static_cast<double>(in.acks.size());
}

} // namespace

double readerWindowError(const ReaderFitInput& in, std::uint64_t readBytes, double readFixedUs, double readPerByteUs,
                         int hiddenSteps)
{
    return windowError(in, windowStep(in), readBytes, readFixedUs, readPerByteUs, hiddenSteps);
}

ReaderFit fitReader(const ReaderFitInput& in)
{
    ReaderFit fit;
    fit.acks = in.acks.size();
    if (in.acks.empty() || in.arrivals.empty())
        return fit;
    std::uint64_t largest = 0;
    for (const ReaderFitInput::Ack& a : in.acks)
        largest = std::max(largest, a.window);
    const std::uint64_t windowSteps = windowStep(in);
    const auto step = static_cast<double>(windowSteps);
    fit.largestWindow = largest;
    fit.readFixedUs = in.readFixedUs;
    fit.keepsUpErrorBytes = windowError(in, windowSteps, 0, 0, 0, 0);
    // No reader can explain more than the windows leave unexplained by one that keeps
    // up: within a tenth of a step of it there is nothing to find (nor to search).
    if (fit.keepsUpErrorBytes <= step / 10)
        return fit;
    // Read sizes from a quarter of a kilobyte (an application's small buffer) up to the
    // whole buffer (a read that takes all there is), in steps of 2; rates per byte
    // from 0.1 to 1000 Mb/s in steps of 1.25; then the neighbourhoods of the best few
    // in finer steps (the error has more than one valley: a small read at a fast pace
    // per byte can mimic a large one at a slow pace).
    struct Candidate
    {
        double error;
        std::uint64_t readBytes;
        double mbps;
        int hiddenSteps;
    };
    std::vector<Candidate> tried;
    const auto tryOne = [&](std::uint64_t readBytes, double mbps, int hidden) {
        tried.push_back({windowError(in, windowSteps, readBytes, in.readFixedUs, 8 / mbps, hidden), readBytes, mbps, hidden});
    };
    std::vector<std::uint64_t> sizes;
    for (double r = 256; r < static_cast<double>(largest); r *= 2)
        sizes.push_back(static_cast<std::uint64_t>(r));
    sizes.push_back(std::max<std::uint64_t>(largest, 1));
    // A data-drawn ACK leaves before the reader takes the segment that drew it, so a
    // receiver that only ACKs so never shows its whole buffer: one more step is tried.
    for (int hidden : {0, 1})
        for (std::uint64_t r : sizes)
            for (double mbps = 0.1; mbps <= 1000; mbps *= 1.25)
                tryOne(r, mbps, hidden);
    std::vector<Candidate> coarse = tried;
    std::sort(coarse.begin(), coarse.end(), [](const Candidate& x, const Candidate& y) { return x.error < y.error; });
    constexpr std::size_t kStarts = 4;
    for (std::size_t i = 0; i < std::min(kStarts, coarse.size()); ++i) {
        const Candidate start = coarse[i];
        for (double f : {0.7071, 0.8409, 1.0, 1.1892, 1.4142}) {
            const auto r = static_cast<std::uint64_t>(std::llround(static_cast<double>(start.readBytes) * f));
            if (r < 128 || r > std::max<std::uint64_t>(largest, 1))
                continue;
            for (double mbps = start.mbps / 1.25; mbps <= start.mbps * 1.25; mbps *= 1.03)
                tryOne(r, mbps, start.hiddenSteps);
        }
    }
    const auto drainOf = [&](const Candidate& c) {
        return drainBpsOf(c.readBytes, largest, in.readFixedUs, 8 / c.mbps);
    };
    double least = std::numeric_limits<double>::max();
    for (const Candidate& c : tried)
        least = std::min(least, c.error);
    // The paces the windows allow: those of the readers within one window step
    // misread in twenty ACKs of the best. Where the reader caught up between lags, a
    // faster one leaves much the same backlogs, so the span can be wide.
    const double tolerance = step / 20;
    fit.slowestBps = std::numeric_limits<double>::max();
    fit.fastestBps = 0;
    for (const Candidate& c : tried)
        if (c.error <= least + tolerance) {
            fit.slowestBps = std::min(fit.slowestBps, drainOf(c));
            fit.fastestBps = std::max(fit.fastestBps, drainOf(c));
        }
    // The reader kept, of those that match the windows about as well as the best: the
    // one that reads the most a call (an application's read takes what is there, up to
    // its buffer; smaller reads only add calls the windows do not show), and of those
    // the slowest (where the reader caught up between lags, a faster one only hides
    // more of its pace).
    const Candidate* chosen = nullptr;
    for (const Candidate& c : tried)
        if (c.error <= least + tolerance &&
            (!chosen || c.readBytes > chosen->readBytes ||
             (c.readBytes == chosen->readBytes && drainOf(c) < drainOf(*chosen))))
            chosen = &c;
    fit.readBytes = chosen->readBytes;
    fit.readPerByteUs = 8 / chosen->mbps;
    fit.meanErrorBytes = chosen->error;
    // Found where the fitted reader explains more than half of what a reader keeping up
    // leaves unexplained, and more than a window step at one ACK in ten.
    fit.found = 2 * fit.meanErrorBytes < fit.keepsUpErrorBytes && fit.keepsUpErrorBytes - fit.meanErrorBytes > step / 10;
    return fit;
}

} // namespace windscope::analysis::replay
