#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run.sh - the install test (CTest: install).
#
# Installs a grain build into a temporary prefix, then builds and runs
# test/install/consumer against that prefix twice:
#   1. with CMake: find_package(grain) through CMAKE_PREFIX_PATH, linked to
#      grain::grain (shared) and grain::grain_static;
#   2. with pkg-config: cc main.c $(pkg-config --cflags --libs grain).
# The temporary directory is removed at the end, also on failure.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_BUILD_DIR     the build tree to install
#   GRAIN_CONSUMER_DIR  test/install/consumer
#   GRAIN_CONFIG        build configuration (may be empty)
#   GRAIN_VERSION       the version grain.pc and the package must report
#   GRAIN_LIBDIR        CMAKE_INSTALL_LIBDIR of the build (relative to the prefix, or absolute)
#   GRAIN_CMAKE, GRAIN_CMAKE_GENERATOR, GRAIN_CC, GRAIN_PKG_CONFIG
#   GRAIN_SANITIZE_FLAGS  compile and link flags of a sanitizer build
set -eu

: "${GRAIN_BUILD_DIR:?}" "${GRAIN_CONSUMER_DIR:?}" "${GRAIN_VERSION:?}"
: "${GRAIN_LIBDIR:=lib}" "${GRAIN_CONFIG:=}" "${GRAIN_SANITIZE_FLAGS:=}"
: "${GRAIN_CMAKE:=cmake}" "${GRAIN_CMAKE_GENERATOR:=Unix Makefiles}"
: "${GRAIN_CC:=cc}" "${GRAIN_PKG_CONFIG:=pkg-config}"

say() { printf 'install test: %s\n' "$*"; }
fail() { printf 'install test: FAILED: %s\n' "$*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

prefix="$tmp/prefix"
case "$GRAIN_LIBDIR" in
/*) fail "CMAKE_INSTALL_LIBDIR is absolute ($GRAIN_LIBDIR): cannot" \
	"install into a temporary prefix" ;;
esac
libdir="$prefix/$GRAIN_LIBDIR"

set -- --install "$GRAIN_BUILD_DIR" --prefix "$prefix"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" --config "$GRAIN_CONFIG"
say "installing into $prefix"
"$GRAIN_CMAKE" "$@" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; fail "cmake --install"; }

for f in include/grain/grain.h include/grain/impl/ring.h \
	"$GRAIN_LIBDIR/libgrain.a" "$GRAIN_LIBDIR/pkgconfig/grain.pc" \
	"$GRAIN_LIBDIR/cmake/grain/grainConfig.cmake" \
	"$GRAIN_LIBDIR/cmake/grain/grainConfigVersion.cmake"; do
	[ -e "$prefix/$f" ] || fail "$f was not installed"
done
ls "$libdir"/libgrain.so.* >/dev/null 2>&1 || fail "no libgrain.so.* installed"

# --- 1. CMake: find_package(grain) ---------------------------------------
say "building the consumer with find_package(grain)"
set -- -S "$GRAIN_CONSUMER_DIR" -B "$tmp/cmake-build" \
	-G "$GRAIN_CMAKE_GENERATOR" \
	-DCMAKE_PREFIX_PATH="$prefix" \
	-DGRAIN_EXPECTED_VERSION="$GRAIN_VERSION" \
	-DCMAKE_C_COMPILER="$GRAIN_CC" \
	-DCMAKE_C_FLAGS="$GRAIN_SANITIZE_FLAGS" \
	-DCMAKE_EXE_LINKER_FLAGS="$GRAIN_SANITIZE_FLAGS"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" -DCMAKE_BUILD_TYPE="$GRAIN_CONFIG"
"$GRAIN_CMAKE" "$@" >"$tmp/cmake-configure.log" 2>&1 ||
	{ cat "$tmp/cmake-configure.log"; fail "configuring the consumer"; }
grain_dir=$(sed -n 's/^grain_DIR:[A-Z]*=//p' "$tmp/cmake-build/CMakeCache.txt")
case "$grain_dir" in
"$prefix"/*) ;;
*) fail "find_package(grain) found $grain_dir, not the test prefix" ;;
esac

set -- --build "$tmp/cmake-build"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" --config "$GRAIN_CONFIG"
"$GRAIN_CMAKE" "$@" >"$tmp/cmake-build.log" 2>&1 ||
	{ cat "$tmp/cmake-build.log"; fail "building the consumer"; }

for exe in consumer_shared consumer_static; do
	path=$(find "$tmp/cmake-build" -type f -name "$exe" | head -n 1)
	[ -n "$path" ] || fail "$exe was not built"
	say "running $exe"
	LD_LIBRARY_PATH="$libdir" "$path" || fail "$exe"
done
# The shared consumer must have run against the installed library.
if command -v ldd >/dev/null 2>&1; then
	path=$(find "$tmp/cmake-build" -type f -name consumer_shared | head -n 1)
	LD_LIBRARY_PATH="$libdir" ldd "$path" | grep -qF "$libdir/libgrain.so" ||
		fail "consumer_shared does not load $libdir/libgrain.so"
fi

# --- 2. pkg-config ----------------------------------------------------------
say "building the consumer with pkg-config"
PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
version=$("$GRAIN_PKG_CONFIG" --modversion grain) ||
	fail "pkg-config does not find grain"
[ "$version" = "$GRAIN_VERSION" ] ||
	fail "grain.pc says version $version, expected $GRAIN_VERSION"
flags=$("$GRAIN_PKG_CONFIG" --cflags --libs grain)
say "pkg-config --cflags --libs grain: $flags"
# $GRAIN_SANITIZE_FLAGS and $flags are lists of words: split them.
# shellcheck disable=SC2086
"$GRAIN_CC" $GRAIN_SANITIZE_FLAGS -o "$tmp/consumer_pc" \
	"$GRAIN_CONSUMER_DIR/main.c" $flags || fail "cc with pkg-config flags"
say "running consumer_pc"
LD_LIBRARY_PATH="$libdir" "$tmp/consumer_pc" || fail "consumer_pc"

say "ok"
