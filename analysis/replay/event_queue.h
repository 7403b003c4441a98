// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulator's clock and agenda: a binary heap of (time, insertion number) so that
// events at the same nanosecond run in the order they were scheduled, which is what
// makes a run a pure function of its scenario and seed. No wall clock anywhere.

#include <cstdint>
#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

namespace windscope::analysis::replay {

class EventQueue
{
public:
    using Action = std::function<void()>;

    std::int64_t now() const { return m_now; }
    void at(std::int64_t timeNs, Action action)
    {
        m_heap.push_back({timeNs < m_now ? m_now : timeNs, m_counter++, std::move(action)});
        std::push_heap(m_heap.begin(), m_heap.end(), Later{});
    }
    void after(std::int64_t delayNs, Action action) { at(m_now + delayNs, std::move(action)); }
    bool empty() const { return m_heap.empty(); }
    std::uint64_t processed() const { return m_processed; }

    // Runs events up to and including endNs, or until stop() returns true.
    template <typename Stop>
    void run(std::int64_t endNs, Stop stop)
    {
        while (!m_heap.empty() && m_heap.front().timeNs <= endNs) {
            std::pop_heap(m_heap.begin(), m_heap.end(), Later{});
            Item item = std::move(m_heap.back());
            m_heap.pop_back();
            m_now = item.timeNs;
            ++m_processed;
            item.action();
            if (stop())
                return;
        }
    }

private:
    struct Item
    {
        std::int64_t timeNs;
        std::uint64_t order;
        Action action;
    };
    struct Later
    {
        bool operator()(const Item& a, const Item& b) const
        {
            return a.timeNs != b.timeNs ? a.timeNs > b.timeNs : a.order > b.order;
        }
    };
    std::vector<Item> m_heap;
    std::int64_t m_now = 0;
    std::uint64_t m_counter = 0;
    std::uint64_t m_processed = 0;
};

// A restartable timer on the queue: arming again or cancelling makes the earlier
// firing a no-op (generation count), so no event is ever removed from the heap.
class Timer
{
public:
    Timer(EventQueue& queue, std::function<void()> onFire) : m_queue(queue), m_onFire(std::move(onFire)) {}
    void arm(std::int64_t delayNs)
    {
        const std::uint64_t generation = ++m_generation;
        m_armed = true;
        m_deadline = m_queue.now() + delayNs;
        m_queue.at(m_deadline, [this, generation] {
            if (generation != m_generation || !m_armed)
                return;
            m_armed = false;
            m_onFire();
        });
    }
    void cancel()
    {
        ++m_generation;
        m_armed = false;
    }
    bool armed() const { return m_armed; }
    std::int64_t deadline() const { return m_deadline; }

private:
    EventQueue& m_queue;
    std::function<void()> m_onFire;
    std::uint64_t m_generation = 0;
    std::int64_t m_deadline = 0;
    bool m_armed = false;
};

} // namespace windscope::analysis::replay
