/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * export_htab.c - libgrain-htab's out-of-line copies of htab.h's inline
 * calls, as src/export.c makes libgrain's (see there for the design).
 *
 * The core headers that htab.h includes come first, as any caller sees
 * them (their inline calls stay static inline: libgrain exports those);
 * then GRAIN_INLINE_API and GRAIN_INLINE_ANY are turned into exported
 * definitions, as GRAIN_IMPL_EXPORT would make them, for htab.h alone. So
 * a program or test that links both libraries' objects together defines
 * each call once. Nothing else may be defined in this file.
 */
#include <grain/common.h>
#include <grain/hash.h>
#include <grain/lock.h>

#undef GRAIN_INLINE_API
#define GRAIN_INLINE_API GRAIN_API
#undef GRAIN_INLINE_ANY
#define GRAIN_INLINE_ANY GRAIN_API

#include <grain/htab.h>
