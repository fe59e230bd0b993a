/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_reasm_kicker.c - examples/reasm/cli/kicker.c: the thread that makes the
 * transmit ring's send() calls for the thread that fills it.
 *
 * A fake kick records how many bursts each call covers. Checked: every
 * call covers at least one new burst and none not yet handed over; after
 * each hand-over a call covering it follows without any further call of
 * the producer's (a lost wake-up leaves the kicker asleep: the wait for
 * it runs past its deadline); a stop kicks for everything handed over;
 * failed kicks are counted. The producer pauses at random before its
 * hand-overs, so that some land while the kicker is going to sleep (the
 * window K1/K2 close; model/kicker.pml checks every interleaving).
 * Runs under ThreadSanitizer in CI.
 */
#define _POSIX_C_SOURCE 200809L
#include "kicker.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "../common/test_util.h"

struct fake {
	_Atomic(uint64_t) handed;  /* bursts the producer handed over */
	_Atomic(uint64_t) covered; /* the last call's upto */
	_Atomic(uint64_t) calls;
	_Atomic(unsigned) errors; /* broken promises seen by the kicker */
	unsigned fail_every;	  /* 0, or every N-th call returns false */
};

static bool fake_kick(void *arg, uint64_t upto)
{
	struct fake *f = arg;
	uint64_t before = atomic_load(&f->covered);
	uint64_t calls = atomic_fetch_add(&f->calls, 1) + 1;

	if (upto <= before || upto > atomic_load(&f->handed))
		atomic_fetch_add(&f->errors, 1u);
	atomic_store(&f->covered, upto);
	return f->fail_every == 0 || calls % f->fail_every != 0;
}

/* Whether a call has covered burst @n within two seconds. */
static bool covered_soon(struct fake *f, uint64_t n)
{
	int64_t deadline = test_now_ns() + 2000000000;

	while (atomic_load(&f->covered) < n)
		if (test_now_ns() > deadline)
			return false;
	return true;
}

static void pause_ns(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

static void hand_over(struct kicker *k, struct fake *f)
{
	atomic_fetch_add(&f->handed, 1);
	kicker_hand_over(k);
}

Test(reasm_kicker, every_burst_is_kicked, .timeout = 120)
{
	static struct fake f;
	struct kicker *k = NULL;
	uint64_t rnd = 0x9e3779b97f4a7c15ull;

	cr_assert_eq(kicker_start(&k, fake_kick, &f), 0);
	cr_assert(kicker_running(k));
	for (uint64_t n = 1; n <= 4000; n++) {
		rnd ^= rnd << 13;
		rnd ^= rnd >> 7;
		rnd ^= rnd << 17;
		/* Now and then a pause, of up to about 60 us: long enough
		 * for the kicker to find nothing and head for its sleep. */
		if (rnd % 4 == 0)
			pause_ns((long)(rnd >> 40) % 60000);
		hand_over(k, &f);
		/* Most hand-overs are waited for: each is then one that the
		 * kicker must wake for, unless it is still looking. */
		if (rnd % 8 != 1)
			cr_assert(covered_soon(&f, n),
				  "burst %llu not kicked: a lost wake-up",
				  (unsigned long long)n);
	}
	kicker_stop(k);
	cr_assert_not(kicker_running(k));
	cr_assert_eq(atomic_load(&f.covered), 4000u);
	cr_assert_eq(atomic_load(&f.errors), 0u,
		     "a call covered nothing new, or a burst not handed over");
	cr_assert_leq(atomic_load(&f.calls), 4000u);
	cr_assert_eq(kicker_errors(k), 0u);
	kicker_stop(k); /* a second stop does nothing */
	kicker_free(k);
}

Test(reasm_kicker, stop_kicks_for_the_rest, .timeout = 60)
{
	for (unsigned round = 0; round < 200; round++) {
		struct fake f = { .fail_every = 0 };
		struct kicker *k = NULL;
		uint64_t bursts = round % 7;

		cr_assert_eq(kicker_start(&k, fake_kick, &f), 0);
		for (uint64_t n = 0; n < bursts; n++)
			hand_over(k, &f);
		kicker_stop(k);
		cr_assert_eq(atomic_load(&f.covered), bursts, "round %u",
			     round);
		cr_assert_eq(atomic_load(&f.errors), 0u);
		kicker_free(k); /* frees a stopped kicker */
	}
	kicker_free(NULL);
}

Test(reasm_kicker, failed_kicks_are_counted, .timeout = 60)
{
	static struct fake f = { .fail_every = 3 };
	struct kicker *k = NULL;

	cr_assert_eq(kicker_start(&k, fake_kick, &f), 0);
	for (uint64_t n = 1; n <= 300; n++) {
		hand_over(k, &f);
		cr_assert(covered_soon(&f, n));
	}
	kicker_stop(k);
	/* One call per burst, each waited for before the next. */
	cr_assert_eq(atomic_load(&f.calls), 300u);
	cr_assert_eq(kicker_errors(k), 100u);
	cr_assert_eq(atomic_load(&f.errors), 0u);
	kicker_free(k);
}
