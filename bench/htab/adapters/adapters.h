/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * adapters.h - the C side of the hash table benchmark as bench_htab.cc
 * calls it (plain C, no atomics): one bench_htab_run() is one timed run
 * of one workload on one table. harness.c says what a run does and
 * checks; the tables are in adapters/ and baselines/.
 */
#ifndef GRAIN_BENCH_HTAB_ADAPTERS_H
#define GRAIN_BENCH_HTAB_ADAPTERS_H

#include "../../common/sysinfo.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Keys are 1 .. BENCH_HTAB_UNIVERSE; the odd ones are present at start. */
#define BENCH_HTAB_UNIVERSE 1000000u
#define BENCH_HTAB_INITIAL (BENCH_HTAB_UNIVERSE / 2u)
/* Churn: the table's limit, in entries of charge 1 (grain_htab's mem_high
 * and mem_low, the baselines' and the key FIFO's limit). It equals the
 * initial population, so every insert of the run evicts. */
#define BENCH_HTAB_CHURN_LIMIT BENCH_HTAB_INITIAL
/* Bucket heads of the chained tables, in all: about one entry per bucket
 * at the initial population, so no table resizes during a run. */
#define BENCH_HTAB_BUCKETS (1u << 19)
#define BENCH_HTAB_MAX_THREADS 64u

enum bench_htab_impl {
	BENCH_HTAB_GRAIN_1,    /* grain_htab, 1 stripe: its global lock */
	BENCH_HTAB_GRAIN_16,   /* 16 stripes, locked lookups */
	BENCH_HTAB_GRAIN_256,  /* 256 stripes, locked lookups */
	BENCH_HTAB_GRAIN_4096, /* 4096 stripes, locked lookups */
	BENCH_HTAB_GRAIN_RCU,  /* 256 stripes, lock-free RCU lookups */
	BENCH_HTAB_GRAIN_QSBR, /* as GRAIN_RCU, liburcu's qsbr flavour */
	BENCH_HTAB_MUTEX,      /* baselines/mutex_table.c */
	BENCH_HTAB_STRIPED,    /* baselines/striped_table.c, 256 spinlocks */
	BENCH_HTAB_LFHT,       /* liburcu cds_lfht (memb flavour) */
	BENCH_HTAB_CKHT,       /* ck_ht, writers under one mutex */
	BENCH_HTAB_TBB,	       /* oneTBB concurrent_hash_map */
	BENCH_HTAB_CUCKOO,     /* libcuckoo cuckoohash_map */
	BENCH_HTAB_CDS,	       /* libcds MichaelHashMap, hazard pointers */
	/* As GRAIN_RCU, its bursts looked up with grain_htab_lookup_bulk
	 * (bulk workloads only) */
	BENCH_HTAB_GRAIN_RCU_BULK,
	BENCH_HTAB_RTE, /* DPDK rte_hash, lock-free readers, one writer lock */
	/* 256 stripes, locked lookups, GRAIN_HTAB_EVICT_CLOCK */
	BENCH_HTAB_GRAIN_CLOCK,
	BENCH_HTAB_IMPL_COUNT
};

enum bench_htab_workload {
	BENCH_HTAB_READ90, /* 90% lookup, 5% insert, 5% remove */
	BENCH_HTAB_MIX50,  /* 50% lookup, 25% insert, 25% remove */
	BENCH_HTAB_CHURN,  /* every operation inserts a fresh key; full table */
	BENCH_HTAB_BULK16, /* lookups only, in bursts of 16 keys */
	BENCH_HTAB_BULK32, /* lookups only, in bursts of 32 keys */
	BENCH_HTAB_WORKLOAD_COUNT
};

struct bench_htab_workload_info {
	const char *name;  /* "90/5/5", "50/25/25", "churn" */
	const char *label; /* in benchmark names: "read90", ... */
	unsigned lookup_pct, insert_pct, remove_pct;
	unsigned burst; /* keys a burst looks up (bulk workloads), else 0 */
};

struct bench_htab_config {
	enum bench_htab_workload workload;
	unsigned threads;     /* 1 .. BENCH_HTAB_MAX_THREADS */
	unsigned duration_ms; /* the timed part */
	uint64_t seed;	      /* the threads' generators derive from it */
};

struct bench_htab_result {
	uint64_t ops; /* operations completed by the stop, all threads */
	uint64_t lookups, hits;
	uint64_t inserts;   /* that linked an entry */
	uint64_t removes;   /* that unlinked an entry */
	uint64_t evictions; /* churn */
	double seconds;	    /* release to stop, CLOCK_MONOTONIC */
	double ops_per_sec;
	double setup_seconds; /* create, populate and pre-check */
	uint64_t errors;      /* failed checks (harness.c); must be 0 */
	char error[200];      /* the first, in words */
};

/* Whether @impl was built in (its library was found). */
bool bench_htab_available(enum bench_htab_impl impl);
/* The workload's names and shares of operations. */
const struct bench_htab_workload_info *
bench_htab_workload_facts(enum bench_htab_workload w);

/* One run, as harness.c describes it: 0 (then read *res, errors
 * included), -EINVAL for an unavailable table or a bad config, or the
 * negative errno of a table or thread that could not be created. Not
 * concurrently with itself. */
int bench_htab_run(enum bench_htab_impl impl,
		   const struct bench_htab_config *cfg,
		   struct bench_htab_result *res);

/* Whether liburcu's memb flavour found the membarrier system call (its
 * read side is then free of fences; without it every read-side lock and
 * unlock has a full fence). */
bool bench_htab_urcu_membarrier(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_HTAB_ADAPTERS_H */
