/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_walk_rcu.c - grain_htab_walk_rcu(): every entry, from an RCU
 * read-side section, without a lock.
 *
 * Why an entry present for the whole walk is visited exactly once: the
 * walk takes each stripe's array once (the acquire of A3) and visits every
 * slot of it once, home buckets in order and each one's overflow chain
 * behind it (A2). In a live array a node never moves: an insert fills a
 * free slot, a remove empties one, a replace puts another node in the
 * same slot, and an overflow bucket, once linked, stays in its chain. A
 * resize copies the stripe into a new array and never writes the old one
 * again; the old one stays readable until the section ends. So an entry
 * present when the walk takes the array sits in one slot of it until the
 * walk has passed, whether the array is replaced meanwhile or not.
 */
#include "htab_internal.h"

/* Every node of the array whose directory word is @w. */
static int walk_array(uintptr_t w, grain_htab_walk_rcu_fn *fn, void *ctx)
{
	const struct grain_impl_htab_bucket *b0 = grain_impl_htab_dir_b0(w);
	uint32_t mask = grain_impl_htab_dir_mask(w);

	for (uint64_t i = 0; i <= mask; i++) {
		struct grain_impl_htab_bucket *b =
			(struct grain_impl_htab_bucket *)(uintptr_t)&b0[i];
		for (;;) {
			/* A2: an overflow bucket is filled before it is
			 * reachable. */
			uint32_t meta = atomic_load_explicit(
				&b->meta, memory_order_acquire);
			for (unsigned s = 0; s < GRAIN_HTAB_BUCKET_SLOTS; s++) {
				/* A1: the node as its inserter built it. */
				struct grain_hnode *n = atomic_load_explicit(
					&b->node[s], memory_order_acquire);
				if (n == NULL)
					continue;
				int rc = fn(n, ctx);
				if (rc != 0)
					return rc;
			}
			uint32_t nx = meta & GRAIN_IMPL_HTAB_NEXT_MASK;
			if (nx == 0)
				break;
			b = (struct grain_impl_htab_bucket *)(uintptr_t)&b0[nx];
		}
	}
	return 0;
}

int grain_htab_walk_rcu(struct grain_htab *h, grain_htab_walk_rcu_fn *fn,
			void *ctx)
{
	if (h == NULL || fn == NULL || !htab_has_rcu(h))
		return -EINVAL;
	for (uint64_t i = 0; i <= h->smask; i++) {
		/* A3: pairs with R3 in htab_relink(); the array's slots are
		 * filled. */
		uintptr_t w =
			atomic_load_explicit(&h->dir[i], memory_order_acquire);
		int rc = walk_array(w, fn, ctx);
		if (rc != 0)
			return rc;
	}
	return 0;
}
