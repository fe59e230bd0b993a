/* SPDX-License-Identifier: BSD-2-Clause */
/* memb.c - the liburcu memb flavour for test_htab_flavors.c (see flavor.h). */
#define _LGPL_SOURCE /* the read side inline, as a daemon would use it */
#include "flavor.h"

#include <urcu/urcu-memb.h>

static void reg(void)
{
	urcu_memb_register_thread();
}
static void unreg(void)
{
	urcu_memb_unregister_thread();
}
static void lock(void)
{
	urcu_memb_read_lock();
}
static void unlock(void)
{
	urcu_memb_read_unlock();
}
static void barrier(void)
{
	urcu_memb_barrier();
}
static void nothing(void)
{
}

const struct test_flavor test_flavor_memb = {
	"memb", &urcu_memb_flavor, reg,	    unreg,   lock,
	unlock, nothing,	   nothing, nothing, barrier,
};
