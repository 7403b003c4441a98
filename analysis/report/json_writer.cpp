// SPDX-License-Identifier: GPL-3.0-or-later
#include "json_writer.h"

#include <cmath>
#include <cstdio>

namespace windscope::analysis {

void JsonWriter::separate()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back())
            m_out << ',';
        m_first.back() = false;
    }
}

JsonWriter& JsonWriter::beginObject()
{
    separate();
    m_out << '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    m_out << '}';
    m_first.pop_back();
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    separate();
    m_out << '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    m_out << ']';
    m_first.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name)
{
    separate();
    writeEscaped(m_out, name);
    m_out << ':';
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text)
{
    separate();
    writeEscaped(m_out, text);
    return *this;
}

JsonWriter& JsonWriter::value(double number)
{
    separate();
    if (!std::isfinite(number)) {
        m_out << "null";
        return *this;
    }
    char text[40];
    // 15 significant digits round-trip every measured quantity without binary noise;
    // epoch times are written separately as exact decimal text (number()).
    std::snprintf(text, sizeof text, "%.15g", number);
    m_out << text;
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number)
{
    separate();
    m_out << number;
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number)
{
    separate();
    m_out << number;
    return *this;
}

JsonWriter& JsonWriter::value(bool flag)
{
    separate();
    m_out << (flag ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::number(std::string_view text)
{
    separate();
    m_out << text;
    return *this;
}

JsonWriter& JsonWriter::null()
{
    separate();
    m_out << "null";
    return *this;
}

void JsonWriter::writeEscaped(std::ostream& out, std::string_view text)
{
    out << '"';
    for (unsigned char c : text) {
        switch (c) {
        case '"': out << "\\\""; break;
        case '\\': out << "\\\\"; break;
        case '\n': out << "\\n"; break;
        case '\r': out << "\\r"; break;
        case '\t': out << "\\t"; break;
        default:
            if (c < 0x20) {
                char esc[8];
                std::snprintf(esc, sizeof esc, "\\u%04x", c);
                out << esc;
            } else {
                out << static_cast<char>(c);
            }
        }
    }
    out << '"';
}

} // namespace windscope::analysis
