/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain.c - the memb flavour through libgrain's grain_rcu_* calls, whose
 * grace periods ThreadSanitizer is told of (src/htab.c): the flavours' own
 * inline read sides are not, so under it only this one may free bucket
 * arrays (run a resizer) while readers hold them.
 */
#include <grain/htab.h>

#include "flavor.h"

static void no_op(void)
{
}

const struct test_flavor test_flavor_grain = {
	"grain_rcu",
	NULL, /* the default: memb */
	grain_rcu_register_thread,
	grain_rcu_unregister_thread,
	grain_rcu_read_lock,
	grain_rcu_read_unlock,
	no_op,
	no_op,
	no_op,
	grain_rcu_barrier,
};
