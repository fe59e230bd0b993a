/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_threads.h - the thread scaffolding of grain's concurrent tests:
 *
 *   struct test_failures  first-failure capture. Criterion's assertions
 *                         may only fail on the test's own thread, so a
 *                         worker records what went wrong (test_fail())
 *                         and the test's thread asserts on it afterwards
 *                         (test_assert_no_failures()).
 *   struct test_gate      a start gate: workers wait at it
 *                         (test_gate_wait()) until the test's thread opens
 *                         it (test_gate_open()), so that they start
 *                         together.
 *   struct test_threads   spawning and joining: test_spawn() starts a
 *                         thread (asserting that it started),
 *                         TEST_SPAWN_EACH() one per element of an array of
 *                         worker states, test_join_all() joins every one
 *                         started.
 *
 * Criterion asserts: include it from test files only. The test's thread
 * owns a struct test_threads; the other two are shared with the workers.
 */
#ifndef GRAIN_TEST_THREADS_H
#define GRAIN_TEST_THREADS_H

#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* --- First-failure capture ------------------------------------------------ */

struct test_failures {
	_Atomic(unsigned) count;     /* failures recorded */
	_Atomic(const char *) first; /* what the first one said, or NULL */
};

/* Record a failure; @what must outlive the test (a string literal). Any
 * thread. */
static inline void test_fail(struct test_failures *f, const char *what)
{
	const char *none = NULL;

	atomic_fetch_add(&f->count, 1u);
	atomic_compare_exchange_strong(&f->first, &none, what);
}

/* Whether any failure was recorded: a relaxed read, for a worker that
 * stops early once the test has failed. */
static inline bool test_failing(struct test_failures *f)
{
	return atomic_load_explicit(&f->count, memory_order_relaxed) != 0;
}

static inline unsigned test_failure_count(struct test_failures *f)
{
	return atomic_load(&f->count);
}

/* What the first failure said; "(none)" if there was none. */
static inline const char *test_first_failure(struct test_failures *f)
{
	const char *what = atomic_load(&f->first);

	return what != NULL ? what : "(none)";
}

/* On the test's thread, after the workers are joined: no failure. */
#define test_assert_no_failures(f)                                      \
	cr_assert_eq(test_failure_count(f), 0u, "%u errors, first: %s", \
		     test_failure_count(f), test_first_failure(f))

/* --- Start gate ------------------------------------------------------------ */

struct test_gate {
	_Atomic(bool) open;
};

/* Wait until the gate opens (acquire: what the opener wrote before it
 * opened is visible). Yields while it waits. */
static inline void test_gate_wait(struct test_gate *g)
{
	while (!atomic_load_explicit(&g->open, memory_order_acquire))
		sched_yield();
}

/* Open the gate (release). */
static inline void test_gate_open(struct test_gate *g)
{
	atomic_store_explicit(&g->open, true, memory_order_release);
}

/* --- Spawning and joining ---------------------------------------------------- */

#define TEST_THREADS_MAX 128

struct test_threads {
	pthread_t id[TEST_THREADS_MAX];
	unsigned n; /* started, not yet joined */
};

/* Start fn(arg) on a new thread; the test fails if it cannot start. */
static inline void test_spawn(struct test_threads *t, void *(*fn)(void *),
			      void *arg)
{
	cr_assert_lt(t->n, TEST_THREADS_MAX, "too many threads");
	cr_assert_eq(pthread_create(&t->id[t->n], NULL, fn, arg), 0,
		     "pthread_create failed");
	t->n++;
}

/* fn(&array[i]) on a thread of its own for each i < n. */
#define TEST_SPAWN_EACH(t, fn, array, n)                                   \
	do {                                                               \
		for (size_t test_i_ = 0; test_i_ < (size_t)(n); test_i_++) \
			test_spawn((t), (fn), &(array)[test_i_]);          \
	} while (0)

/* Join every thread started, in the order they started. */
static inline void test_join_all(struct test_threads *t)
{
	for (unsigned i = 0; i < t->n; i++)
		cr_assert_eq(pthread_join(t->id[i], NULL), 0,
			     "pthread_join failed");
	t->n = 0;
}

#endif /* GRAIN_TEST_THREADS_H */
