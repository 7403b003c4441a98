// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli compare: two connections side by side (docs/cli.md, "compare"), the
// table of the desktop's comparison window, written by analysis/report/report_compare.h.
#include "cli_compare.h"
#include "cli_flow.h"

#include "analysis/report/report_compare.h"
#include "analysis/report/report_json.h"
#include "analysis/series/plot_series.h"
#if WINDSCOPE_HAVE_RENDER
#include "cli_export.h"
#include "render/comparison_figure.h"
#include "render/figure_style.h"
#endif

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <filesystem>
#include <iostream>

namespace windscope::cli {

namespace {

constexpr const char* kUsage =
    "usage: windscope-cli compare A[:FLOW] B[:FLOW] [--name-a TEXT] [--name-b TEXT] [--align start|event:ID[:ID]]\n"
    "                             [--json | --csv] [-o FIG.png|.pdf|.svg [--preset ID]]\n"
    "  FLOW: a connection id from analyze or ADDR:PORT-ADDR:PORT (default: the flow that delivered the most)\n"
    "  --align event:ID[:ID]: A's event ID (from events) at time 0, and B's second ID, or by default\n"
    "    B's event of the same kind nearest in capture time\n";

// "FILE:FLOW" -> (FILE, FLOW): the longest prefix before a ':' that names an existing
// file; a path that exists whole has no flow.
std::pair<std::string, std::string> splitSide(const std::string& arg)
{
    std::error_code ec;
    if (std::filesystem::exists(arg, ec) || arg == "-")
        return {arg, ""};
    for (std::size_t colon = arg.rfind(':'); colon != std::string::npos && colon > 0;
         colon = arg.rfind(':', colon - 1))
        if (std::filesystem::exists(arg.substr(0, colon), ec))
            return {arg.substr(0, colon), arg.substr(colon + 1)};
    return {arg, ""};
}

struct LoadedSide
{
    LoadedFlow flow;
    analysis::ConnectionSeries series;
    analysis::ComparisonSide side;
};

int loadSide(const std::string& arg, LoadedSide& out)
{
    const auto [file, flow] = splitSide(arg);
    if (const int status = loadFlow("compare", file, flow, out.flow))
        return status;
    const analysis::pipeline::CapturePipeline& p = *out.flow.pipeline;
    analysis::SeriesOptions options;
    options.sender = out.flow.sender;
    out.series = analysis::buildConnectionSeries({p.tables(), p.tcp(), &p, &p.inventory(), &p.events()},
                                                 out.flow.connection, options);
    const analysis::Connection& c = p.tcp().connections[out.flow.connection];
    const int s = out.flow.sender;
    out.side.file = file;
    out.side.connection = out.flow.connection;
    out.side.from = analysis::endpointText(p.tables(), c.address[s], c.port[s]);
    out.side.to = analysis::endpointText(p.tables(), c.address[1 - s], c.port[1 - s]);
    out.side.cwndModel = out.series.window.cwndNotFollowed.empty()
                             ? out.series.window.cwndModel
                             : "not followed: " + out.series.window.cwndNotFollowed;
    return 0;
}

// "start", "event:A" or "event:A:B" -> where each side's time 0 is (side.alignSeconds,
// side.alignEvent); false with a message on a bad choice.
bool alignSides(const std::string& choice, LoadedSide& a, LoadedSide& b)
{
    a.side.alignSeconds = a.series.startSeconds;
    b.side.alignSeconds = b.series.startSeconds;
    if (choice == "start")
        return true;
    if (!choice.starts_with("event:")) {
        std::fprintf(stderr, "windscope-cli compare: --align takes start or event:ID[:ID] (%s)\n", choice.c_str());
        return false;
    }
    const std::string ids = choice.substr(6);
    const std::size_t colon = ids.find(':');
    const auto parseId = [](const std::string& text, long long& id) {
        try {
            std::size_t used = 0;
            id = std::stoll(text, &used);
            return used == text.size() && id >= 0;
        } catch (const std::exception&) {
            return false;
        }
    };
    long long idA = -1, idB = -1;
    if (!parseId(ids.substr(0, colon), idA) || (colon != std::string::npos && !parseId(ids.substr(colon + 1), idB))) {
        std::fprintf(stderr, "windscope-cli compare: --align event:ID[:ID] takes event ids from events (%s)\n",
                     choice.c_str());
        return false;
    }
    const analysis::WlanEvents& eventsA = a.flow.pipeline->events();
    const analysis::WlanEvents& eventsB = b.flow.pipeline->events();
    if (static_cast<std::size_t>(idA) >= eventsA.size()) {
        std::fprintf(stderr, "windscope-cli compare: %s has no event %lld (it has %zu)\n", a.side.file.c_str(), idA,
                     eventsA.size());
        return false;
    }
    const analysis::WlanEvent& eventA = eventsA.at(static_cast<std::size_t>(idA));
    if (idB < 0) {
        // The same kind of event nearest in capture time: the same moment of another run.
        std::int64_t nearest = 0;
        for (std::size_t i = 0; i < eventsB.size(); ++i) {
            const analysis::WlanEvent& e = eventsB.at(i);
            const std::int64_t distance = std::llabs(e.startNs - eventA.startNs);
            if (e.kind == eventA.kind && (idB < 0 || distance < nearest)) {
                idB = static_cast<long long>(i);
                nearest = distance;
            }
        }
        if (idB < 0) {
            std::fprintf(stderr, "windscope-cli compare: %s has no %s event to align with event %lld of %s; "
                                 "name one with event:%lld:ID\n",
                         b.side.file.c_str(), analysis::eventKindName(eventA.kind), idA, a.side.file.c_str(), idA);
            return false;
        }
    } else if (static_cast<std::size_t>(idB) >= eventsB.size()) {
        std::fprintf(stderr, "windscope-cli compare: %s has no event %lld (it has %zu)\n", b.side.file.c_str(), idB,
                     eventsB.size());
        return false;
    }
    a.side.alignEvent = idA;
    b.side.alignEvent = idB;
    a.side.alignSeconds = static_cast<double>(eventA.startNs) / 1e9;
    b.side.alignSeconds = static_cast<double>(eventsB.at(static_cast<std::size_t>(idB)).startNs) / 1e9;
    return true;
}

} // namespace

int runCompare(const std::vector<std::string>& args)
{
    std::vector<std::string> sides;
    std::string nameA, nameB, align = "start", figurePath, presetId = "single-column";
    bool json = false, csv = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            json = true;
        else if (a == "--csv")
            csv = true;
        else if (a == "--name-a" && i + 1 < args.size())
            nameA = args[++i];
        else if (a == "--name-b" && i + 1 < args.size())
            nameB = args[++i];
        else if (a == "--align" && i + 1 < args.size())
            align = args[++i];
        else if (a == "-o" && i + 1 < args.size())
            figurePath = args[++i];
        else if (a == "--preset" && i + 1 < args.size())
            presetId = args[++i];
        else if (a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "windscope-cli compare: unknown option %s\n%s", a.c_str(), kUsage);
            return 2;
        } else
            sides.push_back(a);
    }
    if (sides.size() != 2) {
        std::fprintf(stderr, "windscope-cli compare: two captures, A and B (%zu given)\n%s", sides.size(), kUsage);
        return 2;
    }
    if (json && csv) {
        std::fprintf(stderr, "windscope-cli compare: choose --json or --csv, not both\n");
        return 2;
    }
    if (sides[0] == "-" && sides[1] == "-") {
        std::fprintf(stderr, "windscope-cli compare: standard input can be one side, not both\n");
        return 2;
    }
#if WINDSCOPE_HAVE_RENDER
    std::optional<FigureApplication> gui;
    if (!figurePath.empty())
        gui.emplace();
    const std::optional<render::ExportPreset> preset = render::exportPreset(QString::fromStdString(presetId));
    if (!preset || render::isScreenPreset(*preset)) {
        std::fprintf(stderr, "windscope-cli compare: unknown figure preset '%s'\n", presetId.c_str());
        return 2;
    }
#else
    if (!figurePath.empty()) {
        std::fprintf(stderr, "windscope-cli compare: -o needs the figure renderer, which this build leaves out\n");
        return 2;
    }
#endif
    LoadedSide a, b;
    if (const int status = loadSide(sides[0], a))
        return status;
    if (const int status = loadSide(sides[1], b))
        return status;
    if (!alignSides(align, a, b))
        return 2;
    const auto [defaultA, defaultB] =
        analysis::comparisonSideNames(a.side.file, a.side.connection, b.side.file, b.side.connection);
    a.side.name = nameA.empty() ? defaultA : nameA;
    b.side.name = nameB.empty() ? defaultB : nameB;
    std::vector<analysis::ComparisonRow> rows = analysis::compareConnections(
        a.flow.pipeline->tcp(), a.flow.connection, b.flow.pipeline->tcp(), b.flow.connection);
    analysis::appendSenderPhaseRows(rows, a.series.window, b.series.window);
    if (json)
        analysis::writeComparisonJson(std::cout, a.side, b.side, rows);
    else if (csv)
        analysis::writeComparisonCsv(std::cout, rows);
    else
        analysis::writeComparisonText(std::cout, a.side, b.side, rows);
    std::cout.flush();
    if (figurePath.empty())
        return 0;
#if WINDSCOPE_HAVE_RENDER
    render::ComparisonFigureOptions options;
    options.preset = *preset;
    options.timeTitle = a.side.alignEvent >= 0 ? "time since the aligned event (s)"
                                               : "time since each connection's start (s)";
    const render::ComparisonFigure figure(
        {{&a.series, QString::fromStdString(a.side.name), a.side.alignSeconds},
         {&b.series, QString::fromStdString(b.side.name), b.side.alignSeconds}},
        options);
    QString error;
    if (!figure.write(QString::fromStdString(figurePath), &error)) {
        std::fprintf(stderr, "windscope-cli compare: %s\n", error.toStdString().c_str());
        return 1;
    }
#endif
    return 0;
}

} // namespace windscope::cli
