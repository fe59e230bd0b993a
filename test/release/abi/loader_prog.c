/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loader_prog.c - a program built against one release and run on another
 * (test/release/abi/check_loader.sh, CTest abi_loader). It goes through the
 * inline fast paths of grain_ring and grain_htab, which compile the layouts
 * of include/grain/impl/ into it, and checks every result: on a library whose
 * layouts differ from its headers it would fail or crash, which the ABI
 * policy (README.md, "Versions and ABI") must make impossible by having the
 * loader refuse it first. Only calls every release since 0.4.0 has. Prints
 * "loader_prog: ok <headers> on <library>" and exits 0 when all holds.
 */
#include <grain/htab.h>
#include <grain/ring.h>

#include <stdio.h>
#include <stdlib.h>

#define N 4096u

struct entry {
	struct grain_hnode node;
	uint64_t key;
};

static unsigned failures;

static void expect(int ok, const char *what, unsigned long long v)
{
	if (!ok) {
		fprintf(stderr, "loader_prog: FAILED: %s (%llu)\n", what, v);
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
	return grain_container_of(n, struct entry, node)->key ==
	       *(const uint64_t *)key;
}

static void reclaim(struct grain_hnode *n, enum grain_htab_reason why,
		    void *ctx)
{
	(void)why, (void)ctx;
	free(grain_container_of(n, struct entry, node));
}

/* N items through a 64-slot MPMC ring in order, in rounds of 48. */
static void ring_round_trip(void)
{
	static uint64_t items[N];
	struct grain_ring *ring;
	unsigned in = 0, out = 0;

	if (grain_ring_create(&ring, 64, GRAIN_RING_MPMC, NULL) != 0) {
		expect(0, "grain_ring_create", 0);
		return;
	}
	while (out < N) {
		for (unsigned i = 0; i < 48 && in < N; i++, in++) {
			items[in] = in;
			expect(grain_ring_try_enqueue(ring, &items[in]) == 0,
			       "enqueue", in);
		}
		while (out < in) {
			void *p = NULL;

			if (grain_ring_try_dequeue(ring, &p) != 0) {
				expect(0, "dequeue", out);
				break;
			}
			expect(p == &items[out], "order", out);
			out++;
		}
		if (failures)
			break;
	}
	expect(grain_ring_count(ring) == 0, "empty at the end",
	       grain_ring_count(ring));
	grain_ring_destroy(ring);
}

/* N keys into a 4-stripe table; lock-free lookups; half removed. */
static void htab_round_trip(void)
{
	struct grain_htab_config cfg = {
		.ops = { .hash = hash, .eq = eq, .reclaim = reclaim },
		.stripes = 4,
	};
	struct grain_htab *h;
	uint64_t k;

	grain_rcu_register_thread();
	if (grain_htab_create(&h, &cfg, NULL) != 0) {
		expect(0, "grain_htab_create", 0);
		grain_rcu_unregister_thread();
		return;
	}
	for (k = 0; k < N; k++) {
		struct entry *e = calloc(1, sizeof(*e));

		if (e == NULL)
			exit(2);
		e->key = k;
		if (grain_htab_insert(h, &e->node, &e->key, k, 16) != 0) {
			expect(0, "insert", k);
			free(e);
		}
	}
	for (k = 0; k < N; k += 2)
		expect(grain_htab_remove(h, &k, NULL) == 0, "remove", k);
	grain_rcu_read_lock();
	for (k = 0; k < N + 16; k++) {
		struct grain_hnode *n = grain_htab_lookup(h, &k);
		int want = k < N && k % 2 == 1;

		expect((n != NULL) == want, "lookup", k);
		if (n)
			expect(grain_container_of(n, struct entry, node)->key ==
				       k,
			       "lookup's key", k);
	}
	grain_rcu_read_unlock();
	expect(grain_htab_bytes_exact(h) == (N / 2) * 16, "bytes",
	       grain_htab_bytes_exact(h));
	grain_htab_destroy(h);
	grain_rcu_unregister_thread();
}

int main(void)
{
	ring_round_trip();
	htab_round_trip();
	if (failures) {
		fprintf(stderr,
			"loader_prog: %u checks failed (headers %s, "
			"library %s)\n",
			failures, GRAIN_VERSION_STRING, grain_version());
		return 1;
	}
	printf("loader_prog: ok %s on %s\n", GRAIN_VERSION_STRING,
	       grain_version());
	return 0;
}
