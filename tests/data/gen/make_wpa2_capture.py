#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Turn an open (unencrypted) 802.11 capture into a WPA2-PSK (CCMP) one.

For every (BSSID, station) pair with data frames, a 4-way handshake (IEEE 802.11-2020
12.7.6, EAPOL-Key descriptor version 2: HMAC-SHA1 MIC, AES key wrap) is inserted just
before the pair's first data frame, its keys derived from the passphrase and SSID
(PMK = PBKDF2-HMAC-SHA1, 4096 iterations, J.4.1; PTK = PRF-384, 12.7.1.3). Every data
frame with a body is then CCMP-encrypted (12.5.3: nonce from priority, A2 and PN; AAD
from the masked header), with the Protected bit set. A MAC retry keeps the PN of the
frame it repeats, as a real transmitter does. Group-addressed frames use the GTK the
handshake delivered.

A frame cut short by the capture's snap length cannot be encrypted (CCMP needs the
whole MPDU for its MIC), so its missing bytes are filled with zeros in both outputs: the
lab captures keep headers only, and TCP analysis reads headers only.

Two captures are written with the same frames and times: --plain (the handshake frames
and the data in the clear) and --encrypted. Decrypting the second with the passphrase
must give back the first, so TCP analysis of both must agree.

Needs python3-cryptography. Deterministic for a given --seed.

    make_wpa2_capture.py IN.pcap --ssid NAME --passphrase PASS \\
        --plain OUT-plain.pcap --encrypted OUT-wpa2.pcap [--seed N]
"""

import argparse
import hashlib
import hmac
import struct
import sys
import zlib

from cryptography.hazmat.primitives.ciphers.aead import AESCCM
from cryptography.hazmat.primitives.keywrap import aes_key_wrap

LINKTYPE_IEEE802_11 = 105
LINKTYPE_RADIOTAP = 127

# RSN element: version 1, group CCMP, one pairwise CCMP, one AKM PSK, no capabilities.
RSN_IE = bytes.fromhex("30140100000fac040100000fac040100000fac020000")


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        endian = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        endian = ">"
    else:
        sys.exit(f"{path}: not a classic pcap file")
    nano = magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    _, _, _, _, snaplen, linktype = struct.unpack(endian + "HHiIII", data[4:24])
    if linktype not in (LINKTYPE_IEEE802_11, LINKTYPE_RADIOTAP):
        sys.exit(f"{path}: link type {linktype}; 802.11 (105) or radiotap (127) needed")
    records, pos = [], 24
    while pos + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack(endian + "IIII", data[pos:pos + 16])
        pos += 16
        records.append([sec, frac if nano else frac * 1000, orig, bytearray(data[pos:pos + incl])])
        pos += incl
    return linktype, snaplen, records


def write_pcap(path, linktype, records):
    with open(path, "wb") as f:
        # Nanosecond pcap, so the inserted frames' times are exact.
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144, linktype))
        for sec, nsec, orig, payload in records:
            f.write(struct.pack("<IIII", sec, nsec, len(payload), max(orig, len(payload))))
            f.write(payload)


def radiotap_split(linktype, frame):
    """(link header, 802.11 frame, FCS present)."""
    if linktype == LINKTYPE_IEEE802_11:
        return b"", frame, False
    length = struct.unpack("<H", frame[2:4])[0]
    present = struct.unpack("<I", frame[4:8])[0]
    fcs = False
    if present & 0x2:  # Flags field: after TSFT (8-byte aligned) when present
        offset = 8
        while present & 0x80000000:  # extended presence bitmaps
            present = struct.unpack("<I", frame[offset:offset + 4])[0]
            offset += 4
        first = struct.unpack("<I", frame[4:8])[0]
        if first & 0x1:
            offset = (offset + 7) & ~7
            offset += 8
        fcs = bool(frame[offset] & 0x10)
    return bytes(frame[:length]), bytearray(frame[length:]), fcs


def header_length(fc0, fc1):
    ftype, subtype = (fc0 >> 2) & 3, fc0 >> 4
    if ftype != 2:
        return None
    length = 24
    if (fc1 & 3) == 3:
        length += 6
    if subtype & 0x8:  # QoS
        length += 2
        if fc1 & 0x80:  # +HTC
            length += 4
    return length


def prf(key, label, data, nbytes):
    out, i = b"", 0
    while len(out) < nbytes:
        out += hmac.new(key, label + b"\x00" + data + bytes([i]), hashlib.sha1).digest()
        i += 1
    return out[:nbytes]


class Pair:
    def __init__(self, bssid, sta, pmk, seed):
        self.bssid, self.sta = bssid, sta
        h = hashlib.sha256(seed + bssid + sta).digest()
        self.anonce = hashlib.sha256(b"anonce" + h).digest()
        self.snonce = hashlib.sha256(b"snonce" + h).digest()
        self.gtk = hashlib.sha256(b"gtk" + seed + bssid).digest()[:16]
        ptk = prf(pmk, b"Pairwise key expansion",
                  min(bssid, sta) + max(bssid, sta) + min(self.anonce, self.snonce) +
                  max(self.anonce, self.snonce), 48)
        self.kck, self.kek, self.tk = ptk[:16], ptk[16:32], ptk[32:48]


def eapol_key(pair, info, key_length, replay, nonce, key_data, mic):
    body = struct.pack(">BHHQ", 2, info, key_length, replay) + nonce + bytes(16) + bytes(8) + bytes(8)
    body += bytes(16) + struct.pack(">H", len(key_data)) + key_data
    frame = bytearray(struct.pack(">BBH", 2, 3, len(body)) + body)
    if mic:
        # MIC over the whole EAPOL frame with the MIC field zero (12.7.2), HMAC-SHA1-128.
        digest = hmac.new(pair.kck, bytes(frame), hashlib.sha1).digest()[:16]
        frame[4 + 77:4 + 93] = digest
    return bytes(frame)


def handshake_frames(pair):
    """The four EAPOL-Key messages as 802.11 data frames (FromDS for the AP's, ToDS)."""
    llc = bytes.fromhex("aaaa03000000888e")
    gtk_kde = bytes.fromhex("dd16000fac010100") + pair.gtk
    wrapped_data = RSN_IE + gtk_kde
    if len(wrapped_data) % 8:
        wrapped_data += b"\xdd" + bytes(7 - len(wrapped_data) % 8)
    msgs = [
        (True, eapol_key(pair, 0x008A, 16, 1, pair.anonce, b"", False)),
        (False, eapol_key(pair, 0x010A, 0, 1, pair.snonce, RSN_IE, True)),
        (True, eapol_key(pair, 0x13CA, 16, 2, pair.anonce, aes_key_wrap(pair.kek, wrapped_data), True)),
        (False, eapol_key(pair, 0x030A, 0, 2, bytes(32), b"", True)),
    ]
    frames = []
    for i, (from_ap, eapol) in enumerate(msgs):
        if from_ap:
            hdr = bytes([0x08, 0x02]) + bytes(2) + pair.sta + pair.bssid + pair.bssid
        else:
            hdr = bytes([0x08, 0x01]) + bytes(2) + pair.bssid + pair.sta + pair.bssid
        hdr += struct.pack("<H", (4000 + i) << 4)
        frames.append(hdr + llc + eapol)
    return frames


def ccmp_encrypt(frame, hdrlen, key, pn, key_id):
    fc0, fc1 = frame[0], frame[1]
    qos = bool((fc0 >> 4) & 0x8)
    a2 = bytes(frame[10:16])
    # AAD (12.5.3.3.3): FC with subtype bits 4-6, Retry, PwrMgt and MoreData masked, Protected
    # set (and Order masked in QoS frames); A1-A3; SC with the sequence number masked; A4; QC TID.
    aad_fc1 = (fc1 & ~0x38) | 0x40
    if qos:
        aad_fc1 &= ~0x80
    aad = bytes([fc0 & 0x8F, aad_fc1]) + bytes(frame[4:22]) + bytes([frame[22] & 0x0F, 0])
    offset = 24
    if (fc1 & 3) == 3:
        aad += bytes(frame[24:30])
        offset = 30
    priority = 0
    if qos:
        priority = frame[offset] & 0x0F
        aad += bytes([frame[offset] & 0x0F, 0])
    nonce = bytes([priority]) + a2 + pn.to_bytes(6, "big")
    pn_bytes = pn.to_bytes(6, "little")
    ccmp_header = bytes([pn_bytes[0], pn_bytes[1], 0, 0x20 | (key_id << 6)]) + pn_bytes[2:6]
    sealed = AESCCM(key, tag_length=8).encrypt(nonce, bytes(frame[hdrlen:]), aad)
    out = bytearray(frame[:hdrlen]) + ccmp_header + sealed
    out[1] |= 0x40
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input")
    parser.add_argument("--ssid", required=True)
    parser.add_argument("--passphrase", required=True)
    parser.add_argument("--plain", required=True)
    parser.add_argument("--encrypted", required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    linktype, _, records = read_pcap(args.input)
    pmk = hashlib.pbkdf2_hmac("sha1", args.passphrase.encode(), args.ssid.encode(), 4096, 32)
    seed = str(args.seed).encode()
    pairs, next_pn, last_sent = {}, {}, {}
    plain_out, encrypted_out = [], []
    minimal_radiotap = bytes([0, 0, 8, 0, 0, 0, 0, 0])
    stats = {"encrypted": 0, "handshakes": 0, "group": 0, "filled": 0}

    for sec, nsec, orig, raw in records:
        if orig > len(raw):
            raw = raw + bytes(orig - len(raw))
            stats["filled"] += 1
        link, frame, has_fcs = radiotap_split(linktype, raw)
        body_end = len(frame) - (4 if has_fcs else 0)
        hdrlen = header_length(frame[0], frame[1]) if len(frame) >= 24 else None
        ds = frame[1] & 3 if len(frame) >= 2 else 0
        is_data_with_body = (hdrlen is not None and not ((frame[0] >> 4) & 0x4)
                             and body_end > hdrlen and ds in (1, 2) and not frame[1] & 0x40)
        if not is_data_with_body:
            plain_out.append((sec, nsec, orig, bytes(raw)))
            encrypted_out.append((sec, nsec, orig, bytes(raw)))
            continue
        a1, a2, a3 = bytes(frame[4:10]), bytes(frame[10:16]), bytes(frame[16:22])
        bssid, sta = (a1, a2) if ds == 1 else (a2, a1)
        group = ds == 2 and a1[0] & 1
        if group:
            sta = None
        if sta is not None and (bssid, sta) not in pairs:
            pair = Pair(bssid, sta, pmk, seed)
            pairs[(bssid, sta)] = pair
            stats["handshakes"] += 1
            t = sec * 1_000_000_000 + nsec
            for i, eapol_frame in enumerate(handshake_frames(pair)):
                when = t - (4 - i) * 1_000_000
                head = link and minimal_radiotap
                rec = (when // 1_000_000_000, when % 1_000_000_000, len(head) + len(eapol_frame),
                       head + eapol_frame)
                plain_out.append(rec)
                encrypted_out.append(rec)
        if group:
            pair = next((p for (b, _), p in pairs.items() if b == bssid), None)
            if pair is None:  # no handshake with this AP yet: leave it in the clear
                plain_out.append((sec, nsec, orig, bytes(raw)))
                encrypted_out.append((sec, nsec, orig, bytes(raw)))
                continue
            key, key_id = pair.gtk, 1
            stats["group"] += 1
        else:
            pair = pairs[(bssid, sta)]
            key, key_id = pair.tk, 0
        transmitter = (a2, key_id)
        seqctl = bytes(frame[22:24])
        retry = bool(frame[1] & 0x08)
        previous = last_sent.get(transmitter)
        if retry and previous and previous[0] == seqctl:
            pn = previous[1]
        else:
            pn = next_pn.get(transmitter, 1)
            next_pn[transmitter] = pn + 1
        last_sent[transmitter] = (seqctl, pn)
        sealed = ccmp_encrypt(frame[:body_end], hdrlen, key, pn, key_id)
        if has_fcs:
            sealed += struct.pack("<I", zlib.crc32(bytes(sealed)) & 0xFFFFFFFF)
        out = link + bytes(sealed)
        stats["encrypted"] += 1
        plain_out.append((sec, nsec, orig, bytes(raw)))
        encrypted_out.append((sec, nsec, orig + (len(out) - len(raw)), out))

    write_pcap(args.plain, linktype, plain_out)
    write_pcap(args.encrypted, linktype, encrypted_out)
    print(f"{len(records)} frames; {stats['handshakes']} handshake(s) inserted; "
          f"{stats['encrypted']} data frames encrypted ({stats['group']} group-addressed); "
          f"{stats['filled']} frames cut short by the snap length filled with zeros")


if __name__ == "__main__":
    main()
