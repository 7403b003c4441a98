# SPDX-License-Identifier: GPL-3.0-or-later
"""Family L of the fidelity harness: real Linux TCP from the Linux lab
(../shared/lab/linux, `lab.py run NAME --from RUN --set key=value`), judged against the
kernel's own cwnd (tcp_probe, cwnd.csv) and congestion state (castate.csv).

The lab runs in real time on network namespaces and a userspace relay: it needs root and
a quiet machine (another process on its cores shows up as path jitter), and one run at a
time (its namespaces have fixed names)."""

import csv
import json
import os
import shutil
import subprocess
from bisect import bisect_right
from pathlib import Path

from draws import fixes_of
from measure import data_segments_of, find_flow, cli_json, judge_capture, run

# Every segment the lab's veths carry is one MSS with timestamps (its README: TSO/GSO off,
# gso_max_segs 1), so the kernel's snd_cwnd in packets is that many 1448-byte segments.
LINUX_MSS = 1448
# A run's wall time beyond its transfer: start-up slack, 2.5 s capture flush and
# post-processing (the lab's README: about 7 s per small run), with margin.
RUN_OVERHEAD_S = 60


def busy(cpus=None):
    """The 1-minute load average per CPU, and whether it is above half a core each: the
    relay's delay line is a real-time loop, and a busy machine delays its releases."""
    load = os.getloadavg()[0] / (cpus or os.cpu_count() or 1)
    return load, load > 0.5


def lab_run(cfg, name, sets, out_dir):
    """One `lab.py run` into out_dir (moved from $LAB_OUT/linux/out/NAME)."""
    if (out_dir / "meta.json").exists():
        return True, ""
    if cfg.get("no_simulate"):
        return False, "not run (--no-simulate)"
    lab = cfg["linux_lab"]
    lab_out = cfg["linux_out"]
    relay = lab_out / "linux" / "build" / "relay"
    if not relay.exists():
        relay.parent.mkdir(parents=True, exist_ok=True)
        rc, _, err = run(["gcc", "-O2", "-Wall", "-o", str(relay), str(lab / "relay.c")], 300)
        if rc != 0:
            return False, "relay.c does not compile: " + err.strip()[-200:]
    cmd = ["python3", str(lab / "lab.py"), "run", name, "--from", cfg.get("linux_from", "reno-clean")]
    for k, v in sets.items():
        cmd += ["--set", "%s=%s" % (k, json.dumps(v))]
    env = dict(os.environ, LAB_OUT=str(lab_out))
    try:
        rc, _, err = run(cmd, sets.get("duration", 20) + RUN_OVERHEAD_S, env=env)
    except subprocess.TimeoutExpired:
        return False, "lab.py run timed out"
    made = lab_out / "linux" / "out" / name
    if rc != 0 or not (made / "meta.json").exists():
        return False, "lab.py exit %d: %s" % (rc, err.strip()[-300:])
    # the 802.11 framing a monitor next to the AP would capture (tools/make-wlan.sh's eth2wlan)
    wlan = lab.parent / "tools" / "make-wlan.sh"
    ap = lab_out / "linux" / "wlan" / name / "ap.pcap"
    if wlan.exists():
        try:
            run(["bash", str(wlan), name], 300, env=env)
        except subprocess.TimeoutExpired:
            pass
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(made), str(out_dir))
    if ap.exists():
        shutil.move(str(ap), str(out_dir / "ap.pcap"))
        shutil.rmtree(ap.parent, ignore_errors=True)
    return True, ""


def kernel_truth(cli, run_dir, port):
    """The sender's true window at each of its transmissions, in the shape ns-3's
    tx_segments.csv gives (seq -> [(time, cwnd bytes, rwnd bytes, state)]): each data
    segment of sender.pcap (the sender's own interface, the same clock as the trace)
    takes the kernel's last tcp_probe before it (cwnd_segments x MSS, snd_wnd) and the
    last tcp_cong_state_set before it."""
    probes = []
    with open(run_dir / "cwnd.csv") as f:
        for r in csv.DictReader(f):
            probes.append((float(r["time_s"]), int(r["cwnd_segments"]) * LINUX_MSS, int(r["snd_wnd"])))
    states = []
    cas = run_dir / "castate.csv"
    if cas.exists():
        with open(cas) as f:
            states = [(float(r["time_s"]), r["ca_state"]) for r in csv.DictReader(f)]
    sender = run_dir / "sender.pcap"
    flow = find_flow(cli_json(cli, ["analyze", str(sender)]), port)
    if not flow or not probes:
        return {}
    ptimes = [p[0] for p in probes]
    stimes = [s[0] for s in states]
    tx = {}
    for t, seq in data_segments_of(cli, sender, flow[0], flow[1]):
        k = bisect_right(ptimes, t) - 1
        if k < 0:
            # before the first ACK of the connection: the initial window (RFC 6928, 10 segments)
            cwnd, rwnd = 10 * LINUX_MSS, probes[0][2]
        else:
            _, cwnd, rwnd = probes[k]
        j = bisect_right(stimes, t) - 1
        state = states[j][1] if j >= 0 else "0"
        tx.setdefault(seq, []).append((t, cwnd, rwnd, state))
    return tx


def evaluate_linux(s, cfg):
    work = cfg["sims"] / s["id"]
    ok, why = lab_run(cfg, "fid-%s-base" % s["id"], s["linux_set"], work / "base")
    if not ok:
        return [{"id": s["id"], "family": "L", "focus": s.get("focus"), "sim_error": why}]
    fix_dirs = {}
    for fx in fixes_of(s):
        d = work / fx.get("dir", "fix")
        fix_ok, fix_why = lab_run(cfg, "fid-%s-%s" % (s["id"], fx.get("dir", "fix")), fx["linux_set"], d)
        fix_dirs[fx["fix"]] = d if fix_ok else fix_why
    meta = json.loads((work / "base" / "meta.json").read_text())
    tx = kernel_truth(cfg["cli"], work / "base", s.get("server_port", 47001))
    rows = []
    for cap, vantage in s["vantages"].items():
        row = judge_capture(s, cfg, work, cap, vantage, tx, fix_dirs)
        # the relay's lateness is the path's jitter a busy machine adds (the lab's README)
        row["relay_release_lateness"] = (meta.get("relay") or {}).get("release_lateness")
        rows.append(row)
    if not cfg["keep"]:
        for p in work.rglob("*.pcap"):
            p.unlink()
    return rows


def judge_existing(cli, run_dir, cap_names=("sender.pcap", "receiver.pcap", "ap-wlan.pcap")):
    """Judges a Linux run already made (e.g. one of the lab's corpus runs), without
    running the lab: the check of this family's truth path on a machine that is not quiet."""
    meta = json.loads((Path(run_dir) / "meta.json").read_text())
    params = meta.get("parameters") or {}
    s = {"id": Path(run_dir).name, "family": "L", "seed": params.get("seed", 1), "variant": params.get("cc", "?"),
         "server_port": 47001, "vantages": {}, "fixes": []}
    for c in cap_names:
        if (Path(run_dir) / c).exists():
            s["vantages"][c] = "sender" if c.startswith("sender") else ("receiver" if c.startswith("receiver") else "ap")
    tx = kernel_truth(cli, Path(run_dir), 47001)
    work = Path(run_dir).parent / "__judge__"  # judge_capture reads WORK/base/CAPTURE
    cfg = {"cli": cli, "no_simulate": True, "keep": True}
    rows = []
    for cap, vantage in s["vantages"].items():
        rows.append(judge_capture(s, cfg, _Alias(work, Path(run_dir)), cap, vantage, tx, {}))
    return rows


class _Alias:
    """A work directory whose base/ is an existing run directory."""

    def __init__(self, work, base):
        self._work, self._base = work, base

    def __truediv__(self, part):
        return self._base if part == "base" else self._work / part
