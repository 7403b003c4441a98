#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Randomized fidelity harness: inference and replay judged on runs never seen.

Draws N scenarios from wide parameter ranges, simulates each with the ns-3 ground-truth
lab (../shared/lab/ns3, built under $LAB_OUT) as captured and with a fix simulated for
real, runs windscope-cli on every capture point, and compares with the sender's own
state. See bench/fidelity/README.md for the measures and how to read the table.

  fidelity.py draw   --n 200 --master-seed 1 --out DIR     # write DIR/scenarios.json only
  fidelity.py run    --n 200 --master-seed 1 --out DIR [--jobs 2] [--cli PATH]
  fidelity.py run    --out DIR                              # resume: reuses scenarios.json
  fidelity.py report DIR [--json]                           # the table from DIR/results.jsonl

Only the Python standard library is used.
"""

import argparse
import concurrent.futures
import csv
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time
from bisect import bisect_right
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# ns-3 TypeId of each variant, and the windscope model name(s) that identify it.
VARIANTS = {
    "TcpLinuxReno": "reno",
    "TcpNewReno": "newreno",
    "TcpCubic": "cubic",
    "TcpWestwoodPlus": "westwood-plus",
    "TcpVeno": "veno",
    "TcpBbr": "bbr",
}
MODEL_TO_NS3 = {v: k for k, v in VARIANTS.items()}
# Reno and NewReno differ only in partial-ACK handling during recovery and in the
# stack's cwnd-limited rule; the identification counts them as one AIMD family.
FAMILY = {"reno": "reno", "newreno": "reno", "cubic": "cubic", "westwood-plus": "westwood-plus",
          "veno": "veno", "bbr": "bbr"}

WIFI_RATES_A = ["OfdmRate6Mbps", "OfdmRate9Mbps", "OfdmRate12Mbps", "OfdmRate18Mbps",
                "OfdmRate24Mbps", "OfdmRate36Mbps", "OfdmRate48Mbps", "OfdmRate54Mbps"]
HT_MODES = ["HtMcs%d" % i for i in range(8)]

# Thresholds of the "Must show", so the table says pass/fail per row.
CWND_SENDER_BOUND = 0.10
CWND_OTHER_BOUND = 0.20
CALIBRATION_BOUND = 0.10
FIX_EFFECT_BOUND = 0.15


def log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def with_arg(args, key, value):
    """args with --key=value in place of any earlier --key."""
    return [a for a in args if not a.startswith("--%s=" % key)] + ["--%s=%s" % (key, value)]


# ns-3.37's TcpBbr stops with SIGFPE in every lab scenario tried, so BBR is judged on the
# Linux lab's runs (real tcp_bbr), not drawn here.
DRAWN_VARIANTS = [v for v in VARIANTS if v != "TcpBbr"]


def draw_variant(rng):
    return rng.choice(DRAWN_VARIANTS)


def draw_scenario(index, master_seed):
    """One scenario: family, ns-3 program and arguments, the fix and its truth run."""
    rng = random.Random(master_seed * 1_000_003 + index)
    family = rng.choices("ABCDE", weights=[3, 2, 2, 3, 2])[0]
    seed = rng.randint(2, 999_999)  # seed 1 is the corpus in ../shared
    tcp = draw_variant(rng)
    rtt_ms = log_uniform(rng, 5, 300)
    base = ["--seed=%d" % seed, "--tcp=" + tcp]
    s = {"id": "s%04d" % index, "family": family, "seed": seed, "variant": tcp}
    if family == "A":
        interval = int(log_uniform(rng, 50, 1000))
        dwell = int(rng.uniform(5, 60))
        dwell = min(dwell, interval // 2)
        args = base + ["--scanInterval=%d" % interval, "--dwell=%d" % dwell,
                       "--wiredDelay=%d" % max(1, round(rtt_ms / 2)),
                       "--wiredRate=%dMbps" % round(log_uniform(rng, 1, 100)),
                       "--wifiRate=" + rng.choice(WIFI_RATES_A),
                       "--bytes=0", "--maxTime=%d" % rng.randint(8, 12),
                       "--firstScan=%.3f" % rng.uniform(0.5, 2.0)]
        s.update(program="scenario-a-periodic-scan", args=args, fix_args=args + ["--fix=1"],
                 fix="scan-aware-ap", vantages={"wired-server.pcap": "sender", "wifi-ap.pcap": "ap",
                                                "wifi-sta.pcap": "receiver"})
    elif family == "B":
        sim = rng.randint(10, 15)
        outage = rng.uniform(0.2, 3.0)
        count = rng.choice([1, 2])
        starts = sorted(rng.uniform(1.5, sim - outage - 1.0) for _ in range(count))
        if count == 2 and starts[1] - starts[0] < outage + 1.0:
            starts = starts[:1]
        wired = max(1, round(rtt_ms / 4))
        args = base + ["--simTime=%d" % sim, "--outage=%.3f" % outage,
                       "--handoffs=" + ",".join("%.3f" % t for t in starts),
                       "--wiredRate=%.2fMbps" % log_uniform(rng, 1, 20),
                       "--wiredDelay=%d" % wired, "--wirelessDelay=%d" % max(0, round(rtt_ms / 2) - wired),
                       "--mss=" + rng.choice(["512", "1448"]),
                       "--window=%d" % int(log_uniform(rng, 16384, 262144))]
        s.update(program="scenario-b-handoff", args=args + ["--variant=baseline"],
                 fix_args=args + ["--variant=zwa-hold"], fix="ap-zero-window-ack",
                 vantages={"wired-server.pcap": "sender", "wifi-ap1.pcap": "ap", "wifi-sta.pcap": "receiver"})
    elif family == "C":
        hops = rng.randint(1, 4)
        ampdu = rng.choice([1, 1, 2, 4, 8, 16])
        fixed = rng.choice([n for n in (1, 2, 4, 8, 16) if n != ampdu])
        args = base + ["--hops=%d" % hops, "--simTime=%d" % rng.randint(6, 10),
                       "--htMode=" + rng.choice(HT_MODES),
                       "--window=%d" % int(log_uniform(rng, 32768, 262144))]
        s.update(program="scenario-c-aggregation", args=args + ["--ampdu=%d" % ampdu],
                 fix_args=args + ["--ampdu=%d" % fixed], fix="ampdu-max=%d" % fixed, hops=hops,
                 vantages={"wifi-n0.pcap": "first-radio", "wifi-n%d.pcap" % hops: "receiver"})
    elif family == "D":
        rate = log_uniform(rng, 1, 100)
        one_way = max(1, round(rtt_ms / 2) - 1)
        bdp = rate * 1e6 / 8 * rtt_ms / 1000
        buffer = int(log_uniform(rng, 16384, 4 * 1024 * 1024))
        args = base[:1] + ["--bnRate=%.2fMbps" % rate, "--bnDelay=%d" % one_way,
                           "--buffer=%d" % buffer, "--simTime=%d" % rng.randint(10, 15),
                           "--bnQueue=%d" % int(log_uniform(rng, 20, 500)),
                           "--edgePer=%.4f" % (rng.choice([0, 0, rng.uniform(0, 0.02)]))]
        if buffer < bdp:
            fix_args = with_arg(args + ["--tcp=" + tcp], "buffer", 4194304)
            fix = "max-window=4194304"
        else:
            other = rng.choice([v for v in DRAWN_VARIANTS if v != tcp])
            fix_args = args + ["--tcp=" + other]
            fix = "cc=" + VARIANTS[other]
        args = args + ["--tcp=" + tcp]
        s.update(program="scenario-d-wan-variants", args=args, fix_args=fix_args, fix=fix,
                 vantages={"wired-server.pcap": "sender", "wifi-sta.pcap": "receiver"})
    else:
        read = int(log_uniform(rng, 512, 65536))
        rcv = int(log_uniform(rng, 16384, 262144))
        pace = rng.choice([0, 0, 0, rng.randint(1, 10)])
        args = base + ["--readSize=%d" % read, "--rcvBuf=%d" % rcv,
                       "--wiredDelay=%d" % max(1, round(rtt_ms / 2)),
                       "--bytes=%d" % int(log_uniform(rng, 1 << 20, 4 << 20)), "--maxTime=30",
                       "--pace=%d" % pace]
        s.update(program="scenario-e-slow-receiver", args=args, fix_args=with_arg(args, "rcvBuf", 4 * rcv),
                 fix="rx-app-buffer=%d" % (4 * rcv),
                 vantages={"wired-server.pcap": "sender", "wifi-ap.pcap": "ap", "wifi-sta.pcap": "receiver"})
    return s


# ----------------------------------------------------------------------------- running


def run(cmd, timeout, cwd=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                       text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def simulate(ns3_build, program, args, out_dir, timeout, need_captures=True):
    if (out_dir / "meta.json").exists() and (not need_captures or any(out_dir.glob("*.pcap"))):
        return True, ""
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        rc, _, err = run([str(ns3_build / program), "--out=" + str(out_dir)] + args, timeout)
    except subprocess.TimeoutExpired:
        return False, "ns-3 run timed out after %d s" % timeout
    if rc != 0 or not (out_dir / "meta.json").exists():
        return False, "ns-3 exit %d: %s" % (rc, err.strip()[-300:])
    return True, ""


def cli_json(cli, args, timeout=600):
    rc, out, err = run([cli] + args + ["--json"], timeout)
    if rc not in (0,):
        # replay exits 0 with a warning on a poor calibration; anything else is an error
        raise RuntimeError("windscope-cli %s: exit %d: %s" % (" ".join(args[:1]), rc, err.strip()[-300:]))
    return json.loads(out)


def find_flow(analysis):
    """The connection carrying the server's data (server port 5001) and its direction index."""
    best = None
    for c in analysis.get("connections", []):
        for i, d in enumerate(c.get("directions", [])):
            if d.get("from", "").endswith(":5001") and d.get("unique_bytes", 0) > 0:
                if best is None or d["unique_bytes"] > best[2]["unique_bytes"]:
                    best = (c["id"], i, d)
    return best


def read_tx_segments(path):
    """seq -> list of (time, cwnd, rwnd, state), in send order."""
    by_seq = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            by_seq.setdefault(int(row["seq"]), []).append(
                (float(row["time_s"]), int(row["cwnd_bytes"]), int(row["rwnd_bytes"]), row["cong_state"]))
    return by_seq


def data_segments_of(cli, capture, flow_id, direction):
    rc, out, err = run([cli, "analyze", str(capture), "--csv", "--segments"], 600)
    if rc != 0:
        raise RuntimeError("analyze --segments: " + err.strip()[-200:])
    rows = []
    for r in csv.DictReader(out.splitlines()):
        if r["connection"] == str(flow_id) and r["direction"] == str(direction) and int(r["tcp.len"] or 0) > 0:
            rows.append((float(r["epoch_s"]), int(r["tcp.seq"])))
    return rows


def cwnd_errors(cli, capture, flow_id, direction, tx):
    """Median relative error of the window that bounded the sender, overall and in loss
    episodes. Beyond the receive window a cwnd is invisible in any capture (ns-3 grows it
    there, RFC 7661 stacks do not), so both sides are taken as min(cwnd, rwnd)."""
    inferred = cli_json(cli, ["cwnd", str(capture), "--flow", str(flow_id)])
    series = inferred.get("series", [])
    segs = data_segments_of(cli, capture, flow_id, direction)
    out = {"model": inferred.get("model", ""), "inferred_vantage": inferred.get("vantage", ""),
           "undetermined": inferred.get("model_undetermined_reason", ""),
           "followed": inferred.get("followed", False)}
    if len(series) != len(segs) or not series:
        out["cwnd_error"] = None
        out["cwnd_note"] = "series rows %d != data segments %d" % (len(series), len(segs))
        return out
    errs, loss_errs = [], []
    for (t, seq), row in zip(segs, series):
        sends = tx.get(seq)
        if not sends or row.get("cwnd_bytes") is None:
            continue
        # the sender's latest transmission of this seq at or before the capture saw it
        times = [s[0] for s in sends]
        k = bisect_right(times, t + 1e-3) - 1
        if k < 0:
            k = 0
        _, true_cwnd, rwnd, state = sends[k]
        truth = min(true_cwnd, rwnd) if rwnd > 0 else true_cwnd
        guess = min(row["cwnd_bytes"], rwnd) if rwnd > 0 else row["cwnd_bytes"]
        if truth <= 0:
            continue
        e = abs(guess - truth) / truth
        errs.append(e)
        if state in ("CA_RECOVERY", "CA_LOSS", "CA_CWR"):
            loss_errs.append(e)
    out["cwnd_error"] = statistics.median(errs) if errs else None
    out["cwnd_loss_error"] = statistics.median(loss_errs) if loss_errs else None
    out["cwnd_samples"] = len(errs)
    out["cwnd_loss_samples"] = len(loss_errs)
    return out


def goodput_of(cli, capture):
    a = cli_json(cli, ["analyze", str(capture)])
    f = find_flow(a)
    return (f[2].get("goodput_bps") if f else None), a, f


def identical_senders(dir_a, dir_b):
    """Whether two runs' senders sent the same segments at the same times (1 ms)."""
    def load(d):
        with open(d / "tx_segments.csv") as f:
            return [(round(float(r["time_s"]), 3), r["seq"]) for r in csv.DictReader(f)]
    try:
        a, b = load(dir_a), load(dir_b)
    except OSError:
        return False
    return a == b


def judge_variant(s, row, cfg, work):
    """Whether the model named is the run's variant. A wrong answer whose own run (the
    same scenario and seed with the variant named) sends the same segments at the same
    times is indistinguishable in this run, not wrong; "undetermined" counts so when
    any other variant's run is the same as the truth's, and as wrong otherwise."""
    model = row.get("model", "")
    want = FAMILY[row["variant"]]
    row["variant_ok"] = FAMILY.get(model, model) == want
    if row["variant_ok"]:
        return
    if model in FAMILY:
        twins = [v for v, m in VARIANTS.items() if FAMILY[m] == FAMILY[model]]
    else:
        twins = [v for v, m in VARIANTS.items() if FAMILY[m] != want]
    row["indistinguishable"] = False
    for variant in twins:
        twin = work / ("twin-" + VARIANTS[variant])
        ok, _ = simulate(cfg["ns3"], s["program"], with_arg(s["args"], "tcp", variant), twin, cfg["timeout"],
                         need_captures=False)
        for p in twin.glob("*.pcap"):
            p.unlink()
        if ok and identical_senders(work / "base", twin):
            row["indistinguishable"] = True
            row["indistinguishable_from"] = VARIANTS[variant]
            return


def evaluate(s, cfg):
    work = cfg["sims"] / s["id"]
    ok, why = simulate(cfg["ns3"], s["program"], s["args"], work / "base", cfg["timeout"])
    if not ok:
        # the simulator's own failure (ns-3.37 crashes on a few parameter sets): not a
        # capture, so not judged; reported apart
        return [{"id": s["id"], "family": s["family"], "sim_error": why}]
    fix_ok, fix_why = simulate(cfg["ns3"], s["program"], s["fix_args"], work / "fix", cfg["timeout"])
    tx = read_tx_segments(work / "base" / "tx_segments.csv")
    rows = []
    for cap_name, vantage in s["vantages"].items():
        cap = work / "base" / cap_name
        row = {"id": s["id"], "family": s["family"], "variant": VARIANTS[s["variant"]],
               "capture": cap_name, "vantage": vantage, "hops": s.get("hops"),
               "fix_sim_error": None if fix_ok else fix_why, "fix": s["fix"], "seed": s["seed"]}
        if not cap.exists():
            row["error"] = "no capture " + cap_name
            rows.append(row)
            continue
        try:
            goodput, analysis, flow = goodput_of(cfg["cli"], cap)
            if not flow:
                row["error"] = "no server data flow in the capture"
                rows.append(row)
                continue
            flow_id, direction, _ = flow
            row["capture_goodput_bps"] = goodput
            row.update(cwnd_errors(cfg["cli"], cap, flow_id, direction, tx))
        except (RuntimeError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
            row["error"] = str(e)[:300]
            rows.append(row)
            continue
        try:
            judge_variant(s, row, cfg, work)
            replay = cli_json(cfg["cli"], ["replay", str(cap), "--flow", str(flow_id), "--fix", s["fix"]])
            cal = replay.get("calibration_error") or {}
            row["calibration_error"] = cal.get("goodput")
            base_gp = (replay.get("baseline") or {}).get("goodput_bps")
            fixed_gp = (replay.get("fixed") or {}).get("goodput_bps")
            row["predicted_ratio"] = fixed_gp / base_gp if base_gp and fixed_gp else None
            if fix_ok and (work / "fix" / cap_name).exists():
                fix_gp, _, fix_flow = goodput_of(cfg["cli"], work / "fix" / cap_name)
                if fix_gp and goodput:
                    row["true_ratio"] = fix_gp / goodput
            if row.get("true_ratio") and row.get("predicted_ratio"):
                row["fix_effect_error"] = abs(row["predicted_ratio"] / row["true_ratio"] - 1)
        except (RuntimeError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
            row["replay_error"] = str(e)[:300]
        rows.append(row)
    if not cfg["keep"]:
        for p in work.rglob("*.pcap"):
            p.unlink()
    return rows


# ----------------------------------------------------------------------------- report


def pct(values, q):
    v = sorted(values)
    if not v:
        return None
    i = min(len(v) - 1, max(0, int(math.ceil(q * len(v))) - 1))
    return v[i]


def share_within(values, bound):
    v = [x for x in values if x is not None]
    return (sum(1 for x in v if x <= bound) / len(v)) if v else None


def fmt(x, p=False):
    if x is None:
        return "-"
    return ("%.0f %%" % (100 * x)) if p else ("%.3f" % x)


def report(rows, as_json=False):
    good = [r for r in rows if "error" not in r and "sim_error" not in r]
    failed = [r for r in rows if "error" in r]
    sim_failed = [r for r in rows if "sim_error" in r]
    groups = {}
    for r in good:
        groups.setdefault((r["family"], r["vantage"]), []).append(r)
        groups.setdefault(("all", r["vantage"]), []).append(r)
        groups.setdefault(("all", "all"), []).append(r)
    table = []
    for key in sorted(groups, key=lambda k: (k[0] == "all", k)):
        rs = groups[key]
        ident = [r for r in rs if "variant_ok" in r]
        indist = [r for r in ident if not r["variant_ok"] and r.get("indistinguishable")]
        judged = [r for r in ident if r["variant_ok"] or not r.get("indistinguishable")]
        bound = CWND_SENDER_BOUND if key[1] == "sender" else CWND_OTHER_BOUND
        cw = [r["cwnd_error"] for r in rs if r.get("cwnd_error") is not None]
        cwl = [r["cwnd_loss_error"] for r in rs if r.get("cwnd_loss_error") is not None]
        cal = [r["calibration_error"] for r in rs if r.get("calibration_error") is not None]
        fx = [r["fix_effect_error"] for r in rs if r.get("fix_effect_error") is not None]
        table.append({
            "family": key[0], "vantage": key[1], "captures": len(rs),
            "variant_right": (sum(r["variant_ok"] for r in judged) / len(judged)) if judged else None,
            "indistinguishable": len(indist),
            "cwnd_median_error_p50": statistics.median(cw) if cw else None,
            "cwnd_within_bound": share_within(cw, bound),
            "cwnd_loss_within_2x": share_within(cwl, 2 * bound),
            "calibration_p50": statistics.median(cal) if cal else None,
            "calibration_within_10": share_within(cal, CALIBRATION_BOUND),
            "fix_effect_p50": statistics.median(fx) if fx else None,
            "fix_effect_within_15": share_within(fx, FIX_EFFECT_BOUND),
        })
    by_fix = {}
    for r in good:
        if r.get("fix_effect_error") is not None:
            by_fix.setdefault(r["fix"].split("=")[0], []).append(r["fix_effect_error"])
    fixes = {k: {"runs": len(v), "p50": statistics.median(v), "within_15": share_within(v, FIX_EFFECT_BOUND)}
             for k, v in sorted(by_fix.items())}
    by_variant = {}
    for r in good:
        if "variant_ok" in r:
            e = by_variant.setdefault(r["variant"], {"captures": 0, "right": 0, "indistinguishable": 0, "as": {}})
            e["captures"] += 1
            e["right"] += r["variant_ok"]
            e["indistinguishable"] += (not r["variant_ok"]) and bool(r.get("indistinguishable"))
            e["as"][r.get("model", "?")] = e["as"].get(r.get("model", "?"), 0) + 1
    if as_json:
        print(json.dumps({"rows": table, "fixes": fixes, "variants": by_variant, "failed": len(failed),
                          "simulator_failed": len(sim_failed)}, indent=1))
        return
    scen = len({r["id"] for r in rows if "sim_error" not in r})
    print("scenarios %d simulated (%d more the simulator failed on, not judged), captures judged %d, "
          "failed %d" % (scen, len(sim_failed), len(good), len(failed)))
    print()
    head = ("family", "vantage", "caps", "variant", "indist", "cwnd p50", "cwnd ok", "loss ok",
            "calib p50", "calib ok", "fix p50", "fix ok")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for t in table:
        print("| " + " | ".join([
            t["family"], t["vantage"], str(t["captures"]), fmt(t["variant_right"], True), str(t["indistinguishable"]),
            fmt(t["cwnd_median_error_p50"], True), fmt(t["cwnd_within_bound"], True),
            fmt(t["cwnd_loss_within_2x"], True), fmt(t["calibration_p50"], True),
            fmt(t["calibration_within_10"], True), fmt(t["fix_effect_p50"], True),
            fmt(t["fix_effect_within_15"], True)]) + " |")
    print()
    print("fix effect by fix: " + ", ".join("%s %d runs p50 %s, %s within 15 %%" % (
        k, v["runs"], fmt(v["p50"], True), fmt(v["within_15"], True)) for k, v in fixes.items()))
    print("variants: " + "; ".join("%s %d/%d right (%d indistinguishable), taken as %s" % (
        k, v["right"], v["captures"], v["indistinguishable"],
        ", ".join("%s %d" % kv for kv in sorted(v["as"].items()))) for k, v in sorted(by_variant.items())))
    fix_sim_failed = {r["id"] for r in good if r.get("fix_sim_error")}
    if fix_sim_failed:
        print("fix runs the simulator failed on (fix effect not judged): %d scenarios" % len(fix_sim_failed))
    replay_failed = [r for r in good if "replay_error" in r]
    if replay_failed:
        reasons = {}
        for r in replay_failed:
            reasons[r["replay_error"][:100]] = reasons.get(r["replay_error"][:100], 0) + 1
        print("replay failures: " + "; ".join("%d x %s" % (n, k) for k, n in sorted(reasons.items(), key=lambda x: -x[1])[:8]))
    if failed:
        reasons = {}
        for r in failed:
            reasons[r["error"][:80]] = reasons.get(r["error"][:80], 0) + 1
        print("failures: " + "; ".join("%d x %s" % (n, k) for k, n in sorted(reasons.items(), key=lambda x: -x[1])[:8]))


# ----------------------------------------------------------------------------- main


def load_rows(out):
    p = out / "results.jsonl"
    if not p.exists():
        return []
    return [json.loads(line) for line in p.read_text().splitlines() if line.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("draw", "run"):
        p = sub.add_parser(name)
        p.add_argument("--n", type=int, default=200)
        p.add_argument("--master-seed", type=int, default=1)
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--families", default="ABCDE")
        if name == "run":
            p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)))
            p.add_argument("--cli", default=str(REPO / "build" / "release" / "app" / "cli" / "windscope-cli"))
            p.add_argument("--ns3-build", type=Path,
                           default=Path(os.environ.get("LAB_OUT", "lab-out")) / "ns3" / "build")
            p.add_argument("--timeout", type=int, default=900)
            p.add_argument("--keep-captures", action="store_true")
            p.add_argument("--sims", type=Path, help="where the simulations go (default OUT/runs): "
                           "another run's, with its captures kept, judges another build on the same runs")
    p = sub.add_parser("report")
    p.add_argument("out", type=Path)
    p.add_argument("--json", action="store_true")
    a = ap.parse_args()

    if a.cmd == "report":
        report(load_rows(a.out), a.json)
        return 0

    a.out.mkdir(parents=True, exist_ok=True)
    plan = a.out / "scenarios.json"
    if plan.exists():
        scenarios = json.loads(plan.read_text())["scenarios"]
    else:
        scenarios = [s for s in (draw_scenario(i, a.master_seed) for i in range(a.n)) if s["family"] in a.families]
        plan.write_text(json.dumps({"master_seed": a.master_seed, "n": a.n, "scenarios": scenarios}, indent=1))
    print("fidelity: %d scenarios in %s" % (len(scenarios), plan), file=sys.stderr)
    if a.cmd == "draw":
        return 0

    if not Path(a.cli).exists():
        print("fidelity: no windscope-cli at %s (build it or pass --cli)" % a.cli, file=sys.stderr)
        return 1
    if not (a.ns3_build / "scenario-a-periodic-scan").exists():
        print("fidelity: the ns-3 lab is not built in %s (run ../shared/lab/ns3/make-corpus.sh --only none, "
              "or pass --ns3-build)" % a.ns3_build, file=sys.stderr)
        return 1
    done = {r["id"] for r in load_rows(a.out)}
    todo = [s for s in scenarios if s["id"] not in done]
    cfg = {"out": a.out, "sims": (a.sims or a.out / "runs").resolve(), "ns3": a.ns3_build.resolve(),
           "cli": str(Path(a.cli).resolve()),
           "timeout": a.timeout, "keep": a.keep_captures}
    lock = threading.Lock()
    started = time.monotonic()
    with open(a.out / "results.jsonl", "a") as results, \
            concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = {pool.submit(evaluate, s, cfg): s for s in todo}
        for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            s = futures[fut]
            try:
                rows = fut.result()
            except Exception as e:  # keep the batch going; the row says what failed
                rows = [{"id": s["id"], "family": s["family"], "error": "harness: %r" % e}]
            with lock:
                for r in rows:
                    results.write(json.dumps(r) + "\n")
                results.flush()
            el = time.monotonic() - started
            print("fidelity: %d/%d done (%s), %.0f s, ETA %.0f s" % (
                n, len(todo), s["id"], el, el / n * (len(todo) - n)), file=sys.stderr)
    report(load_rows(a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
