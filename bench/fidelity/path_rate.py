#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The path's rate a window-limited capture derives, against the simulated truth.

Draws window-limited ns-3 runs (scenario D: buffer 16-256 KiB, bottleneck 1-100 Mb/s,
one-way delay 2-150 ms; scenarios A and E with a wired link slower than their air),
derives each capture's `path.bottleneck_mbps` (server link and station), predicts the
effect of `--fix max-window=2097152` from the server-link capture and compares it with
the same run simulated with a 2 MiB buffer (goodput from `analyze --json` on both).
Prints one line per run and the median and 90th percentile of the errors.

  bench/fidelity/path_rate.py --cli build/ci/app/cli/windscope-cli \\
      --lab LAB_BUILD_DIR --out OUT_DIR [--runs 30] [--seed 1]

LAB_BUILD_DIR holds the scenario-* programs (the ns-3 lab's build directory). Runs
one simulation or CLI call at a time. Python standard library only.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def sim(lab, program, out, params):
    if not os.path.exists(os.path.join(out, "meta.json")):
        run([os.path.join(lab, program), "--out=" + out] + ["--%s=%s" % kv for kv in params.items()])
    with open(os.path.join(out, "meta.json")) as f:
        return json.load(f)


def flow_of(meta):
    f = meta["flow"]
    return f["server"] + "-" + f["client"]


def goodput(cli, cap, meta):
    server = meta["flow"]["server"].rsplit(":", 1)[0]
    a = json.loads(run([cli, "analyze", cap, "--json"]))
    best = 0
    for c in a["connections"]:
        for d in c["directions"]:
            if d["from"].startswith(server):
                best = max(best, d["goodput_bps"] or 0)
    return best


def derived_rate(cli, cap, flow):
    s = json.loads(run([cli, "replay", cap, "--flow", flow, "--dump-scenario", "-"]))
    return s["path"]["bottleneck_mbps"]


def predicted_effect(cli, cap, flow):
    r = json.loads(run([cli, "replay", cap, "--flow", flow, "--fix", "max-window=2097152", "--json"]))
    return r["fixed"]["goodput_bps"] / r["baseline"]["goodput_bps"]


def rate_mbps(text):
    return float(text.replace("Mbps", ""))


def draw(rng, i):
    """One run's scenario: (program, params, truth rate in Mb/s at the server link, fixed params)."""
    kind = i % 5
    seed = rng.randint(1, 10000)
    if kind < 3:  # D: the wired bottleneck below the 802.11n MCS7 hop (about 100 Mb/s of TCP)
        rate = round(math.exp(rng.uniform(math.log(1), math.log(80))), 1)
        buf = rng.choice([16384, 32768, 65536, 131072, 262144])
        p = {"buffer": buf, "bnRate": "%gMbps" % rate, "bnDelay": rng.randint(2, 150), "seed": seed,
             "simTime": 10}
        return "scenario-d-wan-variants", p, rate, dict(p, buffer=2097152)
    if kind == 3:  # A: wired slower than its 802.11a 12 Mb/s air
        rate = round(rng.uniform(1, 8), 1)
        buf = rng.choice([16384, 32768, 65536])
        p = {"wiredRate": "%gMbps" % rate, "wiredDelay": rng.randint(5, 100), "scanInterval": 0,
             "sndBuf": buf, "rcvBuf": buf, "bytes": 0, "maxTime": 10, "seed": seed}
        return "scenario-a-periodic-scan", p, rate, dict(p, sndBuf=2097152, rcvBuf=2097152)
    rate = round(rng.uniform(2, 20), 1)  # E: wired slower than its 802.11g 54 Mb/s air
    buf = rng.choice([16384, 32768, 65536])
    p = {"wiredRate": "%gMbps" % rate, "wiredDelay": rng.randint(5, 100), "readSize": 65536, "perRead": 0,
         "perByte": 0, "rcvBuf": buf, "sndBuf": 131072, "bytes": 0, "maxTime": 10, "seed": seed}
    return "scenario-e-slow-receiver", p, rate, dict(p, rcvBuf=2097152, sndBuf=2097152)


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))] if v else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--lab", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    rows = []
    print("run program truth_mbps server_mbps sta_mbps err_server err_sta effect_pred effect_true err_effect params")
    for i in range(a.runs):
        program, params, truth, fixed = draw(rng, i)
        name = "%s-%d" % (program.split("-")[1], i)
        out = os.path.join(a.out, name)
        try:
            meta = sim(a.lab, program, out, params)
            meta_fix = sim(a.lab, program, out + "-fix", fixed)
            flow = flow_of(meta)
            wired = os.path.join(out, "wired-server.pcap")
            sta = os.path.join(out, "wifi-sta.pcap")
            r_server = derived_rate(a.cli, wired, flow)
            r_sta = derived_rate(a.cli, sta, flow) if os.path.exists(sta) else float("nan")
            pred = predicted_effect(a.cli, wired, flow)
            true_effect = goodput(a.cli, os.path.join(out + "-fix", "wired-server.pcap"), meta_fix) / goodput(
                a.cli, wired, meta)
        except (subprocess.CalledProcessError, KeyError, ZeroDivisionError, ValueError) as e:
            print("%s failed: %s" % (name, str(e).splitlines()[0] if str(e) else type(e).__name__), file=sys.stderr)
            continue
        # The scenario's rate carries the headers: compare on the wire, as the links are rated.
        row = dict(name=name, truth=truth, server=r_server, sta=r_sta, err_server=abs(r_server / truth - 1),
                   err_sta=abs(r_sta / truth - 1), pred=pred, true=true_effect,
                   err_effect=abs(pred / true_effect - 1))
        rows.append(row)
        print("%s %s %.2f %.2f %.2f %.3f %.3f %.2f %.2f %.3f %s" % (
            name, program, truth, r_server, r_sta, row["err_server"], row["err_sta"], pred, true_effect,
            row["err_effect"], json.dumps(params, sort_keys=True)), flush=True)
    print()
    for key, label in (("err_server", "rate error at the server link"), ("err_sta", "rate error at the station"),
                       ("err_effect", "max-window effect error (fixed/baseline against the truth)")):
        v = [r[key] for r in rows if not math.isnan(r[key])]
        print("%-58s n=%d median %.3f p90 %.3f within10%% %d" % (label, len(v), pct(v, 0.5), pct(v, 0.9),
                                                                 sum(1 for x in v if x <= 0.10)))


if __name__ == "__main__":
    main()
