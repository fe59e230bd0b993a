/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * baselines_adapter.c - the classic pfifo_fast baseline
 * (bench/prio/baselines/pfifo_list), with its spinlock or its mutex.
 *
 * put:    pfifo_list_enqueue(priority) - the band comes from the
 *         baseline's prio2band map, not from the item.
 * single: pfifo_list_dequeue(), which also reports the band.
 * burst:  pfifo_list_dequeue_burst(), one lock hold per call.
 */
#include "harness.h"

#include <grain/common.h>

static int pfifo_create(void **queuep, enum prio_impl impl,
			const struct prio_config *cfg)
{
	struct pfifo_list *q;
	int rc = pfifo_list_create(&q, cfg->band_limit,
				   impl == PRIO_BASE_MUTEX
					   ? PFIFO_LIST_MUTEX
					   : PFIFO_LIST_SPINLOCK);
	if (rc == 0)
		*queuep = q;
	return rc;
}

static void pfifo_destroy(void *queue)
{
	pfifo_list_destroy(queue);
}

static int put(void *q, struct prio_item *item)
{
	return pfifo_list_enqueue(q, &item->link, item->prio);
}

static unsigned get_single(void *q, struct prio_item **items, unsigned n,
			   unsigned *bandp)
{
	(void)n;
	struct pfifo_list_node *node = pfifo_list_dequeue(q, bandp);
	if (node == NULL)
		return 0;
	items[0] = grain_container_of(node, struct prio_item, link);
	return 1;
}

static unsigned get_burst(void *q, struct prio_item **items, unsigned n,
			  unsigned *bandp)
{
	struct pfifo_list_node *nodes[PRIO_MAX_BURST];

	(void)bandp;
	unsigned k = pfifo_list_dequeue_burst(q, nodes, n);
	for (unsigned i = 0; i < k; i++)
		items[i] = grain_container_of(nodes[i], struct prio_item, link);
	return k;
}

/* Under one lock a dequeue fails only when every band is empty: never
 * blocked. (Not read, so that polls cost what they cost.) */
static unsigned backlog(void *q)
{
	(void)q;
	return 0;
}

PRIO_ADAPTER(prio_adapter_pfifo, pfifo_create, pfifo_destroy, pfifo_list_stats,
	     pfifo_list_stats)
