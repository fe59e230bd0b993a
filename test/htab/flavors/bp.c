/* SPDX-License-Identifier: BSD-2-Clause */
/* bp.c - the liburcu bp flavour for test_htab_flavors.c (see flavor.h). */
/* The library's read side, not the inline one: liburcu 0.13's inline bp
 * read side reads its 128-byte aligned reader struct at an address that
 * is not (UBSan: misaligned member access in urcu/static/urcu-bp.h). */
#include "flavor.h"

#include <urcu/urcu-bp.h>

static void reg(void)
{
	urcu_bp_register_thread();
}
static void unreg(void)
{
	urcu_bp_unregister_thread();
}
static void lock(void)
{
	urcu_bp_read_lock();
}
static void unlock(void)
{
	urcu_bp_read_unlock();
}
static void barrier(void)
{
	urcu_bp_barrier();
}
static void nothing(void)
{
}

const struct test_flavor test_flavor_bp = {
	"bp",	&urcu_bp_flavor, reg,	  unreg,   lock,
	unlock, nothing,	 nothing, nothing, barrier,
};
