/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file grain.h
 * @brief Umbrella header: every grain block. C11 and C++.
 *
 * In C++ the blocks' inline calls are calls into libgrain (common.h,
 * section 3). grain_htab is not yet declared for C++: from C++ this header
 * leaves <grain/htab.h> out. Its C++ support will follow the same scheme
 * as the other blocks (GRAIN_INLINE_API declarations, the layout and the
 * inline bodies in a C-only impl/ header, exported copies in
 * src/export.c).
 */
#ifndef GRAIN_GRAIN_H
#define GRAIN_GRAIN_H

#include <grain/common.h>
#include <grain/hash.h>
#include <grain/lock.h>
#include <grain/prio.h>
#include <grain/ring.h>
#ifndef __cplusplus
#include <grain/htab.h>
#endif

#endif /* GRAIN_GRAIN_H */
