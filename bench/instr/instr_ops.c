/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * instr_ops.c - single-threaded operations of grain's blocks and of the
 * tables and queues they are measured against, one kind per run, for
 * counting instructions per operation (bench/instructions.sh runs each
 * kind under valgrind's callgrind and collects only inside
 * instr_measure()). Every kind goes through the adapter the timed
 * benchmark uses for that implementation (see instr.h).
 *
 * Usage: instr_ops --list          the kinds, one per line (tab-separated:
 *                                  kind, family, implementation, operation,
 *                                  what one operation is)
 *        instr_ops KIND [OPS]      set KIND up, run OPS operations in
 *                                  instr_measure(), check them, print
 *                                  "KIND ops=OPS"
 *        instr_ops --all [OPS]     every kind in turn (a smoke test)
 * OPS defaults to 65536 and is rounded up to a multiple of 32.
 *
 * What one operation is:
 *   ring  a pair: one enqueue and one dequeue of one token, in rounds of 32
 *         enqueues then 32 dequeues (single), or one bulk enqueue and one
 *         burst dequeue of 32 (bulk32): the queue never holds more than 32.
 *         Queues of 1024 slots, made by the adapter's create.
 *   htab  one insert of an absent key, one lookup of a present key, or one
 *         remove of a present key, in a table of at most OPS entries made
 *         by the adapter as for the timed mixed workloads (grain's with its
 *         LRU, byte accounting, a high watermark and a TTL on, neither
 *         reached). Each insert mallocs its node and each remove frees it
 *         (at once, or for the RCU table by call_rcu, counted up to its
 *         hand-off), as in the timed runs. churn (grain/256, mutex): one
 *         insert of a fresh key into a table made as for the timed churn
 *         runs, filled to their limit and churned once through (not
 *         counted), so that it evicts one entry stamped by churn.
 *   prio  an item: one enqueue by priority (the benchmark's stream: 75%
 *         priority 0, 12.5% 2, 12.5% 6, three bands by pfifo_fast's map)
 *         and its dequeue, in rounds of 32 enqueues then 32 single
 *         dequeues (single) or one burst dequeue of 32 (burst32).
 * Instructions include the few of the driving loop (a counter, a token
 * sum), the same for every implementation of a family.
 */
#include "instr.h"

#include <grain/htab.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INSTR_DEFAULT_OPS 65536u
#define INSTR_MAX_OPS (1ull << 26)
#define INSTR_BAND_LIMIT 1024u /* per band, as the prio benchmark */

enum instr_family { INSTR_RING, INSTR_HTAB, INSTR_PRIO };

static const char *const family_names[] = { "ring", "htab", "prio" };

static const struct {
	const char *name;
	const char *per; /* what one operation is, for the report */
} ops_info[] = {
	[INSTR_SINGLE] = { "single", NULL },
	[INSTR_BULK32] = { "bulk32", NULL },
	[INSTR_BURST32] = { "burst32", NULL },
	[INSTR_INSERT] = { "insert", "insert of an absent key" },
	[INSTR_LOOKUP] = { "lookup", "lookup of a present key" },
	[INSTR_REMOVE] = { "remove", "remove of a present key" },
	[INSTR_CHURN] = { "churn", "insert into the full table: one eviction" },
};

struct instr_kind {
	enum instr_family family;
	const char *impl; /* as the benchmarks name it: "grain MPMC" */
	enum instr_op op;
	const void *adapter; /* the family's adapter struct */
	int id;		     /* the adapter's enum value for impl */
	instr_run_fn run;
};

#define KIND(family, impl, adapter, id, op, run)    \
	{                                           \
		family, impl, op, &adapter, id, run \
	}
/* A queue's single and bulk32 (ring) or single and burst32 (prio) kinds,
 * a table's insert, lookup and remove: prefix_single, ... are the runs. */
#define RING2(impl, adapter, id, prefix)                                    \
	KIND(INSTR_RING, impl, adapter, id, INSTR_SINGLE, prefix##_single), \
		KIND(INSTR_RING, impl, adapter, id, INSTR_BULK32,           \
		     prefix##_bulk32)
#define PRIO2(impl, adapter, id, prefix)                                    \
	KIND(INSTR_PRIO, impl, adapter, id, INSTR_SINGLE, prefix##_single), \
		KIND(INSTR_PRIO, impl, adapter, id, INSTR_BURST32,          \
		     prefix##_burst32)
#define HTAB3(impl, adapter, id, prefix)                                    \
	KIND(INSTR_HTAB, impl, adapter, id, INSTR_INSERT, prefix##_insert), \
		KIND(INSTR_HTAB, impl, adapter, id, INSTR_LOOKUP,           \
		     prefix##_lookup),                                      \
		KIND(INSTR_HTAB, impl, adapter, id, INSTR_REMOVE,           \
		     prefix##_remove)

static const struct instr_kind kinds[] = {
	RING2("grain MPMC", bench_adapter_grain, BENCH_GRAIN_MPMC,
	      instr_ring_grain),
	RING2("grain MPSC", bench_adapter_grain, BENCH_GRAIN_MPSC,
	      instr_ring_grain),
	RING2("grain SPMC", bench_adapter_grain, BENCH_GRAIN_SPMC,
	      instr_ring_grain),
	RING2("grain SPSC", bench_adapter_grain, BENCH_GRAIN_SPSC,
	      instr_ring_grain),
	RING2("mutex", bench_adapter_mutex, BENCH_MUTEX, instr_ring_mutex),
	RING2("twolock", bench_adapter_twolock, BENCH_TWOLOCK,
	      instr_ring_twolock),
#ifdef GRAIN_BENCH_HAVE_CK
	/* ck_ring has no batch calls (its adapter loops single ones). */
	KIND(INSTR_RING, "ck_ring", bench_adapter_ck, BENCH_CK, INSTR_SINGLE,
	     instr_ring_ck_single),
#endif
#ifdef GRAIN_BENCH_HAVE_DPDK
	RING2("rte_ring", bench_adapter_rte, BENCH_RTE, instr_ring_rte),
#endif
	HTAB3("grain/1", bench_htab_adapter_grain, BENCH_HTAB_GRAIN_1,
	      instr_htab_grain),
	HTAB3("grain/256", bench_htab_adapter_grain, BENCH_HTAB_GRAIN_256,
	      instr_htab_grain),
	HTAB3("grain-rcu/256", bench_htab_adapter_grain_rcu,
	      BENCH_HTAB_GRAIN_RCU, instr_htab_grain_rcu),
	HTAB3("mutex", bench_htab_adapter_mutex, BENCH_HTAB_MUTEX,
	      instr_htab_mutex),
	KIND(INSTR_HTAB, "grain/256", bench_htab_adapter_grain,
	     BENCH_HTAB_GRAIN_256, INSTR_CHURN, instr_htab_grain_churn),
	KIND(INSTR_HTAB, "mutex", bench_htab_adapter_mutex, BENCH_HTAB_MUTEX,
	     INSTR_CHURN, instr_htab_mutex_churn),
	HTAB3("striped", bench_htab_adapter_striped, BENCH_HTAB_STRIPED,
	      instr_htab_striped),
	PRIO2("grain_prio", prio_adapter_grain, PRIO_GRAIN, instr_prio_grain),
	PRIO2("grain_prio_bits", prio_adapter_grain, PRIO_GRAIN_BITS,
	      instr_prio_grain),
	PRIO2("pfifo_spin", prio_adapter_pfifo, PRIO_BASE_SPIN,
	      instr_prio_pfifo),
	PRIO2("pfifo_mutex", prio_adapter_pfifo, PRIO_BASE_MUTEX,
	      instr_prio_pfifo),
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* The kind's name: family/impl/op, with the impl's spaces and slashes
 * made dashes ("ring/grain-MPMC/single", "htab/grain-rcu-256/lookup"). */
static void kind_name(const struct instr_kind *k, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/%s/%s", family_names[k->family],
			 k->impl, ops_info[k->op].name);
	size_t from = strlen(family_names[k->family]) + 1;
	size_t to = from + strlen(k->impl);

	for (size_t i = from; n > 0 && i < to && i < size; i++)
		if (buf[i] == ' ' || buf[i] == '/')
			buf[i] = '-';
}

static const char *kind_per(const struct instr_kind *k)
{
	if (k->family == INSTR_RING)
		return "pair: one enqueue + one dequeue";
	if (k->family == INSTR_PRIO)
		return "item: one enqueue by priority + its dequeue";
	return ops_info[k->op].per;
}

struct instr_state {
	void *obj;   /* the queue or table */
	void *items; /* prio items */
	uint64_t ops;
	uint64_t sum; /* what the run got: tokens, sequences, values */
};

/* Not inlined, not cloned, not renamed: callgrind collects from its entry
 * to its return (--toggle-collect=instr_measure). */
#if defined(__clang__)
#define INSTR_MEASURED __attribute__((noinline, used))
#else
#define INSTR_MEASURED __attribute__((noinline, noclone, used))
#endif
INSTR_MEASURED uint64_t instr_measure(const struct instr_kind *k,
				      struct instr_state *s);

uint64_t instr_measure(const struct instr_kind *k, struct instr_state *s)
{
	return k->run(s->obj, s->items, s->ops, &s->sum);
}

/* --- set-up, through the adapters -------------------------------------- */

static int ring_setup(const struct instr_kind *k, struct instr_state *s)
{
	const struct bench_adapter *a = k->adapter;
	bool bulk = k->op == INSTR_BULK32;
	struct bench_config cfg = {
		.producers = 1,
		.consumers = 1,
		.kind = bulk ? BENCH_BULK : BENCH_SINGLE,
		.batch = bulk ? INSTR_ROUND : 1,
		.duration_ms = 1,
	};

	return a->create(&s->obj, (enum bench_impl)k->id, &cfg);
}

static int htab_setup(const struct instr_kind *k, struct instr_state *s)
{
	const struct bench_htab_adapter *a = k->adapter;

	if (a->rcu)
		grain_rcu_register_thread();
	/* Made as for the mixed workloads (no churn limit, every feature
	 * on), or for churn and filled to its limit. */
	bool churn = k->op == INSTR_CHURN;
	int rc = a->create(&s->obj, (enum bench_htab_impl)k->id,
			   churn ? BENCH_HTAB_CHURN : BENCH_HTAB_READ90);
	if (rc != 0 || k->op == INSTR_INSERT)
		return rc;
	uint64_t fill = churn ? BENCH_HTAB_CHURN_LIMIT : s->ops;
	for (uint64_t i = 0; i < fill && rc == 0; i++)
		rc = a->populate(s->obj, instr_key(i));
	/* Churn: replace every filled entry (stamped 0) first, so that the
	 * measured inserts evict entries that churn stamped, as in the
	 * steady state of a timed run. */
	if (churn && rc == 0 &&
	    k->run(s->obj, NULL, BENCH_HTAB_CHURN_LIMIT, &(uint64_t){ 0 }) !=
		    BENCH_HTAB_CHURN_LIMIT)
		rc = -EIO;
	return rc;
}

/* The benchmark's stream: of every 8 items, 6 of priority 0, one of 2,
 * one of 6. */
static unsigned stream_prio(unsigned i)
{
	static const unsigned pattern[8] = { 0, 0, 2, 0, 0, 0, 6, 0 };
	return pattern[i % 8];
}

static int prio_setup(const struct instr_kind *k, struct instr_state *s)
{
	const struct prio_adapter *a = k->adapter;
	struct prio_config cfg = {
		.producers = 1,
		.deq = k->op == INSTR_BURST32 ? PRIO_DEQ_BURST
					      : PRIO_DEQ_SINGLE,
		.burst = INSTR_ROUND,
		.band_limit = INSTR_BAND_LIMIT,
		.duration_ms = 1,
	};
	struct prio_item *items =
		aligned_alloc(GRAIN_CACHELINE, INSTR_ROUND * sizeof(*items));

	if (items == NULL)
		return -ENOMEM;
	memset(items, 0, INSTR_ROUND * sizeof(*items));
	for (unsigned i = 0; i < INSTR_ROUND; i++) {
		items[i].seq = i + 1;
		items[i].prio = (uint8_t)stream_prio(i);
		items[i].band = (uint8_t)pfifo_list_prio2band[items[i].prio];
	}
	s->items = items;
	return a->create(&s->obj, (enum prio_impl)k->id, &cfg);
}

static int setup(const struct instr_kind *k, struct instr_state *s)
{
	switch (k->family) {
	case INSTR_RING:
		return ring_setup(k, s);
	case INSTR_HTAB:
		return htab_setup(k, s);
	case INSTR_PRIO:
		return prio_setup(k, s);
	}
	return -EINVAL;
}

/* After setup, failed or not. */
static void teardown(const struct instr_kind *k, struct instr_state *s)
{
	if (k->family == INSTR_RING && s->obj != NULL) {
		((const struct bench_adapter *)k->adapter)->destroy(s->obj);
	} else if (k->family == INSTR_HTAB) {
		const struct bench_htab_adapter *a = k->adapter;
		if (s->obj != NULL)
			a->destroy(s->obj);
		if (a->rcu) {
			grain_rcu_barrier();
			grain_rcu_unregister_thread();
		}
	} else if (k->family == INSTR_PRIO && s->obj != NULL) {
		((const struct prio_adapter *)k->adapter)->destroy(s->obj);
	}
	free(s->items);
}

/* What the run must have summed: ring tokens and prio sequences are
 * 1 .. INSTR_ROUND in every round; lookups return the keys' values. */
static uint64_t expected_sum(const struct instr_kind *k, uint64_t ops)
{
	uint64_t sum = 0;

	if (k->family != INSTR_HTAB)
		return ops / INSTR_ROUND *
		       (INSTR_ROUND * (INSTR_ROUND + 1) / 2);
	if (k->op == INSTR_LOOKUP)
		for (uint64_t i = 0; i < ops; i++)
			sum += bench_htab_value(instr_key(i));
	return sum;
}

static int run_kind(const struct instr_kind *k, uint64_t ops)
{
	struct instr_state s = { .ops = ops };
	char name[64];

	kind_name(k, name, sizeof(name));
	int rc = setup(k, &s);
	if (rc != 0) {
		fprintf(stderr, "instr_ops: %s: setup failed (%d)\n", name, rc);
		teardown(k, &s);
		return 1;
	}
	uint64_t done = instr_measure(k, &s);
	uint64_t want = expected_sum(k, ops);
	teardown(k, &s);
	if (done != ops || s.sum != want) {
		fprintf(stderr,
			"instr_ops: %s: %llu of %llu operations, sum %llu "
			"(expected %llu)\n",
			name, (unsigned long long)done, (unsigned long long)ops,
			(unsigned long long)s.sum, (unsigned long long)want);
		return 1;
	}
	printf("%s ops=%llu\n", name, (unsigned long long)ops);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t ops = INSTR_DEFAULT_OPS;
	char name[64];

	if (argc < 2 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: instr_ops --list | --all [OPS] | KIND [OPS]\n");
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < NKINDS; i++) {
			kind_name(&kinds[i], name, sizeof(name));
			printf("%s\t%s\t%s\t%s\t%s\n", name,
			       family_names[kinds[i].family], kinds[i].impl,
			       ops_info[kinds[i].op].name, kind_per(&kinds[i]));
		}
		return 0;
	}
	if (argc > 2) {
		char *end;
		unsigned long long v = strtoull(argv[2], &end, 10);
		if (*end != '\0' || v == 0 || v > INSTR_MAX_OPS) {
			fprintf(stderr, "instr_ops: bad OPS: %s\n", argv[2]);
			return 2;
		}
		ops = (v + INSTR_ROUND - 1) / INSTR_ROUND * INSTR_ROUND;
	}
	if (strcmp(argv[1], "--all") == 0) {
		int bad = 0;
		for (size_t i = 0; i < NKINDS; i++)
			bad |= run_kind(&kinds[i], ops);
		return bad;
	}
	for (size_t i = 0; i < NKINDS; i++) {
		kind_name(&kinds[i], name, sizeof(name));
		if (strcmp(name, argv[1]) == 0)
			return run_kind(&kinds[i], ops);
	}
	fprintf(stderr, "instr_ops: no kind %s (see --list)\n", argv[1]);
	return 2;
}
