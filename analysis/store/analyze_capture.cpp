// SPDX-License-Identifier: GPL-3.0-or-later
#include "analyze_capture.h"

#include "analysis/wlan_inventory.h"

namespace windscope::analysis::store {

bool analyzeCapture(const std::string& path, AnalysisBundle& out, std::string& error,
                    dissect::IngestObserver* observer)
{
    out = AnalysisBundle{};
    dissect::IngestOptions options;
    options.observer = observer;
    if (!dissect::ingestCapture(path, options, out.tables, error))
        return false;
    out.tcp = analyzeTcp(out.tables);
    const WlanInventory inventory = buildWlanInventory(out.tables, out.tcp);
    out.events = detectWlanEvents(out.tables, inventory, out.tcp);
    return true;
}

} // namespace windscope::analysis::store
