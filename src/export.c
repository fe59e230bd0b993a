/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * export.c - libgrain's out-of-line copies of the headers' inline calls.
 *
 * Design. In C the fast paths are `static inline` in the headers and are
 * compiled into the caller. C++ cannot compile their bodies (C11 atomics),
 * and bindings from other languages cannot use inline code at all, so
 * libgrain also exports every inline call as an ordinary function: with
 * GRAIN_IMPL_EXPORT defined before the first grain header, GRAIN_INLINE_API
 * and GRAIN_INLINE_ANY (common.h, "Exported calls and inline fast paths")
 * expand to an exported external definition, and including the headers here
 * defines each call once more from the same body. Nothing else may be defined
 * in this file, and no other file may define GRAIN_IMPL_EXPORT. htab.h's calls
 * are exported by libgrain-htab, from src/export_htab.c.
 */
#define GRAIN_IMPL_EXPORT 1

#include <grain/common.h>
#include <grain/hash.h>
#include <grain/lock.h>
#include <grain/prio.h>
#include <grain/ring.h>
#include <grain/ring_elem.h>
