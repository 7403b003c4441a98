// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The text of the capture's tables -- connections, 802.11 events, and events with the
// connections they affected -- formatted once: the desktop application's table models
// show these cells, and the report prints them, so both show the same numbers the same
// way. Columns are in the order of the models' Column enums.

#include "analysis/wlan/impact_ranking.h"
#include "capture_choice.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace windscope::render {

namespace connection_column {
enum : int { Id, Client, Server, Station, Start, Duration, Packets, DataBytes, Retransmissions, RtoTimeouts, DupAcks,
             ZeroWindows, Throughput, Goodput, RttAvg, Count };
}
namespace event_column {
enum : int { Id, Kind, Station, Start, Duration, Basis, Connections, Retransmissions, RtoTimeouts, ThroughputBefore,
             ThroughputDuring, Recovery, Count };
}
namespace correlation_column {
enum : int { Event, Kind, Start, Duration, Connection, Retransmissions, FastRetransmissions, RtoTimeouts, DupAckBursts,
             ZeroWindows, ThroughputBefore, ThroughputDuring, ThroughputAfter, Recovery, WindowBefore, WindowMin, WindowAfter,
             SsthreshAfter, Count };
}

QStringList connectionHeaders();
bool connectionColumnIsText(int column);   // left-aligned; numbers align right
QString connectionCell(const AnalysisBundle& capture, std::size_t connection, int column);

// Sums over the connections an event affected, for the event table
// (analysis::eventTotals, one per event).
using analysis::EventTotals;
std::vector<EventTotals> eventTotals(const AnalysisBundle& capture);
QStringList eventHeaders();
bool eventColumnIsText(int column);
QString eventCell(const AnalysisBundle& capture, const EventTotals& totals, std::size_t event, int column);

// One row per (event, affected connection): indices in WlanEvents::events and in the
// event's EventImpact::connections.
struct CorrelationRow
{
    std::size_t event = 0, impact = 0;
};
std::vector<CorrelationRow> correlationRows(const AnalysisBundle& capture);
QStringList correlationHeaders();
bool correlationColumnIsText(int column);
QString correlationCell(const AnalysisBundle& capture, const CorrelationRow& row, int column);

// A table as text, for the report.
struct TextTable
{
    QString id;                    // the HTML table's id
    QStringList headers;
    std::vector<bool> text;        // per column: text (left) or number (right)
    std::vector<QStringList> rows;
};
TextTable connectionTable(const AnalysisBundle& capture);
TextTable eventTable(const AnalysisBundle& capture);
TextTable correlationTable(const AnalysisBundle& capture);

} // namespace windscope::render
