// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The boundary between EpanSession and the module that holds libwireshark
// (epan_backend.cpp, built as its own shared object). Loading libwireshark costs a
// process about 45 ms of relocations and page faults, so programs link only the
// session's front (epan_session.cpp), which loads the module on first use: the
// commands that never show a Wireshark tree never pay for it.
//
// Module and programs come from the same build (same compiler, same standard
// library), so C++ types cross the boundary as they are; kEpanModuleAbi changes
// whenever this table does.

#include "epan_isolation.h"
#include "epan_session.h"

#include <cstdint>
#include <string>

namespace windscope::dissect::wireshark {

inline constexpr int kEpanModuleAbi = 2;

struct EpanModuleApi
{
    int abi = kEpanModuleAbi;
    // A session is the module's own object; null from open with error set, and refused
    // set when libwireshark was not started because it could not be isolated.
    void* (*open)(const std::string& path, const EpanOptions& options,
                  const EpanIsolation& isolation, std::string& error, bool& refused);
    void (*close)(void* session);
    std::uint64_t (*frameCount)(const void* session);
    bool (*dissect)(void* session, std::uint64_t frame, PacketDetail& detail, std::string& error);
    const DecryptionReport& (*decryption)(const void* session);
    bool (*writeDecryptedPcap)(void* session, const std::string& outPath, std::string& error);
    std::string (*runtimeVersion)();
    const std::string& (*damage)(const void* session);
};

} // namespace windscope::dissect::wireshark

// The module's one exported symbol.
extern "C" const windscope::dissect::wireshark::EpanModuleApi* windscope_epan_module_api();
inline constexpr const char* kEpanModuleEntry = "windscope_epan_module_api";
