#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One-step set-up on Debian 12: install what is missing, build, then either run the
# main job on the bundled sample capture (run) or the whole test suite (test).
#
#   scripts/setup.sh run    install, build (release), open the desktop application on
#                           resources/samples/wifi-handoff-scan.pcap; without a display,
#                           analyze resources/samples/*.pcap with the CLI (TCP connections,
#                           then the 802.11 events)
#   scripts/setup.sh test   install, build with ASan + UBSan + LeakSanitizer (dev-asan
#                           preset, clang) and run every test layer under them: what CI runs
#   scripts/setup.sh test-plain
#                           install, build optimised with the default compiler (ci preset)
#                           and run every test layer: the release build's code, about twice
#                           as fast to build and run
set -euo pipefail

mode=${1:-run}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

# Build tools, libraries, and the reference tools the tests compare against.
packages=(
    cmake ninja-build g++ pkg-config
    libpcap-dev zlib1g-dev libsqlite3-dev libssl-dev nlohmann-json3-dev
    qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
    libwireshark-dev libglib2.0-dev
    libgtest-dev python3-cryptography python3-distributed
    clang libclang-rt-dev llvm
    tshark tcptrace poppler-utils librsvg2-bin
    xvfb xauth time
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing+=("$p")
    fi
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "setup: run as root or install sudo" >&2; exit 1; }
        sudo=sudo
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc 2>/dev/null || echo 2)
case "$mode" in
run)
    cmake --preset release >/dev/null
    cmake --build --preset release -j "$jobs"
    # The desktop application on the sample, with its scan/handoff-hit connection and
    # event selected; extra arguments go to it (e.g. --screenshot FILE).
    gui=build/release/app/gui/windscope
    if [ -x "$gui" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ] ||
        [ "${QT_QPA_PLATFORM:-}" = offscreen ]; }; then
        exec "$gui" resources/samples/wifi-handoff-scan.pcap "${@:2}"
    fi
    if [ -x "$gui" ]; then
        echo "setup: no display (DISPLAY and WAYLAND_DISPLAY are unset): running the CLI analysis of the sample instead"
    else
        echo "setup: the desktop application was not built (Qt 6 or QCustomPlot missing): running the CLI analysis instead"
    fi
    echo
    for sample in resources/samples/*.pcap; do
        build/release/app/cli/windscope-cli analyze "$sample"
        echo
        build/release/app/cli/windscope-cli events "$sample"
    done
    ;;
test)
    cmake --preset dev-asan
    cmake --build --preset dev-asan -j "$jobs"
    ctest --preset dev-asan -j "$jobs"
    ;;
test-plain)
    cmake --preset ci
    cmake --build --preset ci -j "$jobs"
    ctest --preset ci -j "$jobs"
    ;;
*)
    echo "usage: scripts/setup.sh run|test|test-plain" >&2
    exit 2
    ;;
esac
