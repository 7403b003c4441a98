// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The analysis a project caches for each capture, with default options: ingest, TCP
// analysis, 802.11 inventory and events. One function so the CLI, the GUI and the
// tests cache (and compare against) the same thing.

#include "analysis_codec.h"
#include "dissectors/ingest.h"

#include <string>

namespace windscope::analysis::store {

bool analyzeCapture(const std::string& path, AnalysisBundle& out, std::string& error,
                    dissect::IngestObserver* observer = nullptr);

} // namespace windscope::analysis::store
