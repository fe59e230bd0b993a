/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file adapters.h
 * @brief The C side of the hash table benchmark, callable from C++: one
 *        call runs one timed experiment of one workload on one table.
 *
 * Plain C, no atomics: bench_htab.cc includes it. Everything that touches
 * a table (grain_htab in five configurations, the two baselines, liburcu's
 * cds_lfht, ConcurrencyKit's ck_ht) lives in the adapters/ C files,
 * compiled as C11.
 *
 * One experiment (bench_htab_run):
 *   1. create the table and insert every odd key of the universe
 *      1 .. BENCH_HTAB_UNIVERSE (half of it: BENCH_HTAB_INITIAL entries),
 *      in increasing order, from the calling thread;
 *   2. sanity pre-check: the entry count is BENCH_HTAB_INITIAL, 4096
 *      sampled odd keys are found with their values and 4096 even keys
 *      are not;
 *   3. start T threads (pinned one per CPU when T <= CPUs), release them
 *      together, stop them after duration_ms; each runs the workload with
 *      its own xorshift64* generator;
 *   4. join, check the books (below), destroy the table.
 * ops/s = operations completed by the stop / elapsed seconds.
 *
 * Values: the entry of key k always holds the value k * 2 + 1 (never 0), and
 * every lookup that finds an entry checks it.
 *
 * The books: entries after = entries before + successful inserts -
 * successful removes - evictions; under churn the table must hold its
 * capacity (for grain_htab give or take one entry per thread and the
 * folding lag of its byte total, capacity / 64); in a mixed workload at least
 * a quarter and at most three quarters of the lookups hit. Any mismatch,
 * a wrong value, a failed insert of a fresh key or a failed removal of a
 * key known present counts as an error.
 *
 * Thread safety: bench_htab_run() may not run concurrently with itself.
 */
#ifndef GRAIN_BENCH_HTAB_ADAPTERS_H
#define GRAIN_BENCH_HTAB_ADAPTERS_H

#include "../../common/sysinfo.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Keys are 1 .. BENCH_HTAB_UNIVERSE; the odd ones are present at start. */
#define BENCH_HTAB_UNIVERSE 1000000u
#define BENCH_HTAB_INITIAL (BENCH_HTAB_UNIVERSE / 2u)
/** Churn: the table's limit, in entries of charge 1 (grain_htab's
 * mem_high and mem_low, the baselines' and FIFOs' entry limit). It equals
 * the initial population, so every insert of the run evicts. */
#define BENCH_HTAB_CHURN_LIMIT BENCH_HTAB_INITIAL
/** Bucket heads of the chained tables, in all: about one entry per
 * bucket at the initial population, so no table resizes during a run. */
#define BENCH_HTAB_BUCKETS (1u << 19)
#define BENCH_HTAB_MAX_THREADS 64u

/** The tables under test. */
enum bench_htab_impl {
	BENCH_HTAB_GRAIN_1,    /**< grain_htab, 1 stripe: its global lock */
	BENCH_HTAB_GRAIN_16,   /**< 16 stripes, locked lookups */
	BENCH_HTAB_GRAIN_256,  /**< 256 stripes, locked lookups */
	BENCH_HTAB_GRAIN_4096, /**< 4096 stripes, locked lookups */
	BENCH_HTAB_GRAIN_RCU,  /**< 256 stripes, lock-free RCU lookups */
	BENCH_HTAB_GRAIN_QSBR, /**< as GRAIN_RCU, liburcu's qsbr flavour */
	BENCH_HTAB_MUTEX,      /**< baselines/mutex_table */
	BENCH_HTAB_STRIPED,    /**< baselines/striped_table, 256 spinlocks */
	BENCH_HTAB_LFHT,       /**< liburcu cds_lfht (memb flavour) */
	BENCH_HTAB_CKHT,       /**< ck_ht, writers under one mutex */
	BENCH_HTAB_IMPL_COUNT
};

/** The workloads. */
enum bench_htab_workload {
	BENCH_HTAB_READ90, /**< 90% lookup, 5% insert, 5% remove */
	BENCH_HTAB_MIX50,  /**< 50% lookup, 25% insert, 25% remove */
	BENCH_HTAB_CHURN,  /**< every op inserts a fresh key; full table */
	BENCH_HTAB_WORKLOAD_COUNT
};

/** Static facts about one table. */
struct bench_htab_impl_info {
	const char *name;  /**< "grain/256", "mutex", "cds_lfht", ... */
	const char *note;  /**< what exactly is measured, and how */
	const char *churn; /**< how it does churn (evicts), or why not */
	bool available;	   /**< compiled in (its library was found) */
	bool grain;	   /**< a grain_htab configuration */
	bool rcu_lookups;  /**< lookups take no lock */
	bool anchor;	   /**< an outside library */
	bool baseline;	   /**< one of bench/htab/baselines */
	bool has_churn;	   /**< runs BENCH_HTAB_CHURN */
	unsigned stripes;  /**< lock stripes (0: not a striped table) */
};

/** Static facts about one workload. */
struct bench_htab_workload_info {
	const char *name;  /**< "90/5/5", "50/25/25", "churn" */
	const char *label; /**< for benchmark names: "read90", ... */
	unsigned lookup_pct, insert_pct, remove_pct;
	bool churn;
};

struct bench_htab_config {
	enum bench_htab_workload workload;
	unsigned threads;     /**< 1 .. BENCH_HTAB_MAX_THREADS */
	unsigned duration_ms; /**< timed part of the run */
	uint64_t seed;	      /**< the threads' generators derive from it */
};

struct bench_htab_result {
	uint64_t ops;	    /**< operations completed by the stop */
	double seconds;	    /**< release to stop, CLOCK_MONOTONIC */
	double ops_per_sec; /**< ops / seconds */
	uint64_t lookups, hits;
	uint64_t inserts;	   /**< inserts that linked an entry */
	uint64_t inserts_existing; /**< inserts of a key already present */
	uint64_t removes;	   /**< removes that unlinked an entry */
	uint64_t removes_missing;  /**< removes of an absent key */
	uint64_t evictions;	   /**< entries evicted (churn) */
	uint64_t entries_before, entries_after;
	double setup_seconds; /**< create + populate + pre-check */
	bool pinned;	      /**< threads were pinned, one per CPU */
	/** Correctness failures (see the top of this file). Must be 0. */
	uint64_t errors;
	char error[200]; /**< the first one, in words */
};

/** Facts about @p impl, or NULL if out of range. */
const struct bench_htab_impl_info *bench_htab_info(enum bench_htab_impl impl);

/** Facts about @p w, or NULL if out of range. */
const struct bench_htab_workload_info *
bench_htab_workload_facts(enum bench_htab_workload w);

/** Whether bench_htab_run(@p impl, @p cfg) is legal: available, the
 * workload supported, 1 .. BENCH_HTAB_MAX_THREADS threads, duration > 0. */
bool bench_htab_config_ok(enum bench_htab_impl impl,
			  const struct bench_htab_config *cfg);

/**
 * bench_htab_run - one experiment, as described at the top of this file.
 * @return 0 (then read @p res, errors included), -EINVAL if
 *         !bench_htab_config_ok(), -ENOMEM, or another negative errno if
 *         a thread could not be created.
 */
int bench_htab_run(enum bench_htab_impl impl,
		   const struct bench_htab_config *cfg,
		   struct bench_htab_result *res);

/** Whether liburcu's memb flavour found the membarrier system call (its
 * read side is then free of fences; without it every read-side lock and
 * unlock has a full fence). Any thread. */
bool bench_htab_urcu_membarrier(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_HTAB_ADAPTERS_H */
