// SPDX-License-Identifier: GPL-3.0-or-later
// The fleet view of a project: what Wi-Fi events cost TCP, grouped over captures. Its
// numbers are the sums of `correlate` over the captures; a stall's end is checked
// against the lab sender's own retransmission timer.

#include "store_test_kit.h"
#include "test_support.h"

#include "analysis/wlan/fleet_summary.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <fstream>
#include <map>
#include <sstream>

namespace windscope::test {
namespace {

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

std::string cli(const std::string& args, int* status = nullptr)
{
    return runCommand(cliPath() + " " + args + " 2>/dev/null", status);
}

struct Sums
{
    std::uint64_t events = 0, retransmissions = 0, rtoTimeouts = 0;
    double stalledMs = 0;
    std::int64_t goodputLostBytes = 0;
};

// Per event station, and per BSSID where the event names one, from `correlate --json`.
void addCorrelate(const nlohmann::json& c, std::map<std::string, Sums>& byStation,
                  std::map<std::string, Sums>& byBssid, Sums& all)
{
    for (const auto& e : c["events"]) {
        const std::string station = e["station"].is_null() ? "" : e["station"].get<std::string>();
        Sums one;
        one.events = 1;
        for (const auto& m : e["connections"]) {
            one.retransmissions += m["retransmissions"].get<std::uint64_t>();
            one.rtoTimeouts += m["rto_timeouts"].get<std::uint64_t>();
            one.stalledMs += m["stalled_ms"].get<double>();
            if (!m["goodput_lost_bytes"].is_null())
                one.goodputLostBytes += m["goodput_lost_bytes"].get<std::int64_t>();
        }
        for (Sums* s : {&byStation[station], &all}) {
            s->events += one.events;
            s->retransmissions += one.retransmissions;
            s->rtoTimeouts += one.rtoTimeouts;
            s->stalledMs += one.stalledMs;
            s->goodputLostBytes += one.goodputLostBytes;
        }
        if (!e["bssid"].is_null()) {
            Sums& s = byBssid[e["bssid"].get<std::string>()];
            s.events += 1;
            s.retransmissions += one.retransmissions;
            s.rtoTimeouts += one.rtoTimeouts;
            s.stalledMs += one.stalledMs;
            s.goodputLostBytes += one.goodputLostBytes;
        }
    }
}

void expectRow(const nlohmann::json& row, const Sums& s, const std::string& what)
{
    EXPECT_EQ(row["events"].get<std::uint64_t>(), s.events) << what;
    EXPECT_EQ(row["retransmissions"].get<std::uint64_t>(), s.retransmissions) << what;
    EXPECT_EQ(row["rto_timeouts"].get<std::uint64_t>(), s.rtoTimeouts) << what;
    EXPECT_NEAR(row["stalled_ms"].get<double>(), s.stalledMs, 1e-3 * static_cast<double>(1 + s.events)) << what;
    EXPECT_EQ(row["goodput_lost_bytes"].get<std::int64_t>(), s.goodputLostBytes) << what;
}

} // namespace

TEST(FleetCli, RanksStationsAndAccessPointsWithTheSumsOfCorrelate)
{
    const std::vector<std::filesystem::path> captures = {
        labDir("ns3/A-scan-T200") / "wifi-ap.pcap",
        labDir("ns3/B-handoff-baseline") / "wifi-ap1.pcap",
        labDir("ns3/B-handoff-baseline") / "wifi-sta.pcap",
        labDir("ns3/B-handoff-baseline") / "wired-server.pcap",
        labDir("linux/reno-scan100") / "ap-wlan.pcap",
        std::filesystem::path(WINDSCOPE_TEST_DATA_DIR) / "../../resources/samples/wifi-handoff-scan.pcap",
    };
    for (const auto& c : captures)
        WINDSCOPE_REQUIRE_FILE(c);
    ScratchDir dir;
    for (std::size_t i = 0; i < captures.size(); ++i) {
        std::filesystem::create_directories(dir / "archive" / std::to_string(i));
        std::filesystem::create_symlink(std::filesystem::canonical(captures[i]),
                                        dir / "archive" / std::to_string(i) / captures[i].filename());
    }
    int status = -1;
    cli("batch " + quoted(dir / "archive") + " --project " + quoted(dir / "p.wsproj") + " --jobs 2", &status);
    ASSERT_EQ(status, 0);

    std::map<std::string, Sums> byStation, byBssid;
    Sums all;
    for (const auto& c : captures) {
        const std::string out = cli("correlate " + quoted(c) + " --json", &status);
        ASSERT_EQ(status, 0) << c;
        addCorrelate(nlohmann::json::parse(out), byStation, byBssid, all);
    }

    const auto fleet = [&](const std::string& by) {
        const std::string out = cli("fleet " + quoted(dir / "p.wsproj") + " --json --by " + by, &status);
        EXPECT_EQ(status, 0) << by;
        return nlohmann::json::parse(out);
    };
    const nlohmann::json stations = fleet("station");
    EXPECT_EQ(stations["captures"], captures.size());
    EXPECT_EQ(stations["grouped_by"], "station");
    std::size_t withEvents = 0;
    double previous = 1e300;
    for (const auto& row : stations["groups"]) {
        const std::string key = row["key"].get<std::string>();
        // Ranked by stalled time, most first.
        EXPECT_LE(row["stalled_ms"].get<double>(), previous) << key;
        previous = row["stalled_ms"].get<double>();
        if (!byStation.count(key)) {
            EXPECT_EQ(row["events"], 0) << key; // a station without events
            continue;
        }
        ++withEvents;
        expectRow(row, byStation.at(key), "station " + key);
    }
    EXPECT_EQ(withEvents, byStation.size());
    // The samples hold scans and handoffs that stalled TCP for seconds.
    ASSERT_FALSE(stations["groups"].empty());
    EXPECT_GT(stations["groups"][0]["stalled_ms"].get<double>(), 1000.0);
    EXPECT_FALSE(stations["groups"][0]["worst_event"].is_null());

    // By access point: every event naming its BSSID lands in that BSSID's row (the
    // others are placed by the station's association), and the archive's totals hold.
    const nlohmann::json aps = fleet("ap");
    Sums apTotal;
    for (const auto& row : aps["groups"]) {
        const std::string key = row["key"].get<std::string>();
        apTotal.events += row["events"].get<std::uint64_t>();
        apTotal.retransmissions += row["retransmissions"].get<std::uint64_t>();
        apTotal.rtoTimeouts += row["rto_timeouts"].get<std::uint64_t>();
        apTotal.stalledMs += row["stalled_ms"].get<double>();
        apTotal.goodputLostBytes += row["goodput_lost_bytes"].get<std::int64_t>();
        if (byBssid.count(key)) {
            EXPECT_GE(row["events"].get<std::uint64_t>(), byBssid.at(key).events) << key;
            EXPECT_GE(row["stalled_ms"].get<double>() + 1e-3, byBssid.at(key).stalledMs) << key;
        }
    }
    expectRow(nlohmann::json{{"events", apTotal.events},
                             {"retransmissions", apTotal.retransmissions},
                             {"rto_timeouts", apTotal.rtoTimeouts},
                             {"stalled_ms", apTotal.stalledMs},
                             {"goodput_lost_bytes", apTotal.goodputLostBytes}},
              all, "all access points");
    // The archive's kinds are the same totals once more.
    Sums kinds;
    for (const auto& k : aps["kinds"]) {
        kinds.events += k["events"].get<std::uint64_t>();
        kinds.stalledMs += k["stalled_ms"].get<double>();
    }
    EXPECT_EQ(kinds.events, all.events);
    EXPECT_NEAR(kinds.stalledMs, all.stalledMs, 1e-3 * static_cast<double>(1 + all.events));
    // One row per capture with events, by capture.
    std::size_t capturesWithEvents = 0;
    for (const auto& c : captures)
        capturesWithEvents += !nlohmann::json::parse(cli("correlate " + quoted(c) + " --json"))["events"].empty();
    EXPECT_EQ(fleet("capture")["groups"].size(), capturesWithEvents);

    // CSV: a total row and one per kind for every group.
    const std::string csv = cli("fleet " + quoted(dir / "p.wsproj") + " --csv", &status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(csv.rfind("station,rank,kind,events,", 0), 0u) << csv.substr(0, 200);
    EXPECT_NE(csv.find(",1,total,"), std::string::npos);
}

// The ns-3 handoff run's server: the stall charged to each inferred outage ends at the
// first new ACK after the outage, which is when the sender's retransmission timer
// falls back (rto.csv), and covers the outage the simulator recorded (events.csv).
TEST(FleetCli, HandoffStallEndsWhenTheSendersTimerFallsBack)
{
    const auto run = labDir("ns3/B-handoff-baseline");
    WINDSCOPE_REQUIRE_FILE(run / "wired-server.pcap");
    std::vector<std::pair<double, double>> outages; // handoff_outage_actual
    {
        std::ifstream in(run / "events.csv");
        std::string line;
        while (std::getline(in, line))
            if (line.rfind("handoff_outage_actual,", 0) == 0) {
                std::stringstream fields(line);
                std::string kind, start, end;
                std::getline(fields, kind, ',');
                std::getline(fields, start, ',');
                std::getline(fields, end, ',');
                outages.emplace_back(std::stod(start), std::stod(end));
            }
    }
    std::vector<std::pair<double, double>> rto; // time, rto
    {
        std::ifstream in(run / "rto.csv");
        std::string line;
        std::getline(in, line);
        while (std::getline(in, line)) {
            const auto comma = line.find(',');
            rto.emplace_back(std::stod(line.substr(0, comma)), std::stod(line.substr(comma + 1)));
        }
    }
    ASSERT_EQ(outages.size(), 2u);
    int status = -1;
    const auto c = nlohmann::json::parse(cli("correlate " + quoted(run / "wired-server.pcap") + " --json", &status));
    ASSERT_EQ(status, 0);
    std::size_t checked = 0;
    for (const auto& [start, end] : outages) {
        // The timer falls back on the first new ACK after the outage.
        double fallBack = -1;
        for (std::size_t i = 1; i < rto.size() && fallBack < 0; ++i)
            if (rto[i].first > end && rto[i].second < rto[i - 1].second)
                fallBack = rto[i].first;
        ASSERT_GT(fallBack, 0);
        for (const auto& e : c["events"])
            for (const auto& m : e["connections"]) {
                if (m["stall_end_epoch_s"].is_null())
                    continue;
                const double stallStart = m["stall_start_epoch_s"].get<double>();
                const double stallEnd = m["stall_end_epoch_s"].get<double>();
                if (stallEnd < start || stallStart > end)
                    continue;
                ++checked;
                EXPECT_NEAR(stallEnd, fallBack, 2e-6) << e["id"]; // pcap microseconds
                EXPECT_LE(stallStart, start + 0.05) << e["id"]; // within the last RTT before
                EXPECT_GE(m["stalled_ms"].get<double>(), (end - start) * 1e3) << e["id"];
            }
    }
    EXPECT_EQ(checked, outages.size());
}

TEST(FleetCli, AnUnknownGroupingOrAMissingProjectIsNamed)
{
    ScratchDir dir;
    int status = -1;
    const std::string err =
        runCommand(cliPath() + " fleet " + quoted(dir / "p.wsproj") + " --by building 2>&1", &status);
    EXPECT_EQ(status, 2);
    EXPECT_NE(err.find("--by takes station, ap, ssid, capture or day"), std::string::npos) << err;
    const std::string missing = runCommand(cliPath() + " fleet " + quoted(dir / "none.wsproj") + " 2>&1", &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(missing.find("none.wsproj"), std::string::npos) << missing;
}

// A capture whose fleet part is damaged is left out and named; the others still count.
TEST(FleetCli, ADamagedFleetPartIsNamedAndTheRestCounted)
{
    ScratchDir dir;
    const auto project = dir / "p.wsproj";
    const auto sample = std::filesystem::path(WINDSCOPE_TEST_DATA_DIR) / "../../resources/samples/wifi-handoff-scan.pcap";
    int status = -1;
    cli("batch " + quoted(testData("vlan-tcp.pcap")) + " " + quoted(sample) + " --project " + quoted(project),
        &status);
    ASSERT_EQ(status, 0);
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(project.c_str(), &db), SQLITE_OK);
        // Flip one byte of the sample's fleet part, as a bad disk would.
        char* message = nullptr;
        const int rc = sqlite3_exec(db,
                                    "UPDATE cache_blobs SET data = substr(data, 1, 9) || x'ee' || substr(data, 11) "
                                    "WHERE part = 'fleet' AND capture_id = (SELECT id FROM captures "
                                    "WHERE path LIKE '%wifi-handoff-scan.pcap')",
                                    nullptr, nullptr, &message);
        EXPECT_EQ(rc, SQLITE_OK) << (message ? message : "");
        sqlite3_free(message);
        EXPECT_EQ(sqlite3_changes(db), 1);
        sqlite3_close(db);
    }
    const std::string err = runCommand(cliPath() + " fleet " + quoted(project) + " --json 2>&1 >/dev/null", &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(err.find("wifi-handoff-scan.pcap): cached fleet is damaged"), std::string::npos) << err;
    EXPECT_NE(err.find("checksum mismatch"), std::string::npos) << err;
    const auto fleet = nlohmann::json::parse(cli("fleet " + quoted(project) + " --json"));
    EXPECT_EQ(fleet["captures"], 1);
    ASSERT_EQ(fleet["captures_damaged"].size(), 1u);
    EXPECT_NE(fleet["captures_damaged"][0].get<std::string>().find("wifi-handoff-scan.pcap"), std::string::npos);
}

// Grouping by hand: two captures of one station on two days, one of another station.
TEST(FleetGrouping, SumsRanksAndWorstEventByHand)
{
    using namespace analysis;
    const auto cost = [](std::string station, std::string ap, WlanEventKind kind, std::uint64_t events,
                         std::int64_t stalledMs, std::uint64_t retx, std::uint64_t worst) {
        FleetCost c;
        c.station = std::move(station);
        c.ap = std::move(ap);
        c.ssid = "lab";
        c.kind = kind;
        c.events = events;
        c.eventsWithConnections = events;
        c.stalledNs = stalledMs * 1'000'000;
        c.retransmissions = retx;
        c.goodputLostBytes = static_cast<std::int64_t>(retx) * 1000;
        c.worstEvent = worst;
        c.worstStalledNs = c.stalledNs / static_cast<std::int64_t>(events);
        return c;
    };
    constexpr std::int64_t kDay = 86'400'000'000'000;
    FleetCapture a{1, "a.pcap", {}}, b{2, "b.pcap", {}}, c{3, "c.pcap", {}};
    a.summary.firstEpochNs = 20 * kDay + 5;
    a.summary.costs = {cost("sta-1", "ap-1", WlanEventKind::Scan, 10, 200, 3, 4),
                       cost("sta-1", "ap-1", WlanEventKind::Handoff, 1, 1500, 9, 7)};
    a.summary.stations = {{"sta-1", "ap-1", "lab", 1, 1000, 10, 100.0, 20.0}};
    b.summary.firstEpochNs = 21 * kDay;
    b.summary.costs = {cost("sta-1", "ap-2", WlanEventKind::Scan, 30, 300, 1, 2)};
    b.summary.stations = {{"sta-1", "ap-2", "lab", 1, 500, 30, 200.0, 40.0}};
    c.summary.firstEpochNs = 21 * kDay + 1;
    c.summary.costs = {cost("sta-2", "ap-2", WlanEventKind::Scan, 5, 2500, 0, 1)};
    const std::vector<FleetCapture> captures = {a, b, c};

    const std::vector<FleetRow> stations = groupFleet(captures, FleetGrouping::Station);
    ASSERT_EQ(stations.size(), 2u);
    EXPECT_EQ(stations[0].key, "sta-2"); // 2.5 s stalled before sta-1's 2.0 s
    const FleetRow& one = stations[1];
    EXPECT_EQ(one.key, "sta-1");
    EXPECT_EQ(one.captures, 2u);
    EXPECT_EQ(one.total.events, 41u);
    EXPECT_EQ(one.total.stalledNs, 2'000'000'000);
    EXPECT_EQ(one.total.retransmissions, 13u);
    EXPECT_EQ(one.total.goodputLostBytes, 13'000);
    EXPECT_EQ(one.roams, 1u);
    ASSERT_EQ(one.kinds.size(), 2u); // scan, handoff in kind order
    EXPECT_EQ(one.kinds[0].events, 40u);
    EXPECT_EQ(one.kinds[1].kind, WlanEventKind::Handoff);
    // Scan interval and dwell weighted by scans: (10*100 + 30*200) / 40, (10*20 + 30*40) / 40.
    EXPECT_EQ(one.scans, 40u);
    EXPECT_DOUBLE_EQ(one.scanIntervalMs, 175.0);
    EXPECT_DOUBLE_EQ(one.scanDwellMs, 35.0);
    EXPECT_EQ(one.worst.captureId, 1);
    EXPECT_EQ(one.worst.event, 7u); // the handoff, 1.5 s alone
    EXPECT_EQ(one.deliveredBytes, 1500u);

    const std::vector<FleetRow> days = groupFleet(captures, FleetGrouping::Day);
    ASSERT_EQ(days.size(), 2u);
    EXPECT_EQ(days[0].key, utcDay(21 * kDay)); // 2.8 s stalled on the second day
    EXPECT_EQ(days[0].total.stalledNs, 2'800'000'000);
    EXPECT_EQ(days[1].key, "1970-01-21");
    const std::vector<FleetRow> aps = groupFleet(captures, FleetGrouping::Ap);
    ASSERT_EQ(aps.size(), 2u);
    EXPECT_EQ(aps[0].key, "ap-2");
    EXPECT_EQ(aps[0].stations, 2u);
}

} // namespace windscope::test
