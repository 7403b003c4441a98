// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_fleet.h"

#include "json_writer.h"
#include "report_csv.h"
#include "report_json.h"

#include <cstdio>

namespace windscope::analysis {

namespace {

double ms(std::int64_t ns)
{
    return static_cast<double>(ns) / 1e6;
}

void costFields(JsonWriter& json, const FleetKindCost& k)
{
    json.field("events", k.events);
    json.field("events_with_connections", k.eventsWithConnections);
    json.field("duration_ms", ms(k.durationNs));
    json.field("stalled_ms", ms(k.stalledNs));
    json.field("goodput_lost_bytes", k.goodputLostBytes);
    json.field("goodput_lost_unknown", k.lostUnknown);
    json.field("retransmissions", k.retransmissions);
    json.field("rto_timeouts", k.rtoTimeouts);
}

} // namespace

FleetReport buildFleetReport(const std::string& project, const std::vector<FleetCapture>& captures,
                             FleetGrouping by)
{
    FleetReport report;
    report.project = project;
    report.by = by;
    report.captures = captures.size();
    report.rows = groupFleet(captures, by);
    std::vector<FleetKindCost> kinds(kWlanEventKinds);
    for (const FleetCapture& c : captures)
        for (const FleetCost& cost : c.summary.costs) {
            kinds[static_cast<std::size_t>(cost.kind)].kind = cost.kind;
            kinds[static_cast<std::size_t>(cost.kind)].add(cost);
        }
    for (const FleetKindCost& k : kinds)
        if (k.events)
            report.kinds.push_back(k);
    return report;
}

void writeFleetJson(std::ostream& out, const FleetReport& r)
{
    JsonWriter json(out);
    json.beginObject();
    json.field("project", r.project);
    json.field("grouped_by", fleetGroupingName(r.by));
    json.field("captures", static_cast<std::uint64_t>(r.captures));
    json.field("captures_stale", static_cast<std::uint64_t>(r.staleCaptures));
    json.field("captures_failed", static_cast<std::uint64_t>(r.failedCaptures));
    json.key("captures_damaged").beginArray();
    for (const std::string& why : r.damagedCaptures)
        json.value(why);
    json.endArray();
    json.field("ranked_by", "stalled_ms, goodput_lost_bytes, retransmissions");
    json.key("groups").beginArray();
    for (const FleetRow& row : r.rows) {
        json.beginObject();
        json.field("key", row.key);
        json.field("captures", row.captures);
        json.field("stations", row.stations);
        costFields(json, row.total);
        json.field("roams", row.roams);
        json.field("failed_roams", row.failedRoams);
        json.field("periodic_scans", row.scans);
        json.key("scan_interval_ms");
        row.scans ? json.value(row.scanIntervalMs) : json.null();
        json.key("scan_dwell_ms");
        row.scans ? json.value(row.scanDwellMs) : json.null();
        json.field("delivered_bytes", row.deliveredBytes);
        json.key("kinds").beginArray();
        for (const FleetKindCost& k : row.kinds) {
            json.beginObject();
            json.field("kind", eventKindName(k.kind));
            costFields(json, k);
            json.endObject();
        }
        json.endArray();
        json.key("worst_event");
        if (row.worst.stalledNs >= 0) {
            json.beginObject();
            json.field("capture_id", row.worst.captureId);
            json.field("path", row.worst.path);
            json.field("event", row.worst.event);
            json.field("kind", eventKindName(row.worst.kind));
            json.field("start_s", static_cast<double>(row.worst.startNs) / 1e9);
            json.field("end_s", static_cast<double>(row.worst.endNs) / 1e9);
            json.field("stalled_ms", ms(row.worst.stalledNs));
            json.endObject();
        } else {
            json.null();
        }
        json.endObject();
    }
    json.endArray();
    json.key("kinds").beginArray();
    for (const FleetKindCost& k : r.kinds) {
        json.beginObject();
        json.field("kind", eventKindName(k.kind));
        costFields(json, k);
        json.endObject();
    }
    json.endArray();
    json.endObject();
    out << '\n';
}

void writeFleetCsv(std::ostream& out, const FleetReport& r)
{
    out << fleetGroupingName(r.by)
        << ",rank,kind,events,events_with_connections,duration_ms,stalled_ms,goodput_lost_bytes,"
           "goodput_lost_unknown,retransmissions,rto_timeouts,captures,stations,roams,failed_roams,"
           "periodic_scans,scan_interval_ms,scan_dwell_ms\n";
    std::size_t rank = 0;
    for (const FleetRow& row : r.rows) {
        ++rank;
        const auto line = [&](const char* kind, const FleetKindCost& k) {
            writeCsvField(out, row.key);
            out << ',' << rank << ',' << kind << ',' << k.events << ','
                << k.eventsWithConnections << ',' << fixedText(ms(k.durationNs), 3) << ','
                << fixedText(ms(k.stalledNs), 3) << ',' << k.goodputLostBytes << ',' << k.lostUnknown
                << ',' << k.retransmissions << ',' << k.rtoTimeouts << ',' << row.captures << ','
                << row.stations << ',' << row.roams << ',' << row.failedRoams << ',' << row.scans << ',';
            if (row.scans)
                out << fixedText(row.scanIntervalMs, 1) << ',' << fixedText(row.scanDwellMs, 1);
            else
                out << ',';
            out << '\n';
        };
        line("total", row.total);
        for (const FleetKindCost& k : row.kinds)
            line(eventKindName(k.kind), k);
    }
}

void writeFleetText(std::ostream& out, const FleetReport& r)
{
    char line[512];
    std::snprintf(line, sizeof line,
                  "Project %s: %zu capture(s) with results, grouped by %s, ranked by stalled time\n",
                  r.project.c_str(), r.captures, fleetGroupingName(r.by));
    out << line;
    if (r.staleCaptures)
        out << r.staleCaptures
            << " capture(s) analysed by an older layout are left out: add them again (or rerun the batch)\n";
    if (r.failedCaptures)
        out << r.failedCaptures << " capture(s) could not be analysed (project list shows why)\n";
    if (!r.damagedCaptures.empty())
        out << r.damagedCaptures.size() << " capture(s) left out: their cached fleet part could not be read\n";
    std::snprintf(line, sizeof line, "%4s  %-24s %8s %10s %12s %6s %5s %6s %6s %6s  %s\n", "rank",
                  fleetGroupingName(r.by), "captures", "stalled s", "lost MB", "retx", "rto", "events",
                  "roams", "failed", "scans every/dwell");
    out << line;
    std::size_t rank = 0;
    for (const FleetRow& row : r.rows) {
        const std::string key = row.key.empty() ? "(none)" : row.key;
        std::string scans = "-";
        if (row.scans) {
            char text[64];
            std::snprintf(text, sizeof text, "%llu, %.0f/%.1f ms", static_cast<unsigned long long>(row.scans),
                          row.scanIntervalMs, row.scanDwellMs);
            scans = text;
        }
        std::snprintf(line, sizeof line, "%4zu  %-24s %8llu %10.3f %12.3f %6llu %5llu %6llu %6llu %6llu  %s\n",
                      ++rank, key.c_str(), static_cast<unsigned long long>(row.captures),
                      static_cast<double>(row.total.stalledNs) / 1e9,
                      static_cast<double>(row.total.goodputLostBytes) / 1e6,
                      static_cast<unsigned long long>(row.total.retransmissions),
                      static_cast<unsigned long long>(row.total.rtoTimeouts),
                      static_cast<unsigned long long>(row.total.events),
                      static_cast<unsigned long long>(row.roams),
                      static_cast<unsigned long long>(row.failedRoams), scans.c_str());
        out << line;
        std::string kinds;
        for (const FleetKindCost& k : row.kinds) {
            char text[96];
            std::snprintf(text, sizeof text, "%s%s %llu (%.3f s)", kinds.empty() ? "" : ", ",
                          eventKindName(k.kind), static_cast<unsigned long long>(k.events),
                          static_cast<double>(k.stalledNs) / 1e9);
            kinds += text;
        }
        if (!kinds.empty())
            out << "        " << kinds << '\n';
        if (row.worst.stalledNs > 0) {
            std::snprintf(line, sizeof line, "        worst: %s event %llu at %.3f s, stalled %.3f s, in %s\n",
                          eventKindName(row.worst.kind), static_cast<unsigned long long>(row.worst.event),
                          static_cast<double>(row.worst.startNs) / 1e9,
                          static_cast<double>(row.worst.stalledNs) / 1e9, row.worst.path.c_str());
            out << line;
        }
    }
}

} // namespace windscope::analysis
