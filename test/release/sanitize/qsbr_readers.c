/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * qsbr_readers.c - a program built against an installed ThreadSanitizer
 * build of grain (test/release/sanitize/run.sh). Its readers use liburcu qsbr's
 * own read side (qsbr.c), not grain_rcu_*, on a table created with that
 * flavour, while the main thread inserts, removes and resizes, so that
 * nodes and bucket arrays are reclaimed after grace periods under the
 * readers' feet. Then the main thread unpublishes the table, waits for a
 * grace period and destroys it while the readers run on. Run with the
 * installed suppression file, TSan must report nothing. The program
 * checks its own invariants too: a key that is never removed is always
 * found, every entry found holds its own key and value, and every node is
 * reclaimed exactly once.
 */
#include "qsbr.h"

#include <grain/htab.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !GRAIN_TSAN
#error "qsbr_readers.c is built with -fsanitize=thread"
#endif

#define READERS 2
#define KEYS 512u
#define KEPT 64u /* keys below this stay in the table throughout */
#define ROUNDS 120u
#define MUL 0x9e3779b97f4a7c15ull

struct item {
	struct grain_hnode node;
	uint64_t key;
	uint64_t value; /* key * MUL while the item is the table's */
	int heap;	/* malloc'd (reclaim frees it) or one of kept[] */
};

static struct item kept[KEPT];
static _Atomic(unsigned long) reclaimed, reclaimed_kept, corrupt;
static _Atomic(int) stop;
static struct grain_htab *_Atomic table; /* NULL once unpublished */

static void fail(const char *what)
{
	fprintf(stderr, "qsbr_readers: FAILED: %s\n", what);
	exit(1);
}

static uint64_t hash_key(const void *key, const struct grain_hash_key *s,
			 void *ctx)
{
	(void)ctx;
	return grain_siphash(key, sizeof(uint64_t), s);
}

static bool eq_key(const struct grain_hnode *n, const void *key, void *ctx)
{
	(void)ctx;
	return grain_container_of(n, const struct item, node)->key ==
	       *(const uint64_t *)key;
}

/* Called from liburcu's call_rcu thread once no reader can see @n. */
static void reclaim(struct grain_hnode *n, enum grain_htab_reason why,
		    void *ctx)
{
	struct item *it = grain_container_of(n, struct item, node);

	(void)ctx;
	if (it->value != it->key * MUL)
		atomic_fetch_add(&corrupt, 1);
	if (!it->heap) {
		if (why != GRAIN_HTAB_DESTROYED)
			atomic_fetch_add(&corrupt, 1);
		atomic_fetch_add(&reclaimed_kept, 1);
		return;
	}
	/* What a reader may still have read must be gone by now: poison it
	 * (a write TSan checks), then free it (another). */
	memset(it, 0xa5, sizeof(*it));
	free(it);
	atomic_fetch_add(&reclaimed, 1);
}

struct reader {
	pthread_t t;
	unsigned long lookups, found, missed_kept, wrong;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	uint64_t k = 0;

	qsbr_register();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		qsbr_read_lock();
		struct grain_htab *h =
			atomic_load_explicit(&table, memory_order_acquire);
		for (unsigned i = 0; h != NULL && i < 64;
		     i++, k = (k + 7) % KEYS) {
			struct grain_hnode *n = grain_htab_lookup(h, &k);

			r->lookups++;
			if (n == NULL) {
				r->missed_kept += k < KEPT;
				continue;
			}
			/* The entry's own fields, read after the lookup, in
			 * the same read-side section. */
			const struct item *it =
				grain_container_of(n, const struct item, node);
			r->found++;
			if (it->key != k || it->value != k * MUL)
				r->wrong++;
		}
		qsbr_read_unlock();
		qsbr_quiescent();
	}
	qsbr_unregister();
	return NULL;
}

int main(void)
{
	struct grain_htab_config cfg;
	struct grain_htab *h = NULL;
	struct reader rd[READERS];
	unsigned long allocated = 0, removed = 0;
	static struct item *live[KEYS];

	memset(&cfg, 0, sizeof(cfg));
	cfg.ops.hash = hash_key;
	cfg.ops.eq = eq_key;
	cfg.ops.reclaim = reclaim;
	cfg.stripes = 4;
	cfg.buckets = 4;
	cfg.flavor = qsbr_flavor();
	qsbr_register();
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		fail("grain_htab_create");
	for (uint64_t k = 0; k < KEPT; k++) {
		kept[k] = (struct item){ .key = k, .value = k * MUL };
		if (grain_htab_insert(h, &kept[k].node, &kept[k].key, 0, 1) !=
		    0)
			fail("insert of a kept key");
	}
	atomic_store_explicit(&table, h, memory_order_release);
	memset(rd, 0, sizeof(rd));
	for (int i = 0; i < READERS; i++) {
		if (pthread_create(&rd[i].t, NULL, reader_main, &rd[i]) != 0)
			fail("pthread_create");
	}

	/* Fill the other keys, then empty them, round after round; resize
	 * each stripe now and then (growth and shrinking resize too). */
	for (unsigned round = 0; round < ROUNDS; round++) {
		for (uint64_t k = KEPT; k < KEYS; k++) {
			if (live[k] != NULL)
				continue;
			struct item *it = malloc(sizeof(*it));
			if (it == NULL)
				fail("malloc");
			*it = (struct item){ .key = k,
					     .value = k * MUL,
					     .heap = 1 };
			if (grain_htab_insert(h, &it->node, &it->key, 0, 1) !=
			    0)
				fail("insert");
			live[k] = it;
			allocated++;
		}
		if (round % 4 == 0 &&
		    grain_htab_resize(h, round % 8 == 0 ? 64u : 2u) != 0)
			fail("grain_htab_resize");
		for (uint64_t k = KEPT + round % 3; k < KEYS;
		     k += 1 + round % 2) {
			if (live[k] == NULL)
				continue;
			struct grain_hnode *n = NULL;
			if (grain_htab_remove(h, &k, &n) != 0 ||
			    n != &live[k]->node)
				fail("remove");
			live[k] = NULL;
			removed++;
		}
		qsbr_quiescent();
	}
	struct grain_htab_stats st;
	grain_htab_get_stats(h, &st);

	/* Retire the table as RCU retires anything: unpublish it, wait for
	 * a grace period, destroy it. The readers go on meanwhile; only the
	 * grace period orders their last lookups before the destroy. */
	atomic_store_explicit(&table, NULL, memory_order_relaxed);
	qsbr_synchronize();
	qsbr_offline(); /* rcu_barrier waits for grace periods */
	qsbr_barrier();
	qsbr_online();
	if (atomic_load(&reclaimed) != removed)
		fail("a removed node was not reclaimed once after rcu_barrier");
	qsbr_offline();
	grain_htab_destroy(h);
	qsbr_online();
	atomic_store(&stop, 1);
	for (int i = 0; i < READERS; i++)
		if (pthread_join(rd[i].t, NULL) != 0)
			fail("pthread_join");
	qsbr_unregister();

	unsigned long lookups = 0, found = 0;
	for (int i = 0; i < READERS; i++) {
		if (rd[i].missed_kept != 0)
			fail("a reader missed a key that was never removed");
		if (rd[i].wrong != 0)
			fail("a reader found an entry with the wrong contents");
		lookups += rd[i].lookups;
		found += rd[i].found;
	}
	if (atomic_load(&corrupt) != 0)
		fail("a node was reclaimed with the wrong contents or reason");
	if (atomic_load(&reclaimed) != allocated ||
	    atomic_load(&reclaimed_kept) != KEPT)
		fail("not every node was reclaimed exactly once");
	if (st.resizes == 0 || removed == 0 || lookups == 0)
		fail("no resize, remove or lookup happened");
	printf("qsbr_readers: ok: %lu lookups (%lu found), %lu nodes "
	       "reclaimed, %lu resizes\n",
	       lookups, found, removed + KEPT, (unsigned long)st.resizes);
	return 0;
}
