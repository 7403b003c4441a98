// SPDX-License-Identifier: GPL-3.0-or-later
// What a node receives of a frame on air (wifi_chain.h): an equally strong transmission
// overlapping it costs what its rate cannot decode at 0 dB, per MPDU of an A-MPDU.
#include "wifi_chain.h"

#include <algorithm>
#include <cmath>

namespace windscope::analysis::replay {

namespace {
// A receiver detects a preamble in its first 4 us (half the legacy short training field,
// 19.3.2): a transmission as strong as the frame already there, or starting within that,
// leaves it unsynchronised.
constexpr std::int64_t kPreambleDetectNs = 4000;
// The AWGN packet error rate of BPSK rate-1/2 BCC (HT MCS 0) for a 1458-byte PSDU at
// 0 dB SNR, where a transmitter as strong as the frame's own puts it; every other
// modulation and rate needs 2 dB or more there and loses anything overlapped.
constexpr double kBpskHalfPerAt0Db = 0.8185;
constexpr double kPerReferenceBits = 1458 * 8;
// Data bits per OFDM symbol of BPSK rate 1/2: half the data subcarriers of 20 MHz
// non-HT (48), 20 MHz HT/VHT (52), 40 MHz (108), 80 MHz VHT and 20 MHz HE (234).
constexpr double kBpskHalfBitsPerSymbol[] = {24, 26, 54, 117};
// OFDM symbols: 4 us (0.8 us guard), 3.6 us (short guard), HE's 13.6/14.4/16 us.
constexpr double kOfdmSymbolUs[] = {4.0, 3.6, 13.6, 14.4, 16.0};
} // namespace

bool bpskHalfRate(double rateMbps)
{
    for (double symbolUs : kOfdmSymbolUs)
        for (double bits : kBpskHalfBitsPerSymbol)
            if (std::abs(rateMbps * symbolUs - bits) < 0.5)
                return true;
    return false;
}

double equalPowerLoss(double bits, double rateMbps)
{
    if (!bpskHalfRate(rateMbps))
        return 1;
    // Bit errors independent across the frame: a part of it fails as the reference
    // frame does, to the power of its share of the reference's bits.
    return 1 - std::pow(1 - kBpskHalfPerAt0Db, bits / kPerReferenceBits);
}

double WifiChain::rateOf(const OnAir& f) const
{
    if (f.kind != Kind::Data || m_nodes[f.exchange].ex.blockAckRequest)
        return m_params.basicRateMbps;
    return m_params.phyRateMbps;
}

bool WifiChain::survivesOverlap(const OnAir& f, std::uint32_t node, const OnAir::Overlap& o,
                                std::int64_t fromNs, std::int64_t toNs, double rateMbps,
                                std::uint64_t part) const
{
    const std::int64_t ns = std::min(toNs, o.endNs) - std::max(fromNs, o.startNs);
    if (ns <= 0)
        return true;
    const double loss = equalPowerLoss(static_cast<double>(ns) / 1000 * rateMbps, rateMbps);
    if (loss >= 1)
        return false;
    const std::uint64_t other =
        (static_cast<std::uint64_t>(o.from) << 48) ^ static_cast<std::uint64_t>(o.startNs);
    return Rng::keyed(m_seed, f.id, (static_cast<std::uint64_t>(node) << 32) | part, other) >= loss;
}

bool WifiChain::receives(const OnAir& f, std::uint32_t node) const
{
    if (m_away && node == m_nodes.size() - 1)
        return false;
    // Another transmission the node is within reach of arrives as strong as the frame
    // (SINR 0 dB): lost if it came first or during the preamble, else lost or not by
    // what the frame's rate decodes at 0 dB over the overlap.
    return std::all_of(f.overlaps.begin(), f.overlaps.end(), [&](const OnAir::Overlap& o) {
        if (!disturbs(o.from, node))
            return true;
        if (o.from == node || o.startNs < f.startNs + kPreambleDetectNs)
            return false;
        return survivesOverlap(f, node, o, f.startNs, f.endNs, rateOf(f), 0);
    });
}

bool WifiChain::receiveMpdus(const OnAir& f, std::vector<bool>& mpduOk) const
{
    if (m_away && f.to == m_nodes.size() - 1)
        return false;
    // The MPDUs of an A-MPDU follow the PHY header back to back, each with its own FCS
    // (9.7.1): a transmission that overlaps the header loses the PPDU, one that starts
    // later only the MPDUs it overlaps (ns-3's InterferenceHelper, per MPDU), each as
    // receives() decides a frame. A receiver that transmits itself receives nothing
    // (half duplex).
    const std::int64_t headerEndNs = f.startNs + usToNs(dataPreamble());
    const auto count = static_cast<std::int64_t>(mpduOk.size());
    const std::int64_t mpduNs =
        std::max<std::int64_t>(1, (f.endNs - headerEndNs) / std::max<std::int64_t>(1, count));
    const double rate = rateOf(f);
    for (const OnAir::Overlap& o : f.overlaps) {
        if (!disturbs(o.from, f.to))
            continue;
        if (o.from == f.to || o.startNs < f.startNs + kPreambleDetectNs)
            return false;
        // The PHY header's SIG fields are BPSK rate 1/2 at 6 Mb/s (19.3.9.4.3).
        constexpr double kSigRateMbps = 6;
        if (!survivesOverlap(f, f.to, o, f.startNs, headerEndNs, kSigRateMbps, 0))
            return false;
        const std::int64_t first =
            std::max<std::int64_t>(0, (std::max(o.startNs, headerEndNs) - headerEndNs) / mpduNs);
        const std::int64_t last = std::min(count - 1, (o.endNs - headerEndNs) / mpduNs);
        for (std::int64_t k = first; k <= last; ++k) {
            const std::int64_t from = headerEndNs + k * mpduNs;
            if (!survivesOverlap(f, f.to, o, from, from + mpduNs, rate,
                                 static_cast<std::uint64_t>(k) + 1))
                mpduOk[static_cast<std::size_t>(k)] = false;
        }
    }
    // One ACK for a whole aggregate (no Block Ack): an MPDU lost, by an overlap or a
    // frame error, loses all of it.
    if (!blockAck() && std::find(mpduOk.begin(), mpduOk.end(), false) != mpduOk.end())
        std::fill(mpduOk.begin(), mpduOk.end(), false);
    return true;
}

} // namespace windscope::analysis::replay
