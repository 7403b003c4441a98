// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace windscope::cli {

// Exit status when the Wireshark path is refused because libwireshark cannot be isolated
// from the user's and the system's Wireshark plugins and configuration (docs/cli.md).
inline constexpr int kExitEpanRefused = 3;

// windscope-cli packet FILE N [--json] [--key PASSPHRASE:SSID|PSK]... [--user-profile]
int runPacket(const std::vector<std::string>& args);
// windscope-cli decrypt FILE OUT.pcap --key PASSPHRASE:SSID|PSK...
int runDecrypt(const std::vector<std::string>& args);

// The decrypted form of a WPA/WPA2-PSK capture for `analyze --key`: what `decrypt`
// writes, in a private temporary pcap that lives as long as this object.
class DecryptedCapture
{
public:
    DecryptedCapture() = default;
    ~DecryptedCapture();
    DecryptedCapture(const DecryptedCapture&) = delete;
    DecryptedCapture& operator=(const DecryptedCapture&) = delete;

    // keyTexts as --key takes them. False with error (naming the file or the key).
    bool create(const std::string& capture, const std::vector<std::string>& keyTexts,
                std::string& error);
    const std::string& path() const { return m_path; }
    std::uint64_t protectedFrames() const { return m_protected; }
    std::uint64_t decryptedFrames() const { return m_decrypted; }
    // Why frames stayed encrypted; "" when every protected data frame was decrypted.
    const std::string& encryptedReason() const { return m_reason; }
    // create() failed because the Wireshark path was refused (kExitEpanRefused).
    bool refused() const { return m_refused; }
    // "" when Wireshark read the whole capture, else where it stopped and why.
    const std::string& damage() const { return m_damage; }

private:
    std::string m_path;
    std::uint64_t m_protected = 0, m_decrypted = 0;
    std::string m_reason;
    bool m_refused = false;
    std::string m_damage;
};

} // namespace windscope::cli
