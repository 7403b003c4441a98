// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_support.h"

#include <array>
#include <cstdio>
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

} // namespace windscope::test
