// SPDX-License-Identifier: GPL-3.0-or-later
#include "mac_duplicate_filter.h"

namespace windscope::dissect {

bool MacDuplicateFilter::isDuplicate(std::uint32_t transmitter, std::uint32_t receiver,
                                     std::uint8_t tid,
                                     std::uint16_t sequence, std::uint8_t fragment, bool retry,
                                     std::int64_t timeNs)
{
    const Key key{transmitter, receiver, tid};
    const std::uint16_t sequenceControl = static_cast<std::uint16_t>(sequence << 4 | fragment);
    History& history = m_history[key];
    if (retry) {
        for (const Entry& e : history.entries)
            if (e.sequenceControl == sequenceControl && timeNs - e.timeNs <= kMaxAgeNs &&
                timeNs >= e.timeNs)
                return true;
    }
    history.entries[history.next] = {sequenceControl, timeNs};
    history.next = (history.next + 1) % kWindow;
    return false;
}

} // namespace windscope::dissect
