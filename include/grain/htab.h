/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file htab.h
 * @brief grain_htab: an intrusive hash table with striped locks, LRU
 *        eviction, byte watermarks, TTL expiry and lock-free RCU lookups.
 *        Modelled on the Linux IP fragment table (per-bucket-group locks,
 *        LRU, memory thresholds) and what followed it (RCU lookup,
 *        admission control).
 *
 * Contents
 *   - Synchronization table
 *   - Layout: stripes, signature buckets, resize
 *   - Bytes, watermarks, eviction, TTL
 *   - Node life cycle and reclamation (RCU flavours)
 *   - Configuration and lifecycle
 *   - Scoped access: lock, *_locked, unlock
 *   - One-call forms and lock-free lookup (also with the caller's
 *     hash, and in bursts)
 *   - Specialised fast paths (compile-time hash and equality)
 *   - Maintenance (expire, walk, resize) and statistics; RCU thread
 *      helpers
 *
 * Synchronization table
 *
 * | call                          | may run concurrently with              |
 * |-------------------------------|----------------------------------------|
 * | lock .. *_locked .. unlock    | everything but create/destroy; scopes  |
 * |                               |   on the same stripe serialize         |
 * | insert, remove, find_or_insert| everything but create/destroy          |
 * | lookup (in an RCU read side)  | everything but create/destroy; never   |
 * |                               |   blocks, never takes a lock, writes   |
 * |                               |   nothing shared                       |
 * | lookup_with_hash, lookup_bulk | as lookup; each key of a burst as one  |
 * |   (in an RCU read side)       |   lookup made during the call: no      |
 * |                               |   snapshot across the keys             |
 * | expire, resize, stats, bytes  | everything but create/destroy          |
 * | walk                          | everything but create/destroy; takes   |
 * |                               |   one stripe lock at a time, never     |
 * |                               |   from inside a scope                  |
 * | walk_rcu (RCU read side)      | everything but create/destroy; never   |
 * |                               |   blocks, takes no lock; sees every    |
 * |                               |   entry present throughout once        |
 * | replace                       | everything but create/destroy; a       |
 * |                               |   concurrent lookup finds the old node |
 * |                               |   or the new one, never neither        |
 * | replace_locked                | as the other *_locked calls; lookups   |
 * |                               |   as for replace                       |
 * | node_stamp, node_charge       | everything but create/destroy (of the  |
 * |                               |   node's table); relaxed loads, in an  |
 * |                               |   RCU read side or under the lock      |
 * | create, destroy               | nothing on the same table              |
 *
 * Ordering: a scope's unlock is a release and the next lock of the same
 * stripe an acquire (grain_spinlock), so everything done under one scope
 * happens-before the next scope on that stripe. Publishing a node in a
 * bucket slot is a release (R1 in impl/htab.h); lookup's load of the slot
 * is an acquire (A1), so a lookup that finds a node sees it, and the
 * object around it, as the inserter built them. A scope is atomic for
 * other scopes only: a lock-free lookup sees each call of a scope as it
 * happens, so a remove then an insert of one key leaves it a moment
 * without the key; a replace swaps the nodes in one release store (R1),
 * and a lookup finds the old node or the new one, never neither.
 *
 * Layout
 *
 * The table is `stripes` independent shards, each with its own spinlock,
 * LRU order, byte count, counters and bucket array; a key's stripe,
 * bucket and 16-bit signature come from independent bits of its 64-bit
 * hash. A bucket is one cache line of GRAIN_HTAB_BUCKET_SLOTS slots (a
 * node pointer and its key's signature each) and an overflow index, so a
 * lookup of an absent key reads one line and a hit two (impl/htab.h has
 * the layout).
 *
 * A stripe doubles its array when it holds more than max_load entries per
 * bucket and halves it below max_load / 8 (never below the initial size);
 * grain_htab_resize() sets a size on request; an insert that finds the
 * overflow reserve used up rebuilds the array at once. A resize copies
 * every slot into a new array, publishes it (release), and retires the old
 * one, which nothing modifies any more, through RCU. Readers that still
 * hold the old array see every key that was present when it was replaced:
 * lookups never miss a key that is present for the whole call, and never
 * wait. No resize ever waits for a grace period, inside a lock or out.
 * Writers of the stripe wait while it copies.
 *
 * Memory held for a stalled reader: a retired array is freed after a
 * grace period, so while one reader stays inside its read-side section
 * every array retired meanwhile stays allocated, with no limit on their
 * sum. Each is one stripe copy, made only when the stripe's load leaves
 * its range, when the chain rule grows it, when an insert finds its
 * overflow reserve used up (at least buckets / 8 inserts after the last
 * copy), and at each grain_htab_resize(): what piles up grows with the
 * writes and resize calls made during the stall, never with lookups or
 * refused inserts. Removed nodes wait the same way ("Node life cycle").
 *
 * Chains are bounded: an insert into a bucket chain that holds max_chain
 * entries is refused (-EMLINK) and counted, and the stripe grows, up to
 * four buckets per entry (beyond that the keys collide; growth stops so
 * that they cannot make the table allocate). A stripe so grown keeps its
 * size until its entries fall below half of what they were then, so
 * refused inserts and removes in turn cost a few copies at most. With
 * the default keyed hash (SipHash-2-4 under a random per-table key)
 * nobody outside can aim keys at one chain.
 *
 * Bytes, watermarks, eviction, TTL
 *
 * Each entry carries a charge in bytes (at most UINT32_MAX) that the caller
 * sets at insert and changes under the lock (charge/uncharge). The table
 * total is a folded part plus, per stripe, two remainders: the lock
 * holder's (a plain add, no locked instruction) and what evictors credit
 * to the stripe (below). Each is folded into the shared part once it
 * reaches `mem_batch` / 2 bytes either way (as the kernel's
 * percpu_counter), so inserts whose charges stay well under that do not
 * write a shared line each; a charge of mem_batch / 2 or more folds at
 * once, every time. The folded part lags the exact total by less than
 * stripes * mem_batch bytes; the default batch keeps that lag under
 * mem_high / 64, so many stripes and a small mem_high make it small (64
 * stripes and 4 MiB fold at 512 bytes): a caller whose charges are larger
 * trades a larger lag for fewer shared writes by setting mem_batch.
 * grain_htab_bytes() returns the folded part, grain_htab_bytes_exact()
 * adds every remainder (O(stripes)).
 *
 * Watermark checks are O(1): they read the folded part plus the caller's
 * own stripe's remainders, never the sum over all stripes. What an
 * eviction frees is credited to the evicting thread's own stripe, so that
 * thread's next check sees it at once; the stripe's lock holder nets that
 * credit against its own remainder when it reaches a batch, so a steady
 * churn at the watermark (an insert, then its eviction) seldom writes a
 * shared line. Hence the exact total
 * may exceed mem_high, or fall below mem_low, by less than the lag plus
 * one entry per thread; with one stripe there is no lag. Each eviction
 * step reads what is left to evict under the lock of the stripe it
 * evicts from, so two evictors do not both take the same bytes (with
 * more stripes, not beyond the lag).
 *
 * Policy EVICT (default): a scope that added bytes and ends with the total
 * above mem_high evicts, in its unlock, until the total is at most
 * mem_low: first, still under its own stripe's lock, that stripe's least
 * recently used entries while they are no newer than the eviction horizon
 * (see LRU order below); then, with no lock held, from sampled stripes.
 * Callbacks run after the lock is released. Every thread does so for
 * itself: no thread
 * leaves its bytes to another, so once all have returned the total is at
 * most mem_high (within the lag above). Policy REFUSE: while the total is
 * above mem_high new entries are refused (-ENOSPC, counted) and nothing is
 * evicted (Linux since 4.17); entries already present may still grow.
 *
 * LRU order is insertion order, or access order for entries the caller
 * touches. Within a stripe it is exact: a stripe always gives up its least
 * recently used entry first. Across stripes:
 * - the first 64 entries of an eviction (an insert at the watermark needs
 *   one, or a few when the folded total has just stepped up by a stripe's
 *   remainder) are sampled: each compares the oldest entries of
 *   GRAIN_HTAB_EVICT_SAMPLE stripes (the inserting key's own and others
 *   picked from its hash) and evicts the oldest of them, so it reads a few
 *   lines, not every stripe; a stripe that was not sampled may hold an
 *   older entry;
 * - every further entry of the same eviction follows the exact order, from
 *   a snapshot of every stripe's oldest stamp (up to 1024 stripes; beyond,
 *   it keeps sampling), so a burst from mem_high down to mem_low takes the
 *   oldest entries of the table whenever stamps differ;
 * - before either, the unlock takes entries from its own stripe, without a
 *   second lock or any sampling, while the stripe's oldest entry is no
 *   newer than the horizon: the newest stamp that the two kinds above have
 *   evicted so far (kept racily: two evictors may lower each other's raise
 *   a little). So the shortcut never takes an entry newer than one the
 *   table has already evicted: when the order was exact (stamps distinct,
 *   at most GRAIN_HTAB_EVICT_SAMPLE stripes, or a burst) it stays exact,
 *   and where it was sampled it keeps the sampled bound. A caller whose
 *   clock runs backwards, or who stamps entries older than what was
 *   evicted, lets the shortcut take them first, as the exact order would.
 *
 * TTL: with ttl > 0 an entry whose stamp (insert or last touch time, the
 * caller's clock) is at least ttl old is expired by grain_htab_expire(now),
 * by eviction, and, a few at a time, by inserts into its stripe. An
 * eviction knows the time from the insert or touch of the scope whose
 * unlock runs it; one that follows only charges (or a walk) has no time
 * and gives its victims reason EVICTED.
 *
 * CLOCK order (GRAIN_HTAB_EVICT_CLOCK): no LRU list is kept, so inserts
 * and removes write nothing beyond the bucket slot, the counts and the
 * node. An entry's reference mark is set by its insert (or the replace
 * that put it there) and by grain_htab_touch_locked(), never by lookups;
 * each stripe's hand goes round its slots (buckets in index order,
 * overflow buckets last), and an eviction from a stripe moves it on: a
 * marked entry loses its mark and is passed over, the first unmarked (or
 * ttl old) entry is the victim. Within a stripe:
 * - an entry inserted or touched since the hand last passed it is never
 *   the victim while an entry that was not remains;
 * - an eviction looks at every slot at most twice, so it finds a victim
 *   in a stripe that holds any entry;
 * - no order by stamps: among unmarked entries the victim is the next in
 *   slot order, and a resize (which reorders slots) restarts the hand.
 * Across stripes there is no order: the unlock of the scope that went
 * over mem_high evicts up to 32 entries from its own stripe, then from
 * the fullest of GRAIN_HTAB_EVICT_SAMPLE sampled stripes at a time. The
 * watermarks keep their guarantees. TTL: inserts expire nothing (no
 * oldest stamp is kept); an eviction takes a ttl old entry it passes
 * (reason EXPIRED) whatever its mark, and grain_htab_expire() scans every
 * slot (in batches of 32 retired entries per lock hold) and expires every
 * entry ttl old that was linked throughout the call, in no order.
 *
 * Node life cycle
 *
 * A node is free, linked (owned by the table) or retired. remove and
 * remove_locked retire a node, replace and replace_locked the node they
 * replace (reason REPLACED, with no ops.unlinked call, as a remove); so
 * do eviction (reason EVICTED) and expiry
 * (EXPIRED), which also call ops.unlinked, after every table lock is
 * released, so it may call back into the table. ops.unlinked never runs
 * inside another ops.unlinked call: nodes that a call made from inside
 * one retires (an insert whose unlock evicts, say) get their unlinked
 * calls after it returns, from the outermost table call on the thread
 * and before that returns, so callbacks that call into the table cannot
 * recurse without bound. A retired node is handed
 * to ops.reclaim once no lock-free reader can still see it: after an RCU
 * grace period of the table's flavour (call_rcu), or through ops.defer if
 * set, or right after the unlock for a GRAIN_HTAB_NO_RCU table. Only then
 * may its memory be reused. Inserting a node that is linked or retired
 * and not yet reclaimed is refused (-EINVAL). That check is a guard
 * against misuse, with a bound: the table marks a node free just before
 * it calls ops.reclaim, on whichever thread runs the reclaim, and the
 * inserting thread reads that mark without synchronizing with it. It is
 * reliable where the insert is ordered after the retirement and before
 * the reclaim begins (the thread that removed it, or any thread that
 * learned of the removal); an insert that races with the reclaim itself
 * is a data race, as any use of an object being freed, and may go
 * undetected. Insert a node again only after its ops.reclaim call has
 * begun and happens-before the insert.
 *
 * Reclaim batches: the nodes one lock hold retires go to RCU with one
 * call_rcu. With GRAIN_HTAB_BATCH_RECLAIM removed nodes also wait, under
 * their stripe lock, until config.reclaim_batch (32) have gathered; the
 * unlock of the scope that fills the batch sends all of it. A node may
 * then wait indefinitely: grain_htab_reclaim_flush() sends every partial
 * batch (destroy does too), and a flavour's rcu_barrier covers only what
 * was flushed. Up to stripes * (reclaim_batch - 1) removed nodes wait so:
 * a larger batch means fewer grace periods for that much memory held.
 *
 * RCU flavours: config.flavor names the liburcu flavour whose grace
 * periods protect the table's readers (&urcu_memb_flavor, the default when
 * NULL, &urcu_qsbr_flavor, &urcu_bp_flavor, ...). Threads that call into
 * an RCU table must be registered with that flavour, and lookup must run
 * inside one of its read-side sections: rcu.h says how, and which to
 * choose.
 */
#ifndef GRAIN_HTAB_H
#define GRAIN_HTAB_H

#include <grain/common.h>
#include <grain/hash.h>
#include <grain/lock.h>
#include <grain/rcu.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct grain_htab;
struct grain_impl_htab_stripe;
struct rcu_flavor_struct; /* liburcu's <urcu/flavor.h> */

/** @cond */
/* The stamp is read and written with 8-byte atomic operations
 * (grain_htab_node_stamp()), which need it aligned to 8 bytes: where
 * structs align uint64_t to 4 (i386), the node is aligned to 8. */
#if defined(__GNUC__) || defined(__clang__)
#define GRAIN_IMPL_HNODE_ALIGN8 __attribute__((aligned(8)))
#else
#define GRAIN_IMPL_HNODE_ALIGN8
#endif
/** @endcond */

/** Embed in the user's object; find the object with grain_container_of.
 * Zero it before its first insert; all fields are the table's. 40 bytes
 * with 64-bit pointers. A lookup never reads it: only the key, through
 * the caller's eq. */
struct grain_hnode {
	/** @cond */
	/* LRU; retired: reclaim storage. GRAIN_HTAB_EVICT_CLOCK: no list,
	 * prev is the reference mark (impl/htab.h). */
	struct grain_hnode *prev, *next;
	uint64_t hash;
	/* caller's clock at insert / last touch */
	uint64_t stamp GRAIN_IMPL_HNODE_ALIGN8;
	uint32_t charge; /* bytes */
	uint32_t state;	 /* free, linked, retired (+ reason) */
			 /** @endcond */
};

/** Why the table let go of a node. */
enum grain_htab_reason {
	GRAIN_HTAB_REMOVED,   /**< remove or remove_locked */
	GRAIN_HTAB_EVICTED,   /**< memory above mem_high (policy EVICT) */
	GRAIN_HTAB_EXPIRED,   /**< older than ttl */
	GRAIN_HTAB_REFUSED,   /**< never linked: insert refused (stats only) */
	GRAIN_HTAB_DESTROYED, /**< still linked at grain_htab_destroy() */
	/** replace or replace_locked put another node in its place */
	GRAIN_HTAB_REPLACED
};

/** What happens while the total is above mem_high. */
enum grain_htab_policy {
	GRAIN_HTAB_EVICT = 0, /**< evict LRU entries down to mem_low */
	GRAIN_HTAB_REFUSE     /**< refuse new entries above mem_high */
};

/** No lock-free readers: retired nodes are reclaimed right after the
 * unlock, and threads need no RCU registration. */
#define GRAIN_HTAB_NO_RCU 0x1u

/** Removed nodes go to RCU in batches of config.reclaim_batch (32) per
 * stripe, one call_rcu each ("Node life cycle"; grain_htab_reclaim_flush()).
 * Only for RCU tables without ops.defer (ignored otherwise). Evicted and
 * expired nodes always go in batches of whatever one lock hold retired. */
#define GRAIN_HTAB_BATCH_RECLAIM 0x2u

/** Approximate eviction order, CLOCK (second chance), instead of the
 * exact LRU lists: inserts and removes write no list, and
 * grain_htab_touch_locked() only sets the entry's reference mark. What
 * each order guarantees, and what TTL expiry does under CLOCK: "Bytes,
 * watermarks, eviction, TTL", its part "CLOCK order". */
#define GRAIN_HTAB_EVICT_CLOCK 0x4u

/** The largest config.reclaim_batch. */
#define GRAIN_HTAB_RECLAIM_BATCH_MAX 4096u

/** The most keys one grain_htab_lookup_bulk() call takes (rte_hash's
 * burst limit). */
#define GRAIN_HTAB_LOOKUP_BULK_MAX 64u

/** Stripes an eviction step compares ("Bytes, watermarks, eviction, TTL"). */
#define GRAIN_HTAB_EVICT_SAMPLE 4u

/** Callbacks; ctx is grain_htab_config.ctx. Only hash and eq are
 * required. */
struct grain_htab_ops {
	/** The key's hash under the table's secret (typically
	 * grain_siphash(key, size, secret)). Called without table locks. */
	uint64_t (*hash)(const void *key, const struct grain_hash_key *secret,
			 void *ctx);
	/** Does @p node hold @p key? Called with the stripe lock held, or in a
	 * lock-free lookup (then the object may be being retired: read only
	 * fields that stay valid until reclaim). */
	bool (*eq)(const struct grain_hnode *node, const void *key, void *ctx);
	/** EVICTED and EXPIRED nodes, right after the table unlinked them, with
	 * no table lock held. May call into the table; nodes that such a call
	 * retires get their calls after this one returns ("Node life cycle").
	 * */
	void (*unlinked)(struct grain_hnode *node, enum grain_htab_reason why,
			 void *ctx);
	/** Every retired node, when nothing can see it any more: free it here.
	 * May run on another thread (liburcu's call_rcu thread). */
	void (*reclaim)(struct grain_hnode *node, enum grain_htab_reason why,
			void *ctx);
	/** Optional: call done(node) once no lock-free reader can see @p node;
	 * replaces the flavour's call_rcu. Called with no table lock held; it
	 * must not wait for done() to run. The table also retires its own
	 * bucket arrays through it (as nodes that belong to no user object):
	 * treat @p node as opaque, only hand it to done(). */
	void (*defer)(struct grain_hnode *node,
		      void (*done)(struct grain_hnode *node), void *ctx);
};

/** Table configuration; zero fields take the defaults shown. Copied. */
struct grain_htab_config {
	struct grain_htab_ops ops; /**< callbacks */
	void *ctx;		   /**< passed to every callback */
	unsigned stripes;	   /**< power of two, 1..65536 (default 64) */
	unsigned buckets;   /**< per stripe at start, power of two (16) */
	unsigned max_load;  /**< entries per bucket before a grow (3) */
	unsigned max_chain; /**< entries of one chain that refuse inserts (64) */
	size_t mem_high;    /**< bytes; 0: no limit */
	size_t mem_low;	    /**< bytes, <= mem_high (default mem_high*3/4) */
	size_t mem_batch;   /**< fold granularity (default: lag <= mem_high/64,
				  at most 64 KiB) */
	enum grain_htab_policy policy; /**< above mem_high (EVICT) */
	uint64_t ttl; /**< caller's clock units; 0: entries never expire */
	/** GRAIN_HTAB_NO_RCU, GRAIN_HTAB_BATCH_RECLAIM,
	 * GRAIN_HTAB_EVICT_CLOCK */
	unsigned flags;
	const struct grain_hash_key *secret; /**< NULL: random per table */
	union {
		/** The liburcu flavour of the table's readers (NULL:
		 * urcu-memb). */
		const struct rcu_flavor_struct *flavor;
		/** The name of flavor before 0.6, deprecated: liburcu's
		 * flavour headers define rcu_flavor as a macro, so that this
		 * name works only where the macro is defined both here and
		 * where it is used, or at neither. */
		GRAIN_DEPRECATED("use grain_htab_config.flavor")
		const struct rcu_flavor_struct *rcu_flavor;
	};
	/** GRAIN_HTAB_BATCH_RECLAIM: removed nodes a stripe gathers per
	 * call_rcu, 1 to GRAIN_HTAB_RECLAIM_BATCH_MAX (32; "Layout"). */
	unsigned reclaim_batch;
};

/** A held stripe lock: filled by grain_htab_lock(), ended by
 * grain_htab_unlock(). Lives on the caller's stack; fields are private. */
struct grain_htab_scope {
	/** @cond */
	struct grain_htab *h;
	struct grain_impl_htab_stripe *stripe;
	uint64_t hash;
	uint64_t now;
	struct grain_hnode *retired; /* unlinked by the table meanwhile */
	unsigned todo;
	/** @endcond */
};

/** Statistics (snapshots; each counter is exact once threads are quiet). */
struct grain_htab_stats {
	uint64_t entries, bytes;
	uint64_t inserts, lookups, hits;
	uint64_t evictions, expirations;
	uint64_t refusals;	 /**< -ENOSPC: memory (policy REFUSE) */
	uint64_t chain_refusals; /**< -EMLINK: chain at max_chain */
	uint64_t longest_chain;	 /**< most entries an insert has passed */
	uint64_t resizes;
	uint64_t buckets; /**< all stripes, now (overflow not counted) */
};
/** @var grain_htab_stats::entries
 * entries linked now
 * @var grain_htab_stats::bytes
 * bytes charged now (exact total)
 * @var grain_htab_stats::inserts
 * inserts that linked a node
 * @var grain_htab_stats::lookups
 * searches under a stripe lock
 * @var grain_htab_stats::hits
 * of those, the ones that found the key
 * @var grain_htab_stats::evictions
 * entries evicted (reason EVICTED)
 * @var grain_htab_stats::expirations
 * entries expired (reason EXPIRED)
 * @var grain_htab_stats::resizes
 * stripe arrays rebuilt
 */

/** Hash and equality for the _fast calls ("Specialised fast paths"). */
struct grain_htab_params {
	/** As grain_htab_ops.hash. */
	uint64_t (*hash)(const void *key, const struct grain_hash_key *secret,
			 void *ctx);
	/** As grain_htab_ops.eq. */
	bool (*eq)(const struct grain_hnode *node, const void *key, void *ctx);
};

#ifndef __cplusplus
#include <grain/impl/htab.h> /* layout and inline bodies: C only */
#endif

/* Lifecycle. The table allocates (bucket arrays grow and shrink), so it
 * has create/destroy only, with allocation hooks. */

/**
 * grain_htab_create - make an empty table.
 * @return 0; -EINVAL (NULL, ops.hash or ops.eq missing, a size not a power
 *         of two or out of range, mem_low > mem_high, reclaim_batch >
 *         GRAIN_HTAB_RECLAIM_BATCH_MAX, unknown flags or policy, an
 *         allocation hook without its partner); -ENOMEM.
 *         *htabp is untouched on error.
 * Thread safety: any thread.
 */
GRAIN_API GRAIN_NODISCARD int
grain_htab_create(struct grain_htab **htabp,
		  const struct grain_htab_config *cfg,
		  const struct grain_alloc *alloc);

/**
 * grain_htab_destroy - retire every entry (reason DESTROYED: reclaim is
 * called for each), wait until every reclaim already deferred has run
 * (the flavour's rcu_barrier, or the user's ops.defer), and free the
 * table. NULL: no-op. Nothing else may use the table; must not run in an
 * RCU read-side section; with the qsbr flavour, call it from an offline or
 * unregistered thread (rcu_barrier waits for grace periods). With an RCU
 * table the allocation hooks' free may be called from liburcu's call_rcu
 * thread: they must be thread-safe.
 */
GRAIN_API void grain_htab_destroy(struct grain_htab *htab);

/** grain_htab_hash - the hash the table uses for @p key. Any thread. */
GRAIN_API uint64_t grain_htab_hash(const struct grain_htab *htab,
				   const void *key);

/* Scoped access. Between lock and unlock the caller holds the key's
 * stripe lock: everything done in the scope is one atomic step for that
 * key as other scopes (and the one-call forms, the walk, expiry) see it.
 * Not for lock-free lookups: they see each call as it happens, so a
 * remove_locked and then an insert_locked of the same key leave them a
 * window in which the key is absent. grain_htab_replace_locked() closes
 * it: the new node takes the old one's place in one store. The key given to the _locked calls must be the key given to
 * grain_htab_lock() (its hash is computed once, there). Nodes found stay
 * valid until unlock (or, inside an RCU read-side section, its end).
 * Scopes may be taken inside RCU read-side sections. The scoped calls
 * check their pointers (NULL: -EINVAL, or NULL for find) but not that the
 * scope is held. grain_htab_lock() with a NULL table or key locks nothing
 * and leaves the scope empty: every call on it fails (-EINVAL, NULL) and
 * its unlock does nothing. Every other call follows the NULL rule of
 * grain/common.h too, the _fast forms included: int calls return -EINVAL
 * (and set *found to NULL), queries read NULL as an empty table. */

/** grain_htab_lock - lock the stripe of @p key and fill @p scope.
 * Ordering: acquire. Blocks (spins, then yields) while another scope holds
 * the stripe. Never nest scopes in one thread. */
GRAIN_INLINE_API void grain_htab_lock(struct grain_htab *htab, const void *key,
				      struct grain_htab_scope *scope);

/** grain_htab_unlock - if the scope left the total above mem_high (policy
 * EVICT), first evict the stripe's own entries that are no newer than the
 * eviction horizon ("Bytes, watermarks, eviction, TTL"); release the stripe
 * (release ordering); then, with no lock held: run ops.unlinked for nodes the
 * table retired during the scope and hand retired nodes to reclaim, evict on
 * down to mem_low, and perform a due resize. Never waits for a grace period. */
GRAIN_INLINE_API void grain_htab_unlock(struct grain_htab_scope *scope);

/** grain_htab_find_locked - the node holding the scope's @p key, or NULL.
 * Counts a lookup (and a hit) in the stripe's counters. */
GRAIN_INLINE_API struct grain_hnode *
grain_htab_find_locked(struct grain_htab_scope *scope, const void *key);

/**
 * grain_htab_insert_locked - link @p node under @p key, charged @p charge
 * bytes, stamped @p now, at the most recently used end of the LRU.
 * @return 0; -EEXIST (the key is present: nothing changed); -ENOSPC
 *         (policy REFUSE and the total is above mem_high); -EMLINK (the
 *         chain holds max_chain entries); -ENOMEM (the stripe had to be
 *         rebuilt and could not allocate); -EINVAL (NULL, @p node linked
 *         or retired, @p charge above UINT32_MAX). On error @p node stays
 *         the caller's.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_insert_locked(struct grain_htab_scope *scope,
			 struct grain_hnode *node, const void *key,
			 uint64_t now, size_t charge);

/**
 * grain_htab_find_or_insert_locked - the entry for @p key, inserting
 * @p node if there is none. Never two entries for one key, under any race.
 * @return 0 (@p node inserted, *found = @p node); -EEXIST (*found = the
 *         existing entry; @p node untouched); or the errors of
 *         grain_htab_insert_locked() (*found = NULL).
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_find_or_insert_locked(struct grain_htab_scope *scope,
				 const void *key, struct grain_hnode *node,
				 uint64_t now, size_t charge,
				 struct grain_hnode **found);

/** grain_htab_remove_locked - unlink @p node (of the scope's stripe) and
 * retire it (reason REMOVED). @return 0, -ENOENT (not linked in this
 * table), -EINVAL (other stripe, NULL). */
GRAIN_API GRAIN_NODISCARD int
grain_htab_remove_locked(struct grain_htab_scope *scope,
			 struct grain_hnode *node);

/** grain_htab_touch_locked - move @p node to the most recently used end and
 * restamp it with @p now (its TTL restarts); in a GRAIN_HTAB_EVICT_CLOCK
 * table set its reference mark instead of moving it ("CLOCK order").
 * @return 0, -ENOENT, -EINVAL. */
GRAIN_API GRAIN_NODISCARD int
grain_htab_touch_locked(struct grain_htab_scope *scope,
			struct grain_hnode *node, uint64_t now);

/** @{ */
/** grain_htab_charge_locked / grain_htab_uncharge_locked - add or take
 * @p bytes from @p node's charge and the table's totals. Growth above
 * mem_high triggers eviction at unlock (policy EVICT). @return 0, -ENOENT,
 * -EINVAL (other stripe; a charge past UINT32_MAX; uncharge of more than
 * the node's charge). */
GRAIN_API GRAIN_NODISCARD int
grain_htab_charge_locked(struct grain_htab_scope *scope,
			 struct grain_hnode *node, size_t bytes);
GRAIN_API GRAIN_NODISCARD int
grain_htab_uncharge_locked(struct grain_htab_scope *scope,
			   struct grain_hnode *node, size_t bytes);
/** @} */

/**
 * grain_htab_replace_locked - put @p node, which holds the key of @p old
 * (the caller's promise: nothing checks it), in the place of @p old (an
 * entry of the scope's stripe), charged @p charge bytes, stamped @p now,
 * at the most recently used end of the LRU; retire @p old as a remove
 * does, with reason REPLACED: no ops.unlinked call, ops.reclaim(old,
 * GRAIN_HTAB_REPLACED) once no reader can see it (at the unlock of a
 * GRAIN_HTAB_NO_RCU table). The table's bytes change by @p charge minus
 * the charge of @p old; growth above mem_high evicts at the unlock
 * (policy EVICT) and is never refused (policy REFUSE: the entry is not
 * new). The entry count and the statistics do not change. No entry
 * expires in the call (an expiry could take @p old).
 *
 * Ordering: @p node takes @p old's bucket slot with one release store
 * (R1 in impl/htab.h): a lock-free lookup of the key, concurrent with the
 * call, finds @p old or @p node, never neither, and finds @p node as it
 * was built. Lock holders see it as any scoped call.
 *
 * @return 0; -ENOENT (@p old is not linked in this table); -EINVAL (NULL,
 *         an empty scope, @p old of another stripe, @p node linked or
 *         retired, @p charge above UINT32_MAX). On error nothing changed
 *         and @p node stays the caller's.
 */
GRAIN_API GRAIN_NODISCARD int
grain_htab_replace_locked(struct grain_htab_scope *scope,
			  struct grain_hnode *old, struct grain_hnode *node,
			  uint64_t now, size_t charge);

/* One-call forms: lock, one operation, unlock. */

/** grain_htab_insert - as grain_htab_insert_locked() in its own scope;
 * eviction (if due) has run when it returns. */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_insert(struct grain_htab *htab, struct grain_hnode *node,
		  const void *key, uint64_t now, size_t charge);

/** grain_htab_find_or_insert - as the _locked form in its own scope. The
 * node in *found is valid after return only inside an RCU read-side
 * section (or while the caller otherwise knows nobody removes it). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_find_or_insert(struct grain_htab *htab, const void *key,
			  struct grain_hnode *node, uint64_t now, size_t charge,
			  struct grain_hnode **found);

/** grain_htab_remove - remove the entry for @p key and retire it; *removed
 * (if not NULL) gets it, valid as for find_or_insert, or NULL on a
 * GRAIN_HTAB_NO_RCU table: there the node has been handed to ops.reclaim
 * before the call returns, and no pointer to it comes back. NULL also
 * with -ENOENT. @return 0, -ENOENT, -EINVAL (*removed untouched). */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_remove(struct grain_htab *htab, const void *key,
		  struct grain_hnode **removed);

/**
 * grain_htab_lookup - find @p key without any lock. Must run inside an RCU
 * read-side section of the table's flavour; the node stays valid until its
 * end. Never misses a key that is present for the whole call, also during
 * a resize; wait-free apart from the chain walk; writes nothing shared, so
 * it is not counted in the statistics. @return the node or NULL; NULL also
 * for a GRAIN_HTAB_NO_RCU table (use the scoped find there), or @p htab
 * or @p key NULL. Ordering: acquire (A1: the node's contents as inserted are
 * visible).
 */
GRAIN_INLINE_API struct grain_hnode *grain_htab_lookup(struct grain_htab *htab,
						       const void *key);

/**
 * grain_htab_lookup_with_hash - grain_htab_lookup() of @p key whose hash
 * the caller has already computed: @p hash must be grain_htab_hash(htab,
 * key) (the table's ops.hash under its secret; a daemon that hashes a
 * packet's key once and uses it more than once passes it here). A wrong
 * hash makes the lookup miss (it searches another bucket); it never
 * reads outside the table. Must run inside an RCU read-side section of
 * the table's flavour; the node stays valid until its end.
 * @return the node or NULL; NULL also for a GRAIN_HTAB_NO_RCU table, or
 *         @p htab or @p key NULL. Ordering: acquire (A1), as lookup.
 * Thread safety: as grain_htab_lookup(): any thread, concurrently with
 * every call but create/destroy; never blocks, takes no lock, writes
 * nothing shared, not counted in the statistics.
 */
GRAIN_INLINE_API struct grain_hnode *
grain_htab_lookup_with_hash(struct grain_htab *htab, const void *key,
			    uint64_t hash);

/**
 * grain_htab_lookup_bulk - look up @p n keys (at most
 * GRAIN_HTAB_LOOKUP_BULK_MAX) without any lock, as @p n calls of
 * grain_htab_lookup() would, but with their memory accesses overlapped:
 * every key is hashed and its bucket line prefetched first, then the
 * buckets' signatures compared and the candidate nodes prefetched, then
 * the keys compared. Worth it where the table is larger than the cache
 * and keys come in bursts (an RX ring block, a recvmmsg batch).
 *
 * nodes[i] gets the node of keys[i], or NULL if absent; bit i of *@p hits
 * (if @p hits is not NULL) is set where nodes[i] is not NULL. A NULL
 * keys[i] is a miss. Keys may repeat; each is looked up on its own. Must
 * run inside an RCU read-side section of the table's flavour, for the
 * whole call; the nodes stay valid until its end.
 *
 * @return how many keys were found (0..@p n; 0 for @p n 0); -EINVAL
 *         (@p htab NULL, @p n above GRAIN_HTAB_LOOKUP_BULK_MAX, @p keys
 *         or @p nodes NULL with @p n above 0, a GRAIN_HTAB_NO_RCU table).
 *         On -EINVAL nodes[0..n-1] are NULL (where @p nodes is not NULL
 *         and @p n within the maximum) and *@p hits is 0.
 * Ordering: each key as grain_htab_lookup() (acquire, A1: a node found
 * is seen as its inserter built it). The keys are not one atomic step:
 * each result is that of a lookup made at some moment during the call,
 * so a key present for the whole call is found, and two keys changed
 * meanwhile may be seen one before, one after the change; two copies of
 * one key in a burst may get different nodes while it is replaced.
 * Thread safety: as grain_htab_lookup(): any thread, concurrently with
 * every call but create/destroy; never blocks, takes no lock, writes
 * nothing shared but @p nodes and *@p hits, not counted in the
 * statistics.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_lookup_bulk(struct grain_htab *htab, const void *const *keys,
		       unsigned n, struct grain_hnode **nodes, uint64_t *hits);

/**
 * grain_htab_replace - set the entry of @p key to @p node, which holds
 * @p key: replace the entry present as grain_htab_replace_locked() does
 * (a lock-free lookup finds the old node or @p node, never neither), or
 * insert @p node as grain_htab_insert() does if there is none. In its own
 * scope; an eviction that is due has run when it returns. *old (if not
 * NULL) gets the node replaced, retired with reason REPLACED and valid as
 * for find_or_insert, or NULL when @p node was inserted. The search counts
 * a lookup (and a hit) in the statistics, as remove's does. Expiry runs
 * first, as for an insert: an entry ttl old is expired, and @p node
 * inserted.
 * @return 0 (replaced or inserted: *old says which); when @p key was
 *         absent, the errors of grain_htab_insert_locked() (-ENOSPC,
 *         -EMLINK, -ENOMEM); -EINVAL (NULL @p htab, @p key or @p node,
 *         @p node linked or retired, @p charge above UINT32_MAX, @p node
 *         not holding @p key by ops.eq). On error *old is NULL, nothing
 *         changed and @p node stays the caller's.
 * Thread safety: any thread, outside a scope of the table.
 */
GRAIN_NODISCARD GRAIN_INLINE_API int
grain_htab_replace(struct grain_htab *htab, const void *key,
		   struct grain_hnode *node, uint64_t now, size_t charge,
		   struct grain_hnode **old);

/**
 * grain_htab_node_stamp - @p node's stamp: the @p now of its insert, its
 * replace or its last touch, in the caller's clock. 0 for NULL.
 *
 * For a lock-free reader (a node found by grain_htab_lookup() in an RCU
 * read-side section) and for lock holders alike. Ordering: a relaxed
 * load, never torn, of a field the table writes with relaxed atomic
 * stores (under the stripe lock), so it races with nothing. What a reader
 * may conclude: the value is the stamp as inserted or as a later touch
 * set it (the lookup's acquire makes the insert's stamp visible, and two
 * reads by one thread never see an older store after a newer one); a
 * touch concurrent with the read may or may not be seen, and nothing
 * else of the node is ordered by this load. Only while the node is
 * linked: once the table has retired it (remove, replace, eviction,
 * expiry), which a reader holding it cannot tell, the field holds the
 * table's reclaim bookkeeping and the value means nothing. So a decision
 * taken on it ("old enough to touch") is a hint, made good under the
 * lock: grain_htab_touch_locked() refuses a retired node (-ENOENT).
 * Thread safety: any thread, while the node's memory is valid (until its
 * reclaim).
 */
GRAIN_INLINE_ANY uint64_t grain_htab_node_stamp(const struct grain_hnode *node)
{
	return node != GRAIN_IMPL_NULL
		       ? __atomic_load_n(&node->stamp, __ATOMIC_RELAXED)
		       : 0;
}

/**
 * grain_htab_node_charge - @p node's charge in bytes: that of its insert
 * or replace, as charge and uncharge changed it since. 0 for NULL.
 *
 * Ordering: a relaxed load, never torn, as grain_htab_node_stamp(): a
 * lock-free reader sees the insert's charge or a later one; a charge or
 * uncharge concurrent with the read may or may not be seen. A node the
 * table retired keeps the charge it had then (it is no longer in the
 * table's totals). Thread safety: any thread, while the node's memory is
 * valid (until its reclaim).
 */
GRAIN_INLINE_ANY size_t grain_htab_node_charge(const struct grain_hnode *node)
{
	return node != GRAIN_IMPL_NULL
		       ? GRAIN_IMPL_CAST(size_t,
					 __atomic_load_n(&node->charge,
							 __ATOMIC_RELAXED))
		       : 0;
}

/* Specialised fast paths. Each _fast call is the call of the same name
 * with the hash and equality given by @p p instead of the table's ops.
 * When @p p is a compile-time constant (a `static const` struct) the
 * compiler inlines the caller's functions into the table's code: no
 * indirect call is left on the path. @p p must compute the same hash and
 * equality as the table's ops (the table's other calls use those). The
 * pattern is Linux rhashtable's: a const parameter struct passed by value
 * to always-inline functions. */

/* C only: a call without the inline body (C++, another language) cannot
 * specialise anything, and uses the generic forms, which libgrain
 * exports. Each has the returns, ordering and thread safety of its
 * generic form; the bodies are in impl/htab.h. */
#ifndef __cplusplus
/** grain_htab_lookup_fast - grain_htab_lookup() with @p p's hash and
 * equality (C only). */
static inline struct grain_hnode *
grain_htab_lookup_fast(struct grain_htab *htab, const void *key,
		       const struct grain_htab_params p);

/** grain_htab_lookup_with_hash_fast - grain_htab_lookup_with_hash() with
 * @p p's equality (@p p's hash is not called; C only). */
static inline struct grain_hnode *
grain_htab_lookup_with_hash_fast(struct grain_htab *htab, const void *key,
				 uint64_t hash,
				 const struct grain_htab_params p);

/** grain_htab_lookup_bulk_fast - grain_htab_lookup_bulk() with @p p's hash
 * and equality (C only). */
GRAIN_NODISCARD static inline int
grain_htab_lookup_bulk_fast(struct grain_htab *htab, const void *const *keys,
			    unsigned n, struct grain_hnode **nodes,
			    uint64_t *hits, const struct grain_htab_params p);

/** grain_htab_lock_fast - grain_htab_lock() with @p p's hash (C only). */
static inline void grain_htab_lock_fast(struct grain_htab *htab,
					const void *key,
					struct grain_htab_scope *scope,
					const struct grain_htab_params p);

/** grain_htab_find_locked_fast - grain_htab_find_locked() with @p p's
 * equality (C only). */
static inline struct grain_hnode *
grain_htab_find_locked_fast(struct grain_htab_scope *scope, const void *key,
			    const struct grain_htab_params p);

/** grain_htab_insert_locked_fast - grain_htab_insert_locked() with @p p's
 * equality (C only). */
GRAIN_NODISCARD static inline int
grain_htab_insert_locked_fast(struct grain_htab_scope *scope,
			      struct grain_hnode *node, const void *key,
			      uint64_t now, size_t charge,
			      const struct grain_htab_params p);

/** grain_htab_find_or_insert_locked_fast -
 * grain_htab_find_or_insert_locked() with @p p's equality (C only). */
GRAIN_NODISCARD static inline int grain_htab_find_or_insert_locked_fast(
	struct grain_htab_scope *scope, const void *key,
	struct grain_hnode *node, uint64_t now, size_t charge,
	struct grain_hnode **found, const struct grain_htab_params p);

/** grain_htab_insert_fast - grain_htab_insert() with @p p's hash and
 * equality (C only). */
GRAIN_NODISCARD static inline int
grain_htab_insert_fast(struct grain_htab *htab, struct grain_hnode *node,
		       const void *key, uint64_t now, size_t charge,
		       const struct grain_htab_params p);

/** grain_htab_find_or_insert_fast - grain_htab_find_or_insert() with @p p's
 * hash and equality (C only). */
GRAIN_NODISCARD static inline int
grain_htab_find_or_insert_fast(struct grain_htab *htab, const void *key,
			       struct grain_hnode *node, uint64_t now,
			       size_t charge, struct grain_hnode **found,
			       const struct grain_htab_params p);

/** grain_htab_remove_fast - grain_htab_remove() with @p p's hash and
 * equality (C only). */
GRAIN_NODISCARD static inline int
grain_htab_remove_fast(struct grain_htab *htab, const void *key,
		       struct grain_hnode **removed,
		       const struct grain_htab_params p);

/** grain_htab_replace_fast - grain_htab_replace() with @p p's hash and
 * equality (C only). */
GRAIN_NODISCARD static inline int
grain_htab_replace_fast(struct grain_htab *htab, const void *key,
			struct grain_hnode *node, uint64_t now, size_t charge,
			struct grain_hnode **old,
			const struct grain_htab_params p);
#endif

/* Maintenance and statistics */

/** grain_htab_expire - retire entries at least ttl old at @p now (reason
 * EXPIRED; ops.unlinked runs with no lock held; `now` should not go
 * backwards), and run resizes that are due. @return how many expired.
 * A GRAIN_HTAB_EVICT_CLOCK table is scanned slot by slot ("CLOCK order").
 * Any thread. */
GRAIN_API unsigned grain_htab_expire(struct grain_htab *htab, uint64_t now);

/** A grain_htab_walk() callback: @p scope holds @p node's stripe. @return 0
 * to go on, anything else to stop the walk (the walk returns it). */
typedef int grain_htab_walk_fn(struct grain_htab_scope *scope,
			       struct grain_hnode *node, void *ctx);

/**
 * grain_htab_walk - call @p fn on every entry: stripe by stripe, each
 * under its lock, oldest first (the stripe's LRU order; in slot order in a
 * GRAIN_HTAB_EVICT_CLOCK table).
 *
 * @p fn runs inside a scope of the entry's stripe and may call, with
 * @p scope and the @p node it was given only, grain_htab_remove_locked(),
 * grain_htab_touch_locked(), grain_htab_charge_locked() and
 * grain_htab_uncharge_locked(); calls that take no lock (grain_htab_lookup()
 * in a read-side section, grain_htab_get_stats(), the byte counts) are safe
 * too. Any other call on the table from @p fn (on another node, a find or
 * insert on the scope, a lock, a one-call form) may deadlock or break the
 * walk. What the callbacks did takes effect at each stripe's unlock as
 * after any scope (grain_htab_unlock()): removed nodes go to reclaim, a
 * charge above mem_high evicts, a due resize runs.
 *
 * An entry linked from the start of the walk to its end is visited
 * exactly once (touched by @p fn, it is not visited again); an entry that
 * another thread inserts or removes meanwhile may or may not be. Entries
 * evicted at a stripe's unlock are not visited afterwards.
 *
 * @return 0 once every stripe is walked; @p fn's nonzero value, as it is,
 *         when it stops the walk; -EINVAL if @p htab or @p fn is NULL.
 * Ordering: each stripe's lock is taken and released as by
 * grain_htab_lock() and grain_htab_unlock() (acquire, release). Thread
 * safety: any thread, concurrently with every call, outside a scope of the
 * same table (never nest scopes in one thread). Holds one stripe lock at
 * a time, for as long as that stripe's walk takes; never waits for a
 * grace period.
 */
GRAIN_API GRAIN_NODISCARD int
grain_htab_walk(struct grain_htab *htab, grain_htab_walk_fn *fn, void *ctx);

/** A grain_htab_walk_rcu() callback. @return 0 to go on, anything else to
 * stop the walk (the walk returns it). */
typedef int grain_htab_walk_rcu_fn(struct grain_hnode *node, void *ctx);

/**
 * grain_htab_walk_rcu - call @p fn on every entry without any lock, as
 * lookups read the table. Must run inside an RCU read-side section of the
 * table's flavour, for the whole call; each node stays valid until the
 * section ends. Stripe by stripe, in bucket order (not LRU order).
 *
 * Guarantee: an entry linked from the start of the walk to its end is
 * visited exactly once, also when its stripe is resized meanwhile (the
 * walk reads each stripe's array once; a resize leaves the old one as it
 * was, and in a live array a node never moves). An entry inserted or
 * removed meanwhile may or may not be visited; one removed and inserted
 * again may be visited twice. A key whose entry is replaced meanwhile
 * (grain_htab_replace(), which never leaves it absent) is visited exactly
 * once, as its old node or its new one.
 *
 * @p fn may call anything that may run in a read-side section, on any
 * node: lookups, scopes and the one-call forms (they take the stripe
 * lock, which the walk does not hold), resize; not destroy, nor anything
 * that waits for a grace period.
 *
 * @return 0 once every stripe is walked; @p fn's nonzero value, as it is,
 *         when it stops the walk; -EINVAL if @p htab or @p fn is NULL or
 *         the table is GRAIN_HTAB_NO_RCU (it has no lock-free readers:
 *         use grain_htab_walk()).
 * Ordering: acquire loads of each stripe's array and of every slot (A3,
 * A2, A1 in impl/htab.h): a node visited is seen as its inserter built
 * it. Thread safety: any thread, concurrently with every call but
 * create/destroy; never blocks, writes nothing shared, takes no lock.
 */
GRAIN_API GRAIN_NODISCARD int grain_htab_walk_rcu(struct grain_htab *htab,
						  grain_htab_walk_rcu_fn *fn,
						  void *ctx);

/** grain_htab_resize - set every stripe to @p buckets buckets (a power of
 * two, 1..2^22) in one copy per stripe; automatic resizing goes on from
 * there. Never waits for a grace period; may run inside a read-side
 * section. @return 0, -EINVAL, -ENOMEM (stripes not yet done keep their
 * size). */
GRAIN_API GRAIN_NODISCARD int grain_htab_resize(struct grain_htab *htab,
						unsigned buckets);

/** grain_htab_reclaim_flush - hand every node waiting in a stripe's
 * reclaim batch (GRAIN_HTAB_BATCH_RECLAIM) to call_rcu now; after it, the
 * flavour's rcu_barrier waits for every node removed before the call.
 * Takes each stripe lock in turn, never waits for a grace period; may run
 * inside a read-side section. No-op for NULL or a table without the flag.
 * Any thread. */
GRAIN_API void grain_htab_reclaim_flush(struct grain_htab *htab);

/** grain_htab_bytes - the folded byte total (lags the exact total by
 * less than stripes * mem_batch; "Bytes, watermarks, eviction, TTL"). O(1); 0
 * for NULL. Any thread. */
GRAIN_API size_t grain_htab_bytes(const struct grain_htab *htab);
/** grain_htab_bytes_exact - the folded byte total plus every stripe's
 * remainders: exact once writers are quiet. O(stripes); 0 for NULL. Any
 * thread. */
GRAIN_API size_t grain_htab_bytes_exact(const struct grain_htab *htab);

/** grain_htab_get_stats - fill @p st. Any thread, also inside a scope;
 * takes no lock; a snapshot. Lookups count the searches made under a
 * stripe lock (find_locked, and the search inside remove); lock-free
 * lookups are not counted, since counting would write a shared line from
 * readers. Every counter is exact once threads are quiet. Does nothing if
 * @p st is NULL; fills zeros if @p htab is NULL. */
GRAIN_API void grain_htab_get_stats(const struct grain_htab *htab,
				    struct grain_htab_stats *st);

#ifndef __cplusplus
/** grain_htab_stats - the name of grain_htab_get_stats() before 0.6,
 * deprecated. C only: in C++ a function of that name would hide struct
 * grain_htab_stats (`grain_htab_stats st{};` would not compile). */
GRAIN_DEPRECATED("use grain_htab_get_stats()")
GRAIN_API void grain_htab_stats(const struct grain_htab *htab,
				struct grain_htab_stats *st);
#endif

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_HTAB_H */
