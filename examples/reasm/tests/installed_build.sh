#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# installed_build.sh - the reassembler builds against an installed grain
# alone, the best proof that grain's public API is enough for it (CTest:
# reasm_installed_build).
#
# Installs this build of grain into a temporary prefix; copies this tree
# (examples/reasm) out of grain's, so that nothing of grain's sources can
# be reached; configures the copy on its own (its CMakeLists.txt as the
# top level: find_package(grain COMPONENTS htab), CMAKE_PREFIX_PATH the
# prefix) and checks that grain was found there; builds the engine and,
# where libpcap is found, the programs; then runs `reasm --version` and
# the demo capture through the built reasm, whose output must be the same
# file as the one the reasm of grain's build writes.
#
# Environment (set by tests/CMakeLists.txt):
#   GRAIN_BUILD_DIR, GRAIN_CONFIG, GRAIN_CMAKE, GRAIN_CMAKE_GENERATOR,
#   GRAIN_CC, GRAIN_WERROR, REASM_SOURCE_DIR (this tree), REASM (the reasm
#   of grain's build; empty without libpcap)
set -eu

: "${GRAIN_BUILD_DIR:?}" "${REASM_SOURCE_DIR:?}" "${GRAIN_CONFIG:=}"
: "${GRAIN_CMAKE:=cmake}" "${GRAIN_CMAKE_GENERATOR:=}" "${GRAIN_CC:=cc}"
: "${GRAIN_WERROR:=OFF}" "${REASM:=}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-reasm-installed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

fail() {
	[ -f "$2" ] && cat "$2"
	echo "FAILED: $1"
	exit 1
}

set -- --install "$GRAIN_BUILD_DIR" --prefix "$prefix"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" --config "$GRAIN_CONFIG"
"$GRAIN_CMAKE" "$@" >"$tmp/install.log" 2>&1 ||
	fail "cmake --install $GRAIN_BUILD_DIR" "$tmp/install.log"

cp -R "$REASM_SOURCE_DIR" "$tmp/src"
chmod -R u+w "$tmp/src"
set -- -S "$tmp/src" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_COMPILER="$GRAIN_CC" -DCMAKE_COMPILE_WARNING_AS_ERROR="$GRAIN_WERROR"
[ -n "$GRAIN_CMAKE_GENERATOR" ] && set -- "$@" -G "$GRAIN_CMAKE_GENERATOR"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" -DCMAKE_BUILD_TYPE="$GRAIN_CONFIG"
"$GRAIN_CMAKE" "$@" >"$tmp/configure.log" 2>&1 ||
	fail "configuring examples/reasm on its own" "$tmp/configure.log"

# The grain that was found is the installed one.
found=$(sed -n 's/^grain_DIR:[A-Z]*=//p' "$tmp/build/CMakeCache.txt")
case $found in
"$prefix"/*) ;;
*) fail "find_package(grain) found \"$found\", not $prefix" /dev/null ;;
esac

"$GRAIN_CMAKE" --build "$tmp/build" --parallel 2 >"$tmp/build.log" 2>&1 ||
	fail "building examples/reasm against the installed grain" \
		"$tmp/build.log"
echo "reasm_installed_build: built against $found"

reasm=$(find "$tmp/build" -type f -name reasm -perm -u+x | head -n 1)
if [ -z "$reasm" ]; then
	# Without libpcap only the engine is built.
	[ -z "$REASM" ] || fail "no reasm program was built" "$tmp/build.log"
	find "$tmp/build" -name 'libreasm_engine.a' | grep -q . ||
		fail "no reasm_engine library was built" "$tmp/build.log"
	echo "reasm_installed_build: the engine alone (no libpcap)"
	exit 0
fi

"$reasm" --version >"$tmp/version.log" 2>&1 ||
	fail "$reasm --version" "$tmp/version.log"
cat "$tmp/version.log"

demo="$REASM_SOURCE_DIR/data/demo.pcap"
"$reasm" --read "$demo" --write "$tmp/out.pcap" >"$tmp/run.log" 2>&1 ||
	fail "$reasm --read $demo" "$tmp/run.log"
[ -s "$tmp/out.pcap" ] || fail "$reasm wrote nothing" "$tmp/run.log"
if [ -n "$REASM" ]; then
	"$REASM" --read "$demo" --write "$tmp/ref.pcap" >"$tmp/ref.log" 2>&1 ||
		fail "$REASM --read $demo" "$tmp/ref.log"
	cmp "$tmp/ref.pcap" "$tmp/out.pcap" ||
		fail "the two builds of reasm wrote different files" /dev/null
fi
echo "reasm_installed_build: the demo capture through it, the same output"
