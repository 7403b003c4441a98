// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A minimal streaming JSON writer: the CLI contract's output is produced in one pass
// without building a document tree in memory.

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace windscope::analysis {

class JsonWriter
{
public:
    explicit JsonWriter(std::ostream& out) : m_out(out) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(double number);
    JsonWriter& value(std::uint64_t number);
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(unsigned number) { return value(static_cast<std::uint64_t>(number)); }
    JsonWriter& value(bool flag);
    JsonWriter& null();
    // A number already formatted as JSON number text (exact decimals).
    JsonWriter& number(std::string_view text);

    template <typename T>
    JsonWriter& field(std::string_view name, const T& v)
    {
        key(name);
        return value(v);
    }

    static void writeEscaped(std::ostream& out, std::string_view text);

private:
    void separate();
    std::ostream& m_out;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
};

} // namespace windscope::analysis
