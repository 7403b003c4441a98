// SPDX-License-Identifier: GPL-3.0-or-later
#include "json_value.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

namespace windscope::analysis::replay {

const JsonValue* JsonValue::find(std::string_view key) const
{
    for (const auto& [k, v] : m_members)
        if (k == key)
            return &v;
    return nullptr;
}

class JsonParser
{
public:
    explicit JsonParser(std::string_view text) : m_text(text) {}

    bool document(JsonValue& out)
    {
        skipSpace();
        if (!value(out, 0))
            return false;
        skipSpace();
        if (m_pos != m_text.size())
            return fail("unexpected text after the document");
        return true;
    }

    std::string error() const
    {
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < m_errorPos && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + m_error;
    }

private:
    bool fail(const char* why)
    {
        if (m_error.empty()) {
            m_error = why;
            m_errorPos = m_pos;
        }
        return false;
    }
    void skipSpace()
    {
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r'))
            ++m_pos;
    }
    bool literal(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return fail("unknown literal");
        m_pos += word.size();
        return true;
    }
    bool value(JsonValue& out, int depth)
    {
        if (depth > 64)
            return fail("nesting too deep");
        if (m_pos >= m_text.size())
            return fail("unexpected end of input");
        const char c = m_text[m_pos];
        if (c == '{')
            return object(out, depth);
        if (c == '[')
            return array(out, depth);
        if (c == '"') {
            out.m_type = JsonValue::Type::String;
            return string(out.m_string);
        }
        if (c == 't') {
            out.m_type = JsonValue::Type::Bool;
            out.m_bool = true;
            return literal("true");
        }
        if (c == 'f') {
            out.m_type = JsonValue::Type::Bool;
            out.m_bool = false;
            return literal("false");
        }
        if (c == 'n') {
            out.m_type = JsonValue::Type::Null;
            return literal("null");
        }
        return number(out);
    }
    bool number(JsonValue& out)
    {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && (std::isdigit(static_cast<unsigned char>(m_text[m_pos])) ||
                                         m_text[m_pos] == '-' || m_text[m_pos] == '+' || m_text[m_pos] == '.' ||
                                         m_text[m_pos] == 'e' || m_text[m_pos] == 'E'))
            ++m_pos;
        if (start == m_pos)
            return fail("expected a value");
        const std::string text(m_text.substr(start, m_pos - start));
        char* end = nullptr;
        out.m_number = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size()) {
            m_pos = start;
            return fail("malformed number");
        }
        out.m_type = JsonValue::Type::Number;
        return true;
    }
    bool string(std::string& out)
    {
        ++m_pos; // opening quote
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos++];
            if (c == '"')
                return true;
            if (c != '\\') {
                out.push_back(c);
                continue;
            }
            if (m_pos >= m_text.size())
                break;
            const char e = m_text[m_pos++];
            switch (e) {
            case '"': out.push_back('"'); break;
            case '\\': out.push_back('\\'); break;
            case '/': out.push_back('/'); break;
            case 'b': out.push_back('\b'); break;
            case 'f': out.push_back('\f'); break;
            case 'n': out.push_back('\n'); break;
            case 'r': out.push_back('\r'); break;
            case 't': out.push_back('\t'); break;
            case 'u': {
                if (m_pos + 4 > m_text.size())
                    return fail("short \\u escape");
                unsigned code = 0;
                const auto r = std::from_chars(m_text.data() + m_pos, m_text.data() + m_pos + 4, code, 16);
                if (r.ec != std::errc() || r.ptr != m_text.data() + m_pos + 4)
                    return fail("bad \\u escape");
                m_pos += 4;
                // UTF-8 for the basic plane; scenario files are ASCII in practice.
                if (code < 0x80) {
                    out.push_back(static_cast<char>(code));
                } else if (code < 0x800) {
                    out.push_back(static_cast<char>(0xc0 | (code >> 6)));
                    out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
                } else {
                    out.push_back(static_cast<char>(0xe0 | (code >> 12)));
                    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
                    out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
                }
                break;
            }
            default: return fail("unknown escape");
            }
        }
        return fail("unterminated string");
    }
    bool array(JsonValue& out, int depth)
    {
        out.m_type = JsonValue::Type::Array;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return true;
        }
        while (true) {
            skipSpace();
            JsonValue element;
            if (!value(element, depth + 1))
                return false;
            out.m_array.push_back(std::move(element));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            return fail("expected ',' or ']'");
        }
    }
    bool object(JsonValue& out, int depth)
    {
        out.m_type = JsonValue::Type::Object;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"')
                return fail("expected a member name");
            std::string key;
            if (!string(key))
                return false;
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':')
                return fail("expected ':'");
            ++m_pos;
            skipSpace();
            JsonValue member;
            if (!value(member, depth + 1))
                return false;
            out.m_members.emplace_back(std::move(key), std::move(member));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            return fail("expected ',' or '}'");
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::string m_error;
    std::size_t m_errorPos = 0;
};

bool JsonValue::parse(std::string_view text, JsonValue& out, std::string& error)
{
    JsonParser parser(text);
    out = JsonValue();
    if (parser.document(out))
        return true;
    error = parser.error();
    return false;
}

} // namespace windscope::analysis::replay
