/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * common.c - the EXAMPLE sections of common.h's man pages
 * (doc/manpages.py: each page shows the shortest example below that uses
 * its name, after these #include lines).
 */
#include <grain/common.h>
#include <grain/ring.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* example */
/* The headers' version against the library's, at startup. */
int example_version(void)
{
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", GRAIN_VERSION_MAJOR,
		 GRAIN_VERSION_MINOR, GRAIN_VERSION_PATCH);
	printf("built against grain %s, running %s\n", GRAIN_VERSION_STRING,
	       grain_version());
	return strcmp(want, GRAIN_VERSION_STRING) == 0 &&
			       strcmp(grain_version(), GRAIN_VERSION_STRING) ==
				       0
		       ? 0
		       : -1;
}

/* example */
/* Allocation hooks that count what a ring allocates, and the same hooks
 * used directly. */
static size_t in_use;

static void *count_alloc(size_t size, size_t align, void *state)
{
	(void)state;
	in_use += size;
	return aligned_alloc(align, (size + align - 1) / align * align);
}

static void count_free(void *ptr, size_t size, size_t align, void *state)
{
	(void)align, (void)state;
	in_use -= size;
	free(ptr);
}

int example_alloc_hooks(void)
{
	const struct grain_alloc hooks = { .alloc = count_alloc,
					   .free = count_free };
	struct grain_ring *ring;

	if (grain_ring_create(&ring, 64, GRAIN_RING_MPMC, &hooks) != 0)
		return -1;
	printf("the ring took %zu bytes\n", in_use);
	grain_ring_destroy(ring);

	void *p = grain_mem_alloc(&hooks, 100, GRAIN_CACHELINE);
	if (p == NULL)
		return -1;
	grain_mem_free(&hooks, p, 100, GRAIN_CACHELINE);
	return in_use == 0 ? 0 : -1;
}

/* example */
/* An object that embeds a link, found again from the link's address. */
struct link {
	struct link *next;
};

struct job {
	int id;
	struct link link;
};

int example_container_of(void)
{
	struct job job = { .id = 7, .link = { NULL } };
	struct link *l = &job.link;
	struct job *j = grain_container_of(l, struct job, link);

	return j == &job && j->id == 7 ? 0 : -1;
}

/* example */
/* grain's attribute macros, in code of one's own. */
struct hot_counter {
	_Alignas(GRAIN_CACHELINE) unsigned long n; /* a line of its own */
};

GRAIN_COLD static int report(const char *what)
{
	fprintf(stderr, "failed: %s\n", what);
	return -1;
}

GRAIN_NODISCARD static GRAIN_ALWAYS_INLINE unsigned slot_of(unsigned i,
							    unsigned capacity)
{
	GRAIN_ASSUME(capacity != 0); /* the caller checked */
	return i & (capacity - 1);
}

/* A renamed call of one's own keeps its old name for a while: */
GRAIN_DEPRECATED("use example_attributes()") int example_old(void);

int example_attributes(void)
{
	static struct hot_counter c;

	if (GRAIN_UNLIKELY(slot_of(9, 8) != 1))
		return report("slot_of");
	if (GRAIN_LIKELY(GRAIN_TSAN == 0))
		c.n++; /* not a ThreadSanitizer build */
	return 0;
}

/* example */
/* How grain's headers declare their calls: exported (GRAIN_API), inline
 * fast paths (GRAIN_INLINE_API: static inline in C, exported for C++),
 * and bodies valid in both languages (GRAIN_INLINE_ANY). The same
 * declarations may be repeated. */
GRAIN_API const char *grain_version(void);
GRAIN_INLINE_API unsigned grain_ring_count(const struct grain_ring *ring);
GRAIN_INLINE_ANY void *grain_ring_zc_at(const struct grain_ring_zc *zc,
					unsigned i);

int example_declarations(void)
{
	return grain_ring_count(NULL) == 0 &&
			       grain_ring_zc_at(NULL, 0) == NULL &&
			       grain_version() != NULL
		       ? 0
		       : -1;
}
