// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli packet FILE N [--json] [--key PASSPHRASE:SSID|PSK]... [--user-profile]
int runPacket(const std::vector<std::string>& args);
// windscope-cli decrypt FILE OUT.pcap --key PASSPHRASE:SSID|PSK...
int runDecrypt(const std::vector<std::string>& args);

} // namespace windscope::cli
