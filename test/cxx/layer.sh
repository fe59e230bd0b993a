#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# layer.sh - the C++ layer, <grain/grain.hpp>, with both C++ compilers
# (CTests cxx_layer and, with --instr, cxx_layer_instr).
#
# cxx_layer: for g++ and clang++, and for -std=c++17 (with
# -fno-exceptions -fno-rtti, as daemons build) and -std=c++20, with
# -Wall -Wextra -Wpedantic -Werror (and, for C++, -Wold-style-cast
# -Wzero-as-null-pointer-constant -Wshadow -Wconversion -Wsign-conversion
# -Wcast-qual), test/cxx/layer.cc and layer_c.c (built by
# gcc or clang) compile, link against the build's libraries (and
# liburcu-qsbr, where pkg-config finds it: then the qsbr guards are
# tested too) and run: see layer.cc for what it checks. In a sanitizer
# build they are built with the sanitizer's flags, by the compilers of
# CMake's family only, as test/cxx/compilers.sh does.
#
# --instr (cxx_layer_instr): for each compiler pair, the instructions of
# N lookups, half of them misses, counted by callgrind (valgrind) inside
# one layer_measure_*() function at a time, all -O2: the C _fast call; the
# typed table's lookup through a view and through a reference to the
# table; and, for comparison only, the exported generic call that C++
# had before. Fails unless each typed count <= C * 1.05. Skipped (77)
# without valgrind.
#
# Exit status: 0 all passed; 1 a check failed; 77 (skipped) a compiler or
# valgrind is missing (the checks that could run passed).
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_SOURCE_DIR      the source tree
#   GRAIN_LIB_DIR         the directory holding the build's libgrain.so
#   GRAIN_CXX_ID          CMake's C++ compiler id (GNU, Clang), may be empty
#   GRAIN_SANITIZE_FLAGS  compile and link flags of a sanitizer build
#   GRAIN_PKG_CONFIG      pkg-config (default: pkg-config)
#   GRAIN_LAYER_OPS       lookups counted by --instr (default 8192)
set -eu

: "${GRAIN_SOURCE_DIR:?}" "${GRAIN_LIB_DIR:?}"
: "${GRAIN_CXX_ID:=}" "${GRAIN_SANITIZE_FLAGS:=}"
: "${GRAIN_PKG_CONFIG:=pkg-config}" "${GRAIN_LAYER_OPS:=8192}"

mode=run
[ "${1:-}" = --instr ] && mode=instr
# Callgrind reads the symbol table; valgrind 3.19 cannot read clang's
# DWARF 5, so the counted programs carry no debug information.
debug=-g
[ "$mode" = instr ] && debug=""

say() { printf 'cxx layer: %s\n' "$*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-layer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$mode" = instr ] && ! command -v valgrind >/dev/null 2>&1; then
	say "valgrind not found: skipped"
	exit 77
fi

warnings="-Wall -Wextra -Wpedantic -Werror"
# The layer compiles under the users' strictest usual C++ warnings too.
cxx_warnings="$warnings -Wold-style-cast -Wzero-as-null-pointer-constant \
-Wshadow -Wconversion -Wsign-conversion -Wcast-qual"
include="-I$GRAIN_SOURCE_DIR/include"
src=$GRAIN_SOURCE_DIR/test/cxx
qsbr="" qsbr_libs=""
if [ "$mode" = run ] &&
	qsbr_libs=$("$GRAIN_PKG_CONFIG" --libs liburcu-qsbr 2>/dev/null); then
	qsbr="-DGRAIN_LAYER_QSBR $("$GRAIN_PKG_CONFIG" --cflags liburcu-qsbr)"
else
	qsbr_libs=""
fi
failed=0
missing=0

# count FUNCTION EXE: the instructions callgrind counts inside FUNCTION.
count() {
	out="$tmp/cg.out"
	if ! valgrind --tool=callgrind --callgrind-out-file="$out" \
		--collect-atstart=no --toggle-collect="$1" "$2" --instr \
		"$3" "$GRAIN_LAYER_OPS" >"$tmp/cg.log" 2>&1; then
		tail -n 20 "$tmp/cg.log" >&2
		return 1
	fi
	n=$(sed -n 's/^summary: *//p' "$out")
	[ -n "$n" ] || n=$(sed -n 's/^totals: *//p' "$out")
	[ -n "$n" ] || return 1
	echo "$n"
}

for cxx in g++ clang++; do
	if ! command -v "$cxx" >/dev/null 2>&1; then
		say "$cxx not found: skipped"
		missing=1
		continue
	fi
	case "$cxx" in
	g++) family=GNU cc=gcc ;;
	clang++) family=Clang cc=clang ;;
	esac
	if [ -n "$GRAIN_SANITIZE_FLAGS" ] && [ "$family" != "$GRAIN_CXX_ID" ]; then
		say "$cxx: not built (sanitizer build by $GRAIN_CXX_ID)"
		continue
	fi
	stds="c++17 c++20"
	[ "$mode" = instr ] && stds=c++17
	for std in $stds; do
		extra=""
		[ "$std" = c++17 ] && extra="-fno-exceptions -fno-rtti"
		exe="$tmp/layer"
		# shellcheck disable=SC2086
		if ! "$cc" -std=c11 -O2 $debug $warnings $include \
			$GRAIN_SANITIZE_FLAGS -c -o "$tmp/layer_c.o" \
			"$src/layer_c.c"; then
			say "FAILED: building layer_c.c with $cc"
			failed=1
			continue
		fi
		# shellcheck disable=SC2086
		if ! "$cxx" -std="$std" -O2 $debug $extra $cxx_warnings $include \
			$qsbr $GRAIN_SANITIZE_FLAGS -pthread -o "$exe" \
			"$src/layer.cc" "$tmp/layer_c.o" \
			-L"$GRAIN_LIB_DIR" -lgrain-htab -lgrain $qsbr_libs \
			-Wl,-rpath,"$GRAIN_LIB_DIR"; then
			say "FAILED: building layer.cc with $cxx -std=$std"
			failed=1
			continue
		fi
		if [ "$mode" = run ]; then
			if ! "$exe"; then
				say "FAILED: layer built by $cxx -std=$std"
				failed=1
			fi
			continue
		fi
		if ! c=$(count layer_measure_c "$exe" c) ||
			! v=$(count layer_measure_cxx "$exe" cxx) ||
			! r=$(count layer_measure_cxx_ref "$exe" cxx_ref) ||
			! g=$(count layer_measure_generic "$exe" generic); then
			say "FAILED: $cxx: no count from callgrind"
			failed=1
			continue
		fi
		ops=$GRAIN_LAYER_OPS
		per() { awk "BEGIN { printf \"%.1f\", $1 / $ops }"; }
		say "$cc/$cxx: instructions per lookup ($ops lookups, half" \
			"misses): C _fast $(per "$c"), typed view $(per "$v")," \
			"typed by reference $(per "$r"), generic C call" \
			"$(per "$g")"
		for x in "view $v" "reference $r"; do
			# shellcheck disable=SC2086
			set -- $x
			if [ "$2" -gt $((c + c / 20)) ]; then
				say "FAILED: $cxx: the typed lookup ($1) takes" \
					"more than 1.05 times the C _fast" \
					"lookup's instructions"
				failed=1
			fi
		done
	done
done

[ "$failed" -eq 0 ] || exit 1
[ "$missing" -eq 0 ] || exit 77
say "ok"
