// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The replay's machine-readable outputs (docs/cli.md, "replay"): the JSON of one run,
// the JSON and CSV of a sweep. windscope-cli replay and the desktop application's sweep
// export both write through these, so the two files are the same bytes. Built into
// windscope_replay, whose types they print.

#include "analysis/replay/session/replay_session.h"
#include "analysis/replay/session/sweep.h"

#include <ostream>
#include <string>
#include <vector>

namespace windscope::analysis {

// {"capture": M, "baseline": M, "fixed": M, "calibration_error": {...}, "seed_runs",
// "fixes", "warnings", "scenario", "notes"} with M = {goodput_bps, completion_s,
// retransmissions, rto_timeouts, bytes}; also what a project keeps as a run's record.
std::string replayJson(const replay::ReplayReport& report, const std::vector<std::string>& fixes);

// {"capture": M, "baseline": M, "sweep": {"parameter", "cancelled", "points": [...]}}:
// one entry per point finished (a cancelled point is left out).
std::string sweepJson(const replay::ReplayReport& report, const replay::SweepSpec& sweep,
                      const std::vector<replay::SweepPoint>& points, bool cancelled);

// PARAM,goodput_bps,completion_s,retransmissions,rto_timeouts: one row per point that
// ran without error.
void writeSweepCsv(std::ostream& out, const std::string& parameter, const std::vector<replay::SweepPoint>& points);

} // namespace windscope::analysis
