// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Windscope project file: an SQLite database with one owner, this class. It holds
// the captures of a project (path, size, mtime and SHA-256, so a moved or changed file
// is noticed), their analysis results cached (reopening skips ingest and analysis),
// annotations and bookmarks, replay scenarios and runs, and export presets.
//
// Safety rules:
// - Schema version in PRAGMA user_version, migrated forward on open; a file written by
//   a newer Windscope is refused with both versions named, never downgraded.
// - A file that is not an SQLite database, fails PRAGMA quick_check, lacks the
//   project's tables or carries another application id is refused with a message
//   naming the file, and nothing is written to it.
// - Every save is one transaction in WAL mode with synchronous=FULL: a crash or kill
//   mid-save leaves the project at its last committed state.
//
// Not thread-safe: one ProjectStore per thread (SQLite connections are cheap). Two
// connections to one file take turns: a write waits up to 10 s for the other's.

#include "analysis_codec.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

struct sqlite3;

namespace windscope::analysis::store {

inline constexpr int kProjectSchemaVersion = 4;
// PRAGMA application_id of a Windscope project ("WSCP").
inline constexpr std::int32_t kProjectApplicationId = 0x57534350;

// The identity of a capture file on disk.
struct FileIdentity
{
    std::string path; // absolute
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
    std::string sha256; // lower-case hex of the whole file's bytes
};

// Reads size and mtime of path, and its SHA-256 when withHash. False with error when
// the file cannot be read.
bool identifyFile(const std::string& path, bool withHash, FileIdentity& out, std::string& error);

enum class CaptureStatus : std::uint8_t {
    Ok,      // at its path with the recorded size and content
    Changed, // at its path, but its content differs from the one analysed
    Moved,   // no longer at its path (moved, renamed or deleted)
};
const char* captureStatusName(CaptureStatus status); // "ok", "changed", "moved"

struct CaptureRecord
{
    std::int64_t id = 0;
    FileIdentity file;           // as recorded when added / last re-analysed
    std::string addedUtc;        // ISO 8601
    bool cached = false;         // analysis results present and readable by this build
    std::string analyzerVersion; // Windscope version that produced the cache
    // Cached summary, for listings without loading the results.
    std::uint64_t packets = 0, tcpSegments = 0, connections = 0, events = 0;
    std::uint64_t cacheBytes = 0;
};

// A capture whose analysis failed (unreadable, not a capture, damaged beyond reading),
// kept so that a batch does not try the same bytes again and the reason is on record.
struct CaptureFailure
{
    FileIdentity file;
    std::string error;
    std::string failedUtc;       // ISO 8601
};

struct Annotation
{
    std::int64_t id = 0;
    std::int64_t captureId = 0;
    std::string kind = "note";            // "note" or "bookmark"
    std::optional<std::int64_t> timeNs;   // capture-relative time it marks
    std::optional<std::uint64_t> eventId; // WlanEvent::id it is about
    std::optional<std::uint64_t> connectionId;
    std::string text;
};

struct JsonRecord
{
    std::int64_t id = 0;
    std::int64_t parentId = 0; // capture (scenario), scenario (run); 0 = none
    std::string name;
    std::string json; // opaque to the store
    std::string createdUtc;
};

class ProjectStore
{
public:
    ~ProjectStore();
    ProjectStore(const ProjectStore&) = delete;
    ProjectStore& operator=(const ProjectStore&) = delete;

    // Creates a new project file; refuses to touch an existing file.
    static std::unique_ptr<ProjectStore> create(const std::string& path, std::string& error);
    // Opens an existing project, validating it first (see the safety rules above) and
    // migrating an older schema forward in one transaction.
    static std::unique_ptr<ProjectStore> open(const std::string& path, std::string& error);

    const std::string& path() const { return m_path; }
    // A cached part larger than this is stored as several rows ("frame_columns",
    // "frame_columns#1", ...): SQLite refuses values over 1 GB (SQLITE_MAX_LENGTH), and
    // the columns of a capture of 15 million packets or more exceed it. Tests set it small.
    static constexpr std::size_t kDefaultCacheChunkBytes = std::size_t{512} << 20;
    void setCacheChunkBytes(std::size_t bytes) { m_chunkBytes = bytes ? bytes : kDefaultCacheChunkBytes; }
    // The schema version the file had when opened (before any migration).
    int openedSchemaVersion() const { return m_openedVersion; }

    // ---- captures and cached results ----
    // Adds (or, for a path already in the project, replaces) a capture with its
    // analysis results, in one transaction. Returns the capture id, 0 on error.
    std::int64_t saveCapture(const FileIdentity& file, const AnalysisBundle& results,
                             std::string& error);
    bool listCaptures(std::vector<CaptureRecord>& out, std::string& error);
    // Looks a capture up by id, by its recorded path, or by a path naming the same file.
    bool findCapture(const std::string& idOrPath, CaptureRecord& out, std::string& error);
    // Loads every cached part: exactly the structs a fresh analyzeCapture gives.
    bool loadResults(std::int64_t captureId, AnalysisBundle& out, std::string& error);
    // Loads only some parts (e.g. kReportCacheParts for the connection table) into the
    // members of out they hold; the other members are left as they are, so a bundle can
    // be filled in steps (kOverviewCacheParts first, kDetailCacheParts later). With
    // threads > 1, parts load side by side, each on a connection of its own (parts fill
    // disjoint members); the large column parts are what this speeds up.
    bool loadResults(std::int64_t captureId, std::span<const CachePart> parts, AnalysisBundle& out,
                     std::string& error, unsigned threads = 1);
    // Compares the recorded identity with the file now on disk. Hashes the file only
    // when size or mtime differ (a touched but unchanged file stays Ok).
    CaptureStatus checkCapture(const CaptureRecord& capture);
    bool removeCapture(std::int64_t captureId, std::string& error);
    // Records (or replaces, by path) a capture that could not be analysed; saveCapture
    // of the same path clears it.
    bool recordFailure(const CaptureFailure& failure, std::string& error);
    bool listFailures(std::vector<CaptureFailure>& out, std::string& error);
    // Takes the captures (with their cached results) and failures of another project
    // (a part written elsewhere, e.g. by one worker of a distributed batch) in one
    // transaction: a capture whose SHA-256 this project holds with results already is
    // left out; one at a path here replaces it. The part is validated as open() does
    // and left unchanged. Counts what was taken and left out.
    struct MergeCounts
    {
        std::size_t captures = 0, alreadyHeld = 0, failures = 0;
    };
    bool mergeFrom(const std::string& partPath, MergeCounts& counts, std::string& error);
    // The fleet summary of every capture with current results (CachePart::Fleet), in
    // capture id order; stale counts the captures whose results this build cannot read
    // (analysed by an older layout: add them again, or rerun the batch, to include them)
    // and damaged names each capture whose part could not be read (left out, the rest
    // still read). False only when the project itself cannot be read.
    bool loadFleet(std::vector<analysis::FleetCapture>& out, std::size_t& stale,
                   std::vector<std::string>& damaged, std::string& error);

    // ---- annotations and bookmarks ----
    std::int64_t addAnnotation(const Annotation& a, std::string& error);
    bool listAnnotations(std::int64_t captureId, std::vector<Annotation>& out, std::string& error);
    bool removeAnnotation(std::int64_t id, std::string& error);

    // ---- replay scenarios and runs, export presets (opaque JSON for now) ----
    std::int64_t saveScenario(std::int64_t captureId, const std::string& name,
                              const std::string& json, std::string& error);
    std::int64_t saveRun(std::int64_t scenarioId, const std::string& json, std::string& error);
    bool listScenarios(std::int64_t captureId, std::vector<JsonRecord>& out, std::string& error);
    bool listRuns(std::int64_t scenarioId, std::vector<JsonRecord>& out, std::string& error);
    bool saveExportPreset(const std::string& name, const std::string& json, std::string& error);
    bool listExportPresets(std::vector<JsonRecord>& out, std::string& error);

    // ---- project-wide values (the GUI's view state), in the meta table ----
    bool setMetaValue(const std::string& key, const std::string& value, std::string& error);
    // value is "" when the key is absent.
    bool metaValue(const std::string& key, std::string& value, std::string& error);

    // Writes a consistent copy of the whole project to path (Save As): to a temporary
    // file beside it, synced, then renamed over path, so path is either its old content
    // or the complete copy. Refuses a path whose own write-ahead log is not empty (a
    // project open elsewhere or not closed cleanly).
    bool saveCopy(const std::string& path, std::string& error);

    // Full structural check of the file (PRAGMA quick_check over every page). open()
    // checks only the small tables so reopening stays fast; every write runs this once
    // first, so a damaged file is never written to.
    bool verify(std::string& error);
    // The file passed verify() on another connection (the desktop application runs the
    // full check off the GUI thread right after opening): writes need not repeat it.
    void markVerified() { m_verified = true; }
    bool isVerified() const { return m_verified; }

private:
    ProjectStore(std::string path, sqlite3* db, int openedVersion);
    bool verifiedForWrite(std::string& error);
    bool checkCodecVersion(std::int64_t captureId, std::string& error);
    bool loadPart(std::int64_t captureId, CachePart part, AnalysisBundle& out, std::string& error);
    // Inside a write transaction: the capture's row (added, or replaced by path) with
    // what its old results left dropped (cache and blobs, cwnd series, a failure of the
    // path), ready for new results. Returns its id, 0 on error.
    std::int64_t replaceCaptureRow(const FileIdentity& file, const std::string& addedUtc, std::string& error);
    std::string m_path;
    sqlite3* m_db = nullptr;
    int m_openedVersion = 0;
    bool m_verified = false;
    std::size_t m_chunkBytes = kDefaultCacheChunkBytes;
};

namespace detail {
// The SQL that brings schema version i to i + 1 (index i), exposed so tests can build a
// file at an older version and check the forward migration.
const std::vector<const char*>& schemaMigrations();
} // namespace detail

} // namespace windscope::analysis::store
