/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab.c - the htab kinds of instr_ops: the calls of bench/htab/adapters/
 * grain_adapter.c (locked lookups, RCU lookups; inserts and removes are
 * the same calls for both), included because most of them are static,
 * and of bench/htab/baselines, linked.
 */
#include "../htab/adapters/grain_adapter.c"

#include "instr.h"

#define INSTR_HTAB_RUNS(prefix, lookup, insert, remove)                       \
	INSTR_HTAB_RUN(prefix##_insert, INSTR_INSERT, lookup, insert, remove) \
	INSTR_HTAB_RUN(prefix##_lookup, INSTR_LOOKUP, lookup, insert, remove) \
	INSTR_HTAB_RUN(prefix##_remove, INSTR_REMOVE, lookup, insert, remove)

INSTR_HTAB_RUNS(instr_htab_grain, grain_lookup_locked, bench_htab_grain_insert,
		bench_htab_grain_remove)
INSTR_HTAB_RUNS(instr_htab_grain_rcu, grain_lookup_rcu, bench_htab_grain_insert,
		bench_htab_grain_remove)
INSTR_HTAB_RUNS(instr_htab_mutex, bench_htab_mutex_lookup,
		bench_htab_mutex_insert, bench_htab_mutex_remove)
INSTR_HTAB_RUNS(instr_htab_striped, bench_htab_striped_lookup,
		bench_htab_striped_insert, bench_htab_striped_remove)
INSTR_HTAB_CHURN_RUN(instr_htab_grain_churn, bench_htab_grain_churn)
INSTR_HTAB_CHURN_RUN(instr_htab_mutex_churn, bench_htab_mutex_churn)
