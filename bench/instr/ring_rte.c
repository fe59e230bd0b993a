/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring_rte.c - the rte_ring kinds of instr_ops: bench/ring/adapters/
 * rte_adapter.c's MP/MC calls in instr_ring_loop(), compiled, as that
 * adapter is for the benchmark, with the flags of pkg-config libdpdk.
 */
#include "../ring/adapters/rte_adapter.c"

#include "instr.h"

INSTR_RING_RUN(instr_ring_rte_single, 1, rte_put_one, rte_get_one)
INSTR_RING_RUN(instr_ring_rte_bulk32, INSTR_ROUND, rte_put_bulk, rte_get_burst)
