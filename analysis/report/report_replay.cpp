// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_replay.h"

#include "json_writer.h"

#include <cstdio>
#include <sstream>

namespace windscope::analysis {

namespace {

void writeMetrics(JsonWriter& w, const char* key, const replay::Metrics* m)
{
    w.key(key);
    if (!m) {
        w.null();
        return;
    }
    w.beginObject();
    w.field("goodput_bps", m->goodputBps);
    w.field("completion_s", m->completionS);
    w.field("retransmissions", m->retransmissions);
    w.field("rto_timeouts", m->rtoTimeouts);
    w.field("bytes", m->bytes);
    w.endObject();
}

void writeCalibration(JsonWriter& w, const replay::ReplayReport& report)
{
    w.key("calibration_error");
    if (!report.calibration) {
        w.null();
        return;
    }
    const replay::CalibrationError& e = *report.calibration;
    w.beginObject();
    w.field("goodput", e.goodput);
    w.field("completion", e.completion);
    w.field("retransmissions", e.retransmissions);
    w.field("rto_timeouts", e.rtoTimeouts);
    w.field("threshold", e.threshold);
    w.field("exceeded", e.exceeded);
    w.field("sender_modelled", e.senderModelled);
    w.field("seed_runs", static_cast<std::uint64_t>(e.seedRuns));
    w.key("goodput_seed_range_bps");
    if (e.seedRuns > 1) {
        w.beginArray();
        w.value(e.seedGoodputMinBps);
        w.value(e.seedGoodputMaxBps);
        w.endArray();
    } else {
        w.null();
    }
    w.field("phase_runs", static_cast<std::uint64_t>(e.phaseRuns));
    w.key("goodput_phase_range_bps");
    if (e.phaseRuns > 0) {
        w.beginArray();
        w.value(e.phaseGoodputMinBps);
        w.value(e.phaseGoodputMaxBps);
        w.endArray();
    } else {
        w.null();
    }
    w.endObject();
}

void writeRange(JsonWriter& w, const char* key, double low, double high)
{
    w.key(key).beginArray();
    w.value(low);
    w.value(high);
    w.endArray();
}

// One scenario over its seeds: the range of each contract figure, each seed's goodput,
// and the run kept as the trace (its seed and its own figures).
void writeSeedRuns(JsonWriter& w, const char* key, const replay::SeedRuns* runs)
{
    w.key(key);
    if (!runs) {
        w.null();
        return;
    }
    w.beginObject();
    writeRange(w, "goodput_bps", runs->min.goodputBps, runs->max.goodputBps);
    writeRange(w, "completion_s", runs->min.completionS, runs->max.completionS);
    writeRange(w, "retransmissions", static_cast<double>(runs->min.retransmissions),
               static_cast<double>(runs->max.retransmissions));
    writeRange(w, "rto_timeouts", static_cast<double>(runs->min.rtoTimeouts), static_cast<double>(runs->max.rtoTimeouts));
    w.key("per_seed_goodput_bps").beginArray();
    for (const replay::Metrics& m : runs->perSeed)
        w.value(m.goodputBps);
    w.endArray();
    w.field("kept_seed", runs->keptSeed());
    writeMetrics(w, "kept", runs->perSeed.empty() ? nullptr : &runs->perSeed[runs->kept]);
    w.endObject();
}

// {"count", "seeds", "random_elements", "baseline": S, "fixed": S, "fix_effect"}: how
// the baseline and the fixes were averaged (baseline and fixed M are the means).
void writeSeeds(JsonWriter& w, const replay::ReplayReport& report)
{
    const replay::SeedRuns& base = report.baselineSeeds;
    w.key("seed_runs").beginObject();
    w.field("count", static_cast<std::uint64_t>(base.seeds.size()));
    w.key("seeds").beginArray();
    for (const std::uint64_t seed : base.seeds)
        w.value(seed);
    w.endArray();
    w.key("random_elements").beginArray();
    for (const std::string& e : replay::randomElements(report.scenario))
        w.value(e);
    w.endArray();
    writeSeedRuns(w, "baseline", &base);
    writeSeedRuns(w, "fixed", report.fixedSeeds ? &*report.fixedSeeds : nullptr);
    w.key("fix_effect");
    if (report.fixEffect) {
        w.beginObject();
        w.field("goodput_ratio", report.fixEffect->goodputRatio);
        writeRange(w, "per_seed_goodput_ratio", report.fixEffect->perSeedRatioMin, report.fixEffect->perSeedRatioMax);
        w.endObject();
    } else {
        w.null();
    }
    w.endObject();
}

// {"queue_bytes", "baseline": M, "fixed": M, "goodput_ratio", "per_seed_goodput_ratio"}
// or null: the fixes with the queue at the least the capture allows.
void writeQueueFloor(JsonWriter& w, const replay::ReplayReport& report)
{
    w.key("fix_effect_at_queue_floor");
    if (!report.atQueueFloor) {
        w.null();
        return;
    }
    const replay::ReplayReport::QueueFloorRun& run = *report.atQueueFloor;
    w.beginObject();
    w.field("queue_bytes", run.queueBytes);
    writeMetrics(w, "baseline", &run.baseline);
    writeMetrics(w, "fixed", &run.fixed);
    w.field("goodput_ratio", run.effect.goodputRatio);
    writeRange(w, "per_seed_goodput_ratio", run.effect.perSeedRatioMin, run.effect.perSeedRatioMax);
    w.endObject();
}

} // namespace

std::string replayJson(const replay::ReplayReport& report, const std::vector<std::string>& fixes)
{
    std::ostringstream out;
    JsonWriter w(out);
    w.beginObject();
    writeMetrics(w, "capture", report.capture ? &*report.capture : nullptr);
    writeMetrics(w, "baseline", &report.baseline);
    writeMetrics(w, "fixed", report.fixed ? &*report.fixed : nullptr);
    // A capture cut mid-transfer: the baseline over its time, which the fix is against.
    writeMetrics(w, "fix_baseline", report.fixBaseline ? &*report.fixBaseline : nullptr);
    writeCalibration(w, report);
    writeSeeds(w, report);
    writeQueueFloor(w, report);
    w.key("fixes").beginArray();
    for (const std::string& f : fixes)
        w.value(f);
    w.endArray();
    w.key("warnings").beginArray();
    if (report.calibration && report.calibration->exceeded)
        w.value(report.calibration->warning);
    for (const std::string& warning : report.warnings)
        w.value(warning);
    w.endArray();
    w.field("scenario", report.scenario.name);
    w.key("notes").beginArray();
    for (const std::string& n : report.notes)
        w.value(n);
    w.endArray();
    w.endObject();
    return out.str();
}

std::string sweepJson(const replay::ReplayReport& report, const replay::SweepSpec& sweep,
                      const std::vector<replay::SweepPoint>& points, bool cancelled)
{
    std::ostringstream out;
    JsonWriter w(out);
    w.beginObject();
    writeMetrics(w, "capture", report.capture ? &*report.capture : nullptr);
    writeMetrics(w, "baseline", &report.baseline);
    w.key("sweep").beginObject();
    w.field("parameter", sweep.parameter);
    w.field("cancelled", cancelled);
    w.key("points").beginArray();
    for (const replay::SweepPoint& p : points) {
        if (p.error == "cancelled")
            continue;
        w.beginObject();
        w.field("value", p.value);
        if (p.error.empty()) {
            writeMetrics(w, "result", &p.metrics);
            w.field("seed_runs", static_cast<std::uint64_t>(p.runs.seeds.size()));
            writeRange(w, "goodput_range_bps", p.runs.min.goodputBps, p.runs.max.goodputBps);
        } else
            w.field("error", p.error);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    w.endObject();
    return out.str();
}

void writeSweepCsv(std::ostream& out, const std::string& parameter, const std::vector<replay::SweepPoint>& points)
{
    out << parameter << ",goodput_bps,completion_s,retransmissions,rto_timeouts\n";
    for (const replay::SweepPoint& p : points) {
        if (!p.error.empty())
            continue;
        char line[160];
        std::snprintf(line, sizeof line, "%.10g,%.0f,%.6f,%llu,%llu\n", p.value, p.metrics.goodputBps,
                      p.metrics.completionS, static_cast<unsigned long long>(p.metrics.retransmissions),
                      static_cast<unsigned long long>(p.metrics.rtoTimeouts));
        out << line;
    }
}

} // namespace windscope::analysis
