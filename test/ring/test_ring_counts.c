/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_counts.c - the counting forms of the bulk and burst calls
 * (grain_ring_try_enqueue_bulk_space() and its kin, on grain_ring and
 * grain_ring_elem).
 *
 * Single thread, in every mode: the free slots or objects they report are
 * exact after every success and every failure; a NULL output pointer
 * changes nothing else; a NULL ring or bad arguments write 0 or the
 * snapshot with -EINVAL; a closed ring still reports; reserved and peeked
 * slots count as the snapshots count them; the exported copies (what C++
 * calls) report the same as the inline ones.
 *
 * Two threads, in every mode: one producer and one consumer move a
 * numbered sequence through the counting calls; every number arrives
 * exactly once and in order, and each count lies within the bounds the
 * other thread's published progress proves.
 */
#define _GNU_SOURCE /* dlsym(RTLD_DEFAULT) */
#include <grain/ring.h>
#include <grain/ring_elem.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../common/test_util.h"

#define CAP 16u

static const unsigned modes[] = { GRAIN_RING_MPMC, GRAIN_RING_SPMC,
				  GRAIN_RING_MPSC, GRAIN_RING_SPSC };

/* --- single thread: exact counts ---------------------------------------- */

static void exact_ptr(unsigned mode)
{
	struct grain_ring *r;
	void *in[2 * CAP], *out[2 * CAP];
	unsigned left = 12345;

	for (unsigned i = 0; i < 2 * CAP; i++)
		in[i] = &in[i];
	cr_assert_eq(grain_ring_create(&r, CAP, mode, NULL), 0);

	cr_assert_eq(grain_ring_try_enqueue_bulk_space(r, in, 0, &left), 0);
	cr_assert_eq(left, CAP);
	cr_assert_eq(grain_ring_try_enqueue_bulk_space(r, in, 5, &left), 0);
	cr_assert_eq(left, CAP - 5);
	/* A burst larger than the room fills it. */
	cr_assert_eq(grain_ring_try_enqueue_burst_space(r, in + 5, 2 * CAP - 5,
							&left),
		     (int)CAP - 5);
	cr_assert_eq(left, 0);
	/* Failures report too. */
	left = 12345;
	cr_assert_eq(grain_ring_try_enqueue_bulk_space(r, in, 1, &left),
		     -EAGAIN);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_try_enqueue_burst_space(r, in, 3, &left), 0);
	cr_assert_eq(left, 0);

	cr_assert_eq(grain_ring_try_dequeue_bulk_avail(r, out, 4, &left), 0);
	cr_assert_eq(left, CAP - 4);
	cr_assert_eq(grain_ring_try_enqueue_burst_space(r, in, 3, &left), 3);
	cr_assert_eq(left, 1);
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(r, out + 4, 2 * CAP - 4,
							&left),
		     (int)CAP - 1);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_try_dequeue_bulk_avail(r, out, 1, &left),
		     -EAGAIN);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(r, out, 1, &left), 0);
	cr_assert_eq(left, 0);
	/* FIFO: the first 16 in, then the 3 re-queued from in[0]. */
	for (unsigned i = 0; i < CAP; i++)
		cr_assert_eq(out[i], in[i]);
	cr_assert_eq(out[CAP], in[0]);
	cr_assert_eq(out[CAP + 2], in[2]);

	/* NULL output: the plain call's result, nothing else. */
	cr_assert_eq(grain_ring_try_enqueue_bulk_space(r, in, 2, NULL), 0);
	cr_assert_eq(grain_ring_try_enqueue_burst_space(r, in, 2, NULL), 2);
	cr_assert_eq(grain_ring_try_dequeue_bulk_avail(r, out, 1, NULL), 0);
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(r, out, 9, NULL), 3);
	cr_assert_eq(grain_ring_count(r), 0);
	grain_ring_destroy(r);
}

static void exact_elem(unsigned mode)
{
	struct grain_ring_elem *r;
	uint32_t in[2 * CAP][3], out[2 * CAP][3];
	unsigned left = 12345;

	for (unsigned i = 0; i < 2 * CAP; i++)
		for (unsigned w = 0; w < 3; w++)
			in[i][w] = i * 3 + w;
	cr_assert_eq(grain_ring_elem_create(&r, CAP, sizeof(in[0]), mode, NULL),
		     0);
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk_space(r, in, 0, &left),
		     0);
	cr_assert_eq(left, CAP);
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk_space(r, in, 6, &left),
		     0);
	cr_assert_eq(left, CAP - 6);
	cr_assert_eq(grain_ring_elem_try_enqueue_burst_space(
			     r, in + 6, 2 * CAP - 6, &left),
		     (int)CAP - 6);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk_space(r, in, 1, &left),
		     -EAGAIN);
	cr_assert_eq(left, 0);
	cr_assert_eq(grain_ring_elem_try_dequeue_bulk_avail(r, out, 5, &left),
		     0);
	cr_assert_eq(left, CAP - 5);
	cr_assert_eq(grain_ring_elem_try_dequeue_burst_avail(
			     r, out + 5, 2 * CAP - 5, &left),
		     (int)CAP - 5);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_elem_try_dequeue_bulk_avail(r, out, 1, &left),
		     -EAGAIN);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_elem_try_dequeue_burst_avail(r, out, 1, &left),
		     0);
	cr_assert_eq(left, 0);
	cr_assert_eq(memcmp(in, out, CAP * sizeof(in[0])), 0);
	cr_assert_eq(grain_ring_elem_try_enqueue_burst_space(r, in, 2, NULL),
		     2);
	cr_assert_eq(grain_ring_elem_try_dequeue_burst_avail(r, out, 9, NULL),
		     2);
	grain_ring_elem_destroy(r);
}

Test(counts, exact_every_mode)
{
	for (unsigned m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		exact_ptr(modes[m]);
		exact_elem(modes[m]);
	}
}

/* A NULL ring writes 0; bad arguments write the snapshot; both -EINVAL. */
Test(counts, null_and_bad_arguments)
{
	struct grain_ring *r;
	struct grain_ring_elem *e;
	void *objs[4] = { NULL, NULL, NULL, NULL };
	unsigned left = 12345;

	cr_assert_eq(grain_ring_try_enqueue_bulk_space(NULL, objs, 1, &left),
		     -EINVAL);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_try_enqueue_burst_space(NULL, objs, 1, &left),
		     -EINVAL);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_try_dequeue_bulk_avail(NULL, objs, 1, &left),
		     -EINVAL);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(NULL, objs, 1, &left),
		     -EINVAL);
	cr_assert_eq(left, 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk_space(NULL, objs, 1, NULL),
		     -EINVAL);
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(NULL, objs, 1, NULL),
		     -EINVAL);
	left = 12345;
	cr_assert_eq(grain_ring_elem_try_enqueue_bulk_space(NULL, objs, 1,
							    &left),
		     -EINVAL);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_elem_try_enqueue_burst_space(NULL, objs, 1,
							     &left),
		     -EINVAL);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_elem_try_dequeue_bulk_avail(NULL, objs, 1,
							    &left),
		     -EINVAL);
	cr_assert_eq(left, 0);
	left = 12345;
	cr_assert_eq(grain_ring_elem_try_dequeue_burst_avail(NULL, objs, 1,
							     &left),
		     -EINVAL);
	cr_assert_eq(left, 0);

	cr_assert_eq(grain_ring_create(&r, CAP, GRAIN_RING_MPMC, NULL), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 3), 0);
	/* NULL objects with n > 0, or a bulk over the capacity. */
	cr_assert_eq(grain_ring_try_enqueue_bulk_space(r, NULL, 1, &left),
		     -EINVAL);
	cr_assert_eq(left, CAP - 3);
	cr_assert_eq(grain_ring_try_dequeue_bulk_avail(r, objs, CAP + 1, &left),
		     -EINVAL);
	cr_assert_eq(left, 3);
	grain_ring_destroy(r);

	cr_assert_eq(grain_ring_elem_create(&e, CAP, 8, GRAIN_RING_MPMC, NULL),
		     0);
	cr_assert_eq(grain_ring_elem_try_enqueue_burst_space(e, NULL, 1, &left),
		     -EINVAL);
	cr_assert_eq(left, CAP);
	cr_assert_eq(grain_ring_elem_try_dequeue_burst_avail(e, NULL, 1, &left),
		     -EINVAL);
	cr_assert_eq(left, 0);
	grain_ring_elem_destroy(e);
}

/* A closed ring: -EPIPE, and the counts still come. */
Test(counts, closed)
{
	struct grain_ring *r;
	void *objs[4] = { NULL, NULL, NULL, NULL };
	unsigned left = 12345;

	cr_assert_eq(grain_ring_create(&r, CAP, GRAIN_RING_MPMC, NULL), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 3), 0);
	cr_assert_eq(grain_ring_close(r), 0);
	cr_assert_eq(grain_ring_try_enqueue_burst_space(r, objs, 1, &left),
		     -EPIPE);
	cr_assert_eq(left, CAP - 3);
	cr_assert_eq(grain_ring_try_dequeue_bulk_avail(r, objs, 4, &left),
		     -EPIPE);
	cr_assert_eq(left, 3);
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(r, objs, 4, &left), 3);
	cr_assert_eq(left, 0);
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(r, objs, 4, &left),
		     -EPIPE);
	cr_assert_eq(left, 0);
	grain_ring_destroy(r);
}

/* Reserved slots count as free and peeked ones as used until the commit
 * or the free, as in the snapshots. */
Test(counts, zero_copy_open)
{
	struct grain_ring *r;
	struct grain_ring_zc zc;
	void *objs[4] = { NULL, NULL, NULL, NULL };
	unsigned left = 12345;

	cr_assert_eq(grain_ring_create(&r, CAP, GRAIN_RING_SPSC, NULL), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 4), 0);
	cr_assert_eq(grain_ring_try_reserve_bulk(r, 2, &zc), 0);
	/* The producer's copies move nothing while its reservation is
	 * open, and the reserved slots read as free. */
	cr_assert_eq(grain_ring_try_enqueue_burst_space(r, objs, 1, &left), 0);
	cr_assert_eq(left, CAP - 4);
	cr_assert_eq(grain_ring_commit(r, 2), 0);
	cr_assert_eq(grain_ring_try_peek_bulk(r, 3, &zc), 0);
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(r, objs, 1, &left), 0);
	cr_assert_eq(left, 6);
	cr_assert_eq(grain_ring_release(r, 3), 0);
	cr_assert_eq(grain_ring_try_dequeue_burst_avail(r, objs, 1, &left), 1);
	cr_assert_eq(left, 2);
	grain_ring_destroy(r);
}

/* The exported copies (C++ and other languages call them) count alike. */
Test(counts, exported_copies)
{
	typedef int (*ring_fn)(struct grain_ring *, void **, unsigned,
			       unsigned *);
	typedef int (*elem_fn)(struct grain_ring_elem *, void *, unsigned,
			       unsigned *);
	static const char *const ring_names[] = {
		"grain_ring_try_enqueue_bulk_space",
		"grain_ring_try_enqueue_burst_space",
		"grain_ring_try_dequeue_bulk_avail",
		"grain_ring_try_dequeue_burst_avail",
	};
	static const char *const elem_names[] = {
		"grain_ring_elem_try_enqueue_bulk_space",
		"grain_ring_elem_try_enqueue_burst_space",
		"grain_ring_elem_try_dequeue_bulk_avail",
		"grain_ring_elem_try_dequeue_burst_avail",
	};
	/* For each call in order: its result and count on a ring of CAP
	 * slots that starts empty, moving 3 at a time. */
	static const int rc[] = { 0, 3, 0, 3 };
	static const unsigned want[] = { CAP - 3, CAP - 6, 3, 0 };
	struct grain_ring *r;
	struct grain_ring_elem *e;
	void *objs[3] = { NULL, NULL, NULL };
	uint64_t elems[3] = { 0, 0, 0 };
	unsigned left;

	cr_assert_eq(grain_ring_create(&r, CAP, GRAIN_RING_MPMC, NULL), 0);
	cr_assert_eq(grain_ring_elem_create(&e, CAP, 8, GRAIN_RING_MPMC, NULL),
		     0);
	for (unsigned i = 0; i < 4; i++) {
		ring_fn f;
		elem_fn g;
		void *sym = dlsym(RTLD_DEFAULT, ring_names[i]);

		cr_assert_not_null(sym, "%s not exported", ring_names[i]);
		memcpy(&f, &sym, sizeof(f));
		sym = dlsym(RTLD_DEFAULT, elem_names[i]);
		cr_assert_not_null(sym, "%s not exported", elem_names[i]);
		memcpy(&g, &sym, sizeof(g));
		left = 12345;
		cr_assert_eq(f(r, objs, 3, &left), rc[i], "%s", ring_names[i]);
		cr_assert_eq(left, want[i], "%s", ring_names[i]);
		left = 12345;
		cr_assert_eq(g(e, elems, 3, &left), rc[i], "%s", elem_names[i]);
		cr_assert_eq(left, want[i], "%s", elem_names[i]);
		cr_assert_eq(f(NULL, objs, 3, &left), -EINVAL);
		cr_assert_eq(left, 0);
		cr_assert_eq(g(e, elems, 0, NULL), 0);
	}
	grain_ring_elem_destroy(e);
	grain_ring_destroy(r);
}

/* --- two threads: bounds ------------------------------------------------- */

#define BATCH 5u

struct pair {
	struct grain_ring *ring;
	unsigned total;
	/* How many each side has moved, stored (release) after the call that
	 * moved them returned. */
	_Atomic unsigned produced, consumed;
	atomic_bool failed;
	char why[160];
};

static void fail(struct pair *p, const char *what, unsigned got, unsigned lo,
		 unsigned hi)
{
	if (!atomic_exchange(&p->failed, true))
		snprintf(p->why, sizeof(p->why), "%s: %u not in [%u, %u]", what,
			 got, lo, hi);
}

/* The producer's count after a call: the consumer had taken at least c
 * (read before the call) and at most all e produced, so the free slots
 * are in [CAP - (e - c), CAP]. */
static void *producer(void *arg)
{
	struct pair *p = arg;
	void *objs[BATCH];
	unsigned e = 0, left;

	while (e < p->total && !atomic_load(&p->failed)) {
		unsigned c = atomic_load_explicit(&p->consumed,
						  memory_order_acquire);
		unsigned n = p->total - e < BATCH ? p->total - e : BATCH;
		int k;

		for (unsigned i = 0; i < n; i++)
			objs[i] = (void *)(uintptr_t)(e + i + 1);
		if (e % 2)
			k = grain_ring_try_enqueue_bulk_space(p->ring, objs, n,
							      &left) == 0
				    ? (int)n
				    : 0;
		else
			k = grain_ring_try_enqueue_burst_space(p->ring, objs, n,
							       &left);
		if (k < 0) {
			fail(p, "enqueue error", (unsigned)-k, 0, 0);
			break;
		}
		e += (unsigned)k;
		atomic_store_explicit(&p->produced, e, memory_order_release);
		unsigned lo = e - c >= CAP ? 0 : CAP - (e - c);
		if (left > CAP || left < lo)
			fail(p, "free_space", left, lo, CAP);
	}
	return NULL;
}

/* The consumer's count after a call: the producer had made at least q
 * (read before the call), so at least q - d objects are left, and never
 * more than the capacity. */
static void *consumer(void *arg)
{
	struct pair *p = arg;
	void *objs[BATCH];
	unsigned d = 0, left;

	while (d < p->total && !atomic_load(&p->failed)) {
		unsigned q = atomic_load_explicit(&p->produced,
						  memory_order_acquire);
		unsigned n = p->total - d < BATCH ? p->total - d : BATCH;
		int k;

		if (d % 2)
			k = grain_ring_try_dequeue_bulk_avail(p->ring, objs, n,
							      &left) == 0
				    ? (int)n
				    : 0;
		else
			k = grain_ring_try_dequeue_burst_avail(p->ring, objs, n,
							       &left);
		if (k < 0) {
			fail(p, "dequeue error", (unsigned)-k, 0, 0);
			break;
		}
		for (int i = 0; i < k; i++) {
			unsigned got = (unsigned)(uintptr_t)objs[i];
			unsigned want = d + (unsigned)i + 1;

			if (got != want)
				fail(p, "object", got, want, want);
		}
		d += (unsigned)k;
		atomic_store_explicit(&p->consumed, d, memory_order_release);
		unsigned lo = q > d ? q - d : 0;
		if (lo > CAP)
			lo = CAP;
		if (left > CAP || left < lo)
			fail(p, "available", left, lo, CAP);
	}
	return NULL;
}

ParameterizedTestParameters(counts, two_threads)
{
	return cr_make_param_array(unsigned, (void *)modes,
				   sizeof(modes) / sizeof(modes[0]));
}

ParameterizedTest(unsigned *mode, counts, two_threads, .timeout = 120)
{
	struct pair p = { .total = test_scale(200000) };
	pthread_t t[2];

	cr_assert_eq(grain_ring_create(&p.ring, CAP, *mode, NULL), 0);
	cr_assert_eq(pthread_create(&t[0], NULL, producer, &p), 0);
	cr_assert_eq(pthread_create(&t[1], NULL, consumer, &p), 0);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	cr_assert(!atomic_load(&p.failed), "mode %u: %s", *mode, p.why);
	cr_assert_eq(atomic_load(&p.consumed), p.total);
	cr_assert_eq(grain_ring_count(p.ring), 0);
	grain_ring_destroy(p.ring);
}
