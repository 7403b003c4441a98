// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Checksums over every row of the project's small tables (metadata, captures and their
// stored SHA-256, cache headers, annotations, replay scenarios and runs, export
// presets). SQLite checks its pages, not what a row says: a flipped byte inside a text
// or a stored hash reads back as a different, valid value. Every row carries
// row_check, kept by triggers on every insert and update, and the rows are checked
// at every open, so a damaged row is named instead of read.

#include <sqlite3.h>

#include <string>

namespace windscope::analysis::store::row_checks {

// ws_row_check(table, columns...): the checksum of a row's values with their types.
// Registered on every connection that opens a project; the triggers call it.
bool registerFunction(sqlite3* db, std::string& error);

// The schema step that adds row_check and its triggers to every small table and fills
// it for the rows already there (schema version 2 -> 3).
const char* migrationSql();
// The schema step that adds capture_failures, checked as the others (3 -> 4).
const char* failuresMigrationSql();

// Checks every row of every small table; false with the first damaged row named.
bool findDamagedRow(sqlite3* db, std::string& problem);

} // namespace windscope::analysis::store::row_checks
