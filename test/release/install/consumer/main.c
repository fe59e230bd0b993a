/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c - uses an installed grain from C: a ring round trip, a prio
 * queue's strict order and an htab insert, lock-free lookup and remove,
 * through the umbrella header. Exits 0 if every check passes.
 */
#include <grain/grain.h>

#include <stdio.h>
#include <string.h>

static int failed;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "consumer: FAILED: %s\n", what);
		failed = 1;
	}
}

struct item {
	struct grain_hnode node;
	unsigned key;
};

static unsigned reclaimed;

static uint64_t item_hash(const void *key, const struct grain_hash_key *s,
			  void *ctx)
{
	(void)ctx;
	return grain_siphash(key, sizeof(unsigned), s);
}

static bool item_eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	(void)ctx;
	return grain_container_of(n, struct item, node)->key ==
	       *(const unsigned *)key;
}

static void item_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			 void *ctx)
{
	(void)n, (void)why, (void)ctx;
	__atomic_fetch_add(&reclaimed, 1, __ATOMIC_RELAXED);
}

static void ring(void)
{
	struct grain_ring *r = NULL;
	int a = 1, b = 2;
	void *out = NULL;

	check(grain_ring_create(&r, 8, GRAIN_RING_MPMC, NULL) == 0, "ring");
	if (r == NULL)
		return;
	check(grain_ring_capacity(r) == 8, "capacity is 8");
	check(grain_ring_try_enqueue(r, &a) == 0, "enqueue a");
	check(grain_ring_try_enqueue(r, &b) == 0, "enqueue b");
	check(grain_ring_count(r) == 2, "count is 2");
	check(grain_ring_try_dequeue(r, &out) == 0 && out == &a, "dequeue a");
	check(grain_ring_try_dequeue(r, &out) == 0 && out == &b, "dequeue b");
	check(grain_ring_try_dequeue(r, &out) == -EAGAIN, "empty: -EAGAIN");
	grain_ring_destroy(r);
}

static void prio(void)
{
	struct grain_prio_config cfg = { .bands = 3, .capacity = 4 };
	struct grain_prio *q = NULL;
	int low = 0, high = 0;
	void *out = NULL;
	unsigned band = 9;

	check(grain_prio_create(&q, &cfg, NULL) == 0, "prio");
	if (q == NULL)
		return;
	check(grain_prio_try_enqueue(q, 2, &low) == 0, "enqueue band 2");
	check(grain_prio_try_enqueue(q, 0, &high) == 0, "enqueue band 0");
	check(grain_prio_try_dequeue(q, &out, &band) == 0 && out == &high &&
		      band == 0,
	      "band 0 first");
	check(grain_prio_try_dequeue(q, &out, &band) == 0 && out == &low &&
		      band == 2,
	      "then band 2");
	grain_prio_destroy(q);
}

static void htab(void)
{
	struct grain_htab_config cfg;
	struct grain_htab *h = NULL;
	struct item it[3];
	struct grain_hnode *n;
	unsigned k, missing = 7;

	memset(&cfg, 0, sizeof(cfg));
	memset(it, 0, sizeof(it));
	cfg.ops.hash = item_hash;
	cfg.ops.eq = item_eq;
	cfg.ops.reclaim = item_reclaim;
	grain_rcu_register_thread();
	check(grain_htab_create(&h, &cfg, NULL) == 0, "htab");
	if (h == NULL)
		return;
	for (k = 0; k < 3; k++) {
		it[k].key = k;
		check(grain_htab_insert(h, &it[k].node, &it[k].key, 0, 8) == 0,
		      "insert");
	}
	grain_rcu_read_lock();
	n = grain_htab_lookup(h, &it[1].key);
	check(n == &it[1].node, "lookup finds key 1");
	check(grain_htab_lookup(h, &missing) == NULL, "no key 7");
	grain_rcu_read_unlock();
	check(grain_htab_remove(h, &it[1].key, NULL) == 0, "remove key 1");
	check(grain_htab_bytes_exact(h) == 16, "16 bytes left");
	grain_htab_destroy(h);
	check(reclaimed == 3, "all reclaimed");
	grain_rcu_unregister_thread();
}

int main(void)
{
	check(strcmp(grain_version(), GRAIN_VERSION_STRING) == 0,
	      "grain_version() is the headers' version");
	ring();
	prio();
	htab();
	if (!failed)
		printf("consumer: grain %s: ring, prio and htab ok\n",
		       grain_version());
	return failed;
}
