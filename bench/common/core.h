/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * core.h - the harness core every benchmark family runs its threads with
 * (C11 only): the start gate, the shared backoff, starting the threads
 * (pinned or not) and the timed window.
 *
 * A run of every family has the same shape: main starts the threads, each
 * counts itself in at the gate and waits; once all are in, main reads the
 * clock (t0) and opens the gate, sleeps until t0 + duration (absolute
 * clock_nanosleep, so a late wake-up does not stretch the run), then raises
 * stop. What the threads do in between, and what main does after stop, is
 * the family's.
 *
 * The gate's flags and their ordering:
 *   ready  threads count themselves in; main waits for all (relaxed: the
 *          start flag orders what matters).
 *   start  main -> threads, release/acquire (RS1 -> AS1): whatever main
 *          set up before it opened the gate (the structure under test, the
 *          thread structs) is visible to every thread.
 *   stop   main -> threads, relaxed: only a signal to stop; results pass
 *          through pthread_join() or the family's own release/acquire pairs.
 *   leave  main -> threads, relaxed: stop whatever comes after stop (a
 *          drain) now; only the families that have one read it.
 */
#ifndef GRAIN_BENCH_COMMON_CORE_H
#define GRAIN_BENCH_COMMON_CORE_H

#include "sysinfo.h"

#include <grain/common.h>
#include <grain/lock.h>

#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>

/* ready alone on its line (every thread writes it once); start, stop and
 * leave on the next, read-mostly while the threads run. */
struct bench_gate {
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) ready;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) start;
	_Atomic(unsigned) stop;
	_Atomic(unsigned) leave;
};

/** Every flag down. Not thread-safe: before any thread is started. */
void bench_gate_init(struct bench_gate *g);

/** A thread counts itself in, then waits (yielding) until main opens the
 * gate; what main wrote before bench_gate_open() is then visible (AS1). */
static inline void bench_gate_wait(struct bench_gate *g)
{
	atomic_fetch_add_explicit(&g->ready, 1, memory_order_relaxed);
	/* AS1: pairs with RS1 in bench_gate_open(). */
	while (!atomic_load_explicit(&g->start, memory_order_acquire))
		sched_yield();
}

/** Whether main raised stop, or told the threads to leave (relaxed: signals,
 * no data). */
static inline bool bench_gate_stopped(const struct bench_gate *g)
{
	return atomic_load_explicit(&g->stop, memory_order_relaxed) != 0;
}

static inline bool bench_gate_left(const struct bench_gate *g)
{
	return atomic_load_explicit(&g->leave, memory_order_relaxed) != 0;
}

/**
 * bench_backoff - the retry policy after a try that moved nothing, the same
 * for every structure: @p relax pauses while fewer than @p spin_fails tries
 * in a row failed (*@p fails counts them; the caller resets it on success),
 * sched_yield() after that, so that on an oversubscribed machine a thread
 * that waits gives its CPU to the one it waits for. Thread-local; no
 * ordering.
 */
static GRAIN_ALWAYS_INLINE void
bench_backoff(unsigned *fails, unsigned spin_fails, unsigned relax)
{
	if (*fails < spin_fails) {
		(*fails)++;
		for (unsigned i = 0; i < relax; i++)
			grain_cpu_relax();
	} else {
		sched_yield();
	}
}

/** Thread @p i of a run: its entry point, argument and CPU (if pinned). */
struct bench_spawn {
	void *(*fn)(void *);
	void *arg;
	unsigned cpu;
};

/**
 * bench_spawn_all - start threads 0 .. @p n - 1, as @p who describes each,
 * into @p tid, pinned to their CPUs if @p pin. Stops at the first that fails
 * to start. Main thread only.
 * @return 0, or the negative errno of the thread that did not start;
 *         *@p started is how many did.
 */
int bench_spawn_all(pthread_t *tid, unsigned n, bool pin,
		    void (*who)(void *ctx, unsigned i, struct bench_spawn *out),
		    void *ctx, unsigned *started);

/** Wait until @p n threads are in at the gate, then open it (RS1). */
void bench_gate_open(struct bench_gate *g, unsigned n);

/**
 * bench_gate_timed - the timed window: wait for @p n threads at the gate,
 * read the clock (t0), open the gate, sleep until t0 + @p duration_ms, raise
 * stop; *@p stopped (if not NULL) is when, as bench_now_s() reads it.
 * @return the seconds from t0 to stop.
 */
double bench_gate_timed(struct bench_gate *g, unsigned n, unsigned duration_ms,
			double *stopped);

/**
 * bench_gate_abandon - after a failed start: raise stop and leave, open the
 * gate, and join the @p started threads, which then leave at once. Flags of
 * the family's own that its threads wait on must be set first.
 */
void bench_gate_abandon(struct bench_gate *g, pthread_t *tid, unsigned started);

/*
 * BENCH_THREAD_FN - a thread entry point @p name that runs @p loop (one of a
 * family's always-inlined harness loops) on its argument, with the adapter's
 * calls after it as constants, and returns NULL.
 */
#define BENCH_THREAD_FN(name, loop, ...) \
	static void *name(void *arg)     \
	{                                \
		loop(arg, __VA_ARGS__);  \
		return NULL;             \
	}

#endif /* GRAIN_BENCH_COMMON_CORE_H */
