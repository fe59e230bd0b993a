/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file adapters.h
 * @brief The C side of the ring benchmark, callable from C++: one call runs
 *        one timed producer/consumer experiment on one queue.
 *
 * Plain C, no atomics: bench_ring.cc includes it. Everything that touches
 * a queue (grain_ring, the baselines, ck_ring, rte_ring, wfcqueue) lives
 * in the adapters/ C files, compiled as C11.
 *
 * One experiment (bench_run): create the queue (capacity 1024 for every
 * bounded one), start P producer and C consumer threads, release them
 * together, let them run for duration_ms, stop the producers, let the
 * consumers drain what is left, join, verify, destroy the queue. Producers
 * enqueue tokens that encode (producer id, sequence). Consumers sum the
 * tokens they take and the harness checks afterwards that the counts and
 * sums over all consumers equal what the producers enqueued; with
 * bench_config.checked, consumers also check that each producer's tokens
 * arrive in increasing order, and counts and sums are kept per producer
 * (exactly once, per token). Any mismatch is counted in
 * bench_result.errors.
 *
 * Because a run is bounded by time rather than by a number of operations,
 * an implementation whose throughput collapses (a preempted thread that
 * others spin on) still finishes: the deadline stops it and the result
 * holds the rate it reached. The drain after the deadline is bounded too
 * (200 ms): consumers still at it then are told to leave and the calling
 * thread empties the queue alone, checking what it takes.
 *
 * Thread safety: bench_run() may not run concurrently with itself (the
 * benchmark runs one experiment at a time; they would share CPUs anyway).
 */
#ifndef GRAIN_BENCH_ADAPTERS_H
#define GRAIN_BENCH_ADAPTERS_H

#include "../../common/sysinfo.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The queues under test. */
enum bench_impl {
	BENCH_GRAIN_MPMC,
	BENCH_GRAIN_MPSC,
	BENCH_GRAIN_SPMC,
	BENCH_GRAIN_SPSC,
	BENCH_MUTEX,   /**< baselines/mutex_ring: one pthread mutex */
	BENCH_TWOLOCK, /**< baselines/twolock_ring: ptr_ring style */
	BENCH_CK,      /**< ck_ring MPMC (ConcurrencyKit) */
	BENCH_RTE,     /**< DPDK rte_ring MP/MC */
	BENCH_WFCQ,    /**< liburcu wfcqueue */
	BENCH_RTE_RTS, /**< DPDK rte_ring, relaxed tail sync (MP_RTS/MC_RTS) */
	BENCH_RTE_HTS, /**< DPDK rte_ring, head/tail sync (MP_HTS/MC_HTS) */
	BENCH_BOOST_QUEUE, /**< boost::lockfree::queue, fixed-size */
	BENCH_BOOST_SPSC,  /**< boost::lockfree::spsc_queue */
	BENCH_TBB,	   /**< tbb::concurrent_bounded_queue */
	/* Element rings (bench_impl_info.esize != 0): 1P1C burst32 only,
	 * in a table of their own. */
	BENCH_ELEM16_SPSC,     /**< grain_ring_elem, 16 bytes, copying */
	BENCH_ELEM16_SPSC_ZC,  /**< the same, zero copy on both sides */
	BENCH_ELEM64_SPSC,     /**< 64 bytes, copying */
	BENCH_ELEM64_SPSC_ZC,  /**< 64 bytes, zero copy */
	BENCH_ELEM16_MPMC,     /**< MPMC, 16 bytes, copying */
	BENCH_ELEM64_MPMC,     /**< MPMC, 64 bytes, copying */
	BENCH_RTE_ELEM16_SPSC, /**< DPDK rte_ring_*_elem, SP/SC, 16 bytes */
	BENCH_RTE_ELEM64_SPSC, /**< SP/SC, 64 bytes */
	BENCH_RTE_ELEM16_MPMC, /**< MP/MC, 16 bytes */
	BENCH_RTE_ELEM64_MPMC, /**< MP/MC, 64 bytes */
	BENCH_IMPL_COUNT
};

/** How producers and consumers move tokens. */
enum bench_kind {
	/** One token per call: the single-item API. */
	BENCH_SINGLE,
	/** batch tokens per call: all-or-nothing enqueue (bulk) and
	 * as-many-as-ready dequeue (burst) where the queue has them; a loop
	 * of single-item calls where it has not (ck_ring, wfcqueue). */
	BENCH_BULK,
	/** batch tokens per call, partial on both sides (burst enqueue and
	 * burst dequeue); only queues with a burst enqueue. */
	BENCH_BURST,
	BENCH_KIND_COUNT
};

/** Static facts about one implementation. */
struct bench_impl_info {
	const char *name;	/**< "grain", "mutex", "ck_ring", ... */
	const char *mode;	/**< "MPMC", "SPSC", ... as it is used here */
	const char *note;	/**< one line: what exactly is measured */
	bool available;		/**< compiled in (its library was found) */
	bool anchor;		/**< an outside library, not ours */
	bool baseline;		/**< one of bench/ring/baselines */
	bool has_burst;		/**< BENCH_BURST is meaningful */
	bool has_wait;		/**< a blocking dequeue (bench_config.wait) */
	unsigned max_producers; /**< 1 for single-producer modes */
	unsigned max_consumers; /**< 1 for single-consumer modes */
	unsigned capacity;	/**< usable slots (0: unbounded) */
	unsigned esize;		/**< element bytes of an element ring, else 0 */
};

/** Largest producer and consumer counts bench_run() accepts. */
#define BENCH_MAX_THREADS 64u
/** Largest batch. */
#define BENCH_MAX_BATCH 256u

/** Where the threads of a run may run. */
enum bench_pin {
	/** Pinned one per CPU (thread i on CPU i % nproc) only when
	 * producers + consumers <= nproc, else unpinned (the old method). */
	BENCH_PIN_AUTO,
	/** Thread i on CPU i % nproc, oversubscribed or not. */
	BENCH_PIN_ON,
	/** Left to the scheduler. */
	BENCH_PIN_OFF,
};

/** Defaults of the retry policy (bench_config.spin_fails and
 * relax_per_fail = 0): after a call that moved nothing, one pause, for
 * the first 64 such calls in a row; then sched_yield() between calls. */
#define BENCH_SPIN_FAILS_DEFAULT 64u
#define BENCH_RELAX_PER_FAIL_DEFAULT 1u

struct bench_config {
	unsigned producers;
	unsigned consumers;
	enum bench_kind kind;
	unsigned batch;	      /**< tokens per call: 1 for BENCH_SINGLE */
	unsigned duration_ms; /**< producers run this long */
	enum bench_pin pin;
	/** Consumers sleep in the queue's blocking dequeue (with a 1 ms
	 * timeout) instead of polling; only queues with has_wait. */
	bool wait;
	/** Consumers check every token's producer and order (the old
	 * method); otherwise they only sum the tokens, as a daemon's
	 * consumer touches each object once, and the harness checks counts
	 * and sums. */
	bool checked;
	/** Retry policy for calls that move nothing: relax_per_fail pauses
	 * after each of the first spin_fails failures in a row, then
	 * sched_yield(). 0: the defaults above. The old method was 8 and 64. */
	unsigned spin_fails;
	unsigned relax_per_fail;
};

struct bench_result {
	/** Tokens dequeued between the release of the threads and the stop,
	 * summed over consumers (each consumer's count when it first saw the
	 * stop flag). */
	uint64_t pairs;
	/** Seconds from release to stop, CLOCK_MONOTONIC. */
	double seconds;
	/** pairs / seconds. */
	double pairs_per_sec;
	/** Every token dequeued, drain included (= tokens enqueued). */
	uint64_t pairs_total;
	/** Seconds from stop until every thread was joined (drain time; long
	 * when threads wait on a preempted peer). */
	double stop_seconds;
	/** The consumers had not drained the queue BENCH_DRAIN_MS (200 ms)
	 * after stop: they were told to leave, and the main thread took
	 * left_to_main tokens out alone (and checked them). */
	bool drain_deadline_hit;
	uint64_t left_to_main;
	/** Tries that moved nothing: enqueues that found the queue full,
	 * dequeues that found it empty (the drain's last try excluded). */
	uint64_t full_tries;
	uint64_t empty_tries;
	/** Successful calls (that moved at least one token), drain
	 * included: tokens / calls is the average batch actually moved. */
	uint64_t put_calls;
	uint64_t get_calls;
	/** Ordering, count or sum mismatches. Must be 0. */
	uint64_t errors;
	/** Threads were pinned (cpu = i % nproc). */
	bool pinned;
};

/** Facts about @p impl, or NULL if out of range. */
const struct bench_impl_info *bench_info(enum bench_impl impl);

/** Whether bench_run(@p impl, @p cfg) is legal: available, within the
 * mode's producer and consumer limits, kind supported, batch 1 exactly
 * for BENCH_SINGLE and in [1, BENCH_MAX_BATCH] otherwise, wait only
 * where the queue has a blocking dequeue. */
bool bench_config_ok(enum bench_impl impl, const struct bench_config *cfg);

/**
 * bench_run - one experiment, as described at the top of this file.
 * @return 0 (then read @p res, errors included), -EINVAL if
 *         !bench_config_ok(), -ENOMEM, or another negative errno if a
 *         thread could not be created.
 */
int bench_run(enum bench_impl impl, const struct bench_config *cfg,
	      struct bench_result *res);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_ADAPTERS_H */
