/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_close.h - what the closing tests of grain_ring and grain_prio share
 * (test/ring/test_ring_close.c, test/prio/test_prio_close.c): distinct
 * non-NULL objects, a short sleep, and a wait until threads sleep in a
 * ring side's _wait call.
 */
#ifndef GRAIN_TEST_CLOSE_H
#define GRAIN_TEST_CLOSE_H

#include <grain/ring.h>

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "test_util.h"

/* Object i as a pointer: never NULL. */
static inline void *tag(uintptr_t i)
{
	return (void *)(i + 1);
}

static inline void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Wait (generously) until n threads are registered as sleepers in s. */
static inline void await_sleepers(struct grain_impl_ring_sleepers *s,
				  unsigned n)
{
	int64_t until = test_now_ns() + 60LL * 1000000000;

	while (atomic_load(&s->waiters) < n) {
		cr_assert_lt(test_now_ns(), until, "sleepers never registered");
		pause_ms(1);
	}
}

#endif /* GRAIN_TEST_CLOSE_H */
