// SPDX-License-Identifier: GPL-3.0-or-later
// The period of a station's background scans from the silences they leave
// (scan_period.h): the fold's Rayleigh test, and the lattice test that counts the
// silences a scan timer puts within a delivery's interval of one phase, where few
// were seen or another rhythm mixes with them.

#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/derive/scan_period.h"
#include "analysis/replay/session/replay_session.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace windscope;
using namespace windscope::analysis::replay::derive;

namespace {

std::vector<double> fromFirst(std::vector<double> timesS)
{
    const double first = timesS.front();
    for (double& t : timesS)
        t -= first;
    return timesS;
}

} // namespace

// Six silences cannot pass the fold's test (it needs eight, and six at one phase have a
// Rayleigh surprise of at most about 8); on a lattice of 976 ms within 1.9 ms they are
// (2 x 1.9 / 976)^5, -ln p 27.7, against the search's threshold: the ln of its 7,697
// candidates (the phase drifting by the tolerance over the 4.88 s) times 6 phases over
// the false-detection rate 0.01, 15.3.
TEST(ScanPeriod, SixSilencesOnATimersLatticeGiveItsPeriod)
{
    const double seenEarlyMs[] = {0.0, 1.2, 0.4, 1.5, 0.9, 0.2};
    std::vector<double> timesS;
    for (int k = 0; k < 6; ++k)
        timesS.push_back(0.976 * k - seenEarlyMs[k] / 1000);
    timesS = fromFirst(timesS);
    EXPECT_FALSE(searchPeriod(timesS).found);
    const PeriodFit fit = searchLattice(timesS, 0.0019);
    ASSERT_TRUE(fit.found) << periodEvidence(fit);
    EXPECT_NEAR(fit.periodS, 0.976, 0.0005);
    EXPECT_EQ(fit.onLattice, 6u);
    EXPECT_NEAR(fit.z, -5 * std::log(2 * 0.0019 / 0.976), 0.5);
    EXPECT_NEAR(fit.thresholdZ, 15.3, 0.2);
    EXPECT_EQ(periodEvidence(fit).find("6 within 1.9 ms of its lattice"), 0u)
        << periodEvidence(fit);
}

// The silences a server saw of a seed-6 draw's run (s0229: 43 ms scans every 884 ms,
// a 265 ms round trip): six are the scans', the others a slow start's flights, three of
// them a whole number of 88.4 ms from the first, as the round trip is three of it. The
// 88.4 ms lattice holds ten and the 884 ms one six; the first is the more surprising
// (-ln p 22.1 against 20.2, both over the threshold of 16.6), but a sub-multiple holds
// whatever the period holds: the period is the longest whole multiple within the
// harmonic share (20.2 is 91 % of 22.1), as the fold's candidates are.
TEST(ScanPeriod, ASubMultipleThatAlsoHoldsTheFlightsIsNotThePeriod)
{
    const std::vector<double> timesS = {0.0000, 0.8817, 1.1482, 1.7688, 2.0349, 2.3016, 2.6529,
                                        3.5354, 4.4190, 4.9654, 5.6299, 6.1012, 6.8973, 6.9378};
    const PeriodFit fit = searchLattice(timesS, 0.00185);
    ASSERT_TRUE(fit.found) << periodEvidence(fit);
    EXPECT_NEAR(fit.periodS, 0.884, 0.002) << periodEvidence(fit);
    EXPECT_EQ(fit.onLattice, 6u);
}

// The same six silences, spaced as a sender's own stalls come (no common period): none
// of the candidates puts more than chance on one phase.
TEST(ScanPeriod, SixIrregularSilencesHaveNoLattice)
{
    const double gapsS[] = {0.61, 1.37, 0.88, 1.12, 0.73};
    std::vector<double> timesS{0};
    for (const double g : gapsS)
        timesS.push_back(timesS.back() + g);
    const PeriodFit fit = searchLattice(timesS, 0.0019);
    EXPECT_FALSE(fit.found) << fit.periodS << " s, " << periodEvidence(fit);
}

// The 22 ACK silences the server's capture of an ns-3 run of scenario A showed (scans of
// 32 ms every 384 ms to a 6 Mb/s 802.11a station behind a 4 Mb/s wire: `../shared/lab/ns3`
// `scenario-a-periodic-scan --seed=592339 --tcp=TcpCubic --scanInterval=384 --dwell=32
// --wiredDelay=102 --wiredRate=4Mbps --wifiRate=OfdmRate6Mbps --bytes=0 --maxTime=12
// --firstScan=1.318`), in seconds after the first data: 17 lie within the ACKs' median
// interval (4.7 ms) of the scans' lattice, 5 elsewhere. The fold concentrates them best
// at half the period, and fewer than three quarters of its phase's silences fall in one
// residue of two, so the fold alone kept 192 ms; the lattice of 384 ms is the more
// surprising and a whole multiple of the fold's: it is the period.
TEST(ScanPeriod, TheLatticeTakesTheWholeMultipleTheFoldStopsShortOf)
{
    const std::vector<double> timesS =
        fromFirst({0.9820, 1.3665, 2.2088, 2.3079,  2.4794,  2.5187, 4.8244, 5.2051,
                   5.2900, 6.3586, 6.9710, 7.1277,  7.5091,  7.8908, 8.2793, 8.6594,
                   9.0473, 9.4296, 9.8144, 10.1989, 10.5835, 10.9680});
    PeriodFit fit = searchPeriod(timesS);
    ASSERT_TRUE(fit.found);
    wholeMultipleOfPeriod(timesS, fit);
    std::printf("fold: %.2f ms (%s)\n", fit.periodS * 1000, periodEvidence(fit).c_str());
    EXPECT_LT(fit.periodS, 0.3);
    const PeriodFit lattice = searchLattice(timesS, 0.0047);
    ASSERT_TRUE(lattice.found);
    std::printf("lattice: %.2f ms (%s)\n", lattice.periodS * 1000, periodEvidence(lattice).c_str());
    preferLattice(fit, lattice, timesS.back());
    EXPECT_NEAR(fit.periodS, 0.384, 0.001);
    EXPECT_GE(fit.onLattice, 15u);
}

// Silences the data met only every other scan (a 216 ms round trip's flights against
// 118 ms scans) fold at twice the period, and all fall in one residue of two at it. The
// AP's retries showed the station gone at five scans in a row (an ns-3 run of scenario A:
// `--seed=520087 --tcp=TcpVeno --scanInterval=118 --dwell=56 --wiredDelay=107
// --wiredRate=7Mbps --wifiRate=OfdmRate12Mbps`, its scans 2.545, 2.656, 2.776, 2.893 and
// 3.007 s into the AP's capture, 111 to 119 ms apart, and two more 235 ms apart): the
// scans repeat at the shorter period, whatever the data met.
TEST(ScanPeriod, ScansSeenInTheRetriesSetThePeriodTheDataMetHalfOf)
{
    std::vector<double> timesS;
    for (int k = 0; k < 12; ++k)
        timesS.push_back(0.236 * k + (k % 3) * 0.002);
    const std::vector<double> awayS = {1.1619, 1.2732, 1.3925, 1.5097, 1.6238, 5.9942, 6.2288};
    PeriodFit halved = searchPeriod(timesS);
    EXPECT_NEAR(halved.periodS, 0.236, 0.002);
    periodOfSeenScans(timesS, halved, awayS);
    EXPECT_NEAR(halved.periodS, 0.118, 0.001);
    // Scans seen a whole period apart or more leave it alone.
    PeriodFit same = searchPeriod(timesS);
    periodOfSeenScans(timesS, same, {0.4, 0.636, 1.108});
    EXPECT_NEAR(same.periodS, 0.236, 0.002);
    // Nor does a spacing that is no whole number of a shorter period.
    PeriodFit odd = searchPeriod(timesS);
    periodOfSeenScans(timesS, odd, {0.4, 0.55, 0.7, 0.95});
    EXPECT_NEAR(odd.periodS, 0.236, 0.002);
}

// The server's capture of an ns-3 run of scenario A (tests/data/MANIFEST.md): Veno over
// a 23 Mb/s, 25 ms wire to an 18 Mb/s 802.11a station that scans 33 ms every 976 ms.
// Seven scans fall in the 7.5 s; six met data and show as ACK silences ended by a round
// trip longer by half the silence, each 1.27 s, 2.25 s, ... after the first data, all
// within 1.9 ms (the ACKs' median interval) of a 976 ms lattice. Read by the fold alone
// the scenario had no scans.
TEST(ScanPeriod, ASparseTimersScansAtTheServer)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-a-scan976-server.pcap.gz"), lab, error)) << error;
    const analysis::replay::DerivedScenario d = analysis::replay::deriveScenario(lab.input());
    const analysis::replay::PeriodicScan& scan = d.scenario.periodicScan;
    std::printf("every %.2f ms for %.1f ms from %.3f s\n", scan.intervalMs, scan.dwellMs,
                scan.firstS);
    EXPECT_NEAR(scan.intervalMs, 976.0, 1.0);
    EXPECT_NEAR(scan.dwellMs, 33.0, 3.0);
}

// The same capture's losses: 7 loss episodes, 4 of them the slow start's overshoot, 3
// within a few ms of a scan's end (the station back, its SACKs showing the frame the AP
// dropped at the retry limit while it was away; the run's trace has 3 such MAC drops).
// Against the scans' windows of 54.4 ms, chance (the episodes in the 16 windows of that
// length over the rest of each 976 ms cycle) puts 4 / 16 in them; 3 is a binomial mid-p
// tail of 0.3 %. A single control half a period later met one of the slow start's episodes,
// and the three scan losses passed for chance: the baseline lost nothing to the scans
// (23 % fast) and the scan-aware AP gave nothing back (1.00x). The lab's fixed run
// (the same seed with the scan-aware AP) delivered 11.061 Mb/s against the baseline's
// 8.546: 1.294x.
TEST(ScanPeriod, ASparseTimersScansCostTheirLossesAtTheServer)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-a-scan976-server.pcap.gz"), lab, error)) << error;
    const analysis::replay::DerivedScenario d = analysis::replay::deriveScenario(lab.input());
    EXPECT_EQ(d.scanLossEpisodes, 3u);
    analysis::replay::ReplayOptions options;
    options.fixes = {"scan-aware-ap"};
    const analysis::replay::ReplayReport r = analysis::replay::replayCapture(lab.input(), options);
    ASSERT_TRUE(r.capture && r.calibration && r.fixEffect);
    constexpr double kLabFixRatio = 11.061 / 8.5464;
    std::printf("capture %.0f b/s, baseline %.0f b/s; scan-aware AP %.3fx (the lab's %.3fx)\n",
                r.capture->goodputBps, r.baseline.goodputBps, r.fixEffect->goodputRatio,
                kLabFixRatio);
    EXPECT_LT(r.calibration->goodput, 0.10);
    EXPECT_NEAR(r.fixEffect->goodputRatio / kLabFixRatio, 1.0, 0.15);
}

// A station that does not announce its scans on air leaves once the medium has paused
// long enough; a frame the AP was still backing off for goes into the absence, a hole the
// first arrival after the silence reveals. The station of an ns-3 run (31 ms scans every
// 70 ms, 36 Mb/s 802.11a; command line in tests/data/MANIFEST.md): 24 of the 91 silences
// end in a hole, as the lab's mac_drops.csv has 24 of its 91 scans before 8 s lose a
// frame at the retry limit. The AP's first attempt waits DIFS (34 us) and 0 to 15 slots of
// 9 us, so the wait those 24 of 91 outlast is 34 + 9 x (15 - 16 x 24 / 91) = 131.0 us,
// where the bound of 169 us lost nothing (baseline 30 % fast over the whole run, scan-aware
// AP 1.09x against the lab pair's 1.39x over these 8 s).
TEST(ScanPeriod, TheHolesTheScansLeftGiveTheStationsWaitToLeave)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-a-scan70-holes-sta.pcap.gz"), lab, error))
        << error;
    const analysis::replay::DerivedScenario d = analysis::replay::deriveScenario(lab.input());
    ASSERT_TRUE(d.scenario.mac.enabled);
    EXPECT_NEAR(d.scenario.periodicScan.intervalMs, 70.0, 0.1);
    EXPECT_EQ(d.scanHoles, 24u);
    EXPECT_NEAR(d.scenario.mac.stationLeavePauseUs, 34 + 9 * (15 - 16.0 * 24 / 91), 0.1);
    analysis::replay::ReplayOptions options;
    options.fixes = {"scan-aware-ap"};
    const analysis::replay::ReplayReport r = analysis::replay::replayCapture(lab.input(), options);
    ASSERT_TRUE(r.capture && r.calibration && r.fixEffect);
    constexpr double kLabFixRatio = 11449336.0 / 8228984; // rx_progress.csv at 8 s, fix and base
    std::printf("capture %.0f b/s, baseline %.0f b/s; scan-aware AP %.3fx (the lab's %.3fx)\n",
                r.capture->goodputBps, r.baseline.goodputBps, r.fixEffect->goodputRatio,
                kLabFixRatio);
    EXPECT_LT(r.calibration->goodput, 0.10);
    EXPECT_NEAR(r.fixEffect->goodputRatio / kLabFixRatio, 1.0, 0.15);
}

// The station's own radio (command line in tests/data/MANIFEST.md: 26 ms scans every
// 170 ms, NewReno at 2.41 Mb/s on an air that carries 7.2): the data's silences do not
// fold at the scans (the flow's own round-trip rhythm dominates them), but the
// stretches the radio heard nothing in, each ended by the AP's frame numbered past
// MPDUs it never heard, do. Their ends lag the scans' ends by the wait for the AP's next
// frame, never lead them; each stretch is at least the dwell.
TEST(ScanPeriod, TheStationsOwnRadioGivesThePatternTheDataDoesNot)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-a-scan170-window-sta.pcap.gz"), lab, error)) << error;
    const analysis::replay::DerivedScenario d = analysis::replay::deriveScenario(lab.input());
    const analysis::replay::PeriodicScan& scan = d.scenario.periodicScan;
    std::printf("periodic scan: %.2f ms off every %.2f ms (the lab's 26 every 170)\n", scan.dwellMs,
                scan.intervalMs);
    EXPECT_NEAR(scan.intervalMs, 170.0, 0.5);
    EXPECT_GE(scan.dwellMs, 26.0);
    EXPECT_LE(scan.dwellMs, 26.0 + 3.0); // a stretch holds the quiet on either side
    EXPECT_EQ(scan.mode, analysis::replay::OutageMode::PsAnnounced);
    bool noted = false;
    for (const std::string& note : d.notes)
        noted |= note.starts_with("periodic_scan:") && note.find("station's own radio") != std::string::npos;
    EXPECT_TRUE(noted);
}
