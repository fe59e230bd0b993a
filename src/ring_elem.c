/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring_elem.c - grain_ring_elem's cold paths: sizing, initialisation,
 * creation and the _wait calls.
 *
 * Design. A grain_ring_elem is a grain_ring with an element array after
 * its slots (include/grain/impl/ring_elem.h): it is initialised by
 * grain_ring_init() and then given its element size and its own memory
 * size; grain_ring's create and destroy bodies make and free it, and its
 * _wait calls are grain_ring's sleep loop (grain_impl_wait(), src/ring.c)
 * around the element forms of the same inline paths.
 *
 * References: DPDK lib/ring (rte_ring_elem: a ring of fixed-size
 * elements; rte_ring_peek_zc: reserve/commit in ring memory).
 */
#include <grain/ring_elem.h>

#include "create.h"
#include "event.h"

static bool esize_ok(unsigned esize)
{
	return esize >= 4 && esize <= GRAIN_RING_ELEM_MAX_SIZE &&
	       esize % 4 == 0;
}

static uint64_t round_line(uint64_t size)
{
	return (size + GRAIN_CACHELINE - 1) & ~(uint64_t)(GRAIN_CACHELINE - 1);
}

size_t grain_ring_elem_memsize(unsigned capacity, unsigned esize)
{
	size_t ring = grain_ring_memsize(capacity);

	if (ring == 0 || !esize_ok(esize))
		return 0;
	/* At most 2^31 elements of 2^20 bytes: 2^51, no overflow in 64
	 * bits. grain_ring_memsize() already rounds the slots up to a line,
	 * where grain_impl_ring_data() puts the elements. */
	uint64_t size = (uint64_t)ring + round_line((uint64_t)capacity * esize);
	return size > SIZE_MAX ? 0 : (size_t)size;
}

int grain_ring_elem_init(struct grain_ring_elem *ring, unsigned capacity,
			 unsigned esize, unsigned flags)
{
	size_t size = grain_ring_elem_memsize(capacity, esize);

	/* Misaligned memory is refused before any member is reached. */
	if (ring == NULL || size == 0 ||
	    (uintptr_t)(void *)ring % _Alignof(struct grain_ring_elem) != 0)
		return -EINVAL;
	int rc = grain_ring_init(&ring->ring, capacity, flags);
	if (rc != 0)
		return rc;
	ring->ring.life.memsize = size;
	ring->ring.prod.esize = esize;
	ring->ring.cons.esize = esize;
	return 0;
}

struct elem_args {
	unsigned capacity;
	unsigned esize;
	unsigned flags;
};

static int elem_init_mem(void *mem, const void *arg)
{
	const struct elem_args *a = arg;

	return grain_ring_elem_init(mem, a->capacity, a->esize, a->flags);
}

int grain_ring_elem_create(struct grain_ring_elem **ringp, unsigned capacity,
			   unsigned esize, unsigned flags,
			   const struct grain_alloc *alloc)
{
	const struct elem_args args = { capacity, esize, flags };
	size_t size = grain_ring_elem_memsize(capacity, esize);
	struct grain_ring *r = NULL;
	int rc = grain_impl_ring_create(ringp != NULL ? &r : NULL, size, flags,
					alloc, elem_init_mem, &args);

	if (rc == 0)
		*ringp = grain_container_of(r, struct grain_ring_elem, ring);
	return rc;
}

/* The ring's life record holds the element ring's own memory size. */
void grain_ring_elem_destroy(struct grain_ring_elem *ring)
{
	if (ring != NULL)
		grain_ring_destroy(&ring->ring);
}

/* --- sleeping ----------------------------------------------------------- */

struct elem_wait_op {
	struct grain_ring *ring;
	bool enqueue;
	bool burst;
	void *elems;
	unsigned n;
};

static int elem_wait_attempt(void *ctx)
{
	const struct elem_wait_op *op = ctx;
	unsigned k =
		op->enqueue
			? grain_impl_ring_enqueue_any(op->ring, op->elems,
						      op->n, op->burst,
						      GRAIN_IMPL_RING_ELEMS)
			: grain_impl_ring_dequeue_any(op->ring, op->elems,
						      op->n, op->burst,
						      GRAIN_IMPL_RING_ELEMS);

	return grain_impl_ring_attempt_result(op->ring, k, op->n, op->burst,
					      op->enqueue);
}

/* Check the arguments (limit: the largest n), then sleep on the other
 * side's announcements until the operation succeeds. */
static int elem_wait(struct grain_ring_elem *e, bool enqueue, bool burst,
		     const void *elems, unsigned n, int64_t timeout_ns)
{
	if (e == NULL || (e->ring.prod.flags & GRAIN_RING_WAIT) == 0)
		return -EINVAL;
	if (n == 0 && !burst)
		return 0;
	unsigned limit = burst ? (unsigned)INT32_MAX : e->ring.prod.mask + 1u;
	if (elems == NULL || n == 0 || n > limit)
		return -EINVAL;

	struct elem_wait_op op = { &e->ring, enqueue, burst,
				   (void *)(uintptr_t)elems, n };
	/* Enqueuers wait for room, which dequeuers announce on their side. */
	struct grain_impl_ring_sleepers *s = enqueue ? &e->ring.cons.sleepers
						     : &e->ring.prod.sleepers;
	int rc = grain_impl_wait(s, elem_wait_attempt, &op, timeout_ns);
	return rc > 0 && !burst ? 0 : rc;
}

int grain_ring_elem_enqueue_wait(struct grain_ring_elem *ring, const void *elem,
				 int64_t timeout_ns)
{
	if (elem == NULL)
		return -EINVAL;
	return elem_wait(ring, true, false, elem, 1, timeout_ns);
}

int grain_ring_elem_dequeue_wait(struct grain_ring_elem *ring, void *elem,
				 int64_t timeout_ns)
{
	if (elem == NULL)
		return -EINVAL;
	return elem_wait(ring, false, false, elem, 1, timeout_ns);
}

int grain_ring_elem_enqueue_bulk_wait(struct grain_ring_elem *ring,
				      const void *elems, unsigned n,
				      int64_t timeout_ns)
{
	return elem_wait(ring, true, false, elems, n, timeout_ns);
}

int grain_ring_elem_enqueue_burst_wait(struct grain_ring_elem *ring,
				       const void *elems, unsigned n,
				       int64_t timeout_ns)
{
	return elem_wait(ring, true, true, elems, n, timeout_ns);
}

int grain_ring_elem_dequeue_bulk_wait(struct grain_ring_elem *ring, void *elems,
				      unsigned n, int64_t timeout_ns)
{
	return elem_wait(ring, false, false, elems, n, timeout_ns);
}

int grain_ring_elem_dequeue_burst_wait(struct grain_ring_elem *ring,
				       void *elems, unsigned n,
				       int64_t timeout_ns)
{
	return elem_wait(ring, false, true, elems, n, timeout_ns);
}

int grain_ring_elem_close(struct grain_ring_elem *ring)
{
	return ring != NULL ? grain_impl_ring_close(&ring->ring) : -EINVAL;
}

bool grain_ring_elem_closed(const struct grain_ring_elem *ring)
{
	return ring != NULL && grain_impl_ring_closed(&ring->ring);
}

int grain_ring_elem_event_attach(struct grain_ring_elem *ring, unsigned event,
				 int fd)
{
	return ring != NULL
		       ? grain_impl_ring_event_attach(&ring->ring, event, fd)
		       : -EINVAL;
}

int grain_ring_elem_event_arm(struct grain_ring_elem *ring, unsigned event)
{
	return ring != NULL ? grain_impl_ring_event_arm(&ring->ring, event)
			    : -EINVAL;
}
