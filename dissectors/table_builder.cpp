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
    if (!record.has(FrameRecord::kTcp) || (wlanStatus & WlanColumns::kBadFcs))
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

void TableBuilder::finish()
{
    if (m_numbersConversations)
        m_conversations.moveInto(m_tables);
}

} // namespace windscope::dissect
