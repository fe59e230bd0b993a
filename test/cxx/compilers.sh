#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# compilers.sh - grain from C++ with both C++ compilers (CTest:
# cxx_compilers).
#
# For g++ and clang++, and for -std=c++17 and -std=c++20, with
# -Wall -Wextra -Wpedantic -Werror, test/cxx/test_cxx_threads.cc compiles,
# links against the libgrain.so of the build (with test/cxx/layout.c, built
# by gcc or clang) and runs. The headers alone, with both compilers and
# stricter warnings, are test/cxx/headers_strict.sh's.
#
# In a sanitizer build the program is linked with the sanitizer's flags,
# and only by the compiler of CMake's family: the sanitizer runtimes of GCC
# and Clang do not mix in one process.
#
# Exit status: 0 all passed; 1 a check failed; 77 (skipped) a compiler is
# missing (the other one's checks still ran and passed).
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_SOURCE_DIR      the source tree
#   GRAIN_LIB_DIR         the directory holding the build's libgrain.so
#   GRAIN_CXX_ID          CMake's C++ compiler id (GNU, Clang), may be empty
#   GRAIN_SANITIZE_FLAGS  compile and link flags of a sanitizer build
set -eu

: "${GRAIN_SOURCE_DIR:?}" "${GRAIN_LIB_DIR:?}"
: "${GRAIN_CXX_ID:=}" "${GRAIN_SANITIZE_FLAGS:=}"

say() { printf 'cxx compilers: %s\n' "$*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-cxx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

warnings="-Wall -Wextra -Wpedantic -Werror"
include="-I$GRAIN_SOURCE_DIR/include"
failed=0
missing=0

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
	for std in c++17 c++20; do
		if [ -n "$GRAIN_SANITIZE_FLAGS" ] &&
			[ "$family" != "$GRAIN_CXX_ID" ]; then
			say "$cxx -std=$std: program not linked (sanitizer" \
				"build by $GRAIN_CXX_ID)"
			continue
		fi
		exe="$tmp/test_cxx_threads"
		# C's side of the layout check, by the C compiler of the family.
		# shellcheck disable=SC2086
		if ! "$cc" -std=c11 $warnings $include $GRAIN_SANITIZE_FLAGS \
			-c -o "$tmp/layout.o" \
			"$GRAIN_SOURCE_DIR/test/cxx/layout.c"; then
			say "FAILED: building layout.c with $cc"
			failed=1
			continue
		fi
		# shellcheck disable=SC2086
		if ! "$cxx" -std="$std" $warnings $include \
			$GRAIN_SANITIZE_FLAGS -pthread -o "$exe" \
			"$GRAIN_SOURCE_DIR/test/cxx/test_cxx_threads.cc" \
			"$tmp/layout.o" \
			-L"$GRAIN_LIB_DIR" -lgrain-htab -lgrain \
			-Wl,-rpath,"$GRAIN_LIB_DIR"; then
			say "FAILED: building test_cxx_threads with $cxx -std=$std"
			failed=1
			continue
		fi
		if ! "$exe"; then
			say "FAILED: test_cxx_threads built by $cxx -std=$std"
			failed=1
		fi
		rm -f "$exe"
	done
done

[ "$failed" -eq 0 ] || exit 1
[ "$missing" -eq 0 ] || exit 77
say "ok"
