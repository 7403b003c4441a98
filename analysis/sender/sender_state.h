// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The plain state block the congestion-control models act on, after ns-3's
// TcpSocketState and the fields of Linux's struct tcp_sock a model reads or writes.
// Windows are kept in bytes (ns-3's unit); the Linux models convert to and from
// segments, Linux's unit, through cwndSegments()/setCwndSegments().

#include <cstdint>
#include <limits>

namespace windscope::analysis::cwnd {

// Linux enum tcp_ca_state (include/net/tcp.h), the states tcp_set_ca_state() reports.
enum class CaState : std::uint8_t { Open, Disorder, Cwr, Recovery, Loss };

// Duplicate ACKs (or SACKed segments above a hole) that mean a loss (RFC 5681 3.2,
// RFC 6675 2; Linux tp->reordering and ns-3 ReTxThreshold start there).
inline constexpr std::uint32_t kDupThresh = 3;

// Linux TCP_INFINITE_SSTHRESH (0x7fffffff segments) kept in bytes.
inline constexpr std::uint64_t kInfiniteSsthresh = std::numeric_limits<std::uint64_t>::max() / 4;

struct SenderState
{
    std::uint32_t mss = 1448;                    // tp->mss_cache / m_segmentSize
    std::uint64_t cwnd = 10 * 1448;              // tp->snd_cwnd (RFC 6928 initial window)
    std::uint64_t ssthresh = kInfiniteSsthresh;  // tp->snd_ssthresh
    std::uint32_t cwndCount = 0;                 // tp->snd_cwnd_cnt, in segments acked
    CaState state = CaState::Open;
    bool cwndLimited = true;                     // tcp_is_cwnd_limited()
    std::int64_t nowNs = 0;                      // sender clock of the event being processed
    std::int64_t sndUna = 0, sndNxt = 0;         // unwrapped, relative sequence numbers
    std::uint64_t pipeBytes = 0;                 // RFC 6675 pipe / tcp_packets_in_flight()
    std::int64_t minRttNs = -1;                  // -1 until the first RTT sample
    // Loss recovery, RFC 6582 / RFC 6675 / Linux tcp_init_cwnd_reduction().
    std::int64_t recoveryPoint = 0;              // tp->high_seq
    std::uint64_t priorCwnd = 0;                 // tp->prior_cwnd (undo and PRR)
    std::uint64_t priorSsthresh = 0;             // tp->prior_ssthresh (undo)

    std::uint32_t cwndSegments() const { return static_cast<std::uint32_t>(cwnd / mss); }
    void setCwndSegments(std::uint64_t segments) { cwnd = segments * mss; }
    std::uint64_t ssthreshSegments() const { return ssthresh / mss; }
    // Linux tcp_in_slow_start(): snd_cwnd < snd_ssthresh.
    bool inSlowStart() const { return cwnd < ssthresh; }
};

// What one ACK told the sender, as Linux passes it to the congestion-control hooks
// (struct ack_sample and the acked_sacked count of tcp_cong_control()).
struct AckEvent
{
    std::int64_t nowNs = 0;
    std::uint32_t ackedSegments = 0; // newly delivered: cumulatively acked + newly SACKed
    std::uint64_t ackedBytes = 0;
    std::int64_t rttNs = -1;         // RTT sample this ACK gave, -1 none (Karn)
};

} // namespace windscope::analysis::cwnd
