/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * layout.h - the layout of the types C and C++ programs share by value
 * (README.md, "C++"): struct grain_hnode, embedded in the user's objects,
 * struct grain_htab_scope, on the caller's stack, and struct
 * grain_spinlock, embedded too. layout.c gives C's view of each fact,
 * test_cxx_threads.cc compares it with C++'s.
 */
#ifndef GRAIN_TEST_CXX_LAYOUT_H
#define GRAIN_TEST_CXX_LAYOUT_H

#include <grain/grain.h>

#include <stddef.h>

/* X(expression): each a size, an alignment or an offset. */
#define GRAIN_TEST_LAYOUT(X)                          \
	X(sizeof(struct grain_hnode))                 \
	X(alignof(struct grain_hnode))                \
	X(offsetof(struct grain_hnode, prev))         \
	X(offsetof(struct grain_hnode, next))         \
	X(offsetof(struct grain_hnode, hash))         \
	X(offsetof(struct grain_hnode, stamp))        \
	X(offsetof(struct grain_hnode, charge))       \
	X(offsetof(struct grain_hnode, state))        \
	X(sizeof(struct grain_htab_scope))            \
	X(alignof(struct grain_htab_scope))           \
	X(offsetof(struct grain_htab_scope, h))       \
	X(offsetof(struct grain_htab_scope, stripe))  \
	X(offsetof(struct grain_htab_scope, hash))    \
	X(offsetof(struct grain_htab_scope, now))     \
	X(offsetof(struct grain_htab_scope, retired)) \
	X(offsetof(struct grain_htab_scope, todo))    \
	X(sizeof(struct grain_spinlock))              \
	X(alignof(struct grain_spinlock))

#ifdef __cplusplus
extern "C" {
#endif
/* C's view: writes the facts of GRAIN_TEST_LAYOUT, in order, to out[0..n)
 * and @return how many there are. */
size_t grain_test_layout_c(size_t *out, size_t n);
#ifdef __cplusplus
}
#endif

#endif
