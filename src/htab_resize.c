/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_resize.c - grain_htab's bucket arrays: allocation, the copy that
 * resizes a stripe, and the automatic and requested resizes.
 *
 * Design. A stripe's array is replaced, never rebuilt in place: the copy
 * fills a new array under the stripe lock, publishes it with one release
 * store (R3, pairs with A3 in impl/htab.h), and retires the old one
 * through RCU once the lock is dropped. Nothing writes an array after it
 * is replaced, so a reader that still walks the old one sees every entry
 * that was there, and a resize never waits for readers: there is no
 * "retiring" state to wait out and no address to compare after a grace
 * period. Nodes carry no chain links, so resizing touches node memory
 * only to read each node's hash.
 *
 * References: Linux lib/rhashtable.c (RCU-published tables replaced
 * whole), DPDK rte_hash (signature buckets).
 */
#define _GNU_SOURCE
#include "htab_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* Arrays of at least this size, with the default allocator, are mapped
 * on their own and offered transparent huge pages: a lookup then pays no
 * TLB miss for the bucket line (madvise mode is Debian's default). */
#define HUGE_SIZE ((size_t)2 << 20)

static void *map_huge(size_t size)
{
	size_t len = size + HUGE_SIZE;
	int saved = errno; /* no grain call sets errno */
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		errno = saved;
		return NULL;
	}
	/* Trim to a 2 MiB aligned run of @size bytes. */
	char *start =
		(char *)(((uintptr_t)p + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1));
	if (start > p)
		munmap(p, (size_t)(start - p));
	size_t tail = (size_t)(p + len - (start + size));
	if (tail != 0)
		munmap(start + size, tail);
	(void)madvise(start, size, MADV_HUGEPAGE); /* a hint: may be refused */
	errno = saved;
	return start;
}

static size_t array_size(uint32_t buckets, uint32_t nover)
{
	return sizeof(htab_array) +
	       ((size_t)buckets + nover) *
		       sizeof(struct grain_impl_htab_bucket);
}

/* Fill in a fresh array's header in zeroed memory @mem. */
static htab_array *array_init(void *mem, uint32_t mapped, uint32_t buckets,
			      uint32_t nover, uint32_t stripe)
{
	htab_array *a = mem;

	a->mapped = mapped;
	a->mask = buckets - 1;
	a->nover = nover;
	a->stripe = stripe;
	a->carrier.state = GRAIN_IMPL_HNODE_ARRAY;
	a->carrier.hash = stripe;
	return a;
}

htab_array *htab_array_new(struct grain_htab *h, uint32_t buckets,
			   uint32_t nover, uint32_t stripe)
{
	size_t size = array_size(buckets, nover);
	void *mem;
	uint32_t mapped = 0;

	if (h->alloc.alloc == NULL && size >= HUGE_SIZE &&
	    size <= (size_t)(UINT32_MAX / 2) * HUGE_SIZE) {
		size = (size + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
		mem = map_huge(size); /* zeroed */
		mapped = (uint32_t)(size / HUGE_SIZE);
	} else {
		mem = grain_mem_alloc(&h->alloc, size, GRAIN_CACHELINE);
		if (mem != NULL)
			memset(mem, 0, size);
	}
	return mem != NULL ? array_init(mem, mapped, buckets, nover, stripe)
			   : NULL;
}

int htab_arrays_first(struct grain_htab *h, uint32_t buckets, uint32_t nover)
{
	size_t size = array_size(buckets, nover);
	uint32_t n = (uint32_t)h->smask + 1;

	/* Together they span huge pages: one mapping for all, carved into
	 * stripes, so that the bucket lines of the whole table cost a few TLB
	 * entries. The slab lives until destroy; arrays carved from it are
	 * never freed on their own (a stripe that resizes leaves its first
	 * array's share unused). */
	if (h->alloc.alloc == NULL && size < HUGE_SIZE &&
	    (uint64_t)size * n >= HUGE_SIZE &&
	    (uint64_t)size * n <= (uint64_t)(UINT32_MAX / 2) * HUGE_SIZE) {
		size_t total = ((size_t)size * n + HUGE_SIZE - 1) &
			       ~(HUGE_SIZE - 1);
		char *slab = map_huge(total);
		if (slab != NULL) {
			h->slab = slab;
			h->slab_size = total;
			for (uint32_t i = 0; i < n; i++)
				atomic_init(&h->dir[i],
					    htab_dir_word(array_init(
						    slab + (size_t)i * size,
						    HTAB_SLAB, buckets, nover,
						    i)));
			return 0;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		htab_array *a = htab_array_new(h, buckets, nover, i);
		if (a == NULL) {
			for (uint32_t j = 0; j < i; j++)
				htab_array_free(h, htab_dir_load(h, j));
			return -ENOMEM;
		}
		atomic_init(&h->dir[i], htab_dir_word(a));
	}
	return 0;
}

void htab_array_free(struct grain_htab *h, htab_array *a)
{
	if (a->mapped == HTAB_SLAB)
		return; /* part of h->slab */
	if (a->mapped != 0) {
		munmap(a, (size_t)a->mapped * HUGE_SIZE);
		return;
	}
	grain_mem_free(&h->alloc, a, array_size(a->mask + 1, a->nover),
		       GRAIN_CACHELINE);
}

void htab_slab_free(struct grain_htab *h)
{
	if (h->slab != NULL)
		munmap(h->slab, h->slab_size);
}

/* Put @n (signature @sig) in @a, which nobody reads yet. @return false if
 * the overflow reserve is used up. */
static bool fill_one(htab_array *a, struct grain_hnode *n, uint16_t sig)
{
	struct grain_impl_htab_bucket *b = &a->b[n->hash & a->mask];

	for (;;) {
		uint32_t meta =
			atomic_load_explicit(&b->meta, memory_order_relaxed);
		unsigned occ = meta >> GRAIN_IMPL_HTAB_OCC_SHIFT;
		if (occ != GRAIN_IMPL_HTAB_SLOT_MASK) {
			unsigned i = grain_impl_htab_ctz(~occ);
			grain_impl_htab_set_sig(b, i, sig);
			atomic_store_explicit(&b->node[i], n,
					      memory_order_relaxed);
			atomic_store_explicit(
				&b->meta,
				meta | 1u << (GRAIN_IMPL_HTAB_OCC_SHIFT + i),
				memory_order_relaxed);
			return true;
		}
		uint32_t nx = meta & GRAIN_IMPL_HTAB_NEXT_MASK;
		if (nx == 0) {
			if (a->over_used == a->nover)
				return false;
			nx = a->mask + 1 + a->over_used++;
			atomic_store_explicit(&b->meta, meta | nx,
					      memory_order_relaxed);
		}
		b = &a->b[nx];
	}
}

/* Every (node, signature) of @old, for each: @fn(arg, node, sig). Stops
 * and returns false when @fn does. */
static bool for_each_slot(htab_array *old,
			  bool (*fn)(void *arg, struct grain_hnode *n,
				     uint16_t sig),
			  void *arg)
{
	for (uint32_t h = 0; h <= old->mask; h++) {
		struct grain_impl_htab_bucket *b = &old->b[h];
		for (;;) {
			uint32_t meta = atomic_load_explicit(
				&b->meta, memory_order_relaxed);
			for (unsigned m = meta >> GRAIN_IMPL_HTAB_OCC_SHIFT;
			     m != 0; m &= m - 1) {
				struct grain_hnode *n = atomic_load_explicit(
					&b->node[grain_impl_htab_ctz(m)],
					memory_order_relaxed);
				if (!fn(arg, n, grain_impl_htab_sig(n->hash)))
					return false;
			}
			uint32_t nx = meta & GRAIN_IMPL_HTAB_NEXT_MASK;
			if (nx == 0)
				break;
			b = &old->b[nx];
		}
	}
	return true;
}

static bool fill_fn(void *arg, struct grain_hnode *n, uint16_t sig)
{
	return fill_one(arg, n, sig);
}

struct count_arg {
	uint32_t *count;
	uint32_t mask;
};

static bool count_fn(void *arg, struct grain_hnode *n, uint16_t sig)
{
	struct count_arg *c = arg;

	(void)sig;
	c->count[n->hash & c->mask]++;
	return true;
}

/* The overflow buckets @buckets home buckets need for the stripe's
 * entries, counted exactly (a second pass over the nodes). */
static int64_t overflow_needed(struct grain_htab *h, htab_array *old,
			       uint32_t buckets)
{
	size_t size = (size_t)buckets * sizeof(uint32_t);
	uint32_t *count = grain_mem_alloc(&h->alloc, size, alignof(uint32_t));
	int64_t need = 0;

	if (count == NULL)
		return -1;
	memset(count, 0, size);
	struct count_arg c = { count, buckets - 1 };
	(void)for_each_slot(old, count_fn, &c);
	for (uint32_t i = 0; i < buckets; i++)
		if (count[i] > GRAIN_HTAB_BUCKET_SLOTS)
			need += (int64_t)((count[i] - 1u) /
					  GRAIN_HTAB_BUCKET_SLOTS);
	grain_mem_free(&h->alloc, count, size, alignof(uint32_t));
	return need;
}

int htab_relink(struct grain_htab *h, htab_stripe *st, uint32_t buckets,
		uint32_t hold, struct grain_hnode **retired)
{
	htab_array *old = grain_impl_htab_array_locked(st);
	/* The overflow buckets the new array keeps free for the inserts to
	 * come, one at least: an insert that found the reserve used up
	 * rebuilds and then links, and must find room. */
	const uint64_t slack = buckets / 8u + 2u;
	/* A first guess at the overflow reserve: room for chains of a
	 * Poisson load at max_load, and the slack. If the keys collide more
	 * than that, count exactly. */
	uint64_t guess = slack + grain_impl_htab_entries(st) /
					 (4u * GRAIN_HTAB_BUCKET_SLOTS);
	htab_array *a = htab_array_new(h, buckets, (uint32_t)guess, st->index);

	if (a == NULL)
		return -ENOMEM;
	if ((uint64_t)buckets + guess > GRAIN_IMPL_HTAB_NEXT_MASK) {
		htab_array_free(h, a);
		return -ENOMEM; /* overflow indexes would not fit */
	}
	if (!for_each_slot(old, fill_fn, a) ||
	    a->nover - a->over_used < slack) {
		htab_array_free(h, a);
		int64_t need = overflow_needed(h, old, buckets);
		if (need < 0 || (uint64_t)buckets + (uint64_t)need + slack >
					GRAIN_IMPL_HTAB_NEXT_MASK)
			return -ENOMEM;
		a = htab_array_new(h, buckets,
				   (uint32_t)((uint64_t)need + slack),
				   st->index);
		if (a == NULL)
			return -ENOMEM;
		(void)for_each_slot(old, fill_fn, a);
	}
	/* R3: pairs with A3 in grain_htab_lookup_fast(); a reader that
	 * loads the new array sees all of its slots filled. */
	atomic_store_explicit(&h->dir[st->index], htab_dir_word(a),
			      memory_order_release);
	st->b0 = a->b;
	st->mask = a->mask;
	st->hand = 0; /* CLOCK: the slots moved; the hand starts over */
	atomic_store_explicit(&st->buckets, buckets, memory_order_relaxed);
	st->hold = hold;
	htab_set_grow_at(h, st, buckets);
	grain_impl_htab_bump(&st->resizes, 1);
	old->carrier.next = *retired;
	*retired = &old->carrier;
	return 0;
}

uint32_t htab_wanted_buckets(const struct grain_htab *h, const htab_stripe *st)
{
	htab_array *a = grain_impl_htab_array_locked(st);
	uint64_t buckets = (uint64_t)a->mask + 1;
	uint64_t entries = grain_impl_htab_entries(st);
	bool grow = atomic_load_explicit(&((htab_stripe *)st)->grow_wanted,
					 memory_order_relaxed);

	if ((grow || entries > (uint64_t)h->max_load * buckets) &&
	    buckets < HTAB_MAX_BUCKETS)
		return (uint32_t)buckets * 2u;
	/* Below an eighth of max_load (htab_set_grow_at()), or below the
	 * hold of a stripe the chain rule grew. */
	if (buckets > h->min_buckets &&
	    entries < atomic_load_explicit(&((htab_stripe *)st)->shrink_at,
					   memory_order_relaxed))
		return (uint32_t)buckets / 2u;
	return (uint32_t)buckets;
}

/*
 * The chain rule grows a stripe whose chain is full up to four buckets an
 * entry, the load rule shrinks one below an eighth of max_load entries a
 * bucket (2.67 buckets an entry with the default 3): on their own the two
 * would take turns, a refused insert growing the stripe and the next
 * remove shrinking it, one copy each. So a stripe that the chain rule
 * grew holds its size until its entries fall below half of what they
 * were then; any other change of size ends the hold. Between a growth and
 * the next shrink at least half of the entries leave, so the copies stay
 * in proportion to the inserts and removes, not to refused inserts.
 */
int htab_resize_locked(struct grain_htab *h, htab_stripe *st, bool rebuild,
		       struct grain_hnode **retired)
{
	uint32_t buckets = grain_impl_htab_array_locked(st)->mask + 1;
	uint32_t target = htab_wanted_buckets(h, st);
	uint32_t entries = grain_impl_htab_entries(st);
	uint32_t hold = st->hold;

	if (target == buckets && !rebuild)
		return 0;
	if (target > buckets &&
	    (uint64_t)entries <= (uint64_t)h->max_load * buckets)
		hold = entries / 2u; /* grown by the chain rule */
	else if (target != buckets)
		hold = UINT32_MAX;
	int rc = htab_relink(h, st, target, hold, retired);
	if (rc == 0)
		atomic_store_explicit(&st->grow_wanted, false,
				      memory_order_relaxed);
	return rc;
}

void htab_resize_if_due(struct grain_htab *h, htab_stripe *st)
{
	struct grain_hnode *retired = NULL;

	/* A racy first look, then again under the lock. */
	if (!htab_resize_wanted(st))
		return;
	grain_impl_spin_acquire(&st->lock);
	/* On -ENOMEM the load stays out of range: the next scope that
	 * changes the stripe tries again. */
	(void)htab_resize_locked(h, st, false, &retired);
	grain_impl_spin_release(&st->lock);
	htab_process_retired(h, retired);
}

int grain_htab_resize(struct grain_htab *h, unsigned buckets)
{
	if (h == NULL || buckets == 0 || (buckets & (buckets - 1)) != 0 ||
	    buckets > HTAB_MAX_BUCKETS)
		return -EINVAL;
	for (uint64_t i = 0; i <= h->smask; i++) {
		htab_stripe *st = &h->stripes[i];
		struct grain_hnode *retired = NULL;
		int rc = 0;

		grain_impl_spin_acquire(&st->lock);
		if (grain_impl_htab_array_locked(st)->mask + 1 != buckets)
			rc = htab_relink(h, st, buckets, UINT32_MAX, &retired);
		grain_impl_spin_release(&st->lock);
		htab_process_retired(h, retired);
		if (rc != 0)
			return rc;
	}
	return 0;
}
