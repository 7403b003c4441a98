// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the dissector unit tests: byte builder, recording hooks, decode, ingest.

#include "test_support.h"

#include "dissectors/dissector_set.h"
#include "dissectors/ingest.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

namespace windscope::test {

// Hand-built packet bytes. u16/u32/u64 follow bigEndian; le16/le32/le64 are always
// little-endian.
struct Bytes
{
    std::vector<std::uint8_t> v;
    bool bigEndian = false;

    Bytes() = default;
    Bytes(std::initializer_list<unsigned> list) { raw(list); }

    Bytes& u8(unsigned x)
    {
        v.push_back(static_cast<std::uint8_t>(x));
        return *this;
    }
    Bytes& u16(unsigned x)
    {
        return bigEndian ? u8(x >> 8 & 0xff).u8(x & 0xff) : u8(x & 0xff).u8(x >> 8 & 0xff);
    }
    Bytes& u32(std::uint32_t x)
    {
        return bigEndian ? u16(x >> 16).u16(x & 0xffff) : u16(x & 0xffff).u16(x >> 16);
    }
    Bytes& u64(std::uint64_t x)
    {
        const auto hi = static_cast<std::uint32_t>(x >> 32), lo = static_cast<std::uint32_t>(x);
        return bigEndian ? u32(hi).u32(lo) : u32(lo).u32(hi);
    }
    Bytes& le16(unsigned x) { return u8(x & 0xff).u8(x >> 8 & 0xff); }
    Bytes& le32(std::uint32_t x) { return le16(x & 0xffff).le16(x >> 16); }
    Bytes& le64(std::uint64_t x)
    {
        return le32(static_cast<std::uint32_t>(x)).le32(static_cast<std::uint32_t>(x >> 32));
    }
    Bytes& raw(std::initializer_list<unsigned> list)
    {
        for (unsigned x : list)
            u8(x);
        return *this;
    }
    Bytes& zeros(std::size_t n) { return fill(n, 0); }
    Bytes& fill(std::size_t n, std::uint8_t value)
    {
        v.insert(v.end(), n, value);
        return *this;
    }
    Bytes& append(const Bytes& other)
    {
        v.insert(v.end(), other.v.begin(), other.v.end());
        return *this;
    }
    // The first n bytes.
    Bytes prefix(std::size_t n) const
    {
        Bytes b;
        b.v.assign(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
        return b;
    }
    std::size_t size() const { return v.size(); }
    dissect::ByteView view() const { return dissect::ByteView(v.data(), v.size()); }
};

// What the last recording hook was given; decodeFrame() and freshFrame() clear it.
struct Delivered
{
    int calls = 0;         // calls of any recording hook
    std::uint32_t key = 0; // the EtherType, or linkTypeKey() of a link type
    std::size_t size = 0;
    std::uint8_t first = 0;
};
inline Delivered g_delivered;

constexpr std::uint32_t linkTypeKey(int linkType)
{
    return 1000u + static_cast<std::uint32_t>(linkType);
}

template <std::uint32_t Key>
void record(const dissect::DissectorSet&, dissect::ByteView b, dissect::Frame&)
{
    ++g_delivered.calls;
    g_delivered.key = Key;
    g_delivered.size = b.size();
    g_delivered.first = b.u8(0);
}

// The given protocols, with recording hooks for IPv4, IPv6 and AARP EtherTypes and for
// the Ethernet link type in place of the real decoders.
inline dissect::DissectorSet
recordingSet(std::initializer_list<void (*)(dissect::DissectorSet&)> protocols)
{
    dissect::DissectorSet set;
    for (auto registerProtocol : protocols)
        registerProtocol(set);
    set.etherTypes.add(0x0800, record<0x0800>);
    set.etherTypes.add(0x86dd, record<0x86dd>);
    set.etherTypes.add(0x80f3, record<0x80f3>);
    set.linkTypes.add(dissect::linktype::kEthernet,
                      record<linkTypeKey(dissect::linktype::kEthernet)>);
    return set;
}

// A frame of the given size, ready for a decoder; originalLength 0 means "not cut".
inline dissect::Frame freshFrame(std::size_t size, int linkType, std::uint32_t originalLength = 0)
{
    g_delivered = {};
    dissect::Frame f;
    const auto captured = static_cast<std::uint32_t>(size);
    f.reset(1, 0, captured, originalLength ? originalLength : captured, linkType);
    return f;
}

inline dissect::Frame decodeFrame(const dissect::DissectorSet& set, int linkType, const Bytes& b,
                                  std::uint32_t originalLength = 0)
{
    dissect::Frame f = freshFrame(b.size(), linkType, originalLength);
    EXPECT_TRUE(set.decodeLinkLayer(b.view(), f));
    return f;
}

inline bool annotated(const dissect::Frame& f, dissect::Severity severity, const char* field)
{
    for (std::uint8_t i = 0; i < f.annotationCount; ++i)
        if (f.annotations[i].severity == severity &&
            std::strcmp(f.annotations[i].field, field) == 0)
            return true;
    return false;
}

inline dissect::CaptureTables ingestOrFail(const std::filesystem::path& path)
{
    dissect::CaptureTables tables;
    std::string error;
    EXPECT_TRUE(dissect::ingestCapture(path.string(), {}, tables, error)) << error;
    return tables;
}

} // namespace windscope::test
