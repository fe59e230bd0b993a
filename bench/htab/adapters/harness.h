/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.h - internal to bench/htab/adapters (C11 only): the state shared
 * by the threads of one experiment, the workload loops, the key FIFO that
 * tables without an LRU use for churn, and the table each adapter fills
 * in.
 *
 * Every adapter writes tiny lookup/insert/remove (or churn) functions for
 * its table and passes them, as constants, to bench_htab_mixed() or
 * bench_htab_churn(). Those loops are always inlined, so each table gets
 * its own copy of the same loop with direct (inlinable) calls: no
 * indirect call on the measured path that the others do not have.
 *
 * Shared flags: the gate's (common/core.h); the table and the thread
 * structs are set up before it opens. The results are read after
 * pthread_join(), which orders them.
 */
#ifndef GRAIN_BENCH_HTAB_HARNESS_H
#define GRAIN_BENCH_HTAB_HARNESS_H

#include "adapters.h"

#include "../../common/core.h"

#include <grain/common.h>
#include <grain/lock.h>

#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Operations between two looks at the stop flag. */
#define BENCH_HTAB_BATCH 32u
/* Keys the pre-check looks up: this many present and this many absent. */
#define BENCH_HTAB_SAMPLE 4096u
/* Churn keys of thread i: ((i + 1) << BENCH_HTAB_CHURN_SHIFT) | sequence,
 * never in the universe. */
#define BENCH_HTAB_CHURN_SHIFT 40u

struct bench_htab_shared {
	struct bench_gate gate;
	alignas(GRAIN_CACHELINE) void *table; /* read-only while running */
	struct bench_htab_config cfg;
	/* A 32-bit die below lookup_below: lookup; below insert_below:
	 * insert; else remove. */
	uint64_t lookup_below, insert_below;
};

struct bench_htab_thread {
	alignas(GRAIN_CACHELINE) struct bench_htab_shared *s;
	unsigned index;
	uint64_t seed;
	void *(*main)(void *);
	const struct bench_htab_adapter *adapter; /* its table's adapter */
	/* Results, written by the thread before it returns. */
	uint64_t ops, lookups, hits, inserts, inserts_existing;
	uint64_t removes, removes_missing, evictions;
	uint64_t errors;
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

/* The value of @key, or 0 if absent. */
typedef uint64_t (*bench_htab_lookup_fn)(void *table, uint64_t key);
/* Insert @key with bench_htab_value(key): 1 inserted, 0 already present,
 * or a negative errno. */
typedef int (*bench_htab_insert_fn)(void *table, uint64_t key);
/* Remove @key: 1 removed, 0 absent, or a negative errno. */
typedef int (*bench_htab_remove_fn)(void *table, uint64_t key);
/* Insert the fresh @key stamped @now and evict as the table does it: the
 * number of entries this call evicted (0 for grain_htab, whose evictions
 * come from its statistics), or a negative errno (an insert of a fresh
 * key that failed, an eviction that found nothing to remove). */
typedef int (*bench_htab_churn_fn)(void *table, uint64_t key, uint64_t now);

/* 90/5/5 and 50/25/25: each operation draws a die and a key of the
 * universe from one 64-bit random number. */
static GRAIN_ALWAYS_INLINE void bench_htab_mixed(struct bench_htab_thread *t,
						 bench_htab_lookup_fn lookup,
						 bench_htab_insert_fn insert,
						 bench_htab_remove_fn remove)
{
	struct bench_htab_shared *s = t->s;
	void *const table = s->table;
	const uint64_t lookup_below = s->lookup_below;
	const uint64_t insert_below = s->insert_below;
	uint64_t rng = t->seed;
	uint64_t ops = 0, lookups = 0, hits = 0, inserts = 0, existing = 0;
	uint64_t removes = 0, missing = 0;

	bench_gate_wait(&s->gate);
	while (!bench_gate_stopped(&s->gate)) {
		for (unsigned i = 0; i < BENCH_HTAB_BATCH; i++) {
			uint64_t r = bench_htab_random(&rng);
			uint64_t die = r & 0xffffffffu;
			uint64_t key =
				1u + (((r >> 32) * BENCH_HTAB_UNIVERSE) >> 32);
			if (die < lookup_below) {
				uint64_t v = lookup(table, key);
				lookups++;
				if (v != 0) {
					hits++;
					if (GRAIN_UNLIKELY(
						    v != bench_htab_value(key)))
						bench_htab_fail(
							t, "a lookup returned "
							   "a wrong value");
				}
			} else if (die < insert_below) {
				int rc = insert(table, key);
				if (rc > 0)
					inserts++;
				else if (rc == 0)
					existing++;
				else
					bench_htab_fail(t, "an insert failed");
			} else {
				int rc = remove(table, key);
				if (rc > 0)
					removes++;
				else if (rc == 0)
					missing++;
				else
					bench_htab_fail(t, "a remove failed");
			}
		}
		ops += BENCH_HTAB_BATCH;
	}
	t->ops = ops;
	t->lookups = lookups;
	t->hits = hits;
	t->inserts = inserts;
	t->inserts_existing = existing;
	t->removes = removes;
	t->removes_missing = missing;
}

/* Churn: every operation inserts a key never used before. The stamp is
 * the thread's own operation count: a logical clock, and since the
 * threads run at about the same rate, close to a global order. */
static GRAIN_ALWAYS_INLINE void bench_htab_churn(struct bench_htab_thread *t,
						 bench_htab_churn_fn churn)
{
	struct bench_htab_shared *s = t->s;
	void *const table = s->table;
	const uint64_t base = (uint64_t)(t->index + 1u)
			      << BENCH_HTAB_CHURN_SHIFT;
	uint64_t seq = 0, evictions = 0;

	bench_gate_wait(&s->gate);
	while (!bench_gate_stopped(&s->gate)) {
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
 * The key FIFO: what the tables without an LRU (striped baseline,
 * cds_lfht, ck_ht) use to find "the oldest entry" under churn. Every key
 * is pushed after its insert; a push that leaves more than `limit` keys
 * pops the oldest, which the caller then removes from its table. One
 * grain_spinlock guards it (ck_ht calls the _locked form under its writer
 * mutex instead).
 */
struct bench_htab_fifo {
	alignas(GRAIN_CACHELINE) struct grain_spinlock lock;
	uint64_t head; /* next to pop */
	uint64_t tail; /* next free */
	uint64_t mask;
	uint64_t limit;
	uint64_t *keys;
};

/* 0 or -ENOMEM; @limit + 1 keys fit. */
int bench_htab_fifo_init(struct bench_htab_fifo *f, uint64_t limit);
void bench_htab_fifo_fini(struct bench_htab_fifo *f);

/* Push @key; if more than limit keys are queued, pop the oldest into
 * *victim and return true. The caller serializes. */
static inline bool bench_htab_fifo_push_locked(struct bench_htab_fifo *f,
					       uint64_t key, uint64_t *victim)
{
	f->keys[f->tail++ & f->mask] = key;
	if (f->tail - f->head <= f->limit)
		return false;
	*victim = f->keys[f->head++ & f->mask];
	return true;
}

static inline bool bench_htab_fifo_push(struct bench_htab_fifo *f, uint64_t key,
					uint64_t *victim)
{
	grain_spin_lock(&f->lock);
	bool popped = bench_htab_fifo_push_locked(f, key, victim);
	grain_spin_unlock(&f->lock);
	return popped;
}

/* What each adapter provides. create makes an empty table for @impl set
 * up for @w (churn: its entry limit). populate and lookup are also
 * called by main, alone (registered with liburcu when `rcu`). count and
 * audit run on a quiet table. */
struct bench_htab_adapter {
	int (*create)(void **tablep, enum bench_htab_impl impl,
		      enum bench_htab_workload w);
	void (*destroy)(void *table);
	/* Link @key with bench_htab_value(key), stamped 0: 0 or -errno. */
	int (*populate)(void *table, uint64_t key);
	bench_htab_lookup_fn lookup;
	uint64_t (*count)(void *table);
	/* Evictions the table made on its own, or NULL if the churn calls
	 * report them. */
	uint64_t (*evictions)(void *table);
	/* Optional extra consistency checks: NULL if all is well, else
	 * what is wrong. */
	const char *(*audit)(void *table);
	/* Thread entry points, taking a struct bench_htab_thread *; NULL
	 * where the workload is not supported. */
	void *(*worker[BENCH_HTAB_WORKLOAD_COUNT])(void *thread);
	/* Threads must be registered with liburcu (memb flavour). */
	bool rcu;
	/* Or, if set, what each worker thread calls first and last (its
	 * own flavour's registration); main stays unregistered. */
	void (*thread_enter)(void);
	void (*thread_exit)(void);
};

extern const struct bench_htab_adapter bench_htab_adapter_grain;
extern const struct bench_htab_adapter bench_htab_adapter_grain_rcu;
extern const struct bench_htab_adapter bench_htab_adapter_grain_qsbr;

/* grain_adapter.c's parts, shared with the qsbr adapter (liburcu's
 * flavours need a translation unit each). */
struct rcu_flavor_struct;
int bench_htab_grain_create(void **tablep, enum bench_htab_impl impl,
			    enum bench_htab_workload w,
			    const struct rcu_flavor_struct *flavor);
void bench_htab_grain_destroy(void *table);
int bench_htab_grain_populate(void *table, uint64_t key);
int bench_htab_grain_insert(void *table, uint64_t key);
int bench_htab_grain_remove(void *table, uint64_t key);
uint64_t bench_htab_grain_count(void *table);
uint64_t bench_htab_grain_evictions(void *table);
const char *bench_htab_grain_audit(void *table);
int bench_htab_grain_churn(void *table, uint64_t key, uint64_t now);
extern const struct bench_htab_adapter bench_htab_adapter_mutex;
extern const struct bench_htab_adapter bench_htab_adapter_striped;
#ifdef GRAIN_BENCH_HAVE_URCU_CDS
extern const struct bench_htab_adapter bench_htab_adapter_lfht;
#endif
#ifdef GRAIN_BENCH_HAVE_CK
extern const struct bench_htab_adapter bench_htab_adapter_ckht;
#endif

#endif /* GRAIN_BENCH_HTAB_HARNESS_H */
