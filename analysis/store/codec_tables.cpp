// SPDX-License-Identifier: GPL-3.0-or-later
// The capture part (summary, dictionaries, side tables) and the frame columns.
#include "codec_parts.h"

#include <algorithm>
#include <set>

namespace windscope::analysis::store::codec {

namespace {

// ---- CaptureTables ---------------------------------------------------------------------

template <typename Io, typename S> void summaryFields(Io& io, S& s)
{
    io(s.path);
    io(s.packets);
    io(s.bytesCaptured);
    io(s.firstEpochNs);
    io(s.lastEpochNs);
    io(s.truncated);
    io(s.cancelled);
    io(s.malformedPackets);
    io(s.unknownLinkTypePackets);
    io(s.wlanFrames);
    io(s.badFcsFrames);
    io(s.macDuplicateFrames);
    io(s.ipFragmentsSkipped);
    io(s.tcpSegments);
}

template <typename Io, typename R> void sideOptionFields(Io& io, R& o)
{
    io(o.mss);
    io(o.windowScale);
    io(o.sackPermitted);
    io(o.sackBlockCount);
    for (auto& block : o.sackBlocks)
        io(block);
}

template <typename Io, typename R> void managementFields(Io& io, R& m)
{
    io(m.row);
    io(m.ssid);
    io(m.beaconIntervalTu);
    io(m.capability);
    io(m.statusCode);
    io(m.reasonCode);
    io(m.authAlgorithm);
    io(m.authSequence);
    io(m.dsChannel);
    io(m.actionCategory);
    io(m.actionCode);
}

// The wlan and tcp columns in one list so encode and decode cannot drift apart.
template <typename F, typename T> void wlanColumns(F&& f, T& w)
{
    f(w.frame);
    f(w.timeNs);
    f(w.frameControl);
    f(w.sequenceControl);
    f(w.duration);
    f(w.addresses);
    f(w.signalDbm);
    f(w.radioFlags);
    f(w.mcs);
    f(w.dataRateKbps);
    f(w.channelFreqMhz);
    f(w.ampduReference);
    f(w.status);
}

template <typename F, typename T> void tcpColumns(F&& f, T& t)
{
    f(t.frame);
    f(t.timeNs);
    f(t.conversation);
    f(t.seq);
    f(t.ack);
    f(t.window);
    f(t.flags);
    f(t.payloadLength);
    f(t.tsVal);
    f(t.tsEcr);
}


} // namespace

void encodeCapture(Writer& w, const dissect::CaptureTables& t)
{
    auto put = [&](const auto& v) { w.put(v); };
    summaryFields(put, t.summary);
    w.list(t.summary.linkTypes, [&](int type) { w.put(static_cast<std::int32_t>(type)); });
    w.list(t.summary.warnings, [&](const std::string& s) { w.put(s); });
    w.list(t.summary.malformed, [&](const dissect::MalformedRecord& m) {
        w.put(m.frame);
        w.put(m.annotation.severity);
        w.put(m.annotation.field);
        w.put(m.annotation.message);
    });
    w.list(t.tcpSideOptions, [&](const dissect::TcpSideOptions& o) { sideOptionFields(put, o); });
    w.list(t.conversations, [&](const dissect::ConversationKey& k) {
        w.put(k.addrA);
        w.put(k.addrB);
        w.put(k.portA);
        w.put(k.portB);
    });
    w.list(t.macDuplicateTcp, [&](const dissect::ExcludedTcpSegment& e) {
        w.put(e.frame);
        w.put(e.timeNs);
        w.put(e.conversation);
        w.put(e.fromB);
    });
    w.list(t.relayedTcp, [&](const dissect::RelayedTcpSegment& e) {
        w.put(e.frame);
        w.put(e.firstFrame);
        w.put(e.timeNs);
        w.put(e.conversation);
        w.put(e.fromB);
        w.put(e.firstTtl);
        w.put(e.ttl);
    });
    w.list(t.conversationTtl, [&](const std::array<std::uint8_t, 2>& ttl) {
        w.put(ttl[0]);
        w.put(ttl[1]);
    });
    w.put(static_cast<std::uint64_t>(t.ipAddresses.size()));
    for (std::uint32_t i = 0; i < t.ipAddresses.size(); ++i) {
        const dissect::IpAddress& a = t.ipAddresses.at(i);
        w.put(a.family);
        for (std::uint8_t b : a.bytes)
            w.put(b);
    }
    w.put(static_cast<std::uint64_t>(t.macAddresses.size()));
    for (std::uint32_t i = 0; i < t.macAddresses.size(); ++i)
        for (std::uint8_t b : t.macAddresses.at(i).bytes)
            w.put(b);
    w.list(t.wlanManagement,
           [&](const dissect::WlanManagementRecord& m) { managementFields(put, m); });
    w.put(static_cast<std::uint64_t>(t.ssids.size()));
    for (std::uint32_t i = 0; i < t.ssids.size(); ++i)
        w.put(t.ssids.at(i));
}

bool decodeCapture(Reader& r, dissect::CaptureTables& t, std::string& error)
{
    t.summary = {};
    t.tcpSideOptions.clear();
    t.conversations.clear();
    t.macDuplicateTcp.clear();
    t.relayedTcp.clear();
    t.conversationTtl.clear();
    t.ipAddresses = {};
    t.macAddresses = {};
    t.wlanManagement.clear();
    t.ssids = {};
    auto get = [&](auto& v) { r.get(v); };
    summaryFields(get, t.summary);
    r.list(t.summary.linkTypes, 4, [&](int& type) {
        std::int32_t v = 0;
        r.get(v);
        type = v;
    });
    r.list(t.summary.warnings, 8, [&](std::string& s) { r.get(s); });
    r.list(t.summary.malformed, 25, [&](dissect::MalformedRecord& m) {
        r.get(m.frame);
        r.get(m.annotation.severity);
        r.get(m.annotation.field);
        r.get(m.annotation.message);
    });
    r.list(t.tcpSideOptions, 36, [&](dissect::TcpSideOptions& o) { sideOptionFields(get, o); });
    r.list(t.conversations, 12, [&](dissect::ConversationKey& k) {
        r.get(k.addrA);
        r.get(k.addrB);
        r.get(k.portA);
        r.get(k.portB);
    });
    r.list(t.macDuplicateTcp, 21, [&](dissect::ExcludedTcpSegment& e) {
        r.get(e.frame);
        r.get(e.timeNs);
        r.get(e.conversation);
        r.get(e.fromB);
    });
    r.list(t.relayedTcp, 31, [&](dissect::RelayedTcpSegment& e) {
        r.get(e.frame);
        r.get(e.firstFrame);
        r.get(e.timeNs);
        r.get(e.conversation);
        r.get(e.fromB);
        r.get(e.firstTtl);
        r.get(e.ttl);
    });
    r.list(t.conversationTtl, 2, [&](std::array<std::uint8_t, 2>& ttl) {
        r.get(ttl[0]);
        r.get(ttl[1]);
    });
    // Dictionaries are rebuilt by interning in id order, which gives back the same ids.
    std::uint64_t count = 0;
    r.get(count);
    for (std::uint64_t i = 0; i < count && r.ok(); ++i) {
        dissect::IpAddress a;
        r.get(a.family);
        for (std::uint8_t& b : a.bytes)
            r.get(b);
        if (r.ok() && t.ipAddresses.intern(a) != i)
            return error = "damaged cached capture: repeated IP address", false;
    }
    count = 0;
    r.get(count);
    for (std::uint64_t i = 0; i < count && r.ok(); ++i) {
        dissect::MacAddress m;
        for (std::uint8_t& b : m.bytes)
            r.get(b);
        if (r.ok() && t.macAddresses.intern(m) != i)
            return error = "damaged cached capture: repeated MAC address", false;
    }
    r.list(t.wlanManagement, 20,
           [&](dissect::WlanManagementRecord& m) { managementFields(get, m); });
    count = 0;
    r.get(count);
    for (std::uint64_t i = 0; i < count && r.ok(); ++i) {
        std::string ssid;
        r.get(ssid);
        if (r.ok() && t.ssids.intern(ssid) != i)
            return error = "damaged cached capture: repeated SSID", false;
    }
    return r.finish(error);
}

// The 802.11 address sets that WlanColumns::addresses names, in id order.
void encodeAddressSets(Writer& w, const dissect::WlanColumns& wlan)
{
    w.put(static_cast<std::uint64_t>(wlan.addressSets.size()));
    for (std::uint32_t i = 0; i < wlan.addressSets.size(); ++i)
        for (std::uint32_t mac : wlan.addressSets.at(i).mac)
            w.put(mac);
}

bool decodeFrameColumns(Reader& r, dissect::CaptureTables& t, std::string& error)
{
    auto column = [&](auto& v) { r.column(v); };
    wlanColumns(column, t.wlan);
    tcpColumns(column, t.tcp);
    r.column(t.tcp.sideOptionRows);
    t.wlan.addressSets = {};
    std::uint64_t sets = 0;
    r.get(sets);
    for (std::uint64_t i = 0; i < sets && r.ok(); ++i) {
        dissect::WlanAddressSet set;
        for (std::uint32_t& mac : set.mac)
            r.get(mac);
        if (r.ok() && t.wlan.addressSets.intern(set) != i)
            return error = "damaged cached frame columns: repeated 802.11 address set", false;
    }
    if (!r.finish(error))
        return false;
    for (std::uint32_t set : t.wlan.addresses)
        if (set >= t.wlan.addressSets.size())
            return error = "damaged cached frame columns: unknown 802.11 address set", false;
    // Columns must be parallel; a mismatch means the blob is not what was written.
    const std::size_t wlanRows = t.wlan.frame.size(), tcpRows = t.tcp.frame.size();
    bool parallel = true;
    wlanColumns([&](const auto& v) { parallel = parallel && v.size() == wlanRows; }, t.wlan);
    tcpColumns([&](const auto& v) { parallel = parallel && v.size() == tcpRows; }, t.tcp);
    if (!parallel)
        return error = "damaged cached frame columns: columns of different lengths", false;
    // Side options are sparse: ascending rows, each flagged, one per cached entry.
    std::size_t flagged = 0;
    for (std::uint16_t f : t.tcp.flags)
        flagged += (f & dissect::TcpColumns::kHasSideOptions) != 0;
    if (flagged != t.tcp.sideOptionRows.size() || !std::is_sorted(t.tcp.sideOptionRows.begin(), t.tcp.sideOptionRows.end()) ||
        (!t.tcp.sideOptionRows.empty() && t.tcp.sideOptionRows.back() >= tcpRows))
        return error = "damaged cached frame columns: TCP side options do not match their rows", false;
    return true;
}

void encodeFrameColumns(Writer& w, const dissect::CaptureTables& t)
{
    auto column = [&](const auto& v) { w.column(v); };
    wlanColumns(column, t.wlan);
    tcpColumns(column, t.tcp);
    w.column(t.tcp.sideOptionRows);
    encodeAddressSets(w, t.wlan);
}

} // namespace windscope::analysis::store::codec
