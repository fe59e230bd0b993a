/* SPDX-License-Identifier: BSD-2-Clause */
/* layout.c - C's view of the shared types' layout (layout.h). */
#include "layout.h"

#include <stdalign.h>

size_t grain_test_layout_c(size_t *out, size_t n)
{
#define GRAIN_TEST_FACT(e) (e),
	const size_t facts[] = { GRAIN_TEST_LAYOUT(GRAIN_TEST_FACT) };
#undef GRAIN_TEST_FACT
	const size_t count = sizeof(facts) / sizeof(facts[0]);

	for (size_t i = 0; i < n && i < count; i++)
		out[i] = facts[i];
	return count;
}
