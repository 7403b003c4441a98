// SPDX-License-Identifier: GPL-3.0-or-later
// cc=NAME: the sender's congestion control (paper 002 compares Reno, Veno, Westwood+
// and CUBIC on a long-RTT path with a lossy wireless edge).
#include "fixes.h"

#include "analysis/sender/congestion_model.h"

namespace windscope::analysis::replay::fixes {

std::unique_ptr<Fix> makeCc(std::string_view value, std::string& error)
{
    if (!cwnd::makeCongestionModel(value)) {
        error = "fix cc: unknown congestion control '" + std::string(value) + "' (" +
                cwnd::congestionModelNameList(", ") + ")";
        return nullptr;
    }
    return parameterFix("cc", [name = std::string(value)](Scenario& s, std::string&) {
        s.sender.cc = name;
        return true;
    });
}

} // namespace windscope::analysis::replay::fixes
