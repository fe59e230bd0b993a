/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab.c - the EXAMPLE sections of grain_htab's man pages
 * (doc/manpages.py: each page shows the shortest example below that uses
 * its name, after this file's code up to the first example).
 */
#include <grain/htab.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A flow: the user's object, with the table's node embedded. */
struct flow {
	struct grain_hnode node; /* zeroed before its first insert */
	uint64_t key;
	uint64_t packets;
};

static uint64_t flow_hash(const void *key, const struct grain_hash_key *secret,
			  void *ctx)
{
	(void)ctx;
	return grain_siphash(key, sizeof(uint64_t), secret);
}

static bool flow_eq(const struct grain_hnode *node, const void *key, void *ctx)
{
	(void)ctx;
	return grain_container_of(node, const struct flow, node)->key ==
	       *(const uint64_t *)key;
}

/* Runs once no lock-free reader can see the flow: free it. */
static void flow_reclaim(struct grain_hnode *node, enum grain_htab_reason why,
			 void *ctx)
{
	(void)why, (void)ctx;
	free(grain_container_of(node, struct flow, node));
}

static struct flow *flow_new(uint64_t key)
{
	struct flow *f = calloc(1, sizeof(*f));

	if (f != NULL)
		f->key = key;
	return f;
}

/* example */
/* Insert, look up without a lock, remove. Every thread that uses an RCU
 * table registers with its flavour (here the default, urcu-memb). */
int example_htab(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
	};
	struct grain_htab *h;
	uint64_t key = 42;
	int ok;

	grain_rcu_register_thread();
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	struct flow *f = flow_new(key);
	/* -EEXIST, -ENOSPC, -EMLINK, -ENOMEM: the flow stays ours. */
	if (f == NULL || grain_htab_insert(h, &f->node, &f->key, 0, 64) != 0) {
		free(f);
		return -1;
	}
	grain_rcu_read_lock();
	struct grain_hnode *n = grain_htab_lookup(h, &key);
	ok = n != NULL && grain_container_of(n, struct flow, node) == f;
	grain_rcu_read_unlock();
	/* Retired: flow_reclaim frees it after a grace period. */
	ok = ok && grain_htab_remove(h, &key, NULL) == 0;
	grain_htab_destroy(h); /* waits for every deferred reclaim */
	grain_rcu_unregister_thread();
	return ok ? 0 : -1;
}

/* example */
/* Count a flow's packets: one scope on the key's stripe finds the flow or
 * inserts it, then updates it; nobody else can insert the key between
 * the two. */
static int count_packet(struct grain_htab *h, uint64_t key, uint64_t now)
{
	struct grain_htab_scope s;
	struct grain_hnode *n;
	int rc = 0;

	grain_htab_lock(h, &key, &s);
	n = grain_htab_find_locked(&s, &key);
	if (n == NULL) {
		struct flow *f = flow_new(key);

		rc = f ? grain_htab_insert_locked(&s, &f->node, &f->key, now,
						  sizeof(*f))
		       : -ENOMEM;
		if (rc != 0)
			free(f);
		else
			f->packets = 1;
	} else {
		grain_container_of(n, struct flow, node)->packets++;
		rc = grain_htab_touch_locked(&s, n, now); /* LRU, TTL */
	}
	grain_htab_unlock(&s); /* evictions, reclaims run here */
	return rc;
}

int example_htab_scope(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
		.flags = GRAIN_HTAB_NO_RCU, /* no lock-free lookups */
	};
	struct grain_htab *h;
	uint64_t k = 7;

	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	for (uint64_t now = 0; now < 3; now++)
		if (count_packet(h, k, now) != 0)
			return -1;
	printf("key %llu hashes to %016llx\n", (unsigned long long)k,
	       (unsigned long long)grain_htab_hash(h, &k));
	grain_htab_destroy(h);
	return 0;
}

/* example */
/* Insert-if-absent in one call, and a payload whose size changes: its
 * charge follows it (eviction keeps the total between the watermarks). */
int example_htab_charge(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
		.flags = GRAIN_HTAB_NO_RCU,
		.mem_high = 1 << 20,
		.mem_low = 1 << 19,
		.policy = GRAIN_HTAB_EVICT,
	};
	struct grain_htab *h;
	struct grain_hnode *found;
	struct grain_htab_scope s;
	uint64_t key = 5;

	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	struct flow *f = flow_new(key);
	if (f == NULL ||
	    grain_htab_find_or_insert(h, &f->key, &f->node, 0, 100, &found)) {
		free(f);
		return -1;
	}
	/* A second flow for the same key: -EEXIST, found is the first. */
	struct flow *g = flow_new(key);
	if (g == NULL)
		return -1;
	grain_htab_lock(h, &key, &s);
	int rc = grain_htab_find_or_insert_locked(&s, &key, &g->node, 1, 100,
						  &found);
	if (rc == -EEXIST && found == &f->node &&
	    grain_htab_charge_locked(&s, found, 400) == 0)
		rc = grain_htab_uncharge_locked(&s, found, 200);
	grain_htab_unlock(&s);
	free(g); /* never inserted: still ours */
	size_t bytes = grain_htab_bytes(h), exact = grain_htab_bytes_exact(h);
	printf("%zu bytes (folded), %zu (exact)\n", bytes, exact);
	grain_htab_destroy(h);
	return rc == 0 && exact == 300 ? 0 : -1;
}

/* example */
/* Maintenance: expire by TTL, walk (removing what the walk picks), resize,
 * statistics. */
static int drop_quiet(struct grain_htab_scope *scope, struct grain_hnode *node,
		      void *ctx)
{
	unsigned *dropped = ctx;

	if (grain_container_of(node, struct flow, node)->packets == 0) {
		if (grain_htab_remove_locked(scope, node) != 0)
			return -1; /* stops the walk */
		(*dropped)++;
	}
	return 0;
}

int example_htab_maintenance(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
		.stripes = 4,
		.ttl = 100, /* the caller's clock units */
		.flags = GRAIN_HTAB_BATCH_RECLAIM,
		.reclaim_batch = GRAIN_HTAB_RECLAIM_BATCH_MAX / 128,
	};
	grain_htab_walk_fn *fn = drop_quiet;
	struct grain_htab_stats st;
	struct grain_htab *h;
	unsigned dropped = 0;

	grain_rcu_register_thread();
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	for (uint64_t k = 0; k < 100; k++) {
		struct flow *f = flow_new(k);

		if (f == NULL)
			return -1;
		f->packets = k % 2; /* even keys: quiet */
		if (grain_htab_insert(h, &f->node, &f->key, k, 64) != 0) {
			free(f);
			return -1;
		}
	}
	unsigned expired = grain_htab_expire(h, 110); /* stamps 0..10 */
	if (grain_htab_walk(h, fn, &dropped) != 0 ||
	    grain_htab_resize(h, 64) != 0)
		return -1;
	grain_htab_reclaim_flush(h); /* partial batches go to RCU now */
	grain_rcu_barrier();	     /* ... and have been freed */
	grain_htab_get_stats(h, &st);
	printf("%u expired, %u dropped, %llu left, %llu resizes\n", expired,
	       dropped, (unsigned long long)st.entries,
	       (unsigned long long)st.resizes);
	grain_htab_destroy(h);
	grain_rcu_unregister_thread();
	return expired == 11 && st.entries == 100 - 11 - dropped ? 0 : -1;
}

/* example */
/* The _fast calls (C only): hash and equality fixed at compile time, so
 * the compiler inlines them; they must match the table's ops. Where memory
 * is short, a REFUSE table says -ENOSPC instead of evicting. */
static const struct grain_htab_params flow_params = {
	.hash = flow_hash,
	.eq = flow_eq,
};

int example_htab_fast(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
		.mem_high = 64 * 1024,
		.policy = GRAIN_HTAB_REFUSE,
	};
	struct grain_htab_scope s;
	struct grain_hnode *found;
	struct grain_htab *h;
	uint64_t a = 1, b = 2, c = 3;
	int ok;

	grain_rcu_register_thread();
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	struct flow *fa = flow_new(a), *fb = flow_new(b), *fc = flow_new(c);
	struct flow *again = flow_new(c);
	if (!fa || !fb || !fc || !again ||
	    grain_htab_insert_fast(h, &fa->node, &fa->key, 0, 64,
				   flow_params) != 0 ||
	    grain_htab_find_or_insert_fast(h, &fb->key, &fb->node, 0, 64,
					   &found, flow_params) != 0)
		return -1;
	grain_htab_lock_fast(h, &c, &s, flow_params);
	ok = grain_htab_find_locked_fast(&s, &c, flow_params) == NULL &&
	     grain_htab_insert_locked_fast(&s, &fc->node, &fc->key, 1, 64,
					   flow_params) == 0 &&
	     grain_htab_find_or_insert_locked_fast(&s, &c, &again->node, 1, 64,
						   &found,
						   flow_params) == -EEXIST &&
	     found == &fc->node;
	grain_htab_unlock(&s);
	free(again); /* not inserted: still ours */
	grain_rcu_read_lock();
	ok = ok && grain_htab_lookup_fast(h, &a, flow_params) == &fa->node;
	grain_rcu_read_unlock();
	ok = ok && grain_htab_remove_fast(h, &b, NULL, flow_params) == 0;
	grain_htab_destroy(h);
	grain_rcu_unregister_thread();
	return ok ? 0 : -1;
}

/* example */
/* Who let go of a node, and why: ops.unlinked sees evictions and expiries
 * (after every table lock is released); ops.defer could replace
 * call_rcu. A scope is a struct on the stack; its fields are private. */
static unsigned evicted;

static void flow_unlinked(struct grain_hnode *node, enum grain_htab_reason why,
			  void *ctx)
{
	(void)node, (void)ctx;
	evicted += why == GRAIN_HTAB_EVICTED;
}

int example_htab_eviction(void)
{
	struct grain_htab_ops ops = {
		.hash = flow_hash,
		.eq = flow_eq,
		.unlinked = flow_unlinked,
		.reclaim = flow_reclaim,
	};
	enum grain_htab_policy policy = GRAIN_HTAB_EVICT; /* the default */
	struct grain_htab_config cfg = {
		.ops = ops,
		.policy = policy,
		.stripes = GRAIN_HTAB_EVICT_SAMPLE, /* sampled = exact LRU */
		.mem_high = 10 * 64,
		.mem_low = 8 * 64,
	};
	struct grain_htab *h;

	grain_rcu_register_thread();
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	for (uint64_t k = 0; k < 11; k++) {
		struct flow *f = flow_new(k);

		if (f == NULL ||
		    grain_htab_insert(h, &f->node, &f->key, k, 64)) {
			free(f);
			return -1;
		}
	}
	grain_htab_destroy(h); /* the rest: reason GRAIN_HTAB_DESTROYED */
	grain_rcu_unregister_thread();
	return evicted >= 3 ? 0 : -1; /* 11 > 10 entries: down to 8 */
}

/* example */
/* A new version of an entry, put in place so that a lock-free reader finds
 * the old one or the new one, never neither (a remove then an insert would
 * leave it a moment with none). A reader reads the stamp and the charge of
 * what it found without a lock. */
static const struct grain_htab_params version_params = {
	.hash = flow_hash,
	.eq = flow_eq,
};

int example_htab_replace(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
	};
	struct grain_htab_scope s;
	struct grain_hnode *old = NULL, *n;
	struct grain_htab *h;
	uint64_t key = 7;
	int ok;

	grain_rcu_register_thread();
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	struct flow *v1 = flow_new(key), *v2 = flow_new(key);
	struct flow *v3 = flow_new(key);
	/* Absent: inserted, *old NULL. Present: replaced, *old the old node
	 * (retired: freed by flow_reclaim after a grace period). */
	if (!v1 || !v2 || !v3 ||
	    grain_htab_replace(h, &key, &v1->node, 1, 64, &old) != 0)
		return -1;
	ok = old == NULL &&
	     grain_htab_replace_fast(h, &key, &v2->node, 2, 128, &old,
				     version_params) == 0 &&
	     old == &v1->node;
	grain_htab_lock(h, &key, &s);
	n = grain_htab_find_locked(&s, &key);
	ok = ok && n != NULL &&
	     grain_htab_replace_locked(&s, n, &v3->node, 3, 256) == 0;
	grain_htab_unlock(&s);
	grain_rcu_read_lock();
	n = grain_htab_lookup(h, &key);
	ok = ok && n == &v3->node && grain_htab_node_stamp(n) == 3 &&
	     grain_htab_node_charge(n) == 256;
	grain_rcu_read_unlock();
	grain_htab_destroy(h);
	grain_rcu_unregister_thread();
	return ok ? 0 : -1;
}

/* example */
/* Count the entries without taking a lock: inside an RCU read-side
 * section, a lock-free walk visits every entry present for the whole walk
 * exactly once, whatever writers and resizes do meanwhile. */
static grain_htab_walk_rcu_fn count_flow;

static int count_flow(struct grain_hnode *node, void *ctx)
{
	(void)node;
	++*(unsigned *)ctx;
	return 0;
}

int example_htab_walk_rcu(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
	};
	struct grain_htab *h;
	unsigned counted = 0;
	int rc;

	grain_rcu_register_thread();
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	for (uint64_t key = 0; key < 10; key++) {
		struct flow *f = flow_new(key);

		if (f == NULL ||
		    grain_htab_insert(h, &f->node, &f->key, 0, 64) != 0)
			return -1;
	}
	grain_rcu_read_lock();
	rc = grain_htab_walk_rcu(h, count_flow, &counted);
	grain_rcu_read_unlock();
	grain_htab_destroy(h);
	grain_rcu_unregister_thread();
	return rc == 0 && counted == 10 ? 0 : -1;
}

/* example */
/* A burst of keys (a block of received packets, say) looked up in one
 * call: the bucket and node lines of all of them are fetched together
 * instead of one after another. A key hashed once already (here to pick
 * a worker) is looked up with that hash. */
static const struct grain_htab_params burst_params = {
	.hash = flow_hash,
	.eq = flow_eq,
};

int example_htab_lookup_bulk(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
	};
	uint64_t want[8];
	const void *keys[8];
	struct grain_hnode *nodes[GRAIN_HTAB_LOOKUP_BULK_MAX];
	struct grain_htab *h;
	uint64_t hits = 0, key = 3;
	int found, fast;

	grain_rcu_register_thread();
	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	for (uint64_t k = 0; k < 8; k += 2) { /* even keys only */
		struct flow *f = flow_new(k);

		if (f == NULL ||
		    grain_htab_insert(h, &f->node, &f->key, 0, 64) != 0)
			return -1;
	}
	for (unsigned i = 0; i < 8; i++) {
		want[i] = i;
		keys[i] = &want[i];
	}
	uint64_t hash = grain_htab_hash(h, &key);
	grain_rcu_read_lock();
	/* 4 found: bit i of hits says whether nodes[i] holds keys[i]. */
	found = grain_htab_lookup_bulk(h, keys, 8, nodes, &hits);
	fast = grain_htab_lookup_bulk_fast(h, keys, 8, nodes, NULL,
					   burst_params);
	bool odd_absent = grain_htab_lookup_with_hash(h, &key, hash) == NULL &&
			  grain_htab_lookup_with_hash_fast(
				  h, &key, hash, burst_params) == NULL;
	grain_rcu_read_unlock();
	grain_htab_destroy(h);
	grain_rcu_unregister_thread();
	return found == 4 && fast == 4 && hits == 0x55 && odd_absent ? 0 : -1;
}

/* example */
/* A cache of at most 4 flows that needs no exact LRU order: CLOCK keeps
 * no list (inserts and removes write none); a touch marks a flow, and an
 * eviction passes marked flows over once. Flow 1, never touched, is
 * evicted; flows touched since the hand passed them are not. */
int example_htab_clock(void)
{
	const struct grain_htab_config cfg = {
		.ops = { .hash = flow_hash,
			 .eq = flow_eq,
			 .reclaim = flow_reclaim },
		.stripes = 1, /* the order holds within a stripe */
		.mem_high = 4 * sizeof(struct flow),
		.mem_low = 4 * sizeof(struct flow),
		.flags = GRAIN_HTAB_NO_RCU | GRAIN_HTAB_EVICT_CLOCK,
	};
	struct grain_htab *h;
	uint64_t k;

	if (grain_htab_create(&h, &cfg, NULL) != 0)
		return -1;
	for (k = 0; k < 5; k++) { /* the fifth insert evicts one flow */
		struct flow *f = flow_new(k);

		if (f == NULL ||
		    grain_htab_insert(h, &f->node, &f->key, k, sizeof(*f)) != 0)
			return -1;
	}
	/* Every mark was cleared by that eviction: touch what is left but
	 * flow 1, then insert one more flow. */
	int rc = 0;
	for (k = 0; k < 5; k++) {
		struct grain_htab_scope s;

		grain_htab_lock(h, &k, &s);
		struct grain_hnode *n = grain_htab_find_locked(&s, &k);
		if (n != NULL && k != 1)
			rc |= grain_htab_touch_locked(&s, n, 5);
		grain_htab_unlock(&s);
	}
	struct flow *f = flow_new(5);
	if (f == NULL ||
	    grain_htab_insert(h, &f->node, &f->key, 6, sizeof(*f)) != 0)
		return -1;
	struct grain_htab_stats st;
	grain_htab_get_stats(h, &st);
	struct grain_htab_scope s;
	k = 1;
	grain_htab_lock(h, &k, &s);
	bool gone = grain_htab_find_locked(&s, &k) == NULL;
	grain_htab_unlock(&s);
	printf("%llu evicted, %llu left\n", (unsigned long long)st.evictions,
	       (unsigned long long)st.entries);
	grain_htab_destroy(h);
	return rc == 0 && st.evictions == 2 && st.entries == 4 && gone ? 0 : -1;
}
