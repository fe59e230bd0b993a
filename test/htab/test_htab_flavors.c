/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_htab_flavors.c - RCU tables of each liburcu flavour (memb, qsbr,
 * bp), named by grain_htab_config.flavor, with readers that use that
 * flavour's own inline read side: present keys are always found, nothing
 * removed is reclaimed while a reader holds a section, and everything
 * removed is reclaimed after that flavour's rcu_barrier.
 */
#include "flavors/flavor.h"
#include "htab_test.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <time.h>

#include "../common/test_table.h"
#include "../common/test_threads.h"

#define KEYS 256u
#define KEPT 128u /* keys below this are never removed */

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

struct reader {
	const struct test_flavor *f;
	struct grain_htab *h;
	struct obj *o;
	_Atomic(int) park;   /* main -> reader: hold a section */
	_Atomic(int) parked; /* reader -> main: holding it */
	_Atomic(int) stop;
	unsigned long lookups, misses;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	const struct test_flavor *f = r->f;

	f->register_thread();
	while (!atomic_load(&r->stop)) {
		f->read_lock();
		for (uint64_t k = 0; k < KEPT; k++) {
			r->lookups++;
			if (grain_htab_lookup(r->h, &k) != &r->o[k].node)
				r->misses++;
		}
		if (atomic_load(&r->park)) {
			atomic_store(&r->parked, 1);
			while (atomic_load(&r->park))
				sleep_ms(1);
		}
		f->read_unlock();
		f->quiescent();
	}
	f->unregister_thread();
	return NULL;
}

static const struct test_flavor *const flavors[] = {
	&test_flavor_memb,
	&test_flavor_qsbr,
	&test_flavor_bp,
};

/* Parameters are indexes: the test may run in a fresh process, where
 * pointers from this one would mean nothing. */
static const unsigned flavor_index[] = { 0, 1, 2 };

TABLE_PARAMS(htab_flavors, reclaim, flavor_index);

ParameterizedTest(unsigned *fi, htab_flavors, reclaim, .timeout = 60)
{
	const struct test_flavor *f = flavors[*fi];
	static struct ledger l;
	static struct obj o[KEYS];
	static struct reader r;
	struct test_threads threads = { .n = 0 };

	ledger_init(&l);
	struct grain_htab_config c = ledger_config(&l, 0);
	c.flavor = f->flavor;
	c.buckets = 64; /* no resize: arrays stay put */
	f->register_thread();
	struct grain_htab *h = NULL;
	cr_assert_eq(grain_htab_create(&h, &c, NULL), 0);
	for (uint64_t k = 0; k < KEYS; k++) {
		obj_init(&o[k], k);
		cr_assert_eq(grain_htab_insert(h, &o[k].node, &k, 1, 1), 0);
	}
	memset(&r, 0, sizeof(r));
	r.f = f;
	r.h = h;
	r.o = o;
	atomic_store(&r.park, 1);
	test_spawn(&threads, reader_main, &r);
	while (!atomic_load(&r.parked))
		sleep_ms(1);

	for (uint64_t k = KEPT; k < KEYS; k++)
		cr_assert_eq(grain_htab_remove(h, &k, NULL), 0);
	sleep_ms(30);
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REMOVED]), 0ul,
		     "%s: reclaimed while a reader holds a section", f->name);

	atomic_store(&r.park, 0);
	f->offline(); /* qsbr: a waiting thread must not hold up grace periods */
	f->barrier();
	f->online();
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_REMOVED]),
		     (unsigned long)(KEYS - KEPT),
		     "%s: not all removed nodes reclaimed after rcu_barrier",
		     f->name);
	for (uint64_t k = KEPT; k < KEYS; k++) {
		cr_assert_eq(atomic_load(&o[k].reclaims), 1u);
		cr_assert_eq(o[k].node.state, 0u, "a reclaimed node is free");
	}

	atomic_store(&r.stop, 1);
	test_join_all(&threads);
	cr_assert_gt(r.lookups, 0ul);
	cr_assert_eq(r.misses, 0ul, "%s: %lu of %lu present keys missed",
		     f->name, r.misses, r.lookups);
	f->offline();
	grain_htab_destroy(h);
	f->online();
	cr_assert_eq(atomic_load(&l.reclaimed[GRAIN_HTAB_DESTROYED]),
		     (unsigned long)KEPT);
	f->unregister_thread();
}

#ifndef NDEBUG
#include <signal.h>

/* A debug build of libgrain catches the forgotten registration. */
Test(htab_flavors, unregistered_reader_aborts, .signal = SIGABRT)
{
	grain_rcu_read_lock();
	grain_rcu_read_unlock();
}
#endif
