# SPDX-License-Identifier: GPL-3.0-or-later
"""Scenario draws of the fidelity harness: the five ns-3 families A-E, the focused draws
(path-rate, variants, chains, scan-dwell) and the Linux lab's family L.

A scenario is a plain dict (written to scenarios.json): id, family, program and args of
the captured run, its vantages (capture file -> vantage), and its fixes, each with the
arguments of the run simulated with the fix for real. Every draw depends only on the
master seed and the scenario's index.
"""

import math
import random

# ns-3 TypeId of each variant, and the windscope model name that identifies it.
VARIANTS = {
    "TcpLinuxReno": "reno",
    "TcpNewReno": "newreno",
    "TcpCubic": "cubic",
    "TcpWestwoodPlus": "westwood-plus",
    "TcpVeno": "veno",
    "TcpBbr": "bbr",
}
MODEL_TO_NS3 = {v: k for k, v in VARIANTS.items()}
# ns-3.37's TcpBbr stops with SIGFPE in every lab scenario tried, so BBR is judged on the
# Linux lab's runs (real tcp_bbr), not drawn here unless asked for (--variants).
DRAWN_VARIANTS = [v for v in VARIANTS if v != "TcpBbr"]
# The Linux lab's congestion controls (lab.py: reno, cubic, bbr).
LINUX_CCS = ["reno", "cubic", "bbr"]

WIFI_RATES_A = ["OfdmRate6Mbps", "OfdmRate9Mbps", "OfdmRate12Mbps", "OfdmRate18Mbps",
                "OfdmRate24Mbps", "OfdmRate36Mbps", "OfdmRate48Mbps", "OfdmRate54Mbps"]
HT_MODES = ["HtMcs%d" % i for i in range(8)]
FAMILY_WEIGHTS = {"A": 3, "B": 2, "C": 2, "D": 3, "E": 2}
# The focused draws: which families they draw from (and with which weights).
FOCUS_FAMILIES = {"variants": {"D": 3, "A": 1}, "chains": {"C": 1}, "scan-dwell": {"A": 1},
                  "path-rate": {"W": 1}}
FOCI = sorted(FOCUS_FAMILIES)
# A scan dwell the scan-dwell fix shortens to: the corpus' scans (the Linux lab's
# scan100/200/300, ns-3's A default) are 10 ms away from the channel.
SHORT_DWELL_MS = 10
# The window the path-rate draws' fix opens (the issue's "2 MB window").
LARGE_WINDOW = 2097152


def log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def with_arg(args, key, value):
    """args with --key=value in place of any earlier --key."""
    return [a for a in args if not a.startswith("--%s=" % key)] + ["--%s=%s" % (key, value)]


def parse_range(text, lo, hi):
    """'2-4' or '3' -> (2, 4) / (3, 3), clamped to [lo, hi]."""
    if not text:
        return lo, hi
    a, _, b = text.partition("-")
    a, b = int(a), int(b or a)
    return max(lo, min(a, b)), min(hi, max(a, b))


def fixes_of(s):
    """The scenario's fixes; scenarios.json written before several fixes per scenario has
    one `fix` and `fix_args` (simulated in `fix/`)."""
    if "fixes" in s:
        return s["fixes"]
    if s.get("fix"):
        return [{"fix": s["fix"], "args": s.get("fix_args", []), "dir": "fix"}]
    return []


def draw_scenario(index, master_seed, families="ABCDE", hops=(1, 4), variants=None, linux_duration=(8, 20)):
    """One scenario. With the default families the draw is the one earlier runs made
    (same master seed, same scenarios); new draws only follow the earlier ones."""
    rng = random.Random(master_seed * 1_000_003 + index)
    if families == "ABCDE":
        family = rng.choices("ABCDE", weights=[3, 2, 2, 3, 2])[0]
    else:
        weights = families if isinstance(families, dict) else {f: FAMILY_WEIGHTS.get(f, 1) for f in families}
        family = rng.choices(list(weights), weights=list(weights.values()))[0]
    if family == "L":
        return draw_linux(rng, index, linux_duration)
    if family == "W":
        return draw_path_rate(rng, index, variants)
    seed = rng.randint(2, 999_999)  # seed 1 is the corpus in ../shared
    tcp = rng.choice(variants or DRAWN_VARIANTS)
    rtt_ms = log_uniform(rng, 5, 300)
    base = ["--seed=%d" % seed, "--tcp=" + tcp]
    s = {"id": "s%04d" % index, "family": family, "seed": seed, "variant": tcp}
    if family == "A":
        interval = int(log_uniform(rng, 50, 1000))
        dwell = int(rng.uniform(5, 60))
        # a station away more than half the time is no longer scanning in the background
        dwell = min(dwell, interval // 2)
        args = base + ["--scanInterval=%d" % interval, "--dwell=%d" % dwell,
                       "--wiredDelay=%d" % max(1, round(rtt_ms / 2)),
                       "--wiredRate=%dMbps" % round(log_uniform(rng, 1, 100)),
                       "--wifiRate=" + rng.choice(WIFI_RATES_A),
                       "--bytes=0", "--maxTime=%d" % rng.randint(8, 12),
                       "--firstScan=%.3f" % rng.uniform(0.5, 2.0)]
        fixes = [{"fix": "scan-aware-ap", "args": args + ["--fix=1"], "dir": "fix"}]
        if dwell > SHORT_DWELL_MS:
            fixes.append({"fix": "scan-dwell=%d" % SHORT_DWELL_MS, "args": with_arg(args, "dwell", SHORT_DWELL_MS),
                          "dir": "fix-scan-dwell"})
        s.update(program="scenario-a-periodic-scan", args=args, fixes=fixes, dwell_ms=dwell,
                 scan_interval_ms=interval,
                 vantages={"wired-server.pcap": "sender", "wifi-ap.pcap": "ap", "wifi-sta.pcap": "receiver"})
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
                 fixes=[{"fix": "ap-zero-window-ack", "args": args + ["--variant=zwa-hold"], "dir": "fix"}],
                 vantages={"wired-server.pcap": "sender", "wifi-ap1.pcap": "ap", "wifi-sta.pcap": "receiver"})
    elif family == "C":
        n_hops = rng.randint(*hops)
        ampdu = rng.choice([1, 1, 2, 4, 8, 16])
        fixed = rng.choice([n for n in (1, 2, 4, 8, 16) if n != ampdu])
        args = base + ["--hops=%d" % n_hops, "--simTime=%d" % rng.randint(6, 10),
                       "--htMode=" + rng.choice(HT_MODES),
                       "--window=%d" % int(log_uniform(rng, 32768, 262144))]
        # Range between one and two spacings: only neighbours hear each other, so the
        # string has its hidden terminals two hops apart (as the lab's chain).
        spacing = rng.choice([80, 100, 120])
        args += ["--spacing=%d" % spacing, "--range=%d" % round(spacing * rng.uniform(1.2, 1.9))]
        s.update(program="scenario-c-aggregation", args=args + ["--ampdu=%d" % ampdu],
                 fixes=[{"fix": "ampdu-max=%d" % fixed, "args": args + ["--ampdu=%d" % fixed], "dir": "fix"}],
                 hops=n_hops, ampdu=ampdu,
                 vantages={"wifi-n0.pcap": "first-radio", "wifi-n%d.pcap" % n_hops: "receiver"})
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
            other = rng.choice([v for v in (variants or DRAWN_VARIANTS) if v != tcp] or DRAWN_VARIANTS)
            fix_args = args + ["--tcp=" + other]
            fix = "cc=" + VARIANTS[other]
        args = args + ["--tcp=" + tcp]
        s.update(program="scenario-d-wan-variants", args=args, fixes=[{"fix": fix, "args": fix_args, "dir": "fix"}],
                 vantages={"wired-server.pcap": "sender", "wifi-sta.pcap": "receiver"})
    else:
        read = int(log_uniform(rng, 512, 65536))
        rcv = int(log_uniform(rng, 16384, 262144))
        pace = rng.choice([0, 0, 0, rng.randint(1, 10)])
        args = base + ["--readSize=%d" % read, "--rcvBuf=%d" % rcv,
                       "--wiredDelay=%d" % max(1, round(rtt_ms / 2)),
                       "--bytes=%d" % int(log_uniform(rng, 1 << 20, 4 << 20)), "--maxTime=30",
                       "--pace=%d" % pace]
        # The slow receiver's three fixes, each as the replay names it: a larger read per
        # call (rx-app-buffer is the application's read size, not the socket buffer), larger
        # socket buffers (max-window sets the send and the receive buffer alike) and
        # pacing switched on or off.
        other_read = read
        while max(other_read, read) < 4 * min(other_read, read):
            other_read = int(log_uniform(rng, 512, 65536))
        window = 4 * rcv
        other_pace = rng.randint(1, 10) if pace == 0 else 0
        s.update(program="scenario-e-slow-receiver", args=args,
                 fixes=[{"fix": "rx-app-buffer=%d" % other_read, "args": with_arg(args, "readSize", other_read),
                         "dir": "fix"},
                        {"fix": "max-window=%d" % window,
                         "args": with_arg(with_arg(args, "rcvBuf", window), "sndBuf", window),
                         "dir": "fix-max-window"},
                        {"fix": "tx-inter-packet-delay=%d" % other_pace, "args": with_arg(args, "pace", other_pace),
                         "dir": "fix-pacing"}],
                 vantages={"wired-server.pcap": "sender", "wifi-ap.pcap": "ap", "wifi-sta.pcap": "receiver"})
    return s


def draw_path_rate(rng, index, variants=None):
    """A window-limited run whose wired link is its bottleneck, so the path's rate is
    known: D with the bottleneck under the 802.11n MCS 7 edge (about 100 Mb/s of TCP), A
    with a wired link under its 802.11a 12 Mb/s air, E under its 802.11g 54 Mb/s air. The
    fix opens the window to 2 MiB, simulated for real (the issue's 32 KB -> 2 MB case)."""
    kind = rng.choice("DDDAE")
    seed = rng.randint(2, 999_999)
    tcp = rng.choice(variants or DRAWN_VARIANTS)
    s = {"id": "s%04d" % index, "family": "W", "seed": seed, "variant": tcp, "focus": "path-rate"}
    base = ["--seed=%d" % seed, "--tcp=" + tcp]
    if kind == "D":
        rate = round(log_uniform(rng, 1, 80), 1)
        buf = rng.choice([16384, 32768, 65536, 131072, 262144])
        args = base + ["--buffer=%d" % buf, "--bnRate=%gMbps" % rate, "--bnDelay=%d" % rng.randint(2, 150),
                       "--simTime=10"]
        fixed = with_arg(args, "buffer", LARGE_WINDOW)
        program, vantages = "scenario-d-wan-variants", {"wired-server.pcap": "sender", "wifi-sta.pcap": "receiver"}
    elif kind == "A":
        rate = round(rng.uniform(1, 8), 1)
        buf = rng.choice([16384, 32768, 65536])
        args = base + ["--wiredRate=%gMbps" % rate, "--wiredDelay=%d" % rng.randint(5, 100), "--scanInterval=0",
                       "--sndBuf=%d" % buf, "--rcvBuf=%d" % buf, "--bytes=0", "--maxTime=10"]
        fixed = with_arg(with_arg(args, "sndBuf", LARGE_WINDOW), "rcvBuf", LARGE_WINDOW)
        program = "scenario-a-periodic-scan"
        vantages = {"wired-server.pcap": "sender", "wifi-ap.pcap": "ap", "wifi-sta.pcap": "receiver"}
    else:
        rate = round(rng.uniform(2, 20), 1)
        buf = rng.choice([16384, 32768, 65536])
        args = base + ["--wiredRate=%gMbps" % rate, "--wiredDelay=%d" % rng.randint(5, 100), "--readSize=65536",
                       "--perRead=0", "--perByte=0", "--rcvBuf=%d" % buf, "--sndBuf=131072", "--bytes=0",
                       "--maxTime=10"]
        fixed = with_arg(with_arg(args, "sndBuf", LARGE_WINDOW), "rcvBuf", LARGE_WINDOW)
        program = "scenario-e-slow-receiver"
        vantages = {"wired-server.pcap": "sender", "wifi-ap.pcap": "ap", "wifi-sta.pcap": "receiver"}
    s.update(program=program, args=args, path_rate_mbps=rate, window=buf, vantages=vantages,
             fixes=[{"fix": "max-window=%d" % LARGE_WINDOW, "args": fixed, "dir": "fix"}])
    return s


def draw_linux(rng, index, duration=(8, 20)):
    """A Linux lab run (real kernel TCP, ../shared/lab/linux): the lab.py keys drawn from
    the issue's ranges; the fix is another congestion control on the same path and seed."""
    cc = rng.choice(LINUX_CCS)
    rtt_ms = log_uniform(rng, 5, 300)
    rate = log_uniform(rng, 1, 100)
    dur = rng.randint(*duration)
    # tbf's queue in packets of 1514 bytes on the wire (MSS 1448 + TCP/IP/Ethernet headers)
    limit = int(log_uniform(rng, 20, 500)) * 1514
    sets = {"cc": cc, "duration": dur, "rate_mbit": round(rate, 2), "delay_ms": round(rtt_ms / 2, 1),
            "limit_bytes": limit, "loss_fwd": round(rng.choice([0, 0, rng.uniform(0, 0.02)]), 4),
            "seed": rng.randint(2, 999_999)}
    if rng.random() < 0.5:
        interval = log_uniform(rng, 50, 1000)
        dwell = min(rng.uniform(5, 60), interval / 2)
        sets["scans"] = [[round(interval / 1000, 3), round(dwell / 1000, 4), rng.choice(["drop", "drop", "hold"]),
                          round(rng.uniform(0.5, 2.0), 3)]]
    if rng.random() < 0.5:
        outage = rng.uniform(0.2, min(3.0, dur / 4))
        sets["handoffs"] = [[round(rng.uniform(1.5, dur - outage - 1.0), 3), round(outage, 3)]]
    other = rng.choice([c for c in LINUX_CCS if c != cc])
    return {"id": "s%04d" % index, "family": "L", "seed": sets["seed"], "variant": cc, "program": "lab.py",
            "linux_set": sets, "server_port": 47001,
            "vantages": {"sender.pcap": "sender", "receiver.pcap": "receiver", "ap.pcap": "ap"},
            "fixes": [{"fix": "cc=" + other, "linux_set": dict(sets, cc=other), "dir": "fix"}]}


def draw_all(n, master_seed, families="ABCDE", focus=None, hops=(1, 4), variants=None, linux_duration=(8, 20)):
    if focus:
        families = FOCUS_FAMILIES[focus]
    out = []
    for i in range(n):
        s = draw_scenario(i, master_seed, families, hops, variants, linux_duration)
        if focus:
            s["focus"] = focus
        out.append(s)
    return out
