// SPDX-License-Identifier: GPL-3.0-or-later
// scan-interval=MS: background scans every MS (paper 004: 100/200/300 ms). Scans the
// scenario lists one by one (a derived timeline) become one periodic pattern with
// their median dwell, starting at the first of them. 0 turns scanning off.
#include "fixes.h"

#include <algorithm>

namespace windscope::analysis::replay::fixes {

std::unique_ptr<Fix> makeScanInterval(std::string_view value, std::string& error)
{
    double ms = 0;
    if (!parseNumber("scan-interval", value, true, ms, error))
        return nullptr;
    return parameterFix("scan-interval", [ms](Scenario& s, std::string&) {
        std::vector<double> dwells;
        double first = -1;
        OutageMode mode = s.periodicScan.mode;
        std::vector<Outage> kept;
        for (const Outage& o : s.outageList) {
            if (o.kind == OutageKind::Scan) {
                dwells.push_back(o.durationS * 1000);
                first = first < 0 ? o.startS : std::min(first, o.startS);
                mode = o.mode;
            } else {
                kept.push_back(o);
            }
        }
        if (!dwells.empty()) {
            std::nth_element(dwells.begin(), dwells.begin() + static_cast<std::ptrdiff_t>(dwells.size() / 2),
                             dwells.end());
            s.periodicScan.dwellMs = dwells[dwells.size() / 2];
            s.periodicScan.firstS = first;
            s.periodicScan.mode = mode;
            s.outageList = kept;
        }
        // The scans' losses come as often as the scans.
        if (s.periodicScan.intervalMs > 0)
            s.scaleScanLoss(ms > 0 ? s.periodicScan.intervalMs / ms : 0);
        s.periodicScan.intervalMs = ms;
        return true;
    });
}

} // namespace windscope::analysis::replay::fixes
