#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# windscope-cli batch on a synthetic archive of many captures: the lab captures in
# ../shared cut into pieces with editcap, then batch --jobs 1, --jobs 2 and a local
# Dask cluster of 2 workers, each into a fresh project, an incremental rerun, and the
# fleet query over the project.
# See bench/README.md ("Archives").
#
# usage: bench/batch/batch_bench.sh [CLI [COUNT [PACKETS]]]
#   CLI      windscope-cli (default build/release/app/cli/windscope-cli)
#   COUNT    captures in the archive, at least (default 1000)
#   PACKETS  packets per capture (default 2000)
# environment: LAB_OUT (default ./lab-out) holds the archive and the projects;
#              WINDSCOPE_SHARED_DIR the shared material (default ../shared next to the repo);
#              JOBS the --jobs values to run (default "1 2"; the last one's project is
#              rerun and queried); DASK=0 leaves the Dask run out (e.g. at 10,000 captures)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cli=$(realpath "${1:-$repo/build/release/app/cli/windscope-cli}")
count=${2:-1000}
packets=${3:-2000}
shared=${WINDSCOPE_SHARED_DIR:-$repo/../shared}
out=${LAB_OUT:-./lab-out}/batch-bench
archive=$out/archive-$count-$packets

die() { echo "batch_bench: $*" >&2; exit 1; }
[ -x "$cli" ] || die "no windscope-cli at $cli (build the release preset first)"
command -v editcap >/dev/null || die "editcap (Wireshark's tools) is missing"

if [ ! -f "$archive/.complete" ]; then
    rm -rf "$archive" && mkdir -p "$archive"
    made=0
    # Whole lab captures, cut into pieces of PACKETS packets, round after round with
    # a different start offset so each round's pieces have other bytes, until COUNT.
    mapfile -t sources < <(find "$shared/captures/lab" -name '*.pcap' -size +200k | sort)
    [ ${#sources[@]} -gt 0 ] || die "no lab captures under $shared/captures/lab"
    round=0
    while [ "$made" -lt "$count" ]; do
        for src in "${sources[@]}"; do
            dir=$archive/$(basename "$(dirname "$src")")-$(basename "$src" .pcap)-r$round
            mkdir -p "$dir"
            # Drop the first round*97 packets so the pieces of each round differ.
            editcap -r "$src" "$dir/tail.pcap" "$((round * 97 + 1))-999999999" >/dev/null
            editcap -c "$packets" "$dir/tail.pcap" "$dir/piece.pcap" >/dev/null
            rm -f "$dir/tail.pcap"
            made=$(find "$archive" -name '*.pcap' | wc -l)
            [ "$made" -ge "$count" ] && break
        done
        round=$((round + 1))
        [ "$made" -gt 0 ] || die "editcap cut no pieces"
    done
    touch "$archive/.complete"
fi
files=$(find "$archive" -name '*.pcap' | wc -l)
bytes=$(du -sb "$archive" | cut -f1)
echo "archive: $files captures, $((bytes / 1000000)) MB, $packets packets each at most ($archive)"

run() { # name, command...
    local name=$1; shift
    local start end
    start=$(date +%s.%N)
    "$@" >"$out/$name.json" 2>"$out/$name.log" || [ $? -eq 3 ]
    end=$(date +%s.%N)
    python3 - "$name" "$start" "$end" "$out/$name.json" <<'PY'
import json, sys
name, start, end, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
s = json.load(open(path))
wall = end - start
done = s["analysed"] + s["unchanged"] + s["failed"] + s.get("failed_before", 0)
print(f"{name:<18} {wall:7.1f} s wall  {done / wall:7.1f} captures/s  {s['packets'] / wall:9.0f} packets/s  "
      f"analysed {s['analysed']}, unchanged {s['unchanged']}, failed {s['failed']}")
PY
}

jobs_list=${JOBS:-1 2}
for jobs in $jobs_list; do
    rm -f "$out/jobs$jobs.wsproj"*
    run "batch --jobs $jobs" "$cli" batch "$archive" --project "$out/jobs$jobs.wsproj" --jobs "$jobs" --json
    echo "                   project $(($(stat -c %s "$out/jobs$jobs.wsproj") / 1000000)) MB"
done
last=${jobs_list##* }
run "rerun (nothing new)" "$cli" batch "$archive" --project "$out/jobs$last.wsproj" --jobs "$last" --json
# The fleet query over the whole project: every capture's fleet part read and grouped.
for by in station ap day capture; do
    start=$(date +%s.%N)
    "$cli" fleet "$out/jobs$last.wsproj" --json --by "$by" >"$out/fleet-$by.json"
    end=$(date +%s.%N)
    python3 - "$by" "$start" "$end" "$out/fleet-$by.json" <<'PY'
import json, sys
by, start, end, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
f = json.load(open(path))
print(f"fleet --by {by:<8} {float(end) - float(start):7.2f} s wall  {f['captures']} captures, {len(f['groups'])} groups")
PY
done
if [ "${DASK:-1}" = 0 ]; then
    echo "dask: left out (DASK=0)"
elif /usr/bin/python3 -c 'import dask.distributed' 2>/dev/null; then
    rm -rf "$out/dask.wsproj"*
    run "dask --local 2" "$repo/scripts/windscope-dask" --local 2 "$archive" --project "$out/dask.wsproj" \
        --cli "$cli" --json
else
    echo "dask: python3-distributed is not installed; skipped"
fi
