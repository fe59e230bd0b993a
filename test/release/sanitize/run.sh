#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run.sh - the sanitizer install test (CTest: tsan_install).
#
# What README.md ("Using grain under sanitizers") tells a ThreadSanitizer
# user to do, done as that user would:
#   1. build grain's libraries with -DGRAIN_SANITIZE=thread (nothing else:
#      no tests, examples, benchmarks or docs) and install them into a
#      temporary prefix;
#   2. build qsbr_readers.c and qsbr.c against that prefix with
#      pkg-config (grain-htab and liburcu-qsbr) and -fsanitize=thread;
#   3. run it with the installed suppression file,
#      TSAN_OPTIONS=suppressions=PREFIX/share/grain/tsan.supp, and expect
#      its "ok" line and no ThreadSanitizer report at all.
# Its readers use liburcu qsbr's own read side, not grain_rcu_*, while
# nodes and bucket arrays are reclaimed after grace periods, and while the
# table is destroyed after a grace period that follows its unpublishing.
# Exit 77 (skipped) where the compiler cannot build and run a trivial
# TSan program. The temporary directory is removed at the end.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_SOURCE_DIR    the source tree to build
#   GRAIN_CMAKE, GRAIN_CMAKE_GENERATOR, GRAIN_CC, GRAIN_PKG_CONFIG
#   GRAIN_WERROR        ON: the build and the program with -Werror
set -eu

: "${GRAIN_SOURCE_DIR:?}"
: "${GRAIN_CMAKE:=cmake}" "${GRAIN_CMAKE_GENERATOR:=Unix Makefiles}"
: "${GRAIN_CC:=cc}" "${GRAIN_PKG_CONFIG:=pkg-config}" "${GRAIN_WERROR:=OFF}"

here="$GRAIN_SOURCE_DIR/test/release/sanitize"
say() { printf 'tsan_install: %s\n' "$*"; }
fail() { printf 'tsan_install: FAILED: %s\n' "$*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-tsan.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Run a TSan program as test/run-sanitized.sh does (no ASLR where the
# kernel randomises more bits than GCC 12's runtime expects).
run_tsan() {
	sh "$GRAIN_SOURCE_DIR/test/run-sanitized.sh" "$@"
}

werror=""
case "$GRAIN_WERROR" in
ON | on | 1 | TRUE | true | YES | yes) werror=-Werror ;;
*) GRAIN_WERROR=OFF ;;
esac

# --- 0. Can this compiler build and run a TSan program at all? ----------
printf 'int main(void) { return 0; }\n' >"$tmp/probe.c"
if ! "$GRAIN_CC" -fsanitize=thread -o "$tmp/probe" "$tmp/probe.c" \
	>"$tmp/probe.log" 2>&1 || ! run_tsan "$tmp/probe" >>"$tmp/probe.log" 2>&1; then
	cat "$tmp/probe.log"
	say "SKIPPED: $GRAIN_CC cannot build or run a ThreadSanitizer program here"
	exit 77
fi

# --- 1. A TSan build of grain, installed ----------------------------------
prefix="$tmp/prefix"
say "building grain with -DGRAIN_SANITIZE=thread"
"$GRAIN_CMAKE" -S "$GRAIN_SOURCE_DIR" -B "$tmp/build" \
	-G "$GRAIN_CMAKE_GENERATOR" \
	-DCMAKE_C_COMPILER="$GRAIN_CC" \
	-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
	-DCMAKE_INSTALL_LIBDIR=lib \
	-DGRAIN_SANITIZE=thread -DGRAIN_WERROR="$GRAIN_WERROR" \
	-DGRAIN_BUILD_TESTS=OFF -DGRAIN_BUILD_EXAMPLES=OFF \
	-DGRAIN_BUILD_BENCH=OFF -DGRAIN_BUILD_DOCS=OFF \
	>"$tmp/build.log" 2>&1 &&
	"$GRAIN_CMAKE" --build "$tmp/build" --parallel 2 \
		>>"$tmp/build.log" 2>&1 &&
	"$GRAIN_CMAKE" --install "$tmp/build" --prefix "$prefix" \
		>>"$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log"; fail "the TSan build of grain"; }
supp="$prefix/share/grain/tsan.supp"
[ -f "$supp" ] || fail "share/grain/tsan.supp was not installed"

# --- 2. The program, with pkg-config ----------------------------------------
PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
flags=$("$GRAIN_PKG_CONFIG" --cflags --libs grain-htab liburcu-qsbr) ||
	fail "pkg-config grain-htab liburcu-qsbr"
libdir=$("$GRAIN_PKG_CONFIG" --variable=libdir grain)
say "cc -fsanitize=thread ... $flags"
# shellcheck disable=SC2086 # $flags is a list of words
"$GRAIN_CC" -std=c11 -O1 -g -fsanitize=thread -Wall -Wextra $werror \
	-o "$tmp/qsbr_readers" "$here/qsbr_readers.c" "$here/qsbr.c" \
	$flags -pthread -Wl,-rpath,"$libdir" ||
	fail "building qsbr_readers against the installed TSan build"

# --- 3. Run it: no report ----------------------------------------------------
say "running qsbr_readers with TSAN_OPTIONS=suppressions=$supp"
rc=0
TSAN_OPTIONS="suppressions=$supp:halt_on_error=1:exitcode=66" \
	run_tsan "$tmp/qsbr_readers" >"$tmp/run.log" 2>&1 || rc=$?
cat "$tmp/run.log"
grep -q "ThreadSanitizer" "$tmp/run.log" &&
	fail "ThreadSanitizer reported (exit status $rc)"
[ "$rc" -eq 0 ] || fail "qsbr_readers exited with status $rc"
grep -q "^qsbr_readers: ok" "$tmp/run.log" || fail "no ok line"
say "ok: no report"
