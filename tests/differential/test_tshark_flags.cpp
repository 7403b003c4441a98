// SPDX-License-Identifier: GPL-3.0-or-later
// Windscope's TCP analysis against tshark 4.0 on every public capture: per frame, the
// set of tcp.analysis.* flags, tcp.analysis.duplicate_ack_num,
// tcp.analysis.bytes_in_flight, tcp.window_size, tcp.seq and tcp.ack (relative, modulo
// 2^32) and tcp.stream (our connection id).
//
// Agreement is counted over the frames flagged by either tool: a frame agrees when both
// give it the same set of Wireshark flags. Every other difference (a value, a frame only
// one tool has as TCP) is a disagreement class too; each class found must be listed in
// kExpectedDifferences with its reason, or the test fails.
//
// 802.11 captures. tshark passes frames with a bad FCS and 802.11 retries of frames
// already heard up to TCP (wlan.subdissector is on by default); Windscope keeps them out
// of TCP analysis. The fair reference is tshark on a copy of the capture without exactly
// the frames Windscope set aside (WlanColumns::status), made with tshark itself
// (-Y '!(frame.number in {...})' -w); the copy renumbers frames, so a map brings its
// numbers back to the original's.
#include "test_support.h"

#include "analysis/tcp/tcp_analysis.h"
#include "dissectors/ingest.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace windscope;
using namespace windscope::analysis;
namespace sf = windscope::analysis::segment_flag;

namespace {

// A class of disagreement that is understood: the capture, the class key as printed
// by the test, and why Windscope differs from tshark there.
struct ExpectedDifference
{
    const char* file;
    const char* difference;
    const char* reason;
};

// Empty: on every public capture Windscope currently agrees with tshark 4.0.17 on every
// frame (flags, numbers and stream ids). Add an entry, with its reason, only for a
// difference that is understood and accepted.
const std::vector<ExpectedDifference> kExpectedDifferences = {};

// The Wireshark flag bits in a fixed order, with their field names from the header.
std::vector<std::uint32_t> wiresharkBits()
{
    std::vector<std::uint32_t> bits;
    for (std::uint32_t bit = 1; bit; bit <<= 1)
        if (bit & sf::kWiresharkMask)
            bits.push_back(bit);
    return bits;
}

std::string flagNames(std::uint32_t flags)
{
    std::string out;
    for (std::uint32_t bit : wiresharkBits())
        if (flags & bit) {
            if (!out.empty())
                out += ",";
            std::string name = segmentFlagName(bit);
            out += name.substr(name.rfind('.') + 1);
        }
    return out;
}

std::string shellQuote(const std::string& s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// "1,5,6,7,9" -> "1,5..7,9" for the display-filter set.
std::string frameSet(const std::vector<std::uint64_t>& frames)
{
    std::string out;
    for (std::size_t i = 0; i < frames.size();) {
        std::size_t j = i;
        while (j + 1 < frames.size() && frames[j + 1] == frames[j] + 1)
            ++j;
        if (!out.empty())
            out += ",";
        out += std::to_string(frames[i]);
        if (j > i)
            out += ".." + std::to_string(frames[j]);
        i = j + 1;
    }
    return out;
}

struct Reference
{
    std::int64_t stream = -1;
    std::uint32_t flags = 0;
    std::uint32_t dupAckNumber = 0;
    std::uint32_t bytesInFlight = 0;
    std::uint32_t windowBytes = 0;
    std::uint32_t relativeSeq = 0; // tcp.seq: relative, modulo 2^32
    bool hasAck = false;
    std::uint32_t relativeAck = 0; // tcp.ack, present with the ACK bit
};

struct FileResult
{
    std::string file;
    std::string error;
    bool wireless = false;
    std::size_t rows = 0, referenceRows = 0, excluded = 0;
    std::size_t flagged = 0, agreeing = 0;
    double seconds = 0;
    std::map<std::string, std::size_t> classes;
    std::map<std::string, std::vector<std::uint64_t>> examples;
    void note(const std::string& key, std::uint64_t frame)
    {
        ++classes[key];
        if (examples[key].size() < 6)
            examples[key].push_back(frame);
    }
};

std::uint32_t firstNumber(const std::string& field)
{
    return field.empty() ? 0u
                         : static_cast<std::uint32_t>(std::stoul(field.substr(0, field.find(','))));
}

FileResult compareFile(const std::filesystem::path& path)
{
    FileResult result;
    result.file = path.filename().string();
    dissect::CaptureTables tables;
    std::string error;
    if (!dissect::ingestCapture(path.string(), {}, tables, error)) {
        result.error = "ingest failed: " + error;
        return result;
    }
    const TcpAnalysis analysis = analyzeTcp(tables);
    result.rows = tables.tcp.size();
    result.wireless = tables.summary.wlanFrames > 0;

    // The frames Windscope set aside at the MAC layer, and the renumbering map.
    std::vector<std::uint64_t> excluded;
    for (std::size_t i = 0; i < tables.wlan.size(); ++i)
        if (tables.wlan.status[i] &
            (dissect::WlanColumns::kBadFcs | dissect::WlanColumns::kMacDuplicate))
            excluded.push_back(tables.wlan.frame[i]);
    // A capture that holds its records twice is analysed once (RepeatDetector); tshark
    // would read the repeats as retransmissions. The frames without a TCP row are left
    // out of its copy (the others carry no TCP, so its analysis of the rest is the same).
    if (tables.summary.repeatedPackets > 0) {
        std::vector<bool> hasRow(tables.summary.packets + 1, false);
        for (std::size_t i = 0; i < tables.tcp.size(); ++i)
            if (const std::uint64_t f = tables.tcp.frame[i]; f < hasRow.size())
                hasRow[f] = true;
        for (std::uint64_t f = 1; f <= tables.summary.packets; ++f)
            if (!hasRow[f])
                excluded.push_back(f);
        std::sort(excluded.begin(), excluded.end());
        excluded.erase(std::unique(excluded.begin(), excluded.end()), excluded.end());
    }
    result.excluded = excluded.size();
    std::string source = path.string();
    std::vector<std::uint64_t> originalFrame; // filtered frame number - 1 -> original
    std::filesystem::path filtered;
    const std::string tshark = shellQuote(test::tsharkPath());
    if (!excluded.empty()) {
        filtered = std::filesystem::temp_directory_path() /
                   ("windscope-diff-" + std::to_string(getpid()) + "-" + result.file + ".pcapng");
        int status = 0;
        test::runCommand(tshark + " -n -r " + shellQuote(source) + " -Y " +
                             shellQuote("!(frame.number in {" + frameSet(excluded) + "})") +
                             " -w " + shellQuote(filtered.string()) + " 2>/dev/null",
                         &status);
        if (status != 0) {
            result.error = "tshark could not write the filtered copy";
            return result;
        }
        source = filtered.string();
        std::size_t next = 0;
        for (std::uint64_t f = 1; f <= tables.summary.packets; ++f) {
            if (next < excluded.size() && excluded[next] == f) {
                ++next;
                continue;
            }
            originalFrame.push_back(f);
        }
    }

    const std::vector<std::uint32_t> bits = wiresharkBits();
    std::string command =
        tshark + " -n -r " + shellQuote(source) +
        " -Y tcp -T fields -E occurrence=a -E aggregator=, -e frame.number -e tcp.stream";
    for (std::uint32_t bit : bits)
        command += std::string(" -e ") + segmentFlagName(bit);
    command += " -e tcp.analysis.duplicate_ack_num -e tcp.analysis.bytes_in_flight -e "
               "tcp.window_size -e tcp.seq -e tcp.ack 2>/dev/null";
    int status = 0;
    const std::string output = test::runCommand(command, &status);
    if (!filtered.empty())
        std::filesystem::remove(filtered);
    if (status != 0) {
        result.error = "tshark failed";
        return result;
    }

    std::map<std::uint64_t, Reference> reference;
    std::istringstream lines(output);
    std::string line;
    while (std::getline(lines, line)) {
        std::vector<std::string> c;
        std::size_t start = 0;
        for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
            c.push_back(line.substr(start, tab - start));
        c.push_back(line.substr(start));
        if (c.size() != 7 + bits.size() || c[0].empty())
            continue;
        std::uint64_t frame = std::stoull(c[0]);
        if (!originalFrame.empty())
            frame = originalFrame.at(frame - 1);
        Reference r;
        r.stream = c[1].empty() ? -1 : static_cast<std::int64_t>(firstNumber(c[1]));
        for (std::size_t i = 0; i < bits.size(); ++i)
            if (!c[2 + i].empty())
                r.flags |= bits[i];
        r.dupAckNumber = firstNumber(c[2 + bits.size()]);
        r.bytesInFlight = firstNumber(c[3 + bits.size()]);
        r.windowBytes = firstNumber(c[4 + bits.size()]);
        r.relativeSeq = firstNumber(c[5 + bits.size()]);
        r.hasAck = !c[6 + bits.size()].empty();
        r.relativeAck = firstNumber(c[6 + bits.size()]);
        reference[frame] = r;
    }
    result.referenceRows = reference.size();

    std::map<std::uint64_t, std::uint32_t> dupAckNumbers;
    for (const auto& [row, n] : analysis.segments.dupAckNumber)
        dupAckNumbers[tables.tcp.frame[row]] = n;
    std::set<std::uint64_t> ours;
    for (std::size_t row = 0; row < tables.tcp.size(); ++row) {
        const std::uint64_t frame = tables.tcp.frame[row];
        ours.insert(frame);
        const std::uint32_t flags = analysis.segments.flags[row] & sf::kWiresharkMask;
        const auto it = reference.find(frame);
        if (it == reference.end()) {
            result.note("frame is TCP only to Windscope", frame);
            if (flags) {
                ++result.flagged;
                result.note("+ours[" + flagNames(flags) + "] on a frame tshark has no TCP in",
                            frame);
            }
            continue;
        }
        const Reference& r = it->second;
        if (flags || r.flags) {
            ++result.flagged;
            if (flags == r.flags)
                ++result.agreeing;
            else
                result.note("+ours[" + flagNames(flags & ~r.flags) + "] -ours[" +
                                flagNames(r.flags & ~flags) + "]",
                            frame);
        }
        const auto dup = dupAckNumbers.find(frame);
        if ((dup == dupAckNumbers.end() ? 0u : dup->second) != r.dupAckNumber)
            result.note("tcp.analysis.duplicate_ack_num differs", frame);
        if (analysis.segments.bytesInFlight[row] != r.bytesInFlight)
            result.note("tcp.analysis.bytes_in_flight differs", frame);
        if (analysis.windowBytes(tables.tcp, row) != r.windowBytes)
            result.note("tcp.window_size differs", frame);
        if (static_cast<std::uint32_t>(analysis.relativeSeq(tables.tcp, row)) != r.relativeSeq)
            result.note("tcp.seq differs", frame);
        if (r.hasAck && static_cast<std::uint32_t>(analysis.relativeAck(tables.tcp, row)) != r.relativeAck)
            result.note("tcp.ack differs", frame);
        if (static_cast<std::int64_t>(analysis.segments.connection[row]) != r.stream)
            result.note("tcp.stream differs from the connection id", frame);
    }
    for (const auto& [frame, r] : reference)
        if (!ours.count(frame)) {
            result.note("frame is TCP only to tshark", frame);
            if (r.flags) {
                ++result.flagged;
                result.note("-ours[" + flagNames(r.flags) +
                                "] on a frame Windscope has no TCP row for",
                            frame);
            }
        }
    return result;
}

const char* expectedReason(const std::string& file, const std::string& difference)
{
    for (const ExpectedDifference& e : kExpectedDifferences)
        if (file == e.file && difference == e.difference)
            return e.reason;
    return nullptr;
}

std::vector<std::filesystem::path> publicCaptures()
{
    std::vector<std::filesystem::path> files;
    const auto dir = test::sharedDir() / "captures" / "public";
    if (!std::filesystem::exists(dir))
        return files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().extension() != ".md")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST(TsharkFlags, EveryPublicCaptureAgreesWithTshark)
{
    WINDSCOPE_REQUIRE_TSHARK();
    const std::vector<std::filesystem::path> files = publicCaptures();
    if (files.empty())
        GTEST_SKIP() << "needs " << (test::sharedDir() / "captures" / "public");

    // One tshark per file; as many files at a time as there are cores, largest first.
    std::vector<FileResult> results(files.size());
    std::vector<std::size_t> order(files.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return std::filesystem::file_size(files[x]) > std::filesystem::file_size(files[y]);
    });
    std::atomic<std::size_t> nextFile{0};
    const auto work = [&] {
        for (std::size_t next; (next = nextFile++) < files.size();) {
            const std::size_t i = order[next];
            const auto start = std::chrono::steady_clock::now();
            results[i] = compareFile(files[i]);
            results[i].seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
    };
    std::vector<std::thread> workers;
    for (unsigned w = 0; w < std::max(2u, std::thread::hardware_concurrency()); ++w)
        workers.emplace_back(work);
    for (std::thread& t : workers)
        t.join();

    std::size_t flagged[2] = {0, 0}, agreeing[2] = {0, 0};
    std::printf("\n%-46s %5s %7s %7s %6s %8s %8s %8s %6s\n", "capture", "link", "rows", "tshark",
                "mac-x", "flagged", "agree", "agree%", "time");
    for (const FileResult& r : results) {
        EXPECT_TRUE(r.error.empty()) << r.file << ": " << r.error;
        const int w = r.wireless ? 1 : 0;
        flagged[w] += r.flagged;
        agreeing[w] += r.agreeing;
        std::printf("%-46s %5s %7zu %7zu %6zu %8zu %8zu %7.2f%% %5.1fs\n", r.file.c_str(),
                    r.wireless ? "wlan" : "wired", r.rows, r.referenceRows, r.excluded, r.flagged,
                    r.agreeing,
                    r.flagged
                        ? 100.0 * static_cast<double>(r.agreeing) / static_cast<double>(r.flagged)
                        : 100.0,
                    r.seconds);
        for (const auto& [difference, count] : r.classes) {
            std::string frames;
            for (std::uint64_t f : r.examples.at(difference))
                frames += " " + std::to_string(f);
            const char* reason = expectedReason(r.file, difference);
            std::printf("    %6zu  %s (frames%s)%s%s\n", count, difference.c_str(), frames.c_str(),
                        reason ? " -- expected: " : " -- UNEXPLAINED", reason ? reason : "");
            EXPECT_NE(reason, nullptr) << r.file << ": unexplained difference class '" << difference
                                       << "' (" << count << " frames, e.g." << frames << ")";
        }
    }
    const auto percent = [](std::size_t a, std::size_t f) {
        return f ? 100.0 * static_cast<double>(a) / static_cast<double>(f) : 100.0;
    };
    std::printf("wired: %zu/%zu flagged frames agree (%.3f%%); 802.11: %zu/%zu (%.3f%%)\n",
                agreeing[0], flagged[0], percent(agreeing[0], flagged[0]), agreeing[1], flagged[1],
                percent(agreeing[1], flagged[1]));
    EXPECT_GE(percent(agreeing[0], flagged[0]), 99.0);
    EXPECT_GE(percent(agreeing[1], flagged[1]), 99.0);
    EXPECT_GT(flagged[0], 1000u); // the comparison did look at something
}

// Per-connection, per-direction packet counts against `tshark -z conv,tcp` (keyed by
// tcp.stream, so port reuse stays split) and payload bytes against tcp.len sums.
// The conversation table's byte columns are frame bytes, which ingest does not keep.
TEST(TsharkFlags, ConversationTableMatchesDirectionStats)
{
    WINDSCOPE_REQUIRE_TSHARK();
    const char* files[] = {"kurose-moranzcw__tcp-ethereal-trace-1", "pcapplusplus__example.pcap",
                           "tcptrace__dlt_null.dmp.gz", "zeek__206_example_b.pcap",
                           "chrissanders__tcp_dupack.pcapng"};
    const std::string tshark = shellQuote(test::tsharkPath());
    std::size_t checked = 0;
    for (const char* file : files) {
        const auto path = test::publicCapture(file);
        if (!std::filesystem::exists(path))
            continue;
        dissect::CaptureTables tables;
        std::string error;
        ASSERT_TRUE(dissect::ingestCapture(path.string(), {}, tables, error)) << error;
        const TcpAnalysis analysis = analyzeTcp(tables);

        // Payload bytes per (stream, sender) from tcp.len.
        std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> payload;
        std::istringstream fields(test::runCommand(
            tshark + " -n -r " + shellQuote(path.string()) +
            " -Y tcp -T fields -e tcp.stream -e ip.src -e tcp.srcport -e tcp.len 2>/dev/null"));
        for (std::string line; std::getline(fields, line);) {
            std::istringstream l(line);
            std::uint64_t stream = 0, len = 0;
            std::string ip, port;
            if (l >> stream >> ip >> port >> len)
                payload[{stream, ip + ":" + port}] += len;
        }

        std::istringstream table(test::runCommand(
            tshark + " -n -q -r " + shellQuote(path.string()) + " -z conv,tcp 2>/dev/null"));
        std::size_t rows = 0;
        for (std::string line; std::getline(table, line);) {
            if (line.find("<->") == std::string::npos)
                continue;
            std::istringstream l(line);
            std::string a, arrow, b, unit1, unit2;
            std::uint64_t framesToA = 0, framesToB = 0;
            std::string bytesToA, bytesToB;
            double relativeStart = 0;
            std::string framesTotal, bytesTotal, unit3;
            if (!(l >> a >> arrow >> b >> framesToA >> bytesToA >> unit1 >> framesToB >> bytesToB >>
                  unit2 >> framesTotal >> bytesTotal >> unit3 >> relativeStart))
                continue;
            ++rows;
            // Find the connection with these endpoints that starts then.
            const Connection* match = nullptr;
            bool endpoint0IsA = false;
            for (const Connection& c : analysis.connections) {
                const std::string e0 = tables.ipAddresses.at(c.address[0]).toString() + ":" +
                                       std::to_string(c.port[0]);
                const std::string e1 = tables.ipAddresses.at(c.address[1]).toString() + ":" +
                                       std::to_string(c.port[1]);
                const double start = static_cast<double>(c.firstTimeNs) / 1e9;
                if (std::abs(start - relativeStart) > 2e-6)
                    continue;
                if (e0 == a && e1 == b) {
                    match = &c;
                    endpoint0IsA = true;
                } else if (e0 == b && e1 == a) {
                    match = &c;
                }
            }
            ASSERT_NE(match, nullptr) << file << ": no connection for " << line;
            const DirectionStats& fromA = match->direction[endpoint0IsA ? 0 : 1];
            const DirectionStats& fromB = match->direction[endpoint0IsA ? 1 : 0];
            EXPECT_EQ(fromA.packets, framesToB) << file << ": " << line;
            EXPECT_EQ(fromB.packets, framesToA) << file << ": " << line;
            EXPECT_EQ(fromA.dataBytes, (payload[{match->id, a}]))
                << file << ": " << a << " in " << line;
            EXPECT_EQ(fromB.dataBytes, (payload[{match->id, b}]))
                << file << ": " << b << " in " << line;
        }
        EXPECT_EQ(rows, analysis.connections.size()) << file;
        ++checked;
    }
    if (checked == 0)
        GTEST_SKIP() << "needs the public captures";
}
