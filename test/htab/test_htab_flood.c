/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_flood.c - hash flooding. Keys chosen to collide under an
 * unkeyed hash (here the identity: every key shares its low and high bits,
 * so one stripe and one bucket) fill one chain, and the depth limit holds
 * there; the same keys under the table's keyed SipHash spread out.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "htab_test.h"

#define FLOOD 2000u

static struct grain_htab *make(const struct grain_htab_config *c)
{
	struct grain_htab *h = NULL;

	cr_assert_eq(grain_htab_create(&h, c, NULL), 0);
	return h;
}

static bool present(struct grain_htab *h, uint64_t key)
{
	struct grain_htab_scope s;

	grain_htab_lock(h, &key, &s);
	bool found = grain_htab_find_locked(&s, &key) != NULL;
	grain_htab_unlock(&s);
	return found;
}

/* Keys that differ only in bits 32..47: the identity hash puts all of them
 * in bucket 0 of stripe 0 for any table of at most 2^32 buckets per stripe
 * and 2^16 stripes. */
static uint64_t flood_key(unsigned i)
{
	return (uint64_t)(i + 1) << 32;
}

static void flood(struct grain_htab *h, struct obj *o, unsigned *inserted,
		  unsigned *refused)
{
	*inserted = *refused = 0;
	for (unsigned i = 0; i < FLOOD; i++) {
		uint64_t k = flood_key(i);
		obj_init(&o[i], k);
		int rc = grain_htab_insert(h, &o[i].node, &k, i, 1);
		if (rc == 0)
			(*inserted)++;
		else if (rc == -EMLINK)
			(*refused)++;
		else
			cr_assert_fail("insert %u: %d", i, rc);
	}
}

Test(htab_flood, unkeyed_collides_and_depth_limit_holds, .timeout = 60)
{
	static struct ledger l;
	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, GRAIN_HTAB_NO_RCU);
	c.ops.hash = hash_ident;
	c.max_chain = 16;
	struct grain_htab *h = make(&c);
	struct obj *o = calloc(FLOOD, sizeof(*o));
	unsigned inserted, refused;

	cr_assert_not_null(o);
	flood(h, o, &inserted, &refused);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(inserted, 16u, "one chain, capped at max_chain");
	cr_assert_eq(refused, FLOOD - 16u);
	cr_assert_eq(st.chain_refusals, (uint64_t)refused);
	cr_assert_leq(st.longest_chain, 16u);
	/* Growth stops at four buckets per entry: colliding keys cannot make
	 * the table allocate without bound. */
	cr_assert_leq(st.buckets, 63u * 16u + 4u * 16u);
	grain_htab_destroy(h);
	free(o);
}

Test(htab_flood, keyed_spreads, .timeout = 60)
{
	static struct ledger l;
	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, GRAIN_HTAB_NO_RCU);
	c.ops.hash = hash_sip; /* the table's random secret */
	c.max_chain = 16;
	struct grain_htab *h = make(&c);
	struct obj *o = calloc(FLOOD, sizeof(*o));
	unsigned inserted, refused;

	cr_assert_not_null(o);
	flood(h, o, &inserted, &refused);
	struct grain_htab_stats st = stats_of(h);
	cr_assert_eq(inserted, FLOOD, "every key finds room");
	cr_assert_eq(refused, 0u);
	cr_assert_eq(st.chain_refusals, 0u);
	/* 2000 keys over 64 stripes that grow at 2 per bucket: a chain of
	 * 12 is already far in the tail for a random hash. */
	cr_assert_leq(st.longest_chain, 12u, "longest chain %llu",
		      (unsigned long long)st.longest_chain);
	for (unsigned i = 0; i < FLOOD; i++)
		cr_assert(present(h, flood_key(i)), "key %u", i);
	grain_htab_destroy(h);
	free(o);
}
