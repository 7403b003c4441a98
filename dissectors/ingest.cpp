// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest.h"

#include "capture_reader.h"
#include "dissector_set.h"
#include "frame_record.h"
#include "repeat_detector.h"
#include "table_builder.h"

#include <algorithm>
#include <array>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <string_view>
#include <thread>

#ifdef __linux__
#include <sched.h>
#endif

namespace windscope::dissect {

namespace {

// Reserving the columns for the most rows the file could hold avoids the copies (and
// the doubled peak memory) of geometric growth. Untouched reserved pages cost address
// space, not memory. The bound is the smallest record that can carry each kind of
// row: a 16-byte pcap record header plus 40 bytes of raw IPv4+TCP, or plus a 10-byte
// 802.11 ACK. Compressed sizes say nothing about record counts, so gzip files grow.
void reserveColumns(const CaptureReader& reader, CaptureTables& tables)
{
    constexpr std::uint64_t kMinTcpRecord = 16 + 40, kMinWlanRecord = 16 + 10;
    constexpr std::uint64_t kMaxReservedRows = std::uint64_t(1) << 27;
    if (std::string_view(reader.formatName()).find("gzip") != std::string_view::npos)
        return;
    const std::uint64_t bytes = reader.fileSize();
    tables.tcp.reserve(static_cast<std::size_t>(std::min(bytes / kMinTcpRecord, kMaxReservedRows)));
    tables.wlan.reserve(
        static_cast<std::size_t>(std::min(bytes / kMinWlanRecord, kMaxReservedRows)));
}

// Frames decoded by the reading thread, handed to the table thread as a whole: packed
// records, and beside them, in frame order, the rare parts the records flag.
struct DecodedBatch
{
    static constexpr std::size_t kFrames = 512; // 48 KB of records
    std::array<FrameRecord, kFrames> records;
    std::vector<TcpSideOptions> options;
    std::vector<ManagementInfo> management;
    std::vector<Annotation> errors;
    std::size_t count = 0;
    // How the batch ended: Packet when it is full and more may follow.
    CaptureReader::Status end = CaptureReader::Status::Packet;
    std::string problem;
    std::uint64_t bytesConsumed = 0;
};

// A fixed set of batches passed back and forth in order: one thread fills empty ones,
// the next empties full ones. A side that runs dry sleeps until half of the batches
// are ready for it, not just one: waking a thread on another core costs tens of
// microseconds (more in a virtual machine), too much to pay per batch.
template <typename Batch> class BatchPipe
{
public:
    static constexpr std::size_t kBatches = 8, kWakeAt = kBatches / 2;
    BatchPipe()
    {
        for (auto& b : m_storage) {
            b = std::make_unique<Batch>();
            m_empty.push_back(b.get());
        }
    }
    Batch* takeEmpty() { return take(m_empty, false); }
    Batch* takeFull() { return take(m_full, true); }
    void giveEmpty(Batch* b) { give(m_empty, b, false); }
    // last: no batch follows; the emptying side takes what is left without waiting.
    void giveFull(Batch* b, bool last) { give(m_full, b, last); }
    // Wakes both sides for good: takes return null from now on.
    void stop()
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        m_changed.notify_all();
    }

private:
    Batch* take(std::deque<Batch*>& from, bool full)
    {
        std::unique_lock lock(m_mutex);
        if (from.empty())
            m_changed.wait(lock, [&] {
                return m_stopped || from.size() >= kWakeAt || (full && m_lastGiven && !from.empty());
            });
        if (m_stopped)
            return nullptr;
        Batch* b = from.front();
        from.pop_front();
        return b;
    }
    void give(std::deque<Batch*>& to, Batch* b, bool last)
    {
        std::lock_guard lock(m_mutex);
        to.push_back(b);
        m_lastGiven = m_lastGiven || last;
        if (to.size() >= kWakeAt || last)
            m_changed.notify_all();
    }

    std::array<std::unique_ptr<Batch>, kBatches> m_storage;
    std::deque<Batch*> m_empty, m_full;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_stopped = false;
    bool m_lastGiven = false;
};

// TCP rows built on the table thread, appended to the tables on the TCP thread, where
// IngestOptions::rowsAppended follows them.
struct TcpRowBatch
{
    std::vector<TcpRow> rows;
    std::vector<TcpSideOptions> options; // of the rows that name side options, in order
    bool last = false;                    // no batch follows
};

// The table thread's side: collects rows into a batch, handed over per frame batch.
class TcpRowHandOff final : public TcpRowSink
{
public:
    explicit TcpRowHandOff(BatchPipe<TcpRowBatch>& pipe) : m_pipe(pipe) {}
    void add(const TcpRow& row, const TcpSideOptions* options) override
    {
        if (!m_batch && !m_stopped) {
            m_batch = m_pipe.takeEmpty();
            m_stopped = !m_batch; // the TCP thread failed: rows are dropped, the pass ends
        }
        if (!m_batch)
            return;
        m_batch->rows.push_back(row);
        if (options)
            m_batch->options.push_back(*options);
    }
    // Hands over the rows so far (last: and says no more follow; nothing after that).
    void flush(bool last)
    {
        if (m_finished)
            return;
        if (!m_batch && last && !m_stopped)
            m_batch = m_pipe.takeEmpty();
        if (m_batch) {
            m_batch->last = last;
            m_pipe.giveFull(m_batch, last);
        }
        m_batch = nullptr;
        m_finished = last;
    }
    bool stopped() const { return m_stopped; }

private:
    BatchPipe<TcpRowBatch>& m_pipe;
    TcpRowBatch* m_batch = nullptr;
    bool m_stopped = false;
    bool m_finished = false;
};

// The TCP thread: appends the rows to the tables and lets rowsAppended follow them,
// until the last batch or stop().
void appendTcpRows(BatchPipe<TcpRowBatch>& pipe, CaptureTables& tables,
                   const std::function<void(const CaptureTables&)>& rowsAppended, std::exception_ptr& failure)
{
    try {
        for (;;) {
            TcpRowBatch* batch = pipe.takeFull();
            if (!batch)
                return;
            std::size_t nextOptions = 0;
            for (const TcpRow& row : batch->rows) {
                if (row.sideOptions != TcpColumns::kNoSideOptions)
                    tables.tcpSideOptions.push_back(batch->options[nextOptions++]);
                tables.tcp.append(row);
            }
            const bool last = batch->last;
            batch->rows.clear();
            batch->options.clear();
            batch->last = false;
            pipe.giveEmpty(batch);
            rowsAppended(tables);
            if (last)
                return;
        }
    } catch (...) {
        failure = std::current_exception();
        pipe.stop();
    }
}

// Reads, decodes and numbers TCP conversations until the end of the file, an error,
// or stop().
void readAndDecode(CaptureReader& reader, BatchPipe<DecodedBatch>& pipe, ConversationIndex& conversations,
                   std::exception_ptr& failure)
{
    const DissectorSet dissectors = DissectorSet::standard();
    // Room for a fingerprint per 16 bytes of file (a record's header alone is 16 bytes),
    // from 512 KB to 32 MB; gzip sizes say nothing about records.
    constexpr std::uint64_t kMinSlots = std::uint64_t(1) << 16, kMaxSlots = std::uint64_t(1) << 22;
    const bool compressed = std::string_view(reader.formatName()).find("gzip") != std::string_view::npos;
    const std::uint64_t slots =
        compressed ? (kMaxSlots >> 2) : std::clamp<std::uint64_t>(reader.fileSize() / 16, kMinSlots, kMaxSlots);
    RepeatDetector repeats(static_cast<std::size_t>(slots));
    RawPacket packet;
    // Decoded here, where it stays in this core's cache; only its record moves on.
    Frame frame;
    try {
        for (;;) {
            DecodedBatch* batch = pipe.takeEmpty();
            if (!batch)
                return;
            batch->count = 0;
            batch->options.clear();
            batch->management.clear();
            batch->errors.clear();
            batch->end = CaptureReader::Status::Packet;
            while (batch->count < DecodedBatch::kFrames) {
                const CaptureReader::Status status = reader.next(packet);
                if (status != CaptureReader::Status::Packet) {
                    batch->end = status;
                    if (status != CaptureReader::Status::End)
                        batch->problem = reader.problem();
                    break;
                }
                frame.reset(packet.number, packet.epochNs, packet.capturedLength, packet.originalLength,
                            packet.linkType);
                if (packet.timestampClamped)
                    frame.annotate(Severity::Error, "frame.time",
                                   "timestamp outside the representable range (years 1677-2262)");
                FrameRecord& record = batch->records[batch->count];
                TcpSideOptions options;
                const Annotation* firstError = nullptr;
                const bool repeat = repeats.isRepeat(packet);
                const bool known = dissectors.decodeLinkLayer(ByteView(packet.data, packet.capturedLength), frame);
                ConversationIndex::Entry conversation;
                if (ConversationIndex::numbers(frame))
                    conversation = conversations.of(frame.ip, frame.tcp);
                packFrameRecord(frame, known, conversation, record, options, firstError);
                if (repeat)
                    record.presence |= FrameRecord::kRepeat;
                if (record.has(FrameRecord::kTcpOptions))
                    batch->options.push_back(options);
                if (record.has(FrameRecord::kManagement))
                    batch->management.push_back(frame.management);
                if (record.has(FrameRecord::kMalformed))
                    batch->errors.push_back(*firstError);
                ++batch->count;
            }
            batch->bytesConsumed = reader.bytesConsumed();
            const bool last = batch->end != CaptureReader::Status::Packet;
            pipe.giveFull(batch, last);
            if (last)
                return;
        }
    } catch (...) {
        failure = std::current_exception();
        pipe.stop();
    }
}

bool usesTcpThread(IngestOptions::TcpRowsThread choice)
{
    switch (choice) {
    case IngestOptions::TcpRowsThread::Separate:
        return true;
    case IngestOptions::TcpRowsThread::Shared:
        return false;
    case IngestOptions::TcpRowsThread::Automatic:
        break;
    }
    return usableCpuCount() >= 3;
}

} // namespace

unsigned usableCpuCount()
{
#ifdef __linux__
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0)
        return static_cast<unsigned>(std::max(1, CPU_COUNT(&cpus)));
#endif
    return std::max(1u, std::thread::hardware_concurrency());
}

bool ingestCapture(const std::string& path, const IngestOptions& options, CaptureTables& tables,
                   std::string& error)
{
    std::unique_ptr<CaptureReader> reader = CaptureReader::open(path, error);
    if (!reader)
        return false;

    tables = CaptureTables{};
    tables.summary.path = path;
    reserveColumns(*reader, tables);
    TableBuilder builder(tables);
    IngestProgress progress;
    progress.fileSize = reader->fileSize();
    std::uint64_t nextReport = options.progressInterval;
    std::uint64_t bytesConsumed = 0;

    BatchPipe<DecodedBatch> pipe;
    // The reading thread's until it is joined; then moved into the tables.
    ConversationIndex conversations;
    std::exception_ptr readFailure, tcpFailure;
    std::thread reading(readAndDecode, std::ref(*reader), std::ref(pipe), std::ref(conversations),
                        std::ref(readFailure));
    // With an analysis following the TCP rows, a third thread (given the CPUs) appends
    // them and runs it, so that the table thread goes on with the 802.11 rows meanwhile;
    // otherwise the table thread runs it after each batch of frames.
    BatchPipe<TcpRowBatch> tcpPipe;
    TcpRowHandOff handOff(tcpPipe);
    std::thread tcp;
    const bool tcpThread = options.rowsAppended && usesTcpThread(options.tcpRowsThread);
    if (tcpThread) {
        tcp = std::thread(appendTcpRows, std::ref(tcpPipe), std::ref(tables), std::cref(options.rowsAppended),
                          std::ref(tcpFailure));
        builder.sendTcpRowsTo(&handOff);
    }
    // Stops and joins the threads however this function is left.
    struct Join
    {
        BatchPipe<DecodedBatch>& pipe;
        std::thread& reading;
        BatchPipe<TcpRowBatch>& tcpPipe;
        std::thread& tcp;
        ~Join()
        {
            pipe.stop();
            tcpPipe.stop();
            if (reading.joinable())
                reading.join();
            if (tcp.joinable())
                tcp.join();
        }
    } join{pipe, reading, tcpPipe, tcp};

    bool more = true;
    while (more) {
        DecodedBatch* batch = pipe.takeFull();
        if (!batch)
            break; // the reading thread failed; rethrown below
        bytesConsumed = batch->bytesConsumed;
        const TcpSideOptions* nextOptions = batch->options.data();
        const ManagementInfo* nextManagement = batch->management.data();
        const Annotation* nextError = batch->errors.data();
        for (std::size_t i = 0; i < batch->count && more; ++i) {
            const FrameRecord& record = batch->records[i];
            FrameRecordSide side;
            if (record.has(FrameRecord::kTcpOptions))
                side.options = nextOptions++;
            if (record.has(FrameRecord::kManagement))
                side.management = nextManagement++;
            if (record.has(FrameRecord::kMalformed))
                side.firstError = nextError++;
            builder.add(record, side);
            if (options.observer && record.number >= nextReport) {
                nextReport = record.number + options.progressInterval;
                progress.packets = record.number;
                progress.bytesConsumed = bytesConsumed;
                options.observer->progress(progress);
                if (options.observer->cancelRequested()) {
                    tables.summary.cancelled = true;
                    tables.summary.warnings.push_back(path + ": analysis cancelled after packet " +
                                                      std::to_string(record.number));
                    more = false;
                }
            }
        }
        if (more && batch->end != CaptureReader::Status::Packet) {
            if (batch->end != CaptureReader::Status::End) {
                tables.summary.truncated = true;
                tables.summary.warnings.push_back(batch->problem);
            }
            more = false;
        }
        pipe.giveEmpty(batch);
        if (options.rowsAppended && !tcpThread && more)
            options.rowsAppended(tables);
        if (tcp.joinable()) {
            handOff.flush(!more);
            more = more && !handOff.stopped();
        }
    }
    pipe.stop();
    reading.join();
    if (tcp.joinable()) {
        handOff.flush(true); // after a reading failure the loop ended without it
        tcp.join();
    }
    if (readFailure)
        std::rethrow_exception(readFailure);
    if (tcpFailure)
        std::rethrow_exception(tcpFailure);
    // A cancelled pass may have numbered a few conversations first seen past the cut.
    conversations.moveInto(tables);
    builder.finish();
    if (tables.summary.packets == 0 && tables.summary.truncated) {
        // Damaged or cut before its first packet: there is nothing to show, and no empty
        // result may stand for the capture (a project would store it as a valid one).
        error = tables.summary.warnings.back();
        return false;
    }
    if (tables.summary.packets == 0)
        tables.summary.warnings.push_back(path + ": the capture holds no packets");
    if (options.rowsAppended)
        options.rowsAppended(tables);
    if (options.observer) {
        progress.packets = tables.summary.packets;
        progress.bytesConsumed = reader->bytesConsumed();
        options.observer->progress(progress);
    }
    return true;
}

} // namespace windscope::dissect
