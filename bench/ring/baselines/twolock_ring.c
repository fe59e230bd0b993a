/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * twolock_ring.c - the two-lock baseline ring, ptr_ring style (baselines.h,
 * twolock_body.h), its two locks grain_spinlock: a waiter spins on plain
 * loads with a growing pause, then calls sched_yield() between looks, so
 * a waiter whose lock holder was preempted gives the holder its CPU.
 */
#include <grain/lock.h>

#define TL_RING bench_twolock_ring
#define TL_LOCK_T struct grain_spinlock
#define TL_LOCK_INIT(l) grain_spin_init(l)
#define TL_LOCK(l) grain_spin_lock(l)
#define TL_UNLOCK(l) grain_spin_unlock(l)
#define TL_LOCK_DESTROY(l) ((void)(l))

#include "twolock_body.h"
