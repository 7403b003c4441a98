// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The byte-level writer and reader every cached part is encoded with (analysis_codec.h
// gives the layout rules); internal to the store.

#include "analysis_codec.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace windscope::analysis::store::codec {

// Each blob starts with a tag naming its part and the codec version, so a blob of the
// wrong kind or layout is rejected instead of misread (see partTag).

class Writer
{
public:
    explicit Writer(std::uint32_t tag)
    {
        put(tag);
        put(kAnalysisCodecVersion);
    }
    template <typename T> void put(const T& v)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
        m_out.insert(m_out.end(), p, p + sizeof v);
    }
    void put(bool v) { put(static_cast<std::uint8_t>(v)); }
    void put(const std::string& s)
    {
        put(static_cast<std::uint64_t>(s.size()));
        m_out.insert(m_out.end(), s.begin(), s.end());
    }
    void put(const char* s) { put(std::string(s ? s : "")); }
    // A column of plain numbers: count, then the raw values.
    template <typename T> void column(const std::vector<T>& v)
    {
        static_assert(std::is_arithmetic_v<T>);
        put(static_cast<std::uint64_t>(v.size()));
        const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
        m_out.insert(m_out.end(), p, p + v.size() * sizeof(T));
    }
    // Rising numbers (frames, rows, times): their low halves as a column, then where each high half starts.
    template <typename V> void column(const dissect::BasicRisingNumberColumn<V>& c)
    {
        column(c.lowHalves());
        list(c.highStarts(), [&](const dissect::RisingNumberHighStart& h) {
            put(h.row);
            put(h.high);
        });
    }
    template <typename T, typename F> void list(const std::vector<T>& v, F&& each)
    {
        put(static_cast<std::uint64_t>(v.size()));
        for (const T& item : v)
            each(item);
    }
    std::vector<std::uint8_t> take() { return std::move(m_out); }

private:
    std::vector<std::uint8_t> m_out;
};

// Reads a blob front to back from a BlobSource: small fields through a buffer, columns
// straight into their vectors (one copy from the database pages), and every byte through
// the streaming checksum exactly once, in order.
class Reader
{
public:
    Reader(BlobSource& source, std::uint32_t tag, const char* what)
        : m_source(source), m_size(source.size()), m_what(what)
    {
        m_buffer.resize(kBufferBytes);
        std::uint32_t seenTag = 0, version = 0;
        get(seenTag);
        get(version);
        if (m_ok && seenTag != tag)
            fail("not the blob of this part");
        else if (m_ok && version != kAnalysisCodecVersion)
            fail("layout version " + std::to_string(version) + ", this build reads version " +
                 std::to_string(kAnalysisCodecVersion));
    }
    template <typename T> void get(T& v)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        if (!buffered(sizeof v))
            return;
        std::memcpy(&v, m_buffer.data() + (m_pos - m_bufferStart), sizeof v);
        m_pos += sizeof v;
    }
    void get(bool& v)
    {
        std::uint8_t b = 0;
        get(b);
        v = b != 0;
    }
    void get(std::string& s)
    {
        std::uint64_t n = 0;
        get(n);
        if (!m_ok || n > m_size - m_pos) {
            fail("cut short");
            return;
        }
        s.resize(static_cast<std::size_t>(n));
        copyOut(s.data(), static_cast<std::size_t>(n));
    }
    void get(const char*& s)
    {
        std::string text;
        get(text);
        s = internedText(text);
    }
    template <typename T> void column(std::vector<T>& v)
    {
        std::uint64_t n = 0;
        get(n);
        if (!m_ok || n > (m_size - m_pos) / sizeof(T)) {
            fail("column longer than the blob");
            return;
        }
        v.resize(static_cast<std::size_t>(n));
        copyOut(v.data(), v.size() * sizeof(T));
    }
    template <typename V> void column(dissect::BasicRisingNumberColumn<V>& c)
    {
        std::vector<std::uint32_t> low;
        std::vector<dissect::RisingNumberHighStart> highStarts;
        column(low);
        list(highStarts, 12, [&](dissect::RisingNumberHighStart& h) {
            get(h.row);
            get(h.high);
        });
        if (m_ok && !c.assign(std::move(low), std::move(highStarts)))
            fail("damaged rising-number column");
    }
    // Elements take at least minBytes each, which bounds the count by the blob size.
    template <typename T, typename F> void list(std::vector<T>& v, std::size_t minBytes, F&& each)
    {
        std::uint64_t n = 0;
        get(n);
        if (!m_ok || n > (m_size - m_pos) / (minBytes ? minBytes : 1)) {
            fail("list longer than the blob");
            return;
        }
        v.clear();
        v.resize(static_cast<std::size_t>(n));
        for (T& item : v) {
            each(item);
            if (!m_ok)
                return;
        }
    }
    bool finish(std::string& error)
    {
        if (m_ok && m_pos != m_size)
            fail("trailing bytes");
        if (!m_ok)
            error = m_error;
        return m_ok;
    }
    bool ok() const { return m_ok; }
    // A value the layout cannot hold (e.g. an enumerator out of range): the blob is damaged.
    void reject(const std::string& why) { fail(why); }
    // The checksum of every byte read; equal to blobChecksum of the blob once finish()
    // succeeded (the whole blob was read).
    std::uint64_t checksum() const { return m_checksum.value(); }

private:
    static constexpr std::size_t kBufferBytes = 1 << 16;

    // Makes n bytes from m_pos available in the buffer.
    bool buffered(std::size_t n)
    {
        if (!m_ok)
            return false;
        if (n > m_size - m_pos) {
            fail("cut short");
            return false;
        }
        const std::size_t end = m_bufferStart + m_bufferLength;
        if (m_pos + n <= end)
            return true;
        // Keep the unread tail, then read on from the source.
        const std::size_t keep = end - m_pos;
        std::memmove(m_buffer.data(), m_buffer.data() + (m_pos - m_bufferStart), keep);
        const std::size_t more = std::min(m_buffer.size() - keep, m_size - end);
        if (!pull(m_buffer.data() + keep, more))
            return false;
        m_bufferStart = m_pos;
        m_bufferLength = keep + more;
        return true;
    }
    // Copies n bytes from m_pos to out: what the buffer holds, then straight from the source.
    void copyOut(void* out, std::size_t n)
    {
        auto* dst = static_cast<std::uint8_t*>(out);
        const std::size_t end = m_bufferStart + m_bufferLength;
        const std::size_t fromBuffer = std::min(n, end - m_pos);
        if (fromBuffer) // an empty column decodes into a null data(): no copy of 0 bytes to it
            std::memcpy(dst, m_buffer.data() + (m_pos - m_bufferStart), fromBuffer);
        m_pos += fromBuffer;
        const std::size_t rest = n - fromBuffer;
        if (rest == 0)
            return;
        if (!pull(dst + fromBuffer, rest))
            return;
        m_pos += rest;
        m_bufferStart = m_pos;
        m_bufferLength = 0;
    }
    // Reads the next n bytes of the source (they follow everything read so far).
    bool pull(std::uint8_t* out, std::size_t n)
    {
        if (n && !m_source.read(m_sourcePos, out, n)) {
            fail("read error");
            return false;
        }
        m_checksum.update(out, n);
        m_sourcePos += n;
        return true;
    }
    void fail(const std::string& why)
    {
        if (m_ok)
            m_error = "damaged " + std::string(m_what) + ": " + why;
        m_ok = false;
    }
    BlobSource& m_source;
    std::size_t m_size;
    std::size_t m_pos = 0;       // logical read position
    std::size_t m_sourcePos = 0; // next byte to pull from the source
    std::vector<std::uint8_t> m_buffer;
    std::size_t m_bufferStart = 0, m_bufferLength = 0;
    StreamChecksum m_checksum;
    const char* m_what;
    bool m_ok = true;
    std::string m_error;
};

class SpanSource final : public BlobSource
{
public:
    explicit SpanSource(std::span<const std::uint8_t> bytes) : m_bytes(bytes) {}
    std::size_t size() const override { return m_bytes.size(); }
    bool read(std::size_t offset, void* out, std::size_t n) override
    {
        if (n)
            std::memcpy(out, m_bytes.data() + offset, n);
        return true;
    }

private:
    std::span<const std::uint8_t> m_bytes;
};

// One tag per part ("WSP" + part number) so a blob of one part is never read as another.
inline std::uint32_t partTag(CachePart part)
{
    return 0x00505357u | (static_cast<std::uint32_t>('0' + static_cast<int>(part)) << 24);
}

} // namespace windscope::analysis::store::codec
