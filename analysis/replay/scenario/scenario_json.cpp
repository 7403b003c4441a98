// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario_json.h"

#include "analysis/report/json_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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
    v.field("measured_over_s", s.measuredOverS);
    v.section("path", [&] {
        v.field("bottleneck_mbps", s.path.bottleneckMbps);
        v.field("queue_bytes", s.path.queueBytes);
        v.field("burst_bytes", s.path.burstBytes);
        v.field("bottleneck_at_radio", s.path.atRadio);
        v.field("traced_past_queue", s.path.tracedPastQueue);
        v.field("traced_at_radio", s.path.tracedAtRadio);
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
        v.field("data_preamble_us", s.mac.dataPreambleUs);
        v.field("symbol_us", s.mac.symbolUs);
        v.field("slot_us", s.mac.slotUs);
        v.field("sifs_us", s.mac.sifsUs);
        v.field("aifs_slots", s.mac.aifsSlots);
        v.field("cw_min", s.mac.cwMin);
        v.field("cw_max", s.mac.cwMax);
        v.field("retry_limit", s.mac.retryLimit);
        v.field("long_retry_limit", s.mac.longRetryLimit);
        v.field("ampdu_max", s.mac.ampduMax);
        v.field("ampdu_subframe_bytes", s.mac.ampduSubframeBytes);
        v.field("ampdu_block_ack", s.mac.ampduBlockAck);
        v.field("block_ack_request", s.mac.blockAckRequest);
        v.field("rts_cts", s.mac.rtsCts);
        v.field("sense_hops", s.mac.senseHops);
        v.field("interference_hops", s.mac.interferenceHops);
        v.field("mac_overhead_bytes", s.mac.macOverheadBytes);
        v.field("ip_tcp_header_bytes", s.mac.ipTcpHeaderBytes);
        v.field("ap_queue_frames", s.mac.apQueueFrames);
        v.field("hw_queue_frames", s.mac.hwQueueFrames);
        v.field("station_leave_pause_us", s.mac.stationLeavePauseUs);
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
        v.field("stack", s.sender.stack);
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
        v.field("loss_share", s.periodicScan.lossShare);
        v.segments("lost_segments", s.periodicScan.lostSegments);
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

using Json = nlohmann::ordered_json;

// The member named key of an object, or nullptr (also when j is not an object).
const Json* member(const Json& j, const char* key)
{
    if (!j.is_object())
        return nullptr;
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

// Numbers are read as doubles whatever their JSON form, so that 3, 3.0 and 3e0 are the
// same value and one range check serves them.
double numberOf(const Json& j)
{
    return j.get<double>();
}

class Reader
{
public:
    explicit Reader(const Json& root) : m_object(&root) {}
    std::string error;

    void field(const char* key, std::string& v)
    {
        if (const Json* j = take(key)) {
            if (j->is_string())
                v = j->get_ref<const std::string&>();
            else
                wrong(key, "a string");
        }
    }
    void field(const char* key, double& v)
    {
        if (const Json* j = take(key)) {
            if (j->is_number())
                v = numberOf(*j);
            else
                wrong(key, "a number");
        }
    }
    void field(const char* key, std::uint64_t& v)
    {
        if (const Json* j = take(key)) {
            const double n = j->is_number() ? numberOf(*j) : -1;
            if (j->is_number() && n >= 0 && n < 1.8e19 && std::floor(n) == n)
                v = static_cast<std::uint64_t>(n);
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
        if (const Json* j = take(key)) {
            if (j->is_boolean())
                v = j->get<bool>();
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
        const Json* j = take(key);
        if (!j)
            return;
        if (!j->is_object()) {
            wrong(key, "an object");
            return;
        }
        const Json* outer = m_object;
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
        const Json* j = take(key);
        if (!j)
            return;
        if (!j->is_array()) {
            wrong(key, "an array");
            return;
        }
        list.clear();
        for (const Json& e : *j) {
            Outage o;
            const Json* kind = member(e, "kind");
            const Json* mode = member(e, "mode");
            const Json* start = member(e, "start_s");
            const Json* duration = member(e, "duration_s");
            if (!e.is_object() || !kind || !kind->is_string() ||
                !parseOutageKind(kind->get_ref<const std::string&>(), o.kind) || !start || !start->is_number() ||
                !duration || !duration->is_number() ||
                (mode && (!mode->is_string() || !parseOutageMode(mode->get_ref<const std::string&>(), o.mode)))) {
                wrong(key, "objects {kind: scan|handoff|power_save, mode: drop|hold|ps, start_s, duration_s}");
                return;
            }
            o.startS = numberOf(*start);
            o.durationS = numberOf(*duration);
            list.push_back(o);
        }
    }
    void segments(const char* key, std::vector<std::int64_t>& list)
    {
        const Json* j = take(key);
        if (!j)
            return;
        list.clear();
        if (!j->is_array()) {
            wrong(key, "an array of segment indices");
            return;
        }
        for (const Json& e : *j) {
            const double n = e.is_number() ? numberOf(e) : -1;
            if (!e.is_number() || n < 0 || n > 9e15 || std::floor(n) != n) {
                wrong(key, "an array of segment indices");
                return;
            }
            list.push_back(static_cast<std::int64_t>(n));
        }
    }
    void strings(const char* key, std::vector<std::string>& list)
    {
        const Json* j = take(key);
        if (!j)
            return;
        list.clear();
        if (!j->is_array()) {
            wrong(key, "an array of strings");
            return;
        }
        for (const Json& e : *j) {
            if (!e.is_string()) {
                wrong(key, "an array of strings");
                return;
            }
            list.push_back(e.get<std::string>());
        }
    }
    // Keys in file order (ordered_json), so the first unknown one is reported.
    void checkUnknown()
    {
        for (const auto& [k, v] : m_object->items()) {
            bool known = false;
            for (const std::string& s : m_seen)
                known = known || s == k;
            if (!known && error.empty())
                error = "unknown key '" + m_path + k + "'";
        }
    }

private:
    const Json* take(const char* key)
    {
        m_seen.emplace_back(key);
        return member(*m_object, key);
    }
    void wrong(const char* key, const char* expected)
    {
        if (error.empty())
            error = "'" + m_path + key + "' must be " + expected;
    }
    const Json* m_object;
    std::string m_path;
    std::vector<std::string> m_seen;
};

// "line L, column C: reason" for a parse error: nlohmann names the byte it stopped at
// (1-based, one past the end at end of input); the line and column are counted from it
// the way an editor shows them (both from 1, a tab one column).
std::string parseErrorText(std::string_view text, const nlohmann::json::parse_error& e)
{
    const std::size_t pos = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const std::string_view before = text.substr(0, pos);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t lineStart = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    // e.what(): "[json.exception.parse_error.101] parse error at line 1, column 12: REASON"
    std::string reason = e.what();
    if (const auto at = reason.find("column "); at != std::string::npos)
        if (const auto colon = reason.find(": ", at); colon != std::string::npos)
            reason.erase(0, colon + 2);
    return "line " + std::to_string(line) + ", column " + std::to_string(pos - lineStart + 1) + ": " + reason;
}

// Parses text; false with error "line L, column C: reason". A key given twice in one
// object keeps its first value (as a reader going down the file would).
bool parseDocument(std::string_view text, Json& out, std::string& error)
{
    // keys[d]: the keys seen so far in the object open at depth d. The callback's depth is
    // the object's for object_start and one more for its keys; object_end is not relied
    // on (nlohmann skips it inside a discarded value).
    std::vector<std::vector<std::string>> keys;
    const Json::parser_callback_t keepFirst = [&keys](int depth, Json::parse_event_t event, Json& parsed) {
        const auto d = static_cast<std::size_t>(depth);
        if (event == Json::parse_event_t::object_start) {
            keys.resize(d + 1);
            keys[d].clear();
        } else if (event == Json::parse_event_t::key && d >= 1 && d <= keys.size()) {
            std::vector<std::string>& seen = keys[d - 1];
            const std::string& key = parsed.get_ref<const std::string&>();
            if (std::find(seen.begin(), seen.end(), key) != seen.end())
                return false;
            seen.push_back(key);
        }
        return true;
    };
    try {
        out = Json::parse(text, keepFirst);
    } catch (const nlohmann::json::parse_error& e) {
        error = parseErrorText(text, e);
        return false;
    } catch (const nlohmann::json::exception& e) {
        // Valid JSON the library cannot hold, e.g. a number beyond a double's range
        // (out_of_range.406): refused with the library's reason, without its tag.
        std::string what = e.what();
        if (const std::size_t tag = what.find("] "); what.rfind("[json.exception.", 0) == 0 && tag != std::string::npos)
            what.erase(0, tag + 2);
        error = "not a scenario file: " + what;
        return false;
    }
    return true;
}

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
    Json root;
    if (!parseDocument(text, root, error))
        return false;
    if (!root.is_object()) {
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
