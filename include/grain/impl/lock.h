/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/lock.h - the inline bodies of grain_spinlock's calls (C only).
 * Never include this file directly: include <grain/lock.h>.
 *
 * Labels: A1 (the acquiring exchange) pairs with R1 (the releasing store).
 */
#ifndef GRAIN_IMPL_LOCK_H
#define GRAIN_IMPL_LOCK_H

#ifndef GRAIN_LOCK_H
#error "include <grain/lock.h> instead of <grain/impl/lock.h>"
#endif

#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>

/* C++ sees the lock as one unsigned (lock.h): the atomic word must be
 * exactly that, with no lock of its own inside. */
_Static_assert(sizeof(struct grain_spinlock) == sizeof(unsigned) &&
		       alignof(struct grain_spinlock) == alignof(unsigned),
	       "struct grain_spinlock has the size and alignment of unsigned");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the lock word is lock-free");

GRAIN_INLINE_API void grain_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

GRAIN_INLINE_API void grain_spin_init(struct grain_spinlock *l)
{
	if (GRAIN_LIKELY(l != NULL))
		atomic_init(&l->locked, 0u);
}

GRAIN_INLINE_API bool grain_spin_trylock(struct grain_spinlock *l)
{
	/* A1: pairs with R1 in grain_impl_spin_release(); the last holder's
	 * writes are visible. */
	return GRAIN_LIKELY(l != NULL) &&
	       atomic_load_explicit(&l->locked, memory_order_relaxed) == 0u &&
	       atomic_exchange_explicit(&l->locked, 1u, memory_order_acquire) ==
		       0u;
}

/* The contended half of taking @l: spin on plain loads, with a backoff
 * that ends in sched_yield(), until the word reads free, then exchange
 * again (test-and-test-and-set: the waiters share the line read-only
 * while it is held). */
static inline GRAIN_COLD void
grain_impl_spin_contended(struct grain_spinlock *l)
{
	unsigned spins = 0;

	do {
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
		/* A1, as below. */
	} while (atomic_exchange_explicit(&l->locked, 1u,
					  memory_order_acquire) != 0u);
}

/* Take @l, which is not NULL (the library's own locks): one exchange
 * when the lock is free, the common case; the contended half otherwise. */
static GRAIN_ALWAYS_INLINE void
grain_impl_spin_acquire(struct grain_spinlock *l)
{
	/* A1: pairs with R1 in grain_impl_spin_release(); the last holder's
	 * writes are visible. */
	if (GRAIN_LIKELY(atomic_exchange_explicit(&l->locked, 1u,
						  memory_order_acquire) == 0u))
		return;
	grain_impl_spin_contended(l);
}

static GRAIN_ALWAYS_INLINE void
grain_impl_spin_release(struct grain_spinlock *l)
{
	/* R1: pairs with A1; our critical section happens-before the next. */
	atomic_store_explicit(&l->locked, 0u, memory_order_release);
}

GRAIN_INLINE_API void grain_spin_lock(struct grain_spinlock *l)
{
	if (GRAIN_UNLIKELY(l == NULL))
		return;
	grain_impl_spin_acquire(l);
}

GRAIN_INLINE_API void grain_spin_unlock(struct grain_spinlock *l)
{
	if (GRAIN_UNLIKELY(l == NULL))
		return;
	grain_impl_spin_release(l);
}

#endif /* GRAIN_IMPL_LOCK_H */
