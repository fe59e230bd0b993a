/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file lock.h
 * @brief grain_spinlock: the test-and-test-and-set spinlock the blocks use.
 *
 * Contents: struct grain_spinlock, grain_spin_init(), grain_spin_lock(),
 * grain_spin_trylock(), grain_spin_unlock(), grain_cpu_relax().
 *
 * Synchronization
 * | call               | may run concurrently with      | ordering        |
 * |--------------------|--------------------------------|-----------------|
 * | grain_spin_lock    | every call on the same lock    | acquire (A1)    |
 * | grain_spin_trylock | every call on the same lock    | acquire on 1    |
 * | grain_spin_unlock  | lock/trylock by other threads  | release (R1)    |
 * | grain_spin_init    | nothing on the same lock       | none            |
 *
 * Waiters spin on a plain load (no bus-locked operation while the lock is
 * held) with an exponential pause backoff, and yield the CPU after a long
 * spin so that a preempted holder can run on an oversubscribed machine.
 * The lock is not fair and not recursive. Needs C11 atomics: C only.
 */
#ifndef GRAIN_LOCK_H
#define GRAIN_LOCK_H

#include <grain/common.h>

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

/** One lock word. Put it on its own cache line if it is contended. */
struct grain_spinlock {
	_Atomic(unsigned) locked;
};

#define GRAIN_SPINLOCK_INIT { 0 }

/** grain_cpu_relax - tell the CPU this is a spin-wait loop. Any thread. */
static inline void grain_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

/** grain_spin_init - make @p l unlocked. Not concurrent with any use of @p l. */
static inline void grain_spin_init(struct grain_spinlock *l)
{
	atomic_init(&l->locked, 0u);
}

/**
 * grain_spin_trylock - take @p l if it is free.
 * @return true if taken (acquire ordering), false otherwise (no ordering).
 * Thread safety: any thread. Never blocks.
 */
GRAIN_NODISCARD static inline bool grain_spin_trylock(struct grain_spinlock *l)
{
	/* A1: pairs with R1 in grain_spin_unlock(); the last holder's writes
	 * are visible. */
	return atomic_load_explicit(&l->locked, memory_order_relaxed) == 0u &&
	       atomic_exchange_explicit(&l->locked, 1u,
					memory_order_acquire) == 0u;
}

/**
 * grain_spin_lock - take @p l, spinning (then yielding) until it is free.
 * Ordering: acquire. Thread safety: any thread; not recursive.
 */
static inline void grain_spin_lock(struct grain_spinlock *l)
{
	unsigned spins = 0;

	while (!grain_spin_trylock(l)) {
		do {
			if (spins < 64) {
				for (unsigned i = 0; i <= spins; i++)
					grain_cpu_relax();
				spins = spins * 2 + 1;
			} else {
				/* The holder is probably preempted: give it
				 * the CPU instead of burning our slice. */
				sched_yield();
			}
		} while (atomic_load_explicit(&l->locked,
					      memory_order_relaxed) != 0u);
	}
}

/**
 * grain_spin_unlock - release @p l, which the caller holds.
 * Ordering: release (R1). Thread safety: the holder only.
 */
static inline void grain_spin_unlock(struct grain_spinlock *l)
{
	/* R1: pairs with A1; our critical section happens-before the next. */
	atomic_store_explicit(&l->locked, 0u, memory_order_release);
}

#endif /* GRAIN_LOCK_H */
