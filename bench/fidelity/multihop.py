#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Multi-hop chains on fresh ns-3 runs: the capture at the sender's radio (n0) of
scenario C (an ad hoc string), read by windscope-cli against the run's ground truth.

For each drawn run (hops, A-MPDU size N and a second size N2, HT mode, spacing and
range, TCP variant, seed) the scenario is simulated twice, with --ampdu=N and
--ampdu=N2. Reported per run:
  hops_read      the chain length the replay's derivation read (its scenario's mac.hops)
  cwnd_err       median |inferred - true| / true of the cwnd at n0, each captured data
                 segment matched by sequence number to the sender's own cwnd at its
                 send (tx_segments.csv)
  calib_err      replay --json calibration_error.goodput (baseline against the capture)
  effect_true    goodput(N2 run) / goodput(N run), both from `analyze --json`
  effect_pred    the replay's fixed / baseline goodput with --fix ampdu-max=N2
  effect_err     |effect_pred / effect_true - 1|
Then the distributions. Runs are sequential (one simulator or CLI process at a time).

  bench/fidelity/multihop.py --cli build/ci/app/cli/windscope-cli \\
      --lab LAB_OUT/ns3/build --out LAB_OUT/multihop --runs 30 --seed 1
Rerunning with the same --seed draws the same runs; the results are written to
OUT/results.jsonl and reused when a run's outputs are already there.
"""
import argparse
import csv
import json
import os
import random
import statistics
import subprocess
import sys

HT_MODES = ["HtMcs1", "HtMcs3", "HtMcs5", "HtMcs7"]
VARIANTS = ["TcpNewReno", "TcpCubic", "TcpWestwoodPlus", "TcpVeno"]


def draw(rng, index):
    hops = rng.randint(1, 4)
    ampdu = rng.choice([1, 2, 4, 8, 16])
    ampdu2 = rng.choice([a for a in [1, 2, 4, 8, 16] if a != ampdu])
    spacing = rng.choice([80, 100, 120])
    # Range between one and two spacings: only neighbours hear each other (the chain's
    # hidden terminals two hops apart), as the lab's string.
    rng_factor = rng.uniform(1.2, 1.9)
    return {
        "id": "r%03d" % index,
        "hops": hops,
        "ampdu": ampdu,
        "ampdu2": ampdu2,
        "htMode": rng.choice(HT_MODES),
        "spacing": spacing,
        "range": round(spacing * rng_factor),
        "tcp": rng.choice(VARIANTS),
        "seed": rng.randint(1, 1000),
    }


def simulate(lab, out, p, ampdu):
    if os.path.exists(os.path.join(out, "meta.json")):
        return
    os.makedirs(out, exist_ok=True)
    cmd = [os.path.join(lab, "scenario-c-aggregation"), "--out=" + out, "--hops=%d" % p["hops"],
           "--ampdu=%d" % ampdu, "--htMode=" + p["htMode"], "--spacing=%d" % p["spacing"],
           "--range=%d" % p["range"], "--tcp=" + p["tcp"], "--seed=%d" % p["seed"]]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def cli(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + r.stderr.strip())
    return r.stdout


def data_goodput(binary, pcap):
    j = json.loads(cli(binary, "analyze", pcap, "--json"))
    best = 0.0
    for c in j["connections"]:
        for d in c["directions"]:
            best = max(best, d["goodput_bps"])
    return best


# The project's model of each ns-3 variant, to tell the vantage's error from the
# variant identification's (cwnd_err_true_model).
MODEL_OF = {"TcpNewReno": "newreno", "TcpCubic": "cubic", "TcpWestwoodPlus": "westwood-plus", "TcpVeno": "veno"}


def cwnd_error(binary, run_dir, model=None):
    pcap = os.path.join(run_dir, "wifi-n0.pcap")
    seg = list(csv.DictReader(cli(binary, "analyze", pcap, "--csv", "--segments").splitlines()))
    extra = ["--model", model] if model else []
    rows = list(csv.DictReader(cli(binary, "cwnd", pcap, "--flow", "0", "--csv", *extra).splitlines()))
    if not seg or not rows:
        return None
    # The data direction: the one carrying most payload segments (the other has the
    # client's request).
    payload = [s for s in seg if s["connection"] == "0" and int(s["tcp.len"]) > 0]
    directions = [s["direction"] for s in payload]
    data_direction = max(set(directions), key=directions.count) if directions else "1"
    sent = [s for s in payload if s["direction"] == data_direction]
    if len(sent) != len(rows):
        return None
    truth = {}
    with open(os.path.join(run_dir, "tx_segments.csv")) as f:
        for t in csv.DictReader(f):
            truth.setdefault(int(t["seq"]), []).append((float(t["time_s"]), int(t["cwnd_bytes"])))
    errors = []
    for s, r in zip(sent, rows):
        sends = truth.get(int(s["tcp.seq"]))
        if not sends:
            continue
        when = float(s["epoch_s"])
        true = [c for (t, c) in sends if t <= when + 1e-6]
        true_cwnd = true[-1] if true else sends[0][1]
        errors.append(abs(float(r["cwnd_bytes"]) - true_cwnd) / true_cwnd)
    return statistics.median(errors) if errors else None


def measure(binary, p, base, fix):
    pcap = os.path.join(base, "wifi-n0.pcap")
    g_base = data_goodput(binary, pcap)
    g_fix = data_goodput(binary, os.path.join(fix, "wifi-n0.pcap"))
    rep = json.loads(cli(binary, "replay", pcap, "--flow", "0", "--fix", "ampdu-max=%d" % p["ampdu2"], "--json"))
    mac = json.loads(cli(binary, "replay", pcap, "--flow", "0", "--dump-scenario", "-")).get("mac", {})
    effect_true = g_fix / g_base if g_base else None
    base_g = rep["baseline"]["goodput_bps"]
    effect_pred = rep["fixed"]["goodput_bps"] / base_g if base_g else None
    return {
        **p,
        "goodput_capture": g_base,
        "goodput_fix_truth": g_fix,
        "hops_read": mac.get("hops", 1) if mac.get("enabled", False) else 1,
        "mac_enabled": mac.get("enabled", False),
        "cwnd_err": cwnd_error(binary, base),
        "cwnd_err_true_model": cwnd_error(binary, base, MODEL_OF.get(p["tcp"])),
        "calib_err": rep["calibration_error"]["goodput"],
        "effect_true": effect_true,
        "effect_pred": effect_pred,
        "effect_err": abs(effect_pred / effect_true - 1) if effect_true and effect_pred else None,
    }


def quantiles(values):
    v = sorted(x for x in values if x is not None)
    if not v:
        return "n/a"
    q = lambda f: v[min(len(v) - 1, int(f * (len(v) - 1) + 0.5))]
    return "n=%d  p10 %.3f  median %.3f  p90 %.3f  max %.3f" % (len(v), q(0.1), q(0.5), q(0.9), v[-1])


def share(values, bound):
    v = [x for x in values if x is not None]
    return "%d/%d within %.0f %%" % (sum(1 for x in v if x <= bound), len(v), bound * 100) if v else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--lab", required=True, help="directory with the built scenario-c-aggregation")
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--report-only", action="store_true", help="summarise OUT/results.jsonl")
    ap.add_argument("--remeasure", action="store_true",
                    help="measure every run again (the simulations on disk are reused)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    results_path = os.path.join(a.out, "results.jsonl")
    done = {}
    if a.remeasure and os.path.exists(results_path):
        os.replace(results_path, results_path + ".old")
    if os.path.exists(results_path):
        with open(results_path) as f:
            for line in f:
                r = json.loads(line)
                done[r["id"]] = r
    rng = random.Random(a.seed)
    runs = [draw(rng, i) for i in range(a.runs)]
    results = []
    for p in runs:
        if p["id"] in done and done[p["id"]].get("seed") == p["seed"]:
            results.append(done[p["id"]])
            continue
        if a.report_only:
            continue
        base = os.path.join(a.out, p["id"], "a%d" % p["ampdu"])
        fix = os.path.join(a.out, p["id"], "a%d" % p["ampdu2"])
        try:
            simulate(a.lab, base, p, p["ampdu"])
            simulate(a.lab, fix, p, p["ampdu2"])
            r = measure(a.cli, p, base, fix)
        except (RuntimeError, subprocess.CalledProcessError, KeyError, ValueError) as e:
            r = {**p, "error": str(e)}
        results.append(r)
        with open(results_path, "a") as f:
            f.write(json.dumps(r) + "\n")
        print("%s hops %d (read %s) ampdu %d->%d %s %s: calib %s effect %s/%s cwnd %s" % (
            p["id"], p["hops"], r.get("hops_read"), p["ampdu"], p["ampdu2"], p["htMode"], p["tcp"],
            fmt(r.get("calib_err")), fmt(r.get("effect_pred")), fmt(r.get("effect_true")), fmt(r.get("cwnd_err"))),
            file=sys.stderr)
    ok = [r for r in results if "error" not in r]
    print("runs %d (errors %d), seed %d" % (len(results), len(results) - len(ok), a.seed))
    print("hop count read right: %d/%d" % (sum(1 for r in ok if r["hops_read"] == r["hops"]), len(ok)))
    for label, sel in [("all", ok), ("1 hop", [r for r in ok if r["hops"] == 1]),
                       ("2+ hops", [r for r in ok if r["hops"] >= 2])]:
        print("== %s" % label)
        print("  cwnd median error at n0 : %s; %s" % (quantiles([r["cwnd_err"] for r in sel]),
                                                      share([r["cwnd_err"] for r in sel], 0.20)))
        print("  ... with the true model : %s; %s" % (quantiles([r.get("cwnd_err_true_model") for r in sel]),
                                                      share([r.get("cwnd_err_true_model") for r in sel], 0.20)))
        print("  calibration error       : %s; %s" % (quantiles([r["calib_err"] for r in sel]),
                                                      share([r["calib_err"] for r in sel], 0.10)))
        print("  fix effect error        : %s; %s" % (quantiles([r["effect_err"] for r in sel]),
                                                      share([r["effect_err"] for r in sel], 0.15)))
    for h in range(1, 5):
        sel = [r for r in ok if r["hops"] == h]
        if sel:
            print("hops %d: n=%d calib median %.3f  effect err median %.3f  cwnd err median %s" % (
                h, len(sel), statistics.median(r["calib_err"] for r in sel),
                statistics.median(r["effect_err"] for r in sel if r["effect_err"] is not None),
                fmt(statistics.median([r["cwnd_err"] for r in sel if r["cwnd_err"] is not None] or [0]))))


def fmt(x):
    return "-" if x is None else "%.3f" % x


if __name__ == "__main__":
    main()
