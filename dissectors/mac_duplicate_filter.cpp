// SPDX-License-Identifier: GPL-3.0-or-later
#include "mac_duplicate_filter.h"

namespace windscope::dissect {

MacDuplicateFilter::History& MacDuplicateFilter::historyOf(const Key& key)
{
    Recent& recent = m_recent[(KeyHash{}(key) * 0x9e3779b97f4a7c15ull) >> 58];
    if (recent.history && recent.key == key)
        return *recent.history;
    History& history = m_history[key];
    recent = {key, &history};
    return history;
}

bool MacDuplicateFilter::isDuplicate(std::uint32_t transmitter, std::uint32_t receiver,
                                     std::uint8_t tid,
                                     std::uint16_t sequence, std::uint8_t fragment, bool retry,
                                     std::int64_t timeNs)
{
    const Key key{transmitter, receiver, tid};
    const std::uint16_t sequenceControl = static_cast<std::uint16_t>(sequence << 4 | fragment);
    History& history = historyOf(key);
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
