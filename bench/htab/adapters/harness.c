/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.c - one run of the hash table benchmark, bench_htab_run():
 *   1. create the table and insert the odd keys of the universe, in
 *      order, from the calling thread (BENCH_HTAB_INITIAL entries);
 *   2. the pre-check: the entry count, SAMPLE present keys found with
 *      their values and SAMPLE absent keys not found, the table's audit;
 *   3. T threads (pinned one per CPU when T <= CPUs) released together
 *      and stopped after the duration by common/core.h's gate; ops/s =
 *      the operations of the batches done by the stop / the seconds from
 *      release to stop. Set-up, join and destruction are not timed;
 *      (bulk workloads: each thread looks up bursts of random keys of
 *      the universe, one operation a key, every value checked);
 *   4. after the join, the books: entries after = entries before +
 *      inserts - removes - evictions; under churn the table holds its
 *      limit (grain_htab: give or take one entry per thread and the lag
 *      of its byte total, limit / 64); in a mixed workload a quarter to
 *      three quarters of the lookups hit, and every key of the universe
 *      looked up once finds as many entries as the table counts, each
 *      with its value, and SAMPLE keys looked up and removed: the
 *      remove says removed exactly where the lookup found the key (the
 *      table is not used again); the audit again.
 * Every check that fails, a wrong value, a failed insert of a fresh key
 * or remove of a present one is an error of the run.
 */
#include "harness.h"

#include <grain/hash.h>
#include <grain/htab.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLE 4096u
/* The key FIFO's size: a power of two, more than the limit. */
#define FIFO_KEYS (1u << 19)
_Static_assert(FIFO_KEYS > BENCH_HTAB_CHURN_LIMIT, "the FIFO holds the limit");

static const struct bench_htab_adapter *const adapters[BENCH_HTAB_IMPL_COUNT] = {
	[BENCH_HTAB_GRAIN_1] = &bench_htab_adapter_grain,
	[BENCH_HTAB_GRAIN_16] = &bench_htab_adapter_grain,
	[BENCH_HTAB_GRAIN_256] = &bench_htab_adapter_grain,
	[BENCH_HTAB_GRAIN_4096] = &bench_htab_adapter_grain,
	[BENCH_HTAB_GRAIN_RCU] = &bench_htab_adapter_grain_rcu,
	[BENCH_HTAB_GRAIN_QSBR] = &bench_htab_adapter_grain_qsbr,
	[BENCH_HTAB_MUTEX] = &bench_htab_adapter_mutex,
	[BENCH_HTAB_STRIPED] = &bench_htab_adapter_striped,
#ifdef GRAIN_BENCH_HAVE_URCU_CDS
	[BENCH_HTAB_LFHT] = &bench_htab_adapter_lfht,
#endif
#ifdef GRAIN_BENCH_HAVE_CK
	[BENCH_HTAB_CKHT] = &bench_htab_adapter_ckht,
#endif
#ifdef GRAIN_BENCH_HAVE_TBB_MAP
	[BENCH_HTAB_TBB] = &bench_htab_adapter_tbb,
#endif
#ifdef GRAIN_BENCH_HAVE_CUCKOO
	[BENCH_HTAB_CUCKOO] = &bench_htab_adapter_cuckoo,
#endif
#ifdef GRAIN_BENCH_HAVE_CDS
	[BENCH_HTAB_CDS] = &bench_htab_adapter_cds,
#endif
	[BENCH_HTAB_GRAIN_RCU_BULK] = &bench_htab_adapter_grain_rcu_bulk,
	[BENCH_HTAB_GRAIN_CLOCK] = &bench_htab_adapter_grain,
#ifdef GRAIN_BENCH_HAVE_RTE_HASH
	[BENCH_HTAB_RTE] = &bench_htab_adapter_rte,
#endif
};

static const struct bench_htab_workload_info workloads[] = {
	[BENCH_HTAB_READ90] = { "90/5/5", "read90", 90, 5, 5, 0 },
	[BENCH_HTAB_MIX50] = { "50/25/25", "mix50", 50, 25, 25, 0 },
	[BENCH_HTAB_CHURN] = { "churn", "churn", 0, 100, 0, 0 },
	[BENCH_HTAB_BULK16] = { "bursts of 16", "bulk16", 100, 0, 0, 16 },
	[BENCH_HTAB_BULK32] = { "bursts of 32", "bulk32", 100, 0, 0, 32 },
};

struct bench_htab_fifo bench_htab_keys;

bool bench_htab_available(enum bench_htab_impl impl)
{
	return adapters[impl] != NULL;
}

const struct bench_htab_workload_info *
bench_htab_workload_facts(enum bench_htab_workload w)
{
	return &workloads[w];
}

/* liburcu-memb sets this when it initialises (a library constructor). */
extern int urcu_memb_has_sys_membarrier;

bool bench_htab_urcu_membarrier(void)
{
	return urcu_memb_has_sys_membarrier != 0;
}

/* Count an error of the run; keep the words of the first. */
static void fail(struct bench_htab_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->errors++ != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(res->error, sizeof(res->error), fmt, ap);
	va_end(ap);
}

static void audit(const struct bench_htab_adapter *a, void *table,
		  struct bench_htab_result *res, const char *when)
{
	const char *msg = a->audit != NULL ? a->audit(table) : NULL;

	if (msg != NULL)
		fail(res, "%s: %s", when, msg);
}

/* Populate and pre-check (1, 2 above); the entries. */
static uint64_t set_up(const struct bench_htab_adapter *a, void *table,
		       struct bench_htab_result *res)
{
	struct bench_htab_fifo *f = &bench_htab_keys;
	uint64_t rng = 0x9e3779b97f4a7c15ULL, victim;

	for (uint64_t k = 1; k <= BENCH_HTAB_UNIVERSE; k += 2) {
		int rc = a->populate(table, k);
		if (rc == 0 && f->keys != NULL &&
		    bench_htab_fifo_push_locked(f, k, &victim))
			rc = -EOVERFLOW; /* the population fits the limit */
		if (rc != 0) {
			fail(res, "populate: insert of key %llu failed (%s)",
			     (unsigned long long)k, strerror(-rc));
			return 0;
		}
	}
	uint64_t entries = a->count(table);
	if (entries != BENCH_HTAB_INITIAL)
		fail(res, "pre-check: %llu entries after populating %u",
		     (unsigned long long)entries, BENCH_HTAB_INITIAL);
	for (unsigned i = 0; i < SAMPLE; i++) {
		uint64_t r = bench_htab_random(&rng), half = BENCH_HTAB_INITIAL;
		uint64_t odd = 1u + 2u * ((r & 0xffffffffu) * half >> 32);
		uint64_t even = 2u + 2u * ((r >> 32) * half >> 32);
		uint64_t v = a->lookup(table, odd), w = a->lookup(table, even);
		if (v != bench_htab_value(odd) || w != 0)
			fail(res,
			     "pre-check: key %llu (present) gave %llu, "
			     "key %llu (absent) %llu",
			     (unsigned long long)odd, (unsigned long long)v,
			     (unsigned long long)even, (unsigned long long)w);
	}
	audit(a, table, res, "pre-check audit");
	return entries;
}

/* Every key of the universe looked up once, untimed: the keys found are
 * as many as the entries counted, each with its value. Catches an entry
 * that is counted but cannot be found. */
static void sweep(const struct bench_htab_adapter *a, void *table,
		  uint64_t entries, struct bench_htab_result *res)
{
	uint64_t found = 0;

	for (uint64_t k = 1; k <= BENCH_HTAB_UNIVERSE; k++) {
		/* Values are odd: 0 is a key not found. */
		uint64_t v = a->lookup(table, k);
		if (v == 0)
			continue;
		found++;
		if (v != bench_htab_value(k)) {
			fail(res, "sweep: key %llu gave %llu",
			     (unsigned long long)k, (unsigned long long)v);
			return;
		}
	}
	if (found != entries)
		fail(res, "sweep: %llu keys found, %llu entries counted",
		     (unsigned long long)found, (unsigned long long)entries);
}

/* Untimed, after the sweep: SAMPLE keys spread over the universe, each
 * looked up and then removed with the workers' own remove, which must say
 * removed exactly when the lookup found the key, and leave it unfound;
 * the count drops by the removes. Catches a remove that answers "absent"
 * for a present key, or "removed" and leaves it, which the books alone
 * cannot see. */
static void remove_probe(const struct bench_htab_adapter *a, void *table,
			 uint64_t entries, struct bench_htab_result *res)
{
	/* An odd step: odd (first present) and even keys alike. */
	uint64_t removed = 0, step = (BENCH_HTAB_UNIVERSE / SAMPLE) | 1u;

	if (a->remove == NULL) {
		fail(res, "remove probe: the adapter has no remove");
		return;
	}

	for (uint64_t k = 1; k <= BENCH_HTAB_UNIVERSE; k += step) {
		uint64_t v = a->lookup(table, k);
		int rc = a->remove(table, k);
		if (rc != (v != 0 ? 1 : 0)) {
			fail(res, "remove probe: key %llu (%s) gave %d",
			     (unsigned long long)k,
			     v != 0 ? "present" : "absent", rc);
			return;
		}
		removed += (uint64_t)rc;
		if (rc == 1 && a->lookup(table, k) != 0) {
			fail(res,
			     "remove probe: key %llu found after its remove",
			     (unsigned long long)k);
			return;
		}
	}
	uint64_t after = a->count(table);
	if (after + removed != entries)
		fail(res,
		     "remove probe: %llu entries after %llu removes of %llu",
		     (unsigned long long)after, (unsigned long long)removed,
		     (unsigned long long)entries);
}

/* After the join: add up the threads and check the books (4 above). */
static void settle(const struct bench_htab_adapter *a, void *table,
		   const struct bench_htab_config *cfg,
		   const struct bench_htab_thread *th, uint64_t before,
		   struct bench_htab_result *res)
{
	for (unsigned i = 0; i < cfg->threads; i++) {
		const struct bench_htab_thread *t = &th[i];
		res->ops += t->ops;
		res->lookups += t->lookups;
		res->hits += t->hits;
		res->inserts += t->inserts;
		res->removes += t->removes;
		res->evictions += t->evictions;
		if (t->errors != 0) {
			fail(res, "thread %u: %s (%llu times)", i, t->error,
			     (unsigned long long)t->errors);
			res->errors += t->errors - 1;
		}
	}
	if (a->evictions != NULL)
		res->evictions = a->evictions(table);
	uint64_t after = a->count(table);
	uint64_t want = before + res->inserts - res->removes - res->evictions;
	if (after != want)
		fail(res, "books: %llu entries, expected %llu",
		     (unsigned long long)after, (unsigned long long)want);
	/* grain_htab evicts at unlock, and its watermark checks see the byte
	 * total through the folding lag (htab.h, section 3: under mem_high /
	 * 64 with the default batch), plus one entry per thread. */
	uint64_t slack = a->evictions != NULL
				 ? cfg->threads + BENCH_HTAB_CHURN_LIMIT / 64u
				 : 0;
	if (cfg->workload == BENCH_HTAB_CHURN &&
	    (after > BENCH_HTAB_CHURN_LIMIT + slack ||
	     after + slack < BENCH_HTAB_CHURN_LIMIT))
		fail(res, "churn: %llu entries, limit %u",
		     (unsigned long long)after, BENCH_HTAB_CHURN_LIMIT);
	if (cfg->workload != BENCH_HTAB_CHURN && res->lookups >= 1000 &&
	    (res->hits * 4 < res->lookups || res->hits * 4 > res->lookups * 3))
		fail(res, "lookups: %llu hits of %llu",
		     (unsigned long long)res->hits,
		     (unsigned long long)res->lookups);
	if (cfg->workload != BENCH_HTAB_CHURN) {
		sweep(a, table, after, res);
		remove_probe(a, table, after, res);
	}
	audit(a, table, res, "audit after the run");
}

/* A worker whose table's threads register with liburcu. */
static void *registered(void *arg)
{
	struct bench_htab_thread *t = arg;
	const struct bench_htab_adapter *a = t->adapter;

	(a->thread_enter ? a->thread_enter : grain_rcu_register_thread)();
	t->main(t);
	(a->thread_exit ? a->thread_exit : grain_rcu_unregister_thread)();
	return NULL;
}

static void who(void *ctx, unsigned i, struct bench_spawn *out)
{
	struct bench_htab_thread *t = (struct bench_htab_thread *)ctx + i;
	const struct bench_htab_adapter *a = t->adapter;

	out->fn = a->rcu || a->thread_enter != NULL ? registered : t->main;
	out->arg = t;
	out->cpu = i % bench_nproc();
}

/* The threads of a run on the checked table (3, 4 above). */
static int timed(const struct bench_htab_adapter *a, void *table,
		 const struct bench_htab_config *cfg, uint64_t before,
		 struct bench_htab_result *res)
{
	static struct bench_gate gate;
	static struct bench_htab_thread th[BENCH_HTAB_MAX_THREADS];
	static pthread_t tid[BENCH_HTAB_MAX_THREADS];
	const struct bench_htab_workload_info *w = &workloads[cfg->workload];
	const unsigned n = cfg->threads;
	const uint64_t lookup = w->lookup_pct, insert = w->insert_pct;
	unsigned started;

	bench_gate_init(&gate);
	for (unsigned i = 0; i < n; i++) {
		uint64_t seed = cfg->seed * BENCH_HTAB_MAX_THREADS + i + 1u;
		th[i] = (struct bench_htab_thread){
			.table = table,
			.gate = &gate,
			.lookup_below = (lookup << 32) / 100u,
			.insert_below = ((lookup + insert) << 32) / 100u,
			.seed = grain_hash_mix64(seed) | 1u,
			.index = i,
			.burst = w->burst,
			.main = w->burst != 0
					? (a->burst_bulk != NULL ? a->burst_bulk
								 : a->burst)
				: cfg->workload == BENCH_HTAB_CHURN ? a->churn
								    : a->mixed,
			.adapter = a,
		};
	}
	int rc = bench_spawn_all(tid, n, n <= bench_nproc(), who, th, &started);
	if (rc != 0) {
		bench_gate_abandon(&gate, tid, started);
		return rc;
	}
	res->seconds = bench_gate_timed(&gate, n, cfg->duration_ms, NULL);
	for (unsigned i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	settle(a, table, cfg, th, before, res);
	res->ops_per_sec = res->seconds > 0 ? (double)res->ops / res->seconds
					    : 0.0;
	return 0;
}

int bench_htab_run(enum bench_htab_impl impl,
		   const struct bench_htab_config *cfg,
		   struct bench_htab_result *res)
{
	const struct bench_htab_adapter *a = adapters[impl];
	void *table;

	if (a == NULL || cfg->threads < 1 ||
	    cfg->threads > BENCH_HTAB_MAX_THREADS || cfg->duration_ms == 0)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	memset(&bench_htab_keys, 0, sizeof(bench_htab_keys));
	if (a->fifo && cfg->workload == BENCH_HTAB_CHURN) {
		bench_htab_keys.mask = FIFO_KEYS - 1;
		bench_htab_keys.keys = malloc(FIFO_KEYS * sizeof(uint64_t));
		if (bench_htab_keys.keys == NULL)
			return -ENOMEM;
		grain_spin_init(&bench_htab_keys.lock);
	}
	if (a->rcu)
		grain_rcu_register_thread();
	double t0 = bench_now_s();
	int rc = a->create(&table, impl, cfg->workload);
	if (rc == 0) {
		uint64_t before = set_up(a, table, res);
		res->setup_seconds = bench_now_s() - t0;
		/* A table wrong before any thread ran is not run. */
		if (res->errors == 0)
			rc = timed(a, table, cfg, before, res);
		a->destroy(table);
	}
	if (a->rcu)
		grain_rcu_unregister_thread();
	free(bench_htab_keys.keys);
	return rc;
}
