/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * core.c - the C side of bench/common: the gate and threads of core.h and
 * the machine facts, clocks and calibration of sysinfo.h.
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET */
#include "core.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned bench_nproc(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1u;
}

const char *bench_c_compiler(void)
{
#if defined(__clang__)
	return "clang " __clang_version__;
#elif defined(__GNUC__)
	return "gcc " __VERSION__;
#else
	return "unknown";
#endif
}

static double seconds_of(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_now_s(void)
{
	return seconds_of(CLOCK_MONOTONIC);
}

double bench_thread_cpu_s(void)
{
	return seconds_of(CLOCK_THREAD_CPUTIME_ID);
}

void bench_sleep_until(const struct timespec *t0, unsigned ms)
{
	struct timespec end = *t0;

	end.tv_sec += (time_t)(ms / 1000u);
	end.tv_nsec += (long)(ms % 1000u) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) ==
	       EINTR)
		;
}

int bench_start_thread(pthread_t *tid, void *(*fn)(void *), void *arg, bool pin,
		       unsigned cpu)
{
	pthread_attr_t attr;
	int rc = pthread_attr_init(&attr);

	if (rc != 0)
		return -rc;
	if (pin) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	if (rc == 0)
		rc = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return -rc;
}

/* --- the gate ---------------------------------------------------------- */

void bench_gate_init(struct bench_gate *g)
{
	atomic_init(&g->ready, 0);
	atomic_init(&g->start, 0);
	atomic_init(&g->stop, 0);
	atomic_init(&g->leave, 0);
}

int bench_spawn_all(pthread_t *tid, unsigned n, bool pin,
		    void (*who)(void *ctx, unsigned i, struct bench_spawn *out),
		    void *ctx, unsigned *started)
{
	int rc = 0;

	*started = 0;
	for (unsigned i = 0; i < n; i++) {
		struct bench_spawn s = { 0 };

		who(ctx, i, &s);
		rc = bench_start_thread(&tid[i], s.fn, s.arg, pin, s.cpu);
		if (rc != 0)
			break;
		(*started)++;
	}
	return rc;
}

static void await_ready(struct bench_gate *g, unsigned n)
{
	while (atomic_load_explicit(&g->ready, memory_order_relaxed) < n) {
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
	}
}

static void open_gate(struct bench_gate *g)
{
	/* RS1: pairs with AS1 in bench_gate_wait(). */
	atomic_store_explicit(&g->start, 1, memory_order_release);
}

void bench_gate_open(struct bench_gate *g, unsigned n)
{
	await_ready(g, n);
	open_gate(g);
}

double bench_gate_timed(struct bench_gate *g, unsigned n, unsigned duration_ms,
			double *stopped)
{
	struct timespec t0;

	await_ready(g, n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	open_gate(g);
	bench_sleep_until(&t0, duration_ms);
	atomic_store_explicit(&g->stop, 1, memory_order_relaxed);
	double t1 = bench_now_s();
	if (stopped != NULL)
		*stopped = t1;
	return t1 - ((double)t0.tv_sec + (double)t0.tv_nsec * 1e-9);
}

void bench_gate_abandon(struct bench_gate *g, pthread_t *tid, unsigned started)
{
	/* Stop and leave before the gate opens: the threads see them at once. */
	atomic_store_explicit(&g->stop, 1, memory_order_relaxed);
	atomic_store_explicit(&g->leave, 1, memory_order_relaxed);
	open_gate(g);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}

/* --- calibration ------------------------------------------------------- */

struct pingpong {
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) word;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) quit; /* a thread failed */
	unsigned rounds;
	double seconds;
};

/* Wait until word == want; false if told to quit. P1: the acquire pairs
 * with the other side's release store (P2). */
static bool await_word(struct pingpong *pp, uint64_t want)
{
	while (atomic_load_explicit(&pp->word, memory_order_acquire) != want) {
		if (atomic_load_explicit(&pp->quit, memory_order_relaxed))
			return false;
		grain_cpu_relax();
	}
	return true;
}

/* The serving side: answers each odd value with the next even one. */
static void *pong(void *arg)
{
	struct pingpong *pp = arg;

	for (uint64_t i = 0; i < pp->rounds; i++) {
		if (!await_word(pp, 2 * i + 1))
			return NULL;
		/* P2 */
		atomic_store_explicit(&pp->word, 2 * i + 2,
				      memory_order_release);
	}
	return NULL;
}

static void *ping(void *arg)
{
	struct pingpong *pp = arg;
	double t0 = bench_now_s();

	for (uint64_t i = 0; i < pp->rounds; i++) {
		/* P2 */
		atomic_store_explicit(&pp->word, 2 * i + 1,
				      memory_order_release);
		if (!await_word(pp, 2 * i + 2))
			return NULL;
	}
	pp->seconds = bench_now_s() - t0;
	return NULL;
}

double bench_pingpong_ns(unsigned rounds)
{
	if (bench_nproc() < 2 || rounds == 0)
		return -1.0;
	struct pingpong *pp = aligned_alloc(GRAIN_CACHELINE, sizeof(*pp));
	if (pp == NULL)
		return -1.0;
	memset(pp, 0, sizeof(*pp));
	atomic_init(&pp->word, 0);
	atomic_init(&pp->quit, 0);
	pp->rounds = rounds;
	pp->seconds = -1.0;

	pthread_t tid[2];
	double ns = -1.0;
	if (bench_start_thread(&tid[0], pong, pp, true, 1) == 0) {
		if (bench_start_thread(&tid[1], ping, pp, true, 0) == 0)
			pthread_join(tid[1], NULL);
		else
			atomic_store_explicit(&pp->quit, 1,
					      memory_order_relaxed);
		pthread_join(tid[0], NULL);
		if (pp->seconds > 0)
			ns = pp->seconds * 1e9 / rounds;
	}
	free(pp);
	return ns;
}
