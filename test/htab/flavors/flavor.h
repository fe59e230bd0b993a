/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flavor.h - one liburcu flavour behind plain function pointers, so that
 * one test can drive memb, qsbr and bp tables (each flavour's header maps
 * the same names, so each lives in its own translation unit).
 */
#ifndef GRAIN_TEST_FLAVOR_H
#define GRAIN_TEST_FLAVOR_H

#include <stdbool.h>

struct rcu_flavor_struct;

struct test_flavor {
	const char *name;
	const struct rcu_flavor_struct *flavor; /* for grain_htab_config */
	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*read_lock)(void);
	void (*read_unlock)(void);
	/* qsbr: a reader's quiescent state between sections; others: no-op */
	void (*quiescent)(void);
	/* qsbr: a thread that waits must be offline meanwhile */
	void (*offline)(void);
	void (*online)(void);
	void (*barrier)(void);
};

extern const struct test_flavor test_flavor_memb;
extern const struct test_flavor test_flavor_qsbr;
extern const struct test_flavor test_flavor_bp;
/* The memb flavour through grain_rcu_* (grain.c). */
extern const struct test_flavor test_flavor_grain;

#endif /* GRAIN_TEST_FLAVOR_H */
