#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Randomized fidelity harness: inference and replay judged on runs never seen.

Draws N scenarios from wide parameter ranges, simulates each with the ns-3 ground-truth
lab (../shared/lab/ns3, built under $LAB_OUT) or runs it on the Linux lab
(../shared/lab/linux, family L: real-time, needs root and a quiet machine) as captured
and with each fix made for real, runs windscope-cli on every capture point, and compares
with the sender's own state. See bench/fidelity/README.md for the measures and how to
read the tables.

  fidelity.py draw   --n 200 --master-seed 1 --out DIR     # write DIR/scenarios.json only
  fidelity.py run    --n 200 --master-seed 1 --out DIR [--jobs 2] [--cli PATH]
  fidelity.py run    --n 40 --focus chains --hops 2-4 --out DIR    # a focused draw
  fidelity.py run    --out DIR                              # resume: reuses scenarios.json
  fidelity.py report DIR                                    # the issue's Must-show table
  fidelity.py report DIR --overview | --focus path-rate|variants|chains|scan-dwell | --json
  fidelity.py compare BEFORE AFTER [--families ABC]         # two builds judged on one kept draw
  fidelity.py spread --out DIR [--seeds 3]                  # the lab's own spread over other seeds
  fidelity.py judge-linux RUN_DIR...                        # a Linux run already made

Only the Python standard library is used.
"""

import argparse
import concurrent.futures
import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from draws import FOCI, MODEL_TO_NS3, draw_all, parse_range  # noqa: E402
from linux_lab import busy, evaluate_linux, judge_existing  # noqa: E402
from measure import evaluate  # noqa: E402
from report import compare, report  # noqa: E402
from spread import spread_of  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LAB = REPO.parent / "shared" / "lab"


# ----------------------------------------------------------------------------- main


def load_rows(out):
    p = out / "results.jsonl"
    if not p.exists():
        return []
    return [json.loads(line) for line in p.read_text().splitlines() if line.strip()]


def add_run_options(p):
    p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)),
                   help="ns-3 scenarios at once (Linux lab runs are always one at a time)")
    p.add_argument("--cli", default=str(REPO / "build" / "release" / "app" / "cli" / "windscope-cli"))
    p.add_argument("--ns3-build", type=Path, default=Path(os.environ.get("LAB_OUT", "lab-out")) / "ns3" / "build")
    p.add_argument("--timeout", type=int, default=900)
    p.add_argument("--keep-captures", action="store_true")
    p.add_argument("--sims", type=Path, help="where the simulations go (default OUT/runs): another run's "
                   "judges another build on the same runs (its captures are then always kept)")
    p.add_argument("--no-simulate", action="store_true", help="judge only the runs already in --sims: "
                   "nothing is simulated (a missing twin leaves a wrong answer wrong)")
    p.add_argument("--linux-lab", type=Path, default=LAB / "linux", help="the Linux lab (lab.py)")
    p.add_argument("--linux-out", type=Path, help="LAB_OUT of the Linux lab's runs (default OUT/linux-lab)")
    p.add_argument("--linux-from", default="reno-clean", help="the corpus run lab.py starts from (--from)")
    p.add_argument("--linux-busy-ok", action="store_true",
                   help="run the Linux lab even when the load average says the machine is busy")


def enrich(rows, plan):
    """Rows written before they carried their scenario's dwell, scan interval and hops
    take them from scenarios.json (the report's cases need them)."""
    by_id = {s["id"]: s for s in (plan or {}).get("scenarios", [])}
    for r in rows:
        s = by_id.get(r["id"])
        if not s:
            continue
        for key in ("dwell", "scanInterval", "hops"):
            for arg in s.get("args", []):
                if arg.startswith("--%s=" % key):
                    field = {"dwell": "dwell_ms", "scanInterval": "scan_interval_ms", "hops": "hops"}[key]
                    if r.get(field) is None:
                        r[field] = float(arg.split("=", 1)[1]) if key != "hops" else int(arg.split("=", 1)[1])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("draw", "run"):
        p = sub.add_parser(name)
        p.add_argument("--n", type=int, default=200)
        p.add_argument("--master-seed", type=int, default=1)
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--families", default="ABCDE", help="any of ABCDE (ns-3), W (path-rate), L (Linux lab)")
        p.add_argument("--focus", choices=FOCI, help="a focused draw: variants (D and A), chains (C), "
                       "scan-dwell (A), path-rate (window-limited runs whose bottleneck is known)")
        p.add_argument("--hops", help="hops of family C, e.g. 2-4 (default 1-4)")
        p.add_argument("--variants", help="comma-separated models to draw (reno,newreno,cubic,westwood-plus,"
                       "veno,bbr; default every one but bbr, which ns-3.37 crashes on)")
        p.add_argument("--linux-duration", default="8-20", help="seconds of transfer of a Linux lab run")
        if name == "run":
            add_run_options(p)
    p = sub.add_parser("report")
    p.add_argument("out", type=Path)
    p.add_argument("--json", action="store_true")
    p.add_argument("--overview", action="store_true", help="the table per family and vantage")
    p.add_argument("--focus", choices=FOCI, help="the view a focused draw is for (any run's rows)")
    p.add_argument("--spread", type=Path, help="the lab's spread over other seeds (default OUT/spread.jsonl, "
                   "written by the spread command)")
    p = sub.add_parser("compare", help="two builds judged on one kept draw, side by side")
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p.add_argument("--families", help="only these families, e.g. ABC (default all)")
    p = sub.add_parser("spread", help="each ns-3 scenario of a run again with other seeds (DIR/spread.jsonl); "
                       "report DIR then sets the replay against the mean of the seeds")
    p.add_argument("--out", type=Path, required=True, help="a run directory (its scenarios.json)")
    p.add_argument("--seeds", type=int, default=3, help="other seeds per scenario")
    p.add_argument("--families", help="only these families (default every ns-3 family)")
    add_run_options(p)
    p = sub.add_parser("judge-linux", help="judge Linux lab runs already made (no lab run)")
    p.add_argument("runs", type=Path, nargs="+")
    p.add_argument("--cli", default=str(REPO / "build" / "release" / "app" / "cli" / "windscope-cli"))
    p.add_argument("--out", type=Path, help="append the rows to OUT/results.jsonl")
    a = ap.parse_args()

    if a.cmd == "compare":
        def rows_of(d):
            plan = d / "scenarios.json"
            return enrich(load_rows(d), json.loads(plan.read_text()) if plan.exists() else None)
        compare(rows_of(a.before), rows_of(a.after), a.families)
        return 0
    if a.cmd == "report":
        plan = a.out / "scenarios.json"
        plan = json.loads(plan.read_text()) if plan.exists() else None
        spread = a.spread or a.out / "spread.jsonl"
        spread_rows = [json.loads(line) for line in spread.read_text().splitlines() if line.strip()] \
            if spread.exists() else None
        report(enrich(load_rows(a.out), plan), plan, a.json, a.focus, a.overview, spread_rows)
        return 0
    if a.cmd == "judge-linux":
        return judge_linux(a)
    if a.cmd == "spread":
        return run_spread(a)

    a.out.mkdir(parents=True, exist_ok=True)
    plan = a.out / "scenarios.json"
    if plan.exists():
        scenarios = json.loads(plan.read_text())["scenarios"]
    else:
        variants = [MODEL_TO_NS3[m] for m in a.variants.split(",")] if a.variants else None
        scenarios = draw_all(a.n, a.master_seed, a.families, a.focus, parse_range(a.hops, 1, 8), variants,
                             parse_range(a.linux_duration, 3, 120))
        plan.write_text(json.dumps({"master_seed": a.master_seed, "n": a.n, "families": a.families,
                                    "focus": a.focus, "hops": a.hops, "variants": a.variants,
                                    "scenarios": scenarios}, indent=1))
    print("fidelity: %d scenarios in %s" % (len(scenarios), plan), file=sys.stderr)
    if a.cmd == "draw":
        return 0

    if not Path(a.cli).exists():
        print("fidelity: no windscope-cli at %s (build it or pass --cli)" % a.cli, file=sys.stderr)
        return 1
    ns3 = [s for s in scenarios if s["family"] != "L"]
    linux = [s for s in scenarios if s["family"] == "L"]
    if ns3 and not a.no_simulate and not (a.ns3_build / "scenario-a-periodic-scan").exists():
        print("fidelity: the ns-3 lab is not built in %s (run ../shared/lab/ns3/make-corpus.sh --only none, "
              "or pass --ns3-build)" % a.ns3_build, file=sys.stderr)
        return 1
    done = {r["id"] for r in load_rows(a.out)}
    cfg = {"out": a.out, "sims": (a.sims or a.out / "runs").resolve(), "ns3": a.ns3_build.resolve(),
           "cli": str(Path(a.cli).resolve()), "timeout": a.timeout, "no_simulate": a.no_simulate,
           # another run's simulations are that run's: never delete its captures
           "keep": a.keep_captures or a.sims is not None or a.no_simulate,
           "linux_lab": a.linux_lab.resolve(), "linux_from": a.linux_from,
           "linux_out": (a.linux_out or a.out / "linux-lab").resolve()}
    lock = threading.Lock()
    started = time.monotonic()
    with open(a.out / "results.jsonl", "a") as results:
        def record(s, rows, n, total):
            with lock:
                for r in rows:
                    results.write(json.dumps(r) + "\n")
                results.flush()
            el = time.monotonic() - started
            print("fidelity: %d/%d done (%s), %.0f s, ETA %.0f s" % (n, total, s["id"], el, el / n * (total - n)),
                  file=sys.stderr)

        todo = [s for s in ns3 if s["id"] not in done]
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            futures = {pool.submit(evaluate, s, cfg): s for s in todo}
            for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
                s = futures[fut]
                try:
                    rows = fut.result()
                except Exception as e:  # keep the batch going; the row says what failed
                    rows = [{"id": s["id"], "family": s["family"], "error": "harness: %r" % e}]
                record(s, rows, n, len(todo))
        todo = [s for s in linux if s["id"] not in done]
        for n, s in enumerate(todo, 1):
            load, too_busy = busy()
            if too_busy and not a.linux_busy_ok and not a.no_simulate:
                print("fidelity: %d Linux lab runs left undone: the machine is busy (load %.2f per CPU); the lab "
                      "is real-time and needs a quiet machine (rerun later, or --linux-busy-ok)"
                      % (len(todo) - n + 1, load), file=sys.stderr)
                break
            try:
                rows = evaluate_linux(s, cfg)
            except Exception as e:  # keep the batch going; the row says what failed
                rows = [{"id": s["id"], "family": "L", "error": "harness: %r" % e}]
            for r in rows:
                r["load_per_cpu"] = round(load, 2)
            record(s, rows, n, len(todo))
    plan = json.loads(plan.read_text())
    report(enrich(load_rows(a.out), plan), plan)
    return 0


def run_spread(a):
    scenarios = json.loads((a.out / "scenarios.json").read_text())["scenarios"]
    scenarios = [s for s in scenarios if s["family"] != "L" and (not a.families or s["family"] in a.families)]
    path = a.out / "spread.jsonl"
    done = {json.loads(line)["id"] for line in path.read_text().splitlines() if line.strip()} if path.exists() else set()
    todo = [s for s in scenarios if s["id"] not in done]
    cfg = {"sims": (a.sims or a.out / "runs").resolve(), "ns3": a.ns3_build.resolve(), "timeout": a.timeout,
           "spread_dir": (a.out / "spread-runs").resolve(), "keep_csv": a.keep_captures}
    lock = threading.Lock()
    started = time.monotonic()
    with open(path, "a") as out, concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = {pool.submit(spread_of, s, cfg, a.seeds): s for s in todo}
        for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            s = futures[fut]
            try:
                row = fut.result()
            except Exception as e:  # keep the batch going; the row says what failed
                row = {"id": s["id"], "family": s["family"], "error": "harness: %r" % e}
            with lock:
                out.write(json.dumps(row) + "\n")
                out.flush()
            el = time.monotonic() - started
            print("fidelity spread: %d/%d done (%s), %.0f s, ETA %.0f s" % (n, len(todo), s["id"], el,
                                                                        el / n * (len(todo) - n)), file=sys.stderr)
    return 0


def judge_linux(a):
    cli = str(Path(a.cli).resolve())
    rows = []
    for d in a.runs:
        for r in judge_existing(cli, d):
            rows.append(r)
            print("%s %-8s %-13s model %-13s tied %-20s %s cwnd err %s loss %s calib %s" % (
                r["id"], r["vantage"], r["variant"], r.get("model"), "|".join(r.get("tied_models") or []),
                r.get("variant_outcome"), fmt_pct(r.get("cwnd_error")), fmt_pct(r.get("cwnd_loss_error")),
                fmt_pct(r.get("calibration_error"))))
    if a.out:
        a.out.mkdir(parents=True, exist_ok=True)
        with open(a.out / "results.jsonl", "a") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    return 0


def fmt_pct(x):
    return "-" if x is None else "%.1f %%" % (100 * x)


if __name__ == "__main__":
    sys.exit(main())
