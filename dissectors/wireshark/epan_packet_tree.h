// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Inside the libwireshark module only: a dissected frame's protocol tree, field values
// and data sources as the plain records of epan_module.h.

#include "epan_module.h"

#include <epan/proto.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace windscope::dissect::wireshark {

// A field's value as Wireshark displays it; "" for protocols and text-only items.
std::string fieldValueText(field_info* fi);

// Every captured byte of a data source.
std::vector<std::uint8_t> tvbBytes(tvbuff_t* tvb);

// The nodes under tree, appended to out; sources numbers each data source (0 = frame).
void appendChildren(proto_tree* tree, std::vector<PacketTreeNode>& out,
                    const std::unordered_map<const tvbuff_t*, std::int32_t>& sources);

} // namespace windscope::dissect::wireshark
