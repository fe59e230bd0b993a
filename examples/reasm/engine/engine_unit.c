/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine_unit.c - the engine as the library compiles it: every layer in
 * one translation unit, the calls between them static (REASM_INTERNAL,
 * engine_int.h). The order is the input path's, from the top.
 */
#define _GNU_SOURCE
#define REASM_INTERNAL static

#include "engine.c"
#include "parse.c"
#include "table.c"
#include "fragq.c"
#include "output.c"
