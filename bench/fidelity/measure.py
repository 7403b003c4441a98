# SPDX-License-Identifier: GPL-3.0-or-later
"""The one simulate / run / match code path of the fidelity harness: ns-3 runs, the
windscope-cli calls on each capture, the match of captured segments to the sender's true
window, the variant judgement and the fix effects. The Linux lab's runs go through the
same functions (linux_lab.py builds their truth in the same shape)."""

import csv
import json
import statistics
import subprocess
from bisect import bisect_right

from draws import VARIANTS, fixes_of, with_arg

# Reno and NewReno differ only in partial-ACK handling during recovery and in the
# stack's cwnd-limited rule; the identification counts them as one AIMD family.
FAMILY = {"reno": "reno", "newreno": "reno", "cubic": "cubic", "westwood-plus": "westwood-plus",
          "veno": "veno", "bbr": "bbr"}
# Congestion states in which a segment is sent inside a loss episode: ns-3's
# TcpSocketState::TcpCongState_t names, and Linux's tcp_ca_state (CWR 2, Recovery 3, Loss 4).
LOSS_STATES = {"CA_RECOVERY", "CA_LOSS", "CA_CWR", "2", "3", "4"}


def run(cmd, timeout, cwd=None, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                       text=True, cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr


def simulate(cfg, program, args, out_dir, need_captures=True):
    """Runs one ns-3 scenario into out_dir unless it is there already. With --no-simulate
    (re-judging runs made before) a missing run is not made."""
    if (out_dir / "meta.json").exists() and (not need_captures or any(out_dir.glob("*.pcap"))):
        return True, ""
    if cfg.get("no_simulate"):
        return False, "no finished run there (--no-simulate: the simulator failed on it or it was never made)"
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        rc, _, err = run([str(cfg["ns3"] / program), "--out=" + str(out_dir)] + args, cfg["timeout"])
    except subprocess.TimeoutExpired:
        return False, "ns-3 run timed out after %d s" % cfg["timeout"]
    if rc != 0 or not (out_dir / "meta.json").exists():
        return False, "ns-3 exit %d: %s" % (rc, err.strip()[-300:])
    return True, ""


def stalled_at_start(run_dir):
    """Why the run's transfer never got past its first flight, or None. A run whose
    receiver got no more than the initial window in the whole run (its connection backed
    off from timeouts ever since) measures the simulated chain's set-up, not TCP: its
    goodput ratios (hundreds to one) judge nothing, so its captures or its fix effect are
    not judged and are counted apart. From the lab's truth (rx_progress.csv, meta.json)."""
    try:
        tcp = json.loads((run_dir / "meta.json").read_text()).get("tcp", {})
        window = int(tcp["initial_cwnd_segments"]) * int(tcp["mss_bytes"])
        with open(run_dir / "rx_progress.csv") as f:
            rows = list(csv.reader(f))
        delivered = int(rows[-1][1]) if len(rows) > 1 else 0
    except (OSError, KeyError, ValueError, IndexError, json.JSONDecodeError):
        return None
    if delivered > window:
        return None
    return "the receiver got %d bytes in the whole run, at most the initial window (%d)" % (delivered, window)


def cli_json(cli, args, timeout=600):
    rc, out, err = run([cli] + args + ["--json"], timeout)
    if rc != 0:
        # replay exits 0 with a warning on a poor calibration; anything else is an error
        raise RuntimeError("windscope-cli %s: exit %d: %s" % (" ".join(args[:1]), rc, err.strip()[-300:]))
    return json.loads(out)


def find_flow(analysis, port=5001):
    """The connection carrying the server's data (from its port) and its direction index."""
    best = None
    for c in analysis.get("connections", []):
        for i, d in enumerate(c.get("directions", [])):
            if d.get("from", "").endswith(":%d" % port) and d.get("unique_bytes", 0) > 0:
                if best is None or d["unique_bytes"] > best[2]["unique_bytes"]:
                    best = (c["id"], i, d)
    return best


def goodput_of(cli, capture, port=5001):
    a = cli_json(cli, ["analyze", str(capture)])
    f = find_flow(a, port)
    return (f[2].get("goodput_bps") if f else None), a, f


def read_tx_segments(path):
    """ns-3's tx_segments.csv: seq -> list of (time, cwnd, rwnd, state), in send order."""
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


def match_errors(segs, series, tx):
    """Median relative error of min(cwnd, rwnd) over the captured data segments, overall
    and over those sent in a loss episode. Each segment is matched to the sender's latest
    transmission of its sequence number at or before the capture saw it (1 ms slack: the
    capture's clock resolution). Beyond the receive window a cwnd bounds nothing and is
    invisible to any capture (ns-3 lets it grow there, RFC 7661 stacks do not)."""
    errs, loss_errs = [], []
    for (t, seq), row in zip(segs, series):
        sends = tx.get(seq)
        if not sends or row.get("cwnd_bytes") is None:
            continue
        times = [s[0] for s in sends]
        k = max(0, bisect_right(times, t + 1e-3) - 1)
        _, true_cwnd, rwnd, state = sends[k]
        truth = min(true_cwnd, rwnd) if rwnd > 0 else true_cwnd
        guess = min(row["cwnd_bytes"], rwnd) if rwnd > 0 else row["cwnd_bytes"]
        if truth <= 0:
            continue
        e = abs(guess - truth) / truth
        errs.append(e)
        if state in LOSS_STATES:
            loss_errs.append(e)
    return errs, loss_errs


def cwnd_errors(cli, capture, flow_id, direction, tx, true_model=None):
    """The inference's answer on one capture and its cwnd error; with true_model also the
    error with the run's own model forced (`--model`), which tells the vantage's error
    from the identification's."""
    inferred = cli_json(cli, ["cwnd", str(capture), "--flow", str(flow_id)])
    series = inferred.get("series", [])
    segs = data_segments_of(cli, capture, flow_id, direction)
    model = inferred.get("model", "")
    # a rate-based sender is not followed by a window model: ns-3's and Linux's BBR
    if not inferred.get("followed", True) and inferred.get("not_followed_reason") == "rate_based_sender":
        model = "bbr"
    out = {"model": model, "tied_models": inferred.get("tied_models") or [],
           "inferred_vantage": inferred.get("vantage", ""),
           "undetermined": inferred.get("model_undetermined_reason", ""),
           "followed": inferred.get("followed", False)}
    if len(series) != len(segs) or not series:
        out["cwnd_error"] = None
        out["cwnd_note"] = "series rows %d != data segments %d" % (len(series), len(segs))
        return out
    errs, loss_errs = match_errors(segs, series, tx)
    out["cwnd_error"] = statistics.median(errs) if errs else None
    out["cwnd_loss_error"] = statistics.median(loss_errs) if loss_errs else None
    out["cwnd_samples"] = len(errs)
    out["cwnd_loss_samples"] = len(loss_errs)
    if true_model and true_model != model:
        try:
            forced = cli_json(cli, ["cwnd", str(capture), "--flow", str(flow_id), "--model", true_model])
            fs = forced.get("series", [])
            if len(fs) == len(segs):
                e, _ = match_errors(segs, fs, tx)
                out["cwnd_error_true_model"] = statistics.median(e) if e else None
        except (RuntimeError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
            out["cwnd_true_model_note"] = str(e)[:200]
    elif true_model:
        out["cwnd_error_true_model"] = out["cwnd_error"]
    return out


def derived_scenario(cli, capture, flow_id):
    """What the replay's derivation read from the capture: the path's rate and the
    802.11 chain (its scenario's path.bottleneck_mbps, mac.hops)."""
    rc, out, err = run([cli, "replay", str(capture), "--flow", str(flow_id), "--dump-scenario", "-"], 600)
    if rc != 0:
        return {"derive_error": err.strip()[-200:]}
    s = json.loads(out)
    mac = s.get("mac") or {}
    return {"derived_bottleneck_mbps": (s.get("path") or {}).get("bottleneck_mbps"),
            "mac_enabled": bool(mac.get("enabled", False)),
            "hops_read": mac.get("hops", 1) if mac.get("enabled", False) else 1}


def alike_senders(dir_a, dir_b):
    """Whether two runs' senders cannot be told apart from any capture: they sent the
    same segments at the same times (1 ms), or, among the segments both sent, they
    re-sent the same ones and at each one's first send the windows they had
    (min(cwnd, receive window)) differ by less than one segment. A capture resolves a
    window only in whole segments, so two windows closer than that are one to every
    inference (ns-3's Veno and NewReno part by one ACK's increment after some
    recoveries: a few bytes, and sends a millisecond or two apart)."""
    def sends(d):
        with open(d / "tx_segments.csv") as f:
            return [(round(float(r["time_s"]), 3), r["seq"]) for r in csv.DictReader(f)]

    def load(d):
        first, resent, mss = {}, set(), 0
        with open(d / "tx_segments.csv") as f:
            for r in csv.DictReader(f):
                if not r.get("seq") or not r.get("cwnd_bytes"):
                    continue
                seq, window = int(r["seq"]), int(r["cwnd_bytes"])
                rwnd = int(r.get("rwnd_bytes") or 0)
                if rwnd > 0:
                    window = min(window, rwnd)
                mss = max(mss, int(r.get("len") or 0))
                if seq in first:
                    resent.add(seq)
                else:
                    first[seq] = window
        return first, resent, mss
    try:
        if sends(dir_a) == sends(dir_b):
            return True
        (a, resent_a, mss_a), (b, resent_b, mss_b) = load(dir_a), load(dir_b)
    except OSError:
        return False
    common = a.keys() & b.keys()
    mss = max(mss_a, mss_b)
    if not common or not mss:
        return False
    return (resent_a & common) == (resent_b & common) and all(abs(a[q] - b[q]) < mss for q in common)


def variant_outcome(truth, model, tied):
    """right / tied (the tie's candidates include the truth) / wrong, before any twin
    check; Reno and NewReno are one family."""
    want = FAMILY.get(truth, truth)
    if FAMILY.get(model, model) == want:
        return "right"
    if tied:
        return "tied" if any(FAMILY.get(m, m) == want for m in tied) else "wrong"
    return "wrong"


def twin_run(cfg, s, work, variant):
    """The scenario's run with only the variant changed, simulated once per scenario
    (every capture point of the scenario shares it); its captures are not kept."""
    twin = work / ("twin-" + VARIANTS[variant])
    ok, _ = simulate(cfg, s["program"], with_arg(s["args"], "tcp", variant), twin, need_captures=False)
    if not cfg.get("no_simulate"):
        for p in twin.glob("*.pcap"):
            p.unlink()
    return twin if ok else None


def judge_variant(s, row, cfg, work):
    """The identification's outcome, with twin runs (the same scenario and seed with
    another variant) deciding what this run can tell apart:
    - a single wrong answer whose own run's sender is alike the truth's (alike_senders:
      windows never a segment apart, the same re-sends) is indistinguishable, not wrong; "undetermined" without candidates
      counts so when any other variant's run is the same as the truth's;
    - a tie that includes the truth is indistinguishable when every other tied
      candidate's run is the same as the truth's, and stays "tied" (its own column, not
      right) when one of them behaves differently: the inference failed to split them;
    - a tie that leaves the truth out is wrong unless a tied candidate's run is the
      same as the truth's."""
    model, tied = row.get("model", ""), row.get("tied_models") or []
    outcome = variant_outcome(row["variant"], model, tied)
    row["variant_outcome"] = outcome
    row["variant_ok"] = outcome == "right"
    if outcome == "right" or s["family"] == "L":
        # a real-time run is never the same twice: no twin run can show a Linux pair alike
        return
    want = FAMILY[row["variant"]]
    if outcome == "tied":
        variants = [v for v, m in VARIANTS.items() if m in tied and FAMILY[m] != want and v != "TcpBbr"]
        if variants and all((t := twin_run(cfg, s, work, v)) and alike_senders(work / "base", t)
                            for v in variants):
            row["indistinguishable"] = True
            row["indistinguishable_from"] = "/".join(sorted(VARIANTS[v] for v in variants))
            row["variant_outcome"] = "indistinguishable"
        return
    if tied:
        named = {FAMILY.get(m, m) for m in tied}
        twins = [v for v, m in VARIANTS.items() if FAMILY[m] in named]
    elif model in FAMILY:
        twins = [v for v, m in VARIANTS.items() if FAMILY[m] == FAMILY[model]]
    else:
        twins = [v for v, m in VARIANTS.items() if FAMILY[m] != want and v != "TcpBbr"]
    row["indistinguishable"] = False
    for variant in twins:
        twin = twin_run(cfg, s, work, variant)
        if twin and alike_senders(work / "base", twin):
            row["indistinguishable"] = True
            row["indistinguishable_from"] = VARIANTS[variant]
            row["variant_outcome"] = "indistinguishable"
            return


def judge_capture(s, cfg, work, cap_name, vantage, tx, fix_dirs):
    """Every measure on one capture of the base run. fix_dirs: fix name -> directory of
    its run simulated for real (None when the simulator failed on it, with the reason)."""
    port = s.get("server_port", 5001)
    cap = work / "base" / cap_name
    row = {"id": s["id"], "family": s["family"], "variant": VARIANTS.get(s["variant"], s["variant"]),
           "capture": cap_name, "vantage": vantage, "hops": s.get("hops"), "seed": s["seed"],
           "focus": s.get("focus"), "dwell_ms": s.get("dwell_ms"), "scan_interval_ms": s.get("scan_interval_ms"),
           "path_rate_mbps": s.get("path_rate_mbps")}
    if not cap.exists():
        row["error"] = "no capture " + cap_name
        return row
    stalled = stalled_at_start(work / "base")
    if stalled:
        row["stalled"] = stalled
        return row
    try:
        goodput, _, flow = goodput_of(cfg["cli"], cap, port)
        if not flow:
            row["error"] = "no server data flow in the capture"
            return row
        flow_id, direction, _ = flow
        row["capture_goodput_bps"] = goodput
        row.update(cwnd_errors(cfg["cli"], cap, flow_id, direction, tx, row["variant"]))
        row.update(derived_scenario(cfg["cli"], cap, flow_id))
        if row.get("path_rate_mbps") and row.get("derived_bottleneck_mbps"):
            # the scenario's rate carries the headers: compared on the wire, as links are rated
            row["path_rate_error"] = abs(row["derived_bottleneck_mbps"] / row["path_rate_mbps"] - 1)
    except (RuntimeError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
        row["error"] = str(e)[:300]
        return row
    judge_variant(s, row, cfg, work)
    row["fixes"] = []
    if not fixes_of(s):
        try:
            replay = cli_json(cfg["cli"], ["replay", str(cap), "--flow", str(flow_id)])
            row["calibration_error"] = (replay.get("calibration_error") or {}).get("goodput")
            row["baseline_goodput_bps"] = (replay.get("baseline") or {}).get("goodput_bps")
            row["replay_capture_goodput_bps"] = (replay.get("capture") or {}).get("goodput_bps")
        except (RuntimeError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
            row["replay_error"] = str(e)[:300]
    for fx in fixes_of(s):
        f = {"fix": fx["fix"]}
        try:
            replay = cli_json(cfg["cli"], ["replay", str(cap), "--flow", str(flow_id), "--fix", fx["fix"]])
            if "calibration_error" not in row:
                row["calibration_error"] = (replay.get("calibration_error") or {}).get("goodput")
                row["baseline_goodput_bps"] = (replay.get("baseline") or {}).get("goodput_bps")
                # the capture's goodput as the calibration reads it (over the span a cut
                # capture recorded), which the error is against
                row["replay_capture_goodput_bps"] = (replay.get("capture") or {}).get("goodput_bps")
                # whether the derivation read a periodic scan (steps_scans.cpp) from the capture
                row["periodic_scan_derived"] = any(n.startswith("periodic_scan:") for n in replay.get("notes", []))
            # a capture cut mid-transfer compares the fix with the baseline over its time
            base_gp = (replay.get("fix_baseline") or replay.get("baseline") or {}).get("goodput_bps")
            fixed_gp = (replay.get("fixed") or {}).get("goodput_bps")
            f["predicted_ratio"] = fixed_gp / base_gp if base_gp and fixed_gp else None
            # the same fix with the queue at the least the capture allows, where it never saw it full
            floor = replay.get("fix_effect_at_queue_floor") or {}
            if floor.get("goodput_ratio"):
                f["predicted_ratio_at_queue_floor"] = floor["goodput_ratio"]
            fix_dir = fix_dirs.get(fx["fix"])
            if isinstance(fix_dir, str):
                f["sim_error"] = fix_dir
            elif fix_dir is not None and (fix_stalled := stalled_at_start(fix_dir)):
                f["stalled"] = fix_stalled
            elif fix_dir is not None and (fix_dir / cap_name).exists():
                fix_gp, _, _ = goodput_of(cfg["cli"], fix_dir / cap_name, port)
                if fix_gp and goodput:
                    f["true_ratio"] = fix_gp / goodput
            if f.get("true_ratio") and f.get("predicted_ratio"):
                f["fix_effect_error"] = abs(f["predicted_ratio"] / f["true_ratio"] - 1)
        except (RuntimeError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
            f["replay_error"] = str(e)[:300]
        row["fixes"].append(f)
    return row


def evaluate(s, cfg):
    """One ns-3 scenario: the base run, each fix's run, every capture judged."""
    work = cfg["sims"] / s["id"]
    ok, why = simulate(cfg, s["program"], s["args"], work / "base")
    if not ok:
        # the simulator's own failure (ns-3.37 crashes on a few parameter sets): not a
        # capture, so not judged; reported apart
        return [{"id": s["id"], "family": s["family"], "focus": s.get("focus"), "sim_error": why}]
    fix_dirs = {}
    for fx in fixes_of(s):
        d = work / fx.get("dir", "fix")
        fix_ok, fix_why = simulate(cfg, s["program"], fx["args"], d)
        fix_dirs[fx["fix"]] = d if fix_ok else fix_why
    tx = read_tx_segments(work / "base" / "tx_segments.csv")
    rows = [judge_capture(s, cfg, work, cap, vantage, tx, fix_dirs) for cap, vantage in s["vantages"].items()]
    if not cfg["keep"]:
        for p in work.rglob("*.pcap"):
            p.unlink()
    return rows
