#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_man.sh - the man pages install and man finds them (CTest:
# docs_man).
#
# Installs the build into a temporary prefix, then:
#   - `man -M <prefix>/share/man grain_ring_try_enqueue` shows ring.h's
#     page, with the call's own documentation in it;
#   - every public call of cmake/libgrain.symbols and
#     cmake/libgrain-htab.symbols (grain_impl_* are ABI, not API), and
#     every C-only _fast call the public headers declare (they have no
#     symbol), has a page (man -w);
#   - no page is installed under a name that is not grain's.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_BUILD_DIR, GRAIN_CONFIG, GRAIN_CMAKE, GRAIN_SOURCE_DIR
set -eu

: "${GRAIN_BUILD_DIR:?}" "${GRAIN_SOURCE_DIR:?}" "${GRAIN_CONFIG:=}"
: "${GRAIN_CMAKE:=cmake}"

command -v man >/dev/null 2>&1 || { echo "man not found: skipped"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

set -- --install "$GRAIN_BUILD_DIR" --prefix "$prefix"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" --config "$GRAIN_CONFIG"
"$GRAIN_CMAKE" "$@" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "FAILED: cmake --install"; exit 1; }
mandir="$prefix/share/man"
[ -d "$mandir/man3" ] || { echo "FAILED: no $mandir/man3"; exit 1; }

failed=0
# The page as a reader gets it (no pager, plain text, fixed width).
MANWIDTH=80 MAN_KEEP_FORMATTING= man -P cat -M "$mandir" \
	grain_ring_try_enqueue >"$tmp/page" 2>"$tmp/man.err" ||
	{ cat "$tmp/man.err"; echo "FAILED: man grain_ring_try_enqueue"; exit 1; }
for want in 'ring.h' 'grain_ring_try_enqueue' 'EAGAIN'; do
	grep -q "$want" "$tmp/page" ||
		{ echo "FAILED: the page lacks '$want'"; failed=1; }
done

count=0
for list in libgrain.symbols libgrain-htab.symbols; do
	for sym in $(sed -n 's/^\(grain_[a-z0-9_]*\)@@.*/\1/p' \
		"$GRAIN_SOURCE_DIR/cmake/$list" | grep -v '^grain_impl_'); do
		count=$((count + 1))
		man -M "$mandir" -w "$sym" >/dev/null 2>&1 ||
			{ echo "FAILED: no man page for $sym"; failed=1; }
	done
done

# The C-only _fast calls: declared in include/grain/*.h, never exported.
fast=$(sed -n 's/.*\(grain_[a-z0-9_]*_fast\)(.*/\1/p' \
	"$GRAIN_SOURCE_DIR"/include/grain/*.h | sort -u)
[ -n "$fast" ] || { echo "FAILED: no _fast call found in the headers"; failed=1; }
for sym in $fast; do
	count=$((count + 1))
	man -M "$mandir" -w "$sym" >/dev/null 2>&1 ||
		{ echo "FAILED: no man page for $sym"; failed=1; }
done

for page in "$mandir"/man3/*; do
	case "${page##*/}" in
	grain_*.3 | GRAIN_*.3 | grain.h.3) ;;
	*) echo "FAILED: ${page##*/} is not a grain name"; failed=1 ;;
	esac
done

[ "$failed" -eq 0 ] || exit 1
echo "man pages: grain_ring_try_enqueue shown; all $count public calls" \
	"have a page in $mandir/man3"
