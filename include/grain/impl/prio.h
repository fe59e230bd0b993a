/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/prio.h - grain_prio's layout, inline fast paths and the bodies of
 * prio.h's inline calls: everything C++ does not see (C only).
 * Never include this file directly: include <grain/prio.h>.
 *
 * Labels: P1 (producer) and C1 (dequeuer) are the two full fences of the
 * non-empty-bit protocol described in prio.h, "Scanned queues and the non-empty
 * bits". Under GRAIN_PRIO_WAIT a producer, after its look at the bit, and a
 * dequeuer that sets a bit back in grain_impl_prio_settle() wake the sleepers
 * through grain_impl_ring_notify() (S1, impl/ring.h). Scanned queues
 * (GRAIN_IMPL_PRIO_SCAN) have no bits, no P1/C1 and no settle: only the
 * producer's S1.
 */
#ifndef GRAIN_IMPL_PRIO_H
#define GRAIN_IMPL_PRIO_H

#ifndef GRAIN_PRIO_H
#error "include <grain/prio.h> instead of <grain/impl/prio.h>"
#endif

#include <grain/impl/atomic64.h>

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>

struct grain_prio {
	/* Read-only after init: shared by every thread without bouncing. */
	struct {
		unsigned nbands;
		unsigned flags;
		uint8_t priomap[GRAIN_PRIO_PRIORITIES];
		struct grain_ring *rings[GRAIN_PRIO_MAX_BANDS];
		uint32_t weights[GRAIN_PRIO_MAX_BANDS];
	} ro;
	/* Bit b: band b may be non-empty. Written on empty/non-empty
	 * transitions only. */
	alignas(GRAIN_CACHELINE) grain_impl_atomic_u64 nonempty;
	/* Weighted round robin position (GRAIN_PRIO_WEIGHTED); the lock is
	 * taken only with several dequeuers. */
	alignas(GRAIN_CACHELINE) struct {
		struct grain_spinlock lock;
		unsigned cur;
		unsigned credit;
	} sched;
	alignas(GRAIN_CACHELINE) struct grain_impl_ring_sleepers sleepers;
	/* Cold: drops (slow path) and lifecycle. */
	alignas(GRAIN_CACHELINE)
		grain_impl_atomic_u64 dropped[GRAIN_PRIO_MAX_BANDS];
	struct {
		struct grain_alloc alloc;
		size_t memsize;
		bool created;
	} life;
	/* grain_prio_close(): GRAIN_IMPL_RING_OPEN, _CLOSING while the one
	 * closer closes the bands, _CLOSED once all are (release). */
	_Atomic(uint32_t) shut;
};

_Static_assert(offsetof(struct grain_prio, nonempty) % GRAIN_CACHELINE == 0,
	       "non-empty bits on their own line");
_Static_assert(offsetof(struct grain_prio, sched) -
			       offsetof(struct grain_prio, nonempty) >=
		       GRAIN_CACHELINE,
	       "scheduler state apart from the bits");

/* Internal flag in ro.flags, set by init: the queue has at most
 * GRAIN_PRIO_SCAN_BANDS bands and keeps no non-empty bits; dequeuers look
 * at every band's head instead (prio.h, "Scanned queues and the non-empty
 * bits"). */
#define GRAIN_IMPL_PRIO_SCAN 0x80000000u

/* Out of line (src/prio.c). Exported although not API, as ring's helpers
 * are: the inline paths compiled into callers call them. */
GRAIN_API GRAIN_COLD void grain_impl_prio_drop(struct grain_prio *p,
					       unsigned band, unsigned n);
GRAIN_API void grain_impl_prio_settle(struct grain_prio *p, unsigned band);
GRAIN_API unsigned grain_impl_prio_dequeue_weighted(struct grain_prio *p,
						    void **objs, unsigned n,
						    unsigned *bandp);
/* After a dequeue that took nothing: -EPIPE if the queue is closed and
 * every band drained, else -EAGAIN. */
GRAIN_API GRAIN_COLD int grain_impl_prio_fail(struct grain_prio *p);

/* The producer's look at the bits, after its object is in the ring. */
static GRAIN_ALWAYS_INLINE uint64_t grain_impl_prio_observe(struct grain_prio *p)
{
#if GRAIN_TSAN
	/* An RMW on the word orders us against the dequeuer's clearing RMW
	 * just as the fence pair does, in a form TSan understands. */
	return atomic_fetch_or_explicit(&p->nonempty, 0, memory_order_acq_rel);
#else
	/* P1: pairs with C1 in grain_impl_prio_settle(). */
	atomic_thread_fence(memory_order_seq_cst);
	return atomic_load_explicit(&p->nonempty, memory_order_relaxed);
#endif
}

/* Up to n objects into band; the count. No drop is counted. */
static GRAIN_ALWAYS_INLINE unsigned grain_impl_prio_put(struct grain_prio *p,
							unsigned band,
							void *const *objs,
							unsigned n)
{
	unsigned k = grain_impl_ring_enqueue(p->ro.rings[band], objs, n,
					     GRAIN_IMPL_RING_VARIABLE);

	if (GRAIN_LIKELY(k != 0)) {
		uint64_t bit = (uint64_t)1 << band;

		/* Scanned queues keep no bits: the object is reachable once
		 * it is in the ring, and no fence is needed here. */
		if (!(p->ro.flags & GRAIN_IMPL_PRIO_SCAN) &&
		    !(grain_impl_prio_observe(p) & bit))
			atomic_fetch_or_explicit(&p->nonempty, bit,
						 memory_order_relaxed);
		if (p->ro.flags & GRAIN_PRIO_WAIT)
			grain_impl_ring_notify(&p->sleepers);
	}
	return k;
}

/* Up to n objects into band; the count. The refused ones are counted as
 * drops (unless the band is closed: grain_impl_prio_drop()). */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_prio_enqueue(struct grain_prio *p, unsigned band, void *const *objs,
			unsigned n)
{
	unsigned k = grain_impl_prio_put(p, band, objs, n);

	if (GRAIN_UNLIKELY(k < n))
		grain_impl_prio_drop(p, band, n - k);
	return k;
}

/* Up to n objects from band b into objs; *bandp (if not NULL) gets b when
 * any is taken. Returns the count. */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_prio_take(struct grain_prio *p, unsigned b, void **objs, unsigned n,
		     unsigned *bandp)
{
	unsigned k = grain_impl_ring_dequeue(p->ro.rings[b], objs, n,
					     GRAIN_IMPL_RING_VARIABLE);

	if (k != 0 && bandp != NULL)
		*bandp = b;
	return k;
}

/* Strict dequeue of a scanned queue: each band's head in turn, highest
 * first, in one pass; a band that gives less than asked is empty (or
 * blocked by an unpublished slot) for now, and the call goes on to the
 * next. */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_prio_dequeue_scan(struct grain_prio *p, void **objs, unsigned n,
			     unsigned *bandp)
{
	const unsigned nbands = p->ro.nbands;
	unsigned got = 0;

	for (unsigned b = 0; b < nbands && got < n; b++)
		got += grain_impl_prio_take(p, b, objs + got, n - got, bandp);
	return got;
}

/*
 * Strict dequeue with the bits. A band that gives nothing is settled (its
 * bit cleared, or set back if it was refilled meanwhile) and the bits read
 * again, so a call returns 0 only after it read the word with no bit set
 * (prio.h, "Scanned queues and the non-empty bits"). A band that gives some
 * objects but fewer than asked (a burst drained it) keeps its bit and is passed
 * over for the rest of the call: its producers are likely to refill it before
 * the next call, and clearing the bit now would cost this call an atomic and a
 * fence and that band's next producer a write of the word, the line crossing
 * CPUs twice. If it is still empty at the next call, that call settles it.
 */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_prio_dequeue(struct grain_prio *p, void **objs, unsigned n,
			unsigned *bandp)
{
	if (p->ro.flags & GRAIN_PRIO_WEIGHTED)
		return grain_impl_prio_dequeue_weighted(p, objs, n, bandp);
	if (p->ro.flags & GRAIN_IMPL_PRIO_SCAN)
		return grain_impl_prio_dequeue_scan(p, objs, n, bandp);

	unsigned got = 0;
	uint64_t drained = 0;
	uint64_t m = atomic_load_explicit(&p->nonempty, memory_order_relaxed);

	while ((m &= ~drained) != 0) {
		unsigned b = (unsigned)__builtin_ctzll(m);
		unsigned k =
			grain_impl_prio_take(p, b, objs + got, n - got, bandp);
		if (k != 0) {
			got += k;
			if (got == n)
				break;
			drained |= (uint64_t)1 << b;
			continue;
		}
		/* Band b gave nothing: it may be empty. Clear its bit (or
		 * find it refilled), then look again from the top. */
		grain_impl_prio_settle(p, b);
		m = atomic_load_explicit(&p->nonempty, memory_order_relaxed);
	}
	return got;
}

/*
 * The public inline calls of prio.h (declared and documented there). In
 * src/export.c, GRAIN_INLINE_API makes these the exported definitions that
 * C++ and other callers without the inline bodies reach.
 */

GRAIN_INLINE_API unsigned grain_prio_bands(const struct grain_prio *prio)
{
	return GRAIN_LIKELY(prio != NULL) ? prio->ro.nbands : 0u;
}

GRAIN_INLINE_API int grain_prio_try_enqueue(struct grain_prio *prio,
					    unsigned band, void *obj)
{
	if (GRAIN_UNLIKELY(prio == NULL || band >= prio->ro.nbands))
		return -EINVAL;
	return grain_impl_prio_enqueue(prio, band, &obj, 1) == 1
		       ? 0
		       : grain_impl_ring_fail_put(prio->ro.rings[band]);
}

GRAIN_INLINE_API int grain_prio_try_enqueue_prio(struct grain_prio *prio,
						 unsigned priority, void *obj)
{
	if (GRAIN_UNLIKELY(prio == NULL || priority >= GRAIN_PRIO_PRIORITIES))
		return -EINVAL;
	return grain_prio_try_enqueue(prio, prio->ro.priomap[priority], obj);
}

GRAIN_INLINE_API int grain_prio_try_enqueue_burst(struct grain_prio *prio,
						  unsigned band,
						  void *const *objs, unsigned n)
{
	if (GRAIN_UNLIKELY(prio == NULL || band >= prio->ro.nbands ||
			   (objs == NULL && n != 0) || n > (unsigned)INT32_MAX))
		return -EINVAL;
	if (n == 0)
		return 0;
	unsigned k = grain_impl_prio_enqueue(prio, band, objs, n);
	if (GRAIN_LIKELY(k != 0))
		return (int)k;
	return grain_impl_ring_fail(prio->ro.rings[band], true, 1) == -EPIPE
		       ? -EPIPE
		       : 0;
}

GRAIN_INLINE_API int grain_prio_try_dequeue(struct grain_prio *prio,
					    void **objp, unsigned *bandp)
{
	if (GRAIN_UNLIKELY(prio == NULL || objp == NULL))
		return -EINVAL;
	return grain_impl_prio_dequeue(prio, objp, 1, bandp) == 1
		       ? 0
		       : grain_impl_prio_fail(prio);
}

GRAIN_INLINE_API int grain_prio_try_dequeue_burst(struct grain_prio *prio,
						  void **objs, unsigned n)
{
	if (GRAIN_UNLIKELY(prio == NULL || (objs == NULL && n != 0) ||
			   n > (unsigned)INT32_MAX))
		return -EINVAL;
	if (n == 0)
		return 0;
	unsigned k = grain_impl_prio_dequeue(prio, objs, n, NULL);
	if (GRAIN_LIKELY(k != 0))
		return (int)k;
	return grain_impl_prio_fail(prio) == -EPIPE ? -EPIPE : 0;
}

#endif /* GRAIN_IMPL_PRIO_H */
