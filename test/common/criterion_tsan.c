/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * criterion_tsan.c - lets Criterion's runner start under ThreadSanitizer.
 * Linked into every test executable of a GRAIN_SANITIZE=thread build only.
 *
 * At start-up Criterion (through its BoxFort library) maps an arena that
 * it shares with its worker processes at an address drawn with rand_r():
 * 0x200000000000 plus (rand_r() & 0x3fffff) steps of 16 MiB, mapped with
 * MAP_FIXED. TSan accepts fixed mappings only inside application memory,
 * and almost all of that range is TSan's shadow, metadata or guard space,
 * so the runner aborts with "Could not initialize inheritable arena"
 * (Criterion issue #274).
 *
 * Symbol lookup finds the executable's rand_r() before the C library's,
 * from libcriterion too. This one answers calls made from libcriterion with
 * steps that place the arena in [0x566000000000, 0x568000000000): inside
 * the range TSan keeps for position-independent executables, in the x86-64
 * layouts of GCC 12's runtime and of LLVM's old and new ones, and clear of
 * where the kernel loads the executable itself. Criterion checks that a
 * candidate is unmapped and draws again if it is not. Every other caller
 * gets the C library's rand_r().
 */
#define _GNU_SOURCE /* dladdr(), RTLD_DEFAULT, RTLD_NEXT */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

int rand_r(unsigned int *seed);

#if defined(__x86_64__)
#define ARENA_FIRST_STEP 0x366000u /* 0x200000000000 + step * 16 MiB */
#define ARENA_STEPS 0x2000u	   /* 0x566000000000 to 0x568000000000 */
#endif

typedef int rand_r_fn(unsigned int *seed);

/* The same recurrence as the example in POSIX: used only if the C
 * library's rand_r() cannot be found. */
static int lcg_rand_r(unsigned int *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (int)((*seed / 65536u) % 32768u);
}

static rand_r_fn *libc_rand_r(void)
{
	static _Atomic(rand_r_fn *) cached;
	rand_r_fn *fn = atomic_load_explicit(&cached, memory_order_relaxed);

	if (fn == NULL) {
		void *sym = dlsym(RTLD_NEXT, "rand_r");

		/* ISO C has no cast from void * to a function pointer. */
		if (sym != NULL)
			memcpy(&fn, &sym, sizeof(fn));
		else
			fn = lcg_rand_r;
		atomic_store_explicit(&cached, fn, memory_order_relaxed);
	}
	return fn;
}

#if defined(ARENA_FIRST_STEP)
/* Whether @caller lies in libcriterion. */
static int from_criterion(const void *caller)
{
	static _Atomic(const void *) criterion_base;
	const void *base =
		atomic_load_explicit(&criterion_base, memory_order_relaxed);
	Dl_info info;

	if (base == NULL) {
		void *sym = dlsym(RTLD_DEFAULT, "criterion_initialize");

		if (sym == NULL || dladdr(sym, &info) == 0)
			return 0;
		base = info.dli_fbase;
		atomic_store_explicit(&criterion_base, base,
				      memory_order_relaxed);
	}
	return dladdr(caller, &info) != 0 && info.dli_fbase == base;
}
#endif

int rand_r(unsigned int *seed)
{
#if defined(ARENA_FIRST_STEP)
	if (from_criterion(__builtin_return_address(0))) {
		unsigned int r = (unsigned int)lcg_rand_r(seed);

		return (int)(ARENA_FIRST_STEP + r % ARENA_STEPS);
	}
#endif
	return libc_rand_r()(seed);
}
