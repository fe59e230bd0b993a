# SPDX-License-Identifier: BSD-2-Clause
# GrainInstall.cmake - install rules, the CMake package, grain.pc and
# grain-htab.pc.
#
# Installs:
#   <includedir>/grain/*.h, <includedir>/grain/impl/*.h,
#                        <includedir>/grain/grain.hpp (the C++ layer)
#   <libdir>/libgrain.so.<version> (SONAME libgrain.so.<major>.<minor> while
#                        the major is 0, then libgrain.so.<major>), libgrain.a
#   <libdir>/libgrain-htab.so.<version> (SONAME likewise), libgrain-htab.a
#   <libdir>/cmake/grain/grainConfig.cmake, grainConfigVersion.cmake,
#                        grainTargets*.cmake   (grain::grain, grain::htab,
#                        grain::grain_static, grain::htab_static)
#   <libdir>/pkgconfig/grain.pc, grain-htab.pc
#   <docdir>/examples/   ring_pipeline.c, prio_scheduler.c, htab_cache.c,
#                        with a CMakeLists.txt (find_package) and a Makefile
#                        (pkg-config) that build them there
#   <datadir>/grain/tsan.supp  ThreadSanitizer suppressions for liburcu
#                        (test/tsan.supp; README.md, "Using grain under
#                        sanitizers")
#
# Without grain_htab (GRAIN_HTAB off) nothing of libgrain-htab: see below.
#
# Components: Runtime (the shared library), Development (everything else).

include_guard(GLOBAL)

include(CMakePackageConfigHelpers)

set(GRAIN_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/grain"
  CACHE STRING "Where grainConfig.cmake is installed, below the prefix")
mark_as_advanced(GRAIN_INSTALL_CMAKEDIR)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/grain"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  COMPONENT Development
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")

# The three short example programs, with the files that build them
# against this installed grain (examples/install/).
install(FILES
  "${PROJECT_SOURCE_DIR}/examples/ring_pipeline/ring_pipeline.c"
  "${PROJECT_SOURCE_DIR}/examples/prio_scheduler/prio_scheduler.c"
  "${PROJECT_SOURCE_DIR}/examples/htab_cache/htab_cache.c"
  "${PROJECT_SOURCE_DIR}/examples/install/CMakeLists.txt"
  "${PROJECT_SOURCE_DIR}/examples/install/Makefile"
  DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples"
  COMPONENT Development)

# Without grain_htab (GRAIN_HTAB off: GRAIN_BUILD_HTAB=OFF, or no
# liburcu) libgrain-htab, grain-htab.pc and grain::htab are not installed.
# The headers all are: grain.h includes htab.h, whose declarations are
# harmless without the library (a program that calls them does not link).
set(grain_install_targets grain grain_static)
set(grain_install_pcs grain)
if(GRAIN_HTAB)
  list(APPEND grain_install_targets grain_htab grain_htab_static)
  list(APPEND grain_install_pcs grain-htab)
endif()
install(TARGETS ${grain_install_targets}
  EXPORT grainTargets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    COMPONENT Runtime
    NAMELINK_COMPONENT Development
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    COMPONENT Development
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
    COMPONENT Runtime)

# A program run under ThreadSanitizer against grain_htab needs these for
# liburcu, which is not instrumented; grain's own tests use the same file.
install(FILES "${PROJECT_SOURCE_DIR}/test/tsan.supp"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/grain"
  COMPONENT Development)

install(EXPORT grainTargets
  NAMESPACE grain::
  DESTINATION "${GRAIN_INSTALL_CMAKEDIR}"
  COMPONENT Development)

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/grainConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/grainConfig.cmake"
  INSTALL_DESTINATION "${GRAIN_INSTALL_CMAKEDIR}")
# Compatible versions follow the SONAME: while the major version is 0 a
# minor version may break the ABI, so find_package(grain 0.2) accepts 0.2.x
# only; from 1.0 on, any later version with the same major.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(grain_compatibility SameMinorVersion)
else()
  set(grain_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/grainConfigVersion.cmake"
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY ${grain_compatibility})
install(FILES
  "${PROJECT_BINARY_DIR}/grainConfig.cmake"
  "${PROJECT_BINARY_DIR}/grainConfigVersion.cmake"
  DESTINATION "${GRAIN_INSTALL_CMAKEDIR}"
  COMPONENT Development)

# grain.pc (the core) and grain-htab.pc (grain_htab; it requires grain)
# hold absolute paths (the CMAKE_INSTALL_FULL_* directories). They
# are worked out when the files are installed, not when the project is
# configured, so that `cmake --install <build> --prefix <dir>` writes a
# grain.pc that points into <dir>. DESTDIR is honoured by file(INSTALL).
file(CONFIGURE
  OUTPUT "${PROJECT_BINARY_DIR}/grainInstallPkgConfig.cmake"
  CONTENT [==[
# Generated from cmake/GrainInstall.cmake: installs grain.pc and
# grain-htab.pc.
set(CMAKE_INSTALL_LIBDIR [[@CMAKE_INSTALL_LIBDIR@]])
set(CMAKE_INSTALL_INCLUDEDIR [[@CMAKE_INSTALL_INCLUDEDIR@]])
foreach(dir IN ITEMS LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(CMAKE_INSTALL_FULL_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(CMAKE_INSTALL_FULL_${dir}
      "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(PROJECT_VERSION [[@PROJECT_VERSION@]])
set(PROJECT_DESCRIPTION [[@PROJECT_DESCRIPTION@]])
set(grain_src [[@PROJECT_SOURCE_DIR@]])
set(grain_bin [[@PROJECT_BINARY_DIR@]])
foreach(pc IN ITEMS @grain_install_pcs@)
  configure_file("${grain_src}/cmake/${pc}.pc.in"
    "${grain_bin}/pkgconfig/${pc}.pc" @ONLY)
  file(INSTALL DESTINATION "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig"
    TYPE FILE FILES "${grain_bin}/pkgconfig/${pc}.pc")
endforeach()
]==]
  @ONLY)
install(SCRIPT "${PROJECT_BINARY_DIR}/grainInstallPkgConfig.cmake"
  COMPONENT Development)
