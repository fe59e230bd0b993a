#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# options.sh - the build options that README.md says are refused are
# refused: each bad combination stops `cmake` at configure time with its
# message, and the same configuration without it configures.
#
# Environment (set by CTest):
#   GRAIN_SOURCE_DIR, GRAIN_CMAKE, GRAIN_CMAKE_GENERATOR, GRAIN_CC
#   GRAIN_CLANG  clang's path, or empty: the Clang cases are skipped
set -eu

: "${GRAIN_SOURCE_DIR:?}" "${GRAIN_CMAKE:=cmake}"
: "${GRAIN_CMAKE_GENERATOR:=Unix Makefiles}" "${GRAIN_CC:=cc}"
: "${GRAIN_CLANG:=}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# configure <expect: ok|refused> <message or -> <cc> <cmake args...>
configure() {
	expect=$1 message=$2 cc=$3
	shift 3
	n=$((n + 1))
	bin="$tmp/b$n"
	if CC="$cc" "$GRAIN_CMAKE" -S "$GRAIN_SOURCE_DIR" -B "$bin" \
		-G "$GRAIN_CMAKE_GENERATOR" -DGRAIN_BUILD_BENCH=OFF \
		-DGRAIN_BUILD_EXAMPLES=OFF -DGRAIN_BUILD_DOCS=OFF \
		"$@" >"$tmp/log$n" 2>&1; then
		got=ok
	else
		got=refused
	fi
	if [ "$got" != "$expect" ]; then
		echo "FAIL: $* with CC=$cc: expected $expect, got $got" >&2
		sed 's/^/  | /' "$tmp/log$n" | tail -n 20 >&2
		fail=1
		return
	fi
	# CMake wraps long messages: join the log's lines before matching.
	if [ "$message" != "-" ] &&
		! tr '\n' ' ' <"$tmp/log$n" | tr -s ' ' | grep -qF "$message"; then
		echo "FAIL: $* with CC=$cc: no \"$message\" in its output" >&2
		sed 's/^/  | /' "$tmp/log$n" | tail -n 20 >&2
		fail=1
		return
	fi
	echo "ok: $got: $*${message:+ ($message)}"
}

configure ok - "$GRAIN_CC" -DGRAIN_BUILD_TESTS=OFF
configure ok - "$GRAIN_CC" -DGRAIN_BUILD_TESTS=OFF -DGRAIN_SANITIZE=address
configure refused 'GRAIN_SANITIZE must be empty, "thread" or "address", not "memory"' \
	"$GRAIN_CC" -DGRAIN_BUILD_TESTS=OFF -DGRAIN_SANITIZE=memory
configure refused "GRAIN_FUZZ needs GRAIN_BUILD_TESTS" \
	"$GRAIN_CC" -DGRAIN_BUILD_TESTS=OFF -DGRAIN_FUZZ=ON
if "$GRAIN_CC" --version 2>/dev/null | grep -qi clang; then
	echo "skip: GRAIN_FUZZ with GCC ($GRAIN_CC is Clang)"
else
	configure refused "GRAIN_FUZZ needs Clang (libFuzzer)" \
		"$GRAIN_CC" -DGRAIN_BUILD_TESTS=ON -DGRAIN_FUZZ=ON
fi
if [ -n "$GRAIN_CLANG" ]; then
	configure refused "cannot be combined with GRAIN_SANITIZE=thread" \
		"$GRAIN_CLANG" -DGRAIN_BUILD_TESTS=ON -DGRAIN_FUZZ=ON \
		-DGRAIN_SANITIZE=thread
else
	echo "skip: GRAIN_FUZZ with GRAIN_SANITIZE=thread (no clang)"
fi
exit "$fail"
