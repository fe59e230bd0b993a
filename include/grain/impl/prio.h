/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/prio.h - grain_prio's layout and inline fast paths.
 * Never include this file directly: include <grain/prio.h>.
 *
 * Labels: P1 (producer) and C1 (dequeuer) are the two full fences of the
 * non-empty-bit protocol described in prio.h section 2. Under
 * GRAIN_PRIO_WAIT a producer, after its look at the bit, and a dequeuer
 * that sets a bit back in grain_impl_prio_settle() wake the sleepers
 * through grain_impl_ring_notify() (S1, impl/ring.h).
 */
#ifndef GRAIN_IMPL_PRIO_H
#define GRAIN_IMPL_PRIO_H

#ifndef GRAIN_PRIO_H
#error "include <grain/prio.h> instead of <grain/impl/prio.h>"
#endif

#include <stdalign.h>

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
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) nonempty;
	/* Weighted round robin position (GRAIN_PRIO_WEIGHTED); the lock is
	 * taken only with several dequeuers. */
	alignas(GRAIN_CACHELINE) struct {
		struct grain_spinlock lock;
		unsigned cur;
		unsigned credit;
	} sched;
	alignas(GRAIN_CACHELINE) struct grain_impl_ring_sleepers sleepers;
	/* Cold: drops (slow path) and lifecycle. */
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) dropped[GRAIN_PRIO_MAX_BANDS];
	struct {
		struct grain_alloc alloc;
		size_t memsize;
		bool created;
	} life;
};

_Static_assert(offsetof(struct grain_prio, nonempty) % GRAIN_CACHELINE == 0,
	       "non-empty bits on their own line");
_Static_assert(offsetof(struct grain_prio, sched) -
			       offsetof(struct grain_prio, nonempty) >=
		       GRAIN_CACHELINE,
	       "scheduler state apart from the bits");

/* Out of line (src/prio.c). */
GRAIN_COLD void grain_impl_prio_drop(struct grain_prio *p, unsigned band,
				     unsigned n);
void grain_impl_prio_settle(struct grain_prio *p, unsigned band);
unsigned grain_impl_prio_dequeue_weighted(struct grain_prio *p, void **objs,
					  unsigned n, unsigned *bandp);

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

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_prio_enqueue(struct grain_prio *p, unsigned band, void *const *objs,
			unsigned n)
{
	unsigned k = grain_impl_ring_enqueue(p->ro.rings[band], objs, n, true);

	if (GRAIN_LIKELY(k != 0)) {
		uint64_t bit = (uint64_t)1 << band;

		if (!(grain_impl_prio_observe(p) & bit))
			atomic_fetch_or_explicit(&p->nonempty, bit,
						 memory_order_relaxed);
		if (p->ro.flags & GRAIN_PRIO_WAIT)
			grain_impl_ring_notify(&p->sleepers);
	}
	if (GRAIN_UNLIKELY(k < n))
		grain_impl_prio_drop(p, band, n - k);
	return k;
}

static GRAIN_ALWAYS_INLINE unsigned
grain_impl_prio_dequeue(struct grain_prio *p, void **objs, unsigned n,
			unsigned *bandp)
{
	if (p->ro.flags & GRAIN_PRIO_WEIGHTED)
		return grain_impl_prio_dequeue_weighted(p, objs, n, bandp);

	unsigned got = 0;
	uint64_t m = atomic_load_explicit(&p->nonempty, memory_order_relaxed);

	while (m != 0) {
		unsigned b = (unsigned)__builtin_ctzll(m);
		unsigned k = grain_impl_ring_dequeue(p->ro.rings[b], objs + got,
						     n - got, true);
		if (k != 0 && bandp != NULL)
			*bandp = b;
		got += k;
		if (got == n)
			break;
		/* Band b gave less than asked: it may be empty. Clear its bit
		 * (or find it refilled), then look again from the top. */
		grain_impl_prio_settle(p, b);
		m = atomic_load_explicit(&p->nonempty, memory_order_relaxed);
	}
	return got;
}

#endif /* GRAIN_IMPL_PRIO_H */
