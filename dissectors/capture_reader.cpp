// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_reader.h"

#include "pcapng_reader.h"

#include <pcap/pcap.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdio_ext.h>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>

namespace windscope::dissect {

namespace {

// libpcap reports link types as DLT_ values; a few differ from the LINKTYPE_ values
// written in files (tcpdump.org link-layer header types).
int linkTypeFromDlt(int dlt)
{
    // DLT_RAW is 12 on most systems and 14 on OpenBSD; both are LINKTYPE_RAW in files.
    return dlt == 12 || dlt == 14 ? 101 : dlt;
}

ssize_t gzipRead(void* cookie, char* buffer, size_t size)
{
    int n = gzread(static_cast<gzFile>(cookie), buffer, static_cast<unsigned>(size));
    return n < 0 ? -1 : n;
}

int gzipClose(void* cookie)
{
    return gzclose(static_cast<gzFile>(cookie)) == Z_OK ? 0 : EOF;
}

// libpcap reads each record with two small freads; stdio's default buffer (one block,
// 4 KiB) would cost a read system call every few dozen packets. Page-aligned: the
// kernel's copy into a buffer 16 bytes off (as malloc returns) took four times as
// long (670 MB: 0.45 s against 0.11 s).
struct StreamBuffer
{
    static constexpr std::size_t kSize = std::size_t(1) << 20;
    alignas(4096) char bytes[kSize];
};

// An open file as a stdio stream, inflated when it is gzip-compressed.
struct OpenedFile
{
    FILE* stream = nullptr;
    gzFile gzip = nullptr; // owned by stream's close function when set
    bool compressed = false;
    std::uint64_t size = 0;
    std::uint32_t magic = 0; // first four bytes of the (inflated) content, big-endian
    bool hasMagic = false;
    std::unique_ptr<StreamBuffer> buffer; // the stream's: must outlive the stream
};

bool openFile(const std::string& path, OpenedFile& out, std::string& error)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        error = path + ": cannot open: " + std::strerror(errno);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        error = path + ": is a directory, not a capture file";
        return false;
    }
    out.size = static_cast<std::uint64_t>(st.st_size);
    FILE* raw = std::fopen(path.c_str(), "rb");
    if (!raw) {
        error = path + ": cannot open: " + std::strerror(errno);
        return false;
    }
    // glibc ignores a buffer size unless it is given the buffer.
    out.buffer.reset(new StreamBuffer);
    std::setvbuf(raw, out.buffer->bytes, _IOFBF, StreamBuffer::kSize);
    unsigned char head[4] = {};
    size_t got = std::fread(head, 1, 4, raw);
    if (got >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
        std::fclose(raw);
        gzFile gz = gzopen(path.c_str(), "rb");
        if (!gz) {
            error = path + ": cannot open gzip stream";
            return false;
        }
        gzbuffer(gz, 256 * 1024);
        unsigned char inner[4] = {};
        int n = gzread(gz, inner, 4);
        out.hasMagic = n == 4;
        out.magic = std::uint32_t(inner[0]) << 24 | std::uint32_t(inner[1]) << 16 |
                    std::uint32_t(inner[2]) << 8 | inner[3];
        gzrewind(gz);
        cookie_io_functions_t io{gzipRead, nullptr, nullptr, gzipClose};
        out.stream = fopencookie(gz, "rb", io);
        if (!out.stream) {
            gzclose(gz);
            error = path + ": cannot open gzip stream";
            return false;
        }
        out.gzip = gz;
        out.compressed = true;
        return true;
    }
    out.hasMagic = got == 4;
    out.magic = std::uint32_t(head[0]) << 24 | std::uint32_t(head[1]) << 16 |
                std::uint32_t(head[2]) << 8 | head[3];
    // A plain stream rather than one over a memory map (fopencookie): glibc serves
    // freads from a cookie stream by its generic path, which copies small reads byte
    // by byte, and read(2) into an aligned buffer costs no more than copying out of a
    // map (670 MB radiotap capture, every packet read through libpcap: 0.33-0.47 s
    // CPU against 0.49-0.57 s).
    ::posix_fadvise(::fileno(raw), 0, 0, POSIX_FADV_SEQUENTIAL);
    std::rewind(raw);
    out.stream = raw;
    return true;
}

bool isPcapMagic(std::uint32_t m)
{
    return m == 0xa1b2c3d4 || m == 0xd4c3b2a1 || m == 0xa1b23c4d || m == 0x4d3cb2a1;
}
constexpr std::uint32_t kPcapngMagic = 0x0a0d0d0a;

std::uint64_t consumedBytes(const OpenedFile& f)
{
    if (f.compressed)
        return static_cast<std::uint64_t>(gzoffset(f.gzip));
    long pos = std::ftell(f.stream);
    return pos < 0 ? 0 : static_cast<std::uint64_t>(pos);
}

class PcapLibraryReader final : public CaptureReader
{
public:
    PcapLibraryReader(std::string path, OpenedFile file, pcap_t* pcap, bool pcapng)
        : m_path(std::move(path)), m_file(std::move(file)), m_pcap(pcap), m_pcapng(pcapng),
          m_linkType(linkTypeFromDlt(pcap_datalink(pcap)))
    {
    }
    ~PcapLibraryReader() override
    {
        if (m_pcap)
            pcap_close(m_pcap); // closes the stream, and the gzip stream with it
    }

    Status next(RawPacket& packet) override
    {
        if (m_fallback)
            return m_fallback->next(packet);
        pcap_pkthdr* header = nullptr;
        const u_char* data = nullptr;
        int rc = pcap_next_ex(m_pcap, &header, &data);
        if (rc == 1) {
            ++m_number;
            packet.number = m_number;
            // Opened with nanosecond precision: tv_usec holds nanoseconds.
            packet.timestampClamped =
                !epochNanoseconds(header->ts.tv_sec, header->ts.tv_usec, packet.epochNs);
            packet.capturedLength = header->caplen;
            packet.originalLength = header->len;
            packet.linkType = m_linkType;
            packet.data = data;
            return Status::Packet;
        }
        if (rc == PCAP_ERROR_BREAK)
            return Status::End;
        std::string reason = pcap_geterr(m_pcap);
        if (m_pcapng && reason.find("different from the type of the first interface") !=
                            std::string::npos) {
            // libpcap reads only single-link-type pcapng; continue with the native
            // block reader from the packet where libpcap stopped.
            std::string error;
            m_fallback = openPcapngReader(m_path, m_number, error);
            if (m_fallback)
                return m_fallback->next(packet);
            reason = error;
        }
        const bool truncated = reason.find("truncated") != std::string::npos;
        m_problem = m_path + ": " + (truncated ? "file is cut short" : "damaged") +
                    " in packet " + std::to_string(m_number + 1) + " (" + reason +
                    "); results cover packets 1-" + std::to_string(m_number);
        return truncated ? Status::Truncated : Status::Error;
    }
    const std::string& problem() const override
    {
        return m_fallback ? m_fallback->problem() : m_problem;
    }
    std::uint64_t bytesConsumed() const override
    {
        return m_fallback ? m_fallback->bytesConsumed() : consumedBytes(m_file);
    }
    std::uint64_t fileSize() const override { return m_file.size; }
    const char* formatName() const override
    {
        if (m_pcapng)
            return m_file.compressed ? "pcapng (gzip)" : "pcapng";
        return m_file.compressed ? "pcap (gzip)" : "pcap";
    }

private:
    std::string m_path;
    OpenedFile m_file;
    pcap_t* m_pcap;
    bool m_pcapng;
    int m_linkType;
    std::uint64_t m_number = 0;
    std::string m_problem;
    std::unique_ptr<CaptureReader> m_fallback;
};

} // namespace

bool epochNanoseconds(std::int64_t seconds, std::int64_t nanoseconds, std::int64_t& out)
{
    std::int64_t scaled = 0;
    if (__builtin_mul_overflow(seconds, std::int64_t(1000000000), &scaled) ||
        __builtin_add_overflow(scaled, nanoseconds, &out)) {
        out = seconds < 0 ? INT64_MIN : INT64_MAX;
        return false;
    }
    return true;
}

std::unique_ptr<CaptureReader> CaptureReader::open(const std::string& path, std::string& error)
{
    OpenedFile file;
    if (!openFile(path, file, error))
        return nullptr;
    if (!file.hasMagic) {
        std::fclose(file.stream);
        error = path + ": not a capture file (empty or shorter than a file header)";
        return nullptr;
    }
    const bool pcapng = file.magic == kPcapngMagic;
    if (!pcapng && !isPcapMagic(file.magic)) {
        std::fclose(file.stream);
        char magic[16];
        std::snprintf(magic, sizeof magic, "%08x", file.magic);
        error = path + ": not a pcap or pcapng capture file (starts with 0x" + magic + ")";
        return nullptr;
    }
    // One thread at a time uses a reader, so the stream needs no lock of its own:
    // stdio otherwise takes and releases one around each of libpcap's two freads per
    // record, atomic operations once the process has more than one thread.
    __fsetlocking(file.stream, FSETLOCKING_BYCALLER);
    char errbuf[PCAP_ERRBUF_SIZE] = {};
    pcap_t* pcap =
        pcap_fopen_offline_with_tstamp_precision(file.stream, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!pcap) {
        std::fclose(file.stream);
        error = path + ": cannot read capture header: " + errbuf;
        return nullptr;
    }
    return std::make_unique<PcapLibraryReader>(path, std::move(file), pcap, pcapng);
}

} // namespace windscope::dissect
