// SPDX-License-Identifier: GPL-3.0-or-later
// The epan backend against tshark 4.0 itself: the tree text of a frame equals
// `tshark -2 -V`, field values equal `tshark -2 -T fields`, WPA2 decryption decrypts
// what tshark decrypts and says why the rest stays encrypted.

#include "dissectors/wireshark/epan_session.h"
#include "test_support.h"

#include <functional>
#include <map>
#include <sstream>

namespace windscope::test {
namespace {

namespace ws = dissect::wireshark;

std::unique_ptr<ws::EpanSession> openSession(const std::filesystem::path& path,
                                             const ws::EpanOptions& options = {})
{
    std::string error;
    auto session = ws::EpanSession::open(path.string(), options, error);
    EXPECT_TRUE(session) << error;
    return session;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// tshark -2 -V for one frame, without what depends on the display filter (the delta to
// the previous *displayed* frame) and without the blank line that separates packets.
std::vector<std::string> tsharkTree(const std::filesystem::path& path, std::uint64_t frame)
{
    std::vector<std::string> out;
    for (const std::string& line :
         lines(runCommand(tsharkPath() + " -2 -r '" + path.string() +
                          "' -V -Y frame.number==" + std::to_string(frame) + " 2>/dev/null")))
        if (line.find("Time delta from previous displayed frame") == std::string::npos)
            out.push_back(line);
    while (!out.empty() && out.back().empty())
        out.pop_back();
    return out;
}

void expectTreeLikeTshark(const std::filesystem::path& path, std::vector<std::uint64_t> frames)
{
    WINDSCOPE_REQUIRE_FILE(path);
    WINDSCOPE_REQUIRE_TSHARK();
    auto session = openSession(path);
    ASSERT_TRUE(session);
    for (std::uint64_t frame : frames) {
        ws::PacketDetail detail;
        std::string error;
        ASSERT_TRUE(session->dissect(frame, detail, error)) << error;
        std::vector<std::string> ours;
        for (const std::string& line : lines(detail.text()))
            if (line.find("Time delta from previous displayed frame") == std::string::npos)
                ours.push_back(line);
        const std::vector<std::string> theirs = tsharkTree(path, frame);
        ASSERT_FALSE(theirs.empty()) << "tshark printed nothing for frame " << frame;
        EXPECT_EQ(ours, theirs) << path.filename() << " frame " << frame;
        ASSERT_FALSE(detail.sources.empty());
        EXPECT_EQ(detail.frame, frame);
    }
}

TEST(EpanSession, TreeEqualsTsharkOnRadiotapCapture)
{
    expectTreeLikeTshark(publicCapture("arkime__80211http.pcap"), {1, 5, 14, 26});
}

TEST(EpanSession, TreeEqualsTsharkOnEthernetCapture)
{
    expectTreeLikeTshark(publicCapture("pcapplusplus__example.pcap"), {3000, 42, 4631});
}

TEST(EpanSession, TreeEqualsTsharkOnLabCapture)
{
    expectTreeLikeTshark(labDir("linux/reno-scan100") / "ap-wlan.pcap", {1, 250, 2000, 9000});
}

// All values of a field in a frame's tree (hidden items included), in tree order, as
// tshark -T fields -E occurrence=a -E aggregator=, prints them; FT_NONE fields such as
// tcp.analysis.retransmission print "1".
void collect(const std::vector<ws::PacketTreeNode>& nodes, const std::string& field,
             std::vector<std::string>& out)
{
    for (const ws::PacketTreeNode& node : nodes) {
        if (node.abbrev == field)
            out.push_back(node.value.empty() ? "1" : node.value);
        collect(node.children, field, out);
    }
}

void expectFieldsLikeTshark(const std::filesystem::path& path, std::uint64_t maxFrames)
{
    WINDSCOPE_REQUIRE_FILE(path);
    WINDSCOPE_REQUIRE_TSHARK();
    const std::vector<std::string> fields = {"frame.number",
                                             "tcp.seq",
                                             "tcp.ack",
                                             "tcp.stream",
                                             "tcp.analysis.ack_rtt",
                                             "tcp.analysis.bytes_in_flight",
                                             "tcp.analysis.retransmission",
                                             "tcp.analysis.duplicate_ack",
                                             "tcp.analysis.lost_segment",
                                             "wlan.fc.retry",
                                             "radiotap.dbm_antsignal",
                                             "wlan.sa",
                                             "ip.src",
                                             "tcp.window_size"};
    std::string command = tsharkPath() + " -2 -r '" + path.string() +
                          "' -T fields -E occurrence=a -E aggregator=, -Y 'frame.number<=" +
                          std::to_string(maxFrames) + "'";
    for (const std::string& f : fields)
        command += " -e " + f;
    const std::vector<std::string> rows = lines(runCommand(command + " 2>/dev/null"));
    ASSERT_FALSE(rows.empty());
    auto session = openSession(path);
    ASSERT_TRUE(session);
    std::map<std::string, std::uint64_t> seen;
    for (const std::string& row : rows) {
        std::vector<std::string> theirs;
        std::size_t start = 0;
        for (std::size_t tab; (tab = row.find('\t', start)) != std::string::npos; start = tab + 1)
            theirs.push_back(row.substr(start, tab - start));
        theirs.push_back(row.substr(start));
        ASSERT_EQ(theirs.size(), fields.size()) << row;
        const std::uint64_t frame = std::stoull(theirs[0]);
        ws::PacketDetail detail;
        std::string error;
        ASSERT_TRUE(session->dissect(frame, detail, error)) << error;
        for (std::size_t i = 1; i < fields.size(); ++i) {
            std::vector<std::string> values;
            collect(detail.tree, fields[i], values);
            std::string ours;
            for (const std::string& v : values)
                ours += (ours.empty() ? "" : ",") + v;
            EXPECT_EQ(ours, theirs[i]) << path.filename() << " frame " << frame << " " << fields[i];
            if (!ours.empty())
                ++seen[fields[i]];
        }
    }
    // The comparison covered the fields that matter, not only empty cells.
    for (const char* f : {"tcp.seq", "tcp.analysis.bytes_in_flight"})
        EXPECT_GT(seen[f], 0u) << f << " never present in " << path.filename();
}

TEST(EpanSession, FieldValuesEqualTsharkOnPublicMonitorCapture)
{
    expectFieldsLikeTshark(publicCapture("networks744__active1.pcap"), 400);
}

TEST(EpanSession, FieldValuesEqualTsharkOnLabCapture)
{
    expectFieldsLikeTshark(labDir("linux/reno-loss05") / "ap-wlan.pcap", 3000);
}

TEST(EpanSession, NodesCarryOffsetsIntoTheirSource)
{
    const auto path = publicCapture("arkime__80211http.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    auto session = openSession(path);
    ASSERT_TRUE(session);
    ws::PacketDetail detail;
    std::string error;
    ASSERT_TRUE(session->dissect(5, detail, error)) << error;
    EXPECT_EQ(detail.protocols, "radiotap:wlan_radio:wlan:llc:ip:tcp");
    ASSERT_EQ(detail.sources.size(), 1u);
    EXPECT_EQ(detail.sources[0].bytes.size(), 124u);
    std::vector<std::string> seq;
    collect(detail.tree, "tcp.seq_raw", seq);
    ASSERT_EQ(seq.size(), 1u);
    // Find the tcp.seq_raw node and check its 4 bytes in the frame spell the value.
    std::function<const ws::PacketTreeNode*(const std::vector<ws::PacketTreeNode>&)> find =
        [&](const std::vector<ws::PacketTreeNode>& nodes) -> const ws::PacketTreeNode* {
        for (const auto& n : nodes) {
            if (n.abbrev == "tcp.seq_raw")
                return &n;
            if (const auto* c = find(n.children))
                return c;
        }
        return nullptr;
    };
    const ws::PacketTreeNode* node = find(detail.tree);
    ASSERT_TRUE(node);
    ASSERT_EQ(node->length, 4);
    const auto& bytes = detail.sources[0].bytes;
    const std::uint32_t onWire =
        std::uint32_t(bytes[node->offset]) << 24 | std::uint32_t(bytes[node->offset + 1]) << 16 |
        std::uint32_t(bytes[node->offset + 2]) << 8 | bytes[node->offset + 3];
    EXPECT_EQ(std::to_string(onWire), node->value);
}

TEST(EpanSession, OneSessionAtATimeAndFrameRange)
{
    const auto path = publicCapture("arkime__80211http.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    auto session = openSession(path);
    ASSERT_TRUE(session);
    EXPECT_EQ(session->frameCount(), 26u);
    std::string error;
    EXPECT_FALSE(ws::EpanSession::open(path.string(), {}, error));
    EXPECT_NE(error.find("another Wireshark session"), std::string::npos) << error;
    ws::PacketDetail detail;
    EXPECT_FALSE(session->dissect(27, detail, error));
    EXPECT_NE(error.find("26 frames"), std::string::npos) << error;
    EXPECT_FALSE(session->dissect(0, detail, error));
    session.reset();
    EXPECT_TRUE(openSession(path)); // after closing, a new one opens
}

TEST(EpanSession, UnreadableFileIsNamed)
{
    std::string error;
    EXPECT_FALSE(ws::EpanSession::open(testData("not-a-capture.txt").string(), {}, error));
    EXPECT_NE(error.find("not-a-capture.txt"), std::string::npos) << error;
}

ws::EpanOptions withKey(const std::string& text)
{
    ws::EpanOptions options;
    ws::WpaKey key;
    std::string error;
    EXPECT_TRUE(ws::WpaKey::parse(text, key, error)) << error;
    options.keys.push_back(key);
    return options;
}

TEST(EpanDecryption, Wpa2PassphraseDecryptsWhatTsharkDecrypts)
{
    const auto path = publicCapture("aircrack__wpa2-psk-linksys.cap");
    WINDSCOPE_REQUIRE_FILE(path);
    WINDSCOPE_REQUIRE_TSHARK();
    auto session = openSession(path, withKey("dictionary:linksys"));
    ASSERT_TRUE(session);
    const ws::DecryptionReport& report = session->decryption();
    EXPECT_EQ(report.protectedFrames, 32u);
    EXPECT_EQ(report.decryptedFrames, 30u);
    EXPECT_EQ(report.handshakeMessages[0], 3u);
    EXPECT_EQ(report.handshakeMessages[3], 3u);
    EXPECT_NE(report.reason().find("2 of 32"), std::string::npos) << report.reason();

    // Frame by frame, the same protocol stacks as tshark with the same key.
    const std::vector<std::string> theirs =
        lines(runCommand(tsharkPath() + " -r '" + path.string() +
                         "' -o 'uat:80211_keys:\"wpa-pwd\",\"dictionary:linksys\"' -T fields "
                         "-e frame.protocols 2>/dev/null"));
    ASSERT_EQ(theirs.size(), 499u);
    for (std::uint64_t frame : {5u, 56u, 57u, 157u, 278u, 280u}) {
        ws::PacketDetail detail;
        std::string error;
        ASSERT_TRUE(session->dissect(frame, detail, error)) << error;
        EXPECT_EQ(detail.protocols, theirs[frame - 1]) << "frame " << frame;
    }
    ws::PacketDetail icmp;
    std::string error;
    ASSERT_TRUE(session->dissect(56, icmp, error)) << error;
    ASSERT_EQ(icmp.sources.size(), 2u);
    EXPECT_EQ(icmp.sources[1].name.rfind("Decrypted CCMP data", 0), 0u) << icmp.sources[1].name;
}

TEST(EpanDecryption, PskWorksLikeThePassphrase)
{
    const auto path = publicCapture("aircrack__wpa2-psk-linksys.cap");
    WINDSCOPE_REQUIRE_FILE(path);
    // PBKDF2-HMAC-SHA1("dictionary", "linksys", 4096, 32) (IEEE 802.11-2020 J.4.1).
    auto session = openSession(
        path, withKey("5df920b5481ed70538dd5fd02423d7e2522205feeebb974cad08a52b5613ede2"));
    ASSERT_TRUE(session);
    EXPECT_EQ(session->decryption().decryptedFrames, 30u);
}

TEST(EpanDecryption, SaysWhyFramesStayEncrypted)
{
    const auto path = publicCapture("aircrack__wpa2-psk-linksys.cap");
    WINDSCOPE_REQUIRE_FILE(path);
    {
        auto session = openSession(path);
        ASSERT_TRUE(session);
        EXPECT_EQ(session->decryption().decryptedFrames, 0u);
        EXPECT_NE(session->decryption().reason().find("no WPA key given"), std::string::npos)
            << session->decryption().reason();
    }
    {
        auto session = openSession(path, withKey("not-the-passphrase:linksys"));
        ASSERT_TRUE(session);
        EXPECT_EQ(session->decryption().decryptedFrames, 0u);
        EXPECT_NE(session->decryption().reason().find("does not match"), std::string::npos)
            << session->decryption().reason();
    }
    // A capture whose encrypted frames come without any 4-way handshake.
    const auto noHandshake = publicCapture("pypacker__packets_prism.pcap");
    if (std::filesystem::exists(noHandshake)) {
        auto session = openSession(noHandshake, withKey("whatever-it-is:net"));
        ASSERT_TRUE(session);
        EXPECT_GT(session->decryption().protectedFrames, 0u);
        EXPECT_NE(session->decryption().reason().find("no WPA 4-way handshake"), std::string::npos)
            << session->decryption().reason();
    }
}

TEST(EpanDecryption, KeyTextIsChecked)
{
    ws::WpaKey key;
    std::string error;
    EXPECT_FALSE(ws::WpaKey::parse("short:net", key, error));
    EXPECT_TRUE(ws::WpaKey::parse("pass:with:colons:my net", key, error)) << error;
    EXPECT_EQ(key.passphrase, "pass:with:colons");
    EXPECT_EQ(key.ssid, "my net");
    // Wireshark's spellings of the same keys.
    EXPECT_TRUE(ws::WpaKey::parse("wpa-pwd:correct horse:lab", key, error)) << error;
    EXPECT_EQ(key.kind, ws::WpaKey::Kind::Passphrase);
    EXPECT_EQ(key.passphrase, "correct horse");
    EXPECT_EQ(key.ssid, "lab");
    const std::string psk(64, 'a');
    EXPECT_TRUE(ws::WpaKey::parse("wpa-psk:" + psk, key, error)) << error;
    EXPECT_EQ(key.kind, ws::WpaKey::Kind::Psk);
    EXPECT_EQ(key.psk, psk);
    EXPECT_FALSE(ws::WpaKey::parse("wpa-psk:correct horse:lab", key, error));
}

// A record whose original length is beyond a signed int (here 0xb700008c bytes on the
// wire, 140 captured; the epan fuzz target's first finding) is shown with the length
// clamped, as Wireshark's frame buffers do, instead of aborting the process; `packet`
// names the damage after it.
TEST(EpanSession, ARecordLongerThanIntMaxIsShownNotAborted)
{
    const auto path = std::filesystem::path(WINDSCOPE_TEST_DATA_DIR).parent_path() / "fuzz" / "regressions" /
                      "epan-frame-original-length-beyond-int-abort";
    auto session = openSession(path);
    ASSERT_TRUE(session);
    ASSERT_EQ(session->frameCount(), 1u);
    ws::PacketDetail detail;
    std::string error;
    ASSERT_TRUE(session->dissect(1, detail, error)) << error;
    ASSERT_FALSE(detail.tree.empty());
    EXPECT_EQ(detail.tree[0].label, "Frame 1: 2147483647 bytes on wire (4294967288 bits), 140 bytes captured "
                                    "(1120 bits)");
    EXPECT_NE(session->damage().find("file is cut short in frame 2"), std::string::npos) << session->damage();
    int status = 0;
    const std::string out = runCommand(std::string(WINDSCOPE_CLI_PATH) + " packet '" + path.string() + "' 1 2>&1",
                                       &status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("140 bytes captured"), std::string::npos) << out;
}

} // namespace
} // namespace windscope::test
