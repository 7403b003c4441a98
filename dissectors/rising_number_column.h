// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A column of 64-bit numbers that rise with the row (frame numbers, row indices,
// capture-relative times in ns) in 4 bytes per row: their high 32 bits change at most
// once per 4 Gi (4.3 s of nanoseconds), so the column keeps the low halves and,
// sparsely, the rows from which each other high half applies. Any sequence of values
// round-trips (signed values as their two's-complement bits); only a rising one is
// compact.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace windscope::dissect {

// Where a high half other than the previous row's starts.
struct RisingNumberHighStart
{
    std::uint64_t row = 0;
    std::uint32_t high = 0;
    bool operator==(const RisingNumberHighStart&) const = default;
};

template <typename Value> class BasicRisingNumberColumn
{
    static_assert(std::is_same_v<Value, std::uint64_t> || std::is_same_v<Value, std::int64_t>);

public:
    using value_type = Value;
    using HighStart = RisingNumberHighStart;

    class const_iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Value;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Value;

        const_iterator() = default;
        const_iterator(const BasicRisingNumberColumn* column, std::size_t row) : m_column(column), m_row(row) {}
        Value operator*() const { return (*m_column)[m_row]; }
        Value operator[](difference_type n) const { return (*m_column)[m_row + static_cast<std::size_t>(n)]; }
        const_iterator& operator++() { ++m_row; return *this; }
        const_iterator operator++(int) { const_iterator old = *this; ++m_row; return old; }
        const_iterator& operator--() { --m_row; return *this; }
        const_iterator operator--(int) { const_iterator old = *this; --m_row; return old; }
        const_iterator& operator+=(difference_type n) { m_row = static_cast<std::size_t>(static_cast<difference_type>(m_row) + n); return *this; }
        const_iterator& operator-=(difference_type n) { return *this += -n; }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b)
        {
            return static_cast<difference_type>(a.m_row) - static_cast<difference_type>(b.m_row);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.m_row == b.m_row; }
        friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.m_row <=> b.m_row; }

    private:
        const BasicRisingNumberColumn* m_column = nullptr;
        std::size_t m_row = 0;
    };

    Value operator[](std::size_t row) const
    {
        const std::uint64_t low = m_low[row];
        if (m_highStarts.empty())
            return static_cast<Value>(low);
        const auto after = std::upper_bound(m_highStarts.begin(), m_highStarts.end(), row,
                                            [](std::uint64_t r, const HighStart& s) { return r < s.row; });
        const std::uint64_t high = after == m_highStarts.begin() ? 0 : std::prev(after)->high;
        return static_cast<Value>(high << 32 | low);
    }
    void push_back(Value signedValue)
    {
        const auto value = static_cast<std::uint64_t>(signedValue);
        const auto high = static_cast<std::uint32_t>(value >> 32);
        const std::uint32_t previous = m_highStarts.empty() ? 0 : m_highStarts.back().high;
        if (high != previous)
            m_highStarts.push_back({m_low.size(), high});
        m_low.push_back(static_cast<std::uint32_t>(value));
    }
    std::size_t size() const { return m_low.size(); }
    bool empty() const { return m_low.empty(); }
    void reserve(std::size_t rows) { m_low.reserve(rows); }
    std::size_t capacity() const { return m_low.capacity(); }
    void clear()
    {
        m_low.clear();
        m_highStarts.clear();
    }
    Value front() const { return (*this)[0]; }
    Value back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }
    bool operator==(const BasicRisingNumberColumn&) const = default;

    // The stored parts, for serialization.
    const std::vector<std::uint32_t>& lowHalves() const { return m_low; }
    const std::vector<HighStart>& highStarts() const { return m_highStarts; }
    // Rebuilds a column from its parts; false if they do not describe one (high starts
    // not strictly ascending within the rows, or repeating the previous high half).
    bool assign(std::vector<std::uint32_t> low, std::vector<HighStart> highStarts)
    {
        std::uint32_t previous = 0;
        for (std::size_t i = 0; i < highStarts.size(); ++i) {
            if (highStarts[i].row >= low.size() || (i > 0 && highStarts[i].row <= highStarts[i - 1].row) ||
                highStarts[i].high == previous)
                return false;
            previous = highStarts[i].high;
        }
        m_low = std::move(low);
        m_highStarts = std::move(highStarts);
        return true;
    }

private:
    std::vector<std::uint32_t> m_low;
    std::vector<HighStart> m_highStarts;
};

// Frame numbers and row indices.
using RisingNumberColumn = BasicRisingNumberColumn<std::uint64_t>;
// Capture-relative times in ns: rising in capture order, though a capture may step back.
using RisingTimeColumn = BasicRisingNumberColumn<std::int64_t>;

} // namespace windscope::dissect
