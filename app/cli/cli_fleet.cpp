// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_fleet.h"

#include "analysis/report/report_fleet.h"
#include "analysis/store/project_store.h"

#include <cstdio>
#include <iostream>

namespace windscope::cli {

namespace {

constexpr const char* kUsage =
    "usage: windscope-cli fleet PROJECT.wsproj [--json | --csv] [--by station|ap|ssid|capture|day]";

int usageError(const std::string& message)
{
    std::fprintf(stderr, "windscope-cli fleet: %s\n%s\n", message.c_str(), kUsage);
    return 2;
}

} // namespace

int runFleet(const std::vector<std::string>& args)
{
    std::string project;
    bool json = false, csv = false;
    analysis::FleetGrouping by = analysis::FleetGrouping::Station;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            json = true;
        else if (a == "--csv")
            csv = true;
        else if (a == "--by") {
            if (i + 1 >= args.size() || !analysis::parseFleetGrouping(args[i + 1], by))
                return usageError("--by takes station, ap, ssid, capture or day");
            ++i;
        } else if (a.size() > 1 && a[0] == '-')
            return usageError("unknown option " + a);
        else if (project.empty())
            project = a;
        else
            return usageError("one project at a time (" + a + ")");
    }
    if (project.empty())
        return usageError("no project given");
    if (json && csv)
        return usageError("choose --json or --csv, not both");

    std::string error;
    auto store = analysis::store::ProjectStore::open(project, error);
    std::vector<analysis::FleetCapture> captures;
    std::vector<analysis::store::CaptureFailure> failures;
    std::size_t stale = 0;
    std::vector<std::string> damaged;
    if (!store || !store->loadFleet(captures, stale, damaged, error) || !store->listFailures(failures, error)) {
        std::fprintf(stderr, "windscope-cli: %s\n", error.c_str());
        return 1;
    }
    analysis::FleetReport report = analysis::buildFleetReport(project, captures, by);
    report.staleCaptures = stale;
    report.failedCaptures = failures.size();
    report.damagedCaptures = damaged;
    if (json)
        analysis::writeFleetJson(std::cout, report);
    else if (csv)
        analysis::writeFleetCsv(std::cout, report);
    else
        analysis::writeFleetText(std::cout, report);
    std::cout.flush();
    for (const std::string& why : damaged)
        std::fprintf(stderr, "windscope-cli: warning: %s (left out of the fleet view)\n", why.c_str());
    if (stale)
        std::fprintf(stderr,
                     "windscope-cli: warning: %s: %zu capture(s) were analysed by an older layout and are "
                     "not in the fleet view; add them again (or rerun the batch) to include them\n",
                     project.c_str(), stale);
    return 0;
}

} // namespace windscope::cli
