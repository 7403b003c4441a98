// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where the stages after the cwnd inference (event correlation, plot series, the packet
// index, the replay derivation) take a connection's inferred congestion window from,
// instead of running the inference themselves: the analysis pipeline
// (analysis/pipeline/capture_pipeline.h) computes each once, or loads it from a project.

#include "cwnd_inference.h"

namespace windscope::analysis::cwnd {

class CwndSource
{
public:
    virtual ~CwndSource() = default;
    // The inference with default options of `sender` (an endpoint index; -1 the data
    // sender) of a connection;
    // for the data sender exactly what inferCwndAll gives. Computed on first request and
    // kept; safe to call from several threads.
    virtual const CwndInference& cwndOfSender(std::size_t connection, int sender) const = 0;
    // The connection's data sender (dataSenderOf).
    const CwndInference& cwndOf(std::size_t connection) const { return cwndOfSender(connection, -1); }
};

} // namespace windscope::analysis::cwnd
