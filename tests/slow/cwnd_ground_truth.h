// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Ground truth of the lab runs (../shared/captures/lab/README.md) for scoring cwnd
// inference: the sender's true state at the moment it sent each segment.
//   linux/: cwnd.csv rows hold the state before their ACK, so the state a segment was
//   sent with is that of the first row after its send time; castate.csv gives the
//   loss episodes (state not Open); snd_wnd is the receive window the sender knew.
//   ns3/: tx_segments.csv has one row per segment handed to IP with cwnd, rwnd and
//   congestion state.
// A capture away from the sender is matched to the sender-side capture of the same
// run by (seq, TSval), which names one transmission, to find when it was sent.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace windscope::test {

struct TruthPoint
{
    bool found = false;
    double cwndBytes = 0;
    double rwndBytes = 0;
    bool lossEpisode = false; // congestion state not Open
};

class LabTruth
{
public:
    // run: a folder under lab/ ("linux/reno-clean", "ns3/A-scan-none").
    bool load(const std::filesystem::path& runDir, bool isLinux, std::uint32_t mss, std::string& error);
    // The sender's state when it sent seq (raw 32-bit) at sender time epochNs.
    TruthPoint at(std::uint32_t seq, std::int64_t epochNs) const;

private:
    bool m_linux = true;
    std::uint32_t m_mss = 1448;
    // linux
    std::vector<std::int64_t> m_probeNs;
    std::vector<double> m_probeCwnd, m_probeWnd;
    std::vector<std::pair<std::int64_t, int>> m_caState;
    // ns3: seq -> (time, cwnd, rwnd, open)
    struct Tx
    {
        std::int64_t ns;
        double cwnd, rwnd;
        bool open;
    };
    std::multimap<std::uint32_t, Tx> m_tx;
};

namespace truth_detail {

inline std::int64_t secondsToNs(const std::string& text)
{
    // Exact: "1795297491.517459" -> integer nanoseconds without a double's rounding.
    const auto dot = text.find('.');
    std::int64_t whole = std::stoll(text.substr(0, dot));
    std::int64_t frac = 0;
    if (dot != std::string::npos) {
        std::string f = text.substr(dot + 1, 9);
        f.resize(9, '0');
        frac = std::stoll(f);
    }
    return whole * 1'000'000'000 + frac;
}

inline std::vector<std::vector<std::string>> readCsv(const std::filesystem::path& path)
{
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::stringstream ss(line);
        std::string f;
        while (std::getline(ss, f, ','))
            fields.push_back(f);
        rows.push_back(std::move(fields));
    }
    return rows;
}

} // namespace truth_detail

inline bool LabTruth::load(const std::filesystem::path& runDir, bool isLinux, std::uint32_t mss, std::string& error)
{
    m_linux = isLinux;
    m_mss = mss;
    if (isLinux) {
        for (const auto& r : truth_detail::readCsv(runDir / "cwnd.csv")) {
            if (r.size() < 8)
                continue;
            m_probeNs.push_back(truth_detail::secondsToNs(r[0]));
            m_probeCwnd.push_back(std::stod(r[1]) * mss);
            m_probeWnd.push_back(std::stod(r[7]));
        }
        for (const auto& r : truth_detail::readCsv(runDir / "castate.csv"))
            if (r.size() >= 2)
                m_caState.emplace_back(truth_detail::secondsToNs(r[0]), std::stoi(r[1]));
        if (m_probeNs.empty())
            error = "empty cwnd.csv";
    } else {
        for (const auto& r : truth_detail::readCsv(runDir / "tx_segments.csv")) {
            if (r.size() < 7)
                continue;
            m_tx.emplace(static_cast<std::uint32_t>(std::stoul(r[1])),
                         Tx{truth_detail::secondsToNs(r[0]), std::stod(r[4]), std::stod(r[5]), r[6] == "CA_OPEN"});
        }
        if (m_tx.empty())
            error = "empty tx_segments.csv";
    }
    return error.empty();
}

inline TruthPoint LabTruth::at(std::uint32_t seq, std::int64_t epochNs) const
{
    TruthPoint p;
    if (m_linux) {
        const auto it = std::upper_bound(m_probeNs.begin(), m_probeNs.end(), epochNs);
        if (it == m_probeNs.end() || it == m_probeNs.begin())
            return p;
        const auto i = static_cast<std::size_t>(it - m_probeNs.begin());
        p.found = true;
        p.cwndBytes = m_probeCwnd[i];
        p.rwndBytes = m_probeWnd[i];
        auto st = std::upper_bound(m_caState.begin(), m_caState.end(), std::make_pair(epochNs, 99));
        p.lossEpisode = st != m_caState.begin() && std::prev(st)->second != 0;
        return p;
    }
    // The transmission of seq handed to IP last before the capture saw it (1 ms slack
    // for the capture's microsecond clock and the device queue).
    const auto [first, last] = m_tx.equal_range(seq);
    const Tx* best = nullptr;
    for (auto it = first; it != last; ++it)
        if (it->second.ns <= epochNs + 1'000'000 && (!best || it->second.ns > best->ns))
            best = &it->second;
    if (!best)
        return p;
    p.found = true;
    p.cwndBytes = best->cwnd;
    p.rwndBytes = best->rwnd;
    p.lossEpisode = !best->open;
    return p;
}

} // namespace windscope::test
