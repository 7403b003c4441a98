#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Windscope's 802.11 view of the field corpus next to tshark's, as a table.

For every 802.11 capture of the shared public set (make_wlan_field_truth.CAPTURES), per
station Windscope lists: frames sent and received by Windscope (`events --json`,
stations[].frames_sent / frames_received) and by tshark (-Y 'wlan.ta == MAC' and
-Y 'wlan.ra == MAC', bad-FCS frames left out), with the difference in percent; then per
capture the individually addressed deauthentication and disassociation frames, refused
(re)association/authentication responses and unanswered association attempts that
tshark lists (classified as in make_wlan_field_truth.py), how many of those frames are
the evidence of a Windscope event of the same kind, how many such events Windscope
reports, and the closed scans shorter than the stated lower bound (5 ms; must be 0).

usage: wlan_field_table.py WINDSCOPE_CLI SHARED_PUBLIC_DIR
"""
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_wlan_field_truth import CAPTURES, GOOD, BROADCAST, fields  # noqa: E402

KINDS = ["deauthentication", "disassociation", "association_refused", "attempt_unanswered"]
MIN_SCAN_MS = 5.0


def tshark_view(path):
    rows = fields(path, GOOD, ["frame.number", "frame.time_relative", "wlan.fc.type_subtype", "wlan.ta",
                               "wlan.ra", "wlan.bssid", "wlan.fixed.status_code"])
    sent, received = collections.Counter(), collections.Counter()
    mgmt = []
    for r in rows:
        r += [""] * (7 - len(r))
        num, t, st, ta, ra, bssid, status = r
        st = int(st, 16) if st else -1
        if ta:
            sent[ta] += 1
        if ra:
            received[ra] += 1
        if st in (0, 1, 2, 3, 10, 11, 12) and ra != BROADCAST:
            mgmt.append((int(num), float(t), st, ta, ra, bssid, int(status, 16) if status else None))
    frames = collections.defaultdict(list)  # kind -> frame numbers
    for i, (num, t, st, ta, ra, bssid, status) in enumerate(mgmt):
        from_ap = ta == bssid
        if st == 12:
            frames["deauthentication"].append(num)
        elif st == 10:
            frames["disassociation"].append(num)
        elif from_ap and st in (1, 3, 11) and status not in (0, None):
            frames["association_refused"].append(num)
        elif not from_ap and st in (0, 2):
            answered = any(m[2] in (1, 3) and m[3] == bssid and m[4] == ta and m[1] - t <= 1.0 for m in mgmt[i + 1:])
            if not answered:
                frames["attempt_unanswered"].append(num)
    return sent, received, frames


def windscope_view(cli, path):
    out = subprocess.run([cli, "events", path, "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main():
    cli, src = sys.argv[1], sys.argv[2]
    worst = 0.0
    short_scans_total = 0
    print("%-46s %-17s %8s %8s %6s %8s %8s %6s" % ("capture", "station", "ws_sent", "ts_sent", "diff%",
                                                    "ws_recv", "ts_recv", "diff%"))
    summary = []
    for name in CAPTURES:
        path = os.path.join(src, name)
        sent, received, frames = tshark_view(path)
        ws = windscope_view(cli, path)
        for s in ws["stations"]:
            mac = s["mac"]

            def pct(a, b):
                return 0.0 if a == b else (100.0 * (a - b) / b if b else float("inf"))
            ds, dr = pct(s["frames_sent"], sent[mac]), pct(s["frames_received"], received[mac])
            worst = max(worst, abs(ds), abs(dr))
            print("%-46s %-17s %8d %8d %6.2f %8d %8d %6.2f" % (name, mac, s["frames_sent"], sent[mac], ds,
                                                               s["frames_received"], received[mac], dr))
        covered = collections.Counter()
        events = collections.Counter()
        for e in ws["events"]:
            if e["kind"] in KINDS:
                events[e["kind"]] += 1
                evidence = set(e.get("evidence_frames", []))
                covered[e["kind"]] += sum(1 for f in frames[e["kind"]] if f in evidence)
        short = sum(1 for e in ws["events"]
                    if e["kind"] == "scan" and not e["open_ended"] and e["duration_ms"] < MIN_SCAN_MS)
        absences = sum(1 for e in ws["events"] if e["kind"] == "absence")
        beacon_losses = sum(1 for e in ws["events"] if e["kind"] == "beacon_loss")
        short_scans_total += short
        summary.append((name, frames, covered, events, short, absences, beacon_losses))
    print()
    print("%-46s %s %9s %6s %9s" % ("capture", " ".join("%-26s" % k for k in KINDS), "scans<5ms", "absence",
                                      "bcn_loss"))
    print("%-46s %s" % ("", " ".join("%-26s" % "tshark/in-event/ws-events" for _ in KINDS)))
    for name, frames, covered, events, short, absences, beacon_losses in summary:
        cells = " ".join("%-26s" % ("%d/%d/%d" % (len(frames[k]), covered[k], events[k])) for k in KINDS)
        print("%-46s %s %9d %6d %9d" % (name, cells, short, absences, beacon_losses))
    print()
    print("largest per-station frame count difference: %.2f %%" % worst)
    print("closed scans shorter than %.0f ms: %d" % (MIN_SCAN_MS, short_scans_total))


if __name__ == "__main__":
    main()
