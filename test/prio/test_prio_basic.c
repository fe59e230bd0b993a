/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_prio_basic.c - grain_prio single-thread semantics: strict order
 * across bands, FIFO within a band, priomap and TOS/DSCP helpers, drops,
 * statistics, weighted shares, blocking timeouts and bad arguments.
 */
#define _GNU_SOURCE
#include <grain/prio.h>

#include <criterion/criterion.h>
#include <pthread.h>

#include "../common/test_util.h"

static struct grain_prio *make(unsigned bands, unsigned cap, unsigned flags)
{
	struct grain_prio_config cfg = { .bands = bands,
					 .capacity = cap,
					 .flags = flags };
	struct grain_prio *p = NULL;

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	return p;
}

static void *tok(unsigned band, unsigned seq)
{
	return (void *)(uintptr_t)(band << 24 | seq);
}

/* Bands 0..2 of a queue of qbands bands (scanned, or with the bits). */
static void strict_order_and_fifo_in(unsigned qbands)
{
	struct grain_prio *p = make(qbands, 64, 0);
	void *o;
	unsigned band;

	/* Interleave: band 2, 1, 0, 2, 1, 0, ... */
	for (unsigned i = 0; i < 30; i++) {
		unsigned b = 2 - i % 3;
		cr_assert_eq(grain_prio_try_enqueue(p, b, tok(b, i / 3)), 0);
	}
	cr_assert_eq(grain_prio_backlog(p), 30u);
	for (unsigned b = 0; b < 3; b++)
		for (unsigned s = 0; s < 10; s++) {
			cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
			cr_assert_eq(band, b, "highest band first");
			cr_assert_eq(o, tok(b, s), "FIFO within a band");
		}
	cr_assert_eq(grain_prio_try_dequeue(p, &o, NULL), -EAGAIN);
	/* Scanned: no bit is ever written; with the bits: a call that finds
	 * nothing leaves none set. */
	cr_assert_eq(atomic_load(&p->nonempty), 0u, "%u bands: bits left %#llx",
		     qbands, (unsigned long long)atomic_load(&p->nonempty));

	/* A higher band that fills up later overtakes a lower one. */
	cr_assert_eq(grain_prio_try_enqueue(p, 2, tok(2, 0)), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 2, tok(2, 1)), 0);
	cr_assert_eq(grain_prio_try_dequeue(p, &o, NULL), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 0, NULL), 0);
	cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
	cr_assert_eq(band, 0u);
	cr_assert_null(o, "NULL objects travel");
	cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
	cr_assert_eq(o, tok(2, 1));
	grain_prio_destroy(p);
}

Test(prio_basic, strict_order_and_fifo)
{
	strict_order_and_fifo_in(3);
	strict_order_and_fifo_in(GRAIN_PRIO_SCAN_BANDS);
	strict_order_and_fifo_in(GRAIN_PRIO_SCAN_BANDS + 1);
	strict_order_and_fifo_in(GRAIN_PRIO_MAX_BANDS);
}

/* Bands 0..3 of a queue of qbands bands. */
static void burst_across_bands_in(unsigned qbands)
{
	struct grain_prio *p = make(qbands, 16, GRAIN_PRIO_SC);
	void *objs[16];

	for (unsigned s = 0; s < 3; s++)
		for (unsigned b = 0; b < 4; b++)
			cr_assert_eq(grain_prio_try_enqueue(p, 3 - b,
							    tok(3 - b, s)),
				     0);
	cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, 5), 5);
	cr_assert_eq(objs[0], tok(0, 0));
	cr_assert_eq(objs[2], tok(0, 2));
	cr_assert_eq(objs[3], tok(1, 0));
	cr_assert_eq(objs[4], tok(1, 1));
	cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, 16), 7);
	cr_assert_eq(objs[0], tok(1, 2));
	cr_assert_eq(objs[6], tok(3, 2));
	cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, 16), 0);
	cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, 0), 0);
	grain_prio_destroy(p);
}

Test(prio_basic, burst_across_bands)
{
	burst_across_bands_in(4);
	burst_across_bands_in(9);
}

/*
 * A single dequeuer's every take must free its slots for the band's
 * producers, or a band would refuse objects once it had given a
 * capacity's worth. Many laps of a small band, in takes of sizes that
 * straddle the end of the slot array: each lap fills the band to exactly
 * its capacity (the next enqueue is refused), and the takes return the
 * lap's objects in order.
 */
static void sc_laps_in(unsigned qbands, unsigned flags)
{
	enum { CAP = 8, LAPS = 40 };
	struct grain_prio *p = make(qbands, CAP, GRAIN_PRIO_SC | flags);
	const unsigned b = 1;
	unsigned seq = 0, want = 0;
	void *objs[CAP];

	for (unsigned lap = 0; lap < LAPS; lap++) {
		while (grain_prio_try_enqueue(p, b, tok(b, seq)) == 0)
			seq++;
		cr_assert_eq(grain_prio_backlog(p), (unsigned)CAP,
			     "lap %u: the band takes exactly its capacity",
			     lap);
		unsigned left = CAP;
		for (unsigned step = lap % 3 + 1; left != 0;
		     step = step % 5 + 1) {
			unsigned n = step < left ? step : left;
			cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, n),
				     (int)n);
			for (unsigned i = 0; i < n; i++)
				cr_assert_eq(objs[i], tok(b, want++),
					     "lap %u: FIFO across the wrap",
					     lap);
			left -= n;
		}
		cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, CAP), 0);
	}
	struct grain_prio_band_stats st;
	cr_assert_eq(grain_prio_stats(p, b, &st), 0);
	cr_assert_eq(st.enqueued, (uint64_t)CAP * LAPS);
	cr_assert_eq(st.dequeued, (uint64_t)CAP * LAPS);
	cr_assert_eq(st.dropped, (uint64_t)LAPS, "one refusal per lap");
	cr_assert_eq(st.backlog, 0u);
	grain_prio_destroy(p);
}

Test(prio_basic, single_dequeuer_laps)
{
	sc_laps_in(3, 0);
	sc_laps_in(GRAIN_PRIO_SCAN_BANDS + 1, 0);
	sc_laps_in(3, GRAIN_PRIO_WEIGHTED);
	sc_laps_in(GRAIN_PRIO_SCAN_BANDS + 1, GRAIN_PRIO_WEIGHTED);
}

Test(prio_basic, priomap)
{
	static const uint8_t expect[16] = { 1, 2, 2, 2, 1, 2, 0, 0,
					    1, 1, 1, 1, 1, 1, 1, 1 };
	struct grain_prio *p = make(3, 32, 0);
	void *o;
	unsigned band;

	for (unsigned prio = 0; prio < 16; prio++) {
		cr_assert_eq(grain_prio_default_priomap[prio], expect[prio]);
		cr_assert_eq(grain_prio_try_enqueue_prio(p, prio, tok(0, prio)),
			     0);
		cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
		cr_assert_eq(band, expect[prio], "priority %u", prio);
	}
	cr_assert_eq(grain_prio_try_enqueue_prio(p, 16, NULL), -EINVAL);
	grain_prio_destroy(p);

	/* A custom map, and a map that names a missing band is refused. */
	uint8_t map[16];
	for (unsigned i = 0; i < 16; i++)
		map[i] = (uint8_t)(i / 2);
	struct grain_prio_config cfg = { .bands = 8,
					 .capacity = 4,
					 .priomap = map };
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	cr_assert_eq(grain_prio_try_enqueue_prio(p, 15, NULL), 0);
	cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
	cr_assert_eq(band, 7u);
	grain_prio_destroy(p);
	cfg.bands = 7;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u);
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), -EINVAL);
}

Test(prio_basic, tos_and_dscp)
{
	cr_assert_eq(grain_prio_tos_to_priority(0x00), 0u);
	cr_assert_eq(grain_prio_tos_to_priority(0x10), 6u, "low delay");
	cr_assert_eq(grain_prio_tos_to_priority(0x08), 2u, "throughput");
	cr_assert_eq(grain_prio_tos_to_priority(0x18), 4u, "both");
	cr_assert_eq(grain_prio_tos_to_priority(0x04), 0u, "reliability");
	cr_assert_eq(grain_prio_tos_to_priority(0x02), 0u, "cost");
	cr_assert_eq(grain_prio_tos_to_priority(0x13), 6u, "ECN bits ignored");
	cr_assert_eq(grain_prio_dscp_to_priority(46), 6u, "EF");
	cr_assert_eq(grain_prio_dscp_to_priority(48), 7u, "CS6");
	cr_assert_eq(grain_prio_dscp_to_priority(56), 7u, "CS7");
	cr_assert_eq(grain_prio_dscp_to_priority(34), 6u, "AF41");
	cr_assert_eq(grain_prio_dscp_to_priority(26), 4u, "AF31");
	cr_assert_eq(grain_prio_dscp_to_priority(18), 4u, "AF21");
	cr_assert_eq(grain_prio_dscp_to_priority(10), 2u, "AF11");
	cr_assert_eq(grain_prio_dscp_to_priority(8), 2u, "CS1");
	cr_assert_eq(grain_prio_dscp_to_priority(1), 2u, "LE");
	cr_assert_eq(grain_prio_dscp_to_priority(0), 0u, "default");
	cr_assert_eq(grain_prio_dscp_to_priority(63), 0u, "unassigned");
	/* IPv6 traffic class: DSCP in the upper six bits, ECN below. */
	cr_assert_eq(grain_prio_tclass_to_priority(46 << 2 | 1), 6u);
	cr_assert_eq(grain_prio_tclass_to_priority(0xb8), 6u);
	/* Through the default map: EF to band 0, CS1 to band 2. */
	cr_assert_eq(
		grain_prio_default_priomap[grain_prio_dscp_to_priority(46)], 0);
	cr_assert_eq(grain_prio_default_priomap[grain_prio_dscp_to_priority(8)],
		     2);
	cr_assert_eq(grain_prio_default_priomap[grain_prio_dscp_to_priority(0)],
		     1);
}

Test(prio_basic, drops_and_stats)
{
	unsigned caps[3] = { 2, 4, 8 };
	struct grain_prio_config cfg = { .bands = 3, .capacities = caps };
	struct grain_prio *p = NULL;
	struct grain_prio_band_stats st;
	void *objs[10] = { 0 }, *o;

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	for (unsigned i = 0; i < 6; i++)
		cr_assert_eq(grain_prio_try_enqueue(p, 0, NULL),
			     i < 2 ? 0 : -EAGAIN,
			     "tail drop once the band is full");
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 1, objs, 10), 4);
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 2, objs, 3), 3);
	cr_assert_eq(grain_prio_stats(p, 0, &st), 0);
	cr_assert(st.enqueued == 2 && st.dropped == 4 && st.backlog == 2 &&
		  st.dequeued == 0);
	cr_assert_eq(grain_prio_stats(p, 1, &st), 0);
	cr_assert(st.enqueued == 4 && st.dropped == 6 && st.backlog == 4);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(grain_prio_try_dequeue(p, &o, NULL), 0);
	cr_assert_eq(grain_prio_stats(p, 0, &st), 0);
	cr_assert(st.dequeued == 2 && st.backlog == 0);
	cr_assert_eq(grain_prio_stats(p, 1, &st), 0);
	cr_assert(st.dequeued == 1 && st.backlog == 3);
	cr_assert_eq(st.enqueued, st.dequeued + st.backlog);
	cr_assert_eq(grain_prio_backlog(p), 6u);
	cr_assert_eq(grain_prio_stats(p, 3, &st), -EINVAL);
	grain_prio_destroy(p);
}

/* Keeps every band backlogged and counts what a long run hands out. */
static void shares(unsigned flags, const unsigned *w, unsigned bands,
		   unsigned total, unsigned *out)
{
	struct grain_prio_config cfg = { .bands = bands,
					 .capacity = 64,
					 .weights = w,
					 .flags = flags | GRAIN_PRIO_WEIGHTED };
	struct grain_prio *p = NULL;
	void *o;
	unsigned band;

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	for (unsigned b = 0; b < bands; b++) {
		out[b] = 0;
		for (unsigned i = 0; i < 32; i++)
			cr_assert_eq(grain_prio_try_enqueue(p, b, NULL), 0);
	}
	for (unsigned i = 0; i < total; i++) {
		cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
		out[band]++;
		cr_assert_eq(grain_prio_try_enqueue(p, band, NULL), 0,
			     "refill");
	}
	grain_prio_destroy(p);
}

Test(prio_basic, weighted_shares)
{
	static const unsigned w[3] = { 4, 2, 1 };
	unsigned got[3];
	const unsigned total = 70000;

	/* Stated guarantee: a backlogged band gets weights[b] of every
	 * round; over a long run the share is within 0.1% of w / sum(w). */
	for (unsigned sc = 0; sc < 2; sc++) {
		shares(sc ? GRAIN_PRIO_SC : 0, w, 3, total, got);
		for (unsigned b = 0; b < 3; b++) {
			double share = (double)got[b] / total;
			double want = (double)w[b] / 7.0;
			cr_assert(share > want - 0.001 && share < want + 0.001,
				  "band %u: share %.4f, want %.4f", b, share,
				  want);
		}
	}
}

Test(prio_basic, weighted_no_starvation_and_idle_bands)
{
	/* Band 1 is empty: bands 0 and 2 split 8:1, and band 2 is served
	 * even though band 0 never runs dry. */
	struct grain_prio_config cfg = { .bands = 3,
					 .capacity = 64,
					 .weights =
						 (const unsigned[]){ 8, 5, 1 },
					 .flags = GRAIN_PRIO_WEIGHTED };
	struct grain_prio *p = NULL;
	unsigned got[3] = { 0 }, band;
	void *o;

	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	for (unsigned i = 0; i < 40; i++) {
		cr_assert_eq(grain_prio_try_enqueue(p, 0, NULL), 0);
		cr_assert_eq(grain_prio_try_enqueue(p, 2, NULL), 0);
	}
	for (unsigned i = 0; i < 900; i++) {
		cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
		got[band]++;
		cr_assert_eq(grain_prio_try_enqueue(p, band, NULL), 0);
	}
	cr_assert_eq(got[1], 0u);
	cr_assert_eq(got[0], 800u);
	cr_assert_eq(got[2], 100u);
	grain_prio_destroy(p);
}

Test(prio_basic, bad_arguments)
{
	struct grain_prio_config cfg = { .bands = 3, .capacity = 8 };
	struct grain_prio *p = (struct grain_prio *)(uintptr_t)1;
	void *o;
	unsigned band;

	cr_assert_eq(grain_prio_memsize(NULL), 0u);
	cfg.bands = 0;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u);
	cfg.bands = 65;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u);
	cfg.bands = 3;
	cfg.capacity = 6;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u, "not a power of two");
	cfg.capacity = 8;
	cfg.flags = 0x80;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u, "unknown flag");
	cfg.flags = GRAIN_PRIO_WEIGHTED;
	cfg.weights = (const unsigned[]){ 1, 0, 1 };
	cr_assert_eq(grain_prio_memsize(&cfg), 0u, "weight 0");
	cfg.weights = NULL;
	cr_assert_eq(grain_prio_create(&p, NULL, NULL), -EINVAL);
	cr_assert_eq(grain_prio_create(NULL, &cfg, NULL), -EINVAL);
	cr_assert_eq((uintptr_t)p, 1u, "untouched on error");
	cr_assert_eq(grain_prio_init(NULL, &cfg), -EINVAL);

	cfg.bands = 1; /* one band is valid: a plain FIFO */
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	cr_assert_eq(grain_prio_bands(p), 1u);
	cr_assert_eq(grain_prio_try_enqueue(p, 1, NULL), -EINVAL);
	cr_assert_eq(grain_prio_try_enqueue(NULL, 0, NULL), -EINVAL);
	cr_assert_eq(grain_prio_try_enqueue_prio(p, 6, NULL), 0,
		     "the default map folds into the only band");
	cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
	cr_assert_eq(band, 0u);
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 0, NULL, 1), -EINVAL);
	cr_assert_eq(grain_prio_try_dequeue(p, NULL, NULL), -EINVAL);
	cr_assert_eq(grain_prio_try_dequeue(NULL, &o, NULL), -EINVAL);
	cr_assert_eq(grain_prio_try_dequeue_burst(p, NULL, 2), -EINVAL);
	cr_assert_eq(grain_prio_dequeue_wait(p, &o, NULL, 0), -EINVAL,
		     "no WAIT flag");
	cr_assert_eq(grain_prio_stats(p, 0, NULL), -EINVAL);
	cr_assert_eq(grain_prio_backlog(p), 0u);
	grain_prio_destroy(p);
	grain_prio_destroy(NULL);
}

Test(prio_basic, one_band_with_custom_map_and_caller_memory)
{
	uint8_t map[16] = { 0 };
	struct grain_prio_config cfg = { .bands = 1,
					 .capacity = 4,
					 .priomap = map };
	size_t size = grain_prio_memsize(&cfg);
	cr_assert_gt(size, 0u);
	struct grain_prio *p =
		aligned_alloc(GRAIN_CACHELINE, (size + 63) & ~(size_t)63);
	void *o;

	cr_assert_eq(grain_prio_init(p, &cfg), 0);
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(grain_prio_try_enqueue_prio(p, i, tok(0, i)), 0);
	cr_assert_eq(grain_prio_try_enqueue_prio(p, 9, NULL), -EAGAIN);
	for (unsigned i = 0; i < 4; i++) {
		cr_assert_eq(grain_prio_try_dequeue(p, &o, NULL), 0);
		cr_assert_eq(o, tok(0, i));
	}
	grain_prio_destroy(p); /* init'ed, not created: leaves the memory */
	free(p);
}

Test(prio_basic, allocation_failure)
{
	struct test_alloc_state st = { .budget = 0 };
	struct grain_alloc a = { test_alloc_fn, test_free_fn, &st };
	struct grain_prio_config cfg = { .bands = 3, .capacity = 128 };
	struct grain_prio *p = NULL;

	cr_assert_eq(grain_prio_create(&p, &cfg, &a), -ENOMEM);
	cr_assert_null(p);
	cr_assert_eq(st.live, 0);
	st.budget = -1;
	cr_assert_eq(grain_prio_create(&p, &cfg, &a), 0);
	cr_assert_eq(st.live_bytes, grain_prio_memsize(&cfg));
	grain_prio_destroy(p);
	cr_assert_eq(st.live, 0);
}

Test(prio_basic, wait_timeout)
{
	struct grain_prio *p = make(3, 8, GRAIN_PRIO_WAIT);
	void *o, *objs[4];

	int64_t t0 = test_now_ns();
	cr_assert_eq(grain_prio_dequeue_wait(p, &o, NULL, 10000000),
		     -ETIMEDOUT);
	cr_assert_geq(test_now_ns() - t0, 10000000);
	cr_assert_eq(grain_prio_dequeue_burst_wait(p, objs, 4, 0), -ETIMEDOUT);
	cr_assert_eq(grain_prio_dequeue_burst_wait(p, objs, 0, 0), -EINVAL);
	cr_assert_eq(grain_prio_try_enqueue(p, 2, tok(2, 0)), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 1, tok(1, 0)), 0);
	cr_assert_eq(grain_prio_dequeue_burst_wait(p, objs, 4, -1), 2);
	cr_assert_eq(objs[0], tok(1, 0));
	grain_prio_destroy(p);
}

struct waiter {
	struct grain_prio *p;
	void *obj;
	unsigned band;
	int rc;
};

static void *wait_one(void *arg)
{
	struct waiter *w = arg;

	w->rc = grain_prio_dequeue_wait(w->p, &w->obj, &w->band,
					30LL * 1000000000);
	return NULL;
}

Test(prio_basic, sleepers_wake_on_any_band, .timeout = 60)
{
	enum { K = 3 };
	struct grain_prio *p = make(3, 8, GRAIN_PRIO_WAIT);
	struct waiter w[K];
	pthread_t t[K];

	for (unsigned i = 0; i < K; i++) {
		w[i] = (struct waiter){ .p = p, .rc = -1 };
		cr_assert_eq(pthread_create(&t[i], NULL, wait_one, &w[i]), 0);
	}
	for (int i = 0; i < 5000 && atomic_load(&p->sleepers.waiters) < K;
	     i++) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	for (unsigned i = 0; i < K; i++)
		cr_assert_eq(grain_prio_try_enqueue(p, i, tok(i, 0)), 0);
	unsigned seen = 0;
	for (unsigned i = 0; i < K; i++) {
		pthread_join(t[i], NULL);
		cr_assert_eq(w[i].rc, 0);
		cr_assert_eq(w[i].obj, tok(w[i].band, 0));
		seen |= 1u << w[i].band;
	}
	cr_assert_eq(seen, 7u, "each object went to exactly one sleeper");
	cr_assert_eq(grain_prio_backlog(p), 0u);
	grain_prio_destroy(p);
}
