// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Field-by-field equality of two analyses (fresh vs loaded from a project, plaintext
// vs decrypted), with the failing field named. Written against the public structs
// directly, not through the codec, so a field the codec forgot shows up as a
// difference instead of being dropped on both sides.

#include "analysis/store/analysis_codec.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace windscope::test {

// Doubles are compared bit for bit: the cache must give back exactly what was computed.
inline bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

#define WS_EQ(field) EXPECT_EQ(a.field, b.field) << where << ": " #field
#define WS_DBL(field)                                                                              \
    EXPECT_TRUE(sameBits(a.field, b.field))                                                        \
        << where << ": " #field << " " << a.field << " vs " << b.field
#define WS_STR(field) EXPECT_STREQ(a.field, b.field) << where << ": " #field

inline void expectSameTables(const dissect::CaptureTables& ta, const dissect::CaptureTables& tb,
                             bool comparePath = true)
{
    const std::string where = "tables";
    {
        const auto& a = ta.summary;
        const auto& b = tb.summary;
        if (comparePath) {
            WS_EQ(path);
        }
        WS_EQ(packets);
        WS_EQ(bytesCaptured);
        WS_EQ(firstEpochNs);
        WS_EQ(lastEpochNs);
        WS_EQ(linkTypes);
        if (comparePath) {
            WS_EQ(warnings);
        }
        WS_EQ(truncated);
        WS_EQ(cancelled);
        WS_EQ(malformedPackets);
        WS_EQ(unknownLinkTypePackets);
        WS_EQ(wlanFrames);
        WS_EQ(badFcsFrames);
        WS_EQ(macDuplicateFrames);
        WS_EQ(ipFragmentsSkipped);
        WS_EQ(tcpSegments);
        ASSERT_EQ(a.malformed.size(), b.malformed.size());
        for (std::size_t i = 0; i < a.malformed.size(); ++i) {
            WS_EQ(malformed[i].frame);
            WS_EQ(malformed[i].annotation.severity);
            WS_STR(malformed[i].annotation.field);
            WS_STR(malformed[i].annotation.message);
        }
    }
    const auto& a = ta;
    const auto& b = tb;
    WS_EQ(wlan.frame);
    WS_EQ(wlan.timeNs);
    WS_EQ(wlan.frameControl);
    WS_EQ(wlan.sequenceControl);
    WS_EQ(wlan.duration);
    WS_EQ(wlan.addresses);
    ASSERT_EQ(a.wlan.addressSets.size(), b.wlan.addressSets.size());
    for (std::uint32_t i = 0; i < a.wlan.addressSets.size(); ++i)
        WS_EQ(wlan.addressSets.at(i));
    WS_EQ(wlan.signalDbm);
    WS_EQ(wlan.radioFlags);
    WS_EQ(wlan.mcs);
    WS_EQ(wlan.dataRateKbps);
    WS_EQ(wlan.channelFreqMhz);
    WS_EQ(wlan.ampduReference);
    WS_EQ(wlan.status);
    WS_EQ(tcp.frame);
    WS_EQ(tcp.timeNs);
    WS_EQ(tcp.conversation);
    WS_EQ(tcp.seq);
    WS_EQ(tcp.ack);
    WS_EQ(tcp.window);
    WS_EQ(tcp.flags);
    WS_EQ(tcp.payloadLength);
    WS_EQ(tcp.tsVal);
    WS_EQ(tcp.tsEcr);
    WS_EQ(tcp.sideOptionRows);
    ASSERT_EQ(a.tcpSideOptions.size(), b.tcpSideOptions.size());
    for (std::size_t i = 0; i < a.tcpSideOptions.size(); ++i) {
        WS_EQ(tcpSideOptions[i].mss);
        WS_EQ(tcpSideOptions[i].windowScale);
        WS_EQ(tcpSideOptions[i].sackPermitted);
        WS_EQ(tcpSideOptions[i].sackBlockCount);
        WS_EQ(tcpSideOptions[i].sackBlocks);
    }
    WS_EQ(conversations);
    ASSERT_EQ(a.macDuplicateTcp.size(), b.macDuplicateTcp.size());
    for (std::size_t i = 0; i < a.macDuplicateTcp.size(); ++i) {
        WS_EQ(macDuplicateTcp[i].frame);
        WS_EQ(macDuplicateTcp[i].timeNs);
        WS_EQ(macDuplicateTcp[i].conversation);
        WS_EQ(macDuplicateTcp[i].fromB);
    }
    ASSERT_EQ(a.relayedTcp.size(), b.relayedTcp.size());
    for (std::size_t i = 0; i < a.relayedTcp.size(); ++i) {
        WS_EQ(relayedTcp[i].frame);
        WS_EQ(relayedTcp[i].firstFrame);
        WS_EQ(relayedTcp[i].timeNs);
        WS_EQ(relayedTcp[i].conversation);
        WS_EQ(relayedTcp[i].fromB);
        WS_EQ(relayedTcp[i].firstTtl);
        WS_EQ(relayedTcp[i].ttl);
    }
    WS_EQ(conversationTtl);
    ASSERT_EQ(a.ipAddresses.size(), b.ipAddresses.size());
    for (std::uint32_t i = 0; i < a.ipAddresses.size(); ++i)
        WS_EQ(ipAddresses.at(i));
    ASSERT_EQ(a.macAddresses.size(), b.macAddresses.size());
    for (std::uint32_t i = 0; i < a.macAddresses.size(); ++i)
        WS_EQ(macAddresses.at(i));
    ASSERT_EQ(a.wlanManagement.size(), b.wlanManagement.size());
    for (std::size_t i = 0; i < a.wlanManagement.size(); ++i) {
        WS_EQ(wlanManagement[i].row);
        WS_EQ(wlanManagement[i].ssid);
        WS_EQ(wlanManagement[i].beaconIntervalTu);
        WS_EQ(wlanManagement[i].capability);
        WS_EQ(wlanManagement[i].statusCode);
        WS_EQ(wlanManagement[i].reasonCode);
        WS_EQ(wlanManagement[i].authAlgorithm);
        WS_EQ(wlanManagement[i].authSequence);
        WS_EQ(wlanManagement[i].dsChannel);
        WS_EQ(wlanManagement[i].actionCategory);
        WS_EQ(wlanManagement[i].actionCode);
    }
    ASSERT_EQ(a.ssids.size(), b.ssids.size());
    for (std::uint32_t i = 0; i < a.ssids.size(); ++i)
        WS_EQ(ssids.at(i));
}

inline void expectSameDirection(const analysis::DirectionStats& a,
                                const analysis::DirectionStats& b, const std::string& where)
{
    WS_EQ(packets);
    WS_EQ(bytes);
    WS_EQ(dataPackets);
    WS_EQ(dataBytes);
    WS_EQ(uniqueBytes);
    WS_EQ(retransmittedBytes);
    WS_EQ(retransmissions);
    WS_EQ(fastRetransmissions);
    WS_EQ(spuriousRetransmissions);
    WS_EQ(rtoTimeouts);
    WS_EQ(outOfOrder);
    WS_EQ(lostSegments);
    WS_EQ(ackLostSegments);
    WS_EQ(dupAcks);
    WS_EQ(zeroWindows);
    WS_EQ(zeroWindowProbes);
    WS_EQ(windowUpdates);
    WS_EQ(windowFull);
    WS_EQ(keepAlives);
    WS_EQ(lowWindows);
    WS_EQ(macRetriesExcluded);
    WS_EQ(synCount);
    WS_EQ(finCount);
    WS_EQ(rstCount);
    WS_EQ(sackPackets);
    WS_EQ(maxWindowBytes);
    WS_EQ(rttSamples);
    WS_DBL(rttMinMs);
    WS_DBL(rttAvgMs);
    WS_DBL(rttMaxMs);
    WS_DBL(rttStddevMs);
    WS_EQ(rttFromTimestamps);
    WS_EQ(rttAckSamples);
    WS_EQ(rttTimestampSamples);
    WS_EQ(firstDataTimeNs);
    WS_EQ(lastDataTimeNs);
    WS_DBL(throughputBps);
    WS_DBL(goodputBps);
    WS_EQ(firstTimeNs);
    WS_EQ(lastTimeNs);
}

inline void expectSameTcp(const analysis::TcpAnalysis& ta, const analysis::TcpAnalysis& tb)
{
    ASSERT_EQ(ta.connections.size(), tb.connections.size());
    for (std::size_t i = 0; i < ta.connections.size(); ++i) {
        const analysis::Connection& a = ta.connections[i];
        const analysis::Connection& b = tb.connections[i];
        const std::string where = "connection " + std::to_string(i);
        WS_EQ(id);
        WS_EQ(conversation);
        WS_EQ(address[0]);
        WS_EQ(address[1]);
        WS_EQ(port[0]);
        WS_EQ(port[1]);
        WS_EQ(handshakeSeen);
        WS_EQ(windowScaleKnown);
        WS_EQ(windowScale[0]);
        WS_EQ(windowScale[1]);
        WS_EQ(mss[0]);
        WS_EQ(mss[1]);
        WS_EQ(sackPermitted);
        WS_EQ(timestamps);
        WS_EQ(handshakeRttNs);
        WS_EQ(firstTimeNs);
        WS_EQ(lastTimeNs);
        WS_EQ(firstFrame);
        WS_EQ(lastFrame);
        WS_EQ(segments);
        WS_EQ(lowWindowThresholdBytes);
        expectSameDirection(a.direction[0], b.direction[0], where + " direction 0");
        expectSameDirection(a.direction[1], b.direction[1], where + " direction 1");
    }
    const auto& a = ta;
    const auto& b = tb;
    const std::string where = "segments";
    WS_EQ(segments.connection);
    WS_EQ(segments.flags);
    WS_EQ(segments.bytesInFlight);
    ASSERT_EQ(a.segments.decode.size(), b.segments.decode.size());
    for (std::size_t i = 0; i < a.segments.decode.size(); ++i) {
        WS_EQ(segments.decode[i].seqBase);
        WS_EQ(segments.decode[i].ackBase);
        WS_EQ(segments.decode[i].windowShift);
        WS_EQ(segments.decode[i].hasCheckpoints);
    }
    ASSERT_EQ(a.segments.checkpoints.size(), b.segments.checkpoints.size());
    for (std::size_t i = 0; i < a.segments.checkpoints.size(); ++i) {
        WS_EQ(segments.checkpoints[i].stream);
        WS_EQ(segments.checkpoints[i].row);
        WS_EQ(segments.checkpoints[i].value);
        WS_EQ(segments.checkpoints[i].raw);
    }
    WS_EQ(segments.dupAckNumber);
    ASSERT_EQ(a.rtt.size(), b.rtt.size());
    for (std::size_t i = 0; i < a.rtt.size(); ++i) {
        WS_EQ(rtt[i].ackRow());
        WS_EQ(rtt[i].dataRow());
        WS_EQ(rtt[i].fromTimestamps());
    }
}

inline void expectSameEvents(const analysis::WlanEvents& ea, const analysis::WlanEvents& eb)
{
    ASSERT_EQ(ea.events.size(), eb.events.size());
    for (std::size_t i = 0; i < ea.events.size(); ++i) {
        const analysis::WlanEvent& a = ea.events[i];
        const analysis::WlanEvent& b = eb.events[i];
        const std::string where = "event " + std::to_string(i);
        WS_EQ(id);
        WS_EQ(kind);
        WS_EQ(station);
        WS_EQ(bssid);
        WS_EQ(newBssid);
        WS_EQ(startNs);
        WS_EQ(endNs);
        WS_EQ(resumedNs);
        WS_STR(basis);
        WS_EQ(openEnded);
        WS_EQ(evidenceFrames);
        WS_EQ(evidenceCount);
        WS_EQ(probeRequests);
        WS_EQ(psPolls);
        WS_EQ(framesToStation);
        WS_EQ(retriesToStation);
        WS_EQ(uplinkFrames);
        WS_EQ(connection);
        WS_EQ(tcpRetransmissions);
    }
    ASSERT_EQ(ea.scanPatterns.size(), eb.scanPatterns.size());
    for (std::size_t i = 0; i < ea.scanPatterns.size(); ++i) {
        const auto& a = ea.scanPatterns[i];
        const auto& b = eb.scanPatterns[i];
        const std::string where = "scan pattern " + std::to_string(i);
        WS_EQ(station);
        WS_EQ(scans);
        WS_DBL(intervalMs);
        WS_DBL(dwellMs);
        WS_EQ(periodic);
    }
    ASSERT_EQ(ea.macStats.size(), eb.macStats.size());
    for (std::size_t i = 0; i < ea.macStats.size(); ++i) {
        const auto& sa = ea.macStats[i];
        const auto& sb = eb.macStats[i];
        EXPECT_EQ(sa.station, sb.station);
        EXPECT_EQ(sa.addbaResponses, sb.addbaResponses);
        EXPECT_EQ(sa.delbas, sb.delbas);
        ASSERT_EQ(sa.bins.size(), sb.bins.size());
        for (std::size_t j = 0; j < sa.bins.size(); ++j) {
            const auto& a = sa.bins[j];
            const auto& b = sb.bins[j];
            const std::string where =
                "mac stats " + std::to_string(i) + " bin " + std::to_string(j);
            WS_EQ(startNs);
            WS_EQ(framesSent);
            WS_EQ(framesReceived);
            WS_EQ(retries);
            WS_EQ(failedAttempts);
            WS_EQ(rateSamples);
            WS_DBL(meanRateMbps);
            WS_EQ(maxMcs);
            WS_EQ(signalSamples);
            WS_DBL(meanSignalDbm);
            WS_EQ(ampdus);
            WS_EQ(ampduSubframes);
            WS_EQ(blockAcks);
            WS_EQ(blockAckRequests);
        }
    }
    EXPECT_EQ(ea.notes, eb.notes);
}

inline void expectSameSpans(const std::vector<analysis::AssociationSpan>& sa,
                            const std::vector<analysis::AssociationSpan>& sb, const std::string& at)
{
    ASSERT_EQ(sa.size(), sb.size()) << at << ": spans";
    for (std::size_t i = 0; i < sa.size(); ++i) {
        const auto &a = sa[i], &b = sb[i];
        const std::string where = at + " span " + std::to_string(i);
        WS_EQ(bssid);
        WS_EQ(startNs);
        WS_EQ(endNs);
        WS_EQ(firstFrame);
        WS_EQ(lastFrame);
        WS_EQ(dataFrames);
    }
}

inline void expectSameInventory(const analysis::WlanInventory& ia, const analysis::WlanInventory& ib)
{
    ASSERT_EQ(ia.accessPoints.size(), ib.accessPoints.size());
    for (std::size_t i = 0; i < ia.accessPoints.size(); ++i) {
        const auto &a = ia.accessPoints[i], &b = ib.accessPoints[i];
        const std::string where = "access point " + std::to_string(i);
        WS_EQ(bssid);
        WS_EQ(ssid);
        WS_EQ(channel);
        WS_EQ(channelFreqMhz);
        WS_EQ(beaconIntervalTu);
        WS_EQ(beacons);
        WS_EQ(probeResponses);
        WS_EQ(dataFrames);
        WS_EQ(firstTimeNs);
        WS_EQ(lastTimeNs);
    }
    ASSERT_EQ(ia.stations.size(), ib.stations.size());
    for (std::size_t i = 0; i < ia.stations.size(); ++i) {
        const auto &a = ia.stations[i], &b = ib.stations[i];
        const std::string where = "station " + std::to_string(i);
        WS_EQ(mac);
        WS_EQ(ipAddresses);
        WS_EQ(framesSent);
        WS_EQ(framesReceived);
        WS_EQ(probeRequests);
        WS_EQ(firstTimeNs);
        WS_EQ(lastTimeNs);
        expectSameSpans(a.timeline, b.timeline, where);
        ASSERT_EQ(a.management.size(), b.management.size()) << where;
        for (std::size_t j = 0; j < a.management.size(); ++j) {
            const auto &ma = a.management[j], &mb = b.management[j];
            const std::string at = where + " management " + std::to_string(j);
            EXPECT_EQ(ma.timeNs, mb.timeNs) << at;
            EXPECT_EQ(ma.frame, mb.frame) << at;
            EXPECT_EQ(ma.row, mb.row) << at;
            EXPECT_EQ(ma.bssid, mb.bssid) << at;
            EXPECT_EQ(ma.subtype, mb.subtype) << at;
            EXPECT_EQ(ma.statusCode, mb.statusCode) << at;
            EXPECT_EQ(ma.reasonCode, mb.reasonCode) << at;
            EXPECT_EQ(ma.fromStation, mb.fromStation) << at;
        }
    }
    ASSERT_EQ(ia.connections.size(), ib.connections.size());
    for (std::size_t i = 0; i < ia.connections.size(); ++i) {
        const auto &a = ia.connections[i], &b = ib.connections[i];
        const std::string where = "placement " + std::to_string(i);
        WS_EQ(connection);
        WS_EQ(station);
        WS_EQ(stationEndpoint);
        expectSameSpans(a.aps, b.aps, where);
    }
    EXPECT_EQ(ia.notes, ib.notes);
    EXPECT_EQ(ia.apByMac, ib.apByMac);
    EXPECT_EQ(ia.stationByMac, ib.stationByMac);
}

inline void expectSameCorrelation(const analysis::Correlation& ca, const analysis::Correlation& cb)
{
    ASSERT_EQ(ca.impacts.size(), cb.impacts.size());
    for (std::size_t i = 0; i < ca.impacts.size(); ++i) {
        EXPECT_EQ(ca.impacts[i].event, cb.impacts[i].event) << "impact " << i;
        ASSERT_EQ(ca.impacts[i].connections.size(), cb.impacts[i].connections.size()) << "impact " << i;
        for (std::size_t j = 0; j < ca.impacts[i].connections.size(); ++j) {
            const auto &a = ca.impacts[i].connections[j], &b = cb.impacts[i].connections[j];
            const std::string where = "impact " + std::to_string(i) + " connection " + std::to_string(j);
            WS_EQ(connection);
            WS_EQ(dataDirection);
            WS_EQ(windowStartNs);
            WS_EQ(windowEndNs);
            WS_EQ(retransmissions);
            WS_EQ(fastRetransmissions);
            WS_EQ(rtoTimeouts);
            WS_EQ(dupAcks);
            WS_EQ(dupAckBursts);
            WS_EQ(zeroWindows);
            WS_EQ(lowWindows);
            WS_DBL(throughputBeforeBps);
            WS_DBL(throughputDuringBps);
            WS_DBL(throughputAfterBps);
            WS_EQ(recoveryNs);
            WS_EQ(cwndBeforeBytes);
            WS_EQ(cwndMinBytes);
            WS_EQ(cwndAfterBytes);
            WS_EQ(ssthreshAfterBytes);
            WS_EQ(cwndModel);
            WS_EQ(cwndNotFollowed);
        }
    }
    ASSERT_EQ(ca.kinds.size(), cb.kinds.size());
    for (std::size_t i = 0; i < ca.kinds.size(); ++i) {
        const auto &a = ca.kinds[i], &b = cb.kinds[i];
        const std::string where = "kind " + std::to_string(i);
        WS_EQ(kind);
        WS_EQ(events);
        WS_EQ(eventsWithConnections);
        WS_DBL(meanDurationMs);
        WS_EQ(retransmissions);
        WS_EQ(rtoTimeouts);
        WS_EQ(dupAckBursts);
        WS_EQ(zeroWindows);
        WS_DBL(meanThroughputDuringPct);
        WS_DBL(meanRecoveryMs);
        WS_EQ(notRecovered);
    }
    ASSERT_EQ(ca.scanIntervals.size(), cb.scanIntervals.size());
    for (std::size_t i = 0; i < ca.scanIntervals.size(); ++i) {
        const auto &a = ca.scanIntervals[i], &b = cb.scanIntervals[i];
        const std::string where = "scan interval " + std::to_string(i);
        WS_EQ(station);
        WS_DBL(intervalMs);
        WS_DBL(dwellMs);
        WS_EQ(periodic);
        WS_EQ(scans);
        WS_EQ(scanningStartNs);
        WS_EQ(scanningEndNs);
        WS_DBL(throughputScanningBps);
        WS_DBL(throughputScanFreeBps);
        WS_DBL(throughputPct);
        WS_DBL(lossesPerScan);
        WS_DBL(timeoutsPerScan);
    }
    EXPECT_EQ(ca.notes, cb.notes);
}

#undef WS_EQ
#undef WS_DBL
#undef WS_STR

inline void expectSameBundle(const analysis::pipeline::AnalysisBundle& a,
                             const analysis::pipeline::AnalysisBundle& b)
{
    expectSameTables(a.tables, b.tables);
    expectSameTcp(a.tcp, b.tcp);
    expectSameEvents(a.events, b.events);
    expectSameInventory(a.inventory, b.inventory);
    expectSameCorrelation(a.correlation, b.correlation);
    ASSERT_EQ(a.cwnd.size(), b.cwnd.size());
    for (std::size_t c = 0; c < a.cwnd.size(); ++c) {
        const analysis::cwnd::CwndInference& x = a.cwnd[c];
        const analysis::cwnd::CwndInference& y = b.cwnd[c];
        EXPECT_EQ(x.connection, y.connection);
        EXPECT_EQ(x.sender, y.sender);
        EXPECT_EQ(x.notFollowed, y.notFollowed);
        EXPECT_EQ(x.model, y.model);
        EXPECT_EQ(x.undetermined, y.undetermined);
        EXPECT_TRUE(sameBits(x.confidence, y.confidence));
        EXPECT_EQ(x.mss, y.mss);
        EXPECT_EQ(x.vantage.point, y.vantage.point);
        EXPECT_EQ(x.vantage.oneWayShiftNs, y.vantage.oneWayShiftNs);
        ASSERT_EQ(x.fits.size(), y.fits.size());
        for (std::size_t i = 0; i < x.fits.size(); ++i) {
            EXPECT_EQ(x.fits[i].model, y.fits[i].model);
            EXPECT_EQ(x.fits[i].violations, y.fits[i].violations);
            EXPECT_TRUE(sameBits(x.fits[i].meanGap, y.fits[i].meanGap));
        }
        ASSERT_EQ(x.series.size(), y.series.size());
        for (std::size_t i = 0; i < x.series.size(); ++i) {
            EXPECT_EQ(x.series[i].row, y.series[i].row);
            EXPECT_EQ(x.series[i].cwndBytes, y.series[i].cwndBytes);
            EXPECT_EQ(x.series[i].ssthreshBytes, y.series[i].ssthreshBytes);
            EXPECT_EQ(x.series[i].phase, y.series[i].phase);
        }
    }
}

// A scratch directory removed with the fixture.
class ScratchDir
{
public:
    ScratchDir()
    {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "windscope-test-XXXXXX").string();
        m_path = mkdtemp(pattern.data());
    }
    ~ScratchDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

inline std::vector<char> fileBytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void writeBytes(const std::filesystem::path& path, const std::vector<char>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Starts windscope-cli with args and the store's pause hook set (plus extraEnv), waits
// until a save is inside its transaction, and SIGKILLs the process there.
inline void killCliInsideSave(const std::vector<std::string>& args, const std::filesystem::path& marker,
                              const std::vector<std::string>& extraEnv = {})
{
    const std::string cliBinary = cliPath();
    std::vector<std::string> argText = {cliBinary};
    argText.insert(argText.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argText)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> envText;
    for (char** e = environ; *e; ++e)
        envText.emplace_back(*e);
    envText.push_back("WINDSCOPE_STORE_PAUSE_IN_SAVE=" + marker.string());
    envText.insert(envText.end(), extraEnv.begin(), extraEnv.end());
    std::vector<char*> envp;
    for (std::string& e : envText)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_t child = 0;
    ASSERT_EQ(posix_spawn(&child, cliBinary.c_str(), nullptr, nullptr, argv.data(), envp.data()), 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!std::filesystem::exists(marker) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const bool paused = std::filesystem::exists(marker);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(paused) << "the save never reached its transaction";
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

} // namespace windscope::test
