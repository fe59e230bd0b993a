/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * common.c - the default allocation hooks, the shared bodies of the
 * grain_x_create() and _destroy() calls (create.h) and the version.
 *
 * aligned_alloc() wants a size that is a multiple of the alignment, so the
 * size is rounded up here, once, rather than at every call site.
 */
#include <grain/common.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "create.h"
#include "test_hooks.h"

#ifdef GRAIN_TEST_HOOKS
/* The test-only build's hook (test_hooks.h); NULL: no hook. */
void (*grain_test_hook)(enum grain_test_point point, const void *obj,
			unsigned arg);
#endif

void *grain_mem_alloc(const struct grain_alloc *a, size_t size, size_t align)
{
	if (align == 0 || (align & (align - 1)) != 0 || size == 0 ||
	    size > SIZE_MAX - (align - 1))
		return NULL;
	if (a != NULL && a->alloc != NULL)
		return a->alloc(size, align, a->state);
	if (align < sizeof(void *))
		align = sizeof(void *);
	int saved = errno; /* no grain call sets errno */
	void *p = aligned_alloc(align, (size + align - 1) & ~(align - 1));
	errno = saved;
	return p;
}

void grain_mem_free(const struct grain_alloc *a, void *ptr, size_t size,
		    size_t align)
{
	if (ptr == NULL)
		return;
	if (a != NULL && a->free != NULL) {
		a->free(ptr, size, align, a->state);
		return;
	}
	free(ptr);
}

const char *grain_version(void)
{
	return GRAIN_VERSION_STRING;
}

int grain_impl_create(void **objp, size_t size, const struct grain_alloc *alloc,
		      int (*init)(void *mem, const void *arg), const void *arg,
		      struct grain_impl_life_at at)
{
	char *mem = grain_mem_alloc(alloc, size, GRAIN_CACHELINE);
	const bool created = true;

	if (mem == NULL)
		return -ENOMEM;
	int rc = init(mem, arg);
	if (rc != 0) {
		grain_mem_free(alloc, mem, size, GRAIN_CACHELINE);
		return rc;
	}
	/* init left the hooks zeroed: NULL, the defaults. */
	if (alloc != NULL)
		memcpy(mem + at.alloc, alloc, sizeof(*alloc));
	memcpy(mem + at.created, &created, sizeof(created));
	*objp = mem;
	return 0;
}

void grain_impl_destroy(void *obj, const struct grain_alloc *alloc, size_t size)
{
	/* A copy: the hooks may live in the memory being freed. */
	struct grain_alloc hooks = *alloc;

	grain_mem_free(&hooks, obj, size, GRAIN_CACHELINE);
}
