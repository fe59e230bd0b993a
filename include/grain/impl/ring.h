/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/ring.h - grain_ring's layout, inline algorithm bodies and the bodies
 * of ring.h's inline calls: everything C++ does not see (C only).
 * Never include this file directly: include <grain/ring.h>.
 *
 * Labels: A1/R2 order a consumer's last read of a slot before the next
 * producer's write to it; R1/A2 order a producer's write of a slot before
 * the consumer's read; S1/S2 are the read-modify-writes of the sleep protocol
 * (src/ring.c).
 */
#ifndef GRAIN_IMPL_RING_H
#define GRAIN_IMPL_RING_H

#ifndef GRAIN_RING_H
#error "include <grain/ring.h> instead of <grain/impl/ring.h>"
#endif

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>

/* Threads of one side asleep in a _wait call, woken by the other side. */
struct grain_impl_ring_sleepers {
	_Atomic(uint32_t) waiters; /* how many are (about to be) asleep */
	_Atomic(uint32_t) epoch;   /* futex word, bumped by every wake */
};

/* One side's hot state. The sleepers kept here are those of the OTHER
 * side: the side that checks for them after every operation finds them on
 * its own cache line. */
struct grain_impl_ring_side {
	_Atomic(uint64_t) pos; /* next position to claim */
	uint32_t mask;         /* capacity - 1 (read-only copy) */
	uint32_t flags;        /* GRAIN_RING_* (read-only copy) */
	struct grain_impl_ring_sleepers sleepers;
};

struct grain_impl_ring_slot {
	_Atomic(uint64_t) seq; /* p: free for producer p; p + 1: ready */
	void *obj;
};

/* Each part starts a cache line of its own (alignas), so the layout needs
 * no padding worked out by hand and is the same on 32- and 64-bit targets.
 * An unused line (gap) separates the two sides so that adjacent-line
 * prefetching does not make them share. The slot array follows the struct:
 * its size is a multiple of its alignment, GRAIN_CACHELINE. */
struct grain_ring {
	/* Producers' side; its sleepers are consumers (waiting: not empty). */
	alignas(GRAIN_CACHELINE) struct grain_impl_ring_side prod;
	alignas(GRAIN_CACHELINE) char gap0[GRAIN_CACHELINE];
	/* Consumers' side; its sleepers are producers (waiting: not full). */
	alignas(GRAIN_CACHELINE) struct grain_impl_ring_side cons;
	alignas(GRAIN_CACHELINE) char gap1[GRAIN_CACHELINE];
	/* Cold: lifecycle only. */
	alignas(GRAIN_CACHELINE) struct {
		struct grain_alloc alloc;
		size_t memsize;
		uint64_t base; /* positions at init (moved only by tests) */
		bool created;
	} life;
};

_Static_assert(offsetof(struct grain_ring, prod) == 0, "producer line");
_Static_assert(offsetof(struct grain_ring, cons) == 2 * GRAIN_CACHELINE,
	       "consumer state two lines from producer state");
_Static_assert(_Alignof(struct grain_ring) == GRAIN_CACHELINE,
	       "rings are cache-line aligned, not more");
_Static_assert(sizeof(struct grain_ring) % GRAIN_CACHELINE == 0,
	       "slots start on a cache line");
_Static_assert(sizeof(struct grain_impl_ring_side) <= GRAIN_CACHELINE,
	       "one side fits one line");

static inline struct grain_impl_ring_slot *
grain_impl_ring_slots(const struct grain_ring *r)
{
	return (struct grain_impl_ring_slot *)(void *)(r + 1);
}

/* The out-of-line helpers below are exported (GRAIN_API) although they are
 * not API: the inline paths compiled into callers call them, so they are
 * part of libgrain's ABI. */

/* Out of line (src/ring.c): bump the epoch and wake every sleeper. */
GRAIN_API GRAIN_COLD void
grain_impl_ring_wake(struct grain_impl_ring_sleepers *s);

/* The sleep loop of every _wait call (src/ring.c), shared by the blocks:
 * calls attempt(ctx) until it returns non-zero (returned as is) or the
 * timeout passes (-ETIMEDOUT; timeout_ns < 0: never, 0: one attempt),
 * sleeping on s between attempts. Whoever makes attempt succeed must call
 * grain_impl_ring_notify(s) afterwards. */
GRAIN_API int grain_impl_wait(struct grain_impl_ring_sleepers *s,
			      unsigned (*attempt)(void *ctx), void *ctx,
			      int64_t timeout_ns);

/* After a successful operation on a WAIT ring: wake the other side if
 * anyone sleeps there. */
static GRAIN_ALWAYS_INLINE void
grain_impl_ring_notify(struct grain_impl_ring_sleepers *s)
{
	/* S1: pairs with S2 in the sleeper (src/ring.c). Both sides make a
	 * read-modify-write of `waiters`, so the two are totally ordered: if
	 * ours comes second we read the sleeper's increment; if it comes
	 * first the sleeper's RMW reads ours and acquires our slot updates,
	 * which its re-check then sees. (An RMW rather than a fence: it costs
	 * the same on x86 and ThreadSanitizer understands it.) */
	if (atomic_fetch_add_explicit(&s->waiters, 0, memory_order_acq_rel) != 0)
		grain_impl_ring_wake(s);
}

/*
 * Claim up to n consecutive positions of one side. want(p) is the sequence
 * a slot must hold for position p to be claimable: p for producers (free),
 * p + 1 for consumers (ready). Returns the first claimed position in *posp
 * and the count (n, or fewer only if burst; 0 if none).
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_claim(struct grain_impl_ring_side *side,
		      struct grain_impl_ring_slot *slots, uint64_t ready,
		      unsigned n, bool burst, uint64_t *posp)
{
	const uint64_t mask = side->mask;
	uint64_t pos = atomic_load_explicit(&side->pos, memory_order_relaxed);

	for (;;) {
		unsigned k = 0;
		int64_t d = 0;

		while (k < n) {
			/* A1/A2: pairs with R2/R1. For a producer, the last
			 * consumer of the slot is done reading it; for a
			 * consumer, the producer's object is visible. */
			uint64_t seq = atomic_load_explicit(
				&slots[(pos + k) & mask].seq,
				memory_order_acquire);
			d = (int64_t)(seq - (pos + k + ready));
			if (d != 0)
				break;
			k++;
		}
		if (k < n) {
			if (d > 0) {
				/* Another thread of this side claimed the slot
				 * since we read pos: start again from now. */
				pos = atomic_load_explicit(
					&side->pos, memory_order_relaxed);
				continue;
			}
			if (!burst || k == 0)
				return 0;
		}
		if (side->flags & (ready ? GRAIN_RING_SC : GRAIN_RING_SP)) {
			/* Single thread on this side: nobody to race. */
			atomic_store_explicit(&side->pos, pos + k,
					      memory_order_relaxed);
			*posp = pos;
			return k;
		}
		/* Only the winner of this CAS may touch positions [pos, pos+k):
		 * the slots were checked above and only the owner of a
		 * position changes its slot's sequence, so they stay as seen.
		 * On failure pos is reloaded and the check redone. */
		if (atomic_compare_exchange_weak_explicit(
			    &side->pos, &pos, pos + k, memory_order_relaxed,
			    memory_order_relaxed)) {
			*posp = pos;
			return k;
		}
	}
}

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_enqueue(struct grain_ring *r, void *const *objs, unsigned n,
			bool burst)
{
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	uint64_t pos;
	unsigned k = grain_impl_ring_claim(&r->prod, slots, 0, n, burst, &pos);

	for (unsigned i = 0; i < k; i++)
		slots[(pos + i) & r->prod.mask].obj = objs[i];
	/* Last slot first: a consumer finds the batch's first slot ready
	 * only once the whole batch is, and takes it in one go instead of
	 * chasing our stores line by line. */
	for (unsigned i = k; i-- > 0;) {
		/* R1: pairs with A2; the consumer of pos + i sees obj. */
		atomic_store_explicit(&slots[(pos + i) & r->prod.mask].seq,
				      pos + i + 1, memory_order_release);
	}
	if ((r->prod.flags & GRAIN_RING_WAIT) && k != 0)
		grain_impl_ring_notify(&r->prod.sleepers);
	return k;
}

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_dequeue(struct grain_ring *r, void **objs, unsigned n,
			bool burst)
{
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	const uint64_t cap = (uint64_t)r->cons.mask + 1;
	uint64_t pos;
	unsigned k = grain_impl_ring_claim(&r->cons, slots, 1, n, burst, &pos);

	for (unsigned i = 0; i < k; i++)
		objs[i] = slots[(pos + i) & r->cons.mask].obj;
	/* Last slot first, as in enqueue: producers get the batch's slots
	 * back together (the ptr_ring batched-zeroing idea, without losing
	 * any slot). */
	for (unsigned i = k; i-- > 0;) {
		/* R2: pairs with A1; the producer of pos + i + cap may now
		 * overwrite obj. */
		atomic_store_explicit(&slots[(pos + i) & r->cons.mask].seq,
				      pos + i + cap, memory_order_release);
	}
	if ((r->cons.flags & GRAIN_RING_WAIT) && k != 0)
		grain_impl_ring_notify(&r->cons.sleepers);
	return k;
}

/*
 * The snapshots read the two positions with relaxed loads, and no ordering
 * could make the pair consistent for free: the positions are written
 * relaxed (only the slot sequences carry release/acquire), so a reader that
 * reads head = H may still read a tail older than H, even though the tail
 * had passed H before any consumer could claim up to H. Rather than pay a
 * release on every claim, the readers clamp: a tail read behind the head
 * is taken as equal to it, which is a lower bound of the true tail at the
 * moment head was read. Each load alone is coherent, so successive
 * snapshots by one thread never go backwards.
 */
static inline void grain_impl_ring_positions(const struct grain_ring *r,
					     uint64_t *tail, uint64_t *head)
{
	struct grain_ring *w = (struct grain_ring *)r;
	uint64_t h = atomic_load_explicit(&w->cons.pos, memory_order_relaxed);
	uint64_t t = atomic_load_explicit(&w->prod.pos, memory_order_relaxed);

	/* Signed difference: positions are free-running and may wrap. */
	if ((int64_t)(t - h) < 0)
		t = h;
	*tail = t;
	*head = h;
}

static inline void grain_impl_ring_totals(const struct grain_ring *r,
					  uint64_t *tail, uint64_t *head)
{
	grain_impl_ring_positions(r, tail, head);
	*tail -= r->life.base;
	*head -= r->life.base;
}

/* Is the object at the head ready to be dequeued? (Used by grain_prio to
 * re-check a band it is about to call empty.) Loads are acquire. */
static inline bool grain_impl_ring_head_ready(const struct grain_ring *r)
{
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	struct grain_ring *w = (struct grain_ring *)r;
	uint64_t pos = atomic_load_explicit(&w->cons.pos, memory_order_acquire);

	for (;;) {
		/* A2: pairs with R1, as in a dequeue. */
		uint64_t seq = atomic_load_explicit(
			&slots[pos & r->cons.mask].seq, memory_order_acquire);
		int64_t d = (int64_t)(seq - (pos + 1));
		if (d == 0)
			return true;
		if (d < 0)
			return false;
		/* Consumed since we read head: look at the new head. */
		pos = atomic_load_explicit(&w->cons.pos, memory_order_acquire);
	}
}

static inline unsigned grain_impl_ring_count(const struct grain_ring *r)
{
	uint64_t tail, head;
	uint64_t cap = (uint64_t)r->cons.mask + 1;

	grain_impl_ring_positions(r, &tail, &head);
	/* tail >= head here; a tail read much later than the head may be
	 * more than a capacity ahead of it. */
	uint64_t used = tail - head;
	return (unsigned)(used > cap ? cap : used);
}

/* For tests: empty the ring and put both positions at pos (for example just
 * below 2^32 or 2^64, to cross the wrap). No other call may run. A test
 * hook, not API: libgrain.so does not export it, tests that use it link
 * libgrain.a. */
void grain_impl_ring_reset(struct grain_ring *r, uint64_t pos);

/*
 * The public inline calls of ring.h (declared and documented there). In
 * src/export.c, GRAIN_INLINE_API makes these the exported definitions that
 * C++ and other callers without the inline bodies reach.
 */

GRAIN_INLINE_API unsigned grain_ring_capacity(const struct grain_ring *ring)
{
	return ring->cons.mask + 1u;
}

GRAIN_INLINE_API int grain_ring_try_enqueue(struct grain_ring *ring, void *obj)
{
	if (GRAIN_UNLIKELY(ring == NULL))
		return -EINVAL;
	return grain_impl_ring_enqueue(ring, &obj, 1, false) == 1 ? 0 : -EAGAIN;
}

GRAIN_INLINE_API int grain_ring_try_dequeue(struct grain_ring *ring,
					    void **objp)
{
	if (GRAIN_UNLIKELY(ring == NULL || objp == NULL))
		return -EINVAL;
	return grain_impl_ring_dequeue(ring, objp, 1, false) == 1 ? 0 : -EAGAIN;
}

GRAIN_INLINE_API int grain_ring_enqueue_bulk(struct grain_ring *ring,
					     void *const *objs, unsigned n)
{
	if (GRAIN_UNLIKELY(ring == NULL || (objs == NULL && n != 0) ||
			   n > ring->prod.mask + 1u))
		return -EINVAL;
	if (n == 0)
		return 0;
	return grain_impl_ring_enqueue(ring, objs, n, false) == n ? 0 : -EAGAIN;
}

GRAIN_INLINE_API int grain_ring_enqueue_burst(struct grain_ring *ring,
					      void *const *objs, unsigned n)
{
	if (GRAIN_UNLIKELY(ring == NULL || (objs == NULL && n != 0) ||
			   n > (unsigned)INT32_MAX))
		return -EINVAL;
	if (n == 0)
		return 0;
	return (int)grain_impl_ring_enqueue(ring, objs, n, true);
}

GRAIN_INLINE_API int grain_ring_dequeue_bulk(struct grain_ring *ring,
					     void **objs, unsigned n)
{
	if (GRAIN_UNLIKELY(ring == NULL || (objs == NULL && n != 0) ||
			   n > ring->cons.mask + 1u))
		return -EINVAL;
	if (n == 0)
		return 0;
	return grain_impl_ring_dequeue(ring, objs, n, false) == n ? 0 : -EAGAIN;
}

GRAIN_INLINE_API int grain_ring_dequeue_burst(struct grain_ring *ring,
					      void **objs, unsigned n)
{
	if (GRAIN_UNLIKELY(ring == NULL || (objs == NULL && n != 0) ||
			   n > (unsigned)INT32_MAX))
		return -EINVAL;
	if (n == 0)
		return 0;
	return (int)grain_impl_ring_dequeue(ring, objs, n, true);
}

GRAIN_INLINE_API void grain_ring_totals(const struct grain_ring *ring,
					uint64_t *enqueued, uint64_t *dequeued)
{
	grain_impl_ring_totals(ring, enqueued, dequeued);
}

GRAIN_INLINE_API unsigned grain_ring_count(const struct grain_ring *ring)
{
	return grain_impl_ring_count(ring);
}

GRAIN_INLINE_API unsigned grain_ring_free_count(const struct grain_ring *ring)
{
	return grain_ring_capacity(ring) - grain_impl_ring_count(ring);
}

GRAIN_INLINE_API bool grain_ring_empty(const struct grain_ring *ring)
{
	return grain_impl_ring_count(ring) == 0;
}

GRAIN_INLINE_API bool grain_ring_full(const struct grain_ring *ring)
{
	return grain_impl_ring_count(ring) == grain_ring_capacity(ring);
}

#endif /* GRAIN_IMPL_RING_H */
