/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_prio_wait.c - grain_prio's blocking dequeue under concurrency, with
 * timeouts long enough that a lost wake-up cannot hide behind them.
 *
 * The work comes in rounds. In each, the producers enqueue a few objects
 * and stop; optional pollers (try_dequeue and dequeue_burst, never
 * sleeping) take at most one batch and stop; the round ends only when the
 * waiters, blocked in dequeue_wait with no timeout (or one of 30 s),
 * have taken the rest.
 * So every round ends in a quiet queue where a missed wake-up is not
 * repaired by a later enqueue. A watchdog thread fails the run if an
 * object stays queued while every waiter sits in dequeue_wait without
 * returning for STUCK_NS. Every object must be dequeued exactly once, in
 * order per producer and band.
 *
 * Pollers may linger inside grain_impl_prio_settle(): through the test
 * build's hooks (src/test_hooks.h) they sleep a little before clearing a
 * band's bit and longer between clearing it and looking at the band
 * again, while waiters come back at random times, so that a waiter often
 * reads the bit as clear while an object is queued. Without the wake in
 * settle's set-back, those runs lose a wake-up within a few hundred
 * rounds; in weighted mode the scheduler lock hides the window.
 *
 * Objects go to bands 0..2 only. The queue has BANDS bands (scanned: no
 * bits, the producers' wake alone must reach the waiters) or BIT_BANDS
 * (the bits, with the settle window above).
 */
#define _GNU_SOURCE
#include <grain/prio.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/test_util.h"
#include "test_hooks.h"
#include "../common/test_table.h"
#include "../common/test_threads.h"

#define BANDS 3u
#define BIT_BANDS 6u
_Static_assert(BANDS <= GRAIN_PRIO_SCAN_BANDS, "BANDS: a scanned queue");
_Static_assert(BIT_BANDS > GRAIN_PRIO_SCAN_BANDS, "BIT_BANDS: the bits");
#define MAXP 2u
#define MAXW 3u
#define MAXPOLL 2u
#define PER_ROUND 3u /* at most, per producer */
#define STOP ((void *)UINTPTR_MAX)

/* Waiters sitting in dequeue_wait with an object queued this long: lost. */
#define STUCK_NS ((TEST_SANITIZED ? 6LL : 2LL) * 1000000000)

struct waiter_state {
	_Atomic(bool) inside;	   /* in dequeue_wait now */
	_Atomic(uint64_t) returns; /* dequeue_wait calls that returned */
};

struct wrun {
	struct grain_prio *p;
	unsigned producers, waiters, pollers, rounds;
	bool burst;	 /* waiters use dequeue_burst_wait */
	bool linger;	 /* pollers linger in settle, waiters after a take */
	int64_t wait_ns; /* waiters' timeout (< 0: forever) */
	pthread_barrier_t start, end; /* producers, pollers and the driver */
	_Atomic(bool) quit;	      /* no more rounds */
	_Atomic(bool) done;	      /* everything delivered: waiters stop */
	_Atomic(bool) finished;	      /* the watchdog stops */
	_Atomic(bool) stuck;	      /* the watchdog saw a lost wake-up */
	_Atomic(uint64_t) accepted, delivered;
	_Atomic(unsigned) exited;
	_Atomic(unsigned char) *seen; /* by object id */
	size_t ids;
	struct waiter_state ws[MAXW];
	struct test_failures fails;
	char stuck_what[200];
};

struct worker {
	struct wrun *run;
	unsigned id;
};

/* An object: its id (producer, round, index) and band. */
static void *token(size_t id, unsigned band)
{
	return (void *)(uintptr_t)(id << 8 | band);
}

/* Each taker checks what it gets against what it got before. */
struct taker {
	int64_t last[MAXP][BANDS];
};

static void taker_init(struct taker *t)
{
	for (unsigned i = 0; i < MAXP; i++)
		for (unsigned b = 0; b < BANDS; b++)
			t->last[i][b] = -1;
}

static void take(struct wrun *r, struct taker *t, void *obj)
{
	uintptr_t v = (uintptr_t)obj;
	size_t id = (size_t)(v >> 8);
	unsigned band = (unsigned)(v & 0xff);
	unsigned prod = (unsigned)(id % r->producers);

	if (obj == STOP)
		return;
	if (id >= r->ids || band >= BANDS) {
		test_fail(&r->fails, "an object nobody enqueued");
		return;
	}
	/* Ids grow with the round, so a producer's objects in one band come
	 * out in increasing order to any one taker. */
	if ((int64_t)id <= t->last[prod][band])
		test_fail(&r->fails, "out of order within a band");
	t->last[prod][band] = (int64_t)id;
	if (atomic_fetch_add(&r->seen[id], 1) != 0)
		test_fail(&r->fails, "an object dequeued twice");
	atomic_fetch_add(&r->delivered, 1);
}

static void *producer(void *arg)
{
	struct worker *w = arg;
	struct wrun *r = w->run;
	uint64_t rng = 0x9E3779B97F4A7C15ULL * (w->id + 1);

	for (unsigned round = 0;; round++) {
		pthread_barrier_wait(&r->start);
		if (atomic_load(&r->quit))
			break;
		unsigned n = 1 + (unsigned)(test_rand(&rng) % PER_ROUND);
		for (unsigned i = 0; i < n; i++) {
			size_t id =
				((size_t)round * PER_ROUND + i) * r->producers +
				w->id;
			unsigned band = (unsigned)(test_rand(&rng) % BANDS);
			if (grain_prio_try_enqueue(r->p, band,
						   token(id, band)) == 0)
				atomic_fetch_add(&r->accepted, 1);
			else
				test_fail(&r->fails,
					  "refused with room to spare");
			test_jitter(&rng);
		}
		pthread_barrier_wait(&r->end);
	}
	return NULL;
}

/* Takes one batch (or gives up after a few looks) per round, never
 * sleeps: the dequeuer that, in the lost wake-up, takes its share and
 * goes away. */
static void *poller(void *arg)
{
	struct worker *w = arg;
	struct wrun *r = w->run;
	struct taker t;
	uint64_t rng = 0x3C6EF372FE94F82BULL * (w->id + 1);

	taker_init(&t);
	for (;;) {
		pthread_barrier_wait(&r->start);
		if (atomic_load(&r->quit))
			break;
		for (unsigned look = 0; look < 64; look++) {
			void *objs[2];
			int n;
			if (test_rand(&rng) & 1) {
				int rc = grain_prio_try_dequeue(r->p, objs,
								NULL);
				n = rc == 0 ? 1 : 0;
			} else {
				n = grain_prio_try_dequeue_burst(r->p, objs, 2);
			}
			for (int i = 0; i < n; i++)
				take(r, &t, objs[i]);
			if (n > 0)
				break;
			sched_yield();
		}
		pthread_barrier_wait(&r->end);
	}
	return NULL;
}

static void *waiter(void *arg)
{
	struct worker *w = arg;
	struct wrun *r = w->run;
	struct waiter_state *ws = &r->ws[w->id];
	struct taker t;
	uint64_t rng = 0xBB67AE8584CAA73BULL * (w->id + 1);

	taker_init(&t);
	while (!atomic_load(&r->done)) {
		void *objs[4];
		unsigned band = BANDS;
		int n;
		atomic_store(&ws->inside, true);
		if (r->burst) {
			n = grain_prio_dequeue_burst_wait(r->p, objs, 4,
							  r->wait_ns);
		} else {
			n = grain_prio_dequeue_wait(r->p, objs, &band,
						    r->wait_ns);
			n = n == 0 ? 1 : n;
		}
		atomic_store(&ws->inside, false);
		atomic_fetch_add(&ws->returns, 1);
		if (n == -ETIMEDOUT) {
			test_fail(&r->fails,
				  "a waiter slept through its whole timeout");
			continue;
		}
		if (n < 0) {
			test_fail(&r->fails, "dequeue_wait returned an error");
			break;
		}
		if (!r->burst && objs[0] != STOP &&
		    band != (unsigned)((uintptr_t)objs[0] & 0xff))
			test_fail(&r->fails, "wrong band reported");
		for (int i = 0; i < n; i++)
			take(r, &t, objs[i]);
		if (r->linger) {
			/* Work on it for a while: the next round may start
			 * meanwhile, and the next call arrive at any point of
			 * a poller's settle. */
			struct timespec ts = {
				0, (long)(test_rand(&rng) % 600) * 1000
			};
			nanosleep(&ts, NULL);
		}
	}
	atomic_fetch_add(&r->exited, 1);
	return NULL;
}

static void *watchdog(void *arg)
{
	struct wrun *r = arg;
	int64_t since = 0;
	uint64_t last_returns = 0;

	while (!atomic_load(&r->finished)) {
		bool all_inside = true;
		uint64_t returns = 0;
		for (unsigned i = 0; i < r->waiters; i++) {
			all_inside &= atomic_load(&r->ws[i].inside);
			returns += atomic_load(&r->ws[i].returns);
		}
		unsigned backlog = grain_prio_backlog(r->p);
		int64_t now = test_now_ns();
		if (!all_inside || backlog == 0) {
			since = 0;
		} else if (since == 0 || returns != last_returns) {
			since = now;
			last_returns = returns;
		} else if (now - since > STUCK_NS && !atomic_load(&r->stuck)) {
			snprintf(
				r->stuck_what, sizeof(r->stuck_what),
				"%u object(s) queued for %.1f s while all %u "
				"waiter(s) slept (bits %#llx, sleepers %u)",
				backlog, (double)(now - since) / 1e9,
				r->waiters,
				(unsigned long long)atomic_load(
					&r->p->nonempty),
				(unsigned)atomic_load(&r->p->sleepers.waiters));
			atomic_store(&r->stuck, true);
		}
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* The hook of the pollers (thread-local: waiters and producers pass). */
static _Thread_local bool lingers;

static void linger(enum grain_test_point point, const void *obj, unsigned arg)
{
	(void)obj;
	(void)arg;
	if (!lingers)
		return;
	/* Long enough for a producer to refill the band before the clear,
	 * and for a waiter to look and fall asleep before the re-check. */
	long ns = point == GRAIN_TEST_PRIO_SETTLE    ? 50000
		  : point == GRAIN_TEST_PRIO_CLEARED ? 300000
						     : 0;
	if (ns != 0) {
		struct timespec ts = { 0, ns };
		nanosleep(&ts, NULL);
	}
}

static void *lingering_poller(void *arg)
{
	lingers = true;
	return poller(arg);
}

/* Criterion copies the parameters into its worker process: no pointers. */
struct wait_case {
	char name[40];
	unsigned qbands; /* the queue's band count */
	unsigned flags;
	unsigned producers, waiters, pollers;
	bool burst, linger;
	int64_t wait_ns;
};

static void run_wait(const struct wait_case *c)
{
	struct grain_prio_config cfg = {
		.bands = c->qbands,
		.capacity = 64,
		.flags = c->flags | GRAIN_PRIO_WAIT,
		.weights = (const unsigned[BIT_BANDS]){ 3, 2, 1, 1, 1, 1 },
	};
	struct wrun r = { .producers = c->producers,
			  .waiters = c->waiters,
			  .pollers = c->pollers,
			  .burst = c->burst,
			  .linger = c->linger,
			  .wait_ns = c->wait_ns };
	struct worker pw[MAXP], ww[MAXW], lw[MAXPOLL];
	struct test_threads feeders = { .n = 0 }, takers = { .n = 0 },
			    dog = { .n = 0 };

	cr_assert_leq(c->producers, MAXP);
	cr_assert_leq(c->waiters, MAXW);
	cr_assert_leq(c->pollers, MAXPOLL);
	r.rounds = test_scale(c->linger ? 1500 : 3000);
	cr_assert_eq(grain_prio_create(&r.p, &cfg, NULL), 0);
	r.ids = (size_t)r.rounds * PER_ROUND * c->producers;
	r.seen = calloc(r.ids, 1);
	cr_assert_not_null(r.seen);
	unsigned parties = c->producers + c->pollers + 1;
	cr_assert_eq(pthread_barrier_init(&r.start, NULL, parties), 0);
	cr_assert_eq(pthread_barrier_init(&r.end, NULL, parties), 0);
	if (c->linger)
		grain_test_hook = linger;

	test_spawn(&dog, watchdog, &r);
	for (unsigned i = 0; i < c->waiters; i++)
		ww[i] = (struct worker){ &r, i };
	for (unsigned i = 0; i < c->pollers; i++)
		lw[i] = (struct worker){ &r, i };
	for (unsigned i = 0; i < c->producers; i++)
		pw[i] = (struct worker){ &r, i };
	TEST_SPAWN_EACH(&takers, waiter, ww, c->waiters);
	TEST_SPAWN_EACH(&feeders, c->linger ? lingering_poller : poller, lw,
			c->pollers);
	TEST_SPAWN_EACH(&feeders, producer, pw, c->producers);

	/* The rounds: each ends once the waiters have taken everything. */
	int64_t give_up = test_now_ns() + 150LL * 1000000000;
	unsigned round;
	for (round = 0; round < r.rounds; round++) {
		pthread_barrier_wait(&r.start);
		pthread_barrier_wait(&r.end);
		while (atomic_load(&r.delivered) != atomic_load(&r.accepted) &&
		       !atomic_load(&r.stuck) &&
		       test_failure_count(&r.fails) == 0 &&
		       test_now_ns() < give_up) {
			struct timespec ts = { 0, 20000 };
			nanosleep(&ts, NULL);
		}
		if (atomic_load(&r.delivered) != atomic_load(&r.accepted))
			break;
	}
	atomic_store(&r.quit, true);
	pthread_barrier_wait(&r.start);
	test_join_all(&feeders);

	/* Stop the waiters: each enqueue of STOP wakes the sleepers, and
	 * they take whatever is left first. */
	atomic_store(&r.done, true);
	while (atomic_load(&r.exited) < c->waiters) {
		int rc = grain_prio_try_enqueue(r.p, 0, STOP);
		cr_assert(rc == 0 || rc == -EAGAIN);
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	test_join_all(&takers);
	atomic_store(&r.finished, true);
	test_join_all(&dog);
	grain_test_hook = NULL;

	cr_assert(!atomic_load(&r.stuck),
		  "%s, round %u of %u: lost wake-up: %s", c->name, round,
		  r.rounds, r.stuck_what);
	cr_assert_eq(round, r.rounds, "%s: stalled in round %u", c->name,
		     round);
	cr_assert_eq(test_failure_count(&r.fails), 0u,
		     "%s: %u errors, first: %s", c->name,
		     test_failure_count(&r.fails),
		     test_first_failure(&r.fails));
	uint64_t once = 0;
	for (size_t i = 0; i < r.ids; i++)
		once += atomic_load(&r.seen[i]);
	cr_assert_eq(once, atomic_load(&r.accepted),
		     "%s: every object exactly once", c->name);
	cr_assert_eq(atomic_load(&r.delivered), atomic_load(&r.accepted));
	pthread_barrier_destroy(&r.start);
	pthread_barrier_destroy(&r.end);
	free(r.seen);
	grain_prio_destroy(r.p);
}

#define FOREVER (-1LL)

static struct wait_case no_oversleep_rows[] = {
	{ "strict", BANDS, 0, 2, 2, 0, false, false, FOREVER },
	{ "strict, burst", BANDS, 0, 2, 2, 0, true, false, FOREVER },
	{ "strict, 3 waiters, long timeout", BANDS, 0, 2, 3, 0, false, false,
	  30LL * 1000000000 },
	{ "strict, pollers", BANDS, 0, 2, 2, 2, false, false, FOREVER },
	{ "weighted", BANDS, GRAIN_PRIO_WEIGHTED, 2, 2, 0, false, false,
	  FOREVER },
	{ "weighted, burst, poller", BANDS, GRAIN_PRIO_WEIGHTED, 2, 2, 1, true,
	  false, FOREVER },
	{ "strict, single consumer", BANDS, GRAIN_PRIO_SC, 2, 1, 0, false,
	  false, FOREVER },
	{ "weighted, single consumer, burst", BANDS,
	  GRAIN_PRIO_SC | GRAIN_PRIO_WEIGHTED, 2, 1, 0, true, false, FOREVER },
	{ "bits, strict", BIT_BANDS, 0, 2, 2, 0, false, false, FOREVER },
	{ "bits, strict, burst, pollers", BIT_BANDS, 0, 2, 2, 2, true, false,
	  FOREVER },
	{ "bits, weighted, burst, poller", BIT_BANDS, GRAIN_PRIO_WEIGHTED, 2, 2,
	  1, true, false, FOREVER },
	{ "bits, strict, single consumer, burst", BIT_BANDS, GRAIN_PRIO_SC, 2,
	  1, 0, true, false, FOREVER },
};

TABLE_PARAMS(prio_wait, no_oversleep, no_oversleep_rows);

ParameterizedTest(struct wait_case *c, prio_wait, no_oversleep, .timeout = 200)
{
	run_wait(c);
}

/*
 * dequeue_wait beside a dequeuer in the settle window: the pollers linger
 * between finding a band empty and clearing its bit, and between clearing
 * it and looking at the band again, while a producer refills the band and
 * the waiters fall asleep.
 */
static struct wait_case beside_settling_dequeuer_rows[] = {
	{ "strict, lingering poller", BIT_BANDS, 0, 1, 1, 1, false, true,
	  FOREVER },
	{ "strict, burst, lingering pollers", BIT_BANDS, 0, 2, 2, 2, true, true,
	  FOREVER },
	{ "weighted, lingering poller", BIT_BANDS, GRAIN_PRIO_WEIGHTED, 1, 1, 1,
	  false, true, FOREVER },
};

TABLE_PARAMS(prio_wait, beside_settling_dequeuer,
	     beside_settling_dequeuer_rows);

ParameterizedTest(struct wait_case *c, prio_wait, beside_settling_dequeuer,
		  .timeout = 200)
{
	run_wait(c);
}
