// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_project.h"

#include "cli_analyze.h"
#include "cli_flow.h"

#include "analysis/report/json_writer.h"
#include "analysis/report/report_events.h"
#include "analysis/report/report_json.h"
#include "analysis/pipeline/analyze_capture.h"
#include "analysis/store/project_store.h"
#include "analysis/wlan/wlan_inventory.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <span>

namespace windscope::cli {

namespace store = analysis::store;

namespace {

constexpr const char* kUsage =
    "usage: windscope-cli project COMMAND PROJECT [ARGS]\n"
    "  create P.wsproj                  a new, empty project file\n"
    "  add P.wsproj CAPTURE...          analyze captures and cache the results in the project\n"
    "  list P.wsproj [--json]           captures, their status (ok, changed, moved) and results\n"
    "  show P.wsproj CAPTURE [--json]   analyze's report from the cache (CAPTURE: id or path)\n"
    "  events P.wsproj CAPTURE [--json] events' report from the cache\n"
    "  annotate P.wsproj CAPTURE [--time S] [--event ID] [--connection ID] [--bookmark] TEXT\n"
    "                                   a note (or bookmark) at a capture-relative time or event\n"
    "  notes P.wsproj CAPTURE [--json]  the annotations and bookmarks of a capture\n"
    "  remove P.wsproj CAPTURE          drop a capture and everything cached for it\n"
    "  merge P.wsproj PART.wsproj...    take the captures and failures of other projects\n"
    "                                   (one transaction each; content held already is left)\n";

int fail(const std::string& error)
{
    std::fprintf(stderr, "windscope-cli: %s\n", error.c_str());
    return 1;
}

std::unique_ptr<store::ProjectStore> openProject(const std::string& path, std::string& error)
{
    return store::ProjectStore::open(path, error);
}

// --json anywhere among the arguments and exactly count others, in order.
bool jsonAndPositional(const std::vector<std::string>& args, std::size_t count, bool& json,
                       std::vector<std::string>& rest)
{
    for (const std::string& a : args)
        a == "--json" ? void(json = true) : rest.push_back(a);
    return rest.size() == count;
}

int create(const std::vector<std::string>& args)
{
    if (args.size() != 1)
        return std::fprintf(stderr, "%s", kUsage), 2;
    std::string error;
    if (!store::ProjectStore::create(args[0], error))
        return fail(error);
    std::printf("created %s (project schema version %d)\n", args[0].c_str(),
                store::kProjectSchemaVersion);
    return 0;
}

int add(const std::vector<std::string>& args)
{
    if (args.size() < 2)
        return std::fprintf(stderr, "%s", kUsage), 2;
    std::string error;
    auto project = openProject(args[0], error);
    if (!project)
        return fail(error);
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "-")
            return fail("project add: standard input cannot be added: a project keeps a capture "
                        "by its path and SHA-256 to find it again; save it to a file first");
        store::FileIdentity file;
        if (!store::identifyFile(args[i], true, file, error))
            return fail(error);
        const auto start = std::chrono::steady_clock::now();
        // The absolute path, so the cached report names the file wherever it is shown from.
        analysis::pipeline::CapturePipeline pipeline(file.path);
        if (!pipeline.run(analysis::pipeline::AnalysisStage::Done, error))
            return fail(error);
        const analysis::pipeline::AnalysisBundle& results = pipeline.cacheProducts();
        const std::int64_t id = project->saveCapture(file, results, error);
        if (!id)
            return fail(error);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("capture %lld: %s: %llu packets, %zu connections, %zu events (%.2f s)\n",
                    static_cast<long long>(id), file.path.c_str(),
                    static_cast<unsigned long long>(results.tables.summary.packets),
                    results.tcp.connections.size(), results.events.size(), seconds);
        printCaptureWarnings(results.tables);
    }
    return 0;
}

int merge(const std::vector<std::string>& args)
{
    if (args.size() < 2)
        return std::fprintf(stderr, "%s", kUsage), 2;
    std::string error;
    auto project = openProject(args[0], error);
    if (!project)
        return fail(error);
    for (std::size_t i = 1; i < args.size(); ++i) {
        store::ProjectStore::MergeCounts counts;
        if (!project->mergeFrom(args[i], counts, error))
            return fail(error);
        std::printf("%s: %zu capture(s) taken, %zu held already, %zu failure(s)\n", args[i].c_str(), counts.captures,
                    counts.alreadyHeld, counts.failures);
    }
    return 0;
}

int list(const std::vector<std::string>& args)
{
    bool json = false;
    std::vector<std::string> rest;
    if (!jsonAndPositional(args, 1, json, rest))
        return std::fprintf(stderr, "%s", kUsage), 2;
    std::string error;
    auto project = openProject(rest[0], error);
    if (!project)
        return fail(error);
    std::vector<store::CaptureRecord> captures;
    std::vector<store::CaptureFailure> failures;
    if (!project->listCaptures(captures, error) || !project->listFailures(failures, error))
        return fail(error);
    if (json) {
        analysis::JsonWriter out(std::cout);
        out.beginObject();
        out.field("project", project->path());
        out.field("schema_version", store::kProjectSchemaVersion);
        out.key("captures").beginArray();
        for (const store::CaptureRecord& c : captures) {
            out.beginObject();
            out.field("id", c.id);
            out.field("path", c.file.path);
            out.field("status", store::captureStatusName(project->checkCapture(c)));
            out.field("size", c.file.size);
            out.field("sha256", c.file.sha256);
            out.field("added_utc", c.addedUtc);
            out.field("cached", c.cached);
            out.field("analyzer_version", c.analyzerVersion);
            out.field("packets", c.packets);
            out.field("tcp_segments", c.tcpSegments);
            out.field("connections", c.connections);
            out.field("events", c.events);
            out.field("cache_bytes", c.cacheBytes);
            out.endObject();
        }
        out.endArray();
        out.key("failures").beginArray();
        for (const store::CaptureFailure& f : failures) {
            out.beginObject();
            out.field("path", f.file.path);
            out.field("size", f.file.size);
            out.field("sha256", f.file.sha256);
            out.field("error", f.error);
            out.field("failed_utc", f.failedUtc);
            out.endObject();
        }
        out.endArray();
        out.endObject();
        std::cout << '\n';
        return 0;
    }
    std::printf("Project %s: %zu capture(s)\n", project->path().c_str(), captures.size());
    for (const store::CaptureRecord& c : captures) {
        std::printf("%4lld  %-7s  %s\n", static_cast<long long>(c.id),
                    store::captureStatusName(project->checkCapture(c)), c.file.path.c_str());
        if (c.cached)
            std::printf("      %llu packets, %llu TCP segments, %llu connections, %llu events "
                        "(cached by Windscope %s, %.1f MB)\n",
                        static_cast<unsigned long long>(c.packets),
                        static_cast<unsigned long long>(c.tcpSegments),
                        static_cast<unsigned long long>(c.connections),
                        static_cast<unsigned long long>(c.events), c.analyzerVersion.c_str(),
                        static_cast<double>(c.cacheBytes) / 1e6);
        else
            std::printf("      no usable cached results: add the capture again\n");
    }
    for (const store::CaptureFailure& f : failures)
        std::printf("failed  %s\n      %s (%s)\n", f.file.path.c_str(), f.error.c_str(), f.failedUtc.c_str());
    return 0;
}

// Opens the project, finds the capture and loads the parts of its cached results.
int loadCached(const std::vector<std::string>& rest, std::span<const store::CachePart> parts,
               analysis::pipeline::AnalysisBundle& results)
{
    std::string error;
    auto project = openProject(rest[0], error);
    if (!project)
        return fail(error);
    store::CaptureRecord capture;
    if (!project->findCapture(rest[1], capture, error))
        return fail(error);
    const store::CaptureStatus status = project->checkCapture(capture);
    if (status != store::CaptureStatus::Ok)
        std::fprintf(stderr,
                     "windscope-cli: warning: %s is %s since it was analysed; these are the "
                     "cached results\n",
                     capture.file.path.c_str(), store::captureStatusName(status));
    if (!project->loadResults(capture.id, parts, results, error))
        return fail(error);
    return 0;
}

int show(const std::vector<std::string>& args, bool events)
{
    bool json = false;
    std::vector<std::string> rest;
    if (!jsonAndPositional(args, 2, json, rest))
        return std::fprintf(stderr, "%s", kUsage), 2;
    analysis::pipeline::AnalysisBundle results;
    // The analyze report needs no per-frame columns; events need them for the inventory.
    const std::span<const store::CachePart> parts =
        events ? std::span<const store::CachePart>(store::kAllCacheParts)
               : std::span<const store::CachePart>(store::kReportCacheParts);
    if (int status = loadCached(rest, parts, results))
        return status;
    if (!events) {
        if (json)
            analysis::writeAnalyzeJson(std::cout, results.tables, results.tcp);
        else
            printAnalyzeSummary(results.tables, results.tcp);
        std::cout.flush();
        printCaptureWarnings(results.tables);
        return 0;
    }
    const analysis::pipeline::CapturePipeline pipeline(std::move(results));
    const analysis::EventsReport report{pipeline.tables(), pipeline.tcp(), pipeline.inventory(),
                                        pipeline.events()};
    if (json)
        analysis::writeEventsJson(std::cout, report);
    else
        analysis::writeEventsCsv(std::cout, report);
    std::cout.flush();
    printCaptureWarnings(pipeline.tables());
    return 0;
}

int annotate(const std::vector<std::string>& args)
{
    store::Annotation note;
    std::vector<std::string> rest;
    try {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (a == "--bookmark")
                note.kind = "bookmark";
            else if (a == "--time" && i + 1 < args.size())
                note.timeNs = static_cast<std::int64_t>(std::stod(args[++i]) * 1e9);
            else if (a == "--event" && i + 1 < args.size())
                note.eventId = std::stoull(args[++i]);
            else if (a == "--connection" && i + 1 < args.size())
                note.connectionId = std::stoull(args[++i]);
            else
                rest.push_back(a);
        }
    } catch (const std::exception&) {
        std::fprintf(stderr, "windscope-cli project annotate: --time takes seconds, --event and "
                             "--connection an id\n");
        return 2;
    }
    if (rest.size() != 3)
        return std::fprintf(stderr, "%s", kUsage), 2;
    note.text = rest[2];
    std::string error;
    auto project = openProject(rest[0], error);
    if (!project)
        return fail(error);
    store::CaptureRecord capture;
    if (!project->findCapture(rest[1], capture, error))
        return fail(error);
    note.captureId = capture.id;
    const std::int64_t id = project->addAnnotation(note, error);
    if (!id)
        return fail(error);
    std::printf("%s %lld added\n", note.kind.c_str(), static_cast<long long>(id));
    return 0;
}

int notes(const std::vector<std::string>& args)
{
    bool json = false;
    std::vector<std::string> rest;
    if (!jsonAndPositional(args, 2, json, rest))
        return std::fprintf(stderr, "%s", kUsage), 2;
    std::string error;
    auto project = openProject(rest[0], error);
    if (!project)
        return fail(error);
    store::CaptureRecord capture;
    std::vector<store::Annotation> list;
    if (!project->findCapture(rest[1], capture, error) ||
        !project->listAnnotations(capture.id, list, error))
        return fail(error);
    analysis::JsonWriter out(std::cout);
    if (json)
        out.beginObject().key("annotations").beginArray();
    for (const store::Annotation& a : list) {
        if (json) {
            out.beginObject();
            out.field("id", a.id).field("kind", a.kind);
            a.timeNs ? void(out.field("time_s", static_cast<double>(*a.timeNs) / 1e9))
                     : void(out.key("time_s").null());
            a.eventId ? void(out.field("event_id", *a.eventId)) : void(out.key("event_id").null());
            a.connectionId ? void(out.field("connection_id", *a.connectionId))
                           : void(out.key("connection_id").null());
            out.field("text", a.text);
            out.endObject();
        } else {
            std::printf("%4lld  %-8s %12s  %s\n", static_cast<long long>(a.id), a.kind.c_str(),
                        a.timeNs
                            ? (std::to_string(static_cast<double>(*a.timeNs) / 1e9) + " s").c_str()
                        : a.eventId ? ("event " + std::to_string(*a.eventId)).c_str()
                                    : "-",
                        a.text.c_str());
        }
    }
    if (json) {
        out.endArray().endObject();
        std::cout << '\n';
    }
    return 0;
}

int remove(const std::vector<std::string>& args)
{
    if (args.size() != 2)
        return std::fprintf(stderr, "%s", kUsage), 2;
    std::string error;
    auto project = openProject(args[0], error);
    if (!project)
        return fail(error);
    store::CaptureRecord capture;
    if (!project->findCapture(args[1], capture, error) ||
        !project->removeCapture(capture.id, error))
        return fail(error);
    std::printf("capture %lld removed\n", static_cast<long long>(capture.id));
    return 0;
}

} // namespace

int runProject(const std::vector<std::string>& args)
{
    if (args.empty()) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    const std::string& command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "create")
        return create(rest);
    if (command == "add")
        return add(rest);
    if (command == "merge")
        return merge(rest);
    if (command == "list")
        return list(rest);
    if (command == "show")
        return show(rest, false);
    if (command == "events")
        return show(rest, true);
    if (command == "annotate")
        return annotate(rest);
    if (command == "notes")
        return notes(rest);
    if (command == "remove")
        return remove(rest);
    std::fprintf(stderr, "windscope-cli project: unknown command '%s'\n%s", command.c_str(),
                 kUsage);
    return 2;
}

} // namespace windscope::cli
