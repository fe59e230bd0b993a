/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * table.c - the engine's glue to grain_htab: one table per family (the
 * timeouts differ: 30 s / 60 s, as the table's TTL), keyed as Linux keys
 * its fragment queues; a fragment's datagram found or begun under its
 * stripe lock; datagrams that timed out or whose 16-bit ID wrapped
 * (REASM_ID_DIST); what the table's eviction, expiry and destroy decide;
 * the engine's creation, workers and counters.
 *
 * The key's hash and equality (key_params) are in this file with every
 * call of the table's fast paths, so that both inline into them.
 */
#define _GNU_SOURCE
#include "engine_int.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

/* --- the table's callbacks and key --------------------------------------- */

/* The table let go of @p n (eviction, expiry, destroy); REMOVED datagrams
 * belong to the worker that removed them. */
static void dgram_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			  void *ctx)
{
	struct reasm *r = ctx;
	struct dgram *d = grain_container_of(n, struct dgram, node);
	_Atomic(uint64_t) *dgrams, *frags;

	switch (why) {
	case GRAIN_HTAB_REMOVED:
		return;
	case GRAIN_HTAB_EXPIRED:
		dgrams = &r->cb_timeout;
		frags = &r->cb_frags;
		break;
	case GRAIN_HTAB_EVICTED:
		dgrams = &r->cb_evicted;
		frags = &r->cb_frags;
		break;
	default: /* DESTROYED */
		dgrams = &r->cb_pending_dgrams;
		frags = &r->cb_pending_frags;
		break;
	}
	atomic_fetch_add_explicit(dgrams, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(frags, d->nfrags, memory_order_relaxed);
	dgram_free(r, d);
}

static uint64_t key_hash(const void *key, const struct grain_hash_key *sec,
			 void *ctx)
{
	const struct rkey *k = key;

	(void)ctx;
	return grain_siphash(key, k->family == 4 ? KEY4_LEN : sizeof(*k), sec);
}

static bool key_eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	const struct dgram *d = grain_container_of(n, const struct dgram, node);

	(void)ctx;
	return memcmp(&d->key, key, sizeof(struct rkey)) == 0;
}

/* The key's hash and equality as compile-time parameters of the table's
 * fast paths: both inline into the lookup and insert of every fragment. */
static const struct grain_htab_params key_params = { key_hash, key_eq };

/* --- a fragment's datagram ----------------------------------------------- */

/* The index of an IPv4 key's source in src_born. */
static uint32_t born_index(const struct rkey *k)
{
	uint32_t a;

	memcpy(&a, k->addr, sizeof(a));
	return (a * 2654435761u) >> 22; /* 10 bits */
}

/* The src_born slot of an IPv4 key's source. */
static _Atomic(uint32_t) *born_slot(struct reasm *r, const struct rkey *k)
{
	return &r->src_born[born_index(k)];
}

/* A datagram found past its timeout, or (id_wrapped) older than its
 * source's last REASM_ID_DIST datagrams, retired by this worker. */
REASM_INTERNAL void time_out(struct reasm_worker *w, struct dgram *d,
			     bool wrapped)
{
	if (d == NULL)
		return;
	if (wrapped)
		w->st.id_wrapped++;
	else
		w->st.ReasmTimeout++;
	w->st.ReasmFails++;
	w->st.frags_discarded += d->nfrags;
	w->held_out += d->nfrags;
	dgram_free(w->r, d);
}

/*
 * Whether @p d, found in the table for a fragment stamped @p now, is too
 * old to take it: past its timeout, though nobody has expired it yet (the
 * outcome must not depend on how often the caller runs reasm_expire()),
 * or so old in its source's datagrams that this fragment likely belongs to
 * a newer one with the same 16-bit ID (*wrapped).
 */
static bool dgram_stale(struct reasm *r, const struct dgram *d,
			const struct frag *fr, uint64_t now, bool *wrapped)
{
	uint64_t ttl = fr->family == 6 ? r->cfg.timeout_v6_ns
				       : r->cfg.timeout_v4_ns;

	*wrapped = fr->family == 4 &&
		   atomic_load_explicit(born_slot(r, &fr->key),
					memory_order_relaxed) -
				   d->born >
			   REASM_ID_DIST;
	/* Workers' clocks may be a little apart: a fragment stamped before
	 * the first one is not late. */
	return *wrapped || (now >= d->first_ts && now - d->first_ts >= ttl);
}

/*
 * A new datagram for @p fr, ending at @p ne, linked into the stripe @p s
 * holds. NULL when it cannot be (the fragment is dropped and counted).
 * Called with the stripe lock held; returns with it held.
 */
static struct dgram *dgram_start(struct reasm_worker *w,
				 struct grain_htab_scope *s,
				 const struct frag *fr, uint32_t ne,
				 uint64_t now)
{
	struct reasm *r = w->r;
	struct dgram *d;

	if (ne == fr->offset) { /* zero length, nothing to kill */
		drop(&w->st, &w->st.malformed);
		return NULL;
	}
	d = mem_get(r, sizeof(*d));
	if (d == NULL) {
		drop_nomem(&w->st);
		return NULL;
	}
	memset(d, 0, sizeof(*d));
	d->key = fr->key;
	d->first_ts = now;
	if (fr->family == 4)
		d->born = atomic_fetch_add_explicit(born_slot(r, &fr->key), 1u,
						    memory_order_relaxed) +
			  1u;
	d->pieces = d->inline_pieces;
	d->cap = INLINE_PIECES;
	if (grain_htab_insert_locked_fast(s, &d->node, &fr->key, now,
					  sizeof(*d), key_params) != 0) {
		mem_put(r, d, sizeof(*d));
		drop(&w->st, &w->st.refused);
		return NULL;
	}
	return d;
}

/*
 * The datagram @p fr (ending at @p ne) belongs to, once frag_acceptable()
 * let it in, found or begun, with the stripe lock held (@p s). NULL when
 * the fragment is dropped (counted, the lock released). A datagram found
 * too old is unlinked into @p stale, for the caller to retire after the
 * lock.
 */
REASM_INTERNAL struct dgram *dgram_for(struct reasm_worker *w,
				       struct grain_htab_scope *s,
				       const struct frag *fr, uint32_t ne,
				       uint64_t now, struct stale *stale)
{
	struct reasm *r = w->r;
	struct grain_htab *t = r->tab[fr->family == 6];
	struct grain_hnode *n;
	struct dgram *d = NULL;

	grain_htab_lock_fast(t, &fr->key, s, key_params);
	n = grain_htab_find_locked_fast(s, &fr->key, key_params);
	if (n != NULL) {
		d = grain_container_of(n, struct dgram, node);
		if (dgram_stale(r, d, fr, now, &stale->wrapped)) {
			int rc = grain_htab_remove_locked(s, &d->node);

			assert(rc == 0);
			(void)rc;
			stale->d = d;
			d = NULL; /* this fragment starts a new datagram */
		} else if (r->cfg.mem_refuse &&
			   grain_htab_bytes(t) > r->cfg.mem_high) {
			/* Linux refuses fragments of existing queues too. */
			drop(&w->st, &w->st.refused);
			goto dropped;
		}
	}
	if (d == NULL)
		d = dgram_start(w, s, fr, ne, now);
	if (d != NULL)
		return d;
dropped:
	grain_htab_unlock(s);
	return NULL;
}

/* --- flows and expiry ---------------------------------------------------- */

int32_t reasm_flow_of(const struct reasm *r, const uint8_t *frame,
		      uint32_t caplen)
{
	struct frag fr;

	memset(&fr, 0, sizeof(fr));
	fr.frame = frame;
	fr.caplen = caplen;
	fr.wirelen = caplen;
	if (parse_frame(r, &fr) != P_FRAG)
		return -1; /* passed through or dropped: touches no table */
	if (fr.family == 4)
		return (int32_t)born_index(&fr.key); /* REASM_ID_DIST */
	return (int32_t)(key_hash(&fr.key, &r->secret, NULL) & 0x7fffffff);
}

unsigned reasm_expire(struct reasm_worker *w, uint64_t now_ns)
{
	return grain_htab_expire(w->r->tab[0], now_ns) +
	       grain_htab_expire(w->r->tab[1], now_ns);
}

/* --- lifecycle and statistics -------------------------------------------- */

static void engine_free(struct reasm *r)
{
	struct grain_alloc a = r->alloc;

	grain_mem_free(r->ap != NULL ? &a : NULL, r, sizeof(*r),
		       _Alignof(struct reasm));
}

int reasm_create(struct reasm **rp, const struct reasm_config *cfg)
{
	struct reasm_config c;

	if (rp == NULL || cfg == NULL)
		return -EINVAL;
	c = *cfg;
	if (!reasm_link_supported(c.link) ||
	    (unsigned)c.policy >= REASM_POLICY_COUNT)
		return -EINVAL;
	if (c.timeout_v4_ns == 0)
		c.timeout_v4_ns = 30ull * 1000000000ull;
	if (c.timeout_v6_ns == 0)
		c.timeout_v6_ns = 60ull * 1000000000ull;
	if (c.mem_high == 0)
		c.mem_high = 4u << 20;
	if (c.mem_low == 0)
		c.mem_low = c.mem_high == (4u << 20) ? 3u << 20
						     : c.mem_high / 4 * 3;
	if (c.mem_low > c.mem_high)
		return -EINVAL;
	if (c.max_frags == 0)
		c.max_frags = REASM_MAX_FRAGS_DEFAULT;
	if (c.max_frags > REASM_MAX_FRAGS_LIMIT)
		return -EINVAL;
	if (c.stripes == 0)
		c.stripes = 64;
	if (c.stripes & (c.stripes - 1))
		return -EINVAL;
	if (c.decap & ~(unsigned)REASM_DECAP_ALL)
		return -EINVAL;

	struct reasm *r =
		grain_mem_alloc(cfg->alloc, sizeof(*r), _Alignof(struct reasm));
	if (r == NULL)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	r->cfg = c;
	if (cfg->alloc != NULL) {
		r->alloc = *cfg->alloc;
		r->ap = &r->alloc;
	}
	r->cfg.alloc = NULL; /* the copy above is the one used */
	int rc = grain_hash_key_random(&r->secret);
	if (rc != 0) {
		engine_free(r);
		return rc;
	}
	for (int f = 0; f < 2; f++) {
		struct grain_htab_config hc = {
			.ops = { .hash = key_hash,
				 .eq = key_eq,
				 .reclaim = dgram_reclaim },
			.ctx = r,
			.stripes = c.stripes,
			.mem_high = c.mem_high,
			.mem_low = c.mem_low,
			.policy = c.mem_refuse ? GRAIN_HTAB_REFUSE
					       : GRAIN_HTAB_EVICT,
			.ttl = f == 0 ? c.timeout_v4_ns : c.timeout_v6_ns,
			.flags = GRAIN_HTAB_NO_RCU,
			.secret = &r->secret,
		};
		rc = grain_htab_create(&r->tab[f], &hc, r->ap);
		if (rc != 0) {
			if (f == 1)
				grain_htab_destroy(r->tab[0]);
			engine_free(r);
			return rc;
		}
	}
	*rp = r;
	return 0;
}

int reasm_worker_init(struct reasm_worker *w, struct reasm *r,
		      reasm_emit_fn emit_fn, void *emit_arg)
{
	if (w == NULL || r == NULL || emit_fn == NULL)
		return -EINVAL;
	if (r->nworkers >= MAX_WORKERS)
		return -ENOSPC;
	memset(w, 0, sizeof(*w));
	w->r = r;
	w->emit = emit_fn;
	w->emit_arg = emit_arg;
	r->workers[r->nworkers++] = w;
	return 0;
}

/* Every worker's share, plus what the table's callbacks decided. */
static void stats_collect(struct reasm *r, struct reasm_stats *st)
{
	uint64_t held = 0;

	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < r->nworkers; i++) {
		reasm_stats_add(st, &r->workers[i]->st);
		held += r->workers[i]->held_in - r->workers[i]->held_out;
	}
	uint64_t timeouts =
		atomic_load_explicit(&r->cb_timeout, memory_order_relaxed);
	uint64_t evicted =
		atomic_load_explicit(&r->cb_evicted, memory_order_relaxed);
	uint64_t gone =
		atomic_load_explicit(&r->cb_frags, memory_order_relaxed);
	st->ReasmTimeout += timeouts;
	st->evicted += evicted;
	st->ReasmFails += timeouts + evicted;
	st->frags_discarded += gone;
	st->frags_pending = held - gone;
	uint64_t seen =
		atomic_load_explicit(&r->peak_read, memory_order_relaxed);
	if (seen > st->bytes_peak)
		st->bytes_peak = seen;
}

void reasm_stats_read(struct reasm *r, struct reasm_stats *st)
{
	struct grain_htab_stats hs;

	stats_collect(r, st);
	st->datagrams_pending = 0;
	st->bytes_held = 0;
	for (int f = 0; f < 2; f++) {
		grain_htab_get_stats(r->tab[f], &hs);
		st->datagrams_pending += hs.entries;
		st->bytes_held += grain_htab_bytes_exact(r->tab[f]);
	}
	uint64_t seen =
		atomic_load_explicit(&r->peak_read, memory_order_relaxed);
	while (st->bytes_held > seen &&
	       !atomic_compare_exchange_weak_explicit(
		       &r->peak_read, &seen, st->bytes_held,
		       memory_order_relaxed, memory_order_relaxed))
		;
	if (st->bytes_held > st->bytes_peak)
		st->bytes_peak = st->bytes_held;
}

void reasm_stats_shared(struct reasm *r, struct reasm_stats *st)
{
	struct grain_htab_stats hs;

	memset(st, 0, sizeof(*st));
	st->ReasmTimeout =
		atomic_load_explicit(&r->cb_timeout, memory_order_relaxed);
	st->evicted =
		atomic_load_explicit(&r->cb_evicted, memory_order_relaxed);
	for (int f = 0; f < 2; f++) {
		grain_htab_get_stats(r->tab[f], &hs);
		st->datagrams_pending += hs.entries;
		st->bytes_held += grain_htab_bytes(r->tab[f]);
	}
}

void reasm_destroy(struct reasm *r, struct reasm_stats *st)
{
	if (r == NULL)
		return;
	uint64_t held = 0;
	for (int f = 0; f < 2; f++)
		held += grain_htab_bytes_exact(r->tab[f]);
	grain_htab_destroy(r->tab[0]);
	grain_htab_destroy(r->tab[1]);
	if (st != NULL) {
		stats_collect(r, st);
		/* Measured from what destroy found, not derived. */
		st->frags_pending = atomic_load_explicit(&r->cb_pending_frags,
							 memory_order_relaxed);
		st->datagrams_pending = atomic_load_explicit(
			&r->cb_pending_dgrams, memory_order_relaxed);
		st->bytes_held = 0;
		if (held > st->bytes_peak)
			st->bytes_peak = held;
	}
	engine_free(r);
}
