/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * urcu_stub.c - what libgrain-htab takes from liburcu-memb, for
 * test/release/cross/htab_norcu.c on a 32-bit target where no liburcu library
 * is installed: a GRAIN_HTAB_NO_RCU table calls none of it, so each function
 * aborts, and the flavour's table holds no function at all.
 */
#include <urcu/urcu-memb.h>

#include <stdio.h>
#include <stdlib.h>

static void stub_called(const char *name)
{
	fprintf(stderr, "urcu_stub: %s called by a NO_RCU table\n", name);
	abort();
}

const struct rcu_flavor_struct urcu_memb_flavor;

void urcu_memb_read_lock(void)
{
	stub_called("urcu_memb_read_lock");
}

void urcu_memb_read_unlock(void)
{
	stub_called("urcu_memb_read_unlock");
}

void urcu_memb_register_thread(void)
{
	stub_called("urcu_memb_register_thread");
}

void urcu_memb_unregister_thread(void)
{
	stub_called("urcu_memb_unregister_thread");
}

void urcu_memb_barrier(void)
{
	stub_called("urcu_memb_barrier");
}
