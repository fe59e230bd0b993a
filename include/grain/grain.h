/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file grain.h
 * @brief Umbrella header: every grain block. C11 and C++.
 *
 * In C++ the blocks' inline calls are calls into libgrain (common.h,
 * "Exported calls and inline fast paths").
 */
#ifndef GRAIN_GRAIN_H
#define GRAIN_GRAIN_H

#include <grain/common.h>
#include <grain/hash.h>
#include <grain/lock.h>
#include <grain/prio.h>
#include <grain/ring.h>
#include <grain/ring_elem.h>
#include <grain/htab.h>

#endif /* GRAIN_GRAIN_H */
