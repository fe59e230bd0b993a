#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check.sh - build grain's Debian packages, check them with lintian,
# install them, and build and run the outside programs against them.
#
#   1. copies the source tree (the files git tracks or would track; no
#      build/) to a temporary directory
#      and runs `dpkg-buildpackage -us -uc -b` there, so that the tree
#      itself is left as it was (checked with git status);
#   2. lintian on the .changes: any error fails (warnings are shown);
#   3. the packages hold what they should: the SONAMEs, the man pages, the
#      pkg-config files, the CMake package, a symbols file per runtime
#      package; libgrain needs no liburcu;
#   4. installs them (dpkg -i), runs the autopkgtest
#      (debian/tests/build-and-run), checks that a program built on them
#      depends on the runtime packages at the version of the nodes it uses
#      (dpkg-shlibdeps), and runs test/release/install/consumers.sh with the
#      system's cmake and pkg-config: C and C++, find_package and pkg-config,
#      ring, prio and htab;
#   5. removes the packages again (also on failure).
#
# Needs root (it installs packages) and the packages of scripts/setup.sh
# (debhelper, lintian and the build dependencies in debian/control).
# Usage: test/release/deb/check.sh     (.ci/run runs it once)
set -eu

root=$(cd "$(dirname "$0")/../../.." && pwd)
say() { printf 'deb check: %s\n' "$*"; }
fail() { printf 'deb check: FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root: the packages are installed"
for tool in dpkg-buildpackage lintian git cmake pkg-config; do
	command -v "$tool" >/dev/null 2>&1 || fail "$tool not found" \
		"(scripts/setup.sh installs it)"
done

version=$(sed -n '1s/^grain (\([^)]*\)).*/\1/p' "$root/debian/changelog")
project=$(sed -n 's/^  VERSION \([0-9.]*\)$/\1/p' "$root/CMakeLists.txt" |
	head -n 1)
# A version in development may carry a ~ suffix (0.6.0~dev).
upstream=${version%%~*}
[ "$upstream" = "$project" ] ||
	fail "debian/changelog is at $version, CMakeLists.txt at $project"
soversion=${upstream%.*}
packages="libgrain$soversion libgrain-htab$soversion libgrain-dev"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-deb.XXXXXX")
installed=""
cleanup() {
	if [ -n "$installed" ]; then
		dpkg --purge $packages >"$tmp/purge.log" 2>&1 ||
			cat "$tmp/purge.log"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

status_before=$(git -C "$root" status --porcelain)

# --- 1. Build from a copy ---------------------------------------------------
src="$tmp/grain-$version"
mkdir "$src"
say "copying the source tree (git's files, not build/) to $src"
git -C "$root" ls-files -z --cached --others --exclude-standard |
	(cd "$root" && xargs -0 tar -cf - --ignore-failed-read --) 2>/dev/null |
	tar -xf - -C "$src"
say "dpkg-buildpackage -us -uc -b"
start=$(date +%s)
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1 ||
	{ tail -n 60 "$tmp/build.log"; fail "dpkg-buildpackage"; }
say "packages built in $(($(date +%s) - start)) s"
[ "$(git -C "$root" status --porcelain)" = "$status_before" ] ||
	fail "the source tree changed during the build"

arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
changes="$tmp/grain_${version}_$arch.changes"
[ -f "$changes" ] || fail "no $changes"
debs=""
for p in $packages; do
	deb="$tmp/${p}_${version}_$arch.deb"
	[ -f "$deb" ] || fail "no $p package"
	debs="$debs $deb"
done

# --- 2. lintian ---------------------------------------------------------------
say "lintian (errors fail; warnings shown)"
lintian --fail-on error --display-level '>=warning' "$changes" \
	>"$tmp/lintian.log" 2>&1 || { cat "$tmp/lintian.log"; fail "lintian"; }
cat "$tmp/lintian.log"

# --- 3. Contents -----------------------------------------------------------------
libdir="/usr/lib/$multiarch"
has() {
	dpkg-deb -c "$tmp/${1}_${version}_$arch.deb" >"$tmp/contents"
	grep -qE " \.$2( |$)" "$tmp/contents" || fail "package $1 lacks $2"
}
has libgrain"$soversion" "$libdir/libgrain\.so\.$soversion"
has libgrain-htab"$soversion" "$libdir/libgrain-htab\.so\.$soversion"
has libgrain-dev "/usr/include/grain/grain\.h"
has libgrain-dev "/usr/include/grain/grain\.hpp"
has libgrain-dev "$libdir/pkgconfig/grain\.pc"
has libgrain-dev "$libdir/pkgconfig/grain-htab\.pc"
has libgrain-dev "$libdir/cmake/grain/grainConfig\.cmake"
has libgrain-dev "/usr/share/man/man3/grain_ring_try_enqueue\.3(\.gz)?"
has libgrain-dev "/usr/share/man/man3/grain_ring\.h\.3(\.gz)?"
has libgrain-dev "/usr/share/grain/tsan\.supp"

# --- 4. Install, then the outside programs ---------------------------------
# Each runtime package has a symbols file (debian/gen-symbols), whose
# minimal versions come from the version nodes.
for p in libgrain"$soversion" libgrain-htab"$soversion"; do
	dpkg-deb -I "$tmp/${p}_${version}_$arch.deb" symbols >"$tmp/symbols" ||
		fail "package $p has no symbols file"
	grep -q "@GRAIN_.*$soversion $soversion.0~\$" "$tmp/symbols" ||
		fail "package $p: symbols without the node's version"
done

say "installing the packages"
installed=yes
# $debs is a list of paths without blanks ($tmp is mktemp's): split it.
# shellcheck disable=SC2086
dpkg -i $debs >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; fail "dpkg -i"; }
lib="$libdir/libgrain.so.$soversion"
if readelf -d "$lib" | grep NEEDED | grep -q liburcu; then
	fail "$lib needs liburcu"
fi
if command -v man >/dev/null 2>&1 &&
	[ -e /usr/share/man/man3/grain_ring_try_enqueue.3.gz ]; then
	man -w grain_ring_try_enqueue >/dev/null ||
		fail "man does not find grain_ring_try_enqueue"
fi

say "the autopkgtest, debian/tests/build-and-run"
mkdir "$tmp/autopkgtest"
(cd "$root" && AUTOPKGTEST_TMP="$tmp/autopkgtest" \
	sh debian/tests/build-and-run) || fail "debian/tests/build-and-run"
# A program that calls into both libraries depends on the versions whose
# nodes it needs (dpkg-shlibdeps reads the installed symbols files).
mkdir -p "$tmp/shlibdeps/debian"
printf 'Source: probe\n\nPackage: probe\nArchitecture: any\n' \
	>"$tmp/shlibdeps/debian/control"
(cd "$tmp/shlibdeps" && dpkg-shlibdeps -O \
	"$tmp/autopkgtest/htab_prog") >"$tmp/deps" 2>"$tmp/deps.err" ||
	{ cat "$tmp/deps.err"; fail "dpkg-shlibdeps"; }
for p in libgrain"$soversion" libgrain-htab"$soversion"; do
	grep -q "$p (>= $soversion.0~)" "$tmp/deps" ||
		{ cat "$tmp/deps"; fail "no dependency on $p (>= $soversion.0~)"; }
done
say "dependencies of a program: $(sed -n 's/^shlibs:Depends=//p' "$tmp/deps")"

mkdir "$tmp/consumers"
GRAIN_PREFIX="" GRAIN_WORK="$tmp/consumers" \
	GRAIN_CONSUMER_DIR="$root/test/release/install/consumer" \
	GRAIN_VERSION="$upstream" \
	sh "$root/test/release/install/consumers.sh" || fail "the consumers"
say "ok"
