/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.h - internal to bench/htab (C11): what the tables' adapters
 * share. An adapter writes lookup, insert, remove and churn calls for its
 * table and names them in BENCH_HTAB_ADAPTER(), which instantiates the two
 * always-inlined workload loops below with them: every table runs its own
 * copy of the same loop with direct calls, and none has an indirect call
 * on the measured path that the others lack.
 *
 * Ordering: the gate's (common/core.h); the table, the key FIFO and the
 * thread structs are set up before it opens, and the results are read
 * after pthread_join().
 */
#ifndef GRAIN_BENCH_HTAB_HARNESS_H
#define GRAIN_BENCH_HTAB_HARNESS_H

#include "adapters.h"

#include "../../common/core.h"

#include <grain/common.h>
#include <grain/lock.h>

#include <errno.h>
#include <stdalign.h>
#include <stdint.h>

/* Operations between two looks at the stop flag. */
#define BENCH_HTAB_BATCH 32u

/* One worker: what it reads while it runs, then its results. */
struct bench_htab_thread {
	alignas(GRAIN_CACHELINE) void *table;
	struct bench_gate *gate;
	/* A 32-bit die below lookup_below: lookup; below insert_below:
	 * insert; else remove. */
	uint64_t lookup_below, insert_below;
	uint64_t seed;	/* of its xorshift64* generator; not 0 */
	unsigned burst; /* keys a burst looks up (bulk workloads) */
	unsigned index;
	void *(*main)(void *thread);
	const struct bench_htab_adapter *adapter;
	uint64_t ops, lookups, hits, inserts, removes, evictions, errors;
	const char *error; /* the first one */
};

/* The value stored with @key: never 0, so 0 can mean "absent". */
static inline uint64_t bench_htab_value(uint64_t key)
{
	return key * 2u + 1u;
}

/* xorshift64* (Vigna): the state must not be 0. */
static inline uint64_t bench_htab_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static inline void bench_htab_fail(struct bench_htab_thread *t,
				   const char *what)
{
	if (t->errors++ == 0)
		t->error = what;
}

/* An adapter's calls. lookup: the value of @key, or 0 if absent. insert:
 * link @key with bench_htab_value(key); 1 inserted, 0 already present,
 * or -errno. remove: 1 removed, 0 absent, or -errno. churn: insert the
 * fresh @key stamped @now and evict as the table does; the entries this
 * call evicted (0 for grain_htab, whose evictions its statistics count),
 * or -errno (the insert failed, or the eviction found nothing). */
typedef uint64_t (*bench_htab_lookup_fn)(void *table, uint64_t key);
typedef int (*bench_htab_insert_fn)(void *table, uint64_t key);
typedef int (*bench_htab_remove_fn)(void *table, uint64_t key);
typedef int (*bench_htab_churn_fn)(void *table, uint64_t key, uint64_t now);
/* bulk: the values of keys[0..n-1] (n at most 64) into values[] (0:
 * absent), in one call of the table's own; @return how many were found,
 * or -errno. */
typedef int (*bench_htab_bulk_fn)(void *table, const uint64_t *keys, unsigned n,
				  uint64_t *values);

/* An insert of a key that must be fresh: 0 for insert's 1, -EEXIST for
 * its 0, else its error. */
static inline int bench_htab_fresh(int rc)
{
	return rc == 1 ? 0 : rc == 0 ? -EEXIST : rc;
}

/* 90/5/5 and 50/25/25: each operation draws a die and a key of the
 * universe from one 64-bit random number; every value found is checked. */
static GRAIN_ALWAYS_INLINE void bench_htab_mixed(struct bench_htab_thread *t,
						 bench_htab_lookup_fn lookup,
						 bench_htab_insert_fn insert,
						 bench_htab_remove_fn remove)
{
	void *const table = t->table;
	const uint64_t lookup_below = t->lookup_below;
	const uint64_t insert_below = t->insert_below;
	uint64_t rng = t->seed;
	uint64_t ops = 0, lookups = 0, hits = 0, inserts = 0, removes = 0;

	bench_gate_wait(t->gate);
	while (!bench_gate_stopped(t->gate)) {
		for (unsigned i = 0; i < BENCH_HTAB_BATCH; i++) {
			uint64_t r = bench_htab_random(&rng);
			uint64_t die = r & 0xffffffffu;
			uint64_t key =
				1u + (((r >> 32) * BENCH_HTAB_UNIVERSE) >> 32);
			if (die < lookup_below) {
				uint64_t v = lookup(table, key);
				lookups++;
				if (v == 0)
					continue;
				hits++;
				if (GRAIN_UNLIKELY(v != bench_htab_value(key)))
					bench_htab_fail(t, "a lookup returned "
							   "a wrong value");
			} else if (die < insert_below) {
				int rc = insert(table, key);
				if (rc > 0)
					inserts++;
				else if (rc < 0)
					bench_htab_fail(t, "an insert failed");
			} else {
				int rc = remove(table, key);
				if (rc > 0)
					removes++;
				else if (rc < 0)
					bench_htab_fail(t, "a remove failed");
			}
		}
		ops += BENCH_HTAB_BATCH;
	}
	t->ops = ops;
	t->lookups = lookups;
	t->hits = hits;
	t->inserts = inserts;
	t->removes = removes;
}

/* Bulk workloads: bursts of t->burst keys of the universe, each key
 * drawn as the mixed loop draws them, looked up with @bulk (the table's
 * own bulk call), or, where @bulk is NULL, one @lookup after another;
 * every value found is checked. An operation is one key looked up. */
static GRAIN_ALWAYS_INLINE void bench_htab_burst(struct bench_htab_thread *t,
						 bench_htab_lookup_fn lookup,
						 bench_htab_bulk_fn bulk)
{
	void *const table = t->table;
	const unsigned n = t->burst;
	uint64_t rng = t->seed;
	uint64_t ops = 0, hits = 0;
	uint64_t keys[64], values[64];

	bench_gate_wait(t->gate);
	while (!bench_gate_stopped(t->gate)) {
		for (unsigned i = 0; i < n; i++) {
			uint64_t r = bench_htab_random(&rng);
			keys[i] =
				1u + (((r >> 32) * BENCH_HTAB_UNIVERSE) >> 32);
		}
		if (bulk != NULL) {
			int rc = bulk(table, keys, n, values);
			if (GRAIN_UNLIKELY(rc < 0))
				bench_htab_fail(t, "a bulk lookup failed");
		} else {
			for (unsigned i = 0; i < n; i++)
				values[i] = lookup(table, keys[i]);
		}
		for (unsigned i = 0; i < n; i++) {
			if (values[i] == 0)
				continue;
			hits++;
			if (GRAIN_UNLIKELY(values[i] !=
					   bench_htab_value(keys[i])))
				bench_htab_fail(t, "a lookup returned a "
						   "wrong value");
		}
		ops += n;
	}
	t->ops = ops;
	t->lookups = ops;
	t->hits = hits;
}

/* Churn: every operation inserts a key never used before, thread i's
 * ((i + 1) << 40) | sequence, outside the universe. The stamp is the
 * thread's own operation count: a logical clock, and since the threads
 * run at about the same rate, close to a global order. */
static GRAIN_ALWAYS_INLINE void bench_htab_churn(struct bench_htab_thread *t,
						 bench_htab_churn_fn churn)
{
	void *const table = t->table;
	const uint64_t base = (uint64_t)(t->index + 1u) << 40;
	uint64_t seq = 0, evictions = 0;

	bench_gate_wait(t->gate);
	while (!bench_gate_stopped(t->gate)) {
		for (unsigned i = 0; i < BENCH_HTAB_BATCH; i++) {
			int rc = churn(table, base | seq, seq + 1u);
			seq++;
			if (GRAIN_LIKELY(rc >= 0))
				evictions += (uint64_t)rc;
			else
				bench_htab_fail(t, "a churn insert or its "
						   "eviction failed");
		}
	}
	t->ops = seq;
	t->inserts = seq;
	t->evictions = evictions;
}

/*
 * The key FIFO: how the tables without an LRU (striped, cds_lfht, ck_ht;
 * adapter.fifo) find "the oldest entry" under churn. The harness queues
 * the populated keys, the churn calls each key after its insert; a push
 * that leaves more than BENCH_HTAB_CHURN_LIMIT keys pops the oldest, which
 * the caller then removes from its table. One grain_spinlock guards it
 * (ck_ht calls the _locked form under its writer mutex instead). There is
 * one, bench_htab_keys, set up by the harness for the churn runs of
 * those tables.
 */
struct bench_htab_fifo {
	alignas(GRAIN_CACHELINE) struct grain_spinlock lock;
	uint64_t head, tail; /* next to pop, next free */
	uint64_t mask;	     /* of keys, a power of two > the limit */
	uint64_t *keys;
};

extern struct bench_htab_fifo bench_htab_keys;

/* Push @key; if more than the limit are queued, pop the oldest into
 * *victim and return true. The caller serializes. */
static inline bool bench_htab_fifo_push_locked(struct bench_htab_fifo *f,
					       uint64_t key, uint64_t *victim)
{
	f->keys[f->tail++ & f->mask] = key;
	if (f->tail - f->head <= BENCH_HTAB_CHURN_LIMIT)
		return false;
	*victim = f->keys[f->head++ & f->mask];
	return true;
}

/* A churn through the FIFO under its lock: insert @key, push it, remove
 * what the push popped. */
static GRAIN_ALWAYS_INLINE int
bench_htab_fifo_churn(void *table, uint64_t key, bench_htab_insert_fn insert,
		      bench_htab_remove_fn remove)
{
	struct bench_htab_fifo *f = &bench_htab_keys;
	uint64_t victim;
	int rc = bench_htab_fresh(insert(table, key));

	if (rc != 0)
		return rc;
	grain_spin_lock(&f->lock);
	bool popped = bench_htab_fifo_push_locked(f, key, &victim);
	grain_spin_unlock(&f->lock);
	if (!popped)
		return 0;
	return remove(table, victim) == 1 ? 1 : -ENOENT;
}

/* What each adapter provides. create makes an empty table for @impl set
 * up for @w. populate (generated: link @key with its value, stamped 0; 0
 * or -errno) and lookup are also called by main alone, registered with
 * liburcu's memb flavour when `rcu`; count, evictions and audit run on a
 * quiet table. */
struct bench_htab_adapter {
	int (*create)(void **tablep, enum bench_htab_impl impl,
		      enum bench_htab_workload w);
	void (*destroy)(void *table);
	int (*populate)(void *table, uint64_t key);
	bench_htab_lookup_fn lookup;
	bench_htab_remove_fn remove; /* the workers' own, for the probe */
	uint64_t (*count)(void *table);
	/* Evictions the table made on its own, or NULL where the churn
	 * calls count them. */
	uint64_t (*evictions)(void *table);
	/* Checks of its own, or NULL: NULL if all is well, else what is
	 * wrong. */
	const char *(*audit)(void *table);
	void *(*mixed)(void *thread), *(*churn)(void *thread);
	/* Bulk workloads: bursts as single lookups, and, where the table
	 * has a bulk call, with it (NULL otherwise). */
	void *(*burst)(void *thread), *(*burst_bulk)(void *thread);
	bool rcu;
	bool fifo; /* churns through bench_htab_keys */
	/* What each worker calls first and last (a registration with
	 * another RCU flavour), or NULL. */
	void (*thread_enter)(void), (*thread_exit)(void);
};

/* The adapter NAME over the calls LOOKUP, INSERT, REMOVE and CHURN: its
 * populate, its workers (the loops above with those calls) and its
 * struct, whose other members follow. */
#define BENCH_HTAB_ADAPTER(name, lookup_fn, insert_fn, remove_fn, churn_fn,   \
			   ...)                                               \
	static int name##_populate(void *table, uint64_t key)                 \
	{                                                                     \
		return bench_htab_fresh(insert_fn(table, key));               \
	}                                                                     \
	BENCH_THREAD_FN(name##_mixed, bench_htab_mixed, lookup_fn, insert_fn, \
			remove_fn)                                            \
	BENCH_THREAD_FN(name##_churn, bench_htab_churn, churn_fn)             \
	BENCH_THREAD_FN(name##_burst, bench_htab_burst, lookup_fn, NULL)      \
	const struct bench_htab_adapter name = { .populate = name##_populate, \
						 .lookup = lookup_fn,         \
						 .remove = remove_fn,         \
						 .mixed = name##_mixed,       \
						 .churn = name##_churn,       \
						 .burst = name##_burst,       \
						 __VA_ARGS__ };

/* A bulk workload's worker over the table's bulk call BULK (set it as
 * the adapter's burst_bulk). */
#define BENCH_HTAB_BULK_THREAD(name, lookup_fn, bulk_fn) \
	BENCH_THREAD_FN(name, bench_htab_burst, lookup_fn, bulk_fn)

extern const struct bench_htab_adapter bench_htab_adapter_grain,
	bench_htab_adapter_grain_rcu, bench_htab_adapter_grain_qsbr,
	bench_htab_adapter_mutex, bench_htab_adapter_striped,
	bench_htab_adapter_lfht, bench_htab_adapter_ckht,
	bench_htab_adapter_tbb, bench_htab_adapter_cuckoo,
	bench_htab_adapter_cds, bench_htab_adapter_grain_rcu_bulk,
	bench_htab_adapter_rte;

/* The baselines' calls, which bench/instr counts too. */
uint64_t bench_htab_mutex_lookup(void *table, uint64_t key);
int bench_htab_mutex_insert(void *table, uint64_t key);
int bench_htab_mutex_remove(void *table, uint64_t key);
int bench_htab_mutex_churn(void *table, uint64_t key, uint64_t now);
uint64_t bench_htab_striped_lookup(void *table, uint64_t key);
int bench_htab_striped_insert(void *table, uint64_t key);
int bench_htab_striped_remove(void *table, uint64_t key);

#endif /* GRAIN_BENCH_HTAB_HARNESS_H */
