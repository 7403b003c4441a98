# SPDX-License-Identifier: GPL-3.0-or-later
"""The fidelity harness' tables: the overview per family and vantage, the issue's
"Must show" table with pass/fail per threshold, and the focused views (path-rate,
variants, chains, scan-dwell) that the former one-purpose scripts printed."""

import json
import math
import statistics

from spread import expectations

# Thresholds of the "Must show".
CWND_SENDER_BOUND = 0.10
CWND_OTHER_BOUND = 0.20
LOSS_FACTOR = 2  # "and <= 2x those inside loss episodes"
CALIBRATION_BOUND = 0.10
FIX_EFFECT_BOUND = 0.15
PATH_RATE_BOUND = 0.10  # the path-rate view's share: as the calibration bound
SHARE_CWND = 0.90
SHARE_IDENT = 0.90
SHARE_CALIB = 0.90
SHARE_FIX = 0.85
MIN_SCENARIOS = 200
# The issue's "longer dwell": its scans of 20 ms, against the corpus' 10 ms.
LONG_DWELL_MS = 20
VANTAGE_ORDER = ["sender", "ap", "first-radio", "receiver"]
OUTCOMES = ["right", "tied", "indistinguishable", "wrong"]


# ----------------------------------------------------------------------------- rows


def row_fixes(r):
    """A row's fix results; rows written before several fixes per scenario carry one."""
    if "fixes" in r:
        return r["fixes"]
    if r.get("fix"):
        return [{"fix": r["fix"], "predicted_ratio": r.get("predicted_ratio"), "true_ratio": r.get("true_ratio"),
                 "fix_effect_error": r.get("fix_effect_error"), "sim_error": r.get("fix_sim_error"),
                 "replay_error": r.get("replay_error")}]
    return []


def outcome(r):
    if "variant_outcome" in r:
        return r["variant_outcome"]
    if "variant_ok" not in r:
        return None
    if r["variant_ok"]:
        return "right"
    return "indistinguishable" if r.get("indistinguishable") else "wrong"


def cwnd_bound(vantage):
    return CWND_SENDER_BOUND if vantage == "sender" else CWND_OTHER_BOUND


def fix_case(r, fix):
    """The issue's named fix-effect cases a fix result belongs to."""
    name = fix["fix"].split("=")[0]
    cases = []
    if name == "max-window":
        cases.append("window")
    if name == "cc":
        cases.append("variant")
    if name == "ampdu-max" and (r.get("hops") or 1) >= 2:
        cases.append("A-MPDU over hops")
    if name in ("scan-aware-ap", "scan-dwell") and (r.get("dwell_ms") or 0) >= LONG_DWELL_MS:
        cases.append("scan dwell")
    return cases


# ----------------------------------------------------------------------------- numbers


def pct(values, q):
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    i = min(len(v) - 1, max(0, int(math.ceil(q * len(v))) - 1))
    return v[i]


def median(values):
    v = [x for x in values if x is not None]
    return statistics.median(v) if v else None


def share_within(values, bound):
    v = [x for x in values if x is not None]
    return (sum(1 for x in v if x <= bound) / len(v)) if v else None


def fmt(x, p=False):
    if x is None:
        return "-"
    return ("%.0f %%" % (100 * x)) if p else ("%.3f" % x)


def quantiles(values):
    v = sorted(x for x in values if x is not None)
    if not v:
        return "n=0"
    return "n=%d p10 %s median %s p90 %s max %s" % (len(v), fmt(pct(v, 0.1), True), fmt(median(v), True),
                                                   fmt(pct(v, 0.9), True), fmt(v[-1], True))


def signed_summary(label, values, bound):
    if not values:
        return "%-50s n=0" % label
    a = [abs(v) for v in values]
    return "%-50s n=%3d  |err| median %s  p90 %s  max %s  signed median %+.0f %%  within %.0f %%: %d/%d" % (
        label, len(values), fmt(median(a), True), fmt(pct(a, 0.9), True), fmt(max(a), True),
        100 * statistics.median(values), 100 * bound, sum(1 for x in a if x <= bound), len(values))


def split(rows):
    good = [r for r in rows if "error" not in r and "sim_error" not in r and "stalled" not in r]
    return good, [r for r in rows if "error" in r], [r for r in rows if "sim_error" in r]


def vantages_of(rows):
    seen = {r["vantage"] for r in rows}
    return [v for v in VANTAGE_ORDER if v in seen] + sorted(seen - set(VANTAGE_ORDER))


# ----------------------------------------------------------------------------- overview


def overview(rows, plan=None):
    good, failed, sim_failed = split(rows)
    groups = {}
    for r in good:
        for key in ((r["family"], r["vantage"]), ("all", r["vantage"]), ("all", "all")):
            groups.setdefault(key, []).append(r)
    table = []
    for key in sorted(groups, key=lambda k: (k[0] == "all", k[0], k[1] == "all", k[1])):
        rs = groups[key]
        oc = [outcome(r) for r in rs if outcome(r)]
        counts = {o: oc.count(o) for o in OUTCOMES}
        judged = counts["right"] + counts["wrong"]
        bound = cwnd_bound(key[1])
        fx = [f["fix_effect_error"] for r in rs for f in row_fixes(r) if f.get("fix_effect_error") is not None]
        table.append({
            "family": key[0], "vantage": key[1], "captures": len(rs), **counts,
            "variant_right": counts["right"] / judged if judged else None,
            "cwnd_median_error_p50": median(r.get("cwnd_error") for r in rs),
            "cwnd_within_bound": share_within([r.get("cwnd_error") for r in rs], bound),
            "cwnd_loss_within_2x": share_within([r.get("cwnd_loss_error") for r in rs], LOSS_FACTOR * bound),
            "calibration_p50": median(r.get("calibration_error") for r in rs),
            "calibration_within_10": share_within([r.get("calibration_error") for r in rs], CALIBRATION_BOUND),
            "fix_effect_p50": median(fx),
            "fix_effect_within_15": share_within(fx, FIX_EFFECT_BOUND),
        })
    return table


def print_stalled(rows):
    good, _, _ = split(rows)
    stalled = {r["id"] for r in rows if r.get("stalled")}
    fix_stalled = {(r["id"], f["fix"]) for r in good for f in row_fixes(r) if f.get("stalled")}
    if stalled or fix_stalled:
        print("runs whose transfer stalled at the start (the receiver got at most the initial window in "
              "the whole run; not judged): %d base runs (%s), %d fix runs (%s)" % (
                  len(stalled), " ".join(sorted(stalled)), len(fix_stalled),
                  " ".join("%s %s" % k for k in sorted(fix_stalled))))


def print_overview(rows, plan=None):
    good, failed, sim_failed = split(rows)
    table = overview(rows)
    scen = len({r["id"] for r in rows if "sim_error" not in r})
    if plan:
        print("master seed %s, %d scenarios drawn (scenarios.json keeps every one's arguments and seeds)"
              % (plan.get("master_seed"), len(plan.get("scenarios", []))))
    print("scenarios %d simulated (%d more the simulator failed on, not judged), captures judged %d, "
          "failed %d" % (scen, len({r["id"] for r in sim_failed}), len(good), len(failed)))
    print()
    head = ("family", "vantage", "caps", "variant", "tied", "indist", "wrong", "cwnd p50", "cwnd ok", "loss ok",
            "calib p50", "calib ok", "fix p50", "fix ok")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for t in table:
        print("| " + " | ".join([
            t["family"], t["vantage"], str(t["captures"]), fmt(t["variant_right"], True), str(t["tied"]),
            str(t["indistinguishable"]), str(t["wrong"]),
            fmt(t["cwnd_median_error_p50"], True), fmt(t["cwnd_within_bound"], True),
            fmt(t["cwnd_loss_within_2x"], True), fmt(t["calibration_p50"], True),
            fmt(t["calibration_within_10"], True), fmt(t["fix_effect_p50"], True),
            fmt(t["fix_effect_within_15"], True)]) + " |")
    print()
    print("variant: right / (right + wrong); tied (the tie's candidates include the truth) and "
          "indist (the run with the variant named sends the same segments, or re-sends the same with "
          "windows never a segment apart) are counted apart.")
    print_stalled(rows)
    fix_failed = {r["id"] for r in good for f in row_fixes(r) if f.get("sim_error")}
    if fix_failed:
        print("scenarios with a fix run the simulator failed on (that fix effect not judged): %d" % len(fix_failed))
    reasons = {}
    for r in good:
        for f in row_fixes(r):
            if f.get("replay_error"):
                reasons[f["replay_error"][:100]] = reasons.get(f["replay_error"][:100], 0) + 1
    if reasons:
        print("replay failures: " + "; ".join("%d x %s" % (n, k) for k, n in sorted(reasons.items(), key=lambda x: -x[1])[:8]))
    reasons = {}
    for r in failed:
        reasons[r["error"][:80]] = reasons.get(r["error"][:80], 0) + 1
    if reasons:
        print("failures: " + "; ".join("%d x %s" % (n, k) for k, n in sorted(reasons.items(), key=lambda x: -x[1])[:8]))


# ----------------------------------------------------------------------------- must show


def must_show(rows):
    """The issue's Must-show rows: (criterion, where, n, measured, bound text, pass, detail)."""
    good, _, _ = split(rows)
    scenarios = len({r["id"] for r in good})
    out = [("scenarios simulated and judged", "all", scenarios, str(scenarios), ">= %d" % MIN_SCENARIOS,
            scenarios >= MIN_SCENARIOS, "")]
    vantages = vantages_of(good)

    def share_row(criterion, where, values, bound, need, detail=""):
        v = [x for x in values if x is not None]
        s = share_within(v, bound)
        out.append((criterion, where, len(v), fmt(s, True), "<= %.0f %% in >= %.0f %%" % (100 * bound, 100 * need),
                    None if s is None else s >= need, detail))

    for vt in vantages:
        rs = [r for r in good if r["vantage"] == vt]
        oc = [outcome(r) for r in rs if outcome(r)]
        c = {o: oc.count(o) for o in OUTCOMES}
        judged = c["right"] + c["wrong"]
        s = c["right"] / judged if judged else None
        out.append(("variant identification", vt, judged, fmt(s, True), ">= %.0f %%" % (100 * SHARE_IDENT),
                    None if s is None else s >= SHARE_IDENT,
                    "right %d, tied incl. truth %d, indistinguishable %d, wrong %d" % (
                        c["right"], c["tied"], c["indistinguishable"], c["wrong"])))
    for vt in vantages:
        rs = [r for r in good if r["vantage"] == vt]
        share_row("cwnd median error", vt, [r.get("cwnd_error") for r in rs], cwnd_bound(vt), SHARE_CWND)
    for vt in vantages:
        rs = [r for r in good if r["vantage"] == vt]
        share_row("cwnd median error in loss episodes", vt, [r.get("cwnd_loss_error") for r in rs],
                  LOSS_FACTOR * cwnd_bound(vt), SHARE_CWND)
    for vt in vantages:
        rs = [r for r in good if r["vantage"] == vt]
        share_row("replay baseline vs capture goodput", vt, [r.get("calibration_error") for r in rs],
                  CALIBRATION_BOUND, SHARE_CALIB)
    for vt in vantages:
        rs = [r for r in good if r["vantage"] == vt]
        share_row("fix effect vs simulated, every fix", vt,
                  [f.get("fix_effect_error") for r in rs for f in row_fixes(r)], FIX_EFFECT_BOUND, SHARE_FIX)
    by_fix, by_case = {}, {}
    for r in good:
        for f in row_fixes(r):
            if f.get("fix_effect_error") is None:
                continue
            by_fix.setdefault(f["fix"].split("=")[0], []).append(f["fix_effect_error"])
            for case in fix_case(r, f):
                by_case.setdefault(case, []).append(f["fix_effect_error"])
    for name in sorted(by_fix):
        share_row("fix effect vs simulated, fix", name, by_fix[name], FIX_EFFECT_BOUND, SHARE_FIX)
    for case in ("window", "variant", "A-MPDU over hops", "scan dwell"):
        share_row("fix effect vs simulated, case", case, by_case.get(case, []), FIX_EFFECT_BOUND, SHARE_FIX,
                  {"window": "max-window", "variant": "cc=", "A-MPDU over hops": "ampdu-max on 2+ hops",
                   "scan dwell": "scan fixes, dwell >= %d ms" % LONG_DWELL_MS}[case])
    return out


def print_must_show(rows):
    print("| must show | where | n | measured | bound | pass | detail |")
    print("|---|---|---|---|---|---|---|")
    for crit, where, n, measured, bound, ok, detail in must_show(rows):
        verdict = "no runs" if ok is None else ("pass" if ok else "FAIL")
        print("| %s | %s | %d | %s | %s | %s | %s |" % (crit, where, n, measured, bound, verdict, detail))
    print()
    print("n counts captures (one run at one vantage), for the variant rows those right or wrong; "
          "scenarios counts the runs behind them.")
    print_queue_floor(rows)
    print_stalled(rows)


def print_queue_floor(rows):
    """Fix effects the capture cannot decide: the replay's effect with the queue it assumed
    (one BDP) and with the least the capture allows differ by more than the fix bound."""
    spans = []
    for r in split(rows)[0]:
        for f in row_fixes(r):
            low, high, truth = f.get("predicted_ratio_at_queue_floor"), f.get("predicted_ratio"), f.get("true_ratio")
            if low and high and truth and abs(high / low - 1) > FIX_EFFECT_BOUND:
                lo, hi = min(low, high), max(low, high)
                spans.append((f.get("fix_effect_error") or 0) <= FIX_EFFECT_BOUND or
                             lo * (1 - FIX_EFFECT_BOUND) <= truth <= hi * (1 + FIX_EFFECT_BOUND))
    if spans:
        print()
        print("fix effects on a queue the capture never saw full, whose two ends (one BDP, the fullest "
              "reading) differ by more than %.0f %%: %d; the simulated effect within %.0f %% of the span "
              "between them: %d (the rows above judge the one-BDP end)" % (
                  100 * FIX_EFFECT_BOUND, len(spans), 100 * FIX_EFFECT_BOUND, sum(spans)))


# ----------------------------------------------------------------------------- the lab's spread


def spread_errors(rows, spread_rows):
    """Per judged capture, beside the Must-show's error against the capture: the same
    prediction against the mean over the scenario's seeds, and the drawn run against the
    mean of the other seeds (spread.py). Returns (kind, where, family, case list,
    error vs capture, error vs seed mean, draw vs other seeds)."""
    exp = {r["id"]: expectations(r) for r in spread_rows if "error" not in r}
    out = []
    for r in split(rows)[0]:
        e = exp.get(r["id"])
        if not e:
            continue
        base_gp = r.get("baseline_goodput_bps")
        cap_gp = r.get("replay_capture_goodput_bps") or r.get("capture_goodput_bps")
        cal = r.get("calibration_error")
        if cal is not None and base_gp and cap_gp:
            # The error is against the capture's goodput as the replay reads it (over a cut
            # capture's span); rows without that reading take the side from the harness's.
            ratio = 1 + (cal if base_gp >= cap_gp else -cal)
            out.append(("calibration", r["vantage"], r["family"], [], cal, abs(ratio / e["base_scale"] - 1),
                        abs(e["draw_vs_others"])))
        for f in row_fixes(r):
            fe = e["fixes"].get(f["fix"])
            if f.get("fix_effect_error") is None or not fe:
                continue
            out.append(("fix", r["vantage"], r["family"], [f["fix"].split("=")[0]] + fix_case(r, f),
                        f["fix_effect_error"], abs(f["predicted_ratio"] / (f["true_ratio"] * fe["ratio_scale"]) - 1),
                        abs(fe["draw_vs_others"])))
    return out


def print_spread(rows, spread_rows, by_family=False):
    errors = spread_errors(rows, spread_rows)
    if not errors:
        return
    seeds = max((len(r.get("seed_base_mbps", [])) for r in spread_rows), default=0)
    print()
    print("the lab's own spread: every scenario again with %d other seeds (spread.jsonl). A replay predicts "
          "the mean of what its scenario's randomness gives; a capture is one draw of it." % seeds)
    print("| measure | where | n | one draw within the bound of its scenario's mean | replay within it of "
          "the capture (the Must-show) | replay within it of the mean of all seeds |")
    print("|---|---|---|---|---|---|")
    groups = {}
    for kind, vantage, family, cases, vs_capture, vs_mean, draw in errors:
        keys = [(kind, vantage)] + [(kind, c) for c in cases]
        if by_family:
            keys += [(kind, "%s %s" % (family, vantage))]
        for key in keys:
            groups.setdefault(key, []).append((vs_capture, vs_mean, draw))
    order = {v: i for i, v in enumerate(VANTAGE_ORDER)}
    for kind, where in sorted(groups, key=lambda k: (k[0], k[1] not in order, order.get(k[1], 0), k[1])):
        g = groups[(kind, where)]
        bound = CALIBRATION_BOUND if kind == "calibration" else FIX_EFFECT_BOUND
        print("| %s | %s | %d | %s | %s | %s |" % (
            "replay baseline vs goodput" if kind == "calibration" else "fix effect", where, len(g),
            fmt(share_within([x[2] for x in g], bound), True), fmt(share_within([x[0] for x in g], bound), True),
            fmt(share_within([x[1] for x in g], bound), True)))
    print("(a draw's distance from its scenario's mean: its distance from the other %d seeds' mean, over "
          "sqrt(1 + 1/%d), as the difference of a draw and a mean of %d spreads; what a prediction of the "
          "mean itself reaches)" % (seeds, seeds, seeds))


# ----------------------------------------------------------------------------- focused views


def focus_path_rate(good):
    rs = [r for r in good if r.get("path_rate_mbps")]
    print("path rate the derivation reads (replay --dump-scenario: path.bottleneck_mbps) against the "
          "run's bottleneck, and the window fix's effect (%d captures)" % len(rs))
    print("id vantage family truth_mbps derived_mbps err effect_pred effect_true err")
    for r in sorted(rs, key=lambda r: (r["id"], r["vantage"])):
        f = (row_fixes(r) or [{}])[0]
        print("%s %-8s %s %.2f %s %s %s %s %s" % (
            r["id"], r["vantage"], r.get("capture"), r["path_rate_mbps"], fmt(r.get("derived_bottleneck_mbps")),
            fmt(r.get("path_rate_error"), True), fmt(f.get("predicted_ratio")), fmt(f.get("true_ratio")),
            fmt(f.get("fix_effect_error"), True)))
    print()
    for vt in vantages_of(rs):
        sel = [r for r in rs if r["vantage"] == vt]
        e = [r.get("path_rate_error") for r in sel]
        print("rate error at %-10s %s; within %.0f %%: %s" % (vt, quantiles(e), 100 * PATH_RATE_BOUND,
                                                          fmt(share_within(e, PATH_RATE_BOUND), True)))
    for vt in vantages_of(rs):
        sel = [r for r in rs if r["vantage"] == vt]
        e = [f.get("fix_effect_error") for r in sel for f in row_fixes(r) if f["fix"].startswith("max-window")]
        print("max-window effect error at %-10s %s; within %.0f %%: %s" % (
            vt, quantiles(e), 100 * FIX_EFFECT_BOUND, fmt(share_within(e, FIX_EFFECT_BOUND), True)))


def focus_variants(good):
    rs = [r for r in good if outcome(r)]
    print("variant identification (%d captures): truth x answer per vantage; an answer is the model "
          "named, or tied:A/B for a tie" % len(rs))
    for vt in vantages_of(rs):
        sel = [r for r in rs if r["vantage"] == vt]
        answers = sorted({answer(r) for r in sel})
        truths = sorted({r["variant"] for r in sel})
        print()
        print("| %s: truth \\ answer | " % vt + " | ".join(answers) + " |")
        print("|---|" + "---|" * len(answers))
        for t in truths:
            print("| %s | " % t + " | ".join(str(sum(1 for r in sel if r["variant"] == t and answer(r) == a))
                                            for a in answers) + " |")
    print()
    print("| variant | vantage | runs | right | tied (truth among them) | indistinguishable | wrong | "
          "right of right+wrong | cwnd median err (median over runs) | runs within 10 % / 20 % |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for truth in sorted({r["variant"] for r in rs}) + ["all"]:
        for vt in vantages_of(rs):
            sel = [r for r in rs if r["vantage"] == vt and (truth == "all" or r["variant"] == truth)]
            if not sel:
                continue
            oc = [outcome(r) for r in sel]
            c = {o: oc.count(o) for o in OUTCOMES}
            errs = [r.get("cwnd_error") for r in sel if r.get("cwnd_error") is not None]
            judged = c["right"] + c["wrong"]
            print("| %s | %s | %d | %d | %d | %d | %d | %s | %s | %d/%d |" % (
                truth, vt, len(sel), c["right"], c["tied"], c["indistinguishable"], c["wrong"],
                fmt(c["right"] / judged if judged else None, True), fmt(median(errs), True),
                sum(1 for e in errs if e <= cwnd_bound(vt)), len(errs)))


def answer(r):
    tied = r.get("tied_models") or []
    return "tied:" + "/".join(tied) if tied else (r.get("model") or "?")


def focus_chains(good):
    rs = [r for r in good if r["family"] == "C"]
    print("multi-hop chains (scenario C, %d captures)" % len(rs))
    first = [r for r in rs if r["vantage"] == "first-radio"]
    read = [r for r in first if r.get("hops_read") is not None]
    print("hop count read right at the first radio: %d/%d" % (sum(1 for r in read if r["hops_read"] == r["hops"]),
                                                              len(read)))
    for vt in vantages_of(rs):
        for label, keep in (("all", lambda h: True), ("1 hop", lambda h: h == 1), ("2+ hops", lambda h: h >= 2)):
            sel = [r for r in rs if r["vantage"] == vt and keep(r.get("hops") or 1)]
            if not sel:
                continue
            fx = [f.get("fix_effect_error") for r in sel for f in row_fixes(r)]
            b = cwnd_bound(vt)
            print("== %s, %s (%d)" % (vt, label, len(sel)))
            print("  cwnd median error       : %s; within %.0f %%: %s" % (
                quantiles([r.get("cwnd_error") for r in sel]), 100 * b,
                fmt(share_within([r.get("cwnd_error") for r in sel], b), True)))
            print("  ... with the true model : %s; within %.0f %%: %s" % (
                quantiles([r.get("cwnd_error_true_model") for r in sel]), 100 * b,
                fmt(share_within([r.get("cwnd_error_true_model") for r in sel], b), True)))
            print("  baseline calibration    : %s; within 10 %%: %s" % (
                quantiles([r.get("calibration_error") for r in sel]),
                fmt(share_within([r.get("calibration_error") for r in sel], CALIBRATION_BOUND), True)))
            print("  A-MPDU fix effect error : %s; within 15 %%: %s" % (
                quantiles(fx), fmt(share_within(fx, FIX_EFFECT_BOUND), True)))
    for h in range(1, 9):
        sel = [r for r in first if r.get("hops") == h]
        if sel:
            fx = [f.get("fix_effect_error") for r in sel for f in row_fixes(r)]
            print("first radio, hops %d: n=%d read right %d, calibration p50 %s, effect error p50 %s, cwnd error p50 %s" % (
                h, len(sel), sum(1 for r in sel if r.get("hops_read") == h), fmt(median(r.get("calibration_error") for r in sel), True),
                fmt(median(fx), True), fmt(median(r.get("cwnd_error") for r in sel), True)))


def focus_scan_dwell(good):
    rs = [r for r in good if r["family"] == "A"]
    print("scan dwell (scenario A, %d captures): signed errors, baseline against the capture's goodput, "
          "predicted effect against the simulated one" % len(rs))
    groups = [("", lambda r: True), (" [scan pattern derived]", lambda r: r.get("periodic_scan_derived")),
              (" [not derived]", lambda r: not r.get("periodic_scan_derived")),
              (" [dwell >= %d ms]" % LONG_DWELL_MS, lambda r: (r.get("dwell_ms") or 0) >= LONG_DWELL_MS)]
    for vt in vantages_of(rs):
        for tag, keep in groups:
            sel = [r for r in rs if r["vantage"] == vt and keep(r)]
            calib = [r["baseline_goodput_bps"] / r["capture_goodput_bps"] - 1 for r in sel
                     if r.get("baseline_goodput_bps") and r.get("capture_goodput_bps")]
            if tag and not calib:
                continue
            print(signed_summary(vt + tag + ": baseline vs capture", calib, CALIBRATION_BOUND))
            for fix in ("scan-aware-ap", "scan-dwell"):
                eff = [f["predicted_ratio"] / f["true_ratio"] - 1 for r in sel for f in row_fixes(r)
                       if f["fix"].split("=")[0] == fix and f.get("predicted_ratio") and f.get("true_ratio")]
                if eff:
                    print(signed_summary(vt + tag + ": %s effect vs simulated" % fix, eff, FIX_EFFECT_BOUND))


FOCUS_VIEWS = {"path-rate": focus_path_rate, "variants": focus_variants, "chains": focus_chains,
               "scan-dwell": focus_scan_dwell}


def report(rows, plan=None, as_json=False, focus=None, overview_table=False, spread_rows=None):
    """The Must-show table (default), the overview per family and vantage, a focused view,
    or everything as JSON; with the lab's spread (spread_rows), the replay against the
    mean of the seeds too."""
    good, failed, sim_failed = split(rows)
    if as_json:
        print(json.dumps({"rows": overview(rows), "must_show": [
            dict(zip(("criterion", "where", "n", "measured", "bound", "pass", "detail"), m)) for m in must_show(rows)],
            "failed": len(failed), "simulator_failed": len(sim_failed)}, indent=1))
    elif focus:
        FOCUS_VIEWS[focus](good)
    elif overview_table:
        print_overview(rows, plan)
        if spread_rows:
            print_spread(rows, spread_rows, by_family=True)
    else:
        print_must_show(rows)
        if spread_rows:
            print_spread(rows, spread_rows)


# ----------------------------------------------------------------------------- compare


def capture_key(r):
    return (r["id"], r["vantage"])


def common_captures(before, after, families=None):
    """The rows of captures both runs judged (the same run at the same vantage), so that two
    builds judged on one kept draw are compared like with like."""
    def keep(rows):
        good, _, _ = split(rows)
        return {capture_key(r): r for r in good if families is None or r.get("family") in families}
    b, a = keep(before), keep(after)
    both = sorted(set(b) & set(a))
    return [b[k] for k in both], [a[k] for k in both]


def capped_mean(values, cap=2.0):
    """Mean error, each capped (one run off by 10x must not hide the rest)."""
    v = [min(cap, x) for x in values if x is not None]
    return statistics.mean(v) if v else None


def crossings(before, after):
    """Captures whose calibration or fix effect moved across its bound, or by more than half
    the bound: (id, vantage, family, what, error before, error after, shown before, shown
    after, simulated ratio or None); a fix shows its predicted ratios."""
    out = []
    for rb, ra in zip(before, after):
        cb, ca = rb.get("calibration_error"), ra.get("calibration_error")
        if cb is not None and ca is not None and (
                (cb <= CALIBRATION_BOUND) != (ca <= CALIBRATION_BOUND) or abs(ca - cb) > CALIBRATION_BOUND / 2):
            out.append((rb["id"], rb["vantage"], rb.get("family"), "baseline", cb, ca, cb, ca, None))
        fixes_after = {f["fix"]: f for f in row_fixes(ra)}
        for fb in row_fixes(rb):
            fa = fixes_after.get(fb["fix"])
            eb, ea = fb.get("fix_effect_error"), (fa or {}).get("fix_effect_error")
            if eb is None or ea is None:
                continue
            if (eb <= FIX_EFFECT_BOUND) != (ea <= FIX_EFFECT_BOUND) or abs(ea - eb) > FIX_EFFECT_BOUND / 2:
                out.append((rb["id"], rb["vantage"], rb.get("family"), fb["fix"], eb, ea, fb.get("predicted_ratio"),
                            fa.get("predicted_ratio"), fb.get("true_ratio")))
    return out


def compare(before_rows, after_rows, families=None):
    """Two builds judged on the same kept draw: the Must-show rows side by side, the mean
    errors, and the captures that crossed a bound."""
    before, after = common_captures(before_rows, after_rows, families)
    print("captures judged by both: %d (%d runs)" % (len(before), len({r["id"] for r in before})))
    print()
    print("| must show | where | n | before | after | bound |")
    print("|---|---|---|---|---|---|")
    def verdict(passed):
        return "" if passed is None else (" pass" if passed else " FAIL")

    rows_after = {(m[0], m[1]): m for m in must_show(after)}
    for crit, where, n, measured, bound, ok, _ in must_show(before):
        m = rows_after.get((crit, where))
        print("| %s | %s | %d | %s%s | %s%s | %s |" % (crit, where, n, measured, verdict(ok),
                                                     m[3] if m else "-", verdict(m[5]) if m else "", bound))
    print()
    for label, key in (("calibration", lambda r: [r.get("calibration_error")]),
                       ("fix effect", lambda r: [f.get("fix_effect_error") for f in row_fixes(r)])):
        vb = [x for r in before for x in key(r)]
        va = [x for r in after for x in key(r)]
        print("mean %s error (each capped at 2): %s -> %s over %d" % (
            label, fmt(capped_mean(vb)), fmt(capped_mean(va)), sum(1 for x in vb if x is not None)))
    moved = crossings(before, after)
    if moved:
        print()
        print("moved across a bound or by more than half of it (baseline: error before -> after; "
              "a fix: predicted ratio before -> after, simulated):")
        for rid, vantage, family, what, eb, ea, b, a, truth in moved:
            bound = CALIBRATION_BOUND if truth is None else FIX_EFFECT_BOUND
            arrow = "IN" if ea <= bound < eb else ("OUT" if eb <= bound < ea else "")
            if truth is None:
                print("  %s %-11s %s %-24s %.3f -> %.3f %s" % (rid, vantage, family, what, b, a, arrow))
            else:
                print("  %s %-11s %s %-24s %.2f -> %.2f (simulated %.2f) %s" % (rid, vantage, family, what, b, a,
                                                                                truth, arrow))
