/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * grain_adapter.c - grain_prio in the qdisc shape: three bands, one
 * consumer (GRAIN_PRIO_SC), strict priority, the default (pfifo_fast)
 * priomap; PRIO_GRAIN_BITS the same on PRIO_BITS_BANDS bands, which keeps
 * the non-empty bits (the stream still uses bands 0..2). put:
 * grain_prio_try_enqueue_prio() (the band from the queue's own priomap,
 * not the item's); single: grain_prio_try_dequeue(), which also reports
 * the band; burst: grain_prio_try_dequeue_burst().
 */
#include "harness.h"

#include <grain/prio.h>

_Static_assert(PRIO_BANDS <= GRAIN_PRIO_SCAN_BANDS, "PRIO_GRAIN: scanned");
_Static_assert(PRIO_BITS_BANDS > GRAIN_PRIO_SCAN_BANDS,
	       "PRIO_GRAIN_BITS: the bits");

static int prio_grain_create(void **queuep, enum prio_impl impl,
			     const struct prio_config *cfg)
{
	struct grain_prio_config pc = {
		.bands = impl == PRIO_GRAIN_BITS ? PRIO_BITS_BANDS : PRIO_BANDS,
		.flags = GRAIN_PRIO_SC,
		.capacity = cfg->band_limit,
		.priomap = NULL, /* pfifo_fast's map */
	};
	struct grain_prio *p;
	int rc = grain_prio_create(&p, &pc, NULL);

	if (rc == 0)
		*queuep = p;
	return rc;
}

static void prio_grain_destroy(void *queue)
{
	grain_prio_destroy(queue);
}

static int prio_grain_put(void *q, struct prio_item *item)
{
	return grain_prio_try_enqueue_prio(q, item->prio, item);
}

static unsigned prio_grain_get_single(void *q, struct prio_item **items,
				      unsigned n, unsigned *bandp)
{
	void *obj;

	(void)n;
	if (grain_prio_try_dequeue(q, &obj, bandp) != 0)
		return 0;
	items[0] = obj;
	return 1;
}

static unsigned prio_grain_get_burst(void *q, struct prio_item **items,
				     unsigned n, unsigned *bandp)
{
	void *objs[PRIO_MAX_BURST];

	(void)bandp;
	int k = grain_prio_try_dequeue_burst(q, objs, n);
	for (int i = 0; i < k; i++)
		items[i] = objs[i];
	return k > 0 ? (unsigned)k : 0;
}

static unsigned prio_grain_backlog(void *q)
{
	return grain_prio_backlog(q);
}

PRIO_ADAPTER(prio_adapter_grain, prio_grain, grain_prio_band_stats,
	     grain_prio_stats)
