/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.h - internal to bench/prio (C11): the items, the producer and
 * consumer loops, and the adapter each queue fills in. A queue's put and
 * gets go, as constants, into PRIO_ADAPTER(), which instantiates the
 * always-inlined loops with them: each queue gets its own copy of the
 * same loops with its calls inlined, and no indirect call sits on the
 * measured path.
 *
 * Ordering: the gate's (common/core.h; the queue, the pools and the
 * thread structs are set up before it opens), and
 *   producers_done  producers -> consumer, release/acquire (RD1 -> AD1):
 *                   once the consumer has seen every producer done, every
 *                   accepted item is in the queue and nothing more comes;
 *   item.busy       the queue's enqueue and dequeue order an item's fields
 *                   from producer to consumer; consumer -> producer
 *                   release/acquire (RB1 -> AB1): the consumer's reads of
 *                   the item are done before the producer reuses it.
 */
#ifndef GRAIN_BENCH_PRIO_HARNESS_H
#define GRAIN_BENCH_PRIO_HARNESS_H

#include "adapters.h"

#include "../../common/core.h"

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* The consumer on an empty queue, the same for every queue: this many
 * pauses per failed try, sched_yield() after PRIO_SPIN_FAILS in a row.
 * A full band drops the item, as the qdisc does; the producer then goes on
 * at once, or first yields its CPU (prio_config.producer_yield). */
#define PRIO_RELAX_PER_FAIL 8u
#define PRIO_SPIN_FAILS 64u
/* The priority stream: a table of this many priorities (a power of two)
 * that every producer walks from its own offset. */
#define PRIO_STREAM_LEN 256u

/* pfifo_fast's priority-to-band map (baselines/pfifo_list.c). */
extern const uint8_t pfifo_list_prio2band[16];

/* The link the pfifo_list baseline queues an item by. */
struct pfifo_list_node {
	struct pfifo_list_node *next;
};

/* One queued object: a cache line, like the head of an skb. The baseline
 * links it through `link`; grain_prio stores its address. */
struct prio_item {
	alignas(GRAIN_CACHELINE) struct pfifo_list_node link;
	uint64_t seq;	       /* the producer's attempt number */
	uint32_t producer;     /* its index */
	uint8_t prio;	       /* 0..15 */
	uint8_t band;	       /* prio_stream_band(prio) */
	_Atomic(uint8_t) busy; /* in flight: enqueued, not yet checked */
};

_Static_assert(sizeof(struct prio_item) == GRAIN_CACHELINE,
	       "one item per cache line");

struct prio_harness {
	struct bench_gate gate;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) producers_done;
	alignas(GRAIN_CACHELINE) void *queue; /* read-only while running */
	struct prio_config cfg;
	const uint8_t *stream; /* PRIO_STREAM_LEN priorities */
};

/* A producer's results, or the consumer's results and checks. */
struct prio_thread {
	alignas(GRAIN_CACHELINE) struct prio_harness *h;
	unsigned index;		/* among producers; 0 for the consumer */
	struct prio_item *pool; /* PRIO_POOL_ITEMS, the producer's */
	uint64_t attempts, accepted_sum; /* sum of accepted sequences */
	uint64_t accepted_band[PRIO_BANDS], dropped_band[PRIO_BANDS];
	uint64_t count_at_stop, band_at_stop[PRIO_BANDS], drained;
	uint64_t empty_polls, blocked_polls;
	double cpu_seconds;
	uint64_t order_errors, band_errors, priority_errors;
	uint64_t next[PRIO_MAX_PRODUCERS][PRIO_BANDS]; /* lowest legal seq */
	uint64_t cnt[PRIO_MAX_PRODUCERS], sum[PRIO_MAX_PRODUCERS]; /* seen */
};

/* put: 0 if the item was queued, non-zero if it was dropped. get: take up
 * to n items (1 for single); how many. With bandp, the get is single and
 * stores the band the queue took the item from. backlog: the items the
 * queue counts as queued (a racy snapshot), read only after
 * PRIO_SPIN_FAILS gets in a row found nothing: non-zero then means an
 * item was claimed but not published for a while (or arrived just now). */
typedef int (*prio_put_fn)(void *queue, struct prio_item *item);
typedef unsigned (*prio_get_fn)(void *queue, struct prio_item **items,
				unsigned n, unsigned *bandp);
typedef unsigned (*prio_backlog_fn)(void *queue);

/* What each adapter provides. check compares the queue's statistics, once
 * every thread is joined, with what the producers counted: the number of
 * disagreements. */
struct prio_adapter {
	int (*create)(void **queuep, enum prio_impl impl,
		      const struct prio_config *cfg);
	void (*destroy)(void *queue);
	void *(*producer)(void *thread);
	void *(*consumer[PRIO_DEQ_COUNT])(void *thread);
	uint64_t (*check)(void *queue, const uint64_t *accepted_band,
			  const uint64_t *dropped_band);
	/* prio_probe() through the adapter's calls. */
	uint64_t (*probe)(void *queue, const struct prio_config *cfg);
};

extern const struct prio_adapter prio_adapter_grain, prio_adapter_pfifo;

static GRAIN_ALWAYS_INLINE void prio_produce(struct prio_thread *t,
					     prio_put_fn put)
{
	struct prio_harness *h = t->h;
	void *const queue = h->queue;
	const uint8_t *const stream = h->stream;
	struct prio_item *const pool = t->pool;
	const unsigned index = t->index;
	unsigned slot = 0, at = (index * 97u) & (PRIO_STREAM_LEN - 1);
	uint64_t seq = 0, sum = 0;
	uint64_t accepted[PRIO_BANDS] = { 0 }, dropped[PRIO_BANDS] = { 0 };
	const bool yield = h->cfg.producer_yield;

	/* The pool is ours: touch it first, before the clock starts. */
	for (unsigned i = 0; i < PRIO_POOL_ITEMS; i++) {
		pool[i] = (struct prio_item){ .producer = index };
		atomic_init(&pool[i].busy, 0);
	}
	bench_gate_wait(&h->gate);
	while (!bench_gate_stopped(&h->gate)) {
		struct prio_item *item = &pool[slot];

		slot = (slot + 1) & (PRIO_POOL_ITEMS - 1);
		/* AB1: pairs with RB1 in prio_check(); the consumer is done
		 * with the item. Still in flight: take the next one. */
		if (atomic_load_explicit(&item->busy, memory_order_acquire))
			continue;
		uint8_t prio = stream[at];

		at = (at + 1) & (PRIO_STREAM_LEN - 1);
		item->seq = seq;
		item->prio = prio;
		item->band = pfifo_list_prio2band[prio];
		atomic_store_explicit(&item->busy, 1, memory_order_relaxed);
		if (put(queue, item) == 0) {
			accepted[item->band]++;
			sum += seq;
		} else {
			/* Never published: nobody else looks at it. */
			atomic_store_explicit(&item->busy, 0,
					      memory_order_relaxed);
			dropped[item->band]++;
			if (yield)
				sched_yield();
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
	uint64_t count = 0, polls = 0, blocked = 0, drained = 0;
	uint64_t per_band[PRIO_BANDS] = { 0 };
	unsigned fails = 0, band = 0, last_band = 0, k;

	bench_gate_wait(&h->gate);
	const double cpu0 = bench_thread_cpu_s();
	while (!bench_gate_stopped(&h->gate)) {
		k = get(queue, items, n, single ? &band : NULL);
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
	 * the consumer (a yield returns), so this wait ends. */
	while (atomic_load_explicit(&h->producers_done, memory_order_acquire) <
	       producers)
		sched_yield();
	/* The drain: nothing arrives any more, so strict priority must show
	 * as bands in order 0, 1, 2. */
	while ((k = get(queue, items, n, single ? &band : NULL)) != 0) {
		if (single && GRAIN_UNLIKELY(band != items[0]->band))
			t->band_errors++;
		for (unsigned i = 0; i < k; i++)
			prio_check(t, items[i], producers, true, &last_band);
		drained += k;
	}
	t->drained = drained;
}

/* After the run and its checks, alone on the empty queue: up to 8 items
 * a band, their priorities cycling through the stream's three (bands 1,
 * 0, 2 in turn), put in and taken out as the consumer takes them (@n a
 * call, @single: one, with its band). Strict priority must give bands 0,
 * 1, 2 in that order, each band in the order its items went in, every
 * item once; the drain of a run checks this only on what is left at its
 * stop, often nothing. @return the errors. */
static inline uint64_t prio_probe(void *queue, prio_put_fn put, prio_get_fn get,
				  unsigned n, bool single, unsigned band_limit)
{
	static const uint8_t prios[] = { 0, 6, 2 };
	const unsigned total = 3u * (band_limit < 8u ? band_limit : 8u);
	struct prio_item items[3 * 8], *out[PRIO_MAX_BURST];
	uint64_t errors = 0, last_seq = 0;
	unsigned got = 0, band = 0, last_band = 0, k;

	for (unsigned i = 0; i < total; i++) {
		items[i] = (struct prio_item){ .seq = i, .prio = prios[i % 3] };
		items[i].band = pfifo_list_prio2band[items[i].prio];
		atomic_init(&items[i].busy, 1);
		errors += put(queue, &items[i]) != 0;
	}
	while ((k = get(queue, out, n, single ? &band : NULL)) != 0) {
		for (unsigned i = 0; i < k; i++) {
			const struct prio_item *it = out[i];
			if (it < items || it >= items + total) {
				errors++;
				continue;
			}
			errors += single && band != it->band;
			/* In order: (band, seq) only goes up. */
			errors += got != 0 && (it->band < last_band ||
					       (it->band == last_band &&
						it->seq <= last_seq));
			last_band = it->band;
			last_seq = it->seq;
			got++;
		}
	}
	return errors + (got != total);
}

/*
 * PRIO_ADAPTER - the adapter @name over the calls @p_create, _destroy,
 * _put, _get_single, _get_burst and _backlog: its producer and consumers
 * (the loops above with those calls as constants) and its check, the
 * queue's statistics of band b (@stats(queue, b, &st) filling a struct
 * @stats_type: enqueued, dropped, backlog; 0 or -errno) against the
 * producers' counts: accepted and dropped per band, nothing left behind.
 */
#define PRIO_ADAPTER(name, p, stats_type, stats)                              \
	BENCH_THREAD_FN(p##_producer, prio_produce, p##_put)                  \
	BENCH_THREAD_FN(p##_consumer_single, prio_consume, p##_get_single,    \
			p##_backlog, true)                                    \
	BENCH_THREAD_FN(p##_consumer_burst, prio_consume, p##_get_burst,      \
			p##_backlog, false)                                   \
	static uint64_t p##_check(void *queue, const uint64_t *accepted,      \
				  const uint64_t *dropped)                    \
	{                                                                     \
		uint64_t errors = 0;                                          \
		struct stats_type st;                                         \
		for (unsigned b = 0; b < PRIO_BANDS; b++) {                   \
			if (stats(queue, b, &st) != 0) {                      \
				errors++;                                     \
				continue;                                     \
			}                                                     \
			errors += st.enqueued != accepted[b];                 \
			errors += st.dropped != dropped[b];                   \
			errors += st.backlog != 0;                            \
		}                                                             \
		return errors;                                                \
	}                                                                     \
	static uint64_t p##_probe(void *queue, const struct prio_config *cfg) \
	{                                                                     \
		bool single = cfg->deq == PRIO_DEQ_SINGLE;                    \
		return prio_probe(queue, p##_put,                             \
				  single ? p##_get_single : p##_get_burst,    \
				  single ? 1u : cfg->burst, single,           \
				  cfg->band_limit);                           \
	}                                                                     \
	const struct prio_adapter name = {                                    \
		.create = p##_create,                                         \
		.destroy = p##_destroy,                                       \
		.producer = p##_producer,                                     \
		.consumer = { [PRIO_DEQ_SINGLE] = p##_consumer_single,        \
			      [PRIO_DEQ_BURST] = p##_consumer_burst },        \
		.check = p##_check,                                           \
		.probe = p##_probe,                                           \
	};

/* The baseline's calls, which bench/instr counts too. */
int prio_pfifo_put(void *queue, struct prio_item *item);
unsigned prio_pfifo_get_single(void *queue, struct prio_item **items,
			       unsigned n, unsigned *bandp);
unsigned prio_pfifo_get_burst(void *queue, struct prio_item **items, unsigned n,
			      unsigned *bandp);

#endif /* GRAIN_BENCH_PRIO_HARNESS_H */
