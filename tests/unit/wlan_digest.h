// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A compact summary of the 802.11 rows of a capture, comparable with the same summary
// taken from tshark's per-frame fields. The expected values in the tests come from
//   tshark -r FILE -Y wlan.fc.type_subtype -T fields -E occurrence=f
//       -e wlan.fc.type_subtype -e wlan.seq -e wlan.fc.retry -e radiotap.dbm_antsignal
//       -e radiotap.channel.freq -e radiotap.flags.badfcs -e wlan.fc.protected
// (wlan_radio.signal_dbm / wlan_radio.frequency for PPI and Prism), summed by a
// short script, with TShark 4.0.17. A per-frame diff of the same fields was also
// run while writing the decoders and showed no difference.

#include "dissectors/capture_tables.h"

#include <cstdint>
#include <map>
#include <ostream>

namespace windscope::test {

struct WlanDigest
{
    std::uint64_t rows = 0;
    std::uint64_t withSequence = 0;
    std::uint64_t sequenceSum = 0;   // sum of wlan.seq over frames that have one
    std::uint64_t retries = 0;       // wlan.fc.retry == 1
    std::uint64_t withSignal = 0;
    std::int64_t signalSum = 0;      // sum of radiotap.dbm_antsignal (first occurrence)
    std::uint64_t badFcs = 0;        // radiotap.flags.badfcs == 1
    std::uint64_t protectedFrames = 0;
    std::map<std::uint16_t, std::uint64_t> channels;     // radiotap.channel.freq -> frames
    std::map<std::uint16_t, std::uint64_t> typeSubtypes; // wlan.fc.type_subtype -> frames
    bool operator==(const WlanDigest&) const = default;
};

inline WlanDigest digestOf(const dissect::WlanColumns& w)
{
    WlanDigest d;
    d.rows = w.size();
    for (std::size_t i = 0; i < w.size(); ++i) {
        const std::uint16_t fc = w.frameControl[i];
        if (w.sequenceControl[i] != 0xffff) {
            ++d.withSequence;
            d.sequenceSum += w.sequenceControl[i] >> 4;
        }
        d.retries += (fc & 0x0800) ? 1 : 0;
        if (w.signalDbm[i] != dissect::WlanColumns::kNoSignal) {
            ++d.withSignal;
            d.signalSum += w.signalDbm[i];
        }
        d.badFcs += (w.radioFlags[i] & 0x40) ? 1 : 0;
        d.protectedFrames += (fc & 0x4000) ? 1 : 0;
        ++d.channels[w.channelFreqMhz[i]];
        ++d.typeSubtypes[static_cast<std::uint16_t>(((fc >> 2) & 0x3) << 4 | ((fc >> 4) & 0xf))];
    }
    return d;
}

inline std::ostream& operator<<(std::ostream& os, const WlanDigest& d)
{
    os << "{rows " << d.rows << ", withSequence " << d.withSequence << ", sequenceSum "
       << d.sequenceSum << ", retries " << d.retries << ", withSignal " << d.withSignal
       << ", signalSum " << d.signalSum << ", badFcs " << d.badFcs << ", protected "
       << d.protectedFrames << ", channels {";
    for (const auto& [k, v] : d.channels)
        os << k << ":" << v << " ";
    os << "}, typeSubtypes {";
    for (const auto& [k, v] : d.typeSubtypes)
        os << k << ":" << v << " ";
    return os << "}}";
}

} // namespace windscope::test
