/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.c - runs one experiment (see adapters.h): threads, pinning,
 * timing and the final accounting.
 *
 * Timing: main waits until every thread has counted in, reads
 * CLOCK_MONOTONIC (t0) and releases them, sleeps until t0 + duration
 * (absolute clock_nanosleep, so a late wake-up does not stretch the run
 * unnoticed), raises stop and reads the clock again (t1). The rate is the
 * tokens consumers had dequeued when they saw stop, over t1 - t0. The
 * drain that follows is not timed in the rate; its length is reported as
 * stop_seconds.
 *
 * Drain: producers are joined first (each finishes the call it is in).
 * Consumers then have BENCH_DRAIN_MS to empty the queue; a queue whose
 * threads spin on a preempted peer can take seconds for a thousand
 * tokens on an oversubscribed machine, so past that deadline they are
 * told to leave, and main, alone with the queue, takes the rest through
 * the adapter's drain call and checks it like one more consumer.
 *
 * Accounting: producer i enqueued tokens 0 .. produced_i - 1 in order, so
 * over all consumers exactly produced_i of its tokens must have arrived
 * and their sequences must sum to produced_i (produced_i - 1) / 2. With
 * the per-consumer order check this catches loss, duplication and
 * reordering.
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET */
#include "harness.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GRAIN_BENCH_HAVE_CK
#define HAVE_CK true
#else
#define HAVE_CK false
#endif
#ifdef GRAIN_BENCH_HAVE_DPDK
#define HAVE_DPDK true
#else
#define HAVE_DPDK false
#endif
#ifdef GRAIN_BENCH_HAVE_URCU
#define HAVE_URCU true
#else
#define HAVE_URCU false
#endif
#ifdef GRAIN_BENCH_HAVE_BOOST
#define HAVE_BOOST true
#else
#define HAVE_BOOST false
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
#define HAVE_TBB true
#else
#define HAVE_TBB false
#endif

#define ANY BENCH_MAX_THREADS

/* One implementation: name, mode, compiled in, anchor, baseline, burst
 * calls, a blocking dequeue, most producers, most consumers, usable slots
 * (0: unbounded), and what exactly is measured. */
#define INFO(n, m, avail, anc, base, burst, wait, np, nc, cap, what)        \
	{                                                                   \
		.name = n, .mode = m, .note = what, .available = avail,     \
		.anchor = anc, .baseline = base, .has_burst = burst,        \
		.has_wait = wait, .max_producers = np, .max_consumers = nc, \
		.capacity = cap                                             \
	}
#define CAP BENCH_CAPACITY
#define GRAIN_NOTE(flag)                                                     \
	"grain_ring created with " flag " (| GRAIN_RING_WAIT for a waiting " \
	"consumer, which sleeps in grain_ring_dequeue_wait / _burst_wait)"

/* An element ring: 1P1C at most where it is SPSC. */
#define ELEM_INFO(n, m, avail, anc, np, nc, sz, what)                   \
	{                                                               \
		.name = n, .mode = m, .note = what, .available = avail, \
		.anchor = anc, .has_burst = true, .max_producers = np,  \
		.max_consumers = nc, .capacity = CAP, .esize = sz       \
	}
#define ELEM_NOTE(sz, how)                                                 \
	"grain_ring_elem of " #sz "-byte elements, " how "; the producer " \
	"writes the token into every word of an element, the consumer "    \
	"reads the first and last"
#define RTE_ELEM_NOTE(sz, sync)                                                \
	"anchor DPDK rte_ring_" sync "_burst_elem with esize " #sz ", set up " \
	"without EAL by rte_ring_init(RING_F_EXACT_SZ) on "                    \
	"rte_ring_get_memsize_elem() bytes; elements built and read in a "     \
	"buffer"

static const struct bench_impl_info infos[BENCH_IMPL_COUNT] = {
	[BENCH_GRAIN_MPMC] = INFO("grain", "MPMC", true, false, false, true,
				  true, ANY, ANY, CAP,
				  GRAIN_NOTE("GRAIN_RING_MPMC")),
	[BENCH_GRAIN_MPSC] = INFO("grain", "MPSC", true, false, false, true,
				  true, ANY, 1, CAP,
				  GRAIN_NOTE("GRAIN_RING_MPSC")),
	[BENCH_GRAIN_SPMC] = INFO("grain", "SPMC", true, false, false, true,
				  true, 1, ANY, CAP,
				  GRAIN_NOTE("GRAIN_RING_SPMC")),
	[BENCH_GRAIN_SPSC] = INFO("grain", "SPSC", true, false, false, true,
				  true, 1, 1, CAP,
				  GRAIN_NOTE("GRAIN_RING_SPSC")),
	[BENCH_MUTEX] = INFO(
		"mutex", "MPMC", true, false, true, false, false, ANY, ANY, CAP,
		"baseline bench/ring/baselines/mutex_ring: one pthread mutex; "
		"batches take it once"),
	[BENCH_TWOLOCK] = INFO(
		"twolock", "MPMC", true, false, true, false, false, ANY, ANY,
		CAP,
		"baseline bench/ring/baselines/twolock_ring: ptr_ring style, "
		"producer and consumer grain_spinlock, batched zeroing of 16 "
		"slots; batches take the lock once"),
	[BENCH_CK] = INFO(
		"ck_ring", "MPMC", HAVE_CK, true, false, false, false, ANY, ANY,
		CAP - 1,
		"anchor ConcurrencyKit ck_ring_enqueue_mpmc / "
		"ck_ring_dequeue_mpmc (1023 usable slots); no batch calls, so "
		"batches are loops of single calls"),
	[BENCH_RTE] =
		INFO("rte_ring", "MPMC", HAVE_DPDK, true, false, true, false,
		     ANY, ANY, CAP,
		     "anchor DPDK rte_ring MP/MC (default sync mode), set up "
		     "without EAL by rte_ring_init(RING_F_EXACT_SZ); "
		     "mp_enqueue/mc_dequeue, mp_enqueue_bulk/mc_dequeue_burst, "
		     "mp_enqueue_burst/mc_dequeue_burst"),
	[BENCH_WFCQ] = INFO(
		"wfcqueue", "MPMC", HAVE_URCU, true, false, false, false, ANY,
		ANY, 0,
		"anchor liburcu cds_wfcq_enqueue / "
		"__cds_wfcq_dequeue_blocking through the shared library, "
		"dequeue lock once per batch when C > 1; unbounded, held to "
		"1024 tokens in flight by per-producer node pools"),
	[BENCH_RTE_RTS] =
		INFO("rte_ring_rts", "MPMC", HAVE_DPDK, true, false, true,
		     false, ANY, ANY, CAP,
		     "anchor DPDK rte_ring in RTS mode (RING_F_MP_RTS_ENQ | "
		     "RING_F_MC_RTS_DEQ: relaxed tail sync, DPDK's answer to "
		     "preempted threads), set up as rte_ring; the generic "
		     "rte_ring_enqueue / _dequeue calls"),
	[BENCH_RTE_HTS] = INFO(
		"rte_ring_hts", "MPMC", HAVE_DPDK, true, false, true, false,
		ANY, ANY, CAP,
		"anchor DPDK rte_ring in HTS mode (RING_F_MP_HTS_ENQ | "
		"RING_F_MC_HTS_DEQ: head/tail sync, one thread of a side at a "
		"time), set up as rte_ring; the generic calls"),
	[BENCH_BOOST_QUEUE] = INFO(
		"boost_queue", "MPMC", HAVE_BOOST, true, false, false, false,
		ANY, ANY, CAP,
		"anchor Boost.Lockfree queue<void *>, fixed_sized<true> with "
		"1024 nodes, bounded_push / pop; no batch calls, so batches "
		"are loops of single calls"),
	[BENCH_BOOST_SPSC] =
		INFO("boost_spsc", "SPSC", HAVE_BOOST, true, false, true, false,
		     1, 1, CAP,
		     "anchor Boost.Lockfree spsc_queue<void *> of 1024 usable "
		     "slots; bulk: write_available() then push(array), burst: "
		     "push(array) / pop(array)"),
	[BENCH_TBB] = INFO(
		"tbb_queue", "MPMC", HAVE_TBB, true, false, false, false, ANY,
		ANY, CAP,
		"anchor oneTBB concurrent_bounded_queue<void *>, "
		"set_capacity(1024), try_push / try_pop; batches are loops of "
		"single calls"),
	[BENCH_ELEM16_SPSC] = ELEM_INFO(
		"grain_elem16_spsc", "SPSC", true, false, 1, 1, 16,
		ELEM_NOTE(16, "SPSC, try_enqueue_burst / try_dequeue_burst "
			      "through a buffer")),
	[BENCH_ELEM16_SPSC_ZC] = ELEM_INFO(
		"grain_elem16_spsc_zc", "SPSC", true, false, 1, 1, 16,
		ELEM_NOTE(16, "SPSC, zero copy: try_reserve_burst / commit, "
			      "try_peek_burst / release, built and read in "
			      "the slots")),
	[BENCH_ELEM64_SPSC] = ELEM_INFO("grain_elem64_spsc", "SPSC", true,
					false, 1, 1, 64,
					ELEM_NOTE(64, "SPSC, copying")),
	[BENCH_ELEM64_SPSC_ZC] = ELEM_INFO("grain_elem64_spsc_zc", "SPSC", true,
					   false, 1, 1, 64,
					   ELEM_NOTE(64, "SPSC, zero copy")),
	[BENCH_ELEM16_MPMC] = ELEM_INFO("grain_elem16_mpmc", "MPMC", true,
					false, ANY, ANY, 16,
					ELEM_NOTE(16, "MPMC, copying")),
	[BENCH_ELEM64_MPMC] = ELEM_INFO("grain_elem64_mpmc", "MPMC", true,
					false, ANY, ANY, 64,
					ELEM_NOTE(64, "MPMC, copying")),
	[BENCH_RTE_ELEM16_SPSC] =
		ELEM_INFO("rte_elem16_spsc", "SPSC", HAVE_DPDK, true, 1, 1, 16,
			  RTE_ELEM_NOTE(16, "sp_enqueue / sc_dequeue")),
	[BENCH_RTE_ELEM64_SPSC] =
		ELEM_INFO("rte_elem64_spsc", "SPSC", HAVE_DPDK, true, 1, 1, 64,
			  RTE_ELEM_NOTE(64, "sp_enqueue / sc_dequeue")),
	[BENCH_RTE_ELEM16_MPMC] =
		ELEM_INFO("rte_elem16_mpmc", "MPMC", HAVE_DPDK, true, ANY, ANY,
			  16, RTE_ELEM_NOTE(16, "mp_enqueue / mc_dequeue")),
	[BENCH_RTE_ELEM64_MPMC] =
		ELEM_INFO("rte_elem64_mpmc", "MPMC", HAVE_DPDK, true, ANY, ANY,
			  64, RTE_ELEM_NOTE(64, "mp_enqueue / mc_dequeue")),
};

static const struct bench_adapter *adapter_of(enum bench_impl impl)
{
	switch (impl) {
	case BENCH_GRAIN_MPMC:
	case BENCH_GRAIN_MPSC:
	case BENCH_GRAIN_SPMC:
	case BENCH_GRAIN_SPSC:
		return &bench_adapter_grain;
	case BENCH_ELEM16_SPSC:
	case BENCH_ELEM16_MPMC:
		return &bench_adapter_elem16;
	case BENCH_ELEM64_SPSC:
	case BENCH_ELEM64_MPMC:
		return &bench_adapter_elem64;
	case BENCH_ELEM16_SPSC_ZC:
		return &bench_adapter_elem16_zc;
	case BENCH_ELEM64_SPSC_ZC:
		return &bench_adapter_elem64_zc;
	case BENCH_MUTEX:
		return &bench_adapter_mutex;
	case BENCH_TWOLOCK:
		return &bench_adapter_twolock;
#ifdef GRAIN_BENCH_HAVE_CK
	case BENCH_CK:
		return &bench_adapter_ck;
#endif
#ifdef GRAIN_BENCH_HAVE_DPDK
	case BENCH_RTE:
		return &bench_adapter_rte;
	case BENCH_RTE_RTS:
	case BENCH_RTE_HTS:
		return &bench_adapter_rte_sync;
	case BENCH_RTE_ELEM16_SPSC:
		return &bench_adapter_rte_elem16_spsc;
	case BENCH_RTE_ELEM64_SPSC:
		return &bench_adapter_rte_elem64_spsc;
	case BENCH_RTE_ELEM16_MPMC:
		return &bench_adapter_rte_elem16_mpmc;
	case BENCH_RTE_ELEM64_MPMC:
		return &bench_adapter_rte_elem64_mpmc;
#endif
#ifdef GRAIN_BENCH_HAVE_URCU
	case BENCH_WFCQ:
		return &bench_adapter_wfcq;
#endif
#ifdef GRAIN_BENCH_HAVE_BOOST
	case BENCH_BOOST_QUEUE:
		return &bench_adapter_blf_queue;
	case BENCH_BOOST_SPSC:
		return &bench_adapter_blf_spsc;
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
	case BENCH_TBB:
		return &bench_adapter_tbb;
#endif
	default:
		return NULL;
	}
}

const struct bench_impl_info *bench_info(enum bench_impl impl)
{
	if ((unsigned)impl >= BENCH_IMPL_COUNT)
		return NULL;
	return &infos[impl];
}

bool bench_config_ok(enum bench_impl impl, const struct bench_config *cfg)
{
	const struct bench_impl_info *info = bench_info(impl);
	const struct bench_adapter *a = adapter_of(impl);

	if (info == NULL || a == NULL || !info->available || cfg == NULL)
		return false;
	if ((unsigned)cfg->kind >= BENCH_KIND_COUNT ||
	    a->producer[cfg->kind] == NULL || a->consumer[cfg->kind] == NULL)
		return false;
	if (cfg->producers == 0 || cfg->producers > info->max_producers ||
	    cfg->consumers == 0 || cfg->consumers > info->max_consumers)
		return false;
	if (cfg->kind == BENCH_SINGLE
		    ? cfg->batch != 1
		    : cfg->batch == 0 || cfg->batch > BENCH_MAX_BATCH)
		return false;
	if (cfg->wait &&
	    (!info->has_wait || a->consumer_wait[cfg->kind] == NULL))
		return false;
	if ((unsigned)cfg->pin > BENCH_PIN_OFF)
		return false;
	return cfg->duration_ms > 0;
}

/* The sum of producer p's first n tokens, modulo 2^64: the sequences'
 * sum n (n - 1) / 2 shifted as in bench_token(), plus n times p + 1. */
static uint64_t token_sum(uint64_t n, unsigned p)
{
	/* Halve the even factor first, as the sums wrap. */
	uint64_t seqs = n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);

	return (seqs << 8) + n * (p + 1u);
}

/* After the join of an unchecked run: the total count and the total sum
 * of the tokens over all consumers (the main thread's final drain counts
 * as one more consumer) against what the producers enqueued. */
static uint64_t account_sums(const struct bench_thread *th, unsigned producers,
			     unsigned consumers)
{
	uint64_t want_cnt = 0, want_sum = 0, cnt = 0, sum = 0, errors = 0;

	for (unsigned p = 0; p < producers; p++) {
		want_cnt += th[p].produced;
		want_sum += token_sum(th[p].produced, p);
	}
	for (unsigned c = 0; c < consumers; c++) {
		cnt += th[producers + c].consumed;
		sum += th[producers + c].token_sum;
	}
	if (cnt != want_cnt)
		errors++;
	if (sum != want_sum)
		errors++;
	return errors;
}

/* After the join of a checked run: per-producer counts and sums over all
 * consumers (the main thread's final drain counts as one more consumer). */
static uint64_t account(const struct bench_thread *th, unsigned producers,
			unsigned consumers)
{
	uint64_t errors = 0;

	for (unsigned c = 0; c < consumers; c++)
		errors += th[producers + c].errors;
	for (unsigned p = 0; p < producers; p++) {
		uint64_t n = th[p].produced, cnt = 0, sum = 0;

		for (unsigned c = 0; c < consumers; c++) {
			cnt += th[producers + c].cnt[p];
			sum += th[producers + c].sum[p];
		}
		/* n (n - 1) / 2 modulo 2^64, as the sums wrap: halve the
		 * even factor first. */
		uint64_t want = n % 2 == 0 ? (n / 2) * (n - 1)
					   : n * ((n - 1) / 2);
		if (cnt != n)
			errors++;
		if (sum != want)
			errors++;
	}
	return errors;
}

/* Main, alone with the queue after every thread is joined: take what the
 * consumers left and check it like a consumer would. */
static uint64_t drain_left(const struct bench_adapter *a,
			   struct bench_harness *h, struct bench_thread *t)
{
	void *objs[BENCH_MAX_BATCH];
	uint64_t total = 0;
	unsigned k;

	while ((k = a->drain(h->queue, NULL, objs, BENCH_MAX_BATCH)) != 0) {
		if (h->cfg.checked)
			bench_check(t, objs, k, h->cfg.producers);
		else
			bench_sum(t, objs, k);
		total += k;
	}
	t->consumed = total;
	return total;
}

/* Thread i of a run: the producers first, then the consumers. */
static void who(void *ctx, unsigned i, struct bench_spawn *out)
{
	struct bench_thread *th = ctx;

	out->fn = th[i].main;
	out->arg = &th[i];
	out->cpu = i % bench_nproc();
}

/* Wait until every consumer has finished or the drain deadline passes. */
static bool wait_consumers(struct bench_harness *h, unsigned consumers,
			   double deadline)
{
	/* AC1: pairs with RC1 in bench_consume(). */
	while (atomic_load_explicit(&h->consumers_done, memory_order_acquire) <
	       consumers) {
		if (bench_now_s() >= deadline)
			return false;
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
	}
	return true;
}

int bench_run(enum bench_impl impl, const struct bench_config *cfg,
	      struct bench_result *res)
{
	if (!bench_config_ok(impl, cfg) || res == NULL)
		return -EINVAL;
	const struct bench_adapter *a = adapter_of(impl);
	const unsigned np = cfg->producers, nc = cfg->consumers;
	const unsigned n = np + nc, nproc = bench_nproc();
	const bool pin = cfg->pin == BENCH_PIN_ON ||
			 (cfg->pin == BENCH_PIN_AUTO && n <= nproc);

	struct bench_harness *h =
		aligned_alloc(GRAIN_CACHELINE, sizeof(struct bench_harness));
	/* One more thread struct: the main thread's final drain. */
	struct bench_thread *th = aligned_alloc(
		GRAIN_CACHELINE, (n + 1) * sizeof(struct bench_thread));
	pthread_t *tid = calloc(n, sizeof(pthread_t));
	if (h == NULL || th == NULL || tid == NULL) {
		free(h);
		free(th);
		free(tid);
		return -ENOMEM;
	}
	memset(h, 0, sizeof(*h));
	memset(th, 0, (n + 1) * sizeof(*th));
	bench_gate_init(&h->gate);
	atomic_init(&h->producers_done, 0);
	atomic_init(&h->consumers_done, 0);
	h->cfg = *cfg;
	if (h->cfg.spin_fails == 0)
		h->cfg.spin_fails = BENCH_SPIN_FAILS_DEFAULT;
	if (h->cfg.relax_per_fail == 0)
		h->cfg.relax_per_fail = BENCH_RELAX_PER_FAIL_DEFAULT;

	int rc = a->create(&h->queue, impl, cfg);
	if (rc != 0)
		goto out_free;

	for (unsigned i = 0; i < n; i++) {
		th[i].h = h;
		th[i].producer = i < np;
		th[i].index = i < np ? i : i - np;
		th[i].main = i < np	 ? a->producer[cfg->kind]
			     : cfg->wait ? a->consumer_wait[cfg->kind]
					 : a->consumer[cfg->kind];
	}
	unsigned started;
	rc = bench_spawn_all(tid, n, pin, who, th, &started);
	if (rc != 0) {
		bench_gate_abandon(&h->gate, tid, started);
		a->destroy(h->queue);
		goto out_free;
	}

	double t1;
	double seconds = bench_gate_timed(&h->gate, n, cfg->duration_ms, &t1);

	/* The drain: see the top of this file. */
	for (unsigned i = 0; i < np; i++)
		pthread_join(tid[i], NULL);
	bool in_time = wait_consumers(h, nc, t1 + BENCH_DRAIN_MS * 1e-3);
	if (!in_time)
		atomic_store_explicit(&h->gate.leave, 1, memory_order_relaxed);
	for (unsigned i = np; i < n; i++)
		pthread_join(tid[i], NULL);
	double t2 = bench_now_s();
	uint64_t left = drain_left(a, h, &th[n]);

	memset(res, 0, sizeof(*res));
	res->seconds = seconds;
	res->stop_seconds = t2 - t1;
	for (unsigned p = 0; p < np; p++) {
		res->full_tries += th[p].failed;
		res->put_calls += th[p].calls;
	}
	for (unsigned c = 0; c < nc; c++) {
		res->pairs += th[np + c].count_at_stop;
		res->pairs_total += th[np + c].consumed;
		res->empty_tries += th[np + c].failed;
		res->get_calls += th[np + c].calls;
	}
	res->pairs_total += left;
	res->drain_deadline_hit = !in_time;
	res->left_to_main = left;
	res->pairs_per_sec =
		res->seconds > 0 ? (double)res->pairs / res->seconds : 0.0;
	res->errors = cfg->checked ? account(th, np, nc + 1)
				   : account_sums(th, np, nc + 1);
	res->pinned = pin;
	a->destroy(h->queue);
	rc = 0;

out_free:
	free(tid);
	free(th);
	free(h);
	return rc;
}
