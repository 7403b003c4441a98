// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// windscope-cli compare's outputs (docs/cli.md, "compare"): two connections side by side
// -- two captures, or two flows of one -- as the comparison window's table shows them.

#include "analysis/series/plot_series.h"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace windscope::analysis {

// One side of a comparison: what names it and which connection it is.
struct ComparisonSide
{
    std::string name;    // tells the sides apart (comparisonSideNames)
    std::string file;    // the capture's path as given
    std::size_t connection = 0;
    std::string from, to; // data sender and receiver, ADDR:PORT
    std::string cwndModel; // the inferred model, or why the cwnd was not followed
    // Where the side's time 0 is in the plots and figure: its first packet, or the start
    // of one of its 802.11 events (alignEvent, a WlanEvent id; -1 for the first packet).
    double alignSeconds = 0; // seconds since the capture's first packet
    long long alignEvent = -1;
};

// Names for two captures that tell them apart: the file names; where those are equal,
// the path from the first folder where they differ ("B-handoff-baseline/wired-server.pcap");
// where the files are one and the same, the file name with the connection ("x.pcap #0").
std::pair<std::string, std::string> comparisonSideNames(const std::string& fileA, std::size_t connectionA,
                                                        const std::string& fileB, std::size_t connectionB);

// metric,unit,a,b,b_minus_a ("" where a side could not measure it).
void writeComparisonCsv(std::ostream& out, const std::vector<ComparisonRow>& rows);

// {"a": side, "b": side, "rows": [{"metric", "unit", "a", "b", "difference"}]}: null
// where a side could not measure the quantity.
void writeComparisonJson(std::ostream& out, const ComparisonSide& a, const ComparisonSide& b,
                         const std::vector<ComparisonRow>& rows);

// The table as text, one row per metric, the names as column headers.
void writeComparisonText(std::ostream& out, const ComparisonSide& a, const ComparisonSide& b,
                         const std::vector<ComparisonRow>& rows);

} // namespace windscope::analysis
