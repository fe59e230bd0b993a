/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dpdk_eal.h - starting DPDK's EAL for the anchors that need it (rte_hash
 * in bench/htab, librte_ip_frag in examples/reasm/bench), the same way for
 * both: no hugepages, no PCI, no shared config, on the first CPU the
 * calling thread may use, whose affinity is restored after (the EAL pins
 * the calling thread to its lcore). C, DPDK sources only.
 */
#ifndef GRAIN_BENCH_DPDK_EAL_H
#define GRAIN_BENCH_DPDK_EAL_H

#include <rte_eal.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>

/* rte_eal_init() for program @p prog with @p mem_mb megabytes (a decimal
 * string): 0, or -1. */
static inline int bench_eal_init(const char *prog, const char *mem_mb)
{
	cpu_set_t saved;
	size_t cpu = 0;

	CPU_ZERO(&saved);
	if (pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved) != 0)
		return -1;
	while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &saved))
		cpu++;
	if (cpu == CPU_SETSIZE)
		return -1;
	/* rte_eal_init may reorder its arguments: writable copies. */
	char a0[64], a1[] = "-l", a2[16], a3[] = "--no-huge", a4[] = "-m",
		     a5[16], a6[] = "--no-pci", a7[] = "--no-shconf",
		     a8[] = "--no-telemetry", a9[] = "--log-level=error";
	snprintf(a0, sizeof(a0), "%s", prog);
	snprintf(a2, sizeof(a2), "%zu", cpu);
	snprintf(a5, sizeof(a5), "%s", mem_mb);
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, NULL };
	int rc = rte_eal_init(10, argv);
	pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	return rc < 0 ? -1 : 0;
}

#endif /* GRAIN_BENCH_DPDK_EAL_H */
