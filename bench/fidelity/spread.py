# SPDX-License-Identifier: GPL-3.0-or-later
"""The lab's own spread: each drawn ns-3 scenario (its base run and every fix) simulated
again with other seeds. One run is one draw of the randomness the scenario holds
(802.11 backoffs, random loss, the phase of scans against the flights); a replay that
predicts the mean of those draws is off a single draw by the draw's own spread. The
spread tells that part of a calibration or fix-effect error apart from the replay's own:
how often one seed's run is within the bound of the other seeds' mean (what any
prediction of the mean can reach), and how often the replay is within it of the mean of
all seeds (what the replay gets right of what the capture is a draw of)."""

import json
import shutil

from draws import fixes_of, with_arg
from measure import simulate

# Seeds of the spread runs: far apart from the drawn seed and from each other, never 1
# (the corpus in ../shared) and within ns-3's RngSeedManager range.
SEED_STRIDE = 104_729


def spread_seeds(seed, count):
    return [2 + (seed + k * SEED_STRIDE) % 999_983 for k in range(1, count + 1)]


def goodput_mbps(run_dir):
    try:
        return json.loads((run_dir / "meta.json").read_text())["results"]["goodput_mbps"]
    except (OSError, KeyError, ValueError):
        return None


def spread_of(s, cfg, count):
    """The scenario's base and fix runs with `count` other seeds: their goodputs (Mb/s, as
    meta.json gives them) beside the drawn seed's. Captures are not kept."""
    work = cfg["sims"] / s["id"]
    row = {"id": s["id"], "family": s["family"], "seed": s["seed"],
           "base_mbps": goodput_mbps(work / "base"), "seed_base_mbps": [], "fixes": {}}
    for fx in fixes_of(s):
        row["fixes"][fx["fix"]] = {"fix_mbps": goodput_mbps(work / fx.get("dir", "fix")), "seed_fix_mbps": []}
    for seed in spread_seeds(s["seed"], count):
        out = cfg["spread_dir"] / s["id"] / ("seed-%d" % seed)
        ok, _ = simulate(cfg, s["program"], with_arg(s["args"], "seed", seed), out / "base", need_captures=False)
        row["seed_base_mbps"].append(goodput_mbps(out / "base") if ok else None)
        for fx in fixes_of(s):
            d = out / fx.get("dir", "fix")
            ok, _ = simulate(cfg, s["program"], with_arg(fx["args"], "seed", seed), d, need_captures=False)
            row["fixes"][fx["fix"]]["seed_fix_mbps"].append(goodput_mbps(d) if ok else None)
        for p in out.rglob("*.pcap"):
            p.unlink()
    if not cfg.get("keep_csv"):
        shutil.rmtree(cfg["spread_dir"] / s["id"], ignore_errors=True)
    return row


def mean(values):
    values = [v for v in values if v]
    return sum(values) / len(values) if values else None


def expectations(spread_row):
    """What the spread says of one scenario: the drawn run against the mean of the other
    seeds (the draw's own deviation from the scenario's mean, as far as k other draws
    tell it), and the means over every seed of the base and of each fix (the expected
    goodput the replay predicts)."""
    base = spread_row.get("base_mbps")
    others = [v for v in spread_row.get("seed_base_mbps", []) if v]
    if not base or not others:
        return None
    # A draw less the mean of k others spreads as sqrt(1 + 1/k) draws' worth: scaled
    # back, its distance stands for the draw's from the scenario's own mean.
    shrink = (len(others) / (len(others) + 1)) ** 0.5
    out = {"draw_vs_others": (base / mean(others) - 1) * shrink, "base_scale": mean([base] + others) / base,
           "fixes": {}}
    for name, f in spread_row.get("fixes", {}).items():
        fix_others = [v for v in f.get("seed_fix_mbps", []) if v]
        if not f.get("fix_mbps") or not fix_others:
            continue
        true_draw = f["fix_mbps"] / base
        true_mean = mean([f["fix_mbps"]] + fix_others) / mean([base] + others)
        # the drawn pair's ratio against the ratio of the other seeds' means
        out["fixes"][name] = {"draw_vs_others": (true_draw / (mean(fix_others) / mean(others)) - 1) * shrink,
                              "ratio_scale": true_mean / true_draw}
    return out
