// SPDX-License-Identifier: GPL-3.0-or-later
#include "table_builder.h"

#include <algorithm>
#include <cstring>

namespace windscope::dissect {

namespace {

constexpr std::uint32_t kNoAddress = WlanColumns::kNoAddress;

} // namespace

bool Frame::malformed() const
{
    for (std::uint8_t i = 0; i < annotationCount; ++i)
        if (annotations[i].severity == Severity::Error)
            return true;
    return false;
}

void TableBuilder::noteLinkType(int linkType, bool known)
{
    if (linkType == m_lastLinkType)
        return;
    m_lastLinkType = linkType;
    auto& types = m_tables.summary.linkTypes;
    if (std::find(types.begin(), types.end(), linkType) != types.end())
        return;
    types.push_back(linkType);
    if (!known)
        m_tables.summary.warnings.push_back(m_tables.summary.path + ": link type " +
                                            std::to_string(linkType) +
                                            " is not decoded; its packets are counted only");
}

void TableBuilder::add(const Frame& frame, bool linkTypeKnown)
{
    m_numbersConversations = true;
    ConversationIndex::Entry conversation;
    if (ConversationIndex::numbers(frame))
        conversation = m_conversations.of(frame.ip, frame.tcp);
    FrameRecord record;
    TcpSideOptions options;
    FrameRecordSide side;
    packFrameRecord(frame, linkTypeKnown, conversation, record, options, side.firstError);
    side.options = &options;
    side.management = &frame.management;
    add(record, side);
}

void TableBuilder::add(const FrameRecord& record, const FrameRecordSide& side)
{
    CaptureSummary& s = m_tables.summary;
    if (s.packets == 0)
        s.firstEpochNs = s.lastEpochNs = record.epochNs;
    ++s.packets;
    s.lastEpochNs = std::max(s.lastEpochNs, record.epochNs);
    s.bytesCaptured += record.capturedLength;
    const bool linkTypeKnown = record.has(FrameRecord::kLinkTypeKnown);
    noteLinkType(record.linkType, linkTypeKnown);
    if (!linkTypeKnown)
        ++s.unknownLinkTypePackets;
    const bool repeat = record.has(FrameRecord::kRepeat);
    if (repeat)
        ++s.repeatedPackets;
    else if (record.undecoded != 0 && record.undecoded < kUndecodedKinds)
        ++s.undecodedPackets[record.undecoded];

    // A frame the radio flagged with a bad FCS is corrupt by definition: whatever its
    // decoders found wrong is counted as a bad FCS, not as a malformed packet.
    const bool badFcs = record.has(FrameRecord::kBadFcs);
    if (badFcs)
        ++s.badFcsFrames;
    if (record.has(FrameRecord::kMalformed) && !badFcs) {
        ++s.malformedPackets;
        if (s.malformed.size() < CaptureSummary::kMaxMalformedRecords)
            s.malformed.push_back({record.number, *side.firstError});
    }

    // Saturated: a damaged file can put two packets further apart than int64 ns holds.
    std::int64_t timeNs = 0;
    if (__builtin_sub_overflow(record.epochNs, s.firstEpochNs, &timeNs))
        timeNs = record.epochNs < s.firstEpochNs ? INT64_MIN : INT64_MAX;
    // A bad-FCS frame's TCP header cannot be trusted; a MAC duplicate is not new data.
    const std::uint8_t wlanStatus =
        record.has(FrameRecord::kWlan) ? addWlan(record, side.management, timeNs) : 0;
    // A repeated record (RepeatDetector) keeps its 802.11 row, as every per-frame count
    // (and tshark) keeps it, but is not TCP a second time: as a segment it would read as
    // a retransmission, its gap back in time as an outage.
    if (!record.has(FrameRecord::kTcp) || (wlanStatus & WlanColumns::kBadFcs) || repeat)
        return;
    // A relay's copy of a packet heard before is not the TCP sender's (relay_filter.h).
    RelayFilter::FirstCopy first;
    if (record.has(FrameRecord::kWlan) && !(wlanStatus & WlanColumns::kMacDuplicate) &&
        !record.has(FrameRecord::kIpFragment) && m_relays.isRelay(record, timeNs, first)) {
        m_tables.wlan.status.back() |= WlanColumns::kRelayed;
        m_tables.relayedTcp.push_back({record.number, first.frame, timeNs, record.conversation,
                                       (record.tcpFlags & TcpColumns::kDirectionBit) != 0, first.ttl,
                                       record.ipTtl});
        return;
    }
    addTcp(record, side.options, timeNs, wlanStatus & WlanColumns::kMacDuplicate);
}

std::uint8_t TableBuilder::addWlan(const FrameRecord& record, const ManagementInfo* management,
                                   std::int64_t timeNs)
{
    WlanColumns& t = m_tables.wlan;
    ++m_tables.summary.wlanFrames;

    std::uint8_t status = 0;
    if (record.has(FrameRecord::kBadFcs))
        status |= WlanColumns::kBadFcs;
    const std::uint32_t set = addressSetOf(record);
    const WlanAddressSet& ids = t.addressSets.at(set);
    const std::uint32_t a1 = ids.mac[0], a2 = ids.mac[1];
    if (!(status & WlanColumns::kBadFcs) && record.has(FrameRecord::kWlanSequence) && a2 != kNoAddress) {
        // Non-QoS data and management frames share one sequence counter per
        // transmitter (802.11-2020 10.3.2.14.2); QoS data counts per TID.
        const auto sequence = static_cast<std::uint16_t>(record.sequenceControl >> 4);
        const auto fragment = static_cast<std::uint8_t>(record.sequenceControl & 0x0f);
        if (m_duplicates.isDuplicate(a2, a1, record.queue, sequence, fragment, record.retry(), timeNs)) {
            status |= WlanColumns::kMacDuplicate;
            ++m_tables.summary.macDuplicateFrames;
        }
    }

    if (!(status & WlanColumns::kBadFcs) && a2 != kNoAddress)
        countSequence(record, a2, a1);

    t.frame.push_back(record.number);
    t.timeNs.push_back(timeNs);
    t.frameControl.push_back(record.frameControl);
    t.sequenceControl.push_back(record.sequenceControl);
    t.duration.push_back(record.duration);
    t.addresses.push_back(set);
    t.signalDbm.push_back(record.signalDbm);
    t.radioFlags.push_back(record.radioFlags);
    t.mcs.push_back(record.mcs);
    t.dataRateKbps.push_back(record.dataRateKbps);
    t.channelFreqMhz.push_back(record.channelFreqMhz);
    t.ampduReference.push_back(record.ampduReference);
    t.status.push_back(status);
    if (record.has(FrameRecord::kManagement)) {
        const ManagementInfo& m = *management;
        WlanManagementRecord managementRecord;
        managementRecord.row = static_cast<std::uint32_t>(t.frame.size() - 1);
        if (m.hasSsid)
            managementRecord.ssid = m_tables.ssids.intern(
                std::string(reinterpret_cast<const char*>(m.ssid.data()), m.ssidLength));
        managementRecord.beaconIntervalTu = m.beaconIntervalTu;
        managementRecord.capability = m.capability;
        managementRecord.statusCode = m.statusCode;
        managementRecord.reasonCode = m.reasonCode;
        managementRecord.authAlgorithm = m.authAlgorithm;
        managementRecord.authSequence = m.authSequence;
        managementRecord.dsChannel = m.dsChannel;
        managementRecord.actionCategory = m.actionCategory;
        managementRecord.actionCode = m.actionCode;
        m_tables.wlanManagement.push_back(managementRecord);
    }
    return status;
}

std::uint32_t TableBuilder::addressSetOf(const FrameRecord& record)
{
    const std::uint8_t count = record.addressCount;
    std::uint64_t low = 0, middle = 0;
    std::uint16_t high = 0;
    std::memcpy(&low, record.addresses.data(), 8);
    std::memcpy(&middle, record.addresses.data() + 8, 8);
    std::memcpy(&high, record.addresses.data() + 16, 2);
    const std::uint64_t mix = (low * 0x9e3779b97f4a7c15ull) ^ (middle * 0xc2b2ae3d27d4eb4full) ^
                              ((std::uint64_t(high) << 8 | count) * 0x165667b19e3779f9ull);
    RecentAddresses& entry = m_recentAddresses[(mix >> 40) & (kRecentSlots - 1)];
    if (entry.valid && entry.count == count && entry.raw == record.addresses)
        return entry.set;

    // Interned in address order, as each frame names them, so MAC ids follow first
    // appearance whether or not the cache hits.
    auto& macs = m_tables.macAddresses;
    WlanAddressSet ids;
    for (unsigned i = 0; i < 3; ++i)
        ids.mac[i] = i < count ? macs.intern(record.address(i)) : kNoAddress;
    entry = {true, record.addresses, count, m_tables.wlan.addressSets.intern(ids)};
    return entry.set;
}

void TableBuilder::addTcp(const FrameRecord& record, const TcpSideOptions* options, std::int64_t timeNs,
                          bool macDuplicate)
{
    if (record.has(FrameRecord::kIpFragment)) {
        ++m_tables.summary.ipFragmentsSkipped;
        return;
    }
    if (macDuplicate) {
        m_tables.macDuplicateTcp.push_back(
            {record.number, timeNs, record.conversation, (record.tcpFlags & TcpColumns::kDirectionBit) != 0});
        return;
    }

    if (record.ipTtl != 0) {
        if (m_tables.conversationTtl.size() <= record.conversation)
            m_tables.conversationTtl.resize(record.conversation + 1, {0, 0});
        std::uint8_t& ttl = m_tables.conversationTtl[record.conversation]
                                                   [(record.tcpFlags & TcpColumns::kDirectionBit) ? 1 : 0];
        if (ttl == 0)
            ttl = record.ipTtl;
    }
    const bool hasOptions = record.has(FrameRecord::kTcpOptions);
    const std::uint32_t side = hasOptions ? m_sideOptions++ : TcpColumns::kNoSideOptions;
    const TcpRow row{record.number, timeNs,     record.conversation,  record.seq,   record.ack, record.window,
                     record.tcpFlags, record.payloadLength, record.tsVal, record.tsEcr, side};
    if (m_tcpRows) {
        m_tcpRows->add(row, hasOptions ? options : nullptr);
    } else {
        if (hasOptions)
            m_tables.tcpSideOptions.push_back(*options);
        m_tables.tcp.append(row);
    }
    ++m_tables.summary.tcpSegments;
}

void TableBuilder::countSequence(const FrameRecord& record, std::uint32_t transmitter, std::uint32_t receiver)
{
    const std::uint16_t fc = record.frameControl;
    const unsigned type = (fc >> 2) & 0x3, subtype = (fc >> 4) & 0xf;
    if (type != 0 && type != 2)
        return;
    const bool numbered = record.has(FrameRecord::kWlanSequence);
    const auto sequence = static_cast<std::uint16_t>(record.sequenceControl >> 4);
    if (type == 0) {
        if (numbered)
            m_sequenceGaps.otherFrame(transmitter, sequence);
        return;
    }
    if (fc & 0x4000)
        ++m_tables.summary.protectedDataFrames;
    // Data with a body (subtype bit 2 clear), unfragmented or its first fragment,
    // individually addressed (group-addressed frames are numbered apart, 10.3.2.14).
    const bool individual = record.addressCount > 0 && !(record.addresses[0] & 0x01);
    if (!numbered)
        return;
    if ((subtype & 0x4) || (record.sequenceControl & 0x0f) != 0 || !individual) {
        m_sequenceGaps.otherFrame(transmitter, sequence);
        return;
    }
    if (subtype & 0x8)
        m_sequenceGaps.dataFrame(transmitter, receiver, record.queue, sequence);
    else
        m_sequenceGaps.dataFrame(transmitter, SequenceGapCounter::kNoReceiver, 16, sequence);
}

void TableBuilder::addWarnings()
{
    CaptureSummary& s = m_tables.summary;
    const std::string& path = s.path;
    for (std::size_t kind = 1; kind < kUndecodedKinds; ++kind)
        if (s.undecodedPackets[kind])
            s.warnings.push_back(path + ": not decoded: " + std::to_string(s.undecodedPackets[kind]) +
                                 " packets of " + undecodedName(static_cast<Undecoded>(kind)) +
                                 "; what they carry is not analysed");
    if (s.repeatedPackets)
        s.warnings.push_back(path + ": the capture holds " + std::to_string(s.repeatedPackets) +
                             " packets twice (after its time stepped back, records with the timestamp and "
                             "bytes of earlier ones: a file merged with itself, or two interfaces hearing "
                             "the same frames); their TCP is analysed once");
    if (s.protectedDataFrames)
        s.warnings.push_back(path + ": " + std::to_string(s.protectedDataFrames) +
                             " 802.11 data frames are protected (encrypted) and their TCP is not visible; "
                             "analyze --key PASSPHRASE:SSID (or a 64-hex-digit PSK) decrypts WPA/WPA2-Personal "
                             "when the capture holds the station's 4-way handshake");
    s.sequenceGaps.clear();
    std::uint64_t missing = 0, frames = 0;
    for (const SequenceGapCounter::Transmitter& t : m_sequenceGaps.gaps()) {
        s.sequenceGaps.push_back({t.mac, t.frames, t.missing});
        missing += t.missing;
        frames += t.frames;
    }
    if (missing) {
        const CaptureSummary::SequenceGaps& worst = s.sequenceGaps.front();
        s.warnings.push_back(
            path + ": sniffer gaps: " + std::to_string(missing) + " 802.11 data frames of " +
            std::to_string(s.sequenceGaps.size()) +
            " transmitters are not in the capture in good order (holes in their sequence numbers: missed "
            "by the sniffer, heard only with a bad FCS, or left out by a capture filter; " +
            std::to_string(frames) + " heard), most of " + m_tables.macAddresses.at(worst.mac).toString() + " (" +
            std::to_string(worst.missing) + " missing, " + std::to_string(worst.frames) +
            " heard); what they carried is absent from every result");
    }
}

void TableBuilder::finish()
{
    if (m_numbersConversations)
        m_conversations.moveInto(m_tables);
    addWarnings();
}

} // namespace windscope::dissect
