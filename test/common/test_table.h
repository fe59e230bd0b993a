/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_table.h - the one spelling of a table-driven Criterion test: a
 * static array of rows, TABLE_PARAMS() naming it as the test's
 * parameters, and ParameterizedTest() taking a pointer to one row.
 *
 *	static const struct load_case load_cases[] = { ... };
 *	TABLE_PARAMS(htab_resize, max_load, load_cases);
 *	ParameterizedTest(const struct load_case *c, htab_resize, max_load)
 *	{
 *		...
 *	}
 *
 * Criterion may run each row in a process of its own and hands the row
 * over as bytes: a row holds values, not pointers into the test's memory
 * (a name is an array of char, not a char *), unless what it points to is
 * static and the same in every process.
 */
#ifndef GRAIN_TEST_TABLE_H
#define GRAIN_TEST_TABLE_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

/* One row, in a macro that makes several (a cross product of a few
 * values): { __VA_ARGS__ }. */
/* clang-format off */
#define TABLE_ROW(...) { __VA_ARGS__ }
/* clang-format on */

/* The number of rows of the array @a. */
#define TABLE_ROWS(a) (sizeof(a) / sizeof((a)[0]))

/* The parameters of test @name of @suite: one run per row of @table, an
 * array (not a pointer) of at least one row. The ';' after it is part of
 * the spelling. */
#define TABLE_PARAMS(suite, name, table)                           \
	ParameterizedTestParameters(suite, name)                   \
	{                                                          \
		return cr_make_param_array(__typeof__((table)[0]), \
					   (void *)(table),        \
					   TABLE_ROWS(table));     \
	}                                                          \
	_Static_assert(TABLE_ROWS(table) > 0, #table " has rows")

#endif /* GRAIN_TEST_TABLE_H */
