#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_examples_install.sh - the example programs build and run from an
# install, the two ways their installed files offer (CTest:
# examples_install).
#
# Installs the build into a temporary prefix; then, in a copy of
# <prefix>/share/doc/grain/examples (as a user would, the installed tree
# being read-only), builds ring_pipeline, prio_scheduler and htab_cache
# with its CMakeLists.txt (find_package(grain)) and, in another
# directory, with its Makefile (pkg-config), and runs each program: each
# checks its own result.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_BUILD_DIR, GRAIN_CONFIG, GRAIN_CMAKE, GRAIN_CC, GRAIN_LIBDIR,
#   GRAIN_PKG_CONFIG, GRAIN_SANITIZE_FLAGS (compile and link flags of a
#   sanitizer build)
set -eu

: "${GRAIN_BUILD_DIR:?}" "${GRAIN_LIBDIR:?}" "${GRAIN_CONFIG:=}"
: "${GRAIN_CMAKE:=cmake}" "${GRAIN_CC:=cc}" "${GRAIN_PKG_CONFIG:=pkg-config}"
: "${GRAIN_SANITIZE_FLAGS:=}"

command -v make >/dev/null 2>&1 || { echo "make not found: skipped"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-examples-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

set -- --install "$GRAIN_BUILD_DIR" --prefix "$prefix"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" --config "$GRAIN_CONFIG"
"$GRAIN_CMAKE" "$@" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "FAILED: cmake --install"; exit 1; }
ex="$prefix/share/doc/grain/examples"
for f in ring_pipeline.c prio_scheduler.c htab_cache.c CMakeLists.txt \
	Makefile; do
	[ -f "$ex/$f" ] || { echo "FAILED: $ex/$f is not installed"; exit 1; }
done
chmod -R a-w "$ex"

run() { # dir: run the three programs built there
	for p in ring_pipeline prio_scheduler htab_cache; do
		"$1/$p" >"$tmp/run.log" 2>&1 ||
			{ cat "$tmp/run.log"; echo "FAILED: $1/$p"; exit 1; }
	done
}

# 1. CMake, find_package(grain COMPONENTS htab).
cp -R "$ex" "$tmp/cmake-src"
chmod -R u+w "$tmp/cmake-src"
set -- -S "$tmp/cmake-src" -B "$tmp/cmake-build" \
	-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$GRAIN_CC" \
	-DCMAKE_C_FLAGS="$GRAIN_SANITIZE_FLAGS" \
	-DCMAKE_EXE_LINKER_FLAGS="$GRAIN_SANITIZE_FLAGS"
[ -n "$GRAIN_CONFIG" ] && set -- "$@" -DCMAKE_BUILD_TYPE="$GRAIN_CONFIG"
{ "$GRAIN_CMAKE" "$@" && "$GRAIN_CMAKE" --build "$tmp/cmake-build"; } \
	>"$tmp/cmake.log" 2>&1 ||
	{ cat "$tmp/cmake.log"; echo "FAILED: CMake build of the examples"; exit 1; }
run "$tmp/cmake-build"
echo "examples: built with find_package(grain) from $ex, and ran"

# 2. The Makefile, pkg-config, from a directory of one's own.
mkdir "$tmp/make-build"
PKG_CONFIG_PATH="$prefix/$GRAIN_LIBDIR/pkgconfig" \
	make -f "$ex/Makefile" -C "$tmp/make-build" CC="$GRAIN_CC" \
	PKG_CONFIG="$GRAIN_PKG_CONFIG" CFLAGS="-O2 -g $GRAIN_SANITIZE_FLAGS" \
	LDFLAGS="$GRAIN_SANITIZE_FLAGS" >"$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; echo "FAILED: make -f $ex/Makefile"; exit 1; }
run "$tmp/make-build"
echo "examples: built with $ex/Makefile (pkg-config), and ran"
chmod -R u+w "$ex"
