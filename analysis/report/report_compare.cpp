// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_compare.h"

#include "json_writer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>

namespace windscope::analysis {

namespace {

std::vector<std::string> pathParts(const std::string& file)
{
    std::vector<std::string> parts;
    for (const auto& p : std::filesystem::path(file).lexically_normal())
        if (!p.empty())
            parts.push_back(p.string());
    return parts;
}

// The last n parts of a path, joined with '/'.
std::string tail(const std::vector<std::string>& parts, std::size_t n)
{
    std::string out;
    for (std::size_t i = parts.size() - std::min(n, parts.size()); i < parts.size(); ++i)
        out += (out.empty() ? "" : "/") + parts[i];
    return out;
}

void writeCsvNumber(std::ostream& out, bool known, double v)
{
    if (!known)
        return;
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v);
    out << text;
}

void writeSide(JsonWriter& w, const ComparisonSide& s)
{
    w.beginObject();
    w.field("name", s.name);
    w.field("file", s.file);
    w.field("connection", static_cast<std::uint64_t>(s.connection));
    w.field("from", s.from);
    w.field("to", s.to);
    w.field("cwnd_model", s.cwndModel);
    w.field("aligned_at_s", s.alignSeconds);
    w.key("aligned_event");
    if (s.alignEvent >= 0)
        w.value(static_cast<std::int64_t>(s.alignEvent));
    else
        w.null();
    w.endObject();
}

// Numbers for people: counts whole, bytes and rates with their unit scaled, seconds and
// milliseconds to three decimals.
std::string readable(double v, const std::string& unit)
{
    // A value that rounds to nothing at the precision shown reads 0, not -0.
    if (std::abs(v) < 0.0005)
        v = 0;
    char text[48];
    if (unit.empty())
        std::snprintf(text, sizeof text, "%.0f", v);
    else if (unit == "bytes" || unit == "bit/s") {
        const char* prefixes[] = {"", "k", "M", "G"};
        double x = v;
        int k = 0;
        while (std::abs(x) >= 1000 && k < 3) {
            x /= 1000;
            ++k;
        }
        std::snprintf(text, sizeof text, k ? "%.3f %s%s" : "%.0f %s%s", x, prefixes[k],
                      unit == "bytes" ? "B" : "b/s");
    } else
        std::snprintf(text, sizeof text, "%.3f %s", v, unit.c_str());
    return text;
}

} // namespace

std::pair<std::string, std::string> comparisonSideNames(const std::string& fileA, std::size_t connectionA,
                                                        const std::string& fileB, std::size_t connectionB)
{
    const std::vector<std::string> a = pathParts(fileA), b = pathParts(fileB);
    if (a == b) {
        const std::string name = tail(a, 1);
        return {name + " #" + std::to_string(connectionA), name + " #" + std::to_string(connectionB)};
    }
    // Walk back from the file names until the parts differ; that part and what follows
    // names each side.
    std::size_t n = 1;
    while (n <= std::min(a.size(), b.size()) && a[a.size() - n] == b[b.size() - n])
        ++n;
    return {tail(a, n), tail(b, n)};
}

void writeComparisonCsv(std::ostream& out, const std::vector<ComparisonRow>& rows)
{
    out << "metric,unit,a,b,b_minus_a\n";
    for (const ComparisonRow& r : rows) {
        out << r.metric << ',' << r.unit << ',';
        writeCsvNumber(out, r.aKnown, r.a);
        out << ',';
        writeCsvNumber(out, r.bKnown, r.b);
        out << ',';
        writeCsvNumber(out, r.aKnown && r.bKnown, r.b - r.a);
        out << '\n';
    }
}

void writeComparisonJson(std::ostream& out, const ComparisonSide& a, const ComparisonSide& b,
                         const std::vector<ComparisonRow>& rows)
{
    JsonWriter w(out);
    w.beginObject();
    w.key("a");
    writeSide(w, a);
    w.key("b");
    writeSide(w, b);
    w.key("rows").beginArray();
    for (const ComparisonRow& r : rows) {
        w.beginObject();
        w.field("metric", r.metric);
        w.field("unit", r.unit);
        w.key("a");
        r.aKnown ? w.value(r.a) : w.null();
        w.key("b");
        r.bKnown ? w.value(r.b) : w.null();
        w.key("difference");
        r.aKnown && r.bKnown ? w.value(r.b - r.a) : w.null();
        w.endObject();
    }
    w.endArray();
    w.endObject();
    out << '\n';
}

void writeComparisonText(std::ostream& out, const ComparisonSide& a, const ComparisonSide& b,
                         const std::vector<ComparisonRow>& rows)
{
    out << "A: " << a.name << " (connection " << a.connection << ", " << a.from << " -> " << a.to << ", cwnd "
        << a.cwndModel << ")\n";
    out << "B: " << b.name << " (connection " << b.connection << ", " << b.from << " -> " << b.to << ", cwnd "
        << b.cwndModel << ")\n";
    std::vector<std::array<std::string, 4>> cells;
    cells.push_back({"metric", "A", "B", "B - A"});
    for (const ComparisonRow& r : rows)
        cells.push_back({r.metric, r.aKnown ? readable(r.a, r.unit) : "-", r.bKnown ? readable(r.b, r.unit) : "-",
                         r.aKnown && r.bKnown ? readable(r.b - r.a, r.unit) : "-"});
    std::array<std::size_t, 4> width{};
    for (const auto& row : cells)
        for (std::size_t c = 0; c < 4; ++c)
            width[c] = std::max(width[c], row[c].size());
    for (const auto& row : cells) {
        out << row[0] << std::string(width[0] - row[0].size() + 2, ' ');
        for (std::size_t c = 1; c < 4; ++c)
            out << std::string(width[c] - row[c].size() + (c > 1 ? 2 : 0), ' ') << row[c];
        out << '\n';
    }
}

} // namespace windscope::analysis
