# SPDX-License-Identifier: BSD-2-Clause
# check_inline.cmake - run with cmake -DNM=... -DEXE=... -P: fails if the
# symbol table of EXE (test/ring/inline_mode.c, built at -O2, with or
# without GRAIN_RING_INLINE_MODE) holds a copy of one of grain_ring's
# copying calls, local or global: each call site must have had the path
# inlined. The out-of-line copy of the other modes' paths
# (grain_impl_ring_*_other) is expected.
execute_process(COMMAND "${NM}" "${EXE}" OUTPUT_VARIABLE syms
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${EXE} failed: ${rc}")
endif()
string(REGEX MATCHALL
  "[ \t][tT] grain_ring_try_(enqueue|dequeue)(_bulk|_burst)?(\\.[a-z0-9.]+)?\n"
  copies "${syms}")
if(copies)
  message(FATAL_ERROR "out-of-line copies of the ring's calls: ${copies}")
endif()
if(NOT syms MATCHES "grain_ring_create")
  message(FATAL_ERROR "no symbol table read from ${EXE}")
endif()
message(STATUS "no out-of-line copy of grain_ring's copying calls")
