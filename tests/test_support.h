// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared helpers for tests: where the shared captures and fixtures live, and how to
// skip with a reason when something a test needs is absent.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace windscope::test {

inline std::filesystem::path sharedDir() { return WINDSCOPE_SHARED_DIR; }
inline std::filesystem::path publicCapture(const std::string& name)
{
    return sharedDir() / "captures" / "public" / name;
}
inline std::filesystem::path labDir(const std::string& run)
{
    return sharedDir() / "captures" / "lab" / run;
}
inline std::filesystem::path testData(const std::string& name)
{
    return std::filesystem::path(WINDSCOPE_TEST_DATA_DIR) / name;
}
inline std::string cliPath() { return WINDSCOPE_CLI_PATH; }
inline std::string tsharkPath() { return WINDSCOPE_TSHARK; }

// Runs a shell command and returns its standard output; exitCode receives the status.
std::string runCommand(const std::string& command, int* exitCode = nullptr);

// tests/fuzz: the fuzzers' corpora and regressions.
inline std::filesystem::path fuzzInputsDir()
{
    return std::filesystem::path(WINDSCOPE_TEST_DATA_DIR).parent_path() / "fuzz";
}
// A fuzz target's kept inputs, sorted: its corpus, the corpora it also takes as seeds,
// and the regressions named after it (regressions/<target>-*).
std::vector<std::filesystem::path> keptFuzzInputs(const std::string& target,
                                                  const std::vector<std::string>& alsoCorpora = {});
std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path);

// Whether a note (a derivation's or a replay's record of what it read) begins with
// prefix and holds text.
inline bool anyNote(const std::vector<std::string>& notes, std::string_view prefix, std::string_view text = {})
{
    for (const std::string& n : notes)
        if (n.starts_with(prefix) && n.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace windscope::test

// Skip the current test when a shared capture is missing (../shared not present).
#define WINDSCOPE_REQUIRE_FILE(path)                                                             \
    do {                                                                                         \
        if (!std::filesystem::exists(path))                                                      \
            GTEST_SKIP() << "needs " << (path) << " (shared test material is absent)";          \
    } while (0)

#define WINDSCOPE_REQUIRE_TSHARK()                                                               \
    do {                                                                                         \
        if (windscope::test::tsharkPath().empty() ||                                             \
            windscope::test::tsharkPath().find("NOTFOUND") != std::string::npos)                 \
            GTEST_SKIP() << "needs tshark, which was not found at configure time";               \
    } while (0)
