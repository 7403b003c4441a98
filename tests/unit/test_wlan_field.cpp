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
    std::size_t scans = 0, open = 0;
    for (const WlanEvent& e : a->events.events) {
        open += e.openEnded;
        if (e.kind != WlanEventKind::Scan)
            continue;
        ++scans;
        // A run of unanswered retries keeps the span its frames show, a lower bound on
        // an absence whose start the AP did not see (scan_detector.cpp closeAbsence);
        // every other closed scan is bounded.
        if (!e.openEnded && !std::string_view(e.basis).starts_with("retry-absence")) {
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
    std::printf("[field] %s: %zu scan(s), %zu open-ended event(s)\n", GetParam(), scans, open);
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
        std::vector<std::uint8_t> f = {fc0, fc1, 0, 0};
        for (std::uint8_t a : {a1, a2, a3}) {
            const std::uint8_t fill = a == kBroadcastOctet ? kBroadcastOctet : 0;
            const std::uint8_t mac[6] = {a == kBroadcastOctet ? kBroadcastOctet : std::uint8_t(0x02), fill, fill,
                                         fill, fill, a};
            f.insert(f.end(), mac, mac + 6);
        }
        f.push_back(static_cast<std::uint8_t>(m_sequence << 4));
        f.push_back(static_cast<std::uint8_t>(m_sequence >> 4));
        ++m_sequence;
        f.insert(f.end(), body.begin(), body.end());
        const auto sec = static_cast<std::uint32_t>(t);
        const auto usec = static_cast<std::uint32_t>((t - sec) * 1e6);
        put32(1'700'000'000u + sec);
        put32(usec);
        put32(static_cast<std::uint32_t>(f.size()));
        put32(static_cast<std::uint32_t>(f.size()));
        m_out.write(reinterpret_cast<const char*>(f.data()), static_cast<std::streamsize>(f.size()));
    }

    static constexpr std::uint8_t kBroadcastOctet = 0xff;

private:
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

} // namespace
