// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest.h"

#include "capture_reader.h"
#include "dissector_set.h"
#include "table_builder.h"

#include <algorithm>
#include <string_view>

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

} // namespace

bool ingestCapture(const std::string& path, const IngestOptions& options, CaptureTables& tables,
                   std::string& error)
{
    std::unique_ptr<CaptureReader> reader = CaptureReader::open(path, error);
    if (!reader)
        return false;

    tables = CaptureTables{};
    tables.summary.path = path;
    reserveColumns(*reader, tables);
    const DissectorSet dissectors = DissectorSet::standard();
    TableBuilder builder(tables);
    Frame frame;
    RawPacket packet;
    IngestProgress progress;
    progress.fileSize = reader->fileSize();
    std::uint64_t nextReport = options.progressInterval;

    for (;;) {
        CaptureReader::Status status = reader->next(packet);
        if (status == CaptureReader::Status::End)
            break;
        if (status != CaptureReader::Status::Packet) {
            tables.summary.truncated = true;
            tables.summary.warnings.push_back(reader->problem());
            break;
        }
        frame.reset(packet.number, packet.epochNs, packet.capturedLength, packet.originalLength,
                    packet.linkType);
        if (packet.timestampClamped)
            frame.annotate(Severity::Error, "frame.time",
                           "timestamp outside the representable range (years 1677-2262)");
        const bool known = dissectors.decodeLinkLayer(
            ByteView(packet.data, packet.capturedLength), frame);
        builder.add(frame, known);

        if (options.observer && packet.number >= nextReport) {
            nextReport = packet.number + options.progressInterval;
            progress.packets = packet.number;
            progress.bytesConsumed = reader->bytesConsumed();
            options.observer->progress(progress);
            if (options.observer->cancelRequested()) {
                tables.summary.cancelled = true;
                tables.summary.warnings.push_back(path + ": analysis cancelled after packet " +
                                                  std::to_string(packet.number));
                break;
            }
        }
    }
    builder.finish();
    if (tables.summary.packets == 0 && !tables.summary.truncated)
        tables.summary.warnings.push_back(path + ": the capture holds no packets");
    if (options.observer) {
        progress.packets = tables.summary.packets;
        progress.bytesConsumed = reader->bytesConsumed();
        options.observer->progress(progress);
    }
    return true;
}

} // namespace windscope::dissect
