/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file grain.h
 * @brief Umbrella header: every grain block. C11 only (the blocks use
 *        <stdatomic.h>); C++ code should use the C adapters it links to.
 */
#ifndef GRAIN_GRAIN_H
#define GRAIN_GRAIN_H

#include <grain/common.h>
#include <grain/hash.h>
#include <grain/htab.h>
#include <grain/lock.h>
#include <grain/prio.h>
#include <grain/ring.h>

#endif /* GRAIN_GRAIN_H */
