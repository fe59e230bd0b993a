/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_version.c - the version the headers state (GRAIN_VERSION_*), the
 * one the library reports (grain_version()) and the CMake project version
 * (GRAIN_TEST_PROJECT_VERSION, given by test/CMakeLists.txt) are the same.
 */
#include <grain/grain.h>

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#ifndef GRAIN_TEST_PROJECT_VERSION
#error "test/CMakeLists.txt defines GRAIN_TEST_PROJECT_VERSION"
#endif

Test(version, string_is_the_project_version)
{
	cr_assert_str_eq(GRAIN_VERSION_STRING, GRAIN_TEST_PROJECT_VERSION);
}

Test(version, parts_make_the_string)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%d.%d.%d", GRAIN_VERSION_MAJOR,
		 GRAIN_VERSION_MINOR, GRAIN_VERSION_PATCH);
	cr_assert_str_eq(buf, GRAIN_VERSION_STRING);
}

Test(version, library_reports_the_header_version)
{
	const char *v = grain_version();

	cr_assert_not_null(v);
	cr_assert_str_eq(v, GRAIN_VERSION_STRING);
	/* The same static string every time. */
	cr_assert_eq(grain_version(), v);
}
