// SPDX-License-Identifier: GPL-3.0-or-later
// The Wireshark plugin, loaded by tshark from a scratch personal plugin folder: the
// windscope.* fields filter packets on a lab capture, and agree with the project's cache.

#include "analysis/store/packet_index.h"
#include "analysis/store/project_store.h"
#include "store/store_test_kit.h"
#include "test_support.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace windscope::test {
namespace {

namespace store = analysis::store;

#ifdef WINDSCOPE_WIRESHARK_PLUGIN_PATH

// In a sanitized build the plugin is instrumented: tshark (not instrumented) runs with the
// sanitizer runtime preloaded, so the plugin's code runs checked inside it; reports go to
// files in the scratch folder, which the test then fails on. Leaks are not checked there:
// the project decoder's text pool lives for the process by design (result structs point
// into it) and becomes unreachable when tshark unloads the plugin before exiting; the same
// code is leak-checked in the store tests, in process.
std::string sanitizerPreload([[maybe_unused]] const std::filesystem::path& reports)
{
#ifdef WINDSCOPE_SANITIZER_RUNTIME
    auto options = [&](const char* variable, const char* extra) {
        const char* inherited = std::getenv(variable);
        return std::string(variable) + "='" + (inherited ? std::string(inherited) + ":" : "") +
               extra + "log_path=" + (reports / "sanitizer").string() + "' ";
    };
    return "LD_PRELOAD='" WINDSCOPE_SANITIZER_RUNTIME "' " +
           options("ASAN_OPTIONS", "detect_leaks=0:") + options("UBSAN_OPTIONS", "");
#else
    return {};
#endif
}

void expectNoSanitizerReport(const std::filesystem::path& reports, const std::string& args)
{
    for (const auto& entry : std::filesystem::directory_iterator(reports))
        if (entry.path().filename().string().rfind("sanitizer.", 0) == 0) {
            std::ifstream in(entry.path());
            ADD_FAILURE() << "tshark " << args << " with the plugin: " << in.rdbuf();
        }
}

struct PluginHome
{
    ScratchDir dir;
    PluginHome()
    {
        // tshark looks for personal plugins in $HOME/.local/lib/wireshark/plugins/4.0/epan.
        const auto folder = dir / ".local/lib/wireshark/plugins/4.0/epan";
        std::filesystem::create_directories(folder);
        std::filesystem::copy_file(WINDSCOPE_WIRESHARK_PLUGIN_PATH, folder / "windscope.so");
    }
    // Wireshark loads no personal plugins when started as root (started_with_special_privs
    // counts uid 0), so as root tshark runs as nobody, with the scratch folder readable.
    std::string tshark(const std::string& args, int* status = nullptr) const
    {
        std::string prefix;
        if (geteuid() == 0) {
            std::filesystem::permissions(dir.path(), std::filesystem::perms::all,
                                         std::filesystem::perm_options::replace);
            for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path()))
                std::filesystem::permissions(
                    entry.path(),
                    std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                        std::filesystem::perms::others_read | std::filesystem::perms::group_exec |
                        std::filesystem::perms::others_exec,
                    std::filesystem::perm_options::replace);
            prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
        }
        std::string out = runCommand(prefix + "env HOME='" + dir.path().string() + "' " +
                                         sanitizerPreload(dir.path()) + tsharkPath() + " " + args +
                                         " 2>/dev/null",
                                     status);
        expectNoSanitizerReport(dir.path(), args);
        return out;
    }
};

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(line);
    return out;
}

#if defined(WINDSCOPE_SANITIZED) && !defined(WINDSCOPE_SANITIZER_RUNTIME)
// An instrumented plugin needs the sanitizer runtime loaded before it, and this build found
// no shared runtime to preload into the distribution's tshark.
#define WINDSCOPE_SKIP_WHEN_SANITIZED()                                                            \
    GTEST_SKIP() << "the plugin is instrumented and no shared sanitizer runtime was found to "   \
                    "preload into tshark"
#else
#define WINDSCOPE_SKIP_WHEN_SANITIZED() (void)0
#endif

#define WINDSCOPE_REQUIRE_UNPRIVILEGED_TSHARK()                                                    \
    do {                                                                                           \
        WINDSCOPE_SKIP_WHEN_SANITIZED();                                                           \
        WINDSCOPE_REQUIRE_TSHARK();                                                                \
        if (geteuid() == 0 && std::system("command -v setpriv >/dev/null 2>&1") != 0)              \
            GTEST_SKIP() << "as root, needs setpriv (util-linux) to run tshark unprivileged: "     \
                            "Wireshark loads no personal plugins for root";                        \
    } while (0)

TEST(WiresharkPlugin, RegistersItsFields)
{
    WINDSCOPE_REQUIRE_UNPRIVILEGED_TSHARK();
    PluginHome home;
    const std::string fields = home.tshark("-G fields");
    for (const char* f : {"windscope.event", "windscope.event_id", "windscope.low_window",
                          "windscope.cwnd", "windscope.connection", "windscope.rto_timeout"})
        EXPECT_NE(fields.find(std::string("\t") + f + "\t"), std::string::npos) << f;
}

TEST(WiresharkPlugin, FiltersALabCaptureByWindscopeFields)
{
    WINDSCOPE_REQUIRE_UNPRIVILEGED_TSHARK();
    const auto capture = std::filesystem::canonical(labDir("linux/reno-scan100") / "ap-wlan.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    PluginHome home;
    const auto project = home.dir / "lab.wsproj";
    int status = -1;
    runCommand(cliPath() + " project create '" + project.string() + "' && " + cliPath() +
                   " project add '" + project.string() + "' '" + capture.string() + "'",
               &status);
    ASSERT_EQ(status, 0);

    // What the plugin should show, from the cache directly.
    std::string error;
    auto opened = store::ProjectStore::open(project.string(), error);
    ASSERT_TRUE(opened) << error;
    analysis::pipeline::AnalysisBundle cached;
    ASSERT_TRUE(opened->loadResults(1, cached, error)) << error;
    const analysis::pipeline::CapturePipeline pipeline(std::move(cached));
    const analysis::pipeline::AnalysisBundle& results = pipeline.products();
    const store::PacketIndex index(pipeline);
    std::set<std::uint64_t> scanIds;
    for (const analysis::WlanEvent& e : results.events.events)
        if (e.kind == analysis::WlanEventKind::Scan)
            scanIds.insert(e.id);
    ASSERT_FALSE(scanIds.empty());

    const std::string pref = "-o 'windscope.project:" + project.string() + "'";
    const std::vector<std::string> inScans = lines(home.tshark(
        "-r '" + capture.string() + "' " + pref +
            " -Y 'windscope.event == \"scan\"' -T fields -e frame.number -e frame.time_epoch "
            "-e windscope.event_id",
        &status));
    ASSERT_EQ(status, 0);
    ASSERT_FALSE(inScans.empty()) << "no packet matched windscope.event == \"scan\"";
    std::set<std::uint64_t> idsSeen;
    for (const std::string& row : inScans) {
        std::istringstream in(row);
        std::uint64_t frame = 0;
        std::string epoch, ids;
        in >> frame >> epoch >> ids;
        std::istringstream idList(ids);
        for (std::string id; std::getline(idList, id, ',');)
            idsSeen.insert(std::stoull(id));
    }
    for (std::uint64_t id : idsSeen)
        EXPECT_TRUE(scanIds.count(id)) << "event " << id << " is not a scan";
    EXPECT_GT(idsSeen.size(), scanIds.size() / 2) << "most scans hold at least one packet";

    // Field by field against the cache: low-window segments and cwnd samples.
    std::size_t lowWindows = 0;
    for (std::size_t row = 0; row < results.tables.tcp.size(); ++row)
        if (results.tcp.segments.flags[row] & analysis::segment_flag::kLowWindow)
            ++lowWindows;
    const auto count = [&](const std::string& filter) {
        return lines(home.tshark("-r '" + capture.string() + "' " + pref + " -Y '" + filter +
                                 "' -T fields -e frame.number"))
            .size();
    };
    EXPECT_EQ(count("windscope.low_window == 1"), lowWindows);
    EXPECT_EQ(count("windscope.cwnd"), index.cwndSamples());
    EXPECT_GT(index.cwndSamples(), 0u);
    EXPECT_EQ(count("windscope.connection"), results.tables.tcp.size());
}

TEST(WiresharkPlugin, WithoutAProjectItStaysQuiet)
{
    WINDSCOPE_REQUIRE_UNPRIVILEGED_TSHARK();
    const auto capture = publicCapture("arkime__80211http.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    PluginHome home;
    int status = -1;
    const std::vector<std::string> rows =
        lines(home.tshark("-r '" + capture.string() + "' -T fields -e frame.number", &status));
    EXPECT_EQ(status, 0);
    EXPECT_EQ(rows.size(), 26u);
}

#else

TEST(WiresharkPlugin, NotBuilt)
{
    GTEST_SKIP() << "the Wireshark plugin is not part of this build";
}

#endif

} // namespace
} // namespace windscope::test
