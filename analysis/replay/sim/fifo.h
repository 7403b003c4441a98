// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A first-in first-out queue on one growing ring buffer: packets waiting in a delay
// line or a receive ring come and go by the hundred thousand, and std::deque would
// allocate and free a block every few of them.

#include <cstddef>
#include <utility>
#include <vector>

namespace windscope::analysis::replay {

template <typename T>
class Fifo
{
public:
    bool empty() const { return m_count == 0; }
    std::size_t size() const { return m_count; }
    void push_back(const T& value)
    {
        if (m_count == m_ring.size())
            grow();
        m_ring[(m_head + m_count) % m_ring.size()] = value;
        ++m_count;
    }
    T& front() { return m_ring[m_head]; }
    void pop_front()
    {
        m_head = (m_head + 1) % m_ring.size();
        --m_count;
    }

private:
    void grow()
    {
        std::vector<T> bigger(m_ring.empty() ? 16 : 2 * m_ring.size());
        for (std::size_t i = 0; i < m_count; ++i)
            bigger[i] = std::move(m_ring[(m_head + i) % m_ring.size()]);
        m_ring.swap(bigger);
        m_head = 0;
    }

    std::vector<T> m_ring;
    std::size_t m_head = 0, m_count = 0;
};

} // namespace windscope::analysis::replay
