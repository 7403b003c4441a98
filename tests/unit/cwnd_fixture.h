// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A one-connection fixture capture from tests/data, ingested, analysed and its data
// sender's congestion window inferred, for the cwnd inference's tests.

#include "analysis/cwnd/cwnd_inference.h"
#include "dissectors/ingest.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace windscope::test {

struct InferredFixture
{
    dissect::CaptureTables tables;
    analysis::cwnd::CwndInference inference;
};

// Fails the calling test (ASSERT) unless the capture holds exactly one connection
// whose window the inference followed.
inline void inferFixture(const std::string& name, InferredFixture& out)
{
    std::string error;
    ASSERT_TRUE(dissect::ingestCapture(testData(name).string(), {}, out.tables, error)) << error;
    const analysis::TcpAnalysis tcp = analysis::analyzeTcp(out.tables);
    ASSERT_EQ(tcp.connections.size(), 1u);
    ASSERT_TRUE(analysis::cwnd::inferCwnd(out.tables, tcp, 0,
                                          analysis::cwnd::dataSenderOf(tcp.connections[0]), {},
                                          out.inference, error))
        << error;
}

} // namespace windscope::test
