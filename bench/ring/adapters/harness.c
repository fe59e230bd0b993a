/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.c - the queues' facts, and bench_run(): one experiment (see
 * adapters.h) with its threads, timing, drain and accounting.
 *
 * Timing (common/core.h's timed gate): the rate is the tokens consumers had
 * taken when they saw stop, over the time from the start to stop; the drain
 * after it is not in the rate (its length is stop_seconds).
 *
 * Drain: the producers are joined first (each finishes the call it is in).
 * The consumers then have BENCH_DRAIN_MS to empty the queue: a queue whose
 * threads spin on a preempted peer can take seconds for a thousand tokens
 * on an oversubscribed machine, so past that they are told to leave, and
 * main, alone with the queue, takes the rest and checks it as one more
 * consumer.
 *
 * Accounting: producer p enqueued its tokens 0 .. n_p - 1 in order, so over
 * all consumers exactly n_p of them must have arrived, their sequences
 * summing to n_p (n_p - 1) / 2. With the per-consumer order check of a
 * checked run this catches loss, duplication and reordering.
 */
#define _GNU_SOURCE /* nanosleep */
#include "harness.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#define ANY BENCH_MAX_THREADS
#define GRAIN_NOTE(flag)                                                     \
	"grain_ring created with " flag " (| GRAIN_RING_WAIT for a waiting " \
	"consumer, which sleeps in grain_ring_dequeue_wait / _burst_wait)"
#define ELEM_NOTE(sz, how)                                                 \
	"grain_ring_elem of " #sz "-byte elements, " how "; the producer " \
	"writes the token into every word of an element (copying: once, "  \
	"a retry sends what is built), the consumer reads the first and "  \
	"last"
#define RTE_ELEM_NOTE(sz, sync)                                                \
	"anchor DPDK rte_ring_" sync "_burst_elem with esize " #sz ", set up " \
	"without EAL by rte_ring_init(RING_F_EXACT_SZ) on "                    \
	"rte_ring_get_memsize_elem() bytes; elements built (once: a retry "    \
	"sends what is built) and read in a buffer"

/* In the order of enum bench_impl: name, mode, adapter, most producers
 * and consumers, element size, and what exactly is measured. */
static const struct bench_impl_info infos[] = {
	{ "grain", "MPMC", &bench_adapter_grain, ANY, ANY, 0,
	  GRAIN_NOTE("GRAIN_RING_MPMC") },
	{ "grain", "MPSC", &bench_adapter_grain, ANY, 1, 0,
	  GRAIN_NOTE("GRAIN_RING_MPSC") },
	{ "grain", "SPMC", &bench_adapter_grain, 1, ANY, 0,
	  GRAIN_NOTE("GRAIN_RING_SPMC") },
	{ "grain", "SPSC", &bench_adapter_grain, 1, 1, 0,
	  GRAIN_NOTE("GRAIN_RING_SPSC") },
	{ "mutex", "MPMC", &bench_adapter_mutex, ANY, ANY, 0,
	  "baseline bench/ring/baselines/mutex_ring: one pthread mutex; batches "
	  "take it once" },
	{ "twolock", "MPMC", &bench_adapter_twolock, ANY, ANY, 0,
	  "baseline bench/ring/baselines/twolock_ring: ptr_ring style, producer "
	  "and consumer grain_spinlock (waiters yield after a short spin), "
	  "batched zeroing of 16 slots; batches "
	  "take the lock once" },
	{ "twolock_pspin", "MPMC", &bench_adapter_twolock_pspin, ANY, ANY, 0,
	  "baseline bench/ring/baselines/twolock_pspin: twolock's algorithm "
	  "and code with pthread spinlocks, whose waiters never yield (a "
	  "user space port of ptr_ring); batches take the lock once" },
	{ "scq", "MPMC", &bench_adapter_scq, ANY, ANY, 0,
	  "prototype bench/ring/baselines/scq_ring: fetch-and-add tickets a "
	  "dequeuer may give up (after SCQ, DISC 2019), an index queue of free "
	  "slots and one of full ones; bulk takes n free slots or none, burst "
	  "dequeue is a loop" },
	{ "ck_ring", "MPMC", &bench_adapter_ck, ANY, ANY, 0,
	  "anchor ConcurrencyKit ck_ring_enqueue_mpmc / ck_ring_dequeue_mpmc "
	  "(1023 usable slots); no batch calls, so batches are loops of single "
	  "calls" },
	{ "rte_ring", "MPMC", &bench_adapter_rte, ANY, ANY, 0,
	  "anchor DPDK rte_ring MP/MC (default sync mode), set up without EAL "
	  "by rte_ring_init(RING_F_EXACT_SZ); mp_enqueue/mc_dequeue, "
	  "mp_enqueue_bulk/mc_dequeue_burst, mp_enqueue_burst/mc_dequeue_burst" },
	{ "wfcqueue", "MPMC", &bench_adapter_wfcq, ANY, ANY, 0,
	  "anchor liburcu cds_wfcq_enqueue / __cds_wfcq_dequeue_blocking "
	  "through the shared library, dequeue lock once per batch when C > 1; "
	  "unbounded, held to 1024 tokens in flight by per-producer node pools" },
	{ "rte_ring_rts", "MPMC", &bench_adapter_rte_sync, ANY, ANY, 0,
	  "anchor DPDK rte_ring in RTS mode (RING_F_MP_RTS_ENQ | "
	  "RING_F_MC_RTS_DEQ: relaxed tail sync, DPDK's answer to preempted "
	  "threads), set up as rte_ring; the generic rte_ring_enqueue / "
	  "_dequeue calls" },
	{ "rte_ring_hts", "MPMC", &bench_adapter_rte_sync, ANY, ANY, 0,
	  "anchor DPDK rte_ring in HTS mode (RING_F_MP_HTS_ENQ | "
	  "RING_F_MC_HTS_DEQ: head/tail sync, one thread of a side at a time), "
	  "set up as rte_ring; the generic calls" },
	{ "boost_queue", "MPMC", &bench_adapter_blf_queue, ANY, ANY, 0,
	  "anchor Boost.Lockfree queue<void *>, fixed_sized<true> with 1024 "
	  "nodes, bounded_push / pop; no batch calls, so batches are loops of "
	  "single calls" },
	{ "boost_spsc", "SPSC", &bench_adapter_blf_spsc, 1, 1, 0,
	  "anchor Boost.Lockfree spsc_queue<void *> of 1024 usable slots; bulk: "
	  "write_available() then push(array), burst: push(array) / pop(array)" },
	{ "tbb_queue", "MPMC", &bench_adapter_tbb, ANY, ANY, 0,
	  "anchor oneTBB concurrent_bounded_queue<void *>, set_capacity(1024), "
	  "try_push / try_pop; batches are loops of single calls" },
	{ "moody_queue", "MPMC", &bench_adapter_moody, ANY, ANY, 0,
	  "anchor moodycamel ConcurrentQueue<void *> without tokens (an "
	  "implicit sub-queue per producer thread), made with (1024, 0, P): "
	  "its blocks preallocated, try_ calls only, which never allocate "
	  "(about 1024 tokens in flight per producer); try_enqueue / "
	  "try_dequeue, bulk try_enqueue_bulk (all or nothing) / "
	  "try_dequeue_bulk" },
	{ "moody_queue_tok", "MPMC", &bench_adapter_moody_tok, ANY, ANY, 0,
	  "anchor moodycamel ConcurrentQueue<void *> with a ProducerToken per "
	  "producer (an explicit sub-queue) and a ConsumerToken per consumer, "
	  "made with (1024, P, 0); the token forms of the same calls" },
	{ "moody_blocking", "MPMC", &bench_adapter_moody_blk, ANY, ANY, 0,
	  "anchor moodycamel BlockingConcurrentQueue<void *> (ConcurrentQueue "
	  "with a counting semaphore), made as moody_queue, run only where "
	  "consumers wait: wait_dequeue_timed / wait_dequeue_bulk_timed (1 ms), "
	  "producers try_enqueue / try_enqueue_bulk" },
	{ "moody_rwq", "SPSC", &bench_adapter_moody_rwq, 1, 1, 0,
	  "anchor moodycamel ReaderWriterQueue<void *> made with room for "
	  "1024, try_enqueue (never allocates) / try_dequeue; no batch calls, "
	  "so batches are loops of single calls" },
	{ "grain_elem16_spsc", "SPSC", &bench_adapter_elem16, 1, 1, 16,
	  ELEM_NOTE(16, "SPSC, try_enqueue_burst / try_dequeue_burst through "
			"a buffer") },
	{ "grain_elem16_spsc_zc", "SPSC", &bench_adapter_elem16_zc, 1, 1, 16,
	  ELEM_NOTE(16, "SPSC, zero copy: try_reserve_burst / commit, "
			"try_peek_burst / release, built and read in the "
			"slots") },
	{ "grain_elem64_spsc", "SPSC", &bench_adapter_elem64, 1, 1, 64,
	  ELEM_NOTE(64, "SPSC, copying") },
	{ "grain_elem64_spsc_zc", "SPSC", &bench_adapter_elem64_zc, 1, 1, 64,
	  ELEM_NOTE(64, "SPSC, zero copy") },
	{ "grain_elem16_mpmc", "MPMC", &bench_adapter_elem16, ANY, ANY, 16,
	  ELEM_NOTE(16, "MPMC, copying") },
	{ "grain_elem64_mpmc", "MPMC", &bench_adapter_elem64, ANY, ANY, 64,
	  ELEM_NOTE(64, "MPMC, copying") },
	{ "rte_elem16_spsc", "SPSC", &bench_adapter_rte_elem16_spsc, 1, 1, 16,
	  RTE_ELEM_NOTE(16, "sp_enqueue / sc_dequeue") },
	{ "rte_elem64_spsc", "SPSC", &bench_adapter_rte_elem64_spsc, 1, 1, 64,
	  RTE_ELEM_NOTE(64, "sp_enqueue / sc_dequeue") },
	{ "rte_elem16_mpmc", "MPMC", &bench_adapter_rte_elem16_mpmc, ANY, ANY,
	  16, RTE_ELEM_NOTE(16, "mp_enqueue / mc_dequeue") },
	{ "rte_elem64_mpmc", "MPMC", &bench_adapter_rte_elem64_mpmc, ANY, ANY,
	  64, RTE_ELEM_NOTE(64, "mp_enqueue / mc_dequeue") },
};
_Static_assert(sizeof(infos) / sizeof(infos[0]) == BENCH_IMPL_COUNT,
	       "one entry per enum bench_impl");

const struct bench_impl_info *bench_info(enum bench_impl impl)
{
	return (unsigned)impl < BENCH_IMPL_COUNT ? &infos[impl] : NULL;
}

bool bench_config_ok(enum bench_impl impl, const struct bench_config *cfg)
{
	const struct bench_impl_info *q = bench_info(impl);
	const struct bench_adapter *a = q != NULL ? q->adapter : NULL;

	if (a == NULL || (unsigned)cfg->kind >= BENCH_KIND_COUNT)
		return false;
	bool single = cfg->kind == BENCH_SINGLE;
	return a->has[cfg->kind] && (!cfg->wait || a->waits) &&
	       cfg->producers >= 1 && cfg->producers <= q->max_producers &&
	       cfg->consumers >= 1 && cfg->consumers <= q->max_consumers &&
	       (single ? cfg->batch == 1
		       : cfg->batch >= 1 && cfg->batch <= BENCH_MAX_BATCH) &&
	       (unsigned)cfg->pin <= BENCH_PIN_OFF && cfg->duration_ms > 0;
}

/* n (n - 1) / 2 modulo 2^64, as the sums wrap: the even factor halved. */
static uint64_t seq_sum(uint64_t n)
{
	return n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
}

/* After the join: the consumers' (main's drain being one more) counts
 * and sums against what the producers enqueued: per producer in a checked
 * run, else in all, with the tokens themselves as bench_token() made them
 * (the sequences shifted by 8 bits, plus producer + 1 each). */
static uint64_t account(const struct bench_thread *th, unsigned np, unsigned nc,
			bool checked)
{
	uint64_t errors = 0, want_cnt = 0, want_sum = 0, cnt = 0, sum = 0;

	for (unsigned c = np; c < np + nc; c++) {
		errors += th[c].errors;
		cnt += th[c].consumed;
		sum += th[c].token_sum;
	}
	for (unsigned p = 0; p < np; p++) {
		uint64_t n = th[p].produced, pcnt = 0, psum = 0;

		want_cnt += n;
		want_sum += (seq_sum(n) << 8) + n * (p + 1u);
		for (unsigned c = np; checked && c < np + nc; c++) {
			pcnt += th[c].cnt[p];
			psum += th[c].sum[p];
		}
		if (checked)
			errors += (uint64_t)(pcnt != n) + (psum != seq_sum(n));
	}
	if (!checked)
		errors += (uint64_t)(cnt != want_cnt) + (sum != want_sum);
	return errors;
}

/* The shares of threads th[0 .. n - 1], by the uint64_t count at offset
 * OFF in their structs (see struct bench_result): max and min over the
 * mean, and the coefficient of variation. */
static void shares(const struct bench_thread *th, unsigned n, size_t off,
		   double *maxp, double *minp, double *cvp)
{
	double sum = 0, sq = 0, hi = 0, lo = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t c;
		memcpy(&c, (const char *)&th[i] + off, sizeof(c));
		double x = (double)c;
		sum += x;
		sq += x * x;
		hi = i == 0 || x > hi ? x : hi;
		lo = i == 0 || x < lo ? x : lo;
	}
	double mean = n ? sum / n : 0, var = n ? sq / n - mean * mean : 0;
	*maxp = mean > 0 ? hi / mean : 1.0;
	*minp = mean > 0 ? lo / mean : 1.0;
	*cvp = mean > 0 && var > 0 ? sqrt(var) / mean : 0.0;
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
		nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	}
	return true;
}

/* The threads' structs, the run's results from them, and main's drain. */
static void settle(const struct bench_adapter *a, struct bench_harness *h,
		   struct bench_thread *th, struct bench_result *res)
{
	const unsigned np = h->cfg.producers, nc = h->cfg.consumers;
	struct bench_thread *m = &th[np + nc]; /* main, draining */
	alignas(GRAIN_CACHELINE) unsigned char buf[BENCH_LOCAL_BYTES];
	void *objs[BENCH_MAX_BATCH];
	unsigned k;

	while ((k = a->drain(h->queue, buf, objs, BENCH_MAX_BATCH))) {
		if (h->cfg.checked)
			bench_check(m, objs, k, np);
		else
			bench_sum(m, objs, k);
		m->consumed += k;
	}
	for (unsigned p = 0; p < np; p++) {
		res->full_tries += th[p].failed;
		res->put_calls += th[p].calls;
	}
	for (unsigned c = np; c < np + nc; c++) {
		res->pairs += th[c].count_at_stop;
		res->empty_tries += th[c].failed;
		res->get_calls += th[c].calls;
	}
	for (unsigned c = np; c <= np + nc; c++)
		res->pairs_total += th[c].consumed;
	res->pairs_per_sec =
		res->seconds > 0 ? (double)res->pairs / res->seconds : 0.0;
	shares(th, np, offsetof(struct bench_thread, produced),
	       &res->put_share_max, &res->put_share_min, &res->put_cv);
	shares(th + np, nc, offsetof(struct bench_thread, count_at_stop),
	       &res->get_share_max, &res->get_share_min, &res->get_cv);
	res->errors = account(th, np, nc + 1, h->cfg.checked);
}

int bench_run(enum bench_impl impl, const struct bench_config *cfg,
	      struct bench_result *res)
{
	if (!bench_config_ok(impl, cfg) || res == NULL)
		return -EINVAL;
	const struct bench_adapter *a = infos[impl].adapter;
	const unsigned np = cfg->producers, n = np + cfg->consumers;
	const bool pin = cfg->pin == BENCH_PIN_ON ||
			 (cfg->pin == BENCH_PIN_AUTO && n <= bench_nproc());
	struct bench_harness *h = aligned_alloc(GRAIN_CACHELINE, sizeof(*h));
	/* One thread struct more: main's drain. */
	struct bench_thread *th =
		aligned_alloc(GRAIN_CACHELINE, (n + 1) * sizeof(*th));
	pthread_t *tid = calloc(n, sizeof(pthread_t));
	int rc = -ENOMEM;

	if (h == NULL || th == NULL || tid == NULL)
		goto out;
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
	rc = a->create(&h->queue, impl, cfg);
	if (rc != 0)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		struct bench_thread *t = &th[i];

		t->h = h;
		t->producer = i < np;
		t->index = i < np ? i : i - np;
		t->main = i < np      ? a->producer[cfg->kind]
			  : cfg->wait ? a->consumer_wait[cfg->kind]
				      : a->consumer[cfg->kind];
	}
	th[n].h = h;

	unsigned started;
	rc = bench_spawn_all(tid, n, pin, who, th, &started);
	if (rc != 0) {
		bench_gate_abandon(&h->gate, tid, started);
		a->destroy(h->queue);
		goto out;
	}
	memset(res, 0, sizeof(*res));
	double t1;
	res->seconds = bench_gate_timed(&h->gate, n, cfg->duration_ms, &t1);
	/* The drain: see the top of this file. */
	for (unsigned i = 0; i < np; i++)
		pthread_join(tid[i], NULL);
	res->drain_deadline_hit =
		!wait_consumers(h, cfg->consumers, t1 + BENCH_DRAIN_MS * 1e-3);
	if (res->drain_deadline_hit)
		atomic_store_explicit(&h->gate.leave, 1, memory_order_relaxed);
	for (unsigned i = np; i < n; i++)
		pthread_join(tid[i], NULL);
	res->stop_seconds = bench_now_s() - t1;
	settle(a, h, th, res);
	res->pinned = pin;
	a->destroy(h->queue);
out:
	free(tid);
	free(th);
	free(h);
	return rc;
}
