/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prio_pfifo.c - the pfifo_list baseline kinds of instr_ops:
 * bench/prio/baselines/pfifo_list.c's put and gets in the prio loop
 * (linked: interprocedural optimisation inlines them).
 */
#include "instr.h"

INSTR_PRIO_RUN(instr_prio_pfifo_single, 1, prio_pfifo_put,
	       prio_pfifo_get_single)
INSTR_PRIO_RUN(instr_prio_pfifo_burst32, INSTR_ROUND, prio_pfifo_put,
	       prio_pfifo_get_burst)
