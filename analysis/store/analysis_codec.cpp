// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <set>
#include <type_traits>

namespace windscope::analysis::store {

static_assert(std::endian::native == std::endian::little,
              "the cache layout is little-endian; add byte swapping for this target");

namespace {

// Each blob starts with a tag naming its part and the codec version, so a blob of the
// wrong kind or layout is rejected instead of misread (see partTag).

class Writer
{
public:
    explicit Writer(std::uint32_t tag)
    {
        put(tag);
        put(kAnalysisCodecVersion);
    }
    template <typename T> void put(const T& v)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
        m_out.insert(m_out.end(), p, p + sizeof v);
    }
    void put(bool v) { put(static_cast<std::uint8_t>(v)); }
    void put(const std::string& s)
    {
        put(static_cast<std::uint64_t>(s.size()));
        m_out.insert(m_out.end(), s.begin(), s.end());
    }
    void put(const char* s) { put(std::string(s ? s : "")); }
    // A column of plain numbers: count, then the raw values.
    template <typename T> void column(const std::vector<T>& v)
    {
        static_assert(std::is_arithmetic_v<T>);
        put(static_cast<std::uint64_t>(v.size()));
        const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
        m_out.insert(m_out.end(), p, p + v.size() * sizeof(T));
    }
    // Rising numbers (frames, rows, times): their low halves as a column, then where each high half starts.
    template <typename V> void column(const dissect::BasicRisingNumberColumn<V>& c)
    {
        column(c.lowHalves());
        list(c.highStarts(), [&](const dissect::RisingNumberHighStart& h) {
            put(h.row);
            put(h.high);
        });
    }
    template <typename T, typename F> void list(const std::vector<T>& v, F&& each)
    {
        put(static_cast<std::uint64_t>(v.size()));
        for (const T& item : v)
            each(item);
    }
    std::vector<std::uint8_t> take() { return std::move(m_out); }

private:
    std::vector<std::uint8_t> m_out;
};

// Reads a blob front to back from a BlobSource: small fields through a buffer, columns
// straight into their vectors (one copy from the database pages), and every byte through
// the streaming checksum exactly once, in order.
class Reader
{
public:
    Reader(BlobSource& source, std::uint32_t tag, const char* what)
        : m_source(source), m_size(source.size()), m_what(what)
    {
        m_buffer.resize(kBufferBytes);
        std::uint32_t seenTag = 0, version = 0;
        get(seenTag);
        get(version);
        if (m_ok && seenTag != tag)
            fail("not the blob of this part");
        else if (m_ok && version != kAnalysisCodecVersion)
            fail("layout version " + std::to_string(version) + ", this build reads version " +
                 std::to_string(kAnalysisCodecVersion));
    }
    template <typename T> void get(T& v)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
        if (!buffered(sizeof v))
            return;
        std::memcpy(&v, m_buffer.data() + (m_pos - m_bufferStart), sizeof v);
        m_pos += sizeof v;
    }
    void get(bool& v)
    {
        std::uint8_t b = 0;
        get(b);
        v = b != 0;
    }
    void get(std::string& s)
    {
        std::uint64_t n = 0;
        get(n);
        if (!m_ok || n > m_size - m_pos) {
            fail("cut short");
            return;
        }
        s.resize(static_cast<std::size_t>(n));
        copyOut(s.data(), static_cast<std::size_t>(n));
    }
    void get(const char*& s)
    {
        std::string text;
        get(text);
        s = internedText(text);
    }
    template <typename T> void column(std::vector<T>& v)
    {
        std::uint64_t n = 0;
        get(n);
        if (!m_ok || n > (m_size - m_pos) / sizeof(T)) {
            fail("column longer than the blob");
            return;
        }
        v.resize(static_cast<std::size_t>(n));
        copyOut(v.data(), v.size() * sizeof(T));
    }
    template <typename V> void column(dissect::BasicRisingNumberColumn<V>& c)
    {
        std::vector<std::uint32_t> low;
        std::vector<dissect::RisingNumberHighStart> highStarts;
        column(low);
        list(highStarts, 12, [&](dissect::RisingNumberHighStart& h) {
            get(h.row);
            get(h.high);
        });
        if (m_ok && !c.assign(std::move(low), std::move(highStarts)))
            fail("damaged rising-number column");
    }
    // Elements take at least minBytes each, which bounds the count by the blob size.
    template <typename T, typename F> void list(std::vector<T>& v, std::size_t minBytes, F&& each)
    {
        std::uint64_t n = 0;
        get(n);
        if (!m_ok || n > (m_size - m_pos) / (minBytes ? minBytes : 1)) {
            fail("list longer than the blob");
            return;
        }
        v.clear();
        v.resize(static_cast<std::size_t>(n));
        for (T& item : v) {
            each(item);
            if (!m_ok)
                return;
        }
    }
    bool finish(std::string& error)
    {
        if (m_ok && m_pos != m_size)
            fail("trailing bytes");
        if (!m_ok)
            error = m_error;
        return m_ok;
    }
    bool ok() const { return m_ok; }
    // The checksum of every byte read; equal to blobChecksum of the blob once finish()
    // succeeded (the whole blob was read).
    std::uint64_t checksum() const { return m_checksum.value(); }

private:
    static constexpr std::size_t kBufferBytes = 1 << 16;

    // Makes n bytes from m_pos available in the buffer.
    bool buffered(std::size_t n)
    {
        if (!m_ok)
            return false;
        if (n > m_size - m_pos) {
            fail("cut short");
            return false;
        }
        const std::size_t end = m_bufferStart + m_bufferLength;
        if (m_pos + n <= end)
            return true;
        // Keep the unread tail, then read on from the source.
        const std::size_t keep = end - m_pos;
        std::memmove(m_buffer.data(), m_buffer.data() + (m_pos - m_bufferStart), keep);
        const std::size_t more = std::min(m_buffer.size() - keep, m_size - end);
        if (!pull(m_buffer.data() + keep, more))
            return false;
        m_bufferStart = m_pos;
        m_bufferLength = keep + more;
        return true;
    }
    // Copies n bytes from m_pos to out: what the buffer holds, then straight from the source.
    void copyOut(void* out, std::size_t n)
    {
        auto* dst = static_cast<std::uint8_t*>(out);
        const std::size_t end = m_bufferStart + m_bufferLength;
        const std::size_t fromBuffer = std::min(n, end - m_pos);
        std::memcpy(dst, m_buffer.data() + (m_pos - m_bufferStart), fromBuffer);
        m_pos += fromBuffer;
        const std::size_t rest = n - fromBuffer;
        if (rest == 0)
            return;
        if (!pull(dst + fromBuffer, rest))
            return;
        m_pos += rest;
        m_bufferStart = m_pos;
        m_bufferLength = 0;
    }
    // Reads the next n bytes of the source (they follow everything read so far).
    bool pull(std::uint8_t* out, std::size_t n)
    {
        if (n && !m_source.read(m_sourcePos, out, n)) {
            fail("read error");
            return false;
        }
        m_checksum.update(out, n);
        m_sourcePos += n;
        return true;
    }
    void fail(const std::string& why)
    {
        if (m_ok)
            m_error = "damaged " + std::string(m_what) + ": " + why;
        m_ok = false;
    }
    BlobSource& m_source;
    std::size_t m_size;
    std::size_t m_pos = 0;       // logical read position
    std::size_t m_sourcePos = 0; // next byte to pull from the source
    std::vector<std::uint8_t> m_buffer;
    std::size_t m_bufferStart = 0, m_bufferLength = 0;
    StreamChecksum m_checksum;
    const char* m_what;
    bool m_ok = true;
    std::string m_error;
};

class SpanSource final : public BlobSource
{
public:
    explicit SpanSource(std::span<const std::uint8_t> bytes) : m_bytes(bytes) {}
    std::size_t size() const override { return m_bytes.size(); }
    bool read(std::size_t offset, void* out, std::size_t n) override
    {
        std::memcpy(out, m_bytes.data() + offset, n);
        return true;
    }

private:
    std::span<const std::uint8_t> m_bytes;
};

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

// ---- TcpAnalysis -----------------------------------------------------------------------

template <typename Io, typename D> void directionFields(Io& io, D& s)
{
    io(s.packets);
    io(s.bytes);
    io(s.dataPackets);
    io(s.dataBytes);
    io(s.uniqueBytes);
    io(s.retransmittedBytes);
    io(s.retransmissions);
    io(s.fastRetransmissions);
    io(s.spuriousRetransmissions);
    io(s.rtoTimeouts);
    io(s.outOfOrder);
    io(s.lostSegments);
    io(s.ackLostSegments);
    io(s.dupAcks);
    io(s.zeroWindows);
    io(s.zeroWindowProbes);
    io(s.windowUpdates);
    io(s.windowFull);
    io(s.keepAlives);
    io(s.lowWindows);
    io(s.macRetriesExcluded);
    io(s.synCount);
    io(s.finCount);
    io(s.rstCount);
    io(s.sackPackets);
    io(s.maxWindowBytes);
    io(s.rttSamples);
    io(s.rttMinMs);
    io(s.rttAvgMs);
    io(s.rttMaxMs);
    io(s.rttStddevMs);
    io(s.rttFromTimestamps);
    io(s.rttAckSamples);
    io(s.rttTimestampSamples);
    io(s.firstDataTimeNs);
    io(s.lastDataTimeNs);
    io(s.throughputBps);
    io(s.goodputBps);
    io(s.firstTimeNs);
    io(s.lastTimeNs);
}

template <typename Io, typename C> void connectionFields(Io& io, C& c)
{
    io(c.id);
    io(c.conversation);
    for (int i = 0; i < 2; ++i) {
        io(c.address[i]);
        io(c.port[i]);
        io(c.windowScale[i]);
        io(c.mss[i]);
    }
    io(c.handshakeSeen);
    io(c.windowScaleKnown);
    io(c.sackPermitted);
    io(c.timestamps);
    io(c.handshakeRttNs);
    io(c.firstTimeNs);
    io(c.lastTimeNs);
    io(c.firstFrame);
    io(c.lastFrame);
    io(c.segments);
    io(c.lowWindowThresholdBytes);
    directionFields(io, c.direction[0]);
    directionFields(io, c.direction[1]);
}

// The per-segment columns of TcpAnalysis. Relative seq/ack and the scaled window are
// derived from the frame columns through SegmentColumns::decode and checkpoints.
template <typename F, typename T> void segmentColumns(F&& f, T& s)
{
    f(s.connection);
    f(s.flags);
    f(s.bytesInFlight);
}

template <typename Io, typename D> void decodeSideFields(Io& io, D& d)
{
    io(d.seqBase);
    io(d.ackBase);
    io(d.windowShift);
    io(d.hasCheckpoints);
}

template <typename Io, typename C> void checkpointFields(Io& io, C& c)
{
    io(c.stream);
    io(c.row);
    io(c.value);
    io(c.raw);
}

// ---- WlanEvents ------------------------------------------------------------------------

template <typename Io, typename E> void eventFields(Io& io, E& e)
{
    io(e.id);
    io(e.kind);
    io(e.station);
    io(e.bssid);
    io(e.newBssid);
    io(e.startNs);
    io(e.endNs);
    io(e.resumedNs);
    io(e.basis);
    io(e.openEnded);
    io(e.evidenceCount);
    io(e.probeRequests);
    io(e.psPolls);
    io(e.framesToStation);
    io(e.retriesToStation);
    io(e.uplinkFrames);
    io(e.connection);
    io(e.tcpRetransmissions);
}

template <typename Io, typename P> void scanPatternFields(Io& io, P& p)
{
    io(p.station);
    io(p.scans);
    io(p.intervalMs);
    io(p.dwellMs);
    io(p.periodic);
}

template <typename Io, typename B> void macBinFields(Io& io, B& b)
{
    io(b.startNs);
    io(b.framesSent);
    io(b.framesReceived);
    io(b.retries);
    io(b.failedAttempts);
    io(b.rateSamples);
    io(b.meanRateMbps);
    io(b.maxMcs);
    io(b.signalSamples);
    io(b.meanSignalDbm);
    io(b.ampdus);
    io(b.ampduSubframes);
    io(b.blockAcks);
    io(b.blockAckRequests);
}

// ---- WlanInventory ---------------------------------------------------------------------

template <typename Io, typename A> void accessPointFields(Io& io, A& a)
{
    io(a.bssid);
    io(a.ssid);
    io(a.channel);
    io(a.channelFreqMhz);
    io(a.beaconIntervalTu);
    io(a.beacons);
    io(a.probeResponses);
    io(a.dataFrames);
    io(a.firstTimeNs);
    io(a.lastTimeNs);
}

template <typename Io, typename S> void spanFields(Io& io, S& s)
{
    io(s.bssid);
    io(s.startNs);
    io(s.endNs);
    io(s.firstFrame);
    io(s.lastFrame);
    io(s.dataFrames);
}

template <typename Io, typename M> void associationFrameFields(Io& io, M& m)
{
    io(m.timeNs);
    io(m.frame);
    io(m.row);
    io(m.bssid);
    io(m.subtype);
    io(m.statusCode);
    io(m.reasonCode);
    io(m.fromStation);
}

template <typename Io, typename S> void stationFields(Io& io, S& s)
{
    io(s.mac);
    io(s.framesSent);
    io(s.framesReceived);
    io(s.probeRequests);
    io(s.firstTimeNs);
    io(s.lastTimeNs);
}

// ---- Correlation -----------------------------------------------------------------------

template <typename Io, typename M> void connectionImpactFields(Io& io, M& m)
{
    io(m.connection);
    io(m.dataDirection);
    io(m.windowStartNs);
    io(m.windowEndNs);
    io(m.retransmissions);
    io(m.fastRetransmissions);
    io(m.rtoTimeouts);
    io(m.dupAcks);
    io(m.dupAckBursts);
    io(m.zeroWindows);
    io(m.lowWindows);
    io(m.throughputBeforeBps);
    io(m.throughputDuringBps);
    io(m.throughputAfterBps);
    io(m.recoveryNs);
    io(m.cwndBeforeBytes);
    io(m.cwndMinBytes);
    io(m.cwndAfterBytes);
    io(m.ssthreshAfterBytes);
    io(m.cwndModel);
    io(m.cwndNotFollowed);
}

template <typename Io, typename K> void kindAggregateFields(Io& io, K& k)
{
    io(k.kind);
    io(k.events);
    io(k.eventsWithConnections);
    io(k.meanDurationMs);
    io(k.retransmissions);
    io(k.rtoTimeouts);
    io(k.dupAckBursts);
    io(k.zeroWindows);
    io(k.meanThroughputDuringPct);
    io(k.meanRecoveryMs);
    io(k.notRecovered);
}

template <typename Io, typename A> void scanIntervalFields(Io& io, A& a)
{
    io(a.station);
    io(a.intervalMs);
    io(a.dwellMs);
    io(a.periodic);
    io(a.scans);
    io(a.scanningStartNs);
    io(a.scanningEndNs);
    io(a.throughputScanningBps);
    io(a.throughputScanFreeBps);
    io(a.throughputPct);
    io(a.lossesPerScan);
    io(a.timeoutsPerScan);
}

} // namespace

const char* internedText(const std::string& text)
{
    static std::mutex mutex;
    static std::set<std::string, std::less<>>* pool = new std::set<std::string, std::less<>>;
    std::lock_guard lock(mutex);
    return pool->insert(text).first->c_str();
}

namespace {

// One tag per part ("WSP" + part number) so a blob of one part is never read as another.
std::uint32_t partTag(CachePart part)
{
    return 0x00505357u | (static_cast<std::uint32_t>('0' + static_cast<int>(part)) << 24);
}

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

void encodeSegments(Writer& w, const TcpAnalysis& tcp)
{
    auto column = [&](const auto& v) { w.column(v); };
    segmentColumns(column, tcp.segments);
    w.list(tcp.segments.dupAckNumber, [&](const std::pair<std::uint64_t, std::uint32_t>& p) {
        w.put(p.first);
        w.put(p.second);
    });
    auto put = [&](const auto& v) { w.put(v); };
    w.list(tcp.segments.decode, [&](const SegmentDecodeSide& d) { decodeSideFields(put, d); });
    w.list(tcp.segments.checkpoints, [&](const SegmentDecodeCheckpoint& c) { checkpointFields(put, c); });
    w.column(tcp.rtt.ackRowColumn());
    w.column(tcp.rtt.backColumn());
}

bool decodeSegments(Reader& r, TcpAnalysis& tcp, std::string& error)
{
    auto column = [&](auto& v) { r.column(v); };
    segmentColumns(column, tcp.segments);
    r.list(tcp.segments.dupAckNumber, 12, [&](std::pair<std::uint64_t, std::uint32_t>& p) {
        r.get(p.first);
        r.get(p.second);
    });
    auto get = [&](auto& v) { r.get(v); };
    r.list(tcp.segments.decode, 10, [&](SegmentDecodeSide& d) { decodeSideFields(get, d); });
    r.list(tcp.segments.checkpoints, 28, [&](SegmentDecodeCheckpoint& c) { checkpointFields(get, c); });
    dissect::RisingNumberColumn ackRows;
    std::vector<std::uint32_t> back;
    r.column(ackRows);
    r.column(back);
    if (!r.finish(error))
        return false;
    if (!tcp.rtt.assign(std::move(ackRows), std::move(back)))
        return error = "damaged cached segments: RTT columns of different lengths", false;
    return true;
}

void encodeEvents(Writer& w, const WlanEvents& events)
{
    auto put = [&](const auto& v) { w.put(v); };
    w.list(events.events, [&](const WlanEvent& e) {
        eventFields(put, e);
        w.column(e.evidenceFrames);
    });
    w.list(events.scanPatterns, [&](const ScanPattern& p) { scanPatternFields(put, p); });
    w.list(events.macStats, [&](const StationMacStats& s) {
        w.put(s.station);
        w.put(s.addbaResponses);
        w.put(s.delbas);
        w.list(s.bins, [&](const MacStatsBin& b) { macBinFields(put, b); });
    });
    w.list(events.notes, [&](const std::string& s) { w.put(s); });
}

bool decodeEvents(Reader& r, WlanEvents& events, std::string& error)
{
    events = WlanEvents{};
    auto get = [&](auto& v) { r.get(v); };
    r.list(events.events, 60, [&](WlanEvent& e) {
        eventFields(get, e);
        r.column(e.evidenceFrames);
    });
    r.list(events.scanPatterns, 25, [&](ScanPattern& p) { scanPatternFields(get, p); });
    r.list(events.macStats, 28, [&](StationMacStats& s) {
        r.get(s.station);
        r.get(s.addbaResponses);
        r.get(s.delbas);
        r.list(s.bins, 90, [&](MacStatsBin& b) { macBinFields(get, b); });
    });
    r.list(events.notes, 8, [&](std::string& s) { r.get(s); });
    return r.finish(error);
}

void encodeInventory(Writer& w, const WlanInventory& inventory)
{
    auto put = [&](const auto& v) { w.put(v); };
    w.list(inventory.accessPoints, [&](const AccessPoint& a) { accessPointFields(put, a); });
    w.list(inventory.stations, [&](const Station& s) {
        stationFields(put, s);
        w.list(s.timeline, [&](const AssociationSpan& span) { spanFields(put, span); });
        w.list(s.management, [&](const AssociationFrame& m) { associationFrameFields(put, m); });
        w.column(s.ipAddresses);
    });
    w.list(inventory.connections, [&](const ConnectionPlacement& c) {
        w.put(c.connection);
        w.put(c.station);
        w.put(c.stationEndpoint);
        w.list(c.aps, [&](const AssociationSpan& span) { spanFields(put, span); });
    });
    w.list(inventory.notes, [&](const std::string& n) { w.put(n); });
    w.column(inventory.apByMac);
    w.column(inventory.stationByMac);
}

bool decodeInventory(Reader& r, WlanInventory& inventory, std::string& error)
{
    inventory = WlanInventory{};
    auto get = [&](auto& v) { r.get(v); };
    r.list(inventory.accessPoints, 49, [&](AccessPoint& a) { accessPointFields(get, a); });
    r.list(inventory.stations, 60, [&](Station& s) {
        stationFields(get, s);
        r.list(s.timeline, 44, [&](AssociationSpan& span) { spanFields(get, span); });
        r.list(s.management, 34, [&](AssociationFrame& m) { associationFrameFields(get, m); });
        r.column(s.ipAddresses);
    });
    r.list(inventory.connections, 17, [&](ConnectionPlacement& c) {
        r.get(c.connection);
        r.get(c.station);
        r.get(c.stationEndpoint);
        r.list(c.aps, 44, [&](AssociationSpan& span) { spanFields(get, span); });
    });
    r.list(inventory.notes, 8, [&](std::string& n) { r.get(n); });
    r.column(inventory.apByMac);
    r.column(inventory.stationByMac);
    return r.finish(error);
}

void encodeCorrelation(Writer& w, const Correlation& correlation)
{
    auto put = [&](const auto& v) { w.put(v); };
    w.list(correlation.impacts, [&](const EventImpact& impact) {
        w.put(impact.event);
        w.list(impact.connections, [&](const ConnectionImpact& m) { connectionImpactFields(put, m); });
    });
    w.list(correlation.kinds, [&](const KindAggregate& k) { kindAggregateFields(put, k); });
    w.list(correlation.scanIntervals, [&](const ScanIntervalAggregate& a) { scanIntervalFields(put, a); });
    w.list(correlation.notes, [&](const std::string& n) { w.put(n); });
}

bool decodeCorrelation(Reader& r, Correlation& correlation, std::string& error)
{
    correlation = Correlation{};
    auto get = [&](auto& v) { r.get(v); };
    r.list(correlation.impacts, 16, [&](EventImpact& impact) {
        r.get(impact.event);
        r.list(impact.connections, 132, [&](ConnectionImpact& m) { connectionImpactFields(get, m); });
    });
    r.list(correlation.kinds, 81, [&](KindAggregate& k) { kindAggregateFields(get, k); });
    r.list(correlation.scanIntervals, 85, [&](ScanIntervalAggregate& a) { scanIntervalFields(get, a); });
    r.list(correlation.notes, 8, [&](std::string& n) { r.get(n); });
    return r.finish(error);
}

} // namespace

void StreamChecksum::update(const std::uint8_t* p, std::size_t n)
{
    constexpr std::uint64_t kPrime = 0x9e3779b97f4a7c15ull;
    m_total += n;
    // Complete a block started by an earlier update.
    while (m_pending && n) {
        m_block[m_pending++] = *p++;
        --n;
        if (m_pending == 32) {
            for (int i = 0; i < 4; ++i) {
                std::uint64_t w;
                std::memcpy(&w, m_block + 8 * i, 8);
                m_lane[i] = (m_lane[i] ^ w) * kPrime;
            }
            m_pending = 0;
        }
    }
    // Four independent lanes keep the multiplier busy; one lane would be latency-bound.
    while (n >= 32) {
        for (int i = 0; i < 4; ++i) {
            std::uint64_t w;
            std::memcpy(&w, p + 8 * i, 8);
            m_lane[i] = (m_lane[i] ^ w) * kPrime;
        }
        p += 32;
        n -= 32;
    }
    std::memcpy(m_block + m_pending, p, n);
    m_pending += n;
}

std::uint64_t StreamChecksum::value() const
{
    constexpr std::uint64_t kPrime = 0x9e3779b97f4a7c15ull;
    std::uint64_t h = m_total;
    for (std::uint64_t l : m_lane)
        h = (h ^ l) * kPrime;
    for (std::size_t i = 0; i < m_pending; ++i)
        h = (h ^ m_block[i]) * kPrime;
    return h ^ (h >> 29);
}

std::uint64_t blobChecksum(std::span<const std::uint8_t> blob)
{
    StreamChecksum checksum;
    checksum.update(blob.data(), blob.size());
    return checksum.value();
}

const char* cachePartName(CachePart part)
{
    switch (part) {
    case CachePart::Capture:
        return "capture";
    case CachePart::FrameColumns:
        return "frame_columns";
    case CachePart::Connections:
        return "connections";
    case CachePart::Segments:
        return "segments";
    case CachePart::Events:
        return "events";
    case CachePart::Inventory:
        return "inventory";
    case CachePart::Correlation:
        return "correlation";
    }
    return "?";
}

std::vector<std::uint8_t> encodePart(CachePart part, const AnalysisBundle& results)
{
    Writer w(partTag(part));
    auto put = [&](const auto& v) { w.put(v); };
    auto column = [&](const auto& v) { w.column(v); };
    switch (part) {
    case CachePart::Capture:
        encodeCapture(w, results.tables);
        break;
    case CachePart::FrameColumns:
        wlanColumns(column, results.tables.wlan);
        tcpColumns(column, results.tables.tcp);
        w.column(results.tables.tcp.sideOptionRows);
        encodeAddressSets(w, results.tables.wlan);
        break;
    case CachePart::Connections:
        w.list(results.tcp.connections, [&](const Connection& c) { connectionFields(put, c); });
        break;
    case CachePart::Segments:
        encodeSegments(w, results.tcp);
        break;
    case CachePart::Events:
        encodeEvents(w, results.events);
        break;
    case CachePart::Inventory:
        encodeInventory(w, results.inventory);
        break;
    case CachePart::Correlation:
        encodeCorrelation(w, results.correlation);
        break;
    }
    return w.take();
}

bool decodePart(CachePart part, BlobSource& source, AnalysisBundle& out, std::string& error,
                std::uint64_t* checksum)
{
    const std::string what = std::string("cached ") + cachePartName(part);
    Reader r(source, partTag(part), what.c_str());
    bool ok = false;
    switch (part) {
    case CachePart::Capture:
        ok = decodeCapture(r, out.tables, error);
        break;
    case CachePart::FrameColumns:
        ok = decodeFrameColumns(r, out.tables, error);
        break;
    case CachePart::Connections:
        r.list(out.tcp.connections, 100, [&](Connection& c) {
            auto get = [&](auto& v) { r.get(v); };
            connectionFields(get, c);
        });
        ok = r.finish(error);
        break;
    case CachePart::Segments:
        ok = decodeSegments(r, out.tcp, error);
        break;
    case CachePart::Events:
        ok = decodeEvents(r, out.events, error);
        break;
    case CachePart::Inventory:
        ok = decodeInventory(r, out.inventory, error);
        break;
    case CachePart::Correlation:
        ok = decodeCorrelation(r, out.correlation, error);
        break;
    }
    if (checksum)
        *checksum = r.checksum();
    return ok;
}

bool decodePart(CachePart part, std::span<const std::uint8_t> blob, AnalysisBundle& out,
                std::string& error)
{
    SpanSource source(blob);
    return decodePart(part, source, out, error);
}

} // namespace windscope::analysis::store
