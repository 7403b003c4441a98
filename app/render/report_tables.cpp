// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_tables.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/report/report_json.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

namespace windscope::render {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("ReportTables", text); }

QStringList translated(const char* const* names, std::size_t n)
{
    QStringList list;
    for (std::size_t i = 0; i < n; ++i)
        list << tr(names[i]);
    return list;
}

QString fixed(double v, int decimals) { return QString::number(v, 'f', decimals); }
QString mbps(double bps, int decimals) { return fixed(bps / 1e6, decimals); }
QString eventStart(const analysis::WlanEvent& e) { return fixed(static_cast<double>(e.startNs) / 1e9, 3); }
// An open-ended event or an absence shows only part of itself: its duration is a lower bound.
QString eventDuration(const analysis::WlanEvent& e)
{
    return (e.lowerBound() ? QStringLiteral(">= ") : e.upperBound() ? QStringLiteral("<= ") : QString()) + fixed(static_cast<double>(e.endNs - e.startNs) / 1e6, 1);
}

// Window sizes in kB; -1 (not followed) shows as a dash.
QString kilobytes(std::int64_t bytes) { return bytes < 0 ? QStringLiteral("-") : fixed(static_cast<double>(bytes) / 1e3, 1); }

template <typename Cell>
TextTable tableOf(const QString& id, const QStringList& headers, bool (*isText)(int), std::size_t rows, Cell cell)
{
    TextTable t;
    t.id = id;
    t.headers = headers;
    for (int c = 0; c < headers.size(); ++c)
        t.text.push_back(isText(c));
    t.rows.reserve(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        QStringList cells;
        for (int c = 0; c < headers.size(); ++c)
            cells << cell(r, c);
        t.rows.push_back(cells);
    }
    return t;
}

} // namespace

QStringList connectionHeaders()
{
    static const char* const names[] = {"#", "Client", "Server", "Station", "Start (s)", "Duration (s)", "Packets",
                                        "Data bytes", "Retx", "RTO", "Dup ACKs", "Zero win", "Throughput (Mb/s)",
                                        "Goodput (Mb/s)", "RTT avg (ms)"};
    static_assert(std::size(names) == connection_column::Count);
    return translated(names, std::size(names));
}

bool connectionColumnIsText(int column)
{
    using namespace connection_column;
    return column == Client || column == Server || column == Station;
}

QString connectionCell(const AnalysisBundle& c, std::size_t row, int column)
{
    using namespace connection_column;
    const analysis::Connection& k = c.tcp.connections[row];
    const int sender = analysis::cwnd::dataSenderOf(k);
    const analysis::DirectionStats& d = k.direction[sender];
    switch (column) {
    case Id: return QString::number(k.id);
    case Client: return QString::fromStdString(analysis::endpointText(c.tables, k.address[0], k.port[0]));
    case Server: return QString::fromStdString(analysis::endpointText(c.tables, k.address[1], k.port[1]));
    case Station:
        if (row < c.inventory.connections.size() && c.inventory.connections[row].station >= 0)
            return macText(c, c.inventory.stations[static_cast<std::size_t>(c.inventory.connections[row].station)].mac);
        return {};
    case Start: return fixed(static_cast<double>(k.firstTimeNs) / 1e9, 3);
    case Duration: return fixed(static_cast<double>(k.lastTimeNs - k.firstTimeNs) / 1e9, 3);
    case Packets: return QString::number(k.segments);
    case DataBytes: return QString::number(d.dataBytes);
    case Retransmissions: return QString::number(d.retransmissions);
    case RtoTimeouts: return QString::number(d.rtoTimeouts);
    case DupAcks: return QString::number(k.direction[1 - sender].dupAcks);
    case ZeroWindows: return QString::number(k.direction[1 - sender].zeroWindows);
    case Throughput: return mbps(d.throughputBps, 3);
    case Goodput: return mbps(d.goodputBps, 3);
    case RttAvg: return d.rttSamples ? fixed(d.rttAvgMs, 2) : QStringLiteral("-");
    default: return {};
    }
}

std::vector<EventTotals> eventTotals(const AnalysisBundle& c)
{
    return analysis::eventTotals(c.correlation, c.events.size());
}

QStringList eventHeaders()
{
    static const char* const names[] = {"#", "Kind", "Station", "Start (s)", "Duration (ms)", "Basis", "Connections",
                                        "Retx", "RTO", "Before (Mb/s)", "During (Mb/s)", "Recovery (ms)"};
    static_assert(std::size(names) == event_column::Count);
    return translated(names, std::size(names));
}

bool eventColumnIsText(int column)
{
    using namespace event_column;
    return column == Kind || column == Station || column == Basis;
}

QString eventCell(const AnalysisBundle& c, const EventTotals& t, std::size_t row, int column)
{
    using namespace event_column;
    const analysis::WlanEvent& e = c.events.at(row);
    switch (column) {
    case Id: return QString::number(e.id);
    case Kind: return QString::fromLatin1(analysis::eventKindName(e.kind));
    case Station: return macText(c, e.station);
    case Start: return eventStart(e);
    case Duration: return eventDuration(e);
    case Basis: return QString::fromLatin1(e.basis);
    case Connections: return QString::number(t.connections);
    case Retransmissions: return QString::number(t.retransmissions);
    case RtoTimeouts: return QString::number(t.rtoTimeouts);
    case ThroughputBefore: return mbps(t.throughputBeforeBps, 2);
    case ThroughputDuring: return mbps(t.throughputDuringBps, 2);
    case Recovery:
        if (t.recoveryNs < 0)
            return t.connections && t.throughputBeforeBps > 0 ? tr("not recovered") : QStringLiteral("-");
        return fixed(static_cast<double>(t.recoveryNs) / 1e6, 1);
    default: return {};
    }
}

std::vector<CorrelationRow> correlationRows(const AnalysisBundle& c)
{
    std::vector<CorrelationRow> rows;
    const auto& impacts = c.correlation.impacts;
    for (std::size_t e = 0; e < impacts.size() && e < c.events.size(); ++e)
        for (std::size_t i = 0; i < impacts[e].connections.size(); ++i)
            rows.push_back({e, i});
    return rows;
}

QStringList correlationHeaders()
{
    static const char* const names[] = {"Event", "Kind", "Start (s)", "Duration (ms)", "Conn.", "Retx", "Fast retx",
                                        "RTO", "Dup-ACK bursts", "Zero win", "Before (Mb/s)", "During (Mb/s)",
                                        "After (Mb/s)", "Recovery (ms)", "window before (kB)", "window min (kB)",
                                        "window after (kB)", "ssthresh after (kB)"};
    static_assert(std::size(names) == correlation_column::Count);
    return translated(names, std::size(names));
}

bool correlationColumnIsText(int column) { return column == correlation_column::Kind; }

QString correlationCell(const AnalysisBundle& c, const CorrelationRow& r, int column)
{
    using namespace correlation_column;
    const analysis::WlanEvent& e = c.events.at(r.event);
    const analysis::ConnectionImpact& m = c.correlation.impacts[r.event].connections[r.impact];
    switch (column) {
    case Event: return QString::number(e.id);
    case Kind: return QString::fromLatin1(analysis::eventKindName(e.kind));
    case Start: return eventStart(e);
    case Duration: return eventDuration(e);
    case Connection: return QString::number(m.connection);
    case Retransmissions: return QString::number(m.retransmissions);
    case FastRetransmissions: return QString::number(m.fastRetransmissions);
    case RtoTimeouts: return QString::number(m.rtoTimeouts);
    case DupAckBursts: return QString::number(m.dupAckBursts);
    case ZeroWindows: return QString::number(m.zeroWindows);
    case ThroughputBefore: return mbps(m.throughputBeforeBps, 3);
    case ThroughputDuring: return mbps(m.throughputDuringBps, 3);
    case ThroughputAfter: return mbps(m.throughputAfterBps, 3);
    case Recovery:
        if (m.recoveryNs >= 0)
            return fixed(static_cast<double>(m.recoveryNs) / 1e6, 1);
        return m.nothingToRecover() ? QStringLiteral("-") : tr("not recovered");
    case WindowBefore: return kilobytes(m.windowBeforeBytes);
    case WindowMin: return kilobytes(m.windowMinBytes);
    case WindowAfter: return kilobytes(m.windowAfterBytes);
    case SsthreshAfter: return kilobytes(m.ssthreshAfterBytes);
    default: return {};
    }
}

TextTable connectionTable(const AnalysisBundle& c)
{
    return tableOf(QStringLiteral("connections"), connectionHeaders(), &connectionColumnIsText, c.tcp.connections.size(),
                   [&](std::size_t r, int col) { return connectionCell(c, r, col); });
}

TextTable eventTable(const AnalysisBundle& c)
{
    const std::vector<EventTotals> totals = eventTotals(c);
    return tableOf(QStringLiteral("events"), eventHeaders(), &eventColumnIsText, c.events.size(),
                   [&](std::size_t r, int col) { return eventCell(c, totals[r], r, col); });
}

TextTable correlationTable(const AnalysisBundle& c)
{
    const std::vector<CorrelationRow> rows = correlationRows(c);
    return tableOf(QStringLiteral("correlation"), correlationHeaders(), &correlationColumnIsText, rows.size(),
                   [&](std::size_t r, int col) { return correlationCell(c, rows[r], col); });
}

} // namespace windscope::render
