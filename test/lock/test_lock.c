/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_lock.c - grain_spinlock on its own: mutual exclusion (a plain
 * counter and a two-field invariant updated under the lock come out
 * exact), trylock from other threads, both initialisers, and progress
 * when the holder sleeps or computes while more threads than cores spin
 * (the spinners back off and yield, so everyone gets through).
 */
#define _GNU_SOURCE
#include <grain/lock.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "../common/test_util.h"

#define MAX_THREADS 16

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* --- mutual exclusion --------------------------------------------------- */

struct counted {
	struct grain_spinlock lock;
	uint64_t count; /* plain: only touched under the lock */
	uint64_t a, b;	/* a == b whenever the lock is free */
	unsigned per_thread;
	_Atomic(bool) go;
	_Atomic(unsigned) torn;
};

struct count_arg {
	struct counted *c;
	bool use_trylock;
};

static void *count_worker(void *arg)
{
	struct count_arg *ca = arg;
	struct counted *c = ca->c;

	while (!atomic_load_explicit(&c->go, memory_order_acquire))
		sched_yield();
	for (unsigned i = 0; i < c->per_thread; i++) {
		if (ca->use_trylock) {
			while (!grain_spin_trylock(&c->lock))
				grain_cpu_relax();
		} else {
			grain_spin_lock(&c->lock);
		}
		if (c->a != c->b)
			atomic_fetch_add_explicit(&c->torn, 1,
						  memory_order_relaxed);
		c->a++;
		c->count++;
		c->b++;
		grain_spin_unlock(&c->lock);
	}
	return NULL;
}

static const unsigned thread_counts[] = { 1, 2, 4, 8, 16 };

ParameterizedTestParameters(lock, counter_exact)
{
	return cr_make_param_array(unsigned, (void *)thread_counts, 5);
}

ParameterizedTest(unsigned *threads, lock, counter_exact, .timeout = 120)
{
	static struct counted c = { .lock = GRAIN_SPINLOCK_INIT };
	struct count_arg args[MAX_THREADS];
	pthread_t t[MAX_THREADS];

	c.count = c.a = c.b = 0;
	c.per_thread = test_scale(400000) / *threads;
	for (unsigned i = 0; i < *threads; i++) {
		/* Every other thread takes the lock through trylock only. */
		args[i] = (struct count_arg){ &c, (i & 1) != 0 };
		cr_assert_eq(
			pthread_create(&t[i], NULL, count_worker, &args[i]), 0);
	}
	atomic_store_explicit(&c.go, true, memory_order_release);
	for (unsigned i = 0; i < *threads; i++)
		pthread_join(t[i], NULL);
	atomic_store(&c.go, false);
	cr_assert_eq(c.count, (uint64_t)c.per_thread * *threads,
		     "lost increments: %llu", (unsigned long long)c.count);
	cr_assert_eq(atomic_load(&c.torn), 0u, "a critical section overlapped");
	cr_assert(grain_spin_trylock(&c.lock), "free after the run");
	grain_spin_unlock(&c.lock);
}

/* --- trylock from another thread ---------------------------------------- */

struct try_arg {
	struct grain_spinlock *lock;
	bool take, release; /* what the helper does */
	bool got;
};

static void *try_helper(void *arg)
{
	struct try_arg *ta = arg;

	if (ta->take)
		ta->got = grain_spin_trylock(ta->lock);
	if (ta->release)
		grain_spin_unlock(ta->lock);
	return NULL;
}

static bool helper(struct grain_spinlock *l, bool take, bool release)
{
	struct try_arg ta = { l, take, release, false };
	pthread_t t;

	cr_assert_eq(pthread_create(&t, NULL, try_helper, &ta), 0);
	pthread_join(t, NULL);
	return ta.got;
}

Test(lock, trylock_across_threads)
{
	struct grain_spinlock l = GRAIN_SPINLOCK_INIT;

	grain_spin_lock(&l);
	cr_assert(!helper(&l, true, false), "trylock fails while held");
	cr_assert(!grain_spin_trylock(&l), "not recursive");
	grain_spin_unlock(&l);
	cr_assert(helper(&l, true, false), "trylock succeeds once free");
	/* The helper thread now holds it. */
	cr_assert(!grain_spin_trylock(&l), "held by the other thread");
	cr_assert(!helper(&l, true, false));
	/* Released by a thread handed the ownership (the main thread here,
	 * after the holder's join): unlocking needs no thread identity. */
	grain_spin_unlock(&l);
	cr_assert(grain_spin_trylock(&l));
	helper(&l, false, true);
	cr_assert(grain_spin_trylock(&l), "free after the helper's unlock");
	grain_spin_unlock(&l);
}

/* --- initialisers ------------------------------------------------------- */

static struct grain_spinlock static_lock = GRAIN_SPINLOCK_INIT;

Test(lock, initialisers)
{
	struct {
		struct grain_spinlock l;
		unsigned guard;
	} s;

	cr_assert(grain_spin_trylock(&static_lock),
		  "GRAIN_SPINLOCK_INIT is free");
	cr_assert(!grain_spin_trylock(&static_lock));
	grain_spin_unlock(&static_lock);

	memset(&s, 0xA5, sizeof(s));
	grain_spin_init(&s.l);
	cr_assert(grain_spin_trylock(&s.l), "grain_spin_init makes it free");
	cr_assert(!grain_spin_trylock(&s.l));
	grain_spin_unlock(&s.l);
	grain_spin_lock(&s.l);
	grain_spin_unlock(&s.l);
	cr_assert_eq(s.guard, 0xA5A5A5A5u, "init touches only the lock");

	/* A zeroed lock is the same state as GRAIN_SPINLOCK_INIT. */
	struct grain_spinlock z;
	memset(&z, 0, sizeof(z));
	cr_assert(grain_spin_trylock(&z));
	grain_spin_unlock(&z);
}

/* --- progress with a slow holder ---------------------------------------- */

struct slow {
	struct grain_spinlock lock;
	unsigned rounds;
	long hold_ms;	/* the holder sleeps this long under the lock */
	bool compute;	/* ... or computes this long instead */
	uint64_t count; /* under the lock */
	_Atomic(unsigned) inside;
	_Atomic(unsigned) overlaps;
};

static void hold(struct slow *s)
{
	if (!s->compute) {
		pause_ms(s->hold_ms);
		return;
	}
	int64_t end = test_now_ns() + s->hold_ms * 1000000;
	while (test_now_ns() < end)
		grain_cpu_relax();
}

static void *slow_worker(void *arg)
{
	struct slow *s = arg;

	for (unsigned i = 0; i < s->rounds; i++) {
		grain_spin_lock(&s->lock);
		if (atomic_fetch_add(&s->inside, 1) != 0)
			atomic_fetch_add(&s->overlaps, 1);
		s->count++;
		hold(s);
		atomic_fetch_sub(&s->inside, 1);
		grain_spin_unlock(&s->lock);
		sched_yield();
	}
	return NULL;
}

struct slow_param {
	unsigned threads;
	bool compute;
};

ParameterizedTestParameters(lock, slow_holder)
{
	static struct slow_param p[] = {
		{ 2, false }, { 4, false }, { 8, false }, { 16, false },
		{ 2, true },  { 4, true },  { 8, true },  { 16, true },
	};
	return cr_make_param_array(struct slow_param, p,
				   sizeof(p) / sizeof(p[0]));
}

ParameterizedTest(struct slow_param *p, lock, slow_holder, .timeout = 120)
{
	/* Every thread in turn holds the lock for 2 ms, sleeping or
	 * computing, while the others spin. More threads than cores: a
	 * spinner that never gave up its CPU would keep a computing holder
	 * off it. Everyone must get through, in about the time the holds
	 * add up to (the bound is loose: the machine is shared). */
	struct slow s = { .lock = GRAIN_SPINLOCK_INIT,
			  .rounds = 10,
			  .hold_ms = 2,
			  .compute = p->compute };
	pthread_t t[MAX_THREADS];

	int64_t t0 = test_now_ns();
	for (unsigned i = 0; i < p->threads; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, slow_worker, &s), 0);
	for (unsigned i = 0; i < p->threads; i++)
		pthread_join(t[i], NULL);
	int64_t took_ms = (test_now_ns() - t0) / 1000000;
	int64_t held_ms = (int64_t)p->threads * s.rounds * s.hold_ms;

	cr_assert_eq(s.count, (uint64_t)p->threads * s.rounds);
	cr_assert_eq(atomic_load(&s.overlaps), 0u);
	cr_assert_lt(
		took_ms, 20 * held_ms + 5000,
		"%lld ms for %lld ms of holding: spinners starve the holder",
		(long long)took_ms, (long long)held_ms);
}

Test(lock, sleeping_holder_with_waiters, .timeout = 60)
{
	/* The holder sleeps 200 ms while waiters spin; they get the lock
	 * soon after it is released, and not before. */
	enum { K = 4 };
	struct slow s = { .lock = GRAIN_SPINLOCK_INIT,
			  .rounds = 1,
			  .hold_ms = 0 };
	pthread_t t[K];

	grain_spin_lock(&s.lock);
	for (unsigned i = 0; i < K; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, slow_worker, &s), 0);
	pause_ms(200);
	cr_assert_eq(s.count, 0u, "nobody got in while it was held");
	int64_t t0 = test_now_ns();
	grain_spin_unlock(&s.lock);
	for (unsigned i = 0; i < K; i++)
		pthread_join(t[i], NULL);
	cr_assert_eq(s.count, (uint64_t)K);
	cr_assert_lt(test_now_ns() - t0, 5000LL * 1000000);
}
