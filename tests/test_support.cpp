// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_support.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sys/wait.h>

namespace windscope::test {

std::string runCommand(const std::string& command, int* exitCode)
{
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        if (exitCode)
            *exitCode = -1;
        return out;
    }
    std::array<char, 65536> buffer;
    size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        out.append(buffer.data(), n);
    int status = pclose(pipe);
    if (exitCode)
        *exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

std::vector<std::filesystem::path> keptFuzzInputs(const std::string& target,
                                                  const std::vector<std::string>& alsoCorpora)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> inputs;
    std::error_code ec;
    std::vector<std::string> corpora{target};
    corpora.insert(corpora.end(), alsoCorpora.begin(), alsoCorpora.end());
    for (const std::string& corpus : corpora)
        for (const auto& e : fs::directory_iterator(fuzzInputsDir() / "corpus" / corpus, ec))
            if (e.is_regular_file())
                inputs.push_back(e.path());
    for (const auto& e : fs::directory_iterator(fuzzInputsDir() / "regressions", ec))
        if (e.is_regular_file() && e.path().filename().string().rfind(target + "-", 0) == 0)
            inputs.push_back(e.path());
    std::sort(inputs.begin(), inputs.end());
    return inputs;
}

std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace windscope::test
