// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bodies of the two fuzz targets, shared by the libFuzzer entry points
// (fuzz_dissectors.cpp, fuzz_reader.cpp) and the regression replayer that runs in
// every build (test_fuzz_regressions.cpp), so a kept crasher is replayed through
// exactly the code that found it.
//
// Each target returns a FuzzOutcome; checkOutcome() names the first broken invariant
// (counts that must agree whatever the input), or returns an empty string.

#include "dissectors/dissector_set.h"
#include "dissectors/frame.h"
#include "dissectors/ingest.h"
#include "dissectors/table_builder.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include <sys/mman.h>
#include <unistd.h>

namespace windscope::fuzz {

struct FuzzOutcome
{
    bool ingested = true;   // fuzzReader: ingestCapture returned true
    std::string error;      // fuzzReader: ingestCapture's reason when it returned false
    int linkType = -1;      // fuzzDissectors: the link type the selector chose
    std::uint64_t framesFed = 0;
    dissect::CaptureTables tables;
};

// The link types DissectorSet::standard() decodes, in registration order.
inline const std::vector<std::uint32_t>& fuzzLinkTypes()
{
    static const std::vector<std::uint32_t> types = dissect::DissectorSet::standard().linkTypes.keys();
    return types;
}

// Input layout: 2-byte little-endian selector, then one captured frame. A selector
// equal to a registered link type number picks that type (so seeds stay readable and
// survive registration-order changes); any other value picks by index, so every
// mutation of the selector still lands on a decoder.
inline int selectLinkType(std::uint16_t selector)
{
    const auto& types = fuzzLinkTypes();
    if (types.empty())
        return -1;
    for (std::uint32_t type : types)
        if (type == selector)
            return static_cast<int>(type);
    return static_cast<int>(types[selector % types.size()]);
}

// Decodes one frame with the chosen link-layer decoder and appends it to the tables
// twice: the second copy, one millisecond later, is what a MAC retry looks like to
// a monitor-mode sniffer, so the 802.11 duplicate filter and the MAC-duplicate TCP
// path run too.
inline FuzzOutcome fuzzDissectors(const std::uint8_t* data, std::size_t size)
{
    static const dissect::DissectorSet dissectors = dissect::DissectorSet::standard();
    FuzzOutcome outcome;
    if (size < 2)
        return outcome;
    outcome.linkType = selectLinkType(static_cast<std::uint16_t>(data[0] | data[1] << 8));
    const std::uint8_t* frameBytes = data + 2;
    const auto length = static_cast<std::uint32_t>(size - 2);
    dissect::TableBuilder builder(outcome.tables);
    dissect::Frame frame;
    for (std::uint64_t number = 1; number <= 2; ++number) {
        frame.reset(number, 1'700'000'000'000'000'000 + std::int64_t(number) * 1'000'000, length,
                    length, outcome.linkType);
        const bool known = dissectors.decodeLinkLayer(dissect::ByteView(frameBytes, length), frame);
        builder.add(frame, known);
        ++outcome.framesFed;
    }
    builder.finish();
    return outcome;
}

// A memfd holding bytes, opened by readers through its /proc path like any file.
class MemoryFile
{
public:
    explicit MemoryFile(const char* name) : m_fd(memfd_create(name, MFD_CLOEXEC)) {}
    ~MemoryFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;

    bool ok() const { return m_fd >= 0; }
    std::string path() const { return "/proc/self/fd/" + std::to_string(m_fd); }
    bool write(const std::uint8_t* data, std::size_t size)
    {
        std::size_t written = 0;
        while (written < size) {
            const ssize_t n = ::write(m_fd, data + written, size - written);
            if (n <= 0)
                return false;
            written += static_cast<std::size_t>(n);
        }
        return true;
    }

private:
    int m_fd = -1;
};

// Runs the whole ingest path (file format detection, gzip, libpcap or the native
// pcapng reader, decoders, tables) on the input as a file. A memfd keeps it off the
// disk; the reader opens it by its /proc path like any other file.
inline FuzzOutcome fuzzReader(const std::uint8_t* data, std::size_t size)
{
    FuzzOutcome outcome;
    MemoryFile file("windscope-fuzz");
    if (!file.ok() || !file.write(data, size)) {
        outcome.ingested = false;
        outcome.error = "the input could not be put in a memory file";
        return outcome;
    }
    dissect::IngestOptions options;
    outcome.ingested = dissect::ingestCapture(file.path(), options, outcome.tables, outcome.error);
    return outcome;
}

// Invariants that hold for any input, valid or not.
inline std::string checkOutcome(const FuzzOutcome& o, bool fromReader)
{
    const dissect::CaptureSummary& s = o.tables.summary;
    auto fail = [](const char* what) { return std::string(what); };
    if (fromReader && !o.ingested) {
        if (o.error.empty())
            return fail("ingestCapture returned false without a reason");
        return {};
    }
    if (!fromReader && s.packets != o.framesFed)
        return fail("summary.packets differs from the frames fed");
    if (s.malformedPackets > s.packets)
        return fail("more malformed packets than packets");
    if (s.malformed.size() > s.malformedPackets ||
        s.malformed.size() > dissect::CaptureSummary::kMaxMalformedRecords)
        return fail("more malformed records than malformed packets");
    if (s.unknownLinkTypePackets > s.packets)
        return fail("more unknown-link-type packets than packets");
    if (s.wlanFrames != o.tables.wlan.size() || s.wlanFrames > s.packets)
        return fail("summary.wlanFrames disagrees with the 802.11 table");
    // A bad-FCS frame is counted as such even when its 802.11 header cannot be read,
    // and never also as malformed (table_builder.cpp).
    if (s.badFcsFrames + s.malformedPackets > s.packets)
        return fail("bad-FCS and malformed frames together exceed the packets");
    if (s.macDuplicateFrames > s.wlanFrames)
        return fail("MAC duplicates exceed the 802.11 frames");
    if (s.tcpSegments != o.tables.tcp.size() || s.tcpSegments > s.packets)
        return fail("summary.tcpSegments disagrees with the TCP table");
    if (o.tables.tcp.size() + o.tables.macDuplicateTcp.size() + s.ipFragmentsSkipped > s.packets)
        return fail("more TCP rows than packets");
    const dissect::TcpColumns& t = o.tables.tcp;
    const std::size_t n = t.size();
    if (t.timeNs.size() != n || t.conversation.size() != n || t.seq.size() != n ||
        t.ack.size() != n || t.window.size() != n || t.flags.size() != n ||
        t.payloadLength.size() != n || t.tsVal.size() != n || t.tsEcr.size() != n)
        return fail("TCP columns have different lengths");
    for (std::size_t i = 0; i < n; ++i) {
        if (t.conversation[i] >= o.tables.conversations.size())
            return fail("TCP row names a conversation that does not exist");
        if ((t.flags[i] & dissect::TcpColumns::kHasSideOptions) &&
            t.sideOptionsIndex(i) >= o.tables.tcpSideOptions.size())
            return fail("TCP row names side options that do not exist");
        if (t.frame[i] == 0 || t.frame[i] > s.packets)
            return fail("TCP row names a frame number outside the capture");
    }
    for (const dissect::TcpSideOptions& side : o.tables.tcpSideOptions)
        if (side.sackBlockCount > side.sackBlocks.size() / 2)
            return fail("more SACK blocks than the side table holds");
    const dissect::WlanColumns& w = o.tables.wlan;
    const std::size_t m = w.size();
    if (w.timeNs.size() != m || w.frameControl.size() != m || w.sequenceControl.size() != m ||
        w.addresses.size() != m ||
        w.signalDbm.size() != m || w.status.size() != m || w.channelFreqMhz.size() != m)
        return fail("802.11 columns have different lengths");
    for (std::size_t i = 0; i < m; ++i)
        for (std::uint32_t id : {w.addr1(i), w.addr2(i), w.addr3(i)})
            if (id != 0xffffffffu && id >= o.tables.macAddresses.size())
                return fail("802.11 row names a MAC address that was never interned");
    for (const dissect::ConversationKey& key : o.tables.conversations)
        if (key.addrA >= o.tables.ipAddresses.size() || key.addrB >= o.tables.ipAddresses.size())
            return fail("conversation names an IP address that was never interned");
    if (s.linkTypes.empty() && s.packets > 0)
        return fail("packets were counted but no link type was noted");
    return {};
}

} // namespace windscope::fuzz
