/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_qsbr_adapter.c - grain-qsbr/256: the RCU table of grain-rcu/256
 * with liburcu's qsbr flavour (config.rcu_flavor = &urcu_qsbr_flavor).
 *
 * A qsbr read-side section costs nothing; in exchange every registered
 * thread announces a quiescent state now and then, as a daemon does once
 * per turn of its event loop. Here each worker announces one every
 * BENCH_HTAB_QSBR_PERIOD operations (lookups, inserts and removes alike),
 * and that call is part of the measured cost. Workers register in their
 * own thread (thread_enter); main, which populates and checks the table
 * alone, stays unregistered, so it never holds a grace period back.
 * Everything else (inserts, removes, churn, checks) is grain-rcu/256's.
 */
#define _LGPL_SOURCE /* the read side inline, as a daemon would use it */
#include "grain_item.h"
#include "harness.h"

#include <urcu/urcu-qsbr.h>

/* Operations between two quiescent states of a worker. */
#define BENCH_HTAB_QSBR_PERIOD 64u

static _Thread_local unsigned qsbr_ops;

static void qsbr_tick(void)
{
	if (++qsbr_ops == BENCH_HTAB_QSBR_PERIOD) {
		qsbr_ops = 0;
		urcu_qsbr_quiescent_state();
	}
}

static int qsbr_create(void **tablep, enum bench_htab_impl impl,
		       enum bench_htab_workload w)
{
	return bench_htab_grain_create(tablep, impl, w, &urcu_qsbr_flavor);
}

static uint64_t qsbr_lookup(void *table, uint64_t key)
{
	urcu_qsbr_read_lock();
	struct grain_hnode *n =
		grain_htab_lookup_fast(table, &key, item_params);
	uint64_t v = n != NULL ? item_of(n)->value : 0;
	urcu_qsbr_read_unlock();
	qsbr_tick();
	return v;
}

static int qsbr_insert(void *table, uint64_t key)
{
	int rc = bench_htab_grain_insert(table, key);
	qsbr_tick();
	return rc;
}

static int qsbr_remove(void *table, uint64_t key)
{
	int rc = bench_htab_grain_remove(table, key);
	qsbr_tick();
	return rc;
}

BENCH_THREAD_FN(qsbr_mixed_worker, bench_htab_mixed, qsbr_lookup, qsbr_insert,
		qsbr_remove)

/* Churn evicts into call_rcu on every insert: it ticks as well. */
static int qsbr_churn(void *table, uint64_t key, uint64_t now)
{
	int rc = bench_htab_grain_churn(table, key, now);
	qsbr_tick();
	return rc;
}

BENCH_THREAD_FN(qsbr_churn_worker, bench_htab_churn, qsbr_churn)

static void qsbr_enter(void)
{
	qsbr_ops = 0;
	urcu_qsbr_register_thread();
}

static void qsbr_exit(void)
{
	urcu_qsbr_unregister_thread();
}

const struct bench_htab_adapter bench_htab_adapter_grain_qsbr = {
	.create = qsbr_create,
	.destroy = bench_htab_grain_destroy,
	.populate = bench_htab_grain_populate,
	.lookup = qsbr_lookup,
	.count = bench_htab_grain_count,
	.evictions = bench_htab_grain_evictions,
	.audit = bench_htab_grain_audit,
	.worker = { [BENCH_HTAB_READ90] = qsbr_mixed_worker,
		    [BENCH_HTAB_MIX50] = qsbr_mixed_worker,
		    [BENCH_HTAB_CHURN] = qsbr_churn_worker },
	.thread_enter = qsbr_enter,
	.thread_exit = qsbr_exit,
};
