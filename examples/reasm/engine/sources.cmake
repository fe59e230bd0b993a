# SPDX-License-Identifier: BSD-2-Clause
# The reassembly engine's sources, relative to this folder: one list for
# the reasm_engine library (examples/reasm/CMakeLists.txt) and for the
# fuzz target, which compiles them again with its own instrumentation.
set(REASM_ENGINE_SOURCES
  engine.c
  stats.c)
