// SPDX-License-Identifier: GPL-3.0-or-later
// scan-aware-ap: once a station announces power save for a scan, the AP also holds the
// frames already handed to its radio instead of sending them to the absent station
// (paper 004's diagnosis; the lab's A-scan-*-fix). Scans and power-save periods become
// "hold"; handoffs are unannounced and stay as they are.
#include "fixes.h"

namespace windscope::analysis::replay::fixes {

std::unique_ptr<Fix> makeScanAwareAp(std::string_view value, std::string& error)
{
    if (!requireNoValue("scan-aware-ap", value, error))
        return nullptr;
    return parameterFix("scan-aware-ap", [](Scenario& s, std::string&) {
        for (Outage& o : s.outageList)
            if (o.kind != OutageKind::Handoff)
                o.mode = OutageMode::Hold;
        s.periodicScan.mode = OutageMode::Hold;
        // Nothing is sent into an absence, so the scans' own losses go.
        s.scaleScanLoss(0);
        return true;
    });
}

} // namespace windscope::analysis::replay::fixes
