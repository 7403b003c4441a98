// SPDX-License-Identifier: GPL-3.0-or-later
// The kept inputs of the cache and scenario fuzzers (tests/fuzz/corpus/{cache,scenario},
// tests/fuzz/regressions/{cache,scenario}-*) replayed in every build through the code the
// fuzzers run (fuzz_decoders.h); and the invariant itself checked on blobs and files
// that are valid by construction, so the replay cannot pass by refusing everything.

#include "../fuzz/fuzz_decoders.h"
#include "test_support.h"

#include "analysis/pipeline/analyze_capture.h"
#include "analysis/replay/scenario/presets.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace windscope::test {
namespace {

namespace fs = std::filesystem;

} // namespace

TEST(FuzzDecoders, KeptCacheInputsKeepTheInvariant)
{
    const std::vector<fs::path> inputs = keptFuzzInputs("cache");
    ASSERT_FALSE(inputs.empty()) << "no seeds in tests/fuzz/corpus/cache";
    for (const fs::path& p : inputs) {
        const std::vector<std::uint8_t> bytes = readFileBytes(p);
        EXPECT_EQ(fuzz::fuzzCache(bytes.data(), bytes.size()), "") << p.filename();
    }
}

TEST(FuzzDecoders, KeptScenarioInputsKeepTheInvariant)
{
    const std::vector<fs::path> inputs = keptFuzzInputs("scenario");
    ASSERT_FALSE(inputs.empty()) << "no seeds in tests/fuzz/corpus/scenario";
    for (const fs::path& p : inputs) {
        const std::vector<std::uint8_t> bytes = readFileBytes(p);
        EXPECT_EQ(fuzz::fuzzScenario(bytes.data(), bytes.size()), "") << p.filename();
    }
}

// Every part of a fresh analysis, as the project stores it, goes through the cache
// target and is accepted (a decoder that refused everything would pass the replay).
TEST(FuzzDecoders, EveryPartOfAFreshAnalysisPassesTheCacheTarget)
{
    analysis::pipeline::AnalysisBundle results;
    std::string error;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(testData("lab-a-scan-2mbps-ap.pcap.gz").string(), results, error))
        << error;
    ASSERT_GT(results.events.size(), 0u);
    for (std::size_t i = 0; i < std::size(analysis::store::kAllCacheParts); ++i) {
        const analysis::store::CachePart part = analysis::store::kAllCacheParts[i];
        std::vector<std::uint8_t> input = analysis::store::encodePart(part, results);
        input.insert(input.begin(), static_cast<std::uint8_t>(i));
        EXPECT_EQ(fuzz::fuzzCache(input.data(), input.size()), "") << analysis::store::cachePartName(part);
        analysis::store::AnalysisBundle decoded;
        EXPECT_TRUE(analysis::store::decodePart(part, std::span(input).subspan(1), decoded, error))
            << analysis::store::cachePartName(part) << ": " << error;
    }
}

// Every preset's scenario file is accepted and written back unchanged; a damaged one is
// refused with a reason.
TEST(FuzzDecoders, EveryPresetPassesTheScenarioTargetAndDamageIsRefused)
{
    ASSERT_FALSE(analysis::replay::presetCatalog().empty());
    for (const analysis::replay::PresetInfo& info : analysis::replay::presetCatalog()) {
        const std::string name(info.name);
        analysis::replay::Scenario preset;
        ASSERT_TRUE(analysis::replay::makePreset(info.name, preset)) << name;
        const std::string text = analysis::replay::scenarioToJson(preset);
        EXPECT_EQ(fuzz::fuzzScenario(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), "") << name;
        analysis::replay::Scenario back;
        std::string error;
        EXPECT_TRUE(analysis::replay::scenarioFromJson(text, back, error)) << error;
        const std::string cut = text.substr(0, text.size() / 2);
        error.clear();
        EXPECT_FALSE(analysis::replay::scenarioFromJson(cut, back, error)) << name;
        EXPECT_FALSE(error.empty()) << name;
    }
}

// Found by the scenario fuzzer: a number beyond a double's range threw out of the
// reader (std::terminate); it is refused with the reason.
TEST(FuzzDecoders, AScenarioNumberBeyondADoubleIsRefusedWithItsReason)
{
    analysis::replay::Scenario s;
    std::string error;
    EXPECT_FALSE(analysis::replay::scenarioFromJson(R"({"seed": 1111111e1111111})", s, error));
    EXPECT_NE(error.find("number overflow parsing '1111111e1111111'"), std::string::npos) << error;
    EXPECT_EQ(error.find("[json.exception"), std::string::npos) << error;
}

} // namespace windscope::test
