/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/htab.h - grain_htab's layout and inline fast paths: the search,
 * the LRU, link and unlink (and, in impl/htab_calls.h, included at the
 * end, the bodies of htab.h's inline calls).
 * Never include this file directly: include <grain/htab.h>.
 *
 * Labels: R1/A1 publish a node in a slot before a lock-free reader uses
 * it; R2/A2 publish an overflow bucket (filled) before a reader follows
 * the index to it; R3/A3 publish a new bucket array (src/htab_resize.c)
 * before a reader indexes it. Under the stripe lock every load may be
 * relaxed: the lock orders writers.
 */
#ifndef GRAIN_IMPL_HTAB_H
#define GRAIN_IMPL_HTAB_H

#ifndef GRAIN_HTAB_H
#error "include <grain/htab.h> instead of <grain/impl/htab.h>"
#endif

#include <grain/impl/atomic64.h>

/** Slots per bucket: as many (signature, pointer) pairs as fit in a cache
 * line beside the overflow index (6 with 64-bit pointers, 8 with 32). */
#if UINTPTR_MAX > 0xffffffffu
#define GRAIN_HTAB_BUCKET_SLOTS 6u
typedef uint32_t grain_impl_htab_sigw1;
typedef _Atomic(uint32_t) grain_impl_htab_atomic_sigw1;
#else
#define GRAIN_HTAB_BUCKET_SLOTS 8u
typedef uint64_t grain_impl_htab_sigw1;
typedef grain_impl_atomic_u64 grain_impl_htab_atomic_sigw1;
#endif
#define GRAIN_IMPL_HTAB_SLOT_MASK ((1u << GRAIN_HTAB_BUCKET_SLOTS) - 1u)
/* meta: the overflow bucket's index in bits 0..23 (0: none), the occupied
 * slots from bit 24 up. */
#define GRAIN_IMPL_HTAB_NEXT_MASK 0xffffffu
#define GRAIN_IMPL_HTAB_OCC_SHIFT 24

enum {
	GRAIN_IMPL_HNODE_FREE = 0,
	GRAIN_IMPL_HNODE_LINKED = 0x4c4b4e44,  /* arbitrary: catches garbage */
	GRAIN_IMPL_HNODE_RETIRED = 0x52540000, /* | reason */
	GRAIN_IMPL_HNODE_ARRAY = 0x41525259,   /* carrier of a bucket array */
};

enum {
	GRAIN_IMPL_HTAB_TODO_EVICT = 1u,  /* bytes added: check mem_high */
	GRAIN_IMPL_HTAB_TODO_RESIZE = 2u, /* the load is out of range */
	/* Set by the slow unlock: the total was above mem_high; evict on
	 * down to mem_low after the unlock. */
	GRAIN_IMPL_HTAB_TODO_EVICTING = 4u,
	/* The stripe's reclaim batch is full: the unlock takes it and hands
	 * it to RCU as it is, without reading its nodes again. */
	GRAIN_IMPL_HTAB_TODO_RECLAIM = 8u,
};

/* Entries an insert may expire from the head of its stripe's LRU. */
#define GRAIN_IMPL_HTAB_EXPIRE_ON_INSERT 2u

/* Signatures are 16-bit lanes of two words, so a search compares them
 * all with a few word operations (SWAR) instead of a loop. */
struct grain_impl_htab_bucket {
	grain_impl_atomic_u64 sig0;	   /* slots 0..3 */
	grain_impl_htab_atomic_sigw1 sig1; /* slots 4.. */
	_Atomic(uint32_t) meta;		   /* next index | occupied << 24 */
	struct grain_hnode *_Atomic node[GRAIN_HTAB_BUCKET_SLOTS];
};

_Static_assert(sizeof(struct grain_impl_htab_bucket) <= GRAIN_CACHELINE,
	       "a bucket fits in one cache line");
/* The same layout from every compiler (impl/atomic64.h): 8-aligned, the
 * signature words first, then meta and the slots. */
_Static_assert(_Alignof(struct grain_impl_htab_bucket) == 8 &&
		       offsetof(struct grain_impl_htab_bucket, sig1) == 8 &&
		       offsetof(struct grain_impl_htab_bucket, meta) ==
			       8 + sizeof(grain_impl_htab_sigw1) &&
		       offsetof(struct grain_impl_htab_bucket, node) ==
			       12 + sizeof(grain_impl_htab_sigw1),
	       "bucket layout");

/* One stripe's bucket array: mask + 1 home buckets, then `nover`
 * overflow buckets handed out in order. Immutable once it is replaced. */
struct grain_impl_htab_array {
	uint32_t mask;
	uint32_t nover;
	uint32_t over_used; /* under the stripe lock */
	uint32_t stripe;
	struct grain_hnode carrier; /* retires this array */
	uint32_t mapped;	    /* bytes / 2 MiB mapped for it, or 0 */
	alignas(GRAIN_CACHELINE) struct grain_impl_htab_bucket b[];
};

/* The array whose first bucket is @b0. The stripe and the directory
 * hold arrays by their first bucket, so that bucket i is b0 + i, one
 * scaled add from the hash, and the header is a constant offset behind. */
static inline struct grain_impl_htab_array *
grain_impl_htab_array_of(const struct grain_impl_htab_bucket *b0)
{
	uintptr_t a = (uintptr_t)b0 - offsetof(struct grain_impl_htab_array, b);

	return (struct grain_impl_htab_array *)a;
}

/* A stripe's directory word: the address of its array's first bucket
 * (cache-line aligned) with the log2 of the array's home bucket count in
 * the low bits, so that a lock-free lookup finds its home bucket from the
 * word alone, without reading the array's header line. */
#define GRAIN_IMPL_HTAB_DIR_LOG ((uintptr_t)GRAIN_CACHELINE - 1)

static inline struct grain_impl_htab_bucket *grain_impl_htab_dir_b0(uintptr_t w)
{
	return (struct grain_impl_htab_bucket *)(w & ~GRAIN_IMPL_HTAB_DIR_LOG);
}

static inline struct grain_impl_htab_array *
grain_impl_htab_dir_array(uintptr_t w)
{
	return grain_impl_htab_array_of(grain_impl_htab_dir_b0(w));
}

static inline uint32_t grain_impl_htab_dir_mask(uintptr_t w)
{
	return (uint32_t)(((uint64_t)1 << (w & GRAIN_IMPL_HTAB_DIR_LOG)) - 1);
}

/* How far ahead of its walk the reclaim of a batch can see: each node of
 * a stripe's reclaim batch names, besides the next one, the one this many
 * places down the list, so that the walk after the grace period (on the
 * flavour's call_rcu thread, over nodes removed long before and out of
 * its cache) prefetches ahead (src/htab.c, rcu_done()) and keeps several
 * misses in flight instead of waiting for each link in turn. A power of
 * two. */
#define GRAIN_IMPL_HTAB_AHEAD 4u

/* Four cache lines: the first holds everything a lookup, an insert or a
 * remove of the lock holder writes; the second where the stripe's array
 * is, which only a resize writes; the third what evictors on other
 * threads read, written when the LRU head changes or an entry leaves by
 * eviction or expiry (an insert reads `oldest` there, a line that stays
 * shared while the head does not move); the fourth the rest of the
 * counters and the RCU reclaim batch (GRAIN_HTAB_BATCH_RECLAIM tables
 * only), which every remove of such a table writes. */
struct grain_impl_htab_stripe {
	alignas(GRAIN_CACHELINE) struct grain_spinlock lock;
	_Atomic(uint32_t) entries;
	struct grain_hnode *lru_tail; /* most recent; the head is below */
	/* Bytes not in the total, the holder's: always under mem_fold
	 * either way once stored, and mem_fold < 2^31 (create's check). */
	_Atomic(int32_t) unfolded;
	/* Counters: written under the lock, read by stats() at any time.
	 * A locked search counts one of hits and misses. */
	grain_impl_atomic_u64 hits, misses, inserts;
	/* Entry counts that ask for a resize. */
	_Atomic(uint32_t) grow_at, shrink_at;
	/* The stripe's array as the lock holder sees it, by its first
	 * bucket (grain_impl_htab_array_of()), and its mask: those of
	 * h->dir[index], written with it under the lock, read only under
	 * the lock. Not on the lock's line: when another CPU wrote that line
	 * last, the lock's exchange waits for it, and the search's loads
	 * (this line, the home bucket, the node), whose addresses do not
	 * depend on it, can be issued meanwhile; with the array on the
	 * lock's line they waited for it and then ran one after another
	 * (doc/bench/htab-layout-and-footprint.md). Nothing but a resize
	 * (and, in a GRAIN_HTAB_EVICT_CLOCK table, an eviction: the hand)
	 * writes this line, and only lock holders read it. */
	alignas(GRAIN_CACHELINE) struct grain_impl_htab_bucket *b0;
	uint32_t mask;
	uint32_t index;
	/* The entry count below which a stripe that the chain rule grew may
	 * shrink again (UINT32_MAX: no such hold), so that refused inserts
	 * and removes in turn do not grow and shrink it each time. Under
	 * the lock, written by resizes only. */
	uint32_t hold;
	/* GRAIN_HTAB_EVICT_CLOCK: the hand, a slot position in the array
	 * (bucket * GRAIN_HTAB_BUCKET_SLOTS + slot), under the lock. */
	uint32_t hand;
	/* The LRU head (least recent) and its stamp change together, so
	 * they share a line: an insert appends at the tail above and only
	 * reads this line, for the TTL test. */
	alignas(GRAIN_CACHELINE) grain_impl_atomic_u64 oldest; /* head's stamp */
	struct grain_hnode *lru_head; /* under the lock */
	grain_impl_atomic_i64 credit; /* bytes evictors freed for this stripe */
	grain_impl_atomic_u64 evictions, expirations;
	grain_impl_atomic_u64 refusals, chain_refusals, longest, resizes;
	_Atomic(uint32_t) buckets;	/* the array's size, for stats() */
	_Atomic(bool) grow_wanted;	/* a chain reached max_chain */
	grain_impl_atomic_u64 deferred; /* handed to ops.defer, not yet done */
	/* GRAIN_HTAB_BATCH_RECLAIM: removed nodes waiting, under the lock,
	 * to go to RCU together (linked through next, newest first). The
	 * ring holds the newest GRAIN_IMPL_HTAB_AHEAD of them, the k-th
	 * joined in slot k % GRAIN_IMPL_HTAB_AHEAD, so that each node that
	 * joins can name in its prev the node that joined that many places
	 * before it (grain_impl_htab_batch()). Last, so that the removes
	 * that write it stay off the line of the array above. */
	struct grain_hnode *ring[GRAIN_IMPL_HTAB_AHEAD];
	uint32_t nbatch;
};

_Static_assert(offsetof(struct grain_impl_htab_stripe, shrink_at) + 4 <=
		       GRAIN_CACHELINE,
	       "the lock holder's fields share the lock's cache line");
_Static_assert(sizeof(struct grain_impl_htab_stripe) <= 4 * GRAIN_CACHELINE,
	       "a stripe is four cache lines at most");

/* Removed nodes a GRAIN_HTAB_BATCH_RECLAIM stripe gathers before it hands
 * them to RCU with one call_rcu, unless config.reclaim_batch says. */
#define GRAIN_IMPL_HTAB_RECLAIM_BATCH 32u

struct grain_htab {
	/* Read-mostly line: every call reads it, nobody writes it. */
	_Atomic(uintptr_t) *dir; /* per stripe: a directory word, below */
	struct grain_impl_htab_stripe *stripes;
	uint64_t smask; /* stripes - 1 */
	struct grain_htab_ops ops;
	void *ctx;
	struct grain_hash_key secret;
	uint32_t max_chain, max_load, min_buckets, flags;
	uint32_t reclaim_batch; /* GRAIN_HTAB_BATCH_RECLAIM's batch */
	int64_t mem_high, mem_low, mem_batch;
	int64_t mem_fold;    /* each remainder folds at this: mem_batch / 2 */
	int64_t evict_above; /* mem_high with policy EVICT, else INT64_MAX */
	uint64_t ttl;
	enum grain_htab_policy policy;
	const struct rcu_flavor_struct *flavor;
	struct grain_alloc alloc;
	size_t memsize;
	void *slab; /* the stripes' first arrays, if mapped as one */
	size_t slab_size;
	/* Shared and written: the folded byte total, and the eviction
	 * horizon (the newest stamp a lock-taking eviction has taken; an
	 * unlock may evict its own stripe's entries up to it, htab.h). */
	alignas(GRAIN_CACHELINE) grain_impl_atomic_i64 total;
	grain_impl_atomic_u64 horizon;
};

/* --- out-of-line parts (src/htab*.c) ------------------------------------ */

GRAIN_API void grain_impl_htab_after_unlock(struct grain_htab_scope *s);
GRAIN_API void grain_impl_htab_unlock_slow(struct grain_htab_scope *s);
GRAIN_API int grain_impl_htab_insert_slow(struct grain_htab_scope *s, int why);
GRAIN_API void grain_impl_htab_expire_head(struct grain_htab_scope *s,
					   uint64_t now);

/* Reasons for grain_impl_htab_insert_slow(). */
enum {
	GRAIN_IMPL_HTAB_SLOW_CHAIN = 1, /* chain at max_chain: -EMLINK */
	GRAIN_IMPL_HTAB_SLOW_FULL,	/* no overflow bucket left: rebuild */
};

/* --- small helpers -------------------------------------------------------- */

static inline uint64_t grain_impl_htab_get(const grain_impl_atomic_u64 *c)
{
	return atomic_load_explicit((grain_impl_atomic_u64 *)(uintptr_t)c,
				    memory_order_relaxed);
}

/* Counters have one writer (the lock holder): a plain add published with
 * a relaxed store, so readers see whole values and no locked op is paid. */
static inline void grain_impl_htab_bump(grain_impl_atomic_u64 *c, uint64_t n)
{
#if defined(__x86_64__) && !GRAIN_TSAN
	/* The same in one instruction: an aligned 8-byte add to memory
	 * without a lock prefix stores the whole new value at once for the
	 * readers' relaxed loads (x86-64 makes aligned 8-byte accesses
	 * single-copy atomic); only the one writer reads and writes it.
	 * Compilers do not fuse a relaxed atomic load and store into it. */
	__asm__("addq %1, %0" : "+m"(*(uint64_t *)(uintptr_t)c) : "er"(n));
#else
	atomic_store_explicit(c,
			      atomic_load_explicit(c, memory_order_relaxed) + n,
			      memory_order_relaxed);
#endif
}

static inline uint32_t grain_impl_htab_stripe_index(const struct grain_htab *h,
						    uint64_t hash)
{
	return (uint32_t)((hash >> 48) & h->smask);
}

static inline uint16_t grain_impl_htab_sig(uint64_t hash)
{
	return (uint16_t)(hash >> 32);
}

/* The array of stripe @st, under its lock. */
static inline struct grain_impl_htab_array *
grain_impl_htab_array_locked(const struct grain_impl_htab_stripe *st)
{
	return grain_impl_htab_array_of(st->b0);
}

/* Add @delta bytes to the stripe's remainder, under its lock; fold the
 * remainder into the total once it reaches mem_fold either way. Only the
 * lock holder writes `unfolded`, so this is a plain add published with a
 * relaxed store: no locked instruction on the insert and remove paths.
 * (An evictor credits what it frees to `credit` instead, src/htab_evict.c.) */
static inline void grain_impl_htab_add_bytes(struct grain_htab *h,
					     struct grain_impl_htab_stripe *st,
					     int64_t delta)
{
	int64_t unf =
		atomic_load_explicit(&st->unfolded, memory_order_relaxed) +
		delta;

	/* |unf| >= mem_fold, as one unsigned compare. */
	if (GRAIN_UNLIKELY((uint64_t)(unf + h->mem_fold - 1) >=
			   (uint64_t)(2 * h->mem_fold - 1))) {
		/* Net out the evictors' credit first: in a steady churn at
		 * the watermark the two cancel, and the shared total is not
		 * written at all. */
		unf += atomic_exchange_explicit(&st->credit, 0,
						memory_order_relaxed);
		if (unf >= h->mem_fold || unf <= -h->mem_fold) {
			atomic_fetch_add_explicit(&h->total, unf,
						  memory_order_relaxed);
			unf = 0;
		}
	}
	atomic_store_explicit(&st->unfolded, (int32_t)unf,
			      memory_order_relaxed);
}

/* The stripe's entry count: written under its lock, read anywhere. */
static inline uint32_t
grain_impl_htab_entries(const struct grain_impl_htab_stripe *st)
{
	return atomic_load_explicit(
		&((struct grain_impl_htab_stripe *)(uintptr_t)st)->entries,
		memory_order_relaxed);
}

static inline void
grain_impl_htab_set_entries(struct grain_impl_htab_stripe *st, uint32_t n)
{
	atomic_store_explicit(&st->entries, n, memory_order_relaxed);
}

/* --- the search ----------------------------------------------------------- */

/* Lanes of @x that are zero: bit 15 of each 16-bit lane (exact: no
 * carry crosses a lane). */
static inline uint64_t grain_impl_htab_zero16(uint64_t x)
{
	uint64_t t = ((x & 0x7fff7fff7fff7fffull) + 0x7fff7fff7fff7fffull) | x;

	return ~t & 0x8000800080008000ull;
}

/* Candidates: the slots of a bucket whose signature matches, as a mask
 * in which slot i is bit i. Empty slots may match (their node is NULL).
 * With SSE2 one 16-byte load and compare covers every signature;
 * elsewhere (and under ThreadSanitizer, which must see the atomic loads)
 * SWAR on the two signature words. */
#if defined(__SSE2__) && UINTPTR_MAX > 0xffffffffu && !GRAIN_TSAN
#include <emmintrin.h>
#define GRAIN_IMPL_HTAB_SSE2 1
typedef __m128i grain_impl_htab_sigv;

/* The signature of @hash (bits 32..47, grain_impl_htab_sig()) in every
 * lane, taken from the hash's own register: lane 2 of its low quadword
 * broadcast, with no shift of the hash first. */
static inline grain_impl_htab_sigv grain_impl_htab_sigv_of(uint64_t hash)
{
	__m128i v =
		_mm_shufflelo_epi16(_mm_cvtsi64_si128((long long)hash), 0xaa);

	return _mm_unpacklo_epi64(v, v);
}

static inline unsigned
grain_impl_htab_cand(const struct grain_impl_htab_bucket *b,
		     grain_impl_htab_sigv v)
{
	/* sig0, sig1 and meta: 16 bytes at the bucket's (cache-line
	 * aligned) start. Each lane is read whole; which lanes a concurrent
	 * writer has changed does not matter, as with the relaxed loads of
	 * the other path: the node's acquire load decides. Bytes 12..15
	 * (meta) are masked off. The lanes' results are packed to bytes
	 * first, so that bit i of the mask is slot i and the slot's node is
	 * one scaled index away. */
	__m128i w = _mm_load_si128((const __m128i *)(const void *)b);
	__m128i eq = _mm_cmpeq_epi16(w, v);
	unsigned m = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(eq, eq));

	return m & GRAIN_IMPL_HTAB_SLOT_MASK;
}
#else
#define GRAIN_IMPL_HTAB_SSE2 0
typedef uint64_t grain_impl_htab_sigv;

static inline grain_impl_htab_sigv grain_impl_htab_sigv_of(uint64_t hash)
{
	return (uint64_t)grain_impl_htab_sig(hash) * 0x0001000100010001ull;
}

/* Lanes of the second signature word that hold slots. */
#if UINTPTR_MAX > 0xffffffffu
#define GRAIN_IMPL_HTAB_LANES1 0x80008000ull
#else
#define GRAIN_IMPL_HTAB_LANES1 0x8000800080008000ull
#endif

/* Lane bits (bit 16 * i + 15) to slot bits 0..3. */
static inline unsigned grain_impl_htab_lanes(uint64_t m)
{
	return (unsigned)(((m >> 15) & 1u) | ((m >> 30) & 2u) |
			  ((m >> 45) & 4u) | ((m >> 60) & 8u));
}

static inline unsigned
grain_impl_htab_cand(const struct grain_impl_htab_bucket *b,
		     grain_impl_htab_sigv rep)
{
	struct grain_impl_htab_bucket *w =
		(struct grain_impl_htab_bucket *)(uintptr_t)b;
	uint64_t m0 = grain_impl_htab_zero16(
		atomic_load_explicit(&w->sig0, memory_order_relaxed) ^ rep);
	uint64_t m1 =
		grain_impl_htab_zero16((uint64_t)atomic_load_explicit(
					       &w->sig1, memory_order_relaxed) ^
				       rep) &
		GRAIN_IMPL_HTAB_LANES1;

	return grain_impl_htab_lanes(m0) | grain_impl_htab_lanes(m1) << 4;
}
#endif

/* Bits set in a slot mask (at most 8 bits): with 6 slots a 64-entry
 * table, one load (x86-64's baseline has no popcnt instruction). */
#if GRAIN_HTAB_BUCKET_SLOTS == 6
static const unsigned char grain_impl_htab_bits6[64] = {
	0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3,
	3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4,
	3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
};

static inline unsigned grain_impl_htab_popcount(unsigned x)
{
	return grain_impl_htab_bits6[x & 63u];
}
#else
static inline unsigned grain_impl_htab_popcount(unsigned x)
{
	x = x - ((x >> 1) & 0x55u);
	x = (x & 0x33u) + ((x >> 2) & 0x33u);
	return (x + (x >> 4)) & 0x0fu;
}
#endif

static inline unsigned grain_impl_htab_ctz(unsigned x)
{
	return (unsigned)__builtin_ctz(x);
}

/* The lowest candidate of @m (nonzero) as an index. On x86-64 one `rep
 * bsf` (tzcnt where the CPU has it, the same result for a nonzero
 * operand) that writes the whole register: __builtin_ctz costs a
 * dependency-breaking xor and a sign extension there, and the extension
 * keeps the slot's offset out of the load's displacement. */
static inline size_t grain_impl_htab_first(unsigned m)
{
#if GRAIN_IMPL_HTAB_SSE2
	uint64_t i;

	__asm__("rep bsfl %1, %k0" : "=r"(i) : "rm"(m) : "cc");
	return (size_t)i;
#else
	return grain_impl_htab_ctz(m);
#endif
}

/* Set slot @i's signature. Under the stripe lock (one writer). */
static inline void grain_impl_htab_set_sig(struct grain_impl_htab_bucket *b,
					   unsigned i, uint16_t sig)
{
#if GRAIN_IMPL_HTAB_SSE2
	/* The readers of this path load the lanes as one vector: a plain
	 * 16-bit store of the lane (x86 is little-endian: slot i's lane is
	 * at byte 2i), ordered before the node's release store (R1). */
	typedef uint16_t __attribute__((__may_alias__)) lane;
	((volatile lane *)(void *)b)[i] = sig;
#else
	if (i < 4) {
		uint64_t w =
			atomic_load_explicit(&b->sig0, memory_order_relaxed);
		unsigned sh = i * 16u;
		w = (w & ~(0xffffull << sh)) | (uint64_t)sig << sh;
		atomic_store_explicit(&b->sig0, w, memory_order_relaxed);
	} else {
		grain_impl_htab_sigw1 w =
			atomic_load_explicit(&b->sig1, memory_order_relaxed);
		unsigned sh = (i - 4u) * 16u;
		w = (grain_impl_htab_sigw1)((w &
					     ~((grain_impl_htab_sigw1)0xffffu
					       << sh)) |
					    (grain_impl_htab_sigw1)sig << sh);
		atomic_store_explicit(&b->sig1, w, memory_order_relaxed);
	}
#endif
}

/* The node of @key in the array whose first bucket is @b0, and the
 * bucket and slot holding it, or NULL. Lock-free: every load that leads
 * to a node or a bucket is an acquire (under the stripe lock they are
 * simply not needed). */
static GRAIN_ALWAYS_INLINE struct grain_hnode *
grain_impl_htab_search_slot(struct grain_impl_htab_bucket *b0, uint32_t mask,
			    uint64_t hash, const void *key,
			    const struct grain_htab_params p, void *ctx,
			    struct grain_impl_htab_bucket **bp, unsigned *slot)
{
	struct grain_impl_htab_bucket *b = &b0[hash & mask];
	const grain_impl_htab_sigv sig = grain_impl_htab_sigv_of(hash);

	for (;;) {
		/* A2: pairs with R2 in grain_impl_htab_link(); a filled
		 * overflow bucket is reachable only after its slots are. */
		uint32_t meta =
			atomic_load_explicit(&b->meta, memory_order_acquire);
		for (unsigned m = grain_impl_htab_cand(b, sig); m != 0;
		     m &= m - 1) {
			size_t i = grain_impl_htab_first(m);
			/* A1: pairs with R1 in grain_impl_htab_link(); the
			 * node is initialised. */
			struct grain_hnode *n = atomic_load_explicit(
				&b->node[i], memory_order_acquire);
			if (n != NULL && p.eq(n, key, ctx)) {
				*bp = b;
				*slot = (unsigned)i;
				return n;
			}
		}
		uint32_t nx = meta & GRAIN_IMPL_HTAB_NEXT_MASK;
		if (nx == 0)
			return NULL;
		b = &b0[nx];
	}
}

/* The node of @key in the array whose first bucket is @b0, or NULL;
 * lock-free. */
static GRAIN_ALWAYS_INLINE struct grain_hnode *
grain_impl_htab_search(struct grain_impl_htab_bucket *b0, uint32_t mask,
		       uint64_t hash, const void *key,
		       const struct grain_htab_params p, void *ctx)
{
	struct grain_impl_htab_bucket *b;
	unsigned slot;

	return grain_impl_htab_search_slot(b0, mask, hash, key, p, ctx, &b,
					   &slot);
}

/* --- LRU (under the stripe lock) ----------------------------------------- */

/* Publish the stamp of the stripe's LRU head (UINT64_MAX: empty) on the
 * evictors' line. A head stamped UINT64_MAX (a caller's clock may
 * saturate there) reads as one less, or it could never be evicted.
 * Inline: a remove of the oldest entry, as a reassembler's datagrams
 * mostly complete in arrival order, does it every time. */
static inline void grain_impl_htab_set_oldest(struct grain_impl_htab_stripe *st)
{
	uint64_t o = UINT64_MAX;

	if (st->lru_head != NULL) {
		o = st->lru_head->stamp;
		if (o == UINT64_MAX)
			o = UINT64_MAX - 1; /* stays evictable */
	}
	atomic_store_explicit(&st->oldest, o, memory_order_relaxed);
}

/* GRAIN_HTAB_EVICT_CLOCK tables keep no LRU list: a linked node's prev
 * is its reference mark instead, the node itself when set (inserted or
 * touched since the hand last passed it), NULL when clear. */
static inline bool grain_impl_htab_is_clock(const struct grain_htab *h)
{
	return (h->flags & GRAIN_HTAB_EVICT_CLOCK) != 0;
}

static inline void grain_impl_htab_clock_mark(struct grain_hnode *n)
{
	n->prev = n;
}

static inline void grain_impl_htab_lru_append(struct grain_impl_htab_stripe *st,
					      struct grain_hnode *n)
{
	n->next = NULL;
	n->prev = st->lru_tail;
	if (st->lru_tail != NULL) {
		st->lru_tail->next = n;
	} else {
		st->lru_head = n;
		grain_impl_htab_set_oldest(st);
	}
	st->lru_tail = n;
}

static inline void grain_impl_htab_lru_unlink(struct grain_impl_htab_stripe *st,
					      struct grain_hnode *n)
{
	if (n->next != NULL)
		n->next->prev = n->prev;
	else
		st->lru_tail = n->prev;
	if (n->prev != NULL) {
		n->prev->next = n->next;
	} else {
		st->lru_head = n->next;
		grain_impl_htab_set_oldest(st);
	}
}

/* --- link and unlink (under the stripe lock) ------------------------------ */

/* Where an insert goes: the first free slot of the key's chain, or none
 * (then `last` is the chain's last bucket). */
struct grain_impl_htab_probe {
	struct grain_impl_htab_bucket *free_b, *last;
	unsigned free_i;
	unsigned len; /* entries passed */
};

static GRAIN_ALWAYS_INLINE struct grain_hnode *
grain_impl_htab_probe(struct grain_impl_htab_bucket *b0, uint32_t mask,
		      uint64_t hash, const void *key,
		      const struct grain_htab_params p, void *ctx,
		      struct grain_impl_htab_probe *pr)
{
	struct grain_impl_htab_bucket *b = &b0[hash & mask];
	const grain_impl_htab_sigv sig = grain_impl_htab_sigv_of(hash);

	pr->free_b = NULL;
	pr->free_i = 0;
	pr->len = 0;
	for (;;) {
		uint32_t meta =
			atomic_load_explicit(&b->meta, memory_order_relaxed);
		unsigned occ = meta >> GRAIN_IMPL_HTAB_OCC_SHIFT;
		for (unsigned m = grain_impl_htab_cand(b, sig); m != 0;
		     m &= m - 1) {
			struct grain_hnode *n = atomic_load_explicit(
				&b->node[grain_impl_htab_first(m)],
				memory_order_relaxed);
			if (n != NULL && p.eq(n, key, ctx))
				return n;
		}
		pr->len += grain_impl_htab_popcount(occ);
		if (pr->free_b == NULL && occ != GRAIN_IMPL_HTAB_SLOT_MASK) {
			pr->free_b = b;
			pr->free_i = grain_impl_htab_ctz(~occ);
		}
		uint32_t nx = meta & GRAIN_IMPL_HTAB_NEXT_MASK;
		if (nx == 0) {
			pr->last = b;
			return NULL;
		}
		b = &b0[nx];
	}
}

/* Put @n in the probed free slot, or in a fresh overflow bucket. @return
 * false if the array has no overflow bucket left. */
static inline bool grain_impl_htab_link(struct grain_impl_htab_array *a,
					const struct grain_impl_htab_probe *pr,
					struct grain_hnode *n)
{
	struct grain_impl_htab_bucket *b = pr->free_b;
	unsigned i = pr->free_i;
	uint32_t idx = 0;

	if (b == NULL) {
		if (a->over_used == a->nover)
			return false;
		idx = a->mask + 1 + a->over_used++;
		b = &a->b[idx];
		i = 0;
	}
	grain_impl_htab_set_sig(b, i, grain_impl_htab_sig(n->hash));
	/* R1: pairs with A1 in grain_impl_htab_search(); a reader that finds
	 * the node sees it, and the object around it, as built. */
	atomic_store_explicit(&b->node[i], n, memory_order_release);
	atomic_store_explicit(&b->meta,
			      atomic_load_explicit(&b->meta,
						   memory_order_relaxed) |
				      1u << (GRAIN_IMPL_HTAB_OCC_SHIFT + i),
			      memory_order_release);
	if (idx != 0) {
		uint32_t meta = atomic_load_explicit(&pr->last->meta,
						     memory_order_relaxed);
		/* R2: pairs with A2; the bucket is filled before it is
		 * reachable. */
		atomic_store_explicit(&pr->last->meta,
				      (meta & ~GRAIN_IMPL_HTAB_NEXT_MASK) | idx,
				      memory_order_release);
	}
	return true;
}

/* Is @node the node @key points to? The chain walk's test when the node,
 * not a key, is looked for. */
static inline bool grain_impl_htab_is_node(const struct grain_hnode *node,
					   const void *key, void *ctx)
{
	(void)ctx;
	return node == key;
}

/* The bucket and slot holding @n, or NULL if it is not in @a: the search's
 * chain walk, by identity. Under the stripe lock. */
static inline struct grain_impl_htab_bucket *
grain_impl_htab_slot_of(struct grain_impl_htab_array *a,
			const struct grain_hnode *n, unsigned *slot)
{
	const struct grain_htab_params by_node = { NULL,
						   grain_impl_htab_is_node };
	struct grain_impl_htab_bucket *b;

	if (grain_impl_htab_search_slot(a->b, a->mask, n->hash, n, by_node,
					NULL, &b, slot) == NULL)
		return NULL;
	return b;
}

/* Unlink linked node @n, which sits in slot @i of @b, from there, the LRU
 * (none in a CLOCK table) and the entry count, and push it on *@retired
 * as retired with @why; its bytes are the caller's to take off. Under the
 * stripe lock. */
static inline void grain_impl_htab_unlink_at(const struct grain_htab *h,
					     struct grain_impl_htab_stripe *st,
					     struct grain_impl_htab_bucket *b,
					     unsigned i, struct grain_hnode *n,
					     enum grain_htab_reason why,
					     struct grain_hnode **retired)
{
	/* No ordering: a reader that still loads the old pointer holds a
	 * node that stays valid until its grace period ends. */
	atomic_store_explicit(&b->node[i], NULL, memory_order_relaxed);
	atomic_store_explicit(&b->meta,
			      atomic_load_explicit(&b->meta,
						   memory_order_relaxed) &
				      ~(1u << (GRAIN_IMPL_HTAB_OCC_SHIFT + i)),
			      memory_order_relaxed);
	if (GRAIN_LIKELY(!grain_impl_htab_is_clock(h)))
		grain_impl_htab_lru_unlink(st, n);
	grain_impl_htab_set_entries(st, grain_impl_htab_entries(st) - 1);
	n->state = (uint32_t)GRAIN_IMPL_HNODE_RETIRED | (uint32_t)why;
	n->next = *retired;
	*retired = n;
}

/* Take the stripe's reclaim batch (linked through next), leaving it
 * empty. Under the stripe lock. */
static inline struct grain_hnode *
grain_impl_htab_take_batch(struct grain_impl_htab_stripe *st)
{
	if (st->nbatch == 0)
		return NULL;
	struct grain_hnode *list =
		st->ring[(st->nbatch - 1u) & (GRAIN_IMPL_HTAB_AHEAD - 1u)];

	for (unsigned k = 0; k < GRAIN_IMPL_HTAB_AHEAD; k++)
		st->ring[k] = NULL;
	st->nbatch = 0;
	return list;
}

/* The table a retired node belongs to, kept in its stamp (dead once the
 * node is retired) for the reclaim that follows a grace period. */
static inline void grain_impl_htab_set_owner(struct grain_hnode *n,
					     const struct grain_htab *h)
{
	/* Atomic: a lock-free reader may still read the stamp
	 * (grain_htab_node_stamp()). */
	__atomic_store_n(&n->stamp, (uint64_t)(uintptr_t)h, __ATOMIC_RELAXED);
}

/* Move the node just pushed on *@retired (removed: no callback is due) to
 * the stripe's reclaim batch, naming its owner while its line is still
 * in cache, and in its prev (dead once it is retired; no reader loads
 * it) the node GRAIN_IMPL_HTAB_AHEAD places down the batch, or NULL;
 * once the batch is full, ask the unlock (*@todo) to hand all of it to
 * one call_rcu. Under the stripe lock. */
static inline void grain_impl_htab_batch(const struct grain_htab *h,
					 struct grain_impl_htab_stripe *st,
					 struct grain_hnode **retired,
					 unsigned *todo)
{
	struct grain_hnode *n = *retired;
	uint32_t k = st->nbatch;

	*retired = n->next;
	grain_impl_htab_set_owner(n, h);
	/* NULL if the batch is empty: the ring starts zeroed, and
	 * grain_impl_htab_take_batch() clears it. */
	n->next = st->ring[(k - 1u) & (GRAIN_IMPL_HTAB_AHEAD - 1u)];
	n->prev = st->ring[k & (GRAIN_IMPL_HTAB_AHEAD - 1u)];
	st->ring[k & (GRAIN_IMPL_HTAB_AHEAD - 1u)] = n;
	st->nbatch = ++k;
	if (k >= h->reclaim_batch)
		*todo |= GRAIN_IMPL_HTAB_TODO_RECLAIM;
}

/* As grain_impl_htab_unlink_at(), and take its bytes off the stripe. */
static inline void grain_impl_htab_retire_at(struct grain_htab *h,
					     struct grain_impl_htab_stripe *st,
					     struct grain_impl_htab_bucket *b,
					     unsigned i, struct grain_hnode *n,
					     enum grain_htab_reason why,
					     struct grain_hnode **retired,
					     unsigned *todo)
{
	grain_impl_htab_unlink_at(h, st, b, i, n, why, retired);
	grain_impl_htab_add_bytes(h, st, -(int64_t)n->charge);
	if ((h->flags & GRAIN_HTAB_BATCH_RECLAIM) && why == GRAIN_HTAB_REMOVED)
		grain_impl_htab_batch(h, st, retired, todo);
}

/* As grain_impl_htab_retire_at(), finding @n's slot first. */
static inline void
grain_impl_htab_retire(struct grain_htab *h, struct grain_impl_htab_stripe *st,
		       struct grain_hnode *n, enum grain_htab_reason why,
		       struct grain_hnode **retired, unsigned *todo)
{
	unsigned i = 0;
	struct grain_impl_htab_bucket *b = grain_impl_htab_slot_of(
		grain_impl_htab_array_locked(st), n, &i);

	grain_impl_htab_retire_at(h, st, b, i, n, why, retired, todo);
}

/* Give retired node @n back to the caller, once no reader can see it: it
 * may be inserted anew from here on. With no lock held. */
static inline void grain_impl_htab_hand_back(struct grain_htab *h,
					     struct grain_hnode *n,
					     enum grain_htab_reason why)
{
	n->state = GRAIN_IMPL_HNODE_FREE;
	if (h->ops.reclaim != NULL)
		h->ops.reclaim(n, why, h->ctx);
}

/* The public inline calls' bodies. */
#include <grain/impl/htab_calls.h>

#endif /* GRAIN_IMPL_HTAB_H */
