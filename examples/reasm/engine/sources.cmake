# SPDX-License-Identifier: BSD-2-Clause
# The reassembly engine's sources, relative to this folder: one list for
# the reasm_engine library (examples/reasm/CMakeLists.txt) and for the
# fuzz target, which compiles them again with its own instrumentation.
#
# REASM_ENGINE_LAYERS  the layers, each a file (engine.c says which does
#                      what) sharing engine_int.h
# REASM_ENGINE_SOURCES what the library compiles: the layers as one
#                      translation unit (engine_unit.c) and stats.c
set(REASM_ENGINE_LAYERS
  engine.c
  fragq.c
  output.c
  parse.c
  table.c)
set(REASM_ENGINE_SOURCES
  engine_int.h
  engine_unit.c
  stats.c)
