// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capture_reader.h"

#include <functional>

namespace windscope::dissect {

// Native pcapng block reader (SHB, IDB, EPB, SPB, obsolete PB) with per-interface
// link types and timestamp resolution. Used where libpcap refuses a file whose
// interfaces have different link types. Packets 1..skipPackets are read and dropped,
// so the reader can take over from another one mid-file.
std::unique_ptr<CaptureReader> openPcapngReader(const std::string& path,
                                                std::uint64_t skipPackets, std::string& error);

// The content of a pcapng that is not a file to open again (a pipe), from its first byte.
struct PcapngSource
{
    // Up to size bytes into buffer; 0 at the end, -1 on a read error.
    std::function<long(char* buffer, unsigned size)> read;
    std::function<std::uint64_t()> consumed; // bytes of the input (compressed) read so far
};
std::unique_ptr<CaptureReader> openPcapngReader(const std::string& path, PcapngSource source);

} // namespace windscope::dissect
