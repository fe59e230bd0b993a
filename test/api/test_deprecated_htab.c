/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_deprecated_htab.c - the grain_htab names of 0.5 still work:
 * grain_htab_stats() fills what grain_htab_get_stats() fills, and
 * grain_htab_config.rcu_flavor is grain_htab_config.flavor (included, as a
 * program of 0.5 did, with no liburcu flavour header, so that rcu_flavor
 * is not liburcu's macro). (The deprecation warnings are what the aliases
 * are for; this file alone turns them off.)
 */
#include "../htab/htab_test.h"

#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

Test(deprecated, htab_stats_and_rcu_flavor)
{
	struct ledger l;
	struct obj o[3];
	struct grain_htab *h = NULL;

	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, GRAIN_HTAB_NO_RCU);
	cr_assert_eq(offsetof(struct grain_htab_config, rcu_flavor),
		     offsetof(struct grain_htab_config, flavor),
		     "one field, two names");
	c.rcu_flavor = NULL; /* the default flavour, by the old name */
	cr_assert_null(c.flavor);
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	for (unsigned i = 0; i < 3; i++) {
		obj_init(&o[i], i);
		cr_assert_eq(grain_htab_insert(h, &o[i].node, &o[i].key, 0, 1),
			     0);
	}

	struct grain_htab_stats old_st, new_st;
	memset(&old_st, 0xff, sizeof(old_st));
	grain_htab_stats(h, &old_st);
	grain_htab_get_stats(h, &new_st);
	cr_assert_eq(old_st.entries, 3);
	cr_assert_eq(memcmp(&old_st, &new_st, sizeof(old_st)), 0,
		     "the old name fills what the new one fills");
	grain_htab_stats(h, NULL); /* NULL-safe, as the new call */
	grain_htab_destroy(h);
}
