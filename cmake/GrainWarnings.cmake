# SPDX-License-Identifier: BSD-2-Clause
# GrainWarnings.cmake - the warning flags of grain's own targets.
#
#   grain_target_warnings(<target> [CONVERSION])
#
# Adds -Wall -Wextra -Wpedantic to <target> (PRIVATE, so nothing leaks to
# users of the target), and -Wconversion with CONVERSION (the library
# sources and public headers are clean with it; test and benchmark code
# need not be). With GRAIN_WERROR the target's warnings are errors, through
# the COMPILE_WARNING_AS_ERROR property, which `cmake --build` can override
# with --compile-no-warning-as-error.

include_guard(GLOBAL)

function(grain_target_warnings target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "CONVERSION" "" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "grain_target_warnings: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()

  set(gnu_like "$<OR:$<COMPILE_LANG_AND_ID:C,GNU,Clang,AppleClang>,$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>>")
  target_compile_options(${target} PRIVATE
    "$<${gnu_like}:-Wall;-Wextra;-Wpedantic>")
  if(arg_CONVERSION)
    target_compile_options(${target} PRIVATE
      "$<${gnu_like}:-Wconversion>")
  endif()
  if(GRAIN_WERROR)
    set_target_properties(${target} PROPERTIES
      COMPILE_WARNING_AS_ERROR ON)
  endif()
endfunction()
