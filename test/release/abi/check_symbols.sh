#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_symbols.sh - libgrain.so exports exactly the symbols of
# cmake/libgrain.symbols (CTest: abi_symbols), and every call its public
# headers declare is among them (README.md, "C++": libgrain carries an
# out-of-line copy of every inline call). The same for libgrain-htab.so
# (abi_symbols_htab).
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
#   GRAIN_HEADERS   the library's public headers, as "/path/ring.h ..."
set -eu

: "${GRAIN_LIB:?}" "${GRAIN_SYMBOLS:?}" "${GRAIN_HEADERS:?}"
: "${GRAIN_NM:=nm}"

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
	echo "$(basename "$GRAIN_LIB") does not export exactly" \
		"$(basename "$GRAIN_SYMBOLS"):"
	sed -n '/^[-+][^-+]/p' "$tmp/diff"
	exit 1
fi
echo "$(basename "$GRAIN_LIB") exports exactly the" \
	"$(wc -l <"$tmp/expected") symbols of $(basename "$GRAIN_SYMBOLS")"

# The calls the headers declare GRAIN_API, GRAIN_INLINE_API or
# GRAIN_INLINE_ANY (the C-only _fast calls are plain static inline: not
# exported, not listed): each header without its preprocessor lines and
# comments, cut at ; { and }, and from each declaration that names one of
# the three, the name before its parameter list. grain_impl_* are ABI,
# listed or not as the inline code needs them.
# shellcheck disable=SC2086
for header in $GRAIN_HEADERS; do
	grep -v '^[[:space:]]*#' "$header" | tr '\n' ' ' |
		sed 's|/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/||g' | tr ';{}' '\n\n\n' |
		grep -E 'GRAIN_(INLINE_)?API|GRAIN_INLINE_ANY' |
		sed -n 's/.*[^a-z0-9_]\(grain_[a-z0-9_]*\) *(.*/\1/p'
done | grep -v '^grain_impl_' | LC_ALL=C sort -u >"$tmp/declared"
[ -s "$tmp/declared" ] || { echo "no call found in $GRAIN_HEADERS"; exit 1; }
sed 's/@.*//' "$tmp/expected" | LC_ALL=C sort -u >"$tmp/names"
if LC_ALL=C comm -23 "$tmp/declared" "$tmp/names" | grep .; then
	echo "declared by $GRAIN_HEADERS but not in $(basename "$GRAIN_SYMBOLS")"
	exit 1
fi
echo "each of the $(wc -l <"$tmp/declared") calls the headers declare is" \
	"exported"
