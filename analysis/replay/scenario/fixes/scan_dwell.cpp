// SPDX-License-Identifier: GPL-3.0-or-later
// scan-dwell=MS: how long each background scan keeps the station off channel (paper
// 004 and the lab: 10 ms). Applies to the periodic pattern and to listed scans.
#include "fixes.h"

namespace windscope::analysis::replay::fixes {

std::unique_ptr<Fix> makeScanDwell(std::string_view value, std::string& error)
{
    double ms = 0;
    if (!parseNumber("scan-dwell", value, true, ms, error))
        return nullptr;
    return parameterFix("scan-dwell", [ms](Scenario& s, std::string&) {
        // A scan loses a frame when the frame's retry chain is over before the station
        // is back: the scans' losses scale with that chance.
        const double before = retryChainEndsWithin(s.mac, s.periodicScan.dwellMs);
        if (before > 0)
            s.scaleScanLoss(retryChainEndsWithin(s.mac, ms) / before);
        s.periodicScan.dwellMs = ms;
        for (Outage& o : s.outageList)
            if (o.kind == OutageKind::Scan)
                o.durationS = ms / 1000;
        return true;
    });
}

} // namespace windscope::analysis::replay::fixes
