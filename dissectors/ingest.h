// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One streaming pass over a capture file: read, decode, fill the columnar tables.
// Reading and decoding run on a thread of their own, one batch of frames ahead of the
// thread that fills the tables; the tables are only ever touched by the caller's thread.

#include "capture_tables.h"

#include <functional>
#include <string>

namespace windscope::dissect {

struct IngestProgress
{
    std::uint64_t packets = 0;
    std::uint64_t bytesConsumed = 0; // of the file on disk
    std::uint64_t fileSize = 0;
};

// Qt-free observer: the GUI adapts it to signals, the CLI prints or ignores it.
class IngestObserver
{
public:
    virtual ~IngestObserver() = default;
    virtual void progress(const IngestProgress&) {}
    // Polled between packets; returning true stops the pass with the results so far.
    virtual bool cancelRequested() { return false; }
};

struct IngestOptions
{
    IngestObserver* observer = nullptr;
    std::uint64_t progressInterval = 1u << 16; // packets between progress reports
    // Called on the thread that called ingestCapture, after each batch of frames has
    // been appended to the tables and once more before it returns. The rows so far are
    // complete and do not change; they may be read until the call returns. An analysis
    // that follows the rows in order (analysis::TcpAnalyzer) runs here, while a second
    // thread reads and decodes the next frames. That thread numbers the TCP
    // conversations: CaptureTables::conversations and ipAddresses are filled in only
    // before the last call.
    std::function<void(const CaptureTables&)> rowsAppended;
};

// Reads path into tables. Returns false (and sets error) only when nothing could be
// read at all: not a capture file, unreadable header. A file damaged or cut short
// mid-way yields the packets before the damage, with a warning in the summary.
bool ingestCapture(const std::string& path, const IngestOptions& options, CaptureTables& tables,
                   std::string& error);

} // namespace windscope::dissect
