/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prio.c - the EXAMPLE sections of grain_prio's man pages
 * (doc/manpages.py: each page shows the shortest example below that uses
 * its name, after these #include lines).
 */
#include <grain/prio.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

/* example */
/* Three bands, strict priority: band 0 first. Packets are queued by the
 * priority their DSCP, IPv4 TOS or IPv6 traffic class gives. */
int example_prio(void)
{
	struct grain_prio_config cfg = { .bands = 3, .capacity = 256 };
	struct grain_prio *q;
	static int ef, bulk, best;
	void *obj;
	unsigned band;

	if (grain_prio_create(&q, &cfg, NULL) != 0)
		return -1;
	/* -EAGAIN: the band is full (a drop is counted). */
	if (grain_prio_try_enqueue_prio(q, grain_prio_dscp_to_priority(46),
					&ef) != 0 || /* EF: band 0 */
	    grain_prio_try_enqueue_prio(q, grain_prio_tos_to_priority(0x08),
					&bulk) != 0 || /* throughput: 2 */
	    grain_prio_try_enqueue_prio(q, grain_prio_tclass_to_priority(0),
					&best) != 0 || /* best effort: 1 */
	    grain_prio_try_enqueue(q, 2, &bulk) != 0)
		return -1;
	if (grain_prio_backlog(q) != 4)
		return -1;
	/* Band 0, then 1, then 2. */
	if (grain_prio_try_dequeue(q, &obj, &band) != 0 || obj != &ef ||
	    band != 0)
		return -1;
	while (grain_prio_try_dequeue(q, &obj, &band) == 0)
		printf("band %u of %u\n", band, grain_prio_bands(q));
	grain_prio_destroy(q);
	return 0;
}

/* example */
/* Weighted round robin between two bands in caller memory: while both
 * are busy, band 0 gets 3 objects out of every 4. Every band's counters
 * are a snapshot. */
int example_prio_weighted(void)
{
	static const unsigned weights[2] = { 3, 1 };
	static const unsigned caps[2] = { 64, 16 };
	static const uint8_t map[GRAIN_PRIO_PRIORITIES] = { 0 };
	struct grain_prio_config cfg = {
		.bands = 2,
		.flags = GRAIN_PRIO_WEIGHTED | GRAIN_PRIO_SC,
		.capacities = caps,
		.weights = weights,
		.priomap = map, /* every priority to band 0 */
	};
	static _Alignas(GRAIN_CACHELINE) char mem[65536];
	struct grain_prio *q = (struct grain_prio *)(void *)mem;
	struct grain_prio_band_stats st;
	void *objs[8] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	unsigned b;

	if (grain_prio_memsize(&cfg) == 0 ||
	    grain_prio_memsize(&cfg) > sizeof(mem) ||
	    grain_prio_init(q, &cfg) != 0)
		return -1;
	if (grain_prio_try_enqueue_burst(q, 0, objs, 8) != 8 ||
	    grain_prio_try_enqueue_burst(q, 1, objs, 8) != 8)
		return -1;
	if (grain_prio_try_dequeue_burst(q, objs, 8) != 8) /* 6 + 2 */
		return -1;
	for (b = 0; b < grain_prio_bands(q); b++) {
		if (grain_prio_stats(q, b, &st) != 0)
			return -1;
		printf("band %u: %llu in, %llu out, %llu dropped, %llu left\n",
		       b, (unsigned long long)st.enqueued,
		       (unsigned long long)st.dequeued,
		       (unsigned long long)st.dropped,
		       (unsigned long long)st.backlog);
	}
	/* The queue lives in mem: nothing to destroy. */
	return grain_prio_backlog(q) == 8 ? 0 : -1;
}

/* example */
/* A consumer that sleeps while the queue is empty (GRAIN_PRIO_WAIT);
 * timeouts in nanoseconds, negative: for ever, 0: one attempt. */
int example_prio_wait(void)
{
	struct grain_prio_config cfg = {
		.bands = GRAIN_PRIO_SCAN_BANDS + 1, /* more: the bit word */
		.capacity = 64,
		.flags = GRAIN_PRIO_WAIT,
	};
	struct grain_prio *q;
	void *objs[4], *obj;
	unsigned band;

	if (cfg.bands > GRAIN_PRIO_MAX_BANDS ||
	    grain_prio_create(&q, &cfg, NULL) != 0)
		return -1;
	if (grain_prio_try_enqueue(q, 4, objs) != 0 ||
	    grain_prio_try_enqueue(q, 1, objs) != 0)
		return -1;
	if (grain_prio_dequeue_wait(q, &obj, &band, 1000000) != 0 ||
	    band != 1 ||
	    grain_prio_dequeue_burst_wait(q, objs, 4, 1000000) != 1)
		return -1;
	/* Empty: a 1 ms wait runs out. */
	int rc = grain_prio_dequeue_wait(q, &obj, NULL, 1000000);
	grain_prio_destroy(q);
	return rc == -ETIMEDOUT ? 0 : -1;
}

/* example */
/* pfifo_fast's map: priority 6 (interactive) goes to band 0. */
int example_prio_priomap(void)
{
	unsigned p;

	for (p = 0; p < GRAIN_PRIO_PRIORITIES; p++)
		printf("priority %2u -> band %u\n", p,
		       grain_prio_default_priomap[p]);
	return grain_prio_default_priomap[6] == 0 ? 0 : -1;
}

/* example */
/* 0.3.0's names still compile, with a deprecation warning: each is the
 * try_ call of the same arguments. New code uses the try_ names. */
int example_prio_old_names(void)
{
	struct grain_prio_config cfg = { .bands = 3, .capacity = 8 };
	struct grain_prio *q;
	void *objs[2] = { NULL, NULL };
	int ok;

	if (grain_prio_create(&q, &cfg, NULL) != 0)
		return -1;
	ok = grain_prio_enqueue(q, 0, NULL) == 0 &&
	     grain_prio_enqueue_prio(q, 6, NULL) == 0 &&
	     grain_prio_enqueue_burst(q, 1, objs, 2) == 2 &&
	     grain_prio_dequeue_burst(q, objs, 2) == 2;
	grain_prio_destroy(q);
	return ok ? 0 : -1;
}

/* example */
/* A producer that sleeps while its band is full, and a shutdown: after
 * grain_prio_close() enqueues fail with -EPIPE and the consumer drains
 * what is left, then gets -EPIPE too. */
int example_prio_close(void)
{
	struct grain_prio_config cfg = {
		.bands = 3,
		.capacity = 2,
		.flags = GRAIN_PRIO_WAIT,
	};
	struct grain_prio *q;
	int a, b, c;
	void *obj;

	if (grain_prio_create(&q, &cfg, NULL) != 0)
		return -1;
	int ok = grain_prio_enqueue_wait(q, 1, &a, -1) == 0 &&
		 grain_prio_enqueue_wait(q, 1, &b, -1) == 0 &&
		 /* band 1 is full: a 1 ms wait runs out (one drop) */
		 grain_prio_enqueue_wait(q, 1, &c, 1000000) == -ETIMEDOUT &&
		 grain_prio_close(q) == 0 && grain_prio_closed(q) &&
		 grain_prio_try_enqueue(q, 0, &c) == -EPIPE &&
		 grain_prio_dequeue_wait(q, &obj, NULL, -1) == 0 && obj == &a &&
		 grain_prio_dequeue_wait(q, &obj, NULL, -1) == 0 && obj == &b &&
		 grain_prio_dequeue_wait(q, &obj, NULL, -1) == -EPIPE;
	grain_prio_destroy(q);
	return ok ? 0 : -1;
}
