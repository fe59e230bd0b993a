/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * instr_ops.c - single-threaded operations of grain's blocks and of what
 * they are measured against, one kind per run, for bench/instructions.sh to
 * count the instructions inside instr_measure() under callgrind.
 *
 * Usage: instr_ops --list       the kinds, tab-separated: kind, family,
 *                               implementation, operation, what one is
 *        instr_ops KIND [OPS]   set KIND up, run OPS operations (default
 *                               65536, rounded up to 32) in instr_measure(),
 *                               check them, print "KIND ops=OPS"
 *        instr_ops --all [OPS]  every kind in turn (a smoke test)
 *
 * Each kind's queue or table is made by the timed benchmark's adapter, as
 * for its runs: queues of 1024 slots; tables as for the mixed workloads
 * (grain's with its LRU, byte accounting, a high watermark and a TTL on,
 * neither reached), filled with the keys that lookups and removes find,
 * or for churn, filled to the churn limit and churned once through (not
 * counted) so that each insert evicts one entry that churn stamped; prio
 * items of the benchmark's stream (75% priority 0, 12.5% 2, 12.5% 6: three
 * bands by pfifo_fast's map). instr.h says what the loops do.
 */
#include "instr.h"

#include <grain/htab.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum instr_family { INSTR_RING, INSTR_HTAB, INSTR_PRIO };

static const char *const family_names[] = { "ring", "htab", "prio" };
static const char *const op_names[] = { "single", "bulk32", "burst32", "insert",
					"lookup", "remove", "churn" };

/* What one operation is, for the report: the family's, or the op's. */
static const char *const per_family[] = {
	"pair: one enqueue + one dequeue", NULL,
	"item: one enqueue by priority + its dequeue"
};
static const char *const per_op[] = {
	[INSTR_INSERT] = "insert of an absent key",
	[INSTR_LOOKUP] = "lookup of a present key",
	[INSTR_REMOVE] = "remove of a present key",
	[INSTR_CHURN] = "insert into the full table: one eviction",
};

struct instr_kind {
	enum instr_family family;
	const char *impl; /* as the benchmarks name it: "grain MPMC" */
	enum instr_op op;
	const void *adapter; /* the family's adapter struct */
	int id;		     /* the adapter's enum value for impl */
	instr_run_fn run;
};

/* The kinds of one implementation: a ring's single and bulk32, a table's
 * insert, lookup and remove (and churn), a prio queue's single and burst32,
 * each through the family's adapter A, enum value ID and runs RUN_OP. */
#define KIND(f, impl, a, id, op, run)    \
	{                                \
		f, impl, op, &a, id, run \
	}
#define RING(impl, a, id, run, OP, op)                                    \
	KIND(INSTR_RING, impl, bench_adapter_##a, BENCH_##id, INSTR_##OP, \
	     instr_ring_##run##_##op)
#define HTAB(impl, a, id, run, OP, op)                                  \
	KIND(INSTR_HTAB, impl, bench_htab_adapter_##a, BENCH_HTAB_##id, \
	     INSTR_##OP, instr_htab_##run##_##op)
#define PRIO(impl, a, id, run, OP, op)                                  \
	KIND(INSTR_PRIO, impl, prio_adapter_##a, PRIO_##id, INSTR_##OP, \
	     instr_prio_##run##_##op)
#define RING2(...) \
	RING(__VA_ARGS__, SINGLE, single), RING(__VA_ARGS__, BULK32, bulk32)
#define HTAB3(...)                                                            \
	HTAB(__VA_ARGS__, INSERT, insert), HTAB(__VA_ARGS__, LOOKUP, lookup), \
		HTAB(__VA_ARGS__, REMOVE, remove)
#define PRIO2(...) \
	PRIO(__VA_ARGS__, SINGLE, single), PRIO(__VA_ARGS__, BURST32, burst32)

static const struct instr_kind kinds[] = {
	RING2("grain MPMC", grain, GRAIN_MPMC, grain),
	RING2("grain MPSC", grain, GRAIN_MPSC, grain),
	RING2("grain SPMC", grain, GRAIN_SPMC, grain),
	RING2("grain SPSC", grain, GRAIN_SPSC, grain),
	RING2("mutex", mutex, MUTEX, mutex),
	RING2("twolock", twolock, TWOLOCK, twolock),
#ifdef GRAIN_BENCH_HAVE_CK
	RING("ck_ring", ck, CK, ck, SINGLE, single), /* no batch calls */
#endif
#ifdef GRAIN_BENCH_HAVE_DPDK
	RING2("rte_ring", rte, RTE, rte),
#endif
	HTAB3("grain/1", grain, GRAIN_1, grain),
	HTAB3("grain/256", grain, GRAIN_256, grain),
	HTAB3("grain-clock/256", grain, GRAIN_CLOCK, grain),
	HTAB3("grain-rcu/256", grain_rcu, GRAIN_RCU, grain_rcu),
	HTAB3("mutex", mutex, MUTEX, mutex),
	HTAB("grain/256", grain, GRAIN_256, grain, CHURN, churn),
	HTAB("grain-clock/256", grain, GRAIN_CLOCK, grain, CHURN, churn),
	HTAB("mutex", mutex, MUTEX, mutex, CHURN, churn),
	HTAB3("striped", striped, STRIPED, striped),
	PRIO2("grain_prio", grain, GRAIN, grain),
	PRIO2("grain_prio_bits", grain, GRAIN_BITS, grain),
	PRIO2("pfifo_spin", pfifo, BASE_SPIN, pfifo),
	PRIO2("pfifo_mutex", pfifo, BASE_MUTEX, pfifo),
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* The kind's name: family/impl/op, the impl's spaces and slashes made
 * dashes ("ring/grain-MPMC/single", "htab/grain-rcu-256/lookup"). */
static const char *kind_name(const struct instr_kind *k)
{
	static char buf[64];
	char impl[32];

	snprintf(impl, sizeof(impl), "%s", k->impl);
	for (char *c = impl; *c != '\0'; c++)
		*c = *c == ' ' || *c == '/' ? '-' : *c;
	snprintf(buf, sizeof(buf), "%s/%s/%s", family_names[k->family], impl,
		 op_names[k->op]);
	return buf;
}

struct instr_state {
	void *obj;   /* the queue or table */
	void *items; /* prio items */
	uint64_t ops;
	uint64_t sum; /* what the run got: tokens, sequences, values */
	void (*destroy)(void *obj);
	bool rcu; /* the thread is registered with the RCU table */
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

/* The kind's queue or table, made by its adapter as for the timed runs
 * (and prio's items); 0 or a negative errno. teardown() undoes it. */
static int setup(const struct instr_kind *k, struct instr_state *s)
{
	if (k->family == INSTR_RING) {
		const struct bench_adapter *a = k->adapter;
		bool bulk = k->op == INSTR_BULK32;
		struct bench_config cfg = {
			.producers = 1,
			.consumers = 1,
			.kind = bulk ? BENCH_BULK : BENCH_SINGLE,
			.batch = bulk ? INSTR_ROUND : 1,
			.duration_ms = 1,
		};
		s->destroy = a->destroy;
		return a->create(&s->obj, (enum bench_impl)k->id, &cfg);
	}
	if (k->family == INSTR_PRIO) {
		const struct prio_adapter *a = k->adapter;
		struct prio_config cfg = {
			.producers = 1,
			.deq = k->op == INSTR_BURST32 ? PRIO_DEQ_BURST
						      : PRIO_DEQ_SINGLE,
			.burst = INSTR_ROUND,
			.band_limit = 1024, /* per band, as the benchmark */
			.duration_ms = 1,
		};
		/* Of every 8 items of the benchmark's stream, 6 of priority
		 * 0, one of 2, one of 6. */
		static const uint8_t prio[8] = { 0, 0, 2, 0, 0, 0, 6, 0 };
		struct prio_item *it = aligned_alloc(GRAIN_CACHELINE,
						     INSTR_ROUND * sizeof(*it));
		if ((s->items = it) == NULL)
			return -ENOMEM;
		memset(it, 0, INSTR_ROUND * sizeof(*it));
		for (unsigned i = 0; i < INSTR_ROUND; i++) {
			it[i].seq = i + 1;
			it[i].prio = prio[i % 8];
			it[i].band = (uint8_t)pfifo_list_prio2band[it[i].prio];
		}
		s->destroy = a->destroy;
		return a->create(&s->obj, (enum prio_impl)k->id, &cfg);
	}
	const struct bench_htab_adapter *a = k->adapter;
	bool churn = k->op == INSTR_CHURN;
	if ((s->rcu = a->rcu))
		grain_rcu_register_thread();
	/* Made as for the mixed workloads (no churn limit, every feature
	 * on), or for churn and filled to its limit. */
	s->destroy = a->destroy;
	int rc = a->create(&s->obj, (enum bench_htab_impl)k->id,
			   churn ? BENCH_HTAB_CHURN : BENCH_HTAB_READ90);
	uint64_t fill = k->op == INSTR_INSERT ? 0
			: churn		      ? BENCH_HTAB_CHURN_LIMIT
					      : s->ops;
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

static void teardown(struct instr_state *s)
{
	if (s->obj != NULL)
		s->destroy(s->obj);
	if (s->rcu) {
		grain_rcu_barrier();
		grain_rcu_unregister_thread();
	}
	free(s->items);
}

static int run_kind(const struct instr_kind *k, uint64_t ops)
{
	struct instr_state s = { .ops = ops };
	int rc = setup(k, &s);
	uint64_t done = rc == 0 ? instr_measure(k, &s) : 0, want = 0;

	teardown(&s);
	/* Ring tokens and prio sequences are 1 .. INSTR_ROUND in every
	 * round; lookups return the keys' values. */
	if (k->family != INSTR_HTAB)
		want = ops / INSTR_ROUND *
		       (INSTR_ROUND * (INSTR_ROUND + 1) / 2);
	for (uint64_t i = 0; k->op == INSTR_LOOKUP && i < ops; i++)
		want += bench_htab_value(instr_key(i));
	if (rc != 0)
		fprintf(stderr, "instr_ops: %s: setup failed (%d)\n",
			kind_name(k), rc);
	else if (done != ops || s.sum != want)
		fprintf(stderr,
			"instr_ops: %s: %llu of %llu operations, sum %llu "
			"(expected %llu)\n",
			kind_name(k), (unsigned long long)done,
			(unsigned long long)ops, (unsigned long long)s.sum,
			(unsigned long long)want);
	else
		printf("%s ops=%llu\n", kind_name(k), (unsigned long long)ops);
	return rc != 0 || done != ops || s.sum != want;
}

int main(int argc, char **argv)
{
	uint64_t ops = 65536;
	int bad = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: instr_ops --list | --all [OPS] | KIND [OPS]\n");
		return argc < 2 ? 2 : 0;
	}
	if (argc > 2) {
		char *end;
		unsigned long long v = strtoull(argv[2], &end, 10);
		if (*end != '\0' || v == 0 || v > (1ull << 26)) {
			fprintf(stderr, "instr_ops: bad OPS: %s\n", argv[2]);
			return 2;
		}
		ops = (v + INSTR_ROUND - 1) / INSTR_ROUND * INSTR_ROUND;
	}
	for (size_t i = 0; i < NKINDS; i++) {
		const struct instr_kind *k = &kinds[i];
		if (!strcmp(argv[1], "--list"))
			printf("%s\t%s\t%s\t%s\t%s\n", kind_name(k),
			       family_names[k->family], k->impl,
			       op_names[k->op],
			       k->family == INSTR_HTAB ? per_op[k->op]
						       : per_family[k->family]);
		else if (!strcmp(argv[1], "--all"))
			bad |= run_kind(k, ops);
		else if (!strcmp(argv[1], kind_name(k)))
			return run_kind(k, ops);
	}
	if (strcmp(argv[1], "--list") && strcmp(argv[1], "--all")) {
		fprintf(stderr, "instr_ops: no kind %s (see --list)\n",
			argv[1]);
		return 2;
	}
	return bad;
}
