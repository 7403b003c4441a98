// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The bodies of the two fuzz targets over files Windscope reads back itself: the
// project's cached analysis (every part's decoder) and replay scenario files. Shared by
// the libFuzzer entry points (fuzz_cache.cpp, fuzz_scenario.cpp) and the replay of the
// kept inputs in every build (tests/store/test_fuzz_decoders.cpp).
//
// Each returns "" or the invariant the input broke. Beyond memory errors: whatever a
// decoder accepts must encode again, and that encoding must decode to the same bytes
// (no input is taken that cannot be written back as it was read).

#include "analysis/replay/scenario/scenario_json.h"
#include "analysis/store/analysis_codec.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <vector>

namespace windscope::fuzz {

// Input: one byte choosing the part (its index in kAllCacheParts, modulo their count),
// then the blob as stored.
inline std::string fuzzCache(const std::uint8_t* data, std::size_t size)
{
    namespace store = analysis::store;
    if (size == 0)
        return {};
    constexpr std::size_t kParts = std::size(store::kAllCacheParts);
    const store::CachePart part = store::kAllCacheParts[data[0] % kParts];
    const std::span<const std::uint8_t> blob(data + 1, size - 1);
    store::AnalysisBundle decoded;
    std::string error;
    if (!store::decodePart(part, blob, decoded, error))
        return error.empty() ? std::string("a refused blob gave no reason") : std::string();
    const std::vector<std::uint8_t> again = store::encodePart(part, decoded);
    store::AnalysisBundle second;
    if (!store::decodePart(part, again, second, error))
        return std::string("a decoded ") + store::cachePartName(part) + " does not decode once re-encoded: " + error;
    if (store::encodePart(part, second) != again)
        return std::string("a decoded ") + store::cachePartName(part) + " changes when re-encoded twice";
    return {};
}

// Input: the text of a scenario file.
inline std::string fuzzScenario(const std::uint8_t* data, std::size_t size)
{
    namespace replay = analysis::replay;
    const std::string text(reinterpret_cast<const char*>(data), size);
    replay::Scenario scenario;
    std::string error;
    if (!replay::scenarioFromJson(text, scenario, error))
        return error.empty() ? std::string("a refused scenario gave no reason") : std::string();
    const std::string written = replay::scenarioToJson(scenario);
    replay::Scenario again;
    if (!replay::scenarioFromJson(written, again, error))
        return "an accepted scenario does not read back once written: " + error;
    if (replay::scenarioToJson(again) != written)
        return "an accepted scenario changes when written twice";
    return {};
}

} // namespace windscope::fuzz
