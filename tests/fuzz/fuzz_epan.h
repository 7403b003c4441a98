// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The body of the fuzz target over the libwireshark packet path: a capture file opened
// as the desktop's packet pane and `windscope-cli packet` open it (wiretap reads it, the
// first pass dissects every frame with a WPA key set, so the 802.11 decryption and the
// rebuilt plaintext frames run too), then frames dissected again on demand into
// Windscope's own tree records, then the decrypted export that the native ingest reads.
//
// Written against the module's function table (epan_module.h), which EpanSession only
// forwards to: windscope-fuzz-epan links the module's sources with the fuzzer's
// instrumentation and passes its table; the replay of the kept inputs in every build
// (tests/wireshark/test_fuzz_epan.cpp) passes the table of the module the programs load.
//
// Returns "" or the invariant the input broke. Beyond memory errors: a refused file has a
// reason that names it; every frame the first pass read can be dissected again into a
// tree whose items point at data sources that exist; frame 0 and the frame past the end
// are refused with a reason; an export either fails with a reason or writes a capture the
// native reader reads whole, with as many packets as the first pass had frames.

#include "dissectors/wireshark/epan_module.h"
#include "fuzz_targets.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace windscope::fuzz {

// Frames dissected again per input: the re-dissection of frame N depends on the first
// pass only, so a few frames cover the path; all of them would make a long capture
// dominate the run.
inline constexpr std::uint64_t kEpanFramesDissectedAgain = 16;

// The key of the WPA2 seed captures (tests/data/wpa2-http-ccmp.pcap), so mutations of
// their handshake and CCMP frames reach the decryption and the rebuilt frames.
inline constexpr const char* kEpanFuzzPassphrase = "correct horse battery";
inline constexpr const char* kEpanFuzzSsid = "windscope-lab";

inline std::string checkTreeSources(const std::vector<dissect::wireshark::PacketTreeNode>& nodes,
                                    std::size_t sourceCount)
{
    for (const dissect::wireshark::PacketTreeNode& node : nodes) {
        if (node.source < 0 || static_cast<std::size_t>(node.source) >= sourceCount)
            return "a tree item names a data source that does not exist";
        if (node.offset < 0 || node.length < 0)
            return "a tree item has a negative offset or length";
        if (std::string broken = checkTreeSources(node.children, sourceCount); !broken.empty())
            return broken;
    }
    return {};
}

inline std::string fuzzEpan(const dissect::wireshark::EpanModuleApi& api,
                            const dissect::wireshark::EpanIsolation& isolation,
                            const std::uint8_t* data, std::size_t size)
{
    namespace ws = dissect::wireshark;
    MemoryFile input("windscope-fuzz-epan");
    if (!input.ok() || !input.write(data, size))
        return {}; // the machine, not the input
    const std::string path = input.path();

    ws::EpanOptions options;
    ws::WpaKey key;
    key.passphrase = kEpanFuzzPassphrase;
    key.ssid = kEpanFuzzSsid;
    options.keys.push_back(key);
    std::string error;
    bool refused = false;
    void* session = api.open(path, options, isolation, error, refused);
    if (refused)
        return "libwireshark was refused: " + error; // isolation holds in the fuzzer
    if (!session) {
        if (error.find(path) == std::string::npos)
            return "a refused capture's reason does not name the file: " + error;
        return {};
    }
    struct Closer
    {
        const ws::EpanModuleApi& api;
        void* session;
        ~Closer() { api.close(session); }
    } closer{api, session};

    const std::uint64_t frames = api.frameCount(session); // 0 for a capture with no record
    const ws::DecryptionReport& report = api.decryption(session);
    if (report.decryptedFrames > report.protectedFrames)
        return "more frames decrypted than protected";
    if (report.decryptedFrames < report.protectedFrames && report.reason().empty())
        return "frames stayed encrypted without a reason";
    const std::string& damage = api.damage(session);
    if (!damage.empty() && damage.find(path) == std::string::npos)
        return "the damage report does not name the file: " + damage;

    for (std::uint64_t frame = 1; frame <= std::min(frames, kEpanFramesDissectedAgain); ++frame) {
        ws::PacketDetail detail;
        if (!api.dissect(session, frame, detail, error))
            return "frame " + std::to_string(frame) + " of " + std::to_string(frames) +
                   " was read in the first pass but cannot be dissected again: " + error;
        if (detail.frame != frame)
            return "a dissected frame carries another frame's number";
        if (detail.sources.empty())
            return "a dissected frame has no data source";
        if (std::string broken = checkTreeSources(detail.tree, detail.sources.size()); !broken.empty())
            return broken;
        (void)detail.text();
    }
    for (const std::uint64_t absent : {std::uint64_t{0}, frames + 1}) {
        ws::PacketDetail detail;
        error.clear();
        if (api.dissect(session, absent, detail, error) || error.find(path) == std::string::npos)
            return "frame " + std::to_string(absent) + " was not refused with a reason naming the file";
    }

    MemoryFile exported("windscope-fuzz-epan-export");
    if (!exported.ok())
        return {};
    error.clear();
    if (!api.writeDecryptedPcap(session, exported.path(), error))
        return error.empty() ? std::string("an export failed without a reason") : std::string();
    dissect::CaptureTables tables;
    dissect::IngestOptions ingestOptions;
    if (!dissect::ingestCapture(exported.path(), ingestOptions, tables, error))
        return "the native reader refuses the decrypted export: " + error;
    if (tables.summary.truncated)
        return "the native reader finds the decrypted export cut short";
    if (tables.summary.packets != frames)
        return "the decrypted export holds " + std::to_string(tables.summary.packets) +
               " packets where the first pass read " + std::to_string(frames) + " frames";
    return {};
}

} // namespace windscope::fuzz
