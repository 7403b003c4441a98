// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Inside the libwireshark module only (it calls wsutil): the checks that decide whether
// libwireshark may be started (docs/wireshark.md, "Isolation").

#include "epan_isolation.h"

#include <string>

namespace windscope::dissect::wireshark {

// Call after configuration_init and set_persconffile_dir, before epan_init. Returns ""
// when no plugin or Lua script from the user's or the system's folders can run, else why.
std::string checkIsolation(const EpanIsolation& isolation);

} // namespace windscope::dissect::wireshark
