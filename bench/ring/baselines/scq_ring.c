/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scq_ring.c - a prototype, for the benchmark only: a bounded ring of
 * pointers whose claims are fetch-and-add tickets, after the SCQ queue
 * (R. Nikolaev, "A Scalable, Portable, and Memory-Efficient Lock-Free FIFO
 * Queue", DISC 2019). It is here as evidence for or against such a design
 * beside the two-lock rings, not as a queue to use: the 2^64 wrap of its
 * counters is not handled (cycles are compared as plain integers, good for
 * 2^52 turns of a ring of 2048 entries), and nothing beyond the
 * benchmark's own count and order checks has tested it.
 *
 * Design. Objects sit in data[], an array of capacity pointers; two
 * queues of indices into it pass them around: fq holds the free indices,
 * aq the ones holding an object. An enqueue takes an index from fq, stores
 * the object there and puts the index on aq; a dequeue takes an index from
 * aq, reads the object and gives the index back to fq. A preempted thread
 * so holds up at most the one index it holds, never the others.
 *
 * Each index queue (struct scq) has 2 * capacity entries of one word:
 * cycle | safe | index, the index field all ones (BOT) when empty. Head
 * and tail are tickets taken by fetch-and-add; ticket t names entry
 * t mod 2n (remapped so that consecutive tickets fall on different cache
 * lines) in cycle t / 2n. What makes fetch-and-add workable is that a
 * dequeuer can give up a ticket whose entry is not ready: it moves an empty
 * entry of an older cycle to its own cycle (a late enqueuer with that
 * ticket will not fill it, and takes another), or marks an older entry
 * still full unsafe (an enqueuer of a later cycle may use it only when no
 * dequeuer can still be coming for its ticket: head <= its ticket), and
 * takes the next ticket. threshold (3n - 1 after every enqueue, one down
 * for every ticket a dequeuer gives up) bounds how far dequeuers run on an
 * empty queue; below 0 they answer empty without taking a ticket, and a
 * dequeuer that passes the tail moves the tail up to it (catchup).
 *
 * Ordering. Every atomic access is sequentially consistent (a prototype:
 * on x86 the read-modify-writes are locked instructions anyway). The
 * object in data[i] is written before i goes on aq and read after i comes
 * off it, and reused only after i went back through fq: the entries'
 * read-modify-writes order them.
 *
 * Calls: those of baselines.h; capacity a power of two >= 4. A NULL
 * object may be stored. enqueue_bulk takes n free indices or gives back
 * those it took; dequeue_burst is a loop of try_dequeue.
 */
#include "baselines.h"

#include <grain/common.h>

#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define SCQ_MAX_BULK 256u

struct scq {
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) tail;
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) head;
	alignas(GRAIN_CACHELINE) _Atomic(int64_t) threshold;
	/* Read-only after create. */
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) *entry; /* 2n */
	unsigned order;		/* log2(2n): the index field's bits */
	int64_t threshold_full; /* 3n - 1 */
};

struct bench_scq_ring {
	struct scq aq, fq;
	alignas(GRAIN_CACHELINE) void **data;
	unsigned size;
};

static inline uint64_t scq_bot(const struct scq *q)
{
	return ((uint64_t)1 << q->order) - 1;
}

static inline uint64_t scq_safe(const struct scq *q)
{
	return (uint64_t)1 << q->order;
}

static inline uint64_t scq_cycle(const struct scq *q, uint64_t e)
{
	return e >> (q->order + 1);
}

/* Ticket t's entry: position t mod 2n, consecutive positions spread over
 * the 2n / 8 cache lines of entries. */
static inline _Atomic(uint64_t) *scq_slot(const struct scq *q, uint64_t t)
{
	unsigned lines = q->order - 3; /* log2(2n / 8) */
	unsigned pos = (unsigned)(t & scq_bot(q));

	return &q->entry[((pos & ((1u << lines) - 1)) << 3) | (pos >> lines)];
}

static int scq_init(struct scq *q, unsigned n)
{
	unsigned order = 0;

	while ((1u << order) < 2 * n)
		order++;
	q->order = order;
	q->threshold_full = 3 * (int64_t)n - 1;
	q->entry = aligned_alloc(GRAIN_CACHELINE,
				 (size_t)2 * n * sizeof(*q->entry));
	if (q->entry == NULL)
		return -ENOMEM;
	/* Cycle 0, safe, empty; the tickets start in cycle 1. */
	for (unsigned i = 0; i < 2 * n; i++)
		atomic_init(&q->entry[i], scq_safe(q) | scq_bot(q));
	atomic_init(&q->tail, 2 * (uint64_t)n);
	atomic_init(&q->head, 2 * (uint64_t)n);
	atomic_init(&q->threshold, -1);
	return 0;
}

/* Put idx on q. Never fails: q has room for every index (2n entries for
 * n indices), so a ticket is given up only to a dequeuer and the next
 * one is taken. */
static void scq_enqueue(struct scq *q, unsigned idx)
{
	for (;;) {
		uint64_t t = atomic_fetch_add(&q->tail, 1);
		uint64_t cycle = t >> q->order;
		_Atomic(uint64_t) *slot = scq_slot(q, t);
		uint64_t e = atomic_load(slot);

		while (scq_cycle(q, e) < cycle &&
		       (e & scq_bot(q)) == scq_bot(q) &&
		       ((e & scq_safe(q)) || atomic_load(&q->head) <= t)) {
			uint64_t filled = (cycle << (q->order + 1)) |
					  scq_safe(q) | idx;
			if (atomic_compare_exchange_weak(slot, &e, filled)) {
				if (atomic_load(&q->threshold) !=
				    q->threshold_full)
					atomic_store(&q->threshold,
						     q->threshold_full);
				return;
			}
		}
	}
}

/* The dequeuer passed the tail: bring the tail up to HEAD, unless
 * enqueuers already moved it past. */
static void scq_catchup(struct scq *q, uint64_t tail, uint64_t head)
{
	while (!atomic_compare_exchange_weak(&q->tail, &tail, head)) {
		head = atomic_load(&q->head);
		if (tail >= head)
			break;
	}
}

/* Take an index off q into *idxp: true, or false if q is empty. */
static bool scq_dequeue(struct scq *q, unsigned *idxp)
{
	if (atomic_load(&q->threshold) < 0)
		return false;
	for (;;) {
		/* Not in SCQ: look before taking a ticket. A poller on an
		 * empty queue otherwise takes the ticket an enqueuer is about
		 * to fill, gives it up, and makes that enqueuer take another:
		 * each pair then costs several line transfers. So: empty if
		 * no enqueuer took a ticket we could take; and if the only
		 * one outstanding is still being filled, wait for it (say
		 * empty) rather than steal it; give a ticket up only when
		 * later ones were taken (its enqueuer lags behind others).
		 * SCQ_NO_LOOK measures it without. */
#ifndef SCQ_NO_LOOK
		uint64_t h0 = atomic_load(&q->head);
		uint64_t t0 = atomic_load(&q->tail);
		if (h0 >= t0)
			return false;
		if (t0 == h0 + 1 &&
		    scq_cycle(q, atomic_load(scq_slot(q, h0))) !=
			    h0 >> q->order)
			return false;
#endif
		uint64_t h = atomic_fetch_add(&q->head, 1);
		uint64_t cycle = h >> q->order;
		_Atomic(uint64_t) *slot = scq_slot(q, h);
		uint64_t e = atomic_load(slot);

		for (;;) {
			uint64_t ec = scq_cycle(q, e);
			if (ec == cycle) {
				/* Ours: only ticket h consumes it. */
				atomic_fetch_or(slot, scq_bot(q));
				*idxp = (unsigned)(e & scq_bot(q));
				return true;
			}
			if (ec > cycle)
				break; /* we are a whole turn late */
			/* Give the ticket up: an empty entry moves to our
			 * cycle, a full one of an older cycle turns unsafe. */
			uint64_t given = (e & scq_bot(q)) == scq_bot(q)
						 ? (cycle << (q->order + 1)) |
							   (e & scq_safe(q)) |
							   scq_bot(q)
						 : e & ~scq_safe(q);
			if (atomic_compare_exchange_weak(slot, &e, given))
				break;
		}
		uint64_t t = atomic_load(&q->tail);
		if (t <= h + 1) {
			scq_catchup(q, t, h + 1);
			atomic_fetch_sub(&q->threshold, 1);
			return false;
		}
		if (atomic_fetch_sub(&q->threshold, 1) <= 0)
			return false;
	}
}

int bench_scq_ring_create(struct bench_scq_ring **ringp, unsigned capacity)
{
	if (ringp == NULL || capacity < 4 || (capacity & (capacity - 1)) != 0)
		return -EINVAL;
	struct bench_scq_ring *r = aligned_alloc(GRAIN_CACHELINE, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->size = capacity;
	r->aq.entry = r->fq.entry = NULL;
	r->data = calloc(capacity, sizeof(void *));
	if (r->data == NULL || scq_init(&r->aq, capacity) != 0 ||
	    scq_init(&r->fq, capacity) != 0) {
		bench_scq_ring_destroy(r);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < capacity; i++)
		scq_enqueue(&r->fq, i);
	*ringp = r;
	return 0;
}

void bench_scq_ring_destroy(struct bench_scq_ring *ring)
{
	if (ring == NULL)
		return;
	free(ring->aq.entry);
	free(ring->fq.entry);
	free(ring->data);
	free(ring);
}

int bench_scq_ring_try_enqueue(struct bench_scq_ring *ring, void *obj)
{
	unsigned i;

	if (!scq_dequeue(&ring->fq, &i))
		return -EAGAIN;
	ring->data[i] = obj;
	scq_enqueue(&ring->aq, i);
	return 0;
}

int bench_scq_ring_try_dequeue(struct bench_scq_ring *ring, void **objp)
{
	unsigned i;

	if (!scq_dequeue(&ring->aq, &i))
		return -EAGAIN;
	*objp = ring->data[i];
	scq_enqueue(&ring->fq, i);
	return 0;
}

int bench_scq_ring_enqueue_bulk(struct bench_scq_ring *ring, void *const *objs,
				unsigned n)
{
	unsigned idx[SCQ_MAX_BULK], k;

	if (n > ring->size || n > SCQ_MAX_BULK)
		return -EINVAL;
	for (k = 0; k < n; k++)
		if (!scq_dequeue(&ring->fq, &idx[k]))
			break;
	if (k < n) {
		while (k-- > 0)
			scq_enqueue(&ring->fq, idx[k]);
		return -EAGAIN;
	}
	for (unsigned i = 0; i < n; i++) {
		ring->data[idx[i]] = objs[i];
		scq_enqueue(&ring->aq, idx[i]);
	}
	return 0;
}

unsigned bench_scq_ring_dequeue_burst(struct bench_scq_ring *ring, void **objs,
				      unsigned n)
{
	unsigned k = 0;

	while (k < n && bench_scq_ring_try_dequeue(ring, &objs[k]) == 0)
		k++;
	return k;
}
