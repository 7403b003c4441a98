// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_input.h"

#include "dissectors/capture_reader.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace windscope::cli {

SeekableCapture::~SeekableCapture()
{
    if (!m_temporary.empty())
        ::unlink(m_temporary.c_str());
}

bool SeekableCapture::open(const std::string& name, std::string& error)
{
    m_name = name;
    m_path = name;
    struct stat st{};
    const int in = dissect::openCaptureDescriptor(name, st, error);
    if (in < 0)
        return false;
    if (S_ISREG(st.st_mode) && ::lseek(in, 0, SEEK_CUR) >= 0 && name != "-") {
        ::close(in);
        return true;
    }
    // temp_directory_path throws when TMPDIR names no folder: report it instead.
    std::error_code tmpError;
    const std::filesystem::path tmp = std::filesystem::temp_directory_path(tmpError);
    if (tmpError) {
        error = name + ": no folder for a copy of the input: " + tmpError.message();
        ::close(in);
        return false;
    }
    std::string pattern = (tmp / "windscope-input-XXXXXX").string();
    const int out = ::mkstemp(pattern.data());
    if (out < 0) {
        error = name + ": cannot create a temporary file to read it from: " + std::strerror(errno);
        ::close(in);
        return false;
    }
    m_temporary = pattern;
    m_path = pattern;
    std::vector<char> buffer(std::size_t(1) << 20);
    bool ok = true;
    for (;;) {
        const ssize_t got = ::read(in, buffer.data(), buffer.size());
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            ok = got == 0;
            if (!ok)
                error = name + ": read error: " + std::strerror(errno);
            break;
        }
        for (ssize_t done = 0; done < got && ok;) {
            const ssize_t put = ::write(out, buffer.data() + done, static_cast<std::size_t>(got - done));
            if (put < 0 && errno == EINTR)
                continue;
            if (put <= 0) {
                ok = false;
                error = name + ": cannot copy it to a temporary file: " + std::strerror(errno);
            } else {
                done += put;
            }
        }
        if (!ok)
            break;
    }
    ::close(in);
    if (::close(out) != 0 && ok) {
        ok = false;
        error = name + ": cannot copy it to a temporary file: " + std::strerror(errno);
    }
    return ok;
}

std::string SeekableCapture::named(std::string text) const
{
    if (m_temporary.empty())
        return text;
    for (std::size_t at; (at = text.find(m_temporary)) != std::string::npos;)
        text.replace(at, m_temporary.size(), m_name);
    return text;
}

} // namespace windscope::cli
