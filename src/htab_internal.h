/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_internal.h - what the grain_htab source files share: defaults,
 * ThreadSanitizer annotations for liburcu's grace periods, and the
 * functions of one file that another calls. Not installed.
 */
#ifndef GRAIN_SRC_HTAB_INTERNAL_H
#define GRAIN_SRC_HTAB_INTERNAL_H

#include <grain/htab.h>

#define HTAB_DEFAULT_STRIPES 64u
#define HTAB_DEFAULT_BUCKETS 16u
#define HTAB_DEFAULT_MAX_LOAD 3u
#define HTAB_DEFAULT_MAX_CHAIN 64u
#define HTAB_DEFAULT_BATCH (64 * 1024)
#define HTAB_MAX_STRIPES 65536u
#define HTAB_MAX_BUCKETS (1u << 22) /* overflow indexes fit 24 bits */
#define HTAB_EVICT_BATCH 32u	    /* entries evicted per stripe lock hold */

/* ThreadSanitizer cannot see liburcu's grace periods (liburcu is not
 * instrumented): tell it that every read-side section ends before any
 * reclaim that follows a grace period, and that a node's retirement
 * happens before its reclaim.
 *
 * The first half needs the reader's thread to say where its section
 * ends, and only grain_rcu_read_unlock() does (it releases
 * grain_impl_htab_grace_token). A reader on a flavour's own read side
 * (qsbr's, bp's, or memb's inline calls, all of which htab.h allows)
 * runs no grain code after its last read: its lookups are inline, and
 * its section ends and its quiescent states pass inside liburcu. So
 * nothing can order its reads before the reclaim, and TSan would call
 * the reclaim's free (of a bucket array by grain, of a node by the
 * user's ops.reclaim) a race. A reclaim that follows a grace period (or
 * ops.defer's promise of one), and what grain_htab_destroy() frees of an
 * RCU table (whose caller may know that the readers are done only from a
 * grace period), therefore run between HTAB_TSAN_RECLAIM_BEGIN and _END:
 * TSan does not check their memory accesses, free included, against
 * earlier ones; it still sees their synchronization, and the allocator's
 * next reuse of the memory starts it afresh. Nothing is asked of the
 * reader. */
#if GRAIN_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
#define HTAB_TSAN_RELEASE(p) __tsan_release(p)
#define HTAB_TSAN_ACQUIRE(p) __tsan_acquire(p)
#define HTAB_TSAN_RECLAIM_BEGIN() __tsan_ignore_thread_begin()
#define HTAB_TSAN_RECLAIM_END() __tsan_ignore_thread_end()
#else
#define HTAB_TSAN_RELEASE(p) ((void)(p))
#define HTAB_TSAN_ACQUIRE(p) ((void)(p))
#define HTAB_TSAN_RECLAIM_BEGIN() ((void)0)
#define HTAB_TSAN_RECLAIM_END() ((void)0)
#endif
extern char grain_impl_htab_grace_token;

typedef struct grain_impl_htab_stripe htab_stripe;
typedef struct grain_impl_htab_array htab_array;

/* The directory word of @a (impl/htab.h): its first bucket's address
 * and the log2 of its home bucket count, a power of two up to 2^32. */
static inline uintptr_t htab_dir_word(const htab_array *a)
{
	return (uintptr_t)a->b |
	       (uintptr_t)__builtin_ctzll((unsigned long long)a->mask + 1);
}

static inline htab_array *htab_dir_load(struct grain_htab *h, uint32_t i)
{
	return grain_impl_htab_dir_array(
		atomic_load_explicit(&h->dir[i], memory_order_relaxed));
}

static inline bool htab_has_rcu(const struct grain_htab *h)
{
	return (h->flags & GRAIN_HTAB_NO_RCU) == 0;
}

static inline bool htab_expired(const struct grain_htab *h,
				const struct grain_hnode *n, uint64_t now)
{
	return h->ttl != 0 && now >= n->stamp && now - n->stamp >= h->ttl;
}

/* Both remainders of @st: the lock holder's and the evictors' credit. */
static inline int64_t htab_remainder(const htab_stripe *st)
{
	htab_stripe *w = (htab_stripe *)(uintptr_t)st;

	return atomic_load_explicit(&w->unfolded, memory_order_relaxed) +
	       atomic_load_explicit(&w->credit, memory_order_relaxed);
}

/* The byte total as a watermark check sees it: the folded total plus
 * @st's own remainders (@st may be NULL). */
static inline int64_t htab_total_near(const struct grain_htab *h,
				      const htab_stripe *st)
{
	int64_t t = atomic_load_explicit(&((struct grain_htab *)h)->total,
					 memory_order_relaxed);
	if (st != NULL)
		t += htab_remainder(st);
	return t;
}

/* Credit @delta bytes to @st without its lock (an evictor, for the
 * stripe whose scope asked for the eviction): a read-modify-write of
 * `credit`, folded into the total once it reaches mem_fold either way. */
static inline void htab_credit_bytes(struct grain_htab *h, htab_stripe *st,
				     int64_t delta)
{
	int64_t c = atomic_fetch_add_explicit(&st->credit, delta,
					      memory_order_relaxed) +
		    delta;

	if (c >= h->mem_fold || c <= -h->mem_fold)
		atomic_fetch_add_explicit(
			&h->total,
			atomic_exchange_explicit(&st->credit, 0,
						 memory_order_relaxed),
			memory_order_relaxed);
}

/* The entry count above which @st asks for a grow at @buckets buckets. */
static inline void htab_set_grow_at(const struct grain_htab *h, htab_stripe *st,
				    uint32_t buckets)
{
	uint64_t g = (uint64_t)h->max_load * buckets;

	uint32_t grow = buckets >= HTAB_MAX_BUCKETS ? UINT32_MAX
			: g > UINT32_MAX	    ? UINT32_MAX
						    : (uint32_t)g;
	/* entries * 8 < max_load * buckets: below an eighth of the load. */
	uint32_t shrink = buckets > h->min_buckets
				  ? (uint32_t)((g + 7u) / 8u > UINT32_MAX
						       ? UINT32_MAX
						       : (g + 7u) / 8u)
				  : 0u;
	/* A stripe the chain rule grew keeps its size until its entries
	 * fall below the hold (src/htab_resize.c). */
	if (shrink > st->hold)
		shrink = st->hold;
	atomic_store_explicit(&st->grow_at, grow, memory_order_relaxed);
	atomic_store_explicit(&st->shrink_at, shrink, memory_order_relaxed);
}

/* A cheap, racy look without the lock: does @st's load ask for a resize?
 * (Relaxed: the answer is checked again under the lock.) */
static inline bool htab_resize_wanted(const htab_stripe *st)
{
	htab_stripe *w = (htab_stripe *)(uintptr_t)st;
	uint32_t e = atomic_load_explicit(&w->entries, memory_order_relaxed);

	return e > atomic_load_explicit(&w->grow_at, memory_order_relaxed) ||
	       e < atomic_load_explicit(&w->shrink_at, memory_order_relaxed) ||
	       atomic_load_explicit(&w->grow_wanted, memory_order_relaxed);
}

/* htab.c */
void htab_process_retired(struct grain_htab *h, struct grain_hnode *list);

/* htab_resize.c */
htab_array *htab_array_new(struct grain_htab *h, uint32_t buckets,
			   uint32_t nover, uint32_t stripe);
void htab_array_free(struct grain_htab *h, htab_array *a);
/* Every stripe's first array (one mapping when they add up to huge
 * pages). @return 0 or -ENOMEM (nothing left allocated). */
int htab_arrays_first(struct grain_htab *h, uint32_t buckets, uint32_t nover);
/* The mapping of the first arrays, if any; at destroy. */
void htab_slab_free(struct grain_htab *h);
#define HTAB_SLAB UINT32_MAX /* array.mapped: carved from h->slab */
/* Copy the stripe into @buckets buckets (under its lock), with @hold as
 * its new hold (htab_stripe.hold); the old array is pushed on *@retired.
 * @return 0 or -ENOMEM (nothing changed). */
int htab_relink(struct grain_htab *h, htab_stripe *st, uint32_t buckets,
		uint32_t hold, struct grain_hnode **retired);
/* The size the stripe's load asks for (its current size if in range). */
uint32_t htab_wanted_buckets(const struct grain_htab *h, const htab_stripe *st);
/* Resize the stripe (under its lock) to htab_wanted_buckets(), if that
 * differs, or copy it at its size if @rebuild; clears grow_wanted.
 * @return 0 or -ENOMEM (nothing changed). */
int htab_resize_locked(struct grain_htab *h, htab_stripe *st, bool rebuild,
		       struct grain_hnode **retired);
/* Resize @st if its load asks for it; takes and releases its lock. */
void htab_resize_if_due(struct grain_htab *h, htab_stripe *st);

/* htab_evict.c */
/* Evict down to mem_low; @seed (a hash) picks the sampled stripes. */
void htab_evict(struct grain_htab *h, const htab_stripe *own, uint64_t seed,
		uint64_t now);
/* At the unlock of scope @s, under its stripe lock: if the total is above
 * mem_high, evict the stripe's own least recently used entries, towards
 * mem_low, while they are no newer than the eviction horizon, and mark
 * the scope for the rest of the eviction after the unlock. */
void htab_evict_own(struct grain_htab_scope *s);
/* Retire up to @max entries of @st expired at @now onto *@retired. */
unsigned htab_expire_stripe(struct grain_htab *h, htab_stripe *st, uint64_t now,
			    unsigned max, struct grain_hnode **retired);

#endif /* GRAIN_SRC_HTAB_INTERNAL_H */
