// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Streaming capture reader. pcap and pcapng go through libpcap (gzip-compressed files
// are inflated on the fly); a pcapng whose interfaces carry different link types,
// which libpcap refuses, is read by the native pcapng block reader instead.
// Counters and offsets are 64-bit: files of any size stream in constant memory.

#include <cstdint>
#include <memory>
#include <string>

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

class CaptureReader
{
public:
    enum class Status { Packet, End, Truncated, Error };

    virtual ~CaptureReader() = default;

    // Opens path; on failure returns null and sets error to a sentence naming the file.
    static std::unique_ptr<CaptureReader> open(const std::string& path, std::string& error);

    virtual Status next(RawPacket& packet) = 0;
    // After Truncated or Error: what happened, naming the file and the packet.
    virtual const std::string& problem() const = 0;
    virtual std::uint64_t bytesConsumed() const = 0; // in the file on disk (compressed bytes)
    virtual std::uint64_t fileSize() const = 0;
    virtual const char* formatName() const = 0;     // "pcap", "pcapng", "pcap (gzip)"...
};

} // namespace windscope::dissect
