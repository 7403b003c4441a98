// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace windscope::cli {

// A capture as a file that can be read again by offset, for libwireshark: its wiretap
// re-reads frames with wtap_seek_read and refuses standard input and pipes for that
// (WTAP_ERR_RANDOM_OPEN_STDIN, WTAP_ERR_RANDOM_OPEN_PIPE). Standard input ("-") and a
// pipe are copied, as they come, into a private temporary file that lives as long as
// this object; a regular file is used where it is. The native reader (analyze, events,
// cwnd, ...) needs none of this: it reads a pipe once, as it comes.
class SeekableCapture
{
public:
    SeekableCapture() = default;
    ~SeekableCapture();
    SeekableCapture(const SeekableCapture&) = delete;
    SeekableCapture& operator=(const SeekableCapture&) = delete;

    // False with error naming name: missing, unreadable, a directory, a failed copy.
    bool open(const std::string& name, std::string& error);
    // The file to read.
    const std::string& path() const { return m_path; }
    // text with the temporary file's path replaced by the name given, for messages.
    std::string named(std::string text) const;

private:
    std::string m_name, m_path, m_temporary;
};

} // namespace windscope::cli
