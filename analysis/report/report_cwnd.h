// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// windscope-cli cwnd's outputs (docs/cli.md, "cwnd"): the reconstructed congestion
// window of one sender, one row per data segment. Where the inference did not follow
// the sender the window columns are empty (CSV) or null (JSON) and the state says why.

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/tcp/tcp_analysis.h"

#include <ostream>

namespace windscope::analysis {

// epoch_s,cwnd_bytes,ssthresh_bytes,bytes_in_flight,rwnd_bytes,state,model
void writeCwndCsv(std::ostream& out, const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                  const cwnd::CwndInference& inference);

// {"connection", "from", "to", "model", ..., "fits": [...], "series": [...]} and a newline.
void writeCwndJson(std::ostream& out, const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                   std::size_t connection, int sender, const cwnd::CwndInference& inference);

} // namespace windscope::analysis
