// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Streaming capture reader. pcap and pcapng go through libpcap (gzip-compressed files
// are inflated on the fly); a pcapng whose interfaces carry different link types,
// which libpcap refuses, is read by the native pcapng block reader instead.
// Counters and offsets are 64-bit: files of any size stream in constant memory.

#include <cstdint>
#include <memory>
#include <string>
#include <sys/stat.h>

namespace windscope::dissect {

struct RawPacket
{
    std::uint64_t number = 0; // 1-based
    std::int64_t epochNs = 0;
    std::uint32_t capturedLength = 0;
    std::uint32_t originalLength = 0;
    int linkType = 0;
    const std::uint8_t* data = nullptr; // valid until the next call to next()
    bool timestampClamped = false;      // the file's time lies outside years 1677-2262
};

// seconds * 1e9 + nanoseconds, saturated to the int64 range; false when it had to be.
bool epochNanoseconds(std::int64_t seconds, std::int64_t nanoseconds, std::int64_t& out);

// The end of a damage message: "results cover packets 1-N", or that none could be read.
std::string coveredPackets(std::uint64_t packetsRead);
// "PATH: packet N: record length L exceeds LIMIT (a damaged record header); results ..."
std::string recordLengthText(const std::string& path, std::uint64_t packet, std::uint64_t length,
                             const std::string& limit);

// The largest record libpcap reads from a pcap or pcapng file (MAXIMUM_SNAPLEN in its
// pcap-int.h, 262144 bytes): a longer one is a damaged record header.
inline constexpr std::uint32_t kMaximumRecordLength = 262144;

// Opens path read-only ("-": a duplicate of standard input, as tcpdump -r and tshark -r
// take it); returns the descriptor and its fstat, or -1 with error naming the file (a
// directory is refused as such).
int openCaptureDescriptor(const std::string& path, struct ::stat& st, std::string& error);

class CaptureReader
{
public:
    enum class Status { Packet, End, Truncated, Error };

    virtual ~CaptureReader() = default;

    // Opens path ("-": standard input); on failure returns null and sets error to a
    // sentence naming the file. A pipe is read as it comes, never rewound.
    static std::unique_ptr<CaptureReader> open(const std::string& path, std::string& error);

    virtual Status next(RawPacket& packet) = 0;
    // After Truncated or Error: what happened, naming the file and the packet.
    virtual const std::string& problem() const = 0;
    virtual std::uint64_t bytesConsumed() const = 0; // in the file on disk (compressed bytes)
    virtual std::uint64_t fileSize() const = 0;
    virtual const char* formatName() const = 0;     // "pcap", "pcapng", "pcap (gzip)"...
};

} // namespace windscope::dissect
