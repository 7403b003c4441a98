// SPDX-License-Identifier: GPL-3.0-or-later
#include "table_builder.h"

#include <algorithm>
#include <cstring>

namespace windscope::dissect {

namespace {

constexpr std::uint32_t kNoAddress = WlanColumns::kNoAddress;

std::uint64_t macBits(const MacAddress& m)
{
    std::uint64_t v = 0;
    std::memcpy(&v, m.bytes.data(), m.bytes.size());
    return v;
}

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
    addFrame(frame, linkTypeKnown, conversation);
}

void TableBuilder::add(const Frame& frame, bool linkTypeKnown, ConversationIndex::Entry conversation)
{
    addFrame(frame, linkTypeKnown, conversation);
}

void TableBuilder::addFrame(const Frame& frame, bool linkTypeKnown, ConversationIndex::Entry conversation)
{
    CaptureSummary& s = m_tables.summary;
    if (s.packets == 0)
        s.firstEpochNs = s.lastEpochNs = frame.epochNs;
    ++s.packets;
    s.lastEpochNs = std::max(s.lastEpochNs, frame.epochNs);
    s.bytesCaptured += frame.capturedLength;
    noteLinkType(frame.linkType, linkTypeKnown);
    if (!linkTypeKnown)
        ++s.unknownLinkTypePackets;

    // A frame the radio flagged with a bad FCS is corrupt by definition: whatever its
    // decoders found wrong is counted as a bad FCS, not as a malformed packet.
    const bool badFcs = frame.hasRadio && frame.radio.badFcs();
    if (badFcs)
        ++s.badFcsFrames;
    if (frame.malformed() && !badFcs) {
        ++s.malformedPackets;
        if (s.malformed.size() < CaptureSummary::kMaxMalformedRecords)
            for (std::uint8_t i = 0; i < frame.annotationCount; ++i)
                if (frame.annotations[i].severity == Severity::Error) {
                    s.malformed.push_back({frame.number, frame.annotations[i]});
                    break;
                }
    }

    // Saturated: a damaged file can put two packets further apart than int64 ns holds.
    std::int64_t timeNs = 0;
    if (__builtin_sub_overflow(frame.epochNs, s.firstEpochNs, &timeNs))
        timeNs = frame.epochNs < s.firstEpochNs ? INT64_MIN : INT64_MAX;
    // A bad-FCS frame's TCP header cannot be trusted; a MAC duplicate is not new data.
    const std::uint8_t wlanStatus = frame.hasWlan ? addWlan(frame, timeNs) : 0;
    if (frame.hasTcp && !(wlanStatus & WlanColumns::kBadFcs))
        addTcp(frame, timeNs, wlanStatus & WlanColumns::kMacDuplicate, conversation);
}

std::uint8_t TableBuilder::addWlan(const Frame& frame, std::int64_t timeNs)
{
    const WlanInfo& w = frame.wlan;
    const RadioInfo& r = frame.radio;
    WlanColumns& t = m_tables.wlan;
    ++m_tables.summary.wlanFrames;

    std::uint8_t status = 0;
    if (frame.hasRadio && r.badFcs())
        status |= WlanColumns::kBadFcs;
    const std::uint32_t set = addressSetOf(w);
    const WlanAddressSet& ids = t.addressSets.at(set);
    const std::uint32_t a1 = ids.mac[0], a2 = ids.mac[1];
    if (!(status & WlanColumns::kBadFcs) && w.hasSequence && a2 != kNoAddress) {
        // Non-QoS data and management frames share one sequence counter per
        // transmitter (802.11-2020 10.3.2.14.2); QoS data counts per TID.
        const std::uint8_t tid = w.hasQos ? w.tid() : 16;
        if (m_duplicates.isDuplicate(a2, a1, tid, w.sequence, w.fragment, w.retry(), timeNs)) {
            status |= WlanColumns::kMacDuplicate;
            ++m_tables.summary.macDuplicateFrames;
        }
    }

    t.frame.push_back(frame.number);
    t.timeNs.push_back(timeNs);
    t.frameControl.push_back(w.fc);
    t.sequenceControl.push_back(
        w.hasSequence ? static_cast<std::uint16_t>(w.sequence << 4 | w.fragment) : 0xffff);
    t.duration.push_back(w.duration);
    t.addresses.push_back(set);
    t.signalDbm.push_back(frame.hasRadio && r.hasSignal ? r.signalDbm : WlanColumns::kNoSignal);
    t.radioFlags.push_back(frame.hasRadio ? r.flags : 0);
    t.mcs.push_back(frame.hasRadio && r.hasMcs ? r.mcsIndex
                    : frame.hasRadio && r.hasVht ? r.vhtMcs
                                                 : 0xff);
    t.dataRateKbps.push_back(frame.hasRadio ? r.dataRateKbps : 0);
    t.channelFreqMhz.push_back(frame.hasRadio ? r.channelFreqMhz : 0);
    t.ampduReference.push_back(frame.hasRadio && r.hasAmpdu ? r.ampduReference + 1 : 0);
    t.status.push_back(status);
    if (frame.hasManagement) {
        const ManagementInfo& m = frame.management;
        WlanManagementRecord record;
        record.row = static_cast<std::uint32_t>(t.frame.size() - 1);
        if (m.hasSsid)
            record.ssid = m_tables.ssids.intern(
                std::string(reinterpret_cast<const char*>(m.ssid.data()), m.ssidLength));
        record.beaconIntervalTu = m.beaconIntervalTu;
        record.capability = m.capability;
        record.statusCode = m.statusCode;
        record.reasonCode = m.reasonCode;
        record.authAlgorithm = m.authAlgorithm;
        record.authSequence = m.authSequence;
        record.dsChannel = m.dsChannel;
        record.actionCategory = m.actionCategory;
        record.actionCode = m.actionCode;
        m_tables.wlanManagement.push_back(record);
    }
    return status;
}

std::uint32_t TableBuilder::addressSetOf(const WlanInfo& w)
{
    const std::uint8_t count = std::min<std::uint8_t>(w.addressCount, 3);
    const std::array<std::uint64_t, 3> raw = {count >= 1 ? macBits(w.addr1) : 0,
                                              count >= 2 ? macBits(w.addr2) : 0,
                                              count >= 3 ? macBits(w.addr3) : 0};
    const std::uint64_t mix = (raw[0] * 0x9e3779b97f4a7c15ull) ^ (raw[1] * 0xc2b2ae3d27d4eb4full) ^
                              (raw[2] * 0x165667b19e3779f9ull) ^ count;
    RecentAddresses& entry = m_recentAddresses[(mix >> 40) & (kRecentSlots - 1)];
    if (entry.valid && entry.count == count && entry.raw == raw)
        return entry.set;

    // Interned in address order, as each frame names them, so MAC ids follow first
    // appearance whether or not the cache hits.
    auto& macs = m_tables.macAddresses;
    WlanAddressSet ids;
    ids.mac[0] = count >= 1 ? macs.intern(w.addr1) : kNoAddress;
    ids.mac[1] = count >= 2 ? macs.intern(w.addr2) : kNoAddress;
    ids.mac[2] = count >= 3 ? macs.intern(w.addr3) : kNoAddress;
    entry = {true, raw, count, m_tables.wlan.addressSets.intern(ids)};
    return entry.set;
}

void TableBuilder::addTcp(const Frame& frame, std::int64_t timeNs, bool macDuplicate,
                          ConversationIndex::Entry conversation)
{
    const TcpInfo& tcp = frame.tcp;
    const IpInfo& ip = frame.ip;
    if (ip.moreFragments || ip.fragmentOffset != 0) {
        ++m_tables.summary.ipFragmentsSkipped;
        return;
    }
    const bool srcIsA = conversation.srcIsA;
    if (macDuplicate) {
        m_tables.macDuplicateTcp.push_back({frame.number, timeNs, conversation.conversation, !srcIsA});
        return;
    }

    std::uint32_t side = TcpColumns::kNoSideOptions;
    TcpSideOptions options;
    if (tcp.mss || tcp.windowScale >= 0 || tcp.sackPermitted || tcp.sackBlockCount) {
        side = m_sideOptions++;
        options = {tcp.mss, tcp.windowScale, tcp.sackPermitted, tcp.sackBlockCount, tcp.sackBlocks};
    }
    std::uint16_t flags = tcp.flags;
    if (!srcIsA)
        flags |= TcpColumns::kDirectionBit;
    if (tcp.hasTimestamps)
        flags |= TcpColumns::kHasTimestamps;

    const TcpRow row{frame.number, timeNs,       conversation.conversation, tcp.seq, tcp.ack, tcp.window,
                     flags,        tcp.payloadLength, tcp.tsVal,                 tcp.tsEcr, side};
    if (m_tcpRows) {
        m_tcpRows->add(row, side == TcpColumns::kNoSideOptions ? nullptr : &options);
    } else {
        if (side != TcpColumns::kNoSideOptions)
            m_tables.tcpSideOptions.push_back(options);
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
