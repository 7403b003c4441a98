// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// TCP connection analysis over the ingest tables: connections keyed across both
// directions with port reuse split out, 64-bit unwrapped sequence space, window
// scaling from the handshake, and per-segment classifications equivalent to
// Wireshark's tcp.analysis.* flags, plus bytes in flight, RTT and low windows.
//
// Faithfulness. The tcp.analysis.* flags, tcp.analysis.duplicate_ack_num,
// tcp.analysis.bytes_in_flight, tcp.window_size and tcp.stream reproduce Wireshark 4.0
// with its default preferences (see tcp_sequence_analysis.h), given the same segments:
// on 802.11 captures Windscope leaves out frames with a bad FCS and MAC retries of a
// frame already heard, which tshark does not, so compare with tshark run on a copy of
// the capture without those frames. A segment that tshark flags as a fast or spurious
// retransmission also carries tcp.analysis.retransmission; so does ours: kRetransmission
// is set whenever kFastRetransmission or kSpuriousRetransmission is.
//
// Beyond Wireshark:
// - kRtoTimeout: a retransmission (kRetransmission, including spurious ones, but not a
//   fast retransmission) sent after its direction was silent (no segment occupying
//   sequence space) for longer than max(rtoFloorNs, rtoSrttFactor * SRTT,
//   SRTT + 4 * RTTVAR), SRTT/RTTVAR being the RFC 6298 section 2 estimators fed by that
//   direction's RTT samples so far (only the floor before the first sample). Linux
//   never times out sooner than 200 ms (TCP_RTO_MIN); a silence that long before a
//   retransmission is a timer firing, not loss recovery driven by ACKs.
// - kLowWindow: the segment advertises a window (ACK set, not SYN, not RST) with
//   0 < window < the connection's low-window threshold (a zero window is kZeroWindow,
//   not low). DirectionStats::lowWindows counts entries into that state, from a normal
//   or a zero window, so a receiver that stays low for a while counts once.
// - RTT samples: seq/ack with Karn's rule, and TSval/TSecr echoes (RttSample,
//   fromTimestamps). Each sample belongs to the direction whose data (or TSval) was
//   acknowledged (or echoed).

#include "dissectors/capture_tables.h"
#include "dissectors/ingest.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <memory>
#include <vector>

namespace windscope::analysis {

// One bit per classification; names follow Wireshark's tcp.analysis.* fields.
namespace segment_flag {
inline constexpr std::uint32_t kRetransmission = 1u << 0;         // tcp.analysis.retransmission
inline constexpr std::uint32_t kFastRetransmission = 1u << 1;     // tcp.analysis.fast_retransmission
inline constexpr std::uint32_t kSpuriousRetransmission = 1u << 2; // tcp.analysis.spurious_retransmission
inline constexpr std::uint32_t kOutOfOrder = 1u << 3;             // tcp.analysis.out_of_order
inline constexpr std::uint32_t kLostSegment = 1u << 4;            // tcp.analysis.lost_segment
inline constexpr std::uint32_t kAckLostSegment = 1u << 5;         // tcp.analysis.ack_lost_segment
inline constexpr std::uint32_t kDuplicateAck = 1u << 6;           // tcp.analysis.duplicate_ack
inline constexpr std::uint32_t kZeroWindow = 1u << 7;             // tcp.analysis.zero_window
inline constexpr std::uint32_t kZeroWindowProbe = 1u << 8;        // tcp.analysis.zero_window_probe
inline constexpr std::uint32_t kZeroWindowProbeAck = 1u << 9;     // tcp.analysis.zero_window_probe_ack
inline constexpr std::uint32_t kWindowFull = 1u << 10;            // tcp.analysis.window_full
inline constexpr std::uint32_t kWindowUpdate = 1u << 11;          // tcp.analysis.window_update
inline constexpr std::uint32_t kKeepAlive = 1u << 12;             // tcp.analysis.keep_alive
inline constexpr std::uint32_t kKeepAliveAck = 1u << 13;          // tcp.analysis.keep_alive_ack
inline constexpr std::uint32_t kLowWindow = 1u << 14;             // Windscope: advertised window below threshold
inline constexpr std::uint32_t kRtoTimeout = 1u << 15;            // Windscope: retransmission after an RTO-like silence
inline constexpr std::uint32_t kPortReuse = 1u << 16;             // tcp.analysis.reused_ports
inline constexpr std::uint32_t kMacRetryExcluded = 1u << 17;      // never set on a row; see stats
// The bits that have a tcp.analysis.* counterpart in Wireshark.
inline constexpr std::uint32_t kWiresharkMask = ((1u << 14) - 1) | kPortReuse;
} // namespace segment_flag

// Name of each flag bit, e.g. "tcp.analysis.retransmission" / "low_window".
const char* segmentFlagName(std::uint32_t singleBit);

struct TcpAnalysisOptions
{
    // Low window: advertised (scaled) window below this many bytes. 0 selects the
    // default, max(2 * MSS, largest advertised window of the connection / 8), where MSS
    // is the smaller of the MSS options of the handshake (0 when none was seen) and the
    // largest window is taken over both directions and the whole connection.
    std::uint64_t lowWindowThresholdBytes = 0;
    // kRtoTimeout rule (see above).
    std::int64_t rtoFloorNs = 200'000'000;
    double rtoSrttFactor = 1.5;
};

// One RTT sample: the acknowledging row and the row it acknowledges (both 64-bit
// rows in TcpColumns). The data row is kept as its distance back from the ACK row, so
// a sample whose two segments lie 2^31 or more rows apart is counted in the statistics
// but not kept in TcpAnalysis::rtt (a 35-minute RTT at 1 Mpkt/s).
class RttSample
{
public:
    static constexpr std::uint64_t kMaxRowsBack = (std::uint64_t(1) << 31) - 1;
    RttSample() = default;
    RttSample(std::uint64_t ackRow, std::uint64_t dataRow, bool fromTimestamps)
        : m_ackRow(ackRow),
          m_back(static_cast<std::uint32_t>(ackRow - dataRow) | (fromTimestamps ? kTimestampBit : 0u))
    {
    }
    std::uint64_t ackRow() const { return m_ackRow; }
    std::uint64_t dataRow() const { return m_ackRow - (m_back & ~kTimestampBit); }
    // TSecr echo (RFC 7323) rather than seq/ack matching.
    bool fromTimestamps() const { return m_back & kTimestampBit; }
    // The time from the data segment to its acknowledgment, as the trackers measured it.
    std::int64_t rttNs(const dissect::TcpColumns& tcp) const
    {
        return tcp.timeNs[ackRow()] - tcp.timeNs[dataRow()];
    }
    bool operator==(const RttSample&) const = default;

private:
    friend class RttSamples;
    static constexpr std::uint32_t kTimestampBit = 0x80000000u;
    static RttSample fromParts(std::uint64_t ackRow, std::uint32_t back)
    {
        RttSample s;
        s.m_ackRow = ackRow;
        s.m_back = back;
        return s;
    }
    std::uint64_t m_ackRow = 0;
    std::uint32_t m_back = 0;
};

// The RTT samples of a capture in ACK-row order, 8 bytes each: ACK rows rise, so they
// are stored as a RisingNumberColumn. Reads give RttSample values.
class RttSamples
{
public:
    class const_iterator
    {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = RttSample;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = RttSample;
        const_iterator() = default;
        const_iterator(const RttSamples* samples, std::size_t i) : m_samples(samples), m_i(i) {}
        RttSample operator*() const { return (*m_samples)[m_i]; }
        const_iterator& operator++() { ++m_i; return *this; }
        const_iterator operator++(int) { const_iterator old = *this; ++m_i; return old; }
        friend difference_type operator-(const const_iterator& a, const const_iterator& b)
        {
            return static_cast<difference_type>(a.m_i) - static_cast<difference_type>(b.m_i);
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.m_i == b.m_i; }

    private:
        const RttSamples* m_samples = nullptr;
        std::size_t m_i = 0;
    };

    RttSample operator[](std::size_t i) const { return RttSample::fromParts(m_ackRows[i], m_back[i]); }
    void push_back(const RttSample& s)
    {
        m_ackRows.push_back(s.m_ackRow);
        m_back.push_back(s.m_back);
    }
    std::size_t size() const { return m_back.size(); }
    bool empty() const { return m_back.empty(); }
    void reserve(std::size_t n)
    {
        m_ackRows.reserve(n);
        m_back.reserve(n);
    }
    void clear()
    {
        m_ackRows.clear();
        m_back.clear();
    }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }
    bool operator==(const RttSamples&) const = default;

    // The two columns as stored, for the project cache (one copy each, no per-sample work).
    const dissect::RisingNumberColumn& ackRowColumn() const { return m_ackRows; }
    const std::vector<std::uint32_t>& backColumn() const { return m_back; }
    // False (and nothing changed) when the columns differ in length.
    bool assign(dissect::RisingNumberColumn ackRows, std::vector<std::uint32_t> back)
    {
        if (ackRows.size() != back.size())
            return false;
        m_ackRows = std::move(ackRows);
        m_back = std::move(back);
        return true;
    }

private:
    dissect::RisingNumberColumn m_ackRows;
    std::vector<std::uint32_t> m_back;
};


// Per direction of a connection, in the spirit of tcptrace -l. Counts of Wireshark
// classifications count segments carrying the flag.
struct DirectionStats
{
    std::uint64_t packets = 0;
    std::uint64_t bytes = 0;               // IP-level bytes are not kept; payload bytes (= dataBytes)
    std::uint64_t dataPackets = 0;
    std::uint64_t dataBytes = 0;           // tcp.len summed, retransmissions included
    std::uint64_t uniqueBytes = 0;         // highest seq reached - initial seq (holes included)
    std::uint64_t retransmittedBytes = 0;
    std::uint64_t retransmissions = 0;     // all kinds (fast and spurious included)
    std::uint64_t fastRetransmissions = 0;
    std::uint64_t spuriousRetransmissions = 0;
    std::uint64_t rtoTimeouts = 0;
    std::uint64_t outOfOrder = 0;
    std::uint64_t lostSegments = 0;
    std::uint64_t ackLostSegments = 0;
    std::uint64_t dupAcks = 0;
    std::uint64_t zeroWindows = 0;
    std::uint64_t zeroWindowProbes = 0;
    std::uint64_t windowUpdates = 0;
    std::uint64_t windowFull = 0;
    std::uint64_t keepAlives = 0;
    std::uint64_t lowWindows = 0;
    std::uint64_t macRetriesExcluded = 0;  // 802.11 retries of this direction's segments
    std::uint64_t synCount = 0, finCount = 0, rstCount = 0, sackPackets = 0;
    std::uint64_t maxWindowBytes = 0;      // largest scaled advertised window
    // RTT of this direction's data: the statistics use the seq/ack samples when there
    // are any, else the timestamp samples (rttFromTimestamps), never both mixed.
    std::uint64_t rttSamples = 0;
    double rttMinMs = 0, rttAvgMs = 0, rttMaxMs = 0, rttStddevMs = 0; // population stddev
    bool rttFromTimestamps = false;
    std::uint64_t rttAckSamples = 0, rttTimestampSamples = 0;
    // Active time: from the first to the last segment carrying data (0 with fewer than
    // two data segments, and then both rates are 0). Reports give the rates only where
    // ratesMeasurable() says the active time means something.
    std::int64_t firstDataTimeNs = 0, lastDataTimeNs = 0;
    double throughputBps = 0;              // all data bytes * 8 / active time
    // The bytes of sequence space the captured segments cover (never the holes the
    // capture did not fill) * 8 / active time: never above throughputBps.
    double goodputBps = 0;
    std::int64_t firstTimeNs = 0, lastTimeNs = 0; // first and last packet, any kind
};

struct Connection
{
    std::uint64_t id = 0;                  // 0-based, in order of first packet (like tcp.stream)
    std::uint32_t conversation = 0;        // index in CaptureTables::conversations
    // Endpoint 0 is the client (sent the SYN) when the handshake was seen, else the
    // sender of the first packet. Direction 0 is endpoint 0 -> endpoint 1.
    std::uint32_t address[2] = {0, 0};    // ids in CaptureTables::ipAddresses
    std::uint16_t port[2] = {0, 0};
    bool handshakeSeen = false;            // SYN and SYN-ACK both seen
    // Whether each side scales its window is known: both SYNs seen, or a SYN without
    // the option (then neither side scales). Wireshark's win_scale != -1 on both sides.
    bool windowScaleKnown = false;
    std::int8_t windowScale[2] = {-1, -1}; // shift each endpoint announced (-1 none/unknown)
    std::uint16_t mss[2] = {0, 0};         // MSS option of each endpoint's SYN, 0 none
    bool sackPermitted = false;            // both SYNs permitted SACK, or SACK blocks seen
    bool timestamps = false;               // both SYNs had timestamps (or, without a
                                           // handshake, both directions carried them)
    std::int64_t handshakeRttNs = -1;      // SYN -> ACK of SYN-ACK, -1 unknown
    std::int64_t firstTimeNs = 0, lastTimeNs = 0;
    std::uint64_t firstFrame = 0, lastFrame = 0;
    std::uint64_t segments = 0;
    std::uint64_t lowWindowThresholdBytes = 0;
    DirectionStats direction[2];
};

// How a row's relative sequence and acknowledgment numbers and its scaled window are
// recovered from its raw fields in TcpColumns, so that they cost no memory per row.
// Per connection and ingest side (TcpColumns::fromB): the raw values that map to 0 and
// the window shift, as in force from the side's first row on. Where that stops holding
// (sequence space more than 2 GiB from the last checkpoint, Wireshark's base_seq
// moving, the window scale changing mid-connection) a checkpoint takes over.
struct SegmentDecodeSide
{
    std::uint32_t seqBase = 0;       // raw seq whose relative value is 0
    std::uint32_t ackBase = 0;       // raw ack whose relative value is 0
    std::int8_t windowShift = -1;    // -1: the window is not scaled
    bool hasCheckpoints = false;
};

struct SegmentDecodeCheckpoint
{
    enum Field : std::uint8_t { kSeq = 0, kAck = 1, kWindowShift = 2 };
    static std::uint64_t streamOf(std::uint64_t connection, bool fromB, Field field)
    {
        return (connection * 2 + (fromB ? 1 : 0)) * 3 + field;
    }
    std::uint64_t stream = 0;        // streamOf(connection, side, field)
    std::uint64_t row = 0;           // first row the checkpoint applies to
    std::int64_t value = 0;          // relative value of raw (kSeq, kAck); shift (kWindowShift)
    std::uint32_t raw = 0;
};

// Per-row results, parallel to CaptureTables::tcp. Relative seq/ack and the scaled
// window are read through TcpAnalysis::relativeSeq() / relativeAck() / windowBytes().
struct SegmentColumns
{
    std::vector<std::uint32_t> connection;   // index into TcpAnalysis::connections
    std::vector<std::uint32_t> flags;        // segment_flag bits
    std::vector<std::uint32_t> bytesInFlight; // tcp.analysis.bytes_in_flight, 0 = none
    // Sparse: (row, n) for rows flagged duplicate ACK: the n-th duplicate.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> dupAckNumber;
    // connection * 2 + side (TcpColumns::fromB) -> decoding of the derived columns.
    std::vector<SegmentDecodeSide> decode;
    std::vector<SegmentDecodeCheckpoint> checkpoints; // sorted by (stream, row)
};

struct TcpAnalysis
{
    std::vector<Connection> connections;
    SegmentColumns segments;
    RttSamples rtt;
    // Direction index (0 or 1) of a row within its connection.
    std::uint8_t directionOf(const dissect::CaptureTables& tables, std::size_t row) const;
    // Whether endpoint (0 or 1) of connection sends the rows with TcpColumns::fromB set:
    // one lookup for a whole connection's rows instead of directionOf() per row.
    bool sendsFromB(const dissect::CaptureTables& tables, std::size_t connection, int endpoint) const;
    // Sequence and acknowledgment numbers unwrapped to 64 bits, relative to the
    // sender's (resp. the peer's) initial sequence number as tcp.seq / tcp.ack are
    // (the ISN when the SYN was seen, else the first seq - 1). relativeAck is 0 without
    // the ACK bit.
    std::int64_t relativeSeq(const dissect::TcpColumns& tcp, std::size_t row) const;
    std::int64_t relativeAck(const dissect::TcpColumns& tcp, std::size_t row) const;
    // Advertised window in bytes as tcp.window_size: shifted by the sender's scale
    // when that is known (never for SYNs), raw otherwise.
    std::uint32_t windowBytes(const dissect::TcpColumns& tcp, std::size_t row) const;

private:
    const SegmentDecodeCheckpoint* checkpoint(std::uint64_t stream, std::size_t row) const;
};

// The analysis as ingest goes: rows are analysed in capture order as they are
// appended to the tables, so reading the file and analysing it overlap (see
// dissect::IngestOptions::rowsAppended). The tables must outlive the analyzer, and
// rows already analysed must not change.
class TcpAnalyzer
{
public:
    explicit TcpAnalyzer(const dissect::CaptureTables& tables, const TcpAnalysisOptions& options = {});
    ~TcpAnalyzer();
    TcpAnalyzer(const TcpAnalyzer&) = delete;
    TcpAnalyzer& operator=(const TcpAnalyzer&) = delete;
    // Analyses the TCP rows appended since the last call.
    void analyzeNewRows();
    // After the last row: the passes that need every row (low windows, MAC retries
    // per connection, statistics). Call once.
    TcpAnalysis finish();
    // ingest, with each batch of appended rows analysed as it comes: the options for
    // dissect::ingestCapture into the tables this analyzer follows.
    dissect::IngestOptions following(const dissect::IngestOptions& ingest);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// All rows of finished tables at once.
TcpAnalysis analyzeTcp(const dissect::CaptureTables& tables, const TcpAnalysisOptions& options = {});

// Whether a direction's rates mean something: its active time spans at least one round
// trip (its smallest RTT sample, else the connection's handshake RTT, else 1 s, RFC
// 6298's initial RTO: the longest round trip TCP assumes before measuring one). Within
// a round trip a sender emits a burst at its interface's speed, and bytes over that time
// measure the burst, not the connection (796 bytes in two segments 4 us apart are not
// "1592 Mb/s").
bool ratesMeasurable(const Connection& c, int direction);

// What a capture cannot show of TCP: connections of which only one direction was
// captured (one side sent at least two segments that are not all SYNs or resets, the
// other none). capturedOneWay names one; oneDirectionWarning is the capture's warning
// naming them, empty when there are none.
bool capturedOneWay(const Connection& c);

// The capture's bulk flow: the connection and endpoint whose direction delivered the most
// unique bytes; false when no direction carried data.
bool bulkDirection(const TcpAnalysis& tcp, std::size_t& connection, int& sender);
std::string oneDirectionWarning(const dissect::CaptureTables& tables, const TcpAnalysis& tcp);

// Reads path into tables (dissect::ingestCapture) and analyses its TCP rows as they are
// read; the tables' warnings gain oneDirectionWarning. False, with error set, only when nothing could be read; tcp is then empty.
bool readAndAnalyzeTcp(const std::string& path, const dissect::IngestOptions& ingest,
                       dissect::CaptureTables& tables, TcpAnalysis& tcp, std::string& error,
                       const TcpAnalysisOptions& options = {});

} // namespace windscope::analysis
