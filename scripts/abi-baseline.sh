#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# abi-baseline.sh - write the ABI baseline of the version in the tree,
# test/release/abi/baseline/<version>/libgrain.abi and libgrain-htab.abi, as
# part of releasing it (README.md, "Versions and ABI"). The ABI gate
# (test/release/abi/abi.sh, CTest abi_compat and abi_compat_htab) compares
# every later build with the newest baseline there.
#
# Builds the two shared libraries alone (RelWithDebInfo, -g) in a
# temporary directory and runs `abi.sh dump` over them; refuses to replace
# a baseline that exists, since a released ABI never changes.
#
# Usage: scripts/abi-baseline.sh   (from any directory; needs cmake,
#                                   liburcu-dev and abigail-tools)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^#define GRAIN_VERSION_STRING "\([^"]*\)".*/\1/p' \
	"$root/include/grain/common.h")
[ -n "$version" ] || { echo "abi-baseline.sh: no version in common.h" >&2; exit 1; }
out="$root/test/release/abi/baseline/$version"
if [ -e "$out" ]; then
	echo "abi-baseline.sh: $out exists: a released ABI is not rewritten" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-baseline.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake -S "$root" -B "$tmp" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DGRAIN_BUILD_TESTS=OFF -DGRAIN_BUILD_BENCH=OFF \
	-DGRAIN_BUILD_EXAMPLES=OFF -DGRAIN_BUILD_DOCS=OFF >/dev/null
cmake --build "$tmp" --target grain grain_htab >/dev/null
mkdir -p "$out"
for lib in libgrain libgrain-htab; do
	sh "$root/test/release/abi/abi.sh" dump "$tmp/$lib.so" "$out/$lib.abi"
	echo "$out/$lib.abi"
done
