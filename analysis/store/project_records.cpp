// SPDX-License-Identifier: GPL-3.0-or-later
// Annotations and bookmarks, replay scenarios and runs, export presets and the
// project-wide meta values.
#include "project_sql.h"

namespace windscope::analysis::store {

using namespace store_sql;

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
