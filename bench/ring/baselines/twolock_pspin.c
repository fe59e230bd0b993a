/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * twolock_pspin.c - the two-lock baseline ring, ptr_ring style (baselines.h,
 * twolock_body.h), its two locks pthread spinlocks: glibc's
 * pthread_spin_lock() spins on loads until the lock is free and never gives
 * up the CPU, so a waiter whose lock holder was preempted spins through
 * its own time slice. This is the lock a user space port of ptr_ring most
 * likely takes; in the kernel, a holder of ptr_ring's spinlock cannot be
 * preempted at all.
 */
#define _GNU_SOURCE /* pthread spinlocks under -std=c11 */
#include <pthread.h>

#define TL_RING bench_twolock_pspin_ring
#define TL_LOCK_T pthread_spinlock_t
#define TL_LOCK_INIT(l) (void)pthread_spin_init(l, PTHREAD_PROCESS_PRIVATE)
#define TL_LOCK(l) (void)pthread_spin_lock(l)
#define TL_UNLOCK(l) (void)pthread_spin_unlock(l)
#define TL_LOCK_DESTROY(l) (void)pthread_spin_destroy(l)

#include "twolock_body.h"
