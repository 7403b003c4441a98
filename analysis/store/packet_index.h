// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Per-packet view of a capture's analysis, for tools that walk the capture frame by frame
// (the Wireshark plugin's windscope.* fields): the connection a TCP segment belongs to,
// its classification flags, the sender's estimated congestion window, and the 802.11
// events around a time. Built once from a capture's pipeline (usually on the results a
// project caches, its cwnd among them).

#include "analysis/pipeline/capture_pipeline.h"

#include <cstdint>
#include <vector>

namespace windscope::analysis::store {

struct PacketMarks
{
    std::uint64_t frame = 0;
    std::uint32_t connection = 0; // Connection::id
    std::uint32_t flags = 0;      // segment_flag bits
    bool hasCwnd = false;         // a data segment of the connection's sender
    std::uint64_t cwndBytes = 0;  // the inferred model's cwnd after this segment
};

class PacketIndex
{
public:
    // The cwnd of every connection with data from the pipeline (the model chosen by fit).
    explicit PacketIndex(const pipeline::CapturePipeline& pipeline);

    // The TCP segment carried by frame (1-based), or nullptr.
    const PacketMarks* tcpFrame(std::uint64_t frame) const;
    // Events whose time span holds the capture-relative time, in start order.
    std::vector<const WlanEvent*> eventsAt(std::int64_t relativeNs) const;
    std::int64_t firstEpochNs() const { return m_firstEpochNs; }
    std::uint64_t cwndSamples() const { return m_cwndSamples; }

private:
    std::vector<PacketMarks> m_marks; // in frame order
    std::vector<WlanEvent> m_events;
    std::int64_t m_firstEpochNs = 0;
    std::uint64_t m_cwndSamples = 0;
};

} // namespace windscope::analysis::store
