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
        std::uint32_t slot;
        if (m_free.empty()) {
            slot = static_cast<std::uint32_t>(m_actions.size());
            m_actions.push_back(std::move(action));
        } else {
            slot = m_free.back();
            m_free.pop_back();
            m_actions[slot] = std::move(action);
        }
        // The heap holds small plain keys; the actions stay put in their slots.
        m_heap.push_back({timeNs < m_now ? m_now : timeNs, m_counter++, slot});
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
            const Key key = m_heap.back();
            m_heap.pop_back();
            m_now = key.timeNs;
            ++m_processed;
            Action action = std::move(m_actions[key.slot]);
            m_free.push_back(key.slot);
            action();
            if (stop())
                return;
        }
    }

private:
    struct Key
    {
        std::int64_t timeNs;
        std::uint64_t order;
        std::uint32_t slot;
    };
    struct Later
    {
        bool operator()(const Key& a, const Key& b) const
        {
            return a.timeNs != b.timeNs ? a.timeNs > b.timeNs : a.order > b.order;
        }
    };
    std::vector<Key> m_heap;
    std::vector<Action> m_actions;
    std::vector<std::uint32_t> m_free;
    std::int64_t m_now = 0;
    std::uint64_t m_counter = 0;
    std::uint64_t m_processed = 0;
};

// A restartable timer on the queue. Re-arming to a later deadline (an RTO pushed back by
// every ACK) schedules nothing: the pending event finds the deadline moved and waits
// again from there; an earlier deadline or a cancel makes the pending event a no-op
// (generation count). Nothing is ever removed from the heap.
class Timer
{
public:
    Timer(EventQueue& queue, std::function<void()> onFire) : m_queue(queue), m_onFire(std::move(onFire)) {}
    void arm(std::int64_t delayNs)
    {
        m_armed = true;
        m_deadline = m_queue.now() + delayNs;
        if (!m_pending || m_pendingAt > m_deadline)
            schedule(m_deadline);
    }
    void cancel() { m_armed = false; }
    bool armed() const { return m_armed; }
    std::int64_t deadline() const { return m_deadline; }

private:
    void schedule(std::int64_t at)
    {
        const std::uint64_t generation = ++m_generation;
        m_pending = true;
        m_pendingAt = at;
        m_queue.at(at, [this, generation] {
            if (generation != m_generation)
                return;
            m_pending = false;
            if (!m_armed)
                return;
            if (m_queue.now() < m_deadline) {
                schedule(m_deadline);
                return;
            }
            m_armed = false;
            m_onFire();
        });
    }

    EventQueue& m_queue;
    std::function<void()> m_onFire;
    std::uint64_t m_generation = 0;
    std::int64_t m_deadline = 0, m_pendingAt = 0;
    bool m_armed = false, m_pending = false;
};

} // namespace windscope::analysis::replay
