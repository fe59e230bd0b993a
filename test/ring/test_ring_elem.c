/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_elem.c - grain_ring_elem, and zero copy on both ring kinds.
 *
 * Concurrency (one table, one body): P producers and C consumers move
 * elements whose every word is derived from (producer, sequence) and
 * whose last word is a checksum of the others; in every mode, with the
 * copying calls and with zero copy where the mode offers it (partial
 * commits and releases included), each element must arrive exactly once,
 * intact, and in its producer's order at each consumer.
 *
 * Single thread: zero copy across the end of the slot array, a second
 * reserve or peek, commit and release of more than is open, modes without
 * zero copy, NULL arguments, argument checks at init;
 * cancels and empty opens, the copy calls of a side while its reservation
 * is open, failed opens, element alignment; creation and allocation
 * failure, caller memory of exactly memsize bytes, the _wait calls, and
 * failed calls that must change nothing. With a second thread: commit and
 * release wake a sleeper of the other side. The copying calls of every
 * shape, full and empty, on both kinds of ring: test_ring_ops.c.
 */
#define _GNU_SOURCE
#include <grain/ring_elem.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test_util.h"
#include "../common/test_table.h"
#include "../common/test_threads.h"
#include "ring_table.h"

/* --- concurrency --------------------------------------------------------- */

enum how {
	HOW_SINGLE, /* try_enqueue / try_dequeue */
	HOW_BULK,   /* try_*_bulk, burst to finish */
	HOW_BURST,  /* try_*_burst */
	HOW_WAIT,   /* *_burst_wait (WAIT rings) */
	HOW_ZC,	    /* reserve/commit on an SP side, peek/release on SC */
};

/* No pointers in a parameter: Criterion copies it into the test's own
 * process, which may not share the addresses. */
struct mt_case {
	unsigned flags;
	unsigned esize;
	unsigned producers, consumers;
	enum how how;
};

static const struct mt_case mt_cases[] = {
	{ GRAIN_RING_MPMC, 16, 3, 3, HOW_SINGLE },
	{ GRAIN_RING_MPMC, 64, 3, 3, HOW_BULK },
	{ GRAIN_RING_MPMC, 24, 3, 3, HOW_BURST },
	{ GRAIN_RING_MPMC | GRAIN_RING_WAIT, 16, 2, 2, HOW_WAIT },
	{ GRAIN_RING_MPSC, 16, 3, 1, HOW_BURST },
	{ GRAIN_RING_MPSC, 64, 3, 1, HOW_ZC },
	{ GRAIN_RING_SPMC, 8, 1, 3, HOW_BULK },
	{ GRAIN_RING_SPMC, 16, 1, 3, HOW_ZC },
	{ GRAIN_RING_SPSC, 4, 1, 1, HOW_SINGLE },
	{ GRAIN_RING_SPSC, 64, 1, 1, HOW_BURST },
	{ GRAIN_RING_SPSC, 16, 1, 1, HOW_ZC },
	{ GRAIN_RING_SPSC, 256, 1, 1, HOW_ZC },
	{ GRAIN_RING_SPSC | GRAIN_RING_WAIT, 64, 1, 1, HOW_ZC },
};

#define MT_CAP 64
#define MT_BATCH 8
#define WAIT_NS (60 * INT64_C(1000000000)) /* a lost wake-up fails */

struct mt_run {
	const struct mt_case *c;
	struct grain_ring_elem *r;
	unsigned per_producer;
	_Atomic(unsigned) *seen;   /* per element: times dequeued */
	_Atomic(unsigned) taken;   /* elements dequeued, all consumers */
	_Atomic(unsigned) next_id; /* thread ids */
};

struct mt_thread {
	struct mt_run *run;
	unsigned id;
};

static bool zc_prod(const struct mt_case *c)
{
	return c->how == HOW_ZC && (c->flags & GRAIN_RING_SP);
}

static bool zc_cons(const struct mt_case *c)
{
	return c->how == HOW_ZC && (c->flags & GRAIN_RING_SC);
}

static void *producer(void *arg)
{
	struct mt_thread *t = arg;
	struct mt_run *run = t->run;
	const struct mt_case *c = run->c;
	const unsigned esize = c->esize;
	alignas(8) unsigned char buf[MT_BATCH * MAX_WORDS * 4];
	uint64_t rng = t->id * 7 + 1;
	unsigned seq = 0;

	while (seq < run->per_producer) {
		unsigned want = 1 + (unsigned)(test_rand(&rng) % MT_BATCH);
		int k;

		if (want > run->per_producer - seq)
			want = run->per_producer - seq;
		if (zc_prod(c)) {
			struct grain_ring_zc zc;

			k = grain_ring_elem_try_reserve_burst(run->r, want,
							      &zc);
			cr_assert(k >= 0 && (unsigned)k <= want);
			cr_assert_eq(zc.n, (unsigned)k);
			/* Fill them all, publish a prefix: the rest is
			 * built again, from the same slots, next time. */
			for (unsigned i = 0; i < (unsigned)k; i++)
				fill(grain_ring_zc_at(&zc, i), esize, t->id,
				     seq + i);
			if (k > 1 && test_rand(&rng) % 4 == 0)
				k--;
			cr_assert_eq(
				grain_ring_elem_commit(run->r, (unsigned)k), 0);
		} else {
			if (c->how == HOW_SINGLE)
				want = 1;
			for (unsigned i = 0; i < want; i++)
				fill(buf + i * esize, esize, t->id, seq + i);
			switch (c->how) {
			case HOW_SINGLE:
				k = grain_ring_elem_try_enqueue(run->r, buf);
				cr_assert(k == 0 || k == -EAGAIN);
				k = k == 0 ? 1 : 0;
				break;
			case HOW_BULK:
				k = grain_ring_elem_try_enqueue_bulk(run->r,
								     buf, want);
				cr_assert(k == 0 || k == -EAGAIN);
				k = k == 0 ? (int)want : 0;
				break;
			case HOW_WAIT:
				k = grain_ring_elem_enqueue_burst_wait(
					run->r, buf, want, WAIT_NS);
				cr_assert(k >= 1, "burst_wait: %d", k);
				break;
			default:
				k = grain_ring_elem_try_enqueue_burst(
					run->r, buf, want);
				break;
			}
		}
		cr_assert(k >= 0 && (unsigned)k <= want);
		seq += (unsigned)k;
		if (k == 0)
			sched_yield();
	}
	return NULL;
}

static void take(struct mt_run *run, const void *elem, uint32_t *last)
{
	uint64_t ps = check_elem(elem, run->c->esize);
	uint32_t prod = (uint32_t)(ps >> 32), seq = (uint32_t)ps;

	cr_assert_lt(prod, run->c->producers, "producer id");
	cr_assert_lt(seq, run->per_producer, "sequence");
	/* FIFO per producer at this consumer. */
	cr_assert(seq + 1 > last[prod], "producer %u: %u after %u", prod, seq,
		  last[prod] - 1);
	last[prod] = seq + 1;
	atomic_fetch_add(&run->seen[prod * run->per_producer + seq], 1);
}

static void *consumer(void *arg)
{
	struct mt_thread *t = arg;
	struct mt_run *run = t->run;
	const struct mt_case *c = run->c;
	const unsigned esize = c->esize;
	const unsigned total = c->producers * run->per_producer;
	alignas(8) unsigned char buf[MT_BATCH * MAX_WORDS * 4];
	uint32_t last[8] = { 0 };
	uint64_t rng = t->id * 13 + 5;

	while (atomic_load(&run->taken) < total) {
		unsigned want = 1 + (unsigned)(test_rand(&rng) % MT_BATCH);
		int k;

		if (zc_cons(c)) {
			struct grain_ring_zc zc;

			k = grain_ring_elem_try_peek_burst(run->r, want, &zc);
			cr_assert(k >= 0 && (unsigned)k <= want);
			/* Release a prefix; the rest is peeked again. */
			if (k > 1 && test_rand(&rng) % 4 == 0)
				k--;
			for (unsigned i = 0; i < (unsigned)k; i++)
				take(run, grain_ring_zc_at(&zc, i), last);
			cr_assert_eq(grain_ring_elem_release(run->r,
							     (unsigned)k),
				     0);
		} else {
			switch (c->how) {
			case HOW_SINGLE:
				k = grain_ring_elem_try_dequeue(run->r, buf);
				cr_assert(k == 0 || k == -EAGAIN);
				k = k == 0 ? 1 : 0;
				break;
			case HOW_BULK:
				k = grain_ring_elem_try_dequeue_bulk(run->r,
								     buf, want);
				cr_assert(k == 0 || k == -EAGAIN);
				k = k == 0 ? (int)want
					   : grain_ring_elem_try_dequeue_burst(
						     run->r, buf, want);
				break;
			case HOW_WAIT:
				/* Short waits: the others' last element may
				 * already be taken. */
				k = grain_ring_elem_dequeue_burst_wait(
					run->r, buf, want, 1000000);
				cr_assert(k >= 1 || k == -ETIMEDOUT);
				if (k < 0)
					k = 0;
				break;
			default:
				k = grain_ring_elem_try_dequeue_burst(
					run->r, buf, want);
				break;
			}
			cr_assert(k >= 0 && (unsigned)k <= want);
			for (unsigned i = 0; i < (unsigned)k; i++)
				take(run, buf + i * esize, last);
		}
		atomic_fetch_add(&run->taken, (unsigned)k);
		if (k == 0)
			sched_yield();
	}
	return NULL;
}

TABLE_PARAMS(ring_elem, exactly_once_fifo, mt_cases);

ParameterizedTest(const struct mt_case *c, ring_elem, exactly_once_fifo,
		  .timeout = 240)
{
	struct mt_run run = { .c = c, .per_producer = test_scale(40000) };
	struct mt_thread th[8];
	struct test_threads threads = { .n = 0 };
	const unsigned total = c->producers * run.per_producer;
	unsigned n = 0;

	cr_assert_eq(grain_ring_elem_create(&run.r, MT_CAP, c->esize, c->flags,
					    NULL),
		     0);
	run.seen = calloc(total, sizeof(*run.seen));
	cr_assert_not_null(run.seen);
	for (unsigned i = 0; i < c->producers; i++, n++) {
		th[n] = (struct mt_thread){ &run, i };
		test_spawn(&threads, producer, &th[n]);
	}
	for (unsigned i = 0; i < c->consumers; i++, n++) {
		th[n] = (struct mt_thread){ &run, 100 + i };
		test_spawn(&threads, consumer, &th[n]);
	}
	test_join_all(&threads);

	cr_assert_eq(atomic_load(&run.taken), total);
	for (unsigned i = 0; i < total; i++)
		cr_assert_eq(atomic_load(&run.seen[i]), 1u,
			     "mode %#x how %d: element %u seen %u times",
			     c->flags, (int)c->how, i,
			     atomic_load(&run.seen[i]));
	cr_assert(grain_ring_elem_empty(run.r));
	free(run.seen);
	grain_ring_elem_destroy(run.r);
}

/* --- zero copy, one thread ----------------------------------------------- */

struct zc_case {
	bool elem;
	unsigned esize;
	unsigned flags;
};

/* Zero copy on both sides needs SPSC; the one-sided cases use the copying
 * calls on the other side. */
static const struct zc_case zc_cases[] = {
	{ false, 0, GRAIN_RING_SPSC },
	{ false, 0, GRAIN_RING_SPMC },
	{ false, 0, GRAIN_RING_MPSC },
	{ false, 0, GRAIN_RING_SPSC | GRAIN_RING_WAIT },
	{ true, 4, GRAIN_RING_SPSC },
	{ true, 16, GRAIN_RING_SPSC },
	{ true, 64, GRAIN_RING_SPMC },
	{ true, 24, GRAIN_RING_MPSC },
	{ true, 128, GRAIN_RING_SPSC | GRAIN_RING_WAIT },
};

TABLE_PARAMS(ring_zc, across_wrap, zc_cases);

/* Positions cap - 3 .. cap + 2: three slots at the end of the array,
 * three at its start. */
ParameterizedTest(const struct zc_case *zcc, ring_zc, across_wrap)
{
	const unsigned cap = 16;
	struct any_ring a = any_make(zcc->elem, cap, zcc->esize, zcc->flags);
	const bool sp = zcc->flags & GRAIN_RING_SP;
	const bool sc = zcc->flags & GRAIN_RING_SC;
	struct grain_ring_zc zc, pk;
	uint32_t v = 0, got;

	for (unsigned i = 0; i < cap - 3; i++) {
		cr_assert_eq(any_enqueue(&a, i), 0);
		cr_assert_eq(any_dequeue(&a, &got), 0);
		cr_assert_eq(got, i);
	}
	v = cap - 3;
	if (sp) {
		cr_assert_eq(any_reserve(&a, 6, false, &zc), 0);
		cr_assert_eq(zc.n, 6u);
		cr_assert_eq(zc.len[0], 3u);
		cr_assert_eq(zc.len[1], 3u);
		if (a.elem)
			cr_assert_eq(zc.stride, a.esize);
		else
			cr_assert_geq(zc.stride, sizeof(void *));
		/* The second run starts at slot 0, the first ends at the
		 * array's last slot. */
		cr_assert_eq((char *)zc.span[0] + 3 * (size_t)zc.stride,
			     (char *)zc.span[1] + cap * (size_t)zc.stride);
		cr_assert_null(grain_ring_zc_at(&zc, 6));
		for (unsigned i = 0; i < 6; i++)
			any_put(&a, grain_ring_zc_at(&zc, i), v + i);
		cr_assert_eq(any_count(&a), 0u, "reserved slots are free");
		cr_assert_eq(any_commit(&a, 6), 0);
	} else {
		for (unsigned i = 0; i < 6; i++)
			cr_assert_eq(any_enqueue(&a, v + i), 0);
	}
	cr_assert_eq(any_count(&a), 6u);
	if (sc) {
		cr_assert_eq(any_peek(&a, 8, true, &pk), 6);
		cr_assert_eq(pk.len[0], 3u);
		cr_assert_eq(pk.len[1], 3u);
		if (sp)
			cr_assert(memcmp(&zc, &pk, sizeof(zc)) == 0,
				  "peek sees the committed slots");
		for (unsigned i = 0; i < 6; i++)
			cr_assert_eq(any_get(&a, grain_ring_zc_at(&pk, i)),
				     v + i);
		cr_assert_eq(any_count(&a), 6u, "peeked slots are used");
		cr_assert_eq(any_release(&a, 6), 0);
	} else {
		for (unsigned i = 0; i < 6; i++) {
			cr_assert_eq(any_dequeue(&a, &got), 0);
			cr_assert_eq(got, v + i);
		}
	}
	cr_assert_eq(any_count(&a), 0u);
	any_destroy(&a);
}

TABLE_PARAMS(ring_zc, misuse, zc_cases);

/* A second open, a close of more than is open or with nothing open, copy
 * calls while open, partial commit and release: error codes, and the ring
 * still works and holds exactly what was published. */
ParameterizedTest(const struct zc_case *zcc, ring_zc, misuse)
{
	const unsigned cap = 8;
	struct any_ring a = any_make(zcc->elem, cap, zcc->esize, zcc->flags);
	const bool sp = zcc->flags & GRAIN_RING_SP;
	const bool sc = zcc->flags & GRAIN_RING_SC;
	struct grain_ring_zc zc, zc2;
	uint32_t got;

	if (sp) {
		cr_assert_eq(any_commit(&a, 1), -ENOENT);
		cr_assert_eq(any_commit(&a, 0), 0,
			     "nothing open, nothing to do");
		cr_assert_eq(any_reserve(&a, 4, false, &zc), 0);
		memset(&zc2, 0xa5, sizeof(zc2));
		cr_assert_eq(any_reserve(&a, 1, false, &zc2), -EBUSY);
		cr_assert_eq(any_reserve(&a, 1, true, &zc2), -EBUSY);
		cr_assert_eq(zc2.n, 0xa5a5a5a5u, "untouched on error");
		cr_assert_eq(any_enqueue(&a, 99), -EAGAIN,
			     "no copy enqueue into a reservation");
		cr_assert_eq(any_commit(&a, 5), -EINVAL);
		for (unsigned i = 0; i < 4; i++)
			any_put(&a, grain_ring_zc_at(&zc, i), i);
		/* Partial commit: 0 and 1 go, 2 and 3 are built again. */
		cr_assert_eq(any_commit(&a, 2), 0);
		cr_assert_eq(any_commit(&a, 1), -ENOENT);
		cr_assert_eq(any_count(&a), 2u);
		cr_assert_eq(any_reserve(&a, 6, false, &zc2), 0);
		cr_assert_eq(zc2.span[0], grain_ring_zc_at(&zc, 2),
			     "the uncommitted slots come again");
		cr_assert_eq(any_reserve(&a, 0, false, &zc), -EBUSY);
		for (unsigned i = 0; i < 6; i++)
			any_put(&a, grain_ring_zc_at(&zc2, i), 2 + i);
		cr_assert_eq(any_commit(&a, 6), 0);
		/* Full: bulk fails, burst reserves nothing, n == 0 opens
		 * nothing. */
		cr_assert_eq(any_reserve(&a, 1, false, &zc), -EAGAIN);
		cr_assert_eq(any_reserve(&a, 4, true, &zc), 0);
		cr_assert_eq(zc.n, 0u);
		cr_assert_null(zc.span[0]);
		cr_assert_eq(any_commit(&a, 1), -ENOENT, "nothing opened");
		cr_assert_eq(any_reserve(&a, 0, false, &zc), 0);
		cr_assert_eq(any_reserve(&a, cap + 1, false, &zc), -EINVAL);
	} else {
		cr_assert_eq(any_reserve(&a, 1, false, &zc), -ENOTSUP);
		cr_assert_eq(any_reserve(&a, 1, true, &zc), -ENOTSUP);
		cr_assert_eq(any_commit(&a, 0), -ENOTSUP);
		for (unsigned i = 0; i < cap; i++)
			cr_assert_eq(any_enqueue(&a, i), 0);
	}
	cr_assert_eq(any_count(&a), cap);
	cr_assert_eq(any_enqueue(&a, 99), -EAGAIN);

	if (sc) {
		cr_assert_eq(any_release(&a, 1), -ENOENT);
		cr_assert_eq(any_peek(&a, 3, false, &zc), 0);
		cr_assert_eq(any_peek(&a, 1, true, &zc2), -EBUSY);
		cr_assert_eq(any_dequeue(&a, &got), -EAGAIN,
			     "no copy dequeue out of a peek");
		cr_assert_eq(any_release(&a, 4), -EINVAL);
		for (unsigned i = 0; i < 3; i++)
			cr_assert_eq(any_get(&a, grain_ring_zc_at(&zc, i)), i);
		cr_assert_eq(any_release(&a, 1), 0);
		cr_assert_eq(any_count(&a), cap - 1);
		/* Released 0; 1 and 2 are peeked again. */
		cr_assert_eq(any_peek(&a, cap, false, &zc), -EAGAIN);
		cr_assert_eq(any_peek(&a, cap, true, &zc), (int)cap - 1);
		for (unsigned i = 0; i < cap - 1; i++)
			cr_assert_eq(any_get(&a, grain_ring_zc_at(&zc, i)),
				     1 + i);
		cr_assert_eq(any_release(&a, cap - 1), 0);
		cr_assert_eq(any_peek(&a, 1, false, &zc), -EAGAIN);
		cr_assert_eq(any_peek(&a, 1, true, &zc), 0);
		cr_assert_eq(any_release(&a, 1), -ENOENT);
		cr_assert_eq(any_release(&a, 0), 0);
	} else {
		cr_assert_eq(any_peek(&a, 1, false, &zc), -ENOTSUP);
		cr_assert_eq(any_peek(&a, 1, true, &zc), -ENOTSUP);
		cr_assert_eq(any_release(&a, 0), -ENOTSUP);
		for (unsigned i = 0; i < cap; i++) {
			cr_assert_eq(any_dequeue(&a, &got), 0);
			cr_assert_eq(got, i);
		}
	}
	cr_assert_eq(any_count(&a), 0u);
	any_destroy(&a);
}

/* Multi sides have no zero copy, on either kind of ring. */
Test(ring_zc, multi_sides_are_not_supported)
{
	struct grain_ring *p;
	struct grain_ring_elem *e;
	struct grain_ring_zc zc;

	cr_assert_eq(grain_ring_create(&p, 8, GRAIN_RING_MPMC, NULL), 0);
	cr_assert_eq(grain_ring_elem_create(&e, 8, 16, GRAIN_RING_MPMC, NULL),
		     0);
	cr_assert_eq(grain_ring_try_reserve_bulk(p, 1, &zc), -ENOTSUP);
	cr_assert_eq(grain_ring_try_peek_burst(p, 1, &zc), -ENOTSUP);
	cr_assert_eq(grain_ring_commit(p, 0), -ENOTSUP);
	cr_assert_eq(grain_ring_release(p, 0), -ENOTSUP);
	cr_assert_eq(grain_ring_elem_try_reserve_burst(e, 1, &zc), -ENOTSUP);
	cr_assert_eq(grain_ring_elem_try_peek_bulk(e, 1, &zc), -ENOTSUP);
	cr_assert_eq(grain_ring_elem_commit(e, 0), -ENOTSUP);
	cr_assert_eq(grain_ring_elem_release(e, 0), -ENOTSUP);
	grain_ring_elem_destroy(e);
	grain_ring_destroy(p);
}

/* A consumer asleep in a _wait call is woken by a commit, a producer by a
 * release. */
static void *wait_one(void *arg)
{
	struct grain_ring_elem *e = arg;
	alignas(8) unsigned char b[64];

	cr_assert_eq(grain_ring_elem_dequeue_wait(e, b, WAIT_NS), 0);
	cr_assert_eq(check_elem(b, 64), (uint64_t)3 << 32 | 9);
	return NULL;
}

Test(ring_zc, commit_wakes_sleepers)
{
	struct grain_ring_elem *e;
	struct grain_ring_zc zc;
	struct test_threads threads = { .n = 0 };

	cr_assert_eq(grain_ring_elem_create(&e, 4, 64,
					    GRAIN_RING_SPSC | GRAIN_RING_WAIT,
					    NULL),
		     0);
	test_spawn(&threads, wait_one, e);
	cr_assert_eq(grain_ring_elem_try_reserve_bulk(e, 1, &zc), 0);
	fill(zc.span[0], 64, 3, 9);
	cr_assert_eq(grain_ring_elem_commit(e, 1), 0);
	test_join_all(&threads);
	grain_ring_elem_destroy(e);
}

/* --- grain_ring_elem, one thread ----------------------------------------- */

Test(ring_elem, init_checks_its_arguments)
{
	static const unsigned bad_esize[] = {
		0, 1, 2, 3, 6, 10, GRAIN_RING_ELEM_MAX_SIZE + 4
	};
	alignas(64) static unsigned char mem[8192];
	struct grain_ring_elem *e = (struct grain_ring_elem *)(void *)mem;

	for (unsigned i = 0; i < sizeof(bad_esize) / sizeof(*bad_esize); i++) {
		cr_assert_eq(grain_ring_elem_memsize(8, bad_esize[i]), 0u);
		cr_assert_eq(grain_ring_elem_init(e, 8, bad_esize[i], 0),
			     -EINVAL);
		cr_assert_eq(grain_ring_elem_create(&e, 8, bad_esize[i], 0,
						    NULL),
			     -EINVAL);
	}
	cr_assert_eq(grain_ring_elem_memsize(3, 8), 0u);
	cr_assert_eq(grain_ring_elem_memsize(0, 8), 0u);
	cr_assert_geq(grain_ring_elem_memsize(8, 64),
		      grain_ring_memsize(8) + 8 * 64);
	cr_assert_eq(grain_ring_elem_memsize(8, 64) % GRAIN_CACHELINE, 0u);
	cr_assert_eq(grain_ring_elem_init(e, 8, 8, 0x80), -EINVAL);
	cr_assert_eq(grain_ring_elem_init((void *)(mem + 4), 8, 8, 0), -EINVAL);
	cr_assert_leq(grain_ring_elem_memsize(8, 64), sizeof(mem));
	cr_assert_eq(grain_ring_elem_init(e, 8, 64, GRAIN_RING_SPSC), 0);
	alignas(8) unsigned char b[64];
	fill(b, 64, 2, 5);
	cr_assert_eq(grain_ring_elem_try_enqueue(e, b), 0);
	memset(b, 0, sizeof(b));
	cr_assert_eq(grain_ring_elem_try_dequeue(e, b), 0);
	cr_assert_eq(check_elem(b, 64), (uint64_t)2 << 32 | 5);
	grain_ring_elem_destroy(e); /* caller memory: a no-op */
}

Test(ring_elem, null_arguments)
{
	struct grain_ring_elem *e;
	struct grain_ring_zc zc;
	unsigned char b[16];

	cr_assert_eq(grain_ring_elem_capacity(NULL), 0u);
	cr_assert_eq(grain_ring_elem_esize(NULL), 0u);
	cr_assert_eq(grain_ring_elem_count(NULL), 0u);
	cr_assert_eq(grain_ring_elem_free_count(NULL), 0u);
	cr_assert(grain_ring_elem_empty(NULL));
	cr_assert(grain_ring_elem_full(NULL));
	grain_ring_elem_destroy(NULL);
	cr_assert_null(grain_ring_zc_at(NULL, 0));
	cr_assert_eq(grain_ring_elem_init(NULL, 8, 8, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_create(NULL, 8, 8, 0, NULL), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_enqueue(NULL, b), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_dequeue(NULL, b), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk(NULL, b, 1), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_dequeue_burst(NULL, b, 1), -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_wait(NULL, b, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(NULL, b, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_reserve_bulk(NULL, 1, &zc), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_peek_burst(NULL, 1, &zc), -EINVAL);
	cr_assert_eq(grain_ring_elem_commit(NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_release(NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_try_reserve_burst(NULL, 1, &zc), -EINVAL);
	cr_assert_eq(grain_ring_try_peek_bulk(NULL, 1, &zc), -EINVAL);
	cr_assert_eq(grain_ring_commit(NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_release(NULL, 0), -EINVAL);

	cr_assert_eq(grain_ring_elem_create(&e, 8, 16,
					    GRAIN_RING_SPSC | GRAIN_RING_WAIT,
					    NULL),
		     0);
	cr_assert_eq(grain_ring_elem_try_enqueue(e, NULL), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_dequeue(e, NULL), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk(e, NULL, 1), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk(e, NULL, 0), 0);
	cr_assert_eq(grain_ring_elem_try_dequeue_burst(e, NULL, 2), -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_wait(e, NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_wait(e, NULL, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_burst_wait(e, b, 0, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(e, b, 0, 0), 0);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(e, b, 9, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_wait(e, b, 0), -ETIMEDOUT);
	cr_assert_eq(grain_ring_elem_try_reserve_bulk(e, 1, NULL), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_peek_bulk(e, 1, NULL), -EINVAL);
	cr_assert_eq(grain_ring_elem_try_reserve_burst(e, 0x80000000u, &zc),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_count(e), 0u, "nothing changed");
	cr_assert_eq(grain_ring_elem_commit(e, 1), -ENOENT);
	cr_assert_eq(grain_ring_elem_release(e, 1), -ENOENT);
	grain_ring_elem_destroy(e);
}

/* --- zero copy: wake-ups, cancels, the copy calls, failed opens ---------- */

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* One copy call of the shape given (its _wait form with timeout t if
 * wait) enqueueing the values v .. v + n - 1. */
static int any_put_seq(struct any_ring *a, enum ring_op op, bool wait,
		       int64_t t, uint32_t v, unsigned n)
{
	uint32_t vals[8];

	cr_assert_leq(n, 8u);
	for (unsigned i = 0; i < n; i++)
		vals[i] = v + i;
	return any_put_call(a, op, wait, t, vals, n);
}

/* A thread in the single _wait call of one side. */
struct zc_sleeper {
	struct any_ring *a;
	bool enqueue;
	uint32_t v; /* enqueued, or the value dequeued */
	int rc;
	_Atomic(bool) returned;
	struct test_threads thread; /* the sleeper */
};

static void *zc_sleep(void *arg)
{
	struct zc_sleeper *s = arg;

	s->rc = s->enqueue
			? any_put_seq(s->a, RING_SINGLE, true, WAIT_NS, s->v, 1)
			: any_get_call(s->a, RING_SINGLE, true, WAIT_NS, &s->v,
				       1);
	atomic_store(&s->returned, true);
	return NULL;
}

/* Start s and wait until it has registered as a sleeper, and a little
 * more, so that it is in the futex. */
static void sleeper_start(struct zc_sleeper *s)
{
	struct grain_ring *r = any_ring_of(s->a);
	_Atomic(uint32_t) *waiters = s->enqueue ? &r->cons.sleepers.waiters
						: &r->prod.sleepers.waiters;

	test_spawn(&s->thread, zc_sleep, s);
	for (int i = 0; i < 5000 && atomic_load(waiters) == 0; i++)
		pause_ms(1);
	cr_assert_eq(atomic_load(waiters), 1u, "the sleeper registered");
	pause_ms(10);
	cr_assert(!atomic_load(&s->returned), "returned at once: %d", s->rc);
}

/* The call that lets s proceed has been made: s returns 0 within 5 s (a
 * sleeper nobody wakes would sleep out its WAIT_NS). */
static void sleeper_join(struct zc_sleeper *s)
{
	for (int i = 0; i < 5000 && !atomic_load(&s->returned); i++)
		pause_ms(1);
	cr_assert(atomic_load(&s->returned), "the sleeper was not woken");
	test_join_all(&s->thread);
	cr_assert_eq(s->rc, 0);
}

static const struct zc_case wake_cases[] = {
	{ false, 0, GRAIN_RING_SPSC | GRAIN_RING_WAIT },
	{ false, 0, GRAIN_RING_SPMC | GRAIN_RING_WAIT },
	{ false, 0, GRAIN_RING_MPSC | GRAIN_RING_WAIT },
	{ true, 64, GRAIN_RING_SPSC | GRAIN_RING_WAIT },
	{ true, 16, GRAIN_RING_SPMC | GRAIN_RING_WAIT },
	{ true, 24, GRAIN_RING_MPSC | GRAIN_RING_WAIT },
};

TABLE_PARAMS(ring_zc, close_wakes_the_other_side, wake_cases);

/* On a WAIT ring of either kind, a commit wakes a consumer asleep on the
 * empty ring and a release a producer asleep on the full one. */
ParameterizedTest(const struct zc_case *zcc, ring_zc,
		  close_wakes_the_other_side, .timeout = 60)
{
	const unsigned cap = 4;
	struct any_ring a = any_make(zcc->elem, cap, zcc->esize, zcc->flags);
	struct grain_ring_zc zc;
	uint32_t got;

	if (zcc->flags & GRAIN_RING_SP) {
		struct zc_sleeper s = { .a = &a, .enqueue = false };

		sleeper_start(&s);
		cr_assert_eq(any_reserve(&a, 2, false, &zc), 0);
		any_put(&a, grain_ring_zc_at(&zc, 0), 5);
		any_put(&a, grain_ring_zc_at(&zc, 1), 6);
		cr_assert_eq(any_commit(&a, 2), 0);
		sleeper_join(&s);
		cr_assert_eq(s.v, 5u);
		cr_assert_eq(any_dequeue(&a, &got), 0);
		cr_assert_eq(got, 6u);
	}
	if (zcc->flags & GRAIN_RING_SC) {
		struct zc_sleeper s = { .a = &a, .enqueue = true, .v = 9 };

		for (unsigned i = 0; i < cap; i++)
			cr_assert_eq(any_enqueue(&a, i), 0);
		sleeper_start(&s);
		cr_assert_eq(any_peek(&a, 1, false, &zc), 0);
		cr_assert_eq(any_get(&a, grain_ring_zc_at(&zc, 0)), 0u);
		cr_assert_eq(any_release(&a, 1), 0);
		sleeper_join(&s);
		for (unsigned i = 1; i <= cap; i++) {
			cr_assert_eq(any_dequeue(&a, &got), 0);
			cr_assert_eq(got, i < cap ? i : 9u);
		}
	}
	cr_assert_eq(any_count(&a), 0u);
	any_destroy(&a);
}

TABLE_PARAMS(ring_zc, cancel_and_empty_opens, zc_cases);

/* A commit or release of 0 closes what is open and publishes or frees
 * nothing; a reserve or peek of 0 succeeds, writes an empty reservation
 * and leaves nothing open. */
ParameterizedTest(const struct zc_case *zcc, ring_zc, cancel_and_empty_opens)
{
	struct any_ring a = any_make(zcc->elem, 8, zcc->esize, zcc->flags);
	const bool sp = zcc->flags & GRAIN_RING_SP;
	const bool sc = zcc->flags & GRAIN_RING_SC;
	struct grain_ring_zc zc, zc2;
	uint32_t got;

	if (sp) {
		cr_assert_eq(any_reserve(&a, 3, false, &zc), 0);
		for (unsigned i = 0; i < 3; i++)
			any_put(&a, grain_ring_zc_at(&zc, i), 100 + i);
		cr_assert_eq(any_commit(&a, 0), 0);
		cr_assert_eq(any_count(&a), 0u, "a cancel publishes nothing");
		cr_assert_eq(any_commit(&a, 1), -ENOENT, "and closes");
		cr_assert_eq(any_enqueue(&a, 1), 0);
		memset(&zc2, 0xa5, sizeof(zc2));
		cr_assert_eq(any_reserve(&a, 0, false, &zc2), 0);
		cr_assert_eq(zc2.n, 0u);
		cr_assert_eq(zc2.len[0], 0u);
		cr_assert_eq(zc2.len[1], 0u);
		cr_assert_null(zc2.span[0]);
		cr_assert_null(zc2.span[1]);
		cr_assert_eq(any_commit(&a, 1), -ENOENT, "nothing left open");
		cr_assert_eq(any_reserve(&a, 2, false, &zc2), 0);
		cr_assert_eq(zc2.span[0], grain_ring_zc_at(&zc, 1),
			     "the cancelled slots are free");
		any_put(&a, grain_ring_zc_at(&zc2, 0), 2);
		any_put(&a, grain_ring_zc_at(&zc2, 1), 3);
		cr_assert_eq(any_commit(&a, 2), 0);
	} else {
		for (unsigned i = 1; i <= 3; i++)
			cr_assert_eq(any_enqueue(&a, i), 0);
	}
	cr_assert_eq(any_count(&a), 3u);

	if (sc) {
		cr_assert_eq(any_peek(&a, 3, false, &zc), 0);
		for (unsigned i = 0; i < 3; i++)
			cr_assert_eq(any_get(&a, grain_ring_zc_at(&zc, i)),
				     1 + i);
		cr_assert_eq(any_release(&a, 0), 0);
		cr_assert_eq(any_count(&a), 3u, "a release of 0 frees none");
		cr_assert_eq(any_release(&a, 1), -ENOENT, "and closes");
		memset(&zc2, 0xa5, sizeof(zc2));
		cr_assert_eq(any_peek(&a, 0, false, &zc2), 0);
		cr_assert_eq(zc2.n, 0u);
		cr_assert_null(zc2.span[0]);
		cr_assert_null(zc2.span[1]);
		cr_assert_eq(any_release(&a, 1), -ENOENT, "nothing left open");
		cr_assert_eq(any_dequeue(&a, &got), 0);
		cr_assert_eq(got, 1u);
		cr_assert_eq(any_peek(&a, 8, true, &zc), 2);
		cr_assert_eq(any_get(&a, grain_ring_zc_at(&zc, 0)), 2u);
		cr_assert_eq(any_get(&a, grain_ring_zc_at(&zc, 1)), 3u);
		cr_assert_eq(any_release(&a, 2), 0);
	} else {
		for (unsigned i = 1; i <= 3; i++) {
			cr_assert_eq(any_dequeue(&a, &got), 0);
			cr_assert_eq(got, i);
		}
	}
	cr_assert_eq(any_count(&a), 0u);
	any_destroy(&a);
}

TABLE_PARAMS(ring_zc, open_blocks_every_call_of_its_side, zc_cases);

/* While a side's reservation or peek is open, every copy call of that
 * side moves nothing: single and bulk -EAGAIN, burst 0, each _wait form
 * -ETIMEDOUT (a WAIT ring), although the ring has room or objects. */
ParameterizedTest(const struct zc_case *zcc, ring_zc,
		  open_blocks_every_call_of_its_side, .timeout = 30)
{
	struct any_ring a = any_make(zcc->elem, 8, zcc->esize, zcc->flags);
	const bool sp = zcc->flags & GRAIN_RING_SP;
	const bool sc = zcc->flags & GRAIN_RING_SC;
	const bool wait = zcc->flags & GRAIN_RING_WAIT;
	struct grain_ring_zc zc;
	uint32_t got[8];

	if (sp) {
		cr_assert_eq(any_reserve(&a, 2, false, &zc), 0);
		any_put(&a, grain_ring_zc_at(&zc, 0), 10);
		any_put(&a, grain_ring_zc_at(&zc, 1), 11);
		cr_assert_eq(any_put_seq(&a, RING_SINGLE, false, 0, 50, 1),
			     -EAGAIN);
		cr_assert_eq(any_put_seq(&a, RING_BULK, false, 0, 50, 1),
			     -EAGAIN);
		cr_assert_eq(any_put_seq(&a, RING_BURST, false, 0, 50, 3), 0);
		for (int f = RING_SINGLE; wait && f <= RING_BURST; f++)
			cr_assert_eq(any_put_seq(&a, (enum ring_op)f, true,
						 1000000, 50, 1),
				     -ETIMEDOUT, "wait form %d", f);
		cr_assert_eq(any_count(&a), 0u);
		cr_assert_eq(any_commit(&a, 2), 0);
	} else {
		cr_assert_eq(any_enqueue(&a, 10), 0);
		cr_assert_eq(any_enqueue(&a, 11), 0);
	}
	cr_assert_eq(any_enqueue(&a, 12), 0, "closed: enqueues work again");

	if (sc) {
		cr_assert_eq(any_peek(&a, 1, false, &zc), 0);
		cr_assert_eq(any_get_call(&a, RING_SINGLE, false, 0, got, 1),
			     -EAGAIN);
		cr_assert_eq(any_get_call(&a, RING_BULK, false, 0, got, 1),
			     -EAGAIN);
		cr_assert_eq(any_get_call(&a, RING_BURST, false, 0, got, 3), 0);
		for (int f = RING_SINGLE; wait && f <= RING_BURST; f++)
			cr_assert_eq(any_get_call(&a, (enum ring_op)f, true,
						  1000000, got, 1),
				     -ETIMEDOUT, "wait form %d", f);
		cr_assert_eq(any_count(&a), 3u);
		cr_assert_eq(any_get(&a, grain_ring_zc_at(&zc, 0)), 10u);
		cr_assert_eq(any_release(&a, 1), 0);
	} else {
		cr_assert_eq(any_dequeue(&a, got), 0);
		cr_assert_eq(got[0], 10u);
	}
	cr_assert_eq(any_get_call(&a, RING_BURST, false, 0, got, 8), 2,
		     "closed: dequeues work again");
	cr_assert_eq(got[0], 11u);
	cr_assert_eq(got[1], 12u);
	any_destroy(&a);
}

/* The alignment ring_elem.h promises an element: the largest power of two
 * that divides esize, 64 at most. */
static uintptr_t elem_align(unsigned esize)
{
	uintptr_t al = (uintptr_t)esize & (0u - esize);

	return al > 64 ? 64 : al;
}

TABLE_PARAMS(ring_zc, failed_opens_change_nothing, zc_cases);

/* Every error of a reserve or peek (-EAGAIN, -ENOTSUP, -EINVAL) leaves the
 * reservation argument and the ring as they were. A burst opens exactly
 * what there is; a reservation without wrap is one run (span[1] NULL),
 * and elements are aligned as promised, their array from a cache line. */
ParameterizedTest(const struct zc_case *zcc, ring_zc,
		  failed_opens_change_nothing)
{
	const unsigned cap = 8;
	struct any_ring a = any_make(zcc->elem, cap, zcc->esize, zcc->flags);
	const bool sp = zcc->flags & GRAIN_RING_SP;
	const bool sc = zcc->flags & GRAIN_RING_SC;
	struct grain_ring_zc zc, mark;
	uint32_t got;

	memset(&mark, 0xa5, sizeof(mark));
	for (unsigned i = 0; i < 5; i++)
		cr_assert_eq(any_enqueue(&a, i), 0);
	struct {
		bool peek, burst;
		unsigned n;
		int rc;
	} const calls[] = {
		{ false, false, 4, sp ? -EAGAIN : -ENOTSUP },
		{ false, false, 1, sp ? -EBUSY : -ENOTSUP },
		{ false, true, 1, sp ? -EBUSY : -ENOTSUP },
		{ false, false, cap + 1, -EINVAL },
		{ false, true, 0x80000000u, -EINVAL },
		{ true, false, 6, sc ? -EAGAIN : -ENOTSUP },
		{ true, false, 1, sc ? -EBUSY : -ENOTSUP },
		{ true, true, 1, sc ? -EBUSY : -ENOTSUP },
		{ true, false, cap + 1, -EINVAL },
		{ true, true, 0x80000000u, -EINVAL },
	};
	for (unsigned i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct grain_ring_zc open;

		/* The -EBUSY cases: a reservation or peek of 1 is open. */
		if (calls[i].rc == -EBUSY)
			cr_assert_eq(calls[i].peek
					     ? any_peek(&a, 1, false, &open)
					     : any_reserve(&a, 1, false, &open),
				     0);
		zc = mark;
		int rc = calls[i].peek
				 ? any_peek(&a, calls[i].n, calls[i].burst, &zc)
				 : any_reserve(&a, calls[i].n, calls[i].burst,
					       &zc);
		cr_assert_eq(rc, calls[i].rc, "call %u: %d", i, rc);
		cr_assert(memcmp(&zc, &mark, sizeof(zc)) == 0,
			  "call %u wrote its reservation", i);
		if (calls[i].rc == -EBUSY)
			cr_assert_eq(calls[i].peek ? any_release(&a, 0)
						   : any_commit(&a, 0),
				     0);
	}
	cr_assert_eq(any_count(&a), 5u);

	if (sp) {
		cr_assert_eq(any_reserve(&a, cap, true, &zc), 3,
			     "a burst reserves every free slot");
		cr_assert_eq(zc.n, 3u);
		cr_assert_eq(zc.len[0], 3u);
		cr_assert_eq(zc.len[1], 0u);
		cr_assert_null(zc.span[1], "no wrap: one run");
		cr_assert_eq(any_commit(&a, 0), 0);
	}
	if (sc) {
		cr_assert_eq(any_peek(&a, cap, true, &zc), 5,
			     "a burst peeks every ready slot");
		cr_assert_eq(zc.n, 5u);
		cr_assert_eq(zc.len[0], 5u);
		cr_assert_eq(zc.len[1], 0u);
		cr_assert_null(zc.span[1], "no wrap: one run");
		cr_assert_eq(any_release(&a, 0), 0);
	}
	for (unsigned i = 0; i < 5; i++) {
		cr_assert_eq(any_dequeue(&a, &got), 0);
		cr_assert_eq(got, i, "the ring's objects are in place");
	}

	/* Positions 5 .. 8: the reservation wraps to the first slot. */
	if (sp) {
		cr_assert_eq(any_reserve(&a, 4, false, &zc), 0);
	} else {
		for (unsigned i = 0; i < 4; i++)
			cr_assert_eq(any_enqueue(&a, i), 0);
		cr_assert_eq(any_peek(&a, 4, false, &zc), 0);
	}
	cr_assert_eq(zc.len[0], 3u);
	cr_assert_eq(zc.len[1], 1u);
	cr_assert_not_null(zc.span[1]);
	for (unsigned i = 0; i < 4; i++) {
		uintptr_t at = (uintptr_t)grain_ring_zc_at(&zc, i);

		cr_assert_eq(at % (a.elem ? elem_align(a.esize)
					  : _Alignof(void *)),
			     0u, "slot %u misaligned", i);
	}
	if (a.elem)
		cr_assert_eq((uintptr_t)zc.span[1] % GRAIN_CACHELINE, 0u,
			     "the element array starts a cache line");
	cr_assert_eq(sp ? any_commit(&a, 0) : any_release(&a, 4), 0);
	any_destroy(&a);
}

/* --- grain_ring_elem: creation, the _wait calls, failed calls ------------ */

Test(ring_elem, create_and_allocation_failure)
{
	struct test_alloc_state st = { .budget = 0 };
	struct grain_alloc al = { test_alloc_fn, test_free_fn, &st };
	struct grain_ring_elem *e = (struct grain_ring_elem *)(uintptr_t)1;
	alignas(8) unsigned char in[64 * 48], out[64 * 48];

	cr_assert_eq(grain_ring_elem_create(&e, 64, 48, GRAIN_RING_MPMC, &al),
		     -ENOMEM);
	cr_assert_eq((uintptr_t)e, 1u, "untouched on error");
	cr_assert_eq(st.failures, 1u);
	cr_assert_eq(st.live, 0);
	cr_assert_eq(grain_ring_elem_create(&e, 3, 48, 0, &al), -EINVAL);
	cr_assert_eq(grain_ring_elem_create(&e, 0, 48, 0, &al), -EINVAL);
	cr_assert_eq(grain_ring_elem_create(&e, 64, 6, 0, &al), -EINVAL);
	cr_assert_eq(grain_ring_elem_create(&e, 64, 48, 0x80, &al), -EINVAL);
	cr_assert_eq((uintptr_t)e, 1u, "untouched on error");
	cr_assert_eq(st.failures, 1u, "nothing allocated for bad arguments");

	st.budget = -1;
	cr_assert_eq(grain_ring_elem_create(&e, 64, 48, GRAIN_RING_MPMC, &al),
		     0);
	cr_assert_eq(st.live, 1);
	cr_assert_eq(st.live_bytes, grain_ring_elem_memsize(64, 48));
	cr_assert_eq((uintptr_t)e % GRAIN_CACHELINE, 0u);
	for (unsigned i = 0; i < 64; i++)
		fill(in + i * 48, 48, 4, i);
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk(e, in, 64), 0);
	cr_assert(grain_ring_elem_full(e));
	cr_assert_eq(grain_ring_elem_try_dequeue_bulk(e, out, 64), 0);
	cr_assert(memcmp(in, out, sizeof(in)) == 0);
	grain_ring_elem_destroy(e);
	cr_assert_eq(st.live, 0, "destroy returns the memory to the hooks");
	cr_assert_eq(st.live_bytes, 0u, "all of it");
}

/* A ring in exactly grain_ring_elem_memsize() bytes of caller memory holds
 * capacity elements (a write past the end is an AddressSanitizer error),
 * for element sizes up to GRAIN_RING_ELEM_MAX_SIZE, each aligned as
 * promised in an array that starts a cache line. */
Test(ring_elem, init_in_exactly_memsize_bytes)
{
	static const unsigned esizes[] = { 4, 12, 64, 200, 256 };
	static const unsigned caps[] = { 2, 8 };
	alignas(8) unsigned char in[8 * 256], out[8 * 256];

	for (unsigned s = 0; s < sizeof(esizes) / sizeof(esizes[0]); s++) {
		for (unsigned c = 0; c < 2; c++) {
			unsigned esize = esizes[s], cap = caps[c];
			size_t size = grain_ring_elem_memsize(cap, esize);
			struct grain_ring_elem *e =
				aligned_alloc(GRAIN_CACHELINE, size);

			cr_assert_not_null(e);
			cr_assert_eq(grain_ring_elem_init(e, cap, esize,
							  GRAIN_RING_SPSC),
				     0);
			for (unsigned i = 0; i < cap; i++)
				fill(in + i * esize, esize, 1, i);
			cr_assert_eq(grain_ring_elem_try_enqueue_burst(e, in,
								       8),
				     (int)cap);
			cr_assert(grain_ring_elem_full(e));
			cr_assert_eq(grain_ring_elem_try_dequeue_burst(e, out,
								       8),
				     (int)cap);
			cr_assert(memcmp(in, out, cap * esize) == 0);
			/* Positions cap ..: element 0 first, from a line. */
			struct grain_ring_zc zc;
			cr_assert_eq(grain_ring_elem_try_reserve_bulk(e, cap,
								      &zc),
				     0);
			cr_assert_eq((uintptr_t)zc.span[0] % GRAIN_CACHELINE,
				     0u, "esize %u: element array", esize);
			for (unsigned i = 0; i < cap; i++)
				cr_assert_eq((uintptr_t)grain_ring_zc_at(&zc,
									 i) %
						     elem_align(esize),
					     0u);
			cr_assert_eq(grain_ring_elem_commit(e, 0), 0);
			free(e);
		}
	}

	const unsigned max = GRAIN_RING_ELEM_MAX_SIZE;
	size_t size = grain_ring_elem_memsize(2, max);
	struct grain_ring_elem *e = aligned_alloc(GRAIN_CACHELINE, size);
	unsigned char *big = malloc(max), *back = malloc(max);

	cr_assert_gt(size, 2u * max, "the largest element size is accepted");
	cr_assert(e != NULL && big != NULL && back != NULL);
	cr_assert_eq(grain_ring_elem_init(e, 2, max, GRAIN_RING_MPMC), 0);
	cr_assert_eq(grain_ring_elem_esize(e), max);
	for (unsigned i = 0; i < max; i++)
		big[i] = (unsigned char)(i * 7 + i / 251);
	for (unsigned k = 0; k < 3; k++) {
		cr_assert_eq(grain_ring_elem_try_enqueue(e, big), 0);
		cr_assert_eq(grain_ring_elem_try_enqueue(e, big), 0);
		cr_assert_eq(grain_ring_elem_try_enqueue(e, big), -EAGAIN);
		memset(back, 0, max);
		cr_assert_eq(grain_ring_elem_try_dequeue(e, back), 0);
		cr_assert(memcmp(big, back, max) == 0);
		cr_assert_eq(grain_ring_elem_try_dequeue(e, back), 0);
	}
	cr_assert_eq(grain_ring_elem_init(e, 3, 8, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_init(e, 1, 8, 0), -EINVAL);
	free(back);
	free(big);
	free(e);
}

/* The six _wait calls move elements as their try_ forms do; a full or
 * empty ring makes them time out, moving nothing and writing no output;
 * a bulk of 0 returns 0 at once. */
Test(ring_elem, wait_forms, .timeout = 30)
{
	enum { ES = 24 };
	struct grain_ring_elem *e;
	alignas(8) unsigned char in[16 * ES], out[8 * ES], mark[8 * ES];

	cr_assert_eq(grain_ring_elem_create(&e, 8, ES,
					    GRAIN_RING_MPMC | GRAIN_RING_WAIT,
					    NULL),
		     0);
	for (unsigned i = 0; i < 16; i++)
		fill(in + i * ES, ES, 5, i);
	memset(mark, 0xa5, sizeof(mark));

	cr_assert_eq(grain_ring_elem_enqueue_wait(e, in, -1), 0);
	cr_assert_eq(grain_ring_elem_enqueue_bulk_wait(e, in + ES, 3, -1), 0);
	cr_assert_eq(grain_ring_elem_enqueue_burst_wait(e, in + 4 * ES, 8, 0),
		     4, "a burst takes the free slots");
	cr_assert(grain_ring_elem_full(e));
	cr_assert_eq(grain_ring_elem_enqueue_wait(e, in, 1000000), -ETIMEDOUT);
	cr_assert_eq(grain_ring_elem_enqueue_bulk_wait(e, in, 1, 0),
		     -ETIMEDOUT);
	cr_assert_eq(grain_ring_elem_enqueue_burst_wait(e, in, 2, 1000000),
		     -ETIMEDOUT);
	cr_assert_eq(grain_ring_elem_count(e), 8u);

	cr_assert_eq(grain_ring_elem_dequeue_wait(e, out, -1), 0);
	cr_assert_eq(check_elem(out, ES), (uint64_t)5 << 32 | 0);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(e, out, 3, -1), 0);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(check_elem(out + i * ES, ES),
			     (uint64_t)5 << 32 | (1 + i));
	cr_assert_eq(grain_ring_elem_dequeue_burst_wait(e, out, 8, 0), 4);
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(check_elem(out + i * ES, ES),
			     (uint64_t)5 << 32 | (4 + i));
	cr_assert(grain_ring_elem_empty(e));

	memcpy(out, mark, sizeof(out));
	cr_assert_eq(grain_ring_elem_dequeue_wait(e, out, 0), -ETIMEDOUT);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(e, out, 1, 1000000),
		     -ETIMEDOUT);
	cr_assert_eq(grain_ring_elem_dequeue_burst_wait(e, out, 2, 1000000),
		     -ETIMEDOUT);
	cr_assert_eq(grain_ring_elem_enqueue_bulk_wait(e, NULL, 0, -1), 0);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(e, NULL, 0, -1), 0);
	cr_assert_eq(grain_ring_elem_enqueue_wait(e, in + 8 * ES, 0), 0);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(e, out, 2, 1000000),
		     -ETIMEDOUT, "a bulk waits for all it wants");
	cr_assert(memcmp(out, mark, sizeof(out)) == 0,
		  "a timed-out call writes nothing");
	cr_assert_eq(grain_ring_elem_count(e), 1u);
	cr_assert_eq(grain_ring_elem_dequeue_burst_wait(e, out, 8, -1), 1);
	cr_assert_eq(check_elem(out, ES), (uint64_t)5 << 32 | 8);
	grain_ring_elem_destroy(e);
}

/* Every -EINVAL and -EAGAIN of the copy calls, the _wait forms' included
 * (a ring without GRAIN_RING_WAIT among them): no output written, the
 * elements in place and in order. */
Test(ring_elem, failed_calls_change_nothing, .timeout = 30)
{
	enum { ES = 16 };
	struct grain_ring_elem *plain, *w;
	alignas(8) unsigned char in[8 * ES], out[8 * ES], mark[8 * ES];

	cr_assert_eq(grain_ring_elem_create(&plain, 8, ES, GRAIN_RING_MPMC,
					    NULL),
		     0);
	cr_assert_eq(grain_ring_elem_create(&w, 8, ES,
					    GRAIN_RING_MPMC | GRAIN_RING_WAIT,
					    NULL),
		     0);
	for (unsigned i = 0; i < 8; i++)
		fill(in + i * ES, ES, 6, i);
	memset(mark, 0xa5, sizeof(mark));
	memcpy(out, mark, sizeof(out));
	struct grain_ring_elem *both[2] = { plain, w };
	for (unsigned k = 0; k < 2; k++) {
		struct grain_ring_elem *e = both[k];

		cr_assert_eq(grain_ring_elem_try_enqueue_bulk(e, in, 3), 0);
		cr_assert_eq(grain_ring_elem_try_enqueue_bulk(e, in, 9),
			     -EINVAL);
		cr_assert_eq(grain_ring_elem_try_enqueue_burst(e, in,
							       0x80000000u),
			     -EINVAL);
		cr_assert_eq(grain_ring_elem_try_enqueue_burst(e, NULL, 1),
			     -EINVAL);
		cr_assert_eq(grain_ring_elem_try_dequeue_bulk(e, out, 9),
			     -EINVAL);
		cr_assert_eq(grain_ring_elem_try_dequeue_bulk(e, NULL, 1),
			     -EINVAL);
		cr_assert_eq(grain_ring_elem_try_dequeue_burst(e, out,
							       0x80000000u),
			     -EINVAL);
		cr_assert_eq(grain_ring_elem_try_enqueue_bulk(e, in, 6),
			     -EAGAIN);
		cr_assert_eq(grain_ring_elem_try_dequeue_bulk(e, out, 4),
			     -EAGAIN);
	}
	cr_assert_eq(grain_ring_elem_enqueue_wait(plain, in, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_wait(plain, out, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_bulk_wait(plain, in, 1, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(plain, out, 1, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_burst_wait(plain, in, 1, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_burst_wait(plain, out, 1, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_bulk_wait(w, NULL, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_bulk_wait(w, NULL, 1, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_burst_wait(w, NULL, 1, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_burst_wait(w, NULL, 1, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_burst_wait(w, out, 0, 0), -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_burst_wait(w, in, 0x80000000u, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_dequeue_burst_wait(w, out, 0x80000000u, 0),
		     -EINVAL);
	cr_assert_eq(grain_ring_elem_enqueue_bulk_wait(w, in, 9, 0), -EINVAL);
	cr_assert(memcmp(out, mark, sizeof(out)) == 0, "no output written");

	for (unsigned k = 0; k < 2; k++) {
		struct grain_ring_elem *e = both[k];

		cr_assert_eq(grain_ring_elem_count(e), 3u);
		cr_assert_eq(grain_ring_elem_try_dequeue_burst(e, out, INT_MAX),
			     3);
		cr_assert(memcmp(in, out, 3 * ES) == 0);
		cr_assert(memcmp(out + 3 * ES, mark + 3 * ES, 5 * ES) == 0);
		memcpy(out, mark, sizeof(out));
		cr_assert_eq(grain_ring_elem_try_dequeue(e, out), -EAGAIN);
		cr_assert_eq(grain_ring_elem_try_dequeue_bulk(e, out, 1),
			     -EAGAIN);
		cr_assert_eq(grain_ring_elem_try_dequeue_burst(e, out, 8), 0);
		cr_assert(memcmp(out, mark, sizeof(out)) == 0,
			  "a failed dequeue writes nothing");
		grain_ring_elem_destroy(e);
	}
}
