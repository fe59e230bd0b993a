#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-sanitized.sh PROGRAM [ARGUMENT...] - run a sanitizer-instrumented test.
#
# The ThreadSanitizer and AddressSanitizer runtimes of GCC 12 expect the
# kernel to randomise mmap addresses with at most 28 bits. With more
# (vm.mmap_rnd_bits = 32, the default of some kernels), TSan aborts with
# "FATAL: ThreadSanitizer: unexpected memory mapping" and ASan may hang at
# start-up. On such kernels the program runs with address-space layout
# randomisation turned off for its own process tree (setarch -R), which
# needs no privilege. Where personality(2) is refused (some container
# sandboxes), the way out is `sysctl vm.mmap_rnd_bits=28` as root.
set -eu

bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 0)
if [ "$bits" -gt 28 ]; then
	arch=$(uname -m)
	if setarch "$arch" -R true >/dev/null 2>&1; then
		exec setarch "$arch" -R "$@"
	fi
	echo "run-sanitized.sh: vm.mmap_rnd_bits is $bits and setarch -R is" \
		"refused here; the sanitizer runtime may fail. As root:" \
		"sysctl vm.mmap_rnd_bits=28" >&2
fi
exec "$@"
