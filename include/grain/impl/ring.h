/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/ring.h - grain_ring's layout and inline algorithm bodies, and (from
 * impl/ring_calls.h, included at the end) the bodies of ring.h's inline
 * calls: everything C++ does not see (C only). Never include this file
 * directly: include <grain/ring.h>.
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
#include <grain/impl/atomic64.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

/* Threads of one side asleep in a _wait call, woken by the other side. */
struct grain_impl_ring_sleepers {
	_Atomic(uint32_t) waiters; /* how many are (about to be) asleep */
	_Atomic(uint32_t) epoch;   /* futex word, bumped by every wake */
	/* Event loops (src/ring.c, grain_ring_event_arm()): 1 while an
	 * armed event counts as one of the waiters; the next wake clears it
	 * and signals fd, the attached eventfd (-1: none, the initial value;
	 * set once). Read only by wakes, which are off the fast path. */
	_Atomic(uint32_t) armed;
	_Atomic(int32_t) fd;
};

/* One side's hot state. The sleepers kept here are those of the OTHER
 * side: the side that checks for them after every operation finds them on
 * its own cache line. A single consumer's pos is also what it publishes:
 * producers read it (acquire) to learn which slots are free. */
struct grain_impl_ring_side {
	grain_impl_atomic_u64 pos; /* next position to claim */
	uint32_t mask;		   /* capacity - 1 (read-only copy) */
	uint32_t flags;		   /* GRAIN_RING_* (read-only copy) */
	struct grain_impl_ring_sleepers sleepers;
	/* Producers' side of an SC ring with one producer (SPSC): its last
	 * read of the consumer's pos, written and read by that one thread
	 * (relaxed: its own earlier acquire load ordered everything it
	 * vouches for). Unused otherwise. */
	grain_impl_atomic_u64 cache;
	/* Slots of an open zero-copy reservation (reserve or peek) of a
	 * single side, from pos on; 0: none open. Written and read by that
	 * side's one thread only (plain: its calls are ordered). */
	uint32_t zc;
	/* Element size of a grain_ring_elem (read-only copy); 0 for a
	 * pointer ring. */
	uint32_t esize;
};

struct grain_impl_ring_slot {
	grain_impl_atomic_u64 seq; /* p: free for producer p; p + 1: ready */
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
		/* grain_ring_close(): GRAIN_IMPL_RING_OPEN, _CLOSING while
		 * the one closer freezes the producers' position, _CLOSED
		 * once end holds the final position (release). Read only on
		 * the paths that failed to move anything. */
		_Atomic(uint32_t) shut;
		grain_impl_atomic_u64 end;
	} life;
};

/* States of life.shut. */
#define GRAIN_IMPL_RING_OPEN 0u
#define GRAIN_IMPL_RING_CLOSING 1u
#define GRAIN_IMPL_RING_CLOSED 2u

/* What grain_ring_close() adds to the producers' position to freeze it:
 * a multi producer's compare-and-swap from the old value then fails, and
 * from the new one every slot looks taken (its sequence is about 2^62
 * behind) and the single consumer's position about 2^62 too far back, so
 * no claim can ever succeed again, whatever the free slots. Far from
 * both the capacity (2^31) and half the position space (2^63), so signed
 * differences stay exact. */
#define GRAIN_IMPL_RING_FREEZE ((uint64_t)1 << 62)

_Static_assert(offsetof(struct grain_ring, prod) == 0, "producer line");
_Static_assert(offsetof(struct grain_ring, cons) == 2 * GRAIN_CACHELINE,
	       "consumer state two lines from producer state");
_Static_assert(_Alignof(struct grain_ring) == GRAIN_CACHELINE,
	       "rings are cache-line aligned, not more");
_Static_assert(sizeof(struct grain_ring) % GRAIN_CACHELINE == 0,
	       "slots start on a cache line");
_Static_assert(sizeof(struct grain_impl_ring_side) <= GRAIN_CACHELINE,
	       "one side fits one line");
/* The same layout from every compiler, 32- and 64-bit alike
 * (impl/atomic64.h). */
_Static_assert(offsetof(struct grain_impl_ring_side, mask) == 8 &&
		       offsetof(struct grain_impl_ring_side, sleepers) == 16 &&
		       offsetof(struct grain_impl_ring_side, cache) == 32 &&
		       offsetof(struct grain_impl_ring_side, zc) == 40 &&
		       sizeof(struct grain_impl_ring_side) == 48,
	       "side layout");
_Static_assert(offsetof(struct grain_impl_ring_slot, obj) == 8 &&
		       sizeof(struct grain_impl_ring_slot) == 16 &&
		       _Alignof(struct grain_impl_ring_slot) == 8,
	       "slot layout");

/*
 * The variants of the shared bodies below, named at each call site (as
 * rte_ring's RTE_RING_QUEUE_FIXED and _VARIABLE are) instead of passed as
 * bare true and false. Every call site passes a constant, so each copy of
 * a body is compiled for one variant and the tests on them fold away.
 */
/* How many of the n objects a call moves. */
enum grain_impl_ring_fill {
	GRAIN_IMPL_RING_FIXED = 0,   /* all n or none: the bulk calls */
	GRAIN_IMPL_RING_VARIABLE = 1 /* as many as there are: burst */
};
/* Which side a call works on: the producers' or the consumers'. */
enum grain_impl_ring_dir { GRAIN_IMPL_RING_DEQ = 0, GRAIN_IMPL_RING_ENQ = 1 };
/* What the caller's buffer holds. */
enum grain_impl_ring_kind {
	GRAIN_IMPL_RING_PTRS = 0, /* object pointers: a grain_ring */
	GRAIN_IMPL_RING_ELEMS = 1 /* elements: a grain_ring_elem */
};
/* The synchronisation mode, the fourth variant, is a constant enum
 * grain_ring_mode (GRAIN_RING_MPMC ... GRAIN_RING_SPSC). */

static inline struct grain_impl_ring_slot *
grain_impl_ring_slots(struct grain_ring *r)
{
	return (struct grain_impl_ring_slot *)(void *)(r + 1);
}

/* The same, for readers that hold a const ring (atomic loads only). */
static inline const struct grain_impl_ring_slot *
grain_impl_ring_const_slots(const struct grain_ring *r)
{
	return (const struct grain_impl_ring_slot *)(const void *)(r + 1);
}

/* The out-of-line helpers below are exported (GRAIN_API) although they are
 * not API: the inline paths compiled into callers call them, so they are
 * part of libgrain's ABI. */

/* Out of line (src/ring.c): bump the epoch and wake every sleeper. Not
 * marked cold: gcc would then move the whole successful path of every
 * operation that may call it (all of a WAIT ring's) out of line. */
GRAIN_API void grain_impl_ring_wake(struct grain_impl_ring_sleepers *s);

/* The sleep loop of every _wait call (src/ring.c), shared by the blocks:
 * calls attempt(ctx) until it returns non-zero (a count or a negative
 * error, returned as is) or the timeout passes (-ETIMEDOUT; timeout_ns < 0: never, 0: one attempt),
 * sleeping on s between attempts. Whoever makes attempt succeed must call
 * grain_impl_ring_notify(s) afterwards. */
GRAIN_API int grain_impl_wait(struct grain_impl_ring_sleepers *s,
			      int (*attempt)(void *ctx), void *ctx,
			      int64_t timeout_ns);

/* Out of line (src/ring.c), on the paths that moved fewer than need
 * objects only: why. -EPIPE if the ring is closed and the call can never
 * succeed (an enqueue; a dequeue that needs more than are left), else
 * -EAGAIN. */
GRAIN_API GRAIN_COLD int grain_impl_ring_fail(struct grain_ring *r, bool enq,
					      unsigned need);
/* The same for a single enqueue and a single dequeue: one argument, so
 * that the call moves no register of the successful path. */
GRAIN_API GRAIN_COLD int grain_impl_ring_fail_put(struct grain_ring *r);
GRAIN_API GRAIN_COLD int grain_impl_ring_fail_take(struct grain_ring *r);

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
	if (atomic_fetch_add_explicit(&s->waiters, 0, memory_order_acq_rel) !=
	    0)
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
/* Before the loops over a batch's slots: unrolled four times, a loop
 * spends one compare and branch per four slots instead of one per slot
 * (its body is one or two loads and stores). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define GRAIN_IMPL_RING_UNROLL _Pragma("GCC unroll 4")
#elif defined(__clang__)
#define GRAIN_IMPL_RING_UNROLL _Pragma("clang loop unroll_count(4)")
#else
#define GRAIN_IMPL_RING_UNROLL
#endif

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_run(uint64_t pos, uint64_t mask, unsigned n)
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
	GRAIN_IMPL_RING_UNROLL
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
 * burst (the VARIABLE fill) as many as there are. The helpers from here
 * to grain_impl_ring_reserve() take the fill as `burst`, a bool that
 * reserve() works out: they are only ever passed that variable, never a
 * constant of their own. */
static GRAIN_ALWAYS_INLINE unsigned grain_impl_ring_fit(uint64_t avail,
							unsigned n, bool burst)
{
	if (avail >= n)
		return n;
	return burst ? (unsigned)avail : 0;
}

/*
 * Move a multi side's position from *pos to *pos + k, claiming [*pos,
 * *pos + k) for the caller: true, with the first claimed position in
 * *posp; false if another thread moved it first, *pos then holding its
 * new value, or if the weak compare-exchange failed spuriously (LL/SC
 * machines), *pos then unchanged: either way the caller looks again and
 * retries. Relaxed: what the claim may touch was checked with acquire
 * loads before. The claimed position is the copy made before the CAS:
 * the compiler then need not take it from the register the CAS writes.
 */
static GRAIN_ALWAYS_INLINE bool
grain_impl_ring_cas(struct grain_impl_ring_side *side, uint64_t *pos,
		    unsigned k, uint64_t *posp)
{
	const uint64_t claimed = *pos;

	if (!atomic_compare_exchange_weak_explicit(&side->pos, pos, claimed + k,
						   memory_order_relaxed,
						   memory_order_relaxed))
		return false;
	*posp = claimed;
	return true;
}

/*
 * How many of the n positions from pos a multi side may claim when its
 * other side publishes per slot: the slots whose sequence is p + ready
 * (ready 0: free, for producers; 1: ready, for consumers). n, or fewer
 * only if burst (0: none); *stale is set if another thread of this side
 * moved the position since pos was read.
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_avail_slots(struct grain_impl_ring_slot *slots, uint64_t mask,
			    uint64_t pos, uint64_t ready, unsigned n,
			    bool burst, bool *stale)
{
	int64_t d;
	unsigned k = grain_impl_ring_scan(slots, mask, pos, ready, n, &d);

	/* A later sequence: another thread of this side claimed the slot. */
	*stale = k < n && d > 0;
	return k == n || burst ? k : 0;
}

/*
 * The same for multiple producers of a single consumer, which publishes
 * its position: other->pos (acquire, A1') bounds what may be claimed, lim
 * (the capacity) positions past it.
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_avail_index(struct grain_impl_ring_side *other, uint64_t lim,
			    uint64_t pos, unsigned n, bool burst, bool *stale)
{
	/* A1': pairs with R2' of the single consumer. */
	uint64_t bound =
		atomic_load_explicit(&other->pos, memory_order_acquire) + lim;
	int64_t avail = (int64_t)(bound - pos);

	/* Negative: our pos was read after the bound (this side moved past
	 * it meanwhile). */
	*stale = avail < 0;
	return avail < 0 ? 0 : grain_impl_ring_fit((uint64_t)avail, n, burst);
}

/*
 * Claim up to n consecutive positions of dir's side of r, a multi side.
 * If it is the producers' and the consumer is single (mode SC), that
 * consumer publishes its position (by index); else the other side
 * publishes per slot, ready as for grain_impl_ring_avail_slots().
 * Returns the first claimed position in *posp and the count (n, or fewer
 * only if burst; 0 if none).
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_claim(struct grain_ring *r, enum grain_impl_ring_dir dir,
		      enum grain_ring_mode mode, unsigned n, bool burst,
		      uint64_t *posp)
{
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	struct grain_impl_ring_side *side =
		dir == GRAIN_IMPL_RING_ENQ ? &r->prod : &r->cons;
	const uint64_t mask = side->mask;
	const uint64_t ready = dir == GRAIN_IMPL_RING_ENQ ? 0 : 1;
	const bool by_index = dir == GRAIN_IMPL_RING_ENQ &&
			      (mode & GRAIN_RING_SC);
	uint64_t pos = atomic_load_explicit(&side->pos, memory_order_relaxed);

	for (;;) {
		bool stale;
		unsigned k =
			by_index ? grain_impl_ring_avail_index(&r->cons,
							       mask + 1, pos, n,
							       burst, &stale)
				 : grain_impl_ring_avail_slots(slots, mask, pos,
							       ready, n, burst,
							       &stale);
		if (stale) {
			/* A position frozen by grain_ring_close() reads as
			 * far past the single consumer's: give up. (Per
			 * slot, it reads as slots not free: no stale.) */
			if (by_index &&
			    GRAIN_UNLIKELY(atomic_load_explicit(
						   &r->life.shut,
						   memory_order_relaxed) !=
					   GRAIN_IMPL_RING_OPEN))
				return 0;
			pos = atomic_load_explicit(&side->pos,
						   memory_order_relaxed);
			continue;
		}
		if (k == 0)
			return 0;
		/* Only the winner of this CAS may touch positions [pos, pos+k):
		 * per slot, the slots were checked above and only the owner of
		 * a position changes its slot's sequence, so they stay as
		 * seen; by index, they were within the bound, which only
		 * grows. On failure pos is reloaded and the check redone. */
		if (grain_impl_ring_cas(side, &pos, k, posp))
			return k;
	}
}

/* Room for the single producer of an SC ring (SPSC) at pos, from its
 * cached copy of the consumer's position, read again only when the copy
 * says there is not enough. */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_room_spsc(struct grain_ring *r, uint64_t pos, unsigned n,
			  bool burst)
{
	const uint64_t cap = (uint64_t)r->prod.mask + 1;
	uint64_t head =
		atomic_load_explicit(&r->prod.cache, memory_order_relaxed);

	if (cap - (pos - head) < n) {
		/* A1': pairs with R2' in the consumer. */
		head = atomic_load_explicit(&r->cons.pos, memory_order_acquire);
		/* More than a capacity ahead: our position was frozen by
		 * grain_ring_close(), which also set the cached copy so that
		 * every call comes here. */
		if (GRAIN_UNLIKELY(pos - head > cap))
			return 0;
		atomic_store_explicit(&r->prod.cache, head,
				      memory_order_relaxed);
	}
	return grain_impl_ring_fit(cap - (pos - head), n, burst);
}

/*
 * Reserve up to n positions for an enqueue or a dequeue (dir) on a ring
 * of the given mode: returns the count (n, or fewer only if VARIABLE; 0
 * if none) and the first position in *posp. A multi side claims them with
 * a CAS; a single side owns its position and only checks what the other
 * side published.
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_reserve(struct grain_ring *r, enum grain_impl_ring_dir dir,
			unsigned n, enum grain_impl_ring_fill fill,
			enum grain_ring_mode mode, uint64_t *posp)
{
	const bool enq = dir == GRAIN_IMPL_RING_ENQ;
	const bool sp = mode & GRAIN_RING_SP, sc = mode & GRAIN_RING_SC;
	const bool burst = fill == GRAIN_IMPL_RING_VARIABLE;
	struct grain_impl_ring_side *side = enq ? &r->prod : &r->cons;
	const uint64_t ready = enq ? 0 : 1;

	if (!(enq ? sp : sc))
		return grain_impl_ring_claim(r, dir, mode, n, burst, posp);
	/* Only we write our side's pos. */
	const uint64_t pos =
		atomic_load_explicit(&side->pos, memory_order_relaxed);
	*posp = pos;
	if (enq && sc)
		return grain_impl_ring_room_spsc(r, pos, n, burst);
	/* With one thread on this side no slot ahead of pos can hold a later
	 * sequence: the first one not free (or not ready) ends the run. */
	int64_t d;
	unsigned k = grain_impl_ring_scan(grain_impl_ring_slots(r), side->mask,
					  pos, ready, n, &d);
	return k == n || burst ? k : 0;
}

/* One object into (ENQ) or out of a slot. */
static GRAIN_ALWAYS_INLINE void
grain_impl_ring_copy_one(struct grain_impl_ring_slot *slot, void **obj,
			 enum grain_impl_ring_dir dir)
{
	if (dir == GRAIN_IMPL_RING_ENQ)
		slot->obj = *obj;
	else
		*obj = slot->obj;
}

/* Copy k objects into (ENQ) or out of the slots of positions [pos,
 * pos + k), which the caller owns; dir is a constant in every copy. */
static GRAIN_ALWAYS_INLINE void
grain_impl_ring_copy(struct grain_impl_ring_slot *slots, uint64_t mask,
		     uint64_t pos, void **objs, unsigned k,
		     enum grain_impl_ring_dir dir)
{
	const unsigned run = grain_impl_ring_run(pos, mask, k);
	struct grain_impl_ring_slot *s = slots + (pos & mask);

	GRAIN_IMPL_RING_UNROLL
	for (unsigned i = 0; i < run; i++)
		grain_impl_ring_copy_one(&s[i], &objs[i], dir);
	for (unsigned i = run; i < k; i++)
		grain_impl_ring_copy_one(&slots[i - run], &objs[i], dir);
}

/* Hand the slots of positions [pos, pos + k) to the other side: set the
 * sequence of position pos + i to pos + i + next, last slot first, so
 * that the other side finds the batch's first slot ready only once the
 * whole batch is, and takes it in one go instead of chasing our stores
 * line by line (the ptr_ring batched-zeroing idea, without losing any
 * slot). The stores are release stores: R1 (producers, next 1) or R2
 * (consumers, next the capacity). */
static GRAIN_ALWAYS_INLINE void
grain_impl_ring_set_seqs(struct grain_impl_ring_slot *slots, uint64_t mask,
			 uint64_t pos, unsigned k, uint64_t next)
{
	const unsigned run = grain_impl_ring_run(pos, mask, k);
	struct grain_impl_ring_slot *s = slots + (pos & mask);

	for (unsigned i = k; i-- > run;)
		atomic_store_explicit(&slots[i - run].seq, pos + i + next,
				      memory_order_release);
	GRAIN_IMPL_RING_UNROLL
	for (unsigned i = run; i-- > 0;)
		atomic_store_explicit(&s[i].seq, pos + i + next,
				      memory_order_release);
}

/* Tell the other side that the caller is done with the slots of positions
 * [pos, pos + k) that it reserved: a producer has filled them, a consumer
 * has read them. Then wake the other side's sleepers, if any. mask is
 * the side's, read by the caller before its acquire loads (read after
 * them, the compiler would load it again). */
static GRAIN_ALWAYS_INLINE void
grain_impl_ring_publish(struct grain_ring *r, uint64_t mask, uint64_t pos,
			unsigned k, enum grain_impl_ring_dir dir,
			enum grain_ring_mode mode)
{
	const bool enq = dir == GRAIN_IMPL_RING_ENQ;
	const bool sp = mode & GRAIN_RING_SP, sc = mode & GRAIN_RING_SC;
	struct grain_impl_ring_side *side = enq ? &r->prod : &r->cons;

	if (enq && sp) {
		/* Only we write prod.pos; the consumers do not read it. */
		atomic_store_explicit(&r->prod.pos, pos + k,
				      memory_order_relaxed);
	}
	if (!enq && sc) {
		/* R2': pairs with A1'; the producers may now overwrite the
		 * objects we read. */
		atomic_store_explicit(&r->cons.pos, pos + k,
				      memory_order_release);
	} else {
		/* R1: pairs with A2; the consumer of pos + i sees obj. R2:
		 * pairs with A1; the producer of pos + i + capacity may now
		 * overwrite obj. */
		grain_impl_ring_set_seqs(grain_impl_ring_slots(r), mask, pos, k,
					 enq ? 1 : mask + 1);
	}
	if (side->flags & GRAIN_RING_WAIT)
		grain_impl_ring_notify(&side->sleepers);
}

/* The element array of a grain_ring_elem: it follows the slots, from the
 * next cache line. */
static GRAIN_ALWAYS_INLINE char *grain_impl_ring_data(struct grain_ring *r)
{
	size_t slots = ((size_t)r->prod.mask + 1) *
		       sizeof(struct grain_impl_ring_slot);

	slots = (slots + GRAIN_CACHELINE - 1) & ~(size_t)(GRAIN_CACHELINE - 1);
	return (char *)grain_impl_ring_slots(r) + slots;
}

/* Copy k elements of esize bytes into (ENQ) or out of the element array
 * at positions [pos, pos + k): at most two runs, each one memcpy. */
static GRAIN_ALWAYS_INLINE void
grain_impl_ring_copy_elems(struct grain_ring *r, uint64_t mask, size_t esize,
			   uint64_t pos, char *buf, unsigned k,
			   enum grain_impl_ring_dir dir)
{
	const unsigned run = grain_impl_ring_run(pos, mask, k);
	char *data = grain_impl_ring_data(r);
	char *at = data + (size_t)(pos & mask) * esize;

	if (dir == GRAIN_IMPL_RING_ENQ) {
		memcpy(at, buf, run * esize);
		memcpy(data, buf + run * esize, (size_t)(k - run) * esize);
	} else {
		memcpy(buf, at, run * esize);
		memcpy(buf + run * esize, data, (size_t)(k - run) * esize);
	}
}

/*
 * Enqueue or dequeue (dir) up to n objects (n, or none unless VARIABLE):
 * reserve the positions, copy the objects, then tell the other side.
 * Returns the count. The enqueue's objects are only read. kind ELEMS: buf
 * is an array of elements of a grain_ring_elem, not of pointers. A single
 * side with a zero-copy reservation open moves nothing: its slots are the
 * reservation's.
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_move(struct grain_ring *r, void *buf, unsigned n,
		     enum grain_impl_ring_fill fill,
		     enum grain_impl_ring_dir dir, enum grain_ring_mode mode,
		     enum grain_impl_ring_kind kind)
{
	const bool enq = dir == GRAIN_IMPL_RING_ENQ;
	const bool elem = kind == GRAIN_IMPL_RING_ELEMS;
	struct grain_impl_ring_side *side = enq ? &r->prod : &r->cons;
	const uint64_t mask = side->mask;
	const size_t esize = elem ? side->esize : 0;
	uint64_t pos;

	const bool sp = mode & GRAIN_RING_SP, sc = mode & GRAIN_RING_SC;

	if ((enq ? sp : sc) && GRAIN_UNLIKELY(side->zc != 0))
		return 0;

	unsigned k = grain_impl_ring_reserve(r, dir, n, fill, mode, &pos);

	if (GRAIN_UNLIKELY(k == 0))
		return 0;
	if (elem)
		grain_impl_ring_copy_elems(r, mask, esize, pos, (char *)buf, k,
					   dir);
	else
		grain_impl_ring_copy(grain_impl_ring_slots(r), mask, pos,
				     (void **)buf, k, dir);
	grain_impl_ring_publish(r, mask, pos, k, dir, mode);
	return k;
}

/* Enqueue up to n objects or elements (n, or none unless VARIABLE);
 * returns the count. One copy per mode, picked from the ring's flags. */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_enqueue_modes(struct grain_ring *r, void *buf, unsigned n,
			      enum grain_impl_ring_fill fill,
			      enum grain_impl_ring_kind kind)
{
	const unsigned mode = r->prod.flags & (GRAIN_RING_SP | GRAIN_RING_SC);
	const enum grain_impl_ring_dir dir = GRAIN_IMPL_RING_ENQ;

	/* MPMC tested first: one compare on the default mode's path. */
	if (mode == GRAIN_RING_MPMC)
		return grain_impl_ring_move(r, buf, n, fill, dir,
					    GRAIN_RING_MPMC, kind);
	if (mode == GRAIN_RING_SPSC)
		return grain_impl_ring_move(r, buf, n, fill, dir,
					    GRAIN_RING_SPSC, kind);
	if (mode == GRAIN_RING_MPSC)
		return grain_impl_ring_move(r, buf, n, fill, dir,
					    GRAIN_RING_MPSC, kind);
	return grain_impl_ring_move(r, buf, n, fill, dir, GRAIN_RING_SPMC,
				    kind);
}

/* Dequeue up to n objects or elements (n, or none unless VARIABLE);
 * returns the count. Two copies: every producer publishes per slot, so
 * the consumers' code depends on SC alone (the copies are compiled as
 * MPSC and MPMC: SP changes nothing on this side). */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_dequeue_modes(struct grain_ring *r, void *buf, unsigned n,
			      enum grain_impl_ring_fill fill,
			      enum grain_impl_ring_kind kind)
{
	const enum grain_impl_ring_dir dir = GRAIN_IMPL_RING_DEQ;

	if (r->cons.flags & GRAIN_RING_SC)
		return grain_impl_ring_move(r, buf, n, fill, dir,
					    GRAIN_RING_MPSC, kind);
	return grain_impl_ring_move(r, buf, n, fill, dir, GRAIN_RING_MPMC,
				    kind);
}

/*
 * GRAIN_RING_INLINE_MODE (ring.h, after the modes): a program that
 * defines it to the mode of its rings gets that mode's body alone at each
 * call; a ring of another mode is handed to one out-of-line copy of the
 * bodies of every mode per translation unit (noinline: inlined, it would
 * make every call as big as it is without the macro). Without the macro
 * every call holds the bodies of all the modes.
 */
#ifdef GRAIN_RING_INLINE_MODE
_Static_assert((GRAIN_RING_INLINE_MODE) >= 0 &&
		       (GRAIN_RING_INLINE_MODE) <=
			       (GRAIN_RING_SP | GRAIN_RING_SC),
	       "GRAIN_RING_INLINE_MODE: GRAIN_RING_MPMC, _MPSC, _SPMC or "
	       "_SPSC, no other flag");
#if defined(__GNUC__) || defined(__clang__)
#define GRAIN_IMPL_RING_NOINLINE __attribute__((noinline, unused))
#else
#define GRAIN_IMPL_RING_NOINLINE
#endif

static GRAIN_IMPL_RING_NOINLINE unsigned
grain_impl_ring_enqueue_other(struct grain_ring *r, void *buf, unsigned n,
			      enum grain_impl_ring_fill fill,
			      enum grain_impl_ring_kind kind)
{
	return grain_impl_ring_enqueue_modes(r, buf, n, fill, kind);
}

static GRAIN_IMPL_RING_NOINLINE unsigned
grain_impl_ring_dequeue_other(struct grain_ring *r, void *buf, unsigned n,
			      enum grain_impl_ring_fill fill,
			      enum grain_impl_ring_kind kind)
{
	return grain_impl_ring_dequeue_modes(r, buf, n, fill, kind);
}
#endif

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_enqueue_any(struct grain_ring *r, void *buf, unsigned n,
			    enum grain_impl_ring_fill fill,
			    enum grain_impl_ring_kind kind)
{
#ifdef GRAIN_RING_INLINE_MODE
	const unsigned mode = r->prod.flags & (GRAIN_RING_SP | GRAIN_RING_SC);

	if (GRAIN_LIKELY(mode == (GRAIN_RING_INLINE_MODE)))
		return grain_impl_ring_move(
			r, buf, n, fill, GRAIN_IMPL_RING_ENQ,
			(enum grain_ring_mode)(GRAIN_RING_INLINE_MODE), kind);
	return grain_impl_ring_enqueue_other(r, buf, n, fill, kind);
#else
	return grain_impl_ring_enqueue_modes(r, buf, n, fill, kind);
#endif
}

/* The consumers' side depends on SC alone (see above). */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_dequeue_any(struct grain_ring *r, void *buf, unsigned n,
			    enum grain_impl_ring_fill fill,
			    enum grain_impl_ring_kind kind)
{
#ifdef GRAIN_RING_INLINE_MODE
	const unsigned sc = (GRAIN_RING_INLINE_MODE)&GRAIN_RING_SC;

	if (GRAIN_LIKELY((r->cons.flags & GRAIN_RING_SC) == sc))
		return grain_impl_ring_move(
			r, buf, n, fill, GRAIN_IMPL_RING_DEQ,
			sc ? GRAIN_RING_MPSC : GRAIN_RING_MPMC, kind);
	return grain_impl_ring_dequeue_other(r, buf, n, fill, kind);
#else
	return grain_impl_ring_dequeue_modes(r, buf, n, fill, kind);
#endif
}

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_enqueue(struct grain_ring *r, void *const *objs, unsigned n,
			enum grain_impl_ring_fill fill)
{
	/* Only read: the cast serves the shared body. */
	return grain_impl_ring_enqueue_any(r, (void *)(uintptr_t)objs, n, fill,
					   GRAIN_IMPL_RING_PTRS);
}

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_dequeue(struct grain_ring *r, void **objs, unsigned n,
			enum grain_impl_ring_fill fill)
{
	return grain_impl_ring_dequeue_any(r, objs, n, fill,
					   GRAIN_IMPL_RING_PTRS);
}

/*
 * Zero copy. Only a single side opens a reservation: its position is its
 * own, so the reserved slots stay private until it publishes them, it can
 * publish fewer than it reserved (the rest were never claimed), and the
 * count of its one open reservation (side->zc) is its own state. A
 * reservation of enq's side (a producer's reserve, a consumer's peek) of
 * up to n slots: as an enqueue or dequeue without the copy, the slots'
 * addresses handed back in *zc (one run, or two across the end of the
 * array), base being slot 0's object or element and stride the distance
 * between two. Returns 0 or the count as the call's result; *zc is
 * written whenever the result is not negative.
 */
static GRAIN_ALWAYS_INLINE int
grain_impl_ring_zc_open(struct grain_ring *r, unsigned n,
			enum grain_impl_ring_fill fill,
			enum grain_impl_ring_dir dir, struct grain_ring_zc *zc,
			char *base, unsigned stride)
{
	const bool enq = dir == GRAIN_IMPL_RING_ENQ;
	const bool burst = fill == GRAIN_IMPL_RING_VARIABLE;
	struct grain_impl_ring_side *side = enq ? &r->prod : &r->cons;
	const uint64_t mask = side->mask;
	uint64_t pos = 0;
	unsigned k = 0;

	if (!(side->flags & (enq ? GRAIN_RING_SP : GRAIN_RING_SC)))
		return -ENOTSUP;
	if (side->zc != 0)
		return -EBUSY;
	if (n != 0) {
		if (!enq)
			k = grain_impl_ring_reserve(r, dir, n, fill,
						    GRAIN_RING_MPSC, &pos);
		else if (side->flags & GRAIN_RING_SC)
			k = grain_impl_ring_reserve(r, dir, n, fill,
						    GRAIN_RING_SPSC, &pos);
		else
			k = grain_impl_ring_reserve(r, dir, n, fill,
						    GRAIN_RING_SPMC, &pos);
		if (GRAIN_UNLIKELY(k == 0)) {
			int rc = grain_impl_ring_fail(r, enq, burst ? 1 : n);
			if (!burst || rc == -EPIPE)
				return rc;
		}
	}
	const unsigned run = grain_impl_ring_run(pos, mask, k);

	side->zc = k;
	zc->span[0] = k ? base + (size_t)(pos & mask) * stride : NULL;
	zc->len[0] = run;
	zc->span[1] = k > run ? base : NULL;
	zc->len[1] = k - run;
	zc->stride = stride;
	zc->n = k;
	return burst ? (int)k : 0;
}

/* End enq's side's open reservation, publishing its first k slots: the
 * body of grain_ring_commit() (enq) and grain_ring_release(), the check
 * of r included. */
static GRAIN_ALWAYS_INLINE int
grain_impl_ring_zc_close(struct grain_ring *r, unsigned k,
			 enum grain_impl_ring_dir dir)
{
	if (GRAIN_UNLIKELY(r == NULL))
		return -EINVAL;

	const bool enq = dir == GRAIN_IMPL_RING_ENQ;
	struct grain_impl_ring_side *side = enq ? &r->prod : &r->cons;

	if (!(side->flags & (enq ? GRAIN_RING_SP : GRAIN_RING_SC)))
		return -ENOTSUP;
	/* Nothing open: closing 0 slots (after a burst that opened none) is
	 * fine, closing more is an error. */
	if (side->zc == 0)
		return k == 0 ? 0 : -ENOENT;
	if (k > side->zc)
		return -EINVAL;
	side->zc = 0;
	if (k == 0)
		return 0;
	/* Only we write our side's pos. */
	const uint64_t pos =
		atomic_load_explicit(&side->pos, memory_order_relaxed);
	const uint64_t mask = side->mask;
	if (!enq)
		grain_impl_ring_publish(r, mask, pos, k, dir, GRAIN_RING_MPSC);
	else if (side->flags & GRAIN_RING_SC)
		grain_impl_ring_publish(r, mask, pos, k, dir, GRAIN_RING_SPSC);
	else
		grain_impl_ring_publish(r, mask, pos, k, dir, GRAIN_RING_SPMC);
	return 0;
}

/* The arguments of a reserve or peek are valid: a ring, a reservation to
 * fill, and n at most the capacity (bulk) or INT32_MAX (burst). */
static GRAIN_ALWAYS_INLINE bool
grain_impl_ring_zc_args_ok(const struct grain_ring *r,
			   const struct grain_ring_zc *zc, unsigned n,
			   enum grain_impl_ring_fill fill)
{
	return r != NULL && zc != NULL &&
	       n <= (fill == GRAIN_IMPL_RING_VARIABLE ? (unsigned)INT32_MAX
						      : r->prod.mask + 1u);
}

static GRAIN_ALWAYS_INLINE int
grain_impl_ring_zc_call(struct grain_ring *r, unsigned n,
			enum grain_impl_ring_fill fill,
			enum grain_impl_ring_dir dir, struct grain_ring_zc *zc)
{
	if (GRAIN_UNLIKELY(!grain_impl_ring_zc_args_ok(r, zc, n, fill)))
		return -EINVAL;
	return grain_impl_ring_zc_open(
		r, n, fill, dir, zc, (char *)&grain_impl_ring_slots(r)->obj,
		(unsigned)sizeof(struct grain_impl_ring_slot));
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
	uint64_t h = atomic_load_explicit(&r->cons.pos, memory_order_relaxed);
	uint64_t t = atomic_load_explicit(&r->prod.pos, memory_order_relaxed);

	/* A position frozen by grain_ring_close() is GRAIN_IMPL_RING_FREEZE
	 * past the true one (no true one is even 2^32 past the head). */
	if (GRAIN_UNLIKELY(t - h >= GRAIN_IMPL_RING_FREEZE / 2))
		t -= GRAIN_IMPL_RING_FREEZE;
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
	const struct grain_impl_ring_slot *slots =
		grain_impl_ring_const_slots(r);
	uint64_t pos = atomic_load_explicit(&r->cons.pos, memory_order_acquire);

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
		pos = atomic_load_explicit(&r->cons.pos, memory_order_acquire);
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

/* The bodies of ring.h's public inline calls. */
#include <grain/impl/ring_calls.h>

#endif /* GRAIN_IMPL_RING_H */
