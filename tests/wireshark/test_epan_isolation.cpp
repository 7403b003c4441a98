// SPDX-License-Identifier: GPL-3.0-or-later
// libwireshark's isolation (docs/wireshark.md, "Isolation"): a Lua script planted in
// every folder Wireshark 4.0 reads for the user never runs in windscope-cli, while
// plain tshark under the same user and environment runs each of them (the control that
// lets these tests fail). Root would prove nothing for the global overrides (Wireshark
// ignores them under special privileges), so as root the programs run as nobody.

#include "dissectors/wireshark/epan_session.h"
#include "test_support.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <spawn.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

extern char** environ;

namespace windscope::test {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A scratch folder any user can enter, removed afterwards.
struct Scratch
{
    fs::path root;
    Scratch()
    {
        std::string pattern = (fs::temp_directory_path() / "windscope-isolation-XXXXXX").string();
        root = ::mkdtemp(pattern.data());
        fs::permissions(root, fs::perms::all, fs::perm_options::replace);
    }
    ~Scratch()
    {
        std::error_code ignored;
        fs::remove_all(root, ignored);
    }
};

// A user without special privileges, a HOME it owns and a marker folder it can write,
// with a Lua script planted in every folder `tshark -G folders` lists for it. Each
// script writes a marker file and adds a tree item from a postdissector.
class PlantedUser
{
public:
    Scratch scratch;
    fs::path home = scratch.root / "home";
    fs::path markers = scratch.root / "markers";
    std::map<std::string, std::string> extraEnv; // e.g. WIRESHARK_PLUGIN_DIR
    std::set<std::string> planted;               // marker names

    PlantedUser()
    {
        fs::create_directories(home);
        fs::create_directories(markers);
        fs::permissions(markers, fs::perms::all, fs::perm_options::replace);
    }

    std::string prefix() const
    {
        // Wireshark treats uid 0 as privileged (privileges.c started_with_special_privs).
        return ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
    }

    // env -i: only what the test sets reaches the program.
    std::string run(const std::string& program, const std::string& args,
                    const std::string& tmpdir, int* status, std::string* err = nullptr) const
    {
        std::string command = prefix() + "env -i PATH=/usr/bin:/bin HOME='" + home.string() + "'";
        if (!tmpdir.empty())
            command += " TMPDIR='" + tmpdir + "'";
        for (const auto& [name, value] : extraEnv)
            command += " " + name + "='" + value + "'";
        const fs::path errFile = scratch.root / "stderr.txt";
        command += " " + program + " " + args + " 2>'" + errFile.string() + "'";
        std::string out = runCommand(command, status);
        if (err)
            *err = readText(errFile);
        return out;
    }

    std::map<std::string, std::string> folders() const
    {
        int status = 0;
        std::map<std::string, std::string> out;
        std::istringstream text(run(tsharkPath(), "-G folders", "", &status));
        for (std::string line; std::getline(text, line);) {
            const auto colon = line.find(':');
            const auto tab = line.find('\t');
            if (colon != std::string::npos && tab != std::string::npos)
                out[line.substr(0, colon)] = line.substr(tab + 1);
        }
        return out;
    }

    void plant(const fs::path& file, const std::string& tag)
    {
        fs::create_directories(file.parent_path());
        std::ofstream(file) << "local f = io.open('" << (markers / tag).string()
                            << "', 'w') if f then f:write('ran') f:close() end\n"
                            << "local p = Proto('planted_" << tag << "', 'Planted " << tag << "')\n"
                            << "function p.dissector(tvb, pinfo, tree) tree:add(p, 'PLANTED " << tag
                            << " RAN') end\n"
                            << "register_postdissector(p)\n";
        planted.insert(tag);
    }

    // Everything under the scratch folder belongs to the user the programs run as.
    void handOver() const
    {
        if (::geteuid() != 0)
            return;
        runCommand("chown -R 65534:65534 '" + home.string() + "' '" + markers.string() + "'");
        for (const auto& [name, value] : extraEnv)
            runCommand("chown -R 65534:65534 '" + value + "'");
    }

    std::set<std::string> ran() const
    {
        std::set<std::string> out;
        for (const auto& entry : fs::directory_iterator(markers))
            out.insert(entry.path().filename().string());
        return out;
    }
    void clearMarkers() const
    {
        for (const auto& entry : fs::directory_iterator(markers))
            fs::remove(entry.path());
    }
};

bool canRunUnprivileged()
{
    if (::geteuid() != 0)
        return true;
    int status = 0;
    runCommand("setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null", &status);
    return status == 0;
}

const std::string kCapture = testData("vlan-tcp.pcap").string();

#define WINDSCOPE_REQUIRE_UNPRIVILEGED()                                                         \
    do {                                                                                         \
        WINDSCOPE_REQUIRE_TSHARK();                                                              \
        if (!canRunUnprivileged())                                                               \
            GTEST_SKIP() << "needs setpriv to run as nobody (Wireshark runs no personal Lua "   \
                            "as a privileged user, so the test would prove nothing)";            \
    } while (0)

// Personal configuration (init.lua), personal Lua plugins and the versioned personal
// plugin folder below it: the folders a user can write without any override.
void plantPersonal(PlantedUser& user)
{
    const auto folders = user.folders();
    ASSERT_TRUE(folders.count("Personal configuration")) << "tshark -G folders changed format";
    ASSERT_TRUE(folders.count("Personal Lua Plugins"));
    ASSERT_TRUE(folders.count("Personal Plugins"));
    user.plant(fs::path(folders.at("Personal configuration")) / "init.lua", "personal_init");
    user.plant(fs::path(folders.at("Personal Lua Plugins")) / "personal_lua.lua", "personal_lua");
    user.plant(fs::path(folders.at("Personal Plugins")) / "personal_versioned.lua",
               "personal_versioned");
    user.handOver();
}

TEST(EpanIsolation, PlantedPersonalLuaNeverRunsButTsharkRunsIt)
{
    WINDSCOPE_REQUIRE_UNPRIVILEGED();
    PlantedUser user;
    plantPersonal(user);

    int status = -1;
    user.run(tsharkPath(), "-r '" + kCapture + "' -c 1", "", &status);
    EXPECT_EQ(user.ran(), user.planted) << "control: tshark as this user must run every script";
    user.clearMarkers();

    std::string err;
    const std::string tree = user.run(cliPath(), "packet '" + kCapture + "' 1", "", &status, &err);
    EXPECT_EQ(status, 0) << err;
    EXPECT_NE(tree.find("Transmission Control Protocol"), std::string::npos) << tree;
    EXPECT_EQ(tree.find("PLANTED"), std::string::npos) << tree;
    EXPECT_TRUE(user.ran().empty()) << "a planted script ran in windscope-cli";
    // --user-profile reads preferences and keys, never the profile's init.lua.
    user.run(cliPath(), "packet '" + kCapture + "' 1 --user-profile", "", &status, &err);
    EXPECT_EQ(status, 3) << err;
    EXPECT_NE(err.find("init.lua"), std::string::npos) << err;
    EXPECT_TRUE(user.ran().empty());
}

// The global plugin and data folders are the system's (root-owned, not writable by the
// test); WIRESHARK_PLUGIN_DIR and WIRESHARK_DATA_DIR move them for an unprivileged user,
// and the epan path is refused rather than run what they hold.
TEST(EpanIsolation, GlobalFolderOverridesAreRefusedButTsharkRunsThem)
{
    WINDSCOPE_REQUIRE_UNPRIVILEGED();
    PlantedUser user;
    const fs::path globalPlugins = user.scratch.root / "global-plugins";
    const fs::path globalData = user.scratch.root / "global-data";
    user.plant(globalPlugins / "global_lua.lua", "global_lua");
    user.plant(globalPlugins / "4.0" / "global_versioned.lua", "global_versioned");
    user.plant(globalData / "init.lua", "global_init");
    user.extraEnv = {{"WIRESHARK_PLUGIN_DIR", globalPlugins.string()},
                     {"WIRESHARK_DATA_DIR", globalData.string()}};
    const auto folders = user.folders();
    EXPECT_EQ(folders.at("Global Lua Plugins"), globalPlugins.string());
    EXPECT_EQ(folders.at("Global configuration"), globalData.string());
    plantPersonal(user);

    int status = -1;
    user.run(tsharkPath(), "-r '" + kCapture + "' -c 1", "", &status);
    EXPECT_EQ(user.ran(), user.planted) << "control: tshark must run every script";
    user.clearMarkers();

    std::string err;
    const std::string tree = user.run(cliPath(), "packet '" + kCapture + "' 1", "", &status, &err);
    EXPECT_EQ(status, 3) << err;
    EXPECT_NE(err.find("WIRESHARK_"), std::string::npos) << err;
    EXPECT_TRUE(tree.empty());
    EXPECT_TRUE(user.ran().empty());
}

// A TMPDIR where no private folder can be made: a clear refusal (exit 3) naming it,
// never an abort and never a silent load of the user's folders; commands without
// Wireshark are not affected.
TEST(EpanIsolation, UnusableTmpdirRefusesTheEpanPath)
{
    WINDSCOPE_REQUIRE_UNPRIVILEGED();
    PlantedUser user;
    plantPersonal(user);
    for (const std::string tmpdir : {"/proc", "/nonexistent"}) {
        SCOPED_TRACE(tmpdir);
        int status = -1;
        std::string err;
        const std::string tree =
            user.run(cliPath(), "packet '" + kCapture + "' 1", tmpdir, &status, &err);
        EXPECT_EQ(status, 3) << err;
        EXPECT_NE(err.find("TMPDIR"), std::string::npos) << err;
        EXPECT_NE(err.find(tmpdir), std::string::npos) << err;
        EXPECT_NE(err.find("refused"), std::string::npos) << err;
        EXPECT_TRUE(tree.empty());
        user.run(cliPath(), "analyze '" + kCapture + "' --key 'password:ssid' --json", tmpdir,
                 &status, &err);
        EXPECT_EQ(status, 3) << err;
        EXPECT_TRUE(user.ran().empty());
        user.run(cliPath(), "analyze '" + kCapture + "' --json", tmpdir, &status, &err);
        EXPECT_EQ(status, 0) << err;
    }
}

// The environment is not changed after start-up: a child started once libwireshark is
// up (as Open in Wireshark starts wireshark, from environ) gets exactly the environment
// this process was started with (/proc/self/environ keeps the original block).
TEST(EpanIsolation, ChildProcessesGetTheOriginalEnvironment)
{
    std::string error;
    auto session = dissect::wireshark::EpanSession::open(kCapture, {}, error);
    ASSERT_TRUE(session) << error;

    std::set<std::string> original;
    {
        std::ifstream in("/proc/self/environ", std::ios::binary);
        for (std::string entry; std::getline(in, entry, '\0');)
            if (!entry.empty())
                original.insert(entry);
    }
    Scratch scratch;
    const fs::path out = scratch.root / "env.txt";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char envProgram[] = "env";
    char nulFlag[] = "-0";
    char* argv[] = {envProgram, nulFlag, nullptr};
    pid_t pid = 0;
    ASSERT_EQ(posix_spawnp(&pid, "env", &actions, nullptr, argv, environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::set<std::string> child;
    {
        std::ifstream in(out, std::ios::binary);
        for (std::string entry; std::getline(in, entry, '\0');)
            if (!entry.empty())
                child.insert(entry);
    }
    EXPECT_EQ(child, original);
    for (const std::string& entry : child) {
        if (entry.rfind("WIRESHARK_", 0) == 0) {
            EXPECT_TRUE(original.count(entry)) << entry << " was set by the process";
        }
    }
}

} // namespace
} // namespace windscope::test
