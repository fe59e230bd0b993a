#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check_loader.sh - a program built against one release either runs
# correctly on another release's libraries or is refused by the dynamic
# loader, in both directions (CTest: abi_loader; README.md, "Versions and
# ABI").
#
# For each release in test/release/abi/releases other than the tree's own
# version, the release's two libraries are built from this repository's
# history (git archive of its commit; a few seconds each), and
# test/release/abi/loader_prog.c is compiled twice: against that release's
# headers and libraries, and against the tree's. Each program then runs on its
# own libraries (it must pass: the control) and on the other's alone, through
# LD_LIBRARY_PATH with no grain in the run path. There it must either pass its
# checks or fail to start with the loader's "error while loading shared
# libraries" (a SONAME or version node it needs is missing); any other outcome
# (a wrong result, an error code, a crash) fails the test. Without the history
# (a source tarball, a shallow clone) the test is skipped (exit 77).
#
# Environment (set by test/CMakeLists.txt):
#   GRAIN_SOURCE_DIR   the source tree (a git work tree)
#   GRAIN_LIBDIR       where the tree's libgrain.so.* and libgrain-htab.so.*
#                      are
#   GRAIN_VERSION      the tree's version
#   CC                 the C compiler
set -eu

: "${GRAIN_SOURCE_DIR:?}" "${GRAIN_LIBDIR:?}" "${GRAIN_VERSION:?}"
: "${CC:=cc}"
src=$GRAIN_SOURCE_DIR
prog=$src/test/release/abi/loader_prog.c

if ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	echo "SKIPPED: $src has no git history to build the releases from"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-loader.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# compile NAME INCLUDE_DIR LIB_DIR: loader_prog against those, no run path.
compile() {
	"$CC" -std=c11 -O2 -o "$tmp/$1" "$prog" -I"$2" -L"$3" \
		-lgrain-htab -lgrain -lpthread
}

# A directory with only the grain libraries of $2, for LD_LIBRARY_PATH.
libdir() {
	mkdir -p "$tmp/$1"
	cp -P "$2"/libgrain.so.* "$2"/libgrain-htab.so.* "$tmp/$1/"
}

failed=0
# run PROG LIBS WHAT: "runs" or "refused", or FAILED.
run() {
	rc=0
	LD_LIBRARY_PATH="$tmp/$2" "$tmp/$1" >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^loader_prog: ok' "$tmp/out"; then
		echo "  $3: runs ($(cat "$tmp/out"))"
	elif [ "$rc" -eq 127 ] &&
		grep -q 'error while loading shared libraries' "$tmp/out"; then
		echo "  $3: refused by the loader ($(cat "$tmp/out"))"
		[ "$4" = control ] && failed=1
	else
		echo "  $3: FAILED (exit $rc):"
		sed 's/^/    /' "$tmp/out"
		failed=1
	fi
	return 0
}

libdir lib-now "$GRAIN_LIBDIR"
compile prog-now "$src/include" "$GRAIN_LIBDIR"
tested=0
while read -r version commit; do
	case $version in '' | \#*) continue ;; esac
	[ "$version" != "$GRAIN_VERSION" ] || continue
	if ! git -C "$src" cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "SKIPPED: $version ($commit) is not in this clone's history"
		continue
	fi
	rel=$tmp/$version
	mkdir -p "$rel/src"
	git -C "$src" archive "$commit" | tar -x -C "$rel/src"
	cmake -S "$rel/src" -B "$rel/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DGRAIN_BUILD_TESTS=OFF -DGRAIN_BUILD_BENCH=OFF \
		-DGRAIN_BUILD_EXAMPLES=OFF -DGRAIN_BUILD_DOCS=OFF \
		>"$rel/cmake.log" 2>&1 &&
		cmake --build "$rel/build" --target grain grain_htab \
			>>"$rel/cmake.log" 2>&1 || {
		cat "$rel/cmake.log"
		echo "FAILED: could not build release $version"
		exit 1
	}
	libdir "lib-$version" "$rel/build"
	compile "prog-$version" "$rel/src/include" "$rel/build"
	echo "$version (${commit%"${commit#????????????}"}) and this tree ($GRAIN_VERSION):"
	run "prog-$version" "lib-$version" "built on $version, run on $version" control
	run prog-now lib-now "built on $GRAIN_VERSION, run on $GRAIN_VERSION" control
	run "prog-$version" lib-now "built on $version, run on $GRAIN_VERSION" other
	run prog-now "lib-$version" "built on $GRAIN_VERSION, run on $version" other
	tested=$((tested + 1))
done <"$src/test/release/abi/releases"

if [ "$tested" -eq 0 ]; then
	echo "SKIPPED: no release to compare with"
	exit 77
fi
[ "$failed" -eq 0 ] || { echo "FAILED"; exit 1; }
echo "ok: $tested releases, each way either runs or is refused"
