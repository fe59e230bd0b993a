/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/ring_elem.h - grain_ring_elem's layout and the bodies of
 * ring_elem.h's inline calls (C only). Never include this file directly:
 * include <grain/ring_elem.h>.
 *
 * A grain_ring_elem is a grain_ring (impl/ring.h) whose slots' object
 * pointers go unused, followed by the element array (from the cache line
 * after the slots); side->esize holds the element size. Every algorithm
 * body is grain_ring's, compiled with elem set: the claim, the sequence
 * checks (A1, A2, A1') and publications (R1, R2, R2') are the same, only
 * the copy between claim and publication moves esize bytes per position
 * from or to the element array instead of a pointer from or to the slot.
 */
#ifndef GRAIN_IMPL_RING_ELEM_H
#define GRAIN_IMPL_RING_ELEM_H

#ifndef GRAIN_RING_ELEM_H
#error "include <grain/ring_elem.h> instead of <grain/impl/ring_elem.h>"
#endif

struct grain_ring_elem {
	struct grain_ring ring; /* the slots and the elements follow */
};

_Static_assert(sizeof(struct grain_ring_elem) == sizeof(struct grain_ring),
	       "the slots follow the ring header as in a grain_ring");

/* The grain_ring that @p e is, NULL for NULL (the ring's checks then
 * fail the call). */
static GRAIN_ALWAYS_INLINE struct grain_ring *
grain_impl_ring_elem_ring(struct grain_ring_elem *e)
{
	return e != NULL ? &e->ring : NULL;
}

/* The argument checks and the body of the n-element calls: as
 * grain_impl_ring_call(), on elements. */
static GRAIN_ALWAYS_INLINE int
grain_impl_ring_elem_call(struct grain_ring_elem *e, void *elems, unsigned n,
			  enum grain_impl_ring_fill fill,
			  enum grain_impl_ring_dir dir)
{
	if (GRAIN_UNLIKELY(e == NULL ||
			   !grain_impl_ring_args_ok(&e->ring, elems, n, fill)))
		return -EINVAL;
	if (n == 0)
		return 0;
	unsigned k =
		dir == GRAIN_IMPL_RING_ENQ
			? grain_impl_ring_enqueue_any(&e->ring, elems, n, fill,
						      GRAIN_IMPL_RING_ELEMS)
			: grain_impl_ring_dequeue_any(&e->ring, elems, n, fill,
						      GRAIN_IMPL_RING_ELEMS);
	return grain_impl_ring_result(&e->ring, k, n, fill, dir);
}

static GRAIN_ALWAYS_INLINE int grain_impl_ring_elem_zc_call(
	struct grain_ring_elem *e, unsigned n, enum grain_impl_ring_fill fill,
	enum grain_impl_ring_dir dir, struct grain_ring_zc *zc)
{
	if (GRAIN_UNLIKELY(e == NULL ||
			   !grain_impl_ring_zc_args_ok(&e->ring, zc, n, fill)))
		return -EINVAL;
	return grain_impl_ring_zc_open(&e->ring, n, fill, dir, zc,
				       grain_impl_ring_data(&e->ring),
				       e->ring.prod.esize);
}

/* The public inline calls of ring_elem.h (declared and documented there);
 * exported from src/export.c as ring.h's are. */

GRAIN_INLINE_API unsigned
grain_ring_elem_capacity(const struct grain_ring_elem *ring)
{
	return GRAIN_LIKELY(ring != NULL) ? ring->ring.cons.mask + 1u : 0u;
}

GRAIN_INLINE_API unsigned
grain_ring_elem_esize(const struct grain_ring_elem *ring)
{
	return GRAIN_LIKELY(ring != NULL) ? ring->ring.cons.esize : 0u;
}

GRAIN_INLINE_API int grain_ring_elem_try_enqueue(struct grain_ring_elem *ring,
						 const void *elem)
{
	if (GRAIN_UNLIKELY(elem == NULL))
		return -EINVAL;
	/* Only read: the cast serves the shared body. */
	return grain_impl_ring_elem_call(ring, (void *)(uintptr_t)elem, 1,
					 GRAIN_IMPL_RING_FIXED,
					 GRAIN_IMPL_RING_ENQ);
}

GRAIN_INLINE_API int grain_ring_elem_try_dequeue(struct grain_ring_elem *ring,
						 void *elem)
{
	if (GRAIN_UNLIKELY(elem == NULL))
		return -EINVAL;
	return grain_impl_ring_elem_call(ring, elem, 1, GRAIN_IMPL_RING_FIXED,
					 GRAIN_IMPL_RING_DEQ);
}

GRAIN_INLINE_API int
grain_ring_elem_try_enqueue_bulk(struct grain_ring_elem *ring,
				 const void *elems, unsigned n)
{
	return grain_impl_ring_elem_call(ring, (void *)(uintptr_t)elems, n,
					 GRAIN_IMPL_RING_FIXED,
					 GRAIN_IMPL_RING_ENQ);
}

GRAIN_INLINE_API int
grain_ring_elem_try_enqueue_burst(struct grain_ring_elem *ring,
				  const void *elems, unsigned n)
{
	return grain_impl_ring_elem_call(ring, (void *)(uintptr_t)elems, n,
					 GRAIN_IMPL_RING_VARIABLE,
					 GRAIN_IMPL_RING_ENQ);
}

GRAIN_INLINE_API int
grain_ring_elem_try_dequeue_bulk(struct grain_ring_elem *ring, void *elems,
				 unsigned n)
{
	return grain_impl_ring_elem_call(ring, elems, n, GRAIN_IMPL_RING_FIXED,
					 GRAIN_IMPL_RING_DEQ);
}

GRAIN_INLINE_API int
grain_ring_elem_try_dequeue_burst(struct grain_ring_elem *ring, void *elems,
				  unsigned n)
{
	return grain_impl_ring_elem_call(
		ring, elems, n, GRAIN_IMPL_RING_VARIABLE, GRAIN_IMPL_RING_DEQ);
}

GRAIN_INLINE_API int
grain_ring_elem_try_enqueue_bulk_space(struct grain_ring_elem *ring,
				       const void *elems, unsigned n,
				       unsigned *free_space)
{
	/* As in ring.h's counting forms. */
	const int rc = grain_ring_elem_try_enqueue_bulk(ring, elems, n);

	if (free_space != NULL)
		*free_space = grain_impl_ring_left(
			grain_impl_ring_elem_ring(ring), GRAIN_IMPL_RING_ENQ);
	return rc;
}

GRAIN_INLINE_API int
grain_ring_elem_try_enqueue_burst_space(struct grain_ring_elem *ring,
					const void *elems, unsigned n,
					unsigned *free_space)
{
	/* As in ring.h's counting forms. */
	const int rc = grain_ring_elem_try_enqueue_burst(ring, elems, n);

	if (free_space != NULL)
		*free_space = grain_impl_ring_left(
			grain_impl_ring_elem_ring(ring), GRAIN_IMPL_RING_ENQ);
	return rc;
}

GRAIN_INLINE_API int
grain_ring_elem_try_dequeue_bulk_avail(struct grain_ring_elem *ring,
				       void *elems, unsigned n,
				       unsigned *available)
{
	/* As in ring.h's counting forms. */
	const int rc = grain_ring_elem_try_dequeue_bulk(ring, elems, n);

	if (available != NULL)
		*available = grain_impl_ring_left(
			grain_impl_ring_elem_ring(ring), GRAIN_IMPL_RING_DEQ);
	return rc;
}

GRAIN_INLINE_API int
grain_ring_elem_try_dequeue_burst_avail(struct grain_ring_elem *ring,
					void *elems, unsigned n,
					unsigned *available)
{
	/* As in ring.h's counting forms. */
	const int rc = grain_ring_elem_try_dequeue_burst(ring, elems, n);

	if (available != NULL)
		*available = grain_impl_ring_left(
			grain_impl_ring_elem_ring(ring), GRAIN_IMPL_RING_DEQ);
	return rc;
}

GRAIN_INLINE_API int
grain_ring_elem_try_reserve_bulk(struct grain_ring_elem *ring, unsigned n,
				 struct grain_ring_zc *zc)
{
	return grain_impl_ring_elem_zc_call(ring, n, GRAIN_IMPL_RING_FIXED,
					    GRAIN_IMPL_RING_ENQ, zc);
}

GRAIN_INLINE_API int
grain_ring_elem_try_reserve_burst(struct grain_ring_elem *ring, unsigned n,
				  struct grain_ring_zc *zc)
{
	return grain_impl_ring_elem_zc_call(ring, n, GRAIN_IMPL_RING_VARIABLE,
					    GRAIN_IMPL_RING_ENQ, zc);
}

GRAIN_INLINE_API int grain_ring_elem_commit(struct grain_ring_elem *ring,
					    unsigned n)
{
	return grain_impl_ring_zc_close(grain_impl_ring_elem_ring(ring), n,
					GRAIN_IMPL_RING_ENQ);
}

GRAIN_INLINE_API int grain_ring_elem_try_peek_bulk(struct grain_ring_elem *ring,
						   unsigned n,
						   struct grain_ring_zc *zc)
{
	return grain_impl_ring_elem_zc_call(ring, n, GRAIN_IMPL_RING_FIXED,
					    GRAIN_IMPL_RING_DEQ, zc);
}

GRAIN_INLINE_API int
grain_ring_elem_try_peek_burst(struct grain_ring_elem *ring, unsigned n,
			       struct grain_ring_zc *zc)
{
	return grain_impl_ring_elem_zc_call(ring, n, GRAIN_IMPL_RING_VARIABLE,
					    GRAIN_IMPL_RING_DEQ, zc);
}

GRAIN_INLINE_API int grain_ring_elem_release(struct grain_ring_elem *ring,
					     unsigned n)
{
	return grain_impl_ring_zc_close(grain_impl_ring_elem_ring(ring), n,
					GRAIN_IMPL_RING_DEQ);
}

GRAIN_INLINE_API unsigned
grain_ring_elem_count(const struct grain_ring_elem *ring)
{
	return GRAIN_LIKELY(ring != NULL) ? grain_impl_ring_count(&ring->ring)
					  : 0u;
}

GRAIN_INLINE_API unsigned
grain_ring_elem_free_count(const struct grain_ring_elem *ring)
{
	return grain_ring_elem_capacity(ring) - grain_ring_elem_count(ring);
}

GRAIN_INLINE_API bool grain_ring_elem_empty(const struct grain_ring_elem *ring)
{
	return grain_ring_elem_count(ring) == 0;
}

GRAIN_INLINE_API bool grain_ring_elem_full(const struct grain_ring_elem *ring)
{
	return grain_ring_elem_count(ring) == grain_ring_elem_capacity(ring);
}

#endif /* GRAIN_IMPL_RING_ELEM_H */
