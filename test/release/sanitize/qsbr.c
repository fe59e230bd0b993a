/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * qsbr.c - the liburcu qsbr flavour's own read side for qsbr_readers.c,
 * inline (_LGPL_SOURCE) as a daemon would use it. In a translation unit
 * of its own: liburcu's flavour headers map generic names (rcu_read_lock,
 * rcu_flavor, ...) that grain's headers need not see.
 */
#define _LGPL_SOURCE
#include "qsbr.h"

#include <urcu/urcu-qsbr.h>

const struct rcu_flavor_struct *qsbr_flavor(void)
{
	return &urcu_qsbr_flavor;
}

void qsbr_register(void)
{
	urcu_qsbr_register_thread();
}

void qsbr_unregister(void)
{
	urcu_qsbr_unregister_thread();
}

void qsbr_read_lock(void)
{
	urcu_qsbr_read_lock();
}

void qsbr_read_unlock(void)
{
	urcu_qsbr_read_unlock();
}

void qsbr_quiescent(void)
{
	urcu_qsbr_quiescent_state();
}

void qsbr_offline(void)
{
	urcu_qsbr_thread_offline();
}

void qsbr_online(void)
{
	urcu_qsbr_thread_online();
}

void qsbr_synchronize(void)
{
	urcu_qsbr_synchronize_rcu();
}

void qsbr_barrier(void)
{
	urcu_qsbr_barrier();
}
