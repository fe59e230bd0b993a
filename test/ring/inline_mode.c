/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inline_mode.c - a program built at -O2 that calls grain_ring's copying
 * calls from several places, as a daemon does: test/CMakeLists.txt builds
 * it as is and with GRAIN_RING_INLINE_MODE=GRAIN_RING_SPSC.
 * check_inline.cmake reads its symbol table: no out-of-line copy of those
 * calls may be left, every call site holding the path inlined. Run, it
 * moves objects through a ring of every mode (with the macro, those of
 * other modes than SPSC take the out-of-line path), checking order and
 * counts; exit status 0 when all is as expected.
 */
#include <grain/ring.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

/* Several call sites of each call, in functions of their own, so that the
 * compiler is not led to inline by a single caller. */
static int put_one(struct grain_ring *r, uintptr_t v)
{
	return grain_ring_try_enqueue(r, (void *)v);
}

static int get_one(struct grain_ring *r, uintptr_t *v)
{
	void *obj = NULL;
	int rc = grain_ring_try_dequeue(r, &obj);

	*v = (uintptr_t)obj;
	return rc;
}

static int put_many(struct grain_ring *r, void *const *objs, unsigned n,
		    int burst)
{
	return burst ? grain_ring_try_enqueue_burst(r, objs, n)
		     : grain_ring_try_enqueue_bulk(r, objs, n);
}

static int get_many(struct grain_ring *r, void **objs, unsigned n, int burst)
{
	return burst ? grain_ring_try_dequeue_burst(r, objs, n)
		     : grain_ring_try_dequeue_bulk(r, objs, n);
}

static int fail(unsigned mode, const char *what)
{
	fprintf(stderr, "inline_mode: mode %u: %s\n", mode, what);
	return 1;
}

/* Fill and drain a ring of 8 slots a few times with each call, checking
 * what comes out, then the refusals at full and empty. */
static int exercise(unsigned mode)
{
	struct grain_ring *r = NULL;
	void *objs[8], *got[8];
	uintptr_t next = 1, want = 1, v = 0;

	if (grain_ring_create(&r, 8, mode, NULL) != 0)
		return fail(mode, "create");
	for (int round = 0; round < 5; round++) {
		for (unsigned i = 0; i < 8; i++)
			if (put_one(r, next++) != 0)
				return fail(mode, "try_enqueue");
		if (put_one(r, next) != -EAGAIN)
			return fail(mode, "try_enqueue on a full ring");
		for (unsigned i = 0; i < 8; i++)
			if (get_one(r, &v) != 0 || v != want++)
				return fail(mode, "try_dequeue");
		if (get_one(r, &v) != -EAGAIN)
			return fail(mode, "try_dequeue on an empty ring");
		for (unsigned i = 0; i < 8; i++)
			objs[i] = (void *)next++;
		if (put_many(r, objs, 5, 0) != 0 ||
		    put_many(r, objs + 5, 5, 1) != 3)
			return fail(mode, "enqueue bulk and burst");
		if (get_many(r, got, 3, 0) != 0 ||
		    get_many(r, got + 3, 8, 1) != 5)
			return fail(mode, "dequeue bulk and burst");
		for (unsigned i = 0; i < 8; i++)
			if ((uintptr_t)got[i] != want++)
				return fail(mode, "bulk and burst order");
	}
	grain_ring_destroy(r);
	return 0;
}

int main(void)
{
	static const unsigned modes[] = { GRAIN_RING_MPMC, GRAIN_RING_MPSC,
					  GRAIN_RING_SPMC, GRAIN_RING_SPSC,
					  GRAIN_RING_SPSC | GRAIN_RING_WAIT };
	int bad = 0;

	for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		bad |= exercise(modes[i]);
	return bad;
}
