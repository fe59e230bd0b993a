/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_qsbr_adapter.c - grain-qsbr/256: grain-rcu/256's table with
 * liburcu's qsbr flavour (config.flavor = &urcu_qsbr_flavor).
 *
 * A qsbr read-side section costs nothing; in exchange every registered
 * thread announces a quiescent state now and then, as a daemon does once
 * per turn of its event loop. Here each worker announces one every
 * QSBR_PERIOD operations (lookups, inserts, removes and churn inserts
 * alike), and that call is part of the measured cost. Workers register in
 * their own thread; main, which populates and checks the table alone,
 * stays unregistered, so it never holds a grace period back, and its
 * lookups announce nothing. Everything else is grain_adapter.c's.
 */
#define _LGPL_SOURCE /* the read side inline, as a daemon would use it */
#include "grain_item.h"

#include <urcu/urcu-qsbr.h>

#define QSBR_PERIOD 64u

static _Thread_local unsigned qsbr_ops;

/* Returns @rc, after the quiescent state that is due. */
static inline int qsbr_tick(int rc)
{
	if (++qsbr_ops == QSBR_PERIOD) {
		qsbr_ops = 0;
		urcu_qsbr_quiescent_state();
	}
	return rc;
}

static int qsbr_create(void **tablep, enum bench_htab_impl impl,
		       enum bench_htab_workload w)
{
	return bench_htab_grain_create(tablep, impl, w, &urcu_qsbr_flavor);
}

/* main's checks, alone on the table and not registered with qsbr: a
 * lookup that announces nothing. */
static uint64_t qsbr_check_lookup(void *table, uint64_t key)
{
	urcu_qsbr_read_lock();
	struct grain_hnode *n =
		grain_htab_lookup_fast(table, &key, item_params);
	uint64_t v = n != NULL ? item_of(n)->value : 0;
	urcu_qsbr_read_unlock();
	return v;
}

static uint64_t qsbr_lookup(void *table, uint64_t key)
{
	uint64_t v = qsbr_check_lookup(table, key);

	qsbr_tick(0);
	return v;
}

static int qsbr_insert(void *table, uint64_t key)
{
	return qsbr_tick(bench_htab_grain_insert(table, key));
}

static int qsbr_remove(void *table, uint64_t key)
{
	return qsbr_tick(bench_htab_grain_remove(table, key));
}

static int qsbr_churn(void *table, uint64_t key, uint64_t now)
{
	return qsbr_tick(bench_htab_grain_churn(table, key, now));
}

static void qsbr_enter(void)
{
	qsbr_ops = 0;
	urcu_qsbr_register_thread();
}

/* Not through BENCH_HTAB_ADAPTER(): main populates, unregistered, with
 * grain's insert, which announces nothing. */
static int qsbr_populate(void *table, uint64_t key)
{
	return bench_htab_fresh(bench_htab_grain_insert(table, key));
}

BENCH_THREAD_FN(qsbr_mixed, bench_htab_mixed, qsbr_lookup, qsbr_insert,
		qsbr_remove)
BENCH_THREAD_FN(qsbr_churn_worker, bench_htab_churn, qsbr_churn)

const struct bench_htab_adapter bench_htab_adapter_grain_qsbr = {
	.create = qsbr_create,
	.destroy = bench_htab_grain_destroy,
	.populate = qsbr_populate,
	.lookup = qsbr_check_lookup,
	.remove = bench_htab_grain_remove, /* main's probe, as populate */
	.count = bench_htab_grain_count,
	.evictions = bench_htab_grain_evictions,
	.audit = bench_htab_grain_audit,
	.mixed = qsbr_mixed,
	.churn = qsbr_churn_worker,
	.thread_enter = qsbr_enter,
	.thread_exit = urcu_qsbr_unregister_thread,
};
