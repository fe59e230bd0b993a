/* SPDX-License-Identifier: BSD-2-Clause */
/* qsbr.c - the liburcu qsbr flavour for test_htab_flavors.c (see flavor.h). */
#define _LGPL_SOURCE /* the read side inline, as a daemon would use it */
#include "flavor.h"

#include <urcu/urcu-qsbr.h>

static void reg(void)
{
	urcu_qsbr_register_thread();
}
static void unreg(void)
{
	urcu_qsbr_unregister_thread();
}
static void lock(void)
{
	urcu_qsbr_read_lock();
}
static void unlock(void)
{
	urcu_qsbr_read_unlock();
}
static void barrier(void)
{
	urcu_qsbr_barrier();
}
static void quiescent(void)
{
	urcu_qsbr_quiescent_state();
}
static void offline(void)
{
	urcu_qsbr_thread_offline();
}
static void online(void)
{
	urcu_qsbr_thread_online();
}

const struct test_flavor test_flavor_qsbr = {
	"qsbr", &urcu_qsbr_flavor, reg,	    unreg,  lock,
	unlock, quiescent,	   offline, online, barrier,
};
