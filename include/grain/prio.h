/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file prio.h
 * @brief grain_prio: a multi-band priority queue of pointers, one grain_ring
 *        per band, highest non-empty band first (pfifo_fast without a lock).
 *
 * Contents
 *   - Synchronization table
 *   - Scanned queues and the non-empty bits: why no object is stranded
 *      and no sleeper missed
 *   - Scheduling: strict and weighted
 *   - Configuration and lifecycle
 *   - Enqueue (by band or by priority), dequeue, blocking dequeue
 *   - Priority helpers (TOS, DSCP) and statistics
 *   - Deprecated names
 *   - Closing: close, closed
 *   - Event loops: event_attach, event_arm
 *
 * Synchronization table
 *
 * | call                       | may run concurrently with                |
 * |----------------------------|------------------------------------------|
 * | event_attach, event_arm    | everything (needs WAIT)                  |
 * | try_enqueue, _prio, _burst | everything but init/destroy              |
 * |   enqueue_wait             |                                          |
 * | try_dequeue, _burst,       | enqueues; other dequeues unless          |
 * |   dequeue_wait (+burst)    |   GRAIN_PRIO_SC                          |
 * | stats, backlog, tos/dscp   | everything but init/destroy              |
 * | close, closed              | everything but init/destroy              |
 * | init, destroy              | nothing on the same queue                |
 *
 * Band b is a multi-producer grain_ring (single-consumer under
 * GRAIN_PRIO_SC), so everything grain_ring promises holds per band: FIFO,
 * an enqueue happens-before the dequeue that returns its object, and a
 * thread preempted mid-operation delays only its own slot. Across bands,
 * each dequeue takes from the highest band it finds non-empty (strict
 * mode) at the moment it looks.
 *
 * Closing (see "Closing" below): the close closes each band's ring as
 * grain_ring_close() does (ring.h, "Synchronization table" and "Closing"),
 * highest band first. An enqueue into band b is before the close when its claim
 * comes before band b's freeze: it succeeded, and its object is dequeued. A
 * call that returns -EPIPE, or a grain_prio_closed() that returns true,
 * happens-after the close of the bands it concerns.
 *
 * Scanned queues and the non-empty bits
 *
 * Scanned queues. A queue of at most GRAIN_PRIO_SCAN_BANDS bands
 * (pfifo_fast has 3) keeps no bits: a strict dequeue looks at each band's
 * head in turn, highest first, in one pass, and takes what it finds ready
 * until it has n objects (weighted: it reads every band's head to choose
 * the next band). Producers touch nothing but their band's ring, with no
 * fence. An object is reachable as soon as it is in the ring, and a call
 * returns 0 only if it found every head not ready. Sleepers: every
 * enqueue, after its object is in the ring, makes a read-modify-write of
 * the sleeper count (S1), and a sleeper makes one (S2) before its last
 * look at the heads: whichever comes second, the producer finds the
 * sleeper or the sleeper sees the object, as for grain_ring's _wait calls.
 *
 * The bits. With more bands, one load and a bit scan find the highest
 * non-empty band among up to 64. A 64-bit word has bit b set while band b
 * may hold objects. A producer, after its object is in the ring, makes a
 * full fence (P1) and sets the bit if it is clear. A dequeuer that finds
 * band b empty clears the bit, makes a full fence (C1) and looks at the
 * band's next slot again; if it is ready it sets the bit back. The race: a
 * producer reads the bit as set just before a dequeuer clears it, and so
 * leaves it alone. P1 and C1 are sequentially consistent fences, so one of
 * them comes first: if P1 does, the dequeuer's second look sees the object
 * and sets the bit back; if C1 does, the producer reads the bit as clear
 * and sets it. Either way the bit is set while an object is ready, and no
 * object is stranded. An object behind a slot whose producer is preempted
 * becomes reachable when that producer publishes and sets the bit itself.
 * Bits may be set for empty bands; dequeuers never spin. A dequeuer
 * settles (clears, looks again) only a band that gives it nothing: a band
 * that a burst drains keeps its bit, so that its producers, which are
 * likely to refill it before the next call, find the bit set and write
 * nothing; the next call that finds the band empty settles it. So a call
 * returns 0 only after it read the word with no bit set.
 *
 * Sleepers with the bits (GRAIN_PRIO_WAIT). A dequeue_wait caller that
 * finds nothing registers as a sleeper, reads the bits once more and
 * sleeps until it is woken (the event count of grain_ring's _wait calls).
 * Every enqueue wakes the sleepers after its look at the bit, but that
 * alone would lose a wake-up: a producer that finds the bit set leaves it
 * to the dequeuer about to clear it, and between that dequeuer's clear and
 * its set-back a sleeper can read the bit as clear and sleep, after the
 * producer's wake found nobody. So a dequeuer that sets a bit back wakes
 * the sleepers too, as an enqueue does (not under GRAIN_PRIO_SC: no other
 * dequeuer can be asleep then). Both wakes make a read-modify-write of the
 * sleeper count after the bit is set (S1), and a sleeper makes one before
 * its last look (S2): whichever comes second, the waker finds the sleeper
 * or the sleeper sees the bit. test/model/prio.pml checks both protocols
 * with Spin.
 *
 * Scheduling
 *
 * Strict (default, as pfifo_fast): always the highest non-empty band; a
 * busy high band starves lower ones. A burst takes the highest band's
 * ready objects first, then the next band's, and so on; an object that
 * arrives in a higher band after the call has passed that band may be
 * left for the next call. GRAIN_PRIO_WEIGHTED: weighted round robin over
 * the non-empty bands, highest first in each round; a visit to band b
 * takes up to weights[b] objects. Guarantee: while band b stays
 * non-empty, it gets weights[b] objects out of every round, i.e. at least
 * weights[b] / (sum of the weights of the non-empty bands) of all objects
 * dequeued. The round-robin position is shared by all dequeuers; with
 * several dequeuers it is kept under a spinlock (strict mode takes none).
 *
 * Drops: a full band refuses the object (tail drop) with -EAGAIN and
 * counts it; nothing already queued is touched. A closed queue refuses
 * with -EPIPE and counts no drop; a grain_prio_enqueue_wait() that times
 * out counts one.
 *
 * Blocking enqueue (GRAIN_PRIO_WAIT): grain_prio_enqueue_wait() sleeps on
 * its band's ring, whose dequeues wake it (the consumer side of each
 * band's ring has GRAIN_RING_WAIT). So under GRAIN_PRIO_WAIT every
 * successful take from a band costs one read-modify-write more (the look
 * for sleeping producers, ring.h, "Modes and capacity"), as every enqueue
 * already does for sleeping dequeuers.
 *
 * C and C++. In C the GRAIN_INLINE_API calls are inline (their bodies are
 * in impl/, with the layout); in C++ they are calls to libgrain's
 * exported copies of the same code (common.h, "Exported calls and inline fast
 * paths"), and struct grain_prio is an incomplete type.
 *
 * Arguments. Every call, inline or not, checks its pointers and never
 * crashes on NULL (common.h, "Error convention"): int calls return -EINVAL,
 * grain_prio_bands() and grain_prio_backlog() read a NULL queue as 0, and
 * grain_prio_destroy(NULL) does nothing.
 */
#ifndef GRAIN_PRIO_H
#define GRAIN_PRIO_H

#include <grain/common.h>
#include <grain/lock.h>
#include <grain/ring.h>

#include <errno.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GRAIN_PRIO_MAX_BANDS 64u /**< most bands a queue may have */
/** Queues of at most this many bands keep no non-empty bits ("Scanned queues
 * and the non-empty bits"). */
#define GRAIN_PRIO_SCAN_BANDS 4u
#define GRAIN_PRIO_PRIORITIES 16u /**< priorities 0..15 (the priomap) */

/** Only one thread at a time dequeues. */
#define GRAIN_PRIO_SC 0x1u
/** Enable the _wait calls (each enqueue then checks for sleepers). */
#define GRAIN_PRIO_WAIT 0x2u
/** Weighted round robin instead of strict priority. */
#define GRAIN_PRIO_WEIGHTED 0x4u

/** Configuration given to init/create; copied, so it may be temporary. */
struct grain_prio_config {
	unsigned bands;		    /**< 1..64; band 0 is the highest */
	unsigned flags;		    /**< GRAIN_PRIO_* */
	unsigned capacity;	    /**< per-band limit, a power of two >= 2 */
	const unsigned *capacities; /**< per band; NULL: all `capacity` */
	const unsigned *weights;    /**< WEIGHTED: per band, >= 1; NULL: 1 */
	const uint8_t *priomap;	    /**< 16 bands, each < bands; NULL:
					  pfifo_fast's map, folded into the
					  last band if there are fewer than 3 */
};

/** pfifo_fast's priority-to-band map (priorities 0..15, 3 bands). */
GRAIN_API extern const uint8_t grain_prio_default_priomap[GRAIN_PRIO_PRIORITIES];

/** A queue. Its layout is private (impl/prio.h, C only): C++ sees an
 * incomplete type and uses it through pointers only. */
struct grain_prio;

/**
 * grain_prio_memsize - bytes needed for a queue of this configuration.
 * @return the size, or 0 if the configuration is invalid (band count out of
 *         range, a capacity not a power of two in [2, 2^31], a weight of 0,
 *         an entry of a given priomap >= bands, unknown flags).
 * Thread safety: any thread.
 */
GRAIN_API size_t grain_prio_memsize(const struct grain_prio_config *cfg);

/**
 * grain_prio_init - make an empty queue in caller memory of
 * grain_prio_memsize() bytes aligned to GRAIN_CACHELINE.
 * @return 0, or -EINVAL (NULL, misaligned, invalid configuration).
 * Thread safety: nothing else may use @p prio meanwhile.
 */
GRAIN_API GRAIN_NODISCARD int
grain_prio_init(struct grain_prio *prio, const struct grain_prio_config *cfg);

/**
 * grain_prio_create - allocate and initialise a queue.
 * @return 0, -EINVAL (as init, or @p priop NULL) or -ENOMEM; *priop is
 *         untouched on error. Thread safety: any thread.
 */
GRAIN_API GRAIN_NODISCARD int
grain_prio_create(struct grain_prio **priop,
		  const struct grain_prio_config *cfg,
		  const struct grain_alloc *alloc);

/**
 * grain_prio_destroy - free a queue from grain_prio_create() (NULL and
 * init'ed queues: no-op). Queued objects are not touched. Nothing else may
 * use the queue, and nobody may sleep on it.
 */
GRAIN_API void grain_prio_destroy(struct grain_prio *prio);

/** grain_prio_bands - the band count (0 for NULL). Any thread. */
GRAIN_INLINE_API unsigned grain_prio_bands(const struct grain_prio *prio);

/* Enqueue and dequeue. The try_ calls never block: a full band
 * refuses, an empty queue gives nothing. */

/**
 * grain_prio_try_enqueue - add @p obj (NULL allowed) at the tail of
 * @p band.
 * @return 0; -EAGAIN if the band is full (the object is not queued and a
 *         drop is counted); -EPIPE if the queue is closed (not queued, no
 *         drop counted); -EINVAL if @p prio is NULL or @p band is out
 *         of range. Ordering: release (the dequeue that returns @p obj
 *         acquires). Thread safety: any thread, any number at once.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_prio_try_enqueue(struct grain_prio *prio, unsigned band, void *obj);

/**
 * grain_prio_try_enqueue_prio - grain_prio_try_enqueue() into the band the
 * priomap gives priority @p priority (0..15).
 * @return 0; -EAGAIN if that band is full (a drop is counted); -EPIPE if
 *         the queue is closed; -EINVAL if @p prio is NULL or
 *         @p priority > 15. Ordering and thread safety
 *         as grain_prio_try_enqueue().
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_prio_try_enqueue_prio(struct grain_prio *prio, unsigned priority,
			    void *obj);

/**
 * grain_prio_try_enqueue_burst - add as many of @p n objects to @p band as
 * fit, in order; the rest are refused and counted as drops.
 * @return the number queued, 0 to @p n; -EPIPE if the queue is closed
 *         (none queued, n > 0); -EINVAL if @p prio is NULL,
 *         @p band is out of range, @p objs is NULL with n > 0, or
 *         n > INT_MAX. Ordering and thread safety as
 *         grain_prio_try_enqueue(), for each object queued.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_prio_try_enqueue_burst(struct grain_prio *prio, unsigned band,
			     void *const *objs, unsigned n);

/**
 * grain_prio_try_dequeue - take the next object by the scheduling rule.
 * @param prio   the queue.
 * @param objp   receives the object.
 * @param bandp  if not NULL, receives the object's band.
 * @return 0; -EAGAIN if every band is empty; -EPIPE if the queue is
 *         closed and every object enqueued before the close was dequeued;
 *         -EINVAL if @p prio or @p objp is NULL. Ordering: acquire on success. Never blocks.
 *         Thread safety: any thread; one at a time under GRAIN_PRIO_SC.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_prio_try_dequeue(struct grain_prio *prio, void **objp, unsigned *bandp);

/**
 * grain_prio_try_dequeue_burst - take up to @p n objects by the scheduling
 * rule (strict: the highest band first, then the next, ...).
 * @return the number taken, 0 to @p n (0 if all bands are empty or
 *         n == 0); -EPIPE if the queue is closed and drained (n > 0);
 *         -EINVAL if @p prio is NULL, @p objs is NULL with n > 0,
 *         or n > INT_MAX. Ordering and thread safety as
 *         grain_prio_try_dequeue(), for each object taken.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_prio_try_dequeue_burst(struct grain_prio *prio, void **objs, unsigned n);

/** @{ */
/**
 * grain_prio_dequeue_wait / grain_prio_dequeue_burst_wait - as the
 * non-blocking forms, sleeping (futex) while every band is empty, for at
 * most @p timeout_ns (negative: forever; 0: one attempt). Need
 * GRAIN_PRIO_WAIT. Every enqueue, and every dequeuer that sets a band's bit
 * back, wakes the sleepers ("Scanned queues and the non-empty bits"): no
 * wake-up is lost.
 * @return 0 / the count, 1 to @p n; -ETIMEDOUT if the timeout passed
 *         first (nothing taken); -EPIPE if the queue is or gets closed and
 *         every band is drained (the close wakes every sleeper); -EINVAL if @p prio, @p objp or @p objs is
 *         NULL, the queue was made without GRAIN_PRIO_WAIT, or a burst
 *         @p n is 0 or over INT_MAX. Ordering and thread safety as the
 *         non-blocking forms.
 */
GRAIN_API GRAIN_NODISCARD int grain_prio_dequeue_wait(struct grain_prio *prio,
						      void **objp,
						      unsigned *bandp,
						      int64_t timeout_ns);
GRAIN_API GRAIN_NODISCARD int
grain_prio_dequeue_burst_wait(struct grain_prio *prio, void **objs, unsigned n,
			      int64_t timeout_ns);
/** @} */

/**
 * grain_prio_enqueue_wait - grain_prio_try_enqueue(), sleeping (futex)
 * while @p band is full, for at most @p timeout_ns (relative, on
 * CLOCK_MONOTONIC; negative: forever; 0: one attempt, as the try_ call),
 * as grain_ring_enqueue_wait(). Needs GRAIN_PRIO_WAIT. Every dequeue that
 * takes from the band wakes it; no wake-up is lost.
 * @return 0; -ETIMEDOUT if the band stayed full (the object is not
 *         queued; one drop is counted, as for a refused try_ call);
 *         -EPIPE if the queue is or gets closed (not queued, no drop);
 *         -EINVAL if @p prio is NULL, @p band is out of range or the
 *         queue was made without GRAIN_PRIO_WAIT.
 * Ordering: release on success, as grain_prio_try_enqueue(). Thread
 * safety: any thread, any number at once.
 */
GRAIN_API GRAIN_NODISCARD int grain_prio_enqueue_wait(struct grain_prio *prio,
						      unsigned band, void *obj,
						      int64_t timeout_ns);

/** Per-band statistics; a snapshot, see grain_prio_stats(). */
struct grain_prio_band_stats {
	uint64_t enqueued; /**< objects accepted since init */
	uint64_t dequeued; /**< objects taken since init */
	uint64_t dropped;  /**< objects refused because the band was full */
	uint64_t backlog;  /**< enqueued - dequeued: objects in the band */
};

/**
 * grain_prio_stats - statistics of @p band. Enqueued and dequeued are the
 * band ring's own positions (grain_ring_totals()), so they cost nothing
 * on the fast path; drops are counted on the (slow) drop path only. Once
 * all threads are quiet, enqueued == dequeued + backlog exactly and every
 * refused object is in dropped.
 * @return 0; -EINVAL if @p prio or @p st is NULL or @p band is out of
 *         range (nothing written). Ordering: none (relaxed snapshot). Any
 *         thread.
 */
GRAIN_API int grain_prio_stats(const struct grain_prio *prio, unsigned band,
			       struct grain_prio_band_stats *st);

/** grain_prio_backlog - objects queued in all bands (a snapshot; 0 for
 * NULL). Any thread. */
GRAIN_API unsigned grain_prio_backlog(const struct grain_prio *prio);

/**
 * grain_prio_tos_to_priority - an IPv4 TOS byte to a priority 0..15, as
 * Linux's rt_tos2priority() does on forwarding (RFC 1349 TOS bits:
 * low delay -> 6 interactive, throughput -> 2 bulk, both -> 4, else 0).
 */
GRAIN_API unsigned grain_prio_tos_to_priority(uint8_t tos);

/**
 * grain_prio_dscp_to_priority - a DSCP (0..63) to a priority: CS6/CS7 -> 7
 * (control), EF, CS4, CS5 and AF4x -> 6 (interactive), CS2, CS3, AF2x and
 * AF3x -> 4 (interactive bulk), CS1, LE and AF1x -> 2 (bulk), anything else
 * -> 0 (best effort). With the default priomap: 6 and 7 go to band 0, 0 and
 * 4 to band 1, 2 to band 2.
 */
GRAIN_API unsigned grain_prio_dscp_to_priority(uint8_t dscp);

/** grain_prio_tclass_to_priority - an IPv6 traffic class byte: its DSCP
 * (upper six bits) through grain_prio_dscp_to_priority(). */
GRAIN_API unsigned grain_prio_tclass_to_priority(uint8_t tclass);

/*
 * Deprecated names. Version 0.3.0 named the non-blocking enqueues and
 * the burst dequeue without try_; the old names still compile (with a
 * deprecation warning) and libgrain still exports them. Each is the try_
 * call of the same arguments.
 */
/**
 * grain_prio_enqueue - @deprecated 0.3.0's name of
 * grain_prio_try_enqueue().
 */
GRAIN_DEPRECATED("use grain_prio_try_enqueue()")
GRAIN_NODISCARD GRAIN_INLINE_ANY int
grain_prio_enqueue(struct grain_prio *prio, unsigned band, void *obj)
{
	return grain_prio_try_enqueue(prio, band, obj);
}

/**
 * grain_prio_enqueue_prio - @deprecated 0.3.0's name of
 * grain_prio_try_enqueue_prio().
 */
GRAIN_DEPRECATED("use grain_prio_try_enqueue_prio()")
GRAIN_NODISCARD GRAIN_INLINE_ANY int
grain_prio_enqueue_prio(struct grain_prio *prio, unsigned priority, void *obj)
{
	return grain_prio_try_enqueue_prio(prio, priority, obj);
}

/**
 * grain_prio_enqueue_burst - @deprecated 0.3.0's name of
 * grain_prio_try_enqueue_burst().
 */
GRAIN_DEPRECATED("use grain_prio_try_enqueue_burst()")
GRAIN_NODISCARD GRAIN_INLINE_ANY int
grain_prio_enqueue_burst(struct grain_prio *prio, unsigned band,
			 void *const *objs, unsigned n)
{
	return grain_prio_try_enqueue_burst(prio, band, objs, n);
}

/**
 * grain_prio_dequeue_burst - @deprecated 0.3.0's name of
 * grain_prio_try_dequeue_burst().
 */
GRAIN_DEPRECATED("use grain_prio_try_dequeue_burst()")
GRAIN_NODISCARD GRAIN_INLINE_ANY int
grain_prio_dequeue_burst(struct grain_prio *prio, void **objs, unsigned n)
{
	return grain_prio_try_dequeue_burst(prio, objs, n);
}

/*
 * Closing
 *
 * grain_prio_close() shuts the queue down as grain_ring_close() shuts a
 * ring (ring.h, "Closing"), band by band: every later enqueue, into any
 * band, fails with -EPIPE; dequeues go on taking what is left, by the
 * scheduling rule, and fail with -EPIPE once every band is drained; every
 * thread asleep in a _wait call (dequeue or enqueue) wakes at once.
 * Nothing enqueued before the close is lost: an object whose producer
 * claimed its slot before its band was closed but had not published it
 * yet keeps dequeues at -EAGAIN (or asleep) until it is published and
 * taken. The closed state is read only on the paths that failed.
 */

/**
 * grain_prio_close - refuse every later enqueue, let the dequeuers drain
 * the bands, wake every sleeper.
 * @return 0; -EPIPE if the queue was already closed (nothing changes);
 *         -EINVAL if @p prio is NULL.
 * Ordering: release, as grain_ring_close(). Thread safety: any thread,
 * while any call but init and destroy runs.
 */
GRAIN_API GRAIN_NODISCARD int grain_prio_close(struct grain_prio *prio);

/** grain_prio_closed - true once grain_prio_close() has closed every band
 * (false for NULL); acquire when true. Any thread. */
GRAIN_API bool grain_prio_closed(const struct grain_prio *prio);

/*
 * Event loops
 *
 * As grain_ring's (ring.h, "Event loops"), on a queue made with
 * GRAIN_PRIO_WAIT: the consumers' event (GRAIN_RING_EVENT_IN) is the
 * queue's and is signalled by an enqueue into any band; the producers'
 * event (GRAIN_RING_EVENT_OUT) is one band's and is signalled by a
 * dequeue from that band, as grain_prio_enqueue_wait() is woken. Both are
 * signalled when the queue is closed. Arm, check, then sleep on the fd;
 * the eventfds stay the caller's.
 */

/**
 * grain_prio_event_attach - attach the eventfd @p fd to an event of
 * @p prio, for good.
 * @param prio   a queue made with GRAIN_PRIO_WAIT.
 * @param event  GRAIN_RING_EVENT_IN (objects in any band; @p band must be
 *               0) or GRAIN_RING_EVENT_OUT (room in @p band).
 * @param band   the band whose room OUT awaits; 0 for IN.
 * @param fd     as grain_ring_event_attach(): signalled by a write of an
 *               8-byte 1; it stays the caller's.
 * @return 0; -EBUSY if that event has an fd already; -EINVAL if @p prio
 *         is NULL, was made without GRAIN_PRIO_WAIT, @p event is not
 *         exactly one of the two, @p band is out of range (or not 0 for
 *         IN), or @p fd < 0.
 * Ordering and thread safety: as grain_ring_event_attach().
 */
GRAIN_API GRAIN_NODISCARD int grain_prio_event_attach(struct grain_prio *prio,
						      unsigned event,
						      unsigned band, int fd);

/**
 * grain_prio_event_arm - ask for one write to the event's eventfd at the
 * next enqueue (IN) or the next dequeue from @p band (OUT), then check
 * the queue.
 * @return 1 if the caller must not sleep (IN: some band holds objects;
 *         OUT: @p band has room; either: the queue is closed); 0 if armed;
 *         -ENOENT if no fd is attached to that event; -EINVAL as
 *         grain_prio_event_attach().
 * Ordering and thread safety: as grain_ring_event_arm().
 */
GRAIN_API GRAIN_NODISCARD int
grain_prio_event_arm(struct grain_prio *prio, unsigned event, unsigned band);

#ifdef __cplusplus
}
#endif

/* C: the layout and the inline bodies. */
#ifndef __cplusplus
#include <grain/impl/prio.h>
#endif

#endif /* GRAIN_PRIO_H */
