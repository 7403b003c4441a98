// SPDX-License-Identifier: GPL-3.0-or-later
#include "pcapng_reader.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <vector>

namespace windscope::dissect {

namespace {

// Block types from the pcapng specification (draft-ietf-opsawg-pcapng).
constexpr std::uint32_t kSectionHeader = 0x0a0d0d0a, kInterfaceDescription = 1,
                        kObsoletePacket = 2, kSimplePacket = 3, kEnhancedPacket = 6;
constexpr std::uint32_t kByteOrderMagic = 0x1a2b3c4d;
constexpr std::uint32_t kMaxBlockLength = 256u * 1024 * 1024;

struct Interface
{
    int linkType = 0;
    std::uint64_t unitsPerSecond = 1000000; // if_tsresol default: microseconds
    std::int64_t offsetSeconds = 0;         // if_tsoffset
};

class PcapngReader final : public CaptureReader
{
public:
    PcapngReader(std::string path, gzFile file, std::uint64_t size)
        : m_path(std::move(path)), m_file(file), m_size(size)
    {
    }
    PcapngReader(std::string path, PcapngSource source)
        : m_path(std::move(path)), m_file(nullptr), m_size(0), m_source(std::move(source))
    {
    }
    ~PcapngReader() override
    {
        if (m_file)
            gzclose(m_file);
    }

    Status next(RawPacket& packet) override
    {
        for (;;) {
            std::uint8_t head[8];
            int n = readBytes(head, 8);
            if (n == 0)
                return Status::End;
            if (n < 8)
                return cut("block header");
            std::uint32_t type = read32(head);
            if (type == kSectionHeader) {
                // Byte order is defined by the section header itself.
                std::uint8_t bom[4];
                if (readBytes(bom, 4) != 4)
                    return cut("section header");
                std::uint32_t le = std::uint32_t(bom[0]) | std::uint32_t(bom[1]) << 8 |
                                   std::uint32_t(bom[2]) << 16 | std::uint32_t(bom[3]) << 24;
                if (le == kByteOrderMagic)
                    m_bigEndian = false;
                else if (le == 0x4d3c2b1a)
                    m_bigEndian = true;
                else
                    return fail("section header has an unknown byte-order magic");
                std::uint32_t length = read32(head + 4);
                if (length < 28 || length % 4 || length > kMaxBlockLength)
                    return fail("section header has a bad block length");
                m_body.resize(length - 12);
                if (readBytes(m_body.data(), unsigned(m_body.size())) != int(m_body.size()))
                    return cut("section header");
                m_interfaces.clear();
                continue;
            }
            std::uint32_t length = read32(head + 4);
            if (length < 12 || length % 4 || length > kMaxBlockLength)
                return fail("block of type " + std::to_string(type) + " has a bad length " +
                            std::to_string(length));
            m_body.resize(length - 8);
            if (readBytes(m_body.data(), unsigned(m_body.size())) != int(m_body.size()))
                return cut("block body");
            const std::size_t bodyLength = length - 12; // without the trailing length copy
            if (type == kInterfaceDescription) {
                if (!addInterface(bodyLength))
                    return fail("interface description block is too short");
                continue;
            }
            if (type != kEnhancedPacket && type != kSimplePacket && type != kObsoletePacket)
                continue; // name resolution, statistics, custom blocks: not packets
            Status status = packetFrom(type, bodyLength, packet);
            if (status != Status::Packet)
                return status;
            if (packet.number <= m_skip)
                continue;
            return Status::Packet;
        }
    }
    const std::string& problem() const override { return m_problem; }
    std::uint64_t bytesConsumed() const override
    {
        return m_file ? static_cast<std::uint64_t>(gzoffset(m_file)) : m_source.consumed();
    }
    std::uint64_t fileSize() const override { return m_size; }
    const char* formatName() const override { return "pcapng"; }

    void skip(std::uint64_t packets) { m_skip = packets; }

private:
    // Reads size bytes, fewer only at the end of the content (as gzread does).
    int readBytes(void* buffer, unsigned size)
    {
        if (m_file)
            return gzread(m_file, buffer, size);
        unsigned done = 0;
        while (done < size) {
            const long got = m_source.read(static_cast<char*>(buffer) + done, size - done);
            if (got < 0)
                return -1;
            if (got == 0)
                break;
            done += static_cast<unsigned>(got);
        }
        return static_cast<int>(done);
    }

    std::uint32_t read32(const std::uint8_t* p) const
    {
        return m_bigEndian ? (std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 |
                              std::uint32_t(p[2]) << 8 | p[3])
                           : (std::uint32_t(p[3]) << 24 | std::uint32_t(p[2]) << 16 |
                              std::uint32_t(p[1]) << 8 | p[0]);
    }
    std::uint16_t read16(const std::uint8_t* p) const
    {
        return m_bigEndian ? std::uint16_t(p[0] << 8 | p[1]) : std::uint16_t(p[1] << 8 | p[0]);
    }

    bool addInterface(std::size_t bodyLength)
    {
        if (bodyLength < 8)
            return false;
        Interface iface;
        iface.linkType = read16(m_body.data());
        // Options: code, length, value padded to 4 bytes, until opt_endofopt.
        std::size_t o = 8;
        while (o + 4 <= bodyLength) {
            std::uint16_t code = read16(&m_body[o]);
            std::uint16_t len = read16(&m_body[o + 2]);
            o += 4;
            if (code == 0 || o + len > bodyLength)
                break;
            if (code == 9 && len >= 1) { // if_tsresol
                std::uint8_t r = m_body[o];
                std::uint64_t units = 1;
                if (r & 0x80) {
                    int exponent = r & 0x7f;
                    units = exponent < 63 ? (std::uint64_t(1) << exponent) : 0;
                } else {
                    for (int i = 0; i < r && units; ++i)
                        units = units > UINT64_MAX / 10 ? 0 : units * 10;
                }
                if (units)
                    iface.unitsPerSecond = units;
            } else if (code == 14 && len >= 8) { // if_tsoffset
                std::uint64_t v = std::uint64_t(read32(&m_body[o])) |
                                  std::uint64_t(read32(&m_body[o + 4])) << 32;
                if (m_bigEndian)
                    v = std::uint64_t(read32(&m_body[o])) << 32 | read32(&m_body[o + 4]);
                iface.offsetSeconds = static_cast<std::int64_t>(v);
            }
            o += (len + 3u) & ~3u;
        }
        m_interfaces.push_back(iface);
        return true;
    }

    Status packetFrom(std::uint32_t type, std::size_t bodyLength, RawPacket& packet)
    {
        std::uint32_t interfaceId = 0, capLen = 0, origLen = 0;
        std::uint64_t ts = 0;
        std::size_t dataOffset = 0;
        bool hasTimestamp = true;
        const std::uint8_t* b = m_body.data();
        if (type == kEnhancedPacket || type == kObsoletePacket) {
            if (bodyLength < 20)
                return fail("packet block is too short");
            interfaceId = type == kEnhancedPacket ? read32(b) : read16(b);
            ts = std::uint64_t(read32(b + 4)) << 32 | read32(b + 8);
            capLen = read32(b + 12);
            origLen = read32(b + 16);
            dataOffset = 20;
        } else {
            if (bodyLength < 4)
                return fail("simple packet block is too short");
            origLen = read32(b);
            capLen = static_cast<std::uint32_t>(std::min<std::size_t>(origLen, bodyLength - 4));
            dataOffset = 4;
            hasTimestamp = false;
        }
        if (interfaceId >= m_interfaces.size())
            return fail("packet refers to interface " + std::to_string(interfaceId) +
                        " that was never described");
        if (capLen > kMaximumRecordLength) {
            m_problem = recordLengthText(m_path, m_number + 1, capLen,
                                         std::to_string(kMaximumRecordLength) +
                                             " bytes, the largest record libpcap reads");
            return Status::Error;
        }
        if (capLen > bodyLength - dataOffset)
            return fail("captured length " + std::to_string(capLen) +
                        " runs past the end of its block");
        const Interface& iface = m_interfaces[interfaceId];
        std::int64_t ns = 0;
        packet.timestampClamped = false;
        if (hasTimestamp) {
            // The fraction times 1e9 can exceed 64 bits for fine resolutions.
            __extension__ using Wide = unsigned __int128;
            const Wide scaled = Wide(ts % iface.unitsPerSecond) * 1000000000u / iface.unitsPerSecond;
            std::int64_t seconds = 0;
            const bool fits =
                ts / iface.unitsPerSecond <= std::uint64_t(INT64_MAX) &&
                !__builtin_add_overflow(static_cast<std::int64_t>(ts / iface.unitsPerSecond),
                                        iface.offsetSeconds, &seconds);
            if (!fits)
                seconds = INT64_MAX;
            packet.timestampClamped =
                !epochNanoseconds(seconds, static_cast<std::int64_t>(scaled), ns) || !fits;
        }
        ++m_number;
        packet.number = m_number;
        packet.epochNs = ns;
        packet.capturedLength = capLen;
        packet.originalLength = origLen;
        packet.linkType = iface.linkType;
        packet.data = b + dataOffset;
        return Status::Packet;
    }

    Status cut(const char* where)
    {
        m_problem = m_path + ": file is cut short in packet " + std::to_string(m_number + 1) +
                    " (incomplete " + where + "); " + coveredPackets(m_number);
        return Status::Truncated;
    }
    Status fail(const std::string& what)
    {
        m_problem = m_path + ": damaged pcapng in packet " + std::to_string(m_number + 1) +
                    ": " + what + "; " + coveredPackets(m_number);
        return Status::Error;
    }

    std::string m_path;
    gzFile m_file;
    std::uint64_t m_size;
    PcapngSource m_source; // when m_file is null
    bool m_bigEndian = false;
    std::vector<Interface> m_interfaces;
    std::vector<std::uint8_t> m_body;
    std::uint64_t m_number = 0;
    std::uint64_t m_skip = 0;
    std::string m_problem;
};

} // namespace

std::unique_ptr<CaptureReader> openPcapngReader(const std::string& path,
                                                std::uint64_t skipPackets, std::string& error)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        error = path + ": cannot open: " + std::strerror(errno);
        return nullptr;
    }
    // gzread reads uncompressed files transparently.
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file) {
        error = path + ": cannot open: " + std::strerror(errno);
        return nullptr;
    }
    gzbuffer(file, 256 * 1024);
    auto reader = std::make_unique<PcapngReader>(path, file, std::uint64_t(st.st_size));
    reader->skip(skipPackets);
    return reader;
}

std::unique_ptr<CaptureReader> openPcapngReader(const std::string& path, PcapngSource source)
{
    return std::make_unique<PcapngReader>(path, std::move(source));
}

} // namespace windscope::dissect
