// SPDX-License-Identifier: GPL-3.0-or-later
// Reopening a capture from a project's cache versus analysing it again: the time
// windscope spends before it can show results, both ways, on the same file.
//
//   windscope-bench-store-reopen CAPTURE [--repeat N] [--threads T] [--keep PROJECT]
//   windscope-bench-store-reopen CAPTURE --reopen-only PROJECT [--repeat N] [--threads T]
//
// --reopen-only times loading every part from a project kept earlier, nothing else (for
// profiling the load path).
//
// Analysis = ingest, TCP analysis, 802.11 inventory, events and their correlation with
// TCP (what the project caches, and what the desktop application computes for a capture
// it opens). Reopen = ProjectStore::open (header, quick_check, schema), looking the
// capture up, checking its file identity and loading the cached results, measured
// three ways: every part; the overview parts the desktop application shows first
// (summary, connection, event, station and correlation tables, kOverviewCacheParts);
// and the analyze report alone. All are timed N times after one warm-up run (the
// capture file in the page cache), medians reported. The loaded results are checked
// against the fresh ones (analyze JSON).

#include "analysis/report/report_json.h"
#include "analysis/pipeline/analyze_capture.h"
#include "analysis/store/project_store.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <span>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace store = windscope::analysis::store;

namespace {

double seconds(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::string analyzeJson(const windscope::analysis::pipeline::AnalysisBundle& b)
{
    std::ostringstream out;
    windscope::analysis::writeAnalyzeJson(out, b.tables, b.tcp);
    return out.str();
}

struct ReopenTimes
{
    double total = 0;   // median, open to loaded
    double opening = 0; // median, ProjectStore::open alone
};

// Opens the project, finds the capture, checks its file identity and loads the parts:
// one untimed warm-up, then `repeat` timed runs. Exits on a failure (a benchmark of a
// failed reopen means nothing).
ReopenTimes timeReopen(const std::string& projectPath, const std::string& capturePath,
                       std::span<const store::CachePart> parts, unsigned threads, int repeat,
                       windscope::analysis::pipeline::AnalysisBundle& into)
{
    std::vector<double> total, opening;
    std::string error;
    for (int i = 0; i <= repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto project = store::ProjectStore::open(projectPath, error);
        const double opened = seconds(start);
        store::CaptureRecord record;
        into = windscope::analysis::pipeline::AnalysisBundle{};
        if (!project || !project->findCapture(capturePath, record, error) ||
            project->checkCapture(record) != store::CaptureStatus::Ok ||
            !project->loadResults(record.id, parts, into, error, threads)) {
            std::fprintf(stderr, "reopen failed: %s\n", error.c_str());
            std::exit(1);
        }
        if (i > 0) {
            total.push_back(seconds(start));
            opening.push_back(opened);
        }
    }
    return {median(total), median(opening)};
}

} // namespace

int main(int argc, char** argv)
{
    std::string capture, keep, reopenOnly;
    int repeat = 5;
    unsigned threads = 2; // what the desktop application uses for the column parts
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeat" && i + 1 < argc)
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--threads" && i + 1 < argc)
            threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
        else if (a == "--reopen-only" && i + 1 < argc)
            reopenOnly = argv[++i];
        else if (a == "--keep" && i + 1 < argc)
            keep = argv[++i];
        else if (capture.empty())
            capture = a;
        else {
            std::fprintf(stderr, "usage: %s CAPTURE [--repeat N] [--threads T] [--keep PROJECT]\n", argv[0]);
            return 2;
        }
    }
    if (capture.empty()) {
        std::fprintf(stderr, "usage: %s CAPTURE [--repeat N] [--threads T] [--keep PROJECT]\n", argv[0]);
        return 2;
    }
    std::string error;
    store::FileIdentity file;
    if (!store::identifyFile(capture, true, file, error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }

    if (!reopenOnly.empty()) {
        windscope::analysis::pipeline::AnalysisBundle loaded;
        const ReopenTimes t = timeReopen(reopenOnly, file.path, store::kAllCacheParts, threads, repeat, loaded);
        std::printf("reopen         %.4f s (median of %d, %u connection(s))\n", t.total, repeat, threads);
        return 0;
    }

    windscope::analysis::pipeline::AnalysisBundle fresh;
    std::vector<double> analysis;
    for (int i = 0; i <= repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        if (!windscope::analysis::pipeline::analyzeCapture(file.path, fresh, error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        if (i > 0) // the first run warms the page cache
            analysis.push_back(seconds(start));
    }

    std::string projectPath = keep;
    if (projectPath.empty()) {
        projectPath = (std::filesystem::temp_directory_path() /
                       ("windscope-bench-" + std::to_string(getpid()) + ".wsproj"))
                          .string();
    }
    std::filesystem::remove(projectPath);
    double saveSeconds = 0;
    {
        auto project = store::ProjectStore::create(projectPath, error);
        if (!project) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        const auto start = std::chrono::steady_clock::now();
        if (!project->saveCapture(file, fresh, error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        saveSeconds = seconds(start);
    }

    // Every part, then subsets: the per-frame columns stay on disk until a plot asks.
    windscope::analysis::pipeline::AnalysisBundle loaded, overviewParts, reportParts;
    const ReopenTimes all = timeReopen(projectPath, file.path, store::kAllCacheParts, threads, repeat, loaded);
    const double overview =
        timeReopen(projectPath, file.path, store::kOverviewCacheParts, 1, repeat, overviewParts).total;
    const double report = timeReopen(projectPath, file.path, store::kReportCacheParts, 1, repeat, reportParts).total;
    const bool same = analyzeJson(fresh) == analyzeJson(loaded) &&
                      analyzeJson(fresh) == analyzeJson(reportParts) &&
                      analyzeJson(fresh) == analyzeJson(overviewParts) &&
                      overviewParts.correlation.impacts.size() == fresh.correlation.impacts.size() &&
                      overviewParts.inventory.stations.size() == fresh.inventory.stations.size();
    const auto projectBytes = std::filesystem::file_size(projectPath);
    if (keep.empty())
        std::filesystem::remove(projectPath);

    const double a = median(analysis), r = all.total;
    std::printf("capture        %s\n", file.path.c_str());
    std::printf("size           %.1f MB, %llu packets, %zu TCP segments, %zu connections, %zu "
                "events\n",
                static_cast<double>(file.size) / 1e6,
                static_cast<unsigned long long>(fresh.tables.summary.packets),
                fresh.tables.tcp.size(), fresh.tcp.connections.size(), fresh.events.events.size());
    std::printf("analysis       %.3f s (median of %d)\n", a, repeat);
    std::printf("save           %.3f s (once), project file %.1f MB\n", saveSeconds,
                static_cast<double>(projectBytes) / 1e6);
    std::printf("reopen         %.4f s (median of %d; opening and checking the project file "
                "%.4f s of it)\n",
                r, repeat, all.opening);
    std::printf("speed-up       %.1fx (every cached part, per-frame columns included; %u "
                "connection(s) side by side)\n",
                a / r, threads);
    std::printf("reopen tables  %.4f s (median of %d; summary, connection, event, station and "
                "correlation tables: what the desktop application shows first)\n",
                overview, repeat);
    std::printf("speed-up       %.1fx (to the tables; the plots' columns follow in %.4f s)\n",
                a / overview, std::max(0.0, r - overview));
    std::printf("reopen report  %.4f s (median of %d; summary and connection table only)\n",
                report, repeat);
    std::printf("speed-up       %.1fx (to the analyze report)\n", a / report);
    std::printf("results equal  %s\n", same ? "yes" : "NO");
    return same ? 0 : 1;
}
