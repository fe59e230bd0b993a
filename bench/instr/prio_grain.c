/* SPDX-License-Identifier: BSD-2-Clause */
/* prio_grain.c - the grain_prio kinds of instr_ops: the calls of
 * bench/prio/adapters/grain_adapter.c, included (they are static). */
#include "../prio/adapters/grain_adapter.c"

#include "instr.h"

INSTR_PRIO_RUN(instr_prio_grain_single, 1, prio_grain_put,
	       prio_grain_get_single)
INSTR_PRIO_RUN(instr_prio_grain_burst32, INSTR_ROUND, prio_grain_put,
	       prio_grain_get_burst)
