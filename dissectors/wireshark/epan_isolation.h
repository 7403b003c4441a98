// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What keeps the user's and the system's Wireshark code out of the embedded
// libwireshark (docs/wireshark.md, "Isolation"). Wireshark 4.0 has no switch that turns
// Lua off: epan_init runs wslua_init, which loads every *.lua under the personal plugin
// folder (~/.local/lib/wireshark/plugins, from glib's g_get_home_dir(), wsutil
// filesystem.c init_plugin_pers_dir) and the personal configuration's init.lua. So:
//
// - before main() (a static initialiser here, so every program linking EpanSession gets
//   it before any thread starts), a private folder is made (0700, under TMPDIR) and glib
//   is made to resolve its home folder to it once: HOME is pointed there, g_get_home_dir()
//   caches the answer, and HOME is put back. The process environment is the same as
//   before afterwards, so child processes (Open in Wireshark) inherit the user's own.
// - the module sets the personal configuration folder through the API
//   (set_persconffile_dir), loads no binary plugins (epan_init/wtap_init FALSE), and
//   refuses to initialise when anything it cannot redirect could bring code in
//   (epan_backend.cpp, checkIsolation).
//
// Nothing here includes a Wireshark header.

#include <string>

namespace windscope::dissect::wireshark {

struct EpanIsolation
{
    // The private folder glib now takes for home; "" when it could not be set up.
    std::string privateDir;
    // Why isolation could not be set up ("" when it was); the epan path is then refused.
    std::string error;
    // The user's own personal Wireshark configuration folder, for --user-profile
    // (preferences and keys only): WIRESHARK_CONFIG_DIR, ~/.wireshark when it exists,
    // else $XDG_CONFIG_HOME/wireshark or ~/.config/wireshark, with the real home.
    std::string userConfigDir;
};

// Prepared once, before main(); never changes afterwards.
const EpanIsolation& epanIsolation();

} // namespace windscope::dissect::wireshark
