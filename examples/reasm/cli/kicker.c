/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kicker.c - the kicker thread (kicker.h).
 *
 * The producer hands a burst over by counting it in `bursts` (K2: a
 * seq_cst add, then a seq_cst load of `idle`); the kicker, finding no new
 * burst, stores `idle` (K1: seq_cst) before it looks at `bursts` again
 * under the lock. In the one total order of those four accesses either
 * the kicker sees the new count, or the producer sees it idle and signals
 * under the lock, where the kicker's look and its wait are one step. So
 * no burst waits for a later one. test/model/kicker.pml checks this, and
 * that a signal without the lock would lose the wake-up.
 */
#include "kicker.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct kicker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	kicker_fn *kick;
	void *arg;
	/* Bursts handed over (the producer's) and whether the kicker is
	 * asleep or about to be (the kicker's): K1 and K2. */
	_Atomic(uint64_t) bursts;
	_Atomic(bool) idle;
	bool stop;		  /* under lock */
	bool running;		  /* the producer's */
	_Atomic(uint64_t) errors; /* written by the kicker only */
};

static void *kicker_main(void *arg)
{
	struct kicker *k = arg;
	uint64_t seen = 0;

	for (;;) {
		uint64_t n =
			atomic_load_explicit(&k->bursts, memory_order_relaxed);
		if (n != seen) {
			seen = n;
			if (!k->kick(k->arg, n))
				atomic_fetch_add_explicit(&k->errors, 1,
							  memory_order_relaxed);
			continue;
		}
		/* K1: pairs with K2 in kicker_hand_over(). */
		atomic_store_explicit(&k->idle, true, memory_order_seq_cst);
		pthread_mutex_lock(&k->lock);
		while (!k->stop &&
		       atomic_load_explicit(&k->bursts, memory_order_seq_cst) ==
			       seen)
			pthread_cond_wait(&k->cond, &k->lock);
		bool stop = k->stop;
		pthread_mutex_unlock(&k->lock);
		atomic_store_explicit(&k->idle, false, memory_order_relaxed);
		if (stop && atomic_load_explicit(&k->bursts,
						 memory_order_relaxed) == seen)
			return NULL;
	}
}

int kicker_start(struct kicker **kp, kicker_fn *kick, void *arg)
{
	struct kicker *k = calloc(1, sizeof(*k));
	int rc = -ENOMEM;

	if (k == NULL)
		return -ENOMEM;
	k->kick = kick;
	k->arg = arg;
	if (pthread_mutex_init(&k->lock, NULL) != 0)
		goto out_free;
	if (pthread_cond_init(&k->cond, NULL) != 0)
		goto out_lock;
	rc = -pthread_create(&k->thread, NULL, kicker_main, k);
	if (rc == 0) {
		k->running = true;
		*kp = k;
		return 0;
	}
	pthread_cond_destroy(&k->cond);
out_lock:
	pthread_mutex_destroy(&k->lock);
out_free:
	free(k);
	return rc;
}

void kicker_hand_over(struct kicker *k)
{
	/* K2: pairs with K1 in kicker_main(). */
	atomic_fetch_add_explicit(&k->bursts, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&k->idle, memory_order_seq_cst)) {
		pthread_mutex_lock(&k->lock);
		pthread_cond_signal(&k->cond);
		pthread_mutex_unlock(&k->lock);
	}
}

void kicker_stop(struct kicker *k)
{
	if (!k->running)
		return;
	pthread_mutex_lock(&k->lock);
	k->stop = true;
	pthread_cond_signal(&k->cond);
	pthread_mutex_unlock(&k->lock);
	pthread_join(k->thread, NULL);
	k->running = false;
}

bool kicker_running(const struct kicker *k)
{
	return k->running;
}

uint64_t kicker_errors(const struct kicker *k)
{
	return atomic_load_explicit(&((struct kicker *)(uintptr_t)k)->errors,
				    memory_order_relaxed);
}

void kicker_free(struct kicker *k)
{
	if (k == NULL)
		return;
	kicker_stop(k);
	pthread_cond_destroy(&k->cond);
	pthread_mutex_destroy(&k->lock);
	free(k);
}
