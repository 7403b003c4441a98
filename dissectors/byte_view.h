// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>

namespace windscope::dissect {

// A read-only window on captured bytes. Every read is bounds-checked against the
// captured length; callers test has() first and record a malformed annotation
// when it fails, so a short packet never reads past its buffer.
class ByteView
{
public:
    ByteView() = default;
    ByteView(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const std::uint8_t* data() const { return m_data; }

    bool has(std::size_t offset, std::size_t count) const
    {
        return offset <= m_size && count <= m_size - offset;
    }

    // Out-of-range reads return 0; they are a programming error guarded by has().
    std::uint8_t u8(std::size_t o) const { return has(o, 1) ? m_data[o] : 0; }
    std::uint16_t be16(std::size_t o) const
    {
        return has(o, 2) ? static_cast<std::uint16_t>(m_data[o] << 8 | m_data[o + 1]) : 0;
    }
    std::uint16_t le16(std::size_t o) const
    {
        return has(o, 2) ? static_cast<std::uint16_t>(m_data[o + 1] << 8 | m_data[o]) : 0;
    }
    std::uint32_t be32(std::size_t o) const
    {
        if (!has(o, 4))
            return 0;
        return std::uint32_t(m_data[o]) << 24 | std::uint32_t(m_data[o + 1]) << 16 |
               std::uint32_t(m_data[o + 2]) << 8 | std::uint32_t(m_data[o + 3]);
    }
    std::uint32_t le32(std::size_t o) const
    {
        if (!has(o, 4))
            return 0;
        return std::uint32_t(m_data[o + 3]) << 24 | std::uint32_t(m_data[o + 2]) << 16 |
               std::uint32_t(m_data[o + 1]) << 8 | std::uint32_t(m_data[o]);
    }
    std::uint64_t le64(std::size_t o) const
    {
        return has(o, 8) ? (std::uint64_t(le32(o + 4)) << 32 | le32(o)) : 0;
    }
    std::uint64_t be64(std::size_t o) const
    {
        return has(o, 8) ? (std::uint64_t(be32(o)) << 32 | be32(o + 4)) : 0;
    }

    // The bytes from offset to the end; empty when offset is past the end.
    ByteView from(std::size_t offset) const
    {
        return offset <= m_size ? ByteView(m_data + offset, m_size - offset) : ByteView();
    }
    // At most count bytes from offset (clipped to what was captured).
    ByteView sub(std::size_t offset, std::size_t count) const
    {
        ByteView rest = from(offset);
        return ByteView(rest.m_data, count < rest.m_size ? count : rest.m_size);
    }

private:
    const std::uint8_t* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace windscope::dissect
