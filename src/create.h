/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * create.h - the shared bodies of the blocks' grain_x_create() and
 * grain_x_destroy() calls.
 * Private: not installed, not part of any API (libgrain.so does not
 * export it).
 */
#ifndef GRAIN_SRC_CREATE_H
#define GRAIN_SRC_CREATE_H

#include <grain/common.h>

#include <stdbool.h>

/* Where a block keeps, in its object, the hooks it was allocated with and
 * the flag that tells grain_x_destroy() the object is its to free. */
struct grain_impl_life_at {
	size_t alloc;	/* offsetof a struct grain_alloc */
	size_t created; /* offsetof a bool */
};

/*
 * Allocate @p size bytes aligned to GRAIN_CACHELINE through @p alloc, run
 * init(mem, arg) on them and, if it succeeds, record @p alloc and
 * "created" where @p at says and set *objp. The caller has validated its
 * arguments, so that @p size is grain_x_memsize() of them.
 * Returns 0, -ENOMEM (nothing allocated), or what init returned (the
 * memory is then freed again); *objp is untouched on error.
 */
int grain_impl_create(void **objp, size_t size, const struct grain_alloc *alloc,
		      int (*init)(void *mem, const void *arg), const void *arg,
		      struct grain_impl_life_at at);

/*
 * Free an object that grain_impl_create() made: @p size bytes at @p obj,
 * through the hooks at @p alloc, which may lie inside the object itself.
 */
void grain_impl_destroy(void *obj, const struct grain_alloc *alloc,
			size_t size);

struct grain_ring;

/*
 * grain_ring_create()'s body, which grain_ring_elem_create() shares (a
 * grain_ring_elem begins with its grain_ring, whose life record it uses):
 * -EINVAL if @p ringp is NULL, @p size is 0 (the caller's memsize call
 * refused the geometry) or @p flags has unknown bits, else
 * grain_impl_create() of @p size bytes made by init(mem, arg), the new
 * ring in *ringp. Defined in src/ring.c.
 */
int grain_impl_ring_create(struct grain_ring **ringp, size_t size,
			   unsigned flags, const struct grain_alloc *alloc,
			   int (*init)(void *mem, const void *arg),
			   const void *arg);

/* A _wait attempt's result from the count k it moved: k, or -EPIPE
 * (grain_impl_ring_fail()), or 0 to sleep. Defined in src/ring.c. */
int grain_impl_ring_attempt_result(struct grain_ring *r, unsigned k, unsigned n,
				   bool burst, bool enq);

/* The bodies of grain_ring_close() and grain_ring_closed(), shared with
 * grain_ring_elem and grain_prio's bands. Defined in src/ring.c. */
int grain_impl_ring_close(struct grain_ring *r);
bool grain_impl_ring_closed(const struct grain_ring *r);

#endif /* GRAIN_SRC_CREATE_H */
