// SPDX-License-Identifier: GPL-3.0-or-later
// tx-inter-packet-delay=MS: the sender leaves at least MS between data segments (paper
// 000: 5 ms cut the receive time of a slow receiver ~7%; 1-10 ms useful). 0 removes
// pacing.
#include "fixes.h"

namespace windscope::analysis::replay::fixes {

std::unique_ptr<Fix> makeTxInterPacketDelay(std::string_view value, std::string& error)
{
    double ms = 0;
    if (!parseNumber("tx-inter-packet-delay", value, true, ms, error))
        return nullptr;
    return parameterFix("tx-inter-packet-delay", [ms](Scenario& s, std::string&) {
        s.sender.paceMs = ms;
        return true;
    });
}

} // namespace windscope::analysis::replay::fixes
