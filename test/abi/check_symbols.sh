#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_symbols.sh - libgrain.so exports exactly the symbols of
# cmake/libgrain.symbols (CTest: abi_symbols).
#
# Compares `nm -D --defined-only` of the library with the list, both
# sorted, and shows the difference: lines with - are listed but not
# exported, lines with + exported but not listed. A symbol the library
# should export is added to cmake/libgrain.map (and marked GRAIN_API in its
# header) and to the list; one that should not is hidden.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_NM        nm (GNU binutils or llvm-nm)
#   GRAIN_LIB       the built libgrain.so
#   GRAIN_SYMBOLS   cmake/libgrain.symbols
set -eu

: "${GRAIN_LIB:?}" "${GRAIN_SYMBOLS:?}" "${GRAIN_NM:=nm}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-symbols.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

grep -v -e '^#' -e '^[[:space:]]*$' "$GRAIN_SYMBOLS" | LC_ALL=C sort \
	>"$tmp/expected"
# The name is the last field. llvm-nm shows the version node itself as
# NODE@@NODE, GNU nm as NODE: keep NODE.
"$GRAIN_NM" -D --defined-only "$GRAIN_LIB" >"$tmp/nm"
awk '{ n = $NF; split(n, p, "@@"); if (p[1] == p[2]) n = p[1]; print n }' \
	"$tmp/nm" | LC_ALL=C sort >"$tmp/actual"

if ! diff -u "$tmp/expected" "$tmp/actual" >"$tmp/diff"; then
	echo "libgrain.so does not export exactly cmake/libgrain.symbols:"
	sed -n '/^[-+][^-+]/p' "$tmp/diff"
	exit 1
fi
echo "libgrain.so exports exactly the $(wc -l <"$tmp/expected") symbols" \
	"of cmake/libgrain.symbols"
