// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which connection and event a figure or report shows when the user named none, and
// the names a capture's connections and stations are shown with. On the analysis results
// alone, so the window, the report and windscope-cli export choose alike.

#include "analysis/pipeline/analysis_bundle.h"

#include <QString>

namespace windscope::render {

using analysis::pipeline::AnalysisBundle;

// What to show first: the event that hurt TCP most (retransmissions and timeouts in its
// correlation window, then throughput lost) and its most affected connection; without
// events, the connection that moved the most data. -1 when there is none.
struct Selection
{
    int connection = -1;
    int event = -1;
};
Selection mostAffected(const AnalysisBundle& capture);
// How much an event hurt one connection, the score mostAffected() ranks by:
// retransmissions, RTOs counted three times, plus the fraction of throughput lost.
double impactScore(const analysis::ConnectionImpact& impact);
// The event (index in WlanEvents::events) that hurt a connection most, -1 for none.
int worstEventOf(const AnalysisBundle& capture, int connection);

// The connection to show an event (index in WlanEvents::events) on: `preferred` when
// the event touched it, else the affected connection that retransmitted most, else the
// connection an inferred outage belongs to; -1 when none.
int connectionForEvent(const AnalysisBundle& capture, std::size_t event, int preferred = -1);

// "client:port → server:port" of a connection.
QString connectionText(const AnalysisBundle& capture, std::size_t connection);
QString macText(const AnalysisBundle& capture, std::uint32_t mac);

} // namespace windscope::render
