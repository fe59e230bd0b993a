/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file ring_elem.h
 * @brief grain_ring_elem: a bounded FIFO queue of fixed-size elements,
 *        copied in and out or built and read in place (zero copy).
 *
 * Contents
 *   - What it is, and what it shares with grain_ring
 *   - Lifecycle: memsize/init, create/destroy
 *   - Non-blocking operations: try_ (single, _bulk, _burst)
 *   - Blocking operations: _wait
 *   - Zero copy: reserve/commit, peek/release
 *   - Snapshots
 *   - Closing: close, closed
 *   - Event loops: event_attach, event_arm
 *
 * What it is
 *
 * A grain_ring whose slots hold elements of @c esize bytes, fixed at init
 * (a multiple of 4, from 4 to GRAIN_RING_ELEM_MAX_SIZE), instead of
 * pointers: an enqueue copies each element into the ring, a dequeue
 * copies it out, and the zero-copy calls hand out the slots' memory
 * itself. It is the same algorithm as grain_ring (ring.h, "The algorithm"),
 * with the same modes (GRAIN_RING_MPMC, _MPSC, _SPMC, _SPSC), the same
 * GRAIN_RING_WAIT flag and the same rules:
 *   - the synchronization table of ring.h, "Synchronization table", holds as it
 *     is, with zero copy as in ring.h, "Zero copy" (reserve and commit on an SP
 *     ring, peek and release on an SC ring; -ENOTSUP elsewhere);
 *   - ordering: a successful enqueue or commit of an element
 *     happens-before the dequeue or peek that returns it (release R1,
 *     acquire A2), and the dequeue or grain_ring_elem_release() that
 *     frees a slot happens-before the enqueue or reserve that reuses it
 *     (R2 or R2', acquire A1 or A1'). Failed calls give no ordering;
 *   - the non-blocking calls may come up short while a thread of the
 *     other side is descheduled between its claim and its publication, as
 *     ring.h, "The algorithm", lists ("Short calls under preemption");
 *   - closing: as grain_ring's (ring.h, "Synchronization table" and "Closing"):
 *     after grain_ring_elem_close() every enqueue, reserve included, fails with
 *     -EPIPE, and every dequeue or peek fails with -EPIPE once fewer elements
 *     are left than it needs (1 for a burst); the non-blocking, blocking
 *     and zero-copy calls below list it as "-EPIPE (closed)";
 *   - every call checks its pointers (common.h, "Error convention"): int calls
 *     return -EINVAL for a NULL ring or a NULL element array (n > 0),
 *     snapshots read a NULL ring as empty with capacity 0, destroy(NULL)
 *     does nothing.
 *
 * Layout. The ring keeps a 64-bit sequence per slot, as grain_ring, and
 * the elements in an array of their own from a cache line: element i is
 * at i * esize from it, so it is aligned to the largest power of two that
 * divides esize (4 at least, 64 at most), and the elements of a
 * reservation are contiguous in each of its two runs (stride esize).
 *
 * C and C++: as grain_ring (inline in C, exported calls from C++; struct
 * grain_ring_elem is incomplete in C++).
 */
#ifndef GRAIN_RING_ELEM_H
#define GRAIN_RING_ELEM_H

#include <grain/ring.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest element size accepted, in bytes (1 MiB). */
#define GRAIN_RING_ELEM_MAX_SIZE 0x100000u

/** A ring of elements. Its layout is private (impl/ring_elem.h, C
 * only). */
struct grain_ring_elem;

/* Lifecycle */

/**
 * grain_ring_elem_memsize - bytes needed for a ring of @p capacity slots
 * of @p esize bytes each.
 * @return the size (a multiple of GRAIN_CACHELINE), or 0 if @p capacity is
 *         not a power of two in [GRAIN_RING_MIN_CAPACITY,
 *         GRAIN_RING_MAX_CAPACITY], @p esize is not a multiple of 4 in
 *         [4, GRAIN_RING_ELEM_MAX_SIZE], or the size does not fit size_t.
 * Thread safety: any thread.
 */
GRAIN_API size_t grain_ring_elem_memsize(unsigned capacity, unsigned esize);

/**
 * grain_ring_elem_init - make an empty ring in caller memory.
 * @param ring      grain_ring_elem_memsize(@p capacity, @p esize) bytes
 *                  aligned to GRAIN_CACHELINE.
 * @param capacity  a power of two in [2, 2^31].
 * @param esize     the element size: a multiple of 4 in [4,
 *                  GRAIN_RING_ELEM_MAX_SIZE].
 * @param flags     a grain_ring_mode, optionally | GRAIN_RING_WAIT.
 * @return 0, or -EINVAL if @p ring is NULL or misaligned, or @p capacity,
 *         @p esize or @p flags is invalid. Nothing needs freeing later.
 * Thread safety: no other call on the same ring may run concurrently.
 */
GRAIN_API GRAIN_NODISCARD int grain_ring_elem_init(struct grain_ring_elem *ring,
						   unsigned capacity,
						   unsigned esize,
						   unsigned flags);

/**
 * grain_ring_elem_create - allocate and initialise a ring.
 * @param ringp     receives the ring; untouched on error.
 * @param capacity  as grain_ring_elem_init().
 * @param esize     as grain_ring_elem_init().
 * @param flags     as grain_ring_elem_init().
 * @param alloc     allocation hooks, or NULL for the default.
 * @return 0, -EINVAL (as grain_ring_elem_init(), or @p ringp NULL) or
 *         -ENOMEM. Thread safety: any thread.
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_create(struct grain_ring_elem **ringp, unsigned capacity,
		       unsigned esize, unsigned flags,
		       const struct grain_alloc *alloc);

/**
 * grain_ring_elem_destroy - free a ring from grain_ring_elem_create().
 * NULL is a no-op. Thread safety: no other call on the ring may run
 * concurrently, and no thread may sleep in a _wait call on it.
 */
GRAIN_API void grain_ring_elem_destroy(struct grain_ring_elem *ring);

/** grain_ring_elem_capacity - the slot count (0 for NULL). Any thread. */
GRAIN_INLINE_API unsigned
grain_ring_elem_capacity(const struct grain_ring_elem *ring);

/** grain_ring_elem_esize - the element size in bytes (0 for NULL). Any
 * thread. */
GRAIN_INLINE_API unsigned
grain_ring_elem_esize(const struct grain_ring_elem *ring);

/* Non-blocking operations: as grain_ring's (ring.h, "Non-blocking operations"),
 * with element arrays (n * esize bytes, element i at i * esize) for object
 * arrays. A failed call changes nothing. Ordering: as grain_ring's, per
 * element: release (R1) for an enqueue, acquire (A2) for a dequeue, none on
 * failure. Thread safety: ring.h, "Synchronization table". */

/**
 * grain_ring_elem_try_enqueue - copy one element (esize bytes at @p elem)
 * into the ring.
 * @return 0; -EAGAIN if the ring is full (or the producer's zero-copy
 *         reservation is open); -EPIPE (closed); -EINVAL if @p ring or
 *         @p elem is NULL.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_enqueue(struct grain_ring_elem *ring, const void *elem);

/**
 * grain_ring_elem_try_dequeue - copy the oldest ready element out into
 * @p elem (esize bytes, written on success only).
 * @return 0; -EAGAIN if none is ready (or the consumer's peek is open);
 *         -EPIPE (closed, none left); -EINVAL if @p ring or @p elem is
 *         NULL.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_dequeue(struct grain_ring_elem *ring, void *elem);

/**
 * grain_ring_elem_try_enqueue_bulk - copy all @p n elements in, in order,
 * or none.
 * @return 0 (also for n == 0); -EAGAIN if fewer than @p n slots are free;
 *         -EPIPE (closed, n > 0); -EINVAL if @p ring is NULL, @p elems is
 *         NULL with n > 0, or @p n exceeds the capacity.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_enqueue_bulk(struct grain_ring_elem *ring,
				 const void *elems, unsigned n);

/**
 * grain_ring_elem_try_enqueue_burst - copy in as many of the first @p n
 * elements as fit.
 * @return the number added, 0 to @p n; -EPIPE (closed, n > 0); -EINVAL
 *         if @p ring is NULL, @p elems is NULL with n > 0, or n > INT_MAX.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_enqueue_burst(struct grain_ring_elem *ring,
				  const void *elems, unsigned n);

/**
 * grain_ring_elem_try_dequeue_bulk - copy out exactly @p n elements, or
 * none.
 * @return 0 (also for n == 0); -EAGAIN if fewer than @p n are ready;
 *         -EPIPE (closed, fewer than @p n left); -EINVAL as
 *         grain_ring_elem_try_enqueue_bulk().
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_dequeue_bulk(struct grain_ring_elem *ring, void *elems,
				 unsigned n);

/**
 * grain_ring_elem_try_dequeue_burst - copy out up to @p n ready elements,
 * oldest first.
 * @return the number removed, 0 to @p n; -EPIPE (closed, none left, n >
 *         0); -EINVAL as grain_ring_elem_try_enqueue_burst().
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_dequeue_burst(struct grain_ring_elem *ring, void *elems,
				  unsigned n);

/* Counts out of the bulk and burst calls: as grain_ring's _space and
 * _avail forms (ring.h, "Counts out of the bulk and burst calls"): the
 * call without the suffix, then the free slots (enqueue) or the elements
 * (dequeue) left, a snapshot written on every return unless the pointer
 * is NULL (0 for a NULL ring); a NULL constant costs nothing. */

/** grain_ring_elem_try_enqueue_bulk_space -
 * grain_ring_elem_try_enqueue_bulk(), and the free slots left in
 * *@p free_space (NULL: not wanted). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_enqueue_bulk_space(struct grain_ring_elem *ring,
				       const void *elems, unsigned n,
				       unsigned *free_space);

/** grain_ring_elem_try_enqueue_burst_space -
 * grain_ring_elem_try_enqueue_burst(), and the free slots left in
 * *@p free_space (NULL: not wanted). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_enqueue_burst_space(struct grain_ring_elem *ring,
					const void *elems, unsigned n,
					unsigned *free_space);

/** grain_ring_elem_try_dequeue_bulk_avail -
 * grain_ring_elem_try_dequeue_bulk(), and the elements left in
 * *@p available (NULL: not wanted). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_dequeue_bulk_avail(struct grain_ring_elem *ring,
				       void *elems, unsigned n,
				       unsigned *available);

/** grain_ring_elem_try_dequeue_burst_avail -
 * grain_ring_elem_try_dequeue_burst(), and the elements left in
 * *@p available (NULL: not wanted). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_dequeue_burst_avail(struct grain_ring_elem *ring,
					void *elems, unsigned n,
					unsigned *available);

/*
 * Blocking operations: as grain_ring's (ring.h, "Blocking operations"): a ring
 * made with GRAIN_RING_WAIT, @p timeout_ns relative on CLOCK_MONOTONIC
 * (negative: forever; 0: one attempt), woken by the other side's next
 * successful call of any form, zero-copy commit and free included. Returns 0
 * (single and bulk; a bulk of n == 0 at once), the count 1 to
 * @p n (burst), -ETIMEDOUT (nothing moved), -EPIPE (closed, at once or
 * when the close wakes the caller; nothing moved), or -EINVAL if @p ring is
 * NULL or lacks GRAIN_RING_WAIT, the element pointer is NULL, a bulk
 * @p n exceeds the capacity, or a burst @p n is 0 or over INT_MAX.
 * Ordering and thread safety: as the try_ form.
 */

/** grain_ring_elem_enqueue_wait - grain_ring_elem_try_enqueue(), sleeping
 * while the ring is full ("Blocking operations"). */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_enqueue_wait(struct grain_ring_elem *ring, const void *elem,
			     int64_t timeout_ns);

/** grain_ring_elem_dequeue_wait - grain_ring_elem_try_dequeue(), sleeping
 * while the ring is empty ("Blocking operations"). */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_dequeue_wait(struct grain_ring_elem *ring, void *elem,
			     int64_t timeout_ns);

/** grain_ring_elem_enqueue_bulk_wait - grain_ring_elem_try_enqueue_bulk(),
 * sleeping until all @p n fit at once ("Blocking operations"). */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_enqueue_bulk_wait(struct grain_ring_elem *ring,
				  const void *elems, unsigned n,
				  int64_t timeout_ns);

/** grain_ring_elem_enqueue_burst_wait - grain_ring_elem_try_enqueue_burst(),
 * sleeping only while the ring is full ("Blocking operations"). */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_enqueue_burst_wait(struct grain_ring_elem *ring,
				   const void *elems, unsigned n,
				   int64_t timeout_ns);

/** grain_ring_elem_dequeue_bulk_wait - grain_ring_elem_try_dequeue_bulk(),
 * sleeping until @p n are ready at once ("Blocking operations"). */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_dequeue_bulk_wait(struct grain_ring_elem *ring, void *elems,
				  unsigned n, int64_t timeout_ns);

/** grain_ring_elem_dequeue_burst_wait - grain_ring_elem_try_dequeue_burst(),
 * sleeping only while the ring is empty ("Blocking operations"). */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_dequeue_burst_wait(struct grain_ring_elem *ring, void *elems,
				   unsigned n, int64_t timeout_ns);

/*
 * Zero copy: grain_ring's calls (ring.h, "Zero copy") on element slots.
 * The producer of an SP ring reserves slots, builds each element in place
 * at grain_ring_zc_at(&zc, i) (esize bytes) and commits them; the
 * consumer of an SC ring peeks, reads the elements in place and frees
 * them (grain_ring_elem_release()). Modes, errors, the one open
 * reservation per side, partial commit and free, ordering and thread
 * safety are as there: -ENOTSUP on a multi side, -EBUSY for a second
 * open, -EPIPE (closed), -EAGAIN (bulk) when there are not @p n slots,
 * -EINVAL for NULL or an @p n too large (bulk: the capacity;
 * burst: INT_MAX) or a commit/release of more than is open, -ENOENT for
 * a commit/release of n > 0 with nothing open (n == 0 then returns 0).
 * The slot memory belongs to the caller only between the open and the
 * close.
 */

/** grain_ring_elem_try_reserve_bulk - grain_ring_try_reserve_bulk(). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_reserve_bulk(struct grain_ring_elem *ring, unsigned n,
				 struct grain_ring_zc *zc);

/** grain_ring_elem_try_reserve_burst - grain_ring_try_reserve_burst(). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_reserve_burst(struct grain_ring_elem *ring, unsigned n,
				  struct grain_ring_zc *zc);

/** grain_ring_elem_commit - grain_ring_commit(). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_commit(struct grain_ring_elem *ring, unsigned n);

/** grain_ring_elem_try_peek_bulk - grain_ring_try_peek_bulk(). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_peek_bulk(struct grain_ring_elem *ring, unsigned n,
			      struct grain_ring_zc *zc);

/** grain_ring_elem_try_peek_burst - grain_ring_try_peek_burst(). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_try_peek_burst(struct grain_ring_elem *ring, unsigned n,
			       struct grain_ring_zc *zc);

/** grain_ring_elem_release - grain_ring_release(). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_elem_release(struct grain_ring_elem *ring, unsigned n);

/* Snapshots: as grain_ring's (ring.h, "Snapshots"): relaxed, no
 * ordering, approximate while other threads operate, always in [0,
 * capacity]. Any thread. */

/** grain_ring_elem_count - elements in the ring (0 for NULL). */
GRAIN_INLINE_API unsigned
grain_ring_elem_count(const struct grain_ring_elem *ring);

/** grain_ring_elem_free_count - capacity - count (0 for NULL). */
GRAIN_INLINE_API unsigned
grain_ring_elem_free_count(const struct grain_ring_elem *ring);

/** grain_ring_elem_empty - count == 0 (true for NULL). */
GRAIN_INLINE_API bool grain_ring_elem_empty(const struct grain_ring_elem *ring);

/** grain_ring_elem_full - count == capacity (true for NULL). */
GRAIN_INLINE_API bool grain_ring_elem_full(const struct grain_ring_elem *ring);

/* Closing: grain_ring's (ring.h, "Closing"). */

/**
 * grain_ring_elem_close - grain_ring_close(): refuse every later enqueue
 * (-EPIPE), let the consumers drain what is queued, wake every sleeper.
 * @return 0; -EPIPE if already closed; -EBUSY if the ring is SP and its
 *         producer's reservation is open; -EINVAL if @p ring is NULL.
 * Ordering and thread safety: as grain_ring_close() (on an SP ring, an
 * enqueue-side call).
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_close(struct grain_ring_elem *ring);

/** grain_ring_elem_closed - grain_ring_closed(): true once the close has
 * taken effect (false for NULL); acquire when true. Any thread. */
GRAIN_API bool grain_ring_elem_closed(const struct grain_ring_elem *ring);

/* Event loops: grain_ring's (ring.h, "Event loops"). */

/**
 * grain_ring_elem_event_attach - grain_ring_event_attach(): attach the
 * eventfd @p fd to the event @p event (GRAIN_RING_EVENT_IN: elements
 * arrive; GRAIN_RING_EVENT_OUT: room frees), for good; the fd stays the
 * caller's.
 * @return 0; -EBUSY if that event has an fd already; -EINVAL if @p ring
 *         is NULL, lacks GRAIN_RING_WAIT, @p event is not exactly one of
 *         the two, or @p fd < 0.
 * Ordering and thread safety: as grain_ring_event_attach().
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_event_attach(struct grain_ring_elem *ring, unsigned event,
			     int fd);

/**
 * grain_ring_elem_event_arm - grain_ring_event_arm(): ask for one write
 * to the attached eventfd at the other side's next successful operation,
 * then check the ring.
 * @return 1 if the caller must not sleep (elements, IN; room, OUT; or
 *         closed); 0 if armed; -ENOENT if no fd is attached to @p event;
 *         -EINVAL as grain_ring_elem_event_attach().
 * Ordering and thread safety: as grain_ring_event_arm().
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_elem_event_arm(struct grain_ring_elem *ring, unsigned event);

#ifdef __cplusplus
}
#endif

/* C: the layout and the inline bodies. */
#ifndef __cplusplus
#include <grain/impl/ring_elem.h>
#endif

#endif /* GRAIN_RING_ELEM_H */
