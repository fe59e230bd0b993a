#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# setup_lib.sh - what README.md says of `scripts/setup.sh --lib`: its
# packages are enough to configure, build, install and test the libraries
# alone (no benchmarks, examples or docs).
#
# The machine running the suite has every package of scripts/setup.sh, so
# the test hides what the --lib set would not bring:
#
#   1. The set: the --lib packages, what they depend on (Depends and
#      Pre-Depends, recursively, the first installed alternative of each,
#      every installed provider of a virtual package), and the base system
#      (Essential or Priority required). That is what `apt-get install
#      --no-install-recommends` of the list gives on a minimal Debian.
#   2. PATH holds only the programs of that set (every name in /usr/bin,
#      /usr/sbin, /bin and /sbin that resolves to a file the set
#      installed: alternatives such as cc and c++ included), and
#      PKG_CONFIG_LIBDIR only its .pc files. Each find_program(),
#      find_package(PkgConfig) and pkg_check_modules() of the configure
#      (CMakeLists.txt, src/, cmake/, test/) so sees exactly what the set
#      provides: a REQUIRED one outside it fails the configure, an
#      optional one is not found.
#   3. Library and header look-ups search the real system directories,
#      which hold everything: so after the configure, every file CMake's
#      cache names (FILEPATH: compilers, tools, the libraries found
#      through pkg-config) must belong to a package of the set (dpkg -S).
#   4. With that PATH: the libraries, and what the tests labelled abi run
#      (a Criterion test, test_version, and a core-only program), build
#      with make; those tests pass or skip themselves (they read the
#      libraries with the tools of binutils and libabigail, and build the
#      earlier releases from the git history, where there is one); and
#      `cmake --install` installs into a temporary prefix.
#
# What this leaves to reasoning, stated in scripts/setup.sh: the compiler
# sees every header under /usr/include (none outside the set is included
# by the libraries or the tests: a new one would need a find_* or
# pkg_check_modules call, which steps 2 and 3 check); and the test scripts
# that call a tool outside the set (spin, qemu-user, the 32-bit C
# libraries, clang++, git) skip themselves where it is missing.
#
# With GRAIN_SETUP_LIB_ALL=1 (by hand: minutes), it then builds every
# target of that configure and runs all its tests but this one, still with
# that PATH (the skips above show as skipped tests).
#
# Exit status: 0 the set is enough; 1 it is not (or --list is broken);
# 77 (skipped) not a Debian system, or a --lib package is not installed.
#
# Environment (set by CTest): GRAIN_SOURCE_DIR
set -eu

: "${GRAIN_SOURCE_DIR:?}"

say() { printf 'setup --lib: %s\n' "$*"; }
fail() {
	say "FAIL: $*" >&2
	exit 1
}
skip() {
	say "$*: skipped"
	exit 77
}

setup="$GRAIN_SOURCE_DIR/scripts/setup.sh"
lib=$(sh "$setup" --lib --list) || fail "setup.sh --lib --list failed"
full=$(sh "$setup" --list) || fail "setup.sh --list failed"
[ -n "$lib" ] || fail "setup.sh --lib --list printed nothing"
for pkg in $lib; do
	printf '%s\n' "$full" | grep -qxF "$pkg" ||
		fail "$pkg is in the --lib set but not in the full one"
done

command -v dpkg-query >/dev/null 2>&1 || skip "no dpkg-query"
for pkg in $lib; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null) ||
		status=""
	[ "$status" = installed ] || skip "$pkg is not installed"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-setup-lib.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- 1. The set -------------------------------------------------------------
# One line per installed package: name, essential, priority, provides,
# dependencies (Pre-Depends, then Depends).
dpkg-query -W -f='${db:Status-Status}\t${Package}\t${Essential}\t${Priority}\t${Provides}\t${Pre-Depends}, ${Depends}\n' |
	awk -F '\t' '$1 == "installed"' >"$tmp/db"
# shellcheck disable=SC2016
awk -F '\t' -v seed="$lib" '
function bare(name) {
	sub(/^[ \t]+/, "", name)
	sub(/[ \t(].*$/, "", name)
	sub(/:.*$/, "", name)
	return name
}
function add(p) {
	if (p in inset)
		return
	inset[p] = 1
	queue[++tail] = p
}
{
	installed[$2] = 1
	deps[$2] = deps[$2] ", " $6
	n = split($5, pv, ",")
	for (i = 1; i <= n; i++) {
		v = bare(pv[i])
		if (v != "")
			providers[v] = providers[v] " " $2
	}
	if ($3 == "yes" || $4 == "required")
		base[$2] = 1
}
END {
	n = split(seed, s, /[ \t\n]+/)
	for (i = 1; i <= n; i++)
		if (s[i] != "")
			add(s[i])
	for (p in base)
		add(p)
	for (head = 1; head <= tail; head++) {
		ng = split(deps[queue[head]], groups, ",")
		for (g = 1; g <= ng; g++) {
			na = split(groups[g], alts, "|")
			for (a = 1; a <= na; a++) {
				d = bare(alts[a])
				if (d == "")
					continue
				if (d in installed) {
					add(d)
					break
				}
				if (d in providers) {
					np = split(providers[d], pp, " ")
					for (k = 1; k <= np; k++)
						add(pp[k])
					break
				}
			}
		}
	}
	for (p in inset)
		print p
}' "$tmp/db" | sort >"$tmp/set"
say "$(wc -l <"$tmp/set") packages: the --lib set, what it depends on and" \
	"the base system"

# Every file of the set, resolved (dpkg lists /bin/sh where usrmerge put
# it in /usr/bin).
# The list of packages is split on purpose.
# shellcheck disable=SC2046
dpkg-query -L $(cat "$tmp/set") 2>/dev/null | grep '^/' | sort -u >"$tmp/files"
tr '\n' '\0' <"$tmp/files" | xargs -0 realpath -m -- | sort -u >"$tmp/owned"

# --- 2. PATH and PKG_CONFIG_LIBDIR ------------------------------------------
mkdir "$tmp/bin" "$tmp/pc"
# Each name, and the file it resolves to (realpath prints one line an
# argument, in order). The trailing slash follows /bin where it is a link.
for dir in /usr/bin/ /usr/sbin/ /bin/ /sbin/; do
	[ -d "$dir" ] && find "$dir" -mindepth 1 -maxdepth 1
done >"$tmp/names"
tr '\n' '\0' <"$tmp/names" | xargs -0 realpath -m -- >"$tmp/reals"
paste "$tmp/names" "$tmp/reals" | sort -t "$(printf '\t')" -k2,2 \
	>"$tmp/programs"
join -t "$(printf '\t')" -1 2 -2 1 -o 1.1 "$tmp/programs" "$tmp/owned" |
	while IFS= read -r prog; do
		name=$(basename "$prog")
		[ -e "$tmp/bin/$name" ] || ln -s "$prog" "$tmp/bin/$name"
	done
grep '/pkgconfig/[^/]*\.pc$' "$tmp/files" | while IFS= read -r pc; do
	ln -sf "$pc" "$tmp/pc/$(basename "$pc")"
done
say "PATH: $(find "$tmp/bin" -mindepth 1 | wc -l) programs;" \
	"PKG_CONFIG_LIBDIR: $(find "$tmp/pc" -mindepth 1 | wc -l) .pc files"
for tool in cmake make cc pkg-config; do
	[ -x "$tmp/bin/$tool" ] || fail "$tool is not in the --lib set"
done

# in_set CMD...: CMD with only the set's programs and .pc files.
in_set() {
	env -i HOME="$tmp" TMPDIR="$tmp" PATH="$tmp/bin" \
		PKG_CONFIG_LIBDIR="$tmp/pc" "$@"
}

# --- Configure --------------------------------------------------------------
# find_program() also searches the system's bin directories themselves:
# those are ignored, so that it finds programs through PATH alone.
ignore="/usr/local/bin;/usr/local/sbin;/usr/bin;/usr/sbin;/bin;/sbin"
build="$tmp/build"
say "configuring the libraries and their tests (no benchmarks, examples" \
	"or docs)"
if ! in_set cmake -S "$GRAIN_SOURCE_DIR" -B "$build" -G "Unix Makefiles" \
	-DCMAKE_BUILD_TYPE=Debug -DGRAIN_BUILD_TESTS=ON \
	-DGRAIN_BUILD_BENCH=OFF -DGRAIN_BUILD_EXAMPLES=OFF \
	-DGRAIN_BUILD_DOCS=OFF -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
	"-DCMAKE_IGNORE_PATH=$ignore" \
	>"$tmp/configure.log" 2>&1; then
	sed 's/^/  | /' "$tmp/configure.log" | tail -n 30 >&2
	fail "the configure needs more than the --lib set"
fi

# --- 3. Every file the configure found is the set's -------------------------
outside=""
sed -n 's/^[^#/][^:]*:FILEPATH=\(\/.*\)$/\1/p' "$build/CMakeCache.txt" |
	sort -u >"$tmp/found"
while IFS= read -r path; do
	[ -e "$path" ] || continue
	case $path in
	"$tmp"/* | "$GRAIN_SOURCE_DIR"/*) continue ;;
	esac
	real=$(realpath -m -- "$path")
	grep -qxF "$real" "$tmp/owned" && continue
	grep -qxF "$path" "$tmp/files" && continue
	owner=$(dpkg-query -S "$real" 2>/dev/null | sed 's/:.*//') || owner=""
	outside="$outside
  $path (${owner:-no package})"
done <"$tmp/found"
[ -z "$outside" ] ||
	fail "the configure found files outside the --lib set:$outside"
say "configured; each of the $(wc -l <"$tmp/found") files it found is the set's"

# --- 4. Build, test, install -------------------------------------------------
say "building the libraries, test_version and abi_core_only with make"
if ! in_set cmake --build "$build" -j2 --target grain grain_static \
	grain_htab grain_htab_static test_version abi_core_only \
	>"$tmp/build.log" 2>&1; then
	sed 's/^/  | /' "$tmp/build.log" | tail -n 30 >&2
	fail "the build needs more than the --lib set"
fi
say "running the tests labelled abi"
if ! in_set ctest --test-dir "$build" -L '^abi$' --no-tests=error \
	--output-on-failure >"$tmp/test.log" 2>&1; then
	sed 's/^/  | /' "$tmp/test.log" | tail -n 40 >&2
	fail "a test labelled abi failed with the --lib set alone"
fi
sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: /  /p' "$tmp/test.log"
if ! in_set cmake --install "$build" --prefix "$tmp/prefix" \
	>"$tmp/install.log" 2>&1; then
	sed 's/^/  | /' "$tmp/install.log" | tail -n 30 >&2
	fail "the install failed"
fi
for f in grain.h libgrain.so libgrain-htab.so grain.pc grain-htab.pc \
	grainConfig.cmake; do
	[ -n "$(find "$tmp/prefix" -name "$f")" ] ||
		fail "the install has no $f"
done
if [ "${GRAIN_SETUP_LIB_ALL:-0}" = 1 ]; then
	say "building every target and running every test but this one"
	in_set cmake --build "$build" -j2 >"$tmp/build-all.log" 2>&1 || {
		sed 's/^/  | /' "$tmp/build-all.log" | tail -n 30 >&2
		fail "the build of every target failed"
	}
	in_set ctest --test-dir "$build" -j2 --output-on-failure \
		-E '^setup_lib$' || fail "a test failed with the --lib set alone"
fi
say "ok: the --lib set configures, builds, tests and installs the libraries"
