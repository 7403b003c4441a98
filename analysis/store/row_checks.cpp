// SPDX-License-Identifier: GPL-3.0-or-later
#include "row_checks.h"

#include "analysis_codec.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace windscope::analysis::store::row_checks {

namespace {

struct CheckedTable
{
    const char* name;
    const char* label;   // how a row is named in the error
    const char* key;     // the column that names the row
    const char* columns; // every column but row_check, in table order
    int sinceVersion;    // 3: given row_check by the 2 -> 3 step; later: created with it
};

// The tables a user's work lives in; cache_blobs carry their own checksum per part
// and cwnd_series is not written.
constexpr std::array<CheckedTable, 8> kTables = {{
    {"meta", "metadata entry", "key", "key, value", 3},
    {"captures", "capture", "id", "id, path, size, mtime_ns, sha256, added_utc", 3},
    {"analysis_cache", "cached analysis of capture", "capture_id",
     "capture_id, codec_version, analyzer_version, created_utc, packets, tcp_segments, connections, events", 3},
    {"annotations", "annotation", "id",
     "id, capture_id, time_ns, event_id, text, created_utc, kind, connection_id", 3},
    {"replay_scenarios", "replay scenario", "id", "id, capture_id, name, json, created_utc", 3},
    {"replay_runs", "replay run", "id", "id, scenario_id, json, created_utc", 3},
    {"export_presets", "export preset", "id", "id, name, json, created_utc", 3},
    {"capture_failures", "failed capture", "path", "path, size, mtime_ns, sha256, error, failed_utc", 4},
}};

void rowCheck(sqlite3_context* context, int argc, sqlite3_value** argv)
{
    StreamChecksum sum;
    for (int i = 0; i < argc; ++i) {
        // Each value as its type and bytes, so 1 and '1', or '' and NULL, differ.
        const auto type = static_cast<std::uint8_t>(sqlite3_value_type(argv[i]));
        sum.update(&type, 1);
        switch (type) {
        case SQLITE_INTEGER: {
            const auto v = static_cast<std::uint64_t>(sqlite3_value_int64(argv[i]));
            std::uint8_t bytes[8];
            for (int b = 0; b < 8; ++b)
                bytes[b] = static_cast<std::uint8_t>(v >> (8 * b));
            sum.update(bytes, sizeof bytes);
            break;
        }
        case SQLITE_FLOAT: {
            const double d = sqlite3_value_double(argv[i]);
            std::uint8_t bytes[8];
            std::memcpy(bytes, &d, sizeof bytes);
            sum.update(bytes, sizeof bytes);
            break;
        }
        case SQLITE_TEXT:
        case SQLITE_BLOB: {
            const void* p = type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_value_text(argv[i]))
                                                : sqlite3_value_blob(argv[i]);
            const auto n = static_cast<std::uint64_t>(sqlite3_value_bytes(argv[i]));
            std::uint8_t length[8];
            for (int b = 0; b < 8; ++b)
                length[b] = static_cast<std::uint8_t>(n >> (8 * b));
            sum.update(length, sizeof length);
            if (p && n)
                sum.update(static_cast<const std::uint8_t*>(p), static_cast<std::size_t>(n));
            break;
        }
        default:
            break;
        }
    }
    sqlite3_result_int64(context, static_cast<sqlite3_int64>(sum.value()));
}

// "NEW.a, NEW.b" from "a, b".
std::string prefixed(std::string_view columns, std::string_view prefix)
{
    std::string out;
    std::size_t start = 0;
    while (start < columns.size()) {
        std::size_t end = columns.find(',', start);
        if (end == std::string_view::npos)
            end = columns.size();
        std::string_view column = columns.substr(start, end - start);
        while (!column.empty() && column.front() == ' ')
            column.remove_prefix(1);
        if (!out.empty())
            out += ", ";
        out += prefix;
        out += column;
        start = end + 1;
    }
    return out;
}

std::string triggers(const CheckedTable& t)
{
    const std::string name = t.name;
    const std::string call = "ws_row_check('" + name + "', ";
    // AFTER UPDATE OF the data columns only: the trigger's own update of row_check
    // does not fire it again.
    const std::string body =
        "UPDATE " + name + " SET row_check = " + call + prefixed(t.columns, "NEW.") + ") WHERE rowid = NEW.rowid; END;\n";
    return "CREATE TRIGGER " + name + "_row_check_insert AFTER INSERT ON " + name + " BEGIN " + body +
           "CREATE TRIGGER " + name + "_row_check_update AFTER UPDATE OF " + t.columns + " ON " + name + " BEGIN " +
           body;
}

std::string buildMigration(int version)
{
    std::string sql;
    for (const CheckedTable& t : kTables) {
        if (t.sinceVersion != version)
            continue;
        if (version == 3) {
            const std::string name = t.name;
            sql += "ALTER TABLE " + name + " ADD COLUMN row_check INTEGER;\n";
            sql += "UPDATE " + name + " SET row_check = ws_row_check('" + name + "', " + t.columns + ");\n";
        }
        sql += triggers(t);
    }
    return sql;
}

} // namespace

bool registerFunction(sqlite3* db, std::string& error)
{
    if (sqlite3_create_function_v2(db, "ws_row_check", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                   rowCheck, nullptr, nullptr, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return false;
    }
    return true;
}

const char* migrationSql()
{
    static const std::string sql = buildMigration(3);
    return sql.c_str();
}

const char* failuresMigrationSql()
{
    static const std::string sql = std::string(R"sql(
        CREATE TABLE capture_failures(
            path TEXT PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            error TEXT NOT NULL,
            failed_utc TEXT NOT NULL,
            row_check INTEGER);
        )sql") + buildMigration(4);
    return sql.c_str();
}

bool findDamagedRow(sqlite3* db, std::string& problem)
{
    for (const CheckedTable& t : kTables) {
        const std::string sql = std::string("SELECT ") + t.key + " FROM " + t.name +
                                " WHERE row_check IS NOT ws_row_check('" + t.name + "', " + t.columns +
                                ") LIMIT 1";
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
            problem = std::string(t.name) + ": " + sqlite3_errmsg(db);
            sqlite3_finalize(stmt);
            return false;
        }
        const int rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) {
            const auto* key = sqlite3_column_text(stmt, 0);
            problem = std::string(t.label) + " " + (key ? reinterpret_cast<const char*>(key) : "?") +
                      " (table " + t.name + ") does not match its row checksum: its content was altered";
        } else if (rc != SQLITE_DONE) {
            problem = std::string(t.name) + ": " + sqlite3_errmsg(db);
        }
        sqlite3_finalize(stmt);
        if (rc != SQLITE_DONE)
            return false;
    }
    return true;
}

} // namespace windscope::analysis::store::row_checks
