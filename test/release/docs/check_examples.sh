#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_examples.sh - every EXAMPLE of the man pages compiles, links and
# runs, as the page shows it (CTest: docs_examples).
#
# Takes the EXAMPLE section of each page in GRAIN_MAN_DIR (the text
# between .EX and .EE, troff escapes undone), compiles it as a C11
# translation unit against the source tree's headers with warnings as
# errors, adds a main() that calls its example_*() function, links it
# against the build's libgrain and libgrain-htab, runs it and expects 0.
# Pages that show the same example share one build. A page without an
# EXAMPLE section fails (docs_man checks the sections of every page too).
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_MAN_DIR      build/<preset>/doc/man3
#   GRAIN_SOURCE_DIR   the source tree (include/)
#   GRAIN_CC           the C compiler
#   GRAIN_LIBS         the shared libraries to link, :-separated
#   GRAIN_SANITIZE_FLAGS  compile and link flags of a sanitizer build
set -eu

: "${GRAIN_MAN_DIR:?}" "${GRAIN_SOURCE_DIR:?}" "${GRAIN_CC:?}"
: "${GRAIN_LIBS:?}" "${GRAIN_SANITIZE_FLAGS:=}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

libs=""
rpath=""
old_ifs=$IFS
IFS=':'
for lib in $GRAIN_LIBS; do
	libs="$libs $lib"
	rpath="$rpath -Wl,-rpath,${lib%/*}"
done
IFS=$old_ifs

failed=0
pages=0
built=0
for page in "$GRAIN_MAN_DIR"/*.3; do
	name=${page##*/}
	name=${name%.3}
	# Links (.so) and the header pages have no example of their own.
	case "$name" in *.h) continue ;; esac
	head -n 1 "$page" | grep -q '^\.so ' && continue
	pages=$((pages + 1))
	sed -n '/^\.SH EXAMPLE/,/^\.SH /{/^\.EX/,/^\.EE/p}' "$page" |
		sed -e '1d' -e '$d' -e 's/\\e/\\/g' -e 's/\\-/-/g' \
			-e 's/^\\&//' >"$tmp/ex.c"
	if [ ! -s "$tmp/ex.c" ]; then
		echo "FAILED: $name: no EXAMPLE"
		failed=1
		continue
	fi
	grep -qw "$name" "$tmp/ex.c" ||
		{ echo "FAILED: $name: its EXAMPLE does not use $name"; failed=1; }
	sum=$(cksum <"$tmp/ex.c" | cut -d' ' -f1)
	[ -e "$tmp/$sum.ok" ] && continue
	[ -e "$tmp/$sum.bad" ] && { echo "FAILED: $name: as above"; failed=1; continue; }
	fn=$(sed -n 's/^int \(example_[a-z0-9_]*\)(void)$/\1/p' "$tmp/ex.c" | tail -n 1)
	if [ -z "$fn" ]; then
		echo "FAILED: $name: no int example_*(void) in its EXAMPLE"
		failed=1
		touch "$tmp/$sum.bad"
		continue
	fi
	{
		cat "$tmp/ex.c"
		printf '\nint main(void)\n{\n\treturn %s() == 0 ? 0 : 1;\n}\n' "$fn"
	} >"$tmp/$sum.c"
	# shellcheck disable=SC2086
	if ! "$GRAIN_CC" -std=c11 -Wall -Wextra -Wshadow -Werror \
		-Wno-deprecated-declarations $GRAIN_SANITIZE_FLAGS \
		-I"$GRAIN_SOURCE_DIR/include" \
		-o "$tmp/$sum" "$tmp/$sum.c" $libs $rpath -lpthread \
		>"$tmp/cc.log" 2>&1; then
		echo "FAILED: $name: its EXAMPLE ($fn) does not build:"
		cat "$tmp/cc.log"
		failed=1
		touch "$tmp/$sum.bad"
		continue
	fi
	if ! "$tmp/$sum" >"$tmp/run.log" 2>&1; then
		echo "FAILED: $name: its EXAMPLE ($fn) returned non-zero:"
		cat "$tmp/run.log"
		failed=1
		touch "$tmp/$sum.bad"
		continue
	fi
	touch "$tmp/$sum.ok"
	built=$((built + 1))
	echo "ok: $fn (first for $name)"
done
[ "$pages" -gt 0 ] || { echo "FAILED: no page in $GRAIN_MAN_DIR"; exit 1; }
[ "$failed" -eq 0 ] || exit 1
echo "examples: the EXAMPLE of all $pages pages builds and runs" \
	"($built distinct)"
