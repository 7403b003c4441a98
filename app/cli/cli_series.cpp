// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_series.h"
#include "cli_flow.h"

#include "analysis/series/plot_series.h"
#include "analysis/series/view_bins.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <iostream>

namespace windscope::cli {

namespace {
constexpr const char* kUsage =
    "usage: windscope-cli series FILE --flow ID|ADDR:PORT-ADDR:PORT [--bin MS] [--from S] [--to S]\n";
// The plot width a view's bins are chosen for when --bin is not given: a full-width plot.
constexpr int kViewColumns = 1000;

bool parseNumber(const std::string& text, double& out)
{
    try {
        std::size_t used = 0;
        out = std::stod(text, &used);
        return used == text.size() && std::isfinite(out);
    } catch (const std::exception&) {
        return false;
    }
}
} // namespace

int runSeries(const std::vector<std::string>& args)
{
    std::string path, flow;
    analysis::SeriesOptions options;
    double from = -std::numeric_limits<double>::infinity(), to = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--flow" && i + 1 < args.size())
            flow = args[++i];
        else if (a == "--bin" && i + 1 < args.size()) {
            if (!parseNumber(args[++i], options.binSeconds) || options.binSeconds <= 0) {
                std::fprintf(stderr, "windscope-cli series: --bin takes milliseconds above 0 (%s)\n", args[i].c_str());
                return 2;
            }
            options.binSeconds /= 1e3;
        } else if ((a == "--from" || a == "--to") && i + 1 < args.size()) {
            double& bound = a == "--from" ? from : to;
            if (!parseNumber(args[++i], bound)) {
                std::fprintf(stderr, "windscope-cli series: %s takes seconds since the capture's first packet (%s)\n",
                             a.c_str(), args[i].c_str());
                return 2;
            }
        } else if (a.size() > 1 && a[0] == '-') { // "-" alone is standard input
            std::fprintf(stderr, "windscope-cli series: unknown option %s\n%s", a.c_str(), kUsage);
            return 2;
        } else if (path.empty())
            path = a;
        else {
            std::fprintf(stderr, "windscope-cli series: one capture file at a time (%s)\n", a.c_str());
            return 2;
        }
    }
    if (path.empty() || flow.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    if (!(from < to)) {
        std::fprintf(stderr, "windscope-cli series: --from %g is not before --to %g\n", from, to);
        return 2;
    }
    LoadedFlow loaded;
    if (const int status = loadFlow("series", path, flow, loaded))
        return status;
    const analysis::pipeline::CapturePipeline& pipeline = *loaded.pipeline;
    const std::size_t connection = loaded.connection;
    options.sender = loaded.sender;
    const analysis::ConnectionSeries series = analysis::buildConnectionSeries(
        {pipeline.tables(), pipeline.tcp(), &pipeline, &pipeline.inventory(), &pipeline.events()}, connection,
        options);
    if (!series.window.cwndNotFollowed.empty())
        std::fprintf(stderr, "windscope-cli series: connection %zu: cwnd not followed: %s\n", connection,
                     series.window.cwndNotFollowed.c_str());
    const bool view = std::isfinite(from) || std::isfinite(to);
    if (!view) {
        analysis::writeSeriesCsv(std::cout, series);
        return 0;
    }
    // A view: the series in [from, to] as the plots show it zoomed there, rates and the
    // 802.11 lane re-binned for the range, and every 802.11 frame of the station in it.
    const double lower = std::isfinite(from) ? from : series.startSeconds;
    const double upper = std::isfinite(to) ? to : series.endSeconds;
    const analysis::ConnectionSeries shown = analysis::croppedSeries(
        analysis::seriesForView(series, lower, upper, kViewColumns, options.binSeconds), lower, upper);
    analysis::writeSeriesCsv(std::cout, shown);
    analysis::writeLaneFramesCsv(std::cout, shown.lane, lower, upper);
    return 0;
}

} // namespace windscope::cli
