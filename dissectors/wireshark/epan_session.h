// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Wireshark (libwireshark / epan) backend, behind our own interface: this header
// names no epan or glib type, so the GUI, the CLI and tests include it without the
// Wireshark headers, and a new Wireshark minor release (whose API changes) only touches
// epan_session.cpp.
//
// Use:
//     EpanOptions options;                            // optional WPA keys, preferences
//     auto session = EpanSession::open("x.pcap", options, error);
//     PacketDetail detail;
//     if (session && session->dissect(42, detail, error))   // frame 42, 1-based
//         ... detail.tree, detail.sources[0].bytes ...
//
// open() reads the whole file once (the first pass), in order, in one epan session, as
// Wireshark does: TCP analysis, reassembly and WPA key derivation keep state across
// frames, so a frame's tree is only right after every earlier frame was dissected.
// dissect() then re-dissects any frame on demand, in any order (Wireshark's two-pass
// view, as `tshark -2`), at about 0.1 ms per frame.
//
// Threading and lifetime: libwireshark keeps its dissection state in process globals.
// Only one EpanSession can be open at a time in a process (open() refuses a second one)
// and all calls must come from one thread. The library is initialised on the first
// open() and stays initialised until the process exits (it cannot be initialised
// again after a cleanup). Each session keeps about 11 MB of heap inside libwireshark
// until exit, so a long-lived process opening many files grows by that much per file.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace windscope::dissect::wireshark {

// One node of the dissection tree (one proto_item).
struct PacketTreeNode
{
    std::string
        label; // the text Wireshark shows, e.g. "Sequence Number: 1    (relative sequence number)"
    std::string abbrev; // the display-filter field name, e.g. "tcp.seq"; "" for text-only items
    std::string
        value; // the value as `tshark -T fields` prints it ("" for FT_NONE fields and protocols)
    std::int32_t source = 0; // index into PacketDetail::sources of the bytes this item covers
    std::int32_t offset = 0; // first byte in that source
    std::int32_t length = 0; // bytes covered (0 = none)
    bool generated = false;  // not on the wire (Wireshark shows it in [brackets])
    bool hidden = false;     // filterable but not shown by Wireshark
    std::vector<PacketTreeNode> children;
};

// A byte buffer tree items refer to: the frame itself, or one Wireshark built
// (reassembled TCP data, decrypted CCMP data, decompressed bodies).
struct DataSource
{
    std::string name; // "Frame (66 bytes)", "Decrypted CCMP data (60 bytes)"
    std::vector<std::uint8_t> bytes;
};

struct PacketDetail
{
    std::uint64_t frame = 0;          // 1-based, as frame.number
    std::string protocols;            // frame.protocols, e.g. "radiotap:wlan_radio:wlan:llc:ip:tcp"
    std::vector<PacketTreeNode> tree; // the top-level protocol items, in order
    std::vector<DataSource> sources;  // sources[0] is the frame as captured
    // The tree printed like `tshark -V` (hidden items left out, generated ones in
    // brackets, four spaces per level).
    std::string text() const;
};

// A WPA/WPA2-PSK key for 802.11 decryption.
struct WpaKey
{
    enum class Kind : std::uint8_t { Passphrase, Psk };
    Kind kind = Kind::Passphrase;
    std::string passphrase; // Kind::Passphrase: 8..63 characters
    std::string ssid;       // Kind::Passphrase: the network name (may be empty: any)
    std::string psk;        // Kind::Psk: the 64 hex digits of the PMK
    // "passphrase:ssid", or 64 hex digits (PSK). The last ':' separates the SSID.
    // Wireshark's spellings "wpa-pwd:passphrase:ssid" and "wpa-psk:hex" are accepted.
    static bool parse(const std::string& text, WpaKey& key, std::string& error);
};

struct EpanOptions
{
    std::vector<WpaKey> keys;
    // Wireshark preferences as for `tshark -o name:value`.
    std::vector<std::string> preferences;
    // Read the user's Wireshark profile (preferences, decryption keys); never its Lua
    // (a profile with an init.lua is refused) nor any plugin. Off by default so that
    // results do not depend on who runs the analysis; decided by the first open() of the
    // process.
    bool useUserProfile = false;
};

// What happened to protected (encrypted) 802.11 data frames in the first pass.
struct DecryptionReport
{
    std::uint64_t protectedFrames = 0; // wlan.fc.protected == 1 (data frames)
    std::uint64_t decryptedFrames = 0; // of which epan decrypted
    std::uint64_t eapolKeyFrames = 0;  // EAPOL-Key frames (4-way handshake messages)
    std::uint64_t handshakeMessages[4] = {0, 0, 0, 0}; // messages 1..4 seen
    bool keysGiven = false;
    // "" when nothing stayed encrypted, else why frames stayed encrypted: no key given,
    // no 4-way handshake seen, or a handshake seen that the keys do not match.
    std::string reason() const;
};

// A frame after the first pass, as the native ingest wants it: the 802.11 frame with
// its payload decrypted (Protected bit cleared, CCMP header and MIC removed) when epan
// decrypted it, else the bytes as captured.
struct RecordForExport
{
    std::uint64_t frame = 0;
    std::int64_t epochNs = 0;
    std::uint32_t originalLength = 0;
    std::vector<std::uint8_t> bytes;
    bool decrypted = false;
};

class EpanSession
{
public:
    ~EpanSession();
    EpanSession(const EpanSession&) = delete;
    EpanSession& operator=(const EpanSession&) = delete;

    // Opens path and runs the first pass. Returns null with error set (naming the file)
    // when the file cannot be read or another session is open. Also null, with *refused
    // set, when libwireshark cannot be isolated from the user's and the system's
    // Wireshark plugins and configuration (docs/wireshark.md, "Isolation"): it is then
    // never started in this process.
    static std::unique_ptr<EpanSession> open(const std::string& path, const EpanOptions& options,
                                             std::string& error, bool* refused = nullptr);

    std::uint64_t frameCount() const;
    // "" when the first pass read the whole file; else "PATH: damaged in frame N (...);
    // frames 1-M are readable" (or "file is cut short in frame N"): frames past M do not exist.
    const std::string& damage() const;
    // The full tree of frame (1-based). False with error when out of range or unreadable.
    bool dissect(std::uint64_t frame, PacketDetail& detail, std::string& error);
    const DecryptionReport& decryption() const;
    // Writes the capture as pcap with the frames epan decrypted replaced by their
    // plaintext form (see RecordForExport), for the native ingest and TCP analysis.
    // Only 802.11 link types (plain, radiotap) are rewritten; others are copied.
    bool writeDecryptedPcap(const std::string& outPath, std::string& error);

    // "4.0.17" as built against (WIRESHARK_VERSION_*) and as loaded at run time.
    static std::string builtVersion();
    static std::string runtimeVersion();

private:
    struct Impl;
    explicit EpanSession(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace windscope::dissect::wireshark
