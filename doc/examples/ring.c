/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring.c - the EXAMPLE sections of grain_ring's man pages (doc/manpages.py
 * shows each page the shortest example below that uses its name, after these
 * #include lines; test/release/docs/check_examples.sh builds and runs each as
 * its page shows it).
 */
#include <grain/ring.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

/* example */
/* A ring of pointers: one object in, the same object out. */
int example_ring(void)
{
	struct grain_ring *ring;
	int item = 42;
	void *obj;

	if (grain_ring_create(&ring, 1024, GRAIN_RING_MPMC, NULL) != 0)
		return -1;
	if (grain_ring_try_enqueue(ring, &item) != 0) /* -EAGAIN: full */
		return -1;
	if (grain_ring_try_dequeue(ring, &obj) != 0) /* -EAGAIN: empty */
		return -1;
	printf("got %d; capacity %u, %u queued\n", *(int *)obj,
	       grain_ring_capacity(ring), grain_ring_count(ring));
	grain_ring_destroy(ring);
	return obj == &item ? 0 : -1;
}

/* example */
/* A single-producer, single-consumer ring in caller memory, filled and
 * drained in batches: _bulk moves all or nothing, _burst what it can. */
int example_ring_batches(void)
{
	static _Alignas(GRAIN_CACHELINE) char mem[16384];
	struct grain_ring *ring = (struct grain_ring *)(void *)mem;
	void *in[8], *out[8];
	enum grain_ring_mode mode = GRAIN_RING_SPSC;
	uint64_t enq, deq;
	unsigned i;

	/* Capacities are powers of two in [GRAIN_RING_MIN_CAPACITY,
	 * GRAIN_RING_MAX_CAPACITY]; memsize is 0 for any other. */
	if (grain_ring_memsize(GRAIN_RING_MIN_CAPACITY + 1) != 0 ||
	    grain_ring_memsize(GRAIN_RING_MAX_CAPACITY) == 0)
		return -1;
	if (grain_ring_memsize(16) > sizeof(mem) ||
	    grain_ring_init(ring, 16, mode) != 0)
		return -1;
	for (i = 0; i < 8; i++)
		in[i] = &in[i];
	if (grain_ring_try_enqueue_bulk(ring, in, 8) != 0)
		return -1; /* -EAGAIN: fewer than 8 slots free, none queued */
	if (grain_ring_try_enqueue_burst(ring, in, 8) != 8) /* 8 of 8 fit */
		return -1;
	if (!grain_ring_full(ring) || grain_ring_free_count(ring) != 0)
		return -1;
	if (grain_ring_try_dequeue_bulk(ring, out, 8) != 0)
		return -1;
	int n = grain_ring_try_dequeue_burst(ring, out, 8);
	grain_ring_totals(ring, &enq, &deq);
	/* A ring from grain_ring_init() needs no destroy: the memory is
	 * the caller's. */
	return n == 8 && grain_ring_empty(ring) && enq == 16 && deq == 16 ? 0
									  : -1;
}

/* example */
/* Blocking calls need GRAIN_RING_WAIT. A timeout of 0 makes one attempt,
 * a negative one waits for ever; -ETIMEDOUT says time ran out. */
int example_ring_wait(void)
{
	struct grain_ring *ring;
	void *objs[4] = { NULL, NULL, NULL, NULL };
	void *obj;
	int n;

	if (grain_ring_create(&ring, 4, GRAIN_RING_MPMC | GRAIN_RING_WAIT,
			      NULL) != 0)
		return -1;
	if (grain_ring_enqueue_wait(ring, objs, 1000000) != 0 ||
	    grain_ring_enqueue_bulk_wait(ring, objs, 2, 1000000) != 0)
		return -1;
	n = grain_ring_enqueue_burst_wait(ring, objs, 4, 1000000); /* 1 */
	if (grain_ring_dequeue_wait(ring, &obj, 1000000) != 0 ||
	    grain_ring_dequeue_bulk_wait(ring, objs, 2, 1000000) != 0 ||
	    grain_ring_dequeue_burst_wait(ring, objs, 4, 1000000) != 1)
		return -1;
	/* Empty now: a 1 ms wait runs out. */
	if (grain_ring_dequeue_wait(ring, &obj, 1000000) != -ETIMEDOUT)
		return -1;
	grain_ring_destroy(ring);
	return n == 1 ? 0 : -1;
}

/* example */
/* Zero copy on an SPSC ring: the producer stores its pointers straight
 * into the reserved slots, the consumer reads them where they lie. */
int example_ring_zero_copy(void)
{
	struct grain_ring *ring;
	struct grain_ring_zc zc;
	static int items[3] = { 1, 2, 3 };
	unsigned i;
	int sum = 0;

	if (grain_ring_create(&ring, 8, GRAIN_RING_SP | GRAIN_RING_SC, NULL) !=
	    0)
		return -1;
	if (grain_ring_try_reserve_bulk(ring, 3, &zc) != 0)
		return -1;
	for (i = 0; i < zc.n; i++)
		*(void **)grain_ring_zc_at(&zc, i) = &items[i];
	if (grain_ring_commit(ring, 3) != 0)
		return -1;
	if (grain_ring_try_peek_bulk(ring, 3, &zc) != 0)
		return -1;
	for (i = 0; i < zc.n; i++)
		sum += **(int **)grain_ring_zc_at(&zc, i);
	if (grain_ring_release(ring, zc.n) != 0)
		return -1;
	/* The _burst forms take what there is: none now. */
	int r = grain_ring_try_reserve_burst(ring, 16, &zc); /* 8 free */
	if (r != 8 || grain_ring_commit(ring, 0) != 0)	     /* 0: cancel */
		return -1;
	if (grain_ring_try_peek_burst(ring, 4, &zc) != 0) /* empty */
		return -1;
	grain_ring_destroy(ring);
	return sum == 6 ? 0 : -1;
}

/* example */
/* 0.3.0's names still compile, with a deprecation warning: each is the
 * try_ call of the same arguments. New code uses the try_ names. */
int example_ring_old_names(void)
{
	struct grain_ring *ring;
	void *objs[2] = { NULL, NULL };
	int ok;

	if (grain_ring_create(&ring, 4, GRAIN_RING_MPMC, NULL) != 0)
		return -1;
	ok = grain_ring_enqueue_bulk(ring, objs, 2) == 0 &&
	     grain_ring_enqueue_burst(ring, objs, 2) == 2 &&
	     grain_ring_dequeue_bulk(ring, objs, 2) == 0 &&
	     grain_ring_dequeue_burst(ring, objs, 2) == 2;
	grain_ring_destroy(ring);
	return ok ? 0 : -1;
}

/* example */
/* Shutting a ring down: after grain_ring_close() every enqueue fails with
 * -EPIPE, a consumer still gets what was queued before, then -EPIPE, and
 * a consumer asleep in a _wait call wakes at once (no poison pill). */
int example_ring_close(void)
{
	struct grain_ring *ring;
	int item = 7;
	void *obj = NULL;

	if (grain_ring_create(&ring, 8, GRAIN_RING_MPMC | GRAIN_RING_WAIT,
			      NULL) != 0)
		return -1;
	if (grain_ring_try_enqueue(ring, &item) != 0 ||
	    grain_ring_close(ring) != 0 || !grain_ring_closed(ring))
		return -1;
	int ok = grain_ring_try_enqueue(ring, &item) == -EPIPE &&
		 grain_ring_dequeue_wait(ring, &obj, -1) == 0 && obj == &item &&
		 grain_ring_dequeue_wait(ring, &obj, -1) == -EPIPE;
	grain_ring_destroy(ring);
	return ok ? 0 : -1;
}
