// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario_json.h"

#include "analysis/report/json_writer.h"
#include "json_value.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace windscope::analysis::replay {

namespace {

// One description of the fields serves both directions: visit(visitor, scenario)
// calls visitor.field(name, member) for each, inside visitor.section(name, ...) blocks.
template <typename V, typename S>
void visitScenario(V& v, S& s)
{
    v.field("name", s.name);
    v.field("description", s.description);
    v.field("seed", s.seed);
    v.field("duration_s", s.durationS);
    v.field("bytes", s.bytes);
    v.section("path", [&] {
        v.field("bottleneck_mbps", s.path.bottleneckMbps);
        v.field("queue_bytes", s.path.queueBytes);
        v.field("burst_bytes", s.path.burstBytes);
        v.field("wired_delay_ms", s.path.wiredDelayMs);
        v.field("wireless_delay_ms", s.path.wirelessDelayMs);
        v.field("reverse_delay_ms", s.path.reverseDelayMs);
        v.field("jitter_ms", s.path.jitterMs);
        v.field("loss_fwd", s.path.lossFwd);
        v.field("loss_rev", s.path.lossRev);
        v.segments("lost_segments", s.path.lostSegments);
    });
    v.section("mac", [&] {
        v.field("enabled", s.mac.enabled);
        v.field("hops", s.mac.hops);
        v.field("phy_rate_mbps", s.mac.phyRateMbps);
        v.field("basic_rate_mbps", s.mac.basicRateMbps);
        v.field("preamble_us", s.mac.preambleUs);
        v.field("slot_us", s.mac.slotUs);
        v.field("sifs_us", s.mac.sifsUs);
        v.field("cw_min", s.mac.cwMin);
        v.field("cw_max", s.mac.cwMax);
        v.field("retry_limit", s.mac.retryLimit);
        v.field("long_retry_limit", s.mac.longRetryLimit);
        v.field("ampdu_max", s.mac.ampduMax);
        v.field("rts_cts", s.mac.rtsCts);
        v.field("sense_hops", s.mac.senseHops);
        v.field("interference_hops", s.mac.interferenceHops);
        v.field("mac_overhead_bytes", s.mac.macOverheadBytes);
        v.field("ip_tcp_header_bytes", s.mac.ipTcpHeaderBytes);
        v.field("ap_queue_frames", s.mac.apQueueFrames);
        v.field("hw_queue_frames", s.mac.hwQueueFrames);
        v.field("frame_error_rate", s.mac.frameErrorRate);
    });
    v.section("receiver", [&] {
        v.field("buffer_bytes", s.receiver.bufferBytes);
        v.field("app_read_bytes", s.receiver.appReadBytes);
        v.field("read_fixed_us", s.receiver.readFixedUs);
        v.field("read_per_byte_us", s.receiver.readPerByteUs);
        v.field("rx_ring_packets", s.receiver.rxRingPackets);
        v.field("rx_per_packet_us", s.receiver.rxPerPacketUs);
        v.field("delayed_ack_segments", s.receiver.delayedAckSegments);
        v.field("delayed_ack_ms", s.receiver.delayedAckMs);
    });
    v.section("sender", [&] {
        v.field("cc", s.sender.cc);
        v.field("mss", s.sender.mss);
        v.field("initial_window_segments", s.sender.initialWindowSegments);
        v.field("max_window_bytes", s.sender.maxWindowBytes);
        v.field("sack", s.sender.sack);
        v.field("rack_tlp", s.sender.rackTlp);
        v.field("prr", s.sender.prr);
        v.field("min_rto_ms", s.sender.minRtoMs);
        v.field("rto_rfc6298", s.sender.rtoRfc6298);
        v.field("initial_rto_ms", s.sender.initialRtoMs);
        v.field("max_rto_ms", s.sender.maxRtoMs);
        v.field("pace_ms", s.sender.paceMs);
    });
    v.section("periodic_scan", [&] {
        v.field("interval_ms", s.periodicScan.intervalMs);
        v.field("dwell_ms", s.periodicScan.dwellMs);
        v.field("first_s", s.periodicScan.firstS);
        v.field("until_s", s.periodicScan.untilS);
        v.mode("mode", s.periodicScan.mode);
    });
    v.outages("outages", s.outageList);
    v.strings("fixes", s.fixes);
}

class Writer
{
public:
    explicit Writer(std::ostringstream& out) : m_out(out) {}
    void begin() { m_out << "{"; }
    void end() { m_out << "\n}\n"; }

    void field(const char* key, const std::string& v)
    {
        next(key);
        JsonWriter::writeEscaped(m_out, v);
    }
    void field(const char* key, double v)
    {
        next(key);
        m_out << numberText(v);
    }
    void field(const char* key, std::uint64_t v)
    {
        next(key);
        m_out << v;
    }
    void field(const char* key, std::uint32_t v)
    {
        next(key);
        m_out << v;
    }
    void field(const char* key, bool v)
    {
        next(key);
        m_out << (v ? "true" : "false");
    }
    void mode(const char* key, OutageMode m) { field(key, std::string(outageModeName(m))); }
    template <typename F>
    void section(const char* key, F body)
    {
        next(key);
        m_out << "{";
        m_first = true;
        ++m_depth;
        body();
        --m_depth;
        m_out << "\n" << indent() << "  }";
        m_first = false;
    }
    void outages(const char* key, const std::vector<Outage>& list)
    {
        next(key);
        m_out << "[";
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Outage& o = list[i];
            m_out << (i ? "," : "") << "\n" << indent() << "    {\"kind\": \"" << outageKindName(o.kind)
                  << "\", \"mode\": \"" << outageModeName(o.mode) << "\", \"start_s\": " << numberText(o.startS)
                  << ", \"duration_s\": " << numberText(o.durationS) << "}";
        }
        m_out << (list.empty() ? "]" : "\n" + indent() + "  ]");
    }
    void segments(const char* key, const std::vector<std::int64_t>& list)
    {
        next(key);
        m_out << "[";
        for (std::size_t i = 0; i < list.size(); ++i)
            m_out << (i ? ", " : "") << list[i];
        m_out << "]";
    }
    void strings(const char* key, const std::vector<std::string>& list)
    {
        next(key);
        m_out << "[";
        for (std::size_t i = 0; i < list.size(); ++i) {
            m_out << (i ? ", " : "");
            JsonWriter::writeEscaped(m_out, list[i]);
        }
        m_out << "]";
    }

private:
    static std::string numberText(double v)
    {
        if (!std::isfinite(v))
            return "0";
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.15g", v);
        return buf;
    }
    std::string indent() const { return std::string(2 * m_depth, ' '); }
    void next(const char* key)
    {
        m_out << (m_first ? "" : ",") << "\n" << indent() << "  \"" << key << "\": ";
        m_first = false;
    }
    std::ostringstream& m_out;
    bool m_first = true;
    int m_depth = 0;
};

class Reader
{
public:
    explicit Reader(const JsonValue& root) : m_object(&root) {}
    std::string error;

    void field(const char* key, std::string& v)
    {
        if (const JsonValue* j = take(key)) {
            if (j->isString())
                v = j->string();
            else
                wrong(key, "a string");
        }
    }
    void field(const char* key, double& v)
    {
        if (const JsonValue* j = take(key)) {
            if (j->isNumber())
                v = j->number();
            else
                wrong(key, "a number");
        }
    }
    void field(const char* key, std::uint64_t& v)
    {
        if (const JsonValue* j = take(key)) {
            if (j->isNumber() && j->number() >= 0 && j->number() < 1.8e19 && std::floor(j->number()) == j->number())
                v = static_cast<std::uint64_t>(j->number());
            else
                wrong(key, "a non-negative integer");
        }
    }
    void field(const char* key, std::uint32_t& v)
    {
        std::uint64_t wide = v;
        field(key, wide);
        if (wide > 0xffffffffu)
            wrong(key, "an integer below 2^32");
        else
            v = static_cast<std::uint32_t>(wide);
    }
    void field(const char* key, bool& v)
    {
        if (const JsonValue* j = take(key)) {
            if (j->isBool())
                v = j->boolean();
            else
                wrong(key, "true or false");
        }
    }
    void mode(const char* key, OutageMode& m)
    {
        std::string text;
        field(key, text);
        if (!text.empty() && !parseOutageMode(text, m))
            wrong(key, "\"drop\", \"hold\" or \"ps\"");
    }
    template <typename F>
    void section(const char* key, F body)
    {
        const JsonValue* j = take(key);
        if (!j)
            return;
        if (!j->isObject()) {
            wrong(key, "an object");
            return;
        }
        const JsonValue* outer = m_object;
        const std::string outerPath = m_path;
        std::vector<std::string> outerSeen;
        outerSeen.swap(m_seen);
        m_object = j;
        m_path = outerPath + key + ".";
        body();
        checkUnknown();
        m_object = outer;
        m_path = outerPath;
        m_seen.swap(outerSeen);
    }
    void outages(const char* key, std::vector<Outage>& list)
    {
        const JsonValue* j = take(key);
        if (!j)
            return;
        if (!j->isArray()) {
            wrong(key, "an array");
            return;
        }
        list.clear();
        for (const JsonValue& e : j->array()) {
            Outage o;
            const JsonValue* kind = e.find("kind");
            const JsonValue* mode = e.find("mode");
            const JsonValue* start = e.find("start_s");
            const JsonValue* duration = e.find("duration_s");
            if (!e.isObject() || !kind || !kind->isString() || !parseOutageKind(kind->string(), o.kind) ||
                !start || !start->isNumber() || !duration || !duration->isNumber() ||
                (mode && (!mode->isString() || !parseOutageMode(mode->string(), o.mode)))) {
                wrong(key, "objects {kind: scan|handoff|power_save, mode: drop|hold|ps, start_s, duration_s}");
                return;
            }
            o.startS = start->number();
            o.durationS = duration->number();
            list.push_back(o);
        }
    }
    void segments(const char* key, std::vector<std::int64_t>& list)
    {
        const JsonValue* j = take(key);
        if (!j)
            return;
        list.clear();
        if (!j->isArray()) {
            wrong(key, "an array of segment indices");
            return;
        }
        for (const JsonValue& e : j->array()) {
            if (!e.isNumber() || e.number() < 0 || e.number() > 9e15 || std::floor(e.number()) != e.number()) {
                wrong(key, "an array of segment indices");
                return;
            }
            list.push_back(static_cast<std::int64_t>(e.number()));
        }
    }
    void strings(const char* key, std::vector<std::string>& list)
    {
        const JsonValue* j = take(key);
        if (!j)
            return;
        list.clear();
        if (!j->isArray()) {
            wrong(key, "an array of strings");
            return;
        }
        for (const JsonValue& e : j->array()) {
            if (!e.isString()) {
                wrong(key, "an array of strings");
                return;
            }
            list.push_back(e.string());
        }
    }
    void checkUnknown()
    {
        for (const auto& [k, v] : m_object->members()) {
            bool known = false;
            for (const std::string& s : m_seen)
                known = known || s == k;
            if (!known && error.empty())
                error = "unknown key '" + m_path + k + "'";
        }
    }

private:
    const JsonValue* take(const char* key)
    {
        m_seen.emplace_back(key);
        return m_object->find(key);
    }
    void wrong(const char* key, const char* expected)
    {
        if (error.empty())
            error = "'" + m_path + key + "' must be " + expected;
    }
    const JsonValue* m_object;
    std::string m_path;
    std::vector<std::string> m_seen;
};

} // namespace

std::string scenarioToJson(const Scenario& scenario)
{
    std::ostringstream out;
    Writer w(out);
    w.begin();
    visitScenario(w, scenario);
    w.end();
    return out.str();
}

bool scenarioFromJson(const std::string& text, Scenario& out, std::string& error)
{
    JsonValue root;
    if (!JsonValue::parse(text, root, error))
        return false;
    if (!root.isObject()) {
        error = "a scenario is a JSON object";
        return false;
    }
    Scenario s;
    Reader r(root);
    visitScenario(r, s);
    r.checkUnknown();
    if (!r.error.empty()) {
        error = r.error;
        return false;
    }
    out = std::move(s);
    return true;
}

bool readScenarioFile(const std::string& path, Scenario& out, std::string& error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open " + path;
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (!scenarioFromJson(text.str(), out, error)) {
        error = path + ": " + error;
        return false;
    }
    return true;
}

} // namespace windscope::analysis::replay
