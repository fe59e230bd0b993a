/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/ring_calls.h - the bodies of ring.h's public inline calls and the
 * argument and result helpers they share with ring_elem.h's (C only), on
 * top of the algorithm bodies of impl/ring.h. Never include this file
 * directly: include <grain/ring.h>.
 */
#ifndef GRAIN_IMPL_RING_CALLS_H
#define GRAIN_IMPL_RING_CALLS_H

#ifndef GRAIN_IMPL_RING_H
#error "include <grain/ring.h> instead of <grain/impl/ring_calls.h>"
#endif

/*
 * The public inline calls of ring.h (declared and documented there). In
 * src/export.c, GRAIN_INLINE_API makes these the exported definitions that
 * C++ and other callers without the inline bodies reach.
 */

/* The copying calls of grain_ring are always inlined in C, as rte_ring's
 * are: gcc -O2 would otherwise keep one out-of-line copy per translation
 * unit once a program calls them from a few places, and every operation
 * would pay a call. Their bodies hold the paths of the four modes, picked
 * from the ring's flags, or of one mode only under GRAIN_RING_INLINE_MODE
 * (impl/ring.h). */
#if !defined(GRAIN_IMPL_EXPORT) && !defined(__cplusplus)
#define GRAIN_IMPL_RING_CALL static GRAIN_ALWAYS_INLINE
#else
#define GRAIN_IMPL_RING_CALL GRAIN_INLINE_API
#endif

/* The fail calls return -EAGAIN or -EPIPE, never 0 or more. Saying so
 * lets the compiler see that a call that returned 0 wrote its outputs, so
 * a caller's `if (grain_ring_try_dequeue(r, &obj) == 0) use(obj);` draws
 * no -Wmaybe-uninitialized; no instruction is added. */
static GRAIN_ALWAYS_INLINE int grain_impl_ring_neg(int rc)
{
#if defined(__GNUC__) || defined(__clang__)
	if (rc >= 0)
		__builtin_unreachable();
#endif
	return rc;
}

GRAIN_INLINE_API unsigned grain_ring_capacity(const struct grain_ring *ring)
{
	return GRAIN_LIKELY(ring != NULL) ? ring->cons.mask + 1u : 0u;
}

GRAIN_IMPL_RING_CALL int grain_ring_try_enqueue(struct grain_ring *ring,
						void *obj)
{
	if (GRAIN_UNLIKELY(ring == NULL))
		return -EINVAL;
	if (GRAIN_LIKELY(grain_impl_ring_enqueue(ring, &obj, 1,
						 GRAIN_IMPL_RING_FIXED) == 1))
		return 0;
	return grain_impl_ring_neg(grain_impl_ring_fail_put(ring));
}

GRAIN_IMPL_RING_CALL int grain_ring_try_dequeue(struct grain_ring *ring,
						void **objp)
{
	if (GRAIN_UNLIKELY(ring == NULL || objp == NULL))
		return -EINVAL;
	if (GRAIN_LIKELY(grain_impl_ring_dequeue(ring, objp, 1,
						 GRAIN_IMPL_RING_FIXED) == 1))
		return 0;
	return grain_impl_ring_neg(grain_impl_ring_fail_take(ring));
}

/* The arguments of an n-object call are valid: a ring, objects unless
 * n == 0, and n at most the capacity (bulk: more could never succeed) or
 * INT32_MAX (burst: the count must fit the int returned). */
static GRAIN_ALWAYS_INLINE bool
grain_impl_ring_args_ok(const struct grain_ring *r, const void *objs,
			unsigned n, enum grain_impl_ring_fill fill)
{
	return r != NULL && (objs != NULL || n == 0) &&
	       n <= (fill == GRAIN_IMPL_RING_VARIABLE ? (unsigned)INT32_MAX
						      : r->prod.mask + 1u);
}

/* Turn the count k of an n-object call into its result: bulk, 0 or why
 * not; burst, the count, or -EPIPE for none from a closed ring. */
static GRAIN_ALWAYS_INLINE int
grain_impl_ring_result(struct grain_ring *r, unsigned k, unsigned n,
		       enum grain_impl_ring_fill fill,
		       enum grain_impl_ring_dir dir)
{
	const bool burst = fill == GRAIN_IMPL_RING_VARIABLE;
	const bool enq = dir == GRAIN_IMPL_RING_ENQ;

	if (GRAIN_LIKELY(k == n))
		return burst ? (int)k : 0;
	if (!burst)
		return grain_impl_ring_neg(grain_impl_ring_fail(r, enq, n));
	if (k != 0)
		return (int)k;
	return grain_impl_ring_fail(r, enq, 1) == -EPIPE ? -EPIPE : 0;
}

/* The body of the four n-object calls: check, move, and turn the count
 * into the call's result. */
static GRAIN_ALWAYS_INLINE int
grain_impl_ring_call(struct grain_ring *r, void **objs, unsigned n,
		     enum grain_impl_ring_fill fill,
		     enum grain_impl_ring_dir dir)
{
	if (GRAIN_UNLIKELY(!grain_impl_ring_args_ok(r, objs, n, fill)))
		return -EINVAL;
	if (n == 0)
		return 0;
	unsigned k = dir == GRAIN_IMPL_RING_ENQ
			     ? grain_impl_ring_enqueue(r, objs, n, fill)
			     : grain_impl_ring_dequeue(r, objs, n, fill);
	return grain_impl_ring_result(r, k, n, fill, dir);
}

GRAIN_IMPL_RING_CALL int grain_ring_try_enqueue_bulk(struct grain_ring *ring,
						     void *const *objs,
						     unsigned n)
{
	/* Only read: the cast serves the shared body. */
	return grain_impl_ring_call(ring, (void **)(uintptr_t)objs, n,
				    GRAIN_IMPL_RING_FIXED, GRAIN_IMPL_RING_ENQ);
}

GRAIN_IMPL_RING_CALL int grain_ring_try_enqueue_burst(struct grain_ring *ring,
						      void *const *objs,
						      unsigned n)
{
	return grain_impl_ring_call(ring, (void **)(uintptr_t)objs, n,
				    GRAIN_IMPL_RING_VARIABLE,
				    GRAIN_IMPL_RING_ENQ);
}

GRAIN_IMPL_RING_CALL int grain_ring_try_dequeue_bulk(struct grain_ring *ring,
						     void **objs, unsigned n)
{
	return grain_impl_ring_call(ring, objs, n, GRAIN_IMPL_RING_FIXED,
				    GRAIN_IMPL_RING_DEQ);
}

GRAIN_IMPL_RING_CALL int grain_ring_try_dequeue_burst(struct grain_ring *ring,
						      void **objs, unsigned n)
{
	return grain_impl_ring_call(ring, objs, n, GRAIN_IMPL_RING_VARIABLE,
				    GRAIN_IMPL_RING_DEQ);
}

/* What is left for the next call of dir's side once a call on r has
 * returned: free slots (ENQ) or objects (DEQ); 0 for a NULL ring. */
static GRAIN_ALWAYS_INLINE unsigned
grain_impl_ring_left(const struct grain_ring *r, enum grain_impl_ring_dir dir)
{
	if (GRAIN_UNLIKELY(r == NULL))
		return 0;
	const unsigned used = grain_impl_ring_count(r);
	return dir == GRAIN_IMPL_RING_ENQ ? r->cons.mask + 1u - used : used;
}

GRAIN_INLINE_API int grain_ring_try_enqueue_bulk_space(struct grain_ring *ring,
						       void *const *objs,
						       unsigned n,
						       unsigned *free_space)
{
	/* The form without the count does the work: a NULL constant
	 * leaves the caller with that call alone, compiled as it would
	 * be without the count. */
	const int rc = grain_ring_try_enqueue_bulk(ring, objs, n);

	if (free_space != NULL)
		*free_space = grain_impl_ring_left(ring, GRAIN_IMPL_RING_ENQ);
	return rc;
}

GRAIN_INLINE_API int grain_ring_try_enqueue_burst_space(struct grain_ring *ring,
							void *const *objs,
							unsigned n,
							unsigned *free_space)
{
	/* The form without the count does the work: a NULL constant
	 * leaves the caller with that call alone, compiled as it would
	 * be without the count. */
	const int rc = grain_ring_try_enqueue_burst(ring, objs, n);

	if (free_space != NULL)
		*free_space = grain_impl_ring_left(ring, GRAIN_IMPL_RING_ENQ);
	return rc;
}

GRAIN_INLINE_API int grain_ring_try_dequeue_bulk_avail(struct grain_ring *ring,
						       void **objs, unsigned n,
						       unsigned *available)
{
	/* The form without the count does the work: a NULL constant
	 * leaves the caller with that call alone, compiled as it would
	 * be without the count. */
	const int rc = grain_ring_try_dequeue_bulk(ring, objs, n);

	if (available != NULL)
		*available = grain_impl_ring_left(ring, GRAIN_IMPL_RING_DEQ);
	return rc;
}

GRAIN_INLINE_API int grain_ring_try_dequeue_burst_avail(struct grain_ring *ring,
							void **objs, unsigned n,
							unsigned *available)
{
	/* The form without the count does the work: a NULL constant
	 * leaves the caller with that call alone, compiled as it would
	 * be without the count. */
	const int rc = grain_ring_try_dequeue_burst(ring, objs, n);

	if (available != NULL)
		*available = grain_impl_ring_left(ring, GRAIN_IMPL_RING_DEQ);
	return rc;
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

GRAIN_INLINE_API int grain_ring_try_reserve_bulk(struct grain_ring *ring,
						 unsigned n,
						 struct grain_ring_zc *zc)
{
	return grain_impl_ring_zc_call(ring, n, GRAIN_IMPL_RING_FIXED,
				       GRAIN_IMPL_RING_ENQ, zc);
}

GRAIN_INLINE_API int grain_ring_try_reserve_burst(struct grain_ring *ring,
						  unsigned n,
						  struct grain_ring_zc *zc)
{
	return grain_impl_ring_zc_call(ring, n, GRAIN_IMPL_RING_VARIABLE,
				       GRAIN_IMPL_RING_ENQ, zc);
}

GRAIN_INLINE_API int grain_ring_commit(struct grain_ring *ring, unsigned n)
{
	return grain_impl_ring_zc_close(ring, n, GRAIN_IMPL_RING_ENQ);
}

GRAIN_INLINE_API int grain_ring_try_peek_bulk(struct grain_ring *ring,
					      unsigned n,
					      struct grain_ring_zc *zc)
{
	return grain_impl_ring_zc_call(ring, n, GRAIN_IMPL_RING_FIXED,
				       GRAIN_IMPL_RING_DEQ, zc);
}

GRAIN_INLINE_API int grain_ring_try_peek_burst(struct grain_ring *ring,
					       unsigned n,
					       struct grain_ring_zc *zc)
{
	return grain_impl_ring_zc_call(ring, n, GRAIN_IMPL_RING_VARIABLE,
				       GRAIN_IMPL_RING_DEQ, zc);
}

GRAIN_INLINE_API int grain_ring_release(struct grain_ring *ring, unsigned n)
{
	return grain_impl_ring_zc_close(ring, n, GRAIN_IMPL_RING_DEQ);
}

#endif /* GRAIN_IMPL_RING_CALLS_H */
