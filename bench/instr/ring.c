/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring.c - the ring kinds of instr_ops: the calls of bench/ring/adapters'
 * grain_adapter.c, baselines_adapter.c and (when ConcurrencyKit was found)
 * ck_adapter.c, in instr_ring_loop(). The adapters' files are included,
 * not linked, because their put/get functions are static.
 */
#include "../ring/adapters/grain_adapter.c"
#include "../ring/adapters/baselines_adapter.c"
#ifdef GRAIN_BENCH_HAVE_CK
#include "../ring/adapters/ck_adapter.c"
#endif

#include "instr.h"

INSTR_RING_RUN(instr_ring_grain_single, 1, put_one, get_one)
INSTR_RING_RUN(instr_ring_grain_bulk32, INSTR_ROUND, put_bulk, get_burst)
INSTR_RING_RUN(instr_ring_mutex_single, 1, mutex_put_one, mutex_get_one)
INSTR_RING_RUN(instr_ring_mutex_bulk32, INSTR_ROUND, mutex_put_bulk,
	       mutex_get_burst)
INSTR_RING_RUN(instr_ring_twolock_single, 1, twolock_put_one, twolock_get_one)
INSTR_RING_RUN(instr_ring_twolock_bulk32, INSTR_ROUND, twolock_put_bulk,
	       twolock_get_burst)
#ifdef GRAIN_BENCH_HAVE_CK
INSTR_RING_RUN(instr_ring_ck_single, 1, ck_put, ck_get)
#endif
