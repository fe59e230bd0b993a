/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file common.h
 * @brief Shared definitions for every grain block: error convention,
 *        allocation hooks, cache-line size, attributes and container_of.
 *
 * Contents
 *   - Error convention, NULL arguments, verbs
 *   - Attributes and GRAIN_CACHELINE
 *   - Exported calls and inline fast paths: GRAIN_API, GRAIN_INLINE_API
 *   - grain_container_of()
 *   - Allocation hooks (struct grain_alloc)
 *   - Version: GRAIN_VERSION_*, grain_version()
 *
 * Thread safety: everything here is either a macro or a function that only
 * touches its arguments; all of it may be called from any thread.
 *
 * This header compiles as C11 and as C++ (it uses no C11 atomics).
 */
#ifndef GRAIN_COMMON_H
#define GRAIN_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Error convention
 *
 * Every grain call that can fail returns an int: 0 (or a non-negative
 * count, where the call says so) on success, or a negative errno value:
 *   -EAGAIN     full or empty, try again later
 *   -EINVAL     an argument is out of range or NULL where it may not be
 *   -ENOMEM     an allocation failed; nothing was changed
 *   -ENOENT     no such entry
 *   -EEXIST     the entry is already present
 *   -ENOSPC     refused by a memory limit
 *   -EMLINK     refused by a length limit (grain_htab: a chain is full)
 *   -ETIMEDOUT  a _wait call ran out of time
 *   -EBUSY      a zero-copy reservation is already open (grain_ring)
 *   -ENOTSUP    the object's mode does not offer the call (grain_ring)
 *   -EIO        the kernel failed a request (grain_hash_key_random())
 *   -EPIPE      the queue is closed: no enqueue is taken any more, and a
 *               dequeue finds nothing left for it (grain_ring_close(),
 *               grain_ring_elem_close(), grain_prio_close())
 * Each call's documentation lists every value it can return. No grain
 * call sets errno. Every such call is GRAIN_NODISCARD ("Attributes"), but
 * grain_prio_stats(), a read that writes nothing when it fails.
 *
 * NULL. Every call checks its pointer arguments, the inline fast paths
 * included (one predictable branch): a NULL object, or NULL where the call
 * needs a pointer, never crashes. A call that returns int returns -EINVAL;
 * a query reads NULL as an empty object of capacity 0 (counts, capacities
 * and band counts are 0, grain_ring_empty() and grain_ring_full() are both
 * true, a bool "taken" result is false); a call that returns nothing does
 * nothing. Pointers that a call documents as optional (an output such as
 * @c bandp) may be NULL and are then left alone. Only pointers are checked:
 * a dangling pointer, or one to memory that is not an initialised object,
 * is undefined behaviour, as everywhere in C.
 *
 * Verbs. An operation that would have to wait for another thread (for
 * room, for an object, for a lock) is named try_ when it never waits: it
 * fails at once (-EAGAIN, a short count, false) instead. Its waiting form
 * drops the try_ and ends in _wait (sleeps, with a timeout) or, for the
 * spinlock, is the bare verb (spins). Calls that never have to wait for
 * anyone (queries, lifecycle, helpers) carry neither.
 */

/* Attributes */
/** The cache-line size, in bytes, that grain aligns and pads to. */
#define GRAIN_CACHELINE 64

#if defined(__GNUC__) || defined(__clang__)
/** The result of the call must be used (warn_unused_result). */
#define GRAIN_NODISCARD __attribute__((warn_unused_result))
/** Branch hint: @p x is usually true. */
#define GRAIN_LIKELY(x) __builtin_expect(!!(x), 1)
/** Branch hint: @p x is usually false. */
#define GRAIN_UNLIKELY(x) __builtin_expect(!!(x), 0)
/** Inline this function into every caller. */
#define GRAIN_ALWAYS_INLINE inline __attribute__((always_inline))
/** A rarely run function (error paths): kept out of the hot code. */
#define GRAIN_COLD __attribute__((cold))
/** The compiler may take @p x as true (it must be): no code is made. */
#define GRAIN_ASSUME(x)                          \
	do {                                     \
		if (!(x))                        \
			__builtin_unreachable(); \
	} while (0)
#else
#define GRAIN_NODISCARD
#define GRAIN_LIKELY(x) (x)
#define GRAIN_UNLIKELY(x) (x)
#define GRAIN_ALWAYS_INLINE inline
#define GRAIN_COLD
#define GRAIN_ASSUME(x) ((void)0)
#endif

/* Built with ThreadSanitizer? Blocks then replace fences, which TSan does
 * not model, by read-modify-writes that give the same guarantee. */
#if defined(__SANITIZE_THREAD__)
#define GRAIN_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GRAIN_TSAN 1
#endif
#endif
#ifndef GRAIN_TSAN
/** 1 when compiled with ThreadSanitizer, else 0. */
#define GRAIN_TSAN 0
#endif

/**
 * GRAIN_DEPRECATED(msg) - the call still works but has a new name; using
 * it warns with @p msg. Put it first in the declaration. C++14 and later
 * get the standard attribute; C11 (which has none) and older C++ the GNU
 * one, where the compiler has it.
 */
#if defined(__cplusplus) && __cplusplus >= 201402L
#define GRAIN_DEPRECATED(msg) [[deprecated(msg)]]
#elif defined(__GNUC__) || defined(__clang__)
#define GRAIN_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define GRAIN_DEPRECATED(msg)
#endif

/*
 * Exported calls and inline fast paths
 *
 * libgrain is built with hidden visibility: it exports only what is marked
 * GRAIN_API, and cmake/libgrain.map (a linker version script) lists the
 * same names under one version node.
 *
 * GRAIN_INLINE_API declares and defines the calls whose bodies are in the
 * headers. In C (the default) they are `static inline`: the body is
 * compiled into the caller and no call is made. Their bodies use C11
 * atomics, which C++ cannot compile, so in C++ the headers declare the same
 * calls as ordinary extern "C" functions, and the call goes to the
 * out-of-line copy that libgrain exports: src/export.c includes the headers
 * with GRAIN_IMPL_EXPORT defined, which turns each inline definition into
 * an external one. The bodies are written once, in C.
 *
 * GRAIN_INLINE_ANY is for the few bodies that are valid C and C++ alike
 * (no atomics, no private layout): inline in both languages, and exported
 * from libgrain as well, for callers that cannot compile C (bindings from
 * other languages).
 */
#if defined(__GNUC__) || defined(__clang__)
/** Marks a call or object that libgrain exports (default visibility). */
#define GRAIN_API __attribute__((visibility("default")))
#else
#define GRAIN_API
#endif

#if defined(__cplusplus) || defined(GRAIN_IMPL_EXPORT)
#define GRAIN_INLINE_API GRAIN_API
#else
/** A fast path: static inline in C, an exported call from C++. */
#define GRAIN_INLINE_API static inline
#endif

#if defined(GRAIN_IMPL_EXPORT)
#define GRAIN_INLINE_ANY GRAIN_API
#else
/** A body valid in C and C++: static inline in both, also exported. */
#define GRAIN_INLINE_ANY static inline
#endif

/* For the GRAIN_INLINE_ANY bodies, so that they compile cleanly in a C++
 * program built with -Wold-style-cast and -Wzero-as-null-pointer-constant:
 * the null pointer and a value conversion, each in its own language. */
/** @cond */
#ifdef __cplusplus
#define GRAIN_IMPL_NULL nullptr
#define GRAIN_IMPL_CAST(type, expr) static_cast<type>(expr)
#else
#define GRAIN_IMPL_NULL NULL
#define GRAIN_IMPL_CAST(type, expr) ((type)(expr))
#endif
/** @endcond */

/**
 * grain_container_of - the object that embeds @p member at @p ptr.
 */
/* clang-format would read "(ptr) -" as a cast of "-offsetof". */
/* clang-format off */
#define grain_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
/* clang-format on */

/**
 * Allocation hooks.
 *
 * Every grain object that allocates memory does so through one of these,
 * given at creation and kept until destruction. A NULL hook pointer means
 * the default (aligned_alloc() and free()).
 *
 * @c alloc must return memory aligned to @p align (a power of two, at most
 * 4096) or NULL; @c free receives the same size and alignment that the
 * matching @c alloc was given. Both may be called from any thread that
 * creates or destroys an object; they need to be thread-safe only if the
 * user creates objects concurrently.
 */
struct grain_alloc {
	/** Returns @p size bytes aligned to @p align, or NULL. */
	void *(*alloc)(size_t size, size_t align, void *state);
	/** Frees what alloc returned, given the same size and alignment. */
	void (*free)(void *ptr, size_t size, size_t align, void *state);
	void *state; /**< passed to both hooks as they were given it */
};

/**
 * grain_mem_alloc - allocate through @p a (NULL: the default hooks).
 * @return the memory, or NULL if the hook failed or @p size rounded up to
 *         @p align overflows.
 * Thread safety: as the hook; the default hooks are thread-safe.
 */
GRAIN_API GRAIN_NODISCARD void *grain_mem_alloc(const struct grain_alloc *a,
						size_t size, size_t align);

/**
 * grain_mem_free - release memory from grain_mem_alloc() with the same
 * @p a, @p size and @p align. NULL @p ptr does nothing.
 * Thread safety: as the hook; the default hooks are thread-safe.
 */
GRAIN_API void grain_mem_free(const struct grain_alloc *a, void *ptr,
			      size_t size, size_t align);

/*
 * Version
 *
 * The version of the headers, as the CMake project states it (the
 * configure step checks that the two agree). While the major version is 0,
 * a new minor version may change the ABI; see README.md, "Versions and
 * ABI".
 */
#define GRAIN_VERSION_MAJOR 0	     /**< major version of the headers */
#define GRAIN_VERSION_MINOR 6	     /**< minor version of the headers */
#define GRAIN_VERSION_PATCH 0	     /**< patch version of the headers */
#define GRAIN_VERSION_STRING "0.6.0" /**< "MAJOR.MINOR.PATCH" */

/**
 * grain_version - the version of the libgrain that is running, as
 * "MAJOR.MINOR.PATCH" (for example "0.6.0"): the GRAIN_VERSION_STRING the
 * library was built with, which may differ from the headers a program was
 * compiled with. A static string; never NULL. Any thread.
 */
GRAIN_API const char *grain_version(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_COMMON_H */
