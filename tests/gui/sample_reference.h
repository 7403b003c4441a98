// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bundled sample analysed as windscope-cli analyses it, independent of the desktop
// application's loader: the reference the GUI and export tests compare against.

#include "analysis/pipeline/capture_pipeline.h"

#include <QtGlobal>

#include <memory>
#include <string>

namespace windscope::test {

struct SampleReference
{
    // Its own pipeline (the cwnd of a connection comes from it), and copies of the
    // products it computed.
    std::shared_ptr<const analysis::pipeline::CapturePipeline> pipeline;
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
        auto pipeline = std::make_shared<analysis::pipeline::CapturePipeline>(WINDSCOPE_SAMPLE_CAPTURE);
        if (!pipeline->run(analysis::pipeline::AnalysisStage::Correlation, error))
            qFatal("cannot read the sample: %s", error.c_str());
        x.tables = pipeline->tables();
        x.tcp = pipeline->tcp();
        x.inventory = pipeline->inventory();
        x.events = pipeline->events();
        x.correlation = pipeline->correlation();
        x.pipeline = std::move(pipeline);
        return x;
    }();
    return r;
}

} // namespace windscope::test
