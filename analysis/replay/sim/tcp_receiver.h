// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulated TCP receiver: a socket buffer holding in-order data not yet read and
// out-of-order data, an application that reads it (at once, or in reads of a bounded
// size that each keep a slow reader busy), and the ACK policy: delayed ACKs (RFC 5681
// 4.2, every second full segment or after a timeout), immediate ACKs with SACK blocks
// for out-of-order data (RFC 2018 4), receiver silly-window avoidance (advertise 0
// rather than less than min(MSS, buffer / 2), Linux __tcp_select_window()), a right
// edge that never moves left (RFC 9293 3.8.6.2.2), and window updates when a read
// opens the window enough (Linux tcp_cleanup_rbuf(): the new window is at least twice
// what is left of the last one).

#include "event_queue.h"
#include "fifo.h"
#include "packet.h"
#include "analysis/replay/scenario/scenario.h"

#include <functional>
#include <map>

namespace windscope::analysis::replay {

struct ReceiverCounters
{
    std::uint64_t acks = 0, windowUpdates = 0, zeroWindows = 0, droppedOutOfWindow = 0, duplicates = 0;
    std::uint64_t ringDrops = 0;
    std::uint64_t bytesRead = 0;
    std::int64_t lastReadNs = 0;
};

class TcpReceiver
{
public:
    using Output = std::function<void(const Packet&)>;
    TcpReceiver(EventQueue& queue, const ReceiverParams& params, std::uint32_t mss, Output output);

    // A packet from the network: through the host's receive ring when one is modelled.
    void arrive(const Packet& p);
    void onPacket(const Packet& p);
    // Freeze-TCP: advertise a zero window now and until unfrozen; unfreezing sends
    // three copies of the window-opening ACK (the TR-ACKs of Freeze-TCP).
    void freeze(bool frozen);

    std::uint64_t advertisedWindow() const;
    std::int64_t nextExpected() const { return m_rcvNxt; }
    const ReceiverCounters& counters() const { return m_counters; }

private:
    void sendAck(bool windowUpdate = false);
    void scheduleRead();
    void read();
    void readerWake();
    std::uint64_t freeSpace() const;

    EventQueue& m_queue;
    ReceiverParams m_params;
    std::uint32_t m_mss;
    Output m_output;
    std::int64_t m_rcvNxt = 0;
    std::map<std::int64_t, std::int64_t> m_ooo; // out-of-order ranges [start, end)
    std::uint64_t m_oooBytes = 0;
    std::uint64_t m_unread = 0;
    std::int64_t m_lastOooStart = -1;            // block holding the latest arrival
    std::uint32_t m_pendingSegments = 0;
    std::int64_t m_echoNs = -1;
    std::uint64_t m_rightEdge = 0;               // bytes: rcv_nxt + window last advertised
    bool m_frozen = false;
    bool m_readerBusy = false;
    std::uint32_t m_ringQueued = 0;
    Fifo<Packet> m_ring;         // segments in the receive ring, oldest first
    std::int64_t m_cpuFreeNs = 0;      // receive-path processing booked until then
    std::int64_t m_readDoneNs = 0;     // the reader's current read ends then
    std::uint64_t m_ids = 0;
    Timer m_delAck;
    ReceiverCounters m_counters;
};

} // namespace windscope::analysis::replay
