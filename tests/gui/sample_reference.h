// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bundled sample analysed as windscope-cli analyses it, independent of the desktop
// application's loader: the reference the GUI and export tests compare against.

#include "analysis/tcp/tcp_analysis.h"
#include "analysis/wlan/wlan_correlation.h"
#include "analysis/wlan/wlan_events.h"
#include "analysis/wlan/wlan_inventory.h"
#include "dissectors/ingest.h"

#include <QtGlobal>

#include <string>

namespace windscope::test {

struct SampleReference
{
    dissect::CaptureTables tables;
    analysis::TcpAnalysis tcp;
    analysis::WlanInventory inventory;
    analysis::WlanEvents events;
    analysis::Correlation correlation;
};

inline const SampleReference& sampleReference()
{
    static const SampleReference r = [] {
        SampleReference x;
        std::string error;
        if (!dissect::ingestCapture(WINDSCOPE_SAMPLE_CAPTURE, {}, x.tables, error))
            qFatal("cannot read the sample: %s", error.c_str());
        x.tcp = analysis::analyzeTcp(x.tables);
        x.inventory = analysis::buildWlanInventory(x.tables, x.tcp);
        x.events = analysis::detectWlanEvents(x.tables, x.inventory, x.tcp);
        x.correlation = analysis::correlateEvents(x.tables, x.tcp, x.inventory, x.events);
        return x;
    }();
    return r;
}

} // namespace windscope::test
