// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_series.h"
#include "cli_flow.h"

#include "analysis/series/plot_series.h"

#include <cstdio>
#include <iostream>

namespace windscope::cli {

namespace {
constexpr const char* kUsage = "usage: windscope-cli series FILE --flow ID|ADDR:PORT-ADDR:PORT [--bin MS]\n";
}

int runSeries(const std::vector<std::string>& args)
{
    std::string path, flow;
    analysis::SeriesOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--flow" && i + 1 < args.size())
            flow = args[++i];
        else if (a == "--bin" && i + 1 < args.size()) {
            try {
                options.binSeconds = std::stod(args[++i]) / 1e3;
            } catch (const std::exception&) {
                std::fprintf(stderr, "windscope-cli series: --bin takes milliseconds\n");
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
    analysis::writeSeriesCsv(std::cout, series);
    return 0;
}

} // namespace windscope::cli
