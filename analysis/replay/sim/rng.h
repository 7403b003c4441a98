// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulator's random numbers: xoshiro256** seeded through SplitMix64 (Blackman &
// Vigna), the same sequence on every platform and standard library (std:: distributions
// are not), so a seed names one run everywhere. Each component draws from its own
// stream so that adding a draw in one place does not shift the others.

#include <cstdint>

namespace windscope::analysis::replay {

class Rng
{
public:
    explicit Rng(std::uint64_t seed = 1, std::uint64_t stream = 0)
    {
        std::uint64_t x = seed ^ (0x9e3779b97f4a7c15ull * (stream + 1));
        for (auto& s : m_s)
            s = splitMix(x);
    }
    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    // Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Uniform integer in [0, n].
    std::uint32_t upTo(std::uint32_t n) { return static_cast<std::uint32_t>((next() >> 32) % (std::uint64_t(n) + 1)); }
    bool chance(double p) { return p > 0 && uniform() < p; }
    // Uniform in [0, 1) from the key alone: the same draw wherever, and however often,
    // the same question is asked (who decodes a frame is asked once per listener).
    static double keyed(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c)
    {
        std::uint64_t x = seed;
        for (std::uint64_t v : {a, b, c}) {
            x ^= v;
            x = splitMix(x);
        }
        return static_cast<double>(x >> 11) * 0x1.0p-53;
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static std::uint64_t splitMix(std::uint64_t& x)
    {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::uint64_t m_s[4];
};

} // namespace windscope::analysis::replay
