#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# consumers.sh - build and run the outside programs
# (test/release/install/consumer: main.c in C, main.cc in C++, each using
# ring, prio and htab) against an installed grain, through find_package and
# through pkg-config.
#
# Used by run.sh (a temporary prefix) and by test/release/deb/check.sh (the
# installed Debian packages, GRAIN_PREFIX empty). With a prefix it checks
# that each program loads that prefix's libraries, and runs the pkg-config
# builds the two ways README.md gives for a non-system prefix:
#   cc -o app app.c $(pkg-config --cflags --libs grain-htab) \
#           -Wl,-rpath,$(pkg-config --variable=libdir grain)
#   LD_LIBRARY_PATH=$(pkg-config --variable=libdir grain) ./app
# The CMake builds need neither: CMake gives them a build RPATH.
#
# Environment:
#   GRAIN_PREFIX        the install prefix; empty: the system's
#   GRAIN_LIBDIR        its library directory (with a prefix)
#   GRAIN_CONSUMER_DIR  test/release/install/consumer
#   GRAIN_VERSION       the version grain.pc and the package must report
#   GRAIN_WORK          a scratch directory (removed by the caller)
#   GRAIN_CONFIG, GRAIN_CMAKE, GRAIN_CMAKE_GENERATOR, GRAIN_CC, GRAIN_CXX,
#   GRAIN_PKG_CONFIG, GRAIN_SANITIZE_FLAGS (compile and link flags)
set -eu

: "${GRAIN_CONSUMER_DIR:?}" "${GRAIN_VERSION:?}" "${GRAIN_WORK:?}"
: "${GRAIN_PREFIX:=}" "${GRAIN_LIBDIR:=}" "${GRAIN_CONFIG:=}"
: "${GRAIN_SANITIZE_FLAGS:=}" "${GRAIN_CMAKE:=cmake}"
: "${GRAIN_CMAKE_GENERATOR:=Unix Makefiles}" "${GRAIN_CC:=cc}"
: "${GRAIN_CXX:=c++}" "${GRAIN_PKG_CONFIG:=pkg-config}"

say() { printf 'consumers: %s\n' "$*"; }
fail() { printf 'consumers: FAILED: %s\n' "$*" >&2; exit 1; }
tmp=$GRAIN_WORK

# A program built against a prefix must load libgrain and libgrain-htab
# from it, and never the system's.
loads_prefix() {
	[ -n "$GRAIN_PREFIX" ] || return 0
	command -v ldd >/dev/null 2>&1 || return 0
	out=$(ldd "$1") || fail "ldd $1"
	for lib in libgrain.so libgrain-htab.so; do
		printf '%s\n' "$out" | grep -F "$lib" |
			grep -qF "$GRAIN_LIBDIR/$lib" ||
			fail "$(basename "$1") does not load $GRAIN_LIBDIR/$lib"
	done
}

# --- 1. CMake: find_package(grain VERSION COMPONENTS htab) ------------------
say "building with find_package(grain $GRAIN_VERSION COMPONENTS htab)"
set -- -S "$GRAIN_CONSUMER_DIR" -B "$tmp/cmake-build" \
	-G "$GRAIN_CMAKE_GENERATOR" \
	-DGRAIN_EXPECTED_VERSION="$GRAIN_VERSION" \
	-DCMAKE_C_COMPILER="$GRAIN_CC" -DCMAKE_CXX_COMPILER="$GRAIN_CXX" \
	-DCMAKE_C_FLAGS="$GRAIN_SANITIZE_FLAGS" \
	-DCMAKE_CXX_FLAGS="$GRAIN_SANITIZE_FLAGS" \
	-DCMAKE_EXE_LINKER_FLAGS="$GRAIN_SANITIZE_FLAGS"
[ -n "$GRAIN_PREFIX" ] && set -- "$@" -DCMAKE_PREFIX_PATH="$GRAIN_PREFIX"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" -DCMAKE_BUILD_TYPE="$GRAIN_CONFIG"
"$GRAIN_CMAKE" "$@" >"$tmp/cmake-configure.log" 2>&1 ||
	{ cat "$tmp/cmake-configure.log"; fail "configuring the consumer"; }
grain_dir=$(sed -n 's/^grain_DIR:[A-Z]*=//p' "$tmp/cmake-build/CMakeCache.txt")
case "$grain_dir" in
"${GRAIN_PREFIX:-/usr}"/*) ;;
*) fail "find_package(grain) found $grain_dir, not ${GRAIN_PREFIX:-/usr}" ;;
esac

set -- --build "$tmp/cmake-build"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" --config "$GRAIN_CONFIG"
"$GRAIN_CMAKE" "$@" >"$tmp/cmake-build.log" 2>&1 ||
	{ cat "$tmp/cmake-build.log"; fail "building the consumer"; }

for exe in consumer_shared consumer_static consumer_cxx; do
	path=$(find "$tmp/cmake-build" -type f -name "$exe" | head -n 1)
	[ -n "$path" ] || fail "$exe was not built"
	say "running $exe (CMake build, no LD_LIBRARY_PATH)"
	env -u LD_LIBRARY_PATH "$path" || fail "$exe"
	[ "$exe" = consumer_static ] || loads_prefix "$path"
done

# --- 2. pkg-config ------------------------------------------------------------
say "building with pkg-config grain-htab"
if [ -n "$GRAIN_PREFIX" ]; then
	PKG_CONFIG_PATH="$GRAIN_LIBDIR/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
	export PKG_CONFIG_PATH
fi
for pc in grain grain-htab; do
	version=$("$GRAIN_PKG_CONFIG" --modversion "$pc") ||
		fail "pkg-config does not find $pc"
	[ "$version" = "$GRAIN_VERSION" ] ||
		fail "$pc.pc says version $version, expected $GRAIN_VERSION"
done
flags=$("$GRAIN_PKG_CONFIG" --cflags --libs grain-htab)
libdir=$("$GRAIN_PKG_CONFIG" --variable=libdir grain)
say "pkg-config --cflags --libs grain-htab: $flags"
rpath=""
[ -n "$GRAIN_PREFIX" ] && rpath="-Wl,-rpath,$libdir"
# $GRAIN_SANITIZE_FLAGS and $flags are lists of words: split them.
# shellcheck disable=SC2086
"$GRAIN_CC" $GRAIN_SANITIZE_FLAGS -o "$tmp/consumer_pc" \
	"$GRAIN_CONSUMER_DIR/main.c" $flags $rpath ||
	fail "cc with pkg-config flags"
# shellcheck disable=SC2086
"$GRAIN_CXX" -std=c++17 $GRAIN_SANITIZE_FLAGS -o "$tmp/consumer_pc_cxx" \
	"$GRAIN_CONSUMER_DIR/main.cc" $flags ||
	fail "c++ with pkg-config flags"

say "running consumer_pc (C${rpath:+, built with $rpath})"
env -u LD_LIBRARY_PATH "$tmp/consumer_pc" || fail "consumer_pc"
loads_prefix "$tmp/consumer_pc"
if [ -n "$GRAIN_PREFIX" ]; then
	say "running consumer_pc_cxx (C++, LD_LIBRARY_PATH=$libdir)"
	LD_LIBRARY_PATH="$libdir" "$tmp/consumer_pc_cxx" ||
		fail "consumer_pc_cxx"
	out=$(LD_LIBRARY_PATH="$libdir" ldd "$tmp/consumer_pc_cxx")
	printf '%s\n' "$out" | grep -qF "$libdir/libgrain-htab.so" ||
		fail "consumer_pc_cxx does not load $libdir/libgrain-htab.so"
else
	say "running consumer_pc_cxx (C++)"
	"$tmp/consumer_pc_cxx" || fail "consumer_pc_cxx"
fi
say "ok"
