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
 * The lock is not fair and not recursive.
 *
 * NULL (common.h, "Error convention"): grain_spin_trylock(NULL) returns false;
 * the other calls do nothing on NULL.
 *
 * C and C++. In C the calls are inline (impl/lock.h); in C++ they are
 * libgrain's exported copies of the same code (common.h, "Exported calls and
 * inline fast paths"), and the lock is a storage struct of the same size and
 * alignment as C's.
 */
#ifndef GRAIN_LOCK_H
#define GRAIN_LOCK_H

#include <grain/common.h>

#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One lock word. Put it on its own cache line if it is contended. It may
 * be embedded in any struct, in C and in C++; only the grain_spin_* calls
 * may touch it.
 *
 * In C the word is an _Atomic(unsigned). C++ cannot name that type, so it
 * sees a plain unsigned in its place: the same size, alignment and
 * all-zero unlocked state (impl/lock.h checks on the C side that the
 * atomic word is exactly an unsigned, lock-free), and never reads or
 * writes it itself.
 */
#ifdef __cplusplus
struct grain_spinlock {
	unsigned grain_impl_word; /* the C side's atomic word; do not touch */
};
static_assert(sizeof(grain_spinlock) == sizeof(unsigned) &&
		      alignof(grain_spinlock) == alignof(unsigned),
	      "struct grain_spinlock is one unsigned in C++, as in C");
#else
struct grain_spinlock {
	_Atomic(unsigned) locked; /**< 0: unlocked; only grain_spin_* touch it */
};
#endif

/** Static initialiser: unlocked. */
#define GRAIN_SPINLOCK_INIT \
	{                   \
		0           \
	}

/** grain_cpu_relax - tell the CPU this is a spin-wait loop. Any thread. */
GRAIN_INLINE_API void grain_cpu_relax(void);

/** grain_spin_init - make @p l unlocked. Not concurrent with any use of @p l. */
GRAIN_INLINE_API void grain_spin_init(struct grain_spinlock *l);

/**
 * grain_spin_trylock - take @p l if it is free.
 * @return true if taken (acquire ordering), false otherwise (no ordering).
 * Thread safety: any thread. Never blocks.
 */
GRAIN_NODISCARD GRAIN_INLINE_API bool
grain_spin_trylock(struct grain_spinlock *l);

/**
 * grain_spin_lock - take @p l, spinning (then yielding) until it is free.
 * Ordering: acquire. Thread safety: any thread; not recursive.
 */
GRAIN_INLINE_API void grain_spin_lock(struct grain_spinlock *l);

/**
 * grain_spin_unlock - release @p l, which the caller holds.
 * Ordering: release (R1). Thread safety: the holder only.
 */
GRAIN_INLINE_API void grain_spin_unlock(struct grain_spinlock *l);

#ifdef __cplusplus
}
#endif

#ifndef __cplusplus
#include <grain/impl/lock.h>
#endif

#endif /* GRAIN_LOCK_H */
