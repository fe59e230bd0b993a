/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_util.h - small helpers shared by grain's tests: clocks, a fast
 * per-thread PRNG, scheduling jitter, sanitizer-aware work scaling and
 * allocation-failure injection.
 */
#ifndef GRAIN_TEST_UTIL_H
#define GRAIN_TEST_UTIL_H

#include <grain/common.h>

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

/* Work sizes shrink under sanitizers, which run 5-20x slower. */
static inline unsigned test_scale(unsigned n)
{
	unsigned s = TEST_SANITIZED ? n / 8 : n;
	return s ? s : 1;
}

static inline int64_t test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* xorshift64*: plenty for test randomness; seed must be non-zero. */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Sometimes give the CPU away, sometimes sleep briefly, so that threads
 * get descheduled in the middle of their work. */
static inline void test_jitter(uint64_t *rng)
{
	uint64_t r = test_rand(rng);

	if ((r & 63) == 0) {
		sched_yield();
	} else if ((r & 1023) == 1) {
		struct timespec ts = { 0, (long)(r >> 40) % 50000 };
		nanosleep(&ts, NULL);
	}
}

/* An allocator that fails after `budget` successful allocations and
 * counts what it hands out, to check that every byte comes back. Its
 * state is atomic: tables free from other threads (liburcu's call_rcu). */
struct test_alloc_state {
	_Atomic(int) budget; /* allocations left before failing; <0: never */
	_Atomic(long) live;  /* allocations not yet freed */
	_Atomic(size_t) live_bytes;
	_Atomic(unsigned) failures;
};

static inline void *test_alloc_fn(size_t size, size_t align, void *state)
{
	struct test_alloc_state *s = (struct test_alloc_state *)state;
	int budget = atomic_load(&s->budget);

	do {
		if (budget == 0) {
			atomic_fetch_add(&s->failures, 1);
			return NULL;
		}
	} while (budget > 0 && !atomic_compare_exchange_weak(
				       &s->budget, &budget, budget - 1));
	void *p = grain_mem_alloc(NULL, size, align);
	if (p != NULL) {
		atomic_fetch_add(&s->live, 1);
		atomic_fetch_add(&s->live_bytes, size);
	}
	return p;
}

static inline void test_free_fn(void *ptr, size_t size, size_t align,
				void *state)
{
	struct test_alloc_state *s = (struct test_alloc_state *)state;

	atomic_fetch_sub(&s->live, 1);
	atomic_fetch_sub(&s->live_bytes, size);
	grain_mem_free(NULL, ptr, size, align);
}

#endif /* GRAIN_TEST_UTIL_H */
