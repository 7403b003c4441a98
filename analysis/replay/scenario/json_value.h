// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A small JSON document reader for the files a user edits (scenarios). Output goes
// through analysis/report/json_writer.h; this is the reading half, kept minimal: objects keep
// their key order, numbers are doubles, errors name the line and column.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace windscope::analysis::replay {

class JsonValue
{
public:
    enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };

    Type type() const { return m_type; }
    bool isObject() const { return m_type == Type::Object; }
    bool isArray() const { return m_type == Type::Array; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isBool() const { return m_type == Type::Bool; }

    double number() const { return m_number; }
    bool boolean() const { return m_bool; }
    const std::string& string() const { return m_string; }
    const std::vector<JsonValue>& array() const { return m_array; }
    const std::vector<std::pair<std::string, JsonValue>>& members() const { return m_members; }
    // The member named key, or nullptr.
    const JsonValue* find(std::string_view key) const;

    // Parses text; on failure returns false with error "line L, column C: reason".
    static bool parse(std::string_view text, JsonValue& out, std::string& error);

private:
    friend class JsonParser;
    Type m_type = Type::Null;
    double m_number = 0;
    bool m_bool = false;
    std::string m_string;
    std::vector<JsonValue> m_array;
    std::vector<std::pair<std::string, JsonValue>> m_members;
};

} // namespace windscope::analysis::replay
