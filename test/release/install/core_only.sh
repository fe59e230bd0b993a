#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# core_only.sh - grain without grain_htab (CTest: install_core).
#
#   1. Configures grain with liburcu hidden (PKG_CONFIG_LIBDIR an empty
#      directory, PKG_CONFIG_PATH empty): the configure says, in one line,
#      that it builds the core alone; the same with -DGRAIN_BUILD_HTAB=OFF
#      and liburcu visible.
#   2. Builds the first with -DGRAIN_WERROR=ON and installs it into a
#      temporary prefix: libgrain (shared and static), grain.pc and the
#      CMake package, and no libgrain-htab, grain-htab.pc or grain::htab.
#   3. Builds test/release/abi/core_only.c (ring, prio, the spinlock and
#      hashing) against the install with find_package(grain) (grain::grain)
#      and with pkg-config grain, and runs both.
#   4. find_package(grain COMPONENTS htab) fails there, with the message
#      that grain was built without grain_htab.
# The temporary directory is removed at the end, also on failure.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_SOURCE_DIR, GRAIN_CMAKE, GRAIN_CMAKE_GENERATOR, GRAIN_CC,
#   GRAIN_PKG_CONFIG
set -eu

: "${GRAIN_SOURCE_DIR:?}" "${GRAIN_CMAKE:=cmake}"
: "${GRAIN_CMAKE_GENERATOR:=Unix Makefiles}" "${GRAIN_CC:=cc}"
: "${GRAIN_PKG_CONFIG:=pkg-config}"

say() { printf 'install core: %s\n' "$*"; }
fail() { printf 'install core: FAILED: %s\n' "$*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-core.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

prefix="$tmp/prefix"
mkdir "$tmp/nopc"

# configure_grain BUILD LOG [cmake options]: grain alone, nothing but the
# libraries.
configure_grain() {
	bin=$1 log=$2
	shift 2
	"$GRAIN_CMAKE" -S "$GRAIN_SOURCE_DIR" -B "$bin" \
		-G "$GRAIN_CMAKE_GENERATOR" -DCMAKE_C_COMPILER="$GRAIN_CC" \
		-DCMAKE_BUILD_TYPE=Debug -DGRAIN_BUILD_TESTS=OFF \
		-DGRAIN_BUILD_BENCH=OFF -DGRAIN_BUILD_EXAMPLES=OFF \
		-DGRAIN_BUILD_DOCS=OFF -DGRAIN_WERROR=ON \
		-DCMAKE_INSTALL_LIBDIR=lib "$@" >"$log" 2>&1 ||
		{ cat "$log"; return 1; }
}

# one_line LOG TEXT: TEXT is on exactly one line of LOG.
one_line() {
	n=$(grep -c "$2" "$1" || true)
	[ "$n" -eq 1 ] || { cat "$1"; fail "\"$2\": $n lines, not 1"; }
}

# --- 1. The configure says so ------------------------------------------------
say "configure with liburcu hidden from pkg-config"
PKG_CONFIG_LIBDIR="$tmp/nopc" PKG_CONFIG_PATH="" \
	configure_grain "$tmp/build" "$tmp/configure.log" ||
	fail "configure without liburcu"
one_line "$tmp/configure.log" \
	"liburcu-memb not found (pkg-config): building the core library alone"
say "configure with -DGRAIN_BUILD_HTAB=OFF"
configure_grain "$tmp/build-off" "$tmp/configure-off.log" \
	-DGRAIN_BUILD_HTAB=OFF || fail "configure with GRAIN_BUILD_HTAB=OFF"
one_line "$tmp/configure-off.log" \
	"GRAIN_BUILD_HTAB is OFF: building the core library alone"

# --- 2. Build and install ------------------------------------------------------
say "build (-Werror) and install into $prefix"
"$GRAIN_CMAKE" --build "$tmp/build" >"$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log"; fail "the core build"; }
"$GRAIN_CMAKE" --install "$tmp/build" --prefix "$prefix" \
	>"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "install"; }
for f in include/grain/grain.h lib/libgrain.a lib/pkgconfig/grain.pc \
	lib/cmake/grain/grainConfig.cmake; do
	[ -e "$prefix/$f" ] || fail "$f was not installed"
done
ls "$prefix"/lib/libgrain.so.* >/dev/null 2>&1 || fail "no libgrain.so.*"
if ls "$prefix"/lib/libgrain-htab* "$prefix/lib/pkgconfig/grain-htab.pc" \
	2>/dev/null | grep .; then
	fail "grain_htab's files were installed"
fi
if grep -l 'grain::htab' "$prefix"/lib/cmake/grain/grainTargets*.cmake; then
	fail "the CMake package exports grain::htab"
fi

# --- 3. A core program, with CMake and with pkg-config --------------------------
mkdir "$tmp/app"
cp "$GRAIN_SOURCE_DIR/test/release/abi/core_only.c" "$tmp/app/app.c"
cat >"$tmp/app/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(grain_core_app LANGUAGES C)
find_package(grain REQUIRED CONFIG)
add_executable(app app.c)
target_link_libraries(app PRIVATE grain::grain)
EOF
say "find_package(grain): a core program"
"$GRAIN_CMAKE" -S "$tmp/app" -B "$tmp/app-build" -G "$GRAIN_CMAKE_GENERATOR" \
	-DCMAKE_C_COMPILER="$GRAIN_CC" -DCMAKE_PREFIX_PATH="$prefix" \
	>"$tmp/app.log" 2>&1 &&
	"$GRAIN_CMAKE" --build "$tmp/app-build" >>"$tmp/app.log" 2>&1 ||
	{ cat "$tmp/app.log"; fail "the program with find_package(grain)"; }
"$tmp/app-build/app" || fail "the program built with find_package(grain)"

say "pkg-config grain: a core program"
# The flags are a list: split them.
# shellcheck disable=SC2046
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" "$GRAIN_CC" -std=c11 \
	-o "$tmp/app-pc" "$tmp/app/app.c" \
	$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" "$GRAIN_PKG_CONFIG" \
		--cflags --libs grain) -Wl,-rpath,"$prefix/lib" ||
	fail "the program with pkg-config grain"
"$tmp/app-pc" || fail "the program built with pkg-config grain"

# --- 4. No htab component ----------------------------------------------------------
mkdir "$tmp/htab"
cat >"$tmp/htab/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(grain_htab_app LANGUAGES C)
find_package(grain REQUIRED CONFIG COMPONENTS htab)
EOF
say "find_package(grain COMPONENTS htab) is refused"
if "$GRAIN_CMAKE" -S "$tmp/htab" -B "$tmp/htab-build" \
	-G "$GRAIN_CMAKE_GENERATOR" -DCMAKE_C_COMPILER="$GRAIN_CC" \
	-DCMAKE_PREFIX_PATH="$prefix" >"$tmp/htab.log" 2>&1; then
	cat "$tmp/htab.log"
	fail "find_package(grain COMPONENTS htab) found a core-only grain"
fi
tr '\n' ' ' <"$tmp/htab.log" | tr -s ' ' |
	grep -q "this grain was built without grain_htab" ||
	{ cat "$tmp/htab.log"; fail "no message saying why"; }

say "ok"
