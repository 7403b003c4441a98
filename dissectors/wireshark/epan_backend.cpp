// SPDX-License-Identifier: GPL-3.0-or-later
// The only file that calls libwireshark, built as the module EpanSession loads on first
// use (epan_module.h). Written against Wireshark 4.0: epan_init's
// three parameters, packet_provider_funcs with four callbacks, epan_dissect_run taking
// a tvbuff, field_info::value embedded, ws_log_init with two parameters. Later minor
// releases change each of these, hence the version check below.

#include "epan_backend_isolation.h"
#include "epan_packet_tree.h"
#include "epan_module.h"

#include <ws_version.h>

#include <epan/epan.h>
#include <epan/epan_dissect.h>
#include <epan/frame_data.h>
#include <epan/frame_data_sequence.h>
#include <epan/ftypes/ftypes.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto.h>
#include <epan/secrets.h>
#include <epan/tvbuff.h>
#include <epan/uat-int.h>
#include <epan/uat.h>
#include <wiretap/wtap.h>
#include <wsutil/buffer.h>
#include <wsutil/filesystem.h>
#include <wsutil/privileges.h>
#include <wsutil/report_message.h>
#include <wsutil/wslog.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <unordered_map>

// Exported by libwireshark 4.0 (epan/wslua/init_wslua.c) but not in an installed header.
extern "C" int wslua_count_plugins(void);

#if WIRESHARK_VERSION_MAJOR != 4 || WIRESHARK_VERSION_MINOR != 0
#error "epan_session.cpp is written against the Wireshark 4.0 API (see the file's first comment)"
#endif

// epan leaves this struct to the application (epan.h); it must live at global scope.
struct packet_provider_data
{
    wtap* wth = nullptr;
    const frame_data* ref = nullptr;
    frame_data* prev_dis = nullptr;
    frame_data* prev_cap = nullptr;
    frame_data_sequence* frames = nullptr;
};

namespace windscope::dissect::wireshark {

namespace {

// ---- process-wide initialisation -------------------------------------------------------

std::string g_messages; // failures and warnings epan reported, for the next error text

void collect(const char* format, va_list ap)
{
    char text[1024];
    std::vsnprintf(text, sizeof text, format, ap);
    if (!g_messages.empty())
        g_messages += "; ";
    g_messages += text;
}
void reportOpenFailure(const char* name, int err, gboolean)
{
    g_messages += std::string(name) + ": " + std::strerror(err);
}
void reportReadFailure(const char* name, int err)
{
    g_messages += std::string(name) + ": " + std::strerror(err);
}
void reportWriteFailure(const char* name, int err)
{
    g_messages += std::string(name) + ": " + std::strerror(err);
}
void reportCfileOpen(const char* name, int err, gchar*)
{
    g_messages += std::string(name) + ": " + wtap_strerror(err);
}
void reportCfileDumpOpen(const char* name, int err, gchar*, int)
{
    g_messages += std::string(name) + ": " + wtap_strerror(err);
}
void reportCfileRead(const char* name, int err, gchar*)
{
    g_messages += std::string(name) + ": " + wtap_strerror(err);
}
void reportCfileWrite(const char*, const char* name, int err, gchar*, guint32, int)
{
    g_messages += std::string(name) + ": " + wtap_strerror(err);
}
void reportCfileClose(const char* name, int err, gchar*)
{
    g_messages += std::string(name) + ": " + wtap_strerror(err);
}

const report_message_routines kReportRoutines = {
    collect,
    collect,
    reportOpenFailure,
    reportReadFailure,
    reportWriteFailure,
    reportCfileOpen,
    reportCfileDumpOpen,
    reportCfileRead,
    reportCfileWrite,
    reportCfileClose,
};

void logInitError(const char* format, va_list ap)
{
    collect(format, ap);
}

// The init order of tshark.c (4.0), measured in the project's libwireshark notes: each
// step depends on the previous one (privileges before configuration_init, wtap before
// epan). There is no re-initialisation after epan_cleanup, so this runs once and the
// library stays up until exit. It runs nothing from the user's or the system's plugin
// and configuration folders (docs/wireshark.md, "Isolation").
bool initialiseOnce(bool useUserProfile, const EpanIsolation& isolation, std::string& error,
                    bool& refused)
{
    static int state = 0; // 0 not yet, 1 ready, -1 failed, -2 refused
    static std::string refusal;
    if (state == 1)
        return true;
    if (state == -2) {
        refused = true;
        error = refusal;
        return false;
    }
    if (state == -1) {
        error = "libwireshark failed to initialise earlier in this process";
        return false;
    }
    auto refuse = [&](const std::string& why) {
        state = -2;
        refusal = "Wireshark dissection refused: libwireshark cannot be isolated from the "
                  "user's and the system's Wireshark plugins and configuration: " + why;
        refused = true;
        error = refusal;
        return false;
    };
    if (!isolation.error.empty())
        return refuse(isolation.error);
    ws_log_init("windscope", logInitError);
    init_process_policies();
    relinquish_special_privs_perm();
    if (char* dirError = configuration_init("windscope", nullptr)) {
        g_messages = dirError;
        g_free(dirError);
    }
    // The personal profile (preferences, UAT files such as 80211_keys, init.lua) is read
    // from here: an empty folder inside the private one unless the user asked for theirs.
    const std::string profile =
        useUserProfile ? isolation.userConfigDir : isolation.privateDir + "/config";
    set_persconffile_dir(profile.c_str());
    if (const std::string why = checkIsolation(isolation); !why.empty())
        return refuse(why);
    // The user's own init.lua would run with --user-profile: only preferences and keys
    // are read from their profile.
    if (useUserProfile) {
        std::error_code ec;
        if (std::filesystem::exists(profile + "/init.lua", ec))
            return refuse(profile + "/init.lua would run (move it away to use --user-profile)");
    }
    init_report_message("Windscope", &kReportRoutines);
    wtap_init(FALSE); // FALSE: no wiretap plugins
    if (!epan_init(nullptr, nullptr, FALSE)) { // FALSE: no binary epan plugins
        state = -1;
        error = "libwireshark failed to initialise: " + g_messages;
        return false;
    }
    // Checked afterwards too, so a path missed above cannot go unnoticed.
    if (wslua_count_plugins() != 0)
        return refuse(std::to_string(wslua_count_plugins()) + " Lua plugin(s) were loaded");
    if (useUserProfile)
        epan_load_settings();
    state = 1;
    return true;
}

bool g_sessionOpen = false;

const nstime_t* frameTimestamp(packet_provider_data* prov, guint32 number)
{
    if (prov->ref && prov->ref->num == number)
        return &prov->ref->abs_ts;
    if (prov->prev_dis && prov->prev_dis->num == number)
        return &prov->prev_dis->abs_ts;
    if (prov->prev_cap && prov->prev_cap->num == number)
        return &prov->prev_cap->abs_ts;
    if (prov->frames) {
        if (frame_data* fd = frame_data_sequence_find(prov->frames, number))
            return &fd->abs_ts;
    }
    return nullptr;
}

const packet_provider_funcs kProviderFuncs = {frameTimestamp, nullptr, nullptr, nullptr};

// All hfids registered under one name: expert fields reuse their flag's name.
std::vector<int> fieldIds(const char* name)
{
    std::vector<int> ids;
    int id = proto_registrar_get_id_byname(name);
    if (id < 0)
        return ids;
    header_field_info* info = proto_registrar_get_nth(static_cast<guint>(id));
    while (info && info->same_name_prev_id != -1)
        info = proto_registrar_get_nth(static_cast<guint>(info->same_name_prev_id));
    for (; info; info = info->same_name_next)
        ids.push_back(info->id);
    return ids;
}

// Unsigned value of an integer or boolean field (booleans are 64-bit in 4.0; the typed
// getters assert on the wrong type).
std::uint64_t unsignedValue(field_info* fi)
{
    switch (fi->hfinfo->type) {
    case FT_BOOLEAN:
    case FT_UINT40:
    case FT_UINT48:
    case FT_UINT56:
    case FT_UINT64:
        return fvalue_get_uinteger64(&fi->value);
    case FT_UINT8:
    case FT_UINT16:
    case FT_UINT24:
    case FT_UINT32:
        return fvalue_get_uinteger(&fi->value);
    default:
        return 0;
    }
}

std::string percentEscaped(const std::string& text)
{
    // dot11decrypt reads "passphrase:ssid" with %XX escapes, so a ':' or '%' in either
    // part must be escaped; quotes and non-printables would break the UAT record.
    std::string out;
    for (unsigned char c : text) {
        if (c == ':' || c == '%' || c == '"' || c == '\\' || c < 0x20 || c >= 0x7f) {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02x", c);
            out += hex;
        } else
            out += static_cast<char>(c);
    }
    return out;
}

bool setPreference(const std::string& text, std::string& error)
{
    std::string writable = text; // prefs_set_pref writes into its argument
    char* message = nullptr;
    const prefs_set_pref_e result = prefs_set_pref(writable.data(), &message);
    std::string detail = message ? message : "";
    g_free(message);
    switch (result) {
    case PREFS_SET_OK:
        return true;
    case PREFS_SET_SYNTAX_ERR:
        error = "preference '" + text + "': syntax error" + (detail.empty() ? "" : ": " + detail);
        return false;
    case PREFS_SET_NO_SUCH_PREF:
        error = "preference '" + text + "': no such preference";
        return false;
    case PREFS_SET_OBSOLETE:
        error = "preference '" + text + "': obsolete";
        return false;
    }
    return false;
}

// The 802.11 key table accumulates across prefs_set_pref calls; each session starts
// from exactly its own keys. uat_clear leaves dot11decrypt's copy active until the
// table's post-update callback runs (measured).
void clearWlanKeys()
{
    if (uat_t* table = uat_get_table_by_name("WEP and WPA Decryption Keys")) {
        uat_clear(table);
        if (table->post_update_cb)
            table->post_update_cb();
    }
}

std::string wpaKeyRecord(const WpaKey& key)
{
    if (key.kind == WpaKey::Kind::Psk)
        return "uat:80211_keys:\"wpa-psk\",\"" + key.psk + "\"";
    std::string value = percentEscaped(key.passphrase);
    if (!key.ssid.empty())
        value += ":" + percentEscaped(key.ssid);
    return "uat:80211_keys:\"wpa-pwd\",\"" + value + "\"";
}

std::uint32_t pcapLinkType(int wtapEncap)
{
    switch (wtapEncap) {
    case WTAP_ENCAP_ETHERNET:
        return 1;
    case WTAP_ENCAP_IEEE_802_11:
        return 105;
    case WTAP_ENCAP_IEEE_802_11_RADIOTAP:
        return 127;
    default:
        return 0;
    }
}

} // namespace

namespace {

// ---- the session -----------------------------------------------------------------------

struct Backend
{
    std::string path;
    packet_provider_data prov;
    wtap* wth = nullptr;
    epan_t* epan = nullptr;
    int fileType = 0;
    std::uint64_t frames = 0;
    // Where the first pass stopped before the end of the file, and why (with the path).
    std::string damage, damageReason;
    DecryptionReport report;
    std::vector<RecordForExport> decrypted; // only frames epan decrypted
    int fileEncap = 0;
    wtap_rec rec;
    Buffer buf;

    Backend()
    {
        wtap_rec_init(&rec);
        ws_buffer_init(&buf, 1514);
    }
    ~Backend()
    {
        if (epan)
            epan_free(epan);
        if (prov.frames)
            free_frame_data_sequence(prov.frames);
        if (wth)
            wtap_close(wth);
        wtap_rec_cleanup(&rec);
        ws_buffer_free(&buf);
    }
    bool firstPass(bool withKeys, std::string& error);
    // Reads a frame of the first pass again into rec and buf (false, with err, when it
    // cannot be); wiretap's error text, which it may set even on success, is freed.
    bool readAgain(const frame_data* fd, int& err)
    {
        gchar* errInfo = nullptr;
        err = 0;
        const bool read = fd && wtap_seek_read(wth, fd->file_off, &rec, &buf, &err, &errInfo);
        g_free(errInfo);
        return read;
    }
};

namespace {

struct PassFields
{
    std::vector<int> protocols, fcProtected, msgnr, ccmpIv, tkipIv, fc, radiotapFcs;
    static PassFields lookUp()
    {
        return {fieldIds("frame.protocols"),
                fieldIds("wlan.fc.protected"),
                fieldIds("wlan_rsna_eapol.keydes.msgnr"),
                fieldIds("wlan.ccmp.extiv"),
                fieldIds("wlan.tkip.extiv"),
                fieldIds("wlan.fc"),
                fieldIds("radiotap.flags.fcs")};
    }
    void prime(epan_dissect_t* edt) const
    {
        for (const std::vector<int>* ids :
             {&protocols, &fcProtected, &msgnr, &ccmpIv, &tkipIv, &fc, &radiotapFcs})
            for (int id : *ids)
                epan_dissect_prime_with_hfid(edt, id);
    }
};

field_info* firstField(epan_dissect_t* edt, const std::vector<int>& ids)
{
    for (int id : ids) {
        GPtrArray* found = proto_get_finfo_ptr_array(edt->tree, id);
        if (found && found->len)
            return static_cast<field_info*>(g_ptr_array_index(found, 0));
    }
    return nullptr;
}

tvbuff_t* decryptedSource(epan_dissect_t* edt)
{
    for (GSList* s = edt->pi.data_src; s; s = s->next) {
        auto* source = static_cast<const struct data_source*>(s->data);
        char* name = get_data_source_name(source);
        const bool match = name && (std::strncmp(name, "Decrypted CCMP", 14) == 0 ||
                                    std::strncmp(name, "Decrypted TKIP", 14) == 0 ||
                                    std::strncmp(name, "Decrypted GCMP", 14) == 0);
        wmem_free(nullptr, name);
        if (match)
            return get_data_source_tvb(source);
    }
    return nullptr;
}

// The frame's buffer as epan dissects it. A record's original length is 32 bits in the
// file and a tvb's reported length a signed int, which throws (outside any handler:
// the process aborts) when negative; above INT_MAX it is clamped, as Wireshark's own
// frame buffers do (frame_tvbuff.c).
tvbuff_t* frameTvb(const std::uint8_t* data, const frame_data& fd)
{
    const guint32 reported = std::min<guint32>(fd.pkt_len, G_MAXINT);
    return tvb_new_real_data(data, fd.cap_len, static_cast<gint>(reported));
}

} // namespace

bool Backend::firstPass(bool withKeys, std::string& error)
{
    report.keysGiven = withKeys;
    const PassFields fields = PassFields::lookUp();
    epan_dissect_t* edt = epan_dissect_new(epan, TRUE, FALSE);
    frame_data ref{};
    nstime_t elapsed{};
    guint32 cumBytes = 0;
    gint64 offset = 0;
    int err = 0;
    gchar* errInfo = nullptr;
    std::uint64_t number = 0;
    // Wiretap's readers may set errInfo on a record they still return (a warning): it is
    // freed after every read, not only when the read fails.
    while (wtap_read(wth, &rec, &buf, &err, &errInfo, &offset)) {
        g_free(errInfo);
        errInfo = nullptr;
        ++number;
        frame_data fd;
        frame_data_init(&fd, static_cast<guint32>(number), &rec, offset, cumBytes);
        frame_data_set_before_dissect(&fd, &elapsed, &prov.ref, prov.prev_dis);
        if (prov.ref == &fd) {
            ref = fd;
            prov.ref = &ref;
        }
        fields.prime(edt);
        tvbuff_t* tvb = frameTvb(ws_buffer_start_ptr(&buf), fd);
        epan_dissect_run(edt, fileType, &rec, tvb, &fd, nullptr);
        frame_data_set_after_dissect(&fd, &cumBytes);

        const bool isProtected = [&] {
            field_info* fi = firstField(edt, fields.fcProtected);
            return fi && unsignedValue(fi) != 0;
        }();
        field_info* protocols = firstField(edt, fields.protocols);
        const std::string stack = protocols ? fieldValueText(protocols) : "";
        if (field_info* msg = firstField(edt, fields.msgnr)) {
            ++report.eapolKeyFrames;
            const std::uint64_t n = unsignedValue(msg);
            if (n >= 1 && n <= 4)
                ++report.handshakeMessages[n - 1];
        }
        // Protected management frames (802.11w) are not counted: only data matters here.
        const bool isData =
            stack.find(":data") != std::string::npos || stack.find(":llc") != std::string::npos;
        if (isProtected && isData) {
            ++report.protectedFrames;
            tvbuff_t* plain = decryptedSource(edt);
            field_info* iv = firstField(edt, fields.ccmpIv);
            if (!iv)
                iv = firstField(edt, fields.tkipIv);
            field_info* fc = firstField(edt, fields.fc);
            if (plain && iv && fc && iv->start > fc->start) {
                ++report.decryptedFrames;
                // Rebuild the frame as if sent in the clear: link header and MAC header
                // as captured (Protected bit cleared, 802.11-2020 9.2.4.1.9), then the
                // plaintext, without the CCMP/TKIP header and MIC.
                RecordForExport out;
                out.frame = number;
                out.epochNs = static_cast<std::int64_t>(rec.ts.secs) * 1000000000 + rec.ts.nsecs;
                const std::uint8_t* raw = ws_buffer_start_ptr(&buf);
                out.bytes.assign(raw, raw + iv->start);
                out.bytes[static_cast<std::size_t>(fc->start) + 1] &= 0xbf;
                const std::vector<std::uint8_t> payload = tvbBytes(plain);
                out.bytes.insert(out.bytes.end(), payload.begin(), payload.end());
                // Radiotap says the frame ends with an FCS: keep the captured one so the
                // reader strips four bytes of FCS, not of plaintext.
                field_info* fcsFlag = firstField(edt, fields.radiotapFcs);
                if (fcsFlag && unsignedValue(fcsFlag) != 0 && fd.cap_len >= 4)
                    out.bytes.insert(out.bytes.end(), raw + fd.cap_len - 4, raw + fd.cap_len);
                out.originalLength = static_cast<std::uint32_t>(out.bytes.size());
                out.decrypted = true;
                decrypted.push_back(std::move(out));
            }
        }

        // The sequence keeps fd's per-frame protocol data (TCP timestamps, 802.11 IFS,
        // key state) for re-dissection, so fd itself is not destroyed: the copy owns it.
        frame_data* kept = frame_data_sequence_add(prov.frames, &fd);
        prov.prev_dis = kept;
        prov.prev_cap = kept;
        epan_dissect_reset(edt);
        wtap_rec_reset(&rec);
    }
    epan_dissect_free(edt);
    frames = number;
    if (err == 0)
        g_free(errInfo); // a last read's warning
    if (err != 0) {
        // Frames before the damage stay usable, as in the native reader, and every
        // frame shown says so.
        damageReason = std::string(err == WTAP_ERR_SHORT_READ ? "file is cut short" : "damaged") +
                 " in frame " + std::to_string(number + 1) + " (" + wtap_strerror(err) +
                 (errInfo ? std::string(": ") + errInfo : std::string()) + "); " +
                 (number ? "frames 1-" + std::to_string(number) + " are readable"
                         : std::string("no frame could be read"));
        damage = path + ": " + damageReason;
        g_messages = damage;
        g_free(errInfo);
        if (number == 0) {
            error = g_messages;
            return false;
        }
    }
    wtap_sequential_close(wth);
    postseq_cleanup_all_protocols();
    prov.ref = nullptr;
    prov.prev_dis = nullptr;
    prov.prev_cap = nullptr;
    return true;
}

void closeSession(void* session)
{
    delete static_cast<Backend*>(session);
    g_sessionOpen = false;
}

void* openSession(const std::string& path, const EpanOptions& options,
                  const EpanIsolation& isolation, std::string& error, bool& refused)
{
    if (g_sessionOpen) {
        error = path + ": another Wireshark session is open in this process (libwireshark "
                       "keeps one dissection state per process)";
        return nullptr;
    }
    if (!initialiseOnce(options.useUserProfile, isolation, error, refused))
        return nullptr;
    g_messages.clear();

    clearWlanKeys();
    for (const WpaKey& key : options.keys) {
        std::string keyError;
        if (!setPreference(wpaKeyRecord(key), keyError)) {
            error = "WPA key rejected: " + keyError;
            clearWlanKeys();
            return nullptr;
        }
    }
    // GeoIP lookups from IP addresses crash inside maxmind_db_lookup_ipv4 when the tree
    // is built in this embedding (measured with 4.0.17: wmem_map_insert on a map the
    // MaxMind module never set up), and the isolated profile names no GeoIP database
    // anyway, so they are switched off. Callers' preferences come after and may differ.
    for (const char* preference : {"ip.use_geoip:FALSE", "ipv6.use_geoip:FALSE"})
        if (!setPreference(preference, error))
            return nullptr;
    for (const std::string& preference : options.preferences)
        if (!setPreference(preference, error))
            return nullptr;
    prefs_apply_all();

    auto impl = std::make_unique<Backend>();
    impl->path = path;
    int err = 0;
    gchar* errInfo = nullptr;
    // Random access is needed to re-read frames on demand (wtap_seek_read).
    impl->wth = wtap_open_offline(path.c_str(), WTAP_TYPE_AUTO, &err, &errInfo, TRUE);
    if (!impl->wth) {
        error = path + ": " + (err ? wtap_strerror(err) : "cannot open") +
                (errInfo ? std::string(" (") + errInfo + ")" : "");
        g_free(errInfo);
        return nullptr;
    }
    g_free(errInfo); // a warning on a file that opened
    impl->fileType = wtap_file_type_subtype(impl->wth);
    impl->fileEncap = wtap_file_encap(impl->wth);
    wtap_set_cb_new_secrets(impl->wth, secrets_wtap_callback);
    impl->prov.wth = impl->wth;
    impl->prov.frames = new_frame_data_sequence();
    impl->epan = epan_new(&impl->prov, &kProviderFuncs);
    g_sessionOpen = true;
    if (!impl->firstPass(!options.keys.empty(), error)) {
        closeSession(impl.release());
        return nullptr;
    }
    return impl.release();
}

std::uint64_t frameCount(const void* session)
{
    return static_cast<const Backend*>(session)->frames;
}

const std::string& damage(const void* session)
{
    return static_cast<const Backend*>(session)->damage;
}

const DecryptionReport& decryption(const void* session)
{
    return static_cast<const Backend*>(session)->report;
}

bool dissect(void* session, std::uint64_t frame, PacketDetail& detail, std::string& error)
{
    Backend& s = *static_cast<Backend*>(session);
    if (frame > s.frames && frame != 0 && !s.damage.empty()) {
        error = s.path + ": no frame " + std::to_string(frame) + ": the capture ends at frame " +
                std::to_string(s.frames) + ": " + s.damageReason;
        return false;
    }
    if (frame == 0 || frame > s.frames) {
        error = s.path + ": no frame " + std::to_string(frame) + " (the capture has " +
                std::to_string(s.frames) + " frames, numbered from 1)";
        return false;
    }
    frame_data* fd = frame_data_sequence_find(s.prov.frames, static_cast<guint32>(frame));
    int err = 0;
    if (!s.readAgain(fd, err)) {
        error = s.path + ": frame " + std::to_string(frame) +
                " cannot be read again: " + (err ? wtap_strerror(err) : "unknown error");
        wtap_rec_reset(&s.rec);
        return false;
    }
    epan_dissect_t* edt = epan_dissect_new(s.epan, TRUE, TRUE);
    tvbuff_t* tvb = frameTvb(ws_buffer_start_ptr(&s.buf), *fd);
    epan_dissect_run(edt, s.fileType, &s.rec, tvb, fd, nullptr);

    detail = PacketDetail{};
    detail.frame = frame;
    std::unordered_map<const tvbuff_t*, std::int32_t> sources;
    for (GSList* src = edt->pi.data_src; src; src = src->next) {
        auto* source = static_cast<const struct data_source*>(src->data);
        DataSource out;
        char* name = get_data_source_name(source);
        out.name = name ? name : "";
        wmem_free(nullptr, name);
        tvbuff_t* sourceTvb = get_data_source_tvb(source);
        out.bytes = tvbBytes(sourceTvb);
        sources.emplace(sourceTvb, static_cast<std::int32_t>(detail.sources.size()));
        detail.sources.push_back(std::move(out));
    }
    if (edt->tree)
        appendChildren(edt->tree, detail.tree, sources);
    for (const PacketTreeNode& top : detail.tree)
        if (top.abbrev == "frame")
            for (const PacketTreeNode& child : top.children)
                if (child.abbrev == "frame.protocols")
                    detail.protocols = child.value;
    epan_dissect_free(edt);
    wtap_rec_reset(&s.rec);
    return true;
}

bool writeDecryptedPcap(void* session, const std::string& outPath, std::string& error)
{
    Backend& s = *static_cast<Backend*>(session);
    const std::uint32_t linkType = pcapLinkType(s.fileEncap);
    if (linkType == 0) {
        error = s.path + ": decrypted export supports Ethernet, 802.11 and radiotap captures "
                         "with one link type";
        return false;
    }
    std::ofstream out(outPath, std::ios::binary | std::ios::trunc);
    if (!out) {
        error = outPath + ": cannot write: " + std::strerror(errno);
        return false;
    }
    auto put32 = [&](std::uint32_t v) { out.write(reinterpret_cast<const char*>(&v), 4); };
    auto put16 = [&](std::uint16_t v) { out.write(reinterpret_cast<const char*>(&v), 2); };
    // Nanosecond pcap (magic a1b23c4d) keeps pcapng timestamps exact.
    put32(0xa1b23c4d);
    put16(2);
    put16(4);
    put32(0);
    put32(0);
    put32(262144);
    put32(linkType);

    std::size_t next = 0;
    for (std::uint64_t number = 1; number <= s.frames; ++number) {
        const RecordForExport* replacement = nullptr;
        if (next < s.decrypted.size() && s.decrypted[next].frame == number)
            replacement = &s.decrypted[next++];
        frame_data* fd = frame_data_sequence_find(s.prov.frames, static_cast<guint32>(number));
        int err = 0;
        if (!s.readAgain(fd, err)) {
            error = s.path + ": frame " + std::to_string(number) + " cannot be read again";
            wtap_rec_reset(&s.rec);
            return false;
        }
        const std::uint8_t* data = ws_buffer_start_ptr(&s.buf);
        std::uint32_t capLen = fd->cap_len, origLen = fd->pkt_len;
        if (replacement) {
            data = replacement->bytes.data();
            capLen = origLen = static_cast<std::uint32_t>(replacement->bytes.size());
        }
        put32(static_cast<std::uint32_t>(s.rec.ts.secs));
        put32(static_cast<std::uint32_t>(s.rec.ts.nsecs));
        put32(capLen);
        put32(origLen);
        out.write(reinterpret_cast<const char*>(data), capLen);
        wtap_rec_reset(&s.rec);
    }
    out.close();
    if (!out) {
        error = outPath + ": write failed";
        return false;
    }
    return true;
}

std::string runtimeVersion()
{
    int major = 0, minor = 0, micro = 0;
    epan_get_version_number(&major, &minor, &micro);
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(micro);
}

} // namespace

} // namespace windscope::dissect::wireshark

extern "C" __attribute__((visibility("default"))) const windscope::dissect::wireshark::EpanModuleApi*
windscope_epan_module_api()
{
    namespace ws = windscope::dissect::wireshark;
    static const ws::EpanModuleApi api{ws::kEpanModuleAbi, ws::openSession,  ws::closeSession,
                                       ws::frameCount,     ws::dissect,      ws::decryption,
                                       ws::writeDecryptedPcap, ws::runtimeVersion, ws::damage};
    return &api;
}
