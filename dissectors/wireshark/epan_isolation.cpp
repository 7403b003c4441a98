// SPDX-License-Identifier: GPL-3.0-or-later
// The start-up half of libwireshark's isolation (epan_isolation.h says what and why).

#include "epan_isolation.h"

#include <glib.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace windscope::dissect::wireshark {

namespace {

std::string g_madeDir;
pid_t g_madeBy = 0;

void removePrivateDir()
{
    // A forked child that exits through exit() must not remove its parent's folder.
    if (g_madeDir.empty() || ::getpid() != g_madeBy)
        return;
    std::error_code ignored;
    std::filesystem::remove_all(g_madeDir, ignored);
}

std::string realHome(const char* homeVariable)
{
    if (homeVariable && *homeVariable)
        return homeVariable;
    const passwd* entry = ::getpwuid(::geteuid());
    return entry && entry->pw_dir ? entry->pw_dir : "/";
}

// The folder Wireshark 4.0 reads the personal profile from (wsutil filesystem.c,
// get_persconffile_dir_no_profile): the environment override, the legacy ~/.wireshark
// when it exists, else the XDG configuration folder.
std::string userConfigDir(const std::string& home)
{
    if (const char* dir = std::getenv("WIRESHARK_CONFIG_DIR"); dir && *dir)
        return dir;
    std::error_code ignored;
    if (std::filesystem::is_directory(home + "/.wireshark", ignored))
        return home + "/.wireshark";
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    return (xdg && *xdg ? std::string(xdg) : home + "/.config") + "/wireshark";
}

EpanIsolation prepare()
{
    EpanIsolation out;
    const char* homeVariable = std::getenv("HOME");
    const std::string originalHome = homeVariable ? homeVariable : "";
    out.userConfigDir = userConfigDir(realHome(homeVariable));

    const char* tmpdir = std::getenv("TMPDIR");
    const bool fromEnvironment = tmpdir && *tmpdir;
    const std::string base = fromEnvironment ? tmpdir : "/tmp";
    const std::string where = base + (fromEnvironment ? " (TMPDIR)" : "");
    std::string pattern = base + "/windscope-epan-XXXXXX";
    if (!::mkdtemp(pattern.data())) {
        out.error = "cannot make a private folder for libwireshark in " + where + ": " +
                    std::strerror(errno);
        return out;
    }
    g_madeDir = pattern;
    g_madeBy = ::getpid();
    std::atexit(removePrivateDir);
    // mkdtemp makes it 0700; a folder that is not ours and private could be filled by
    // someone else before libwireshark looks into it.
    struct stat made{};
    if (::lstat(pattern.c_str(), &made) != 0 || !S_ISDIR(made.st_mode) ||
        made.st_uid != ::geteuid() || (made.st_mode & 077) != 0) {
        out.error = "the private folder made in " + where + " (" + pattern +
                    ") is not a folder only this user can write";
        return out;
    }

    // glib takes HOME once, on the first g_get_home_dir() call, and keeps the answer
    // for the process (glib gutils.c). Before main() nothing has asked yet.
    ::setenv("HOME", pattern.c_str(), 1);
    const gchar* glibHome = g_get_home_dir();
    if (homeVariable)
        ::setenv("HOME", originalHome.c_str(), 1);
    else
        ::unsetenv("HOME");
    if (!glibHome || pattern != glibHome) {
        out.error = std::string("glib had already resolved the home folder (") +
                    (glibHome ? glibHome : "none") +
                    ") before libwireshark could be isolated from it";
        return out;
    }
    out.privateDir = pattern;
    return out;
}

// Before main(), so before any thread: setenv is not thread-safe. Never destroyed: a
// packet-detail thread still starting libwireshark when the program exits is left
// running (it cannot be interrupted), and reads this while exit runs the destructors.
const EpanIsolation& g_isolation = *new EpanIsolation(prepare());

} // namespace

const EpanIsolation& epanIsolation()
{
    return g_isolation;
}

} // namespace windscope::dissect::wireshark
