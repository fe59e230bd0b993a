/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prio_pfifo.c - the pfifo_list baseline kinds of instr_ops: bench/prio/
 * adapters/baselines_adapter.c's put and gets in instr_prio_loop() (the
 * file is included, not linked: they are static).
 */
#include "../prio/adapters/baselines_adapter.c"

#include "instr.h"

INSTR_PRIO_RUN(instr_prio_pfifo_single, 1, put, get_single)
INSTR_PRIO_RUN(instr_prio_pfifo_burst32, INSTR_ROUND, put, get_burst)
