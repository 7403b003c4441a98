// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capture_reader.h"

namespace windscope::dissect {

// Native pcapng block reader (SHB, IDB, EPB, SPB, obsolete PB) with per-interface
// link types and timestamp resolution. Used where libpcap refuses a file whose
// interfaces have different link types. Packets 1..skipPackets are read and dropped,
// so the reader can take over from another one mid-file.
std::unique_ptr<CaptureReader> openPcapngReader(const std::string& path,
                                                std::uint64_t skipPackets, std::string& error);

} // namespace windscope::dissect
