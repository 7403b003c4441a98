// SPDX-License-Identifier: GPL-3.0-or-later
#include "derive_scenario.h"

#include "derivation_steps.h"

#include <cstdio>

namespace windscope::analysis::replay {

namespace derive {

std::string format(const char* fmt, double a, double b, double c)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a, b, c);
    return buf;
}

namespace {

// The steps in the order their notes come: the path (size, round trips, rate, queue),
// the endpoints (receiver, congestion control, RTO, recovery), the air, the outages.
constexpr DerivationStep kSteps[] = {
    {"connection rows", readConnectionRows},
    {"segment size", deriveSegmentSize},
    {"round trips", deriveRtt},
    {"delay split", deriveDelaySplit},
    {"bottleneck rate", deriveBottleneck},
    {"queue", deriveQueue},
    {"path rate bound", derivePathRateBound},
    {"receiver drain", deriveReceiver},
    {"congestion control", deriveCongestionControl},
    {"sender pacing", deriveSenderPacing},
    {"rto rule", deriveRtoRule},
    {"loss recovery", noteLossRecovery},
    {"802.11 mac", deriveMac},
    {"path timing", derivePathTiming},
    {"outage timeline", deriveOutages},
    {"periodic outages", derivePeriodicOutages},
    {"scan absences", deriveScanAbsences},
    {"held releases", deriveHeldReleases},
    {"station radio scans", deriveStationRadioScans},
    {"lone losses", placeLoneLosses},
};

} // namespace

std::span<const DerivationStep> derivationSteps()
{
    return kSteps;
}

} // namespace derive

DerivedScenario deriveScenario(const DerivationInput& in)
{
    DerivedScenario out;
    derive::DerivationContext ctx;
    for (const derive::DerivationStep& step : derive::derivationSteps())
        step.run(in, ctx, out);
    return out;
}

} // namespace windscope::analysis::replay
