// SPDX-License-Identifier: GPL-3.0-or-later
// Wireshark 4.0 plugin: windscope.* fields on each packet from a Windscope project's
// cached analysis, so an analyst can filter with `windscope.event == "scan"` or
// `windscope.low_window`. A postdissector: it adds generated fields and never touches
// the other dissectors' results.
//
// Preferences: windscope.project (the .wsproj file) and windscope.capture (the capture's
// id or path in the project; empty = the capture whose first packet has this file's
// first timestamp, or the project's only capture). With tshark:
//     tshark -r cap.pcap -o windscope.project:P.wsproj -Y 'windscope.event == "scan"'
//
// The project is read once, on the first packet after the preferences change. epan
// unwinds dissector errors with longjmp, which skips C++ destructors, so no C++ object
// with a destructor lives across an epan call in the dissector function.

#include "analysis/store/packet_index.h"
#include "analysis/store/project_store.h"
#include "analysis/wlan/wlan_events.h"

#include <ws_version.h>

#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto.h>

#include <cstdio>
#include <memory>
#include <string>

#if WIRESHARK_VERSION_MAJOR != 4 || WIRESHARK_VERSION_MINOR != 0
#error "the plugin is built against the Wireshark 4.0 plugin interface"
#endif

namespace {

namespace store = windscope::analysis::store;

int g_proto = -1;
int g_hfConnection = -1, g_hfLowWindow = -1, g_hfRtoTimeout = -1, g_hfRetransmission = -1,
    g_hfCwnd = -1, g_hfEvent = -1, g_hfEventId = -1, g_hfEventBasis = -1;
int g_ett = -1;
const char* g_projectPref = "";
const char* g_capturePref = "";

// What the plugin loaded, replaced when the preferences change.
struct Loaded
{
    bool attempted = false;
    std::unique_ptr<store::PacketIndex> index;
};
Loaded* g_loaded = nullptr;

void resetLoaded()
{
    delete g_loaded;
    g_loaded = new Loaded;
}

// At libwireshark's shutdown, before the plugin is unloaded: nothing the plugin allocated
// outlives it.
void releaseLoaded()
{
    delete g_loaded;
    g_loaded = nullptr;
}

// Picks the capture: the one named by the preference, else the one whose first packet
// time matches this file's, else the only one.
bool loadProject(std::int64_t firstEpochNs, std::string& error)
{
    if (!g_projectPref || !*g_projectPref) {
        error = "no project (set the windscope.project preference)";
        return false;
    }
    auto project = store::ProjectStore::open(g_projectPref, error);
    if (!project)
        return false;
    store::CaptureRecord chosen;
    bool found = false;
    if (g_capturePref && *g_capturePref) {
        found = project->findCapture(g_capturePref, chosen, error);
    } else {
        std::vector<store::CaptureRecord> captures;
        if (!project->listCaptures(captures, error))
            return false;
        for (const store::CaptureRecord& c : captures) {
            windscope::analysis::pipeline::AnalysisBundle summary;
            const store::CachePart part[] = {store::CachePart::Capture};
            std::string ignored;
            if (c.cached && project->loadResults(c.id, part, summary, ignored) &&
                summary.tables.summary.firstEpochNs == firstEpochNs) {
                chosen = c;
                found = true;
                break;
            }
        }
        if (!found && captures.size() == 1) {
            chosen = captures[0];
            found = true;
        }
        if (!found)
            error = "no capture in the project starts at this file's first packet (set "
                    "windscope.capture)";
    }
    if (!found)
        return false;
    windscope::analysis::pipeline::AnalysisBundle results;
    if (!project->loadResults(chosen.id, results, error))
        return false;
    // The project's cached products, cwnd included: nothing is analysed again.
    const windscope::analysis::pipeline::CapturePipeline pipeline(std::move(results));
    g_loaded->index = std::make_unique<store::PacketIndex>(pipeline);
    return true;
}

const store::PacketIndex* indexFor(packet_info* pinfo)
{
    if (!g_loaded)
        resetLoaded();
    if (!g_loaded->attempted) {
        g_loaded->attempted = true;
        // rel_ts is the time since the first frame (or a time reference): abs - rel gives
        // the first frame's time without needing frame 1 here.
        const std::int64_t abs =
            static_cast<std::int64_t>(pinfo->abs_ts.secs) * 1000000000 + pinfo->abs_ts.nsecs;
        const std::int64_t rel =
            static_cast<std::int64_t>(pinfo->rel_ts.secs) * 1000000000 + pinfo->rel_ts.nsecs;
        std::string error;
        if (!loadProject(abs - rel, error))
            std::fprintf(stderr, "windscope plugin: %s\n", error.c_str());
    }
    return g_loaded->index.get();
}

int dissectWindscope(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, void*)
{
    const store::PacketIndex* index = indexFor(pinfo);
    if (!index)
        return 0;
    const store::PacketMarks* marks = index->tcpFrame(pinfo->num);
    const std::int64_t relative = static_cast<std::int64_t>(pinfo->abs_ts.secs) * 1000000000 +
                                  pinfo->abs_ts.nsecs - index->firstEpochNs();
    // eventsAt returns a vector: copy what is needed into plain locals before any epan
    // call, so an unwinding exception leaks nothing.
    const windscope::analysis::WlanEvent* events[8];
    std::size_t eventCount = 0;
    {
        const std::vector<const windscope::analysis::WlanEvent*> found = index->eventsAt(relative);
        for (const auto* e : found)
            if (eventCount < 8)
                events[eventCount++] = e;
    }
    if (!marks && eventCount == 0)
        return 0;

    proto_item* top = proto_tree_add_item(tree, g_proto, tvb, 0, 0, ENC_NA);
    proto_item_set_generated(top);
    proto_tree* sub = proto_item_add_subtree(top, g_ett);
    if (marks) {
        namespace flag = windscope::analysis::segment_flag;
        proto_item_set_generated(
            proto_tree_add_uint(sub, g_hfConnection, tvb, 0, 0, marks->connection));
        proto_item_set_generated(proto_tree_add_boolean(sub, g_hfLowWindow, tvb, 0, 0,
                                                        (marks->flags & flag::kLowWindow) != 0));
        proto_item_set_generated(proto_tree_add_boolean(
            sub, g_hfRetransmission, tvb, 0, 0, (marks->flags & flag::kRetransmission) != 0));
        proto_item_set_generated(proto_tree_add_boolean(sub, g_hfRtoTimeout, tvb, 0, 0,
                                                        (marks->flags & flag::kRtoTimeout) != 0));
        if (marks->hasCwnd)
            proto_item_set_generated(
                proto_tree_add_uint64(sub, g_hfCwnd, tvb, 0, 0, marks->cwndBytes));
    }
    for (std::size_t i = 0; i < eventCount; ++i) {
        proto_item_set_generated(proto_tree_add_string(
            sub, g_hfEvent, tvb, 0, 0, windscope::analysis::eventKindName(events[i]->kind)));
        proto_item_set_generated(proto_tree_add_uint64(sub, g_hfEventId, tvb, 0, 0, events[i]->id));
        proto_item_set_generated(
            proto_tree_add_string(sub, g_hfEventBasis, tvb, 0, 0, events[i]->basis));
    }
    return 0;
}

void registerProtocol()
{
    static hf_register_info fields[] = {
        {&g_hfConnection,
         {"Connection", "windscope.connection", FT_UINT32, BASE_DEC, nullptr, 0x0,
          "Windscope connection id (as windscope-cli analyze)", HFILL}},
        {&g_hfLowWindow,
         {"Low window", "windscope.low_window", FT_BOOLEAN, BASE_NONE, nullptr, 0x0,
          "The segment advertises a window below the connection's low-window threshold", HFILL}},
        {&g_hfRetransmission,
         {"Retransmission", "windscope.retransmission", FT_BOOLEAN, BASE_NONE, nullptr, 0x0,
          "A retransmission after 802.11 MAC retries and bad-FCS frames are left out", HFILL}},
        {&g_hfRtoTimeout,
         {"RTO timeout", "windscope.rto_timeout", FT_BOOLEAN, BASE_NONE, nullptr, 0x0,
          "A retransmission after an RTO-like silence", HFILL}},
        {&g_hfCwnd,
         {"Congestion window", "windscope.cwnd", FT_UINT64, BASE_DEC, nullptr, 0x0,
          "The sender's inferred congestion window after this data segment, bytes", HFILL}},
        {&g_hfEvent,
         {"Event", "windscope.event", FT_STRING, BASE_NONE, nullptr, 0x0,
          "Kind of an 802.11 event the packet falls in: scan, power_save, handoff, "
          "outage_inferred",
          HFILL}},
        {&g_hfEventId,
         {"Event id", "windscope.event_id", FT_UINT64, BASE_DEC, nullptr, 0x0,
          "Id of the event (as windscope-cli events)", HFILL}},
        {&g_hfEventBasis,
         {"Event basis", "windscope.event_basis", FT_STRING, BASE_NONE, nullptr, 0x0,
          "How the event was found", HFILL}},
    };
    static int* subtrees[] = {&g_ett};
    g_proto = proto_register_protocol("Windscope analysis", "Windscope", "windscope");
    proto_register_field_array(g_proto, fields, G_N_ELEMENTS(fields));
    proto_register_subtree_array(subtrees, G_N_ELEMENTS(subtrees));
    module_t* module = prefs_register_protocol(g_proto, resetLoaded);
    register_shutdown_routine(releaseLoaded);
    prefs_register_filename_preference(module, "project", "Project file",
                                       "Windscope project (.wsproj) whose cached analysis to show",
                                       &g_projectPref, FALSE);
    prefs_register_string_preference(module, "capture", "Capture in the project",
                                     "Capture id or path; empty: the capture that starts at this "
                                     "file's first packet",
                                     &g_capturePref);
}

void registerHandoff()
{
    register_postdissector(create_dissector_handle(dissectWindscope, g_proto));
}

} // namespace

// The plugin interface of Wireshark 4.0 (wsutil/plugins.c looks these symbols up). A
// linkage specification on a single declaration gives the consts external linkage.
extern "C" WS_DLL_PUBLIC_DEF const gchar plugin_version[] = "0.1.0";
extern "C" WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
extern "C" WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

extern "C" WS_DLL_PUBLIC_DEF void plugin_register(void)
{
    static proto_plugin plugin;
    plugin.register_protoinfo = registerProtocol;
    plugin.register_handoff = registerHandoff;
    proto_register_plugin(&plugin);
}
