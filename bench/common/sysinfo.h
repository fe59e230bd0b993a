/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sysinfo.h - what the benchmark harnesses and drivers need of the machine:
 * its CPUs and C compiler, clocks, pinned threads, and the cache-line
 * round-trip calibration. In C (core.c), so that the C++ drivers and the C
 * harnesses share one copy.
 */
#ifndef GRAIN_BENCH_SYSINFO_H
#define GRAIN_BENCH_SYSINFO_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Online CPUs (at least 1). */
unsigned bench_nproc(void);

/** The C compiler that built the harnesses, e.g. "gcc 12.2.0". */
const char *bench_c_compiler(void);

/** CLOCK_MONOTONIC, and the calling thread's CPU time, in seconds. */
double bench_now_s(void);
double bench_thread_cpu_s(void);

/** Sleep until @p ms milliseconds after @p t0 (CLOCK_MONOTONIC). */
void bench_sleep_until(const struct timespec *t0, unsigned ms);

/** Start fn(arg) in *@p tid, pinned to @p cpu if @p pin.
 * @return 0 or a negative errno. */
int bench_start_thread(pthread_t *tid, void *(*fn)(void *), void *arg, bool pin,
		       unsigned cpu);

/**
 * bench_pingpong_ns - calibration: two threads pinned to CPUs 0 and 1 pass
 * a counter on one cache line back and forth @p rounds times. On virtual
 * machines this moves with the placement of the virtual CPUs and explains
 * much of the drift between runs.
 * @return nanoseconds per round trip (two cache-line transfers), or a
 *         negative value if there is only one CPU or a thread failed.
 */
double bench_pingpong_ns(unsigned rounds);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_SYSINFO_H */
