// SPDX-License-Identifier: GPL-3.0-or-later
// TCP analysis of a WPA2-PSK (CCMP) capture decrypted through epan equals the analysis
// of the same capture in the clear: the committed fixture (a public HTTP session turned
// into WPA2 by tests/data/gen/make_wpa2_capture.py) and, when the generator can run, a
// lab capture with a handoff (two 4-way handshakes, one per access point).

#include "analysis/pipeline/analyze_capture.h"
#include "dissectors/wireshark/epan_session.h"
#include "store/store_test_kit.h"
#include "test_support.h"

namespace windscope::test {
namespace {

namespace ws = dissect::wireshark;
namespace store = analysis::store;

ws::EpanOptions keyOptions(const std::string& text)
{
    ws::EpanOptions options;
    ws::WpaKey key;
    std::string error;
    EXPECT_TRUE(ws::WpaKey::parse(text, key, error)) << error;
    options.keys.push_back(key);
    return options;
}

// Decrypts encrypted into scratch, then compares every analysis struct with plain's.
void expectDecryptedEqualsPlain(const std::filesystem::path& encrypted,
                                const std::filesystem::path& plain, const std::string& key,
                                const ScratchDir& scratch)
{
    const auto decrypted = scratch / "decrypted.pcap";
    std::string error;
    {
        auto session = ws::EpanSession::open(encrypted.string(), keyOptions(key), error);
        ASSERT_TRUE(session) << error;
        const ws::DecryptionReport& report = session->decryption();
        EXPECT_GT(report.protectedFrames, 0u);
        EXPECT_EQ(report.decryptedFrames, report.protectedFrames) << report.reason();
        EXPECT_EQ(report.reason(), "");
        ASSERT_TRUE(session->writeDecryptedPcap(decrypted.string(), error)) << error;
    }
    analysis::pipeline::AnalysisBundle fromDecrypted, fromPlain, fromEncrypted;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(decrypted.string(), fromDecrypted, error)) << error;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(plain.string(), fromPlain, error)) << error;
    ASSERT_FALSE(fromPlain.tcp.connections.empty());
    expectSameTables(fromDecrypted.tables, fromPlain.tables, /*comparePath=*/false);
    expectSameTcp(fromDecrypted.tcp, fromPlain.tcp);
    expectSameEvents(fromDecrypted.events, fromPlain.events);
    // Without decryption the same capture shows no TCP at all.
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(encrypted.string(), fromEncrypted, error)) << error;
    EXPECT_TRUE(fromEncrypted.tcp.connections.empty());
}

TEST(Wpa2Tcp, FixtureDecryptsToItsPlainForm)
{
    ScratchDir scratch;
    expectDecryptedEqualsPlain(testData("wpa2-http-ccmp.pcap"), testData("wpa2-http-plain.pcap"),
                               "correct horse battery:windscope-lab", scratch);
}

TEST(Wpa2Tcp, WrongKeyLeavesTheTcpHidden)
{
    std::string error;
    auto session = ws::EpanSession::open(testData("wpa2-http-ccmp.pcap").string(),
                                         keyOptions("battery horse correct:windscope-lab"), error);
    ASSERT_TRUE(session) << error;
    EXPECT_EQ(session->decryption().decryptedFrames, 0u);
    EXPECT_NE(session->decryption().reason().find("does not match"), std::string::npos)
        << session->decryption().reason();
}

// `windscope-cli analyze --key` reports the encrypted capture exactly as `analyze` reports
// its plaintext form (the generator's --plain output), but for the file name.
TEST(Wpa2Tcp, AnalyzeWithKeyEqualsThePlainAnalysis)
{
    const std::string encrypted = testData("wpa2-http-ccmp.pcap").string();
    const std::string plain = testData("wpa2-http-plain.pcap").string();
    ScratchDir scratch;
    const std::string notes = (scratch / "stderr.txt").string();
    int status = -1;
    std::string withKey =
        runCommand("'" + cliPath() + "' analyze '" + encrypted +
                       "' --json --key 'wpa-pwd:correct horse battery:windscope-lab' 2>'" + notes + "'",
                   &status);
    ASSERT_EQ(status, 0);
    const std::string reference = runCommand("'" + cliPath() + "' analyze '" + plain + "' --json", &status);
    ASSERT_EQ(status, 0);
    ASSERT_NE(reference.find("\"connections\":[{"), std::string::npos) << reference;
    const std::string encryptedPath = "\"path\":\"" + encrypted + "\"";
    const std::size_t at = withKey.find(encryptedPath);
    ASSERT_NE(at, std::string::npos) << "the report names the capture given: " << withKey;
    withKey.replace(at, encryptedPath.size(), "\"path\":\"" + plain + "\"");
    // Warnings name the capture too (e.g. its sniffer gaps, the same in both files).
    for (std::size_t named = withKey.find(encrypted); named != std::string::npos; named = withKey.find(encrypted))
        withKey.replace(named, encrypted.size(), plain);
    EXPECT_EQ(withKey, reference);
    const auto stderrText = fileBytes(notes);
    EXPECT_NE(std::string(stderrText.begin(), stderrText.end())
                  .find("26 of 26 protected 802.11 data frames decrypted"),
              std::string::npos);

    // The other spelling of the same key gives the same report; a wrong key says why the
    // frames stayed encrypted, and the analysis then sees no TCP.
    EXPECT_EQ(runCommand("'" + cliPath() + "' analyze '" + encrypted +
                             "' --json --key 'correct horse battery:windscope-lab' 2>/dev/null",
                         &status),
              runCommand("'" + cliPath() + "' analyze '" + encrypted +
                             "' --json --key 'wpa-pwd:correct horse battery:windscope-lab' 2>/dev/null"));
    const std::string wrong = runCommand("'" + cliPath() + "' analyze '" + encrypted +
                                             "' --key 'battery horse correct:windscope-lab' 2>&1",
                                         &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(wrong.find("TCP segments    0 in 0 connections"), std::string::npos) << wrong;
    EXPECT_NE(wrong.find("0 of 26 protected 802.11 data frames decrypted"), std::string::npos) << wrong;
    EXPECT_NE(wrong.find("does not match"), std::string::npos) << wrong;
    // A malformed key is refused before anything is read.
    runCommand("'" + cliPath() + "' analyze '" + encrypted + "' --key short:net 2>/dev/null", &status);
    EXPECT_NE(status, 0);
}

TEST(Wpa2Tcp, LabHandoffCaptureDecryptsToItsPlainForm)
{
    const auto lab = labDir("linux/reno-handoff") / "ap-wlan.pcap";
    WINDSCOPE_REQUIRE_FILE(lab);
    int status = -1;
    runCommand("python3 -c 'import cryptography' 2>/dev/null", &status);
    if (status != 0)
        GTEST_SKIP() << "needs python3 with the cryptography module (Debian python3-cryptography)";
    ScratchDir scratch;
    const std::string generator =
        (std::filesystem::path(WINDSCOPE_TEST_DATA_DIR) / "gen" / "make_wpa2_capture.py").string();
    runCommand("python3 '" + generator + "' '" + lab.string() +
                   "' --ssid lab-ap --passphrase 'handoff passphrase' --plain '" +
                   (scratch / "plain.pcap").string() + "' --encrypted '" +
                   (scratch / "wpa2.pcap").string() + "'",
               &status);
    ASSERT_EQ(status, 0);
    expectDecryptedEqualsPlain(scratch / "wpa2.pcap", scratch / "plain.pcap",
                               "handoff passphrase:lab-ap", scratch);
    // The decrypted frames are the plaintext frames, byte for byte (no FCS here).
    EXPECT_EQ(fileBytes(scratch / "decrypted.pcap"), fileBytes(scratch / "plain.pcap"));
}

} // namespace
} // namespace windscope::test
