// SPDX-License-Identifier: GPL-3.0-or-later
// The 802.11 layer on real captures (the field corpus): for every 802.11 capture of the
// shared public set, tests/data/wlan_field/<capture>.truth lists its access points, its
// stations with their frame counts, and every individually addressed authentication,
// (re)association, deauthentication and disassociation frame with the lifecycle event
// that must hold it. The files were made from tshark 4.0 listings by
// tests/data/gen/make_wlan_field_truth.py (its header gives the filters: a station's
// frames sent / received are -Y 'wlan.ta == MAC' / 'wlan.ra == MAC' without bad-FCS
// frames) and read by hand against 'tshark -r FILE -Y "wlan.fc.type == 0"'.
// Regenerate: python3 tests/data/gen/make_wlan_field_truth.py SHARED/captures/public
// tests/data/wlan_field
//
// Beside them, a synthetic capture tells the story real captures showed: one garbled
// Beacon naming a station as its BSSID, an AP deauthenticating a station eleven times,
// a station trying another AP in vain and coming back.
#include "test_support.h"

#include "analysis/pipeline/capture_pipeline.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

using namespace windscope;
using namespace windscope::analysis;

namespace {

struct Analysed
{
    explicit Analysed(std::unique_ptr<pipeline::CapturePipeline> p)
        : pipeline(std::move(p)), tables(pipeline->tables()), inventory(pipeline->inventory()),
          events(pipeline->events())
    {
    }
    std::unique_ptr<pipeline::CapturePipeline> pipeline;
    const dissect::CaptureTables& tables;
    const WlanInventory& inventory;
    const WlanEvents& events;
};

std::unique_ptr<Analysed> analyse(const std::filesystem::path& path)
{
    auto p = std::make_unique<pipeline::CapturePipeline>(path.string());
    std::string error;
    if (!p->run(pipeline::AnalysisStage::Events, error)) {
        ADD_FAILURE() << error;
        p = std::make_unique<pipeline::CapturePipeline>(pipeline::AnalysisBundle{});
    }
    return std::make_unique<Analysed>(std::move(p));
}

std::string macOf(const Analysed& a, std::uint32_t mac)
{
    return mac < a.tables.macAddresses.size() ? a.tables.macAddresses.at(mac).toString() : "-";
}

const Station* stationNamed(const Analysed& a, const std::string& mac)
{
    for (const Station& s : a.inventory.stations)
        if (macOf(a, s.mac) == mac)
            return &s;
    return nullptr;
}

bool apNamed(const Analysed& a, const std::string& mac)
{
    for (const AccessPoint& ap : a.inventory.accessPoints)
        if (macOf(a, ap.bssid) == mac)
            return true;
    return false;
}

const char* const kCaptures[] = {
    "aircrack__n-02.cap", "aircrack__wpa2-psk-linksys.cap", "arkime__80211http.pcap",
    "chrissanders__3e80211_wpaauth.pcapng", "ndpi__capwap_data.pcapng", "networks744__active1.pcap",
    "networks744__active3.pcap", "networks744__idleon1.pcap", "networks744__longidle3.pcap",
    "networks744__macactive1.pcap", "networks744__testing_active1.pcap",
    "networks744__testing_active4.pcap", "ns3pygenp__AccessPoint-0-0.pcap",
    "packetnet__80211_per_packet_information.pcap", "packetnet__80211_plus_radiotap_header.pcap",
    "pypacker__packets_prism.pcap", "wifidoctor-asterinos__1_2_test_pcap1.pcap",
    "wifidoctor-stavros__home_network2.PM.pcapng"};

class FieldCorpus : public ::testing::TestWithParam<const char*>
{};

TEST_P(FieldCorpus, RolesAndPerStationCounts)
{
    const auto path = test::publicCapture(GetParam());
    WINDSCOPE_REQUIRE_FILE(path);
    const auto a = analyse(path);
    std::ifstream truth(test::testData(std::string("wlan_field/") + GetParam() + ".truth"));
    ASSERT_TRUE(truth) << "truth file missing";
    std::size_t stations = 0, aps = 0;
    for (std::string line; std::getline(truth, line);) {
        std::istringstream in(line);
        std::string what, mac;
        in >> what >> mac;
        if (what == "ap") {
            ++aps;
            EXPECT_TRUE(apNamed(*a, mac)) << GetParam() << ": access point " << mac;
        } else if (what == "station") {
            ++stations;
            double sent = 0, received = 0;
            in >> sent >> received;
            const Station* s = stationNamed(*a, mac);
            ASSERT_NE(s, nullptr) << GetParam() << ": station " << mac;
            // Within 1 % of tshark's wlan.ta / wlan.ra counts (measured: equal on all).
            EXPECT_NEAR(double(s->framesSent), sent, 0.01 * sent) << GetParam() << " " << mac;
            EXPECT_NEAR(double(s->framesReceived), received, 0.01 * received) << GetParam() << " " << mac;
        }
    }
    std::printf("[field] %s: %zu AP(s), %zu station(s) as tshark; %llu role conflict(s)\n", GetParam(), aps,
                stations, static_cast<unsigned long long>(a->inventory.roleConflicts));
}

TEST_P(FieldCorpus, EveryManagementFrameInItsEvent)
{
    const auto path = test::publicCapture(GetParam());
    WINDSCOPE_REQUIRE_FILE(path);
    const auto a = analyse(path);
    std::ifstream truth(test::testData(std::string("wlan_field/") + GetParam() + ".truth"));
    ASSERT_TRUE(truth);
    std::size_t frames = 0;
    for (std::string line; std::getline(truth, line);) {
        std::istringstream in(line);
        std::string what, kind, station, bssid, code;
        std::uint64_t frame = 0;
        in >> what;
        if (what != "frame")
            continue;
        in >> frame >> kind >> station >> bssid >> code;
        ++frames;
        const WlanEvent* found = nullptr;
        for (const WlanEvent& e : a->events.lifecycle)
            if (eventKindName(e.kind) == kind &&
                std::find(e.evidenceFrames.begin(), e.evidenceFrames.end(), frame) != e.evidenceFrames.end())
                found = &e;
        ASSERT_NE(found, nullptr) << GetParam() << ": frame " << frame << " in no " << kind << " event";
        EXPECT_EQ(macOf(*a, found->station), station) << frame;
        EXPECT_EQ(macOf(*a, found->bssid), bssid) << frame;
        if (code != "-" && (kind == "deauthentication" || kind == "disassociation")) {
            EXPECT_EQ(found->reasonCode, std::stoi(code)) << frame;
        }
        if (code != "-" && kind == "association_refused") {
            EXPECT_EQ(found->statusCode, std::stoi(code)) << frame;
        }
    }
    std::printf("[field] %s: %zu management frame(s) each in its event\n", GetParam(), frames);
}

// Scans a physicist would sign: none closed shorter than the lower bound; announced
// ones no longer than the upper; open-ended ones said so in the text output.
TEST_P(FieldCorpus, ScansWithinPlausibleBounds)
{
    const auto path = test::publicCapture(GetParam());
    WINDSCOPE_REQUIRE_FILE(path);
    const auto a = analyse(path);
    const WlanEventOptions o;
    std::size_t scans = 0, open = 0, absences = 0;
    for (const WlanEvent& e : a->events.events) {
        open += e.openEnded;
        if (std::string_view(e.basis).starts_with("retry-absence")) {
            // Only a station the monitor heard can be shown away by unanswered retries.
            const std::int32_t station = a->inventory.stationIndex(e.station);
            ASSERT_GE(station, 0) << GetParam() << " event " << e.id;
            EXPECT_GT(a->inventory.stations[static_cast<std::size_t>(station)].framesSent, 0u)
                << GetParam() << " event " << e.id;
        }
        if (e.kind == WlanEventKind::Absence) {
            // A run of unanswered retries too short to show a scan, or longer than any
            // (a station that left the AP's channel): said as such, an open-ended one as
            // open-ended.
            absences += !e.openEnded;
            EXPECT_TRUE(std::string_view(e.basis).starts_with("retry-absence")) << GetParam() << " event " << e.id;
            if (e.departed())
                EXPECT_GT(e.endNs - e.startNs, o.maxAbsenceNs) << GetParam() << " event " << e.id;
            else
                EXPECT_LT(e.endNs - e.startNs, o.minScanNs) << GetParam() << " event " << e.id;
        }
        if (e.kind != WlanEventKind::Scan)
            continue;
        ++scans;
        // No closed scan is shorter than the lower bound, whatever its evidence.
        if (!e.openEnded) {
            EXPECT_GE(e.endNs - e.startNs, o.minScanNs) << GetParam() << " event " << e.id << " " << e.basis;
        }
        if (std::string_view(e.basis).starts_with("pm-")) {
            EXPECT_LE(e.endNs - e.startNs, o.maxScanNs) << GetParam() << " event " << e.id;
        }
    }
    for (const WlanEvent& e : a->events.lifecycle)
        open += e.openEnded;
    int status = 0;
    const std::string text = test::runCommand(test::cliPath() + " events '" + path.string() + "' 2>/dev/null", &status);
    EXPECT_EQ(status, 0);
    std::size_t said = 0;
    for (std::size_t at = text.find("(open-ended"); at != std::string::npos; at = text.find("(open-ended", at + 1))
        ++said;
    EXPECT_EQ(said, open) << GetParam();
    std::size_t lowerBound = 0;
    for (std::size_t at = text.find("(lower bound:"); at != std::string::npos; at = text.find("(lower bound:", at + 1))
        ++lowerBound;
    EXPECT_EQ(lowerBound, absences) << GetParam();
    std::printf("[field] %s: %zu scan(s), %zu absence(s), %zu open-ended event(s)\n", GetParam(), scans, absences,
                open);
}

// A recovery time only where there was something to recover: with no throughput before
// an event, no impact says "recovered at once" (0 ms), and the text says why not.
TEST_P(FieldCorpus, NoRecoveryTimeWithoutThroughput)
{
    const auto path = test::publicCapture(GetParam());
    WINDSCOPE_REQUIRE_FILE(path);
    pipeline::CapturePipeline p(path.string());
    std::string error;
    ASSERT_TRUE(p.run(pipeline::AnalysisStage::Correlation, error)) << error;
    std::size_t nothing = 0;
    for (const EventImpact& impact : p.correlation().impacts)
        for (const ConnectionImpact& m : impact.connections) {
            if (m.throughputBeforeBps > 0)
                continue;
            ++nothing;
            EXPECT_TRUE(m.nothingToRecover());
            EXPECT_EQ(m.recoveryNs, -1) << GetParam() << " event " << impact.event;
        }
    int status = 0;
    const std::string text = test::runCommand(test::cliPath() + " correlate '" + path.string() + "' 2>/dev/null", &status);
    EXPECT_EQ(status, 0);
    std::size_t said = 0;
    for (std::size_t at = text.find("nothing to recover"); at != std::string::npos;
         at = text.find("nothing to recover", at + 1))
        ++said;
    EXPECT_EQ(said, nothing) << GetParam();
    // One time base in the text: seconds since the first packet, never epoch seconds.
    // (Captures stamped near 1970, such as simulators', have no telling epoch digits.)
    const std::int64_t epochS = p.tables().summary.firstEpochNs / 1'000'000'000;
    if (epochS > 1'000'000'000) {
        EXPECT_EQ(text.find(std::to_string(epochS)), std::string::npos) << GetParam();
    }
}

INSTANTIATE_TEST_SUITE_P(Public, FieldCorpus, ::testing::ValuesIn(kCaptures),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                             std::string name;
                             for (const char* c = param.param; *c; ++c)
                                 name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
                             return name;
                         });

// ---- A synthetic capture (DLT 105, no FCS information) -------------------------------

class PcapWriter
{
public:
    explicit PcapWriter(const std::filesystem::path& path) : m_out(path, std::ios::binary)
    {
        // pcap file header: magic, version 2.4, zone, sigfigs, snaplen, DLT 105 (802.11).
        put32(0xa1b2c3d4);
        put32(2u | 4u << 16);
        put32(0);
        put32(0);
        put32(65535);
        put32(105);
    }
    // Frame Control octets and addresses 1-3, each 02:00:00:00:00:XX (ff = broadcast).
    void frame(double t, std::uint8_t fc0, std::uint8_t fc1, std::uint8_t a1, std::uint8_t a2, std::uint8_t a3,
               std::vector<std::uint8_t> body = {})
    {
        numbered(t, fc0, fc1, a1, a2, a3, m_sequence++, std::move(body));
    }
    // The same with a sequence number of the caller's (a retry repeats its MPDU's).
    void numbered(double t, std::uint8_t fc0, std::uint8_t fc1, std::uint8_t a1, std::uint8_t a2, std::uint8_t a3,
                  std::uint16_t sequence, std::vector<std::uint8_t> body = {})
    {
        std::vector<std::uint8_t> f = {fc0, fc1, 0, 0};
        for (std::uint8_t a : {a1, a2, a3}) {
            const std::uint8_t fill = a == kBroadcastOctet ? kBroadcastOctet : 0;
            const std::uint8_t mac[6] = {a == kBroadcastOctet ? kBroadcastOctet : std::uint8_t(0x02), fill, fill,
                                         fill, fill, a};
            f.insert(f.end(), mac, mac + 6);
        }
        f.push_back(static_cast<std::uint8_t>(sequence << 4));
        f.push_back(static_cast<std::uint8_t>(sequence >> 4));
        f.insert(f.end(), body.begin(), body.end());
        write(t, f);
    }
    // An Ack (control subtype 13) to the receiver ra.
    void ack(double t, std::uint8_t ra)
    {
        write(t, {0xd4, 0x00, 0, 0, 0x02, 0, 0, 0, 0, ra});
    }

    static constexpr std::uint8_t kBroadcastOctet = 0xff;

private:
    void write(double t, const std::vector<std::uint8_t>& f)
    {
        const auto sec = static_cast<std::uint32_t>(t);
        const auto usec = static_cast<std::uint32_t>(std::lround((t - sec) * 1e6));
        put32(1'700'000'000u + sec);
        put32(usec);
        put32(static_cast<std::uint32_t>(f.size()));
        put32(static_cast<std::uint32_t>(f.size()));
        m_out.write(reinterpret_cast<const char*>(f.data()), static_cast<std::streamsize>(f.size()));
    }
    void put32(std::uint32_t v)
    {
        const char b[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
                           static_cast<char>(v >> 24)};
        m_out.write(b, 4);
    }
    std::ofstream m_out;
    std::uint16_t m_sequence = 0;
};

constexpr std::uint8_t kAp = 0xa1, kOtherAp = 0xb2, kSta = 0x51, kBroadcast = 0xff;

std::vector<std::uint8_t> beaconBody()
{
    return {0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0x01, 0x04, 0, 4, 'h', 'o', 'm', 'e'};
}
std::vector<std::uint8_t> code(std::uint16_t c) { return {static_cast<std::uint8_t>(c), static_cast<std::uint8_t>(c >> 8)}; }
std::vector<std::uint8_t> auth(std::uint16_t sequence, std::uint16_t status)
{
    return {0, 0, static_cast<std::uint8_t>(sequence), 0, static_cast<std::uint8_t>(status), 0};
}

TEST(WlanSyntheticStory, OneGarbledFrameDoesNotFlipRoles)
{
    const auto path = std::filesystem::temp_directory_path() / "windscope-wlan-story.pcap";
    {
        PcapWriter w(path);
        double t = 0;
        for (int i = 0; i < 10; ++i) {
            w.frame(t += 0.1, 0x80, 0x00, kBroadcast, kAp, kAp, beaconBody());
            w.frame(t += 0.001, 0x08, 0x01, kAp, kSta, kAp, std::vector<std::uint8_t>(40, 0)); // To DS
            w.frame(t += 0.001, 0x08, 0x02, kSta, kAp, kAp, std::vector<std::uint8_t>(40, 0)); // From DS
        }
        // A garbled Beacon whose addresses read as the station's (no FCS to tell).
        w.frame(t += 0.01, 0x80, 0x00, kBroadcast, kSta, kSta, beaconBody());
        // The AP deauthenticates the station eleven times (reason 7, 9.4.1.7).
        for (int i = 0; i < 11; ++i)
            w.frame(t += 0.01, 0xc0, 0x00, kSta, kAp, kAp, code(7));
        // The station tries another AP for 1.5 s without an answer...
        for (int i = 0; i < 3; ++i) {
            w.frame(t += 0.5, 0xb0, 0x00, kOtherAp, kSta, kOtherAp, auth(1, 0));
            w.frame(t += 0.01, 0x00, 0x00, kOtherAp, kSta, kOtherAp, {0x31, 0x04, 10, 0, 0, 4, 'w', 'o', 'r', 'k'});
        }
        // ...then comes back to the first: refused once (status 17), then accepted.
        t += 2.0;
        w.frame(t += 0.01, 0xb0, 0x00, kAp, kSta, kAp, auth(1, 0));
        w.frame(t += 0.001, 0xb0, 0x00, kSta, kAp, kAp, auth(2, 0));
        w.frame(t += 0.001, 0x00, 0x00, kAp, kSta, kAp, {0x31, 0x04, 10, 0, 0, 4, 'h', 'o', 'm', 'e'});
        w.frame(t += 0.001, 0x10, 0x00, kSta, kAp, kAp, {0x31, 0x04, 17, 0, 1, 0xc0});
        w.frame(t += 0.1, 0x00, 0x00, kAp, kSta, kAp, {0x31, 0x04, 10, 0, 0, 4, 'h', 'o', 'm', 'e'});
        w.frame(t += 0.001, 0x10, 0x00, kSta, kAp, kAp, {0x31, 0x04, 0, 0, 1, 0xc0});
        for (int i = 0; i < 5; ++i) {
            w.frame(t += 0.1, 0x80, 0x00, kBroadcast, kAp, kAp, beaconBody());
            w.frame(t += 0.001, 0x08, 0x01, kAp, kSta, kAp, std::vector<std::uint8_t>(40, 0));
        }
    }
    const auto a = analyse(path);
    std::filesystem::remove(path);
    ASSERT_EQ(a->inventory.stations.size(), 1u);
    const Station& s = a->inventory.stations[0];
    EXPECT_EQ(macOf(*a, s.mac), "02:00:00:00:00:51");
    // Every frame it transmitted (wlan.ta), the garbled one too: 10 + 5 data, 1 beacon,
    // 3 + 3 + 3 management frames.
    EXPECT_EQ(s.framesSent, 10u + 5u + 1u + 6u + 3u);
    EXPECT_EQ(a->inventory.roleConflicts, 1u);
    EXPECT_EQ(a->inventory.roleConflictsWithoutFcs, 1u);
    ASSERT_EQ(a->inventory.roleConflictFrames.size(), 1u);
    EXPECT_EQ(a->inventory.roleConflictFrames[0], 31u);
    EXPECT_EQ(a->inventory.apIndex(s.mac), -1);
    EXPECT_GE(a->inventory.accessPoints.size(), 1u);

    std::map<std::string, std::vector<const WlanEvent*>> byKind;
    for (const WlanEvent& e : a->events.lifecycle)
        byKind[eventKindName(e.kind)].push_back(&e);
    ASSERT_EQ(byKind["deauthentication"].size(), 1u); // eleven repeats, one event
    EXPECT_EQ(byKind["deauthentication"][0]->attempts, 11u);
    EXPECT_EQ(byKind["deauthentication"][0]->reasonCode, 7);
    EXPECT_EQ(byKind["deauthentication"][0]->initiator, EventInitiator::AccessPoint);
    EXPECT_EQ(byKind["deauthentication"][0]->evidenceCount, 11u);
    ASSERT_EQ(byKind["attempt_unanswered"].size(), 2u); // authentication and association, 3 each
    for (const WlanEvent* e : byKind["attempt_unanswered"])
        EXPECT_EQ(e->attempts, 3u);
    ASSERT_EQ(byKind["association_refused"].size(), 1u);
    EXPECT_EQ(byKind["association_refused"][0]->statusCode, 17);
    ASSERT_EQ(byKind["association"].size(), 1u);
    ASSERT_EQ(byKind["failed_roam"].size(), 1u);
    const WlanEvent& roam = *byKind["failed_roam"][0];
    EXPECT_STREQ(roam.outcome, "returned");
    ASSERT_EQ(roam.triedBssids.size(), 1u);
    EXPECT_EQ(macOf(*a, roam.triedBssids[0]), "02:00:00:00:00:b2");
    EXPECT_EQ(roam.startNs, byKind["deauthentication"][0]->startNs); // it began by leaving
    ASSERT_EQ(byKind["disconnection"].size(), 1u);
    const WlanEvent& gone = *byKind["disconnection"][0];
    EXPECT_FALSE(gone.openEnded);
    EXPECT_EQ(gone.endNs, byKind["association"][0]->endNs);
    EXPECT_GT(gone.endNs - gone.startNs, 3'000'000'000);
}

// Retries the AP sends although the station acknowledged each attempt on air (its Acks
// were lost at the AP, not at the monitor) are no absence, even on the station's scan
// period where a short run of unanswered retries would be admitted; a run of unanswered
// retries shorter than the shortest scan is an absence, never a closed scan.
TEST(WlanSyntheticStory, RetryRunsAcknowledgedOrShortAreNotScans)
{
    const auto path = std::filesystem::temp_directory_path() / "windscope-wlan-retries.pcap";
    constexpr std::uint8_t kToDs = 0x01, kFromDs = 0x02, kRetry = 0x08, kPm = 0x10;
    constexpr std::uint8_t kData = 0x08, kNull = 0x48;
    const std::vector<std::uint8_t> body(40, 0);
    std::uint16_t apSequence = 100;
    // The AP's frame to the station and the station's Ack.
    const auto delivered = [&](PcapWriter& w, double t) {
        w.numbered(t, kData, kFromDs, kSta, kAp, kAp, apSequence++, body);
        w.ack(t + 0.0001, kAp);
    };
    double onPeriodEnd = 0, shortRunAt = 0;
    {
        PcapWriter w(path);
        for (int i = 0; i < 20; ++i) {
            w.frame(0.1 * i + 0.05, 0x80, 0x00, kBroadcast, kAp, kAp, beaconBody());
            delivered(w, 0.1 * i + 0.06);
            w.frame(0.1 * i + 0.07, kData, kToDs, kAp, kSta, kAp, body);
        }
        // Announced 10 ms scans every 200 ms from t = 0.2 s, but the fourth (t = 0.8 s)
        // is replaced by the AP retrying one MPDU four times, each attempt acknowledged,
        // the last ending where that scan would have.
        for (int k = 0; k < 8; ++k) {
            const double start = 0.2 + 0.2 * k + 0.012;
            if (k == 3) {
                onPeriodEnd = start + 0.010;
                const std::uint16_t sequence = apSequence++;
                for (int attempt = 0; attempt < 4; ++attempt) {
                    const double t = onPeriodEnd - 0.001 * (3 - attempt);
                    w.numbered(t, kData, static_cast<std::uint8_t>(kFromDs | (attempt ? kRetry : 0)), kSta, kAp, kAp,
                               sequence, body);
                    w.ack(t + 0.0001, kAp);
                }
                continue;
            }
            w.frame(start, kNull, kToDs | kPm, kAp, kSta, kAp);
            w.frame(start + 0.010, kNull, kToDs, kAp, kSta, kAp);
        }
        // Off the period: five unanswered attempts over 3 ms, then the station is back.
        shortRunAt = 1.93;
        const std::uint16_t sequence = apSequence++;
        for (int attempt = 0; attempt < 5; ++attempt)
            w.numbered(shortRunAt + 0.00075 * attempt, kData, static_cast<std::uint8_t>(kFromDs | (attempt ? kRetry : 0)),
                       kSta, kAp, kAp, sequence, body);
        w.frame(shortRunAt + 0.0035, kData, kToDs, kAp, kSta, kAp, body);
        delivered(w, 1.96);
    }
    const auto a = analyse(path);
    std::filesystem::remove(path);
    ASSERT_EQ(a->inventory.stations.size(), 1u);
    std::size_t scans = 0, absences = 0;
    constexpr double kFirstPacket = 0.05; // event times are relative to it
    for (const WlanEvent& e : a->events.events) {
        const double startS = static_cast<double>(e.startNs) / 1e9 + kFirstPacket;
        const double endS = static_cast<double>(e.endNs) / 1e9 + kFirstPacket;
        // Nothing around the acknowledged retries.
        EXPECT_FALSE(startS <= onPeriodEnd + 0.001 && endS >= onPeriodEnd - 0.004)
            << eventKindName(e.kind) << " " << e.basis << " at " << startS;
        if (e.kind == WlanEventKind::Scan) {
            ++scans;
            EXPECT_TRUE(e.openEnded || e.endNs - e.startNs >= WlanEventOptions{}.minScanNs) << startS;
        } else if (e.kind == WlanEventKind::Absence) {
            ++absences;
            EXPECT_STREQ(e.basis, "retry-absence");
            EXPECT_NEAR(startS, shortRunAt, 1e-5);
            EXPECT_NEAR(endS - startS, 0.0035, 1e-5); // first attempt to the station's return
            EXPECT_TRUE(e.lowerBound());
        }
    }
    EXPECT_EQ(scans, 7u);
    EXPECT_EQ(absences, 1u);
    ASSERT_EQ(a->events.scanPatterns.size(), 1u);
    EXPECT_TRUE(a->events.scanPatterns[0].periodic);
    EXPECT_NEAR(a->events.scanPatterns[0].intervalMs, 200, 1);
}

// Beacon loss where the capture shows it: the AP's beacons stop for 1.5 s while another
// AP's are heard; later the monitor hears nothing at all for 1.5 s (its own gap).
TEST(WlanSyntheticStory, BeaconLossOnlyWhereTheMonitorListened)
{
    const auto path = std::filesystem::temp_directory_path() / "windscope-wlan-beacons.pcap";
    constexpr double kInterval = 0.1024; // 100 TU, beaconBody()'s Beacon Interval
    double lossFrom = 0, lossTo = 0;
    {
        PcapWriter w(path);
        const std::vector<std::uint8_t> body(40, 0);
        double t = 0;
        const auto tick = [&](bool apBeacons, bool heard) {
            t += kInterval;
            if (!heard)
                return;
            if (apBeacons)
                w.frame(t, 0x80, 0x00, kBroadcast, kAp, kAp, beaconBody());
            w.frame(t + 0.01, 0x80, 0x00, kBroadcast, kOtherAp, kOtherAp, beaconBody());
            if (apBeacons) {
                w.frame(t + 0.02, 0x08, 0x01, kAp, kSta, kAp, body);
                w.frame(t + 0.03, 0x08, 0x02, kSta, kAp, kAp, body);
            }
        };
        for (int i = 0; i < 20; ++i)
            tick(true, true);
        lossFrom = t;
        for (int i = 0; i < 14; ++i)
            tick(false, true);
        lossTo = t + kInterval;
        for (int i = 0; i < 20; ++i)
            tick(true, true);
        for (int i = 0; i < 14; ++i)
            tick(true, false);
        for (int i = 0; i < 20; ++i)
            tick(true, true);
    }
    const auto a = analyse(path);
    std::filesystem::remove(path);
    std::vector<const WlanEvent*> losses;
    for (const WlanEvent& e : a->events.lifecycle)
        if (e.kind == WlanEventKind::BeaconLoss)
            losses.push_back(&e);
    ASSERT_EQ(losses.size(), 1u);
    const WlanEvent& e = *losses[0];
    EXPECT_EQ(macOf(*a, e.station), "02:00:00:00:00:51");
    EXPECT_EQ(macOf(*a, e.bssid), "02:00:00:00:00:a1");
    EXPECT_EQ(e.initiator, EventInitiator::AccessPoint);
    EXPECT_NEAR(static_cast<double>(e.startNs) / 1e9, lossFrom - kInterval, 1e-3);
    EXPECT_NEAR(static_cast<double>(e.endNs) / 1e9, lossTo - kInterval, 1e-3);
    EXPECT_EQ(e.attempts, 14u); // beacons missed
    EXPECT_FALSE(e.openEnded);
    const bool noted = std::any_of(a->events.notes.begin(), a->events.notes.end(),
                                   [](const std::string& n) { return n.find("gap of the monitor") != std::string::npos; });
    EXPECT_TRUE(noted);
}

} // namespace

namespace {

// The AP's beacons stop for good; the station's data resumes through another AP after
// `joinAfter` beacon intervals.
std::vector<WlanEvent> beaconLossesWhenTheStationMoves(int joinAfter, double& lastBeacon, double& joined)
{
    const auto path = std::filesystem::temp_directory_path() / "windscope-wlan-beacons-move.pcap";
    constexpr double kInterval = 0.1024;
    {
        PcapWriter w(path);
        const std::vector<std::uint8_t> body(40, 0);
        double t = 0;
        for (int i = 0; i < 40; ++i) {
            t += kInterval;
            const bool old = i < 20;
            if (old)
                w.frame(t, 0x80, 0x00, kBroadcast, kAp, kAp, beaconBody());
            w.frame(t + 0.01, 0x80, 0x00, kBroadcast, kOtherAp, kOtherAp, beaconBody());
            if (old || i >= 20 + joinAfter) {
                const auto& bss = old ? kAp : kOtherAp;
                w.frame(t + 0.02, 0x08, 0x01, bss, kSta, bss, body);
                w.frame(t + 0.03, 0x08, 0x02, kSta, bss, bss, body);
            }
            // Times since the capture's first frame, as the analysis gives them.
            if (i == 19)
                lastBeacon = t - kInterval;
            if (i == 20 + joinAfter)
                joined = t + 0.02 - kInterval;
        }
    }
    const auto a = analyse(path);
    std::filesystem::remove(path);
    std::vector<WlanEvent> losses;
    for (const WlanEvent& e : a->events.lifecycle)
        if (e.kind == WlanEventKind::BeaconLoss)
            losses.push_back(e);
    return losses;
}

} // namespace

// A station that joins another BSS before seven beacons are missed left on its own; one
// that joins later lost its AP, and the loss ends where it joined, not at the capture's end.
TEST(WlanSyntheticStory, BeaconLossEndsWhereTheStationJoinsAnotherBss)
{
    double lastBeacon = 0, joined = 0;
    EXPECT_TRUE(beaconLossesWhenTheStationMoves(3, lastBeacon, joined).empty());
    const std::vector<WlanEvent> losses = beaconLossesWhenTheStationMoves(12, lastBeacon, joined);
    ASSERT_EQ(losses.size(), 1u);
    EXPECT_NEAR(static_cast<double>(losses[0].startNs) / 1e9, lastBeacon, 1e-3);
    EXPECT_NEAR(static_cast<double>(losses[0].endNs) / 1e9, joined, 1e-3);
    EXPECT_FALSE(losses[0].openEnded);
    EXPECT_EQ(losses[0].attempts, 12u); // beacons due before the station joined
}
