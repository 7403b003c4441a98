// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Order statistics the scenario derivation reads from a capture's samples, and the
// tail its counting tests use.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace windscope::analysis::replay {

// The p-quantile (0..1) as the sample at rank floor(p (n - 1)); 0 for no samples.
inline double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    const auto k = static_cast<std::size_t>(std::clamp(p, 0.0, 1.0) * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

// ln P(X >= k) for X ~ Binomial(n, q); with midP, ln of P(X > k) + P(X = k) / 2 (the
// exact tail of a small discrete count overstates its p; Lancaster's mid-p).
inline double logBinomialTail(std::size_t k, std::size_t n, double q, bool midP = false)
{
    if ((k == 0 && !midP) || q >= 1)
        return 0;
    std::vector<double> terms;
    const auto nd = static_cast<double>(n);
    for (std::size_t j = k; j <= n; ++j) {
        const auto jd = static_cast<double>(j);
        terms.push_back(std::lgamma(nd + 1) - std::lgamma(jd + 1) - std::lgamma(nd - jd + 1) +
                        jd * std::log(q) + (nd - jd) * std::log1p(-q) -
                        (midP && j == k ? std::log(2.0) : 0));
    }
    if (terms.empty())
        return -INFINITY;
    const double most = *std::max_element(terms.begin(), terms.end());
    double sum = 0;
    for (const double t : terms)
        sum += std::exp(t - most);
    return most + std::log(sum);
}

// Two readings of one rate (a percentile of windows, their median, an average over a
// stretch) agree within 5 %: the spread of a rate read from 20 ms windows of 1500-byte
// deliveries at the rates in question.
constexpr double kSameRateBand = 1.05;

// Consecutive RTT samples whose median makes a sustained value: a single sample can
// carry the receiver's delayed-ACK wait (up to 40 ms); a run rising together is a queue.
constexpr std::size_t kSustainedSamples = 9;

// The largest median of kSustainedSamples consecutive samples (in their order); 0 when
// there are fewer.
inline double largestSustained(const std::vector<double>& samples)
{
    double most = 0;
    std::array<double, kSustainedSamples> run{};
    for (std::size_t i = 0; i + kSustainedSamples <= samples.size(); ++i) {
        std::copy_n(samples.begin() + static_cast<std::ptrdiff_t>(i), kSustainedSamples, run.begin());
        std::nth_element(run.begin(), run.begin() + kSustainedSamples / 2, run.end());
        most = std::max(most, run[kSustainedSamples / 2]);
    }
    return most;
}

} // namespace windscope::analysis::replay
