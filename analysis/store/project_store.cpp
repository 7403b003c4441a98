// SPDX-License-Identifier: GPL-3.0-or-later
#include "project_sql.h"
#include "row_checks.h"

#include "windscope/version.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <cstdio>
#include <memory>
#include <unistd.h>

namespace windscope::analysis::store {

using namespace store_sql;

namespace detail {

const std::vector<const char*>& schemaMigrations()
{
    // Append only: a released step never changes, a new version adds a step.
    static const std::vector<const char*> steps = {
        // 0 -> 1: captures, their cached analysis, annotations.
        R"sql(
        PRAGMA application_id = 1465074512; -- kProjectApplicationId, "WSCP"
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE captures(
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            added_utc TEXT NOT NULL);
        CREATE TABLE analysis_cache(
            capture_id INTEGER PRIMARY KEY REFERENCES captures(id) ON DELETE CASCADE,
            codec_version INTEGER NOT NULL,
            analyzer_version TEXT NOT NULL,
            created_utc TEXT NOT NULL,
            packets INTEGER NOT NULL,
            tcp_segments INTEGER NOT NULL,
            connections INTEGER NOT NULL,
            events INTEGER NOT NULL);
        CREATE TABLE cache_blobs(
            capture_id INTEGER NOT NULL REFERENCES analysis_cache(capture_id) ON DELETE CASCADE,
            part TEXT NOT NULL,
            data BLOB NOT NULL,
            checksum INTEGER NOT NULL,
            UNIQUE(capture_id, part));
        CREATE TABLE annotations(
            id INTEGER PRIMARY KEY,
            capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
            time_ns INTEGER,
            event_id INTEGER,
            text TEXT NOT NULL,
            created_utc TEXT NOT NULL);
        )sql",
        // 1 -> 2: bookmarks and connection references on annotations, replay
        // scenarios and runs, export presets, cached cwnd series.
        R"sql(
        ALTER TABLE annotations ADD COLUMN kind TEXT NOT NULL DEFAULT 'note';
        ALTER TABLE annotations ADD COLUMN connection_id INTEGER;
        CREATE TABLE replay_scenarios(
            id INTEGER PRIMARY KEY,
            capture_id INTEGER REFERENCES captures(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            json TEXT NOT NULL,
            created_utc TEXT NOT NULL);
        CREATE TABLE replay_runs(
            id INTEGER PRIMARY KEY,
            scenario_id INTEGER NOT NULL REFERENCES replay_scenarios(id) ON DELETE CASCADE,
            json TEXT NOT NULL,
            created_utc TEXT NOT NULL);
        CREATE TABLE export_presets(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            json TEXT NOT NULL,
            created_utc TEXT NOT NULL);
        CREATE TABLE cwnd_series(
            capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
            connection INTEGER NOT NULL,
            model TEXT NOT NULL,
            samples BLOB NOT NULL,
            PRIMARY KEY(capture_id, connection));
        )sql",
        // 2 -> 3: a checksum on every row of the small tables, kept by triggers.
        row_checks::migrationSql(),
        // 3 -> 4: captures that could not be analysed, with why (windscope-cli batch).
        row_checks::failuresMigrationSql(),
    };
    static_assert(kProjectSchemaVersion == 4, "add a migration step with the new version");
    static_assert(kProjectApplicationId == 1465074512, "the first step writes this id");
    return steps;
}

} // namespace detail
bool identifyFile(const std::string& path, bool withHash, FileIdentity& out, std::string& error)
{
    out = FileIdentity{};
    out.path = absolutePath(path);
    struct stat st
    {
    };
    if (::stat(out.path.c_str(), &st) != 0) {
        error = path + ": " + std::strerror(errno);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        error = path + ": is a directory, not a capture file";
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        // A pipe or a device has no content to hash again or to find later.
        error = path + ": not a regular file (a pipe or a device): a project keeps a capture "
                       "by its path and SHA-256; save it to a file first";
        return false;
    }
    out.size = static_cast<std::uint64_t>(st.st_size);
    out.mtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    if (!withHash)
        return true;
    std::FILE* f = std::fopen(out.path.c_str(), "rb");
    if (!f) {
        error = path + ": " + std::strerror(errno);
        return false;
    }
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
    std::vector<unsigned char> chunk(1 << 20);
    std::size_t n = 0;
    while ((n = std::fread(chunk.data(), 1, chunk.size(), f)) > 0)
        EVP_DigestUpdate(ctx, chunk.data(), n);
    const bool readError = std::ferror(f) != 0;
    std::fclose(f);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx, digest, &length);
    EVP_MD_CTX_free(ctx);
    if (readError) {
        error = path + ": read error";
        return false;
    }
    static const char hex[] = "0123456789abcdef";
    for (unsigned int i = 0; i < length; ++i) {
        out.sha256 += hex[digest[i] >> 4];
        out.sha256 += hex[digest[i] & 15];
    }
    return true;
}

const char* captureStatusName(CaptureStatus status)
{
    switch (status) {
    case CaptureStatus::Ok:
        return "ok";
    case CaptureStatus::Changed:
        return "changed";
    case CaptureStatus::Moved:
        return "moved";
    }
    return "?";
}

namespace {

// A file name as an SQLite URI path: every byte outside the unreserved set escaped.
std::string uriPath(const std::string& path)
{
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

// Everything that decides whether a file is a project this version can use, on any
// connection: the application id, the schema version, the tables, SQLite's structural
// check of the small tables and (from version 3) every row's checksum.
bool checkDatabase(sqlite3* db, const std::string& path, std::int64_t& version, std::string& error)
{
    std::int64_t applicationId = 0;
    std::string sqlError;
    if (!pragmaInt(db, "PRAGMA application_id", applicationId, sqlError) ||
        !pragmaInt(db, "PRAGMA user_version", version, sqlError)) {
        error = damaged(path, sqlError);
        return false;
    }
    if (applicationId != kProjectApplicationId) {
        error = damaged(path, "an SQLite database of another application");
        return false;
    }
    if (version > kProjectSchemaVersion) {
        error = path + ": written by a newer Windscope (project schema version " +
                std::to_string(version) + "); this Windscope " + WINDSCOPE_VERSION +
                " reads schema versions up to " + std::to_string(kProjectSchemaVersion) +
                ". The file was left unchanged.";
        return false;
    }
    if (version < 1) {
        error = damaged(path, "no project schema version");
        return false;
    }
    for (const char* table : requiredTables(static_cast<int>(version))) {
        Statement s(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1");
        s.bind(1, std::string(table));
        if (s.step() != SQLITE_ROW) {
            error = damaged(path, std::string("table ") + table + " is missing");
            return false;
        }
    }
    // Structural check of the small tables at every open. The cache blobs, most of the
    // file, are checked as they are read (SQLite validates their page chains, a checksum
    // their content, the decoder their layout) and by the full check before any write,
    // so reopening a project does not read every page of it.
    for (const char* table : requiredTables(static_cast<int>(version))) {
        if (std::strcmp(table, "cache_blobs") == 0)
            continue;
        if (!quickCheck(db, table, sqlError)) {
            error = damaged(path, "integrity check failed: " + sqlError);
            return false;
        }
    }
    if (version >= 3 && !row_checks::findDamagedRow(db, sqlError)) {
        error = damaged(path, sqlError);
        return false;
    }
    return true;
}

} // namespace

ProjectStore::ProjectStore(std::string path, sqlite3* db, int openedVersion)
    : m_path(std::move(path)), m_db(db), m_openedVersion(openedVersion)
{
}

ProjectStore::~ProjectStore()
{
    sqlite3_close_v2(m_db);
}

std::unique_ptr<ProjectStore> ProjectStore::create(const std::string& path, std::string& error)
{
    std::error_code ec;
    if (fs::exists(path, ec)) {
        error = path + ": already exists; open it, or choose another name";
        return nullptr;
    }
    sqlite3* db = nullptr;
    // EXCLUSIVE-create semantics: SQLite creates the file; a race with another creator
    // is caught by the schema check below (user_version already set).
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
        error = path + ": cannot create: " + (db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close_v2(db);
        return nullptr;
    }
    std::unique_ptr<ProjectStore> store(new ProjectStore(path, db, 0));
    if (!row_checks::registerFunction(db, error))
        return error = path + ": " + error, nullptr;
    // 64 KiB pages (the largest): a cached capture is a few large blobs, stored as
    // overflow page chains that are read page by page; fewer, larger pages read faster.
    // The page size can only be chosen before the first table and before WAL mode.
    if (!exec(db, "PRAGMA page_size=65536;", error) || !configureConnection(db, error)) {
        error = path + ": " + error;
        return nullptr;
    }
    Transaction tx(db);
    if (!tx.begin(error))
        return error = path + ": " + error, nullptr;
    std::int64_t version = 0;
    if (!pragmaInt(db, "PRAGMA user_version", version, error) || version != 0)
        return error = path + ": created by another process meanwhile", nullptr;
    for (const char* step : detail::schemaMigrations())
        if (!exec(db, step, error))
            return error = path + ": " + error, nullptr;
    const std::string setVersion = "PRAGMA user_version = " + std::to_string(kProjectSchemaVersion);
    if (!exec(db, setVersion.c_str(), error))
        return error = path + ": " + error, nullptr;
    Statement meta(db,
                   "INSERT INTO meta(key, value) VALUES ('created_by', ?1), ('created_utc', ?2)");
    meta.bind(1, std::string("Windscope ") + WINDSCOPE_VERSION).bind(2, utcNow());
    if (meta.step() != SQLITE_DONE)
        return error = path + ": " + meta.error(), nullptr;
    if (!tx.commit(error))
        return error = path + ": " + error, nullptr;
    store->m_verified = true; // just written by us
    return store;
}

std::unique_ptr<ProjectStore> ProjectStore::open(const std::string& path, std::string& error)
{
    // Check the header ourselves first: SQLite would accept an empty file as a new
    // database and write to it.
    {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            error = path + ": cannot open: " + std::strerror(errno);
            return nullptr;
        }
        char header[100] = {};
        in.read(header, sizeof header);
        if (in.gcount() < 100 || std::memcmp(header, "SQLite format 3", 16) != 0) {
            error = damaged(path, in.gcount() == 0 ? "empty file" : "not an SQLite database");
            return nullptr;
        }
        std::string why;
        if (!sizeMatchesHeader(path, reinterpret_cast<const unsigned char*>(header), why)) {
            error = damaged(path, why);
            return nullptr;
        }
    }
    // Decide on a connection that cannot write: an immutable one creates no -wal or
    // -shm next to a file it then refuses. Only a log with content (the file is in use,
    // or was not closed cleanly) needs the real connection to be read right.
    std::error_code ec;
    const fs::path wal = path + "-wal";
    if (!fs::exists(wal, ec) || fs::file_size(wal, ec) == 0) {
        sqlite3* probe = nullptr;
        const std::string uri = "file:" + uriPath(path) + "?immutable=1";
        if (sqlite3_open_v2(uri.c_str(), &probe, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
            SQLITE_OK) {
            error = path + ": cannot open: " + (probe ? sqlite3_errmsg(probe) : "out of memory");
            sqlite3_close_v2(probe);
            return nullptr;
        }
        std::int64_t version = 0;
        const bool usable = row_checks::registerFunction(probe, error) &&
                            checkDatabase(probe, path, version, error);
        sqlite3_close_v2(probe);
        if (!usable)
            return nullptr;
    }
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        error = path + ": cannot open: " + (db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close_v2(db);
        return nullptr;
    }
    // Until the file is known good, closing must not checkpoint a WAL into it.
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    std::unique_ptr<ProjectStore> store(new ProjectStore(path, db, 0));
    if (!row_checks::registerFunction(db, error))
        return error = path + ": " + error, nullptr;
    std::int64_t version = 0;
    if (!checkDatabase(db, path, version, error))
        return nullptr;
    store->m_openedVersion = static_cast<int>(version);
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);
    if (!configureConnection(db, error)) {
        error = path + ": " + error;
        return nullptr;
    }
    if (version < kProjectSchemaVersion) {
        if (!store->verify(error))
            return nullptr;
        // All steps in one transaction: a migration interrupted half-way leaves the old
        // version, which the next open migrates again.
        Transaction tx(db);
        if (!tx.begin(error))
            return error = path + ": " + error, nullptr;
        const auto& steps = detail::schemaMigrations();
        for (std::size_t i = static_cast<std::size_t>(version); i < steps.size(); ++i)
            if (!exec(db, steps[i], error))
                return error = path + ": migrating from schema version " + std::to_string(version) +
                               ": " + error,
                       nullptr;
        const std::string setVersion =
            "PRAGMA user_version = " + std::to_string(kProjectSchemaVersion);
        if (!exec(db, setVersion.c_str(), error) || !tx.commit(error))
            return error = path + ": " + error, nullptr;
    }
    return store;
}

bool ProjectStore::verify(std::string& error)
{
    std::string problem;
    if (!quickCheck(m_db, "", problem)) {
        error = damaged(m_path, "integrity check failed: " + problem);
        return false;
    }
    m_verified = true;
    return true;
}

bool ProjectStore::verifiedForWrite(std::string& error)
{
    return m_verified || verify(error);
}

bool ProjectStore::saveCopy(const std::string& path, std::string& error)
{
    if (!verifiedForWrite(error))
        return false;
    std::error_code ec;
    const fs::path wal = path + "-wal";
    if (fs::exists(wal, ec) && fs::file_size(wal, ec) > 0) {
        error = path + ": has a write-ahead log (" + wal.string() +
                "): it is open in another program or was not closed cleanly; not overwritten";
        return false;
    }
    const std::string temporary = path + ".saving";
    fs::remove(temporary, ec);
    // VACUUM INTO writes a compact, consistent copy from one read transaction.
    Statement copy(m_db, "VACUUM INTO ?1");
    copy.bind(1, temporary);
    if (!copy.ok() || copy.step() != SQLITE_DONE) {
        error = path + ": cannot write the copy: " + copy.error();
        fs::remove(temporary, ec);
        return false;
    }
    // The copy is complete on disk before it replaces anything.
    std::FILE* f = std::fopen(temporary.c_str(), "rb+");
    const bool synced = f && std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
    if (f)
        std::fclose(f);
    if (!synced) {
        error = path + ": cannot write the copy: " + std::strerror(errno);
        fs::remove(temporary, ec);
        return false;
    }
    fs::remove(path + "-shm", ec);
    fs::rename(temporary, path, ec);
    if (ec) {
        error = path + ": " + ec.message();
        fs::remove(temporary, ec);
        return false;
    }
    return true;
}

} // namespace windscope::analysis::store
