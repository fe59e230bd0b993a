/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * adapters.h - the C side of the ring benchmark as bench_ring.cc sees it
 * (plain C, no atomics): the queues, and bench_run(), one timed experiment
 * on one of them (harness.c; the adapters' C11 files touch the queues).
 *
 * An experiment: P producer threads enqueue tokens that encode (producer,
 * sequence) for duration_ms; C consumer threads take them, then drain the
 * queue, and the counts and sums of what they took must be what was put.
 * A run is bounded by time, not by a number of operations, so a queue whose
 * throughput collapses (threads spinning on a preempted peer) still ends,
 * with the rate it reached. One experiment at a time.
 */
#ifndef GRAIN_BENCH_ADAPTERS_H
#define GRAIN_BENCH_ADAPTERS_H

#include "../../common/sysinfo.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The queues, in the order the driver registers their cases. */
enum bench_impl {
	BENCH_GRAIN_MPMC,
	BENCH_GRAIN_MPSC,
	BENCH_GRAIN_SPMC,
	BENCH_GRAIN_SPSC,
	BENCH_MUTEX,	     /* baselines/mutex_ring.c */
	BENCH_TWOLOCK,	     /* baselines/twolock_ring.c */
	BENCH_TWOLOCK_PSPIN, /* baselines/twolock_pspin.c */
	BENCH_SCQ,	     /* baselines/scq_ring.c, a prototype */
	BENCH_CK,
	BENCH_RTE,
	BENCH_WFCQ,
	BENCH_RTE_RTS,
	BENCH_RTE_HTS,
	BENCH_BOOST_QUEUE,
	BENCH_BOOST_SPSC,
	BENCH_TBB,
	BENCH_MOODY,	      /* moodycamel ConcurrentQueue, no tokens */
	BENCH_MOODY_TOK,      /* the same with producer/consumer tokens */
	BENCH_MOODY_BLOCKING, /* BlockingConcurrentQueue: wait cases only */
	BENCH_MOODY_RWQ,      /* moodycamel ReaderWriterQueue, SPSC */
	/* Element rings (esize != 0): 1P1C burst32 only, a table apart. */
	BENCH_ELEM16_SPSC,
	BENCH_ELEM16_SPSC_ZC,
	BENCH_ELEM64_SPSC,
	BENCH_ELEM64_SPSC_ZC,
	BENCH_ELEM16_MPMC,
	BENCH_ELEM64_MPMC,
	BENCH_RTE_ELEM16_SPSC,
	BENCH_RTE_ELEM64_SPSC,
	BENCH_RTE_ELEM16_MPMC,
	BENCH_RTE_ELEM64_MPMC,
	BENCH_IMPL_COUNT
};

/* How the threads move tokens: single, one per call; bulk, batch per call,
 * all-or-nothing enqueue and as-many-as-ready dequeue (loops of single
 * calls where the queue has no batch calls); burst, batch per call, partial
 * on both sides (only queues with a burst enqueue). */
enum bench_kind { BENCH_SINGLE, BENCH_BULK, BENCH_BURST, BENCH_KIND_COUNT };

/* Where the threads run: AUTO, thread i on CPU i % nproc only when
 * P + C <= nproc (the old method); ON, so whatever the count; OFF, where
 * the scheduler puts them. */
enum bench_pin { BENCH_PIN_AUTO, BENCH_PIN_ON, BENCH_PIN_OFF };

struct bench_impl_info {
	const char *name; /* "grain", "mutex", "ck_ring", ... */
	const char *mode; /* "MPMC", "SPSC", ... as it is used here */
	/* NULL when its library was not found at build time. */
	const struct bench_adapter *adapter;
	unsigned max_producers, max_consumers; /* 1 for a single side */
	unsigned esize;	  /* bytes of an element ring's elements, else 0 */
	const char *note; /* one line: what exactly is measured */
};

#define BENCH_MAX_THREADS 64u /* producers, and consumers */
#define BENCH_MAX_BATCH 256u
#define BENCH_CAPACITY 1024u
/* The retry policy's defaults (0 in bench_config): after a call that moved
 * nothing, one pause for the first 64 such calls in a row, then
 * sched_yield() between calls. */
#define BENCH_SPIN_FAILS_DEFAULT 64u
#define BENCH_RELAX_PER_FAIL_DEFAULT 1u

struct bench_config {
	unsigned producers, consumers;
	enum bench_kind kind;
	unsigned batch;	      /* tokens per call: 1 for BENCH_SINGLE */
	unsigned duration_ms; /* how long the producers run */
	enum bench_pin pin;
	/* Consumers sleep in the queue's blocking dequeue (1 ms timeout)
	 * instead of polling; only queues that have one. */
	bool wait;
	/* Consumers check every token's producer and order, and the counts
	 * and sums are checked per producer (the old method), instead of
	 * touching each token once, as a daemon's do. */
	bool checked;
	/* After a call that moved nothing, relax_per_fail pauses while
	 * fewer than spin_fails calls in a row failed, then sched_yield()
	 * (common/core.h's bench_backoff); the old method was 8 and 64. */
	unsigned spin_fails, relax_per_fail;
};

struct bench_result {
	uint64_t pairs; /* tokens consumers took before they saw stop */
	double seconds; /* from the start to stop (CLOCK_MONOTONIC) */
	double pairs_per_sec;
	uint64_t pairs_total; /* every token taken, drain included */
	double stop_seconds;  /* from stop until every thread was joined */
	/* The consumers were still draining 200 ms after stop: they were
	 * told to leave and the calling thread took the rest (checked). */
	bool drain_deadline_hit;
	/* Tries that moved nothing (full for producers, empty for
	 * consumers, the drain's last excluded), and calls that moved
	 * something, drain included. */
	uint64_t full_tries, empty_tries, put_calls, get_calls;
	/* Each side's shares of the work, its threads' counts (a producer's
	 * tokens enqueued, a consumer's taken before stop) over the side's
	 * mean: the largest and the smallest (1 and 1: even), and the
	 * coefficient of variation of the counts (0: even). A side of one
	 * thread has 1, 1 and 0. Uneven shares under a lock mean its holder
	 * keeps taking it again while the others wait. */
	double put_share_max, put_share_min, put_cv;
	double get_share_max, get_share_min, get_cv;
	uint64_t errors; /* order, count and sum mismatches: must be 0 */
	bool pinned;	 /* thread i ran on CPU i % nproc */
};

/* The facts of IMPL, or NULL if it is out of range. */
const struct bench_impl_info *bench_info(enum bench_impl impl);

/* Whether bench_run(IMPL, CFG) is legal: the queue built in, within its
 * mode's thread limits, with calls of CFG's kind (and a blocking dequeue
 * if CFG waits), batch 1 for single and 1 .. BENCH_MAX_BATCH otherwise. */
bool bench_config_ok(enum bench_impl impl, const struct bench_config *cfg);

/* One experiment. 0 (then read RES, errors included), -EINVAL if
 * !bench_config_ok(), -ENOMEM, or the negative errno of a thread that did
 * not start. */
int bench_run(enum bench_impl impl, const struct bench_config *cfg,
	      struct bench_result *res);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_ADAPTERS_H */
