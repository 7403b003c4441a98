// SPDX-License-Identifier: GPL-3.0-or-later
// Taking another project's captures and failures in (the parts of a distributed batch).
#include "project_sql.h"


namespace windscope::analysis::store {

using namespace store_sql;

namespace {

// The part stays attached only for the merge, whatever way it ends.
struct Attached
{
    sqlite3* db;
    ~Attached() { sqlite3_exec(db, "DETACH DATABASE part", nullptr, nullptr, nullptr); }
};

constexpr const char* kHeldWithResults = "SELECT 1 FROM main.captures c JOIN main.analysis_cache a "
                                         "ON a.capture_id = c.id WHERE c.sha256 = ?1 LIMIT 1";

} // namespace

bool ProjectStore::mergeFrom(const std::string& partPath, MergeCounts& counts, std::string& error)
{
    counts = {};
    {
        // The part passes the checks any project passes before it is read.
        std::string partError;
        auto part = ProjectStore::open(partPath, partError);
        if (!part || !part->verify(partError))
            return error = partError, false;
    }
    if (!verifiedForWrite(error))
        return false;
    {
        Statement attach(m_db, "ATTACH DATABASE ?1 AS part");
        attach.bind(1, absolutePath(partPath));
        if (attach.step() != SQLITE_DONE)
            return error = partPath + ": " + attach.error(), false;
    }
    const Attached attached{m_db};

    Transaction tx(m_db);
    if (!tx.begin(error))
        return error = m_path + ": " + error, false;
    const auto fail = [&](const Statement& s) { return error = m_path + ": " + s.error(), false; };
    Statement captures(m_db, "SELECT c.id, c.path, c.size, c.mtime_ns, c.sha256, c.added_utc FROM part.captures c "
                             "JOIN part.analysis_cache a ON a.capture_id = c.id ORDER BY c.id");
    int rc;
    while ((rc = captures.step()) == SQLITE_ROW) {
        const std::int64_t partId = captures.integer(0);
        const std::string path = captures.text(1), sha256 = captures.text(4);
        Statement held(m_db, kHeldWithResults);
        held.bind(1, sha256);
        if (held.step() == SQLITE_ROW) {
            ++counts.alreadyHeld;
            continue;
        }
        FileIdentity file;
        file.path = path;
        file.size = static_cast<std::uint64_t>(captures.integer(2));
        file.mtimeNs = captures.integer(3);
        file.sha256 = sha256;
        const std::int64_t id = replaceCaptureRow(file, captures.text(5), error);
        if (!id)
            return false;
        for (const char* sql : {"INSERT INTO main.analysis_cache(capture_id, codec_version, analyzer_version, "
                                "created_utc, packets, tcp_segments, connections, events) SELECT ?1, codec_version, "
                                "analyzer_version, created_utc, packets, tcp_segments, connections, events "
                                "FROM part.analysis_cache WHERE capture_id = ?2",
                                "INSERT INTO main.cache_blobs(capture_id, part, data, checksum) "
                                "SELECT ?1, part, data, checksum FROM part.cache_blobs WHERE capture_id = ?2"}) {
            Statement s(m_db, sql);
            s.bind(1, id).bind(2, partId);
            if (s.step() != SQLITE_DONE)
                return fail(s);
        }
        ++counts.captures;
    }
    if (rc != SQLITE_DONE)
        return fail(captures);
    // Failures of content this project does not hold with results.
    Statement failures(m_db, "INSERT INTO main.capture_failures(path, size, mtime_ns, sha256, error, failed_utc) "
                             "SELECT path, size, mtime_ns, sha256, error, failed_utc FROM part.capture_failures f "
                             "WHERE NOT EXISTS (SELECT 1 FROM main.captures c JOIN main.analysis_cache a "
                             "ON a.capture_id = c.id WHERE c.sha256 = f.sha256) "
                             "ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, "
                             "sha256 = excluded.sha256, error = excluded.error, failed_utc = excluded.failed_utc");
    if (failures.step() != SQLITE_DONE)
        return fail(failures);
    counts.failures = static_cast<std::size_t>(sqlite3_changes(m_db));
    pauseInsideSaveIfAsked();
    if (!tx.commit(error))
        return error = m_path + ": " + error, false;
    return true;
}

} // namespace windscope::analysis::store
