// SPDX-License-Identifier: GPL-3.0-or-later
// Replays the epan fuzz target's kept inputs (tests/fuzz/corpus/epan, the reader's seeds,
// tests/fuzz/regressions/epan-*) through the module the programs load, with the same
// body as windscope-fuzz-epan (fuzz/fuzz_epan.h). Under the sanitizer presets a memory
// error in the module fails here as it fails the fuzzer; in every build a broken
// invariant does.

#include "dissectors/wireshark/epan_module.h"
#include "fuzz/fuzz_epan.h"
#include "test_support.h"

#include <dlfcn.h>

#include <filesystem>

namespace windscope::test {
namespace {

namespace fs = std::filesystem;
namespace ws = dissect::wireshark;

// The module as EpanSession loads it in a build tree; never closed (libwireshark cannot
// be initialised twice in a process).
const ws::EpanModuleApi* moduleApi(std::string& error)
{
    void* handle = dlopen(WINDSCOPE_EPAN_MODULE_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        error = why ? why : "dlopen failed";
        return nullptr;
    }
    using Entry = const ws::EpanModuleApi* (*)();
    auto entry = reinterpret_cast<Entry>(dlsym(handle, kEpanModuleEntry));
    const ws::EpanModuleApi* api = entry ? entry() : nullptr;
    if (!api || api->abi != ws::kEpanModuleAbi)
        error = "not this build's module";
    return api && api->abi == ws::kEpanModuleAbi ? api : nullptr;
}

// Each input is a file libwireshark opens (about 0.2 s and 7 MB kept until exit under the
// sanitizers), so the kept inputs are replayed in shares, each its own test process,
// which ctest runs side by side.
constexpr int kReplayShares = 6;

class FuzzEpanReplay : public testing::TestWithParam<int>
{};

TEST_P(FuzzEpanReplay, EveryKeptInputPassesTheEpanTarget)
{
    std::string error;
    const ws::EpanModuleApi* api = moduleApi(error);
    ASSERT_TRUE(api) << error;
    const std::vector<fs::path> inputs = keptFuzzInputs("epan", {"reader"});
    // The WPA2 seeds in three containers, the reader's 18 seeds and the grown inputs.
    ASSERT_GE(inputs.size(), 21u);
    std::size_t replayed = 0;
    for (std::size_t i = static_cast<std::size_t>(GetParam()); i < inputs.size(); i += kReplayShares) {
        const std::vector<std::uint8_t> bytes = readFileBytes(inputs[i]);
        EXPECT_EQ(fuzz::fuzzEpan(*api, ws::epanIsolation(), bytes.data(), bytes.size()), "")
            << inputs[i].filename();
        ++replayed;
    }
    EXPECT_GT(replayed, 0u);
}

INSTANTIATE_TEST_SUITE_P(Share, FuzzEpanReplay, testing::Range(0, kReplayShares));

// The target's fixed key is the WPA2 seeds' key, so their CCMP frames are decrypted and
// rebuilt on every run (the fuzzer mutates a path that runs); a file that is not a
// capture is refused with a reason that names it.
TEST(FuzzEpan, TheTargetsKeyDecryptsItsSeedsAndANonCaptureIsRefused)
{
    std::string error;
    const ws::EpanModuleApi* api = moduleApi(error);
    ASSERT_TRUE(api) << error;
    ws::EpanOptions options;
    ws::WpaKey key;
    key.passphrase = fuzz::kEpanFuzzPassphrase;
    key.ssid = fuzz::kEpanFuzzSsid;
    options.keys.push_back(key);
    for (const char* name : {"wpa2-handshake-and-get.pcap", "wpa2-handshake-and-get.pcapng",
                             "wpa2-handshake-and-get.pcap.gz"}) {
        const std::string path = (fuzzInputsDir() / "corpus" / "epan" / name).string();
        bool refused = false;
        void* session = api->open(path, options, ws::epanIsolation(), error, refused);
        ASSERT_TRUE(session) << error;
        EXPECT_EQ(api->frameCount(session), 10u) << name;
        // Frames 5-10 are the CCMP-protected TCP handshake, GET and ACK.
        EXPECT_EQ(api->decryption(session).protectedFrames, 6u) << name;
        EXPECT_EQ(api->decryption(session).decryptedFrames, 6u) << name;
        EXPECT_EQ(api->decryption(session).handshakeMessages[3], 1u) << name;
        api->close(session);
    }
    const fs::path text = fs::path(WINDSCOPE_TEST_DATA_DIR) / "not-a-capture.txt";
    const std::vector<std::uint8_t> bytes = readFileBytes(text);
    bool refused = false;
    error.clear();
    EXPECT_EQ(api->open(text.string(), options, ws::epanIsolation(), error, refused), nullptr);
    EXPECT_FALSE(refused);
    EXPECT_NE(error.find(text.string()), std::string::npos) << error;
    EXPECT_EQ(fuzz::fuzzEpan(*api, ws::epanIsolation(), bytes.data(), bytes.size()), "");
}

} // namespace
} // namespace windscope::test
