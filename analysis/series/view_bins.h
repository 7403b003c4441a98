// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The binned series computed for what is in view: throughput, goodput and the 802.11
// lane's statistics re-binned at a width that suits the visible range, and the lane's
// frame-level view (one tick per frame) once the range is short enough for every frame
// to be told apart. The desktop plots call these on each zoom and pan; the CLI's
// `series --from --to` and the exported figures call the same, so they agree.
//
// Bins lie on a grid anchored at the connection's first packet, so panning moves the
// view over fixed bins instead of re-cutting them.

#include "plot_series.h"

#include <string>
#include <utility>

namespace windscope::analysis {

// A bin spans about this many pixel columns: narrower, a step line of per-bin rates
// turns into vertical noise the eye cannot read.
inline constexpr double kPixelsPerBin = 4;
// The longest 802.11n/ac PPDU lasts 5.484 ms (aPPDUMaxTime) and a capture stamps all
// its frames at once: a bin of twice that holds whole PPDUs wherever it falls, where a
// shorter one shows an A-MPDU as a burst at many times the PHY rate. Finer detail is
// the frame view's.
inline constexpr double kMinBinSeconds = 10e-3;
// A frame tick needs its own pixel with a free one either side to be seen apart.
inline constexpr double kPixelsPerFrameTick = 3;

// The bin width for [lower, upper] drawn over columns pixels: kPixelsPerBin pixels per
// bin, rounded up to 1, 2 or 5 times a power of ten (a small zoom keeps the width and the
// label stays round), at least kMinBinSeconds.
double viewBinSeconds(double lower, double upper, int columns);

// A bin width as the plots name it: "5 ms", "200 ms", "2 s".
std::string binWidthText(double binSeconds);

// Throughput and goodput (RateSeries) of the connection in bins of binSeconds on the
// connection's grid, for every bin that meets [lower, upper] within the connection.
// Goodput counts the advance of the cumulative ACK, so the ACKs before the range set
// where it starts.
RateSeries binRates(const ConnectionSeries& series, double lower, double upper, double binSeconds);

// The lane's statistics from its frames in bins of binSeconds on the grid anchored at
// anchor, for every bin meeting both [lower, upper] and the span of the lane's frames.
LaneBins binLane(const WlanLaneSeries& lane, double anchor, double lower, double upper, double binSeconds);

// [first, last) indices of lane.frames with times in [lower, upper].
std::pair<std::size_t, std::size_t> laneFramesBetween(const WlanLaneSeries& lane, double lower, double upper);

// True when the lane's frames in [lower, upper] can each be drawn apart over columns
// pixels (kPixelsPerFrameTick each): the lane then shows frames instead of bins.
bool frameLevelView(const WlanLaneSeries& lane, double lower, double upper, int columns);

// The rows of the frame-level lane, bottom to top.
enum class LaneFrameClass : std::uint8_t {
    Control,         // ACK, Block Ack, RTS/CTS...
    DataToStation,   // downlink data (the Retry bit drawn apart)
    DataFromStation, // uplink data
    PowerSave,       // Null / QoS Null data and PS-Poll: how a station announces doze and wake
    Management,      // probe, authentication, association, action, deauthentication...
};
inline constexpr std::size_t kLaneFrameClassCount = 5;
LaneFrameClass laneFrameClass(const LaneFrame& frame);
const char* laneFrameClassName(LaneFrameClass c); // "control", "data_to_station", ...
const char* laneFrameClassTitle(LaneFrameClass c); // "control", "data to station", ...
// The frame's kind as an analyst names it ("QoS Data", "Probe Req", "Null", "ACK"),
// with " PM=1"/" PM=0" on power-save frames and " R" when the Retry bit is set.
std::string laneFrameLabel(const LaneFrame& frame);
// Whether the frame view prints the frame's kind next to its tick: everything but
// plain data and ACKs, which come by the hundred and carry no news of their own.
bool laneFrameLabelled(const LaneFrame& frame);

// The series for a view: rates and the lane re-binned at binSeconds (0: viewBinSeconds
// over columns), every other series as it is.
ConnectionSeries seriesForView(const ConnectionSeries& series, double lower, double upper, int columns,
                               double binSeconds = 0);

// The points of every series with times in [lower, upper] (events and limit intervals
// that meet it), for an export of a view.
ConnectionSeries croppedSeries(const ConnectionSeries& series, double lower, double upper);

// "mac_frame_<class>,time_s,rate_mbps,frame_control,frame" rows (writeSeriesCsv's
// columns) for the lane's frames in [lower, upper]; the rate is empty when unknown.
void writeLaneFramesCsv(std::ostream& out, const WlanLaneSeries& lane, double lower, double upper);

} // namespace windscope::analysis
