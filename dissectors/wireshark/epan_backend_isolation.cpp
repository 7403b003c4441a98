// SPDX-License-Identifier: GPL-3.0-or-later
// The module half of libwireshark's isolation (epan_isolation.h): what epan_init would
// run that the private folder does not already exclude.

#include "epan_backend_isolation.h"

#include <wsutil/filesystem.h>
#include <wsutil/privileges.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

namespace windscope::dissect::wireshark {

namespace {

// Every *.lua file under folder (wslua loads plugin folders recursively); "" if none.
std::string firstLuaFile(const char* folder)
{
    std::error_code ec;
    if (!folder || !std::filesystem::exists(folder, ec))
        return {};
    for (auto it = std::filesystem::recursive_directory_iterator(
             folder, std::filesystem::directory_options::skip_permission_denied, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        if (it->path().extension() == ".lua")
            return it->path().string();
    return {};
}

bool insideFolder(const std::string& path, const std::string& folder)
{
    return path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 &&
           path[folder.size()] == '/';
}

} // namespace

// What epan_init would run that the private folder does not already exclude: the
// checks come after configuration_init (folders are known) and before epan_init
// (wslua_init runs the scripts). Returns "" when nothing can run, else why not isolated.
std::string checkIsolation(const EpanIsolation& isolation)
{
    // The personal plugin folder comes from glib's home (epan_isolation.cpp).
    const char* personal = get_plugins_pers_dir();
    if (!personal || !insideFolder(personal, isolation.privateDir))
        return std::string("the personal plugin folder is ") + (personal ? personal : "unknown") +
               ", not inside the private folder " + isolation.privateDir;
    // Wireshark honours these only without special privileges (wsutil filesystem.c);
    // they would point the global plugin and data folders (with its init.lua) at
    // folders the user controls, and the process environment is not changed after
    // start-up, so they cannot be undone here.
    if (!started_with_special_privs())
        for (const char* variable :
             {"WIRESHARK_PLUGIN_DIR", "WIRESHARK_DATA_DIR", "WIRESHARK_RUN_FROM_BUILD_DIRECTORY"})
            if (const char* value = std::getenv(variable))
                return std::string(variable) + "=" + value +
                       " is set; it would load Wireshark code from a folder the user controls "
                       "(unset it for Windscope)";
    // The global Lua plugin folder cannot be redirected for every user: refuse if it
    // holds a script rather than run it.
    if (const std::string script = firstLuaFile(get_plugins_dir()); !script.empty())
        return "the global Wireshark plugin folder holds the Lua script " + script;
    // The global init.lua (wslua_init runs it first) is the installation's own file:
    // accepted only when only the administrator can have changed it.
    const std::string globalInit = std::string(get_datafile_dir()) + "/init.lua";
    struct stat info{};
    if (::stat(globalInit.c_str(), &info) == 0 &&
        (info.st_uid != 0 || (info.st_mode & (S_IWGRP | S_IWOTH)) != 0))
        return globalInit + " can be changed by users other than root";
    return {};
}

} // namespace windscope::dissect::wireshark
