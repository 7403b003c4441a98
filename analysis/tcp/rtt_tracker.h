// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Round-trip time measurement from a capture, per direction of data:
// - AckRttTracker: a data segment to the first ACK that covers exactly its end, with
//   Karn's rule (RFC 6298 section 3) as Linux applies it (tcp_clean_rtx_queue ignores
//   the sequence RTT when FLAG_RETRANS_DATA_ACKED): an ACK that newly covers any
//   sequence space sent twice gives no sample, which also drops the cumulative ACK
//   that follows a repaired hole (it would time the wait for the repair).
// - TimestampRttTracker: the first segment carrying a TSval to the first segment of
//   the other side echoing it in TSecr (RFC 7323 section 4.1), which stays unambiguous
//   across retransmissions because every transmission carries a fresh TSval.
// - RtoEstimator: RFC 6298 section 2 SRTT/RTTVAR, used for the RTO-timeout rule.
// Both trackers keep bounded vector-backed queues: no allocation per segment once the
// queues have grown to the connection's window.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace windscope::analysis::detail {

class RtoEstimator
{
public:
    void addSample(std::int64_t rttNs);
    bool hasSample() const { return m_hasSample; }
    double srttNs() const { return m_srtt; }
    double rttvarNs() const { return m_rttvar; }
    // The silence after which a retransmission counts as timeout-driven:
    // max(floor, factor * SRTT, SRTT + 4 * RTTVAR) (the RFC 6298 (2.3) RTO with the
    // clock granularity neglected); the floor alone before any sample.
    std::int64_t timeoutThresholdNs(std::int64_t floorNs, double srttFactor) const;

private:
    bool m_hasSample = false;
    double m_srtt = 0;
    double m_rttvar = 0;
};

class AckRttTracker
{
public:
    // A segment of this direction occupying [start, end) in unwrapped sequence space
    // (SYN and FIN count one). Sequence space sent before is remembered as re-sent.
    void onSegment(std::int64_t start, std::int64_t end, std::int64_t timeNs, std::uint64_t row);
    // An acknowledgment from the other side. Returns true with a sample when it is the
    // first to cover a segment's end exactly and covers no re-sent sequence space.
    bool onAck(std::int64_t ack, std::int64_t timeNs, std::int64_t& rttNs, std::uint64_t& dataRow)
    {
        // Inline: every row with the ACK bit asks, and most are duplicates or old.
        if (m_anyAck && ack <= m_highestAck)
            return false;
        return onNewAck(ack, timeNs, rttNs, dataRow);
    }
    void reset();

private:
    bool onNewAck(std::int64_t ack, std::int64_t timeNs, std::int64_t& rttNs, std::uint64_t& dataRow);
    struct Sent
    {
        std::int64_t start, end, timeNs;
        std::uint64_t row;
    };
    struct Range
    {
        std::int64_t start, end;
    };
    static constexpr std::size_t kMaxPending = 1u << 16;
    static constexpr std::size_t kMaxResent = 1024;
    void popFront();

    std::vector<Sent> m_sent;
    std::size_t m_head = 0;
    bool m_anySent = false;
    std::int64_t m_highestEnd = 0;
    std::vector<Range> m_resent; // not yet acknowledged re-sent ranges, in sending order
    bool m_anyAck = false;
    std::int64_t m_highestAck = 0;
};

class TimestampRttTracker
{
public:
    void onSend(std::uint32_t tsVal, std::int64_t timeNs, std::uint64_t row)
    {
        // Keep the first segment carrying each value; ignore values going backwards.
        // Inline: most segments repeat the last value (TSval clocks tick in ms).
        if (m_anySent && (tsVal == m_lastSent || !tsNewer(tsVal, m_lastSent)))
            return;
        onNewValue(tsVal, timeNs, row);
    }
    // TSecr of a segment of the other side with the ACK bit (RFC 7323 3.2: TSecr is
    // only valid then). One sample per newly echoed value.
    bool onEcho(std::uint32_t tsEcr, std::int64_t timeNs, std::int64_t& rttNs,
                std::uint64_t& dataRow)
    {
        if (m_anyEcho && !tsNewer(tsEcr, m_lastEcho))
            return false;
        return onNewEcho(tsEcr, timeNs, rttNs, dataRow);
    }

private:
    // RFC 7323 5.2 timestamp comparison (modular, like sequence numbers).
    static bool tsNewer(std::uint32_t a, std::uint32_t b) { return static_cast<std::int32_t>(a - b) > 0; }
    void onNewValue(std::uint32_t tsVal, std::int64_t timeNs, std::uint64_t row);
    bool onNewEcho(std::uint32_t tsEcr, std::int64_t timeNs, std::int64_t& rttNs, std::uint64_t& dataRow);
    struct Sent
    {
        std::uint32_t tsVal;
        std::uint64_t row;
        std::int64_t timeNs;
    };
    static constexpr std::size_t kMaxPending = 1u << 16;
    void popFront();

    std::vector<Sent> m_sent;
    std::size_t m_head = 0;
    // The last value queued, kept here so that the many segments repeating it (TSval
    // clocks tick in milliseconds) do not touch the queue.
    bool m_anySent = false;
    std::uint32_t m_lastSent = 0;
    bool m_anyEcho = false;
    std::uint32_t m_lastEcho = 0;
};

} // namespace windscope::analysis::detail
