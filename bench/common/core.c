/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * core.c - see core.h.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include "core.h"

#include <time.h>

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

void bench_gate_open(struct bench_gate *g, unsigned n)
{
	while (atomic_load_explicit(&g->ready, memory_order_relaxed) < n) {
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
	}
	/* RS1: pairs with AS1 in bench_gate_wait(). */
	atomic_store_explicit(&g->start, 1, memory_order_release);
}

double bench_gate_timed(struct bench_gate *g, unsigned n, unsigned duration_ms,
			double *stopped)
{
	struct timespec t0;

	while (atomic_load_explicit(&g->ready, memory_order_relaxed) < n) {
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* RS1: pairs with AS1 in bench_gate_wait(). */
	atomic_store_explicit(&g->start, 1, memory_order_release);
	bench_sleep_until(&t0, duration_ms);
	atomic_store_explicit(&g->stop, 1, memory_order_relaxed);
	double t1 = bench_now_s();
	if (stopped != NULL)
		*stopped = t1;
	return t1 - ((double)t0.tv_sec + (double)t0.tv_nsec * 1e-9);
}

void bench_gate_abandon(struct bench_gate *g, pthread_t *tid, unsigned started)
{
	atomic_store_explicit(&g->stop, 1, memory_order_relaxed);
	atomic_store_explicit(&g->leave, 1, memory_order_relaxed);
	/* RS1 as in bench_gate_open(): the threads see stop at once. */
	atomic_store_explicit(&g->start, 1, memory_order_release);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}
