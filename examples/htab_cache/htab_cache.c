/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_cache.c - a byte-bounded cache on grain_htab: LRU eviction between
 * two watermarks, expiry after a TTL, and lock-free RCU lookups.
 *
 * Each entry is charged 64 bytes; mem_high is 100 entries' worth, mem_low
 * 80: an insert that takes the total above mem_high evicts the least
 * recently used entries down to mem_low. Entries live TTL ticks of our own
 * clock after their insert or last touch. One stripe keeps the LRU order
 * exact, so the program knows which keys must go; a walk visits the
 * entries in that order and drops some. It checks its own
 * result and exits 0 if every check passes. Build:
 * cc htab_cache.c $(pkg-config --cflags --libs grain-htab)
 */
#include <grain/htab.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define CHARGE 64u
#define TTL 1000u

struct entry {
	struct grain_hnode node; /* the table's links: embedded, zeroed */
	uint64_t key;		 /* the cached value would follow */
};

static unsigned evicted, expired, bad;
static atomic_uint reclaimed; /* counted on liburcu's call_rcu thread */

static uint64_t hash(const void *key, const struct grain_hash_key *secret,
		     void *ctx)
{
	(void)ctx;
	return grain_siphash(key, sizeof(uint64_t), secret);
}

static bool eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	(void)ctx;
	return grain_container_of(n, struct entry, node)->key ==
	       *(const uint64_t *)key;
}

/* The table let go of an entry (no table lock held). */
static void unlinked(struct grain_hnode *n, enum grain_htab_reason why,
		     void *ctx)
{
	(void)n, (void)ctx;
	evicted += why == GRAIN_HTAB_EVICTED;
	expired += why == GRAIN_HTAB_EXPIRED;
}

/* No reader can see the entry any more (an RCU grace period later, on
 * liburcu's call_rcu thread): free it. */
static void reclaim(struct grain_hnode *n, enum grain_htab_reason why,
		    void *ctx)
{
	(void)why, (void)ctx;
	reclaimed++;
	free(grain_container_of(n, struct entry, node));
}

static void check(int ok, const char *what, uint64_t key)
{
	if (!ok) {
		fprintf(stderr, "htab_cache: FAILED: %s (%llu)\n", what,
			(unsigned long long)key);
		bad = 1;
	}
}

/* A new entry for @key, charged CHARGE bytes, stamped @now. */
static void add(struct grain_htab *h, uint64_t key, uint64_t now)
{
	struct entry *e = calloc(1, sizeof(*e));

	if (e == NULL)
		exit(1);
	e->key = key;
	if (grain_htab_insert(h, &e->node, &e->key, now, CHARGE) != 0) {
		check(0, "insert", key);
		free(e); /* on error the entry stays ours */
	}
}

/* A lock-free lookup: inside an RCU read-side section. */
static bool cached(struct grain_htab *h, uint64_t key)
{
	grain_rcu_read_lock();
	bool hit = grain_htab_lookup(h, &key) != NULL;
	grain_rcu_read_unlock();
	return hit;
}

/* A walk's callback: the keys must come oldest first; drop the odd
 * ones. @p ctx is the position in the expected order. */
static int drop_odd(struct grain_htab_scope *s, struct grain_hnode *n,
		    void *ctx)
{
	unsigned *pos = ctx;
	uint64_t key = grain_container_of(n, struct entry, node)->key;
	/* Keys 41..99 (inserted at 41..99), 0..9 (touched at 100..109),
	 * then 100 (inserted at 110). */
	uint64_t want = *pos < 59 ? 41 + *pos : *pos < 69 ? *pos - 59 : 100;

	check(key == want, "walk order", key);
	(*pos)++;
	if (key % 2 == 1 && grain_htab_remove_locked(s, n) != 0)
		check(0, "remove in the walk", key);
	return 0;
}

int main(void)
{
	struct grain_htab_config cfg = {
		.ops = { .hash = hash,
			 .eq = eq,
			 .unlinked = unlinked,
			 .reclaim = reclaim },
		.stripes = 1,
		.ttl = TTL,
		.mem_high = 100 * CHARGE,
		.mem_low = 80 * CHARGE,
	};
	struct grain_htab_stats st;
	struct grain_htab *h;
	uint64_t k, now = 0;

	grain_rcu_register_thread(); /* every thread that uses the table */
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return 1;

	/* Fill to exactly mem_high: keys 0..99, inserted at times 0..99. */
	for (k = 0; k < 100; k++)
		add(h, k, now++);
	/* Touch keys 0..9 (scoped access): now the most recently used. */
	for (k = 0; k < 10; k++) {
		struct grain_htab_scope s;
		struct grain_hnode *n;

		grain_htab_lock(h, &k, &s);
		n = grain_htab_find_locked(&s, &k);
		check(n && grain_htab_touch_locked(&s, n, now++) == 0, "touch",
		      k);
		grain_htab_unlock(&s);
	}
	/* Key 100 takes the total above mem_high: the insert evicts (after
	 * its unlock) down to mem_low, 21 entries, the least recently used:
	 * keys 10..30. A reader that found key 10 before keeps it: evicted
	 * entries are freed only after every read-side section that was
	 * open at their eviction has ended. */
	k = 10;
	grain_rcu_read_lock();
	struct grain_hnode *held = grain_htab_lookup(h, &k);
	add(h, 100, now++);
	check(held != NULL && reclaimed == 0 &&
		      grain_container_of(held, struct entry, node)->key == 10,
	      "evicted entry kept for its reader", reclaimed);
	grain_rcu_read_unlock();
	grain_rcu_barrier(); /* the deferred reclaims have run */
	check(evicted == 21 && reclaimed == 21, "21 evictions", evicted);
	for (k = 0; k <= 100; k++)
		check(cached(h, k) == (k < 10 || k > 30), "LRU survivor", k);

	/* Time passes: at TTL + 40 the entries stamped 0..40 are TTL old.
	 * Of those only keys 31..40 are left (0..9 were touched later). */
	unsigned n = grain_htab_expire(h, TTL + 40);
	check(n == 10, "10 expired", n);
	check(expired == 10, "10 expiry callbacks", expired);
	for (k = 0; k <= 100; k++)
		check(cached(h, k) == (k < 10 || k > 40), "TTL survivor", k);

	grain_htab_get_stats(h, &st);
	check(st.entries == 70 && st.evictions == 21 && st.expirations == 10 &&
		      grain_htab_bytes_exact(h) == 70 * CHARGE,
	      "stats", st.entries);

	/* Walk the cache (one stripe: its exact LRU order) and drop the odd
	 * keys on the way; the walk's scope holds the stripe, so the
	 * removals are _locked calls. */
	unsigned pos = 0;
	check(grain_htab_walk(h, drop_odd, &pos) == 0 && pos == 70, "walk",
	      pos);
	for (k = 0; k <= 100; k++)
		check(cached(h, k) == ((k < 10 || k > 40) && k % 2 == 0),
		      "walk survivor", k);

	/* At TTL + 105 all that is left is TTL old but keys 6 and 8
	 * (touched at 106 and 108) and 100 (inserted at 110): the touch
	 * restarted the TTL of keys 0..9, which were inserted at 0..9. */
	n = grain_htab_expire(h, TTL + 105);
	check(n == 32, "32 more expired", n);
	for (k = 0; k <= 100; k++)
		check(cached(h, k) == (k == 6 || k == 8 || k == 100),
		      "TTL survivor after the touch", k);

	grain_htab_destroy(h); /* reclaims all, waits for the deferred */
	check(reclaimed == 101, "every entry reclaimed", reclaimed);
	grain_rcu_unregister_thread();
	printf("htab_cache: %u evicted, %u expired, %u reclaimed: %s\n",
	       evicted, expired, reclaimed, bad ? "WRONG" : "ok");
	return (int)bad;
}
