#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes what windscope-cli says about every capture under the given folders, one file
# per command, so that two builds can be compared byte for byte (diff -r) across a
# change that must not move any number: analyze, events and correlate as JSON, the
# reconstructed cwnd of every connection as CSV, the replay of every connection (the
# derived scenario and the baseline; the seeds are fixed, so the run is deterministic),
# and every replay preset with and without its fixes. A command that fails is recorded
# with its exit status and message, so a changed error is a difference too.
#
#   scripts/snapshot_outputs.sh CLI OUT_DIR [CAPTURE_DIR...]
#
# CAPTURE_DIR defaults to ../shared/captures (the public and lab captures). Each
# capture's outputs go to OUT_DIR/<its path below CAPTURE_DIR>/.
set -uo pipefail

if (($# < 2)); then
    echo "usage: $0 CLI OUT_DIR [CAPTURE_DIR...]" >&2
    exit 2
fi
cli=$(realpath "$1")
out=$2
shift 2
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dirs=("$@")
((${#dirs[@]})) || dirs=("$repo/../shared/captures")
mkdir -p "$out"

# run NAME CMD...: stdout to NAME, stderr and the exit status to NAME.err when it fails.
run() {
    local name=$1
    shift
    "$@" >"$name" 2>"$name.err"
    local rc=$?
    if ((rc == 0)); then
        rm -f "$name.err"
    else
        echo "exit $rc" >>"$name.err"
    fi
}

for dir in "${dirs[@]}"; do
    while IFS= read -r -d '' capture; do
        rel=${capture#"$dir"/}
        dest="$out/$rel"
        mkdir -p "$dest"
        run "$dest/analyze.json" "$cli" analyze "$capture" --json
        run "$dest/events.json" "$cli" events "$capture" --json
        run "$dest/correlate.json" "$cli" correlate "$capture" --json
        # Every connection that carried data: its cwnd and its replay.
        ids=$(python3 - "$dest/analyze.json" <<'EOF'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except Exception:
    sys.exit(0)
for c in report.get("connections", []):
    if any(d.get("data_bytes", 0) > 0 for d in c.get("directions", [])):
        print(c["id"])
EOF
)
        for id in $ids; do
            run "$dest/cwnd-$id.csv" "$cli" cwnd "$capture" --flow "$id" --csv
            run "$dest/scenario-$id.json" "$cli" replay "$capture" --flow "$id" --dump-scenario -
            run "$dest/replay-$id.json" "$cli" replay "$capture" --flow "$id" --json
            # A lab run's flow replayed with the other sender models too.
            if [[ $rel == lab/* ]]; then
                for m in newreno cubic; do
                    run "$dest/replay-$id-cc-$m.json" "$cli" replay "$capture" --flow "$id" --fix "cc=$m" --json
                done
            fi
        done
    done < <(find "$dir" -type f \( -name '*.pcap' -o -name '*.pcapng' -o -name '*.cap' -o -name '*.gz' \
        -o -name '*.dmp' -o -name '*trace-1' \) -print0 | sort -z)
done

# The presets: the simulator alone, with each congestion-control model the cc fix takes.
presets=$("$cli" replay --list-presets 2>/dev/null | awk 'NF && $1 !~ /:$/ {print $1}')
models=$("$cli" replay --list-fixes 2>/dev/null | awk '$1 ~ /^cc=/ {sub(/^cc=/, "", $1); gsub(/\|/, " ", $1); print $1}')
mkdir -p "$out/presets"
for p in $presets; do
    run "$out/presets/$p.json" "$cli" replay --preset "$p" --json
    for m in $models; do
        run "$out/presets/$p-cc-$m.json" "$cli" replay --preset "$p" --fix "cc=$m" --json
    done
done
