// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_flow.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/report/report_json.h"

#include <cstdio>

namespace windscope::cli {

bool resolveFlow(const dissect::CaptureTables& tables, const analysis::TcpAnalysis& tcp, const std::string& flow,
                 std::size_t& connection, int& sender)
{
    const auto dash = flow.find('-', flow.find(':') == std::string::npos ? 0 : flow.find(':'));
    if (flow.find(':') == std::string::npos) {
        try {
            std::size_t used = 0;
            const unsigned long long id = std::stoull(flow, &used);
            if (used != flow.size() || id >= tcp.connections.size())
                return false;
            connection = static_cast<std::size_t>(id);
            sender = analysis::cwnd::dataSenderOf(tcp.connections[connection]);
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }
    if (dash == std::string::npos)
        return false;
    const std::string from = flow.substr(0, dash), to = flow.substr(dash + 1);
    for (const analysis::Connection& c : tcp.connections)
        for (int d = 0; d < 2; ++d)
            if (analysis::endpointText(tables, c.address[d], c.port[d]) == from &&
                analysis::endpointText(tables, c.address[1 - d], c.port[1 - d]) == to) {
                connection = c.id; // the last connection on reused ports wins: the newest
                sender = d;
            }
    return connection < tcp.connections.size() &&
           analysis::endpointText(tables, tcp.connections[connection].address[sender],
                                  tcp.connections[connection].port[sender]) == from;
}

void printCaptureWarnings(const dissect::CaptureTables& tables)
{
    std::fflush(stdout);
    for (const std::string& warning : tables.summary.warnings)
        std::fprintf(stderr, "windscope-cli: warning: %s\n", warning.c_str());
}

int loadFlow(const char* command, const std::string& path, const std::string& flow, LoadedFlow& out)
{
    std::string error;
    out.pipeline = std::make_unique<analysis::pipeline::CapturePipeline>(path);
    if (!out.pipeline->run(analysis::pipeline::AnalysisStage::Tcp, error)) {
        std::fprintf(stderr, "windscope-cli: %s\n", error.c_str());
        return 1;
    }
    printCaptureWarnings(out.pipeline->tables());
    const analysis::TcpAnalysis& tcp = out.pipeline->tcp();
    out.connection = tcp.connections.size();
    if (flow.empty()) {
        // No flow named: the capture's bulk flow.
        if (analysis::bulkDirection(tcp, out.connection, out.sender))
            return 0;
        std::fprintf(stderr, "windscope-cli %s: %s carries no TCP data\n", command, path.c_str());
        return 1;
    }
    if (!resolveFlow(out.pipeline->tables(), tcp, flow, out.connection, out.sender)) {
        std::fprintf(stderr, "windscope-cli %s: no connection '%s' in %s\n", command, flow.c_str(), path.c_str());
        return 1;
    }
    return 0;
}

} // namespace windscope::cli
