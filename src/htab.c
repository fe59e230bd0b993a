/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab.c - grain_htab's table: create and destroy, the slow halves of the
 * inline scope calls (include/grain/impl/htab.h), reclamation through
 * RCU, the node checks of the _locked calls, bytes and statistics.
 *
 * Design. The fast paths (lock, find, insert, remove, lookup) are inline
 * and specialised by the caller's hash and equality; they call here only
 * for what is rare or must run without a lock: user callbacks for evicted
 * and expired nodes, handing retired nodes and arrays to RCU, eviction
 * (htab_evict.c) and resizing (htab_resize.c), all after the stripe lock
 * is released. Readers' grace periods belong to the liburcu flavour the
 * table was created with; nothing here ever waits for one while a table
 * lock is held, and only destroy waits at all (rcu_barrier).
 *
 * References: Linux net/ipv4/inet_fragment.c and lib/rhashtable.c;
 * lib/percpu_counter.c (folded byte totals); liburcu (flavours,
 * call_rcu, rcu_barrier).
 */
#define _GNU_SOURCE
#include "htab_internal.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <urcu/urcu-memb.h>

_Static_assert(sizeof(struct rcu_head) <= 2 * sizeof(void *),
	       "liburcu's rcu_head fits over the node's LRU links");
_Static_assert(offsetof(struct grain_hnode, prev) == 0,
	       "the LRU links open the node");
_Static_assert(sizeof(struct grain_hnode) <= 40 || sizeof(void *) != 8,
	       "the node stays at 40 bytes");

char grain_impl_htab_grace_token; /* read-side sections -> reclaims */
static char barrier_token;	  /* reclaims -> grain_rcu_barrier() */

/* --- reclamation -------------------------------------------------------- */

/* The table a retired node or array belongs to: kept in its stamp, dead
 * once it is retired. */
static void set_owner(struct grain_hnode *n, struct grain_htab *h)
{
	grain_impl_htab_set_owner(n, h);
}

static struct grain_htab *owner_of(const struct grain_hnode *n)
{
	return (struct grain_htab *)(uintptr_t)n->stamp;
}

/* The stripe whose deferred count covers retired @n. */
static htab_stripe *defer_stripe(struct grain_htab *h,
				 const struct grain_hnode *n)
{
	if (n->state == GRAIN_IMPL_HNODE_ARRAY)
		return &h->stripes[grain_container_of(n, htab_array, carrier)
					   ->stripe];
	return &h->stripes[grain_impl_htab_stripe_index(h, n->hash)];
}

/* No reader can see retired @n any more: free the array it carries, or
 * give the node back to the caller. */
static void hand_back(struct grain_htab *h, struct grain_hnode *n)
{
	if (n->state == GRAIN_IMPL_HNODE_ARRAY) {
		htab_array_free(h, grain_container_of(n, htab_array, carrier));
		return;
	}
	grain_impl_htab_hand_back(h, n,
				  (enum grain_htab_reason)(n->state & 0xffu));
}

/* After a grace period (or ops.defer's promise of one): hand @n back,
 * and count it off its stripe if ops.defer took it. */
static void reclaim_now(struct grain_hnode *n)
{
	/* Before the first read of the node: its retirement (the release
	 * in defer_list) happens-before everything here. */
	HTAB_TSAN_ACQUIRE(n);
	/* And every read-side section that ended before the grace period
	 * (grain_rcu_read_unlock releases it) happens-before it too: ops.defer
	 * promises that grace period. */
	HTAB_TSAN_ACQUIRE(&grain_impl_htab_grace_token);
	struct grain_htab *h = owner_of(n);
	/* Counted in defer_list() if ops.defer took it; the stripe is read
	 * before the array that may carry its index is freed. */
	htab_stripe *st = h->ops.defer != NULL ? defer_stripe(h, n) : NULL;

	/* Readers on a flavour's own read side told TSan nothing: the
	 * reclaim's accesses go unchecked (htab_internal.h). */
	HTAB_TSAN_RECLAIM_BEGIN();
	hand_back(h, n);
	HTAB_TSAN_RECLAIM_END();
	if (st == NULL)
		return;
	/* Release: the last touch of the table; destroy may free it as
	 * soon as it reads the count that this makes. */
	atomic_fetch_sub_explicit(&st->deferred, 1, memory_order_release);
}

/* A hint that @n (or NULL) is written soon: no access, no fault. */
static inline void prefetch_for_write(const struct grain_hnode *n)
{
#if defined(__GNUC__) || defined(__clang__)
	if (n != NULL)
		__builtin_prefetch(n, 1, 3);
#else
	(void)n;
#endif
}

/* A grace period after a list was handed to call_rcu: reclaim all of it.
 * The first node's links hold the rcu_head; its hash, the rest. The
 * nodes were removed long before and have left this thread's cache, so
 * the walk would wait for each link in turn: each node's prev names the
 * node GRAIN_IMPL_HTAB_AHEAD places further down (or is NULL; the batch's
 * nodes, and nothing else, since defer_list() clears it), and the walk
 * prefetches it, keeping that many misses in flight. */
static void rcu_done(struct rcu_head *head)
{
	struct grain_hnode *n = (struct grain_hnode *)(void *)head;

	HTAB_TSAN_ACQUIRE(n); /* its retirement, before its fields */
	struct grain_hnode *rest = (struct grain_hnode *)(uintptr_t)n->hash;

	HTAB_TSAN_ACQUIRE(&grain_impl_htab_grace_token);
	reclaim_now(n);
	while (rest != NULL) {
		n = rest;
		HTAB_TSAN_ACQUIRE(n); /* its retirement, before its links */
		rest = n->next;	      /* before the node is handed back */
		prefetch_for_write(n->prev);
		reclaim_now(n);
	}
	HTAB_TSAN_RELEASE(&barrier_token);
}

/* Hand retired @list (linked through next, at least one node), whose
 * nodes name their owner, to one call_rcu. */
static void call_rcu_list(struct grain_htab *h, struct grain_hnode *list)
{
	/* The rcu_head overlays the first node's links: keep the rest in
	 * its hash, dead once the node is retired. */
	list->hash = (uint64_t)(uintptr_t)list->next;
#if GRAIN_TSAN
	/* Each node's release (for the reclaim's acquire) follows the last
	 * read of it here. */
	for (struct grain_hnode *n = list, *nx; n != NULL; n = nx) {
		nx = n->next;
		HTAB_TSAN_RELEASE(n);
	}
#endif
	h->flavor->update_call_rcu((struct rcu_head *)(void *)list, rcu_done);
}

/* Hand retired @list (linked through next, at least one node) to RCU:
 * one call_rcu for all of it, or ops.defer for each node. */
static void defer_list(struct grain_htab *h, struct grain_hnode *list)
{
	if (h->ops.defer != NULL) {
		while (list != NULL) {
			struct grain_hnode *n = list;
			list = n->next; /* before defer() reuses the links */
			set_owner(n, h);
			HTAB_TSAN_RELEASE(n);
			atomic_fetch_add_explicit(&defer_stripe(h, n)->deferred,
						  1, memory_order_relaxed);
			h->ops.defer(n, reclaim_now, h->ctx);
		}
		return;
	}
	/* No look-ahead in a list retired under a lock: its prev fields
	 * are the LRU's, stale. */
	for (struct grain_hnode *n = list; n != NULL; n = n->next) {
		set_owner(n, h);
		n->prev = NULL;
	}
	call_rcu_list(h, list);
}

/* Nodes and arrays retired under a lock, linked through next: run the
 * user's unlinked callback (evicted, expired), then defer reclaim. With
 * no table lock held. */
static void process_list(struct grain_htab *h, struct grain_hnode *list)
{
	for (struct grain_hnode *n = list; n != NULL; n = n->next) {
		if (n->state == GRAIN_IMPL_HNODE_ARRAY)
			continue;
		enum grain_htab_reason why =
			(enum grain_htab_reason)(n->state & 0xffu);
		if ((why == GRAIN_HTAB_EVICTED || why == GRAIN_HTAB_EXPIRED) &&
		    h->ops.unlinked != NULL)
			h->ops.unlinked(n, why, h->ctx);
	}
	if (list == NULL)
		return;
	if (!htab_has_rcu(h)) {
		/* No lock-free reader exists: no grace period to wait. */
		while (list != NULL) {
			struct grain_hnode *n = list;
			list = n->next;
			hand_back(h, n);
		}
		return;
	}
	defer_list(h, list);
}

/*
 * A callback that calls into a table (an unlinked that inserts, say) may
 * retire more nodes, whose callbacks may do the same: run from its own
 * unlock, they would nest without bound. So on each thread only the
 * outermost call runs callbacks; lists retired meanwhile wait on this
 * thread's queue (linked through their first node's prev, which a retired
 * node does not use, and naming their table in its stamp, as set_owner()
 * does anyway) and the outermost call takes them in turn. Callbacks then
 * nest one deep at most, and every one has run before the outermost call
 * returns.
 */
static _Thread_local struct grain_hnode *nested_lists;
static _Thread_local bool in_callbacks;

/* Does processing @list call the caller's code on this thread (unlinked,
 * reclaim without RCU, ops.defer)? Removed nodes and arrays going to
 * call_rcu do not: they skip the queue, and its thread-local accesses. */
static bool calls_back(const struct grain_htab *h,
		       const struct grain_hnode *list)
{
	if (!htab_has_rcu(h) || h->ops.defer != NULL)
		return true;
	if (h->ops.unlinked == NULL)
		return false;
	for (const struct grain_hnode *n = list; n != NULL; n = n->next) {
		if (n->state == GRAIN_IMPL_HNODE_ARRAY)
			continue;
		uint32_t why = n->state & 0xffu;
		if (why == GRAIN_HTAB_EVICTED || why == GRAIN_HTAB_EXPIRED)
			return true;
	}
	return false;
}

void htab_process_retired(struct grain_htab *h, struct grain_hnode *list)
{
	if (list == NULL)
		return;
	if (!calls_back(h, list)) {
		process_list(h, list);
		return;
	}
	if (in_callbacks) {
		set_owner(list, h);
		list->prev = nested_lists;
		nested_lists = list;
		return;
	}
	in_callbacks = true;
	for (;;) {
		process_list(h, list);
		list = nested_lists;
		if (list == NULL)
			break;
		nested_lists = list->prev;
		h = owner_of(list);
	}
	in_callbacks = false;
}

/* Lists of @h on this thread's queue go now: grain_htab_destroy() called
 * from a callback of another table. */
static void process_queued(struct grain_htab *h)
{
	struct grain_hnode **pp = &nested_lists;

	while (*pp != NULL) {
		struct grain_hnode *list = *pp;
		if (owner_of(list) != h) {
			pp = &list->prev;
			continue;
		}
		*pp = list->prev;
		process_list(h, list);
	}
}

/* --- the slow halves of the inline calls ---------------------------------- */

void grain_impl_htab_expire_head(struct grain_htab_scope *s, uint64_t now)
{
	(void)htab_expire_stripe(s->h, s->stripe, now,
				 GRAIN_IMPL_HTAB_EXPIRE_ON_INSERT, &s->retired);
}

int grain_impl_htab_insert_slow(struct grain_htab_scope *s, int why)
{
	struct grain_htab *h = s->h;
	htab_stripe *st = s->stripe;

	if (why == GRAIN_IMPL_HTAB_SLOW_CHAIN) {
		grain_impl_htab_bump(&st->chain_refusals, 1);
		/* Growing helps if the chain is long because the stripe is
		 * full, not if the keys collide outright: grow, but never past
		 * four buckets per entry, so that colliding keys cannot make
		 * the table allocate without bound. */
		uint64_t buckets =
			(uint64_t)grain_impl_htab_array_locked(st)->mask + 1;
		if (buckets * 2 <=
		    4 * ((uint64_t)grain_impl_htab_entries(st) + 1)) {
			atomic_store_explicit(&st->grow_wanted, true,
					      memory_order_relaxed);
			s->todo |= GRAIN_IMPL_HTAB_TODO_RESIZE;
		}
		return -EMLINK;
	}
	if (why == GRAIN_IMPL_HTAB_SLOW_FULL) {
		/* The overflow reserve is used up: copy the stripe now, at
		 * the size its load wants, with a fresh reserve. */
		return htab_resize_locked(h, st, true, &s->retired);
	}
	if (h->policy == GRAIN_HTAB_REFUSE && h->mem_high != 0 &&
	    htab_total_near(h, st) > h->mem_high) {
		grain_impl_htab_bump(&st->refusals, 1);
		return -ENOSPC;
	}
	return 0;
}

void grain_impl_htab_after_unlock(struct grain_htab_scope *s)
{
	struct grain_htab *h = s->h;
	htab_stripe *st = s->stripe;

	if (s->retired != NULL) {
		struct grain_hnode *list = s->retired;
		s->retired = NULL;
		htab_process_retired(h, list);
	}
	if ((s->todo & GRAIN_IMPL_HTAB_TODO_EVICTING) ||
	    ((s->todo & GRAIN_IMPL_HTAB_TODO_EVICT) &&
	     htab_total_near(h, st) > h->mem_high))
		htab_evict(h, st, s->hash, s->now);
	s->todo = 0;
	if (htab_resize_wanted(st))
		htab_resize_if_due(h, st);
}

void grain_impl_htab_unlock_slow(struct grain_htab_scope *s)
{
	struct grain_hnode *batch = NULL;

	/* Still under the lock: the stripe's own old entries go first. */
	if (s->todo & GRAIN_IMPL_HTAB_TODO_EVICT)
		htab_evict_own(s);
	if (s->todo & GRAIN_IMPL_HTAB_TODO_RECLAIM)
		batch = grain_impl_htab_take_batch(s->stripe);
	grain_impl_spin_release(&s->stripe->lock);
	/* Its nodes were removed (no callback is due) and named their
	 * owner when they joined it: hand it over without a walk. */
	if (batch != NULL)
		call_rcu_list(s->h, batch);
	grain_impl_htab_after_unlock(s);
}

/* --- node checks of the _locked calls --------------------------------------- */

/* Is @n a node of the scope's stripe that the table holds? Its state and
 * stripe first, then its presence in its bucket chain. */
static int check_node(struct grain_htab_scope *s, struct grain_hnode *n)
{
	if (s == NULL || s->stripe == NULL || n == NULL)
		return -EINVAL;
	if (n->state != GRAIN_IMPL_HNODE_LINKED)
		return -ENOENT;
	if (&s->h->stripes[grain_impl_htab_stripe_index(s->h, n->hash)] !=
	    s->stripe)
		return -EINVAL;
	unsigned i;
	if (grain_impl_htab_slot_of(grain_impl_htab_array_locked(s->stripe), n,
				    &i) == NULL)
		return -ENOENT; /* linked in another table */
	return 0;
}

int grain_htab_remove_locked(struct grain_htab_scope *s, struct grain_hnode *n)
{
	int rc = check_node(s, n);

	if (rc == 0) {
		grain_impl_htab_retire(s->h, s->stripe, n, GRAIN_HTAB_REMOVED,
				       &s->retired, &s->todo);
		if (htab_resize_wanted(s->stripe))
			s->todo |= GRAIN_IMPL_HTAB_TODO_RESIZE;
	}
	return rc;
}

int grain_htab_touch_locked(struct grain_htab_scope *s, struct grain_hnode *n,
			    uint64_t now)
{
	int rc = check_node(s, n);

	if (rc == 0) {
		htab_stripe *st = s->stripe;
		bool clock = grain_impl_htab_is_clock(s->h);
		if (!clock)
			grain_impl_htab_lru_unlink(st, n);
		/* Atomic, as the charge below: lock-free readers read it
		 * (grain_htab_node_stamp()). */
		__atomic_store_n(&n->stamp, now, __ATOMIC_RELAXED);
		if (clock) {
			grain_impl_htab_clock_mark(n);
		} else {
			grain_impl_htab_lru_append(st, n);
			grain_impl_htab_set_oldest(st);
		}
		s->now = now;
	}
	return rc;
}

int grain_htab_charge_locked(struct grain_htab_scope *s, struct grain_hnode *n,
			     size_t bytes)
{
	int rc = check_node(s, n);

	if (rc != 0)
		return rc;
	if (bytes > UINT32_MAX - (size_t)n->charge)
		return -EINVAL;
	__atomic_store_n(&n->charge, n->charge + (uint32_t)bytes,
			 __ATOMIC_RELAXED);
	grain_impl_htab_add_bytes(s->h, s->stripe, (int64_t)bytes);
	if (bytes != 0 && s->h->policy == GRAIN_HTAB_EVICT &&
	    s->h->mem_high != 0)
		s->todo |= GRAIN_IMPL_HTAB_TODO_EVICT;
	return 0;
}

int grain_htab_uncharge_locked(struct grain_htab_scope *s,
			       struct grain_hnode *n, size_t bytes)
{
	int rc = check_node(s, n);

	if (rc != 0)
		return rc;
	if (bytes > n->charge)
		return -EINVAL;
	__atomic_store_n(&n->charge, n->charge - (uint32_t)bytes,
			 __ATOMIC_RELAXED);
	grain_impl_htab_add_bytes(s->h, s->stripe, -(int64_t)bytes);
	return 0;
}

/* --- walk -------------------------------------------------------------------- */

/* Call @fn on every entry of the stripe of scope @s, in slot order (a
 * CLOCK table's walk). @fn may retire the node (its slot empties) or
 * touch it (it stays put), neither of which moves another entry: the
 * array does not change under the lock until the unlock's resize.
 * @return @fn's nonzero value, or 0. */
static int walk_slots(struct grain_htab_scope *s, grain_htab_walk_fn *fn,
		      void *ctx)
{
	const htab_array *a = grain_impl_htab_array_locked(s->stripe);
	uint32_t nb = a->mask + 1 + a->over_used;

	for (uint32_t k = 0; k < nb; k++) {
		struct grain_impl_htab_bucket *b = &s->stripe->b0[k];
		for (unsigned i = 0; i < GRAIN_HTAB_BUCKET_SLOTS; i++) {
			struct grain_hnode *n = atomic_load_explicit(
				&b->node[i], memory_order_relaxed);
			if (n == NULL)
				continue;
			int rc = fn(s, n, ctx);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

/* Walk stripe @i under its lock, oldest entry first (slot order in a
 * CLOCK table). @return @fn's nonzero value, or 0. */
static int walk_stripe(struct grain_htab *h, uint64_t i, grain_htab_walk_fn *fn,
		       void *ctx)
{
	struct grain_htab_scope s = {
		.h = h,
		.stripe = &h->stripes[i],
		/* A hash of this stripe, as a key's would be: the unlock's
		 * eviction seeds its sampling with it. No time (.now 0):
		 * what that eviction takes counts as evicted, not expired. */
		.hash = i << 48,
	};
	int rc = 0;

	grain_impl_spin_acquire(&s.stripe->lock);
	if (grain_impl_htab_is_clock(h)) {
		rc = walk_slots(&s, fn, ctx);
		grain_htab_unlock(&s);
		return rc;
	}
	/* The newest entry as the walk starts: an entry @fn touches moves
	 * behind it, and the walk ends there. */
	struct grain_hnode *last = s.stripe->lru_tail;
	for (struct grain_hnode *n = s.stripe->lru_head; n != NULL;) {
		/* Before @fn, which may retire the node (its links then
		 * carry the retired list) or move it to the tail. */
		struct grain_hnode *next = n->next;
		bool end = n == last;
		rc = fn(&s, n, ctx);
		if (rc != 0 || end)
			break;
		n = next;
	}
	grain_htab_unlock(&s);
	return rc;
}

int grain_htab_walk(struct grain_htab *h, grain_htab_walk_fn *fn, void *ctx)
{
	if (h == NULL || fn == NULL)
		return -EINVAL;
	_Static_assert(HTAB_MAX_STRIPES <= (1u << 16),
		       "a stripe index fits the hash bits it is taken from");
	for (uint64_t i = 0; i <= h->smask; i++) {
		int rc = walk_stripe(h, i, fn, ctx);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* --- lifecycle -------------------------------------------------------------- */

static bool is_pow2(unsigned x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

static int check_config(const struct grain_htab_config *cfg,
			const struct grain_alloc *alloc)
{
	if (cfg == NULL || cfg->ops.hash == NULL || cfg->ops.eq == NULL ||
	    (cfg->flags & ~(GRAIN_HTAB_NO_RCU | GRAIN_HTAB_BATCH_RECLAIM |
			    GRAIN_HTAB_EVICT_CLOCK)) != 0 ||
	    (cfg->policy != GRAIN_HTAB_EVICT &&
	     cfg->policy != GRAIN_HTAB_REFUSE))
		return -EINVAL;
	/* Half a pair of hooks would mix two allocators. */
	if (alloc != NULL && (alloc->alloc == NULL) != (alloc->free == NULL))
		return -EINVAL;
	unsigned stripes = cfg->stripes ? cfg->stripes : HTAB_DEFAULT_STRIPES;
	unsigned buckets = cfg->buckets ? cfg->buckets : HTAB_DEFAULT_BUCKETS;
	if (!is_pow2(stripes) || stripes > HTAB_MAX_STRIPES ||
	    !is_pow2(buckets) || buckets > HTAB_MAX_BUCKETS ||
	    cfg->mem_low > cfg->mem_high || cfg->mem_batch > INT32_MAX ||
	    cfg->reclaim_batch > GRAIN_HTAB_RECLAIM_BATCH_MAX)
		return -EINVAL;
		/* The byte totals are signed 64-bit with room to spare. A 32-bit
	 * size_t always fits (and the comparison would be constant there). */
#if SIZE_MAX > INT64_MAX / 4
	if (cfg->mem_high > INT64_MAX / 4)
		return -EINVAL;
#endif
	return 0;
}

/* The default fold batch keeps the lag (stripes * batch) under
 * mem_high / 64, and at most 64 KiB a stripe. */
static int64_t default_batch(const struct grain_htab_config *cfg,
			     unsigned stripes)
{
	int64_t b = HTAB_DEFAULT_BATCH;

	if (cfg->mem_high != 0) {
		int64_t l = (int64_t)(cfg->mem_high / 64u / stripes);
		b = l < 1 ? 1 : l < b ? l : b;
	}
	return b;
}

/* The table's settings from a checked @cfg. */
static void apply_config(struct grain_htab *h,
			 const struct grain_htab_config *cfg, unsigned stripes,
			 unsigned buckets)
{
	h->smask = stripes - 1u;
	h->ops = cfg->ops;
	h->ctx = cfg->ctx;
	if (cfg->secret != NULL) {
		h->secret = *cfg->secret;
	} else if (grain_hash_key_random(&h->secret) != 0) {
		/* -EIO: the key derived from the clock and addresses is in
		 * place (hash.h); the table works with it. */
	}
	h->min_buckets = buckets;
	h->max_load = cfg->max_load ? cfg->max_load : HTAB_DEFAULT_MAX_LOAD;
	h->max_chain = cfg->max_chain ? cfg->max_chain : HTAB_DEFAULT_MAX_CHAIN;
	h->mem_high = (int64_t)cfg->mem_high;
	h->mem_low = cfg->mem_low ? (int64_t)cfg->mem_low
				  : (int64_t)(cfg->mem_high / 4 * 3);
	h->mem_batch = cfg->mem_batch ? (int64_t)cfg->mem_batch
				      : default_batch(cfg, stripes);
	/* Two remainders a stripe, each under half the batch: together
	 * they stay under mem_batch, as documented. */
	h->mem_fold = h->mem_batch / 2 > 0 ? h->mem_batch / 2 : 1;
	h->policy = cfg->policy;
	h->evict_above = h->policy == GRAIN_HTAB_EVICT && h->mem_high != 0
				 ? h->mem_high
				 : INT64_MAX;
	h->ttl = cfg->ttl;
	h->flags = cfg->flags;
	h->reclaim_batch = cfg->reclaim_batch ? cfg->reclaim_batch
					      : GRAIN_IMPL_HTAB_RECLAIM_BATCH;
	/* Batches wait for call_rcu only: without RCU readers nodes go back
	 * at once, and ops.defer takes them one by one. */
	if ((h->flags & GRAIN_HTAB_NO_RCU) || h->ops.defer != NULL)
		h->flags &= ~GRAIN_HTAB_BATCH_RECLAIM;
	h->flavor = cfg->flavor != NULL ? cfg->flavor : &urcu_memb_flavor;
}

int grain_htab_create(struct grain_htab **htabp,
		      const struct grain_htab_config *cfg,
		      const struct grain_alloc *alloc)
{
	if (htabp == NULL || check_config(cfg, alloc) != 0)
		return -EINVAL;
	unsigned stripes = cfg->stripes ? cfg->stripes : HTAB_DEFAULT_STRIPES;
	unsigned buckets = cfg->buckets ? cfg->buckets : HTAB_DEFAULT_BUCKETS;
	size_t dir_size =
		((size_t)stripes * sizeof(uintptr_t) + GRAIN_CACHELINE - 1) /
		GRAIN_CACHELINE * GRAIN_CACHELINE;
	size_t head = (sizeof(struct grain_htab) + GRAIN_CACHELINE - 1) /
		      GRAIN_CACHELINE * GRAIN_CACHELINE;
	size_t size = head + dir_size + (size_t)stripes * sizeof(htab_stripe);
	struct grain_htab *h = grain_mem_alloc(alloc, size, GRAIN_CACHELINE);

	if (h == NULL)
		return -ENOMEM;
	memset(h, 0, size);
	h->dir = (_Atomic(uintptr_t) *)(void *)((char *)h + head);
	h->stripes = (htab_stripe *)(void *)((char *)h + head + dir_size);
	apply_config(h, cfg, stripes, buckets);
	if (alloc != NULL)
		h->alloc = *alloc;
	h->memsize = size;
	atomic_init(&h->total, 0);
	for (unsigned i = 0; i < stripes; i++) {
		htab_stripe *st = &h->stripes[i];
		grain_spin_init(&st->lock);
		st->index = i;
		atomic_init(&st->oldest, UINT64_MAX);
		atomic_init(&st->buckets, buckets);
		st->hold = UINT32_MAX;
		htab_set_grow_at(h, st, buckets);
	}
	if (htab_arrays_first(h, buckets, buckets / 8u + 2u) != 0) {
		grain_mem_free(alloc, h, size, GRAIN_CACHELINE);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < stripes; i++) {
		htab_array *a = htab_dir_load(h, i);

		h->stripes[i].b0 = a->b;
		h->stripes[i].mask = a->mask;
	}
	*htabp = h;
	return 0;
}

void grain_htab_reclaim_flush(struct grain_htab *h)
{
	if (h == NULL || (h->flags & GRAIN_HTAB_BATCH_RECLAIM) == 0)
		return;
	for (uint64_t i = 0; i <= h->smask; i++) {
		htab_stripe *st = &h->stripes[i];
		grain_impl_spin_acquire(&st->lock);
		struct grain_hnode *list = grain_impl_htab_take_batch(st);
		grain_impl_spin_release(&st->lock);
		/* Removed nodes only: no callback runs here, and none waits
		 * on a queue for a table that destroy is about to free. */
		if (list != NULL)
			process_list(h, list);
	}
}

/* Hand every entry of a CLOCK table's stripe @st to reclaim (reason
 * DESTROYED), slot by slot: it keeps no list. */
static void destroy_slots(struct grain_htab *h, htab_stripe *st)
{
	const htab_array *a = grain_impl_htab_array_locked(st);
	uint32_t nb = a->mask + 1 + a->over_used;

	for (uint32_t k = 0; k < nb; k++) {
		for (unsigned i = 0; i < GRAIN_HTAB_BUCKET_SLOTS; i++) {
			struct grain_hnode *n = atomic_load_explicit(
				&st->b0[k].node[i], memory_order_relaxed);
			if (n == NULL)
				continue;
			n->state = GRAIN_IMPL_HNODE_FREE;
			if (h->ops.reclaim != NULL)
				h->ops.reclaim(n, GRAIN_HTAB_DESTROYED, h->ctx);
		}
	}
}

void grain_htab_destroy(struct grain_htab *h)
{
	if (h == NULL)
		return;
	/* Removed nodes still batched go to RCU first: a reader that found
	 * one before its removal may still hold it. */
	grain_htab_reclaim_flush(h);
	process_queued(h);
	/* Nobody else uses the table. The caller of an RCU table may know
	 * that only from a grace period after its readers' last lookup,
	 * which TSan sees for grain_rcu_* readers (the token) and for no
	 * other (htab_internal.h): the frees below go unchecked then. */
	bool rcu = htab_has_rcu(h);
	if (rcu) {
		HTAB_TSAN_ACQUIRE(&grain_impl_htab_grace_token);
		HTAB_TSAN_RECLAIM_BEGIN();
	}
	for (uint64_t i = 0; i <= h->smask; i++) {
		htab_stripe *st = &h->stripes[i];
		/* Reclaim at once. */
		if (grain_impl_htab_is_clock(h))
			destroy_slots(h, st);
		while (st->lru_head != NULL) {
			struct grain_hnode *n = st->lru_head;
			st->lru_head = n->next;
			n->state = GRAIN_IMPL_HNODE_FREE;
			if (h->ops.reclaim != NULL)
				h->ops.reclaim(n, GRAIN_HTAB_DESTROYED, h->ctx);
		}
	}
	if (rcu)
		HTAB_TSAN_RECLAIM_END();
	/* Deferred reclaims and old arrays still point at the table. */
	if (htab_has_rcu(h) && h->ops.defer == NULL) {
		h->flavor->barrier();
		/* Every reclaim (rcu_done releases the token after its last
		 * touch of the table) happens-before the frees below. */
		HTAB_TSAN_ACQUIRE(&barrier_token);
	}
	for (uint64_t i = 0; i <= h->smask; i++) {
		/* Acquire: pairs with the decrement ending reclaim_now(). */
		while (atomic_load_explicit(&h->stripes[i].deferred,
					    memory_order_acquire) != 0) {
			struct timespec ts = { 0, 100000 };
			nanosleep(&ts, NULL); /* the user's defer() */
		}
	}
	if (rcu)
		HTAB_TSAN_RECLAIM_BEGIN();
	for (uint64_t i = 0; i <= h->smask; i++)
		htab_array_free(h, htab_dir_load(h, (uint32_t)i));
	htab_slab_free(h);
	struct grain_alloc alloc = h->alloc;
	grain_mem_free(&alloc, h, h->memsize, GRAIN_CACHELINE);
	if (rcu)
		HTAB_TSAN_RECLAIM_END();
}

uint64_t grain_htab_hash(const struct grain_htab *h, const void *key)
{
	if (h == NULL || key == NULL)
		return 0;
	return h->ops.hash(key, &h->secret, h->ctx);
}

/* --- bytes and statistics ---------------------------------------------------- */

size_t grain_htab_bytes(const struct grain_htab *h)
{
	if (h == NULL)
		return 0;
	int64_t t = htab_total_near(h, NULL);
	return t < 0 ? 0 : (size_t)t;
}

size_t grain_htab_bytes_exact(const struct grain_htab *h)
{
	if (h == NULL)
		return 0;
	int64_t t = htab_total_near(h, NULL);

	for (uint64_t i = 0; i <= h->smask; i++)
		t += htab_remainder(&h->stripes[i]);
	return t < 0 ? 0 : (size_t)t;
}

void grain_htab_get_stats(const struct grain_htab *h,
			  struct grain_htab_stats *st)
{
	if (st == NULL)
		return;
	memset(st, 0, sizeof(*st));
	if (h == NULL)
		return;
	for (uint64_t i = 0; i <= h->smask; i++) {
		htab_stripe *s = (htab_stripe *)&h->stripes[i];
		st->entries +=
			atomic_load_explicit(&s->entries, memory_order_relaxed);
		st->inserts += grain_impl_htab_get(&s->inserts);
		st->lookups += grain_impl_htab_get(&s->hits) +
			       grain_impl_htab_get(&s->misses);
		st->hits += grain_impl_htab_get(&s->hits);
		st->evictions += grain_impl_htab_get(&s->evictions);
		st->expirations += grain_impl_htab_get(&s->expirations);
		st->refusals += grain_impl_htab_get(&s->refusals);
		st->chain_refusals += grain_impl_htab_get(&s->chain_refusals);
		st->resizes += grain_impl_htab_get(&s->resizes);
		if (grain_impl_htab_get(&s->longest) > st->longest_chain)
			st->longest_chain = grain_impl_htab_get(&s->longest);
		st->buckets +=
			atomic_load_explicit(&s->buckets, memory_order_relaxed);
	}
	st->bytes = grain_htab_bytes_exact(h);
}

/* The name before 0.6 (deprecated in htab.h), kept exported for the
 * programs built with it. */
void grain_htab_stats(const struct grain_htab *h, struct grain_htab_stats *st)
{
	grain_htab_get_stats(h, st);
}

/* --- RCU helpers (memb flavour) ---------------------------------------------- */

#ifndef NDEBUG
/* Debug builds catch a read-side section on a thread that never
 * registered: liburcu would let it through, and its grace periods would
 * not wait for it. */
static _Thread_local bool registered;

static void check_registered(void)
{
	if (!registered) {
		fputs("grain: grain_rcu_read_lock() on a thread that did not "
		      "call grain_rcu_register_thread()\n",
		      stderr);
		abort();
	}
}
#define SET_REGISTERED(v) (registered = (v))
#else
#define check_registered() ((void)0)
#define SET_REGISTERED(v) ((void)0)
#endif

void grain_rcu_register_thread(void)
{
	urcu_memb_register_thread();
	SET_REGISTERED(true);
}

void grain_rcu_unregister_thread(void)
{
	SET_REGISTERED(false);
	urcu_memb_unregister_thread();
}

void grain_rcu_read_lock(void)
{
	check_registered();
	urcu_memb_read_lock();
}

void grain_rcu_read_unlock(void)
{
	HTAB_TSAN_RELEASE(&grain_impl_htab_grace_token);
	urcu_memb_read_unlock();
}

void grain_rcu_barrier(void)
{
	urcu_memb_barrier();
	HTAB_TSAN_ACQUIRE(&barrier_token);
}
