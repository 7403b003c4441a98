#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the fuzz seed corpora (run from the repo root: python3 tests/fuzz/make_seeds.py).

corpus/dissectors/NAME.bin   2-byte little-endian link type, then one frame
                             (the input layout of fuzz_dissectors, see fuzz_targets.h)
corpus/reader/NAME.*         small capture files: pcap (both byte orders, us/ns),
                             pcapng (one and two link types), gzip, a cut-short file

Every frame is built here from the header layouts, so the seeds carry no third-party
traffic. Names starting with "bad-" are deliberately malformed: the regression
replayer expects at least one malformed packet from them and none from the others.
Standard library only; the output is deterministic, so a re-run reproduces the
committed files byte for byte.
"""
import gzip
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
DISSECTORS = os.path.join(HERE, "corpus", "dissectors")
READER = os.path.join(HERE, "corpus", "reader")

# LINKTYPE_* numbers (tcpdump.org link-layer header types).
NULL, ETHERNET, RAW, IEEE802_11, LOOP, SLL, PRISM, RADIOTAP, AVS, PPI, IPV4, IPV6, SLL2 = (
    0, 1, 101, 105, 108, 113, 119, 127, 163, 192, 228, 229, 276)

SERVER4, CLIENT4 = bytes([10, 77, 0, 1]), bytes([10, 128, 0, 2])
SERVER6 = bytes.fromhex("20010db8000000000000000000000001")
CLIENT6 = bytes.fromhex("20010db8000000000000000000000002")
AP, STA, ROUTER = (bytes.fromhex(h) for h in ("025741500001", "025753000001", "02000000fe01"))


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


# --- IP and TCP ---------------------------------------------------------------------------

SYN, ACK, PSH, FIN = 0x02, 0x10, 0x08, 0x01
SYN_OPTIONS = (b"\x02\x04\x05\xb4" + b"\x01\x03\x03\x0a" + b"\x04\x02"
               + b"\x08\x0a\x00\x00\x10\x00\x00\x00\x00\x00")  # MSS, WS 10, SACK_PERM, TS
DATA_OPTIONS = b"\x01\x01\x08\x0a\x00\x00\x10\x10\x00\x00\x20\x20"  # NOP NOP TS


def sack_options(blocks):
    opt = b"\x01\x01\x05" + bytes([2 + 8 * len(blocks)])
    for left, right in blocks:
        opt += struct.pack("!II", left, right)
    return DATA_OPTIONS + opt


def tcp(sport, dport, seq, ack, flags, window, payload=b"", options=b"", src=SERVER4, dst=CLIENT4):
    while len(options) % 4:
        options += b"\x01"
    off = (20 + len(options)) // 4
    seg = struct.pack("!HHIIHHHH", sport, dport, seq, ack, off << 12 | flags, window, 0, 0) + options + payload
    if len(src) == 4:
        pseudo = src + dst + struct.pack("!BBH", 0, 6, len(seg))
    else:
        pseudo = src + dst + struct.pack("!IxxxB", len(seg), 6)
    return seg[:16] + struct.pack("!H", csum(pseudo + seg)) + seg[18:]


def ipv4(payload, proto=6, src=SERVER4, dst=CLIENT4, ident=1, frag=0x4000, total=None):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total or 20 + len(payload), ident, frag, 64, proto, 0, src, dst)
    return hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:] + payload


def ipv6(payload, nxt=6, src=SERVER6, dst=CLIENT6, ext=b""):
    return struct.pack("!IHBB", 0x60000000, len(ext) + len(payload), nxt, 64) + src + dst + ext + payload


def data_segment(n=64, **kw):
    return tcp(47001, 32768, 1001, 501, ACK | PSH, 512, bytes(range(n)), DATA_OPTIONS, **kw)


def v4_syn():
    return ipv4(tcp(32768, 47001, 1000, 0, SYN, 64240, options=SYN_OPTIONS, src=CLIENT4, dst=SERVER4),
                src=CLIENT4, dst=SERVER4)


def v4_data(n=64):
    return ipv4(data_segment(n))


def v4_sack_ack():
    seg = tcp(32768, 47001, 501, 1001, ACK, 500, options=sack_options([(3897, 5345), (6793, 8241)]),
              src=CLIENT4, dst=SERVER4)
    return ipv4(seg, src=CLIENT4, dst=SERVER4)


def v6_data():
    return ipv6(data_segment(src=SERVER6, dst=CLIENT6))


# --- link layers --------------------------------------------------------------------------

def eth(payload, ethertype=0x0800, tags=()):
    head = STA + ROUTER
    for tpid, vid in tags:
        head += struct.pack("!HH", tpid, vid)
    return head + struct.pack("!H", ethertype) + payload


def llc_snap(ethertype=0x0800):
    return b"\xaa\xaa\x03\x00\x00\x00" + struct.pack("!H", ethertype)


def qos_data(body, from_ap=True, retry=False, seq=100, qos=0, order=False, four=False, protected=False,
             subtype=8):
    flags = (0x02 if from_ap else 0x01) | (0x08 if retry else 0) | (0x40 if protected else 0) | (0x80 if order else 0)
    if four:
        flags |= 0x03
    fc = bytes([0x08 | subtype << 4, flags])
    a1, a2, a3 = (STA, AP, ROUTER) if from_ap else (AP, STA, ROUTER)
    hdr = fc + struct.pack("<H", 44) + a1 + a2 + a3 + struct.pack("<H", seq << 4)
    if four:
        hdr += ROUTER
    if subtype & 0x8:
        hdr += struct.pack("<H", qos)
    if order:
        hdr += b"\x00\x00\x00\x00"  # HT Control
    return hdr + body


def ack_frame(ra=AP):
    return b"\xd4\x00\x00\x00" + ra


def block_ack():
    return b"\x94\x00\x00\x00" + AP + STA + struct.pack("<HH", 0x0005, 100 << 4) + b"\xff" * 8


def beacon():
    body = struct.pack("<QHH", 123456789, 100, 0x0411) + b"\x00\x06Windsc" + b"\x01\x08\x8c\x12\x98\x24\xb0\x48\x60\x6c"
    return b"\x80\x00\x00\x00" + b"\xff" * 6 + AP + AP + struct.pack("<H", 7 << 4) + body


def null_pm():
    return b"\x48\x11\x00\x00" + AP + STA + AP + struct.pack("<H", 9 << 4)


def fcs(frame):
    return frame + struct.pack("<I", zlib.crc32(frame))


def amsdu(msdus):
    out = b""
    for i, m in enumerate(msdus):
        sub = ROUTER + STA + struct.pack("!H", len(m)) + m
        if i + 1 < len(msdus):
            sub += b"\0" * (-len(sub) % 4)
        out += sub
    return out


def radiotap(fields, present_words, pad_flags=None):
    """fields: the field bytes already laid out (aligned from offset 4 + 4*words)."""
    hdr_len = 4 + 4 * len(present_words) + len(fields)
    return struct.pack("<BBH", 0, 0, hdr_len) + b"".join(struct.pack("<I", w) for w in present_words) + fields


def rt_basic(flags=0x10, signal=-40, ampdu=True):
    # Flags, Rate, Channel, dBm signal (+ A-MPDU status at offset 16), as the bench
    # generator writes them.
    present = 1 << 1 | 1 << 2 | 1 << 3 | 1 << 5 | (1 << 20 if ampdu else 0)
    f = struct.pack("<BBHHb", flags, 108, 5180, 0x0140, signal)
    if ampdu:
        f += b"\0" + struct.pack("<IHBB", 7, 0x00CC, 0, 0)
    return radiotap(f, [present])


def rt_tsft_mcs_chains():
    # Linux iwlwifi style: TSFT, Flags, Channel, dBm signal, RX flags, MCS in word 0
    # with Radiotap-namespace + Ext, then two per-chain words with signal + antenna.
    w0 = 1 << 0 | 1 << 1 | 1 << 3 | 1 << 5 | 1 << 14 | 1 << 19 | 1 << 29 | 1 << 31
    w1 = 1 << 5 | 1 << 11 | 1 << 29 | 1 << 31
    w2 = 1 << 5 | 1 << 11
    start = 4 + 12  # after three presence words
    f = b"\0" * (-(start) % 8)  # TSFT aligned to 8
    f += struct.pack("<QB", 1_000_000, 0x22)  # TSFT, flags: short preamble + data pad
    f += b"\0" + struct.pack("<HH", 2437, 0x00A0) + struct.pack("<b", -52)
    f += b"\0" + struct.pack("<H", 0) + struct.pack("<BBB", 0x07, 0x05, 7)  # RX flags, MCS 7 HT40 SGI
    f += struct.pack("<bB", -54, 0) + struct.pack("<bB", -56, 1)
    return radiotap(f, [w0, w1, w2])


def rt_vht_he_vendor():
    # Flags, VHT (MCS 9, 2 streams, 80 MHz, short GI), HE (data MCS 11 known), then a
    # vendor namespace whose 4 data bytes must be skipped as a whole.
    w0 = 1 << 1 | 1 << 21 | 1 << 23 | 1 << 30 | 1 << 31
    w1 = 0x00000001  # a bit in the vendor namespace: unknown to us, skipped
    f = struct.pack("<B", 0x00) + b"\0"  # flags at 12, VHT aligned to 14
    f += struct.pack("<HBB4sBBH", 0x0044, 0x04, 4, bytes([0x92, 0, 0, 0]), 0, 0, 0)
    f += struct.pack("<6H", 0x0020, 0, 0x0B00, 0, 0, 0)
    f += b"\x00\x10\x18\x01" + struct.pack("<H", 4) + b"\xde\xad\xbe\xef"
    return radiotap(f, [w0, w1])


def ppi(dlt, frame, fields):
    body = b"".join(struct.pack("<HH", t, len(d)) + d for t, d in fields)
    return struct.pack("<BBHI", 0, 0, 8 + len(body), dlt) + body + frame


def ppi_common(flags=0x0001, signal=-45):
    return 2, struct.pack("<QHHHHBBbb", 5_000_000, flags, 108, 5180, 0x0140, 0, 0, signal, -95)


def ppi_n_mac_phy():
    return 4, struct.pack("<IIB3xBB", 0x12, 42, 0, 7, 1) + b"\0" * 34


def prism(frame, big_endian=False, msgcode=0x44):
    e = ">" if big_endian else "<"
    # The ten items of DIDmsg_lnxind_wlansniffrm, in order (a 144-byte header).
    items = [(1, 0x10), (2, 1234), (3, 6), (4, (-50) & 0xFFFFFFFF), (5, 0), (6, 0), (7, (-95) & 0xFFFFFFFF),
             (8, 108), (9, 0), (10, len(frame))]
    body = b"".join(struct.pack(e + "IHHI", n << 16 | 0x44, 0, 4, v) for n, v in items)
    head = struct.pack(e + "II", msgcode, 24 + len(body)) + b"wlan0".ljust(16, b"\0")
    return head + body + frame


def avs(frame):
    head = struct.pack(">IIQQIIIIIIiiII", 0x80211001, 64, 1_000_000, 2_000_000, 4, 36, 540, 1, 0, 2, -48, -96, 0, 0)
    return head + frame


def sll(payload, proto=0x0800):
    return struct.pack("!HHH8sH", 0, 1, 6, STA + b"\0\0", proto) + payload


def sll2(payload, proto=0x86DD):
    return struct.pack("!HHIHBB8s", proto, 0, 2, 1, 0, 6, STA + b"\0\0") + payload


def capwap_wlan(inner, swap_fc=False):
    # RFC 5415 4.3: preamble 0, HLEN 2 (8 bytes), RID 1, WBID 1, T=1 (native 802.11).
    word = 2 << 19 | 1 << 14 | 1 << 9 | 1 << 8
    if swap_fc:  # as Cisco access points send it (Wireshark's capwap.swap_fc)
        inner = inner[1:2] + inner[0:1] + inner[2:]
    capwap = struct.pack("!IHH", word, 0, 0) + inner
    udp = struct.pack("!HHHH", 12345, 5247, 8 + len(capwap), 0) + capwap
    return ipv4(udp, proto=17, src=bytes([192, 0, 2, 10]), dst=bytes([192, 0, 2, 1]))


# --- the seeds ----------------------------------------------------------------------------

def wlan_data(ip_packet, **kw):
    return qos_data(llc_snap(0x0800 if ip_packet[0] >> 4 == 4 else 0x86DD) + ip_packet, **kw)


def dissector_seeds():
    d = {}
    d["eth-ipv4-tcp-syn"] = (ETHERNET, eth(v4_syn()))
    d["eth-ipv4-tcp-data"] = (ETHERNET, eth(v4_data()))
    d["eth-ipv4-tcp-sack"] = (ETHERNET, eth(v4_sack_ack()))
    d["eth-vlan-ipv4-tcp"] = (ETHERNET, eth(v4_data(), tags=[(0x8100, 100)]))
    d["eth-qinq-ipv6-tcp"] = (ETHERNET, eth(v6_data(), 0x86DD, tags=[(0x88A8, 10), (0x8100, 20)]))
    frame = v4_data(32)
    d["eth-8023-llc-snap-ipv4-tcp"] = (ETHERNET, STA + ROUTER + struct.pack("!H", 8 + len(frame)) + llc_snap() + frame)
    hbh = bytes([6, 0, 1, 4, 0, 0, 0, 0])  # hop-by-hop: next TCP, PadN
    d["eth-ipv6-hopbyhop-tcp"] = (ETHERNET, eth(ipv6(data_segment(src=SERVER6, dst=CLIENT6), nxt=0, ext=hbh), 0x86DD))
    d["eth-ipv4-ipip-tcp"] = (ETHERNET, eth(ipv4(v4_data(16), proto=4, src=bytes([192, 0, 2, 1]), dst=bytes([192, 0, 2, 2]))))
    d["eth-ipv4-fragment"] = (ETHERNET, eth(ipv4(data_segment(16), frag=0x2000)))
    d["eth-ipv4-udp-capwap-wlan-tcp"] = (ETHERNET, eth(capwap_wlan(wlan_data(v4_data(24), from_ap=False))))
    d["eth-ipv4-udp-capwap-swapped-fc"] = (ETHERNET, eth(capwap_wlan(wlan_data(v4_data(24), from_ap=False), swap_fc=True)))
    d["sll-ipv4-tcp"] = (SLL, sll(v4_data()))
    d["sll2-ipv6-tcp"] = (SLL2, sll2(v6_data()))
    d["null-ipv4-tcp"] = (NULL, struct.pack("<I", 2) + v4_data())
    d["loop-ipv6-tcp"] = (LOOP, struct.pack(">I", 24) + v6_data())
    d["raw-ipv4-tcp"] = (RAW, v4_data())
    d["ipv4-tcp"] = (IPV4, v4_sack_ack())
    d["ipv6-tcp"] = (IPV6, v6_data())
    d["radiotap-qosdata-tcp-fcs"] = (RADIOTAP, rt_basic() + fcs(wlan_data(v4_data())))
    d["radiotap-qosdata-retry"] = (RADIOTAP, rt_basic() + fcs(wlan_data(v4_data(), retry=True)))
    d["radiotap-ack"] = (RADIOTAP, rt_basic(ampdu=False) + fcs(ack_frame()))
    d["radiotap-beacon"] = (RADIOTAP, rt_basic(ampdu=False) + fcs(beacon()))
    d["radiotap-badfcs-flag"] = (RADIOTAP, rt_basic(flags=0x50) + wlan_data(v4_data()) + b"\0\0\0\0")
    d["radiotap-chains-datapad"] = (RADIOTAP, rt_tsft_mcs_chains() + qos_data(b"\0\0" + llc_snap() + v4_data(), from_ap=False))
    d["radiotap-vht-he-vendor"] = (RADIOTAP, rt_vht_he_vendor() + wlan_data(v4_sack_ack(), from_ap=False, order=True))
    d["radiotap-amsdu"] = (RADIOTAP, rt_basic(flags=0) + qos_data(amsdu([llc_snap() + v4_data(20), llc_snap() + v4_data(8)]), qos=0x0080))
    d["wlan-qosdata-4addr-tcp"] = (IEEE802_11, wlan_data(v6_data(), four=True))
    d["wlan-null-pm"] = (IEEE802_11, null_pm())
    d["wlan-blockack"] = (IEEE802_11, block_ack())
    d["wlan-protected"] = (IEEE802_11, qos_data(b"\x01\x00\x00\x20\x00\x00\x00\x00" + bytes(40), protected=True))
    d["wlan-data-nonqos-tcp"] = (IEEE802_11, qos_data(llc_snap() + v4_data(), subtype=0))
    d["ppi-common-wlan-tcp"] = (PPI, ppi(IEEE802_11, fcs(wlan_data(v4_data())), [ppi_common()]))
    d["ppi-nmacphy-wlan-tcp"] = (PPI, ppi(IEEE802_11, wlan_data(v4_data()), [ppi_common(flags=0), ppi_n_mac_phy()]))
    d["ppi-ethernet"] = (PPI, ppi(ETHERNET, eth(v4_data()), []))
    d["prism-le-wlan-tcp"] = (PRISM, prism(wlan_data(v4_data())))
    d["prism-be-wlan-tcp"] = (PRISM, prism(wlan_data(v4_data()), big_endian=True, msgcode=0x41))
    d["avs-wlan-tcp"] = (AVS, avs(wlan_data(v4_data())))
    d["prism-carrying-avs"] = (PRISM, avs(wlan_data(v4_data())))
    # Deliberately malformed: each must be counted as malformed, not dropped.
    d["bad-eth-truncated"] = (ETHERNET, eth(b"")[:10])
    d["bad-ipv4-ihl"] = (ETHERNET, eth(b"\x43" + v4_data()[1:]))
    d["bad-ipv4-len-below-header"] = (ETHERNET, eth(ipv4(data_segment(), total=12)))
    seg = bytearray(data_segment())
    seg[12] = 0x20  # data offset 2 words
    d["bad-tcp-doff"] = (ETHERNET, eth(ipv4(bytes(seg))))
    d["bad-udp-length"] = (ETHERNET, eth(ipv4(struct.pack("!HHHH", 1, 5247, 4, 0) + bytes(8), proto=17)))
    d["bad-raw-version"] = (RAW, b"\x70" + v4_data()[1:])
    d["bad-sll-truncated"] = (SLL, sll(b"")[:9])
    d["bad-null-truncated"] = (NULL, b"\x02\x00")
    d["bad-radiotap-itlen-beyond"] = (RADIOTAP, struct.pack("<BBHI", 0, 0, 200, 0x2E) + bytes(20))
    d["bad-radiotap-fields-overrun"] = (RADIOTAP, struct.pack("<BBHI", 0, 0, 8, 0x01) + fcs(ack_frame()))
    d["bad-wlan-truncated-header"] = (IEEE802_11, wlan_data(v4_data())[:12])
    d["bad-ppi-field-overrun"] = (PPI, struct.pack("<BBHI", 0, 0, 12, IEEE802_11) + struct.pack("<HH", 2, 20) + ack_frame())
    d["bad-prism-msglen"] = (PRISM, struct.pack("<II", 0x44, 5000) + bytes(40))
    d["bad-avs-length"] = (AVS, struct.pack(">II", 0x80211001, 16) + bytes(30))
    return d


def pcap(linktype, frames, nanosecond=False, big_endian=False, snaplen=65535):
    e = ">" if big_endian else "<"
    out = struct.pack(e + "IHHiIII", 0xA1B23C4D if nanosecond else 0xA1B2C3D4, 2, 4, 0, 0, snaplen, linktype)
    t = 1_700_000_000_000_000_000
    for i, frame in enumerate(frames):
        orig = len(frame)
        if isinstance(frame, tuple):
            frame, orig = frame
        ts = t + i * 1_250_000
        sec, frac = divmod(ts, 10**9) if nanosecond else divmod(ts // 1000, 10**6)
        out += struct.pack(e + "IIII", sec, frac, len(frame), orig) + frame
    return out


def pcapng(interfaces, packets):
    def block(kind, body):
        body += b"\0" * (-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", kind, n) + body + struct.pack("<I", n)
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    for linktype in interfaces:
        # if_tsresol = 9: nanosecond timestamps (pcapng 4.2 option 9).
        out += block(1, struct.pack("<HHI", linktype, 0, 65535) + struct.pack("<HHB3x", 9, 1, 9) + b"\0\0\0\0")
    t = 1_700_000_000_000_000_000
    for i, (iface, frame) in enumerate(packets):
        ts = t + i * 1_000_000
        padded = frame + b"\0" * (-len(frame) % 4)
        out += block(6, struct.pack("<IIIII", iface, ts >> 32, ts & 0xFFFFFFFF, len(frame), len(frame)) + padded)
    return out


def reader_seeds(d):
    frames = lambda *names: [d[n][1] for n in names]
    r = {}
    eth_pcap = pcap(ETHERNET, frames("eth-ipv4-tcp-syn", "eth-ipv4-tcp-data", "eth-ipv4-tcp-sack", "eth-qinq-ipv6-tcp"))
    r["eth-le-usec.pcap"] = eth_pcap
    r["eth-le-usec.pcap.gz"] = gzip.compress(eth_pcap, mtime=0)
    r["cut-short-eth.pcap"] = eth_pcap[:-40]
    data = d["radiotap-qosdata-tcp-fcs"][1]
    snapped = (data[:90], len(data))  # snap length cut: the FCS is not captured
    r["radiotap-be-nsec.pcap"] = pcap(RADIOTAP, [data, d["radiotap-ack"][1], d["radiotap-qosdata-retry"][1], snapped,
                                                 d["radiotap-chains-datapad"][1]], nanosecond=True, big_endian=True)
    r["wlan-105.pcap"] = pcap(IEEE802_11, frames("wlan-qosdata-4addr-tcp", "wlan-null-pm", "wlan-blockack", "wlan-protected"))
    r["ppi.pcap"] = pcap(PPI, frames("ppi-common-wlan-tcp", "ppi-nmacphy-wlan-tcp", "ppi-ethernet"))
    r["prism.pcap"] = pcap(PRISM, frames("prism-le-wlan-tcp", "prism-carrying-avs"))
    r["avs.pcap"] = pcap(AVS, frames("avs-wlan-tcp"))
    r["sll.pcap"] = pcap(SLL, frames("sll-ipv4-tcp"))
    r["sll2.pcap"] = pcap(SLL2, frames("sll2-ipv6-tcp"))
    r["null.pcap"] = pcap(NULL, frames("null-ipv4-tcp"))
    r["loop.pcap"] = pcap(LOOP, frames("loop-ipv6-tcp"))
    r["raw.pcap"] = pcap(RAW, frames("raw-ipv4-tcp"))
    r["ipv4-ipv6.pcap"] = pcap(IPV4, frames("ipv4-tcp"))
    r["eth-capwap.pcap"] = pcap(ETHERNET, frames("eth-ipv4-udp-capwap-wlan-tcp", "eth-ipv4-ipip-tcp", "eth-ipv4-fragment"))
    r["bad-mixed.pcap"] = pcap(ETHERNET, frames("eth-ipv4-tcp-data", "bad-tcp-doff", "eth-ipv4-tcp-sack"))
    r["eth.pcapng"] = pcapng([ETHERNET], [(0, f) for f in frames("eth-ipv4-tcp-syn", "eth-ipv4-tcp-data")])
    # Two link types in one section: libpcap refuses this, the native reader takes over.
    r["two-linktypes.pcapng"] = pcapng([ETHERNET, RADIOTAP], [(0, d["eth-ipv4-tcp-data"][1]), (1, data),
                                                               (0, d["eth-ipv4-tcp-sack"][1])])
    return r


def main():
    for directory in (DISSECTORS, READER):
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
    d = dissector_seeds()
    for name, (linktype, frame) in sorted(d.items()):
        with open(os.path.join(DISSECTORS, name + ".bin"), "wb") as f:
            f.write(struct.pack("<H", linktype) + frame)
    for name, content in sorted(reader_seeds(d).items()):
        assert len(content) < 4096, name
        with open(os.path.join(READER, name), "wb") as f:
            f.write(content)
    print("wrote %d dissector seeds and %d reader seeds" % (len(d), len(reader_seeds(d))))


if __name__ == "__main__":
    main()
