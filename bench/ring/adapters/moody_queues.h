/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * moody_queues.h - inside bench/ring/adapters: moodycamel's queues
 * (ConcurrentQueue, without and with producer and consumer tokens;
 * BlockingConcurrentQueue; ReaderWriterQueue) behind C calls of the
 * harness's signatures (harness.h's bench_put_fn and bench_get_fn), for
 * moody_adapter.c to drive. Header-only libraries: with the benchmark's
 * link-time optimisation the calls inline across the language boundary.
 */
#ifndef GRAIN_BENCH_MOODY_QUEUES_H
#define GRAIN_BENCH_MOODY_QUEUES_H

#include "adapters.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes IMPL's queue: 0, -ENOMEM or -EINVAL. */
int bench_moody_create(void **queuep, enum bench_impl impl,
		       const struct bench_config *cfg);

/* A thread's token for the token queue QUEUE, made in BUF (the thread's
 * stack buffer): a producer token for a producer, else a consumer token;
 * destroyed by bench_moody_token_drop() before the thread ends (the
 * queue's destructor writes to its producers' live tokens). */
void *bench_moody_token(void *queue, bool producer, void *buf);
void bench_moody_token_drop(void *token, bool producer);

/* Q_destroy, Q_put (one: n == 1; a batch all or nothing) and Q_get (up to
 * n) of each queue; the token queue's LOCAL is its thread's token, the
 * others ignore it. */
#define BENCH_MOODY_CALLS(q)                                          \
	void q##_destroy(void *queue);                                \
	unsigned q##_put(void *queue, void *local, void *const *objs, \
			 unsigned n);                                 \
	unsigned q##_get(void *queue, void *local, void **objs, unsigned n)
BENCH_MOODY_CALLS(bench_moody);
BENCH_MOODY_CALLS(bench_moody_tok);
BENCH_MOODY_CALLS(bench_moody_blk);
BENCH_MOODY_CALLS(bench_rwq); /* put: one at a time, up to the first full */
/* BlockingConcurrentQueue's timed waits: up to n, waiting up to WAIT_US
 * for the first. */
unsigned bench_moody_blk_wait(void *queue, void *local, void **objs,
			      unsigned n);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_MOODY_QUEUES_H */
