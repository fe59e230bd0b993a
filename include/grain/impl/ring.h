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
 * its own cache line. A single consumer's pos is also what it publishes:
 * producers read it (acquire) to learn which slots are free. */
struct grain_impl_ring_side {
	_Atomic(uint64_t) pos; /* next position to claim */
	uint32_t mask;         /* capacity - 1 (read-only copy) */
	uint32_t flags;        /* GRAIN_RING_* (read-only copy) */
	struct grain_impl_ring_sleepers sleepers;
	/* Producers' side of an SC ring with one producer (SPSC): its last
	 * read of the consumer's pos, written and read by that one thread
	 * (relaxed: its own earlier acquire load ordered everything it
	 * vouches for). Unused otherwise. */
	_Atomic(uint64_t) cache;
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

/* Out of line (src/ring.c): bump the epoch and wake every sleeper. Not
 * marked cold: gcc would then move the whole successful path of every
 * operation that may call it (all of a WAIT ring's) out of line. */
GRAIN_API void grain_impl_ring_wake(struct grain_impl_ring_sleepers *s);

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
 * The hot paths are compiled once per mode (sp, sc: constants in each
 * copy); grain_impl_ring_enqueue() and _dequeue() pick the copy from the
 * ring's flags with one branch. How each side tells the other what it did:
 *  - producers, single or multi, publish per slot: a producer sets the
 *    slot's sequence to p + 1 once the object is in (R1), and consumers
 *    check each slot's sequence (A2) before they claim it. The consumer
 *    reads that slot's line for its object anyway, so the check costs no
 *    line of its own, and a consumer that keeps up with its producer
 *    finds the object and its readiness on one line.
 *  - multiple consumers publish per slot too: a consumer sets the
 *    sequence to p + capacity once it has read the object (R2), and
 *    producers check it (A1). Consumers finish in any order, and a slot's
 *    sequence says which are done.
 *  - a single consumer publishes its position instead: it stores pos
 *    (release, R2') after it has read a batch's objects, and writes no
 *    sequence. Producers read that one word (acquire, A1') to learn how
 *    many slots are free, and a single producer (SPSC) keeps its last
 *    read in prod.cache and reads the consumer's line only when that
 *    copy says the ring is full (Lamport's queue with cached indices).
 * So a slot's sequence means: p free for producer p, p + 1 ready; with a
 * single consumer only p + 1 (ready) is ever written, and a consumed slot
 * keeps its old p + 1, which no later position wants.
 */

/* Positions [pos, pos + n) lie in at most two runs of the slot array:
 * the first, of the length returned, from slot pos & mask, and the rest
 * from slot 0. The loops below walk each run with a plain index instead
 * of masking every position. */
static GRAIN_ALWAYS_INLINE unsigned grain_impl_ring_run(uint64_t pos,
							uint64_t mask,
							unsigned n)
{
	uint64_t room = mask + 1 - (pos & mask);

	return n < room ? n : (unsigned)room;
}

/* Scan the sequences from pos: how many consecutive slots hold pos + i +
 * ready (up to n); *dp gets the sign of the first mismatch (0: none). */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_scan(struct grain_impl_ring_slot *slots, uint64_t mask,
		     uint64_t pos, uint64_t ready, unsigned n, int64_t *dp)
{
	const unsigned r = grain_impl_ring_run(pos, mask, n);
	struct grain_impl_ring_slot *s = slots + (pos & mask);
	const uint64_t want = pos + ready;
	unsigned k = 0;
	int64_t d = 0;

	/* A1/A2: pairs with R2/R1. For a producer, the last consumer of the
	 * slot is done reading it; for a consumer, the producer's object is
	 * visible. */
	for (; k < r; k++) {
		d = (int64_t)(atomic_load_explicit(&s[k].seq,
						   memory_order_acquire) -
			      (want + k));
		if (d != 0)
			goto out;
	}
	for (; k < n; k++) {
		d = (int64_t)(atomic_load_explicit(&slots[k - r].seq,
						   memory_order_acquire) -
			      (want + k));
		if (d != 0)
			break;
	}
out:
	*dp = d;
	return k;
}

/* How much of n a request may take when avail are there: n, or for a
 * burst as many as there are. */
static GRAIN_ALWAYS_INLINE unsigned grain_impl_ring_fit(uint64_t avail,
							unsigned n, bool burst)
{
	if (avail >= n)
		return n;
	return burst ? (unsigned)avail : 0;
}

/*
 * Claim up to n consecutive positions of a multi side whose other side
 * publishes per slot. want(p) is the sequence a slot must hold for
 * position p to be claimable: p for producers (free), p + 1 for consumers
 * (ready). Returns the first claimed position in *posp and the count (n,
 * or fewer only if burst; 0 if none).
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_claim_slots(struct grain_impl_ring_side *side,
			    struct grain_impl_ring_slot *slots, uint64_t ready,
			    unsigned n, bool burst, uint64_t *posp)
{
	const uint64_t mask = side->mask;
	uint64_t pos = atomic_load_explicit(&side->pos, memory_order_relaxed);

	for (;;) {
		int64_t d;
		unsigned k = grain_impl_ring_scan(slots, mask, pos, ready, n, &d);

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
		/* Only the winner of this CAS may touch positions [pos, pos+k):
		 * the slots were checked above and only the owner of a
		 * position changes its slot's sequence, so they stay as seen.
		 * On failure pos is reloaded and the check redone. The claimed
		 * position is the copy made before the CAS: the compiler then
		 * need not take it from the register the CAS writes. */
		const uint64_t claimed = pos;
		if (atomic_compare_exchange_weak_explicit(
			    &side->pos, &pos, claimed + k, memory_order_relaxed,
			    memory_order_relaxed)) {
			*posp = claimed;
			return k;
		}
	}
}

/*
 * Claim up to n positions for multiple producers of a single consumer,
 * which publishes its position: other->pos (acquire, A1') bounds what may
 * be claimed, lim (the capacity) positions past it. Same results as
 * grain_impl_ring_claim_slots().
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_claim_index(struct grain_impl_ring_side *side,
			    struct grain_impl_ring_side *other, uint64_t lim,
			    unsigned n, bool burst, uint64_t *posp)
{
	uint64_t pos = atomic_load_explicit(&side->pos, memory_order_relaxed);

	for (;;) {
		/* A1': pairs with R2' of the single consumer. */
		uint64_t bound = atomic_load_explicit(&other->pos,
						      memory_order_acquire) +
				 lim;
		int64_t avail = (int64_t)(bound - pos);

		if (avail < 0) {
			/* Our pos was read after the bound (this side moved
			 * past it meanwhile): read both again. */
			pos = atomic_load_explicit(&side->pos,
						   memory_order_relaxed);
			continue;
		}
		unsigned k = grain_impl_ring_fit((uint64_t)avail, n, burst);
		if (k == 0)
			return 0;
		/* The CAS's winner owns [pos, pos + k): they were within the
		 * bound, which only grows. */
		const uint64_t claimed = pos;
		if (atomic_compare_exchange_weak_explicit(
			    &side->pos, &pos, claimed + k, memory_order_relaxed,
			    memory_order_relaxed)) {
			*posp = claimed;
			return k;
		}
	}
}

/* Room for a single producer at pos: SPSC from the cached head, else the
 * consumers' per-slot sequences. */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_room_sp(struct grain_ring *r,
			struct grain_impl_ring_slot *slots, uint64_t pos,
			unsigned n, bool burst, bool sc)
{
	const uint64_t cap = (uint64_t)r->prod.mask + 1;

	if (sc) {
		uint64_t head = atomic_load_explicit(&r->prod.cache,
						     memory_order_relaxed);
		if (cap - (pos - head) < n) {
			/* A1': pairs with R2' in the consumer. */
			head = atomic_load_explicit(&r->cons.pos,
						    memory_order_acquire);
			atomic_store_explicit(&r->prod.cache, head,
					      memory_order_relaxed);
		}
		return grain_impl_ring_fit(cap - (pos - head), n, burst);
	}
	/* With one producer no slot ahead of pos can hold a later sequence:
	 * the first one not free ends the run. */
	int64_t d;
	unsigned k = grain_impl_ring_scan(slots, r->prod.mask, pos, 0, n, &d);
	return k == n || burst ? k : 0;
}

/* Objects ready for a single consumer at pos: the producers' per-slot
 * sequences (with one consumer no slot ahead of pos can hold a later
 * sequence, so the first one not ready ends the run). */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_ready_sc(struct grain_ring *r,
			 struct grain_impl_ring_slot *slots, uint64_t pos,
			 unsigned n, bool burst)
{
	int64_t d;
	unsigned k = grain_impl_ring_scan(slots, r->cons.mask, pos, 1, n, &d);
	return k == n || burst ? k : 0;
}

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_put(struct grain_ring *r, void *const *objs, unsigned n,
		    bool burst, bool sp, bool sc)
{
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	const uint64_t mask = r->prod.mask;
	uint64_t pos;
	unsigned k;

	if (sp) {
		/* Only we write prod.pos. */
		pos = atomic_load_explicit(&r->prod.pos, memory_order_relaxed);
		k = grain_impl_ring_room_sp(r, slots, pos, n, burst, sc);
	} else if (sc) {
		k = grain_impl_ring_claim_index(&r->prod, &r->cons, mask + 1, n,
						burst, &pos);
	} else {
		k = grain_impl_ring_claim_slots(&r->prod, slots, 0, n, burst,
						&pos);
	}
	if (GRAIN_UNLIKELY(k == 0))
		return 0;
	const unsigned run = grain_impl_ring_run(pos, mask, k);
	struct grain_impl_ring_slot *s = slots + (pos & mask);
	for (unsigned i = 0; i < run; i++)
		s[i].obj = objs[i];
	for (unsigned i = run; i < k; i++)
		slots[i - run].obj = objs[i];
	if (sp) {
		/* Only we write prod.pos; the consumers do not read it. */
		atomic_store_explicit(&r->prod.pos, pos + k,
				      memory_order_relaxed);
	}
	/* Last slot first: a consumer finds the batch's first slot ready
	 * only once the whole batch is, and takes it in one go instead of
	 * chasing our stores line by line. R1: pairs with A2; the consumer
	 * of pos + i sees obj. */
	for (unsigned i = k; i-- > run;)
		atomic_store_explicit(&slots[i - run].seq, pos + i + 1,
				      memory_order_release);
	for (unsigned i = run; i-- > 0;)
		atomic_store_explicit(&s[i].seq, pos + i + 1,
				      memory_order_release);
	if (r->prod.flags & GRAIN_RING_WAIT)
		grain_impl_ring_notify(&r->prod.sleepers);
	return k;
}

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_get(struct grain_ring *r, void **objs, unsigned n, bool burst,
		    bool sp, bool sc)
{
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	const uint64_t mask = r->cons.mask;
	uint64_t pos;
	unsigned k;

	(void)sp; /* every producer publishes per slot */
	if (sc) {
		/* Only we write cons.pos. */
		pos = atomic_load_explicit(&r->cons.pos, memory_order_relaxed);
		k = grain_impl_ring_ready_sc(r, slots, pos, n, burst);
	} else {
		k = grain_impl_ring_claim_slots(&r->cons, slots, 1, n, burst,
						&pos);
	}
	if (GRAIN_UNLIKELY(k == 0))
		return 0;
	const unsigned run = grain_impl_ring_run(pos, mask, k);
	struct grain_impl_ring_slot *s = slots + (pos & mask);
	for (unsigned i = 0; i < run; i++)
		objs[i] = s[i].obj;
	for (unsigned i = run; i < k; i++)
		objs[i] = slots[i - run].obj;
	if (sc) {
		/* R2': pairs with A1'; the producers may now overwrite the
		 * objects we read. */
		atomic_store_explicit(&r->cons.pos, pos + k,
				      memory_order_release);
	} else {
		const uint64_t cap = mask + 1;

		/* Last slot first, as in enqueue: producers get the batch's
		 * slots back together (the ptr_ring batched-zeroing idea,
		 * without losing any slot). */
		/* R2: pairs with A1; the producer of pos + i + cap may now
		 * overwrite obj. */
		for (unsigned i = k; i-- > run;)
			atomic_store_explicit(&slots[i - run].seq,
					      pos + i + cap,
					      memory_order_release);
		for (unsigned i = run; i-- > 0;)
			atomic_store_explicit(&s[i].seq, pos + i + cap,
					      memory_order_release);
	}
	if (r->cons.flags & GRAIN_RING_WAIT)
		grain_impl_ring_notify(&r->cons.sleepers);
	return k;
}

/* Enqueue up to n objects (n, or none unless burst); returns the count. */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_enqueue(struct grain_ring *r, void *const *objs, unsigned n,
			bool burst)
{
	const unsigned mode = r->prod.flags & (GRAIN_RING_SP | GRAIN_RING_SC);

	/* MPMC tested first: one compare on the default mode's path. */
	if (mode == GRAIN_RING_MPMC)
		return grain_impl_ring_put(r, objs, n, burst, false, false);
	if (mode == GRAIN_RING_SPSC)
		return grain_impl_ring_put(r, objs, n, burst, true, true);
	if (mode == GRAIN_RING_MPSC)
		return grain_impl_ring_put(r, objs, n, burst, false, true);
	return grain_impl_ring_put(r, objs, n, burst, true, false);
}

/* Dequeue up to n objects (n, or none unless burst); returns the count. */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_dequeue(struct grain_ring *r, void **objs, unsigned n,
			bool burst)
{
	const unsigned mode = r->cons.flags & (GRAIN_RING_SP | GRAIN_RING_SC);

	/* MPMC tested first: one compare on the default mode's path. */
	if (mode == GRAIN_RING_MPMC)
		return grain_impl_ring_get(r, objs, n, burst, false, false);
	if (mode == GRAIN_RING_SPSC)
		return grain_impl_ring_get(r, objs, n, burst, true, true);
	if (mode == GRAIN_RING_MPSC)
		return grain_impl_ring_get(r, objs, n, burst, false, true);
	return grain_impl_ring_get(r, objs, n, burst, true, false);
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
	return GRAIN_LIKELY(ring != NULL) ? ring->cons.mask + 1u : 0u;
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

GRAIN_INLINE_API int grain_ring_try_enqueue_bulk(struct grain_ring *ring,
					     void *const *objs, unsigned n)
{
	if (GRAIN_UNLIKELY(ring == NULL || (objs == NULL && n != 0) ||
			   n > ring->prod.mask + 1u))
		return -EINVAL;
	if (n == 0)
		return 0;
	return grain_impl_ring_enqueue(ring, objs, n, false) == n ? 0 : -EAGAIN;
}

GRAIN_INLINE_API int grain_ring_try_enqueue_burst(struct grain_ring *ring,
					      void *const *objs, unsigned n)
{
	if (GRAIN_UNLIKELY(ring == NULL || (objs == NULL && n != 0) ||
			   n > (unsigned)INT32_MAX))
		return -EINVAL;
	if (n == 0)
		return 0;
	return (int)grain_impl_ring_enqueue(ring, objs, n, true);
}

GRAIN_INLINE_API int grain_ring_try_dequeue_bulk(struct grain_ring *ring,
					     void **objs, unsigned n)
{
	if (GRAIN_UNLIKELY(ring == NULL || (objs == NULL && n != 0) ||
			   n > ring->cons.mask + 1u))
		return -EINVAL;
	if (n == 0)
		return 0;
	return grain_impl_ring_dequeue(ring, objs, n, false) == n ? 0 : -EAGAIN;
}

GRAIN_INLINE_API int grain_ring_try_dequeue_burst(struct grain_ring *ring,
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
	uint64_t tail = 0, head = 0;

	if (GRAIN_LIKELY(ring != NULL))
		grain_impl_ring_totals(ring, &tail, &head);
	if (enqueued != NULL)
		*enqueued = tail;
	if (dequeued != NULL)
		*dequeued = head;
}

GRAIN_INLINE_API unsigned grain_ring_count(const struct grain_ring *ring)
{
	return GRAIN_LIKELY(ring != NULL) ? grain_impl_ring_count(ring) : 0u;
}

GRAIN_INLINE_API unsigned grain_ring_free_count(const struct grain_ring *ring)
{
	return grain_ring_capacity(ring) - grain_ring_count(ring);
}

GRAIN_INLINE_API bool grain_ring_empty(const struct grain_ring *ring)
{
	return grain_ring_count(ring) == 0;
}

GRAIN_INLINE_API bool grain_ring_full(const struct grain_ring *ring)
{
	return grain_ring_count(ring) == grain_ring_capacity(ring);
}

#endif /* GRAIN_IMPL_RING_H */
