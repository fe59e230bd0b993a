/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file adapters.h
 * @brief The C side of the grain_prio benchmark, callable from C++: one
 *        call runs one timed experiment of P producers and one consumer on
 *        one three-band priority queue.
 *
 * Plain C, no atomics: bench_prio.cc includes it. Everything that touches a
 * queue (grain_prio, the pfifo_list baseline) lives in the adapters/ C
 * files, compiled as C11.
 *
 * One experiment (prio_run), the shape of a pfifo_fast qdisc: P producer
 * threads enqueue items by priority through pfifo_fast's priority-to-band
 * map, as fast as they can; a full band refuses the item (tail drop) and
 * the producer goes on with the next one. One consumer thread dequeues, by
 * strict priority, one item per call (single) or up to `burst` per call
 * (burst). The rate reported is the number of items the consumer had
 * dequeued when it saw the stop flag, over the time from the release of
 * the threads to the stop.
 *
 * Items are 64-byte objects (one cache line, like the head of an skb) from
 * a pool per producer, preallocated; the consumer hands each one back by
 * clearing its in-flight flag, and the producer skips items still in
 * flight. Both queues carry the same items through the same loops.
 *
 * Checks (any failure is counted in prio_result.errors):
 *   - per producer and band, sequence numbers arrive in increasing order
 *     (each band is FIFO);
 *   - single: the band the queue reports is the band the item's priority
 *     maps to;
 *   - every accepted item is dequeued exactly once (per-producer counts and
 *     sequence sums), and the queue's own per-band statistics (accepted,
 *     dropped, backlog 0 at the end) agree with what the producers saw;
 *   - strict priority, where it can be checked without a race: after the
 *     producers have stopped, the consumer drains the queue and the bands
 *     it gets must never go up in priority (0 after 1 after 2 is wrong).
 *
 * Thread safety: prio_run() may not run concurrently with itself.
 */
#ifndef GRAIN_BENCH_PRIO_ADAPTERS_H
#define GRAIN_BENCH_PRIO_ADAPTERS_H

#include "../../common/sysinfo.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The queues under test. */
enum prio_impl {
	PRIO_BASE_SPIN,	 /**< pfifo_list, one grain_spinlock */
	PRIO_BASE_MUTEX, /**< pfifo_list, one pthread mutex */
	PRIO_GRAIN,	 /**< grain_prio, 3 bands, GRAIN_PRIO_SC (scanned) */
	/** The same items on a grain_prio of PRIO_BITS_BANDS bands, which
	 * keeps the non-empty bits; bands 3.. stay empty. */
	PRIO_GRAIN_BITS,
	PRIO_IMPL_COUNT
};

/** How the consumer dequeues. */
enum prio_deq {
	PRIO_DEQ_SINGLE, /**< one item per call */
	PRIO_DEQ_BURST,	 /**< up to prio_config.burst items per call */
	PRIO_DEQ_COUNT
};

/** Where the threads run. */
enum prio_placement {
	/** The consumer alone on CPU 0 (a transmit thread with a core of its
	 * own); producers pinned round robin to CPUs 1 .. n-1, so with more
	 * producers than those CPUs they take turns on them. On one CPU,
	 * everything shares CPU 0. */
	PRIO_PLACE_CONSUMER_CORE,
	/** No pinning: the scheduler places every thread. */
	PRIO_PLACE_FREE,
	PRIO_PLACE_COUNT
};

#define PRIO_BANDS 3u
/** Band count of PRIO_GRAIN_BITS's queue: more than GRAIN_PRIO_SCAN_BANDS. */
#define PRIO_BITS_BANDS 8u
/** Largest producer count prio_run() accepts. */
#define PRIO_MAX_PRODUCERS 64u
/** Largest burst. */
#define PRIO_MAX_BURST 256u
/** Items per producer pool: more than all bands can hold, plus a burst. */
#define PRIO_POOL_ITEMS 4096u

struct prio_config {
	unsigned producers; /**< 1 .. PRIO_MAX_PRODUCERS */
	enum prio_deq deq;
	unsigned burst;	      /**< items per dequeue call for PRIO_DEQ_BURST */
	unsigned band_limit;  /**< per band; a power of two (grain_prio) */
	unsigned duration_ms; /**< time from release to stop */
	enum prio_placement placement;
};

struct prio_result {
	/** Seconds from release to stop, CLOCK_MONOTONIC. */
	double seconds;
	/** Items the consumer had dequeued when it saw the stop flag. */
	uint64_t dequeued;
	/** dequeued / seconds. */
	double items_per_sec;
	/** Items dequeued by the deadline, per band. */
	uint64_t dequeued_band[PRIO_BANDS];
	/** Enqueue attempts by all producers until they saw the stop flag,
	 * and how they ended, per band. */
	uint64_t attempts;
	uint64_t accepted_band[PRIO_BANDS];
	uint64_t dropped_band[PRIO_BANDS];
	double attempts_per_sec;
	/** Dropped / attempts. */
	double drop_fraction;
	/** Dequeue calls that found nothing (before the stop). */
	uint64_t empty_polls;
	/** Of those, the ones that came after 64 or more failed polls in a
	 * row (the consumer was yielding by then) and after which the queue
	 * still counted items: a producer had claimed the head slot of a
	 * band and not published it for that long (preempted in between),
	 * or, rarely, an item arrived just after the poll. A lock-based
	 * queue never has them (it reports 0). */
	uint64_t blocked_polls;
	/** CPU seconds the consumer ran from release to stop
	 * (CLOCK_THREAD_CPUTIME_ID): on a shared machine, what it was given. */
	double consumer_cpu_seconds;
	/** Items taken in the final drain (after the producers stopped). */
	uint64_t drained;
	/** Seconds from stop until every thread was joined. */
	double drain_seconds;
	/** Failed checks, by kind; errors is their sum and must be 0. */
	uint64_t order_errors;	  /**< per-band FIFO broken */
	uint64_t band_errors;	  /**< reported band != mapped band */
	uint64_t count_errors;	  /**< lost or duplicated items */
	uint64_t priority_errors; /**< drain not in band order */
	uint64_t stats_errors;	  /**< queue statistics disagree */
	uint64_t errors;
	/** Threads were pinned (PRIO_PLACE_CONSUMER_CORE). */
	bool pinned;
};

/** Facts about one implementation. */
struct prio_impl_info {
	const char *name;  /**< short, for benchmark names */
	const char *label; /**< for tables */
	const char *note;  /**< one line: what exactly is measured */
	bool baseline;
};

/** Facts about @p impl, or NULL if out of range. */
const struct prio_impl_info *prio_info(enum prio_impl impl);

/** Whether prio_run(@p impl, @p cfg) is legal. */
bool prio_config_ok(enum prio_impl impl, const struct prio_config *cfg);

/**
 * prio_run - one experiment, as described at the top of this file.
 * @return 0 (then read @p res, errors included), -EINVAL if
 *         !prio_config_ok(), -ENOMEM, or another negative errno if a
 *         thread could not be created.
 */
int prio_run(enum prio_impl impl, const struct prio_config *cfg,
	     struct prio_result *res);

/** The priority stream: share of the items (0..1) given priority @p prio
 * (0..15) by every producer. */
double prio_stream_share(unsigned prio);

/** The band pfifo_fast's map gives @p prio (0..15). */
unsigned prio_stream_band(unsigned prio);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_PRIO_ADAPTERS_H */
