/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prio.c - grain_prio's cold paths: configuration, lifecycle, the
 * non-empty bit re-check (and the wake when it sets a bit back), weighted
 * scheduling, blocking dequeue, stats and the priority helpers.
 *
 * Design. Each band is a grain_ring placed in the same allocation after
 * the header, so a queue is one block of memory (memsize + init works on
 * caller memory). Enqueue and strict dequeue are inline
 * (include/grain/impl/prio.h). In a queue of up to GRAIN_PRIO_SCAN_BANDS
 * bands they meet only in the rings; with more, also on the word of
 * non-empty bits, which producers write only when a band turns non-empty
 * and dequeuers only when they find one empty. Statistics come from the
 * rings' own positions, so the fast path keeps no counter at all.
 *
 * References: Linux net/sched/sch_generic.c (pfifo_fast: prio2band,
 * bitmap2band, the lockless per-band skb_array version and its
 * STATE_MISSED re-check); Linux net/ipv4/route.c ip_tos2prio[];
 * RFC 4594 and RFC 8622 (DSCP classes).
 */
#include <grain/prio.h>

#include <string.h>

#include "create.h"
#include "event.h"
#include "test_hooks.h"

#define PRIO_KNOWN_FLAGS (GRAIN_PRIO_SC | GRAIN_PRIO_WAIT | GRAIN_PRIO_WEIGHTED)

const uint8_t grain_prio_default_priomap[GRAIN_PRIO_PRIORITIES] = {
	1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1
};

static unsigned band_capacity(const struct grain_prio_config *cfg, unsigned b)
{
	return cfg->capacities != NULL ? cfg->capacities[b] : cfg->capacity;
}

/* Validates cfg; returns the header size plus all rings, or 0. */
size_t grain_prio_memsize(const struct grain_prio_config *cfg)
{
	if (cfg == NULL || cfg->bands == 0 ||
	    cfg->bands > GRAIN_PRIO_MAX_BANDS ||
	    (cfg->flags & ~PRIO_KNOWN_FLAGS) != 0)
		return 0;
	for (unsigned i = 0; cfg->priomap && i < GRAIN_PRIO_PRIORITIES; i++)
		if (cfg->priomap[i] >= cfg->bands)
			return 0;
	size_t size = sizeof(struct grain_prio);
	size = (size + GRAIN_CACHELINE - 1) & ~(size_t)(GRAIN_CACHELINE - 1);
	for (unsigned b = 0; b < cfg->bands; b++) {
		size_t rs = grain_ring_memsize(band_capacity(cfg, b));
		if (rs == 0 || size > SIZE_MAX - rs)
			return 0;
		if (cfg->weights != NULL && cfg->weights[b] == 0)
			return 0;
		size += rs;
	}
	return size;
}

int grain_prio_init(struct grain_prio *p, const struct grain_prio_config *cfg)
{
	size_t size = grain_prio_memsize(cfg);

	if (p == NULL || size == 0 ||
	    ((uintptr_t)p & (GRAIN_CACHELINE - 1)) != 0)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->ro.nbands = cfg->bands;
	p->ro.flags = cfg->flags;
	if (cfg->bands <= GRAIN_PRIO_SCAN_BANDS)
		p->ro.flags |= GRAIN_IMPL_PRIO_SCAN;
	for (unsigned i = 0; i < GRAIN_PRIO_PRIORITIES; i++) {
		/* The default map folds into the last band when there are
		 * fewer than its 3. */
		unsigned b = cfg->priomap ? cfg->priomap[i]
					  : grain_prio_default_priomap[i];
		p->ro.priomap[i] =
			(uint8_t)(b < cfg->bands ? b : cfg->bands - 1);
	}

	char *at = (char *)p + ((sizeof(*p) + GRAIN_CACHELINE - 1) &
				~(size_t)(GRAIN_CACHELINE - 1));
	unsigned ring_flags = (cfg->flags & GRAIN_PRIO_SC) ? GRAIN_RING_MPSC
							   : GRAIN_RING_MPMC;
	for (unsigned b = 0; b < cfg->bands; b++) {
		unsigned cap = band_capacity(cfg, b);
		struct grain_ring *r = (struct grain_ring *)(void *)at;
		if (grain_ring_init(r, cap, ring_flags) != 0)
			return -EINVAL; /* unreachable: memsize validated */
		/* grain_prio_enqueue_wait() sleeps on the band's consumer
		 * side: its dequeues announce room there (impl/ring.h,
		 * grain_impl_ring_publish()). Its producers wake
		 * the queue's own sleepers instead. */
		if (cfg->flags & GRAIN_PRIO_WAIT)
			r->cons.flags |= GRAIN_RING_WAIT;
		p->ro.rings[b] = r;
		p->ro.weights[b] = cfg->weights ? cfg->weights[b] : 1;
		at += grain_ring_memsize(cap);
	}
	atomic_init(&p->nonempty, 0);
	grain_spin_init(&p->sched.lock);
	p->sched.cur = GRAIN_PRIO_MAX_BANDS - 1; /* first round starts at 0 */
	p->sched.credit = 0;
	grain_impl_sleepers_init(&p->sleepers);
	for (unsigned b = 0; b < GRAIN_PRIO_MAX_BANDS; b++)
		atomic_init(&p->dropped[b], 0);
	atomic_init(&p->shut, GRAIN_IMPL_RING_OPEN);
	p->life.memsize = size;
	return 0;
}

static int prio_init_mem(void *mem, const void *cfg)
{
	return grain_prio_init(mem, cfg);
}

int grain_prio_create(struct grain_prio **priop,
		      const struct grain_prio_config *cfg,
		      const struct grain_alloc *alloc)
{
	const struct grain_impl_life_at at = {
		offsetof(struct grain_prio, life.alloc),
		offsetof(struct grain_prio, life.created),
	};
	size_t size = grain_prio_memsize(cfg);

	if (priop == NULL || size == 0)
		return -EINVAL;
	void *mem;
	int rc = grain_impl_create(&mem, size, alloc, prio_init_mem, cfg, at);
	if (rc == 0)
		*priop = mem;
	return rc;
}

void grain_prio_destroy(struct grain_prio *p)
{
	if (p != NULL && p->life.created)
		grain_impl_destroy(p, &p->life.alloc, p->life.memsize);
}

void grain_impl_prio_drop(struct grain_prio *p, unsigned band, unsigned n)
{
	/* A closed band refuses everything: not a drop of a full band. */
	if (grain_impl_ring_closed(p->ro.rings[band]))
		return;
	atomic_fetch_add_explicit(&p->dropped[band], n, memory_order_relaxed);
}

void grain_impl_prio_settle(struct grain_prio *p, unsigned band)
{
	uint64_t bit = (uint64_t)1 << band;

	GRAIN_TEST_HOOK(GRAIN_TEST_PRIO_SETTLE, p, band);
	atomic_fetch_and_explicit(&p->nonempty, ~bit, memory_order_acq_rel);
#if !GRAIN_TSAN
	/* C1: pairs with P1 in grain_impl_prio_observe(). Under TSan the
	 * producer's RMW and our RMW above are the pair. */
	atomic_thread_fence(memory_order_seq_cst);
#endif
	GRAIN_TEST_HOOK(GRAIN_TEST_PRIO_CLEARED, p, band);
	if (!grain_impl_ring_head_ready(p->ro.rings[band]))
		return;
	atomic_fetch_or_explicit(&p->nonempty, bit, memory_order_relaxed);
	/* The band was refilled. Its producer may have found the bit still
	 * set (and so left it to us), and since our clear another dequeuer
	 * may have read the bit as clear and gone to sleep after that
	 * producer's wake found nobody: the set-back is ours to announce,
	 * as an enqueue is (prio.h, "Scanned queues and the non-empty bits").
	 * S1 in the notify orders the set-back before a sleeper's re-check, as
	 * it orders an enqueue. Under GRAIN_PRIO_SC we are the only dequeuer:
	 * nobody else can sleep. (In weighted mode the scheduler lock, which
	 * every dequeue attempt takes, already hides the window from the
	 * others; the wake costs one read-modify-write there and keeps one rule
	 * for both.) */
	if ((p->ro.flags & (GRAIN_PRIO_WAIT | GRAIN_PRIO_SC)) ==
	    GRAIN_PRIO_WAIT)
		grain_impl_ring_notify(&p->sleepers);
}

/* The next band after cur, cyclically, whose bit is set in m (m != 0). */
static unsigned next_band(uint64_t m, unsigned cur)
{
	uint64_t above = cur >= 63 ? 0 : m & ~(((uint64_t)2 << cur) - 1);

	return (unsigned)__builtin_ctzll(above != 0 ? above : m);
}

/* The bands that may hold objects: the bits, or for a scanned queue the
 * bands whose head is ready now. */
static uint64_t band_mask(struct grain_prio *p)
{
	if (!(p->ro.flags & GRAIN_IMPL_PRIO_SCAN))
		return atomic_load_explicit(&p->nonempty, memory_order_relaxed);
	uint64_t m = 0;
	for (unsigned b = 0; b < p->ro.nbands; b++)
		if (grain_impl_ring_head_ready(p->ro.rings[b]))
			m |= (uint64_t)1 << b;
	return m;
}

unsigned grain_impl_prio_dequeue_weighted(struct grain_prio *p, void **objs,
					  unsigned n, unsigned *bandp)
{
	bool locked = (p->ro.flags & GRAIN_PRIO_SC) == 0;
	unsigned got = 0;

	if (locked)
		grain_spin_lock(&p->sched.lock);
	unsigned cur = p->sched.cur, credit = p->sched.credit;
	while (got < n) {
		uint64_t m = band_mask(p);
		if (m == 0)
			break;
		if (credit == 0 || !(m & ((uint64_t)1 << cur))) {
			cur = next_band(m, cur);
			credit = p->ro.weights[cur];
		}
		unsigned want = n - got < credit ? n - got : credit;
		unsigned k =
			grain_impl_prio_take(p, cur, objs + got, want, bandp);
		if (k != 0) {
			got += k;
			credit -= k;
			if (k == want)
				continue;
		}
		/* Fewer than asked: the band may be empty; its turn ends. */
		if (!(p->ro.flags & GRAIN_IMPL_PRIO_SCAN))
			grain_impl_prio_settle(p, cur);
		credit = 0;
	}
	p->sched.cur = cur;
	p->sched.credit = credit;
	if (locked)
		grain_spin_unlock(&p->sched.lock);
	return got;
}

struct prio_wait {
	struct grain_prio *p;
	void **objs;
	unsigned n;
	unsigned *bandp;
};

static int prio_attempt(void *ctx)
{
	struct prio_wait *w = ctx;
	unsigned k = grain_impl_prio_dequeue(w->p, w->objs, w->n, w->bandp);

	if (k != 0)
		return (int)k;
	/* Nothing: -EPIPE ends the wait, anything else sleeps. */
	return grain_impl_prio_fail(w->p) == -EPIPE ? -EPIPE : 0;
}

int grain_prio_dequeue_wait(struct grain_prio *p, void **objp, unsigned *bandp,
			    int64_t timeout_ns)
{
	if (p == NULL || objp == NULL || !(p->ro.flags & GRAIN_PRIO_WAIT))
		return -EINVAL;
	struct prio_wait w = { p, objp, 1, bandp };
	int rc = grain_impl_wait(&p->sleepers, prio_attempt, &w, timeout_ns);
	return rc > 0 ? 0 : rc;
}

int grain_prio_dequeue_burst_wait(struct grain_prio *p, void **objs, unsigned n,
				  int64_t timeout_ns)
{
	if (p == NULL || objs == NULL || n == 0 || n > (unsigned)INT32_MAX ||
	    !(p->ro.flags & GRAIN_PRIO_WAIT))
		return -EINVAL;
	struct prio_wait w = { p, objs, n, NULL };
	return grain_impl_wait(&p->sleepers, prio_attempt, &w, timeout_ns);
}

struct prio_put {
	struct grain_prio *p;
	unsigned band;
	void *obj;
};

static int prio_put_attempt(void *ctx)
{
	struct prio_put *w = ctx;

	if (grain_impl_prio_put(w->p, w->band, &w->obj, 1) == 1)
		return 1;
	return grain_impl_ring_fail(w->p->ro.rings[w->band], true, 1) == -EPIPE
		       ? -EPIPE
		       : 0;
}

int grain_prio_enqueue_wait(struct grain_prio *p, unsigned band, void *obj,
			    int64_t timeout_ns)
{
	if (p == NULL || band >= p->ro.nbands ||
	    !(p->ro.flags & GRAIN_PRIO_WAIT))
		return -EINVAL;
	struct prio_put w = { p, band, obj };
	/* Room in the band is announced on its ring's consumer side. */
	int rc = grain_impl_wait(&p->ro.rings[band]->cons.sleepers,
				 prio_put_attempt, &w, timeout_ns);
	/* Refused because the band stayed full: one drop, as a refused
	 * try_ call counts. */
	if (rc == -ETIMEDOUT)
		grain_impl_prio_drop(p, band, 1);
	return rc > 0 ? 0 : rc;
}

int grain_impl_prio_fail(struct grain_prio *p)
{
	/* Acquire: pairs with the release that publishes CLOSED; every
	 * band is closed then. */
	if (atomic_load_explicit(&p->shut, memory_order_acquire) !=
	    GRAIN_IMPL_RING_CLOSED)
		return -EAGAIN;
	for (unsigned b = 0; b < p->ro.nbands; b++)
		if (grain_impl_ring_fail(p->ro.rings[b], false, 1) != -EPIPE)
			return -EAGAIN;
	return -EPIPE;
}

int grain_prio_close(struct grain_prio *p)
{
	uint32_t open = GRAIN_IMPL_RING_OPEN;

	if (p == NULL)
		return -EINVAL;
	if (!atomic_compare_exchange_strong_explicit(
		    &p->shut, &open, GRAIN_IMPL_RING_CLOSING,
		    memory_order_relaxed, memory_order_relaxed))
		return -EPIPE;
	for (unsigned b = 0; b < p->ro.nbands; b++) {
		struct grain_ring *r = p->ro.rings[b];
		/* Multi-producer rings, closed only here: cannot fail. */
		(void)grain_impl_ring_close(r);
		if (p->ro.flags & GRAIN_PRIO_WAIT)
			grain_impl_ring_wake(&r->cons.sleepers);
	}
	/* Release: pairs with the acquire in grain_impl_prio_fail(). */
	atomic_store_explicit(&p->shut, GRAIN_IMPL_RING_CLOSED,
			      memory_order_release);
	if (p->ro.flags & GRAIN_PRIO_WAIT)
		grain_impl_ring_wake(&p->sleepers);
	return 0;
}

bool grain_prio_closed(const struct grain_prio *p)
{
	return p != NULL &&
	       atomic_load_explicit(&((struct grain_prio *)p)->shut,
				    memory_order_acquire) ==
		       GRAIN_IMPL_RING_CLOSED;
}

int grain_prio_stats(const struct grain_prio *p, unsigned band,
		     struct grain_prio_band_stats *st)
{
	if (p == NULL || st == NULL || band >= p->ro.nbands)
		return -EINVAL;
	grain_ring_totals(p->ro.rings[band], &st->enqueued, &st->dequeued);
	st->backlog = st->enqueued - st->dequeued;
	st->dropped = atomic_load_explicit(
		&((struct grain_prio *)p)->dropped[band], memory_order_relaxed);
	return 0;
}

unsigned grain_prio_backlog(const struct grain_prio *p)
{
	unsigned total = 0;

	for (unsigned b = 0; p != NULL && b < p->ro.nbands; b++)
		total += grain_ring_count(p->ro.rings[b]);
	return total;
}

unsigned grain_prio_tos_to_priority(uint8_t tos)
{
	/* Linux ip_tos2prio[], indexed by the four RFC 1349 TOS bits without
	 * the "minimise cost" bit: 0 best effort, 2 bulk, 4 interactive
	 * bulk, 6 interactive. */
	static const uint8_t by_tos[8] = { 0, 0, 2, 2, 6, 6, 4, 4 };

	return by_tos[(tos & 0x1e) >> 2];
}

unsigned grain_prio_dscp_to_priority(uint8_t dscp)
{
	/* A table: one class per line. */
	/* clang-format off */
	switch (dscp & 0x3f) {
	case 48: case 56:                  /* CS6, CS7: network control */
		return 7;
	case 46: case 32: case 40:         /* EF, CS4, CS5 */
	case 34: case 36: case 38:         /* AF41..AF43 */
		return 6;
	case 16: case 24:                  /* CS2, CS3 */
	case 18: case 20: case 22:         /* AF21..AF23 */
	case 26: case 28: case 30:         /* AF31..AF33 */
		return 4;
	case 8: case 1:                    /* CS1, LE (RFC 8622) */
	case 10: case 12: case 14:         /* AF11..AF13 */
		return 2;
	default:
		return 0;
	}
	/* clang-format on */
}

unsigned grain_prio_tclass_to_priority(uint8_t tclass)
{
	return grain_prio_dscp_to_priority((uint8_t)(tclass >> 2));
}

/* --- event loops -------------------------------------------------------- */

/* The sleepers of an event, NULL if the arguments are bad: the queue's
 * own for IN (its enqueues wake them), band's consumer side for OUT (its
 * dequeues announce room there). */
static struct grain_impl_ring_sleepers *
prio_event_sleepers(struct grain_prio *p, unsigned event, unsigned band)
{
	if (p == NULL || !(p->ro.flags & GRAIN_PRIO_WAIT) ||
	    !grain_impl_event_ok(event))
		return NULL;
	if (event == GRAIN_RING_EVENT_IN)
		return band == 0 ? &p->sleepers : NULL;
	return band < p->ro.nbands ? &p->ro.rings[band]->cons.sleepers : NULL;
}

int grain_prio_event_attach(struct grain_prio *p, unsigned event, unsigned band,
			    int fd)
{
	struct grain_impl_ring_sleepers *s =
		prio_event_sleepers(p, event, band);

	return s != NULL ? grain_impl_event_attach(s, fd) : -EINVAL;
}

static bool prio_in_ready(const void *ctx)
{
	const struct grain_prio *p = ctx;

	if (atomic_load_explicit(&((struct grain_prio *)p)->shut,
				 memory_order_acquire) != GRAIN_IMPL_RING_OPEN)
		return true;
	for (unsigned b = 0; b < p->ro.nbands; b++)
		if (grain_ring_count(p->ro.rings[b]) != 0)
			return true;
	return false;
}

static bool band_out_ready(const void *ctx)
{
	const struct grain_ring *r = ctx;

	return grain_ring_free_count(r) != 0 || grain_ring_closed(r);
}

int grain_prio_event_arm(struct grain_prio *p, unsigned event, unsigned band)
{
	struct grain_impl_ring_sleepers *s =
		prio_event_sleepers(p, event, band);

	if (s == NULL)
		return -EINVAL;
	if (event == GRAIN_RING_EVENT_IN)
		return grain_impl_event_arm(s, prio_in_ready, p);
	return grain_impl_event_arm(s, band_out_ready, p->ro.rings[band]);
}
