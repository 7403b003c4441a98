// SPDX-License-Identifier: GPL-3.0-or-later
// The captures of a project and their cached analysis (cache_blobs, one row per part
// or chunk of a part, read in place with SQLite's incremental blob I/O).
#include "project_sql.h"

#include "windscope/version.h"

#include <algorithm>
#include <atomic>
#include <memory>

namespace windscope::analysis::store {

using namespace store_sql;

std::int64_t ProjectStore::replaceCaptureRow(const FileIdentity& file, const std::string& addedUtc,
                                            std::string& error)
{
    Statement upsert(m_db, "INSERT INTO main.captures(path, size, mtime_ns, sha256, added_utc) "
                           "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(path) DO UPDATE SET "
                           "size = excluded.size, mtime_ns = excluded.mtime_ns, sha256 = excluded.sha256 "
                           "RETURNING id");
    upsert.bind(1, file.path)
        .bind(2, static_cast<std::int64_t>(file.size))
        .bind(3, file.mtimeNs)
        .bind(4, file.sha256)
        .bind(5, addedUtc);
    if (upsert.step() != SQLITE_ROW)
        return error = m_path + ": " + upsert.error(), 0;
    const std::int64_t id = upsert.integer(0);
    if (upsert.step() != SQLITE_DONE)
        return error = m_path + ": " + upsert.error(), 0;
    // The old cache row goes with its blobs (ON DELETE CASCADE), the series derived from
    // it are stale, and a failure recorded for the path no longer holds.
    for (const char* sql : {"DELETE FROM main.analysis_cache WHERE capture_id = ?1",
                            "DELETE FROM main.cwnd_series WHERE capture_id = ?1"}) {
        Statement drop(m_db, sql);
        drop.bind(1, id);
        if (drop.step() != SQLITE_DONE)
            return error = m_path + ": " + drop.error(), 0;
    }
    Statement cleared(m_db, "DELETE FROM main.capture_failures WHERE path = ?1");
    cleared.bind(1, file.path);
    if (cleared.step() != SQLITE_DONE)
        return error = m_path + ": " + cleared.error(), 0;
    return id;
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
    const std::int64_t id = replaceCaptureRow(file, utcNow(), error);
    if (!id)
        return 0;
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

bool ProjectStore::loadFleet(std::vector<analysis::FleetCapture>& out, std::size_t& stale,
                             std::vector<std::string>& damaged, std::string& error)
{
    out.clear();
    stale = 0;
    damaged.clear();
    // One pass over every capture: the fleet part is small and never chunked, so it is
    // read as a value here (not the incremental blob I/O of the large parts) and
    // checked against its checksum as loadPart checks every part.
    Statement s(m_db, "SELECT c.id, c.path, a.codec_version, b.data, b.checksum FROM captures c "
                      "LEFT JOIN analysis_cache a ON a.capture_id = c.id "
                      "LEFT JOIN cache_blobs b ON b.capture_id = c.id AND b.part = ?1 ORDER BY c.id");
    s.bind(1, std::string(cachePartName(CachePart::Fleet)));
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        const std::int64_t id = s.integer(0);
        if (s.isNull(2) || s.integer(2) != kAnalysisCodecVersion) {
            ++stale;
            continue;
        }
        const std::string where = m_path + ": capture " + std::to_string(id) + " (" + s.text(1) + "): ";
        if (s.isNull(3)) {
            damaged.push_back(where + "cached fleet missing; add the capture again to rebuild it");
            continue;
        }
        const std::span<const std::uint8_t> blob = s.blob(3);
        if (blobChecksum(blob) != static_cast<std::uint64_t>(s.integer(4))) {
            damaged.push_back(where + "cached fleet is damaged (checksum mismatch); add the capture again to rebuild it");
            continue;
        }
        AnalysisBundle bundle;
        std::string why;
        if (!decodePart(CachePart::Fleet, blob, bundle, why)) {
            damaged.push_back(where + why);
            continue;
        }
        out.push_back({id, s.text(1), std::move(bundle.fleet)});
    }
    if (rc != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
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

bool ProjectStore::recordFailure(const CaptureFailure& failure, std::string& error)
{
    if (!verifiedForWrite(error))
        return false;
    Statement s(m_db, "INSERT INTO capture_failures(path, size, mtime_ns, sha256, error, failed_utc) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(path) DO UPDATE SET size = excluded.size, "
                      "mtime_ns = excluded.mtime_ns, sha256 = excluded.sha256, error = excluded.error, "
                      "failed_utc = excluded.failed_utc");
    s.bind(1, failure.file.path)
        .bind(2, static_cast<std::int64_t>(failure.file.size))
        .bind(3, failure.file.mtimeNs)
        .bind(4, failure.file.sha256)
        .bind(5, failure.error)
        .bind(6, failure.failedUtc.empty() ? utcNow() : failure.failedUtc);
    if (s.step() != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
}

bool ProjectStore::listFailures(std::vector<CaptureFailure>& out, std::string& error)
{
    out.clear();
    Statement s(m_db, "SELECT path, size, mtime_ns, sha256, error, failed_utc FROM capture_failures ORDER BY path");
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        CaptureFailure f;
        f.file.path = s.text(0);
        f.file.size = static_cast<std::uint64_t>(s.integer(1));
        f.file.mtimeNs = s.integer(2);
        f.file.sha256 = s.text(3);
        f.error = s.text(4);
        f.failedUtc = s.text(5);
        out.push_back(std::move(f));
    }
    if (rc != SQLITE_DONE)
        return error = m_path + ": " + s.error(), false;
    return true;
}

} // namespace windscope::analysis::store
