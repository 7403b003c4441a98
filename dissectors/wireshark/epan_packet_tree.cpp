// SPDX-License-Identifier: GPL-3.0-or-later
// Wireshark's protocol tree and field values as the session's plain records.
#include "epan_packet_tree.h"

#include <epan/ftypes/ftypes.h>
#include <epan/proto.h>
#include <epan/tvbuff.h>

namespace windscope::dissect::wireshark {

namespace {

void appendNode(proto_node* node, std::vector<PacketTreeNode>& out,
                const std::unordered_map<const tvbuff_t*, std::int32_t>& sources);

struct ChildContext
{
    std::vector<PacketTreeNode>* out;
    const std::unordered_map<const tvbuff_t*, std::int32_t>* sources;
};

void appendChild(proto_node* node, gpointer data)
{
    auto* context = static_cast<ChildContext*>(data);
    appendNode(node, *context->out, *context->sources);
}

} // namespace

std::string fieldValueText(field_info* fi)
{
    const ftenum type = fi->hfinfo->type;
    if (type == FT_NONE || type == FT_PROTOCOL)
        return {};
    char* text = fvalue_to_string_repr(nullptr, &fi->value, FTREPR_DISPLAY, fi->hfinfo->display);
    if (!text)
        return {};
    std::string value(text);
    wmem_free(nullptr, text);
    return value;
}

std::vector<std::uint8_t> tvbBytes(tvbuff_t* tvb)
{
    const guint length = tvb_captured_length(tvb);
    std::vector<std::uint8_t> bytes(length);
    if (length)
        tvb_memcpy(tvb, bytes.data(), 0, length);
    return bytes;
}

namespace {

void appendNode(proto_node* node, std::vector<PacketTreeNode>& out,
                const std::unordered_map<const tvbuff_t*, std::int32_t>& sources)
{
    field_info* fi = PNODE_FINFO(node);
    if (!fi)
        return;
    PacketTreeNode item;
    if (fi->rep)
        item.label = fi->rep->representation;
    else {
        char label[ITEM_LABEL_LENGTH];
        label[0] = '\0';
        proto_item_fill_label(fi, label);
        item.label = label;
    }
    // Text-only items are registered under the internal "text" field.
    if (fi->hfinfo->id != hf_text_only)
        item.abbrev = fi->hfinfo->abbrev;
    item.value = fieldValueText(fi);
    if (fi->ds_tvb) {
        auto it = sources.find(fi->ds_tvb);
        item.source = it == sources.end() ? 0 : it->second;
    }
    item.offset = fi->start;
    item.length = fi->length;
    item.generated = FI_GET_FLAG(fi, FI_GENERATED) != 0;
    item.hidden = FI_GET_FLAG(fi, FI_HIDDEN) != 0;
    ChildContext context{&item.children, &sources};
    proto_tree_children_foreach(node, appendChild, &context);
    out.push_back(std::move(item));
}

} // namespace

void appendChildren(proto_tree* tree, std::vector<PacketTreeNode>& out,
                    const std::unordered_map<const tvbuff_t*, std::int32_t>& sources)
{
    ChildContext context{&out, &sources};
    proto_tree_children_foreach(tree, appendChild, &context);
}

} // namespace windscope::dissect::wireshark
