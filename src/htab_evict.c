/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_evict.c - grain_htab's eviction to the low watermark and TTL
 * expiry.
 *
 * Design. Eviction is O(1) per step, whatever the number of stripes: a
 * step reads the oldest stamp of GRAIN_HTAB_EVICT_SAMPLE stripes (the
 * evicting key's own and others at an odd stride picked from its hash, so
 * they are distinct), locks the one whose oldest entry is oldest, and
 * takes up to HTAB_EVICT_BATCH entries from the head of its LRU while
 * they stay older than the runner-up's. What it frees is folded into the
 * table total at once, so other threads see it and do not evict the same
 * bytes again. Every thread whose scope left the total above mem_high
 * evicts for itself; nobody waits for another evictor, and nobody leaves
 * its bytes to one. No step holds more than one stripe lock, and callbacks
 * run with none held.
 *
 * A GRAIN_HTAB_EVICT_CLOCK table has no LRU heads: a step takes its
 * victims from the hand of one stripe (the evicting scope's own first,
 * then the fullest of the sampled ones), and expiry scans the slots.
 *
 * References: Linux net/ipv4/inet_fragment.c (2013: per-bucket LRU and
 * thresholds), the "power of d choices" sampling used by approximate LRU
 * caches, Corbato's CLOCK (1968) for the second-chance order.
 */
#include "htab_internal.h"

/* The stamp of the stripe's least recently used entry; UINT64_MAX: empty
 * (grain_impl_htab_set_oldest() keeps it). */
static uint64_t oldest_of(const htab_stripe *st)
{
	return atomic_load_explicit(&((htab_stripe *)st)->oldest,
				    memory_order_relaxed);
}

/* --- CLOCK ------------------------------------------------------------------ */

/* Slot positions of the stripe's array: its home buckets and the overflow
 * buckets handed out so far. Under the lock. */
static uint64_t clock_positions(const htab_stripe *st)
{
	const htab_array *a = grain_impl_htab_array_locked(st);

	return ((uint64_t)a->mask + 1 + a->over_used) * GRAIN_HTAB_BUCKET_SLOTS;
}

/* The node in slot position @pos of @st's array, or NULL if the slot is
 * empty; *@bp and *@ip get the slot. Under the lock. */
static struct grain_hnode *clock_at(htab_stripe *st, uint64_t pos,
				    struct grain_impl_htab_bucket **bp,
				    unsigned *ip)
{
	struct grain_impl_htab_bucket *b =
		&st->b0[pos / GRAIN_HTAB_BUCKET_SLOTS];
	unsigned i = (unsigned)(pos % GRAIN_HTAB_BUCKET_SLOTS);
	uint32_t meta = atomic_load_explicit(&b->meta, memory_order_relaxed);

	if ((meta >> (GRAIN_IMPL_HTAB_OCC_SHIFT + i) & 1u) == 0)
		return NULL;
	*bp = b;
	*ip = i;
	return atomic_load_explicit(&b->node[i], memory_order_relaxed);
}

/* Move the stripe's hand to its next victim: the first entry from the
 * hand on that carries no reference mark or is ttl old at @now, clearing
 * the marks it passes. A bucket at a time: its occupied slots from the
 * hand on, their nodes prefetched together (the marks are in the nodes,
 * so each is a cache miss that may overlap the others). Every slot is
 * looked at twice at most: the first round clears every mark. @return
 * the victim, in slot *@ip of *@bp, with the hand just past it; NULL if
 * the stripe is empty. Under the lock. */
static struct grain_hnode *clock_victim(struct grain_htab *h, htab_stripe *st,
					uint64_t now,
					struct grain_impl_htab_bucket **bp,
					unsigned *ip)
{
	uint64_t npos = clock_positions(st);
	uint64_t nb = npos / GRAIN_HTAB_BUCKET_SLOTS;
	uint64_t pos = st->hand < npos ? st->hand : 0;
	uint64_t k = pos / GRAIN_HTAB_BUCKET_SLOTS;
	unsigned from = (unsigned)(pos % GRAIN_HTAB_BUCKET_SLOTS);

	if (grain_impl_htab_entries(st) == 0)
		return NULL;
	for (uint64_t step = 0; step <= 2 * nb + 1; step++) {
		struct grain_impl_htab_bucket *b = &st->b0[k];
		unsigned occ =
			(atomic_load_explicit(&b->meta, memory_order_relaxed) >>
			 GRAIN_IMPL_HTAB_OCC_SHIFT) &
			(GRAIN_IMPL_HTAB_SLOT_MASK << from) &
			GRAIN_IMPL_HTAB_SLOT_MASK;
		for (unsigned m = occ; m != 0; m &= m - 1)
			grain_impl_htab_prefetch(atomic_load_explicit(
				&b->node[grain_impl_htab_ctz(m)],
				memory_order_relaxed));
		for (; occ != 0; occ &= occ - 1) {
			unsigned i = grain_impl_htab_ctz(occ);
			struct grain_hnode *n = atomic_load_explicit(
				&b->node[i], memory_order_relaxed);
			if (n->prev != NULL && !htab_expired(h, n, now)) {
				n->prev = NULL; /* a second chance */
				continue;
			}
			pos = k * GRAIN_HTAB_BUCKET_SLOTS + i + 1;
			st->hand = (uint32_t)(pos == npos ? 0 : pos);
			*bp = b;
			*ip = i;
			return n;
		}
		from = 0;
		k = k + 1 == nb ? 0 : k + 1;
	}
	return NULL; /* not reached: the count says an entry is linked */
}

/* Expire up to @max entries of @st ttl old at @now, scanning its slots
 * from *@pos on; *@pos gets where the scan stopped (npos once done).
 * Under the lock. */
static unsigned clock_expire(struct grain_htab *h, htab_stripe *st,
			     uint64_t now, unsigned max, uint64_t *pos,
			     struct grain_hnode **retired)
{
	uint64_t npos = clock_positions(st);
	unsigned n = 0, todo = 0;

	for (; *pos < npos && n < max; ++*pos) {
		struct grain_impl_htab_bucket *b;
		unsigned i;
		struct grain_hnode *v = clock_at(st, *pos, &b, &i);
		if (v == NULL || !htab_expired(h, v, now))
			continue;
		grain_impl_htab_retire_at(h, st, b, i, v, GRAIN_HTAB_EXPIRED,
					  retired, &todo);
		grain_impl_htab_bump(&st->expirations, 1);
		n++;
	}
	return n;
}

unsigned htab_expire_stripe(struct grain_htab *h, htab_stripe *st, uint64_t now,
			    unsigned max, struct grain_hnode **retired)
{
	unsigned n = 0, todo = 0; /* expired nodes never batch */

	if (grain_impl_htab_is_clock(h)) {
		uint64_t pos = 0;
		return clock_expire(h, st, now, max, &pos, retired);
	}
	while (n < max && st->lru_head != NULL &&
	       htab_expired(h, st->lru_head, now)) {
		grain_impl_htab_retire(h, st, st->lru_head, GRAIN_HTAB_EXPIRED,
				       retired, &todo);
		grain_impl_htab_bump(&st->expirations, 1);
		n++;
	}
	return n;
}

/* CLOCK: the sampled stripe that holds the most entries; NULL if all of
 * them are empty. */
static htab_stripe *pick_fullest(struct grain_htab *h, uint64_t first,
				 uint64_t stride, unsigned samples)
{
	htab_stripe *best = NULL;
	uint32_t most = 0;

	for (unsigned i = 0; i < samples; i++) {
		htab_stripe *st = &h->stripes[(first + i * stride) & h->smask];
		uint32_t e = grain_impl_htab_entries(st);
		if (e > most) {
			most = e;
			best = st;
		}
	}
	return best;
}

/* The sampled stripe whose oldest entry is oldest, and the runner-up's
 * stamp; NULL if all of them are empty. CLOCK: the fullest, and no
 * runner-up (UINT64_MAX). */
static htab_stripe *pick_victim(struct grain_htab *h, uint64_t first,
				uint64_t stride, uint64_t *second)
{
	unsigned samples = h->smask + 1 < GRAIN_HTAB_EVICT_SAMPLE
				   ? (unsigned)h->smask + 1
				   : GRAIN_HTAB_EVICT_SAMPLE;
	htab_stripe *best = NULL;
	uint64_t best_o = UINT64_MAX;

	*second = UINT64_MAX;
	if (grain_impl_htab_is_clock(h))
		return pick_fullest(h, first, stride, samples);
	for (unsigned i = 0; i < samples; i++) {
		htab_stripe *st = &h->stripes[(first + i * stride) & h->smask];
		uint64_t o = oldest_of(st);
		if (o < best_o) {
			*second = best_o;
			best_o = o;
			best = st;
		} else if (o < *second) {
			*second = o;
		}
	}
	return best;
}

/* Retire victim @v, in slot @i of @b, onto *@retired as evicted, or
 * expired if it is ttl old at @now. Under its lock. @return its bytes. */
static int64_t evict_at(struct grain_htab *h, htab_stripe *st,
			struct grain_impl_htab_bucket *b, unsigned i,
			struct grain_hnode *v, uint64_t now,
			struct grain_hnode **retired)
{
	bool old = htab_expired(h, v, now);

	grain_impl_htab_unlink_at(h, st, b, i, v,
				  old ? GRAIN_HTAB_EXPIRED : GRAIN_HTAB_EVICTED,
				  retired);
	grain_impl_htab_bump(old ? &st->expirations : &st->evictions, 1);
	return v->charge;
}

/* Retire the head of @st's LRU (non-empty), as evict_at(). */
static int64_t evict_head(struct grain_htab *h, htab_stripe *st, uint64_t now,
			  struct grain_hnode **retired)
{
	struct grain_hnode *v = st->lru_head;
	unsigned i = 0;
	struct grain_impl_htab_bucket *b = grain_impl_htab_slot_of(
		grain_impl_htab_array_locked(st), v, &i);

	return evict_at(h, st, b, i, v, now, retired);
}

/* CLOCK: evict entries of @st from its hand on, as evict_at(), until
 * @need bytes or HTAB_EVICT_BATCH entries are taken or the stripe is
 * empty. Under its lock. @return the bytes; *@count gets the entries. */
static int64_t clock_evict(struct grain_htab *h, htab_stripe *st, int64_t need,
			   uint64_t now, struct grain_hnode **retired,
			   unsigned *count)
{
	int64_t freed = 0;
	unsigned n = 0;

	while (n < HTAB_EVICT_BATCH && freed < need) {
		struct grain_impl_htab_bucket *b;
		unsigned i;
		struct grain_hnode *v = clock_victim(h, st, now, &b, &i);
		if (v == NULL)
			break;
		freed += evict_at(h, st, b, i, v, now, retired);
		n++;
	}
	*count = n;
	return freed;
}

/* Raise the eviction horizon to @stamp, the newest an eviction that took
 * a stripe lock of its own has just taken. Relaxed, and racy between two
 * evictors (one may lower the other's raise a little): the horizon is a
 * bound on what an unlock may evict without sampling, not an invariant. */
static void raise_horizon(struct grain_htab *h, uint64_t stamp)
{
	if (stamp > atomic_load_explicit(&h->horizon, memory_order_relaxed))
		atomic_store_explicit(&h->horizon, stamp, memory_order_relaxed);
}

void htab_evict_own(struct grain_htab_scope *s)
{
	struct grain_htab *h = s->h;
	htab_stripe *st = s->stripe;
	int64_t total = htab_total_near(h, st), freed = 0;
	uint64_t horizon =
		atomic_load_explicit(&h->horizon, memory_order_relaxed);
	unsigned n = 0;

	if (total <= h->mem_high)
		return;
	/* The unlock goes on down to mem_low, sampling, if this stops
	 * short of it. */
	s->todo |= GRAIN_IMPL_HTAB_TODO_EVICTING;
	if (grain_impl_htab_is_clock(h)) /* no horizon: the hand decides */
		freed = clock_evict(h, st, total - h->mem_low, s->now,
				    &s->retired, &n);
	while (n < HTAB_EVICT_BATCH && st->lru_head != NULL &&
	       freed < total - h->mem_low && st->lru_head->stamp <= horizon) {
		freed += evict_head(h, st, s->now, &s->retired);
		n++;
	}
	/* Under the lock: the holder's own remainder, where the insert that
	 * asked for this put its bytes. */
	if (freed != 0)
		grain_impl_htab_add_bytes(h, st, -freed);
}

/* Evict up to HTAB_EVICT_BATCH entries and at most @need bytes' worth
 * (the last one may pass it) from the head of @st while they are no newer
 * than @second. What is left to evict is read again under the lock: the
 * caller's @need was read without it, and another evictor may have taken
 * those bytes meanwhile. @return the bytes evicted; *@count gets the
 * entries. */
static int64_t evict_from(struct grain_htab *h, htab_stripe *st,
			  const htab_stripe *own, uint64_t second, int64_t need,
			  uint64_t now, unsigned *count)
{
	struct grain_hnode *retired = NULL;
	int64_t freed = 0;
	uint64_t newest = 0;
	unsigned n = 0;

	grain_impl_spin_acquire(&st->lock);
	/* Evictors credit what they free before they release the lock they
	 * evicted under: with one stripe this is the exact total, whatever
	 * another evictor took since the caller looked; with more, what
	 * they credited to other stripes shows once folded (the lag). */
	int64_t left = htab_total_near(h, own) - h->mem_low;
	if (left < need)
		need = left;
	if (grain_impl_htab_is_clock(h))
		freed = clock_evict(h, st, need, now, &retired, &n);
	while (n < HTAB_EVICT_BATCH && st->lru_head != NULL && freed < need &&
	       (n == 0 || st->lru_head->stamp <= second)) {
		if (st->lru_head->stamp > newest)
			newest = st->lru_head->stamp;
		freed += evict_head(h, st, now, &retired);
		n++;
	}
	if (n != 0 && !grain_impl_htab_is_clock(h))
		raise_horizon(h, newest);
	/* What eviction frees is credited to the stripe whose bytes asked
	 * for it (the evicting thread's own, whose lock it does not hold):
	 * that thread's next watermark check sees the bytes gone, and the
	 * stripe's lock holder nets the credit against its own remainder
	 * when that one reaches a batch (grain_impl_htab_add_bytes), so a
	 * steady churn at the watermark seldom writes the shared total. The
	 * table total is the folded part plus every remainder and credit,
	 * whichever stripe keeps them. */
	if (freed != 0 && own != NULL)
		htab_credit_bytes(h, (htab_stripe *)own, -freed);
	else if (freed != 0)
		grain_impl_htab_add_bytes(h, st, -freed);
	grain_impl_spin_release(&st->lock);
	htab_process_retired(h, retired);
	if (n != 0)
		htab_resize_if_due(h, st);
	*count = n;
	return freed;
}

/* Stripes up to which a large eviction snapshots every stripe's oldest
 * stamp on the stack (8 KiB) and follows the exact order; beyond, it
 * keeps sampling. */
#define SNAPSHOT_MAX 1024u

/* A large eviction (more than one entry's worth): exact order across
 * stripes, from a private snapshot of every stripe's oldest stamp, kept
 * up to date for the stripes evicted from and refreshed for any found
 * stale under its lock. O(stripes) reads once, then O(stripes) compares
 * a step with no shared access. */
static void evict_in_order(struct grain_htab *h, const htab_stripe *own,
			   uint64_t now)
{
	uint64_t seen[SNAPSHOT_MAX];
	unsigned n = (unsigned)h->smask + 1, stale = 0;

	for (unsigned i = 0; i < n; i++)
		seen[i] = oldest_of(&h->stripes[i]);
	for (;;) {
		int64_t need = htab_total_near(h, own) - h->mem_low;
		if (need <= 0)
			return;
		uint64_t best = UINT64_MAX, second = UINT64_MAX;
		unsigned pick = 0;
		for (unsigned i = 0; i < n; i++) {
			if (seen[i] < best) {
				second = best;
				best = seen[i];
				pick = i;
			} else if (seen[i] < second) {
				second = seen[i];
			}
		}
		if (best == UINT64_MAX)
			return; /* every stripe is empty */
		htab_stripe *st = &h->stripes[pick];
		uint64_t o = oldest_of(st);
		if (o != best) {
			/* Stale: others changed that stripe's head. After
			 * more stale picks than stripes, look at all again. */
			seen[pick] = o;
			if (++stale > n) {
				for (unsigned i = 0; i < n; i++)
					seen[i] = oldest_of(&h->stripes[i]);
				stale = 0;
			}
			continue;
		}
		unsigned got;
		(void)evict_from(h, st, own, second, need, now, &got);
		seen[pick] = oldest_of(st);
	}
}

/* Entries an eviction takes one at a time from sampled stripes before it
 * switches to the exact order: an insert at the watermark needs one, or
 * up to about mem_batch / charge when a stripe's remainder has just been
 * folded into the total; a burst down to mem_low needs many more. */
#define SAMPLED_MAX 64u

void htab_evict(struct grain_htab *h, const htab_stripe *own, uint64_t seed,
		uint64_t now)
{
	uint64_t first = own != NULL ? own->index : (seed >> 48) & h->smask;
	uint64_t stride = ((seed >> 7) | 1u) & h->smask;
	unsigned empty_rounds = 0, sampled = 0;

	if (stride == 0)
		stride = 1;
	for (;;) {
		int64_t need = htab_total_near(h, own) - h->mem_low;
		if (need <= 0)
			return;
		if (sampled >= SAMPLED_MAX && h->smask < SNAPSHOT_MAX &&
		    !grain_impl_htab_is_clock(h)) {
			evict_in_order(h, own, now);
			return;
		}
		uint64_t second;
		htab_stripe *v = pick_victim(h, first, stride, &second);
		unsigned n = 0;
		/* CLOCK takes what it needs from the fullest stripe, a
		 * batch at a time: no order across stripes to keep. */
		if (v != NULL)
			(void)evict_from(h, v, own, second,
					 grain_impl_htab_is_clock(h) ? need : 1,
					 now, &n);
		if (n != 0) {
			sampled++;
			empty_rounds = 0;
			first += stride +
				 1; /* the next sample looks elsewhere */
			continue;
		}
		/* The sampled stripes were empty (or emptied under us):
		 * move on; after a full sweep give up, the table is as empty
		 * as it gets. */
		if (++empty_rounds > h->smask + 1)
			return;
		first += GRAIN_HTAB_EVICT_SAMPLE * stride + 1;
	}
}

/* Whether stripe @st may hold an entry that expires at @now: a CLOCK
 * table keeps no oldest stamp, so any entry may; an exact one skips,
 * without the lock, a stripe whose oldest entry is still young. */
static bool expire_may_find(struct grain_htab *h, htab_stripe *st, uint64_t now)
{
	if (grain_impl_htab_is_clock(h))
		return grain_impl_htab_entries(st) != 0;
	uint64_t o = oldest_of(st);
	return o != UINT64_MAX && now >= o && now - o >= h->ttl;
}

/* grain_htab_expire() of one stripe (ttl set), in batches of
 * HTAB_EVICT_BATCH retired entries per lock hold. Exact order: from the
 * LRU head while it is old enough. CLOCK: the stripe's slots in order; a
 * scan resumes where it stopped unless the stripe was resized meanwhile
 * (its slots moved): then it starts over, which retired entries make
 * finite. */
static unsigned expire_stripe_batches(struct grain_htab *h, htab_stripe *st,
				      uint64_t now)
{
	const struct grain_impl_htab_bucket *b0 = NULL;
	uint64_t pos = 0;
	unsigned n, total = 0;

	do {
		struct grain_hnode *retired = NULL;
		if (!expire_may_find(h, st, now))
			break;
		grain_impl_spin_acquire(&st->lock);
		if (!grain_impl_htab_is_clock(h)) {
			n = htab_expire_stripe(h, st, now, HTAB_EVICT_BATCH,
					       &retired);
		} else {
			if (st->b0 != b0) {
				b0 = st->b0;
				pos = 0;
			}
			n = clock_expire(h, st, now, HTAB_EVICT_BATCH, &pos,
					 &retired);
		}
		grain_impl_spin_release(&st->lock);
		htab_process_retired(h, retired);
		total += n;
	} while (n == HTAB_EVICT_BATCH);
	return total;
}

unsigned grain_htab_expire(struct grain_htab *h, uint64_t now)
{
	unsigned total = 0;

	if (h == NULL)
		return 0;
	for (uint64_t i = 0; i <= h->smask; i++) {
		htab_stripe *st = &h->stripes[i];
		if (h->ttl != 0) /* else nothing expires; resizes still run */
			total += expire_stripe_batches(h, st, now);
		htab_resize_if_due(h, st);
	}
	return total;
}
