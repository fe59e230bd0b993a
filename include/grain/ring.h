/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file ring.h
 * @brief grain_ring: a bounded FIFO queue of pointers, any mix of single or
 *        multiple producers and consumers, with bulk, burst and blocking
 *        operations.
 *
 * Contents
 *   - Synchronization table
 *   - The algorithm and its ordering
 *   - Modes, flags and capacity
 *   - Lifecycle: memsize/init, create/destroy
 *   - Non-blocking operations: try_ (single, _bulk, _burst)
 *   - Blocking operations: _wait, each beside its try_ form
 *   - Snapshots: count, free_count, empty, full
 *   - Deprecated names
 *   - Zero copy: reserve/commit, peek/release (single sides only)
 *   - Closing: close, closed
 *   - Event loops: event_attach, event_arm
 *
 * Words. Each of these means one thing here. "Release" is the memory
 * ordering only: a release store (R1, R2, R2') pairs with an acquire load
 * (A2, A1, A1'). A side "publishes" slots when it hands them to the other
 * side: a producer sets a filled slot's sequence, a consumer an emptied
 * one's (or, a single consumer, its position). A slot is "free" when a
 * producer may fill it: a dequeue frees the slots it takes, and so does
 * grain_ring_release() for the slots of an open peek (the call keeps its
 * name; what it does is free them, with release ordering).
 *
 * Synchronization table
 *
 * | call                      | may run concurrently with                 |
 * |---------------------------|-------------------------------------------|
 * | enqueue (any form)        | dequeues; other enqueues unless SP        |
 * | dequeue (any form)        | enqueues; other dequeues unless SC        |
 * | _wait forms               | as their non-blocking form (needs WAIT)   |
 * | reserve, commit (SP only) | dequeues; never another enqueue or reserve|
 * | peek, release (SC only)   | enqueues; never another dequeue or peek   |
 * | count/free_count/empty/full, capacity | everything                    |
 * | close                     | everything (SP: not with an enqueue)      |
 * | closed                    | everything                                |
 * | event_attach, event_arm   | everything (needs WAIT)                   |
 * | init, destroy             | nothing on the same ring                  |
 *
 * In SP mode at most one thread at a time may enqueue; in SC mode at most
 * one may dequeue. "At a time" means the calls must be ordered by the user
 * (a mutex, a thread handover): they need not come from the same thread.
 *
 * A successful enqueue of an object happens-before the dequeue that returns
 * it (release/acquire on the slot, R1 -> A2). The dequeue that frees a slot
 * happens-before the enqueue that reuses it (R2 -> A1). Failed calls
 * (-EAGAIN, a short burst) give no ordering.
 *
 * Closing (see "Closing" below). An enqueue is before the close when its claim
 * of positions comes before the close's freeze of the producers' position in
 * that word's order (both are read-modify-writes of it; in SP mode, when the
 * single producer's call is ordered before the close): then it succeeded, and
 * its objects are dequeued like any other, even if its producer publishes them
 * after the close returned. Every other enqueue fails with -EPIPE. A call that
 * gets -EPIPE, and one that sees grain_ring_closed() true, happens-after the
 * close (release/acquire).
 *
 * The algorithm
 *
 * Slot i holds an object pointer and a 64-bit sequence number. A slot
 * whose sequence equals position p is free for the producer of position p;
 * once that producer has stored the object it sets the sequence to p + 1
 * (R1), which makes it ready for the consumer of position p; the consumer
 * reads the object and sets the sequence to p + capacity (R2), freeing the
 * slot for the next lap. Positions are free-running 64-bit counters
 * (tail for producers, head for consumers) on separate cache lines; they
 * never wrap in practice (2^64 operations), so no ABA is possible, and
 * every comparison is made on signed differences, so even a wrap is safe.
 *
 * A multi-producer claims positions [p, p + n) by checking that the n
 * slots are free (A1) and then moving tail from p to p + n with one
 * compare-and-swap; a failed CAS means another producer claimed p first,
 * and the call retries from the new tail. Consumers mirror this on head.
 * A batch's sequence numbers are published last slot first, so the other
 * side sees its first slot ready only when the whole batch is, and takes
 * it whole. Nobody ever waits for another thread's store: a claim is only
 * made on slots already known to be free (or ready), so there is no "tail
 * catch-up" spin as in rte_ring or ck_ring.
 *
 * A single side needs no CAS: it stores its position. A single consumer
 * also writes no sequence numbers: it publishes its position instead
 * (release, R2' after the reads of a batch), and producers read that one
 * word (acquire, A1') to know which slots are free; a single producer
 * (SPSC) keeps a private copy of it and reads the consumer's cache line
 * only when that copy says the ring is full (Lamport's queue with cached
 * indices). Producers always publish per slot: the consumer reads the
 * slot's line for the object anyway, so its readiness check costs no line
 * of its own. The modes are compiled as separate copies of the fast
 * paths, chosen by one branch on the ring's flags.
 *
 * Progress: a thread descheduled between its claim and its publication of
 * the sequence (or, a single consumer, its position) delays only the slots it
 * claimed: other producers go on claiming and filling later slots, other
 * consumers go on draining earlier ones. Consumers reach the delayed
 * slot only in FIFO order, and see it as not yet ready (try_dequeue
 * returns -EAGAIN, a burst stops before it) until its producer runs
 * again; nobody spins on it.
 *
 * Short calls under preemption. For that reason a non-blocking call may
 * come up short of what grain_ring_count() or grain_ring_free_count()
 * showed a moment before, with no other thread taking those slots,
 * while a thread of the other side is descheduled between its claim and
 * its publication:
 *   - dequeues (try_dequeue -EAGAIN, try_dequeue_bulk -EAGAIN,
 *     try_dequeue_burst fewer; on an SC ring try_peek_bulk and
 *     try_peek_burst too), on every ring: they stop at a slot that a
 *     producer has claimed (a single producer: moved its position over)
 *     but not yet published, which the count already includes;
 *   - enqueues (try_enqueue -EAGAIN, try_enqueue_bulk -EAGAIN,
 *     try_enqueue_burst fewer; on an SP ring try_reserve_bulk and
 *     try_reserve_burst too), on MPMC and SPMC rings only: they stop at
 *     a slot that a consumer has claimed but not yet emptied, which
 *     free_count already includes ("Snapshots"). A single consumer (MPSC,
 *     SPSC) publishes its position only once it is done.
 *
 * A bulk call is all or nothing, so it fails whole where a burst would
 * have moved the slots before the delayed one. A caller that needs n
 * slots retries, or uses a _wait form, which sleeps until the delayed
 * thread's publication wakes it.
 *
 * Modes and capacity
 *
 * The capacity is a power of two from 2 to 2^31 and every one of its
 * slots is usable: a ring of capacity 1024 holds exactly 1024 objects.
 * Any pointer may be stored, NULL included. The ring needs
 * grain_ring_memsize(capacity) bytes (a header of 5 cache lines plus 16
 * bytes per slot on LP64).
 *
 * Cost of the optional WAIT flag: every successful operation of a WAIT
 * ring adds one atomic read-modify-write (acq_rel) on its own side's cache
 * line, to find out whether a thread sleeps on the other side; only then
 * does it make a system call (futex wake). Rings without WAIT pay nothing.
 *
 * C and C++. In C the GRAIN_INLINE_API calls are inline (their bodies are
 * in impl/, with the layout); in C++ they are calls to libgrain's
 * exported copies of the same code (common.h, "Exported calls and inline fast
 * paths"), and struct grain_ring is an incomplete type.
 *
 * Arguments. Every call, inline or not, checks its pointers and never
 * crashes on NULL (common.h, "Error convention"): int calls return -EINVAL, the
 * snapshots read a NULL ring as an empty ring of capacity 0, and
 * grain_ring_destroy(NULL) does nothing.
 */
#ifndef GRAIN_RING_H
#define GRAIN_RING_H

#include <grain/common.h>

#include <errno.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Only one thread at a time enqueues. */
#define GRAIN_RING_SP 0x1u
/** Only one thread at a time dequeues. */
#define GRAIN_RING_SC 0x2u
/** Enable the _wait calls (each operation then checks for sleepers). */
#define GRAIN_RING_WAIT 0x4u

/** The four modes: combinations of GRAIN_RING_SP and GRAIN_RING_SC. */
enum grain_ring_mode {
	GRAIN_RING_MPMC = 0,
	GRAIN_RING_SPMC = GRAIN_RING_SP,
	GRAIN_RING_MPSC = GRAIN_RING_SC,
	GRAIN_RING_SPSC = GRAIN_RING_SP | GRAIN_RING_SC,
};

/*
 * GRAIN_RING_INLINE_MODE - the mode chosen at compile time. A C program
 * may define it, before it includes <grain/ring.h> or <grain/ring_elem.h>,
 * to the mode of the rings it calls (GRAIN_RING_MPMC, _MPSC, _SPMC or
 * _SPSC, no other flag; checked by a static assertion). Every enqueue and
 * dequeue call of the translation unit then holds that mode's path alone,
 * one compare of the ring's flags in front of it. A ring of another mode
 * still works: its calls go to one out-of-line copy of every mode's path
 * per translation unit. Without the macro each call holds the paths of all
 * four modes, picked from the ring's flags. Either way the copying calls
 * of grain_ring (try_enqueue, try_dequeue and their _bulk and _burst
 * forms) are always inlined into the caller, as rte_ring's are; the macro
 * makes each call site smaller and saves a compare or two. Semantics,
 * errors and ordering are the same either way. C++
 * calls the exported copies and ignores the macro.
 */

/** Smallest and largest capacity accepted. */
#define GRAIN_RING_MIN_CAPACITY 2u
#define GRAIN_RING_MAX_CAPACITY 0x80000000u /**< 2^31 */

/** A ring. Its layout is private (impl/ring.h, C only): C++ sees an
 * incomplete type and uses it through pointers only. */
struct grain_ring;

/* Lifecycle */

/**
 * grain_ring_memsize - bytes needed for a ring of @p capacity slots.
 * @return the size (a multiple of GRAIN_CACHELINE), or 0 if @p capacity is
 *         not a power of two in [GRAIN_RING_MIN_CAPACITY,
 *         GRAIN_RING_MAX_CAPACITY] or the size does not fit in size_t.
 * Thread safety: any thread.
 */
GRAIN_API size_t grain_ring_memsize(unsigned capacity);

/**
 * grain_ring_init - make an empty ring in caller memory.
 * @param ring      grain_ring_memsize(@p capacity) bytes aligned to
 *                  GRAIN_CACHELINE.
 * @param capacity  a power of two in [2, 2^31].
 * @param flags     a grain_ring_mode, optionally | GRAIN_RING_WAIT.
 * @return 0, or -EINVAL if @p ring is NULL or misaligned, @p capacity is
 *         invalid or @p flags has unknown bits. Nothing needs freeing
 *         later: the memory is the caller's to reuse once no thread uses
 *         the ring.
 * Thread safety: no other call on the same ring may run concurrently.
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_init(struct grain_ring *ring, unsigned capacity, unsigned flags);

/**
 * grain_ring_create - allocate and initialise a ring.
 * @param ringp     receives the ring; untouched on error.
 * @param capacity  as grain_ring_init().
 * @param flags     as grain_ring_init().
 * @param alloc     allocation hooks, or NULL for the default.
 * @return 0, -EINVAL (as grain_ring_init(), or @p ringp NULL) or -ENOMEM.
 * Thread safety: any thread.
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_create(struct grain_ring **ringp, unsigned capacity, unsigned flags,
		  const struct grain_alloc *alloc);

/**
 * grain_ring_destroy - free a ring from grain_ring_create(). NULL is a
 * no-op. Objects still queued are not touched (drain them first if they
 * own memory). Thread safety: no other call on the ring may run
 * concurrently, and no thread may sleep in a _wait call on it.
 */
GRAIN_API void grain_ring_destroy(struct grain_ring *ring);

/** grain_ring_capacity - the slot count given at init (0 for NULL). Any
 * thread. */
GRAIN_INLINE_API unsigned grain_ring_capacity(const struct grain_ring *ring);

/* Non-blocking operations (try_). None of them sleeps or spins on
 * another thread. A multi-producer/-consumer call retries its CAS when
 * another thread of its side moved the position first (that thread made
 * progress), or when the CAS failed spuriously: it is a weak
 * compare-exchange, which may fail on LL/SC machines (Arm without LSE,
 * POWER, RISC-V) with the position unchanged; the call then checks the
 * slots again and retries at once (x86-64's compare-exchange never fails
 * so). Each changes the ring on success only: a call that fails
 * (-EAGAIN, -EINVAL) or moves 0 objects leaves it as it was. Thread
 * safety: see "Synchronization table". */

/*
 * Blocking operations (_wait), declared beside their try_ forms.
 *
 * Each needs a ring made with GRAIN_RING_WAIT (else -EINVAL). @p timeout_ns
 * is relative, measured on CLOCK_MONOTONIC: negative (INT64_MIN, or -1 as
 * a UINT64_MAX cast to int64_t would give) waits forever, 0 makes one
 * attempt, and a positive timeout whose deadline time_t cannot hold
 * (INT64_MAX where time_t has 32 bits) also waits forever; no value
 * overflows, and a forever-waiting call sleeps like any other. They
 * sleep on a futex while the ring is full (enqueue) or empty (dequeue)
 * and are woken by the other side's next successful call, whatever its
 * form (try_, bulk, burst or _wait): no wake-up is lost, and a call that
 * finds what it needs never makes a system call. A woken call retries, so
 * spurious wake-ups are harmless. Signals do not interrupt them.
 * Ordering: as the non-blocking form.
 *
 * Returns 0 (single and bulk forms; a bulk of n == 0 returns 0 at once);
 * the count, 1 to @p n (burst forms); -ETIMEDOUT if the timeout
 * passed first (nothing was moved); -EPIPE if the ring is closed
 * ("Closing": any enqueue; a dequeue once fewer objects are left than
 * it needs, 1 for a burst), at once or as soon as the close happens,
 * which wakes every sleeper; -EINVAL if @p ring is NULL or
 * was made without GRAIN_RING_WAIT, the object array or pointer is
 * NULL, a bulk @p n exceeds the capacity, a burst @p n is 0 or
 * over INT_MAX.
 */

/**
 * grain_ring_try_enqueue - add one object (NULL allowed).
 * @return 0; -EAGAIN if the ring is full (or the next slot's consumer has
 *         not finished with it); -EPIPE if the ring is closed (section
 *         10); -EINVAL if @p ring is NULL.
 * Ordering: release on success (R1), none on failure.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_enqueue(struct grain_ring *ring, void *obj);

/**
 * grain_ring_enqueue_wait - grain_ring_try_enqueue(), sleeping while the
 * ring is full, for at most @p timeout_ns ("Blocking operations").
 * @return 0; -ETIMEDOUT (not queued); -EPIPE if the ring is or gets
 *         closed (not queued); -EINVAL if @p ring is NULL or lacks
 *         GRAIN_RING_WAIT. Ordering: release on success (R1).
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_enqueue_wait(struct grain_ring *ring, void *obj, int64_t timeout_ns);

/**
 * grain_ring_try_dequeue - remove the oldest ready object into @p objp.
 * @return 0; -EAGAIN if none is ready; -EPIPE if the ring is closed and
 *         every object enqueued before the close was dequeued (section
 *         10); -EINVAL if @p ring or @p objp is NULL (*objp is written on
 *         success only).
 * Ordering: acquire on success (A2), none on failure.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_dequeue(struct grain_ring *ring, void **objp);

/**
 * grain_ring_dequeue_wait - grain_ring_try_dequeue(), sleeping while the
 * ring is empty ("Blocking operations").
 * @return 0; -ETIMEDOUT (*objp untouched); -EPIPE if the ring is closed
 *         and drained ("Closing"); -EINVAL if @p ring or @p objp is NULL
 *         or the ring lacks GRAIN_RING_WAIT. Ordering: acquire on
 *         success (A2).
 */
GRAIN_API GRAIN_NODISCARD int grain_ring_dequeue_wait(struct grain_ring *ring,
						      void **objp,
						      int64_t timeout_ns);

/**
 * grain_ring_try_enqueue_bulk - add all @p n objects, in order, or none.
 * @return 0 (also for n == 0); -EAGAIN if fewer than @p n slots are free;
 *         -EPIPE if the ring is closed (n > 0); -EINVAL if @p ring is
 *         NULL, @p objs is NULL with n > 0, or @p n exceeds the capacity
 *         (it could never succeed).
 * Ordering: as grain_ring_try_enqueue() for each object.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_enqueue_bulk(struct grain_ring *ring, void *const *objs,
			    unsigned n);

/**
 * grain_ring_enqueue_bulk_wait - grain_ring_try_enqueue_bulk(), sleeping
 * until all @p n slots are free at once ("Blocking operations").
 * @return 0 (at once for n == 0); -ETIMEDOUT (none queued); -EPIPE
 *         (closed, none queued); -EINVAL as grain_ring_try_enqueue_bulk(),
 *         or a ring without GRAIN_RING_WAIT.
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_enqueue_bulk_wait(struct grain_ring *ring, void *const *objs,
			     unsigned n, int64_t timeout_ns);

/**
 * grain_ring_try_enqueue_burst - add as many of the first @p n objects as
 * fit, in order from objs[0].
 * @return the number added, 0 to @p n (0 if full or n == 0); -EPIPE if
 *         the ring is closed (n > 0); -EINVAL if @p ring is NULL, @p objs
 *         is NULL with n > 0, or n > INT_MAX.
 * Ordering: as grain_ring_try_enqueue() for each object added.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_enqueue_burst(struct grain_ring *ring, void *const *objs,
			     unsigned n);

/**
 * grain_ring_enqueue_burst_wait - grain_ring_try_enqueue_burst(), sleeping
 * only while the ring is full ("Blocking operations").
 * @return the number queued, 1 to @p n; -ETIMEDOUT (none); -EPIPE
 *         (closed, none queued); -EINVAL as
 *         grain_ring_try_enqueue_burst(), for n == 0 (no count > 0 could
 *         come), or a ring without GRAIN_RING_WAIT.
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_enqueue_burst_wait(struct grain_ring *ring, void *const *objs,
			      unsigned n, int64_t timeout_ns);

/**
 * grain_ring_try_dequeue_bulk - remove exactly @p n objects into @p objs,
 * or none.
 * @return 0 (also for n == 0); -EAGAIN if fewer than @p n are ready;
 *         -EPIPE if the ring is closed and fewer than @p n objects are
 *         left (they stay for a burst or single dequeue); -EINVAL if
 *         @p ring is NULL, @p objs is NULL with n > 0, or @p n exceeds
 *         the capacity.
 * Ordering: as grain_ring_try_dequeue() for each object.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_dequeue_bulk(struct grain_ring *ring, void **objs, unsigned n);

/**
 * grain_ring_dequeue_bulk_wait - grain_ring_try_dequeue_bulk(), sleeping
 * until @p n objects are ready at once ("Blocking operations"). Returns 0, at
 * once for n == 0; -ETIMEDOUT, none taken; -EPIPE once the ring is closed with
 * fewer than @p n left, none taken; -EINVAL as the try_ form, or for a ring
 * without GRAIN_RING_WAIT.
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_dequeue_bulk_wait(struct grain_ring *ring, void **objs, unsigned n,
			     int64_t timeout_ns);

/**
 * grain_ring_try_dequeue_burst - remove up to @p n ready objects, oldest
 * first, into objs[0..].
 * @return the number removed, 0 to @p n (0 if none is ready or n == 0);
 *         -EPIPE if the ring is closed and drained (n > 0); -EINVAL if
 *         @p ring is NULL, @p objs is NULL with n > 0, or n > INT_MAX.
 * Ordering: as grain_ring_try_dequeue() for each object removed.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_dequeue_burst(struct grain_ring *ring, void **objs, unsigned n);

/**
 * grain_ring_dequeue_burst_wait - sleeps only while the ring is empty,
 * then does what grain_ring_try_dequeue_burst() does ("Blocking operations").
 * @return how many it took, at least 1; -ETIMEDOUT if none came in time;
 *         -EPIPE if the ring is closed and drained; -EINVAL in the try_
 *         form's cases, for n == 0, or without GRAIN_RING_WAIT.
 */
GRAIN_API GRAIN_NODISCARD int
grain_ring_dequeue_burst_wait(struct grain_ring *ring, void **objs, unsigned n,
			      int64_t timeout_ns);

/*
 * Counts out of the bulk and burst calls. Each of the four calls below is
 * the try_ call of the same name without the suffix, with the same
 * arguments, results, errors, ordering and thread safety, and one more
 * output: what is left for the next call of the same side, as rte_ring's
 * bulk and burst calls report it. An enqueue's _space form writes to
 * @p free_space the free slots left, a dequeue's _avail form writes to
 * @p available the objects left; a caller uses it to decide whether to
 * back off or to refill without a second call.
 *
 * The count is a snapshot of the ring taken as the call returns, read as
 * grain_ring_free_count() or grain_ring_count() reads it (two relaxed
 * loads, no ordering, in [0, capacity]), and it is written on every
 * return, success, failure or -EINVAL alike (0 for a NULL ring). Single
 * threaded it is exact: the capacity less the objects queued after the
 * call, or those objects. While other threads operate it may be stale by
 * the time it is read, with the caveats of "Snapshots" (slots a consumer
 * of an MPMC or SPMC ring has claimed count as free, reserved slots as
 * free, peeked ones as used). Only the other side can change it in the
 * caller's favour: for the one producer of an SP ring, later dequeues
 * only add free slots to what it saw; for the one consumer of an SC ring,
 * later enqueues only add objects. With several threads on the caller's
 * side it is an estimate.
 *
 * The output pointer may be NULL: then nothing is written and nothing is
 * read. In C the calls are inline, so a NULL constant removes the count
 * altogether and the call compiles to the same instructions as the form
 * without the suffix.
 */

/**
 * grain_ring_try_enqueue_bulk_space - grain_ring_try_enqueue_bulk(), and
 * the free slots left in *@p free_space.
 * @param ring        as grain_ring_try_enqueue_bulk().
 * @param objs        as grain_ring_try_enqueue_bulk().
 * @param n           as grain_ring_try_enqueue_bulk().
 * @param free_space  receives the free slots after the call (a snapshot),
 *                    on every return; NULL: not wanted.
 * @return as grain_ring_try_enqueue_bulk().
 * Ordering and thread safety: as grain_ring_try_enqueue_bulk(); the count
 * is read with relaxed loads.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_enqueue_bulk_space(struct grain_ring *ring, void *const *objs,
				  unsigned n, unsigned *free_space);

/**
 * grain_ring_try_enqueue_burst_space - grain_ring_try_enqueue_burst(),
 * and the free slots left in *@p free_space.
 * @param ring        as grain_ring_try_enqueue_burst().
 * @param objs        as grain_ring_try_enqueue_burst().
 * @param n           as grain_ring_try_enqueue_burst().
 * @param free_space  as grain_ring_try_enqueue_bulk_space().
 * @return as grain_ring_try_enqueue_burst().
 * Ordering and thread safety: as grain_ring_try_enqueue_burst(); the
 * count is read with relaxed loads.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_enqueue_burst_space(struct grain_ring *ring, void *const *objs,
				   unsigned n, unsigned *free_space);

/**
 * grain_ring_try_dequeue_bulk_avail - grain_ring_try_dequeue_bulk(), and
 * the objects left in *@p available.
 * @param ring       as grain_ring_try_dequeue_bulk().
 * @param objs       as grain_ring_try_dequeue_bulk().
 * @param n          as grain_ring_try_dequeue_bulk().
 * @param available  receives the objects in the ring after the call (a
 *                   snapshot), on every return; NULL: not wanted.
 * @return as grain_ring_try_dequeue_bulk().
 * Ordering and thread safety: as grain_ring_try_dequeue_bulk(); the count
 * is read with relaxed loads.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_dequeue_bulk_avail(struct grain_ring *ring, void **objs,
				  unsigned n, unsigned *available);

/**
 * grain_ring_try_dequeue_burst_avail - grain_ring_try_dequeue_burst(),
 * and the objects left in *@p available.
 * @param ring       as grain_ring_try_dequeue_burst().
 * @param objs       as grain_ring_try_dequeue_burst().
 * @param n          as grain_ring_try_dequeue_burst().
 * @param available  as grain_ring_try_dequeue_bulk_avail().
 * @return as grain_ring_try_dequeue_burst().
 * Ordering and thread safety: as grain_ring_try_dequeue_burst(); the
 * count is read with relaxed loads.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_dequeue_burst_avail(struct grain_ring *ring, void **objs,
				   unsigned n, unsigned *available);

/* Snapshots. Each reads both positions with relaxed loads (the
 * positions themselves are written relaxed) and gives no ordering: a
 * snapshot taken while other threads operate is approximate and may be
 * stale by the time it returns. What it does promise, in any race:
 *   - grain_ring_count() and grain_ring_free_count() are in [0, capacity];
 *     each call takes its own snapshot, so count() + free_count() equals
 *     the capacity only while no other thread operates;
 *   - empty() and full() are count() == 0 and count() == capacity;
 *   - in one grain_ring_totals() call, *dequeued <= *enqueued;
 *   - successive snapshots by one thread never go backwards: the totals
 *     are monotonic (modulo 2^64).
 * The two positions are not read at one instant: a tail read behind the
 * head (possible on weakly ordered CPUs, as nothing orders the relaxed
 * position stores for a third thread) is raised to the head, so a racing
 * count may read 0 for a ring that was never empty, and a count that
 * reads the tail well after the head is capped at the capacity. Slots
 * a producer has claimed but not yet filled count as used. A slot that a
 * consumer of a multi-consumer ring (MPMC, SPMC) has claimed but not yet
 * emptied counts as free, though no enqueue can have it until that
 * consumer is done; a single consumer's slots count as used until its
 * call returns. Any thread. */

/**
 * grain_ring_totals - objects enqueued and dequeued since init (positions
 * claimed by the two sides; a claim in progress counts). Free: no counter
 * is kept beyond the ring's own positions. Always *dequeued <= *enqueued
 * (an enqueued total read behind the dequeued one is raised to it); they
 * wrap at 2^64, and *enqueued - *dequeued is the count before the cap.
 * A NULL ring reads as 0 and 0; a NULL output is skipped.
 */
GRAIN_INLINE_API void grain_ring_totals(const struct grain_ring *ring,
					uint64_t *enqueued, uint64_t *dequeued);

/** grain_ring_count - objects in the ring, in [0, capacity] (0 for NULL). */
GRAIN_INLINE_API unsigned grain_ring_count(const struct grain_ring *ring);

/** grain_ring_free_count - free slots: capacity - count (0 for NULL). */
GRAIN_INLINE_API unsigned grain_ring_free_count(const struct grain_ring *ring);

/** grain_ring_empty - count == 0 (true for NULL). */
GRAIN_INLINE_API bool grain_ring_empty(const struct grain_ring *ring);

/** grain_ring_full - count == capacity (true for NULL: capacity 0). */
GRAIN_INLINE_API bool grain_ring_full(const struct grain_ring *ring);

/*
 * Deprecated names. Version 0.3.0 named the non-blocking bulk and burst
 * calls without try_; the old names still compile (with a deprecation
 * warning) and libgrain still exports them, so programs built against
 * 0.3.0 keep working. Each is the try_ call of the same arguments.
 */
/**
 * grain_ring_enqueue_bulk - @deprecated 0.3.0's name of
 * grain_ring_try_enqueue_bulk().
 */
GRAIN_DEPRECATED("use grain_ring_try_enqueue_bulk()")
GRAIN_NODISCARD GRAIN_INLINE_ANY int
grain_ring_enqueue_bulk(struct grain_ring *ring, void *const *objs, unsigned n)
{
	return grain_ring_try_enqueue_bulk(ring, objs, n);
}

/**
 * grain_ring_enqueue_burst - @deprecated 0.3.0's name of
 * grain_ring_try_enqueue_burst().
 */
GRAIN_DEPRECATED("use grain_ring_try_enqueue_burst()")
GRAIN_NODISCARD GRAIN_INLINE_ANY int
grain_ring_enqueue_burst(struct grain_ring *ring, void *const *objs, unsigned n)
{
	return grain_ring_try_enqueue_burst(ring, objs, n);
}

/**
 * grain_ring_dequeue_bulk - @deprecated 0.3.0's name of
 * grain_ring_try_dequeue_bulk().
 */
GRAIN_DEPRECATED("use grain_ring_try_dequeue_bulk()")
GRAIN_NODISCARD GRAIN_INLINE_ANY int
grain_ring_dequeue_bulk(struct grain_ring *ring, void **objs, unsigned n)
{
	return grain_ring_try_dequeue_bulk(ring, objs, n);
}

/**
 * grain_ring_dequeue_burst - @deprecated 0.3.0's name of
 * grain_ring_try_dequeue_burst().
 */
GRAIN_DEPRECATED("use grain_ring_try_dequeue_burst()")
GRAIN_NODISCARD GRAIN_INLINE_ANY int
grain_ring_dequeue_burst(struct grain_ring *ring, void **objs, unsigned n)
{
	return grain_ring_try_dequeue_burst(ring, objs, n);
}

/*
 * Zero copy
 *
 * A producer may fill slots in place instead of handing the ring objects
 * to copy: grain_ring_try_reserve_bulk() or _burst() reserves n free
 * slots and returns their addresses in a struct grain_ring_zc; the
 * producer stores an object pointer in each (grain_ring_zc_at()) and
 * grain_ring_commit() publishes them. A consumer mirrors this:
 * grain_ring_try_peek_bulk() or _burst() returns the addresses of n ready
 * slots, the consumer reads them in place, and grain_ring_release() frees
 * them. On a grain_ring this saves only the copy of a pointer array; the
 * same calls on a grain_ring_elem (ring_elem.h) let a producer build a
 * whole element in ring memory.
 *
 * Modes. Only a single side reserves: reserve and commit need
 * GRAIN_RING_SP (SPMC, SPSC), peek and grain_ring_release() need
 * GRAIN_RING_SC (MPSC, SPSC); on a multi side they return -ENOTSUP and
 * change nothing. A single side owns its position, so its reserved slots
 * stay private until it publishes them, it may publish fewer than it
 * reserved (the rest are simply not taken), and the ring itself records
 * that a reservation is open: a second reserve (or peek) before the
 * commit (or the free) fails with -EBUSY instead of handing out the same
 * slots twice. A multi side
 * claims its slots with a CAS that other threads build on at once, so a
 * partial commit would leave holes and one thread's open reservation
 * could not be told from another's; the other side of the ring may be
 * multi (SPMC producers reserve while several consumers dequeue).
 *
 * One reservation per side at a time: while the producer's is open, its
 * own enqueue calls (any form) move nothing (-EAGAIN, a 0 burst, or a
 * _wait that sleeps until its timeout), and the same for the consumer's
 * dequeues while a peek is open. Reserved slots count as free, peeked
 * ones as used, in the snapshots ("Snapshots") until the commit or the free.
 *
 * Ordering: a commit is an enqueue of the committed slots (release, R1:
 * what the producer stored in them, in the slots or reachable from them,
 * happens-before the dequeue or peek that returns them); a peek is the
 * reading half of a dequeue (acquire, A2), and grain_ring_release() the
 * freeing half (a release store, R2', pairs with the producers' A1'). The
 * reserve's check
 * that the slots are free is A1/A1' as in an enqueue.
 *
 * Thread safety: the calls of one side are that side's single thread's
 * ("Synchronization table"); they run concurrently with the other side's calls.
 * Reservations are not shared between threads unless handed over with
 * the side itself.
 */

/**
 * struct grain_ring_zc - the slots of a zero-copy reservation: n slots in
 * one run from span[0], or two when they cross the end of the slot array
 * (then span[1] is the array's first slot). Within a run, slot i + 1 is
 * @c stride bytes after slot i. A grain_ring's slot holds a void *, a
 * grain_ring_elem's slot an element. Filled in by the reserve and peek
 * calls; read it, do not build one.
 */
struct grain_ring_zc {
	void *span[2];	 /**< first slot of each run; NULL if empty */
	unsigned len[2]; /**< slots in each run; len[1] is 0 without wrap */
	unsigned stride; /**< bytes from one slot to the next in a run */
	unsigned n;	 /**< len[0] + len[1], the slots reserved */
};

/**
 * grain_ring_zc_at - the address of the @p i th slot of a reservation, in
 * FIFO order across the two runs (for a grain_ring, a void ** to store the
 * object in, or to read it from).
 * @return the address; NULL if @p zc is NULL or @p i >= zc->n.
 * Thread safety: any thread; reads @p zc only.
 */
GRAIN_INLINE_ANY void *grain_ring_zc_at(const struct grain_ring_zc *zc,
					unsigned i)
{
	if (zc == GRAIN_IMPL_NULL || i >= zc->n)
		return GRAIN_IMPL_NULL;
	if (i < zc->len[0])
		return GRAIN_IMPL_CAST(char *, zc->span[0]) +
		       GRAIN_IMPL_CAST(size_t, i) * zc->stride;
	return GRAIN_IMPL_CAST(char *, zc->span[1]) +
	       GRAIN_IMPL_CAST(size_t, i - zc->len[0]) * zc->stride;
}

/**
 * grain_ring_try_reserve_bulk - reserve exactly @p n free slots for the
 * single producer to fill in place, or none.
 * @param ring  an SP ring.
 * @param n     slots wanted, at most the capacity.
 * @param zc    receives the slots (written when the result is 0).
 * @return 0 (n == 0: an empty reservation, nothing left open); -EAGAIN if
 *         fewer than @p n slots are free; -EPIPE if the ring is closed
 *         (n > 0); -EBUSY if a reservation is
 *         already open; -ENOTSUP if the ring is not SP; -EINVAL if @p ring
 *         or @p zc is NULL or @p n exceeds the capacity. Nothing changes
 *         on error.
 * Ordering: acquire (A1 or A1') on success: the consumers are done with
 * the slots' previous objects. Thread safety: the producer's (SP).
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_reserve_bulk(struct grain_ring *ring, unsigned n,
			    struct grain_ring_zc *zc);

/**
 * grain_ring_try_reserve_burst - reserve as many free slots as there are,
 * up to @p n (none open if 0).
 * @return the number reserved, 0 to @p n (*zc written); -EPIPE, -EBUSY,
 *         -ENOTSUP as grain_ring_try_reserve_bulk(); -EINVAL if @p ring or @p zc
 *         is NULL or n > INT_MAX.
 * Ordering and thread safety: as grain_ring_try_reserve_bulk().
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_reserve_burst(struct grain_ring *ring, unsigned n,
			     struct grain_ring_zc *zc);

/**
 * grain_ring_commit - publish the first @p n slots of the open
 * reservation, in order, and close it; the other reserved slots stay
 * free (n == 0 cancels the reservation). Wakes sleeping consumers on a
 * WAIT ring.
 * @return 0 (also for n == 0 with no reservation open, as after a burst
 *         that reserved none); -EINVAL if @p ring is NULL or @p n exceeds
 *         the reserved count (the reservation then stays open,
 *         unchanged); -ENOENT if @p n > 0 and no reservation is open;
 *         -ENOTSUP if the ring is not SP.
 * Ordering: release (R1) on success, as an enqueue of the @p n objects.
 * Thread safety: the producer's (SP).
 */
GRAIN_NODISCARD GRAIN_INLINE_API int grain_ring_commit(struct grain_ring *ring,
						       unsigned n);

/**
 * grain_ring_try_peek_bulk - open exactly @p n ready slots, oldest first,
 * for the single consumer to read in place, or none.
 * @return 0 (n == 0: nothing left open); -EAGAIN if fewer than @p n are
 *         ready; -EPIPE if the ring is closed with fewer than @p n left
 *         to dequeue; -EBUSY if a peek is already open; -ENOTSUP if the ring
 *         is not SC; -EINVAL if @p ring or @p zc is NULL or @p n exceeds
 *         the capacity. Nothing changes on error.
 * Ordering: acquire (A2) on success, as a dequeue. Thread safety: the
 * consumer's (SC).
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_peek_bulk(struct grain_ring *ring, unsigned n,
			 struct grain_ring_zc *zc);

/**
 * grain_ring_try_peek_burst - open up to @p n ready slots (none if 0).
 * @return the number opened, 0 to @p n (*zc written); -EPIPE (closed and
 *         drained), -EBUSY, -ENOTSUP as grain_ring_try_peek_bulk(); -EINVAL if @p ring or @p zc is NULL
 *         or n > INT_MAX.
 * Ordering and thread safety: as grain_ring_try_peek_bulk().
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_ring_try_peek_burst(struct grain_ring *ring, unsigned n,
			  struct grain_ring_zc *zc);

/**
 * grain_ring_release - free the first @p n slots of the open peek and
 * close it; the others stay in the ring, to be dequeued or peeked again
 * (n == 0 frees none). Wakes sleeping producers on a WAIT ring.
 * @return 0 (also for n == 0 with no peek open); -EINVAL if @p ring is
 *         NULL or @p n exceeds the peeked count (the peek then stays
 *         open); -ENOENT if @p n > 0 and no peek is open; -ENOTSUP if the
 *         ring is not SC.
 * Ordering: release (R2') on success: the producers that reuse the slots
 * come after the consumer's reads of them. Thread safety: the consumer's
 * (SC).
 */
GRAIN_NODISCARD GRAIN_INLINE_API int grain_ring_release(struct grain_ring *ring,
							unsigned n);

/*
 * Closing
 *
 * grain_ring_close() shuts a ring down, as closing a channel does: from
 * then on every enqueue fails with -EPIPE, dequeues go on taking what is
 * left and fail with -EPIPE (instead of -EAGAIN, or sleeping) once there
 * is nothing left for them, and every thread asleep in a _wait call on
 * either side wakes at once to find out. Nothing enqueued before the
 * close is lost ("Synchronization table" says which enqueues come before it):
 * an enqueue that returned success is dequeued exactly once.
 *
 * How. The close freezes the producers' position with one
 * read-modify-write (in SP mode a store: the single producer's calls and
 * the close are ordered by the user), moving it 2^62 ahead: a multi
 * producer's compare-and-swap from the old value then fails, and from the
 * new one no slot reads as free, so no later claim can succeed whatever
 * room there is. The position it froze is the final one: the close then
 * publishes it (release) and wakes every sleeper. A producer that claimed
 * before the freeze may still be filling its slots: until it publishes
 * them, a dequeue that reaches them reads -EAGAIN (a _wait call sleeps,
 * and that producer's publish wakes it), never -EPIPE. A dequeue reads
 * -EPIPE only once the consumers' position has reached the final one (a
 * bulk dequeue: once fewer than n positions are left before it). The
 * closed state is read only by a call that failed to move anything, so
 * the paths that succeed cost what they cost before.
 *
 * A call that runs while the close is under way may read -EAGAIN where a
 * later one reads -EPIPE (a producer that finds the position frozen
 * before the final one is published); a _wait call goes back to sleep and
 * the close's wake-up brings it back. The snapshots ("Snapshots") are not
 * affected; grain_ring_totals() counts only what was enqueued.
 */

/**
 * grain_ring_close - refuse every later enqueue and wake every sleeper;
 * what is queued stays for the consumers ("Closing").
 * @return 0; -EPIPE if the ring was already closed (nothing changes);
 *         -EBUSY if the ring is SP and its producer's zero-copy
 *         reservation is open (commit or cancel it first); -EINVAL if
 *         @p ring is NULL.
 * Ordering: release: a call that returns -EPIPE, or a grain_ring_closed()
 * that returns true, happens-after the close. Thread safety: any thread,
 * while any call but init and destroy runs; on an SP ring it is an
 * enqueue-side call (ordered with the single producer's calls, typically
 * made by the producer itself).
 */
GRAIN_API GRAIN_NODISCARD int grain_ring_close(struct grain_ring *ring);

/**
 * grain_ring_closed - true once grain_ring_close() has taken effect (false
 * for NULL). Once true it stays true, and every later enqueue fails with
 * -EPIPE. Ordering: acquire when true (the close happens-before). Any
 * thread.
 */
GRAIN_API bool grain_ring_closed(const struct grain_ring *ring);

/*
 * Event loops
 *
 * A daemon built on epoll (or poll, select, io_uring) waits on its sockets
 * and its queues in one call: it attaches an eventfd to a ring made with
 * GRAIN_RING_WAIT, adds the fd to its epoll set, and arms the ring each
 * time before it sleeps. The ring then writes 1 to the eventfd at the
 * first successful operation of the other side after the arming, the
 * same moment a thread asleep in a _wait call would be woken:
 *   - GRAIN_RING_EVENT_IN: when objects arrive (any enqueue, commit), for
 *     consumers;
 *   - GRAIN_RING_EVENT_OUT: when room frees (any dequeue, release), for
 *     producers;
 *   - for both, when the ring is closed.
 * The loop:
 *
 *     grain_ring_event_attach(ring, GRAIN_RING_EVENT_IN, efd);   // once
 *     for (;;) {
 *             n = grain_ring_try_dequeue_burst(ring, objs, 32);  // drain
 *             ...
 *             if (n > 0)
 *                     continue;
 *             read(efd, &count, 8);         // reset (EFD_NONBLOCK)
 *             if (grain_ring_event_arm(ring, GRAIN_RING_EVENT_IN) != 0)
 *                     continue;             // ready now: do not sleep
 *             epoll_wait(ep, events, 16, -1);
 *     }
 *
 * No wake-up is lost: arming registers the loop as one of the waiters
 * before it checks the ring (as a _wait call does before it sleeps), so an
 * operation that the check does not see is one that finds the waiter and
 * signals the fd. One arming gives at most one write; a ring that is not
 * armed writes nothing, and a ring without an attached fd costs what it
 * cost before (the check for waiters that a WAIT ring makes anyway).
 * Arming is cheap (two atomic operations and a look at the ring), and
 * arming an armed ring again is harmless. An event has one fd and is
 * meant for one loop: a second loop asleep on the same fd may miss the
 * write that the first one resets (threads that wait on the same side
 * should use the _wait calls). One loop may watch many rings with one
 * eventfd, attached to each: it then drains and arms every one of them
 * before it sleeps.
 *
 * The eventfd stays the caller's: the ring never reads, closes or
 * detaches it. Make it with eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), and
 * close it only after the ring is destroyed or no call can still reach
 * the ring (an operation in flight may be writing to it). A plain pipe's
 * write end also works, though a full pipe then drops a signal that an
 * eventfd's counter would keep.
 */

/** Event for consumers: objects to dequeue (or the ring is closed). */
#define GRAIN_RING_EVENT_IN 0x1u
/** Event for producers: room to enqueue (or the ring is closed). */
#define GRAIN_RING_EVENT_OUT 0x2u

/**
 * grain_ring_event_attach - attach the eventfd @p fd to one side's event
 * of @p ring, for good ("Event loops").
 * @param ring   a ring made with GRAIN_RING_WAIT.
 * @param event  GRAIN_RING_EVENT_IN or GRAIN_RING_EVENT_OUT (exactly one).
 * @param fd     a file descriptor that a write of an 8-byte 1 signals,
 *               normally from eventfd(EFD_NONBLOCK); it stays the
 *               caller's.
 * @return 0; -EBUSY if an fd is attached to that event already (nothing
 *         changes); -EINVAL if @p ring is NULL, was made without
 *         GRAIN_RING_WAIT, @p event is not one of the two, or @p fd < 0.
 * Ordering: none needed: a later grain_ring_event_arm() in any thread
 * finds the fd (the attach is one atomic compare-and-swap). Thread safety:
 * any thread, while any call but init and destroy runs.
 */
GRAIN_API GRAIN_NODISCARD int grain_ring_event_attach(struct grain_ring *ring,
						      unsigned event, int fd);

/**
 * grain_ring_event_arm - ask for one write to the attached eventfd at the
 * next successful operation of the other side, and check the ring
 * ("Event loops").
 * @param ring   a ring with an fd attached to @p event.
 * @param event  GRAIN_RING_EVENT_IN or GRAIN_RING_EVENT_OUT.
 * @return 1 if the caller must not sleep: the ring has objects (IN) or
 *         room (OUT), or is closed; 0 if it is armed and the caller may
 *         sleep on the fd; -ENOENT if no fd is attached to @p event;
 *         -EINVAL if @p ring is NULL, was made without GRAIN_RING_WAIT
 *         or @p event is not one of the two.
 * The ring stays armed after a 1 as well (a write may follow; harmless).
 * Ordering: acquire, as a _wait call's registration (S2): the check sees
 * every operation whose wake did not find the arming, and the write, when
 * it comes, follows (release) the operation that made it. Thread safety:
 * any thread, while any call but init and destroy runs.
 */
GRAIN_API GRAIN_NODISCARD int grain_ring_event_arm(struct grain_ring *ring,
						   unsigned event);

#ifdef __cplusplus
}
#endif

/* C: the layout and the inline bodies. */
#ifndef __cplusplus
#include <grain/impl/ring.h>
#endif

#endif /* GRAIN_RING_H */
