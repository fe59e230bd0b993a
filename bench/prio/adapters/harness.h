/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.h - internal to bench/prio/adapters (C11 only): the items, the
 * state of one experiment, the producer and consumer loops, and the table
 * each adapter fills in.
 *
 * An adapter writes a put and a get function for its queue and passes
 * them, as constants, to prio_produce() / prio_consume(). Those loops are
 * always inlined, so each queue gets its own copy of the same loop with
 * the queue's calls inlined into it; no indirect call sits on the
 * measured path.
 *
 * Shared flags and their ordering: the gate's (common/core.h; the queue,
 * the pools and the thread structs are set up before it opens), and
 *   producers_done producers -> consumer, release/acquire (RD1 -> AD1):
 *                  once the consumer has seen every producer done, every
 *                  accepted item is in the queue and nothing more comes.
 * Items, between a producer and the consumer:
 *   busy           producer -> consumer through the queue (the queue's
 *                  enqueue/dequeue order the item's fields); consumer ->
 *                  producer release/acquire (RB1 -> AB1): the consumer's
 *                  reads of the item are done before the producer reuses
 *                  it.
 */
#ifndef GRAIN_BENCH_PRIO_HARNESS_H
#define GRAIN_BENCH_PRIO_HARNESS_H

#include "adapters.h"
#include "baselines/pfifo_list.h"

#include "../../common/core.h"

#include <grain/lock.h>

#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Retry policy of the consumer on an empty queue, the same for every
 * queue: PRIO_RELAX_PER_FAIL pauses per failed try, and sched_yield()
 * after PRIO_SPIN_FAILS failures in a row. Producers never wait: a full
 * band drops the item, as the qdisc does. */
#define PRIO_RELAX_PER_FAIL 8u
#define PRIO_SPIN_FAILS 64u

/* The priority stream: a table of this many priorities (a power of two)
 * that every producer walks from its own offset. */
#define PRIO_STREAM_LEN 256u

/* One queued object: a cache line, like the head of an skb. The baseline
 * links it through `link`; grain_prio stores its address. */
struct prio_item {
	alignas(GRAIN_CACHELINE) struct pfifo_list_node link;
	uint64_t seq;	       /* producer's attempt number */
	uint32_t producer;     /* index of the producer */
	uint8_t prio;	       /* 0..15 */
	uint8_t band;	       /* prio_stream_band(prio) */
	_Atomic(uint8_t) busy; /* in flight: enqueued, not yet checked */
};

_Static_assert(sizeof(struct prio_item) == GRAIN_CACHELINE,
	       "one item per cache line");
_Static_assert(offsetof(struct prio_item, link) == 0, "link first");

struct prio_harness {
	struct bench_gate gate;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) producers_done;
	alignas(GRAIN_CACHELINE) void *queue; /* read-only while running */
	struct prio_config cfg;
	const uint8_t *stream; /* PRIO_STREAM_LEN priorities */
};

struct prio_thread {
	alignas(GRAIN_CACHELINE) struct prio_harness *h;
	unsigned index; /* among producers; 0 for the consumer */
	/* Producer: its pool and results. */
	struct prio_item *pool; /* PRIO_POOL_ITEMS */
	uint64_t attempts;
	uint64_t accepted_band[PRIO_BANDS];
	uint64_t dropped_band[PRIO_BANDS];
	uint64_t accepted_sum; /* sum of accepted sequence numbers */
	/* Consumer: results and per-producer checks. */
	uint64_t count_at_stop;
	uint64_t band_at_stop[PRIO_BANDS];
	uint64_t drained;
	uint64_t empty_polls;
	uint64_t blocked_polls;
	double cpu_seconds; /* CPU time from release to stop */
	uint64_t order_errors;
	uint64_t band_errors;
	uint64_t priority_errors;
	uint64_t next[PRIO_MAX_PRODUCERS][PRIO_BANDS]; /* lowest legal seq */
	uint64_t cnt[PRIO_MAX_PRODUCERS];	       /* items seen */
	uint64_t sum[PRIO_MAX_PRODUCERS];	       /* their seq sum */
};

/* put: 0 if the item was queued, non-zero if it was dropped.
 * get: take up to n items (n is 1 for single); return how many. If bandp
 * is not NULL the get is single and stores the band the queue took the
 * item from. */
typedef int (*prio_put_fn)(void *queue, struct prio_item *item);
typedef unsigned (*prio_get_fn)(void *queue, struct prio_item **items,
				unsigned n, unsigned *bandp);
/* Items the queue counts as queued (a racy snapshot), read only after
 * PRIO_SPIN_FAILS gets in a row found nothing: non-zero then means an item
 * was claimed but has not been published for a while (or arrived just
 * now). */
typedef unsigned (*prio_backlog_fn)(void *queue);

/* What each adapter provides. create makes a queue for cfg; check
 * compares the queue's statistics, once every thread is joined, with what
 * the producers counted, and returns the number of disagreements. */
struct prio_adapter {
	int (*create)(void **queuep, enum prio_impl impl,
		      const struct prio_config *cfg);
	void (*destroy)(void *queue);
	void *(*producer)(void *thread);
	void *(*consumer[PRIO_DEQ_COUNT])(void *thread);
	uint64_t (*check)(void *queue, const uint64_t *accepted_band,
			  const uint64_t *dropped_band);
};

extern const struct prio_adapter prio_adapter_grain;
extern const struct prio_adapter prio_adapter_pfifo;

static GRAIN_ALWAYS_INLINE void prio_produce(struct prio_thread *t,
					     prio_put_fn put)
{
	struct prio_harness *h = t->h;
	void *const queue = h->queue;
	const uint8_t *const stream = h->stream;
	struct prio_item *const pool = t->pool;
	const unsigned index = t->index;
	unsigned slot = 0;
	unsigned at = (index * 97u) & (PRIO_STREAM_LEN - 1);
	uint64_t seq = 0, sum = 0;
	uint64_t accepted[PRIO_BANDS] = { 0 }, dropped[PRIO_BANDS] = { 0 };

	/* The pool is ours: touch it first, before the clock starts. */
	for (unsigned i = 0; i < PRIO_POOL_ITEMS; i++) {
		pool[i].link.next = NULL;
		pool[i].seq = 0;
		pool[i].producer = index;
		pool[i].prio = 0;
		pool[i].band = 0;
		atomic_init(&pool[i].busy, 0);
	}
	bench_gate_wait(&h->gate);
	while (!bench_gate_stopped(&h->gate)) {
		struct prio_item *item = &pool[slot];

		slot = (slot + 1) & (PRIO_POOL_ITEMS - 1);
		/* AB1: pairs with RB1 in prio_consume(); the consumer is done
		 * with the item. Still in flight: take the next one. */
		if (atomic_load_explicit(&item->busy, memory_order_acquire))
			continue;
		uint8_t prio = stream[at];

		at = (at + 1) & (PRIO_STREAM_LEN - 1);
		item->seq = seq;
		item->prio = prio;
		item->band = (uint8_t)pfifo_list_prio2band[prio];
		atomic_store_explicit(&item->busy, 1, memory_order_relaxed);
		if (put(queue, item) == 0) {
			accepted[item->band]++;
			sum += seq;
		} else {
			/* Never published: nobody else looks at it. */
			atomic_store_explicit(&item->busy, 0,
					      memory_order_relaxed);
			dropped[item->band]++;
		}
		seq++;
	}
	t->attempts = seq;
	t->accepted_sum = sum;
	for (unsigned b = 0; b < PRIO_BANDS; b++) {
		t->accepted_band[b] = accepted[b];
		t->dropped_band[b] = dropped[b];
	}
	/* RD1: pairs with AD1; our last enqueue is complete. */
	atomic_fetch_add_explicit(&h->producers_done, 1, memory_order_release);
}

/* The consumer's check of one item, then its hand-back to the producer.
 * draining: after the producers stopped; the bands must not go up. */
static GRAIN_ALWAYS_INLINE void prio_check(struct prio_thread *t,
					   struct prio_item *item,
					   unsigned producers, bool draining,
					   unsigned *last_band)
{
	unsigned p = item->producer, b = item->band;
	uint64_t seq = item->seq;

	if (GRAIN_UNLIKELY(p >= producers || b >= PRIO_BANDS)) {
		t->order_errors++;
		return;
	}
	if (GRAIN_UNLIKELY(seq < t->next[p][b]))
		t->order_errors++;
	t->next[p][b] = seq + 1;
	t->cnt[p]++;
	t->sum[p] += seq;
	if (draining) {
		if (GRAIN_UNLIKELY(b < *last_band))
			t->priority_errors++;
		*last_band = b;
	}
	/* RB1: pairs with AB1 in prio_produce(); our reads of the item are
	 * done, the producer may reuse it. */
	atomic_store_explicit(&item->busy, 0, memory_order_release);
}

static GRAIN_ALWAYS_INLINE void prio_consume(struct prio_thread *t,
					     prio_get_fn get,
					     prio_backlog_fn backlog,
					     bool single)
{
	struct prio_harness *h = t->h;
	void *const queue = h->queue;
	const unsigned producers = h->cfg.producers;
	const unsigned n = single ? 1u : h->cfg.burst;
	struct prio_item *items[PRIO_MAX_BURST];
	uint64_t count = 0, polls = 0, blocked = 0;
	uint64_t per_band[PRIO_BANDS] = { 0 };
	unsigned fails = 0, band = 0, last_band = 0;

	bench_gate_wait(&h->gate);
	const double cpu0 = bench_thread_cpu_s();
	while (!bench_gate_stopped(&h->gate)) {
		unsigned k = get(queue, items, n, single ? &band : NULL);

		if (k == 0) {
			polls++;
			/* Past the spinning phase (no item for a while), an
			 * item still counted is stuck behind a slot nobody
			 * has published. */
			if (fails >= PRIO_SPIN_FAILS && backlog(queue) != 0)
				blocked++;
			bench_backoff(&fails, PRIO_SPIN_FAILS,
				      PRIO_RELAX_PER_FAIL);
			continue;
		}
		fails = 0;
		if (single && GRAIN_UNLIKELY(band != items[0]->band))
			t->band_errors++;
		for (unsigned i = 0; i < k; i++) {
			per_band[items[i]->band % PRIO_BANDS]++;
			prio_check(t, items[i], producers, false, &last_band);
		}
		count += k;
	}
	t->cpu_seconds = bench_thread_cpu_s() - cpu0;
	t->count_at_stop = count;
	t->empty_polls = polls;
	t->blocked_polls = blocked;
	for (unsigned b = 0; b < PRIO_BANDS; b++)
		t->band_at_stop[b] = per_band[b];

	/* AD1: pairs with RD1 in prio_produce(). Producers never wait for
	 * the consumer, so this wait ends. */
	while (atomic_load_explicit(&h->producers_done, memory_order_acquire) <
	       producers)
		sched_yield();
	/* The drain: nothing arrives any more, so strict priority must show
	 * as bands in order 0, 1, 2. */
	uint64_t drained = 0;
	for (;;) {
		unsigned k = get(queue, items, n, single ? &band : NULL);

		if (k == 0)
			break;
		if (single && GRAIN_UNLIKELY(band != items[0]->band))
			t->band_errors++;
		for (unsigned i = 0; i < k; i++)
			prio_check(t, items[i], producers, true, &last_band);
		drained += k;
	}
	t->drained = drained;
}

/*
 * PRIO_ADAPTER - the adapter @p name over the file's static put,
 * get_single, get_burst and backlog: its producer and consumers (the loops
 * above with those calls as constants) and its check, the queue's own
 * statistics (@p stats_fn filling a struct @p stats_type per band) against
 * the producers' counts: accepted and dropped per band, and nothing left
 * behind.
 */
#define PRIO_ADAPTER(name, create_fn, destroy_fn, stats_type, stats_fn)     \
	BENCH_THREAD_FN(producer, prio_produce, put)                        \
	BENCH_THREAD_FN(consumer_single, prio_consume, get_single, backlog, \
			true)                                               \
	BENCH_THREAD_FN(consumer_burst, prio_consume, get_burst, backlog,   \
			false)                                              \
	static uint64_t check(void *queue, const uint64_t *accepted_band,   \
			      const uint64_t *dropped_band)                 \
	{                                                                   \
		uint64_t errors = 0;                                        \
                                                                            \
		for (unsigned b = 0; b < PRIO_BANDS; b++) {                 \
			struct stats_type st;                               \
                                                                            \
			if (stats_fn(queue, b, &st) != 0) {                 \
				errors++;                                   \
				continue;                                   \
			}                                                   \
			errors += st.enqueued != accepted_band[b];          \
			errors += st.dropped != dropped_band[b];            \
			errors += st.backlog != 0;                          \
		}                                                           \
		return errors;                                              \
	}                                                                   \
	const struct prio_adapter name = {                                  \
		.create = create_fn,                                        \
		.destroy = destroy_fn,                                      \
		.producer = producer,                                       \
		.consumer = { [PRIO_DEQ_SINGLE] = consumer_single,          \
			      [PRIO_DEQ_BURST] = consumer_burst },          \
		.check = check,                                             \
	};

#endif /* GRAIN_BENCH_PRIO_HARNESS_H */
