/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring_table.h - the two kinds of ring behind one set of calls, for the
 * tests that run on both (test_ring_ops.c, test_ring_elem.c):
 *
 *   - elements: fill() writes element (prod, seq) of any size, whose
 *     words are derived from (prod, seq) and whose last word is a
 *     checksum of the others; check_elem() checks one and returns
 *     (prod, seq);
 *   - struct any_ring: a pointer ring (grain_ring, esize 0 in a row) or
 *     an element ring (grain_ring_elem of esize bytes), with the copying
 *     calls of each shape (any_put_n(), any_get_n(): single, _bulk,
 *     _burst), the zero-copy calls and the snapshots;
 *   - struct ring_row and RING_ROWS: the rows of the operations table,
 *     ring kind x mode x shape (test_ring_ops.c has the table).
 *
 * A value v travels in a pointer ring as the pointer (void *)v, and in an
 * element ring as element (7, v). Criterion asserts: include it from test
 * files only.
 */
#ifndef GRAIN_TEST_RING_TABLE_H
#define GRAIN_TEST_RING_TABLE_H

#include <grain/ring.h>
#include <grain/ring_elem.h>

#include <criterion/criterion.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../common/test_table.h"

/* --- elements ------------------------------------------------------------ */

#define MAX_WORDS 64 /* 256-byte elements at most in these tests */

static inline uint32_t word_of(uint32_t prod, uint32_t seq, unsigned i)
{
	uint64_t x = ((uint64_t)prod << 32 | seq) * 0x9e3779b97f4a7c15u;

	x ^= (uint64_t)(i + 1) * 0xbf58476d1ce4e5b9u;
	x ^= x >> 29;
	return (uint32_t)x;
}

static inline uint32_t checksum(const uint32_t *w, unsigned words)
{
	uint32_t c = 0x811c9dc5u;

	for (unsigned i = 0; i + 1 < words; i++)
		c = (c ^ w[i]) * 0x01000193u;
	return c;
}

/* Element (prod, seq) of @p esize bytes into dst: word 0 is prod << 24 |
 * seq, the middle words are derived from it, the last is a checksum of the
 * others (for esize 4 there is only word 0). */
static inline void fill(void *dst, unsigned esize, uint32_t prod, uint32_t seq)
{
	uint32_t w[MAX_WORDS];
	unsigned words = esize / 4;

	w[0] = prod << 24 | seq;
	for (unsigned i = 1; i + 1 < words; i++)
		w[i] = word_of(prod, seq, i);
	if (words > 1)
		w[words - 1] = checksum(w, words);
	memcpy(dst, w, esize);
}

/* Check an element's words; returns its (prod, seq) packed. */
static inline uint64_t check_elem(const void *src, unsigned esize)
{
	uint32_t w[MAX_WORDS];
	unsigned words = esize / 4;

	memcpy(w, src, esize);
	if (words > 1)
		cr_assert_eq(w[words - 1], checksum(w, words),
			     "element checksum");
	uint32_t prod = w[0] >> 24, seq = w[0] & 0xffffffu;
	for (unsigned i = 1; i + 1 < words; i++)
		cr_assert_eq(w[i], word_of(prod, seq, i), "element word %u", i);
	return (uint64_t)prod << 32 | seq;
}

/* --- the operations table --------------------------------------------------- */

/* The shape of a copying call: one object, all or nothing, as many as
 * fit. */
enum ring_op {
	RING_SINGLE, /* try_enqueue / try_dequeue */
	RING_BULK,   /* try_*_bulk */
	RING_BURST,  /* try_*_burst */
};

/* One row; no pointers (Criterion copies a row into the test's own
 * process). */
struct ring_row {
	unsigned esize; /* 0: a pointer ring; else an element ring's */
	unsigned flags; /* mode, and GRAIN_RING_WAIT */
	enum ring_op op;
};

/* Every mode, then every shape, of one ring kind: a new mode is one line
 * of RING_MODES, a new element size one RING_ROWS() in the table. */
#define RING_MODES(esize, op)                                            \
	TABLE_ROW(esize, GRAIN_RING_MPMC, op),                           \
		TABLE_ROW(esize, GRAIN_RING_MPSC, op),                   \
		TABLE_ROW(esize, GRAIN_RING_SPMC, op),                   \
		TABLE_ROW(esize, GRAIN_RING_SPSC, op),                   \
		TABLE_ROW(esize, GRAIN_RING_MPMC | GRAIN_RING_WAIT, op), \
		TABLE_ROW(esize, GRAIN_RING_SPSC | GRAIN_RING_WAIT, op)
#define RING_ROWS(esize)                                              \
	RING_MODES(esize, RING_SINGLE), RING_MODES(esize, RING_BULK), \
		RING_MODES(esize, RING_BURST)

/* --- either kind of ring ------------------------------------------------------- */

struct any_ring {
	bool elem;
	struct grain_ring *p;
	struct grain_ring_elem *e;
	unsigned esize; /* sizeof(void *) for a pointer ring */
};

static inline struct any_ring any_make(bool elem, unsigned cap, unsigned esize,
				       unsigned flags)
{
	struct any_ring a = { elem, NULL, NULL,
			      elem ? esize : (unsigned)sizeof(void *) };

	if (elem)
		cr_assert_eq(grain_ring_elem_create(&a.e, cap, esize, flags,
						    NULL),
			     0);
	else
		cr_assert_eq(grain_ring_create(&a.p, cap, flags, NULL), 0);
	return a;
}

/* The ring of a row, of capacity @p cap. */
static inline struct any_ring any_of_row(const struct ring_row *row,
					 unsigned cap)
{
	return any_make(row->esize != 0, cap, row->esize, row->flags);
}

static inline void any_destroy(struct any_ring *a)
{
	grain_ring_destroy(a->p);
	grain_ring_elem_destroy(a->e);
}

/* The grain_ring under either kind (for grain_impl_ring_reset()). */
static inline struct grain_ring *any_ring_of(struct any_ring *a)
{
	return a->elem ? &a->e->ring : a->p;
}

static inline unsigned any_count(struct any_ring *a)
{
	return a->elem ? grain_ring_elem_count(a->e) : grain_ring_count(a->p);
}

static inline unsigned any_free_count(struct any_ring *a)
{
	return a->elem ? grain_ring_elem_free_count(a->e)
		       : grain_ring_free_count(a->p);
}

static inline unsigned any_capacity(struct any_ring *a)
{
	return a->elem ? grain_ring_elem_capacity(a->e)
		       : grain_ring_capacity(a->p);
}

static inline bool any_empty(struct any_ring *a)
{
	return a->elem ? grain_ring_elem_empty(a->e) : grain_ring_empty(a->p);
}

static inline bool any_full(struct any_ring *a)
{
	return a->elem ? grain_ring_elem_full(a->e) : grain_ring_full(a->p);
}

/* Value v into slot memory, and back. */
static inline void any_put(struct any_ring *a, void *slot, uint32_t v)
{
	if (a->elem)
		fill(slot, a->esize, 7, v);
	else
		*(void **)slot = (void *)(uintptr_t)v;
}

static inline uint32_t any_get(struct any_ring *a, const void *slot)
{
	if (a->elem) {
		uint64_t ps = check_elem(slot, a->esize);
		cr_assert_eq(ps >> 32, 7u);
		return (uint32_t)ps;
	}
	return (uint32_t)(uintptr_t) * (void *const *)slot;
}

#define ANY_MAX_N 64 /* objects one any_put_n() or any_get_n() moves */

/* Values v[0..n) into the ring with the copying call of shape @p op (n
 * is 1 for RING_SINGLE), its _wait form with timeout @p t if @p wait;
 * returns what the call returned. */
static inline int any_put_call(struct any_ring *a, enum ring_op op, bool wait,
			       int64_t t, const uint32_t *v, unsigned n)
{
	alignas(8) unsigned char b[ANY_MAX_N * MAX_WORDS * 4];
	const size_t slot = a->esize;

	cr_assert(n <= ANY_MAX_N && (op != RING_SINGLE || n == 1));
	for (unsigned i = 0; i < n; i++)
		any_put(a, b + i * slot, v[i]);
	if (a->elem) {
		struct grain_ring_elem *e = a->e;

		if (op == RING_SINGLE)
			return wait ? grain_ring_elem_enqueue_wait(e, b, t)
				    : grain_ring_elem_try_enqueue(e, b);
		if (op == RING_BULK)
			return wait ? grain_ring_elem_enqueue_bulk_wait(e, b, n,
									t)
				    : grain_ring_elem_try_enqueue_bulk(e, b, n);
		return wait ? grain_ring_elem_enqueue_burst_wait(e, b, n, t)
			    : grain_ring_elem_try_enqueue_burst(e, b, n);
	}
	void *const *objs = (void *const *)(void *)b;
	if (op == RING_SINGLE)
		return wait ? grain_ring_enqueue_wait(a->p, objs[0], t)
			    : grain_ring_try_enqueue(a->p, objs[0]);
	if (op == RING_BULK)
		return wait ? grain_ring_enqueue_bulk_wait(a->p, objs, n, t)
			    : grain_ring_try_enqueue_bulk(a->p, objs, n);
	return wait ? grain_ring_enqueue_burst_wait(a->p, objs, n, t)
		    : grain_ring_try_enqueue_burst(a->p, objs, n);
}

/* The dequeue of the copying call of shape @p op (its _wait form with
 * timeout @p t if @p wait), for up to n objects into b. */
static inline int any_get_raw(struct any_ring *a, enum ring_op op, bool wait,
			      int64_t t, unsigned char *b, unsigned n)
{
	if (a->elem) {
		struct grain_ring_elem *e = a->e;

		if (op == RING_SINGLE)
			return wait ? grain_ring_elem_dequeue_wait(e, b, t)
				    : grain_ring_elem_try_dequeue(e, b);
		if (op == RING_BULK)
			return wait ? grain_ring_elem_dequeue_bulk_wait(e, b, n,
									t)
				    : grain_ring_elem_try_dequeue_bulk(e, b, n);
		return wait ? grain_ring_elem_dequeue_burst_wait(e, b, n, t)
			    : grain_ring_elem_try_dequeue_burst(e, b, n);
	}
	void **objs = (void **)(void *)b;
	if (op == RING_SINGLE)
		return wait ? grain_ring_dequeue_wait(a->p, objs, t)
			    : grain_ring_try_dequeue(a->p, objs);
	if (op == RING_BULK)
		return wait ? grain_ring_dequeue_bulk_wait(a->p, objs, n, t)
			    : grain_ring_try_dequeue_bulk(a->p, objs, n);
	return wait ? grain_ring_dequeue_burst_wait(a->p, objs, n, t)
		    : grain_ring_try_dequeue_burst(a->p, objs, n);
}

/* Up to n values out of the ring into v[] with the copying call of shape
 * @p op, its _wait form with timeout @p t if @p wait; returns what the
 * call returned. Whatever the call did not hand out, it must not have
 * written: the test fails if it did. */
static inline int any_get_call(struct any_ring *a, enum ring_op op, bool wait,
			       int64_t t, uint32_t *v, unsigned n)
{
	alignas(8) unsigned char b[ANY_MAX_N * MAX_WORDS * 4];
	const size_t slot = a->esize;

	cr_assert(n <= ANY_MAX_N && (op != RING_SINGLE || n == 1));
	memset(b, 0xa5, sizeof(b));
	int rc = any_get_raw(a, op, wait, t, b, n);
	unsigned got = op == RING_BURST ? (rc > 0 ? (unsigned)rc : 0)
					: (rc == 0 ? n : 0);
	for (unsigned i = 0; i < got; i++)
		v[i] = any_get(a, b + i * slot);
	for (size_t i = got * slot; i < n * slot; i++)
		cr_assert_eq(b[i], 0xa5, "a dequeue wrote past what it took");
	return rc;
}

/* The non-blocking forms. */
static inline int any_put_n(struct any_ring *a, enum ring_op op,
			    const uint32_t *v, unsigned n)
{
	return any_put_call(a, op, false, 0, v, n);
}

static inline int any_get_n(struct any_ring *a, enum ring_op op, uint32_t *v,
			    unsigned n)
{
	return any_get_call(a, op, false, 0, v, n);
}

/* Copy-enqueue v; copy-dequeue one and return it. */
static inline int any_enqueue(struct any_ring *a, uint32_t v)
{
	return any_put_n(a, RING_SINGLE, &v, 1);
}

static inline int any_dequeue(struct any_ring *a, uint32_t *v)
{
	return any_get_n(a, RING_SINGLE, v, 1);
}

/* Zero copy, on either kind. */
static inline int any_reserve(struct any_ring *a, unsigned n, bool burst,
			      struct grain_ring_zc *zc)
{
	if (a->elem)
		return burst ? grain_ring_elem_try_reserve_burst(a->e, n, zc)
			     : grain_ring_elem_try_reserve_bulk(a->e, n, zc);
	return burst ? grain_ring_try_reserve_burst(a->p, n, zc)
		     : grain_ring_try_reserve_bulk(a->p, n, zc);
}

static inline int any_peek(struct any_ring *a, unsigned n, bool burst,
			   struct grain_ring_zc *zc)
{
	if (a->elem)
		return burst ? grain_ring_elem_try_peek_burst(a->e, n, zc)
			     : grain_ring_elem_try_peek_bulk(a->e, n, zc);
	return burst ? grain_ring_try_peek_burst(a->p, n, zc)
		     : grain_ring_try_peek_bulk(a->p, n, zc);
}

static inline int any_commit(struct any_ring *a, unsigned n)
{
	return a->elem ? grain_ring_elem_commit(a->e, n)
		       : grain_ring_commit(a->p, n);
}

static inline int any_release(struct any_ring *a, unsigned n)
{
	return a->elem ? grain_ring_elem_release(a->e, n)
		       : grain_ring_release(a->p, n);
}

#endif /* GRAIN_TEST_RING_TABLE_H */
