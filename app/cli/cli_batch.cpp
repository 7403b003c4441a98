// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli batch: every capture under some paths, analysed by the same pipeline as
// `project add` and the desktop application, into one project (docs/batch.md).
#include "cli_batch.h"

#include "analysis/pipeline/capture_pipeline.h"
#include "analysis/report/json_writer.h"
#include "analysis/store/project_store.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace windscope::cli {

namespace store = analysis::store;
namespace fs = std::filesystem;

namespace {

constexpr const char* kUsage =
    "usage: windscope-cli batch PATH... --project OUT.wsproj [--jobs N] [--json]\n"
    "  PATH: capture files, or folders searched recursively for *.pcap, *.pcapng, *.cap\n"
    "        (and the same gzipped, *.gz)\n"
    "  --jobs N: captures analysed at once (default: the hardware threads)\n";

bool isCaptureName(const fs::path& path)
{
    std::string name = path.filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name.ends_with(".gz"))
        name.resize(name.size() - 3);
    return name.ends_with(".pcap") || name.ends_with(".pcapng") || name.ends_with(".cap");
}

// The captures named or found under paths, absolute, each once, in path order; false
// with a message for a path that is neither a file nor a folder.
bool collectCaptures(const std::vector<std::string>& paths, std::vector<std::string>& out, std::string& error)
{
    std::set<std::string> found;
    for (const std::string& p : paths) {
        std::error_code ec;
        const fs::file_status st = fs::status(p, ec);
        if (ec || !fs::exists(st)) {
            error = p + ": no such file or folder";
            return false;
        }
        if (fs::is_directory(st)) {
            // Folder symlinks are not followed: a link back up would loop.
            for (fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
                 !ec && it != end; it.increment(ec))
                if (isCaptureName(it->path()) && it->is_regular_file(ec))
                    found.insert(fs::absolute(it->path()).lexically_normal().string());
            if (ec) {
                error = p + ": " + ec.message();
                return false;
            }
        } else {
            // A file named on the command line is taken whatever its name.
            found.insert(fs::absolute(p).lexically_normal().string());
        }
    }
    out.assign(found.begin(), found.end());
    return true;
}

enum class Outcome { Analysed, Unchanged, FailedBefore, Failed };

struct Progress
{
    std::size_t done = 0, analysed = 0, unchanged = 0, failedBefore = 0, failed = 0;
    std::uint64_t packets = 0;     // of the captures analysed in this run
};

class Batch
{
public:
    Batch(store::ProjectStore& project, std::vector<std::string> files) : m_project(project), m_files(std::move(files)) {}

    bool loadKnown(std::string& error)
    {
        std::vector<store::CaptureRecord> captures;
        std::vector<store::CaptureFailure> failures;
        if (!m_project.listCaptures(captures, error) || !m_project.listFailures(failures, error))
            return false;
        for (const store::CaptureRecord& c : captures)
            if (c.cached)
                m_analysed.emplace(c.file.sha256, c.id);
        for (const store::CaptureFailure& f : failures)
            m_failed.insert(f.file.sha256);
        return true;
    }

    void run(unsigned jobs)
    {
        m_start = std::chrono::steady_clock::now();
        std::vector<std::thread> workers;
        for (unsigned i = 1; i < jobs; ++i)
            workers.emplace_back([this] { work(); });
        work();
        for (std::thread& t : workers)
            t.join();
    }

    const Progress& progress() const { return m_progress; }
    double seconds() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }
    bool storeFailed() const { return m_storeFailed; }

private:
    void work()
    {
        for (std::size_t i = m_next++; i < m_files.size() && !m_storeFailed; i = m_next++)
            analyse(m_files[i]);
    }

    void analyse(const std::string& path)
    {
        store::FileIdentity file;
        std::string error;
        if (!store::identifyFile(path, true, file, error)) {
            file.path = path;
            finish(file, Outcome::Failed, error, nullptr);
            return;
        }
        {
            // The same bytes under two paths are analysed once (the first path claims them).
            std::lock_guard lock(m_mutex);
            if (m_analysed.count(file.sha256) || !m_claimed.insert(file.sha256).second) {
                report(file.path, Outcome::Unchanged, "", 0);
                return;
            }
            if (m_failed.count(file.sha256)) {
                report(file.path, Outcome::FailedBefore, "", 0);
                return;
            }
        }
        analysis::pipeline::CapturePipeline pipeline(file.path);
        if (!pipeline.run(analysis::pipeline::AnalysisStage::Done, error)) {
            finish(file, Outcome::Failed, error, nullptr);
            return;
        }
        finish(file, Outcome::Analysed, "", &pipeline.cacheProducts());
    }

    // Writes the capture's result (one transaction each) and reports it.
    void finish(const store::FileIdentity& file, Outcome outcome, const std::string& error,
                const analysis::pipeline::AnalysisBundle* results)
    {
        std::lock_guard lock(m_mutex);
        std::string storeError;
        bool stored = true;
        if (results)
            stored = m_project.saveCapture(file, *results, storeError) != 0;
        else
            stored = m_project.recordFailure({file, error, {}}, storeError);
        if (!stored) {
            // The project cannot take more (disk full, damaged): stop, keep what is in.
            m_storeFailed = true;
            std::fprintf(stderr, "windscope-cli batch: %s\n", storeError.c_str());
            return;
        }
        report(file.path, outcome, error, results ? results->tables.summary.packets : 0);
    }

    void report(const std::string& path, Outcome outcome, const std::string& error, std::uint64_t packets)
    {
        Progress& p = m_progress;
        ++p.done;
        p.packets += packets;
        const char* what = "";
        switch (outcome) {
        case Outcome::Analysed: ++p.analysed, what = "analysed"; break;
        case Outcome::Unchanged: ++p.unchanged, what = "unchanged, in the project"; break;
        case Outcome::FailedBefore: ++p.failedBefore, what = "failed before, unchanged"; break;
        case Outcome::Failed: ++p.failed, what = "FAILED"; break;
        }
        const double elapsed = seconds();
        const double rate = elapsed > 0 ? static_cast<double>(p.packets) / elapsed : 0;
        const double eta = p.done ? elapsed / static_cast<double>(p.done) * static_cast<double>(m_files.size() - p.done) : 0;
        std::fprintf(stderr, "[%zu/%zu] %s: %s%s%s (%.0f packets/s, ETA %.0f s)\n", p.done, m_files.size(),
                     path.c_str(), what, error.empty() ? "" : ": ", error.c_str(), rate, eta);
    }

    store::ProjectStore& m_project;
    const std::vector<std::string> m_files;
    std::atomic<std::size_t> m_next{0};
    std::atomic<bool> m_storeFailed{false};
    std::mutex m_mutex; // the project, the known sets and the progress
    std::map<std::string, std::int64_t> m_analysed; // SHA-256 -> capture id
    std::set<std::string> m_failed, m_claimed;
    Progress m_progress;
    std::chrono::steady_clock::time_point m_start;
};

} // namespace

int runBatch(const std::vector<std::string>& args)
{
    std::vector<std::string> paths;
    std::string projectPath;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool json = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--project" && i + 1 < args.size())
            projectPath = args[++i];
        else if (a == "--jobs" && i + 1 < args.size()) {
            try {
                std::size_t used = 0;
                const int n = std::stoi(args[++i], &used);
                if (used != args[i].size() || n < 1 || n > 1024)
                    throw std::invalid_argument("range");
                jobs = static_cast<unsigned>(n);
            } catch (const std::exception&) {
                std::fprintf(stderr, "windscope-cli batch: --jobs takes a count from 1 (%s)\n", args[i].c_str());
                return 2;
            }
        } else if (a == "--json")
            json = true;
        else if (a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "windscope-cli batch: unknown option %s\n%s", a.c_str(), kUsage);
            return 2;
        } else if (a == "-") {
            std::fprintf(stderr, "windscope-cli batch: standard input cannot be batched: a project keeps a "
                                 "capture by its path and SHA-256\n");
            return 2;
        } else
            paths.push_back(a);
    }
    if (paths.empty() || projectPath.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::vector<std::string> files;
    std::string error;
    if (!collectCaptures(paths, files, error)) {
        std::fprintf(stderr, "windscope-cli batch: %s\n", error.c_str());
        return 1;
    }
    std::error_code ec;
    auto project = fs::exists(projectPath, ec) ? store::ProjectStore::open(projectPath, error)
                                               : store::ProjectStore::create(projectPath, error);
    if (!project) {
        std::fprintf(stderr, "windscope-cli batch: %s\n", error.c_str());
        return 1;
    }
    Batch batch(*project, files);
    if (!batch.loadKnown(error)) {
        std::fprintf(stderr, "windscope-cli batch: %s\n", error.c_str());
        return 1;
    }
    batch.run(std::min<unsigned>(jobs, static_cast<unsigned>(std::max<std::size_t>(files.size(), 1))));
    const Progress& p = batch.progress();
    const double seconds = batch.seconds();
    std::fprintf(stderr,
                 "batch: %zu captures: %zu analysed, %zu unchanged, %zu failed (%zu of them before); %llu packets in "
                 "%.1f s (%.1f captures/s, %.0f packets/s)\n",
                 files.size(), p.analysed, p.unchanged, p.failed + p.failedBefore, p.failedBefore,
                 static_cast<unsigned long long>(p.packets), seconds,
                 seconds > 0 ? static_cast<double>(p.done) / seconds : 0,
                 seconds > 0 ? static_cast<double>(p.packets) / seconds : 0);
    if (json) {
        analysis::JsonWriter w(std::cout);
        w.beginObject();
        w.field("project", project->path());
        w.field("captures", static_cast<std::uint64_t>(files.size()));
        w.field("analysed", static_cast<std::uint64_t>(p.analysed));
        w.field("unchanged", static_cast<std::uint64_t>(p.unchanged));
        w.field("failed", static_cast<std::uint64_t>(p.failed));
        w.field("failed_before", static_cast<std::uint64_t>(p.failedBefore));
        w.field("packets", static_cast<std::uint64_t>(p.packets));
        w.field("seconds", seconds);
        w.endObject();
        std::cout << '\n';
    }
    if (batch.storeFailed())
        return 1;
    return p.failed ? 3 : 0;
}

} // namespace windscope::cli
