# SPDX-License-Identifier: BSD-2-Clause
# man-pages.cmake - keep the man pages of Doxygen's output that carry
# grain's names, for installing (cmake -DIN=<doxygen man3> -DOUT=<dir> -P).
#
# Kept: the pages named grain_* and GRAIN_* (calls, types, macros, enum
# values: most are one-line .so links to their header's page) and the
# header pages, renamed from <h>.h.3 to grain_<h>.h.3 (grain.h.3 keeps its
# name), with the links pointed at the new names. Left out: the link pages
# of struct members (alloc.3, free.3, state.3, ...), whose names belong to
# other packages.
if(NOT IN OR NOT OUT)
  message(FATAL_ERROR "man-pages.cmake: IN and OUT must be set")
endif()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

file(GLOB headers RELATIVE "${IN}" "${IN}/*.h.3")
set(renames "")
foreach(page IN LISTS headers)
  if(page MATCHES "^grain")
    set(new "${page}")
  else()
    set(new "grain_${page}")
  endif()
  list(APPEND renames "${page}=${new}")
endforeach()

file(GLOB pages RELATIVE "${IN}" "${IN}/grain_*.3" "${IN}/GRAIN_*.3"
  "${IN}/*.h.3")
foreach(page IN LISTS pages)
  file(READ "${IN}/${page}" text)
  set(name "${page}")
  foreach(pair IN LISTS renames)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 from)
    list(GET pair 1 to)
    string(REPLACE ".so man3/${from}" ".so man3/${to}" text "${text}")
    if(page STREQUAL from)
      set(name "${to}")
    endif()
  endforeach()
  file(WRITE "${OUT}/${name}" "${text}")
endforeach()
list(LENGTH pages count)
message(STATUS "man pages: ${count} in ${OUT}")
