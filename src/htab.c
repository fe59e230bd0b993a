/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab.c - grain_htab: striped-lock hash table with LRU, byte watermarks,
 * TTL and lock-free RCU lookups.
 *
 * Design. The table is an array of stripes; a stripe is a complete small
 * table (spinlock, bucket array, LRU list, byte count, counters) on its own
 * cache lines, chosen by the hash's high bits. Writers take one stripe
 * lock; readers take none (RCU). Work that must not run under a lock
 * (user callbacks for evicted and expired nodes, deferral of reclaim,
 * eviction across stripes, resizing) is collected in the scope and done by
 * grain_htab_unlock() after the lock is released.
 *
 * Resize without waiting: nodes carry one chain link per table generation
 * (next[0], next[1]). A resize relinks every node of the stripe through the
 * generation the current array does not use, publishes the new array, and
 * retires the old one after a grace period; until then the old links are
 * left alone, so old readers keep a consistent view (see htab.h, §2).
 *
 * Bytes: each stripe's exact count, plus a folded table total updated in
 * batches, compared exactly only near a watermark (the kernel's
 * percpu_counter and __percpu_counter_compare()).
 *
 * References: Linux net/ipv4/inet_fragment.c (2013: per-bucket locks, LRU,
 * thresholds; 2018: RCU lookup, admission control), lib/percpu_counter.c;
 * Triplett, McKenney, Walpole, "Resizable, Scalable, Concurrent Hash
 * Tables via Relativistic Programming" (USENIX ATC 2011); liburcu
 * (urcu-memb, call_rcu).
 */
#define _GNU_SOURCE
#include <grain/htab.h>

#include <limits.h>
#include <stdalign.h>
#include <string.h>
#include <time.h>
#include <urcu/urcu-memb.h>

/* ThreadSanitizer cannot see liburcu's grace periods (it is not
 * instrumented): tell it that every read-side section ends before any
 * reclaim that follows a grace period, and that a node's retirement
 * happens before its callback. */
static char grace_token;   /* read-side sections -> reclaims */
static char barrier_token; /* reclaims -> grain_rcu_barrier() */
#if GRAIN_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define TSAN_RELEASE(p) __tsan_release(p)
#define TSAN_ACQUIRE(p) __tsan_acquire(p)
#else
#define TSAN_RELEASE(p) ((void)(p))
#define TSAN_ACQUIRE(p) ((void)(p))
#endif

#define DEFAULT_STRIPES 64u
#define DEFAULT_BUCKETS 16u
#define DEFAULT_MAX_LOAD 2u
#define DEFAULT_MAX_CHAIN 64u
#define DEFAULT_BATCH (64u * 1024u)
#define MAX_STRIPES 65536u
#define MAX_BUCKETS (1u << 24)
#define EXPIRE_ON_INSERT 2u  /* old entries an insert may expire */
#define EVICT_BATCH 32u      /* entries evicted per stripe lock hold */
#define STAT_SLOTS 16u       /* striped counters for lock-free lookups */

enum {
	NODE_FREE = 0,
	NODE_LINKED = 0x4c4b4e44u,  /* arbitrary: catches garbage nodes */
	NODE_RETIRED = 0x52540000u, /* | reason */
	NODE_ARRAY = 0x41525259u,   /* carrier of a retired bucket array */
};

enum { TODO_EVICT = 1u };

struct bucket_array {
	unsigned mask;              /* read by every chain walk: first */
	unsigned gen;               /* which next[] its chains use */
	struct grain_hnode carrier; /* defers this array's freeing */
	struct grain_hnode *_Atomic heads[];
};

struct stripe {
	/* Line 1: what every scope reads or writes. */
	alignas(GRAIN_CACHELINE) struct grain_spinlock lock;
	_Atomic(bool) resize_due;
	_Atomic(bool) grow_wanted;               /* a chain hit max_chain */
	struct bucket_array *_Atomic array;
	_Atomic(unsigned) entries;               /* written under the lock */
	unsigned index;
	_Atomic(uint64_t) lookups, hits;
	struct grain_hnode *lru_head, *lru_tail; /* head: least recent */
	int64_t bytes;                           /* exact */
	/* Line 2: read by other threads (evictors, stats, exact sums). */
	alignas(GRAIN_CACHELINE) _Atomic(int64_t) unfolded; /* not in total */
	_Atomic(uint64_t) oldest;                /* head's stamp; MAX: empty */
	_Atomic(unsigned) buckets;               /* array's size, for stats */
	/* The array replaced by the last resize, until no reader can be on
	 * it; the next resize must wait for that. */
	struct bucket_array *_Atomic retiring;
	/* Counters: written under the lock, read by stats() at any time. */
	_Atomic(uint64_t) inserts, evictions, expirations;
	_Atomic(uint64_t) refusals, chain_refusals, longest, resizes;
	/* Retired nodes and arrays whose reclaim has not run yet: destroy
	 * waits for them, whoever defers them. */
	_Atomic(uint64_t) deferred;
};

struct stat_slot {
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) lookups;
	_Atomic(uint64_t) hits;
};

struct grain_htab {
	struct grain_htab_ops ops;
	void *ctx;
	struct grain_hash_key secret;
	unsigned nstripes, stripe_shift;
	unsigned min_buckets, max_load, max_chain;
	int64_t mem_high, mem_low, mem_batch;
	enum grain_htab_policy policy;
	uint64_t ttl;
	unsigned flags;
	struct grain_alloc alloc;
	size_t memsize;
	alignas(GRAIN_CACHELINE) _Atomic(int64_t) total; /* folded bytes */
	alignas(GRAIN_CACHELINE) struct grain_spinlock evict_lock;
	/* The evictor's private snapshot of every stripe's oldest stamp
	 * (under evict_lock), after the stripes in the same allocation. */
	uint64_t *evict_seen;
	struct stat_slot rstat[STAT_SLOTS];
	struct stripe stripes[];
};

_Static_assert(sizeof(struct rcu_head) <= sizeof(((struct grain_hnode *)0)->rcu),
	       "the node's rcu storage holds liburcu's rcu_head");
_Static_assert(_Alignof(struct rcu_head) <= _Alignof(void *),
	       "and is aligned for it");

/* --- small helpers ------------------------------------------------------ */

static bool is_pow2(unsigned x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

static unsigned log2u(unsigned x)
{
	return 31u - (unsigned)__builtin_clz(x);
}

/* Counters are written under a stripe lock only: a plain add published
 * with a relaxed store, so readers see whole values. */
static void bump(_Atomic(uint64_t) *c, uint64_t n)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n,
			      memory_order_relaxed);
}

static uint64_t get(const _Atomic(uint64_t) *c)
{
	return atomic_load_explicit((_Atomic(uint64_t) *)c, memory_order_relaxed);
}

static unsigned entries_of(const struct stripe *st)
{
	return atomic_load_explicit(&((struct stripe *)st)->entries,
				    memory_order_relaxed);
}

static void entries_add(struct stripe *st, int d)
{
	atomic_store_explicit(&st->entries, (unsigned)((int)entries_of(st) + d),
			      memory_order_relaxed);
}

static struct stripe *stripe_of(struct grain_htab *h, uint64_t hash)
{
	return &h->stripes[h->nstripes == 1 ? 0 : hash >> h->stripe_shift];
}

static struct bucket_array *array_of(struct stripe *st)
{
	/* Acquire: pairs with the release publishing a new array. */
	return atomic_load_explicit(&st->array, memory_order_acquire);
}

static bool has_rcu(const struct grain_htab *h)
{
	return (h->flags & GRAIN_HTAB_NO_RCU) == 0;
}

static bool expired(const struct grain_htab *h, const struct grain_hnode *n,
		    uint64_t now)
{
	return h->ttl != 0 && now >= n->stamp && now - n->stamp >= h->ttl;
}

/* --- bucket arrays ------------------------------------------------------ */

static size_t array_size(unsigned buckets)
{
	return sizeof(struct bucket_array) +
	       (size_t)buckets * sizeof(struct grain_hnode *);
}

static struct bucket_array *array_new(struct grain_htab *h, unsigned buckets,
				      unsigned gen, unsigned stripe)
{
	struct bucket_array *a =
		grain_mem_alloc(&h->alloc, array_size(buckets), GRAIN_CACHELINE);

	if (a == NULL)
		return NULL;
	memset(&a->carrier, 0, sizeof(a->carrier));
	a->carrier.state = NODE_ARRAY;
	a->carrier.owner = h;
	a->carrier.aux = stripe;
	a->mask = buckets - 1;
	a->gen = gen;
	for (unsigned i = 0; i < buckets; i++)
		atomic_init(&a->heads[i], NULL);
	return a;
}

static void array_free(struct grain_htab *h, struct bucket_array *a)
{
	grain_mem_free(&h->alloc, a, array_size(a->mask + 1), GRAIN_CACHELINE);
}

/* --- reclamation -------------------------------------------------------- */

/* The grace period after @n's retirement has passed: hand it back. */
static void reclaim_now(struct grain_hnode *n)
{
	/* Before the first read of the node: the retirement (TSAN_RELEASE in
	 * defer_reclaim) happens-before everything here. */
	TSAN_ACQUIRE(n);
	struct grain_htab *h = n->owner;
	struct stripe *st;

	if (n->state == NODE_ARRAY) {
		struct bucket_array *a =
			grain_container_of(n, struct bucket_array, carrier);
		struct bucket_array *expect = a;
		st = &h->stripes[n->aux];
		/* Unless a writer already waited out the grace period. */
		atomic_compare_exchange_strong(&st->retiring, &expect, NULL);
		array_free(h, a);
	} else {
		enum grain_htab_reason why =
			(enum grain_htab_reason)(n->state & 0xff);
		st = stripe_of(h, n->hash);
		if (h->ops.reclaim != NULL)
			h->ops.reclaim(n, why, h->ctx);
	}
	/* Release: the last touch of the table; destroy may free it as soon
	 * as it reads the count that this makes. */
	atomic_fetch_sub_explicit(&st->deferred, 1, memory_order_release);
}

static void rcu_done(struct rcu_head *head)
{
	TSAN_ACQUIRE(&grace_token);
	reclaim_now((struct grain_hnode *)(void *)((char *)head -
						   offsetof(struct grain_hnode,
							    rcu)));
	TSAN_RELEASE(&barrier_token);
}

/* @n is unlinked from everything: reclaim it once no reader can see it. */
static void defer_reclaim(struct grain_htab *h, struct grain_hnode *n)
{
	struct stripe *st = n->state == NODE_ARRAY ? &h->stripes[n->aux]
						   : stripe_of(h, n->hash);

	atomic_fetch_add_explicit(&st->deferred, 1, memory_order_relaxed);
	if (!has_rcu(h)) {
		reclaim_now(n);
		return;
	}
	TSAN_RELEASE(n);
	if (h->ops.defer != NULL)
		h->ops.defer(n, reclaim_now, h->ctx);
	else
		urcu_memb_call_rcu((struct rcu_head *)(void *)&n->rcu, rcu_done);
}

/* Nodes the table retired during a scope, linked through lru_next: run
 * the user's unlinked callback (evicted, expired), then defer reclaim. */
static void process_retired(struct grain_htab *h, struct grain_hnode *list)
{
	while (list != NULL) {
		struct grain_hnode *n = list;
		enum grain_htab_reason why =
			(enum grain_htab_reason)(n->state & 0xff);

		list = n->lru_next;
		if ((why == GRAIN_HTAB_EVICTED || why == GRAIN_HTAB_EXPIRED) &&
		    h->ops.unlinked != NULL)
			h->ops.unlinked(n, why, h->ctx);
		defer_reclaim(h, n);
	}
}

/* --- bytes -------------------------------------------------------------- */

static int64_t total_exact(const struct grain_htab *h)
{
	struct grain_htab *w = (struct grain_htab *)h;
	int64_t sum = atomic_load_explicit(&w->total, memory_order_relaxed);

	for (unsigned i = 0; i < h->nstripes; i++)
		sum += atomic_load_explicit(&w->stripes[i].unfolded,
					    memory_order_relaxed);
	return sum;
}

/* Is the total above @limit? Exact only when the folded total is within
 * the folding lag of it. */
static bool total_above(const struct grain_htab *h, int64_t limit)
{
	int64_t folded = atomic_load_explicit(
		&((struct grain_htab *)h)->total, memory_order_relaxed);
	int64_t lag = (int64_t)h->nstripes * h->mem_batch;

	if (folded > limit + lag)
		return true;
	if (folded < limit - lag)
		return false;
	return total_exact(h) > limit;
}

/* Under the stripe lock. */
static void add_bytes(struct grain_htab *h, struct stripe *st, int64_t delta)
{
	st->bytes += delta;
	int64_t unf = atomic_load_explicit(&st->unfolded, memory_order_relaxed) +
		      delta;
	if (unf >= h->mem_batch || unf <= -h->mem_batch) {
		atomic_fetch_add_explicit(&h->total, unf, memory_order_relaxed);
		unf = 0;
	}
	atomic_store_explicit(&st->unfolded, unf, memory_order_relaxed);
}

/* --- LRU (under the stripe lock) ---------------------------------------- */

/* UINT64_MAX means "empty" to evict(); a head stamped UINT64_MAX (a
 * caller's clock may saturate there) reports one less, or it could never
 * be evicted. */
static uint64_t head_stamp(const struct stripe *st)
{
	uint64_t o = st->lru_head ? st->lru_head->stamp : UINT64_MAX;

	return st->lru_head != NULL && o == UINT64_MAX ? UINT64_MAX - 1 : o;
}

static void set_oldest(struct stripe *st)
{
	atomic_store_explicit(&st->oldest, head_stamp(st),
			      memory_order_relaxed);
}

static void lru_append(struct stripe *st, struct grain_hnode *n)
{
	n->lru_next = NULL;
	n->lru_prev = st->lru_tail;
	if (st->lru_tail != NULL)
		st->lru_tail->lru_next = n;
	else
		st->lru_head = n;
	st->lru_tail = n;
	if (st->lru_head == n)
		set_oldest(st);
}

static void lru_unlink(struct stripe *st, struct grain_hnode *n)
{
	bool was_head = st->lru_head == n;

	if (n->lru_prev != NULL)
		n->lru_prev->lru_next = n->lru_next;
	else
		st->lru_head = n->lru_next;
	if (n->lru_next != NULL)
		n->lru_next->lru_prev = n->lru_prev;
	else
		st->lru_tail = n->lru_prev;
	n->lru_prev = n->lru_next = NULL;
	if (was_head)
		set_oldest(st);
}

/* --- chains (under the stripe lock) ------------------------------------- */

static struct grain_hnode *_Atomic *bucket_of(struct bucket_array *a,
					      uint64_t hash)
{
	return &a->heads[hash & a->mask];
}

static void chain_unlink(struct stripe *st, struct grain_hnode *n)
{
	struct bucket_array *a = atomic_load_explicit(&st->array,
						      memory_order_relaxed);
	unsigned g = a->gen;
	struct grain_hnode *_Atomic *pp = bucket_of(a, n->hash);
	struct grain_hnode *cur;

	while ((cur = atomic_load_explicit(pp, memory_order_relaxed)) != n)
		pp = &cur->next[g];
	/* Release: a reader that reaches the successor through this link
	 * sees it initialised. n->next[g] itself is left alone, so a reader
	 * standing on n goes on down the chain. */
	atomic_store_explicit(pp,
			      atomic_load_explicit(&n->next[g],
						   memory_order_relaxed),
			      memory_order_release);
}

static void mark_resize_if_due(struct grain_htab *h, struct stripe *st)
{
	struct bucket_array *a = atomic_load_explicit(&st->array,
						      memory_order_relaxed);
	unsigned buckets = a->mask + 1;

	if ((entries_of(st) > (uint64_t)h->max_load * buckets &&
	     buckets < MAX_BUCKETS) ||
	    (buckets > h->min_buckets &&
	     (uint64_t)entries_of(st) * 8 < (uint64_t)h->max_load * buckets))
		atomic_store_explicit(&st->resize_due, true,
				      memory_order_relaxed);
}

/* Unlink a linked node from chain, LRU and counts, and retire it onto
 * *retired with @why. */
static void retire(struct grain_htab *h, struct stripe *st,
		   struct grain_hnode *n, enum grain_htab_reason why,
		   struct grain_hnode **retired)
{
	chain_unlink(st, n);
	lru_unlink(st, n);
	entries_add(st, -1);
	add_bytes(h, st, -(int64_t)n->charge);
	n->state = NODE_RETIRED | (uint32_t)why;
	n->lru_next = *retired;
	*retired = n;
	if (why == GRAIN_HTAB_EVICTED)
		bump(&st->evictions, 1);
	else if (why == GRAIN_HTAB_EXPIRED)
		bump(&st->expirations, 1);
	mark_resize_if_due(h, st);
}

/* Retire up to @max entries of the stripe that are expired at @now. */
static unsigned expire_stripe(struct grain_htab *h, struct stripe *st,
			      uint64_t now, unsigned max,
			      struct grain_hnode **retired)
{
	unsigned n = 0;

	while (n < max && st->lru_head != NULL &&
	       expired(h, st->lru_head, now)) {
		retire(h, st, st->lru_head, GRAIN_HTAB_EXPIRED, retired);
		n++;
	}
	return n;
}

/* --- resize ------------------------------------------------------------- */

/* Relink the stripe into @buckets buckets. Under the stripe lock. */
static int relink(struct grain_htab *h, struct stripe *st, unsigned buckets)
{
	struct bucket_array *old = atomic_load_explicit(&st->array,
							memory_order_relaxed);

	if (old->mask + 1 == buckets)
		return 0;
	if (atomic_load_explicit(&st->retiring, memory_order_acquire) != NULL)
		return -EBUSY;
	unsigned g = old->gen, ng = g ^ 1u;
	struct bucket_array *a = array_new(h, buckets, ng, st->index);
	if (a == NULL)
		return -ENOMEM;
	for (unsigned i = 0; i <= old->mask; i++) {
		struct grain_hnode *n =
			atomic_load_explicit(&old->heads[i], memory_order_relaxed);
		while (n != NULL) {
			struct grain_hnode *_Atomic *b = bucket_of(a, n->hash);
			atomic_store_explicit(&n->next[ng],
					      atomic_load_explicit(
						      b, memory_order_relaxed),
					      memory_order_relaxed);
			atomic_store_explicit(b, n, memory_order_relaxed);
			n = atomic_load_explicit(&n->next[g],
						 memory_order_relaxed);
		}
	}
	/* Release: readers that load the new array see all of its chains. */
	atomic_store_explicit(&st->array, a, memory_order_release);
	atomic_store_explicit(&st->buckets, buckets, memory_order_relaxed);
	bump(&st->resizes, 1);
	if (has_rcu(h)) {
		atomic_store_explicit(&st->retiring, old, memory_order_relaxed);
		defer_reclaim(h, &old->carrier);
	} else {
		array_free(h, old);
	}
	return 0;
}

/*
 * Make sure no reader can still be on the array the last resize replaced,
 * waiting for a grace period if need be (never under a lock, never inside
 * a read-side section). @return false if that is not possible now.
 */
static bool retiring_done(struct grain_htab *h, struct stripe *st, bool wait)
{
	struct bucket_array *a =
		atomic_load_explicit(&st->retiring, memory_order_acquire);

	if (a == NULL)
		return true;
	if (h->ops.defer != NULL || !wait || urcu_memb_read_ongoing())
		return false;
	/* The array was unpublished before this grace period began. Its
	 * call_rcu callback still frees it; we only stop waiting for it. */
	urcu_memb_synchronize_rcu();
	TSAN_ACQUIRE(&grace_token);
	atomic_compare_exchange_strong(&st->retiring, &a, NULL);
	return true;
}

/* A resize became due on @st: grow or shrink it by a factor of two. */
static void resize_if_due(struct grain_htab *h, struct stripe *st)
{
	if (!atomic_load_explicit(&st->resize_due, memory_order_relaxed) ||
	    !retiring_done(h, st, true))
		return;
	grain_spin_lock(&st->lock);
	if (atomic_load_explicit(&st->resize_due, memory_order_relaxed)) {
		struct bucket_array *a = atomic_load_explicit(
			&st->array, memory_order_relaxed);
		unsigned buckets = a->mask + 1, target = buckets;
		bool grow = atomic_exchange_explicit(&st->grow_wanted, false,
						     memory_order_relaxed);
		if ((grow || entries_of(st) > (uint64_t)h->max_load * buckets) &&
		    buckets < MAX_BUCKETS)
			target = buckets * 2;
		else if (buckets > h->min_buckets &&
			 (uint64_t)entries_of(st) * 8 <
				 (uint64_t)h->max_load * buckets)
			target = buckets / 2;
		/* -EBUSY keeps it due; -ENOMEM gives up until the next
		 * insert or remove finds it due again. */
		if (relink(h, st, target) != -EBUSY)
			atomic_store_explicit(&st->resize_due, false,
					      memory_order_relaxed);
	}
	grain_spin_unlock(&st->lock);
}

/* --- eviction ----------------------------------------------------------- */

static void evict_once(struct grain_htab *h, uint64_t now)
{
	/* The exact total once; then subtract what we evict. Bytes others
	 * add meanwhile are seen by the re-check in evict(). */
	int64_t total = total_exact(h);
	/* Every stripe's oldest stamp is read once (one pass over cache
	 * lines other threads write), then kept up to date here: the stripe
	 * evicted from is re-read under its lock, and a stale entry (its head
	 * left meanwhile, so the stripe's real oldest is younger) is caught
	 * under the lock and refreshed before anything is evicted. */
	uint64_t *seen = h->evict_seen;
	unsigned idle = 0, stale = h->nstripes + 1, stale_all = 0;
	while (total > h->mem_low && idle < 2 * h->nstripes &&
	       stale_all < 16 * h->nstripes) {
		/* After more stale picks than stripes (others keep changing
		 * their heads), take a fresh snapshot of all of them. */
		if (stale > h->nstripes) {
			for (unsigned i = 0; i < h->nstripes; i++)
				seen[i] = atomic_load_explicit(
					&h->stripes[i].oldest,
					memory_order_relaxed);
			stale = 0;
		}
		/* The stripe with the oldest head, and the runner-up's age:
		 * evict from the oldest while it stays the oldest. */
		uint64_t best = UINT64_MAX, second = UINT64_MAX;
		unsigned pick = 0;
		for (unsigned i = 0; i < h->nstripes; i++) {
			uint64_t o = seen[i];
			if (o < best) {
				second = best;
				best = o;
				pick = i;
			} else if (o < second) {
				second = o;
			}
		}
		if (best == UINT64_MAX)
			break; /* every stripe is empty */
		struct stripe *st = &h->stripes[pick];
		struct grain_hnode *retired = NULL;
		unsigned n = 0;
		grain_spin_lock(&st->lock);
		if (head_stamp(st) != best) {
			seen[pick] = head_stamp(st); /* stale: choose again */
			grain_spin_unlock(&st->lock);
			stale++;
			stale_all++;
			continue;
		}
		while (n < EVICT_BATCH && st->lru_head != NULL &&
		       (n == 0 || st->lru_head->stamp <= second) &&
		       total > h->mem_low) {
			struct grain_hnode *v = st->lru_head;
			total -= (int64_t)v->charge;
			retire(h, st, v,
			       expired(h, v, now) ? GRAIN_HTAB_EXPIRED
						  : GRAIN_HTAB_EVICTED,
			       &retired);
			n++;
		}
		seen[pick] = head_stamp(st);
		grain_spin_unlock(&st->lock);
		process_retired(h, retired);
		if (n != 0)
			resize_if_due(h, st);
		idle = n == 0 ? idle + 1 : 0;
	}
}

/* Evict down to mem_low. One evictor at a time (a second would only
 * over-evict): a thread that finds one at work leaves its bytes to it,
 * and the evictor, once done, checks the total again, so what others
 * added meanwhile is not left above mem_high. */
static void evict(struct grain_htab *h, uint64_t now)
{
	for (unsigned round = 0; round < 4; round++) {
		if (!grain_spin_trylock(&h->evict_lock))
			return;
		evict_once(h, now);
		grain_spin_unlock(&h->evict_lock);
		if (!total_above(h, h->mem_high))
			return;
	}
}

/* --- lifecycle ---------------------------------------------------------- */

int grain_htab_create(struct grain_htab **htabp,
		      const struct grain_htab_config *cfg,
		      const struct grain_alloc *alloc)
{
	if (htabp == NULL || cfg == NULL || cfg->ops.hash == NULL ||
	    cfg->ops.eq == NULL || (cfg->flags & ~GRAIN_HTAB_NO_RCU) != 0 ||
	    (cfg->policy != GRAIN_HTAB_EVICT && cfg->policy != GRAIN_HTAB_REFUSE))
		return -EINVAL;
	unsigned stripes = cfg->stripes ? cfg->stripes : DEFAULT_STRIPES;
	unsigned buckets = cfg->buckets ? cfg->buckets : DEFAULT_BUCKETS;
	if (!is_pow2(stripes) || stripes > MAX_STRIPES || !is_pow2(buckets) ||
	    buckets > MAX_BUCKETS || cfg->mem_high > INT64_MAX / 4 ||
	    cfg->mem_low > cfg->mem_high || cfg->mem_batch > INT32_MAX)
		return -EINVAL;

	size_t size = sizeof(struct grain_htab) +
		      (size_t)stripes * sizeof(struct stripe) +
		      (size_t)stripes * sizeof(uint64_t);
	struct grain_htab *h = grain_mem_alloc(alloc, size, GRAIN_CACHELINE);
	if (h == NULL)
		return -ENOMEM;
	memset(h, 0, size);
	h->evict_seen = (uint64_t *)(void *)&h->stripes[stripes];
	h->ops = cfg->ops;
	h->ctx = cfg->ctx;
	if (cfg->secret != NULL)
		h->secret = *cfg->secret;
	else
		(void)grain_hash_key_random(&h->secret);
	h->nstripes = stripes;
	h->stripe_shift = 64u - log2u(stripes);
	h->min_buckets = buckets;
	h->max_load = cfg->max_load ? cfg->max_load : DEFAULT_MAX_LOAD;
	h->max_chain = cfg->max_chain ? cfg->max_chain : DEFAULT_MAX_CHAIN;
	h->mem_high = (int64_t)cfg->mem_high;
	h->mem_low = cfg->mem_low ? (int64_t)cfg->mem_low
				  : (int64_t)(cfg->mem_high / 4 * 3);
	h->mem_batch = cfg->mem_batch ? (int64_t)cfg->mem_batch : DEFAULT_BATCH;
	if (cfg->mem_high != 0 && cfg->mem_batch == 0) {
		/* Keep the folding lag under 1/16 of the high watermark. */
		int64_t b = h->mem_high / 16 / (int64_t)stripes;
		h->mem_batch = b < 1 ? 1 : b < h->mem_batch ? b : h->mem_batch;
	}
	h->policy = cfg->policy;
	h->ttl = cfg->ttl;
	h->flags = cfg->flags;
	if (alloc != NULL)
		h->alloc = *alloc;
	h->memsize = size;
	atomic_init(&h->total, 0);
	grain_spin_init(&h->evict_lock);
	for (unsigned i = 0; i < stripes; i++) {
		struct stripe *st = &h->stripes[i];
		grain_spin_init(&st->lock);
		st->index = i;
		atomic_init(&st->oldest, UINT64_MAX);
		struct bucket_array *a = array_new(h, buckets, 0, i);
		if (a == NULL) {
			for (unsigned j = 0; j < i; j++)
				array_free(h, atomic_load(&h->stripes[j].array));
			grain_mem_free(alloc, h, size, GRAIN_CACHELINE);
			return -ENOMEM;
		}
		atomic_init(&st->array, a);
		atomic_init(&st->buckets, buckets);
	}
	*htabp = h;
	return 0;
}

void grain_htab_destroy(struct grain_htab *h)
{
	if (h == NULL)
		return;
	for (unsigned i = 0; i < h->nstripes; i++) {
		struct stripe *st = &h->stripes[i];
		/* Nobody else uses the table: reclaim at once. */
		while (st->lru_head != NULL) {
			struct grain_hnode *n = st->lru_head;
			lru_unlink(st, n);
			n->state = NODE_RETIRED | GRAIN_HTAB_DESTROYED;
			if (h->ops.reclaim != NULL)
				h->ops.reclaim(n, GRAIN_HTAB_DESTROYED, h->ctx);
		}
	}
	/* Deferred reclaims and old arrays still point at the table. */
	if (has_rcu(h) && h->ops.defer == NULL)
		urcu_memb_barrier();
	for (unsigned i = 0; i < h->nstripes; i++) {
		/* Acquire: pairs with the decrement ending reclaim_now(). */
		while (atomic_load_explicit(&h->stripes[i].deferred,
					    memory_order_acquire) != 0) {
			struct timespec ts = { 0, 100000 };
			nanosleep(&ts, NULL); /* the user's defer() */
		}
	}
	for (unsigned i = 0; i < h->nstripes; i++)
		array_free(h, atomic_load(&h->stripes[i].array));
	struct grain_alloc alloc = h->alloc;
	grain_mem_free(&alloc, h, h->memsize, GRAIN_CACHELINE);
}

uint64_t grain_htab_hash(const struct grain_htab *h, const void *key)
{
	return h->ops.hash(key, &h->secret, h->ctx);
}

/* --- scoped access ------------------------------------------------------ */

void grain_htab_lock(struct grain_htab *h, const void *key,
		     struct grain_htab_scope *s)
{
	s->h = h;
	s->hash = h->ops.hash(key, &h->secret, h->ctx);
	s->stripe = stripe_of(h, s->hash);
	s->now = 0;
	s->retired = NULL;
	s->todo = 0;
	grain_spin_lock(&((struct stripe *)s->stripe)->lock);
}

void grain_htab_unlock(struct grain_htab_scope *s)
{
	struct grain_htab *h = s->h;
	struct stripe *st = s->stripe;

	grain_spin_unlock(&st->lock);
	process_retired(h, s->retired);
	s->retired = NULL;
	if ((s->todo & TODO_EVICT) && total_above(h, h->mem_high))
		evict(h, s->now);
	resize_if_due(h, st);
}

static struct grain_hnode *chain_find(struct grain_htab *h,
				      struct bucket_array *a, uint64_t hash,
				      const void *key, unsigned *len)
{
	unsigned g = a->gen, n = 0;
	struct grain_hnode *cur =
		atomic_load_explicit(bucket_of(a, hash), memory_order_acquire);

	for (; cur != NULL;
	     cur = atomic_load_explicit(&cur->next[g], memory_order_acquire)) {
		if (cur->hash == hash && h->ops.eq(cur, key, h->ctx))
			break;
		n++;
	}
	if (len != NULL)
		*len = n;
	return cur;
}

struct grain_hnode *grain_htab_find_locked(struct grain_htab_scope *s,
					   const void *key)
{
	struct stripe *st = s->stripe;
	struct grain_hnode *n =
		chain_find(s->h, atomic_load_explicit(&st->array,
						      memory_order_relaxed),
			   s->hash, key, NULL);

	bump(&st->lookups, 1);
	if (n != NULL)
		bump(&st->hits, 1);
	return n;
}

/* The insert of find_or_insert; *found gets an existing entry. */
static int insert_scoped(struct grain_htab_scope *s, struct grain_hnode *node,
			 const void *key, uint64_t now, size_t charge,
			 struct grain_hnode **found)
{
	struct grain_htab *h = s->h;
	struct stripe *st = s->stripe;
	unsigned len;

	if (node == NULL || node->state == NODE_LINKED ||
	    charge > (size_t)INT64_MAX / 4)
		return -EINVAL;
	s->now = now;
	if (h->ttl != 0)
		expire_stripe(h, st, now, EXPIRE_ON_INSERT, &s->retired);
	struct bucket_array *a = atomic_load_explicit(&st->array,
						      memory_order_relaxed);
	struct grain_hnode *old = chain_find(h, a, s->hash, key, &len);
	if (len > get(&st->longest))
		atomic_store_explicit(&st->longest, len, memory_order_relaxed);
	if (old != NULL) {
		*found = old;
		return -EEXIST;
	}
	if (len >= h->max_chain) {
		bump(&st->chain_refusals, 1);
		/* Growing helps if the chain is long because the stripe is
		 * full, not if the keys collide outright: grow, but never past
		 * four buckets per entry, so that colliding keys cannot make
		 * the table allocate without bound. */
		if ((uint64_t)(a->mask + 1) * 2 <= 4 * ((uint64_t)entries_of(st) + 1)) {
			atomic_store_explicit(&st->grow_wanted, true,
					      memory_order_relaxed);
			atomic_store_explicit(&st->resize_due, true,
					      memory_order_relaxed);
		}
		return -EMLINK;
	}
	if (h->policy == GRAIN_HTAB_REFUSE && h->mem_high != 0 &&
	    total_above(h, h->mem_high)) {
		bump(&st->refusals, 1);
		return -ENOSPC;
	}

	node->hash = s->hash;
	node->stamp = now;
	node->charge = charge;
	node->owner = h;
	node->state = NODE_LINKED;
	struct grain_hnode *_Atomic *b = bucket_of(a, s->hash);
	atomic_store_explicit(&node->next[a->gen],
			      atomic_load_explicit(b, memory_order_relaxed),
			      memory_order_relaxed);
	/* Release: a reader that finds the node sees it, and the object
	 * around it, as the caller built them. */
	atomic_store_explicit(b, node, memory_order_release);
	lru_append(st, node);
	entries_add(st, 1);
	bump(&st->inserts, 1);
	add_bytes(h, st, (int64_t)charge);
	if (charge != 0 && h->policy == GRAIN_HTAB_EVICT && h->mem_high != 0)
		s->todo |= TODO_EVICT;
	mark_resize_if_due(h, st);
	*found = node;
	return 0;
}

int grain_htab_insert_locked(struct grain_htab_scope *s,
			     struct grain_hnode *node, const void *key,
			     uint64_t now, size_t charge)
{
	struct grain_hnode *found;

	if (s == NULL)
		return -EINVAL;
	return insert_scoped(s, node, key, now, charge, &found);
}

int grain_htab_find_or_insert_locked(struct grain_htab_scope *s,
				     const void *key, struct grain_hnode *node,
				     uint64_t now, size_t charge,
				     struct grain_hnode **found)
{
	struct grain_hnode *f = NULL;

	if (s == NULL || found == NULL)
		return -EINVAL;
	int rc = insert_scoped(s, node, key, now, charge, &f);
	*found = rc == 0 || rc == -EEXIST ? f : NULL;
	return rc;
}

/* Is @n a node of the scope's stripe that the table holds? */
static int check_node(struct grain_htab_scope *s, struct grain_hnode *n)
{
	if (s == NULL || n == NULL)
		return -EINVAL;
	if (n->state != NODE_LINKED || n->owner != s->h)
		return -ENOENT;
	if (stripe_of(s->h, n->hash) != s->stripe)
		return -EINVAL;
	return 0;
}

int grain_htab_remove_locked(struct grain_htab_scope *s, struct grain_hnode *n)
{
	int rc = check_node(s, n);

	if (rc == 0)
		retire(s->h, s->stripe, n, GRAIN_HTAB_REMOVED, &s->retired);
	return rc;
}

int grain_htab_touch_locked(struct grain_htab_scope *s, struct grain_hnode *n,
			    uint64_t now)
{
	int rc = check_node(s, n);

	if (rc == 0) {
		struct stripe *st = s->stripe;
		lru_unlink(st, n);
		n->stamp = now;
		lru_append(st, n);
		set_oldest(st);
	}
	return rc;
}

int grain_htab_charge_locked(struct grain_htab_scope *s, struct grain_hnode *n,
			     size_t bytes)
{
	int rc = check_node(s, n);

	if (rc != 0)
		return rc;
	if (bytes > (size_t)INT64_MAX / 4 - n->charge)
		return -EINVAL;
	n->charge += bytes;
	add_bytes(s->h, s->stripe, (int64_t)bytes);
	if (bytes != 0 && s->h->policy == GRAIN_HTAB_EVICT &&
	    s->h->mem_high != 0)
		s->todo |= TODO_EVICT;
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
	n->charge -= bytes;
	add_bytes(s->h, s->stripe, -(int64_t)bytes);
	return 0;
}

/* --- one-call forms ------------------------------------------------------ */

int grain_htab_insert(struct grain_htab *h, struct grain_hnode *node,
		      const void *key, uint64_t now, size_t charge)
{
	struct grain_htab_scope s;

	if (h == NULL || node == NULL)
		return -EINVAL;
	grain_htab_lock(h, key, &s);
	int rc = grain_htab_insert_locked(&s, node, key, now, charge);
	grain_htab_unlock(&s);
	return rc;
}

int grain_htab_find_or_insert(struct grain_htab *h, const void *key,
			      struct grain_hnode *node, uint64_t now,
			      size_t charge, struct grain_hnode **found)
{
	struct grain_htab_scope s;

	if (h == NULL || found == NULL)
		return -EINVAL;
	grain_htab_lock(h, key, &s);
	int rc = grain_htab_find_or_insert_locked(&s, key, node, now, charge,
						  found);
	grain_htab_unlock(&s);
	return rc;
}

int grain_htab_remove(struct grain_htab *h, const void *key,
		      struct grain_hnode **removed)
{
	struct grain_htab_scope s;

	if (h == NULL)
		return -EINVAL;
	grain_htab_lock(h, key, &s);
	struct grain_hnode *n = grain_htab_find_locked(&s, key);
	int rc = n != NULL ? grain_htab_remove_locked(&s, n) : -ENOENT;
	grain_htab_unlock(&s);
	if (removed != NULL)
		*removed = rc == 0 ? n : NULL;
	return rc;
}

/* A counter slot for the calling thread, without thread-local storage
 * (a TLS access in a shared library is a call): threads' stacks lie far
 * apart, so the address of a local spreads them over the slots. */
static struct stat_slot *my_slot(struct grain_htab *h)
{
	unsigned char here;
	uintptr_t a = (uintptr_t)&here;

	return &h->rstat[((a >> 16) ^ (a >> 24)) % STAT_SLOTS];
}

/* Lock-free lookups count with a plain add, no locked instruction: two
 * threads that share a slot at the same instant may lose an increment, so
 * these two counters are approximate under concurrency. */
static void count_lookup(struct grain_htab *h, bool hit)
{
	struct stat_slot *c = my_slot(h);

	bump(&c->lookups, 1);
	if (hit)
		bump(&c->hits, 1);
}

struct grain_hnode *grain_htab_lookup(struct grain_htab *h, const void *key)
{
	if (h == NULL || !has_rcu(h))
		return NULL;
	uint64_t hash = h->ops.hash(key, &h->secret, h->ctx);
	struct stripe *st = stripe_of(h, hash);
	struct grain_hnode *n = chain_find(h, array_of(st), hash, key, NULL);

	count_lookup(h, n != NULL);
	return n;
}

/* --- maintenance --------------------------------------------------------- */

unsigned grain_htab_expire(struct grain_htab *h, uint64_t now)
{
	unsigned total = 0;

	if (h == NULL)
		return 0;
	for (unsigned i = 0; i < h->nstripes; i++) {
		struct stripe *st = &h->stripes[i];
		unsigned n;
		do {
			struct grain_hnode *retired = NULL;
			grain_spin_lock(&st->lock);
			n = h->ttl ? expire_stripe(h, st, now, EVICT_BATCH,
						   &retired)
				   : 0;
			grain_spin_unlock(&st->lock);
			process_retired(h, retired);
			total += n;
		} while (n == EVICT_BATCH);
		resize_if_due(h, st);
	}
	return total;
}

int grain_htab_resize(struct grain_htab *h, unsigned buckets)
{
	if (h == NULL || !is_pow2(buckets) || buckets > MAX_BUCKETS)
		return -EINVAL;
	if (has_rcu(h) && urcu_memb_read_ongoing())
		return -EDEADLK;
	for (unsigned i = 0; i < h->nstripes; i++) {
		struct stripe *st = &h->stripes[i];
		int rc;
		for (;;) {
			grain_spin_lock(&st->lock);
			rc = relink(h, st, buckets);
			grain_spin_unlock(&st->lock);
			if (rc != -EBUSY)
				break;
			/* The previous array awaits its grace period. */
			if (!retiring_done(h, st, true))
				sched_yield(); /* the user's defer() */
		}
		if (rc != 0)
			return rc;
	}
	return 0;
}

size_t grain_htab_bytes(const struct grain_htab *h)
{
	int64_t t = atomic_load_explicit(&((struct grain_htab *)h)->total,
					 memory_order_relaxed);
	return t < 0 ? 0 : (size_t)t;
}

size_t grain_htab_bytes_exact(const struct grain_htab *h)
{
	int64_t t = total_exact(h);
	return t < 0 ? 0 : (size_t)t;
}

void grain_htab_stats(const struct grain_htab *h, struct grain_htab_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < h->nstripes; i++) {
		const struct stripe *s = &h->stripes[i];
		st->entries += entries_of(s);
		st->inserts += get(&s->inserts);
		st->lookups += get(&s->lookups);
		st->hits += get(&s->hits);
		st->evictions += get(&s->evictions);
		st->expirations += get(&s->expirations);
		st->refusals += get(&s->refusals);
		st->chain_refusals += get(&s->chain_refusals);
		st->resizes += get(&s->resizes);
		if (get(&s->longest) > st->longest_chain)
			st->longest_chain = get(&s->longest);
		st->buckets += atomic_load_explicit(
			&((struct stripe *)s)->buckets, memory_order_relaxed);
	}
	for (unsigned i = 0; i < STAT_SLOTS; i++) {
		st->lookups += get(&h->rstat[i].lookups);
		st->hits += get(&h->rstat[i].hits);
	}
	st->bytes = grain_htab_bytes_exact(h);
}

/* --- RCU helpers ---------------------------------------------------------- */

void grain_rcu_register_thread(void)
{
	urcu_memb_register_thread();
}

void grain_rcu_unregister_thread(void)
{
	urcu_memb_unregister_thread();
}

void grain_rcu_read_lock(void)
{
	urcu_memb_read_lock();
}

void grain_rcu_read_unlock(void)
{
	TSAN_RELEASE(&grace_token);
	urcu_memb_read_unlock();
}

void grain_rcu_barrier(void)
{
	urcu_memb_barrier();
	TSAN_ACQUIRE(&barrier_token);
}
