#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package with CPack, unpacks it into a scratch root (no installation
# on the machine) and runs the installed CLI from there: --version and a short analysis.
#   test_deb_package.sh CPACK BUILD_DIR CAPTURE
set -eu
cpack=$1
build=$2
capture=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cd "$build"
if ! "$cpack" -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1; then
    cat "$scratch/cpack.log"
    exit 1
fi
deb=$(ls "$scratch"/out/*.deb)
dpkg-deb --field "$deb" Depends | tee "$scratch/depends"
for dependency in libpcap libsqlite3 libwireshark; do
    grep -q "$dependency" "$scratch/depends" || { echo "Depends lacks $dependency"; exit 1; }
done
dpkg-deb -x "$deb" "$scratch/unpacked"
for file in usr/bin/windscope-cli usr/share/applications/windscope.desktop \
    usr/share/mime/packages/windscope.xml usr/share/icons/hicolor/scalable/apps/windscope.svg; do
    test -f "$scratch/unpacked/$file" || { echo "missing $file"; exit 1; }
done
find "$scratch/unpacked" -path '*wireshark/plugins/*/epan/windscope.so' | grep -q . ||
    { echo "missing the Wireshark plugin"; exit 1; }

cli="$scratch/unpacked/usr/bin/windscope-cli"
"$cli" --version | tee "$scratch/version"
grep -q '^windscope-cli ' "$scratch/version"
"$cli" analyze "$capture" --json >"$scratch/analyze.json"
grep -q '"a_port":40000' "$scratch/analyze.json" || { cat "$scratch/analyze.json"; exit 1; }
"$cli" project create "$scratch/p.wsproj" >/dev/null
"$cli" project add "$scratch/p.wsproj" "$capture" >/dev/null
"$cli" project show "$scratch/p.wsproj" 1 --json | cmp - "$scratch/analyze.json" ||
    { echo "project show differs from analyze"; exit 1; }
echo "package ok: $(basename "$deb")"
