#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# setup.sh - install the Debian packages grain needs, if any is missing.
# Quiet and quick when all are present.
#
# With no option: every package the two commands at the top of README.md
# need, to build, test and benchmark everything. With --lib: the smaller
# set that builds, installs and tests the libraries alone, configured
# without the benchmarks, examples and docs (README.md, under its first
# commands; the test setup_lib checks that this set is enough).
# --list prints the packages of the chosen set, one a line, and installs
# nothing.
#
# The smaller set: build-essential (gcc, g++, make, binutils), cmake and
# pkg-config build; liburcu-dev is grain_htab's RCU; libcriterion-dev runs
# the unit tests; python3 runs api_rules; abigail-tools (abidw, abidiff)
# is the ABI gate's, test/release/abi/abi.sh. The tests that need a tool outside
# it skip themselves where it is missing: model_check (spin), cross_32bit
# (the 32-bit C libraries and qemu-user), cxx_compilers (clang++; g++ is
# still checked), license_check and abi_loader (git).
#
# The rest: clang and libclang-rt-dev (libFuzzer and Clang's sanitizer
# runtimes, only recommended by clang, so not installed with it here) are
# for the fuzz target, examples/reasm/fuzz/run.sh. spin checks the
# protocol models, test/model/run.sh. gcc-multilib (i386) and libc6-dev-armhf-cross
# (32-bit ARM) give the C library headers of the 32-bit targets the
# cross_32bit test compiles for; qemu-user runs its i386 program where the
# kernel cannot (no IA-32 emulation). doxygen builds the API docs and man
# pages (target docs; tests docs_warnings and docs_man, which reads them
# with man-db's man). debhelper and lintian build and check the Debian
# packages (test/release/deb/check.sh; dpkg-dev comes with build-essential).
# clang-format-14 is the formatter scripts/format-check.sh runs (CI's
# format check; the version is pinned, as others format differently).
# libbenchmark-dev, libck-dev, libdpdk-dev, libboost-dev, libtbb-dev,
# libcuckoo-dev, libcds-dev, libconcurrentqueue-dev,
# libreaderwriterqueue-dev, libnids-dev, gnuplot-nox and valgrind are the
# benchmarks' (bench/ and examples/reasm/bench/; each anchor library is
# optional there); libpcap-dev the
# reassembler's (examples/reasm); iproute2 and ethtool its end-to-end test
# and the demo's live path (examples/reasm/e2e/).
#
# Usage: ./scripts/setup.sh [--lib] [--list]
#        (from any directory; as root when something has to be installed)
set -eu

# The libraries alone (--lib).
lib_packages="
	build-essential
	cmake
	pkg-config
	python3
	liburcu-dev
	libcriterion-dev
	abigail-tools
"

# With those, everything README.md's two commands need.
more_packages="
	gcc-multilib
	libc6-dev-armhf-cross
	qemu-user
	clang
	clang-format-14
	libclang-rt-dev
	git
	libbenchmark-dev
	libpcap-dev
	libck-dev
	libdpdk-dev
	libboost-dev
	libtbb-dev
	libcuckoo-dev
	libcds-dev
	libconcurrentqueue-dev
	libreaderwriterqueue-dev
	libnids-dev
	gnuplot-nox
	valgrind
	spin
	iproute2
	ethtool
	doxygen
	man-db
	debhelper
	lintian
"

usage() {
	echo "usage: setup.sh [--lib] [--list]" >&2
	exit 2
}

lib=0
list=0
for arg; do
	case $arg in
	--lib) lib=1 ;;
	--list) list=1 ;;
	*) usage ;;
	esac
done

packages=$lib_packages
[ "$lib" -eq 1 ] || packages="$lib_packages $more_packages"

if [ "$list" -eq 1 ]; then
	for pkg in $packages; do
		echo "$pkg"
	done
	exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "setup.sh: dpkg-query not found: this script supports Debian" \
		"(12 or later) and its derivatives only" >&2
	exit 1
fi

missing=""
for pkg in $packages; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null) ||
		status=""
	if [ "$status" != "installed" ]; then
		missing="$missing $pkg"
	fi
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "setup.sh: missing packages:$missing" >&2
	echo "setup.sh: run this script as root to install them" >&2
	exit 1
fi

echo "setup.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# $missing is a list of package names: split it.
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "setup.sh: done"
