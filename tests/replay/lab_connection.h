// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A lab capture's bulk connection (the one carrying the most data), analysed through
// the pipeline as the replay's derivation needs it. Shared by the lab replay tests.

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/pipeline/capture_pipeline.h"
#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/session/replay_session.h"

#include <filesystem>
#include <memory>
#include <string>

namespace windscope::test {

struct LabConnection
{
    std::unique_ptr<analysis::pipeline::CapturePipeline> pipeline;
    std::size_t connection = 0;
    int sender = 0;

    analysis::replay::DerivationInput input() const
    {
        return {&pipeline->tables(), &pipeline->tcp(), connection, sender, &pipeline->events(),
                &pipeline->cwndOfSender(connection, sender)};
    }
    // The data sender's goodput as the analysis measures it (a lab pair's runs compare so).
    double goodputBps() const
    {
        return pipeline->tcp().connections[connection].direction[sender].goodputBps;
    }
};

inline bool openLab(const std::filesystem::path& file, LabConnection& lab, std::string& error)
{
    lab.pipeline = std::make_unique<analysis::pipeline::CapturePipeline>(file.string());
    if (!lab.pipeline->run(analysis::pipeline::AnalysisStage::Events, error))
        return false;
    const analysis::TcpAnalysis& tcp = lab.pipeline->tcp();
    int bulkSender = 0;
    if (!analysis::bulkDirection(tcp, lab.connection, bulkSender)) {
        error = "no data";
        return false;
    }
    lab.sender = analysis::cwnd::dataSenderOf(tcp.connections[lab.connection]);
    return true;
}

// The replay of a lab capture's bulk connection as derived (with the options' fixes,
// none by default); error says why not when the capture cannot be opened.
inline analysis::replay::ReplayReport replayLab(const std::filesystem::path& file, std::string& error,
                                                const analysis::replay::ReplayOptions& options = {})
{
    LabConnection lab;
    if (!openLab(file, lab, error))
        return {};
    return analysis::replay::replayCapture(lab.input(), options);
}

} // namespace windscope::test
