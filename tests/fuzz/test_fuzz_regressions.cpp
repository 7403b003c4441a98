// SPDX-License-Identifier: GPL-3.0-or-later
// Replays every kept fuzz input, in every build (not only with clang): each file in
// tests/fuzz/regressions/ (crashers the fuzzers found) and tests/fuzz/corpus/ (the
// seeds) goes through both fuzz targets, through the same code as the fuzzers
// (fuzz_targets.h). Under the dev-asan preset a memory error fails the test as it
// would fail the fuzzer; in other builds a crash or a broken invariant does.

#include "fuzz_targets.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace windscope::fuzz {
namespace {

namespace fs = std::filesystem;

using test::fuzzInputsDir;
using test::readFileBytes;

struct KeptInput
{
    fs::path path;
    std::string kind; // "regressions", "dissectors" or "reader"
};

// gtest prints a parameter in test listings; the file name is what a reader needs.
void PrintTo(const KeptInput& input, std::ostream* os)
{
    *os << input.kind << "/" << input.path.filename().string();
}

std::vector<KeptInput> keptInputs(const fs::path& dir, const std::string& kind)
{
    std::vector<KeptInput> inputs;
    std::error_code ec;
    for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && !name.empty() && name[0] != '.' && name != "README.md")
            inputs.push_back({entry.path(), kind});
    }
    std::sort(inputs.begin(), inputs.end(),
              [](const KeptInput& a, const KeptInput& b) { return a.path < b.path; });
    return inputs;
}

std::string testName(const testing::TestParamInfo<KeptInput>& info)
{
    std::string name = info.param.kind + "_" + info.param.path.filename().string();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return name;
}

bool startsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

class FuzzReplay : public testing::TestWithParam<KeptInput>
{
};

TEST_P(FuzzReplay, bothTargetsKeepTheirInvariants)
{
    const KeptInput& input = GetParam();
    const std::vector<std::uint8_t> bytes = readFileBytes(input.path);
    const std::string name = input.path.filename().string();
    // Printed first so that a crash names the file in the log.
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", input.path.string().c_str(), bytes.size());

    const FuzzOutcome dissected = fuzzDissectors(bytes.data(), bytes.size());
    EXPECT_EQ(checkOutcome(dissected, false), "");
    const FuzzOutcome read = fuzzReader(bytes.data(), bytes.size());
    EXPECT_EQ(checkOutcome(read, true), "") << read.error;

    if (input.kind == "dissectors") {
        // Both copies of the frame are counted, and a malformed frame is counted as
        // malformed rather than dropped; a valid seed raises no error.
        const dissect::CaptureSummary& s = dissected.tables.summary;
        EXPECT_EQ(s.packets, 2u);
        EXPECT_EQ(s.unknownLinkTypePackets, 0u) << "link type " << dissected.linkType;
        if (startsWith(name, "bad-"))
            EXPECT_EQ(s.malformedPackets, 2u) << "a broken seed was not flagged malformed";
        else
            EXPECT_EQ(s.malformedPackets, 0u)
                << "valid seed flagged malformed: "
                << (s.malformed.empty() ? "" : s.malformed.front().annotation.field) << " "
                << (s.malformed.empty() ? "" : s.malformed.front().annotation.message);
    }
    if (input.kind == "reader") {
        // Every reader seed is a capture file: it opens and yields packets.
        ASSERT_TRUE(read.ingested) << read.error;
        const dissect::CaptureSummary& s = read.tables.summary;
        EXPECT_GT(s.packets, 0u);
        EXPECT_EQ(s.truncated, startsWith(name, "cut-short")) << "warnings: " << s.warnings.size();
        if (startsWith(name, "bad-"))
            EXPECT_GT(s.malformedPackets, 0u);
        else
            EXPECT_EQ(s.malformedPackets, 0u)
                << (s.malformed.empty() ? "" : s.malformed.front().annotation.field);
    }
}

std::vector<KeptInput> allKeptInputs()
{
    std::vector<KeptInput> all = keptInputs(fuzzInputsDir() / "regressions", "regressions");
    for (const char* kind : {"dissectors", "reader"}) {
        std::vector<KeptInput> more = keptInputs(fuzzInputsDir() / "corpus" / kind, kind);
        all.insert(all.end(), more.begin(), more.end());
    }
    return all;
}

INSTANTIATE_TEST_SUITE_P(Kept, FuzzReplay, testing::ValuesIn(allKeptInputs()), testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FuzzReplay);

TEST(FuzzCorpus, seedsArePresent)
{
    // An empty list would make the replay pass vacuously.
    EXPECT_FALSE(keptInputs(fuzzInputsDir() / "corpus" / "dissectors", "dissectors").empty())
        << "no seeds under " << (fuzzInputsDir() / "corpus" / "dissectors").string()
        << " (python3 tests/fuzz/make_seeds.py writes them)";
    EXPECT_FALSE(keptInputs(fuzzInputsDir() / "corpus" / "reader", "reader").empty());
}

TEST(FuzzSelector, everyRegisteredLinkTypeIsReachable)
{
    // A selector equal to a registered link type picks it; any other value picks one
    // of them, so no mutation is wasted on "unknown link type".
    for (std::uint32_t type : fuzzLinkTypes())
        EXPECT_EQ(selectLinkType(static_cast<std::uint16_t>(type)), static_cast<int>(type));
    const auto& types = fuzzLinkTypes();
    for (std::uint32_t selector : {2u, 9999u, 65535u})
        EXPECT_NE(std::find(types.begin(), types.end(),
                            static_cast<std::uint32_t>(selectLinkType(static_cast<std::uint16_t>(selector)))),
                  types.end());
}

} // namespace
} // namespace windscope::fuzz
