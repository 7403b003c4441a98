// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The SQLite helpers the project store's files share (project_store.cpp: schema,
// opening and copies; project_captures.cpp: captures and their cache; project_records.cpp:
// annotations, replay records, presets, meta values). Internal to the store.

#include "project_store.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace windscope::analysis::store::store_sql {

namespace fs = std::filesystem;


// The tables each schema version must have, to tell a damaged or foreign file from ours.
inline const std::vector<const char*>& requiredTables(int version)
{
    static const std::vector<const char*> v1 = {"meta", "captures", "analysis_cache", "cache_blobs",
                                                "annotations"};
    static const std::vector<const char*> v2 = {"meta",        "captures",       "analysis_cache",
                                                "cache_blobs", "annotations",    "replay_scenarios",
                                                "replay_runs", "export_presets", "cwnd_series"};
    return version >= 2 ? v2 : v1;
}

inline std::string utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

// One prepared statement, finalized on scope exit.
class Statement
{
public:
    Statement(sqlite3* db, const char* sql) : m_db(db)
    {
        m_rc = sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr);
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    bool ok() const { return m_rc == SQLITE_OK; }
    Statement& bind(int i, std::int64_t v)
    {
        sqlite3_bind_int64(m_stmt, i, v);
        return *this;
    }
    Statement& bind(int i, const std::string& v)
    {
        sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement& bindNull(int i)
    {
        sqlite3_bind_null(m_stmt, i);
        return *this;
    }
    Statement& bindBlob(int i, std::span<const std::uint8_t> v)
    {
        sqlite3_bind_blob64(m_stmt, i, v.data(), v.size(), SQLITE_STATIC);
        return *this;
    }
    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return m_rc = sqlite3_step(m_stmt); }
    std::int64_t integer(int col) const { return sqlite3_column_int64(m_stmt, col); }
    bool isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
    std::string text(int col) const
    {
        const auto* p = sqlite3_column_text(m_stmt, col);
        return p ? std::string(reinterpret_cast<const char*>(p),
                               static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)))
                 : std::string();
    }
    // Valid until the next step or the end of the statement: decoded in place, so a
    // large cache is copied once (into the result columns), not twice.
    std::span<const std::uint8_t> blob(int col) const
    {
        const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(m_stmt, col));
        const auto n = static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col));
        return p ? std::span<const std::uint8_t>(p, n) : std::span<const std::uint8_t>();
    }
    std::string error() const { return sqlite3_errmsg(m_db); }

private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
    int m_rc;
};

inline bool exec(sqlite3* db, const char* sql, std::string& error)
{
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        error = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        return false;
    }
    return true;
}

inline bool pragmaInt(sqlite3* db, const char* sql, std::int64_t& value, std::string& error)
{
    Statement s(db, sql);
    if (!s.ok() || s.step() != SQLITE_ROW) {
        error = sqlite3_errmsg(db);
        return false;
    }
    value = s.integer(0);
    return true;
}

// A cached part read in place with SQLite's incremental blob I/O: its rows (chunks) one
// after the other, as one stream.
class SqliteBlobSource final : public BlobSource
{
public:
    SqliteBlobSource() = default;
    SqliteBlobSource(const SqliteBlobSource&) = delete;
    SqliteBlobSource& operator=(const SqliteBlobSource&) = delete;
    ~SqliteBlobSource() override
    {
        for (const Chunk& c : m_chunks)
            sqlite3_blob_close(c.blob);
    }
    bool append(sqlite3* db, std::int64_t rowid)
    {
        sqlite3_blob* blob = nullptr;
        const int rc = sqlite3_blob_open(db, "main", "cache_blobs", "data", rowid, 0, &blob);
        if (rc != SQLITE_OK) {
            sqlite3_blob_close(blob);
            return false;
        }
        m_chunks.push_back({blob, m_size});
        m_size += static_cast<std::size_t>(sqlite3_blob_bytes(blob));
        return true;
    }
    std::size_t size() const override { return m_size; }
    bool read(std::size_t offset, void* out, std::size_t n) override
    {
        auto* dst = static_cast<char*>(out);
        // The chunk holding offset: the last one starting at or before it.
        auto it = std::upper_bound(m_chunks.begin(), m_chunks.end(), offset,
                                   [](std::size_t o, const Chunk& c) { return o < c.start; });
        if (it == m_chunks.begin())
            return n == 0;
        for (--it; n && it != m_chunks.end(); ++it) {
            const std::size_t within = offset - it->start;
            const std::size_t bytes = static_cast<std::size_t>(sqlite3_blob_bytes(it->blob));
            const std::size_t take = std::min(n, bytes - within);
            if (take && sqlite3_blob_read(it->blob, dst, static_cast<int>(take), static_cast<int>(within)) != SQLITE_OK)
                return false;
            dst += take;
            offset += take;
            n -= take;
        }
        return n == 0;
    }

private:
    struct Chunk
    {
        sqlite3_blob* blob;
        std::size_t start;
    };
    std::vector<Chunk> m_chunks;
    std::size_t m_size = 0;
};

// The row name of chunk i of a part: the part's name, then "#1", "#2", ...
inline std::string chunkName(CachePart part, std::size_t i)
{
    std::string name = cachePartName(part);
    return i == 0 ? name : name + "#" + std::to_string(i);
}

// Rolls back unless committed: a failed save leaves the file as it was.
class Transaction
{
public:
    explicit Transaction(sqlite3* db) : m_db(db) {}
    ~Transaction()
    {
        if (m_open)
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    bool begin(std::string& error)
    {
        // IMMEDIATE takes the write lock now, so a concurrent writer fails here rather
        // than halfway through the save.
        m_open = exec(m_db, "BEGIN IMMEDIATE", error);
        return m_open;
    }
    bool commit(std::string& error)
    {
        if (!exec(m_db, "COMMIT", error))
            return false;
        m_open = false;
        return true;
    }

private:
    sqlite3* m_db;
    bool m_open = false;
};

// Crash-safety tests need a process that stops inside a save: with this variable set
// to a file path, saves create that file once their rows are written and then wait
// (uncommitted) until the process is killed.
inline void pauseInsideSaveIfAsked()
{
    const char* marker = std::getenv("WINDSCOPE_STORE_PAUSE_IN_SAVE");
    if (!marker || !*marker)
        return;
    // WINDSCOPE_STORE_PAUSE_AFTER_SAVES=N lets the process's first N saves commit.
    static int saves = 0;
    const char* after = std::getenv("WINDSCOPE_STORE_PAUSE_AFTER_SAVES");
    if (after && saves++ < std::atoi(after))
        return;
    std::ofstream(marker) << "paused\n";
    for (int i = 0; i < 600; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

inline std::string damaged(const std::string& path, const std::string& why)
{
    return path + ": not a usable Windscope project (" + why + "); the file was left unchanged";
}

inline bool configureConnection(sqlite3* db, std::string& error)
{
    // WAL: readers never block the writer and a killed writer leaves the database at
    // its last commit. synchronous=FULL makes each commit durable across power loss.
    // Memory-mapped reads: the cached results are large blobs, and reading them through
    // the map instead of one pread per page is what makes reopening fast.
    sqlite3_busy_timeout(db, 10000);
    return exec(db,
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; "
                "PRAGMA mmap_size=4294967296;",
                error);
}

inline std::string absolutePath(const std::string& path)
{
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? fs::absolute(path).lexically_normal().string() : p.string();
}

// PRAGMA quick_check of one table ("" = the whole file), "ok" or the first problem.
inline bool quickCheck(sqlite3* db, const std::string& table, std::string& problem)
{
    const std::string sql =
        table.empty() ? "PRAGMA quick_check(1)" : "PRAGMA quick_check(\"" + table + "\")";
    Statement check(db, sql.c_str());
    const int rc = check.ok() ? check.step() : SQLITE_ERROR;
    if (rc == SQLITE_ROW && check.text(0) == "ok")
        return true;
    problem = rc == SQLITE_ROW ? check.text(0) : std::string(sqlite3_errmsg(db));
    return false;
}

// A file cut short: the header records the database size in pages (valid when the
// "version-valid-for" number equals the change counter, https://sqlite.org/fileformat.html
// section 1.3.7). With an empty or no WAL, the file must be exactly that long.
inline bool sizeMatchesHeader(const std::string& path, const unsigned char* header, std::string& why)
{
    auto be32 = [&](int at) {
        return std::uint32_t(header[at]) << 24 | std::uint32_t(header[at + 1]) << 16 |
               std::uint32_t(header[at + 2]) << 8 | header[at + 3];
    };
    const std::uint32_t rawPageSize = std::uint32_t(header[16]) << 8 | header[17];
    const std::uint64_t pageSize = rawPageSize == 1 ? 65536 : rawPageSize;
    const std::uint32_t pages = be32(28);
    if (pages == 0 || be32(92) != be32(24))
        return true; // size field not maintained: nothing to compare
    std::error_code ec;
    const fs::path wal = path + "-wal";
    if (fs::exists(wal, ec) && fs::file_size(wal, ec) > 0)
        return true; // committed pages may live in the WAL
    const std::uint64_t size = fs::file_size(path, ec);
    if (!ec && size < pages * pageSize) {
        why = "the file is cut short: " + std::to_string(size) + " bytes where its header says " +
              std::to_string(pages * pageSize);
        return false;
    }
    return true;
}


} // namespace windscope::analysis::store::store_sql
