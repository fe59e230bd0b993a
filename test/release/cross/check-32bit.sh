#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check-32bit.sh - libgrain and its headers on 32-bit targets (CTest:
# cross_32bit).
#
# For i386 (gcc -m32 and clang --target=i686-linux-gnu) and 32-bit ARM
# (clang --target=armv7-linux-gnueabihf), with -Wall -Wextra -Wpedantic
# -Wconversion -Werror:
#   1. every library source compiles (-O2 -c), grain_htab's included;
#   2. every public header compiles on its own as C11 and as C++17
#      (-fsyntax-only);
#   3. i386 with gcc only: test/release/abi/core_only.c (ring, prio, the
#      spinlock and hashing, as the core library offers them) and
#      test/release/cross/htab_norcu.c (grain_htab: a GRAIN_HTAB_NO_RCU table,
#      which calls nothing of liburcu, linked with
#      test/release/cross/urcu_stub.c in place of it) link with an archive of
#      those objects and run:
#      natively where the kernel runs i386 programs, else under qemu-i386
#      (qemu-user). A kernel built without IA-32 emulation answers "Exec
#      format error"; which of the two ran it is said. With neither, the
#      runs are skipped and said so.
# src/htab*.c include liburcu, whose headers Debian installs for the host
# architecture only (/usr/include/<host triplet>/urcu). They are written
# for every architecture (urcu/arch.h and urcu/uatomic.h choose by the
# compiler's macros); only urcu/config.h is generated, and it says nothing
# of the architecture. So the host's urcu headers, alone in a directory of
# their own, are given to the 32-bit compilers as system headers. An RCU
# table would need liburcu built for the target, so the i386 htab program
# runs a NO_RCU table (3. above).
# Without liburcu's headers the htab sources are skipped (77).
# The layout static asserts of the headers are what this check is mostly
# for; GCC's -Wpsabi note on i386 (the alignment of 64-bit _Atomic fields
# changed in GCC 11.1) must not appear: impl/atomic64.h states it.
#
# Needs the C library headers of each target: gcc-multilib (i386) and
# libc6-dev-armhf-cross (armhf, /usr/arm-linux-gnueabihf/include, given to
# clang explicitly), which scripts/setup.sh installs with qemu-user. A
# target whose compiler or headers are missing is skipped.
#
# A compiler that prints anything (a warning, a note) fails the check.
#
# Exit status: 0 all passed; 1 a check failed; 77 (skipped) a target could
# not be checked, or the consumer could not be run (the rest still was, and
# passed).
#
# Environment: GRAIN_SOURCE_DIR, the source tree (default: this script's
# grandparent).
set -eu

: "${GRAIN_SOURCE_DIR:=$(cd "$(dirname "$0")/../../.." && pwd)}"
cd "$GRAIN_SOURCE_DIR"

say() { printf 'cross 32-bit: %s\n' "$*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grain-cross.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

warnings="-Wall -Wextra -Wpedantic -Wconversion -Werror"
failed=0
missing=0

# liburcu's headers, for src/htab*.c (see above).
sources=$(ls src/*.c)
urcu_host=""
for dir in /usr/include/*/urcu /usr/include/urcu; do
	[ -f "$dir/urcu-memb.h" ] && urcu_host=$(dirname "$dir") && break
done
mkdir "$tmp/urcu"
if [ -n "$urcu_host" ]; then
	ln -s "$urcu_host/urcu" "$tmp/urcu/urcu"
else
	say "liburcu's headers not found: grain_htab's sources skipped"
	sources=$(ls src/*.c | grep -v -e '^src/htab' -e '^src/export_htab')
	missing=1
fi
c_headers=$(cd include && ls grain/*.h)
cxx_headers=$c_headers

printf '#include <stdio.h>\n#include <linux/futex.h>\n' >"$tmp/probe.c"
printf 'int main(void) { return 0; }\n' >"$tmp/runs.c"

# runner CC EMULATOR: how this machine runs CC's programs: "" natively,
# EMULATOR where only it can, "none" where neither does.
runner() {
	# shellcheck disable=SC2086
	$1 -o "$tmp/runs" "$tmp/runs.c" >/dev/null 2>&1 || {
		echo none
		return 0
	}
	if "$tmp/runs" >/dev/null 2>&1; then
		echo ""
	elif "$2" "$tmp/runs" >/dev/null 2>&1; then
		echo "$2"
	else
		echo none
	fi
}

# check NAME "CC FLAGS" "CXX FLAGS" RUN
# RUN: "no", or the emulator to run the consumer with where the kernel
# does not run it.
check() {
	name=$1 cc=$2 cxx=$3 run=$4
	# $cc and $cxx are a command and its flags: split them.
	# shellcheck disable=SC2086
	if ! $cc -c -o "$tmp/probe.o" "$tmp/probe.c" >/dev/null 2>&1; then
		say "$name: no compiler or C library headers ($cc): skipped"
		missing=1
		return 0
	fi
	objs=""
	for src in $sources; do
		obj="$tmp/$name-$(basename "$src" .c).o"
		# shellcheck disable=SC2086
		if ! $cc -std=c11 -O2 $warnings -fPIC -fvisibility=hidden \
			-Iinclude -isystem "$tmp/urcu" -c -o "$obj" \
			"$src" 2>"$tmp/log" || [ -s "$tmp/log" ]; then
			cat "$tmp/log"
			say "FAILED: $name: $src"
			failed=1
		fi
		objs="$objs $obj"
	done
	for header in $c_headers; do
		printf '#include <%s>\n#include <%s>\n' "$header" "$header" \
			>"$tmp/header.c"
		# shellcheck disable=SC2086
		if ! $cc -std=c11 $warnings -Iinclude -fsyntax-only \
			"$tmp/header.c" 2>"$tmp/log" || [ -s "$tmp/log" ]; then
			cat "$tmp/log"
			say "FAILED: $name: <$header> as C11"
			failed=1
		fi
	done
	for header in $cxx_headers; do
		printf '#include <%s>\n#include <%s>\n' "$header" "$header" \
			>"$tmp/header.cc"
		# shellcheck disable=SC2086
		if ! $cxx -std=c++17 $warnings -Iinclude -fsyntax-only \
			"$tmp/header.cc" 2>"$tmp/log" || [ -s "$tmp/log" ]; then
			cat "$tmp/log"
			say "FAILED: $name: <$header> as C++17"
			failed=1
		fi
	done
	say "$name: library sources and headers compile"
	[ "$run" != no ] || return 0

	exe="$tmp/$name-consumer"
	# An archive, as libgrain.a: the program pulls in only the objects it
	# needs (export_htab.o, whose copies call into the htab sources left
	# out here, is not among them).
	lib="$tmp/$name-libgrain.a"
	# shellcheck disable=SC2086
	if ! ar rcs "$lib" $objs ||
		! $cc -std=c11 -O2 $warnings -Iinclude -pthread -o "$exe" \
			test/release/abi/core_only.c "$lib"; then
		say "FAILED: $name: linking the consumer"
		failed=1
		return 0
	fi
	# grain_htab too, where its sources were compiled: a NO_RCU table,
	# with test/release/cross/urcu_stub.c for the liburcu symbols it never calls.
	htab_exe=""
	if [ -n "$urcu_host" ]; then
		htab_exe="$tmp/$name-htab"
		# shellcheck disable=SC2086
		if ! $cc -std=c11 -O2 $warnings -Iinclude -isystem "$tmp/urcu" \
			-pthread -o "$htab_exe" test/release/cross/htab_norcu.c \
			test/release/cross/urcu_stub.c "$lib"; then
			say "FAILED: $name: linking the htab program"
			failed=1
			htab_exe=""
		fi
	fi
	how=$(runner "$cc" "$run")
	if [ "$how" = none ]; then
		say "$name: this machine runs $name programs neither natively" \
			"nor with $run: the consumers link, their runs are skipped"
		missing=1
		return 0
	fi
	for prog in "$exe" $htab_exe; do
		if ! $how "$prog"; then
			say "FAILED: $name: $(basename "$prog")${how:+ (under $how)}"
			failed=1
		else
			say "$name: $(basename "$prog") runs${how:+ (under $how)}"
		fi
	done
}

arm_libc=/usr/arm-linux-gnueabihf/include
check i386-gcc "gcc -m32" "g++ -m32" qemu-i386
check i386-clang "clang --target=i686-linux-gnu" \
	"clang++ --target=i686-linux-gnu" no
check armhf-clang "clang --target=armv7-linux-gnueabihf -isystem $arm_libc" \
	"clang++ --target=armv7-linux-gnueabihf -isystem $arm_libc" no

[ "$failed" -eq 0 ] || exit 1
[ "$missing" -eq 0 ] || exit 77
say "ok"
