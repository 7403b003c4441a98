// SPDX-License-Identifier: GPL-3.0-or-later
// ampdu-max=N: A-MPDU aggregation of up to N MPDUs per PPDU with a Block Ack (paper 003:
// 1-8 MPDUs; +65% TCP throughput on one hop at 4). N = 1 disables aggregation.
#include "fixes.h"

namespace windscope::analysis::replay::fixes {

std::unique_ptr<Fix> makeAmpduMax(std::string_view value, std::string& error)
{
    double n = 0;
    if (!parseNumber("ampdu-max", value, false, n, error))
        return nullptr;
    if (n < 1 || n > 256) {
        error = "fix ampdu-max needs N within 1..256";
        return nullptr;
    }
    return parameterFix("ampdu-max", [n](Scenario& s, std::string& err) {
        if (!s.mac.enabled) {
            err = "fix ampdu-max needs a scenario with the 802.11 MAC model (mac.enabled)";
            return false;
        }
        s.mac.ampduMax = static_cast<std::uint32_t>(n);
        return true;
    });
}

} // namespace windscope::analysis::replay::fixes
