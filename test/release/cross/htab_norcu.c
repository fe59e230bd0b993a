/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_norcu.c - grain_htab on a 32-bit target
 * (test/release/cross/check-32bit.sh, CTest cross_32bit): a GRAIN_HTAB_NO_RCU
 * table, which never calls into liburcu, through the inline paths and the
 * library's cold paths alike: inserts into 4 stripes with growth, scoped
 * finds and touches, removes, a replace, eviction between byte watermarks,
 * expiry, a resize, a walk and the statistics, every result checked. Linked
 * with urcu_stub.c in place of liburcu, whose library exists here for the
 * host only. Exits 0 when every check passes.
 */
#include <grain/htab.h>

#include <stdio.h>
#include <stdlib.h>

#define KEYS 3000u
#define CHARGE 8u

struct entry {
	struct grain_hnode node;
	uint64_t key; /* a 64-bit key, 4-aligned on i386 if nothing says */
};

static unsigned failures, reclaimed, evicted, expired;

static void expect(int ok, const char *what, unsigned long long v)
{
	if (!ok) {
		fprintf(stderr, "htab_norcu: FAILED: %s (%llu)\n", what, v);
		failures++;
	}
}

static uint64_t hash(const void *key, const struct grain_hash_key *secret,
		     void *ctx)
{
	(void)ctx;
	return grain_siphash(key, sizeof(uint64_t), secret);
}

static bool eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	(void)ctx;
	return grain_container_of(n, const struct entry, node)->key ==
	       *(const uint64_t *)key;
}

static void unlinked(struct grain_hnode *n, enum grain_htab_reason why,
		     void *ctx)
{
	(void)n, (void)ctx;
	evicted += why == GRAIN_HTAB_EVICTED;
	expired += why == GRAIN_HTAB_EXPIRED;
}

static void reclaim(struct grain_hnode *n, enum grain_htab_reason why,
		    void *ctx)
{
	(void)why, (void)ctx;
	reclaimed++;
	free(grain_container_of(n, struct entry, node));
}

static int count(struct grain_htab_scope *s, struct grain_hnode *n, void *ctx)
{
	(void)s, (void)n;
	++*(unsigned *)ctx;
	return 0;
}

static struct entry *entry_new(uint64_t key)
{
	struct entry *e = calloc(1, sizeof(*e));

	if (e == NULL)
		exit(2);
	e->key = key;
	return e;
}

int main(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = hash,
			 .eq = eq,
			 .unlinked = unlinked,
			 .reclaim = reclaim },
		.stripes = 4,
		.buckets = 2,
		.flags = GRAIN_HTAB_NO_RCU,
		.ttl = 1000000,
		.mem_high = KEYS * CHARGE,
		.mem_low = (KEYS - 500) * CHARGE,
		.mem_batch = 1, /* exact totals: eviction at once */
	};
	struct grain_htab_stats st;
	struct grain_htab_scope s;
	struct grain_htab *h;
	uint64_t k;

	if (grain_htab_create(&h, &cfg, NULL) != 0) {
		fprintf(stderr, "htab_norcu: grain_htab_create failed\n");
		return 1;
	}
	/* Fill to mem_high exactly: the stripes grow from 2 buckets. */
	for (k = 0; k < KEYS; k++) {
		struct entry *e = entry_new(k);

		if (grain_htab_insert(h, &e->node, &e->key, k, CHARGE) != 0) {
			expect(0, "insert", k);
			free(e);
		}
	}
	grain_htab_get_stats(h, &st);
	expect(st.entries == KEYS, "entries after the fill", st.entries);
	expect(st.buckets > 4 * 2, "the stripes grew", st.buckets);
	expect(grain_htab_bytes_exact(h) == KEYS * CHARGE, "bytes",
	       grain_htab_bytes_exact(h));
	/* Scoped finds; keys below 100 touched (now the most recent). */
	for (k = 0; k < KEYS; k++) {
		struct grain_hnode *n;

		grain_htab_lock(h, &k, &s);
		n = grain_htab_find_locked(&s, &k);
		expect(n != NULL &&
			       grain_container_of(n, struct entry, node)->key ==
				       k,
		       "find", k);
		if (n != NULL && k < 100)
			expect(grain_htab_touch_locked(&s, n, KEYS + k) == 0 &&
				       grain_htab_node_stamp(n) == KEYS + k,
			       "touch", k);
		grain_htab_unlock(&s);
	}
	/* A replace keeps the entry, with its new stamp and charge. */
	k = 7;
	struct entry *v2 = entry_new(k);
	grain_htab_lock(h, &k, &s);
	struct grain_hnode *old = grain_htab_find_locked(&s, &k);
	expect(old != NULL && grain_htab_replace_locked(&s, old, &v2->node,
							KEYS + 7, CHARGE) == 0,
	       "replace", k);
	grain_htab_unlock(&s);
	/* One more entry takes the total past mem_high: eviction down to
	 * mem_low, oldest first per stripe, so none of the touched keys. */
	k = KEYS;
	struct entry *extra = entry_new(k);
	expect(grain_htab_insert(h, &extra->node, &extra->key, 2 * KEYS,
				 CHARGE) == 0,
	       "insert past mem_high", k);
	expect(evicted >= 500 && grain_htab_bytes_exact(h) <= cfg.mem_low,
	       "evicted down to mem_low", evicted);
	for (k = 0; k < 100; k++) {
		grain_htab_lock(h, &k, &s);
		expect(grain_htab_find_locked(&s, &k) != NULL,
		       "a touched key kept", k);
		grain_htab_unlock(&s);
	}
	/* Removes, then a resize to 64 buckets a stripe. */
	for (k = 100; k < 200; k++) {
		int rc = grain_htab_remove(h, &k, NULL);

		expect(rc == 0 || rc == -ENOENT, "remove", k);
	}
	expect(grain_htab_resize(h, 64) == 0, "resize", 64);
	unsigned walked = 0;
	expect(grain_htab_walk(h, count, &walked) == 0, "walk", walked);
	grain_htab_get_stats(h, &st);
	expect(walked == st.entries, "walk count", walked);
	/* At 1000000 + KEYS - 1, everything stamped before KEYS is ttl old:
	 * all but the 100 touched keys and the last insert. */
	unsigned n = grain_htab_expire(h, 1000000 + KEYS - 1);
	grain_htab_get_stats(h, &st);
	expect(n == expired && st.entries == 101, "expiry", st.entries);
	grain_htab_destroy(h);
	grain_htab_get_stats(NULL, &st);
	expect(reclaimed == KEYS + 2, "every node reclaimed once", reclaimed);
	if (failures) {
		fprintf(stderr, "htab_norcu: %u checks failed\n", failures);
		return 1;
	}
	printf("htab_norcu: ok (%u evicted, %u expired, %zu-bit)\n", evicted,
	       expired, sizeof(void *) * 8);
	return 0;
}
