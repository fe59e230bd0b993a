/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.h - inside bench/ring/adapters (C11): what the threads of one
 * experiment share, their producer and consumer loops, and the adapter
 * each queue's file defines with BENCH_ADAPTER().
 *
 * An adapter writes small put and get calls for its queue and hands them
 * to BENCH_ADAPTER(), which makes a thread of each: the harness's loop,
 * always inlined, with the call as a constant, which the compiler inlines
 * in turn. Each queue so runs its own copy of the same loop, with no
 * indirect call on the measured path.
 *
 * The flags the threads share, besides the gate's (common/core.h):
 *   producers_done  producers -> consumers, release/acquire (RD1 -> AD1):
 *                   a consumer that sees every producer done and then
 *                   fails a dequeue knows the queue is empty for good.
 *   consumers_done  consumers -> main, release/acquire (RC1 -> AC1): the
 *                   consumer's results are written.
 * A consumer told to leave (a thread did not start, or the drain deadline
 * passed and main empties the queue itself) stops at once.
 */
#ifndef GRAIN_BENCH_HARNESS_H
#define GRAIN_BENCH_HARNESS_H

#include "adapters.h"

#include "../../common/core.h"

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BENCH_DRAIN_MS 200u   /* the drain's deadline after stop */
#define BENCH_WAIT_NS 1000000 /* a waiting consumer's timeout */
/* Enough for a batch of the largest elements (element rings), and a line
 * after it for what an adapter keeps of that batch. */
#define BENCH_LOCAL_ELEMS (BENCH_MAX_BATCH * 64u)
#define BENCH_LOCAL_BYTES (BENCH_LOCAL_ELEMS + GRAIN_CACHELINE)

struct bench_harness {
	struct bench_gate gate;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) producers_done;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) consumers_done;
	alignas(GRAIN_CACHELINE) void *queue; /* read-only while running */
	struct bench_config cfg; /* the retry policy's defaults resolved */
};

struct bench_thread {
	alignas(GRAIN_CACHELINE) struct bench_harness *h;
	unsigned index; /* among the producers, or among the consumers */
	bool producer;
	void *(*main)(void *); /* its entry point, the adapter's */
	uint64_t failed;       /* tries that moved nothing (full or empty) */
	uint64_t calls;	       /* tries that moved something */
	uint64_t produced, consumed, count_at_stop;
	uint64_t errors;    /* order errors (checked runs) */
	uint64_t token_sum; /* of the tokens taken (unchecked runs) */
	/* Checked runs, by producer: the lowest sequence still legal, the
	 * sum of the sequences seen and their count. */
	uint64_t next[BENCH_MAX_THREADS], sum[BENCH_MAX_THREADS];
	uint64_t cnt[BENCH_MAX_THREADS];
};

/* Try to move up to n tokens; return how many moved (bulk: 0 or n). LOCAL
 * is the thread's own state (BENCH_ADAPTER()'s local), or main's buffer in
 * the drain. */
typedef unsigned (*bench_put_fn)(void *queue, void *local, void *const *objs,
				 unsigned n);
typedef unsigned (*bench_get_fn)(void *queue, void *local, void **objs,
				 unsigned n);

/* An adapter's put or get call NAME (bench_put_fn, bench_get_fn: q, local,
 * objs and n), which returns EXPR. A put is always inlined into its
 * threads; a get may be main's drain too, and then the compiler decides. */
#define BENCH_UNUSED __attribute__((unused))
#define BENCH_PUT(name, expr)                                            \
	static GRAIN_ALWAYS_INLINE unsigned name(                        \
		void *q, BENCH_UNUSED void *local,                       \
		BENCH_UNUSED void *const *objs, BENCH_UNUSED unsigned n) \
	{                                                                \
		return (expr);                                           \
	}
#define BENCH_GET(name, expr)                                                \
	static unsigned name(void *q, BENCH_UNUSED void *local, void **objs, \
			     BENCH_UNUSED unsigned n)                        \
	{                                                                    \
		return (expr);                                               \
	}

/* A queue's adapter: create makes it for cfg (BENCH_CAPACITY slots when
 * bounded; a waiting consumer's queue sees cfg->wait); drain is main's get
 * after the join; has[kind] and waits say whether the queue has calls of
 * that kind, and blocking gets; then the threads of each kind, taking a
 * struct bench_thread *. */
struct bench_adapter {
	int (*create)(void **queuep, enum bench_impl impl,
		      const struct bench_config *cfg);
	void (*destroy)(void *queue);
	bench_get_fn drain;
	bool has[BENCH_KIND_COUNT], waits;
	void *(*producer[BENCH_KIND_COUNT])(void *thread);
	void *(*consumer[BENCH_KIND_COUNT])(void *thread);
	void *(*consumer_wait[BENCH_KIND_COUNT])(void *thread);
};

/* What a thread may hand its calls as local, given its struct and a buffer
 * on its stack: nothing, or that buffer (a copying element ring's). */
static GRAIN_ALWAYS_INLINE void *bench_no_local(struct bench_thread *t,
						unsigned char *buf)
{
	(void)t;
	(void)buf;
	return NULL;
}

static GRAIN_ALWAYS_INLINE void *bench_stack_buf(struct bench_thread *t,
						 unsigned char *buf)
{
	(void)t;
	return buf;
}

/* Tokens: the sequence above 8 bits of (producer + 1), never NULL. */
static inline void *bench_token(uint64_t seq, unsigned producer)
{
	return (void *)(uintptr_t)((seq << 8) | (producer + 1u));
}

/* A count from a call that returns it or a negative errno. */
static inline unsigned bench_moved(int k)
{
	return k > 0 ? (unsigned)k : 0;
}

/* Consumer-side check of K tokens: per producer, sequences increase. */
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

/* The producer: batches of fresh tokens, each retried until it is all in
 * (a burst may take part of one), until stop. */
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

	if (put == NULL)
		return; /* a call the queue lacks: never started */
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
			bench_backoff(&fails, h->cfg.spin_fails,
				      h->cfg.relax_per_fail);
		}
	}
	t->produced = seq - (batch - done);
	/* RD1: pairs with AD1; our last enqueue is complete. */
	atomic_fetch_add_explicit(&h->producers_done, 1, memory_order_release);
}

/* The consumer: takes up to a batch per call until stop, then drains until
 * the queue is empty after every producer finished, or main says leave.
 * A get that WAITS (a blocking dequeue with a timeout) does its own
 * waiting: a call that moved nothing is not followed by the backoff. */
static GRAIN_ALWAYS_INLINE void
bench_consume(struct bench_thread *t, void *local, bench_get_fn get, bool waits)
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

	if (get == NULL)
		return; /* a call the queue lacks: never started */
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
			bench_backoff(&fails, h->cfg.spin_fails,
				      h->cfg.relax_per_fail);
	}
	if (!stopped)
		t->count_at_stop = count;
	t->consumed = count;
	/* RC1: pairs with AC1 in bench_run(). */
	atomic_fetch_add_explicit(&h->consumers_done, 1, memory_order_release);
}

/* 1 if CALL names a function, 0 if it is NULL: a constant, which a
 * comparison of the function's address with NULL is not. */
#define BENCH_HAS(call) _Generic((call), void * : 0, default : 1)

/* A thread entry point NAME that runs LOOP on its struct, with what LOCAL
 * gives from it and a buffer on its stack, and the arguments after. */
#define BENCH_RING_THREAD(name, loop, local, ...)                              \
	static void *name(void *arg)                                           \
	{                                                                      \
		alignas(GRAIN_CACHELINE) unsigned char buf[BENCH_LOCAL_BYTES]; \
		loop(arg, local(arg, buf), __VA_ARGS__);                       \
		return NULL;                                                   \
	}

/*
 * BENCH_ADAPTER - the adapter NAME of a queue made by CREATE and freed by
 * DESTROY, whose threads hand their calls what LOCAL gives (bench_no_local,
 * bench_stack_buf or the adapter's own), drained by DRAIN, with its calls:
 * put for single, bulk and burst, get one and get many (bulk and burst),
 * and the blocking gets. A call is NULL where the queue has none; its
 * threads are then empty, and bench_config_ok() keeps them from starting.
 */
#define BENCH_ADAPTER(name, create, destroy, local, drain, put_one, put_bulk, \
		      put_burst, get_one, get_many, wait_one, wait_many)      \
	BENCH_RING_THREAD(name##_put_one, bench_produce, local, put_one)      \
	BENCH_RING_THREAD(name##_put_bulk, bench_produce, local, put_bulk)    \
	BENCH_RING_THREAD(name##_put_burst, bench_produce, local, put_burst)  \
	BENCH_RING_THREAD(name##_get_one, bench_consume, local, get_one,      \
			  false)                                              \
	BENCH_RING_THREAD(name##_get_many, bench_consume, local, get_many,    \
			  false)                                              \
	BENCH_RING_THREAD(name##_wait_one, bench_consume, local, wait_one,    \
			  true)                                               \
	BENCH_RING_THREAD(name##_wait_many, bench_consume, local, wait_many,  \
			  true)                                               \
	const struct bench_adapter name = {                                   \
		create,                                                       \
		destroy,                                                      \
		drain,                                                        \
		{ BENCH_HAS(put_one), BENCH_HAS(put_bulk),                    \
		  BENCH_HAS(put_burst) },                                     \
		BENCH_HAS(wait_one),                                          \
		{ name##_put_one, name##_put_bulk, name##_put_burst },        \
		{ name##_get_one, name##_get_many, name##_get_many },         \
		{ name##_wait_one, name##_wait_many, name##_wait_many },      \
	};

/* The element rings' elements: ESIZE bytes (a multiple of 8) at DST that
 * carry token TOK in every word; bench_elem_token() gives it back from the
 * first and the last word, or NULL if they differ (a torn element), which
 * the count and sum checks catch. */
static GRAIN_ALWAYS_INLINE void bench_elem_build(unsigned char *dst, void *tok,
						 unsigned esize)
{
	uint64_t w = (uint64_t)(uintptr_t)tok;

	for (unsigned i = 0; i < esize / 8; i++)
		memcpy(dst + 8 * i, &w, 8);
}

/* A copying producer's batch of elements, built in its thread's buffer.
 * A retry after a call that moved none or part of the batch enqueues the
 * elements already built, as an application would, and builds nothing
 * again (so a full ring costs a copying producer no more than a zero copy
 * one, whose failed reserve builds nothing). What the buffer holds is
 * kept after its elements: the last n built, from element `off` on, are
 * still to enqueue, the first of them made from token `next`. */
struct bench_elem_stage {
	void *next;
	unsigned left, off;
};

static inline struct bench_elem_stage *bench_elem_stage_of(unsigned char *buf)
{
	return (struct bench_elem_stage *)(void *)(buf + BENCH_LOCAL_ELEMS);
}

/* LOCAL of a copying element adapter: the thread's buffer, nothing built
 * in it yet. */
static inline void *bench_elem_stage_buf(struct bench_thread *t,
					 unsigned char *buf)
{
	(void)t;
	*bench_elem_stage_of(buf) = (struct bench_elem_stage){ NULL, 0, 0 };
	return buf;
}

/* The n elements of objs, built unless this is a retry (tokens are
 * unique: the same first token and count is one); then
 * bench_elem_staged() with what the call moved. */
static GRAIN_ALWAYS_INLINE unsigned char *bench_elem_stage(unsigned char *buf,
							   void *const *objs,
							   unsigned n,
							   unsigned esize)
{
	struct bench_elem_stage *st = bench_elem_stage_of(buf);

	if (st->left != n || st->next != objs[0]) {
		for (unsigned i = 0; i < n; i++)
			bench_elem_build(buf + (size_t)i * esize, objs[i],
					 esize);
		st->off = 0;
	}
	return buf + (size_t)st->off * esize;
}

static GRAIN_ALWAYS_INLINE unsigned bench_elem_staged(unsigned char *buf,
						      void *const *objs,
						      unsigned n,
						      unsigned moved)
{
	struct bench_elem_stage *st = bench_elem_stage_of(buf);

	st->off += moved;
	st->left = n - moved;
	st->next = moved < n ? objs[moved] : NULL;
	return moved;
}

static GRAIN_ALWAYS_INLINE void *bench_elem_token(const unsigned char *src,
						  unsigned esize)
{
	uint64_t first, last;

	memcpy(&first, src, 8);
	memcpy(&last, src + esize - 8, 8);
	return first == last ? (void *)(uintptr_t)first : NULL;
}

/* The adapters. Those of the optional anchors are weak: NULL when their
 * library was not found and their file not built. */
extern const struct bench_adapter bench_adapter_grain, bench_adapter_elem16,
	bench_adapter_elem64, bench_adapter_elem16_zc, bench_adapter_elem64_zc,
	bench_adapter_mutex, bench_adapter_twolock, bench_adapter_twolock_pspin,
	bench_adapter_scq;
__attribute__((weak)) extern const struct bench_adapter bench_adapter_ck,
	bench_adapter_wfcq, bench_adapter_rte, bench_adapter_rte_sync,
	bench_adapter_rte_elem16_spsc, bench_adapter_rte_elem64_spsc,
	bench_adapter_rte_elem16_mpmc, bench_adapter_rte_elem64_mpmc,
	bench_adapter_blf_queue, bench_adapter_blf_spsc, bench_adapter_tbb,
	bench_adapter_moody, bench_adapter_moody_tok, bench_adapter_moody_blk,
	bench_adapter_moody_rwq;

#endif /* GRAIN_BENCH_HARNESS_H */
