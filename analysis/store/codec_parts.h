// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Encoding and decoding of each cached part, one file per concern: codec_tables.cpp
// (the capture's tables), codec_tcp.cpp (the TCP analysis), codec_wlan.cpp (802.11
// inventory, events and their correlation), codec_cwnd.cpp (the inferred windows).
// Each decoder reads its blob to the end (Reader::finish).

#include "codec_io.h"

namespace windscope::analysis::store::codec {

void encodeCapture(Writer& w, const dissect::CaptureTables& t);
bool decodeCapture(Reader& r, dissect::CaptureTables& t, std::string& error);
void encodeFrameColumns(Writer& w, const dissect::CaptureTables& t);
bool decodeFrameColumns(Reader& r, dissect::CaptureTables& t, std::string& error);

void encodeConnections(Writer& w, const TcpAnalysis& tcp);
bool decodeConnections(Reader& r, TcpAnalysis& tcp, std::string& error);
void encodeSegments(Writer& w, const TcpAnalysis& tcp);
bool decodeSegments(Reader& r, TcpAnalysis& tcp, std::string& error);

void encodeEvents(Writer& w, const WlanEvents& events);
bool decodeEvents(Reader& r, WlanEvents& events, std::string& error);
void encodeInventory(Writer& w, const WlanInventory& inventory);
bool decodeInventory(Reader& r, WlanInventory& inventory, std::string& error);
void encodeCorrelation(Writer& w, const Correlation& correlation);
bool decodeCorrelation(Reader& r, Correlation& correlation, std::string& error);

void encodeFleet(Writer& w, const FleetSummary& fleet);
bool decodeFleet(Reader& r, FleetSummary& fleet, std::string& error);

void encodeCwnd(Writer& w, const std::vector<cwnd::CwndInference>& cwnd);
bool decodeCwnd(Reader& r, std::vector<cwnd::CwndInference>& cwnd, std::string& error);

} // namespace windscope::analysis::store::codec
