// SPDX-License-Identifier: GPL-3.0-or-later
#include "frame_record.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace windscope::dissect {

namespace {

void packWlan(const Frame& frame, FrameRecord& record)
{
    const WlanInfo& w = frame.wlan;
    record.frameControl = w.fc;
    record.sequenceControl =
        w.hasSequence ? static_cast<std::uint16_t>(w.sequence << 4 | w.fragment) : 0xffff;
    record.duration = w.duration;
    record.queue = (w.hasQos ? w.tid() : 16u) & 0x1fu; // a TID is 4 bits (802.11-2020 9.2.4.5.2)
    if (w.hasSequence)
        record.presence |= FrameRecord::kWlanSequence;

    // Addresses beyond the frame's count are zero, never stale bytes of an earlier frame.
    const std::uint8_t count = std::min<std::uint8_t>(w.addressCount, 3);
    record.addressCount = count & 0x3u;
    static_assert(offsetof(WlanInfo, addr3) == offsetof(WlanInfo, addr1) + 12 &&
                  sizeof(MacAddress) == 6);
    std::memcpy(record.addresses.data(), w.addr1.bytes.data(), 18);
    switch (count) { // constant sizes, so each is a store or two
    case 0:
        std::memset(record.addresses.data(), 0, 18);
        break;
    case 1:
        std::memset(record.addresses.data() + 6, 0, 12);
        break;
    case 2:
        std::memset(record.addresses.data() + 12, 0, 6);
        break;
    default:
        break;
    }

    if (frame.hasRadio) {
        const RadioInfo& r = frame.radio;
        record.signalDbm = r.hasSignal ? r.signalDbm : WlanColumns::kNoSignal;
        record.radioFlags = r.flags;
        record.mcs = r.hasMcs ? r.mcsIndex : r.hasVht ? r.vhtMcs : 0xff;
        record.dataRateKbps = r.dataRateKbps;
        record.channelFreqMhz = r.channelFreqMhz;
        record.ampduReference = r.hasAmpdu ? r.ampduReference + 1 : 0;
    } else {
        record.signalDbm = WlanColumns::kNoSignal;
        record.radioFlags = 0;
        record.mcs = 0xff;
        record.dataRateKbps = 0;
        record.channelFreqMhz = 0;
        record.ampduReference = 0;
    }
}

void packTcp(const Frame& frame, ConversationIndex::Entry conversation, FrameRecord& record,
             TcpSideOptions& options)
{
    const TcpInfo& tcp = frame.tcp;
    if (frame.ip.moreFragments || frame.ip.fragmentOffset != 0)
        record.presence |= FrameRecord::kIpFragment;
    if (tcp.mss || tcp.windowScale >= 0 || tcp.sackPermitted || tcp.sackBlockCount) {
        record.presence |= FrameRecord::kTcpOptions;
        options = {tcp.mss, tcp.windowScale, tcp.sackPermitted, tcp.sackBlockCount, tcp.sackBlocks};
    }
    std::uint16_t flags = tcp.flags;
    if (!conversation.srcIsA)
        flags |= TcpColumns::kDirectionBit;
    if (tcp.hasTimestamps)
        flags |= TcpColumns::kHasTimestamps;
    record.conversation = conversation.conversation;
    record.ipTtl = frame.ip.ttl;
    record.ipId = frame.ip.id;
    record.seq = tcp.seq;
    record.ack = tcp.ack;
    record.tsVal = tcp.tsVal;
    record.tsEcr = tcp.tsEcr;
    record.payloadLength = tcp.payloadLength;
    record.window = tcp.window;
    record.tcpFlags = flags;
}

} // namespace

void packFrameRecord(const Frame& frame, bool linkTypeKnown, ConversationIndex::Entry conversation,
                     FrameRecord& record, TcpSideOptions& options, const Annotation*& firstError)
{
    record.number = frame.number;
    record.epochNs = frame.epochNs;
    record.capturedLength = frame.capturedLength;
    record.linkType = frame.linkType;
    record.presence = linkTypeKnown ? FrameRecord::kLinkTypeKnown : 0;
    record.undecoded = static_cast<std::uint8_t>(frame.undecoded);
    if (frame.hasRadio && frame.radio.badFcs())
        record.presence |= FrameRecord::kBadFcs;
    for (std::uint8_t i = 0; i < frame.annotationCount; ++i)
        if (frame.annotations[i].severity == Severity::Error) {
            record.presence |= FrameRecord::kMalformed;
            firstError = &frame.annotations[i];
            break;
        }
    if (frame.hasWlan) {
        record.presence |= FrameRecord::kWlan;
        if (frame.hasManagement)
            record.presence |= FrameRecord::kManagement;
        packWlan(frame, record);
    }
    if (frame.hasTcp) {
        record.presence |= FrameRecord::kTcp;
        packTcp(frame, conversation, record, options);
    }
}

static_assert(sizeof(FrameRecord) == 96, "a record crosses between cores: keep it in 96 bytes");

} // namespace windscope::dissect
