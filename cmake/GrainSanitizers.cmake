# SPDX-License-Identifier: BSD-2-Clause
# GrainSanitizers.cmake - GRAIN_SANITIZE: build everything with a sanitizer.
#
#   GRAIN_SANITIZE=""       none
#   GRAIN_SANITIZE=thread   ThreadSanitizer
#   GRAIN_SANITIZE=address  AddressSanitizer (with LeakSanitizer) and
#                           UndefinedBehaviorSanitizer; every report is fatal
#
# The flags go to every target defined after this module is included
# (library, tests, benchmarks, examples), at compile and at link time.
# GRAIN_SANITIZE_FLAGS holds them for code built outside this tree (the
# install test builds a consumer program with them).

include_guard(GLOBAL)

set(GRAIN_SANITIZE_FLAGS "")
if(GRAIN_SANITIZE STREQUAL "thread")
  set(GRAIN_SANITIZE_FLAGS -fsanitize=thread)
elseif(GRAIN_SANITIZE STREQUAL "address")
  set(GRAIN_SANITIZE_FLAGS
    -fsanitize=address,undefined
    -fno-sanitize-recover=all
    -fno-omit-frame-pointer)
elseif(NOT GRAIN_SANITIZE STREQUAL "")
  message(FATAL_ERROR "GRAIN_SANITIZE must be empty, \"thread\" or "
    "\"address\", not \"${GRAIN_SANITIZE}\"")
endif()

if(GRAIN_SANITIZE_FLAGS)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "^(GNU|Clang|AppleClang)$")
    message(FATAL_ERROR "GRAIN_SANITIZE needs GCC or Clang")
  endif()
  add_compile_options(${GRAIN_SANITIZE_FLAGS})
  add_link_options(${GRAIN_SANITIZE_FLAGS})
  message(STATUS "grain: sanitizer: ${GRAIN_SANITIZE_FLAGS}")
endif()
