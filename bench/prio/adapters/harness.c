/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.c - one run of the grain_prio benchmark, prio_run(), in the
 * shape of a pfifo_fast qdisc. P producer threads enqueue 64-byte items
 * (one cache line, like the head of an skb) from preallocated pools of
 * their own, by priority through pfifo_fast's priority-to-band map, as
 * fast as they can; a full band refuses the item (tail drop) and the
 * producer goes on with the next, at once or after yielding its CPU
 * (prio_config.producer_yield). One consumer dequeues by strict
 * priority, one item per call (single) or up to `burst` (burst), checks
 * each and hands it back by clearing its in-flight flag; a producer skips
 * its items still in flight. Both queues carry the same items through the
 * same loops (harness.h).
 *
 * Timing: common/core.h's gate (producers have touched their pools by
 * then); the rate is what the consumer had dequeued when it saw stop over
 * the seconds from release to stop. The drain that follows is not in it.
 *
 * Checks, each failure counted in prio_result.errors: per producer and
 * band, sequence numbers arrive in increasing order (each band is FIFO);
 * a single dequeue's band is the one the item's priority maps to; every
 * accepted item is dequeued exactly once (per-producer counts and sums of
 * sequence numbers: with the order check, this catches loss, duplication
 * and reordering within a band); the queue's own per-band statistics
 * agree with the producers'; and strict priority where it can be checked
 * without a race: in the drain after the producers stop, the bands never
 * go up in priority (0 after 1 after 2 is wrong); and, after those
 * checks, a probe of the empty queue alone (prio_probe(), harness.h)
 * that must come out in strict priority order.
 */
#include "harness.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Shares of the stream, in items out of PRIO_STREAM_LEN: mostly best
 * effort, some interactive, some bulk. */
static const struct {
	uint8_t prio;
	unsigned items;
} stream_mix[] = {
	{ 0, 192 }, /* best effort  -> band 1 */
	{ 6, 32 },  /* interactive  -> band 0 */
	{ 2, 32 },  /* bulk         -> band 2 */
};

_Static_assert(192 + 32 + 32 == PRIO_STREAM_LEN, "the mix fills the table");

static uint8_t stream[PRIO_STREAM_LEN];

/* Fill the table by the mix, then shuffle it with a fixed seed: the same
 * stream in every run and for every queue. */
static void build_stream(void)
{
	unsigned at = 0;
	uint32_t x = 0x9e3779b9u;

	for (size_t m = 0; m < sizeof(stream_mix) / sizeof(stream_mix[0]); m++)
		for (unsigned i = 0; i < stream_mix[m].items; i++)
			stream[at++] = stream_mix[m].prio;
	for (unsigned i = PRIO_STREAM_LEN - 1; i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		unsigned j = x % (i + 1);
		uint8_t tmp = stream[i];
		stream[i] = stream[j];
		stream[j] = tmp;
	}
}

double prio_stream_share(unsigned prio)
{
	unsigned items = 0;

	for (size_t m = 0; m < sizeof(stream_mix) / sizeof(stream_mix[0]); m++)
		if (stream_mix[m].prio == prio)
			items += stream_mix[m].items;
	return (double)items / PRIO_STREAM_LEN;
}

unsigned prio_stream_band(unsigned prio)
{
	return pfifo_list_prio2band[prio & 15u];
}

struct spawn_ctx {
	struct prio_thread *th;
	const struct prio_adapter *a;
	unsigned np;
	enum prio_deq deq;
};

/* Thread i of a run: the producers, then the consumer. Pinned: the
 * consumer alone on CPU 0, producers round robin on the others. */
static void who(void *arg, unsigned i, struct bench_spawn *out)
{
	const struct spawn_ctx *ctx = arg;
	const unsigned nproc = bench_nproc();
	const bool producer = i < ctx->np;

	out->fn = producer ? ctx->a->producer : ctx->a->consumer[ctx->deq];
	out->arg = &ctx->th[i];
	out->cpu = producer && nproc > 1 ? 1 + i % (nproc - 1) : 0;
}

/* After the join: the producers th[0 .. np) and the consumer th[np]
 * summed into *res, and their checks. */
static void collect(struct prio_result *res, const struct prio_thread *th,
		    unsigned np, const struct prio_adapter *a, void *queue)
{
	const struct prio_thread *c = &th[np];
	uint64_t attempts = 0, dropped = 0;
	uint64_t accepted_band[PRIO_BANDS] = { 0 },
		 dropped_band[PRIO_BANDS] = { 0 };

	for (unsigned p = 0; p < np; p++) {
		uint64_t accepted = 0;
		attempts += th[p].attempts;
		for (unsigned b = 0; b < PRIO_BANDS; b++) {
			accepted_band[b] += th[p].accepted_band[b];
			dropped_band[b] += th[p].dropped_band[b];
			accepted += th[p].accepted_band[b];
			dropped += th[p].dropped_band[b];
		}
		/* Lost or duplicated items. */
		res->count_errors += c->cnt[p] != accepted;
		res->count_errors += c->sum[p] != th[p].accepted_sum;
	}
	for (unsigned b = 0; b < PRIO_BANDS; b++)
		res->dequeued_band[b] = c->band_at_stop[b];
	res->items_per_sec = (double)c->count_at_stop / res->seconds;
	res->attempts_per_sec = (double)attempts / res->seconds;
	res->drop_fraction = attempts ? (double)dropped / (double)attempts : 0;
	res->empty_polls = c->empty_polls;
	res->blocked_polls = c->blocked_polls;
	res->consumer_cpu_seconds = c->cpu_seconds;
	res->drained = c->drained;
	res->order_errors = c->order_errors;
	res->band_errors = c->band_errors;
	res->priority_errors = c->priority_errors;
	res->stats_errors = a->check(queue, accepted_band, dropped_band);
	res->errors = res->order_errors + res->band_errors +
		      res->priority_errors + res->count_errors +
		      res->stats_errors;
}

int prio_run(enum prio_impl impl, const struct prio_config *cfg,
	     struct prio_result *res)
{
	static struct prio_harness h;
	/* Producers first, then the consumer. */
	static struct prio_thread th[PRIO_MAX_PRODUCERS + 1];
	static pthread_t tid[PRIO_MAX_PRODUCERS + 1];
	static const struct prio_adapter *const adapters[PRIO_IMPL_COUNT] = {
		[PRIO_BASE_SPIN] = &prio_adapter_pfifo,
		[PRIO_BASE_MUTEX] = &prio_adapter_pfifo,
		[PRIO_GRAIN] = &prio_adapter_grain,
		[PRIO_GRAIN_BITS] = &prio_adapter_grain,
	};
	const unsigned np = cfg->producers, n = np + 1;
	unsigned started;

	/* The pools must outlast everything the bands can hold. */
	if ((unsigned)impl >= PRIO_IMPL_COUNT || np == 0 ||
	    np > PRIO_MAX_PRODUCERS || (unsigned)cfg->deq >= PRIO_DEQ_COUNT ||
	    cfg->burst == 0 || cfg->burst > PRIO_MAX_BURST ||
	    cfg->band_limit < 2 ||
	    (cfg->band_limit & (cfg->band_limit - 1)) != 0 ||
	    (uint64_t)cfg->band_limit * PRIO_BANDS + PRIO_MAX_BURST >=
		    PRIO_POOL_ITEMS ||
	    cfg->duration_ms == 0)
		return -EINVAL;
	const struct prio_adapter *a = adapters[impl];
	struct prio_item *pools = aligned_alloc(
		GRAIN_CACHELINE, np * PRIO_POOL_ITEMS * sizeof(*pools));
	if (pools == NULL)
		return -ENOMEM;
	build_stream();
	memset(res, 0, sizeof(*res));
	memset(th, 0, n * sizeof(*th));
	bench_gate_init(&h.gate);
	atomic_init(&h.producers_done, 0);
	h.cfg = *cfg;
	h.stream = stream;
	int rc = a->create(&h.queue, impl, cfg);
	if (rc != 0)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		th[i].h = &h;
		th[i].index = i < np ? i : 0;
		th[i].pool = i < np ? pools + (size_t)i * PRIO_POOL_ITEMS
				    : NULL;
	}
	struct spawn_ctx ctx = { th, a, np, cfg->deq };
	rc = bench_spawn_all(tid, n, cfg->placement == PRIO_PLACE_CONSUMER_CORE,
			     who, &ctx, &started);
	if (rc != 0) {
		/* The consumer's wait for producers_done is satisfied too. */
		atomic_store_explicit(&h.producers_done, np,
				      memory_order_relaxed);
		bench_gate_abandon(&h.gate, tid, started);
	} else {
		double stopped;
		res->seconds = bench_gate_timed(&h.gate, n, cfg->duration_ms,
						&stopped);
		for (unsigned i = 0; i < n; i++)
			pthread_join(tid[i], NULL);
		res->drain_seconds = bench_now_s() - stopped;
		collect(res, th, np, a, h.queue);
		uint64_t probe = a->probe(h.queue, cfg);
		res->priority_errors += probe;
		res->errors += probe;
	}
	a->destroy(h.queue);
out:
	free(pools);
	return rc;
}
