// SPDX-License-Identifier: GPL-3.0-or-later
// The compact per-frame columns: signed rising times and 802.11 address sets.

#include "dissectors/capture_tables.h"
#include "dissectors/table_builder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace windscope;

namespace {

dissect::MacAddress mac(std::uint8_t last)
{
    dissect::MacAddress m;
    m.bytes = {0x02, 0, 0, 0, 0, last};
    return m;
}

// A data-less 802.11 frame naming count addresses; the others hold stale bytes, as
// the decode scratch does for addresses a frame does not carry.
dissect::Frame wlanFrame(std::uint64_t number, std::uint8_t count, std::uint8_t a1, std::uint8_t a2,
                         std::uint8_t a3)
{
    dissect::Frame f;
    f.reset(number, 1'000'000'000 + static_cast<std::int64_t>(number), 14, 14, 105);
    f.hasWlan = true;
    f.wlan.addressCount = count;
    f.wlan.addr1 = mac(a1);
    f.wlan.addr2 = mac(a2);
    f.wlan.addr3 = mac(a3);
    return f;
}

} // namespace

TEST(RisingTimeColumn, SignedValuesRoundTrip)
{
    // Negative times (a packet before the first one), steps back, jumps across several
    // 2^32 ns high halves and the saturated extremes all read back as written.
    const std::vector<std::int64_t> values = {0,         -1,         5'000'000'000, 4'999'999'999,
                                              -7,        INT64_MIN,  INT64_MAX,     12'884'901'888,
                                              8'589'934'591, 123};
    dissect::RisingTimeColumn column;
    for (std::int64_t v : values)
        column.push_back(v);
    ASSERT_EQ(column.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(column[i], values[i]) << "row " << i;
    EXPECT_EQ(std::vector<std::int64_t>(column.begin(), column.end()), values);
}

TEST(RisingTimeColumn, RisingTimesStayFourBytesPerRow)
{
    dissect::RisingTimeColumn column;
    for (std::int64_t t = 0; t < 20'000'000'000; t += 1'000'000)
        column.push_back(t);
    // One high-half change per 2^32 ns: 4 of them in 20 s.
    EXPECT_EQ(column.highStarts().size(), 4u);
    EXPECT_EQ(column.lowHalves().size(), column.size());
    EXPECT_EQ(column[column.size() - 1], 19'999'000'000);
}

TEST(WlanAddressSets, RowsShareSetsAndIgnoreAbsentAddresses)
{
    dissect::CaptureTables tables;
    dissect::TableBuilder builder(tables);
    builder.add(wlanFrame(1, 3, 1, 2, 3), true);
    builder.add(wlanFrame(2, 1, 2, 9, 9), true); // an ACK: addr2/addr3 are stale bytes
    builder.add(wlanFrame(3, 3, 1, 2, 3), true);
    builder.add(wlanFrame(4, 1, 2, 7, 7), true); // the same ACK set, other stale bytes
    builder.add(wlanFrame(5, 2, 2, 1, 4), true);
    builder.finish();

    const dissect::WlanColumns& w = tables.wlan;
    ASSERT_EQ(w.size(), 5u);
    EXPECT_EQ(w.addressSets.size(), 3u);
    EXPECT_EQ(w.addresses[0], w.addresses[2]);
    EXPECT_EQ(w.addresses[1], w.addresses[3]);
    // MAC ids follow first appearance in address order; absent addresses are kNoAddress
    // and the stale bytes were never interned.
    ASSERT_EQ(tables.macAddresses.size(), 3u);
    EXPECT_EQ(tables.macAddresses.at(0), mac(1));
    EXPECT_EQ(tables.macAddresses.at(1), mac(2));
    EXPECT_EQ(tables.macAddresses.at(2), mac(3));
    EXPECT_EQ(w.addr1(0), 0u);
    EXPECT_EQ(w.addr2(0), 1u);
    EXPECT_EQ(w.addr3(0), 2u);
    EXPECT_EQ(w.addr1(1), 1u);
    EXPECT_EQ(w.addr2(1), dissect::WlanColumns::kNoAddress);
    EXPECT_EQ(w.addr3(3), dissect::WlanColumns::kNoAddress);
    EXPECT_EQ(w.addr1(4), 1u);
    EXPECT_EQ(w.addr2(4), 0u);
    EXPECT_EQ(w.addr3(4), dissect::WlanColumns::kNoAddress);
}
