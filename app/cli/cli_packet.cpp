// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_packet.h"

#include "cli_input.h"

#include "analysis/report/json_writer.h"
#include "dissectors/wireshark/epan_session.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace windscope::cli {

namespace ws = dissect::wireshark;

namespace {

void writeNodes(analysis::JsonWriter& json, const std::vector<ws::PacketTreeNode>& nodes)
{
    json.beginArray();
    for (const ws::PacketTreeNode& node : nodes) {
        json.beginObject();
        json.field("label", node.label);
        json.field("field", node.abbrev);
        json.field("value", node.value);
        json.field("source", static_cast<int>(node.source));
        json.field("offset", static_cast<int>(node.offset));
        json.field("length", static_cast<int>(node.length));
        if (node.generated)
            json.field("generated", true);
        if (node.hidden)
            json.field("hidden", true);
        if (!node.children.empty()) {
            json.key("children");
            writeNodes(json, node.children);
        }
        json.endObject();
    }
    json.endArray();
}

std::string hexText(const std::vector<std::uint8_t>& bytes)
{
    static const char digits[] = "0123456789abcdef";
    std::string text;
    text.reserve(bytes.size() * 2);
    for (std::uint8_t b : bytes) {
        text += digits[b >> 4];
        text += digits[b & 15];
    }
    return text;
}

void writeDecryption(analysis::JsonWriter& json, const ws::DecryptionReport& r)
{
    json.key("decryption").beginObject();
    json.field("protected_frames", r.protectedFrames);
    json.field("decrypted_frames", r.decryptedFrames);
    json.field("eapol_key_frames", r.eapolKeyFrames);
    json.key("handshake_messages").beginArray();
    for (std::uint64_t n : r.handshakeMessages)
        json.value(n);
    json.endArray();
    json.field("keys_given", r.keysGiven);
    json.field("encrypted_reason", r.reason());
    json.endObject();
}

struct EpanArgs
{
    std::vector<std::string> positional;
    bool json = false;
    ws::EpanOptions options;
};

// Returns 0 when parsed, else the exit status.
int parseEpanArgs(const char* command, const std::vector<std::string>& args, EpanArgs& out)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            out.json = true;
        else if (a == "--user-profile")
            out.options.useUserProfile = true;
        else if ((a == "--key" || a == "-o") && i + 1 < args.size()) {
            if (a == "-o") {
                out.options.preferences.push_back(args[++i]);
                continue;
            }
            ws::WpaKey key;
            std::string error;
            if (!ws::WpaKey::parse(args[++i], key, error)) {
                std::fprintf(stderr, "windscope-cli %s: --key: %s\n", command, error.c_str());
                return 2;
            }
            out.options.keys.push_back(key);
        } else if (a.size() > 1 && a[0] == '-') { // "-" alone is standard input
            std::fprintf(stderr, "windscope-cli %s: unknown option %s\n", command, a.c_str());
            return 2;
        } else
            out.positional.push_back(a);
    }
    return 0;
}

} // namespace

int runPacket(const std::vector<std::string>& args)
{
    EpanArgs parsed;
    if (int status = parseEpanArgs("packet", args, parsed))
        return status;
    std::uint64_t frame = 0;
    if (parsed.positional.size() == 2) {
        try {
            std::size_t used = 0;
            frame = std::stoull(parsed.positional[1], &used);
            if (used != parsed.positional[1].size())
                frame = 0;
        } catch (const std::exception&) {
            frame = 0;
        }
    }
    if (parsed.positional.size() != 2 || frame == 0) {
        std::fprintf(stderr, "usage: windscope-cli packet FILE N [--json] [--key "
                             "PASSPHRASE:SSID|PSK]... [-o PREF:VALUE]... [--user-profile]\n"
                             "  N is the 1-based frame number, as in Wireshark\n");
        return 2;
    }
    std::string error;
    SeekableCapture input;
    if (!input.open(parsed.positional[0], error)) {
        std::fprintf(stderr, "windscope-cli: %s\n", error.c_str());
        return 1;
    }
    bool refused = false;
    auto session = ws::EpanSession::open(input.path(), parsed.options, error, &refused);
    if (!session) {
        std::fprintf(stderr, "windscope-cli: %s\n", input.named(error).c_str());
        return refused ? kExitEpanRefused : 1;
    }
    ws::PacketDetail detail;
    if (!session->dissect(frame, detail, error)) {
        std::fprintf(stderr, "windscope-cli: %s\n", input.named(error).c_str());
        return 1;
    }
    if (parsed.json) {
        analysis::JsonWriter json(std::cout);
        json.beginObject();
        json.field("path", parsed.positional[0]);
        json.field("frame", detail.frame);
        json.field("protocols", detail.protocols);
        json.field("wireshark_version", ws::EpanSession::runtimeVersion());
        json.key("tree");
        writeNodes(json, detail.tree);
        json.key("sources").beginArray();
        for (const ws::DataSource& source : detail.sources) {
            json.beginObject();
            json.field("name", source.name);
            json.field("hex", hexText(source.bytes));
            json.endObject();
        }
        json.endArray();
        writeDecryption(json, session->decryption());
        json.endObject();
        std::cout << '\n';
    } else {
        std::cout << detail.text();
    }
    std::cout.flush();
    // The frame is shown, but the file is damaged after it (or before the end).
    if (!session->damage().empty())
        std::fprintf(stderr, "windscope-cli: warning: %s\n", input.named(session->damage()).c_str());
    const std::string reason = session->decryption().reason();
    if (!reason.empty() && !parsed.options.keys.empty())
        std::fprintf(stderr, "windscope-cli: note: %s\n", reason.c_str());
    return 0;
}

int runDecrypt(const std::vector<std::string>& args)
{
    EpanArgs parsed;
    if (int status = parseEpanArgs("decrypt", args, parsed))
        return status;
    if (parsed.positional.size() != 2 || parsed.options.keys.empty()) {
        std::fprintf(stderr, "usage: windscope-cli decrypt FILE OUT.pcap --key "
                             "PASSPHRASE:SSID|PSK [--key ...] [--json]\n");
        return 2;
    }
    std::string error;
    SeekableCapture input;
    if (!input.open(parsed.positional[0], error)) {
        std::fprintf(stderr, "windscope-cli: %s\n", error.c_str());
        return 1;
    }
    bool refused = false;
    auto session = ws::EpanSession::open(input.path(), parsed.options, error, &refused);
    if (!session || !session->writeDecryptedPcap(parsed.positional[1], error)) {
        std::fprintf(stderr, "windscope-cli: %s\n", input.named(error).c_str());
        return refused ? kExitEpanRefused : 1;
    }
    if (!session->damage().empty())
        std::fprintf(stderr, "windscope-cli: warning: %s\n", input.named(session->damage()).c_str());
    const ws::DecryptionReport& report = session->decryption();
    if (parsed.json) {
        analysis::JsonWriter json(std::cout);
        json.beginObject();
        writeDecryption(json, report);
        json.endObject();
        std::cout << '\n';
    } else {
        std::printf("%llu of %llu protected data frames decrypted into %s\n",
                    static_cast<unsigned long long>(report.decryptedFrames),
                    static_cast<unsigned long long>(report.protectedFrames),
                    parsed.positional[1].c_str());
    }
    const std::string reason = report.reason();
    if (!reason.empty())
        std::fprintf(stderr, "windscope-cli: note: %s\n", reason.c_str());
    return 0;
}

DecryptedCapture::~DecryptedCapture()
{
    if (!m_path.empty())
        ::unlink(m_path.c_str());
}

bool DecryptedCapture::create(const std::string& capture, const std::vector<std::string>& keyTexts,
                              std::string& error)
{
    ws::EpanOptions options;
    for (const std::string& text : keyTexts) {
        ws::WpaKey key;
        if (!ws::WpaKey::parse(text, key, error)) {
            error = "--key: " + error;
            return false;
        }
        options.keys.push_back(key);
    }
    // Standard input is copied to a seekable file first; then the session, so that a
    // refused Wireshark path is reported as such before anything is written.
    SeekableCapture input;
    if (!input.open(capture, error))
        return false;
    auto session = ws::EpanSession::open(input.path(), options, error, &m_refused);
    if (!session) {
        error = input.named(error);
        return false;
    }
    // temp_directory_path throws when TMPDIR names no folder: report it instead.
    std::error_code tmpError;
    const std::filesystem::path tmp = std::filesystem::temp_directory_path(tmpError);
    if (tmpError) {
        error = "no folder for the decrypted capture: " + tmpError.message();
        return false;
    }
    std::string pattern = (tmp / "windscope-decrypted-XXXXXX.pcap").string();
    const int fd = ::mkstemps(pattern.data(), 5);
    if (fd < 0) {
        error = pattern + ": cannot create a temporary file for the decrypted capture: " +
                std::strerror(errno);
        return false;
    }
    ::close(fd);
    m_path = pattern;
    if (!session->writeDecryptedPcap(m_path, error)) {
        error = input.named(error);
        return false;
    }
    const ws::DecryptionReport& report = session->decryption();
    m_protected = report.protectedFrames;
    m_decrypted = report.decryptedFrames;
    m_reason = report.reason();
    m_damage = input.named(session->damage());
    return true;
}

} // namespace windscope::cli
