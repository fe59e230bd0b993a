/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/htab_calls.h - the bodies of htab.h's public inline calls (C only):
 * the scoped access and one-call forms specialised by the caller's hash
 * and equality (the _fast calls), the generic forms that pass the table's
 * own ops, and replace; on top of impl/htab.h's layout, search, LRU, link
 * and unlink. Never include this file directly: include <grain/htab.h>.
 * The labels (R1/A1, R2/A2, R3/A3) are impl/htab.h's.
 */
#ifndef GRAIN_IMPL_HTAB_CALLS_H
#define GRAIN_IMPL_HTAB_CALLS_H

#ifndef GRAIN_IMPL_HTAB_H
#error "include <grain/htab.h> instead of <grain/impl/htab_calls.h>"
#endif

/* --- scoped access, specialised -------------------------------------------- */

static GRAIN_ALWAYS_INLINE void
grain_htab_lock_fast(struct grain_htab *h, const void *key,
		     struct grain_htab_scope *s,
		     const struct grain_htab_params p)
{
	if (GRAIN_UNLIKELY(h == NULL || key == NULL || s == NULL)) {
		/* An empty scope: its calls fail, its unlock does nothing. */
		if (s != NULL)
			*s = (struct grain_htab_scope){ 0 };
		return;
	}
	s->h = h;
	s->hash = p.hash(key, &h->secret, h->ctx);
	s->stripe = &h->stripes[grain_impl_htab_stripe_index(h, s->hash)];
	/* A live table's stripes: so the scope's later NULL tests vanish. */
	GRAIN_ASSUME(s->stripe != NULL);
	/* No clock yet: an eviction at the unlock labels its victims
	 * EXPIRED only after a call of this scope gave it the time. */
	s->now = 0;
	s->retired = NULL;
	s->todo = 0;
	grain_impl_spin_acquire(&s->stripe->lock);
}

GRAIN_INLINE_API void grain_htab_unlock(struct grain_htab_scope *s)
{
	if (GRAIN_UNLIKELY(s == NULL || s->stripe == NULL))
		return;
	if (GRAIN_UNLIKELY(((uintptr_t)s->retired | s->todo) != 0)) {
		/* A copy: the caller's scope never escapes on the fast path,
		 * so the compiler may keep it in registers. The slow half
		 * releases the lock (after evicting from the stripe, if due). */
		struct grain_htab_scope rest = *s;
		grain_impl_htab_unlock_slow(&rest);
		return;
	}
	grain_impl_spin_release(&s->stripe->lock);
}

static GRAIN_ALWAYS_INLINE struct grain_hnode *
grain_htab_find_locked_fast(struct grain_htab_scope *s, const void *key,
			    const struct grain_htab_params p)
{
	if (GRAIN_UNLIKELY(s == NULL || s->stripe == NULL || key == NULL))
		return NULL;
	struct grain_impl_htab_stripe *st = s->stripe;
	struct grain_hnode *n = grain_impl_htab_search(
		st->b0, st->mask, s->hash, key, p, s->h->ctx);

	grain_impl_htab_bump(n != NULL ? &st->hits : &st->misses, 1);
	return n;
}

/* Expire a few entries from the head of the stripe's LRU if its oldest
 * is ttl old at @now. */
static GRAIN_ALWAYS_INLINE void
grain_impl_htab_expire_due(struct grain_htab_scope *s, uint64_t now)
{
	uint64_t o =
		atomic_load_explicit(&s->stripe->oldest, memory_order_relaxed);

	/* An empty stripe's UINT64_MAX is never ttl old (ttl > 0). */
	if (GRAIN_UNLIKELY(now >= o && now - o >= s->h->ttl))
		grain_impl_htab_expire_head(s, now);
}

/* Link @node, whose probe found no equal key, in the probed slot: @return
 * 0, or the slow path's error (chain limit, watermark with REFUSE, no
 * memory for a rebuild). */
static GRAIN_ALWAYS_INLINE int
grain_impl_htab_place(struct grain_htab_scope *s, struct grain_hnode *node,
		      uint64_t now, size_t charge,
		      struct grain_impl_htab_probe *pr)
{
	struct grain_htab *h = s->h;
	struct grain_impl_htab_stripe *st = s->stripe;

	if (GRAIN_UNLIKELY(pr->len >= h->max_chain ||
			   h->policy == GRAIN_HTAB_REFUSE)) {
		int rc = grain_impl_htab_insert_slow(
			s, pr->len >= h->max_chain ? GRAIN_IMPL_HTAB_SLOW_CHAIN
						   : 0);
		if (rc != 0)
			return rc;
	}
	if (pr->len > grain_impl_htab_get(&st->longest))
		atomic_store_explicit(&st->longest, pr->len,
				      memory_order_relaxed);
	node->hash = s->hash;
	node->stamp = now;
	node->charge = (uint32_t)charge;
	node->state = GRAIN_IMPL_HNODE_LINKED;
	if (GRAIN_LIKELY(grain_impl_htab_link(grain_impl_htab_array_locked(st),
					      pr, node)))
		return 0;
	/* No overflow bucket left: rebuild the stripe; the caller probes
	 * again. */
	node->state = GRAIN_IMPL_HNODE_FREE;
	int rc = grain_impl_htab_insert_slow(s, GRAIN_IMPL_HTAB_SLOW_FULL);
	return rc != 0 ? rc : -EAGAIN;
}

/* Count linked @node in: LRU (a CLOCK table marks it referenced
 * instead), entries, bytes; ask the unlock for an eviction or a resize if
 * they are due. */
static GRAIN_ALWAYS_INLINE void
grain_impl_htab_count_in(struct grain_htab_scope *s, struct grain_hnode *node,
			 size_t charge)
{
	struct grain_htab *h = s->h;
	struct grain_impl_htab_stripe *st = s->stripe;

	if (GRAIN_UNLIKELY(grain_impl_htab_is_clock(h)))
		grain_impl_htab_clock_mark(node);
	else
		grain_impl_htab_lru_append(st, node);
	uint32_t entries = grain_impl_htab_entries(st) + 1;
	grain_impl_htab_set_entries(st, entries);
	grain_impl_htab_bump(&st->inserts, 1);
	grain_impl_htab_add_bytes(h, st, (int64_t)charge);
	/* The folded total plus this stripe's own remainder: a bound that
	 * leaves out the evictors' credit (never positive), so it may ask
	 * the unlock to check again, never miss a need to evict. */
	if (GRAIN_UNLIKELY(
		    atomic_load_explicit(&h->total, memory_order_relaxed) +
			    atomic_load_explicit(&st->unfolded,
						 memory_order_relaxed) >
		    h->evict_above))
		s->todo |= GRAIN_IMPL_HTAB_TODO_EVICT;
	if (GRAIN_UNLIKELY(
		    entries >
		    atomic_load_explicit(&st->grow_at, memory_order_relaxed)))
		s->todo |= GRAIN_IMPL_HTAB_TODO_RESIZE;
}

/* The insert of every insert form; *found gets an existing entry. */
static GRAIN_ALWAYS_INLINE int
grain_impl_htab_insert(struct grain_htab_scope *s, struct grain_hnode *node,
		       const void *key, uint64_t now, size_t charge,
		       struct grain_hnode **found,
		       const struct grain_htab_params p)
{
	struct grain_htab *h = s->h;
	struct grain_impl_htab_probe pr;
	int rc;

	if (GRAIN_UNLIKELY(node == NULL || key == NULL ||
			   node->state != GRAIN_IMPL_HNODE_FREE ||
			   charge > UINT32_MAX))
		return -EINVAL;
	s->now = now;
	if (h->ttl != 0)
		grain_impl_htab_expire_due(s, now);
	do {
		struct grain_hnode *old =
			grain_impl_htab_probe(s->stripe->b0, s->stripe->mask,
					      s->hash, key, p, h->ctx, &pr);
		if (old != NULL) {
			*found = old;
			return -EEXIST;
		}
		rc = grain_impl_htab_place(s, node, now, charge, &pr);
	} while (GRAIN_UNLIKELY(rc == -EAGAIN));
	if (rc != 0)
		return rc;
	grain_impl_htab_count_in(s, node, charge);
	*found = node;
	return 0;
}

GRAIN_NODISCARD static GRAIN_ALWAYS_INLINE int grain_htab_insert_locked_fast(
	struct grain_htab_scope *s, struct grain_hnode *node, const void *key,
	uint64_t now, size_t charge, const struct grain_htab_params p)
{
	struct grain_hnode *found;

	if (s == NULL || s->stripe == NULL)
		return -EINVAL;
	return grain_impl_htab_insert(s, node, key, now, charge, &found, p);
}

GRAIN_NODISCARD static GRAIN_ALWAYS_INLINE int
grain_htab_find_or_insert_locked_fast(struct grain_htab_scope *s,
				      const void *key, struct grain_hnode *node,
				      uint64_t now, size_t charge,
				      struct grain_hnode **found,
				      const struct grain_htab_params p)
{
	struct grain_hnode *f = NULL;

	if (s == NULL || s->stripe == NULL || found == NULL) {
		if (found != NULL)
			*found = NULL;
		return -EINVAL;
	}
	int rc = grain_impl_htab_insert(s, node, key, now, charge, &f, p);
	*found = rc == 0 || rc == -EEXIST ? f : NULL;
	return rc;
}

/* --- one-call forms, specialised ------------------------------------------- */

GRAIN_NODISCARD static GRAIN_ALWAYS_INLINE int
grain_htab_insert_fast(struct grain_htab *h, struct grain_hnode *node,
		       const void *key, uint64_t now, size_t charge,
		       const struct grain_htab_params p)
{
	struct grain_htab_scope s;
	struct grain_hnode *found;

	if (h == NULL || node == NULL || key == NULL)
		return -EINVAL;
	grain_htab_lock_fast(h, key, &s, p);
	int rc = grain_impl_htab_insert(&s, node, key, now, charge, &found, p);
	grain_htab_unlock(&s);
	return rc;
}

GRAIN_NODISCARD static GRAIN_ALWAYS_INLINE int
grain_htab_find_or_insert_fast(struct grain_htab *h, const void *key,
			       struct grain_hnode *node, uint64_t now,
			       size_t charge, struct grain_hnode **found,
			       const struct grain_htab_params p)
{
	struct grain_htab_scope s;

	if (h == NULL || key == NULL || found == NULL) {
		if (found != NULL)
			*found = NULL;
		return -EINVAL;
	}
	grain_htab_lock_fast(h, key, &s, p);
	int rc = grain_htab_find_or_insert_locked_fast(&s, key, node, now,
						       charge, found, p);
	grain_htab_unlock(&s);
	return rc;
}

GRAIN_NODISCARD static GRAIN_ALWAYS_INLINE int
grain_htab_remove_fast(struct grain_htab *h, const void *key,
		       struct grain_hnode **removed,
		       const struct grain_htab_params p)
{
	struct grain_htab_scope s;

	if (h == NULL || key == NULL)
		return -EINVAL;
	grain_htab_lock_fast(h, key, &s, p);
	struct grain_impl_htab_bucket *b = NULL;
	unsigned i = 0;
	struct grain_hnode *n = grain_impl_htab_search_slot(
		s.stripe->b0, s.stripe->mask, s.hash, key, p, h->ctx, &b, &i);
	grain_impl_htab_bump(n != NULL ? &s.stripe->hits : &s.stripe->misses,
			     1);
	bool direct = false;
	if (n != NULL) {
		grain_impl_htab_retire_at(h, s.stripe, b, i, n,
					  GRAIN_HTAB_REMOVED, &s.retired,
					  &s.todo);
		if (GRAIN_UNLIKELY(grain_impl_htab_entries(s.stripe) <
				   atomic_load_explicit(&s.stripe->shrink_at,
							memory_order_relaxed)))
			s.todo |= GRAIN_IMPL_HTAB_TODO_RESIZE;
		/* Without lock-free readers and with the load in range,
		 * nothing is left for the unlock's slow half but to hand
		 * the node back: do it here. */
		direct = (h->flags & GRAIN_HTAB_NO_RCU) != 0 && s.todo == 0;
	}
	if (direct) {
		grain_impl_spin_release(&s.stripe->lock);
		grain_impl_htab_hand_back(h, n, GRAIN_HTAB_REMOVED);
	} else {
		grain_htab_unlock(&s);
	}
	/* A NO_RCU table has handed the node to reclaim by now: no pointer
	 * to it goes back (htab.h). */
	if (removed != NULL)
		*removed = (h->flags & GRAIN_HTAB_NO_RCU) == 0 ? n : NULL;
	return n != NULL ? 0 : -ENOENT;
}

static GRAIN_ALWAYS_INLINE struct grain_hnode *
grain_htab_lookup_with_hash_fast(struct grain_htab *h, const void *key,
				 uint64_t hash,
				 const struct grain_htab_params p)
{
	if (GRAIN_UNLIKELY(h == NULL || key == NULL ||
			   (h->flags & GRAIN_HTAB_NO_RCU) != 0))
		return NULL;
	/* A3: pairs with R3 in src/htab_resize.c; the array's buckets are
	 * filled. */
	uintptr_t w = atomic_load_explicit(
		&h->dir[grain_impl_htab_stripe_index(h, hash)],
		memory_order_acquire);
	return grain_impl_htab_search(grain_impl_htab_dir_b0(w),
				      grain_impl_htab_dir_mask(w), hash, key, p,
				      h->ctx);
}

static GRAIN_ALWAYS_INLINE struct grain_hnode *
grain_htab_lookup_fast(struct grain_htab *h, const void *key,
		       const struct grain_htab_params p)
{
	if (GRAIN_UNLIKELY(h == NULL || key == NULL ||
			   (h->flags & GRAIN_HTAB_NO_RCU) != 0))
		return NULL;
	return grain_htab_lookup_with_hash_fast(
		h, key, p.hash(key, &h->secret, h->ctx), p);
}

/* A hint that the line at @a is read soon; no fault, no effect on what
 * any load returns. */
static inline void grain_impl_htab_prefetch(const void *a)
{
#if defined(__GNUC__) || defined(__clang__)
	__builtin_prefetch(a, 0, 3);
#else
	(void)a;
#endif
}

/* grain_htab_lookup_bulk_fast()'s first pass: hash every key, read its
 * stripe's array (dir[i]; 0 for a NULL key) and prefetch its bucket. */
static GRAIN_ALWAYS_INLINE void
grain_impl_htab_bulk_hash(struct grain_htab *h, const void *const *keys,
			  unsigned n, uint64_t *hash, uintptr_t *dir,
			  const struct grain_htab_params p)
{
	for (unsigned i = 0; i < n; i++) {
		if (GRAIN_UNLIKELY(keys[i] == NULL)) {
			dir[i] = 0;
			continue;
		}
		hash[i] = p.hash(keys[i], &h->secret, h->ctx);
		/* A3: pairs with R3 in src/htab_resize.c. */
		dir[i] = atomic_load_explicit(
			&h->dir[grain_impl_htab_stripe_index(h, hash[i])],
			memory_order_acquire);
		grain_impl_htab_prefetch(&grain_impl_htab_dir_b0(
			dir[i])[hash[i] & grain_impl_htab_dir_mask(dir[i])]);
	}
}

/* Its second pass: compare each bucket's signatures and prefetch the
 * first candidate node. */
static GRAIN_ALWAYS_INLINE void
grain_impl_htab_bulk_prefetch(unsigned n, const uint64_t *hash,
			      const uintptr_t *dir)
{
	for (unsigned i = 0; i < n; i++) {
		if (GRAIN_UNLIKELY(dir[i] == 0))
			continue;
		const struct grain_impl_htab_bucket *b = &grain_impl_htab_dir_b0(
			dir[i])[hash[i] & grain_impl_htab_dir_mask(dir[i])];
		unsigned m = grain_impl_htab_cand(
			b, grain_impl_htab_sigv_of(hash[i]));
		if (m != 0) {
			/* Relaxed: the address is only a prefetch hint,
			 * nothing is read through it here; the search loads
			 * the slot again with A1. */
			struct grain_hnode *c = atomic_load_explicit(
				&((struct grain_impl_htab_bucket *)(uintptr_t)b)
					 ->node[grain_impl_htab_first(m)],
				memory_order_relaxed);
			if (c != NULL)
				grain_impl_htab_prefetch(c);
		}
	}
}

/* The bulk lookup in three passes over the burst, so that the cache
 * misses of different keys overlap instead of following one another:
 * (1) hash every key, load its stripe's directory word (A3) and prefetch
 * its home bucket; (2) compare each home bucket's signatures and
 * prefetch the node of the first candidate (A1); (3) search each key as
 * grain_htab_lookup_fast() does, in the array pass 1 loaded, now mostly
 * from cache. A key's result is that of a single lookup made during the
 * call. */
GRAIN_NODISCARD static GRAIN_ALWAYS_INLINE int
grain_htab_lookup_bulk_fast(struct grain_htab *h, const void *const *keys,
			    unsigned n, struct grain_hnode **nodes,
			    uint64_t *hits, const struct grain_htab_params p)
{
	uint64_t hash[GRAIN_HTAB_LOOKUP_BULK_MAX];
	uintptr_t dir[GRAIN_HTAB_LOOKUP_BULK_MAX];
	uint64_t mask = 0;
	int found = 0;

	if (hits != NULL)
		*hits = 0;
	if (GRAIN_UNLIKELY(h == NULL || n > GRAIN_HTAB_LOOKUP_BULK_MAX ||
			   (n != 0 && (keys == NULL || nodes == NULL)) ||
			   (h->flags & GRAIN_HTAB_NO_RCU) != 0)) {
		if (nodes != NULL && n <= GRAIN_HTAB_LOOKUP_BULK_MAX)
			for (unsigned i = 0; i < n; i++)
				nodes[i] = NULL;
		return -EINVAL;
	}
	grain_impl_htab_bulk_hash(h, keys, n, hash, dir, p);
	grain_impl_htab_bulk_prefetch(n, hash, dir);
	for (unsigned i = 0; i < n; i++) {
		struct grain_hnode *r = NULL;
		if (GRAIN_LIKELY(dir[i] != 0))
			r = grain_impl_htab_search(
				grain_impl_htab_dir_b0(dir[i]),
				grain_impl_htab_dir_mask(dir[i]), hash[i],
				keys[i], p, h->ctx);
		nodes[i] = r;
		if (r != NULL) {
			mask |= (uint64_t)1 << i;
			found++;
		}
	}
	if (hits != NULL)
		*hits = mask;
	return found;
}

/* --- generic forms: the table's ops as the parameters ---------------------- */

static inline struct grain_htab_params
grain_impl_htab_ops(const struct grain_htab *h)
{
	struct grain_htab_params p = { h->ops.hash, h->ops.eq };
	return p;
}

GRAIN_INLINE_API void grain_htab_lock(struct grain_htab *h, const void *key,
				      struct grain_htab_scope *s)
{
	if (GRAIN_UNLIKELY(h == NULL)) {
		if (s != NULL)
			*s = (struct grain_htab_scope){ 0 };
		return;
	}
	grain_htab_lock_fast(h, key, s, grain_impl_htab_ops(h));
}

GRAIN_INLINE_API struct grain_hnode *
grain_htab_find_locked(struct grain_htab_scope *s, const void *key)
{
	if (GRAIN_UNLIKELY(s == NULL || s->h == NULL))
		return NULL;
	return grain_htab_find_locked_fast(s, key, grain_impl_htab_ops(s->h));
}

GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_insert_locked(struct grain_htab_scope *s, struct grain_hnode *node,
			 const void *key, uint64_t now, size_t charge)
{
	if (s == NULL || s->h == NULL)
		return -EINVAL;
	return grain_htab_insert_locked_fast(s, node, key, now, charge,
					     grain_impl_htab_ops(s->h));
}

GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_find_or_insert_locked(struct grain_htab_scope *s, const void *key,
				 struct grain_hnode *node, uint64_t now,
				 size_t charge, struct grain_hnode **found)
{
	if (s == NULL || s->h == NULL) {
		if (found != NULL)
			*found = NULL;
		return -EINVAL;
	}
	return grain_htab_find_or_insert_locked_fast(
		s, key, node, now, charge, found, grain_impl_htab_ops(s->h));
}

GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_insert(struct grain_htab *h, struct grain_hnode *node,
		  const void *key, uint64_t now, size_t charge)
{
	if (h == NULL)
		return -EINVAL;
	return grain_htab_insert_fast(h, node, key, now, charge,
				      grain_impl_htab_ops(h));
}

GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_find_or_insert(struct grain_htab *h, const void *key,
			  struct grain_hnode *node, uint64_t now, size_t charge,
			  struct grain_hnode **found)
{
	if (h == NULL)
		return -EINVAL;
	return grain_htab_find_or_insert_fast(h, key, node, now, charge, found,
					      grain_impl_htab_ops(h));
}

GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_remove(struct grain_htab *h, const void *key,
		  struct grain_hnode **removed)
{
	if (h == NULL)
		return -EINVAL;
	return grain_htab_remove_fast(h, key, removed, grain_impl_htab_ops(h));
}

GRAIN_INLINE_API struct grain_hnode *grain_htab_lookup(struct grain_htab *h,
						       const void *key)
{
	if (h == NULL)
		return NULL;
	return grain_htab_lookup_fast(h, key, grain_impl_htab_ops(h));
}

GRAIN_INLINE_API struct grain_hnode *
grain_htab_lookup_with_hash(struct grain_htab *h, const void *key,
			    uint64_t hash)
{
	if (h == NULL)
		return NULL;
	return grain_htab_lookup_with_hash_fast(h, key, hash,
						grain_impl_htab_ops(h));
}

GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_lookup_bulk(struct grain_htab *h, const void *const *keys,
		       unsigned n, struct grain_hnode **nodes, uint64_t *hits)
{
	if (h == NULL) {
		if (hits != NULL)
			*hits = 0;
		if (nodes != NULL && n <= GRAIN_HTAB_LOOKUP_BULK_MAX)
			for (unsigned i = 0; i < n; i++)
				nodes[i] = NULL;
		return -EINVAL;
	}
	return grain_htab_lookup_bulk_fast(h, keys, n, nodes, hits,
					   grain_impl_htab_ops(h));
}

/* --- replace ---------------------------------------------------------------- */

/* Put free @node in linked @old's place, slot @i of @b: @node holds the
 * same key, so it takes the same hash, signature and bucket, and the slot
 * changes with one store. @node is stamped @now, charged @charge and goes
 * to the most recently used end (marked referenced in a CLOCK table); @old is retired as a remove retires it,
 * with reason REPLACED. The entry count does not change. Under the stripe
 * lock. */
static GRAIN_ALWAYS_INLINE void
grain_impl_htab_swap_at(struct grain_htab_scope *s,
			struct grain_impl_htab_bucket *b, unsigned i,
			struct grain_hnode *old, struct grain_hnode *node,
			uint64_t now, size_t charge)
{
	struct grain_htab *h = s->h;
	struct grain_impl_htab_stripe *st = s->stripe;
	int64_t delta = (int64_t)charge - (int64_t)old->charge;

	node->hash = old->hash;
	node->stamp = now;
	node->charge = (uint32_t)charge;
	node->state = GRAIN_IMPL_HNODE_LINKED;
	/* R1 for a replace: pairs with A1 in grain_impl_htab_search(). The
	 * slot goes from @old to @node in this one store, its signature and
	 * the bucket's occupied bit untouched: a lock-free reader loads one
	 * of the two, never NULL, and sees @node as built. */
	atomic_store_explicit(&b->node[i], node, memory_order_release);
	if (grain_impl_htab_is_clock(h)) {
		grain_impl_htab_clock_mark(node);
	} else {
		grain_impl_htab_lru_unlink(st, old);
		grain_impl_htab_lru_append(st, node);
	}
	old->state = (uint32_t)GRAIN_IMPL_HNODE_RETIRED |
		     (uint32_t)GRAIN_HTAB_REPLACED;
	old->next = s->retired;
	s->retired = old;
	if (delta != 0)
		grain_impl_htab_add_bytes(h, st, delta);
	if (h->flags & GRAIN_HTAB_BATCH_RECLAIM)
		grain_impl_htab_batch(h, st, &s->retired, &s->todo);
	s->now = now;
	/* As an insert's check (grain_impl_htab_count_in()). */
	if (delta > 0 &&
	    atomic_load_explicit(&h->total, memory_order_relaxed) +
			    atomic_load_explicit(&st->unfolded,
						 memory_order_relaxed) >
		    h->evict_above)
		s->todo |= GRAIN_IMPL_HTAB_TODO_EVICT;
}

GRAIN_NODISCARD static GRAIN_ALWAYS_INLINE int
grain_htab_replace_fast(struct grain_htab *h, const void *key,
			struct grain_hnode *node, uint64_t now, size_t charge,
			struct grain_hnode **old,
			const struct grain_htab_params p)
{
	struct grain_htab_scope s;
	struct grain_impl_htab_bucket *b = NULL;
	unsigned i = 0;
	int rc = 0;

	if (old != NULL)
		*old = NULL;
	if (h == NULL || key == NULL || node == NULL ||
	    node->state != GRAIN_IMPL_HNODE_FREE || charge > UINT32_MAX ||
	    !p.eq(node, key, h->ctx))
		return -EINVAL;
	grain_htab_lock_fast(h, key, &s, p);
	s.now = now;
	/* Before the search: an expiry after it could retire the entry
	 * found. */
	if (h->ttl != 0)
		grain_impl_htab_expire_due(&s, now);
	struct grain_hnode *n = grain_impl_htab_search_slot(
		s.stripe->b0, s.stripe->mask, s.hash, key, p, h->ctx, &b, &i);
	grain_impl_htab_bump(n != NULL ? &s.stripe->hits : &s.stripe->misses,
			     1);
	if (n != NULL) {
		grain_impl_htab_swap_at(&s, b, i, n, node, now, charge);
	} else {
		struct grain_hnode *found;
		rc = grain_impl_htab_insert(&s, node, key, now, charge, &found,
					    p);
	}
	grain_htab_unlock(&s);
	if (old != NULL && rc == 0)
		*old = n;
	return rc;
}

GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_replace(struct grain_htab *h, const void *key,
		   struct grain_hnode *node, uint64_t now, size_t charge,
		   struct grain_hnode **old)
{
	if (h == NULL) {
		if (old != NULL)
			*old = NULL;
		return -EINVAL;
	}
	return grain_htab_replace_fast(h, key, node, now, charge, old,
				       grain_impl_htab_ops(h));
}

#endif /* GRAIN_IMPL_HTAB_CALLS_H */
