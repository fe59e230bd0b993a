#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_man.sh - the man pages install and man finds them (CTest:
# docs_man).
#
# Installs the build into a temporary prefix, then:
#   - `man -M <prefix>/share/man grain_ring_try_enqueue` shows the call's
#     own page (not its header's), with its errors;
#   - every public call of cmake/libgrain.symbols and
#     cmake/libgrain-htab.symbols (grain_impl_* are ABI, not API), every
#     C-only _fast call the public headers declare (they have no symbol),
#     and every macro, struct and enum that include/grain/*.h defines has
#     a page (man -w);
#   - every page of a call, type or macro has the sections NAME, SYNOPSIS
#     (which includes a public header, never grain/impl/), DESCRIPTION,
#     RETURN VALUE, ERRORS, THREAD SAFETY AND ORDERING, EXAMPLE and SEE
#     ALSO (docs_examples builds the examples); every link (.so) leads to
#     a page; the pages of the headers with a synchronization table show
#     it as a table (tbl);
#   - man renders every page without a warning (groff, tbl);
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
head -n 1 "$tmp/page" | grep -q '^grain_ring_try_enqueue(3)' ||
	{ echo "FAILED: man grain_ring_try_enqueue is not the call's own page"; failed=1; }
for want in 'ring.h' 'grain_ring_try_enqueue' 'EAGAIN' 'EXAMPLE'; do
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

# Macros, structs and enums of the public headers (not the include
# guards, GRAIN_*_H, nor the GRAIN_IMPL_ helpers, which are no API).
types=$(sed -n -e 's/^#define \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
	-e 's/^\(struct\|enum\) \(grain_[a-z0-9_]*\) {.*/\2/p' \
	"$GRAIN_SOURCE_DIR"/include/grain/*.h |
	grep -v -e '^GRAIN_.*_H$' -e '^GRAIN_IMPL_' | sort -u)
for sym in $types; do
	count=$((count + 1))
	man -M "$mandir" -w "$sym" >/dev/null 2>&1 ||
		{ echo "FAILED: no man page for $sym"; failed=1; }
done

sections='NAME:SYNOPSIS:DESCRIPTION:RETURN VALUE:ERRORS:THREAD SAFETY AND ORDERING:EXAMPLE:SEE ALSO'
pages=0
for page in "$mandir"/man3/*; do
	name=${page##*/}
	case "$name" in
	grain_*.3 | GRAIN_*.3 | grain.h.3) ;;
	*) echo "FAILED: $name is not a grain name"; failed=1 ;;
	esac
	if head -n 1 "$page" | grep -q '^\.so '; then
		target=$(sed -n '1s/^\.so //p' "$page")
		[ -f "$mandir/$target" ] ||
			{ echo "FAILED: $name links to $target, which is not installed"; failed=1; }
		continue
	fi
	case "$name" in
	*.h.3)
		# The header pages: the synchronization table as a table.
		h=${name#grain_}
		h=${h%.3}
		if grep -q '^ \* | call' "$GRAIN_SOURCE_DIR/include/grain/$h" &&
			! grep -q '^\.TS' "$page"; then
			echo "FAILED: $name: the synchronization table is not a tbl table"
			failed=1
		fi
		continue
		;;
	esac
	pages=$((pages + 1))
	old_ifs=$IFS
	IFS=':'
	for sh in $sections; do
		grep -q "^\.SH \"\{0,1\}$sh\"\{0,1\}\$" "$page" ||
			{ echo "FAILED: $name has no $sh section"; failed=1; }
	done
	IFS=$old_ifs
	syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$page")
	case "$syn" in
	*"#include <grain/impl/"*)
		echo "FAILED: $name: its SYNOPSIS includes grain/impl/"; failed=1 ;;
	*"#include <grain/"*) ;;
	*) echo "FAILED: $name: its SYNOPSIS includes no header"; failed=1 ;;
	esac
done
[ "$pages" -gt 0 ] || { echo "FAILED: no page of a call"; failed=1; }

# Every page as man renders it, with groff's and tbl's warnings on.
for page in "$mandir"/man3/*.3; do
	name=${page##*/}
	MANWIDTH=80 man --warnings -P cat -M "$mandir" "${name%.3}" \
		>/dev/null 2>"$tmp/warn" || echo "man failed" >>"$tmp/warn"
	if [ -s "$tmp/warn" ]; then
		echo "FAILED: man ${name%.3} warns:"
		cat "$tmp/warn"
		failed=1
	fi
done

[ "$failed" -eq 0 ] || exit 1
echo "man pages: grain_ring_try_enqueue shown; all $count public calls," \
	"types and macros have a page in $mandir/man3; the $pages pages of" \
	"calls, types and macros have every section"
