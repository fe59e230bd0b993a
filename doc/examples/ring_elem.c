/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring_elem.c - the EXAMPLE sections of grain_ring_elem's man pages
 * (doc/manpages.py: each page shows the shortest example below that uses
 * its name, after these #include lines).
 */
#include <grain/ring_elem.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* example */
/* A ring of 16-byte records, copied in and out. */
struct rec {
	uint32_t flow, len;
	uint64_t stamp;
};

int example_ring_elem(void)
{
	struct grain_ring_elem *ring;
	struct rec in = { 7, 1500, 123 }, out;

	if (grain_ring_elem_create(&ring, 256, sizeof(struct rec),
				   GRAIN_RING_MPSC, NULL) != 0)
		return -1;
	if (grain_ring_elem_try_enqueue(ring, &in) != 0) /* -EAGAIN: full */
		return -1;
	if (grain_ring_elem_count(ring) != 1 ||
	    grain_ring_elem_free_count(ring) != 255)
		return -1;
	if (grain_ring_elem_try_dequeue(ring, &out) != 0) /* -EAGAIN: empty */
		return -1;
	grain_ring_elem_destroy(ring);
	return out.flow == 7 && out.len == 1500 ? 0 : -1;
}

/* example */
/* Batches of elements in caller memory: _bulk moves all or nothing,
 * _burst what it can. */
int example_ring_elem_batches(void)
{
	static _Alignas(GRAIN_CACHELINE) char mem[8192];
	struct grain_ring_elem *ring = (struct grain_ring_elem *)(void *)mem;
	uint32_t in[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, out[8];

	if (grain_ring_elem_memsize(8, sizeof(uint32_t)) > sizeof(mem) ||
	    grain_ring_elem_memsize(8, GRAIN_RING_ELEM_MAX_SIZE + 4) != 0 ||
	    grain_ring_elem_init(ring, 8, sizeof(uint32_t), GRAIN_RING_SPSC))
		return -1;
	if (grain_ring_elem_capacity(ring) != 8 ||
	    grain_ring_elem_esize(ring) != sizeof(uint32_t))
		return -1;
	if (grain_ring_elem_try_enqueue_bulk(ring, in, 6) != 0 ||
	    grain_ring_elem_try_enqueue_burst(ring, in, 8) != 2 || /* full */
	    !grain_ring_elem_full(ring))
		return -1;
	if (grain_ring_elem_try_dequeue_bulk(ring, out, 6) != 0 ||
	    grain_ring_elem_try_dequeue_burst(ring, out, 8) != 2 ||
	    !grain_ring_elem_empty(ring))
		return -1;
	return out[0] == 0 && out[1] == 1 ? 0 : -1;
}

/* example */
/* The blocking calls (the ring needs GRAIN_RING_WAIT; timeouts in
 * nanoseconds, negative: for ever). */
int example_ring_elem_wait(void)
{
	struct grain_ring_elem *ring;
	uint64_t v[4] = { 1, 2, 3, 4 }, w[4];
	const int64_t ms = 1000000;

	if (grain_ring_elem_create(&ring, 8, sizeof(uint64_t),
				   GRAIN_RING_MPMC | GRAIN_RING_WAIT,
				   NULL) != 0)
		return -1;
	int ok = grain_ring_elem_enqueue_wait(ring, &v[0], ms) == 0 &&
		 grain_ring_elem_enqueue_bulk_wait(ring, v, 2, ms) == 0 &&
		 grain_ring_elem_enqueue_burst_wait(ring, v, 4, ms) == 4 &&
		 grain_ring_elem_dequeue_wait(ring, &w[0], ms) == 0 &&
		 grain_ring_elem_dequeue_bulk_wait(ring, w, 2, ms) == 0 &&
		 grain_ring_elem_dequeue_burst_wait(ring, w, 4, ms) == 4;
	grain_ring_elem_destroy(ring);
	return ok ? 0 : -1;
}

/* example */
/* Zero copy: the single producer builds elements in ring memory, the
 * single consumer reads them there. */
int example_ring_elem_zero_copy(void)
{
	struct grain_ring_elem *ring;
	struct grain_ring_zc zc;
	uint64_t sum = 0;
	unsigned i;

	if (grain_ring_elem_create(&ring, 8, sizeof(uint64_t), GRAIN_RING_SPSC,
				   NULL) != 0)
		return -1;
	if (grain_ring_elem_try_reserve_bulk(ring, 4, &zc) != 0)
		return -1;
	for (i = 0; i < zc.n; i++) {
		uint64_t v = i + 1;
		memcpy(grain_ring_zc_at(&zc, i), &v, sizeof(v));
	}
	if (grain_ring_elem_commit(ring, zc.n) != 0)
		return -1;
	if (grain_ring_elem_try_peek_burst(ring, 8, &zc) != 4)
		return -1;
	for (i = 0; i < zc.n; i++) {
		uint64_t v;
		memcpy(&v, grain_ring_zc_at(&zc, i), sizeof(v));
		sum += v;
	}
	if (grain_ring_elem_release(ring, zc.n) != 0)
		return -1;
	/* Nothing ready: a bulk peek of 1 fails, a burst reserve takes the
	 * 8 free slots; commit(0) cancels it. */
	if (grain_ring_elem_try_peek_bulk(ring, 1, &zc) == 0 ||
	    grain_ring_elem_try_reserve_burst(ring, 8, &zc) != 8 ||
	    grain_ring_elem_commit(ring, 0) != 0)
		return -1;
	grain_ring_elem_destroy(ring);
	return sum == 10 ? 0 : -1;
}

/* example */
/* Closing: the elements queued before the close still come out, then
 * every call says -EPIPE. */
int example_ring_elem_close(void)
{
	struct grain_ring_elem *ring;
	uint64_t v = 5, w = 0;

	if (grain_ring_elem_create(&ring, 8, sizeof(uint64_t), GRAIN_RING_MPMC,
				   NULL) != 0)
		return -1;
	int ok = grain_ring_elem_try_enqueue(ring, &v) == 0 &&
		 grain_ring_elem_close(ring) == 0 &&
		 grain_ring_elem_closed(ring) &&
		 grain_ring_elem_try_enqueue(ring, &v) == -EPIPE &&
		 grain_ring_elem_try_dequeue(ring, &w) == 0 && w == 5 &&
		 grain_ring_elem_try_dequeue(ring, &w) == -EPIPE;
	grain_ring_elem_destroy(ring);
	return ok ? 0 : -1;
}

/* example */
/* Counts out of the bulk and burst calls, on elements. */
int example_ring_elem_counts(void)
{
	struct grain_ring_elem *ring;
	uint64_t in[3] = { 1, 2, 3 }, out[3];
	unsigned free_space, available;

	if (grain_ring_elem_create(&ring, 4, sizeof(uint64_t), GRAIN_RING_SPSC,
				   NULL) != 0)
		return -1;
	if (grain_ring_elem_try_enqueue_bulk_space(ring, in, 3, &free_space) !=
		    0 ||
	    free_space != 1)
		return -1;
	if (grain_ring_elem_try_enqueue_burst_space(ring, in, 3, &free_space) !=
		    1 ||
	    free_space != 0)
		return -1;
	if (grain_ring_elem_try_dequeue_bulk_avail(ring, out, 3, &available) !=
		    0 ||
	    available != 1)
		return -1;
	int n = grain_ring_elem_try_dequeue_burst_avail(ring, out, 3,
							&available);
	grain_ring_elem_destroy(ring);
	return n == 1 && available == 0 && out[0] == 1 ? 0 : -1;
}
