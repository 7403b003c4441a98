// SPDX-License-Identifier: GPL-3.0-or-later
// max-window=BYTES: send and receive buffers of BYTES, so neither side lets more than
// BYTES be outstanding (paper 002: 16 KB leaves a 190 ms path idle, 2 MB fills it).
#include "fixes.h"

namespace windscope::analysis::replay::fixes {

std::unique_ptr<Fix> makeMaxWindow(std::string_view value, std::string& error)
{
    double bytes = 0;
    if (!parseNumber("max-window", value, false, bytes, error))
        return nullptr;
    return parameterFix("max-window", [bytes](Scenario& s, std::string& err) {
        if (bytes < s.sender.mss) {
            err = "fix max-window must allow at least one segment";
            return false;
        }
        s.sender.maxWindowBytes = static_cast<std::uint64_t>(bytes);
        s.receiver.bufferBytes = static_cast<std::uint64_t>(bytes);
        return true;
    });
}

} // namespace windscope::analysis::replay::fixes
