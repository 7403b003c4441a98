// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_reader.h"

#include "pcapng_reader.h"

#include <pcap/pcap.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdio_ext.h>
#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

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

// A capture on a pipe, a terminal or a socket (standard input as "-" or /dev/stdin):
// it cannot be rewound, so the bytes read to recognise it are kept and handed out again
// first, and gzip is inflated here, from those bytes on, rather than by gzdopen (which
// would have to read the file's first bytes itself).
class PipeInput
{
public:
    explicit PipeInput(int fd) : m_fd(fd) {}
    ~PipeInput()
    {
        if (m_inflating)
            inflateEnd(&m_z);
        ::close(m_fd);
    }

    // Reads up to n bytes of the raw stream for sniffing; they are read again later.
    std::size_t peekRaw(std::size_t n)
    {
        return keepUpTo(m_raw, n, [this](char* b, std::size_t k) { return readFd(b, k); });
    }
    const std::string& rawPrefix() const { return m_raw; }
    bool startInflating()
    {
        // 16 + MAX_WBITS: a gzip wrapper (RFC 1952) around the deflate stream.
        if (inflateInit2(&m_z, 16 + MAX_WBITS) != Z_OK)
            return false;
        m_inflating = true;
        m_input.resize(std::size_t(1) << 16);
        return true;
    }
    // Reads up to n bytes of the content (inflated when gzip) for sniffing, kept likewise.
    std::size_t peekContent(std::size_t n)
    {
        return keepUpTo(m_content, n, [this](char* b, std::size_t k) { return readDecoded(b, k); });
    }
    const std::string& contentPrefix() const { return m_content; }

    ssize_t read(char* buffer, std::size_t size)
    {
        if (m_contentAt < m_content.size()) {
            const std::size_t n = std::min(size, m_content.size() - m_contentAt);
            std::memcpy(buffer, m_content.data() + m_contentAt, n);
            m_contentAt += n;
            return static_cast<ssize_t>(n);
        }
        const ssize_t got = readDecoded(buffer, size);
        if (m_recording && got > 0) {
            m_content.append(buffer, static_cast<std::size_t>(got));
            m_contentAt = m_content.size();
        }
        return got;
    }
    // Until the first packet the content read so far is kept, so that another reader
    // can start again from its first byte (libpcap refuses a pcapng whose interfaces
    // have different link types at the second interface, before any packet).
    void stopRecording()
    {
        m_recording = false;
        m_content.erase(0, m_contentAt);
        m_contentAt = 0;
    }
    bool replayFromStart()
    {
        if (!m_recording)
            return false;
        m_recording = false;
        m_contentAt = 0;
        return true;
    }
    std::uint64_t rawConsumed() const { return m_rawConsumed; }

private:
    // Appends to kept what read gives until it holds n bytes or the stream ends; each
    // read asks for no more than the chunk holds.
    template <typename Read>
    static std::size_t keepUpTo(std::string& kept, std::size_t n, Read read)
    {
        char chunk[64];
        while (kept.size() < n) {
            const ssize_t got = read(chunk, std::min(sizeof chunk, n - kept.size()));
            if (got <= 0)
                break;
            kept.append(chunk, static_cast<std::size_t>(got));
        }
        return kept.size();
    }
    ssize_t readFd(char* buffer, std::size_t size)
    {
        for (;;) {
            const ssize_t got = ::read(m_fd, buffer, size);
            if (got >= 0 || errno != EINTR)
                return got;
        }
    }
    // The raw stream: the sniffed bytes first, then the descriptor.
    ssize_t readRaw(char* buffer, std::size_t size)
    {
        ssize_t got = 0;
        if (m_rawAt < m_raw.size()) {
            const std::size_t n = std::min(size, m_raw.size() - m_rawAt);
            std::memcpy(buffer, m_raw.data() + m_rawAt, n);
            m_rawAt += n;
            got = static_cast<ssize_t>(n);
        } else {
            got = readFd(buffer, size);
        }
        if (got > 0)
            m_rawConsumed += static_cast<std::uint64_t>(got);
        return got;
    }
    ssize_t readDecoded(char* buffer, std::size_t size)
    {
        if (!m_inflating)
            return readRaw(buffer, size);
        const uInt want = static_cast<uInt>(std::min<std::size_t>(size, 1u << 30));
        m_z.next_out = reinterpret_cast<Bytef*>(buffer);
        m_z.avail_out = want;
        while (m_z.avail_out == want && !m_ended) {
            if (m_z.avail_in == 0) {
                const ssize_t got = readRaw(reinterpret_cast<char*>(m_input.data()), m_input.size());
                if (got < 0)
                    return -1;
                if (got == 0)
                    break; // a gzip member cut short ends the content here, as gzread does
                m_z.next_in = m_input.data();
                m_z.avail_in = static_cast<uInt>(got);
            }
            const bool memberStart = m_memberEnded;
            if (m_memberEnded) {
                // Concatenated gzip members (RFC 1952 2.2) are one stream, as gzread reads them.
                inflateReset(&m_z);
                m_memberEnded = false;
            }
            const int rc = inflate(&m_z, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                m_memberEnded = true;
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                // Bytes after a complete member that are no gzip member end the content,
                // as gzread ignores them; inside a member they are damage.
                m_ended = true;
                if (!memberStart && m_z.avail_out == want) {
                    errno = EIO;
                    return -1;
                }
            }
        }
        return static_cast<ssize_t>(want - m_z.avail_out);
    }

    int m_fd;
    std::string m_raw, m_content;
    std::size_t m_rawAt = 0, m_contentAt = 0;
    std::uint64_t m_rawConsumed = 0;
    bool m_inflating = false, m_memberEnded = false, m_ended = false, m_recording = true;
    z_stream m_z{};
    std::vector<Bytef> m_input;
};

ssize_t pipeRead(void* cookie, char* buffer, size_t size)
{
    return static_cast<PipeInput*>(cookie)->read(buffer, size);
}

int pipeClose(void* cookie)
{
    delete static_cast<PipeInput*>(cookie);
    return 0;
}

// An open file as a stdio stream, inflated when it is gzip-compressed.
struct OpenedFile
{
    FILE* stream = nullptr;
    gzFile gzip = nullptr; // owned by stream's close function when set
    PipeInput* pipe = nullptr; // likewise; set when the input cannot be rewound
    bool compressed = false;
    std::uint64_t size = 0;
    std::uint32_t magic = 0; // first four bytes of the (inflated) content, big-endian
    bool hasMagic = false;
    std::unique_ptr<StreamBuffer> buffer; // the stream's: must outlive the stream
};

std::uint32_t bigEndian32(const unsigned char* b)
{
    return std::uint32_t(b[0]) << 24 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[2]) << 8 | b[3];
}

// A pipe or other stream that cannot seek: sniffed from a buffer, never rewound.
bool openPipe(const std::string& path, int fd, OpenedFile& out, std::string& error)
{
    auto input = std::make_unique<PipeInput>(fd);
    const std::size_t got = input->peekRaw(4);
    const std::string& raw = input->rawPrefix();
    if (got >= 2 && static_cast<unsigned char>(raw[0]) == 0x1f &&
        static_cast<unsigned char>(raw[1]) == 0x8b) {
        if (!input->startInflating()) {
            error = path + ": cannot open gzip stream";
            return false;
        }
        out.compressed = true;
    }
    const std::string& head = input->contentPrefix();
    out.hasMagic = input->peekContent(4) == 4;
    if (out.hasMagic)
        out.magic = bigEndian32(reinterpret_cast<const unsigned char*>(head.data()));
    cookie_io_functions_t io{pipeRead, nullptr, nullptr, pipeClose};
    out.stream = fopencookie(input.get(), "rb", io);
    if (!out.stream) {
        error = path + ": cannot open: " + std::strerror(errno);
        return false;
    }
    out.pipe = input.release();
    out.buffer.reset(new StreamBuffer);
    std::setvbuf(out.stream, out.buffer->bytes, _IOFBF, StreamBuffer::kSize);
    return true;
}

bool openFile(const std::string& path, OpenedFile& out, std::string& error)
{
    struct stat st{};
    const int fd = openCaptureDescriptor(path, st, error);
    if (fd < 0)
        return false;
    if (!S_ISREG(st.st_mode) || ::lseek(fd, 0, SEEK_CUR) < 0)
        return openPipe(path, fd, out, error);
    out.size = static_cast<std::uint64_t>(st.st_size);
    FILE* raw = ::fdopen(fd, "rb");
    if (!raw) {
        error = path + ": cannot open: " + std::strerror(errno);
        ::close(fd);
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
        out.magic = bigEndian32(inner);
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
    out.magic = bigEndian32(head);
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
    if (f.pipe)
        return f.pipe->rawConsumed();
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
        m_fallback.reset(); // may read from the stream pcap_close closes
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
            if (m_number == 0 && m_file.pipe)
                m_file.pipe->stopRecording();
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
            // block reader from the packet where libpcap stopped. That reader opens the
            // file again: a pipe cannot give the packets before once more, only the
            // content before the first packet, which it kept.
            if (m_file.pipe && m_number == 0 && m_file.pipe->replayFromStart()) {
                PipeInput* input = m_file.pipe;
                m_fallback = openPcapngReader(
                    m_path, PcapngSource{[input](char* buffer, unsigned size) -> long {
                                             return input->read(buffer, size);
                                         },
                                         [input] { return input->rawConsumed(); }});
                return m_fallback->next(packet);
            }
            if (m_file.pipe) {
                m_problem = m_path + ": packet " + std::to_string(m_number + 1) +
                            ": its interface has another link type than the first one, which "
                            "is read from a file but not from a pipe (give the file's path); " +
                            coveredPackets(m_number);
                return Status::Error;
            }
            std::string error;
            m_fallback = openPcapngReader(m_path, m_number, error);
            if (m_fallback)
                return m_fallback->next(packet);
            reason = error;
        }
        if (recordLengthProblem(reason))
            return Status::Error;
        const bool truncated = reason.find("truncated") != std::string::npos;
        m_problem = m_path + ": " + (truncated ? "file is cut short" : "damaged") +
                    " in packet " + std::to_string(m_number + 1) + " (" + reason + "); " +
                    coveredPackets(m_number);
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
    // libpcap refuses a record longer than the file's snapshot length or than its
    // MAXIMUM_SNAPLEN (sf-pcap.c, pcapng.c: "invalid packet capture length L, bigger
    // than snaplen of S" / "... maximum of M"): a damaged record header, said so in
    // the reader's own words with the packet and the length.
    bool recordLengthProblem(const std::string& reason)
    {
        unsigned long long length = 0, limit = 0;
        char kind[16] = {};
        if (std::sscanf(reason.c_str(), "invalid packet capture length %llu, bigger than %15s of %llu",
                        &length, kind, &limit) != 3)
            return false;
        const std::string what = std::strcmp(kind, "snaplen") == 0
                                     ? "the file's snapshot length of " + std::to_string(limit) + " bytes"
                                     : std::to_string(limit) + " bytes, the largest record libpcap reads";
        m_problem = recordLengthText(m_path, m_number + 1, length, what);
        return true;
    }

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

std::string coveredPackets(std::uint64_t packetsRead)
{
    return packetsRead == 0 ? std::string("no packet could be read")
                            : "results cover packets 1-" + std::to_string(packetsRead);
}

std::string recordLengthText(const std::string& path, std::uint64_t packet, std::uint64_t length,
                             const std::string& limit)
{
    return path + ": packet " + std::to_string(packet) + ": record length " + std::to_string(length) +
           " exceeds " + limit + " (a damaged record header); " + coveredPackets(packet - 1);
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

int openCaptureDescriptor(const std::string& path, struct ::stat& st, std::string& error)
{
    const int fd = path == "-" ? ::dup(STDIN_FILENO) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    st = {};
    if (fd < 0 || ::fstat(fd, &st) != 0) {
        error = path + ": cannot open: " + std::strerror(errno);
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        error = path + ": is a directory, not a capture file";
        return -1;
    }
    return fd;
}

} // namespace windscope::dissect
