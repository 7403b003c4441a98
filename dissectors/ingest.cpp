// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest.h"

#include "capture_reader.h"
#include "dissector_set.h"
#include "table_builder.h"

namespace windscope::dissect {

bool ingestCapture(const std::string& path, const IngestOptions& options, CaptureTables& tables,
                   std::string& error)
{
    std::unique_ptr<CaptureReader> reader = CaptureReader::open(path, error);
    if (!reader)
        return false;

    tables = CaptureTables{};
    tables.summary.path = path;
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
