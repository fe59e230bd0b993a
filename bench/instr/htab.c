/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab.c - the htab kinds of instr_ops: the calls of bench/htab/adapters'
 * grain_adapter.c (locked lookups, RCU lookups; inserts and removes are
 * the same calls for both) and baselines_adapter.c, in instr_htab_loop().
 * The adapters' files are included, not linked, because most of their
 * functions are static.
 */
#include "../htab/adapters/grain_adapter.c"
#include "../htab/adapters/baselines_adapter.c"

#include "instr.h"

#define INSTR_HTAB_RUNS(prefix, lookup, insert, remove)                       \
	INSTR_HTAB_RUN(prefix##_insert, INSTR_INSERT, lookup, insert, remove) \
	INSTR_HTAB_RUN(prefix##_lookup, INSTR_LOOKUP, lookup, insert, remove) \
	INSTR_HTAB_RUN(prefix##_remove, INSTR_REMOVE, lookup, insert, remove)

INSTR_HTAB_RUNS(instr_htab_grain, grain_lookup_locked, bench_htab_grain_insert,
		bench_htab_grain_remove)
INSTR_HTAB_RUNS(instr_htab_grain_rcu, grain_lookup_rcu, bench_htab_grain_insert,
		bench_htab_grain_remove)
INSTR_HTAB_RUNS(instr_htab_mutex, mutex_lookup, mutex_insert, mutex_remove)
INSTR_HTAB_RUNS(instr_htab_striped, striped_lookup, striped_insert,
		striped_remove)
INSTR_HTAB_CHURN_RUN(instr_htab_grain_churn, bench_htab_grain_churn)
INSTR_HTAB_CHURN_RUN(instr_htab_mutex_churn, mutex_churn)
