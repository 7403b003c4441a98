// SPDX-License-Identifier: GPL-3.0-or-later
// 802.11 inventory and events on the public captures, checked against tshark 4.0
// counts of the frames they rest on: power-management announcements (a station's
// PM 0 -> 1 changes in its To-DS data/Null frames), (re)association, authentication
// and deauthentication frames, Beacons per BSSID and Retry-flagged frames. Frames with
// a bad FCS are left out on both sides.
#include "test_support.h"

#include "analysis/pipeline/capture_pipeline.h"

#include <map>
#include <sstream>

using namespace windscope;
using namespace windscope::analysis;

namespace {

// A capture's pipeline run through the 802.11 events, its products in reach.
struct Analysed
{
    explicit Analysed(std::unique_ptr<pipeline::CapturePipeline> p)
        : pipeline(std::move(p)), tables(pipeline->tables()), tcp(pipeline->tcp()),
          inventory(pipeline->inventory()), events(pipeline->events())
    {
    }
    std::unique_ptr<pipeline::CapturePipeline> pipeline;
    const dissect::CaptureTables& tables;
    const TcpAnalysis& tcp;
    const WlanInventory& inventory;
    const WlanEvents& events;
};

std::unique_ptr<Analysed> analyse(const std::filesystem::path& path)
{
    auto p = std::make_unique<pipeline::CapturePipeline>(path.string());
    std::string error;
    EXPECT_TRUE(p->run(pipeline::AnalysisStage::Events, error)) << error;
    return std::make_unique<Analysed>(std::move(p));
}

std::vector<std::string> tsharkLines(const std::filesystem::path& capture, const std::string& filter,
                                     const std::string& fields)
{
    int status = 0;
    const std::string out = test::runCommand(test::tsharkPath() + " -n -r '" + capture.string() +
                                                 "' -Y '" + filter + "' -T fields " + fields +
                                                 " 2>/dev/null",
                                             &status);
    EXPECT_EQ(status, 0);
    std::vector<std::string> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            lines.push_back(line);
    return lines;
}

const char* kNoBadFcs = "!(radiotap.flags.badfcs == 1)";

class PublicWlan : public ::testing::TestWithParam<const char*>
{};

// Each PM 0 -> 1 change announces one absence (scan or power save).
TEST_P(PublicWlan, PowerManagementAnnouncements)
{
    WINDSCOPE_REQUIRE_TSHARK();
    const auto path = test::publicCapture(GetParam());
    WINDSCOPE_REQUIRE_FILE(path);
    const auto a = analyse(path);
    const auto lines = tsharkLines(path,
                                   std::string("wlan.fc.type == 2 && wlan.fc.ds == 1 && wlan.fc.retry == 0 && ") +
                                       kNoBadFcs,
                                   "-e wlan.ta -e wlan.fc.pwrmgt");
    std::map<std::string, int> state;
    std::size_t transitions = 0;
    for (const std::string& line : lines) {
        const auto tab = line.find('\t');
        const int pm = std::stoi(line.substr(tab + 1));
        int& previous = state[line.substr(0, tab)];
        transitions += pm == 1 && previous == 0;
        previous = pm;
    }
    std::size_t announced = 0;
    for (const WlanEvent& e : a->events.events)
        announced += std::string(e.basis).rfind("pm-", 0) == 0;
    // Announcements undone too soon to have left the channel are counted in a note, not
    // reported as events: they were announced all the same.
    for (const std::string& note : a->events.notes)
        if (note.find("power-save announcement(s) undone within") != std::string::npos)
            announced += std::stoul(note);
    std::printf("[events] %s: %zu PM 0->1 changes (tshark), %zu announced absences\n", GetParam(),
                transitions, announced);
    // A return marked only by a data frame splits or joins periods; measured within 2.
    EXPECT_NEAR(double(announced), double(transitions), std::max(2.0, 0.02 * double(transitions)));
}

INSTANTIATE_TEST_SUITE_P(Captures, PublicWlan,
                         ::testing::Values("networks744__macactive1.pcap", "aircrack__wpa2-psk-linksys.cap",
                                           "aircrack__n-02.cap", "wifidoctor-asterinos__1_2_test_pcap1.pcap",
                                           "wifidoctor-stavros__home_network2.PM.pcapng",
                                           "networks744__testing_active4.pcap"));

TEST(PublicWlanInventory, AssociationFramesMatchTshark)
{
    WINDSCOPE_REQUIRE_TSHARK();
    for (const char* name : {"aircrack__n-02.cap", "aircrack__wpa2-psk-linksys.cap",
                             "networks744__testing_active1.pcap", "chrissanders__3e80211_wpaauth.pcapng"}) {
        const auto path = test::publicCapture(name);
        WINDSCOPE_REQUIRE_FILE(path);
        const auto a = analyse(path);
        // Individually addressed ones: a broadcast deauthentication names no station.
        const auto lines = tsharkLines(
            path,
            std::string("(wlan.fc.type_subtype <= 3 || (wlan.fc.type_subtype >= 10 && wlan.fc.type_subtype <= 12)) "
                        "&& !(wlan.ra == ff:ff:ff:ff:ff:ff) && ") +
                kNoBadFcs,
            "-e wlan.fc.type_subtype");
        std::map<int, std::size_t> expected, ours;
        for (const std::string& line : lines)
            ++expected[std::stoi(line, nullptr, 16)];
        for (const Station& s : a->inventory.stations)
            for (const AssociationFrame& f : s.management)
                ++ours[f.subtype];
        EXPECT_EQ(ours, expected) << name;
    }
}

TEST(PublicWlanInventory, BeaconsPerBssidMatchTshark)
{
    WINDSCOPE_REQUIRE_TSHARK();
    for (const char* name : {"networks744__testing_active1.pcap", "wifidoctor-stavros__home_network2.PM.pcapng",
                             "pypacker__packets_prism.pcap"}) {
        const auto path = test::publicCapture(name);
        WINDSCOPE_REQUIRE_FILE(path);
        const auto a = analyse(path);
        const auto lines =
            tsharkLines(path, std::string("wlan.fc.type_subtype == 8 && ") + kNoBadFcs, "-e wlan.bssid -e wlan.ssid");
        std::map<std::string, std::size_t> expected, ours;
        for (const std::string& line : lines)
            ++expected[line.substr(0, line.find('\t'))];
        for (const AccessPoint& ap : a->inventory.accessPoints)
            if (ap.beacons)
                ours[a->tables.macAddresses.at(ap.bssid).toString()] = ap.beacons;
        EXPECT_EQ(ours, expected) << name;
        std::printf("[events] %s: %zu BSSIDs beaconing (tshark %zu)\n", name, ours.size(), expected.size());
    }
}

TEST(PublicWlanInventory, StationRetriesMatchTshark)
{
    WINDSCOPE_REQUIRE_TSHARK();
    const auto path = test::publicCapture("networks744__macactive1.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto a = analyse(path);
    ASSERT_EQ(a->inventory.stations.size(), 1u);
    const std::string mac = a->tables.macAddresses.at(a->inventory.stations[0].mac).toString();
    const auto lines = tsharkLines(path,
                                   "wlan.fc.retry == 1 && wlan.fc.type != 1 && (wlan.ta == " + mac +
                                       " || wlan.ra == " + mac + ") && " + kNoBadFcs,
                                   "-e frame.number");
    std::uint64_t ours = 0;
    for (const StationMacStats& m : a->events.macStats)
        for (const MacStatsBin& b : m.bins)
            ours += b.retries;
    EXPECT_EQ(ours, lines.size());
    EXPECT_EQ(ours, 59u); // MANIFEST.md: retry 59
}

} // namespace
