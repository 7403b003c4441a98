#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Throughput and peak memory of windscope-cli analyze against the libpcap read floor,
# tshark and tcptrace, each run once on the same large captures. See bench/README.md.
#
# usage: bench/run.sh [BUILD_DIR [OUT_DIR]]
#   BUILD_DIR  a configured and built tree (default build/release under the repo root)
#   OUT_DIR    scratch for the generated captures and results (default bench/out)
# environment:
#   BENCH_PACKETS=N        TCP packets in the generated captures (default 3000000)
#   BENCH_SKIP_TSHARK=1    leave tshark out (it takes minutes and GBs on 3M packets)
#   BENCH_SKIP_TCPTRACE=1  leave tcptrace out
#   BENCH_RUNS=N           runs of the floor, windscope and tcptrace per capture (default 3);
#                          the median wall time and the largest peak RSS are reported
#   WINDSCOPE_SHARED_DIR   the shared material (default ../shared next to the repo)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
build=${1:-$repo/build/release}
out=${2:-$repo/bench/out}
shared=${WINDSCOPE_SHARED_DIR:-$repo/../shared}
packets=${BENCH_PACKETS:-3000000}
runs=${BENCH_RUNS:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench/run.sh: BENCH_RUNS must be a positive count" >&2; exit 1; }

die() { echo "bench/run.sh: $*" >&2; exit 1; }

cli=$build/app/cli/windscope-cli
floor=$build/bench/windscope-pcap-floor
generator=$build/bench/windscope-make-bulk-capture
for tool in "$cli" "$floor" "$generator"; do
    [[ -x $tool ]] || die "$tool is missing: build first (cmake --preset release && cmake --build --preset release)"
done
# GNU time gives peak RSS (%M); the shell keyword and BSD time do not.
if ! /usr/bin/time --version 2>&1 | grep -q GNU; then
    die "GNU time is needed at /usr/bin/time (Debian/Ubuntu: apt-get install time)"
fi

mkdir -p "$out"
eth=$out/bulk-$packets-eth.pcap
wlan=$out/bulk-$packets-wlan.pcap
if [[ ! -s $eth || ! -s $wlan ]]; then
    shopt -s nullglob
    inputs=("$shared"/captures/lab/linux/*/sender.pcap)
    shopt -u nullglob
    ((${#inputs[@]})) || die "no lab runs under $shared/captures/lab/linux/*/sender.pcap (set WINDSCOPE_SHARED_DIR)"
    echo "generating $packets-packet captures from ${#inputs[@]} lab runs into $out"
    # Written under temporary names so an interrupted run never leaves a short capture
    # that a later run would take for a finished one.
    "$generator" --packets "$packets" --eth "$eth.tmp" --wlan "$wlan.tmp" "${inputs[@]}"
    mv "$eth.tmp" "$eth"
    mv "$wlan.tmp" "$wlan"
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# measure NAME STDOUT_FILE COMMAND... : sets m_seconds, m_kib, m_status.
measure() {
    local name=$1 stdout=$2
    shift 2
    m_status=ok
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f '%e %M' -o "$scratch/time" "$@" >"$stdout" 2>"$scratch/$name.stderr" ||
        m_status="exit $?"
    end=$(date +%s%N)
    # 128 + n is death by signal n (bash convention), as GNU time reports it.
    case $m_status in
    "exit 139") m_status="crashed (SIGSEGV)" ;;
    "exit 134") m_status="aborted (SIGABRT)" ;;
    "exit 137") m_status="killed (SIGKILL, out of memory?)" ;;
    esac
    # GNU time prepends "Command exited with non-zero status N" on failure.
    # Wall time from the clock here (ns), since %e has only 10 ms resolution; the
    # peak RSS (%M, KiB) from GNU time.
    read -r _ m_kib < <(tail -n 1 "$scratch/time")
    m_seconds=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", (b - a) / 1e9}')
    if [[ $m_status != ok ]]; then
        echo "  $name failed ($m_status); its stderr ends with:" >&2
        tail -n 3 "$scratch/$name.stderr" | sed 's/^/    /' >&2
    fi
}

# measure_runs NAME STDOUT_FILE COMMAND... : runs measure $runs times; sets m_seconds to the
# median wall time, m_range to "min-max", m_kib to the largest peak RSS and m_status to
# the first failure (a failed run ends the series).
measure_runs() {
    local name=$1 stdout=$2
    shift 2
    local times=() kib=0 i
    for ((i = 0; i < runs; i++)); do
        measure "$name" "$stdout" "$@"
        if [[ $m_status != ok ]]; then
            m_range=-
            return 0
        fi
        times+=("$m_seconds")
        ((m_kib > kib)) && kib=$m_kib
    done
    m_kib=$kib
    read -r m_seconds m_range < <(printf '%s\n' "${times[@]}" | sort -g | awk '
        { t[NR] = $1 }
        END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
              printf "%.3f %.3f-%.3f\n", m, t[1], t[NR] }')
}

results=$out/results.md
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
{
    echo "# Windscope benchmark"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- windscope: $(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown), build ${build#"$repo"/}"
    echo "- machine: ${cpu:-unknown CPU}, $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1048576}' /proc/meminfo) RAM"
    command -v tshark >/dev/null && echo "- $(tshark --version 2>/dev/null | head -n 1)"
    command -v tcptrace >/dev/null && echo "- $(tcptrace -v 2>&1 | grep -m1 -o 'tcptrace -- version [0-9.]*')"
    echo "- packets/s = packets in the file / wall seconds; bytes/packet = peak RSS / packets;"
    echo "  over base = (peak RSS - the same tool's peak RSS on a 10-packet capture) / packets,"
    echo "  i.e. what the packets cost beyond the fixed base of its libraries;"
    echo "  x floor = wall time / the libpcap read loop's wall time"
    echo "- the floor, windscope and tcptrace run $runs times each: seconds is the median"
    echo "  (the range beside it), peak MB the largest; tshark runs once"
} >"$results"

row() { # tool seconds kib status base_kib range
    local tool=$1 secs=$2 kib=$3 status=$4 base=${5:-0} range=${6:--}
    awk -v t="$tool" -v s="$secs" -v k="$kib" -v n="$capture_packets" -v f="$floor_seconds" -v st="$status" \
        -v b="$base" -v r="$range" 'BEGIN {
        # A failed run has no throughput to speak of; its time and memory still show.
        rate = s > 0 && st == "ok" ? sprintf("%.0f", n / s) : "-"
        ratio = f > 0 && st == "ok" ? sprintf("%.1f", s / f) : "-"
        over = b > 0 && st == "ok" ? sprintf("%.1f", (k - b) * 1024 / n) : "-"
        printf "| %-28s | %8.3f | %11s | %11s | %8.0f | %8.1f | %9s | %7s | %s |\n", t, s, r, rate, k * 1024 / 1e6, k * 1024 / n, over, ratio, st
    }'
}

# The fixed base of each tool: its peak RSS on a capture of ten packets.
tiny=$repo/tests/data/vlan-tcp.pcap
base_of() { # name command...
    local name=$1
    shift
    measure "$name-base" /dev/null "$@"
    [[ $m_status == ok ]] && echo "$m_kib" || echo 0
}
windscope_base=$(base_of windscope "$cli" analyze "$tiny" --json)
tshark_base=0
if [[ ${BENCH_SKIP_TSHARK:-0} != 1 ]] && command -v tshark >/dev/null; then
    tshark_base=$(base_of tshark tshark -2 -q -z conv,tcp -z expert -r "$tiny")
fi
tcptrace_base=0
if [[ ${BENCH_SKIP_TCPTRACE:-0} != 1 ]] && command -v tcptrace >/dev/null; then
    tcptrace_base=$(base_of tcptrace tcptrace -l -r "$tiny")
fi

for capture in "$eth" "$wlan"; do
    name=$(basename "$capture")
    # Read once so every tool finds the file in the page cache, not only the later ones.
    cat "$capture" >/dev/null
    measure_runs floor "$scratch/floor.out" "$floor" "$capture"
    [[ $m_status == ok ]] || die "the libpcap floor could not read $capture"
    capture_packets=$(awk '{print $1; exit}' "$scratch/floor.out")
    floor_seconds=$m_seconds
    size_mb=$(awk -v b="$(stat -c %s "$capture")" 'BEGIN {printf "%.0f", b / 1e6}')
    {
        echo
        echo "## $name: $capture_packets packets, $size_mb MB"
        echo
        echo "| tool                         |  seconds |       range |   packets/s |  peak MB | B/packet | over base | x floor | status |"
        echo "|------------------------------|---------:|------------:|------------:|---------:|---------:|----------:|--------:|--------|"
        row "libpcap floor" "$m_seconds" "$m_kib" "$m_status" 0 "$m_range"
    } >>"$results"
    echo "$name: $capture_packets packets"

    measure_runs windscope /dev/null "$cli" analyze "$capture" --json
    row "windscope-cli analyze --json" "$m_seconds" "$m_kib" "$m_status" "$windscope_base" "$m_range" >>"$results"

    if [[ ${BENCH_SKIP_TSHARK:-0} == 1 ]]; then
        echo "  tshark skipped (BENCH_SKIP_TSHARK=1)"
    elif ! command -v tshark >/dev/null; then
        echo "  tshark skipped: not installed (Debian: apt-get install tshark)"
    else
        measure tshark /dev/null tshark -2 -q -z conv,tcp -z expert -r "$capture"
        row "tshark -2 conv,tcp expert" "$m_seconds" "$m_kib" "$m_status" "$tshark_base" >>"$results"
    fi

    if [[ ${BENCH_SKIP_TCPTRACE:-0} == 1 ]]; then
        echo "  tcptrace skipped (BENCH_SKIP_TCPTRACE=1)"
    elif ! command -v tcptrace >/dev/null; then
        echo "  tcptrace skipped: not installed (Debian: apt-get install tcptrace)"
    else
        measure_runs tcptrace /dev/null tcptrace -l -r "$capture"
        row "tcptrace -l -r" "$m_seconds" "$m_kib" "$m_status" "$tcptrace_base" "$m_range" >>"$results"
    fi
done

echo
cat "$results"
