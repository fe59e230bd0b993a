/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab_replace.c - grain_htab_replace_locked(): one node in another's
 * place, for lock-free readers in one store (the swap itself is inline,
 * grain_impl_htab_swap_at() in include/grain/impl/htab.h, shared with the
 * one-call form).
 */
#include "htab_internal.h"

int grain_htab_replace_locked(struct grain_htab_scope *s,
			      struct grain_hnode *old, struct grain_hnode *node,
			      uint64_t now, size_t charge)
{
	if (s == NULL || s->stripe == NULL || old == NULL || node == NULL ||
	    node->state != GRAIN_IMPL_HNODE_FREE || charge > UINT32_MAX)
		return -EINVAL;
	if (old->state != GRAIN_IMPL_HNODE_LINKED)
		return -ENOENT;
	if (&s->h->stripes[grain_impl_htab_stripe_index(s->h, old->hash)] !=
	    s->stripe)
		return -EINVAL;
	unsigned i = 0;
	struct grain_impl_htab_bucket *b = grain_impl_htab_slot_of(
		grain_impl_htab_array_locked(s->stripe), old, &i);
	if (b == NULL)
		return -ENOENT; /* linked in another table */
	grain_impl_htab_swap_at(s, b, i, old, node, now, charge);
	return 0;
}
