/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.c - runs one experiment (see adapters.h): table set-up and
 * pre-check, threads, pinning, timing, and the books.
 *
 * Timing: main waits until every thread has counted in, reads
 * CLOCK_MONOTONIC (t0) and releases them, sleeps until t0 + duration
 * (absolute clock_nanosleep, so a late wake-up does not stretch the run
 * unnoticed), raises stop and reads the clock again (t1). A thread counts
 * the operations of whole batches of BENCH_HTAB_BATCH until it sees stop;
 * the rate is their sum over t1 - t0. Set-up, joins and the destruction
 * of the table are not timed.
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET */
#include "harness.h"

#include <grain/hash.h>
#include <grain/htab.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GRAIN_BENCH_HAVE_CK
#define HAVE_CK true
#else
#define HAVE_CK false
#endif
#ifdef GRAIN_BENCH_HAVE_URCU_CDS
#define HAVE_URCU_CDS true
#else
#define HAVE_URCU_CDS false
#endif

/* What each table's runs measure, for the summary. */
#define NOTE_GRAIN_1                                                      \
	"grain_htab with 1 stripe (its global lock), GRAIN_HTAB_NO_RCU, " \
	"2^18 signature buckets of 6 slots in all; lookups "              \
	"grain_htab_lock_fast + grain_htab_find_locked_fast + unlock, "   \
	"inserts and removes the one-call _fast forms (hash and "         \
	"equality inlined); every feature on: LRU, byte accounting, a "   \
	"high watermark and a TTL checked at every insert (neither "      \
	"reached in the mixed runs)"
#define NOTE_GRAIN_RCU                                                    \
	"grain_htab, 256 stripes, RCU table (liburcu memb): lookups "     \
	"grain_htab_lookup_fast between liburcu-memb's inline read_lock " \
	"and read_unlock, no lock; inserts and removes the one-call "     \
	"_fast forms; removed nodes freed after a grace period (call_rcu)"
#define NOTE_GRAIN_QSBR                                                   \
	"grain_htab, 256 stripes, RCU table with liburcu's qsbr flavour " \
	"(config.rcu_flavor): lookups grain_htab_lookup_fast in qsbr's "  \
	"inline read-side section (free), each worker announcing a "      \
	"quiescent state every 64 operations, counted in the run; "       \
	"otherwise as grain-rcu/256"
#define NOTE_MUTEX                                                  \
	"baseline bench/htab/baselines/mutex_table: chains and an " \
	"insertion-order LRU list under one pthread mutex"
#define NOTE_STRIPED                                                     \
	"baseline bench/htab/baselines/striped_table: chains only, 256 " \
	"grain_spinlock stripes (bucket & 255), no LRU, no accounting, " \
	"no resizing"
#define NOTE_LFHT                                                        \
	"anchor liburcu cds_lfht (split-ordered lock-free lists), memb " \
	"flavour, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, 2^19 "     \
	"buckets at start; lookups cds_lfht_lookup in a read-side "      \
	"section, inserts cds_lfht_add_unique, removes lookup + "        \
	"cds_lfht_del; removed nodes freed after a grace period "        \
	"(call_rcu)"
#define NOTE_CKHT                                                         \
	"anchor ConcurrencyKit ck_ht, CK_HT_MODE_DIRECT | "               \
	"CK_HT_WORKLOAD_DELETE, 2^21 slots (it grows past a load of "     \
	"1/2): single writer, many readers, so writers take one pthread " \
	"mutex and readers none; an insert is get + put_spmc under the "  \
	"mutex (put_spmc alone may duplicate a key behind a tombstone); " \
	"the slot holds the node's address, freed at once on remove, so " \
	"lookups check the key in the slot and never read the node"

/* How each does churn. */
#define CHURN_GRAIN                                                        \
	"policy EVICT with mem_high = mem_low = 500000 and a charge of 1 " \
	"per entry: the unlock of each insert evicts the least recently "  \
	"used entry (exact within a stripe, the oldest of 4 sampled "      \
	"stripes across them)"
#define CHURN_MUTEX                                                    \
	"insert and unlink of the oldest entry (its LRU list) in one " \
	"critical section"
#define CHURN_FIFO(lock)                                                   \
	"no LRU of its own: a FIFO of inserted keys (" lock ") names the " \
	"oldest entry, which the inserting thread then removes"

/* One table: name, what is measured, how it does churn, compiled in, a
 * grain_htab configuration, lock-free lookups, anchor, baseline, lock
 * stripes (0: not striped). Every table runs churn. */
#define INFO(n, what, how, avail, is_grain, rcu, anc, base, nstripes)      \
	{                                                                  \
		.name = n, .note = what, .churn = how, .available = avail, \
		.grain = is_grain, .rcu_lookups = rcu, .anchor = anc,      \
		.baseline = base, .has_churn = true, .stripes = nstripes   \
	}
#define GRAIN_AS_1(stripes) \
	"grain_htab, " stripes " stripes, otherwise as grain/1"
#define CHURN_RCU CHURN_GRAIN "; evicted nodes freed after a grace period"
#define CHURN_LFHT                           \
	CHURN_FIFO("under a grain_spinlock") \
	"; removed nodes freed after a grace period"

static const struct bench_htab_impl_info infos[BENCH_HTAB_IMPL_COUNT] = {
	[BENCH_HTAB_GRAIN_1] = INFO("grain/1", NOTE_GRAIN_1, CHURN_GRAIN, true,
				    true, false, false, false, 1),
	[BENCH_HTAB_GRAIN_16] = INFO("grain/16", GRAIN_AS_1("16"), CHURN_GRAIN,
				     true, true, false, false, false, 16),
	[BENCH_HTAB_GRAIN_256] = INFO("grain/256", GRAIN_AS_1("256"),
				      CHURN_GRAIN, true, true, false, false,
				      false, 256),
	[BENCH_HTAB_GRAIN_4096] = INFO("grain/4096", GRAIN_AS_1("4096"),
				       CHURN_GRAIN, true, true, false, false,
				       false, 4096),
	[BENCH_HTAB_GRAIN_RCU] = INFO("grain-rcu/256", NOTE_GRAIN_RCU,
				      CHURN_RCU, true, true, true, false, false,
				      256),
	[BENCH_HTAB_GRAIN_QSBR] = INFO("grain-qsbr/256", NOTE_GRAIN_QSBR,
				       CHURN_RCU, true, true, true, false,
				       false, 256),
	[BENCH_HTAB_MUTEX] = INFO("mutex", NOTE_MUTEX, CHURN_MUTEX, true, false,
				  false, false, true, 1),
	[BENCH_HTAB_STRIPED] = INFO("striped", NOTE_STRIPED,
				    CHURN_FIFO("under a grain_spinlock"), true,
				    false, false, false, true, 256),
	[BENCH_HTAB_LFHT] = INFO("cds_lfht", NOTE_LFHT, CHURN_LFHT,
				 HAVE_URCU_CDS, false, true, true, false, 0),
	[BENCH_HTAB_CKHT] = INFO("ck_ht", NOTE_CKHT,
				 CHURN_FIFO("under the writer mutex"), HAVE_CK,
				 false, true, true, false, 0),
};

static const struct bench_htab_workload_info workloads[] = {
	[BENCH_HTAB_READ90] = { .name = "90/5/5",
				.label = "read90",
				.lookup_pct = 90,
				.insert_pct = 5,
				.remove_pct = 5 },
	[BENCH_HTAB_MIX50] = { .name = "50/25/25",
			       .label = "mix50",
			       .lookup_pct = 50,
			       .insert_pct = 25,
			       .remove_pct = 25 },
	[BENCH_HTAB_CHURN] = { .name = "churn",
			       .label = "churn",
			       .insert_pct = 100,
			       .churn = true },
};

static const struct bench_htab_adapter *adapter_of(enum bench_htab_impl impl)
{
	switch (impl) {
	case BENCH_HTAB_GRAIN_1:
	case BENCH_HTAB_GRAIN_16:
	case BENCH_HTAB_GRAIN_256:
	case BENCH_HTAB_GRAIN_4096:
		return &bench_htab_adapter_grain;
	case BENCH_HTAB_GRAIN_RCU:
		return &bench_htab_adapter_grain_rcu;
	case BENCH_HTAB_GRAIN_QSBR:
		return &bench_htab_adapter_grain_qsbr;
	case BENCH_HTAB_MUTEX:
		return &bench_htab_adapter_mutex;
	case BENCH_HTAB_STRIPED:
		return &bench_htab_adapter_striped;
#ifdef GRAIN_BENCH_HAVE_URCU_CDS
	case BENCH_HTAB_LFHT:
		return &bench_htab_adapter_lfht;
#endif
#ifdef GRAIN_BENCH_HAVE_CK
	case BENCH_HTAB_CKHT:
		return &bench_htab_adapter_ckht;
#endif
	default:
		return NULL;
	}
}

const struct bench_htab_impl_info *bench_htab_info(enum bench_htab_impl impl)
{
	if ((unsigned)impl >= BENCH_HTAB_IMPL_COUNT)
		return NULL;
	return &infos[impl];
}

const struct bench_htab_workload_info *
bench_htab_workload_facts(enum bench_htab_workload w)
{
	if ((unsigned)w >= BENCH_HTAB_WORKLOAD_COUNT)
		return NULL;
	return &workloads[w];
}

bool bench_htab_config_ok(enum bench_htab_impl impl,
			  const struct bench_htab_config *cfg)
{
	const struct bench_htab_impl_info *info = bench_htab_info(impl);
	const struct bench_htab_adapter *a = adapter_of(impl);

	if (info == NULL || a == NULL || !info->available || cfg == NULL ||
	    (unsigned)cfg->workload >= BENCH_HTAB_WORKLOAD_COUNT)
		return false;
	if (a->worker[cfg->workload] == NULL ||
	    (cfg->workload == BENCH_HTAB_CHURN && !info->has_churn))
		return false;
	return cfg->threads >= 1 && cfg->threads <= BENCH_HTAB_MAX_THREADS &&
	       cfg->duration_ms > 0;
}

/* liburcu-memb sets this when it initialises (a library constructor). */
extern int urcu_memb_has_sys_membarrier;

bool bench_htab_urcu_membarrier(void)
{
	return urcu_memb_has_sys_membarrier != 0;
}

int bench_htab_fifo_init(struct bench_htab_fifo *f, uint64_t limit)
{
	uint64_t size = 1;

	while (size < limit + 1u)
		size <<= 1;
	memset(f, 0, sizeof(*f));
	grain_spin_init(&f->lock);
	f->keys = malloc(size * sizeof(uint64_t));
	if (f->keys == NULL)
		return -ENOMEM;
	f->mask = size - 1;
	f->limit = limit;
	return 0;
}

void bench_htab_fifo_fini(struct bench_htab_fifo *f)
{
	free(f->keys);
	f->keys = NULL;
}

/* Thread entry for RCU tables: register with liburcu (memb, or the
 * adapter's own flavour) around the adapter's worker. Registration is
 * outside the timed part. */
static void *rcu_thread(void *arg)
{
	struct bench_htab_thread *t = arg;
	const struct bench_htab_adapter *a = t->adapter;

	if (a->thread_enter != NULL)
		a->thread_enter();
	else
		grain_rcu_register_thread();
	t->main(t);
	if (a->thread_exit != NULL)
		a->thread_exit();
	else
		grain_rcu_unregister_thread();
	return NULL;
}

/* Thread i of a run: through rcu_thread() when its table registers. */
static void who(void *ctx, unsigned i, struct bench_spawn *out)
{
	struct bench_htab_thread *t = (struct bench_htab_thread *)ctx + i;
	const struct bench_htab_adapter *a = t->adapter;

	out->fn = a->rcu || a->thread_enter != NULL ? rcu_thread : t->main;
	out->arg = t;
	out->cpu = i % bench_nproc();
}

/* Count an error; keep the words of the first. */
static void fail(struct bench_htab_result *res, const char *fmt,
		 unsigned long long a, unsigned long long b)
{
	if (res->errors++ == 0)
		snprintf(res->error, sizeof(res->error), fmt, a, b);
}

static void fail_text(struct bench_htab_result *res, const char *when,
		      const char *what)
{
	if (res->errors++ == 0)
		snprintf(res->error, sizeof(res->error), "%s: %s", when, what);
}

/* Populate the odd keys, then the pre-check. */
static void set_up(const struct bench_htab_adapter *a, void *table,
		   struct bench_htab_result *res)
{
	for (uint64_t k = 1; k <= BENCH_HTAB_UNIVERSE; k += 2) {
		int rc = a->populate(table, k);
		if (rc != 0) {
			fail(res,
			     "populate: insert of key %llu failed "
			     "(errno %llu)",
			     (unsigned long long)k, (unsigned long long)-rc);
			return;
		}
	}
	res->entries_before = a->count(table);
	if (res->entries_before != BENCH_HTAB_INITIAL)
		fail(res, "pre-check: %llu entries after populating %llu",
		     (unsigned long long)res->entries_before,
		     BENCH_HTAB_INITIAL);
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	for (unsigned i = 0; i < BENCH_HTAB_SAMPLE; i++) {
		uint64_t r = bench_htab_random(&rng);
		uint64_t odd = 1u + 2u * ((r & 0xffffffffu) *
						  (BENCH_HTAB_UNIVERSE / 2u) >>
					  32);
		uint64_t even =
			2u +
			2u * ((r >> 32) * (BENCH_HTAB_UNIVERSE / 2u) >> 32);
		uint64_t v = a->lookup(table, odd);
		if (v != bench_htab_value(odd))
			fail(res, "pre-check: key %llu (present) gave %llu",
			     (unsigned long long)odd, (unsigned long long)v);
		v = a->lookup(table, even);
		if (v != 0)
			fail(res, "pre-check: key %llu (absent) gave %llu",
			     (unsigned long long)even, (unsigned long long)v);
	}
	if (a->audit != NULL) {
		const char *msg = a->audit(table);
		if (msg != NULL)
			fail_text(res, "pre-check audit", msg);
	}
}

/* After the join: add up the threads and check the books. */
static void settle(const struct bench_htab_adapter *a, void *table,
		   const struct bench_htab_config *cfg,
		   const struct bench_htab_thread *th,
		   struct bench_htab_result *res)
{
	const struct bench_htab_workload_info *w = &workloads[cfg->workload];

	for (unsigned i = 0; i < cfg->threads; i++) {
		const struct bench_htab_thread *t = &th[i];
		res->ops += t->ops;
		res->lookups += t->lookups;
		res->hits += t->hits;
		res->inserts += t->inserts;
		res->inserts_existing += t->inserts_existing;
		res->removes += t->removes;
		res->removes_missing += t->removes_missing;
		res->evictions += t->evictions;
		if (t->errors != 0) {
			if (res->errors == 0)
				snprintf(res->error, sizeof(res->error),
					 "thread %u: %s (%llu times)", i,
					 t->error,
					 (unsigned long long)t->errors);
			res->errors += t->errors;
		}
	}
	if (a->evictions != NULL)
		res->evictions = a->evictions(table);
	res->entries_after = a->count(table);

	uint64_t want = res->entries_before + res->inserts - res->removes -
			res->evictions;
	if (res->entries_after != want)
		fail(res, "books: %llu entries, expected %llu",
		     (unsigned long long)res->entries_after,
		     (unsigned long long)want);
	if (w->churn) {
		/* grain_htab evicts at unlock, and its watermark checks see
		 * the byte total through the folding lag (htab.h, section 3:
		 * under mem_high / 64 with the default batch), plus one entry
		 * per thread. */
		uint64_t slack =
			a->evictions != NULL
				? cfg->threads + BENCH_HTAB_CHURN_LIMIT / 64u
				: 0;
		if (res->entries_after > BENCH_HTAB_CHURN_LIMIT + slack ||
		    res->entries_after + slack < BENCH_HTAB_CHURN_LIMIT)
			fail(res, "churn: %llu entries, limit %llu",
			     (unsigned long long)res->entries_after,
			     BENCH_HTAB_CHURN_LIMIT);
	} else if (res->lookups >= 1000 && (res->hits * 4 < res->lookups ||
					    res->hits * 4 > res->lookups * 3)) {
		fail(res, "lookups: %llu hits of %llu",
		     (unsigned long long)res->hits,
		     (unsigned long long)res->lookups);
	}
	if (a->audit != NULL) {
		const char *msg = a->audit(table);
		if (msg != NULL)
			fail_text(res, "audit after the run", msg);
	}
}

int bench_htab_run(enum bench_htab_impl impl,
		   const struct bench_htab_config *cfg,
		   struct bench_htab_result *res)
{
	if (!bench_htab_config_ok(impl, cfg) || res == NULL)
		return -EINVAL;
	const struct bench_htab_adapter *a = adapter_of(impl);
	const struct bench_htab_workload_info *w = &workloads[cfg->workload];
	const unsigned n = cfg->threads, nproc = bench_nproc();
	const bool pin = n <= nproc;

	memset(res, 0, sizeof(*res));
	struct bench_htab_shared *s = aligned_alloc(
		GRAIN_CACHELINE, sizeof(struct bench_htab_shared));
	struct bench_htab_thread *th = aligned_alloc(
		GRAIN_CACHELINE, n * sizeof(struct bench_htab_thread));
	pthread_t *tid = calloc(n, sizeof(pthread_t));
	if (s == NULL || th == NULL || tid == NULL) {
		free(s);
		free(th);
		free(tid);
		return -ENOMEM;
	}
	memset(s, 0, sizeof(*s));
	memset(th, 0, n * sizeof(*th));
	bench_gate_init(&s->gate);
	s->cfg = *cfg;
	s->lookup_below = ((uint64_t)w->lookup_pct << 32) / 100u;
	s->insert_below =
		((uint64_t)(w->lookup_pct + w->insert_pct) << 32) / 100u;

	if (a->rcu)
		grain_rcu_register_thread();
	double t_setup = bench_now_s();
	int rc = a->create(&s->table, impl, cfg->workload);
	if (rc != 0)
		goto out_free;
	set_up(a, s->table, res);
	res->setup_seconds = bench_now_s() - t_setup;
	if (res->errors != 0) {
		/* The table is wrong before any thread ran: no run. */
		a->destroy(s->table);
		rc = 0;
		goto out_free;
	}

	for (unsigned i = 0; i < n; i++) {
		th[i].s = s;
		th[i].index = i;
		th[i].seed =
			grain_hash_mix64(cfg->seed * BENCH_HTAB_MAX_THREADS +
					 i + 1u) |
			1u;
		th[i].main = a->worker[cfg->workload];
		th[i].adapter = a;
	}
	unsigned started;
	rc = bench_spawn_all(tid, n, pin, who, th, &started);
	if (rc != 0) {
		bench_gate_abandon(&s->gate, tid, started);
		a->destroy(s->table);
		goto out_free;
	}

	res->seconds = bench_gate_timed(&s->gate, n, cfg->duration_ms, NULL);
	for (unsigned i = 0; i < n; i++)
		pthread_join(tid[i], NULL);

	settle(a, s->table, cfg, th, res);
	res->ops_per_sec = res->seconds > 0 ? (double)res->ops / res->seconds
					    : 0.0;
	res->pinned = pin;
	a->destroy(s->table);
	rc = 0;

out_free:
	if (a->rcu)
		grain_rcu_unregister_thread();
	free(tid);
	free(th);
	free(s);
	return rc;
}
