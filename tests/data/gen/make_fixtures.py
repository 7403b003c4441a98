#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small hand-made fixtures in tests/data/ (run from the repo root:
python3 tests/data/gen/make_fixtures.py). Standard library only; output is
deterministic, so a re-run reproduces the committed files byte for byte."""
import gzip
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def pcap(path, linktype, packets, nanosecond=False, big_endian=False, snaplen=65535):
    e = ">" if big_endian else "<"
    magic = 0xA1B23C4D if nanosecond else 0xA1B2C3D4
    data = struct.pack(e + "IHHiIII", magic, 2, 4, 0, 0, snaplen, linktype)
    for ts_ns, frame, *orig in packets:
        sec, frac = divmod(ts_ns if nanosecond else ts_ns // 1000, 1_000_000_000 if nanosecond else 1_000_000)
        data += struct.pack(e + "IIII", sec, frac, len(frame), orig[0] if orig else len(frame))
        data += frame
    with open(os.path.join(OUT, path), "wb") as f:
        f.write(data)
    return data


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(src, dst, payload, proto=6, ident=1):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, 0x4000, 64, proto, 0,
                      bytes(src), bytes(dst))
    hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
    return hdr + payload


def tcp(sport, dport, seq, ack, flags, window, payload=b"", options=b""):
    while len(options) % 4:
        options += b"\x01"
    off = (20 + len(options)) // 4
    return struct.pack("!HHIIHHHH", sport, dport, seq, ack, off << 12 | flags, window, 0, 0) + options + payload


def eth(payload, ethertype=0x0800, vlan=None):
    head = b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01"
    if vlan is not None:
        head += struct.pack("!HH", 0x8100, vlan)
    return head + struct.pack("!H", ethertype) + payload


A, B = [10, 0, 0, 1], [10, 0, 0, 2]
SYN, ACK, PSH, FIN = 0x02, 0x10, 0x08, 0x01
MSS_WS_SACK_TS = (b"\x02\x04\x05\xb4" + b"\x04\x02" + b"\x08\x0a\x00\x00\x00\x01\x00\x00\x00\x00"
                  + b"\x01\x03\x03\x07")


def handshake_and_data(wrap, t0=1_600_000_000_000_000_000):
    """Handshake, three data segments, a retransmission after 300 ms, FIN exchange.
    Times are nanoseconds since the epoch."""
    us = 1000
    pk = []
    pk.append((t0, wrap(ipv4(A, B, tcp(40000, 80, 1000, 0, SYN, 64240, options=MSS_WS_SACK_TS)))))
    pk.append((t0 + 10_000 * us, wrap(ipv4(B, A, tcp(80, 40000, 5000, 1001, SYN | ACK, 65160, options=MSS_WS_SACK_TS)))))
    pk.append((t0 + 10_100 * us, wrap(ipv4(A, B, tcp(40000, 80, 1001, 5001, ACK, 502)))))
    for i in range(3):
        pk.append((t0 + (11_000 + i * 10) * us,
                   wrap(ipv4(A, B, tcp(40000, 80, 1001 + i * 100, 5001, ACK | PSH, 502, b"x" * 100)))))
    pk.append((t0 + 21_000 * us, wrap(ipv4(B, A, tcp(80, 40000, 5001, 1201, ACK, 509)))))
    # The third segment's ACK never comes: RTO-driven retransmission 300 ms later.
    pk.append((t0 + 321_000 * us, wrap(ipv4(A, B, tcp(40000, 80, 1201, 5001, ACK | PSH, 502, b"x" * 100)))))
    pk.append((t0 + 331_000 * us, wrap(ipv4(B, A, tcp(80, 40000, 5001, 1301, ACK, 509)))))
    pk.append((t0 + 340_000 * us, wrap(ipv4(A, B, tcp(40000, 80, 1301, 5001, ACK | FIN, 502)))))
    pk.append((t0 + 350_000 * us, wrap(ipv4(B, A, tcp(80, 40000, 5001, 1302, ACK | FIN, 509)))))
    pk.append((t0 + 350_100 * us, wrap(ipv4(A, B, tcp(40000, 80, 1302, 5002, ACK, 502)))))
    return pk


def ipv6_with_extension(payload, forward=True):
    src = bytes.fromhex("20010db8000000000000000000000001")
    dst = bytes.fromhex("20010db8000000000000000000000002")
    if not forward:
        src, dst = dst, src
    hop_by_hop = struct.pack("!BB", 6, 0) + b"\x01\x04\x00\x00\x00\x00"  # PadN option
    return struct.pack("!IHBB16s16s", 6 << 28, len(hop_by_hop) + len(payload), 0, 64, src, dst) + hop_by_hop + payload


def main():
    # 1. A clean Ethernet flow with an 802.1Q tag.
    vlan = pcap("vlan-tcp.pcap", 1, [(t, eth(p, vlan=100)) for t, p in handshake_and_data(lambda x: x)])
    # 2. The same flow as IPv6 with a hop-by-hop extension header, nanosecond pcap, big-endian.
    def v6(ip4):
        return eth(ipv6_with_extension(ip4[20:], forward=ip4[12:16] == bytes(A)), 0x86DD)
    pcap("ipv6-ext-tcp-be-ns.pcap", 1, [(t, v6(p)) for t, p in handshake_and_data(lambda x: x)],
         nanosecond=True, big_endian=True)
    # 3. Cut short in the middle of packet 7's data.
    with open(os.path.join(OUT, "truncated.pcap"), "wb") as f:
        f.write(vlan[: 24 + sum(16 + len(eth(p, vlan=100)) for _, p in handshake_and_data(lambda x: x)[:6]) + 30])
    # 4. gzip-compressed copy of the VLAN file (mtime 0 keeps the bytes stable).
    with open(os.path.join(OUT, "vlan-tcp.pcap.gz"), "wb") as f:
        f.write(gzip.compress(vlan, mtime=0))
    # 5. Malformed packets among good ones: bad IPv4 total length, TCP data offset 3,
    #    truncated Ethernet header, a bogus radiotap in an Ethernet file is not possible,
    #    so that case lives in radiotap-bogus.pcap.
    good = handshake_and_data(lambda x: x)
    bad_len = bytearray(ipv4(A, B, tcp(40000, 80, 1001, 5001, ACK, 502)))
    bad_len[2:4] = struct.pack("!H", 10)  # total length below the header length
    bad_off = bytearray(ipv4(A, B, tcp(40000, 80, 1001, 5001, ACK, 502)))
    bad_off[32] = 0x30  # data offset 3 words
    pk = [(t, eth(p)) for t, p in good[:3]]
    pk.append((good[3][0] - 500_000, eth(bytes(bad_len))))
    pk.append((good[3][0] - 400_000, eth(bytes(bad_off))))
    pk.append((good[3][0] - 300_000, b"\x02\x00\x00\x00"))
    pk += [(t, eth(p)) for t, p in good[3:]]
    pcap("malformed-mix.pcap", 1, pk)
    # 6. Radiotap with presence bits claiming fields past the header length.
    rt = struct.pack("<BBHI", 0, 0, 8, 0x0000FFFF)
    frame = rt + b"\x08\x02" + b"\x00" * 22
    rt_ok = struct.pack("<BBHIB", 0, 0, 9, 0x2, 0x00)  # flags field only
    pcap("radiotap-bogus.pcap", 127, [(1_600_000_000_000_000_000, frame), (1_600_000_000_001_000_000, rt_ok + b"\xd4\x00\x00\x00" + b"\x02\x00\x00\x00\x00\x01")])
    # 7. An empty capture (header only) and a text file that is no capture.
    pcap("empty.pcap", 1, [])
    with open(os.path.join(OUT, "not-a-capture.txt"), "w") as f:
        f.write("This is a text file, not a packet capture.\n")


if __name__ == "__main__":
    main()
