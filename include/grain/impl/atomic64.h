/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * impl/atomic64.h - the 64-bit atomic field types of the inline layouts
 * (C only). Never include this file directly: the impl/ headers do.
 *
 * On i386 the alignment of an _Atomic 64-bit struct field changed in GCC
 * 11.1 (from 4 to 8; Clang has always used 8), so a struct that holds one
 * would be laid out by the compiler's version, and GCC says so with a
 * -Wpsabi note in every file that includes it. These types state the
 * alignment (8), so every compiler lays the fields out alike; the impl/
 * headers assert the offsets that depend on it.
 */
#ifndef GRAIN_IMPL_ATOMIC64_H
#define GRAIN_IMPL_ATOMIC64_H

#include <stdatomic.h>
#include <stdint.h>

/** @cond */
#if defined(__GNUC__) || defined(__clang__)
typedef _Atomic(uint64_t) grain_impl_atomic_u64 __attribute__((aligned(8)));
typedef _Atomic(int64_t) grain_impl_atomic_i64 __attribute__((aligned(8)));
#else
typedef _Atomic(uint64_t) grain_impl_atomic_u64;
typedef _Atomic(int64_t) grain_impl_atomic_i64;
#endif
/** @endcond */

_Static_assert(_Alignof(grain_impl_atomic_u64) == 8 &&
		       _Alignof(grain_impl_atomic_i64) == 8,
	       "64-bit atomics are 8-aligned on every target");

#endif /* GRAIN_IMPL_ATOMIC64_H */
