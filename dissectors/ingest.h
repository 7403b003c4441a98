// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One streaming pass over a capture file: read, decode, fill the columnar tables.
// Reading and decoding run on a thread of their own, batches of frames ahead of the
// caller's thread, which fills the tables; with IngestOptions::rowsAppended set, a third
// thread appends the TCP rows and runs it where the process has the CPUs for it.

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
    // Follows the TCP rows as they are appended: called after each batch of rows, on a
    // thread of ingest's own, while other threads read and decode the next frames and
    // fill the 802.11 tables; and once more on the caller's thread when the tables are
    // complete, before ingestCapture returns. Until that last call only tables.tcp,
    // tables.tcpSideOptions and tables.summary.firstEpochNs may be read; the rows so
    // far are complete and do not change. CaptureTables::conversations and
    // ipAddresses are filled in before the last call. analysis::TcpAnalyzer runs here.
    std::function<void(const CaptureTables&)> rowsAppended;

    // Where the TCP rows are appended and rowsAppended runs during the pass: on a thread
    // of their own, or on the caller's thread between batches of frames. Automatic
    // gives them their own thread when the process may run on three CPUs or more. On
    // two, a third busy thread mostly preempts the reading thread, which sets the pace
    // on 802.11 captures, and every hand-over between the three costs a wake-up.
    enum class TcpRowsThread { Automatic, Separate, Shared };
    TcpRowsThread tcpRowsThread = TcpRowsThread::Automatic;
};

// The CPUs this process may run on (its affinity mask), at least 1.
unsigned usableCpuCount();

// Reads path ("-": standard input) into tables. Returns false (and sets error) only when
// nothing could be read at all: not a capture file, unreadable header, damage or a cut
// before the first packet. A file damaged or cut short mid-way yields the packets
// before the damage, with a warning in the summary.
bool ingestCapture(const std::string& path, const IngestOptions& options, CaptureTables& tables,
                   std::string& error);

} // namespace windscope::dissect
