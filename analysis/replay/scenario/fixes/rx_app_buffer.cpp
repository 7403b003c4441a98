// SPDX-License-Identifier: GPL-3.0-or-later
// rx-app-buffer=BYTES: the receiving application's read size (paper 000: a PDA reading
// 512 B per call drains its socket too slowly; 32 KB per call cut the receive time
// ~32%). Each read still costs the reader its fixed and per-byte time.
#include "fixes.h"

namespace windscope::analysis::replay::fixes {

std::unique_ptr<Fix> makeRxAppBuffer(std::string_view value, std::string& error)
{
    double bytes = 0;
    if (!parseNumber("rx-app-buffer", value, false, bytes, error))
        return nullptr;
    if (bytes < 1) {
        error = "fix rx-app-buffer needs at least 1 byte";
        return nullptr;
    }
    return parameterFix("rx-app-buffer", [bytes](Scenario& s, std::string&) {
        s.receiver.appReadBytes = static_cast<std::uint64_t>(bytes);
        return true;
    });
}

} // namespace windscope::analysis::replay::fixes
