// SPDX-License-Identifier: GPL-3.0-or-later
// Sniffer gaps from 802.11 sequence numbers (dissectors/sequence_gap_counter.h): holes in
// a stream are frames the monitor missed unless the transmitter gave those numbers to its
// other frames (one counter for QoS data, Null frames and beacons, as the Linux lab's
// mac80211_hwsim devices do), heard just before or after the hole was seen.
#include "dissector_test_kit.h"

#include "dissectors/sequence_gap_counter.h"

using namespace windscope;
using dissect::SequenceGapCounter;

namespace {

constexpr std::uint32_t kAp = 1, kSta = 2;

std::uint64_t missing(const SequenceGapCounter& c)
{
    std::uint64_t n = 0;
    for (const auto& t : c.gaps())
        n += t.missing;
    return n;
}

TEST(SequenceGaps, NumbersTakenByOtherFramesAreNoHoles)
{
    SequenceGapCounter c;
    c.dataFrame(kAp, kSta, 0, 30);
    c.dataFrame(kAp, kSta, 0, 31);
    c.otherFrame(kAp, 32); // a Beacon from the same counter
    c.dataFrame(kAp, kSta, 0, 33);
    c.dataFrame(kSta, kAp, 0, 567);
    c.dataFrame(kSta, kAp, 0, 570); // 568 and 569 are the station's Null frames, heard after
    c.otherFrame(kSta, 568);
    c.otherFrame(kSta, 569);
    c.dataFrame(kSta, kAp, 0, 571);
    EXPECT_EQ(missing(c), 0u);
}

TEST(SequenceGaps, MissedFramesAreCounted)
{
    SequenceGapCounter c;
    // 11 heard long before (more than the last 64 frames of the transmitter ago, and
    // before the stream's previous frame): another cycle of the counter, not this hole.
    c.dataFrame(kAp, kSta, 0, 9);
    c.otherFrame(kAp, 11);
    for (std::uint16_t i = 0; i < 70; ++i)
        c.otherFrame(kAp, static_cast<std::uint16_t>(2000 + i));
    c.dataFrame(kAp, kSta, 0, 10);
    c.dataFrame(kAp, kSta, 0, 14); // 11, 12 and 13 never heard since
    c.dataFrame(kAp, kSta, 5, 12); // another TID numbered apart: its own stream
    ASSERT_EQ(c.gaps().size(), 1u);
    EXPECT_EQ(c.gaps()[0].mac, kAp);
    EXPECT_EQ(c.gaps()[0].missing, 2u); // 12 was heard (TID 5) after frame 10
    c.otherFrame(kAp, 13);              // late, from the shared counter
    EXPECT_EQ(missing(c), 1u);
}

// The Linux lab's capture the bundled sample is cut from (mac80211_hwsim): its APs number
// Beacons and its station numbers Null frames from the counter of their QoS data, so the
// holes those frames fill are not frames the monitor missed.
TEST(SequenceGaps, LabCaptureHolesAreTheSharedCounter)
{
    const auto path = test::labDir("linux/cubic-wifi") / "ap-wlan.pcap";
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = test::ingestOrFail(path);
    std::uint64_t n = 0;
    for (const auto& g : t.summary.sequenceGaps)
        n += g.missing;
    std::printf("[gaps] linux/cubic-wifi: %llu sequence numbers missing\n", static_cast<unsigned long long>(n));
    EXPECT_EQ(n, 0u);
}

} // namespace
