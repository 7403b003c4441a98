// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli compare: two connections side by side (docs/cli.md, "compare"), the
// table of the desktop's comparison window, written by analysis/report/report_compare.h.
#include "cli_compare.h"
#include "cli_flow.h"

#include "analysis/report/report_compare.h"
#include "analysis/report/report_json.h"
#include "analysis/series/plot_series.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace windscope::cli {

namespace {

constexpr const char* kUsage =
    "usage: windscope-cli compare A[:FLOW] B[:FLOW] [--name-a TEXT] [--name-b TEXT] [--json | --csv]\n"
    "  FLOW: a connection id from analyze or ADDR:PORT-ADDR:PORT (default: the flow that delivered the most)\n";

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

} // namespace

int runCompare(const std::vector<std::string>& args)
{
    std::vector<std::string> sides;
    std::string nameA, nameB;
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
    LoadedSide a, b;
    if (const int status = loadSide(sides[0], a))
        return status;
    if (const int status = loadSide(sides[1], b))
        return status;
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
    return 0;
}

} // namespace windscope::cli
