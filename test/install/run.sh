#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run.sh - the install test (CTest: install).
#
# Installs a grain build into a temporary prefix, checks the files, then
# builds and runs test/install/consumer (C and C++, ring, prio and htab)
# against that prefix with test/install/consumers.sh:
#   1. with CMake: find_package(grain COMPONENTS htab) through
#      CMAKE_PREFIX_PATH, linked to grain::htab (shared) and
#      grain::htab_static, run with CMake's build RPATH;
#   2. with pkg-config grain-htab, run with -Wl,-rpath (C) and with
#      LD_LIBRARY_PATH (C++), the two lines of README.md.
# The temporary directory is removed at the end, also on failure.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_BUILD_DIR     the build tree to install
#   GRAIN_CONSUMER_DIR  test/install/consumer
#   GRAIN_CONFIG        build configuration (may be empty)
#   GRAIN_VERSION       the version grain.pc and the package must report
#   GRAIN_LIBDIR        CMAKE_INSTALL_LIBDIR of the build (relative to the prefix, or absolute)
#   GRAIN_CMAKE, GRAIN_CMAKE_GENERATOR, GRAIN_CC, GRAIN_CXX, GRAIN_PKG_CONFIG
#   GRAIN_SANITIZE_FLAGS  compile and link flags of a sanitizer build
set -eu

: "${GRAIN_BUILD_DIR:?}" "${GRAIN_CONSUMER_DIR:?}" "${GRAIN_VERSION:?}"
: "${GRAIN_LIBDIR:=lib}" "${GRAIN_CONFIG:=}" "${GRAIN_SANITIZE_FLAGS:=}"
: "${GRAIN_CMAKE:=cmake}" "${GRAIN_CMAKE_GENERATOR:=Unix Makefiles}"
: "${GRAIN_CC:=cc}" "${GRAIN_CXX:=c++}" "${GRAIN_PKG_CONFIG:=pkg-config}"
export GRAIN_CONSUMER_DIR GRAIN_VERSION GRAIN_CONFIG GRAIN_SANITIZE_FLAGS \
	GRAIN_CMAKE GRAIN_CMAKE_GENERATOR GRAIN_CC GRAIN_CXX GRAIN_PKG_CONFIG

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
	"$GRAIN_LIBDIR/libgrain-htab.a" "$GRAIN_LIBDIR/pkgconfig/grain-htab.pc" \
	"$GRAIN_LIBDIR/cmake/grain/grainConfig.cmake" \
	"$GRAIN_LIBDIR/cmake/grain/grainConfigVersion.cmake"; do
	[ -e "$prefix/$f" ] || fail "$f was not installed"
done
for lib in libgrain libgrain-htab; do
	ls "$libdir/$lib".so.* >/dev/null 2>&1 || fail "no $lib.so.* installed"
done

# --- The outside programs: find_package and pkg-config, C and C++ --------
GRAIN_PREFIX="$prefix" GRAIN_LIBDIR="$libdir" GRAIN_WORK="$tmp" \
	sh "$GRAIN_CONSUMER_DIR/../consumers.sh" || fail "the consumers"

say "ok"
