// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The series a connection is plotted with, extracted once from the analysis results so
// that the desktop plots and the CLI's series export print the same numbers: the
// time-sequence graph (data segments, ACK line, receive-window line, SACK blocks,
// retransmissions and zero-window probes), congestion window / bytes in flight /
// receive window, throughput and goodput per time bin, RTT samples, and the 802.11
// lane of the connection's station (events, MAC retries, data rate, signal).
//
// Times are seconds relative to the capture's first packet (as TcpColumns::timeNs);
// sequence numbers are relative to the data sender's initial sequence number, as
// tcp.seq is. Every series is in time order.

#include "analysis/cwnd/cwnd_source.h"
#include "analysis/wlan/wlan_correlation.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace windscope::analysis {

inline constexpr std::size_t kSenderPhaseCount = static_cast<std::size_t>(cwnd::SenderPhase::NotFollowed) + 1;

// A plain (time, value) series.
struct XySeries
{
    std::vector<double> t;
    std::vector<double> v;
    std::size_t size() const { return t.size(); }
    void push(double time, double value)
    {
        t.push_back(time);
        v.push_back(value);
    }
};

// A series of vertical extents at a time: a data segment [seq, seq + len), a SACK block.
struct RangeSeries
{
    std::vector<double> t;
    std::vector<double> lo, hi;
    std::vector<std::uint64_t> frame;      // frame number of the segment carrying it
    std::size_t size() const { return t.size(); }
    void push(double time, double low, double high, std::uint64_t frameNumber)
    {
        t.push_back(time);
        lo.push_back(low);
        hi.push_back(high);
        frame.push_back(frameNumber);
    }
};

struct TimeSequenceSeries
{
    RangeSeries segments;          // every data segment of the data sender
    RangeSeries retransmissions;   // the subset flagged tcp.analysis.retransmission
    RangeSeries rtoRetransmissions; // ... sent after an RTO-like silence (kRtoTimeout)
    RangeSeries zeroWindowProbes;  // tcp.analysis.zero_window_probe
    XySeries ack;                  // the receiver's cumulative ACK (tcp.ack) per ACK segment
    XySeries rwnd;                 // ACK + advertised window: the right edge the sender may reach
    RangeSeries sackBlocks;        // the receiver's SACK blocks (relative to the sender's ISN)
    XySeries zeroWindows;          // receiver segments advertising a zero window, at the ACK
};

// What held the sender back over an interval, from the cwnd inference's phases.
enum class WindowLimit : std::uint8_t {
    CongestionWindow, // slow start, congestion avoidance, loss recovery: the sender's own window
    ReceiveWindow,    // the receiver's advertised window, closed (persist) or full
    Application,      // the sender had nothing more to send
};
const char* windowLimitName(WindowLimit limit); // "cwnd", "receive_window", "application"

struct WindowLimitInterval
{
    double start = 0, end = 0;     // seconds since the capture's first packet
    WindowLimit limit = WindowLimit::CongestionWindow;
};

struct WindowSeries
{
    XySeries cwnd;                 // inferred congestion window (bytes); empty when not followed
    // min(cwnd, the receive window the sender knew): what the sender could have in
    // flight, at each cwnd sample.
    XySeries effective;
    std::vector<WindowLimitInterval> limits; // consecutive, merged; empty when not followed
    XySeries ssthresh;             // finite values only
    XySeries bytesInFlight;        // tcp.analysis.bytes_in_flight of the sender's segments
    XySeries rwnd;                 // advertised receive window (tcp.window_size) of the receiver
    std::string cwndModel;         // the model the cwnd series follows
    std::string cwndNotFollowed;   // why there is no cwnd series, for people; empty otherwise
    // Seconds the sender spent in each cwnd::SenderPhase of the inference: from each data
    // segment to the next, in the phase the first was sent in. All 0 when not followed.
    std::array<double, kSenderPhaseCount> phaseSeconds{};
};

struct RateSeries
{
    double binSeconds = 0;
    XySeries throughput;           // data bytes the sender put on the wire per bin, bit/s
    XySeries goodput;              // advance of the receiver's cumulative ACK per bin, bit/s
};

struct RttSeries
{
    XySeries seqAck;               // RTT (ms) from seq/ack matching, at the acknowledging segment
    XySeries timestamps;           // RTT (ms) from TSval/TSecr echoes
};

struct LaneEvent
{
    std::uint64_t id = 0;          // WlanEvent::id
    WlanEventKind kind = WlanEventKind::Scan;
    double start = 0, end = 0;
};

// One 802.11 frame the connection's station sent or received (control frames included:
// an ACK or Block Ack names only its receiver).
struct LaneFrame
{
    double time = 0;
    std::uint64_t frame = 0;
    bool sent = false;             // the station transmitted it
    MacFrame mac;
};

// The lane's statistics per bin of binSeconds (view_bins.h; every bin of the range,
// counts 0 when empty), at the bin start, counted as the events' MAC statistics count
// (countMacFrame).
struct LaneBins
{
    double binSeconds = 0;
    XySeries framesReceived;       // data and management frames to the station
    XySeries retries;              // frames with the Retry bit, both directions
    XySeries failedAttempts;       // transmissions the capture saw repeated (MAC duplicates)
    XySeries rateMbps;             // mean data rate of data frames (bins with a rate only)
    XySeries signalDbm;            // mean signal of the station's frames (bins with one only)
};

struct WlanLaneSeries
{
    std::int32_t station = -1;     // index in WlanInventory::stations, -1 unknown
    std::string stationMac;        // empty when unknown
    std::vector<LaneEvent> events; // the station's events and the connection's TCP-only outages
    std::vector<LaneFrame> frames; // the station's frames over the whole capture, in time order
    LaneBins bins;                 // over the connection, at the rate series' bin width
};
// One TCP segment of a connection as a packet list shows it.
struct PacketRow
{
    std::uint64_t row = 0;         // row in CaptureTables::tcp
    std::uint64_t frame = 0;
    double time = 0;
    int direction = 0;             // 0: endpoint 0 -> endpoint 1
    std::int64_t seq = 0, ack = 0; // relative, as tcp.seq / tcp.ack
    std::uint32_t length = 0, windowBytes = 0, bytesInFlight = 0;
    std::uint16_t tcpFlags = 0;    // tcp.flags
    std::uint32_t analysisFlags = 0; // segment_flag bits
};

struct ConnectionSeries
{
    std::size_t connection = 0;    // index in TcpAnalysis::connections
    std::vector<std::uint64_t> rows; // the connection's rows in CaptureTables::tcp, in order
    int sender = 0;                // endpoint index of the data sender
    double startSeconds = 0, endSeconds = 0; // the connection's first and last packet
    TimeSequenceSeries timeSequence;
    WindowSeries window;
    RateSeries rate;
    RttSeries rtt;
    WlanLaneSeries lane;
};

struct SeriesOptions
{
    // Throughput bin: 0 chooses about 200 bins over the connection, at least 10 ms.
    double binSeconds = 0;
    bool inferCwnd = true;
    // Endpoint whose data is plotted; -1 chooses the one that sent more (cwnd::dataSenderOf).
    int sender = -1;
};

// Everything needed to build a connection's series; events may be null (no 802.11 lane),
// cwnd null leaves the congestion window out (packetRow needs none).
struct SeriesInputs
{
    const dissect::CaptureTables& tables;
    const TcpAnalysis& tcp;
    const cwnd::CwndSource* cwnd = nullptr; // the pipeline's cwnd stage
    const WlanInventory* inventory = nullptr;
    const WlanEvents* events = nullptr;
};

ConnectionSeries buildConnectionSeries(const SeriesInputs& in, std::size_t connection,
                                       const SeriesOptions& options = {});

// The congestion-window part of a series (the cwnd inference, the slow part when the
// pipeline has not computed it yet): what
// buildConnectionSeries adds with options.inferCwnd, for a caller that shows the rest first.
void addCwndSeries(const SeriesInputs& in, ConnectionSeries& series);

// The packet-list view of one TCP row.
PacketRow packetRow(const SeriesInputs& in, std::uint64_t row);
// The part of rows (a ConnectionSeries::rows) with times in [from, to] seconds, as
// [first, last) indices; rows are in capture order, which is time order.
std::pair<std::size_t, std::size_t> rowsBetween(const dissect::CaptureTables& tables,
                                                const std::vector<std::uint64_t>& rows, double from,
                                                double to);

// One line of a side-by-side comparison of two connections (two captures, or a
// capture and a replay run of it).
struct ComparisonRow
{
    std::string metric;            // e.g. "retransmissions"
    std::string unit;              // "s", "bytes", "bit/s", "ms", "" for counts
    double a = 0, b = 0;
    bool aKnown = true, bKnown = true; // false: the quantity could not be measured there
};
// Completion time, bytes, throughput and goodput, retransmissions by kind, timeouts,
// duplicate ACKs, zero windows and RTT of each connection's data direction.
std::vector<ComparisonRow> compareConnections(const TcpAnalysis& a, std::size_t connectionA,
                                              const TcpAnalysis& b, std::size_t connectionB);

// "time in <phase>" rows (unit "s") for each sender phase either connection spent time
// in, from WindowSeries::phaseSeconds; a side whose cwnd was not followed is unknown.
void appendSenderPhaseRows(std::vector<ComparisonRow>& rows, const WindowSeries& a, const WindowSeries& b);

// The series with every time moved by -offset seconds (to align two connections).
ConnectionSeries shiftedSeries(const ConnectionSeries& series, double offset);

// Index of the point of a time-ordered series nearest to t (size() when empty).
std::size_t nearestIndex(const std::vector<double>& times, double t);

// Long-format CSV of every series: "series,time_s,value,value2,frame" with one row per
// point; ranges put lo in value and hi in value2. The GUI's "export series" writes this.
void writeSeriesCsv(std::ostream& out, const ConnectionSeries& series);

} // namespace windscope::analysis
