// SPDX-License-Identifier: GPL-3.0-or-later
#include "seen_bytes.h"

#include <algorithm>

namespace windscope::analysis {

void SeenBytes::add(std::int64_t from, std::int64_t length)
{
    if (length <= 0)
        return;
    std::int64_t to = from + length;
    if (m_end == std::numeric_limits<std::int64_t>::min()) {
        m_end = to;
        m_total = static_cast<std::uint64_t>(length);
        return;
    }
    if (from > m_end) {
        if (m_holes.size() == kMaxHoles)
            m_holes.erase(m_holes.begin());
        m_holes.emplace_back(m_end, from);
        m_total += static_cast<std::uint64_t>(length);
        m_end = to;
        return;
    }
    if (to > m_end) {
        m_total += static_cast<std::uint64_t>(to - m_end);
        std::swap(to, m_end); // the part below the old end may fill holes
    }
    fill(from, to);
}

void SeenBytes::fill(std::int64_t from, std::int64_t to)
{
    // The first hole that ends after from.
    auto it = std::upper_bound(m_holes.begin(), m_holes.end(), from,
                               [](std::int64_t value, const auto& hole) { return value < hole.second; });
    while (it != m_holes.end() && it->first < to) {
        const std::int64_t lo = std::max(it->first, from), hi = std::min(it->second, to);
        m_total += static_cast<std::uint64_t>(hi - lo);
        if (lo == it->first && hi == it->second) {
            it = m_holes.erase(it);
        } else if (lo == it->first) {
            it->first = hi;
            ++it;
        } else if (hi == it->second) {
            it->second = lo;
            ++it;
        } else {
            const std::pair<std::int64_t, std::int64_t> upper{hi, it->second};
            it->second = lo;
            it = m_holes.insert(it + 1, upper);
            ++it;
        }
    }
}

} // namespace windscope::analysis
