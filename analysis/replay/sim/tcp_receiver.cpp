// SPDX-License-Identifier: GPL-3.0-or-later
#include "tcp_receiver.h"

#include <algorithm>

namespace windscope::analysis::replay {

TcpReceiver::TcpReceiver(EventQueue& queue, const ReceiverParams& params, std::uint32_t mss, Output output)
    : m_queue(queue), m_params(params), m_mss(mss), m_output(std::move(output)),
      m_delAck(queue, [this] {
          if (m_pendingSegments > 0)
              sendAck();
      })
{
    m_rightEdge = params.bufferBytes;
}

std::uint64_t TcpReceiver::freeSpace() const
{
    const std::uint64_t used = m_unread + m_oooBytes;
    return used >= m_params.bufferBytes ? 0 : m_params.bufferBytes - used;
}

std::uint64_t TcpReceiver::advertisedWindow() const
{
    if (m_frozen)
        return 0;
    std::uint64_t window = freeSpace();
    // Receiver SWS avoidance (RFC 9293 3.8.6.2.2, Linux __tcp_select_window()).
    if (window < std::min<std::uint64_t>(m_mss, m_params.bufferBytes / 2))
        window = 0;
    // Never move the right edge left.
    const std::uint64_t nxtBytes = static_cast<std::uint64_t>(m_rcvNxt) * m_mss;
    if (m_rightEdge > nxtBytes)
        window = std::max(window, m_rightEdge - nxtBytes);
    return window;
}

void TcpReceiver::sendAck(bool windowUpdate)
{
    m_delAck.cancel();
    m_pendingSegments = 0;
    Packet a;
    a.kind = Packet::Kind::Ack;
    a.ackSegment = m_rcvNxt;
    a.windowBytes = advertisedWindow();
    a.echoNs = m_echoNs;
    a.id = ++m_ids;
    m_rightEdge = static_cast<std::uint64_t>(m_rcvNxt) * m_mss + a.windowBytes;
    // RFC 2018 4: the first block holds the most recently received segment.
    if (m_lastOooStart >= 0) {
        auto it = m_ooo.find(m_lastOooStart);
        if (it != m_ooo.end())
            a.sack[a.sackCount++] = {it->first, it->second};
    }
    for (auto it = m_ooo.rbegin(); it != m_ooo.rend() && a.sackCount < a.sack.size(); ++it)
        if (it->first != m_lastOooStart)
            a.sack[a.sackCount++] = {it->first, it->second};
    ++m_counters.acks;
    if (windowUpdate)
        ++m_counters.windowUpdates;
    if (a.windowBytes == 0)
        ++m_counters.zeroWindows;
    m_output(a);
}

void TcpReceiver::arrive(const Packet& p)
{
    if (m_params.rxRingPackets == 0 || p.kind != Packet::Kind::Data) {
        onPacket(p);
        return;
    }
    if (m_ringQueued >= m_params.rxRingPackets) {
        ++m_counters.ringDrops;
        return;
    }
    ++m_ringQueued;
    const std::int64_t cost = static_cast<std::int64_t>(m_params.rxPerPacketUs * 1000);
    m_cpuFreeNs = std::max(m_cpuFreeNs, m_queue.now()) + cost;
    // Interrupt and protocol work preempt the reader: its read ends later.
    if (m_readerBusy)
        m_readDoneNs += cost;
    // Processing ends in arrival order, so the event takes the ring's front packet.
    m_ring.push_back(p);
    m_queue.at(m_cpuFreeNs, [this] {
        --m_ringQueued;
        const Packet front = m_ring.front();
        m_ring.pop_front();
        onPacket(front);
    });
}

void TcpReceiver::onPacket(const Packet& p)
{
    if (p.kind == Packet::Kind::Probe) {
        sendAck();
        return;
    }
    if (p.kind != Packet::Kind::Data)
        return;
    const std::int64_t seg = p.segment;
    if (seg < m_rcvNxt) {
        // A duplicate: ACK at once (RFC 5681 4.2, and it may be a window probe).
        ++m_counters.duplicates;
        sendAck();
        return;
    }
    // Beyond the advertised right edge or no room in the buffer: dropped.
    const std::uint64_t endBytes = static_cast<std::uint64_t>(seg + 1) * m_mss;
    if (endBytes > std::max(m_rightEdge, static_cast<std::uint64_t>(m_rcvNxt) * m_mss + freeSpace()) ||
        freeSpace() < p.length) {
        ++m_counters.droppedOutOfWindow;
        sendAck();
        return;
    }
    if (seg == m_rcvNxt) {
        const bool hadHoles = !m_ooo.empty();
        // RFC 7323 4.3 (Linux tcp_store_ts_recent()): TS.Recent from an in-order segment
        // at or below the last ACK sent, so a delayed ACK echoes the earlier of the two
        // segments it acknowledges and a segment filling a hole its own.
        if (m_pendingSegments == 0)
            m_echoNs = p.sentNs;
        ++m_rcvNxt;
        m_unread += p.length;
        // Fill from the out-of-order queue.
        auto it = m_ooo.begin();
        while (it != m_ooo.end() && it->first <= m_rcvNxt) {
            if (it->second > m_rcvNxt) {
                const auto moved = static_cast<std::uint64_t>(it->second - m_rcvNxt) * m_mss;
                m_unread += moved;
                m_oooBytes -= moved;
                m_rcvNxt = it->second;
            }
            it = m_ooo.erase(it);
        }
        if (m_ooo.find(m_lastOooStart) == m_ooo.end())
            m_lastOooStart = -1;
        scheduleRead();
        if (hadHoles) {
            sendAck(); // RFC 5681 4.2: a segment that fills a gap is ACKed at once
            return;
        }
        ++m_pendingSegments;
        if (m_pendingSegments >= m_params.delayedAckSegments)
            sendAck();
        else if (!m_delAck.armed())
            m_delAck.arm(static_cast<std::int64_t>(m_params.delayedAckMs * 1e6));
        return;
    }
    // Out of order: keep it, ACK at once with SACK blocks.
    auto next = m_ooo.upper_bound(seg);
    if (next != m_ooo.begin()) {
        auto prev = std::prev(next);
        if (seg < prev->second) {
            ++m_counters.duplicates;
            m_lastOooStart = prev->first;
            sendAck();
            return;
        }
    }
    std::int64_t start = seg, end = seg + 1;
    if (next != m_ooo.end() && next->first == end) {
        end = next->second;
        next = m_ooo.erase(next);
    }
    if (next != m_ooo.begin()) {
        auto prev = std::prev(next);
        if (prev->second == start) {
            start = prev->first;
            m_ooo.erase(prev);
        }
    }
    m_ooo[start] = end;
    m_oooBytes += p.length;
    m_lastOooStart = start;
    sendAck();
}

void TcpReceiver::scheduleRead()
{
    if (m_params.appReadBytes == 0) {
        // An application that keeps up: everything is read as it arrives.
        m_counters.bytesRead += m_unread;
        m_unread = 0;
        m_counters.lastReadNs = m_queue.now();
        return;
    }
    if (!m_readerBusy && m_unread > 0)
        read();
}

void TcpReceiver::read()
{
    const std::uint64_t remainingBefore =
        m_rightEdge > static_cast<std::uint64_t>(m_rcvNxt) * m_mss ? m_rightEdge - static_cast<std::uint64_t>(m_rcvNxt) * m_mss
                                                                  : 0;
    const std::uint64_t k = std::min(m_unread, m_params.appReadBytes);
    m_unread -= k;
    m_counters.bytesRead += k;
    m_counters.lastReadNs = m_queue.now();
    // Linux tcp_cleanup_rbuf(): after a read, ACK if the window can at least double.
    if (!m_frozen && 2 * remainingBefore <= m_params.bufferBytes) {
        std::uint64_t window = freeSpace();
        if (window < std::min<std::uint64_t>(m_mss, m_params.bufferBytes / 2))
            window = 0;
        if (window > 0 && window >= 2 * remainingBefore)
            sendAck(true);
    }
    m_readerBusy = true;
    const auto busyNs =
        static_cast<std::int64_t>((m_params.readFixedUs + static_cast<double>(k) * m_params.readPerByteUs) * 1000);
    m_readDoneNs = m_queue.now() + std::max<std::int64_t>(busyNs, 1);
    m_queue.at(m_readDoneNs, [this] { readerWake(); });
}

void TcpReceiver::readerWake()
{
    if (m_queue.now() < m_readDoneNs) {
        // Receive processing stretched the read: wake again at its new end.
        m_queue.at(m_readDoneNs, [this] { readerWake(); });
        return;
    }
    m_readerBusy = false;
    if (m_unread > 0)
        read();
}

void TcpReceiver::freeze(bool frozen)
{
    m_frozen = frozen;
    if (frozen) {
        m_rightEdge = static_cast<std::uint64_t>(m_rcvNxt) * m_mss; // a deliberate zero window
        sendAck();
        return;
    }
    for (int i = 0; i < 3; ++i)
        sendAck(true);
}

} // namespace windscope::analysis::replay
