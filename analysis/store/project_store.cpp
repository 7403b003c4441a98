// SPDX-License-Identifier: GPL-3.0-or-later
#include "project_store.h"

#include "windscope/version.h"

#include <openssl/evp.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace windscope::analysis::store {

namespace fs = std::filesystem;

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
    };
    static_assert(kProjectSchemaVersion == 2, "add a migration step with the new version");
    static_assert(kProjectApplicationId == 1465074512, "the first step writes this id");
    return steps;
}

} // namespace detail

namespace {

// The tables each schema version must have, to tell a damaged or foreign file from ours.
const std::vector<const char*>& requiredTables(int version)
{
    static const std::vector<const char*> v1 = {"meta", "captures", "analysis_cache", "cache_blobs",
                                                "annotations"};
    static const std::vector<const char*> v2 = {"meta",        "captures",       "analysis_cache",
                                                "cache_blobs", "annotations",    "replay_scenarios",
                                                "replay_runs", "export_presets", "cwnd_series"};
    return version >= 2 ? v2 : v1;
}

std::string utcNow()
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

bool exec(sqlite3* db, const char* sql, std::string& error)
{
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        error = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        return false;
    }
    return true;
}

bool pragmaInt(sqlite3* db, const char* sql, std::int64_t& value, std::string& error)
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
std::string chunkName(CachePart part, std::size_t i)
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
void pauseInsideSaveIfAsked()
{
    const char* marker = std::getenv("WINDSCOPE_STORE_PAUSE_IN_SAVE");
    if (!marker || !*marker)
        return;
    std::ofstream(marker) << "paused\n";
    for (int i = 0; i < 600; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

std::string damaged(const std::string& path, const std::string& why)
{
    return path + ": not a usable Windscope project (" + why + "); the file was left unchanged";
}

bool configureConnection(sqlite3* db, std::string& error)
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

std::string absolutePath(const std::string& path)
{
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? fs::absolute(path).lexically_normal().string() : p.string();
}

// PRAGMA quick_check of one table ("" = the whole file), "ok" or the first problem.
bool quickCheck(sqlite3* db, const std::string& table, std::string& problem)
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
bool sizeMatchesHeader(const std::string& path, const unsigned char* header, std::string& why)
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

} // namespace

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
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        error = path + ": cannot open: " + (db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close_v2(db);
        return nullptr;
    }
    // Until the file is known good, closing must not checkpoint a WAL into it.
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    std::unique_ptr<ProjectStore> store(new ProjectStore(path, db, 0));

    std::int64_t applicationId = 0, version = 0;
    std::string sqlError;
    if (!pragmaInt(db, "PRAGMA application_id", applicationId, sqlError) ||
        !pragmaInt(db, "PRAGMA user_version", version, sqlError)) {
        error = damaged(path, sqlError);
        return nullptr;
    }
    if (applicationId != kProjectApplicationId) {
        error = damaged(path, "an SQLite database of another application");
        return nullptr;
    }
    if (version > kProjectSchemaVersion) {
        error = path + ": written by a newer Windscope (project schema version " +
                std::to_string(version) + "); this Windscope " + WINDSCOPE_VERSION +
                " reads schema versions up to " + std::to_string(kProjectSchemaVersion) +
                ". The file was left unchanged.";
        return nullptr;
    }
    if (version < 1) {
        error = damaged(path, "no project schema version");
        return nullptr;
    }
    for (const char* table : requiredTables(static_cast<int>(version))) {
        Statement s(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1");
        s.bind(1, std::string(table));
        if (s.step() != SQLITE_ROW) {
            error = damaged(path, std::string("table ") + table + " is missing");
            return nullptr;
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
            return nullptr;
        }
    }
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

std::int64_t ProjectStore::saveCapture(const FileIdentity& file, const AnalysisBundle& results,
                                       std::string& error)
{
    if (!verifiedForWrite(error))
        return 0;
    // Encode before the transaction: the write lock is held only for the writes.
    std::vector<std::vector<std::uint8_t>> parts;
    for (CachePart part : kAllCacheParts)
        parts.push_back(encodePart(part, results));

    Transaction tx(m_db);
    if (!tx.begin(error))
        return error = m_path + ": " + error, 0;
    Statement upsert(m_db,
                     "INSERT INTO captures(path, size, mtime_ns, sha256, added_utc) "
                     "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(path) DO UPDATE SET "
                     "size = excluded.size, mtime_ns = excluded.mtime_ns, sha256 = excluded.sha256 "
                     "RETURNING id");
    upsert.bind(1, file.path)
        .bind(2, static_cast<std::int64_t>(file.size))
        .bind(3, file.mtimeNs)
        .bind(4, file.sha256)
        .bind(5, utcNow());
    if (upsert.step() != SQLITE_ROW)
        return error = m_path + ": " + upsert.error(), 0;
    const std::int64_t id = upsert.integer(0);
    if (upsert.step() != SQLITE_DONE)
        return error = m_path + ": " + upsert.error(), 0;

    // Replacing the cache row deletes its blobs (ON DELETE CASCADE).
    Statement drop(m_db, "DELETE FROM analysis_cache WHERE capture_id = ?1");
    drop.bind(1, id);
    if (drop.step() != SQLITE_DONE)
        return error = m_path + ": " + drop.error(), 0;
    Statement cache(m_db, "INSERT INTO analysis_cache(capture_id, codec_version, analyzer_version, "
                          "created_utc, packets, tcp_segments, connections, events) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    cache.bind(1, id)
        .bind(2, static_cast<std::int64_t>(kAnalysisCodecVersion))
        .bind(3, std::string(WINDSCOPE_VERSION))
        .bind(4, utcNow())
        .bind(5, static_cast<std::int64_t>(results.tables.summary.packets))
        .bind(6, static_cast<std::int64_t>(results.tables.tcp.size()))
        .bind(7, static_cast<std::int64_t>(results.tcp.connections.size()))
        .bind(8, static_cast<std::int64_t>(results.events.events.size()));
    if (cache.step() != SQLITE_DONE)
        return error = m_path + ": " + cache.error(), 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        // Every chunk row carries the checksum of the whole part, checked once it is read.
        const auto checksum = static_cast<std::int64_t>(blobChecksum(parts[i]));
        const std::span<const std::uint8_t> bytes(parts[i]);
        std::size_t chunk = 0;
        for (std::size_t at = 0; at < bytes.size() || chunk == 0; at += m_chunkBytes, ++chunk) {
            Statement blob(m_db, "INSERT INTO cache_blobs(capture_id, part, data, checksum) "
                                 "VALUES (?1, ?2, ?3, ?4)");
            blob.bind(1, id)
                .bind(2, chunkName(kAllCacheParts[i], chunk))
                .bindBlob(3, bytes.subspan(at, std::min(m_chunkBytes, bytes.size() - at)))
                .bind(4, checksum);
            if (blob.step() != SQLITE_DONE)
                return error = m_path + ": " + blob.error(), 0;
        }
    }
    // Cached series derived from the old results are stale now.
    Statement stale(m_db, "DELETE FROM cwnd_series WHERE capture_id = ?1");
    stale.bind(1, id);
    if (stale.step() != SQLITE_DONE)
        return error = m_path + ": " + stale.error(), 0;
    pauseInsideSaveIfAsked();
    if (!tx.commit(error))
        return error = m_path + ": " + error, 0;
    return id;
}

namespace {

constexpr const char* kCaptureColumns =
    "SELECT c.id, c.path, c.size, c.mtime_ns, c.sha256, c.added_utc, a.codec_version, "
    "a.analyzer_version, a.packets, a.tcp_segments, a.connections, a.events, "
    "(SELECT sum(length(b.data)) FROM cache_blobs b WHERE b.capture_id = c.id) "
    "FROM captures c LEFT JOIN analysis_cache a ON a.capture_id = c.id ";

CaptureRecord readCapture(const Statement& s)
{
    CaptureRecord r;
    r.id = s.integer(0);
    r.file.path = s.text(1);
    r.file.size = static_cast<std::uint64_t>(s.integer(2));
    r.file.mtimeNs = s.integer(3);
    r.file.sha256 = s.text(4);
    r.addedUtc = s.text(5);
    r.cached = !s.isNull(6) && s.integer(6) == kAnalysisCodecVersion;
    r.analyzerVersion = s.text(7);
    r.packets = static_cast<std::uint64_t>(s.integer(8));
    r.tcpSegments = static_cast<std::uint64_t>(s.integer(9));
    r.connections = static_cast<std::uint64_t>(s.integer(10));
    r.events = static_cast<std::uint64_t>(s.integer(11));
    r.cacheBytes = static_cast<std::uint64_t>(s.integer(12));
    return r;
}

} // namespace

bool ProjectStore::listCaptures(std::vector<CaptureRecord>& out, std::string& error)
{
    out.clear();
    Statement s(m_db, (std::string(kCaptureColumns) + "ORDER BY c.id").c_str());
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        out.push_back(readCapture(s));
    if (rc != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
}

bool ProjectStore::findCapture(const std::string& idOrPath, CaptureRecord& out, std::string& error)
{
    const bool numeric =
        !idOrPath.empty() && idOrPath.find_first_not_of("0123456789") == std::string::npos;
    if (numeric) {
        Statement s(m_db, (std::string(kCaptureColumns) + "WHERE c.id = ?1").c_str());
        s.bind(1, static_cast<std::int64_t>(std::stoll(idOrPath)));
        if (s.step() == SQLITE_ROW)
            return out = readCapture(s), true;
    }
    {
        Statement s(m_db, (std::string(kCaptureColumns) + "WHERE c.path = ?1").c_str());
        s.bind(1, absolutePath(idOrPath));
        if (s.step() == SQLITE_ROW)
            return out = readCapture(s), true;
    }
    // A capture moved or copied elsewhere is still the same content.
    FileIdentity file;
    std::string ignored;
    if (identifyFile(idOrPath, true, file, ignored)) {
        Statement s(m_db,
                    (std::string(kCaptureColumns) + "WHERE c.sha256 = ?1 ORDER BY c.id").c_str());
        s.bind(1, file.sha256);
        if (s.step() == SQLITE_ROW)
            return out = readCapture(s), true;
    }
    error = m_path + ": no capture " + idOrPath + " in this project";
    return false;
}

bool ProjectStore::loadResults(std::int64_t captureId, AnalysisBundle& out, std::string& error)
{
    out = AnalysisBundle{};
    return loadResults(captureId, kAllCacheParts, out, error);
}

bool ProjectStore::checkCodecVersion(std::int64_t captureId, std::string& error)
{
    Statement version(m_db, "SELECT codec_version FROM analysis_cache WHERE capture_id = ?1");
    version.bind(1, captureId);
    const int rc = version.step();
    if (rc != SQLITE_ROW) {
        error = m_path + ": " +
                (rc == SQLITE_DONE ? "no cached results for capture " + std::to_string(captureId)
                                   : version.error());
        return false;
    }
    if (version.integer(0) != kAnalysisCodecVersion) {
        error = m_path + ": the cached results of capture " + std::to_string(captureId) +
                " have layout version " + std::to_string(version.integer(0)) +
                ", this build reads " + std::to_string(kAnalysisCodecVersion) +
                "; add the capture again to refresh them";
        return false;
    }
    return true;
}

bool ProjectStore::loadResults(std::int64_t captureId, std::span<const CachePart> parts,
                               AnalysisBundle& out, std::string& error, unsigned threads)
{
    if (!checkCodecVersion(captureId, error))
        return false;
    if (threads <= 1 || parts.size() <= 1) {
        for (CachePart part : parts)
            if (!loadPart(captureId, part, out, error))
                return false;
        return true;
    }
    // Parts are taken in turn by the workers; this thread is one of them.
    std::atomic<std::size_t> next{0};
    std::vector<std::string> errors(parts.size());
    std::vector<char> loaded(parts.size(), 0);
    auto work = [&](ProjectStore& store) {
        for (std::size_t i; (i = next.fetch_add(1)) < parts.size();)
            loaded[i] = store.loadPart(captureId, parts[i], out, errors[i]);
    };
    std::vector<std::unique_ptr<ProjectStore>> connections;
    std::vector<std::thread> workers;
    std::string openError;
    for (unsigned t = 1; t < std::min<std::size_t>(threads, parts.size()); ++t) {
        auto connection = ProjectStore::open(m_path, openError);
        if (!connection)
            break; // the parts left to it are loaded by the others
        connections.push_back(std::move(connection));
    }
    for (auto& connection : connections)
        workers.emplace_back(work, std::ref(*connection));
    work(*this);
    for (std::thread& w : workers)
        w.join();
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (!loaded[i])
            return error = errors[i], false;
    return true;
}

bool ProjectStore::loadPart(std::int64_t captureId, CachePart part, AnalysisBundle& out,
                            std::string& error)
{
    const std::string where = m_path + ": capture " + std::to_string(captureId) + ": ";
    // The part's rows: its name, then "name#1", "name#2", ... when it was chunked.
    Statement s(m_db, "SELECT rowid, checksum, part FROM cache_blobs WHERE capture_id = ?1 AND "
                      "(part = ?2 OR substr(part, 1, length(?2) + 1) = ?2 || '#')");
    s.bind(1, captureId).bind(2, std::string(cachePartName(part)));
    std::vector<std::pair<std::int64_t, std::int64_t>> rows; // rowid by chunk index
    std::int64_t checksum = 0;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        const std::string name = s.text(2);
        const std::size_t hash = name.find('#');
        const std::size_t index =
            hash == std::string::npos ? 0 : static_cast<std::size_t>(std::strtoull(name.c_str() + hash + 1, nullptr, 10));
        if (index > (std::size_t{1} << 20)) // 512 TB of chunks: a damaged name, not a part
            return error = where + "cached " + cachePartName(part) + " has a damaged chunk name", false;
        if (index >= rows.size())
            rows.resize(index + 1, {0, 0});
        rows[index] = {s.integer(0), s.integer(1)};
        checksum = s.integer(1);
    }
    if (rc != SQLITE_DONE)
        return error = where + s.error(), false;
    if (rows.empty())
        return error = where + "cached " + cachePartName(part) + " missing", false;
    SqliteBlobSource source;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].first == 0)
            return error = where + "cached " + chunkName(part, i) +
                           " missing; add the capture again to rebuild it",
                   false;
        if (rows[i].second != checksum)
            return error = where + "cached " + cachePartName(part) +
                           " is damaged (its chunks disagree); add the capture again to rebuild it",
                   false;
        // Incremental blob I/O reads the pages straight into the result columns; a plain
        // SELECT of the blob would first assemble a copy of it.
        if (!source.append(m_db, rows[i].first))
            return error = where + sqlite3_errmsg(m_db), false;
    }
    std::string why;
    std::uint64_t computed = 0;
    if (!decodePart(part, source, out, why, &computed))
        return error = where + why, false;
    if (computed != static_cast<std::uint64_t>(checksum))
        return error = where + "cached " + cachePartName(part) +
                       " is damaged (checksum mismatch); add the capture again to rebuild it",
               false;
    return true;
}

CaptureStatus ProjectStore::checkCapture(const CaptureRecord& capture)
{
    FileIdentity now;
    std::string ignored;
    if (!identifyFile(capture.file.path, false, now, ignored))
        return CaptureStatus::Moved;
    if (now.size == capture.file.size && now.mtimeNs == capture.file.mtimeNs)
        return CaptureStatus::Ok;
    if (now.size != capture.file.size || !identifyFile(capture.file.path, true, now, ignored))
        return CaptureStatus::Changed;
    return now.sha256 == capture.file.sha256 ? CaptureStatus::Ok : CaptureStatus::Changed;
}

bool ProjectStore::removeCapture(std::int64_t captureId, std::string& error)
{
    if (!verifiedForWrite(error))
        return false;
    Statement s(m_db, "DELETE FROM captures WHERE id = ?1");
    s.bind(1, captureId);
    if (s.step() != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
}

std::int64_t ProjectStore::addAnnotation(const Annotation& a, std::string& error)
{
    if (!verifiedForWrite(error))
        return 0;
    Statement s(m_db, "INSERT INTO annotations(capture_id, kind, time_ns, event_id, connection_id, "
                      "text, created_utc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    s.bind(1, a.captureId).bind(2, a.kind);
    a.timeNs ? s.bind(3, *a.timeNs) : s.bindNull(3);
    a.eventId ? s.bind(4, static_cast<std::int64_t>(*a.eventId)) : s.bindNull(4);
    a.connectionId ? s.bind(5, static_cast<std::int64_t>(*a.connectionId)) : s.bindNull(5);
    s.bind(6, a.text).bind(7, utcNow());
    if (s.step() != SQLITE_DONE)
        return error = m_path + ": " + s.error(), 0;
    return sqlite3_last_insert_rowid(m_db);
}

bool ProjectStore::listAnnotations(std::int64_t captureId, std::vector<Annotation>& out,
                                   std::string& error)
{
    out.clear();
    Statement s(m_db, "SELECT id, capture_id, kind, time_ns, event_id, connection_id, text "
                      "FROM annotations WHERE capture_id = ?1 ORDER BY time_ns, id");
    s.bind(1, captureId);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        Annotation a;
        a.id = s.integer(0);
        a.captureId = s.integer(1);
        a.kind = s.text(2);
        if (!s.isNull(3))
            a.timeNs = s.integer(3);
        if (!s.isNull(4))
            a.eventId = static_cast<std::uint64_t>(s.integer(4));
        if (!s.isNull(5))
            a.connectionId = static_cast<std::uint64_t>(s.integer(5));
        a.text = s.text(6);
        out.push_back(std::move(a));
    }
    if (rc != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
}

bool ProjectStore::removeAnnotation(std::int64_t id, std::string& error)
{
    if (!verifiedForWrite(error))
        return false;
    Statement s(m_db, "DELETE FROM annotations WHERE id = ?1");
    s.bind(1, id);
    if (s.step() != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
}

bool ProjectStore::setMetaValue(const std::string& key, const std::string& value,
                                std::string& error)
{
    if (!verifiedForWrite(error))
        return false;
    Statement s(m_db, "INSERT INTO meta(key, value) VALUES (?1, ?2) "
                      "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    s.bind(1, key).bind(2, value);
    if (s.step() != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
}

bool ProjectStore::metaValue(const std::string& key, std::string& value, std::string& error)
{
    value.clear();
    Statement s(m_db, "SELECT value FROM meta WHERE key = ?1");
    s.bind(1, key);
    const int rc = s.step();
    if (rc == SQLITE_ROW)
        value = s.text(0);
    else if (rc != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
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

std::int64_t ProjectStore::saveScenario(std::int64_t captureId, const std::string& name,
                                        const std::string& json, std::string& error)
{
    if (!verifiedForWrite(error))
        return 0;
    Statement s(m_db, "INSERT INTO replay_scenarios(capture_id, name, json, created_utc) "
                      "VALUES (?1, ?2, ?3, ?4)");
    captureId ? s.bind(1, captureId) : s.bindNull(1);
    s.bind(2, name).bind(3, json).bind(4, utcNow());
    if (s.step() != SQLITE_DONE)
        return error = m_path + ": " + s.error(), 0;
    return sqlite3_last_insert_rowid(m_db);
}

std::int64_t ProjectStore::saveRun(std::int64_t scenarioId, const std::string& json,
                                   std::string& error)
{
    if (!verifiedForWrite(error))
        return 0;
    Statement s(m_db,
                "INSERT INTO replay_runs(scenario_id, json, created_utc) VALUES (?1, ?2, ?3)");
    s.bind(1, scenarioId).bind(2, json).bind(3, utcNow());
    if (s.step() != SQLITE_DONE)
        return error = m_path + ": " + s.error(), 0;
    return sqlite3_last_insert_rowid(m_db);
}

namespace {

bool readRecords(Statement& s, std::vector<JsonRecord>& out, const std::string& path,
                 std::string& error)
{
    out.clear();
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        JsonRecord r;
        r.id = s.integer(0);
        r.parentId = s.isNull(1) ? 0 : s.integer(1);
        r.name = s.text(2);
        r.json = s.text(3);
        r.createdUtc = s.text(4);
        out.push_back(std::move(r));
    }
    if (rc != SQLITE_DONE)
        return error = path + ": " + s.error(), false;
    return true;
}

} // namespace

bool ProjectStore::listScenarios(std::int64_t captureId, std::vector<JsonRecord>& out,
                                 std::string& error)
{
    Statement s(m_db, "SELECT id, capture_id, name, json, created_utc FROM replay_scenarios "
                      "WHERE capture_id IS ?1 ORDER BY id");
    captureId ? s.bind(1, captureId) : s.bindNull(1);
    return readRecords(s, out, m_path, error);
}

bool ProjectStore::listRuns(std::int64_t scenarioId, std::vector<JsonRecord>& out,
                            std::string& error)
{
    Statement s(m_db, "SELECT id, scenario_id, '', json, created_utc FROM replay_runs "
                      "WHERE scenario_id = ?1 ORDER BY id");
    s.bind(1, scenarioId);
    return readRecords(s, out, m_path, error);
}

bool ProjectStore::saveExportPreset(const std::string& name, const std::string& json,
                                    std::string& error)
{
    if (!verifiedForWrite(error))
        return false;
    Statement s(m_db, "INSERT INTO export_presets(name, json, created_utc) VALUES (?1, ?2, ?3) "
                      "ON CONFLICT(name) DO UPDATE SET json = excluded.json");
    s.bind(1, name).bind(2, json).bind(3, utcNow());
    if (s.step() != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
}

bool ProjectStore::listExportPresets(std::vector<JsonRecord>& out, std::string& error)
{
    Statement s(m_db, "SELECT id, NULL, name, json, created_utc FROM export_presets ORDER BY name");
    return readRecords(s, out, m_path, error);
}

} // namespace windscope::analysis::store
