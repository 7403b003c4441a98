// SPDX-License-Identifier: GPL-3.0-or-later
#include "packet_index.h"

#include "analysis/cwnd/cwnd_inference.h"

#include <algorithm>

namespace windscope::analysis::store {

PacketIndex::PacketIndex(const pipeline::CapturePipeline& pipeline)
    : m_events(pipeline.events().events), m_firstEpochNs(pipeline.tables().summary.firstEpochNs)
{
    const pipeline::AnalysisBundle& results = pipeline.products();
    const dissect::TcpColumns& tcp = results.tables.tcp;
    const SegmentColumns& segments = results.tcp.segments;
    m_marks.resize(tcp.size());
    for (std::size_t row = 0; row < tcp.size(); ++row) {
        PacketMarks& m = m_marks[row];
        m.frame = tcp.frame[row];
        m.connection =
            static_cast<std::uint32_t>(results.tcp.connections[segments.connection[row]].id);
        m.flags = segments.flags[row];
    }
    for (std::size_t c = 0; c < results.tcp.connections.size(); ++c) {
        const Connection& connection = results.tcp.connections[c];
        if (connection.direction[0].dataBytes + connection.direction[1].dataBytes == 0)
            continue;
        const cwnd::CwndInference& inference = pipeline.cwndOf(c);
        if (inference.notFollowed != cwnd::NotFollowedReason::None)
            continue;
        for (const cwnd::CwndSample& sample : inference.series) {
            if (sample.row >= m_marks.size())
                continue;
            m_marks[sample.row].hasCwnd = true;
            m_marks[sample.row].cwndBytes = sample.cwndBytes;
            ++m_cwndSamples;
        }
    }
    // Rows are in capture order, so frames ascend; keep it explicit for the search.
    std::stable_sort(m_marks.begin(), m_marks.end(),
                     [](const PacketMarks& a, const PacketMarks& b) { return a.frame < b.frame; });
}

const PacketMarks* PacketIndex::tcpFrame(std::uint64_t frame) const
{
    auto it = std::lower_bound(m_marks.begin(), m_marks.end(), frame,
                               [](const PacketMarks& m, std::uint64_t f) { return m.frame < f; });
    return it != m_marks.end() && it->frame == frame ? &*it : nullptr;
}

std::vector<const WlanEvent*> PacketIndex::eventsAt(std::int64_t relativeNs) const
{
    std::vector<const WlanEvent*> out;
    for (const WlanEvent& e : m_events)
        if (e.startNs <= relativeNs && relativeNs <= e.endNs)
            out.push_back(&e);
    return out;
}

} // namespace windscope::analysis::store
