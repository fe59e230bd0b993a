/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_audit.c - grain_htab's progress and consistency promises
 * under the interleavings that break them in a naive design, forced
 * rather than left to luck:
 *
 *   long_reader   a reader parked inside a read-side section for the
 *                 whole test: every insert, eviction, automatic and
 *                 explicit resize must still return (none may wait for a
 *                 grace period), and the byte total must stay at mem_high.
 *                 A design that waits would deadlock: the test's timeout
 *                 fails it.
 *   evictor_race  a thread whose eviction is held inside ops.unlinked
 *                 while another thread inserts: nobody may leave its
 *                 bytes to the held evictor; once both return the total
 *                 is at most mem_high.
 *   reused_arrays resizes back and forth while readers look up keys
 *                 that are always present, with an allocator that hands
 *                 every freed block straight back (LIFO, same size) and a
 *                 user ops.defer that delays reclaim: new arrays land at
 *                 the addresses of old ones, and no lookup may miss.
 */
#include "htab_test.h"
#include "test_util.h"
#include "../common/test_threads.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <urcu/urcu-memb.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* ----------------------------------------------------------------------
 * A reader parked in a read-side section
 */

struct parked {
	_Atomic(int) in_section;
	_Atomic(int) release;
};

static void *park_reader(void *arg)
{
	struct parked *p = arg;

	grain_rcu_register_thread();
	grain_rcu_read_lock();
	atomic_store(&p->in_section, 1);
	while (!atomic_load(&p->release))
		sleep_ms(1);
	grain_rcu_read_unlock();
	grain_rcu_unregister_thread();
	return NULL;
}

Test(htab_audit, long_reader, .timeout = 60)
{
	static struct ledger l;
	struct parked p = { 0, 0 };
	struct test_threads threads = { .n = 0 };
	enum { N = 4000, CHARGE = 100 };
	static struct obj o[N];

	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, 0);
	c.stripes = 4;
	c.mem_high = 50000;
	c.mem_low = 40000;
	const size_t lag = 4 * (c.mem_high / 64 / 4);
	grain_rcu_register_thread();
	struct grain_htab *h = NULL;
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	test_spawn(&threads, park_reader, &p);
	while (!atomic_load(&p.in_section))
		sleep_ms(1);

	/* Growth (500 entries fit in 4 x 16 buckets only after grows), then
	 * eviction, which shrinks stripes again, then explicit resizes: all
	 * while the reader holds its section. */
	for (uint64_t k = 0; k < N; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, k + 1,
					       CHARGE),
			     0, "key %llu", (unsigned long long)k);
		cr_assert_leq(grain_htab_bytes_exact(h),
			      c.mem_high + lag + CHARGE, "key %llu",
			      (unsigned long long)k);
		if (k == N / 2) {
			cr_assert_eq(grain_htab_resize(h, 1024), 0);
			cr_assert_eq(grain_htab_resize(h, 16), 0);
		}
	}
	struct grain_htab_stats st;
	grain_htab_get_stats(h, &st);
	cr_assert_gt(st.resizes, 2u, "no automatic resize happened");
	cr_assert_gt(st.evictions, (uint64_t)N / 2);
	/* Nothing evicted may be reclaimed while the reader can see it. */
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_EVICTED]), 0ul);

	atomic_store(&p.release, 1);
	test_join_all(&threads);
	grain_htab_destroy(h);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_EVICTED]),
		     (unsigned long)st.evictions);
	grain_rcu_unregister_thread();
}

/* ----------------------------------------------------------------------
 * An evictor held in ops.unlinked while another thread inserts
 */

struct race {
	struct grain_htab *h;
	pthread_t evictor; /* only its evictions are held */
	_Atomic(int) go;   /* evictor -> inserter: insert a round now */
	_Atomic(int) done; /* inserter -> evictor: the round is in */
	_Atomic(int) rounds;
	_Atomic(int) stop;
	unsigned calls; /* the evictor's unlinked calls so far */
	struct obj extra[64];
	_Atomic(unsigned) next;
};

#define RACE_ROUNDS 6
#define RACE_PER_ROUND 7

/* Hold the evictor's first unlinked call, and then the first call of each
 * later pass an evictor would make if it evicted down to mem_low from a
 * total taken once per pass: with charges of 100, a pass after a round of
 * 7 inserts evicts 7 entries, so passes start at calls 1, 4, 11, 18, ...
 * An evictor that gives up after a fixed number of passes then returns
 * with the last round's bytes above mem_high. */
static void race_unlinked(struct ledger *l, struct grain_hnode *node,
			  enum grain_htab_reason why)
{
	struct race *r = l->user;

	(void)node;
	(void)why;
	if (!pthread_equal(pthread_self(), r->evictor))
		return;
	unsigned i = ++r->calls;
	if ((i != 1 && (i < 4 || (i - 4) % RACE_PER_ROUND != 0)) ||
	    atomic_load(&r->rounds) >= RACE_ROUNDS)
		return;
	/* Hold this eviction while the other thread inserts a round. */
	atomic_fetch_add(&r->rounds, 1);
	atomic_store(&r->done, 0);
	atomic_store(&r->go, 1);
	while (!atomic_load(&r->done))
		sleep_ms(1);
}

static void *race_inserter(void *arg)
{
	struct race *r = arg;

	while (!atomic_load(&r->stop)) {
		if (!atomic_load(&r->go)) {
			sleep_ms(1);
			continue;
		}
		atomic_store(&r->go, 0);
		for (unsigned i = 0; i < RACE_PER_ROUND; i++) {
			unsigned n = atomic_fetch_add(&r->next, 1u);
			uint64_t k = 1000000u + n;
			obj_init(&r->extra[n], k);
			if (grain_htab_insert(r->h, &r->extra[n].node, &k,
					      1000000u + n, 100) != 0)
				abort();
		}
		atomic_store(&r->done, 1);
	}
	return NULL;
}

Test(htab_audit, evictor_race, .timeout = 60)
{
	static struct ledger l;
	static struct race r;
	/* Ten entries fill the table to mem_high; the eleventh evicts, and
	 * that one eviction is the held one: this thread inserts no more. */
	enum { N = 11 };
	static struct obj o[N];
	struct test_threads threads = { .n = 0 };

	ledger_init(&l);
	memset(&r, 0, sizeof(r));
	l.user = &r;
	l.on_unlinked = race_unlinked;
	r.evictor = pthread_self();
	struct grain_htab_config c = ledger_config(&l, GRAIN_HTAB_NO_RCU);
	c.stripes = 1; /* exact totals: no folding lag */
	c.mem_high = 1000;
	c.mem_low = 800;
	cr_assert_eq(grain_htab_create(&r.h, &c, NULL), 0);
	test_spawn(&threads, race_inserter, &r);
	for (uint64_t k = 0; k < N; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(r.h, &o[k].node, &k, k + 1, 100),
			     0);
	}
	atomic_store(&r.stop, 1);
	test_join_all(&threads);
	cr_assert_geq(atomic_load(&r.rounds), 1,
		      "the forced interleaving did not happen");
	cr_assert_eq(atomic_load(&r.next),
		     (unsigned)atomic_load(&r.rounds) * RACE_PER_ROUND);
	/* Both threads have returned: nothing is left above mem_high. */
	cr_assert_leq(grain_htab_bytes_exact(r.h), c.mem_high,
		      "%zu bytes held, mem_high %zu",
		      grain_htab_bytes_exact(r.h), c.mem_high);
	grain_htab_destroy(r.h);
}

/* ----------------------------------------------------------------------
 * Resizes with reused addresses and a delayed user defer
 */

/* LIFO, same size: a freed block is the next one handed out. */
struct lifo {
	pthread_mutex_t lock;
	struct lifo_block *free;
	_Atomic(unsigned long) reused;
};

struct lifo_block {
	struct lifo_block *next;
	size_t size;
};

static void *lifo_alloc(size_t size, size_t align, void *state)
{
	struct lifo *f = state;
	struct lifo_block **pp, *b;

	pthread_mutex_lock(&f->lock);
	for (pp = &f->free; (b = *pp) != NULL; pp = &b->next)
		if (b->size == size) {
			*pp = b->next;
			break;
		}
	pthread_mutex_unlock(&f->lock);
	if (b != NULL) {
		atomic_fetch_add(&f->reused, 1ul);
		return b;
	}
	if (size < sizeof(struct lifo_block))
		size = sizeof(struct lifo_block);
	return grain_mem_alloc(NULL, size, align);
}

static void lifo_free(void *ptr, size_t size, size_t align, void *state)
{
	struct lifo *f = state;
	struct lifo_block *b = ptr;

	(void)align;
	if (size < sizeof(struct lifo_block)) {
		grain_mem_free(NULL, ptr, size, align);
		return;
	}
	memset(ptr, 0xa5, size); /* a stale reader would see garbage */
	b->size = size;
	pthread_mutex_lock(&f->lock);
	b->next = f->free;
	f->free = b;
	pthread_mutex_unlock(&f->lock);
}

/* The user's defer: queue, and run done() only after a grace period, a
 * batch at a time, when the main thread decides. */
struct delayq {
	pthread_mutex_t lock;
	unsigned n;
	struct grain_hnode *node[4096];
	void (*done[4096])(struct grain_hnode *);
};

static void delay_defer(struct grain_hnode *node,
			void (*done)(struct grain_hnode *), void *ctx)
{
	struct ledger *l = ctx;
	struct delayq *q = l->user;

	pthread_mutex_lock(&q->lock);
	if (q->n == 4096)
		abort();
	q->node[q->n] = node;
	q->done[q->n] = done;
	q->n++;
	pthread_mutex_unlock(&q->lock);
}

static void delay_flush(struct delayq *q)
{
	pthread_mutex_lock(&q->lock);
	unsigned n = q->n;
	q->n = 0;
	pthread_mutex_unlock(&q->lock);
	if (n == 0)
		return;
	urcu_memb_synchronize_rcu();
	for (unsigned i = 0; i < n; i++)
		q->done[i](q->node[i]);
}

#define REUSE_KEYS 512u

struct reuse_reader {
	struct grain_htab *h;
	struct obj *o;
	_Atomic(int) *stop;
	_Atomic(unsigned) *started; /* readers past their first batch */
	unsigned long lookups, misses;
};

static void *reuse_reader_main(void *arg)
{
	struct reuse_reader *r = arg;
	uint64_t k = 0;

	grain_rcu_register_thread();
	while (!atomic_load(r->stop)) {
		grain_rcu_read_lock();
		for (unsigned i = 0; i < 64; i++, k = (k + 7) % REUSE_KEYS) {
			struct grain_hnode *n = grain_htab_lookup(r->h, &k);
			r->lookups++;
			if (n != &r->o[k].node)
				r->misses++;
		}
		grain_rcu_read_unlock();
		if (r->lookups == 64)
			atomic_fetch_add(r->started, 1);
	}
	grain_rcu_unregister_thread();
	return NULL;
}

Test(htab_audit, reused_arrays, .timeout = 120)
{
	static struct ledger l;
	static struct delayq q;
	static struct lifo f;
	static struct obj o[REUSE_KEYS];
	struct grain_alloc a = { lifo_alloc, lifo_free, &f };
	_Atomic(int) stop = 0;
	_Atomic(unsigned) started = 0;
	struct reuse_reader rd[2];
	struct test_threads threads = { .n = 0 };

	ledger_init(&l);
	memset(&q, 0, sizeof(q));
	pthread_mutex_init(&q.lock, NULL);
	memset(&f, 0, sizeof(f));
	pthread_mutex_init(&f.lock, NULL);
	l.user = &q;
	struct grain_htab_config c = ledger_config(&l, 0);
	c.ops.defer = delay_defer;
	c.stripes = 2;
	grain_rcu_register_thread();
	struct grain_htab *h = NULL;
	cr_assert_eq(grain_htab_create(&h, &c, &a), 0);
	for (uint64_t k = 0; k < REUSE_KEYS; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 1, 1), 0);
	}
	for (unsigned i = 0; i < 2; i++) {
		rd[i] = (struct reuse_reader){ h, o, &stop, &started, 0, 0 };
		test_spawn(&threads, reuse_reader_main, &rd[i]);
	}
	/* The resizes begin once both readers are reading, however late
	 * the scheduler runs them. */
	while (atomic_load(&started) < 2)
		sched_yield();
	unsigned sizes[] = { 16, 256, 32, 512, 64 };
	for (unsigned round = 0; round < 400; round++) {
		cr_assert_eq(grain_htab_resize(h, sizes[round % 5]), 0);
		/* Old arrays go back to the allocator a few resizes late, so
		 * the next resize of the same size gets one of them. */
		if (round % 3 == 2)
			delay_flush(&q);
	}
	atomic_store(&stop, 1);
	test_join_all(&threads);
	delay_flush(&q);
	cr_assert_gt(atomic_load(&f.reused), 100ul,
		     "the allocator never reused an address");
	for (unsigned i = 0; i < 2; i++) {
		cr_assert_gt(rd[i].lookups, 0ul);
		cr_assert_eq(rd[i].misses, 0ul,
			     "reader %u missed %lu of %lu present keys", i,
			     rd[i].misses, rd[i].lookups);
	}
	grain_htab_destroy(h);
	pthread_mutex_lock(&f.lock);
	while (f.free != NULL) {
		struct lifo_block *b = f.free;
		f.free = b->next;
		grain_mem_free(NULL, b, b->size, GRAIN_CACHELINE);
	}
	pthread_mutex_unlock(&f.lock);
	grain_rcu_unregister_thread();
}

/* ----------------------------------------------------------------------
 * Misuse the table refuses
 */

/* Half a pair of allocation hooks would mix two allocators. */
Test(htab_audit, half_allocator_refused)
{
	static struct ledger l;
	struct grain_htab *h = (struct grain_htab *)(uintptr_t)1;
	struct test_alloc_state st = { .budget = -1 };
	struct grain_alloc only_alloc = { test_alloc_fn, NULL, &st };
	struct grain_alloc only_free = { NULL, test_free_fn, &st };

	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, GRAIN_HTAB_NO_RCU);
	cr_assert_eq(grain_htab_create(&h, &c, &only_alloc), -EINVAL);
	cr_assert_eq(grain_htab_create(&h, &c, &only_free), -EINVAL);
	cr_assert_eq(h, (struct grain_htab *)(uintptr_t)1,
		     "untouched on error");
	cr_assert_eq(atomic_load(&st.live), 0);
}

/* A removed node waits for its grace period: inserting it again before
 * its reclaim is refused, and after the reclaim it is the caller's again,
 * free to go back in without being zeroed. */
Test(htab_audit, retired_node_refused_until_reclaimed, .timeout = 30)
{
	static struct ledger l;
	static struct obj a;
	uint64_t k = 7;

	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, 0);
	grain_rcu_register_thread();
	struct grain_htab *h = NULL;
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	obj_init(&a, k);
	cr_assert_eq(grain_htab_insert(h, &a.node, &k, 1, 1), 0);
	cr_assert_eq(grain_htab_insert(h, &a.node, &k, 1, 1), -EINVAL,
		     "a linked node went in twice");
	grain_rcu_read_lock(); /* holds the grace period */
	cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	uint64_t k2 = 8;
	cr_assert_eq(grain_htab_insert(h, &a.node, &k2, 1, 1), -EINVAL,
		     "a retired node went back in before its reclaim");
	grain_rcu_read_unlock();
	grain_rcu_barrier();
	cr_assert_eq(atomic_load(&a.reclaims), 1u);
	a.key = k2;
	cr_assert_eq(grain_htab_insert(h, &a.node, &k2, 2, 1), 0,
		     "a reclaimed node is free again");
	grain_rcu_read_lock();
	cr_assert_eq(grain_htab_lookup(h, &k2), &a.node);
	grain_rcu_read_unlock();
	grain_htab_destroy(h);
	grain_rcu_unregister_thread();
}
