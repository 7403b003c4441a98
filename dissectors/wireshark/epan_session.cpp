// SPDX-License-Identifier: GPL-3.0-or-later
// EpanSession's front: the plain helpers, and the loader of the libwireshark module
// (epan_module.h), which the session forwards to.

#include "epan_module.h"

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>

namespace windscope::dissect::wireshark {

namespace {

void appendText(const std::vector<PacketTreeNode>& nodes, int depth, std::string& out)
{
    for (const PacketTreeNode& node : nodes) {
        if (node.hidden)
            continue;
        out.append(static_cast<std::size_t>(depth) * 4, ' ');
        if (node.generated)
            out += "[" + node.label + "]";
        else
            out += node.label;
        out += '\n';
        appendText(node.children, depth + 1, out);
    }
}



// ---- the module ------------------------------------------------------------------------

struct LoadedModule
{
    const EpanModuleApi* api = nullptr;
    std::string error; // why it could not be loaded
};

std::filesystem::path runningExecutable()
{
    std::error_code ignored;
    return std::filesystem::read_symlink("/proc/self/exe", ignored);
}

// Installed next to the programs' bin/ (CMake installs it to lib/windscope); in a build
// tree, where CMake built it.
const LoadedModule& module()
{
    static LoadedModule loaded;
    static std::once_flag once;
    std::call_once(once, [] {
        std::vector<std::filesystem::path> candidates;
        const std::filesystem::path exe = runningExecutable();
        if (!exe.empty())
            candidates.push_back(exe.parent_path().parent_path() / WINDSCOPE_EPAN_MODULE_INSTALL_DIR /
                                 WINDSCOPE_EPAN_MODULE_FILE);
        candidates.emplace_back(WINDSCOPE_EPAN_MODULE_BUILD_PATH);
        std::string tried;
        for (const std::filesystem::path& candidate : candidates) {
            std::error_code ignored;
            if (!std::filesystem::exists(candidate, ignored)) {
                tried += (tried.empty() ? "" : ", ") + candidate.string();
                continue;
            }
            void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!handle) {
                const char* why = dlerror();
                loaded.error = candidate.string() + " cannot be loaded: " + (why ? why : "unknown error");
                return;
            }
            // Never closed: libwireshark cannot be initialised twice in a process.
            using Entry = const EpanModuleApi* (*)();
            auto entry = reinterpret_cast<Entry>(dlsym(handle, kEpanModuleEntry));
            const EpanModuleApi* api = entry ? entry() : nullptr;
            if (!api || api->abi != kEpanModuleAbi) {
                loaded.error = candidate.string() + " is not this build's Wireshark module";
                return;
            }
            loaded.api = api;
            return;
        }
        loaded.error = "the Wireshark module is not installed (looked for " + tried + ")";
    });
    return loaded;
}

} // namespace

// ---- value helpers ---------------------------------------------------------------------

std::string PacketDetail::text() const
{
    std::string out;
    appendText(tree, 0, out);
    return out;
}

bool WpaKey::parse(const std::string& input, WpaKey& key, std::string& error)
{
    key = WpaKey{};
    // Wireshark's key-type prefixes (its 802.11 key table and `tshark -o` spell keys
    // "wpa-pwd:PASSPHRASE:SSID" and "wpa-psk:HEX") are accepted too.
    const bool pskPrefix = input.rfind("wpa-psk:", 0) == 0;
    const bool pwdPrefix = input.rfind("wpa-pwd:", 0) == 0;
    const std::string text = pskPrefix || pwdPrefix ? input.substr(8) : input;
    const bool hex =
        text.size() == 64 && text.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    if (hex && !pwdPrefix) {
        key.kind = Kind::Psk;
        key.psk = text;
        return true;
    }
    if (pskPrefix) {
        error = "a wpa-psk key is 64 hex digits";
        return false;
    }
    const std::size_t colon = text.rfind(':');
    key.kind = Kind::Passphrase;
    key.passphrase = colon == std::string::npos ? text : text.substr(0, colon);
    key.ssid = colon == std::string::npos ? "" : text.substr(colon + 1);
    // IEEE 802.11-2020 J.4.1: a passphrase has 8 to 63 printable ASCII characters.
    if (key.passphrase.size() < 8 || key.passphrase.size() > 63) {
        error = "a WPA passphrase has 8 to 63 characters (give PASSPHRASE:SSID or a 64-digit "
                "hex PSK)";
        return false;
    }
    if (key.ssid.size() > 32) {
        error = "an SSID has at most 32 octets";
        return false;
    }
    return true;
}

std::string DecryptionReport::reason() const
{
    if (protectedFrames == decryptedFrames)
        return {};
    const std::uint64_t left = protectedFrames - decryptedFrames;
    const std::string count = std::to_string(left) + " of " + std::to_string(protectedFrames) +
                              " protected 802.11 data frames stay encrypted: ";
    if (!keysGiven)
        return count + "no WPA key given (pass PASSPHRASE:SSID or a PSK)";
    if (handshakeMessages[0] == 0 && handshakeMessages[1] == 0 && handshakeMessages[2] == 0)
        return count + "no WPA 4-way handshake (EAPOL-Key messages) in the capture before them, "
                       "so no session key can be derived";
    if (decryptedFrames == 0)
        return count + "a 4-way handshake was seen but the key does not match it (wrong "
                       "passphrase or SSID)";
    return count + "they belong to stations or sessions whose 4-way handshake is not in the "
                   "capture, or were damaged";
}

// ---- the session -----------------------------------------------------------------------

struct EpanSession::Impl
{
    const EpanModuleApi* api = nullptr;
    void* session = nullptr;
};

EpanSession::EpanSession(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

EpanSession::~EpanSession()
{
    if (m_impl && m_impl->session)
        m_impl->api->close(m_impl->session);
}

std::unique_ptr<EpanSession> EpanSession::open(const std::string& path, const EpanOptions& options,
                                               std::string& error, bool* refused)
{
    bool wasRefused = false;
    if (refused)
        *refused = false;
    // Refused before libwireshark is even loaded when the start-up half failed.
    if (const std::string& why = epanIsolation().error; !why.empty()) {
        error = path + ": Wireshark dissection refused: libwireshark cannot be isolated from the "
                       "user's and the system's Wireshark plugins and configuration: " + why;
        if (refused)
            *refused = true;
        return nullptr;
    }
    const LoadedModule& loaded = module();
    if (!loaded.api) {
        error = path + ": Wireshark dissection is unavailable: " + loaded.error;
        return nullptr;
    }
    void* session = loaded.api->open(path, options, epanIsolation(), error, wasRefused);
    if (!session) {
        if (wasRefused)
            error = path + ": " + error;
        if (refused)
            *refused = wasRefused;
        return nullptr;
    }
    return std::unique_ptr<EpanSession>(new EpanSession(std::make_unique<Impl>(Impl{loaded.api, session})));
}

std::uint64_t EpanSession::frameCount() const
{
    return m_impl->api->frameCount(m_impl->session);
}

const std::string& EpanSession::damage() const
{
    return m_impl->api->damage(m_impl->session);
}

bool EpanSession::dissect(std::uint64_t frame, PacketDetail& detail, std::string& error)
{
    return m_impl->api->dissect(m_impl->session, frame, detail, error);
}

const DecryptionReport& EpanSession::decryption() const
{
    return m_impl->api->decryption(m_impl->session);
}

bool EpanSession::writeDecryptedPcap(const std::string& outPath, std::string& error)
{
    return m_impl->api->writeDecryptedPcap(m_impl->session, outPath, error);
}

std::string EpanSession::builtVersion()
{
    return WINDSCOPE_WIRESHARK_BUILT_VERSION;
}

std::string EpanSession::runtimeVersion()
{
    const LoadedModule& loaded = module();
    return loaded.api ? loaded.api->runtimeVersion() : "unavailable (" + loaded.error + ")";
}

} // namespace windscope::dissect::wireshark
