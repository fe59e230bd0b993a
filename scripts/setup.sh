#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# setup.sh - install the Debian packages grain needs to build, test and
# benchmark, if any is missing. Quiet and quick when all are present.
# clang and libclang-rt-dev (libFuzzer and Clang's sanitizer runtimes,
# only recommended by clang, so not installed with it here) are for the
# fuzz target, test/fuzz/run.sh. spin checks the protocol models,
# test/model/run.sh. gcc-multilib (i386) and libc6-dev-armhf-cross
# (32-bit ARM) give the C library headers of the 32-bit targets the
# cross_32bit test compiles for; qemu-user runs its i386 program where the
# kernel cannot (no IA-32 emulation). doxygen builds the API docs and man
# pages (target docs; tests docs_warnings and docs_man, which reads them
# with man-db's man). debhelper and lintian build and check the Debian
# packages (test/deb/check.sh; dpkg-dev comes with build-essential).
# abigail-tools (abidw, abidiff) is the ABI gate's, test/abi/abi.sh.
# clang-format-14 is the formatter scripts/format-check.sh runs (CI's
# format check; the version is pinned, as others format differently).
#
# Usage: ./scripts/setup.sh    (from any directory; as root when something
#                               has to be installed)
set -eu

packages="
	build-essential
	gcc-multilib
	libc6-dev-armhf-cross
	qemu-user
	clang
	clang-format-14
	libclang-rt-dev
	cmake
	pkg-config
	git
	python3
	liburcu-dev
	libcriterion-dev
	libbenchmark-dev
	libpcap-dev
	libck-dev
	libdpdk-dev
	libboost-dev
	libtbb-dev
	gnuplot-nox
	valgrind
	spin
	iproute2
	ethtool
	doxygen
	man-db
	debhelper
	lintian
	abigail-tools
"

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
