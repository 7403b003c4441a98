// SPDX-License-Identifier: GPL-3.0-or-later
// The project file: save, reopen and compare with a fresh analysis; refusal of damaged,
// foreign and newer files without touching them; forward migration; capture identity.

#include "analysis/report/report_json.h"
#include "analysis/pipeline/analyze_capture.h"
#include "analysis/store/project_store.h"
#include "store_test_kit.h"
#include "test_support.h"

#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace windscope::test {
namespace {

namespace store = analysis::store;

std::unique_ptr<store::ProjectStore> createProject(const std::filesystem::path& path)
{
    std::string error;
    auto project = store::ProjectStore::create(path.string(), error);
    EXPECT_TRUE(project) << error;
    return project;
}

// Saves one capture's analysis, reopens the project in a new connection, loads the
// cache and compares every field with a second, independent fresh analysis.
void roundTrip(const std::filesystem::path& capture)
{
    WINDSCOPE_REQUIRE_FILE(capture);
    ScratchDir dir;
    std::string error;
    store::FileIdentity file;
    ASSERT_TRUE(store::identifyFile(capture.string(), true, file, error)) << error;
    {
        auto project = createProject(dir / "p.wsproj");
        ASSERT_TRUE(project);
        analysis::pipeline::AnalysisBundle results;
        ASSERT_TRUE(analysis::pipeline::analyzeCapture(file.path, results, error)) << error;
        ASSERT_NE(project->saveCapture(file, results, error), 0) << error;
    }
    analysis::pipeline::AnalysisBundle fresh;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(file.path, fresh, error)) << error;

    auto project = store::ProjectStore::open((dir / "p.wsproj").string(), error);
    ASSERT_TRUE(project) << error;
    store::CaptureRecord record;
    ASSERT_TRUE(project->findCapture(capture.string(), record, error)) << error;
    EXPECT_TRUE(record.cached);
    EXPECT_EQ(record.packets, fresh.tables.summary.packets);
    EXPECT_EQ(record.connections, fresh.tcp.connections.size());
    EXPECT_EQ(project->checkCapture(record), store::CaptureStatus::Ok);
    analysis::pipeline::AnalysisBundle loaded;
    ASSERT_TRUE(project->loadResults(record.id, loaded, error)) << error;
    expectSameBundle(fresh, loaded);
    // Parts loaded side by side on connections of their own, in two steps as the
    // desktop application does: the same bundle.
    analysis::pipeline::AnalysisBundle stepwise;
    ASSERT_TRUE(project->loadResults(record.id, store::kOverviewCacheParts, stepwise, error, 3)) << error;
    EXPECT_TRUE(stepwise.tables.tcp.frame.empty() && stepwise.tcp.segments.flags.empty());
    ASSERT_TRUE(project->loadResults(record.id, store::kDetailCacheParts, stepwise, error, 2)) << error;
    expectSameBundle(fresh, stepwise);
    EXPECT_FALSE(fresh.tcp.connections.empty() && fresh.tables.wlan.size() == 0)
        << "a capture with neither TCP nor 802.11 tests nothing";
}

TEST(ProjectStore, RoundTripPublicRadiotapHttp)
{
    roundTrip(publicCapture("arkime__80211http.pcap"));
}
TEST(ProjectStore, RoundTripPublicEthernetMixed)
{
    roundTrip(publicCapture("pcapplusplus__example.pcap"));
}
TEST(ProjectStore, RoundTripPublicMonitorMode)
{
    roundTrip(publicCapture("networks744__active1.pcap"));
}
TEST(ProjectStore, RoundTripPublicSackTrace)
{
    roundTrip(publicCapture("tcptrace__dsack.dmp.gz"));
}
TEST(ProjectStore, RoundTripPublicManyFlows)
{
    roundTrip(publicCapture("chrissanders__ftp-crack.pcap"));
}
TEST(ProjectStore, RoundTripPublicPowerSave)
{
    roundTrip(publicCapture("wifidoctor-stavros__home_network2.PM.pcapng"));
}
TEST(ProjectStore, RoundTripPublicMalformed)
{
    roundTrip(testData("malformed-mix.pcap"));
}
TEST(ProjectStore, RoundTripLabLinuxHandoff)
{
    roundTrip(labDir("linux/reno-handoff") / "ap-wlan.pcap");
}
TEST(ProjectStore, RoundTripLabLinuxScan)
{
    roundTrip(labDir("linux/reno-scan100") / "ap-wlan.pcap");
}
TEST(ProjectStore, RoundTripLabNs3Scan)
{
    roundTrip(labDir("ns3/A-scan-T200") / "wifi-ap.pcap");
}
TEST(ProjectStore, RoundTripLabNs3Handoff)
{
    roundTrip(labDir("ns3/B-handoff-baseline") / "wifi-sta.pcap");
}

TEST(ProjectStore, CreateRefusesAnExistingFile)
{
    ScratchDir dir;
    writeBytes(dir / "x.wsproj", {'k', 'e', 'e', 'p'});
    std::string error;
    EXPECT_FALSE(store::ProjectStore::create((dir / "x.wsproj").string(), error));
    EXPECT_NE(error.find("x.wsproj"), std::string::npos) << error;
    EXPECT_EQ(fileBytes(dir / "x.wsproj"), (std::vector<char>{'k', 'e', 'e', 'p'}));
}

// A valid project with one cached capture, closed (WAL checkpointed into the file).
std::filesystem::path makeProjectFile(const ScratchDir& dir)
{
    const std::filesystem::path capture = publicCapture("arkime__80211http.pcap");
    const std::filesystem::path path = dir / "good.wsproj";
    std::string error;
    auto project = store::ProjectStore::create(path.string(), error);
    EXPECT_TRUE(project) << error;
    store::FileIdentity file;
    analysis::pipeline::AnalysisBundle results;
    if (store::identifyFile(capture.string(), true, file, error) &&
        analysis::pipeline::analyzeCapture(file.path, results, error)) {
        EXPECT_NE(project->saveCapture(file, results, error), 0) << error;
    }
    return path;
}

// Opening must fail with a message naming the file and leave its bytes as they were
// (and create no WAL next to it that a later open could mistake for data).
void expectRefusedUntouched(const std::filesystem::path& path, const std::string& mustMention)
{
    const std::vector<char> before = fileBytes(path);
    const std::filesystem::path wal = path.string() + "-wal";
    const std::filesystem::path shm = path.string() + "-shm";
    const bool hadSideFiles = std::filesystem::exists(wal) || std::filesystem::exists(shm);
    std::string error;
    auto project = store::ProjectStore::open(path.string(), error);
    EXPECT_FALSE(project) << path;
    project.reset();
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    EXPECT_NE(error.find(mustMention), std::string::npos) << error;
    EXPECT_EQ(fileBytes(path), before) << "the refused file was modified";
    EXPECT_TRUE(!std::filesystem::exists(wal) || std::filesystem::file_size(wal) == 0)
        << "a WAL with content was left next to the refused file";
    if (!hadSideFiles) {
        EXPECT_FALSE(std::filesystem::exists(wal)) << "a -wal file was created next to the refused file";
        EXPECT_FALSE(std::filesystem::exists(shm)) << "a -shm file was created next to the refused file";
    }
}

// Overwrites the first occurrence of `from` in the file with `to` (same length): a
// flipped byte inside a row, as a disk or a careless edit leaves it.
void replaceBytes(const std::filesystem::path& path, const std::string& from, const std::string& to)
{
    ASSERT_EQ(from.size(), to.size());
    std::vector<char> bytes = fileBytes(path);
    const auto at = std::search(bytes.begin(), bytes.end(), from.begin(), from.end());
    ASSERT_NE(at, bytes.end()) << "\"" << from << "\" is not in " << path;
    std::copy(to.begin(), to.end(), at);
    writeBytes(path, bytes);
}

TEST(ProjectStore, RefusesTruncatedFile)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    std::vector<char> bytes = fileBytes(path);
    ASSERT_GT(bytes.size(), 8192u);
    bytes.resize(bytes.size() / 2);
    writeBytes(path, bytes);
    expectRefusedUntouched(path, "not a usable Windscope project");
}

TEST(ProjectStore, RefusesRandomBytes)
{
    ScratchDir dir;
    std::mt19937 random(7);
    std::vector<char> bytes(65536);
    for (char& c : bytes)
        c = static_cast<char>(random());
    writeBytes(dir / "noise.wsproj", bytes);
    expectRefusedUntouched(dir / "noise.wsproj", "not an SQLite database");
}

TEST(ProjectStore, RefusesBadHeader)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    std::vector<char> bytes = fileBytes(path);
    std::memcpy(bytes.data(), "SQLite format 2", 15);
    writeBytes(path, bytes);
    expectRefusedUntouched(path, "not an SQLite database");
}

TEST(ProjectStore, RefusesDamagedPages)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    std::vector<char> bytes = fileBytes(path);
    // Pages 2 to 4 (64 KiB pages) hold the roots of the first tables created: overwrite
    // them with garbage. The header still says SQLite, the structure does not hold.
    ASSERT_GE(bytes.size(), 4 * 65536u);
    for (std::size_t i = 65536; i < 4 * 65536; ++i)
        bytes[i] = static_cast<char>(0xa5);
    writeBytes(path, bytes);
    expectRefusedUntouched(path, "integrity check failed");
}

// Damage in the page chain of a cached blob: opening (which checks the small tables
// only) succeeds, loading that capture fails with a message, and nothing is written:
// the first write's full check refuses the file.
TEST(ProjectStore, DamagedCacheIsReportedAndNeverWritten)
{
    const auto capture = labDir("linux/reno-scan100") / "ap-wlan.pcap";
    WINDSCOPE_REQUIRE_FILE(capture);
    ScratchDir dir;
    const auto path = dir / "p.wsproj";
    std::string error;
    store::FileIdentity file;
    ASSERT_TRUE(store::identifyFile(capture.string(), true, file, error)) << error;
    {
        auto project = createProject(path);
        ASSERT_TRUE(project);
        analysis::pipeline::AnalysisBundle results;
        ASSERT_TRUE(analysis::pipeline::analyzeCapture(file.path, results, error)) << error;
        ASSERT_NE(project->saveCapture(file, results, error), 0) << error;
    }
    std::vector<char> bytes = fileBytes(path);
    const std::size_t pages = bytes.size() / 65536;
    ASSERT_GE(pages, 12u) << "expected a cache spanning many pages";
    // Damage the overflow page of a blob nearest the middle of the file: an overflow
    // page starts with the number of the next page of its chain (SQLite file format
    // 1.6), and a chain written in one go continues on the following page (page n is
    // 1-based, at index n - 1).
    auto nextPage = [&](std::size_t index) {
        const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + index * 65536);
        return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
    };
    std::size_t damaged = 0;
    for (std::size_t d = 0; d < pages / 2 && !damaged; ++d)
        for (std::size_t index : {pages / 2 + d, pages / 2 - d})
            if (!damaged && index > 0 && index < pages && nextPage(index) == index + 2)
                damaged = index;
    ASSERT_NE(damaged, 0u) << "no overflow page found";
    for (std::size_t i = damaged * 65536; i < (damaged + 1) * 65536; ++i)
        bytes[i] = static_cast<char>(0xa5);
    writeBytes(path, bytes);

    auto project = store::ProjectStore::open(path.string(), error);
    ASSERT_TRUE(project) << error;
    store::CaptureRecord record;
    ASSERT_TRUE(project->findCapture(file.path, record, error)) << error;
    analysis::pipeline::AnalysisBundle loaded;
    EXPECT_FALSE(project->loadResults(record.id, loaded, error));
    EXPECT_NE(error.find(path.string()), std::string::npos) << error;
    store::Annotation note;
    note.captureId = record.id;
    note.text = "must not be written";
    EXPECT_EQ(project->addAnnotation(note, error), 0);
    EXPECT_NE(error.find("integrity check failed"), std::string::npos) << error;
    project.reset();
    EXPECT_EQ(fileBytes(path), bytes);
}

// Parts above the chunk size (512 MB by default, SQLite refuses values over 1 GB) are
// stored as several rows and read back as one; a missing chunk is an error, not a
// shorter result.
TEST(ProjectStore, LargePartsAreStoredInChunks)
{
    const auto capture = labDir("linux/reno-scan100") / "ap-wlan.pcap";
    WINDSCOPE_REQUIRE_FILE(capture);
    ScratchDir dir;
    const auto path = dir / "p.wsproj";
    std::string error;
    store::FileIdentity file;
    ASSERT_TRUE(store::identifyFile(capture.string(), true, file, error)) << error;
    analysis::pipeline::AnalysisBundle fresh;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(file.path, fresh, error)) << error;
    const std::size_t columnBytes = store::encodePart(store::CachePart::FrameColumns, fresh).size();
    const std::size_t chunk = 64 * 1024;
    std::int64_t id = 0;
    {
        auto project = createProject(path);
        ASSERT_TRUE(project);
        project->setCacheChunkBytes(chunk);
        id = project->saveCapture(file, fresh, error);
        ASSERT_NE(id, 0) << error;
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.string().c_str(), &db), SQLITE_OK);
    auto count = [&](const char* sql) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
        std::int64_t n = -1;
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return n;
    };
    const std::int64_t chunks =
        count("SELECT count(*) FROM cache_blobs WHERE part = 'frame_columns' OR part GLOB 'frame_columns#*'");
    EXPECT_EQ(static_cast<std::size_t>(chunks), (columnBytes + chunk - 1) / chunk);
    EXPECT_GE(chunks, 3);
    EXPECT_EQ(count("SELECT max(length(data)) FROM cache_blobs"), static_cast<std::int64_t>(chunk));
    sqlite3_close(db);
    {
        auto project = store::ProjectStore::open(path.string(), error);
        ASSERT_TRUE(project) << error;
        analysis::pipeline::AnalysisBundle loaded;
        ASSERT_TRUE(project->loadResults(id, loaded, error)) << error;
        expectSameBundle(fresh, loaded);
        analysis::pipeline::AnalysisBundle sideBySide;
        ASSERT_TRUE(project->loadResults(id, store::kAllCacheParts, sideBySide, error, 2)) << error;
        expectSameBundle(fresh, sideBySide);
    }
    // Without its second chunk the part is refused, by name.
    ASSERT_EQ(sqlite3_open(path.string().c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DELETE FROM cache_blobs WHERE part = 'frame_columns#1'", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    auto project = store::ProjectStore::open(path.string(), error);
    ASSERT_TRUE(project) << error;
    analysis::pipeline::AnalysisBundle loaded;
    EXPECT_FALSE(project->loadResults(id, loaded, error));
    EXPECT_NE(error.find("cached frame_columns#1 missing"), std::string::npos) << error;
    // The tables do not need the columns and still load.
    analysis::pipeline::AnalysisBundle tables;
    EXPECT_TRUE(project->loadResults(id, store::kOverviewCacheParts, tables, error)) << error;
}

TEST(ProjectStore, RefusesEmptyFile)
{
    ScratchDir dir;
    writeBytes(dir / "empty.wsproj", {});
    expectRefusedUntouched(dir / "empty.wsproj", "empty file");
}

TEST(ProjectStore, RefusesAnotherApplicationsDatabase)
{
    ScratchDir dir;
    const auto path = dir / "other.db";
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    expectRefusedUntouched(path, "another application");
}

TEST(ProjectStore, RefusesMissingTable)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA journal_mode=DELETE; DROP TABLE export_presets;", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    expectRefusedUntouched(path, "table export_presets is missing");
}

// Runs SQL on a closed project behind the store's back, then leaves no -wal or -shm
// beside it, so that a refusal which creates them is seen.
void alterProject(const std::filesystem::path& path, const char* sql)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    std::filesystem::remove(path.string() + "-wal");
    std::filesystem::remove(path.string() + "-shm");
}

TEST(ProjectStore, RefusesNewerSchemaNamingBothVersions)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    alterProject(path, "PRAGMA user_version = 17;");
    expectRefusedUntouched(path, "schema version 17");
    std::string error;
    EXPECT_FALSE(store::ProjectStore::open(path.string(), error));
    EXPECT_NE(error.find("up to " + std::to_string(store::kProjectSchemaVersion)),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("newer"), std::string::npos) << error;
}

TEST(ProjectStore, RefusedForeignProjectGetsNoSideFiles)
{
    // A file already in WAL mode (as every project is) refused for its application id:
    // opening it must not create -wal or -shm (expectRefusedUntouched checks).
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    alterProject(path, "PRAGMA application_id = 7;");
    expectRefusedUntouched(path, "another application");
}

TEST(ProjectStore, AlteredAnnotationTextIsNamed)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    std::string error;
    {
        auto project = store::ProjectStore::open(path.string(), error);
        ASSERT_TRUE(project) << error;
        std::vector<store::CaptureRecord> captures;
        ASSERT_TRUE(project->listCaptures(captures, error)) << error;
        ASSERT_FALSE(captures.empty());
        store::Annotation note;
        note.captureId = captures[0].id;
        note.text = "retransmissions start here";
        ASSERT_NE(project->addAnnotation(note, error), 0) << error;
    }
    // Closing checkpointed the log into the file, where the text now sits.
    replaceBytes(path, "retransmissions start here", "retransmissions start hare");
    expectRefusedUntouched(path, "annotation 1 (table annotations) does not match its row checksum");
}

TEST(ProjectStore, AlteredStoredHashIsNamed)
{
    const auto capture = publicCapture("arkime__80211http.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    std::string error;
    store::FileIdentity file;
    ASSERT_TRUE(store::identifyFile(capture.string(), true, file, error)) << error;
    // One hex digit of the stored SHA-256 changed to another hex digit: still a valid
    // hash, which "project list" would otherwise call ok or changed.
    const std::string flipped = file.sha256.substr(0, 10) + (file.sha256[10] == '0' ? "1" : "0");
    replaceBytes(path, file.sha256.substr(0, 11), flipped);
    expectRefusedUntouched(path, "capture 1 (table captures) does not match its row checksum");
}

TEST(ProjectStore, AlteredFailureRecordIsNamed)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    std::string error;
    {
        auto project = store::ProjectStore::open(path.string(), error);
        ASSERT_TRUE(project) << error;
        store::CaptureFailure failure;
        failure.file.path = "/archive/ap7/broken.pcap";
        failure.file.sha256 = std::string(64, 'a');
        failure.error = "not a pcap or pcapng capture file";
        ASSERT_TRUE(project->recordFailure(failure, error)) << error;
        std::vector<store::CaptureFailure> failures;
        ASSERT_TRUE(project->listFailures(failures, error)) << error;
        ASSERT_EQ(failures.size(), 1u);
        EXPECT_EQ(failures[0].error, failure.error);
        EXPECT_FALSE(failures[0].failedUtc.empty());
    }
    replaceBytes(path, "not a pcap or pcapng capture file", "not a pcap or pcapng capture fil3");
    expectRefusedUntouched(path, "failed capture /archive/ap7/broken.pcap (table capture_failures) does not match "
                                 "its row checksum");
}

TEST(ProjectStore, MigratesVersion1Forward)
{
    ScratchDir dir;
    const auto path = dir / "v1.wsproj";
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, store::detail::schemaMigrations()[0], nullptr, nullptr, nullptr),
              SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(db,
                     "PRAGMA user_version = 1;"
                     "INSERT INTO captures VALUES (1, '/nowhere/a.pcap', 10, 20, 'ab', 'then');"
                     "INSERT INTO annotations(capture_id, time_ns, text, created_utc) "
                     "VALUES (1, 1500000000, 'look here', 'then');",
                     nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);

    std::string error;
    auto project = store::ProjectStore::open(path.string(), error);
    ASSERT_TRUE(project) << error;
    EXPECT_EQ(project->openedSchemaVersion(), 1);
    std::vector<store::CaptureRecord> captures;
    ASSERT_TRUE(project->listCaptures(captures, error)) << error;
    ASSERT_EQ(captures.size(), 1u);
    EXPECT_EQ(captures[0].file.path, "/nowhere/a.pcap");
    EXPECT_FALSE(captures[0].cached);
    EXPECT_EQ(project->checkCapture(captures[0]), store::CaptureStatus::Moved);
    std::vector<store::Annotation> notes;
    ASSERT_TRUE(project->listAnnotations(1, notes, error)) << error;
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].kind, "note"); // the column version 2 added, with its default
    EXPECT_EQ(notes[0].timeNs, 1500000000);
    EXPECT_TRUE(project->saveExportPreset("paper", "{\"dpi\":300}", error)) << error;
    project.reset();

    project = store::ProjectStore::open(path.string(), error);
    ASSERT_TRUE(project) << error;
    EXPECT_EQ(project->openedSchemaVersion(), store::kProjectSchemaVersion);
}

TEST(ProjectStore, NoticesChangedAndMovedCaptures)
{
    const auto source = publicCapture("arkime__80211http.pcap");
    WINDSCOPE_REQUIRE_FILE(source);
    ScratchDir dir;
    const auto copy = dir / "copy.pcap";
    std::filesystem::copy_file(source, copy);
    std::string error;
    auto project = createProject(dir / "p.wsproj");
    ASSERT_TRUE(project);
    store::FileIdentity file;
    analysis::pipeline::AnalysisBundle results;
    ASSERT_TRUE(store::identifyFile(copy.string(), true, file, error)) << error;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(file.path, results, error)) << error;
    ASSERT_NE(project->saveCapture(file, results, error), 0) << error;
    store::CaptureRecord record;
    ASSERT_TRUE(project->findCapture(copy.string(), record, error)) << error;
    EXPECT_EQ(record.file.sha256, file.sha256);
    EXPECT_EQ(project->checkCapture(record), store::CaptureStatus::Ok);

    // Touched but same content: still ok.
    std::filesystem::last_write_time(copy, std::filesystem::last_write_time(copy) +
                                               std::chrono::hours(1));
    EXPECT_EQ(project->checkCapture(record), store::CaptureStatus::Ok);

    // One byte of a packet changed, same size.
    std::vector<char> bytes = fileBytes(copy);
    bytes[bytes.size() - 10] ^= 0x55;
    writeBytes(copy, bytes);
    EXPECT_EQ(project->checkCapture(record), store::CaptureStatus::Changed);
    bytes[bytes.size() - 10] ^= 0x55;
    writeBytes(copy, bytes);

    // Moved: the old path is gone; the file at its new place is found by content.
    const auto moved = dir / "renamed.pcap";
    std::filesystem::rename(copy, moved);
    EXPECT_EQ(project->checkCapture(record), store::CaptureStatus::Moved);
    store::CaptureRecord found;
    ASSERT_TRUE(project->findCapture(moved.string(), found, error)) << error;
    EXPECT_EQ(found.id, record.id);
}

TEST(ProjectStore, AnnotationsScenariosRunsPresets)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    std::string error;
    {
        auto project = store::ProjectStore::open(path.string(), error);
        ASSERT_TRUE(project) << error;
        store::Annotation bookmark;
        bookmark.captureId = 1;
        bookmark.kind = "bookmark";
        bookmark.eventId = 3;
        bookmark.text = "handoff starts";
        store::Annotation note;
        note.captureId = 1;
        note.timeNs = 2'500'000'000;
        note.connectionId = 0;
        note.text = "window collapses";
        EXPECT_NE(project->addAnnotation(bookmark, error), 0) << error;
        EXPECT_NE(project->addAnnotation(note, error), 0) << error;
        const std::int64_t scenario = project->saveScenario(1, "flow 0", "{\"rtt_ms\":40}", error);
        ASSERT_NE(scenario, 0) << error;
        EXPECT_NE(project->saveRun(scenario, "{\"goodput_bps\":1e6}", error), 0) << error;
        EXPECT_TRUE(project->saveExportPreset("slides", "{\"width\":1280}", error)) << error;
        EXPECT_TRUE(project->saveExportPreset("slides", "{\"width\":1920}", error)) << error;
    }
    auto project = store::ProjectStore::open(path.string(), error);
    ASSERT_TRUE(project) << error;
    std::vector<store::Annotation> notes;
    ASSERT_TRUE(project->listAnnotations(1, notes, error)) << error;
    ASSERT_EQ(notes.size(), 2u);
    // Ordered by time, untimed first (NULL sorts first in SQLite).
    EXPECT_EQ(notes[0].kind, "bookmark");
    EXPECT_EQ(notes[0].eventId, 3u);
    EXPECT_FALSE(notes[0].timeNs);
    EXPECT_EQ(notes[1].timeNs, 2'500'000'000);
    EXPECT_EQ(notes[1].connectionId, 0u);
    EXPECT_EQ(notes[1].text, "window collapses");
    std::vector<store::JsonRecord> scenarios, runs, presets;
    ASSERT_TRUE(project->listScenarios(1, scenarios, error)) << error;
    ASSERT_EQ(scenarios.size(), 1u);
    EXPECT_EQ(scenarios[0].json, "{\"rtt_ms\":40}");
    ASSERT_TRUE(project->listRuns(scenarios[0].id, runs, error)) << error;
    ASSERT_EQ(runs.size(), 1u);
    ASSERT_TRUE(project->listExportPresets(presets, error)) << error;
    ASSERT_EQ(presets.size(), 1u);
    EXPECT_EQ(presets[0].json, "{\"width\":1920}");

    // Removing the capture removes what hangs off it.
    ASSERT_TRUE(project->removeCapture(1, error)) << error;
    ASSERT_TRUE(project->listAnnotations(1, notes, error)) << error;
    EXPECT_TRUE(notes.empty());
    ASSERT_TRUE(project->listScenarios(1, scenarios, error)) << error;
    EXPECT_TRUE(scenarios.empty());
}

// Save As: a complete copy that opens as a project with the same captures, cache,
// annotations and meta values; the source stays usable; an existing file is replaced
// whole, never a file with a live write-ahead log.
TEST(ProjectStore, SaveCopyAndMetaValues)
{
    WINDSCOPE_REQUIRE_FILE(publicCapture("arkime__80211http.pcap"));
    ScratchDir dir;
    const auto path = makeProjectFile(dir);
    std::string error;
    auto project = store::ProjectStore::open(path.string(), error);
    ASSERT_TRUE(project) << error;
    std::string value = "stale";
    ASSERT_TRUE(project->metaValue("gui.view_state", value, error)) << error;
    EXPECT_EQ(value, "");
    ASSERT_TRUE(project->setMetaValue("gui.view_state", "{\"current\":1}", error)) << error;
    ASSERT_TRUE(project->setMetaValue("gui.view_state", "{\"current\":2}", error)) << error;
    store::Annotation note;
    note.captureId = 1;
    note.timeNs = 1'000'000'000;
    note.text = "copied along";
    ASSERT_NE(project->addAnnotation(note, error), 0) << error;

    const auto copyPath = dir / "copy.wsproj";
    {
        std::ofstream(copyPath) << "an older file that Save As replaces";
    }
    ASSERT_TRUE(project->saveCopy(copyPath.string(), error)) << error;
    EXPECT_FALSE(std::filesystem::exists(copyPath.string() + ".saving"));
    auto copy = store::ProjectStore::open(copyPath.string(), error);
    ASSERT_TRUE(copy) << error;
    ASSERT_TRUE(copy->metaValue("gui.view_state", value, error)) << error;
    EXPECT_EQ(value, "{\"current\":2}");
    std::vector<store::CaptureRecord> original, copied;
    ASSERT_TRUE(project->listCaptures(original, error)) << error;
    ASSERT_TRUE(copy->listCaptures(copied, error)) << error;
    ASSERT_EQ(copied.size(), 1u);
    EXPECT_EQ(copied[0].file.sha256, original[0].file.sha256);
    analysis::pipeline::AnalysisBundle fromOriginal, fromCopy;
    ASSERT_TRUE(project->loadResults(original[0].id, fromOriginal, error)) << error;
    ASSERT_TRUE(copy->loadResults(copied[0].id, fromCopy, error)) << error;
    expectSameBundle(fromOriginal, fromCopy);
    std::vector<store::Annotation> notes;
    ASSERT_TRUE(copy->listAnnotations(copied[0].id, notes, error)) << error;
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].text, "copied along");
    // The source is still the open project.
    ASSERT_TRUE(project->setMetaValue("gui.view_state", "{}", error)) << error;

    // A target whose write-ahead log holds data is refused, and left as it was.
    const auto busy = dir / "busy.wsproj";
    {
        std::ofstream(busy) << "x";
        std::ofstream(busy.string() + "-wal") << "frames of another connection";
    }
    EXPECT_FALSE(project->saveCopy(busy.string(), error));
    EXPECT_NE(error.find("write-ahead log"), std::string::npos) << error;
    EXPECT_EQ(fileBytes(busy).size(), 1u);
}

void expectDamagedBlobsRejected(const std::filesystem::path& capture)
{
    WINDSCOPE_REQUIRE_FILE(capture);
    analysis::pipeline::AnalysisBundle results;
    std::string error;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(capture.string(), results, error)) << error;
    for (store::CachePart part : store::kAllCacheParts) {
        const std::vector<std::uint8_t> blob = store::encodePart(part, results);
        analysis::pipeline::AnalysisBundle whole;
        ASSERT_TRUE(store::decodePart(part, blob, whole, error)) << error;
        // Every prefix is refused; none crashes or loads partly.
        for (std::size_t n = 0; n < blob.size(); n += 1 + n / 8) {
            analysis::pipeline::AnalysisBundle out;
            EXPECT_FALSE(store::decodePart(part, std::span(blob.data(), n), out, error))
                << store::cachePartName(part) << " cut to " << n;
        }
        // A huge count in a damaged blob does not allocate its way to a crash.
        if (blob.size() >= 16) {
            std::vector<std::uint8_t> bogus = blob;
            std::memset(bogus.data() + 8, 0xff, 8);
            analysis::pipeline::AnalysisBundle out;
            EXPECT_FALSE(store::decodePart(part, bogus, out, error)) << store::cachePartName(part);
        }
    }
    // A blob of one part is not read as another.
    analysis::pipeline::AnalysisBundle wrong;
    EXPECT_FALSE(store::decodePart(store::CachePart::Segments,
                                   store::encodePart(store::CachePart::Connections, results), wrong,
                                   error));
    EXPECT_NE(error.find("not the blob of this part"), std::string::npos) << error;
}

TEST(AnalysisCodec, DamagedBlobsAreRejected)
{
    expectDamagedBlobsRejected(publicCapture("networks744__active1.pcap"));
}

// A capture whose inventory and correlation parts are not empty: scans with impacts.
TEST(AnalysisCodec, DamagedInventoryAndCorrelationBlobsAreRejected)
{
    const auto capture = labDir("linux/reno-scan100") / "ap-wlan.pcap";
    WINDSCOPE_REQUIRE_FILE(capture);
    analysis::pipeline::AnalysisBundle results;
    std::string error;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(capture.string(), results, error)) << error;
    ASSERT_FALSE(results.inventory.stations.empty());
    ASSERT_FALSE(results.correlation.impacts.empty());
    expectDamagedBlobsRejected(capture);
}

TEST(ProjectStore, ReportPartsAloneGiveTheAnalyzeReport)
{
    const auto capture = publicCapture("pcapplusplus__example.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    ScratchDir dir;
    std::string error;
    store::FileIdentity file;
    analysis::pipeline::AnalysisBundle fresh;
    ASSERT_TRUE(store::identifyFile(capture.string(), true, file, error)) << error;
    ASSERT_TRUE(analysis::pipeline::analyzeCapture(file.path, fresh, error)) << error;
    auto project = createProject(dir / "p.wsproj");
    ASSERT_TRUE(project);
    const std::int64_t id = project->saveCapture(file, fresh, error);
    ASSERT_NE(id, 0) << error;
    analysis::pipeline::AnalysisBundle report;
    ASSERT_TRUE(project->loadResults(id, store::kReportCacheParts, report, error)) << error;
    EXPECT_TRUE(report.tables.tcp.frame.empty());
    EXPECT_TRUE(report.tcp.segments.flags.empty());
    std::ostringstream a, b;
    analysis::writeAnalyzeJson(a, fresh.tables, fresh.tcp);
    analysis::writeAnalyzeJson(b, report.tables, report.tcp);
    EXPECT_EQ(a.str(), b.str());
}

} // namespace
} // namespace windscope::test
