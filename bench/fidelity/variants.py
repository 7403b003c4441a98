#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Congestion-control variant identification and cwnd error on fresh ns-3 lab runs.

Draws N scenarios (D: long wired path + 802.11n edge; A: periodic scans), each with a
variant among NewReno, CUBIC, Westwood+, Veno and BBR, simulates them with the lab's
generators, and runs `windscope-cli cwnd --json` on the server-link capture
(wired-server.pcap: the sender's vantage) and the station's radio (wifi-sta.pcap: the
receiver's). A named model is right when it is the variant the run used; a list of
tied candidates is right when it holds it. Every other answer is checked the way the
brief asks: the same parameters and seed are simulated again with the variant
identified, and when the sender's transmissions (tx_segments.csv) are the same in both
runs the pair is indistinguishable in that run and counted apart. The cwnd error is
the median of |estimate - truth| / truth over the captured data segments, the truth
being tx_segments.csv's cwnd_bytes at the sender's first transmission of that
sequence number, where it is below the receive window (ns-3 grows cwnd past it, where
it says nothing).

Python 3 standard library only. Runs one simulation at a time.

  bench/fidelity/variants.py --cli build/ci/app/cli/windscope-cli \\
      --lab LAB_OUT/ns3/build --out LAB_OUT/variants -n 60 --seed 1

The draws depend on --seed only; every run's command line is written to
OUT/runs.csv and the table to OUT/table.md.
"""
import argparse
import bisect
import csv
import json
import os
import random
import statistics
import subprocess
import sys

VARIANTS = {
    "TcpNewReno": "newreno",
    "TcpCubic": "cubic",
    "TcpWestwoodPlus": "westwood-plus",
    "TcpVeno": "veno",
    "TcpBbr": "bbr",
}
BY_MODEL = {v: k for k, v in VARIANTS.items()}
VANTAGES = {"wired-server.pcap": "sender", "wifi-sta.pcap": "receiver"}


def draw(rng, index):
    """One scenario: (program, parameters)."""
    tcp = rng.choice(list(VARIANTS))
    seed = rng.randint(1, 10_000)
    if rng.random() < 0.75:
        params = {
            "tcp": tcp,
            "bnRate": f"{rng.choice([2, 5, 10, 20, 40])}Mbps",
            "bnDelay": rng.choice([5, 15, 30, 60, 100]),
            "bnQueue": rng.choice([20, 50, 100, 250]),
            "buffer": rng.choice([65536, 262144, 1048576, 2097152]),
            "edgePer": rng.choice([0, 0, 0.002, 0.01, 0.02]),
            "simTime": 6,
            "seed": seed,
        }
        return "scenario-d-wan-variants", params
    params = {
        "tcp": tcp,
        "scanInterval": rng.choice([0, 100, 200, 500]),
        "dwell": rng.choice([10, 20, 40]),
        "wiredDelay": rng.choice([5, 20, 60]),
        "bytes": 3_000_000,
        "maxTime": 20,
        "seed": seed,
    }
    return "scenario-a-periodic-scan", params


def simulate(lab, program, params, out):
    if os.path.exists(os.path.join(out, "tx_segments.csv")):
        return True
    cmd = [os.path.join(lab, program), f"--out={out}"] + [f"--{k}={v}" for k, v in params.items()]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        print(f"simulation failed: {' '.join(cmd)}\n{r.stderr[-400:]}", file=sys.stderr)
        return False
    return True


def tx_segments(run):
    rows = []
    with open(os.path.join(run, "tx_segments.csv")) as f:
        for r in csv.DictReader(f):
            rows.append((float(r["time_s"]), int(r["seq"]), int(r["len"]), int(r["retx"]),
                         int(r["cwnd_bytes"]), int(r["rwnd_bytes"])))
    return rows


def same_transmissions(a, b):
    """Identical or nearly: the same segments in the same order, at most 1% apart."""
    if not a or not b or abs(len(a) - len(b)) > 0.01 * max(len(a), len(b)):
        return False
    n = min(len(a), len(b))
    same = sum(1 for i in range(n) if a[i][1:4] == b[i][1:4] and abs(a[i][0] - b[i][0]) < 1e-3)
    return same >= 0.99 * n


def cli_json(cli, args):
    r = subprocess.run([cli] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        return None
    return json.loads(r.stdout)


def main_flow(cli, pcap):
    a = cli_json(cli, ["analyze", pcap, "--json"])
    if not a or not a["connections"]:
        return None
    best = max(a["connections"], key=lambda c: sum(d["data_bytes"] for d in c["directions"]))
    return str(best["id"])


def score_capture(cli, run, pcap, truth):
    flow = main_flow(cli, pcap)
    if flow is None:
        return None
    j = cli_json(cli, ["cwnd", pcap, "--flow", flow, "--json"])
    if j is None:
        return None
    model = j["model"]
    if not j["followed"] and j["not_followed_reason"] == "rate_based_sender":
        model = "bbr"
    tied = j.get("tied_models", [])
    # First transmission of each sequence number.
    first = {}
    for t in truth:
        first.setdefault(t[1], t)
    errors, loss_errors = [], []
    for x in j["series"]:
        if x["cwnd_bytes"] is None or "tcp.seq_raw" not in x:
            continue
        t = first.get(x["tcp.seq_raw"])
        if t is None or t[4] <= 0 or t[4] >= t[5]:
            continue
        e = abs(x["cwnd_bytes"] - t[4]) / t[4]
        errors.append(e)
    return {"model": model, "tied": tied, "undetermined": j["model_undetermined_reason"],
            "err": statistics.median(errors) if errors else None, "samples": len(errors)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--lab", required=True, help="directory of the ns-3 scenario programs")
    ap.add_argument("--out", required=True)
    ap.add_argument("-n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--table-only", action="store_true", help="print the table of the runs already in OUT/runs.csv")
    args = ap.parse_args()
    if args.table_only:
        with open(os.path.join(args.out, "runs.csv")) as f:
            results = [{"vantage": r["vantage"], "truth": r["truth"], "outcome": r["outcome"],
                        "err": float(r["cwnd_median_err"]) if r["cwnd_median_err"] else None}
                       for r in csv.DictReader(f)]
        print_table(results, args.out)
        return
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    results = []
    with open(os.path.join(args.out, "runs.csv"), "w", newline="") as runs_file:
        runs = csv.writer(runs_file)
        runs.writerow(["run", "program", "params", "vantage", "truth", "model", "tied", "outcome", "cwnd_median_err"])
        for i in range(args.n):
            program, params = draw(rng, i)
            run = os.path.join(args.out, f"r{i:03d}")
            if not simulate(args.lab, program, params, run):
                continue
            truth_rows = tx_segments(run)
            expected = VARIANTS[params["tcp"]]
            for pcap, vantage in VANTAGES.items():
                path = os.path.join(run, pcap)
                if not os.path.exists(path):
                    continue
                s = score_capture(args.cli, run, path, truth_rows)
                if s is None:
                    continue
                if s["model"] == expected or (s["tied"] and expected in s["tied"]):
                    outcome = "tied-right" if s["tied"] else "right"
                else:
                    # Simulate the same run with what was named (or every tied candidate):
                    # identical transmissions mean the capture could not have told.
                    named = s["tied"] or [s["model"]]
                    outcome = "wrong"
                    if all(m in BY_MODEL for m in named):
                        alike = True
                        for m in named:
                            other = dict(params, tcp=BY_MODEL[m])
                            alt = f"{run}-as-{m}"
                            if not simulate(args.lab, program, other, alt) or \
                                    not same_transmissions(truth_rows, tx_segments(alt)):
                                alike = False
                                break
                        if alike:
                            outcome = "indistinguishable"
                    elif s["model"] == "undetermined":
                        outcome = "undetermined"
                results.append({"vantage": vantage, "truth": expected, "outcome": outcome, "err": s["err"]})
                runs.writerow([i, program, " ".join(f"--{k}={v}" for k, v in params.items()), vantage, expected,
                               s["model"], "|".join(s["tied"]), outcome,
                               "" if s["err"] is None else f"{s['err']:.4f}"])
                runs_file.flush()
                err = "-" if s["err"] is None else f"{100 * s['err']:.1f}%"
                tied = "|".join(s["tied"])
                print(f"r{i:03d} {vantage:8s} {expected:13s} -> {s['model']:13s} {tied:30s} {outcome:17s} err {err}",
                      flush=True)
    print_table(results, args.out)


def print_table(results, out):
    table = ["| variant | vantage | runs | right | tied (truth among them) | indistinguishable | wrong | "
             "right incl. tied+indist. | cwnd median err (median over runs) | runs with err <= 10% / 20% |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for truth in list(VARIANTS.values()) + ["all"]:
        for vantage in ["sender", "receiver"]:
            rs = [r for r in results if r["vantage"] == vantage and (truth == "all" or r["truth"] == truth)]
            if not rs:
                continue
            count = {k: sum(1 for r in rs if r["outcome"] == k) for k in
                     ["right", "tied-right", "indistinguishable", "wrong", "undetermined"]}
            errs = [r["err"] for r in rs if r["err"] is not None]
            ok = count["right"] + count["tied-right"] + count["indistinguishable"]
            bound = 0.10 if vantage == "sender" else 0.20
            median_err = "-" if not errs else f"{100 * statistics.median(errs):.1f}%"
            table.append(f"| {truth} | {vantage} | {len(rs)} | {count['right']} | {count['tied-right']} | "
                         f"{count['indistinguishable']} | {count['wrong'] + count['undetermined']} | "
                         f"{100 * ok / len(rs):.0f}% | "
                         f"{median_err} | "
                         f"{sum(1 for e in errs if e <= bound)}/{len(errs)} |")
    text = "\n".join(table)
    print(text)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
