// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_bins.h"

#include "analysis/report/report_json.h"
#include "analysis/wlan/wlan_frames.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>

namespace windscope::analysis {

namespace {

// The bins of width `bin` on the grid anchored at `anchor` that meet [lower, upper], as
// an index range [first, last] (may be empty: first > last).
struct BinRange
{
    long long first = 0, last = -1;
    double anchor = 0, width = 1;
    double start(long long k) const { return anchor + static_cast<double>(k) * width; }
    long long of(double t) const { return static_cast<long long>(std::floor((t - anchor) / width)); }
    bool holds(long long k) const { return k >= first && k <= last; }
};

BinRange binRange(double anchor, double lower, double upper, double width)
{
    BinRange r;
    r.anchor = anchor;
    r.width = width;
    if (!(width > 0) || !(upper >= lower))
        return r;
    r.first = r.of(lower);
    r.last = r.of(upper);
    return r;
}

} // namespace

double viewBinSeconds(double lower, double upper, int columns)
{
    const double raw = std::max(upper - lower, 0.0) * kPixelsPerBin / std::max(columns, 1);
    if (!(raw > kMinBinSeconds))
        return kMinBinSeconds;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double step : {1.0, 2.0, 5.0, 10.0})
        if (decade * step >= raw * (1 - 1e-9))
            return decade * step;
    return decade * 10;
}

std::string binWidthText(double binSeconds)
{
    std::ostringstream text;
    text.precision(3);
    if (binSeconds < 1)
        text << binSeconds * 1e3 << " ms";
    else
        text << binSeconds << " s";
    return text.str();
}

RateSeries binRates(const ConnectionSeries& s, double lower, double upper, double binSeconds)
{
    RateSeries rate;
    rate.binSeconds = binSeconds;
    BinRange r = binRange(s.startSeconds, std::max(lower, s.startSeconds), std::min(upper, s.endSeconds), binSeconds);
    if (r.last < r.first)
        return rate;
    // The connection's last bin takes what falls at its very end.
    const long long lastOfConnection = r.of(s.endSeconds);
    const auto count = static_cast<std::size_t>(r.last - r.first + 1);
    std::vector<double> sent(count, 0.0), acked(count, 0.0);
    auto slot = [&](double t) -> std::ptrdiff_t {
        const long long k = std::min(r.of(t), lastOfConnection);
        return r.holds(k) ? static_cast<std::ptrdiff_t>(k - r.first) : -1;
    };
    const RangeSeries& seg = s.timeSequence.segments;
    const auto from = std::lower_bound(seg.t.begin(), seg.t.end(), r.start(r.first)) - seg.t.begin();
    for (auto i = static_cast<std::size_t>(from); i < seg.size(); ++i) {
        const std::ptrdiff_t k = slot(seg.t[i]);
        if (k < 0)
            break;
        sent[static_cast<std::size_t>(k)] += seg.hi[i] - seg.lo[i];
    }
    // Delivered data: the advance of the cumulative ACK (as wlan_correlation.h measures
    // throughput), so old or reordered ACKs add nothing.
    const XySeries& ack = s.timeSequence.ack;
    double highest = ack.size() ? ack.v[0] : 0;
    for (std::size_t i = 1; i < ack.size(); ++i) {
        if (ack.v[i] <= highest)
            continue;
        const std::ptrdiff_t k = slot(ack.t[i]);
        if (k >= 0)
            acked[static_cast<std::size_t>(k)] += ack.v[i] - highest;
        highest = ack.v[i];
    }
    for (std::size_t k = 0; k < count; ++k) {
        const double t = r.start(r.first + static_cast<long long>(k));
        rate.throughput.push(t, sent[k] * 8 / binSeconds);
        rate.goodput.push(t, acked[k] * 8 / binSeconds);
    }
    return rate;
}

std::pair<std::size_t, std::size_t> laneFramesBetween(const WlanLaneSeries& lane, double lower, double upper)
{
    const auto byTime = [](const LaneFrame& f, double t) { return f.time < t; };
    const auto first = std::lower_bound(lane.frames.begin(), lane.frames.end(), lower, byTime);
    const auto last = std::upper_bound(first, lane.frames.end(), upper,
                                       [](double t, const LaneFrame& f) { return t < f.time; });
    return {static_cast<std::size_t>(first - lane.frames.begin()), static_cast<std::size_t>(last - lane.frames.begin())};
}

LaneBins binLane(const WlanLaneSeries& lane, double anchor, double lower, double upper, double binSeconds)
{
    LaneBins out;
    out.binSeconds = binSeconds;
    if (lane.frames.empty())
        return out;
    // Zeros where the capture saw none of the station's frames, nothing beyond its frames.
    const BinRange r = binRange(anchor, std::max(lower, lane.frames.front().time),
                                std::min(upper, lane.frames.back().time), binSeconds);
    if (r.last < r.first)
        return out;
    const auto [first, last] = laneFramesBetween(lane, r.start(r.first), r.start(r.last + 1));
    std::vector<MacStatsBin> bins(static_cast<std::size_t>(r.last - r.first + 1));
    std::uint32_t lastAmpdu = 0;
    for (std::size_t i = first; i < last; ++i) {
        const long long k = r.of(lane.frames[i].time);
        if (r.holds(k))
            countMacFrame(bins[static_cast<std::size_t>(k - r.first)], lane.frames[i].mac, lane.frames[i].sent,
                          lastAmpdu);
    }
    for (std::size_t k = 0; k < bins.size(); ++k) {
        const MacStatsBin& b = bins[k];
        const double t = r.start(r.first + static_cast<long long>(k));
        out.framesReceived.push(t, static_cast<double>(b.framesReceived));
        out.retries.push(t, static_cast<double>(b.retries));
        out.failedAttempts.push(t, static_cast<double>(b.failedAttempts));
        if (b.rateSamples)
            out.rateMbps.push(t, b.meanRateMbps);
        if (b.signalSamples)
            out.signalDbm.push(t, b.meanSignalDbm);
    }
    return out;
}

bool frameLevelView(const WlanLaneSeries& lane, double lower, double upper, int columns)
{
    const auto [first, last] = laneFramesBetween(lane, lower, upper);
    return static_cast<double>(last - first) * kPixelsPerFrameTick <= static_cast<double>(columns);
}

LaneFrameClass laneFrameClass(const LaneFrame& f)
{
    const std::uint16_t fc = f.mac.frameControl;
    switch (wlan::frameType(fc)) {
    case wlan::kManagement: return LaneFrameClass::Management;
    case wlan::kControl:
        return wlan::frameSubtype(fc) == wlan::subtype::kPsPoll ? LaneFrameClass::PowerSave : LaneFrameClass::Control;
    default:
        if (wlan::isNullData(fc))
            return LaneFrameClass::PowerSave;
        return f.sent ? LaneFrameClass::DataFromStation : LaneFrameClass::DataToStation;
    }
}

const char* laneFrameClassName(LaneFrameClass c)
{
    switch (c) {
    case LaneFrameClass::Control: return "control";
    case LaneFrameClass::DataToStation: return "data_to_station";
    case LaneFrameClass::DataFromStation: return "data_from_station";
    case LaneFrameClass::PowerSave: return "power_save";
    case LaneFrameClass::Management: return "management";
    }
    return "";
}

const char* laneFrameClassTitle(LaneFrameClass c)
{
    switch (c) {
    case LaneFrameClass::Control: return "control";
    case LaneFrameClass::DataToStation: return "data to station";
    case LaneFrameClass::DataFromStation: return "data from station";
    case LaneFrameClass::PowerSave: return "power save";
    case LaneFrameClass::Management: return "management";
    }
    return "";
}

namespace {

// 802.11-2020 Table 9-1, in the short names frame lists use.
const char* subtypeName(std::uint16_t fc)
{
    static constexpr const char* kManagementNames[16] = {
        "Assoc Req", "Assoc Resp", "Reassoc Req", "Reassoc Resp", "Probe Req", "Probe Resp", "Timing Adv",
        "Mgmt 7",    "Beacon",     "ATIM",        "Disassoc",     "Auth",      "Deauth",     "Action",
        "Action NoAck", "Mgmt 15"};
    static constexpr const char* kControlNames[16] = {
        "Ctrl 0", "Ctrl 1", "Trigger", "TACK", "BF Poll", "NDPA", "Ctrl Ext", "Ctrl Wrapper",
        "BAR",    "BA",     "PS-Poll", "RTS",  "CTS",     "ACK",  "CF-End",   "CF-End+Ack"};
    static constexpr const char* kDataNames[16] = {
        "Data",     "Data+CF-Ack",     "Data+CF-Poll",     "Data+CF-Ack+Poll", "Null",     "CF-Ack",
        "CF-Poll",  "CF-Ack+Poll",     "QoS Data",         "QoS Data+CF-Ack",  "QoS Data+CF-Poll",
        "QoS Data+CF-Ack+Poll", "QoS Null", "Data 13", "QoS CF-Poll", "QoS CF-Ack+Poll"};
    const std::uint8_t sub = wlan::frameSubtype(fc);
    switch (wlan::frameType(fc)) {
    case wlan::kManagement: return kManagementNames[sub];
    case wlan::kControl: return kControlNames[sub];
    case wlan::kData: return kDataNames[sub];
    default: return "Extension";
    }
}

} // namespace

std::string laneFrameLabel(const LaneFrame& f)
{
    const std::uint16_t fc = f.mac.frameControl;
    std::string label = subtypeName(fc);
    if (laneFrameClass(f) == LaneFrameClass::PowerSave && wlan::frameType(fc) == wlan::kData)
        label += wlan::powerManagement(fc) ? " PM=1" : " PM=0";
    if (wlan::retry(fc))
        label += " R";
    return label;
}

bool laneFrameLabelled(const LaneFrame& f)
{
    const LaneFrameClass c = laneFrameClass(f);
    return c == LaneFrameClass::Management || c == LaneFrameClass::PowerSave ||
           (c == LaneFrameClass::Control && wlan::frameSubtype(f.mac.frameControl) != wlan::subtype::kAck &&
            wlan::frameSubtype(f.mac.frameControl) != wlan::subtype::kBlockAck);
}

ConnectionSeries seriesForView(const ConnectionSeries& series, double lower, double upper, int columns,
                               double binSeconds)
{
    ConnectionSeries s = series;
    const double bin = binSeconds > 0 ? binSeconds : viewBinSeconds(lower, upper, columns);
    s.rate = binRates(series, lower, upper, bin);
    s.lane.bins = binLane(series.lane, series.startSeconds, lower, upper, bin);
    return s;
}

namespace {

template <typename Series>
void cropTimes(Series& s, double lower, double upper)
{
    const auto first = static_cast<std::size_t>(std::lower_bound(s.t.begin(), s.t.end(), lower) - s.t.begin());
    const auto last = static_cast<std::size_t>(std::upper_bound(s.t.begin(), s.t.end(), upper) - s.t.begin());
    Series out;
    for (std::size_t i = first; i < last; ++i) {
        if constexpr (std::is_same_v<Series, RangeSeries>)
            out.push(s.t[i], s.lo[i], s.hi[i], s.frame[i]);
        else
            out.push(s.t[i], s.v[i]);
    }
    s = std::move(out);
}

} // namespace

ConnectionSeries croppedSeries(const ConnectionSeries& series, double lower, double upper)
{
    ConnectionSeries s = series;
    for (RangeSeries* r : {&s.timeSequence.segments, &s.timeSequence.retransmissions, &s.timeSequence.rtoRetransmissions,
                           &s.timeSequence.zeroWindowProbes, &s.timeSequence.sackBlocks})
        cropTimes(*r, lower, upper);
    for (XySeries* x : {&s.timeSequence.ack, &s.timeSequence.rwnd, &s.timeSequence.zeroWindows, &s.window.cwnd,
                        &s.window.effective, &s.window.ssthresh, &s.window.bytesInFlight, &s.window.rwnd,
                        &s.rate.throughput, &s.rate.goodput, &s.rtt.seqAck, &s.rtt.timestamps, &s.lane.bins.framesReceived,
                        &s.lane.bins.retries, &s.lane.bins.failedAttempts, &s.lane.bins.rateMbps, &s.lane.bins.signalDbm})
        cropTimes(*x, lower, upper);
    std::erase_if(s.lane.events, [&](const LaneEvent& e) { return e.end < lower || e.start > upper; });
    std::erase_if(s.window.limits, [&](const WindowLimitInterval& l) { return l.end < lower || l.start > upper; });
    const auto [first, last] = laneFramesBetween(series.lane, lower, upper);
    s.lane.frames.assign(series.lane.frames.begin() + static_cast<std::ptrdiff_t>(first),
                         series.lane.frames.begin() + static_cast<std::ptrdiff_t>(last));
    return s;
}

void writeLaneFramesCsv(std::ostream& out, const WlanLaneSeries& lane, double lower, double upper)
{
    const auto [first, last] = laneFramesBetween(lane, lower, upper);
    for (std::size_t i = first; i < last; ++i) {
        const LaneFrame& f = lane.frames[i];
        out << "mac_frame_" << laneFrameClassName(laneFrameClass(f)) << ',' << fixedText(f.time, 9) << ',';
        if (f.mac.dataRateKbps)
            out << fixedText(f.mac.dataRateKbps / 1000.0, 3);
        out << ',' << f.mac.frameControl << ',' << f.frame << '\n';
    }
}

} // namespace windscope::analysis
