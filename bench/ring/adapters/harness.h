/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.h - internal to bench/ring/adapters (C11 only): the state shared by
 * the threads of one experiment, the producer and consumer loops, the
 * retry policy, and the table each adapter fills in.
 *
 * Every adapter writes tiny put/get functions for its queue and passes
 * them, as constants, to bench_produce() / bench_consume(). Those loops
 * are always inlined, so the compiler sees a direct call to put/get and
 * inlines it in turn: each queue gets its own copy of the same loop, and
 * no indirect call sits on the measured path.
 *
 * Shared flags and their ordering: the gate's (ready, start, stop and
 * leave, common/core.h), and
 *   producers_done producers -> consumers, release/acquire (RD1 -> AD1):
 *                  a consumer that sees every producer done and then
 *                  fails a dequeue knows the queue is empty for good.
 *   consumers_done consumers -> main, release/acquire (RC1 -> AC1): the
 *                  consumer's results are written.
 * A consumer told to leave stops draining at once (thread creation
 * failed, or the drain deadline passed; main then drains what is left
 * itself).
 */
#ifndef GRAIN_BENCH_HARNESS_H
#define GRAIN_BENCH_HARNESS_H

#include "adapters.h"

#include "../../common/core.h"

#include <grain/lock.h>

#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Retry policy, the same for every queue: bench_backoff() with
 * bench_config.spin_fails and relax_per_fail, resolved by bench_run(). */
struct bench_harness {
	struct bench_gate gate;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) producers_done;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) consumers_done;
	alignas(GRAIN_CACHELINE) void *queue; /* read-only while running */
	struct bench_config cfg;
};

struct bench_thread {
	alignas(GRAIN_CACHELINE) struct bench_harness *h;
	unsigned index; /* among producers, or among consumers */
	bool producer;
	void *(*main)(void *);
	uint64_t failed; /* tries that moved nothing (full or empty) */
	uint64_t calls;	 /* tries that moved something */
	/* Producer results. */
	uint64_t produced;
	/* Consumer results and per-producer checks. */
	uint64_t consumed;
	uint64_t count_at_stop;
	uint64_t errors;
	uint64_t token_sum; /* sum of the tokens taken (unchecked runs) */
	uint64_t next[BENCH_MAX_THREADS]; /* lowest sequence still legal */
	uint64_t sum[BENCH_MAX_THREADS];  /* sum of sequences seen */
	uint64_t cnt[BENCH_MAX_THREADS];  /* tokens seen */
};

/* Try to move n tokens; return how many moved (0 to n). Bulk forms
 * return 0 or n. */
typedef unsigned (*bench_put_fn)(void *queue, void *local, void *const *objs,
				 unsigned n);
typedef unsigned (*bench_get_fn)(void *queue, void *local, void **objs,
				 unsigned n);

/* What each adapter provides. producer/consumer[kind] are thread entry
 * points taking a struct bench_thread *; NULL where the kind is not
 * supported. create makes a queue for cfg (capacity 1024 when bounded).
 * drain is a get that main may call, alone, once every thread is joined,
 * with local NULL and n up to BENCH_MAX_BATCH. */
struct bench_adapter {
	int (*create)(void **queuep, enum bench_impl impl,
		      const struct bench_config *cfg);
	void (*destroy)(void *queue);
	void *(*producer[BENCH_KIND_COUNT])(void *thread);
	void *(*consumer[BENCH_KIND_COUNT])(void *thread);
	/* Consumers that sleep in a blocking dequeue; NULL where the queue
	 * has none. create sees cfg->wait. */
	void *(*consumer_wait[BENCH_KIND_COUNT])(void *thread);
	bench_get_fn drain;
};

/* Consumers still draining this long after stop are told to leave. */
#define BENCH_DRAIN_MS 200u

#define BENCH_CAPACITY 1024u

/* size rounded up to a multiple of align (a power of two), as
 * aligned_alloc() wants it. */
static inline size_t bench_round_up(size_t size, size_t align)
{
	return (size + align - 1) & ~(align - 1);
}

/* Tokens: the sequence above 8 bits of (producer index + 1), never NULL. */
static inline void *bench_token(uint64_t seq, unsigned producer)
{
	return (void *)(uintptr_t)((seq << 8) | (producer + 1u));
}

/* After a try that moved nothing. */
static GRAIN_ALWAYS_INLINE void bench_retry(const struct bench_harness *h,
					    unsigned *fails)
{
	bench_backoff(fails, h->cfg.spin_fails, h->cfg.relax_per_fail);
}

/* Consumer-side check of k tokens: per producer, sequences increase. */
static GRAIN_ALWAYS_INLINE void bench_check(struct bench_thread *t,
					    void *const *objs, unsigned k,
					    unsigned producers)
{
	for (unsigned i = 0; i < k; i++) {
		uintptr_t tok = (uintptr_t)objs[i];
		unsigned p = (unsigned)(tok & 0xffu) - 1u;
		uint64_t seq = (uint64_t)tok >> 8;

		if (GRAIN_UNLIKELY(p >= producers || seq < t->next[p])) {
			t->errors++;
			continue;
		}
		t->next[p] = seq + 1;
		t->sum[p] += seq;
		t->cnt[p]++;
	}
}

/* What a daemon's consumer does with each object: touch it once. */
static GRAIN_ALWAYS_INLINE void bench_sum(struct bench_thread *t,
					  void *const *objs, unsigned k)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < k; i++)
		sum += (uintptr_t)objs[i];
	t->token_sum += sum;
}

static GRAIN_ALWAYS_INLINE void bench_produce(struct bench_thread *t,
					      void *local, bench_put_fn put)
{
	struct bench_harness *h = t->h;
	void *const queue = h->queue;
	const unsigned batch = h->cfg.batch;
	void *objs[BENCH_MAX_BATCH];
	uint64_t seq = 0;      /* next sequence to put in objs */
	unsigned done = batch; /* tokens of objs already enqueued */
	unsigned fails = 0;

	bench_gate_wait(&h->gate);
	while (!bench_gate_stopped(&h->gate)) {
		if (done == batch) {
			for (unsigned i = 0; i < batch; i++)
				objs[i] = bench_token(seq + i, t->index);
			seq += batch;
			done = 0;
		}
		unsigned k = put(queue, local, objs + done, batch - done);
		if (k != 0) {
			done += k;
			t->calls++;
			fails = 0;
		} else {
			t->failed++;
			bench_retry(h, &fails);
		}
	}
	t->produced = seq - (batch - done);
	/* RD1: pairs with AD1; our last enqueue is complete. */
	atomic_fetch_add_explicit(&h->producers_done, 1, memory_order_release);
}

/* The consumer loop. get may be a blocking dequeue with a timeout (the
 * waiting consumer): it does its own waiting, so a call that moved
 * nothing is not followed by the backoff (waits, a constant). */
static GRAIN_ALWAYS_INLINE void bench_consume_as(struct bench_thread *t,
						 void *local, bench_get_fn get,
						 bool waits)
{
	struct bench_harness *h = t->h;
	void *const queue = h->queue;
	const unsigned batch = h->cfg.batch;
	const unsigned producers = h->cfg.producers;
	const bool checked = h->cfg.checked;
	void *objs[BENCH_MAX_BATCH];
	uint64_t count = 0;
	unsigned fails = 0;
	bool stopped = false, draining = false;

	bench_gate_wait(&h->gate);
	for (;;) {
		if (!stopped) {
			if (bench_gate_stopped(&h->gate)) {
				stopped = true;
				t->count_at_stop = count;
			}
		} else if (bench_gate_left(&h->gate)) {
			break;
		}
		unsigned k = get(queue, local, objs, batch);
		if (k != 0) {
			if (checked)
				bench_check(t, objs, k, producers);
			else
				bench_sum(t, objs, k);
			count += k;
			t->calls++;
			fails = 0;
			continue;
		}
		if (draining)
			break; /* empty after every producer finished */
		/* AD1: pairs with RD1 in bench_produce(). */
		if (atomic_load_explicit(&h->producers_done,
					 memory_order_acquire) == producers) {
			draining = true;
			continue;
		}
		t->failed++;
		if (!waits)
			bench_retry(h, &fails);
	}
	if (!stopped)
		t->count_at_stop = count;
	t->consumed = count;
	/* RC1: pairs with AC1 in bench_run(). */
	atomic_fetch_add_explicit(&h->consumers_done, 1, memory_order_release);
}

static GRAIN_ALWAYS_INLINE void bench_consume(struct bench_thread *t,
					      void *local, bench_get_fn get)
{
	bench_consume_as(t, local, get, false);
}

/* The thread entry points pfx##_producer_single, _consumer_single,
 * _producer_bulk and _consumer_burst of an adapter whose calls are
 * pfx##_put_one, _get_one, _put_bulk and _get_burst (no local state). */
#define BENCH_RING_THREADS(pfx)                                     \
	BENCH_THREAD_FN(pfx##_producer_single, bench_produce, NULL, \
			pfx##_put_one)                              \
	BENCH_THREAD_FN(pfx##_consumer_single, bench_consume, NULL, \
			pfx##_get_one)                              \
	BENCH_THREAD_FN(pfx##_producer_bulk, bench_produce, NULL,   \
			pfx##_put_bulk)                             \
	BENCH_THREAD_FN(pfx##_consumer_burst, bench_consume, NULL,  \
			pfx##_get_burst)

/* The element rings' elements: @p esize bytes (a multiple of 8) at @p dst
 * that carry token @p tok in every word; bench_elem_token() gives it back
 * from the first and last word, or NULL if they differ (a torn element). */
static GRAIN_ALWAYS_INLINE void bench_elem_build(unsigned char *dst, void *tok,
						 unsigned esize)
{
	uint64_t w = (uint64_t)(uintptr_t)tok;

	for (unsigned i = 0; i < esize / 8; i++)
		memcpy(dst + 8 * i, &w, 8);
}

static GRAIN_ALWAYS_INLINE void *bench_elem_token(const unsigned char *src,
						  unsigned esize)
{
	uint64_t first, last;

	memcpy(&first, src, 8);
	memcpy(&last, src + esize - 8, 8);
	return first == last ? (void *)(uintptr_t)first : NULL;
}

/* How long a waiting consumer sleeps at most before it looks at the stop
 * and leave flags again. */
#define BENCH_WAIT_NS 1000000

/* The adapters; the optional ones exist only when their library was found
 * at build time. */
extern const struct bench_adapter bench_adapter_grain;
extern const struct bench_adapter bench_adapter_elem16; /* copying */
extern const struct bench_adapter bench_adapter_elem64;
extern const struct bench_adapter bench_adapter_elem16_zc; /* zero copy */
extern const struct bench_adapter bench_adapter_elem64_zc;
extern const struct bench_adapter bench_adapter_mutex;
extern const struct bench_adapter bench_adapter_twolock;
#ifdef GRAIN_BENCH_HAVE_CK
extern const struct bench_adapter bench_adapter_ck;
#endif
#ifdef GRAIN_BENCH_HAVE_DPDK
extern const struct bench_adapter bench_adapter_rte;
extern const struct bench_adapter bench_adapter_rte_sync; /* RTS, HTS */
extern const struct bench_adapter bench_adapter_rte_elem16_spsc;
extern const struct bench_adapter bench_adapter_rte_elem64_spsc;
extern const struct bench_adapter bench_adapter_rte_elem16_mpmc;
extern const struct bench_adapter bench_adapter_rte_elem64_mpmc;
#endif
#ifdef GRAIN_BENCH_HAVE_URCU
extern const struct bench_adapter bench_adapter_wfcq;
#endif
#ifdef GRAIN_BENCH_HAVE_BOOST
extern const struct bench_adapter bench_adapter_blf_queue;
extern const struct bench_adapter bench_adapter_blf_spsc;
#endif
#ifdef GRAIN_BENCH_HAVE_TBB
extern const struct bench_adapter bench_adapter_tbb;
#endif

#endif /* GRAIN_BENCH_HARNESS_H */
