#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run.sh - the install test (CTest: install).
#
# Installs a grain build into a temporary prefix, checks the files, then
# builds and runs test/release/install/consumer (C and C++, ring, prio and htab)
# against that prefix with test/release/install/consumers.sh:
#   1. with CMake: find_package(grain COMPONENTS htab) through
#      CMAKE_PREFIX_PATH, linked to grain::htab (shared) and
#      grain::htab_static, run with CMake's build RPATH;
#   2. with pkg-config grain-htab, run with -Wl,-rpath (C) and with
#      LD_LIBRARY_PATH (C++), the two lines of README.md;
#   3. what find_package(grain) accepts (README.md, "Using grain from
#      another project" and "Versions and ABI"): while the major version
#      is 0, MAJOR.MINOR but not the minor before or after it
#      (SameMinorVersion); the htab component, and no other name; and,
#      without components, every target;
#   4. grain from a source tree (add_subdirectory, configured only): the
#      tests, benchmarks and examples stay off, and a program links
#      grain::grain and grain::htab.
# The temporary directory is removed at the end, also on failure.
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_BUILD_DIR     the build tree to install
#   GRAIN_SOURCE_DIR    its source tree (step 4)
#   GRAIN_CONSUMER_DIR  test/release/install/consumer
#   GRAIN_CONFIG        build configuration (may be empty)
#   GRAIN_VERSION       the version grain.pc and the package must report
#   GRAIN_LIBDIR        CMAKE_INSTALL_LIBDIR of the build (relative to the prefix, or absolute)
#   GRAIN_CMAKE, GRAIN_CMAKE_GENERATOR, GRAIN_CC, GRAIN_CXX, GRAIN_PKG_CONFIG
#   GRAIN_SANITIZE_FLAGS  compile and link flags of a sanitizer build
set -eu

: "${GRAIN_BUILD_DIR:?}" "${GRAIN_CONSUMER_DIR:?}" "${GRAIN_VERSION:?}"
: "${GRAIN_SOURCE_DIR:?}"
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
	include/grain/grain.hpp \
	"$GRAIN_LIBDIR/libgrain.a" "$GRAIN_LIBDIR/pkgconfig/grain.pc" \
	"$GRAIN_LIBDIR/libgrain-htab.a" "$GRAIN_LIBDIR/pkgconfig/grain-htab.pc" \
	"$GRAIN_LIBDIR/cmake/grain/grainConfig.cmake" \
	"$GRAIN_LIBDIR/cmake/grain/grainConfigVersion.cmake" \
	share/grain/tsan.supp; do
	[ -e "$prefix/$f" ] || fail "$f was not installed"
done
for lib in libgrain libgrain-htab; do
	ls "$libdir/$lib".so.* >/dev/null 2>&1 || fail "no $lib.so.* installed"
done

# --- The outside programs: find_package and pkg-config, C and C++ --------
GRAIN_PREFIX="$prefix" GRAIN_LIBDIR="$libdir" GRAIN_WORK="$tmp" \
	sh "$GRAIN_CONSUMER_DIR/../consumers.sh" || fail "the consumers"

# configure SOURCE BUILD LOG [cmake options]: configure a project, with
# the build's generator and compilers; on an error, show the log.
configure() {
	src=$1 bin=$2 log=$3
	shift 3
	"$GRAIN_CMAKE" -S "$src" -B "$bin" -G "$GRAIN_CMAKE_GENERATOR" \
		-DCMAKE_C_COMPILER="$GRAIN_CC" -DCMAKE_CXX_COMPILER="$GRAIN_CXX" \
		"$@" >"$log" 2>&1 || { cat "$log"; return 1; }
}

# --- 3. find_package: versions and components -------------------------------
major=${GRAIN_VERSION%%.*}
minor=${GRAIN_VERSION#*.}
minor=${minor%%.*}
# probe(EXPECTED VERSION [COMPONENTS ...]): 1 found, 0 refused.
probes="probe(1 \"$major.$minor\")
probe(1 \"$major.$minor\" COMPONENTS htab)
probe(0 \"$major.$((minor + 1))\")
probe(0 \"$((major + 1)).$minor\")
probe(0 \"$major.$minor\" COMPONENTS htab nosuch)
probe(0 \"\" COMPONENTS core)"
if [ "$minor" -gt 0 ]; then
	# While the major is 0 a minor version may break the ABI: the one
	# before is refused. From 1.0 on it is accepted.
	older=0
	[ "$major" -eq 0 ] || older=1
	probes="$probes
probe($older \"$major.$((minor - 1))\")"
fi
mkdir "$tmp/probe"
cat >"$tmp/probe/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(grain_probe LANGUAGES C)
function(probe expected version)
  unset(grain_DIR CACHE)
  find_package(grain \${version} CONFIG QUIET \${ARGN})
  list(JOIN ARGN " " args)
  string(STRIP "\${version} \${args}" args)
  set(what "find_package(grain \${args})")
  if(grain_FOUND AND expected)
    message(STATUS "\${what}: found \${grain_VERSION}, as it should")
  elseif(NOT grain_FOUND AND NOT expected)
    message(STATUS "\${what}: refused, as it should")
  else()
    message(SEND_ERROR "\${what}: found '\${grain_FOUND}', expected \${expected}")
  endif()
endfunction()
probe(1 "")
foreach(target IN ITEMS grain::grain grain::grain_static grain::htab
    grain::htab_static)
  if(NOT TARGET \${target})
    message(SEND_ERROR "find_package(grain) defines no \${target}")
  endif()
endforeach()
$probes
EOF
say "find_package(grain ...): the versions and components it accepts"
configure "$tmp/probe" "$tmp/probe-build" "$tmp/probe.log" \
	-DCMAKE_PREFIX_PATH="$prefix" ||
	fail "find_package(grain) accepts or refuses the wrong requests"
sed -n 's/^-- \(find_package\)/  \1/p' "$tmp/probe.log"

# --- 4. From a source tree: add_subdirectory ---------------------------------
mkdir "$tmp/subdir"
cat >"$tmp/subdir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(grain_subdir LANGUAGES C CXX)
add_subdirectory("$GRAIN_SOURCE_DIR" grain)
foreach(option IN ITEMS GRAIN_BUILD_TESTS GRAIN_BUILD_BENCH
    GRAIN_BUILD_EXAMPLES)
  if(\${option})
    message(SEND_ERROR "add_subdirectory(grain): \${option} is on")
  endif()
endforeach()
# A target of each: the tests, the benchmarks, the examples.
foreach(target IN ITEMS test_ring_basic instr_ops ring_pipeline)
  if(TARGET \${target})
    message(SEND_ERROR "add_subdirectory(grain) defines \${target}")
  endif()
endforeach()
add_executable(app app.c)
target_link_libraries(app PRIVATE grain::grain grain::htab)
EOF
printf 'int main(void)\n{\n\treturn 0;\n}\n' >"$tmp/subdir/app.c"
say "add_subdirectory(grain): tests, benchmarks and examples stay off"
configure "$tmp/subdir" "$tmp/subdir-build" "$tmp/subdir.log" ||
	fail "grain from a source tree"

say "ok"
