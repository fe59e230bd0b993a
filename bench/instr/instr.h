/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * instr.h - internal to bench/instr (C11): the single-threaded loops whose
 * instructions instr_ops counts, one per family, over the calls of the
 * benchmarks' own adapters.
 *
 * Those calls are static in the adapters' files, so each file of this
 * folder includes its adapter's .c file and then defines its kinds' loops
 * with the INSTR_*_RUN macros below, one line per measured operation: each
 * gets its own copy of its family's loop, with the adapter's call and the
 * library's inline fast paths under it inlined. instr_ops.c holds the table
 * of kinds and main().
 *
 * A ring loop moves `ops` tokens through a queue in rounds of INSTR_ROUND:
 * INSTR_ROUND enqueued, then INSTR_ROUND dequeued, n per call (1: single,
 * INSTR_ROUND: one bulk enqueue and one burst dequeue). A prio loop does the
 * same with items of the benchmark's priority stream. The queue never holds
 * more than INSTR_ROUND, so no call fails. An htab loop makes `ops` calls of
 * one operation on keys instr_key(0 .. ops - 1). Every loop returns how many
 * operations succeeded and adds the tokens, item sequence numbers or values
 * it got to *sum; instr_ops.c checks both outside the counted region.
 */
#ifndef GRAIN_BENCH_INSTR_H
#define GRAIN_BENCH_INSTR_H

#include "ring/adapters/harness.h"
#include "htab/adapters/harness.h"
#include "prio/adapters/harness.h"

#include <grain/common.h>

#include <stdint.h>

/** Tokens per round; every loop's operation count is a multiple of it. */
#define INSTR_ROUND 32u

/** The operations a kind measures. */
enum instr_op {
	INSTR_SINGLE,  /* ring, prio: one per call */
	INSTR_BULK32,  /* ring: bulk enqueue + burst dequeue of 32 */
	INSTR_BURST32, /* prio: single enqueues + burst dequeue of 32 */
	INSTR_INSERT,  /* htab: insert of an absent key */
	INSTR_LOOKUP,  /* htab: lookup of a present key */
	INSTR_REMOVE,  /* htab: remove of a present key */
	INSTR_CHURN,   /* htab: insert into the full table, which evicts */
};

/* One kind's measured loop over its queue or table. */
typedef uint64_t (*instr_run_fn)(void *obj, void *items, uint64_t ops,
				 uint64_t *sum);
#define INSTR_RUN_DECL(name) \
	uint64_t name(void *obj, void *items, uint64_t ops, uint64_t *sum)

/* Ring tokens: never NULL (some queues refuse NULL), and they sum to
 * INSTR_ROUND * (INSTR_ROUND + 1) / 2 per round. */
static inline void *instr_token(unsigned i)
{
	return (void *)(uintptr_t)(i + 1u);
}

/* Table keys: distinct, non-zero, scattered. */
static inline uint64_t instr_key(uint64_t i)
{
	return (i + 1) * UINT64_C(0x9e3779b97f4a7c15);
}

/*
 * The loops. Each INSTR_*_RUN(name, ...) line defines the instr_run_fn
 * `name`: the family's loop over the adapter functions it names. The calls
 * are written directly (not through function pointers, which the compiler
 * resolves only after it has chosen what to inline) and the function is
 * flattened, so the adapter's call and everything inline under it (grain's
 * fast paths, the baselines' calls through interprocedural optimisation) go
 * into the loop, as in the timed benchmarks where each adapter call has one
 * caller; calls into libgrain, libc and the anchors' libraries stay calls.
 */
#if defined(__GNUC__) || defined(__clang__)
#define INSTR_FLATTEN __attribute__((flatten))
#else
#define INSTR_FLATTEN
#endif

#define INSTR_RUN_FN(name) INSTR_FLATTEN INSTR_RUN_DECL(name)

/* Ring: put and get are bench_put_fn and bench_get_fn; n tokens a call. */
#define INSTR_RING_RUN(name, n, put, get)                                 \
	INSTR_RUN_FN(name)                                                \
	{                                                                 \
		void *in[INSTR_ROUND], *out[INSTR_ROUND];                 \
		uint64_t done = 0;                                        \
		(void)items;                                              \
		for (unsigned i = 0; i < INSTR_ROUND; i++)                \
			in[i] = instr_token(i);                           \
		for (uint64_t r = 0; r < ops / INSTR_ROUND; r++) {        \
			for (unsigned i = 0; i < INSTR_ROUND; i += (n))   \
				if (put(obj, NULL, in + i, (n)) != (n))   \
					return done;                      \
			for (unsigned i = 0; i < INSTR_ROUND; i += (n)) { \
				if (get(obj, NULL, out, (n)) != (n))      \
					return done;                      \
				for (unsigned j = 0; j < (n); j++)        \
					*sum += (uintptr_t)out[j];        \
			}                                                 \
			done += INSTR_ROUND;                              \
		}                                                         \
		return done;                                              \
	}

/* Prio: put and get are prio_put_fn and prio_get_fn; items are
 * INSTR_ROUND prio_items whose seq are 1 .. INSTR_ROUND; n items a get. */
#define INSTR_PRIO_RUN(name, n, put, get)                                 \
	INSTR_RUN_FN(name)                                                \
	{                                                                 \
		struct prio_item *const it = items, *out[INSTR_ROUND];    \
		uint64_t done = 0;                                        \
		unsigned band;                                            \
		for (uint64_t r = 0; r < ops / INSTR_ROUND; r++) {        \
			for (unsigned i = 0; i < INSTR_ROUND; i++)        \
				if (put(obj, &it[i]) != 0)                \
					return done;                      \
			for (unsigned i = 0; i < INSTR_ROUND; i += (n)) { \
				if (get(obj, out, (n),                    \
					(n) == 1 ? &band : NULL) != (n))  \
					return done;                      \
				for (unsigned j = 0; j < (n); j++)        \
					*sum += out[j]->seq;              \
			}                                                 \
			done += INSTR_ROUND;                              \
		}                                                         \
		return done;                                              \
	}

/* Htab: op is INSTR_INSERT, _LOOKUP or _REMOVE; lookup, insert and remove
 * are bench_htab_lookup_fn, _insert_fn and _remove_fn. */
#define INSTR_HTAB_RUN(name, op, lookup, insert, remove)       \
	INSTR_RUN_FN(name)                                     \
	{                                                      \
		uint64_t done = 0;                             \
		(void)items;                                   \
		for (uint64_t i = 0; i < ops; i++) {           \
			uint64_t key = instr_key(i);           \
			if ((op) == INSTR_LOOKUP) {            \
				uint64_t v = lookup(obj, key); \
				*sum += v;                     \
				done += v != 0;                \
			} else if ((op) == INSTR_INSERT) {     \
				done += insert(obj, key) == 1; \
			} else {                               \
				done += remove(obj, key) == 1; \
			}                                      \
		}                                              \
		return done;                                   \
	}

/* Htab churn: the table holds BENCH_HTAB_CHURN_LIMIT entries (keys
 * instr_key(0 .. limit - 1)); each churn call inserts the next fresh key,
 * stamped with its index, and so evicts one. Successive runs continue the
 * sequence (setup runs one to replace the filled entries). churn is a
 * bench_htab_churn_fn (0 or 1: evicted; -errno: failed). */
#define INSTR_HTAB_CHURN_RUN(name, churn)                               \
	INSTR_RUN_FN(name)                                              \
	{                                                               \
		static uint64_t next = BENCH_HTAB_CHURN_LIMIT;          \
		uint64_t done = 0;                                      \
		(void)items;                                            \
		(void)sum;                                              \
		for (uint64_t i = 0; i < ops; i++, next++)              \
			done += churn(obj, instr_key(next), next) >= 0; \
		return done;                                            \
	}

/* The loops the family files define: ring.c (grain_ring, the baselines,
 * ck_ring: single only), ring_rte.c (rte_ring, built with DPDK's flags),
 * htab.c (grain_htab with locked and with RCU lookups, the baselines) and
 * prio_grain.c, prio_pfifo.c (their adapters' functions share names). */
#define INSTR_RUN_DECL2(prefix, a, b) \
	INSTR_RUN_DECL(prefix##_##a); \
	INSTR_RUN_DECL(prefix##_##b)
#define INSTR_HTAB_DECLS(prefix)         \
	INSTR_RUN_DECL(prefix##_insert); \
	INSTR_RUN_DECL2(prefix, lookup, remove)
INSTR_RUN_DECL2(instr_ring_grain, single, bulk32);
INSTR_RUN_DECL2(instr_ring_mutex, single, bulk32);
INSTR_RUN_DECL2(instr_ring_twolock, single, bulk32);
INSTR_RUN_DECL2(instr_ring_rte, single, bulk32);
INSTR_RUN_DECL(instr_ring_ck_single);
INSTR_HTAB_DECLS(instr_htab_grain);
INSTR_HTAB_DECLS(instr_htab_grain_rcu);
INSTR_HTAB_DECLS(instr_htab_mutex);
INSTR_HTAB_DECLS(instr_htab_striped);
INSTR_RUN_DECL(instr_htab_grain_churn);
INSTR_RUN_DECL(instr_htab_mutex_churn);
INSTR_RUN_DECL2(instr_prio_grain, single, burst32);
INSTR_RUN_DECL2(instr_prio_pfifo, single, burst32);

#endif /* GRAIN_BENCH_INSTR_H */
