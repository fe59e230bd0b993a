/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_prio_basic.c - grain_prio single-thread semantics: strict order
 * across bands, FIFO within a band, priomap and TOS/DSCP helpers, drops,
 * statistics, weighted shares and round order, blocking timeouts, bad
 * arguments and configurations, and refused calls that change nothing.
 */
#define _GNU_SOURCE
#include <grain/prio.h>

#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "../common/test_util.h"
#include "../common/test_threads.h"

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

/* Without a priomap, pfifo_fast's map; with fewer than its 3 bands, what
 * it maps beyond the last band goes to the last band. */
Test(prio_basic, default_priomap_folds_into_last_band)
{
	for (unsigned bands = 1; bands <= GRAIN_PRIO_SCAN_BANDS + 2; bands++) {
		struct grain_prio *p = make(bands, 32, 0);
		void *o;
		unsigned band;

		for (unsigned prio = 0; prio < GRAIN_PRIO_PRIORITIES; prio++) {
			unsigned want = grain_prio_default_priomap[prio];
			if (want >= bands)
				want = bands - 1;
			cr_assert_eq(grain_prio_try_enqueue_prio(
					     p, prio, tok(want, prio)),
				     0, "%u bands, priority %u", bands, prio);
			cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
			cr_assert_eq(band, want, "%u bands, priority %u", bands,
				     prio);
			cr_assert_eq(o, tok(want, prio));
		}
		grain_prio_destroy(p);
	}
}

/* The configuration, and the arrays it points to, are copied: changing
 * them after create changes nothing in the queue. */
Test(prio_basic, configuration_is_copied)
{
	unsigned caps[3] = { 2, 4, 4 }, w[3] = { 2, 1, 1 };
	uint8_t map[16];
	struct grain_prio_config cfg = { .bands = 3,
					 .capacities = caps,
					 .weights = w,
					 .priomap = map,
					 .flags = GRAIN_PRIO_WEIGHTED };
	struct grain_prio *p = NULL;
	void *o;
	unsigned band;

	for (unsigned i = 0; i < 16; i++)
		map[i] = i == 0 ? 0 : 2;
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	cfg.bands = 1;
	cfg.capacity = 64;
	cfg.flags = 0;
	for (unsigned b = 0; b < 3; b++) {
		caps[b] = 64;
		w[b] = b == 2 ? 9 : 1;
	}
	memset(map, 1, sizeof(map));

	cr_assert_eq(grain_prio_bands(p), 3u);
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(grain_prio_try_enqueue_prio(p, 0, tok(0, i)),
			     i < 2 ? 0 : -EAGAIN, "priority 0: band 0, of 2");
	for (unsigned i = 0; i < 5; i++)
		cr_assert_eq(grain_prio_try_enqueue(p, 1, tok(1, i)),
			     i < 4 ? 0 : -EAGAIN, "band 1 holds 4");
	for (unsigned i = 0; i < 5; i++)
		cr_assert_eq(grain_prio_try_enqueue_prio(p, 5, tok(2, i)),
			     i < 4 ? 0 : -EAGAIN, "priority 5: band 2, of 4");
	/* Weights 2, 1, 1: rounds of 0 0 1 2, then 1 2 once band 0 is
	 * empty. */
	static const unsigned order[10] = { 0, 0, 1, 2, 1, 2, 1, 2, 1, 2 };
	unsigned seq[3] = { 0 };
	for (unsigned i = 0; i < 10; i++) {
		cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), 0);
		cr_assert_eq(band, order[i], "dequeue %u: band %u, want %u", i,
			     band, order[i]);
		cr_assert_eq(o, tok(band, seq[band]++));
	}
	cr_assert_eq(grain_prio_try_dequeue(p, &o, &band), -EAGAIN);
	grain_prio_destroy(p);
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

/* Every TOS byte, DSCP and traffic class against prio.h's table, the
 * code points built from their definitions (CSn: n << 3, AFxy: x << 3 |
 * y << 1, EF: 46, LE: 1). */
Test(prio_basic, tos_dscp_and_tclass_tables)
{
	unsigned want[64] = { 0 };

	want[6 << 3] = want[7 << 3] = 7;
	want[46] = want[4 << 3] = want[5 << 3] = 6;
	want[2 << 3] = want[3 << 3] = 4;
	want[1 << 3] = want[1] = 2;
	for (unsigned y = 1; y <= 3; y++) {
		want[4 << 3 | y << 1] = 6;
		want[3 << 3 | y << 1] = 4;
		want[2 << 3 | y << 1] = 4;
		want[1 << 3 | y << 1] = 2;
	}
	for (unsigned dscp = 0; dscp < 64; dscp++)
		cr_assert_eq(grain_prio_dscp_to_priority((uint8_t)dscp),
			     want[dscp], "DSCP %u", dscp);
	for (unsigned tc = 0; tc < 256; tc++)
		cr_assert_eq(grain_prio_tclass_to_priority((uint8_t)tc),
			     want[tc >> 2], "traffic class %#x", tc);
	/* RFC 1349: low delay 0x10, throughput 0x08; reliability, cost,
	 * precedence and ECN bits do not count. */
	for (unsigned tos = 0; tos < 256; tos++) {
		bool delay = tos & 0x10, thru = tos & 0x08;
		unsigned w = delay && thru ? 4 : delay ? 6 : thru ? 2 : 0;
		cr_assert_eq(grain_prio_tos_to_priority((uint8_t)tos), w,
			     "TOS %#x", tos);
	}
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

/* A burst into a band with room for part of it queues its first objects,
 * in order, after what the band held; the rest are counted as drops. */
Test(prio_basic, burst_enqueue_keeps_the_first_that_fit)
{
	enum { CAP = 4 };
	void *in[6], *out[8];

	for (unsigned i = 0; i < 6; i++)
		in[i] = tok(9, i);
	for (unsigned q = 0; q < 2; q++) {
		unsigned bands = q ? GRAIN_PRIO_SCAN_BANDS + 1 : 3, b = 2;
		struct grain_prio *p = make(bands, CAP, 0);
		struct grain_prio_band_stats st;

		cr_assert_eq(grain_prio_try_enqueue(p, b, tok(b, 0)), 0);
		cr_assert_eq(grain_prio_try_enqueue_burst(p, b, in, 5),
			     CAP - 1);
		cr_assert_eq(grain_prio_try_enqueue_burst(p, b, in + 5, 1), 0);
		cr_assert_eq(grain_prio_stats(p, b, &st), 0);
		cr_assert_eq(st.enqueued, (uint64_t)CAP);
		cr_assert_eq(st.dropped, 5u - (CAP - 1) + 1);
		cr_assert_eq(grain_prio_try_dequeue_burst(p, out, 8), CAP);
		cr_assert_eq(out[0], tok(b, 0));
		for (unsigned i = 0; i < CAP - 1; i++)
			cr_assert_eq(out[1 + i], in[i], "%u bands: object %u",
				     bands, 1 + i);
		grain_prio_destroy(p);
	}
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

/*
 * The order in which a weighted queue gives out what it holds, nothing
 * being added meanwhile: rounds over the non-empty bands, highest first,
 * each visit to band b taking up to w[b] objects (w NULL: 1). Returns the
 * count; bands_out[i] is the band of the i-th object.
 */
static unsigned weighted_order(const unsigned *w, const unsigned *held,
			       unsigned nb, unsigned *bands_out)
{
	unsigned left[GRAIN_PRIO_MAX_BANDS], k = 0;
	bool any = true;

	memcpy(left, held, nb * sizeof(*left));
	while (any) {
		any = false;
		for (unsigned b = 0; b < nb; b++)
			for (unsigned i = 0; i < (w ? w[b] : 1u) && left[b] > 0;
			     i++, left[b]--) {
				bands_out[k++] = b;
				any = true;
			}
	}
	return k;
}

/* Takes in calls of `take` objects (1: try_dequeue) and checks each
 * object's band against weighted_order() and its place in its band. */
static void weighted_round_order_in(unsigned qbands, const unsigned *w,
				    unsigned take)
{
	enum { MAXN = 64 };
	struct grain_prio_config cfg = { .bands = qbands,
					 .capacity = 16,
					 .weights = w,
					 .flags = GRAIN_PRIO_WEIGHTED };
	static const unsigned counts[6] = { 7, 5, 9, 0, 3, 4 };
	unsigned held[GRAIN_PRIO_MAX_BANDS] = { 0 }, want[MAXN];
	unsigned seq[GRAIN_PRIO_MAX_BANDS] = { 0 };
	struct grain_prio *p = NULL;
	void *objs[MAXN];

	cr_assert_leq(qbands, 6u);
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	for (unsigned b = 0; b < qbands; b++) {
		held[b] = counts[b];
		for (unsigned i = 0; i < held[b]; i++)
			cr_assert_eq(grain_prio_try_enqueue(p, b, tok(b, i)),
				     0);
	}
	unsigned total = weighted_order(w, held, qbands, want);
	cr_assert_leq(total, (unsigned)MAXN);

	for (unsigned at = 0; at < total;) {
		int n;
		unsigned band = 99;
		if (take == 1)
			n = grain_prio_try_dequeue(p, objs, &band) == 0;
		else
			n = grain_prio_try_dequeue_burst(p, objs, take);
		cr_assert_gt(n, 0, "%u bands: empty after %u of %u", qbands, at,
			     total);
		for (int i = 0; i < n; i++, at++) {
			unsigned b = (unsigned)((uintptr_t)objs[i] >> 24);
			cr_assert(take != 1 || band == b, "reported band");
			cr_assert_eq(b, want[at],
				     "%u bands, takes of %u: object %u from "
				     "band %u, want band %u",
				     qbands, take, at, b, want[at]);
			cr_assert_eq(objs[i], tok(b, seq[b]++), "FIFO");
		}
	}
	cr_assert_eq(grain_prio_try_dequeue_burst(p, objs, MAXN), 0);
	grain_prio_destroy(p);
}

Test(prio_basic, weighted_round_order)
{
	static const unsigned w[6] = { 3, 2, 1, 4, 2, 5 };
	static const unsigned takes[3] = { 1, 3, 8 };

	/* Scanned (3 bands) and with the bits (6, of which band 3 stays
	 * empty); given weights and the default weight 1. */
	for (unsigned t = 0; t < 3; t++) {
		weighted_round_order_in(3, w, takes[t]);
		weighted_round_order_in(6, w, takes[t]);
		weighted_round_order_in(3, NULL, takes[t]);
		weighted_round_order_in(6, NULL, takes[t]);
	}
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

/*
 * memsize's limits: capacities from 2 to 2^31 (each band's, when given per
 * band), and no flag bit it does not know. init refuses what memsize
 * refuses, and memory that is not aligned to GRAIN_CACHELINE.
 */
Test(prio_basic, config_limits)
{
	const unsigned known = GRAIN_PRIO_SC | GRAIN_PRIO_WAIT |
			       GRAIN_PRIO_WEIGHTED;
	struct grain_prio_config cfg = { .bands = 3, .capacity = 2 };

	cr_assert_gt(grain_prio_memsize(&cfg), 0u, "capacity 2: the least");
	cfg.capacity = 1;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u, "capacity 1");
	cfg.capacity = 0;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u, "capacity 0");
	cfg.capacity = 0x80000000u;
	cr_assert_gt(grain_prio_memsize(&cfg), 0u, "capacity 2^31: the most");
	cfg.capacity = 0x80000001u;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u);
	cfg.capacity = UINT32_MAX;
	cr_assert_eq(grain_prio_memsize(&cfg), 0u);

	cfg.capacity = 8;
	size_t uniform = grain_prio_memsize(&cfg);
	cfg.capacity = 2; /* not used: every band has its own */
	cfg.capacities = (const unsigned[]){ 8, 8, 8 };
	cr_assert_eq(grain_prio_memsize(&cfg), uniform,
		     "capacities of 8 each: as capacity 8");
	cfg.capacities = (const unsigned[]){ 2, 3, 8 };
	cr_assert_eq(grain_prio_memsize(&cfg), 0u, "band 1: not a power of 2");
	cfg.capacities = (const unsigned[]){ 2, 4, 1 };
	cr_assert_eq(grain_prio_memsize(&cfg), 0u, "band 2: capacity 1");
	cfg.capacities = NULL;
	cfg.capacity = 8;

	for (unsigned i = 0; i < 32; i++) {
		cfg.flags = 1u << i;
		if (known & cfg.flags)
			cr_assert_gt(grain_prio_memsize(&cfg), 0u,
				     "flag %#x is known", cfg.flags);
		else
			cr_assert_eq(grain_prio_memsize(&cfg), 0u,
				     "flag %#x is unknown", cfg.flags);
	}
	cfg.flags = known;
	cr_assert_gt(grain_prio_memsize(&cfg), 0u, "all known flags at once");
	cfg.flags = 0;

	/* init, on memory with room and alignment to spare. */
	size_t size = grain_prio_memsize(&cfg);
	char *mem = aligned_alloc(GRAIN_CACHELINE, size + GRAIN_CACHELINE);
	struct grain_prio *p = (struct grain_prio *)(void *)mem;

	cr_assert_not_null(mem);
	cr_assert_eq(
		grain_prio_init(
			(struct grain_prio *)(void *)(mem + sizeof(void *)),
			&cfg),
		-EINVAL, "misaligned");
	cr_assert_eq(grain_prio_init(p, NULL), -EINVAL);
	cfg.bands = 0;
	cr_assert_eq(grain_prio_init(p, &cfg), -EINVAL, "no band");
	cfg.bands = 3;
	cfg.capacity = 6;
	cr_assert_eq(grain_prio_init(p, &cfg), -EINVAL, "capacity 6");
	cfg.capacity = 8;
	uint8_t map[16] = { 0 };
	map[15] = 3;
	cfg.priomap = map;
	cr_assert_eq(grain_prio_init(p, &cfg), -EINVAL, "priomap entry 3");
	cfg.priomap = NULL;
	cfg.flags = 0x8;
	cr_assert_eq(grain_prio_init(p, &cfg), -EINVAL, "unknown flag");
	cfg.flags = 0;
	cr_assert_eq(grain_prio_init(p, &cfg), 0);
	cr_assert_eq(grain_prio_bands(p), 3u);
	free(mem);
}

/* *priop is untouched by a create that fails, whatever the reason. */
Test(prio_basic, failed_create_leaves_pointer)
{
	struct test_alloc_state st = { .budget = 0 };
	struct grain_alloc a = { test_alloc_fn, test_free_fn, &st };
	struct grain_prio_config cfg = { .bands = 3, .capacity = 8 };
	struct grain_prio *const mark = (struct grain_prio *)(uintptr_t)0x40;
	struct grain_prio *p = mark;

	cr_assert_eq(grain_prio_create(&p, &cfg, &a), -ENOMEM);
	cr_assert_eq(p, mark, "untouched after -ENOMEM");
	cr_assert_eq(st.live, 0);
	cfg.capacity = 6;
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), -EINVAL);
	cr_assert_eq(p, mark, "untouched after -EINVAL");
	cfg.capacity = 8;
	cfg.bands = GRAIN_PRIO_MAX_BANDS + 1;
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), -EINVAL);
	cr_assert_eq(p, mark, "untouched after -EINVAL");
	cfg.bands = GRAIN_PRIO_MAX_BANDS;
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	cr_assert_neq(p, mark);
	cr_assert_eq(grain_prio_bands(p), GRAIN_PRIO_MAX_BANDS);
	grain_prio_destroy(p);
}

/* The statistics of every band, and the backlog, equal those taken
 * before. */
static void assert_stats_are(struct grain_prio *p,
			     const struct grain_prio_band_stats *before,
			     const char *what)
{
	unsigned total = 0;

	for (unsigned b = 0; b < grain_prio_bands(p); b++) {
		struct grain_prio_band_stats st;
		cr_assert_eq(grain_prio_stats(p, b, &st), 0);
		cr_assert(st.enqueued == before[b].enqueued &&
				  st.dequeued == before[b].dequeued &&
				  st.dropped == before[b].dropped &&
				  st.backlog == before[b].backlog,
			  "%s: band %u changed", what, b);
		total += (unsigned)st.backlog;
	}
	cr_assert_eq(grain_prio_backlog(p), total, "%s", what);
}

/*
 * A refused call changes nothing: after every -EINVAL the queue holds the
 * same objects with the same statistics, and -EAGAIN of a full band
 * counts the drops and leaves what is queued alone. The contents are
 * checked object by object at the end. A count of 0 is no error.
 */
static void errors_change_nothing_in(unsigned bands, unsigned flags)
{
	enum { CAP = 4 };
	const unsigned big = (unsigned)INT32_MAX + 1u;
	struct grain_prio *p = make(bands, CAP, flags);
	struct grain_prio_band_stats before[GRAIN_PRIO_MAX_BANDS], st;
	const unsigned last = bands - 1;
	void *in[CAP], *out[16], *o = NULL;
	unsigned band = 99;

	for (unsigned i = 0; i < CAP; i++)
		in[i] = tok(7, i);
	/* Band 0: two objects; band 1: full; the last band: one. */
	cr_assert_eq(grain_prio_try_enqueue(p, 0, tok(0, 0)), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 0, tok(0, 1)), 0);
	for (unsigned i = 0; i < CAP; i++)
		cr_assert_eq(grain_prio_try_enqueue(p, 1, tok(1, i)), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, last, tok(last, 0)), 0);
	for (unsigned b = 0; b < bands; b++)
		cr_assert_eq(grain_prio_stats(p, b, &before[b]), 0);

	cr_assert_eq(grain_prio_try_enqueue(p, bands, in[0]), -EINVAL);
	assert_stats_are(p, before, "try_enqueue, band out of range");
	cr_assert_eq(grain_prio_try_enqueue(p, UINT32_MAX, in[0]), -EINVAL);
	assert_stats_are(p, before, "try_enqueue, band UINT_MAX");
	cr_assert_eq(grain_prio_try_enqueue_prio(p, 16, in[0]), -EINVAL);
	assert_stats_are(p, before, "try_enqueue_prio, priority 16");
	cr_assert_eq(grain_prio_try_enqueue_prio(p, UINT32_MAX, in[0]),
		     -EINVAL);
	assert_stats_are(p, before, "try_enqueue_prio, priority UINT_MAX");
	cr_assert_eq(grain_prio_try_enqueue_burst(p, bands, in, 1), -EINVAL);
	assert_stats_are(p, before, "try_enqueue_burst, band out of range");
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 0, NULL, 1), -EINVAL);
	assert_stats_are(p, before, "try_enqueue_burst, NULL objects");
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 0, in, big), -EINVAL);
	assert_stats_are(p, before, "try_enqueue_burst, n over INT_MAX");
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 0, in, UINT32_MAX),
		     -EINVAL);
	assert_stats_are(p, before, "try_enqueue_burst, n UINT_MAX");
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 0, NULL, 0), 0);
	assert_stats_are(p, before, "try_enqueue_burst, NULL objects, n 0");

	cr_assert_eq(grain_prio_try_dequeue(p, NULL, &band), -EINVAL);
	assert_stats_are(p, before, "try_dequeue, NULL objp");
	cr_assert_eq(grain_prio_try_dequeue_burst(p, NULL, 1), -EINVAL);
	assert_stats_are(p, before, "try_dequeue_burst, NULL objects");
	cr_assert_eq(grain_prio_try_dequeue_burst(p, out, big), -EINVAL);
	assert_stats_are(p, before, "try_dequeue_burst, n over INT_MAX");
	cr_assert_eq(grain_prio_try_dequeue_burst(p, out, UINT32_MAX), -EINVAL);
	assert_stats_are(p, before, "try_dequeue_burst, n UINT_MAX");
	cr_assert_eq(grain_prio_try_dequeue_burst(p, NULL, 0), 0);
	cr_assert_eq(grain_prio_try_dequeue_burst(p, out, 0), 0);
	assert_stats_are(p, before, "try_dequeue_burst, n 0");

	cr_assert_eq(grain_prio_dequeue_wait(p, NULL, &band, 0), -EINVAL);
	assert_stats_are(p, before, "dequeue_wait, NULL objp");
	cr_assert_eq(grain_prio_dequeue_burst_wait(p, NULL, 4, 0), -EINVAL);
	assert_stats_are(p, before, "dequeue_burst_wait, NULL objects");
	cr_assert_eq(grain_prio_dequeue_burst_wait(p, out, 0, -1), -EINVAL);
	assert_stats_are(p, before, "dequeue_burst_wait, n 0");
	cr_assert_eq(grain_prio_dequeue_burst_wait(p, out, big, -1), -EINVAL);
	assert_stats_are(p, before, "dequeue_burst_wait, n over INT_MAX");
	if (!(flags & GRAIN_PRIO_WAIT)) {
		cr_assert_eq(grain_prio_dequeue_wait(p, &o, &band, -1),
			     -EINVAL);
		assert_stats_are(p, before, "dequeue_wait, no WAIT flag");
		cr_assert_eq(grain_prio_dequeue_burst_wait(p, out, 4, -1),
			     -EINVAL);
		assert_stats_are(p, before, "dequeue_burst_wait, no WAIT flag");
	}

	/* stats: nothing written on error. */
	memset(&st, 0xa5, sizeof(st));
	struct grain_prio_band_stats mark = st;
	cr_assert_eq(grain_prio_stats(p, bands, &st), -EINVAL);
	cr_assert_eq(memcmp(&st, &mark, sizeof(st)), 0,
		     "stats wrote on -EINVAL");
	cr_assert_eq(grain_prio_stats(p, UINT32_MAX, &st), -EINVAL);
	cr_assert_eq(memcmp(&st, &mark, sizeof(st)), 0,
		     "stats wrote on -EINVAL");

	/* A full band: -EAGAIN, drops counted, the queue as it was. */
	cr_assert_eq(grain_prio_try_enqueue(p, 1, in[0]), -EAGAIN);
	cr_assert_eq(grain_prio_try_enqueue_prio(p, 0, in[1]), -EAGAIN,
		     "priority 0 maps to band 1");
	cr_assert_eq(grain_prio_try_enqueue_burst(p, 1, in, CAP), 0);
	before[1].dropped += 2 + CAP;
	assert_stats_are(p, before, "-EAGAIN of a full band");

	/* The objects, each once, in order. */
	cr_assert_eq(grain_prio_try_dequeue_burst(p, out, 16), 2 + CAP + 1);
	cr_assert_eq(out[0], tok(0, 0));
	cr_assert_eq(out[1], tok(0, 1));
	for (unsigned i = 0; i < CAP; i++)
		cr_assert_eq(out[2 + i], tok(1, i), "band 1, object %u", i);
	cr_assert_eq(out[2 + CAP], tok(last, 0));
	cr_assert_eq(grain_prio_try_dequeue(p, &o, NULL), -EAGAIN);
	grain_prio_destroy(p);
}

Test(prio_basic, errors_change_nothing)
{
	for (unsigned wait = 0; wait < 2; wait++) {
		unsigned flags = wait ? GRAIN_PRIO_WAIT : 0;
		errors_change_nothing_in(3, flags);
		errors_change_nothing_in(GRAIN_PRIO_SCAN_BANDS + 2, flags);
	}
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

/* Timeout 0 is one attempt, which takes what is ready (highest band
 * first); only an empty queue gives -ETIMEDOUT, and takes nothing. */
static void wait_zero_timeout_in(unsigned qbands)
{
	struct grain_prio *p = make(qbands, 8, GRAIN_PRIO_WAIT);
	void *o = NULL, *objs[4];
	unsigned band = 99;

	cr_assert_eq(grain_prio_try_enqueue(p, 2, tok(2, 0)), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 1, tok(1, 0)), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 1, tok(1, 1)), 0);
	cr_assert_eq(grain_prio_dequeue_wait(p, &o, &band, 0), 0);
	cr_assert_eq(band, 1u);
	cr_assert_eq(o, tok(1, 0));
	cr_assert_eq(grain_prio_dequeue_burst_wait(p, objs, 4, 0), 2);
	cr_assert_eq(objs[0], tok(1, 1));
	cr_assert_eq(objs[1], tok(2, 0));
	cr_assert_eq(grain_prio_dequeue_wait(p, &o, &band, 0), -ETIMEDOUT);
	cr_assert_eq(grain_prio_dequeue_burst_wait(p, objs, 4, 0), -ETIMEDOUT);
	cr_assert_eq(grain_prio_try_enqueue(p, 0, tok(0, 0)), 0);
	cr_assert_eq(grain_prio_dequeue_wait(p, &o, &band, 1000000000), 0);
	cr_assert_eq(o, tok(0, 0));
	cr_assert_eq(band, 0u);
	struct grain_prio_band_stats st;
	for (unsigned b = 0; b < 3; b++) {
		cr_assert_eq(grain_prio_stats(p, b, &st), 0);
		cr_assert_eq(st.enqueued, st.dequeued, "band %u", b);
	}
	cr_assert_eq(grain_prio_backlog(p), 0u);
	grain_prio_destroy(p);
}

Test(prio_basic, wait_zero_timeout_takes_ready_objects)
{
	wait_zero_timeout_in(3);
	wait_zero_timeout_in(GRAIN_PRIO_SCAN_BANDS + 1);
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
	struct test_threads threads = { .n = 0 };

	for (unsigned i = 0; i < K; i++) {
		w[i] = (struct waiter){ .p = p, .rc = -1 };
		test_spawn(&threads, wait_one, &w[i]);
	}
	for (int i = 0; i < 5000 && atomic_load(&p->sleepers.waiters) < K;
	     i++) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	for (unsigned i = 0; i < K; i++)
		cr_assert_eq(grain_prio_try_enqueue(p, i, tok(i, 0)), 0);
	unsigned seen = 0;
	test_join_all(&threads);
	for (unsigned i = 0; i < K; i++) {
		cr_assert_eq(w[i].rc, 0);
		cr_assert_eq(w[i].obj, tok(w[i].band, 0));
		seen |= 1u << w[i].band;
	}
	cr_assert_eq(seen, 7u, "each object went to exactly one sleeper");
	cr_assert_eq(grain_prio_backlog(p), 0u);
	grain_prio_destroy(p);
}
