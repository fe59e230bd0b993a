/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.c - runs one experiment of the grain_prio benchmark (see
 * adapters.h): the priority stream, threads, pinning, timing and the final
 * accounting.
 *
 * Timing: main waits until every thread has counted in (producers have
 * touched their pools by then), reads CLOCK_MONOTONIC (t0) and releases
 * them, sleeps until t0 + duration (absolute clock_nanosleep), raises stop
 * and reads the clock again (t1). The rate is what the consumer had
 * dequeued when it saw stop, over t1 - t0. The drain that follows is not
 * in the rate.
 *
 * Accounting: producer p accepted some of its attempts 0, 1, 2, ...; the
 * consumer must have seen exactly that many of p's items, with the same
 * sum of sequence numbers. With the per-band order check this catches
 * loss, duplication and reordering within a band.
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET */
#include "harness.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct prio_impl_info infos[PRIO_IMPL_COUNT] = {
	[PRIO_BASE_SPIN] = { .name = "pfifo_spin",
			     .label = "baseline (spinlock)",
			     .note = "bench/prio/baselines/pfifo_list: classic "
				     "pfifo_fast, one grain_spinlock over three "
				     "intrusive linked lists, prio2band + "
				     "bitmap2band; burst = one lock hold for "
				     "the whole burst",
			     .baseline = true },
	[PRIO_BASE_MUTEX] = { .name = "pfifo_mutex",
			      .label = "baseline (mutex)",
			      .note = "the same baseline with a pthread mutex "
				      "(default attributes) instead of the "
				      "spinlock",
			      .baseline = true },
	[PRIO_GRAIN] = { .name = "grain_prio",
			 .label = "grain_prio",
			 .note = "grain_prio, 3 bands, GRAIN_PRIO_SC, strict; "
				 "grain_prio_enqueue_prio() through the default "
				 "priomap; grain_prio_try_dequeue() (single) or "
				 "grain_prio_dequeue_burst() (burst); with 3 "
				 "bands it keeps no non-empty bits (a dequeue "
				 "scans the band heads)",
			 .baseline = false },
	[PRIO_GRAIN_BITS] = { .name = "grain_prio_bits",
			      .label = "grain_prio (bits)",
			      .note = "the same calls on a grain_prio of 8 "
				      "bands, of which the stream uses 0..2: "
				      "more than GRAIN_PRIO_SCAN_BANDS, so it "
				      "keeps the non-empty bits",
			      .baseline = false },
};

static const struct prio_adapter *adapter_of(enum prio_impl impl)
{
	switch (impl) {
	case PRIO_BASE_SPIN:
	case PRIO_BASE_MUTEX:
		return &prio_adapter_pfifo;
	case PRIO_GRAIN:
	case PRIO_GRAIN_BITS:
		return &prio_adapter_grain;
	default:
		return NULL;
	}
}

const struct prio_impl_info *prio_info(enum prio_impl impl)
{
	if ((unsigned)impl >= PRIO_IMPL_COUNT)
		return NULL;
	return &infos[impl];
}

bool prio_config_ok(enum prio_impl impl, const struct prio_config *cfg)
{
	if (adapter_of(impl) == NULL || cfg == NULL)
		return false;
	if (cfg->producers == 0 || cfg->producers > PRIO_MAX_PRODUCERS)
		return false;
	if ((unsigned)cfg->deq >= PRIO_DEQ_COUNT ||
	    (unsigned)cfg->placement >= PRIO_PLACE_COUNT)
		return false;
	if (cfg->deq == PRIO_DEQ_BURST &&
	    (cfg->burst == 0 || cfg->burst > PRIO_MAX_BURST))
		return false;
	/* The pool must outlast everything the bands can hold. */
	if (cfg->band_limit < 2 || (cfg->band_limit & (cfg->band_limit - 1)) ||
	    (uint64_t)cfg->band_limit * PRIO_BANDS + PRIO_MAX_BURST >=
		    PRIO_POOL_ITEMS)
		return false;
	return cfg->duration_ms > 0;
}

/* --- the priority stream ----------------------------------------------- */

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

static uint8_t stream[PRIO_STREAM_LEN];
static bool stream_built;

/* Fill the table by the mix, then shuffle it with a fixed seed: the same
 * stream in every run and for every queue. */
static void build_stream(void)
{
	unsigned at = 0;
	uint32_t x = 0x9e3779b9u;

	if (stream_built)
		return;
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
	stream_built = true;
}

_Static_assert(192 + 32 + 32 == PRIO_STREAM_LEN, "the mix fills the table");

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

/* --- one experiment ----------------------------------------------------- */

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

/* After the join: lost or duplicated items, producer by producer. */
static uint64_t count_errors(const struct prio_thread *th, unsigned np)
{
	const struct prio_thread *c = &th[np];
	uint64_t errors = 0;

	for (unsigned p = 0; p < np; p++) {
		uint64_t accepted = 0;

		for (unsigned b = 0; b < PRIO_BANDS; b++)
			accepted += th[p].accepted_band[b];
		if (c->cnt[p] != accepted)
			errors++;
		if (c->sum[p] != th[p].accepted_sum)
			errors++;
	}
	return errors;
}

/* After the join: the counters of the producers th[0..np) and the
 * consumer th[np] summed into res (all but the timings), and the errors
 * found, the queue's own statistics checked against them. */
static void collect_result(struct prio_result *res,
			   const struct prio_thread *th, unsigned np,
			   const struct prio_adapter *a, void *queue)
{
	const struct prio_thread *c = &th[np];
	memset(res, 0, sizeof(*res));
	res->dequeued = c->count_at_stop;
	uint64_t dropped = 0;
	for (unsigned p = 0; p < np; p++) {
		res->attempts += th[p].attempts;
		for (unsigned b = 0; b < PRIO_BANDS; b++) {
			res->accepted_band[b] += th[p].accepted_band[b];
			res->dropped_band[b] += th[p].dropped_band[b];
			dropped += th[p].dropped_band[b];
		}
	}
	for (unsigned b = 0; b < PRIO_BANDS; b++)
		res->dequeued_band[b] = c->band_at_stop[b];
	res->drop_fraction =
		res->attempts ? (double)dropped / (double)res->attempts : 0.0;
	res->empty_polls = c->empty_polls;
	res->blocked_polls = c->blocked_polls;
	res->consumer_cpu_seconds = c->cpu_seconds;
	res->drained = c->drained;
	res->order_errors = c->order_errors;
	res->band_errors = c->band_errors;
	res->priority_errors = c->priority_errors;
	res->count_errors = count_errors(th, np);
	res->stats_errors =
		a->check(queue, res->accepted_band, res->dropped_band);
	res->errors = res->order_errors + res->band_errors +
		      res->priority_errors + res->count_errors +
		      res->stats_errors;
}

int prio_run(enum prio_impl impl, const struct prio_config *cfg,
	     struct prio_result *res)
{
	if (!prio_config_ok(impl, cfg) || res == NULL)
		return -EINVAL;
	build_stream();
	const struct prio_adapter *a = adapter_of(impl);
	const unsigned np = cfg->producers, n = np + 1;
	const bool pin = cfg->placement == PRIO_PLACE_CONSUMER_CORE;
	const size_t pool_size =
		(size_t)PRIO_POOL_ITEMS * sizeof(struct prio_item);

	struct prio_harness *h =
		aligned_alloc(GRAIN_CACHELINE, sizeof(struct prio_harness));
	/* Producers first, then the consumer. */
	struct prio_thread *th =
		aligned_alloc(GRAIN_CACHELINE, n * sizeof(struct prio_thread));
	struct prio_item *pools =
		aligned_alloc(GRAIN_CACHELINE, np * pool_size);
	pthread_t *tid = calloc(n, sizeof(pthread_t));
	int rc = -ENOMEM;
	if (h == NULL || th == NULL || pools == NULL || tid == NULL)
		goto out_free;
	memset(h, 0, sizeof(*h));
	memset(th, 0, n * sizeof(*th));
	bench_gate_init(&h->gate);
	atomic_init(&h->producers_done, 0);
	h->cfg = *cfg;
	h->stream = stream;

	rc = a->create(&h->queue, impl, cfg);
	if (rc != 0)
		goto out_free;

	for (unsigned i = 0; i < n; i++) {
		th[i].h = h;
		th[i].index = i < np ? i : 0;
		th[i].pool = i < np ? pools + (size_t)i * PRIO_POOL_ITEMS
				    : NULL;
	}
	struct spawn_ctx ctx = { th, a, np, cfg->deq };
	unsigned started;
	rc = bench_spawn_all(tid, n, pin, who, &ctx, &started);
	if (rc != 0) {
		/* The consumer's wait for producers_done is satisfied too. */
		atomic_store_explicit(&h->producers_done, np,
				      memory_order_relaxed);
		bench_gate_abandon(&h->gate, tid, started);
		a->destroy(h->queue);
		goto out_free;
	}

	double t1;
	double seconds = bench_gate_timed(&h->gate, n, cfg->duration_ms, &t1);
	for (unsigned i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	double t2 = bench_now_s();

	collect_result(res, th, np, a, h->queue);
	res->seconds = seconds;
	res->drain_seconds = t2 - t1;
	res->items_per_sec = seconds > 0 ? (double)res->dequeued / seconds
					 : 0.0;
	res->attempts_per_sec = seconds > 0 ? (double)res->attempts / seconds
					    : 0.0;
	res->pinned = pin;
	a->destroy(h->queue);
	rc = 0;

out_free:
	free(tid);
	free(pools);
	free(th);
	free(h);
	return rc;
}
