/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_reasm_nomem.c - allocation failures. The engine's memory goes
 * through allocation hooks (reasm_config.alloc); here they fail on
 * purpose, at create and in the middle of reassembly. A failure may cost
 * the fragment at hand (counted no_memory), never a crash, a leak, a
 * wrong output or the books; once allocations succeed again, the engine
 * works as before.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <grain/common.h>
#include <stdlib.h>
#include <string.h>

#include "reasm_test.h"

struct failing {
	struct grain_alloc hooks;
	uint64_t calls;	  /* allocations asked for */
	uint64_t fail_at; /* fail call number fail_at (1-based); 0: never */
	uint32_t one_in;  /* also fail one call in one_in; 0: never */
	uint32_t rng;
	int64_t outstanding; /* allocations not yet freed */
	uint64_t failed;
};

static void *failing_alloc(size_t size, size_t align, void *state)
{
	struct failing *f = state;

	f->calls++;
	f->rng = f->rng * 1103515245u + 12345u;
	if (f->calls == f->fail_at ||
	    (f->one_in != 0 && (f->rng >> 16) % f->one_in == 0)) {
		f->failed++;
		return NULL;
	}
	size_t rounded = (size + align - 1) / align * align;
	void *p = aligned_alloc(align, rounded);
	if (p != NULL)
		f->outstanding++;
	return p;
}

static void failing_free(void *p, size_t size, size_t align, void *state)
{
	struct failing *f = state;

	(void)size;
	(void)align;
	f->outstanding--;
	free(p);
}

static void failing_init(struct failing *f)
{
	memset(f, 0, sizeof(*f));
	f->hooks.alloc = failing_alloc;
	f->hooks.free = failing_free;
	f->hooks.state = f;
	f->rng = 2463534242u;
}

Test(reasm_nomem, create_fails_cleanly)
{
	static struct failing f;
	unsigned failures = 0;

	/* Fail the first, second, ... allocation of reasm_create until one
	 * run needs no more than that. */
	for (uint64_t n = 1; n < 64; n++) {
		failing_init(&f);
		f.fail_at = n;
		struct reasm_config c =
			rig_config(REASM_LINK_RAW, REASM_STRICT);
		c.alloc = &f.hooks;
		struct reasm *r = NULL;
		int rc = reasm_create(&r, &c);
		if (rc == 0) {
			cr_assert_not_null(r);
			reasm_destroy(r, NULL);
			cr_expect_eq(f.outstanding, 0, "create n=%llu leaked",
				     (unsigned long long)n);
			if (f.failed == 0)
				break; /* create needs fewer than n */
			continue;
		}
		failures++;
		cr_expect_eq(rc, -ENOMEM, "create with failure %llu: %d",
			     (unsigned long long)n, rc);
		cr_expect_null(r);
		cr_expect_eq(f.outstanding, 0,
			     "a failed create leaked %lld allocations",
			     (long long)f.outstanding);
	}
	cr_expect_gt(failures, 0u, "no allocation of create was failed");
}

struct nomem_param {
	enum reasm_policy policy;
	uint32_t one_in;
};

ParameterizedTestParameters(reasm_nomem, during_reassembly)
{
	static struct nomem_param p[] = {
		{ REASM_STRICT, 7 }, { REASM_STRICT, 2 }, { REASM_FIRST, 5 },
		{ REASM_LAST, 3 },   { REASM_BSD, 11 },
	};
	return cr_make_param_array(struct nomem_param, p,
				   sizeof(p) / sizeof(p[0]));
}

/* Datagrams of @n fragments each, fragments sent shuffled, some twice
 * (overlapping copies shifted by 8 bytes for the non-strict policies). */
static unsigned feed_round(struct rig *g, unsigned first_id, unsigned count,
			   uint8_t (*data)[600], struct pb_dgram *d,
			   bool overlaps, uint32_t *rng)
{
	unsigned sent = 0;

	for (unsigned k = 0; k < count; k++) {
		unsigned id = first_id + k;
		pb_fill(data[k], 600, id);
		if (k % 2)
			pb_dgram_v6(&d[k], PB_DLT_ETHERNET, id, PB_IPPROTO_NONE,
				    data[k], 600);
		else
			pb_dgram_v4(&d[k], PB_DLT_ETHERNET, (uint16_t)id,
				    PB_IPPROTO_UDP, data[k], 600);
		uint32_t order[5] = { 0, 1, 2, 3, 4 };
		for (unsigned i = 4; i > 0; i--) {
			*rng = *rng * 1103515245u + 12345u;
			unsigned j = (*rng >> 16) % (i + 1);
			uint32_t t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		for (unsigned i = 0; i < 5; i++) {
			uint32_t off = order[i] * 120;
			feed_frag(g, &d[k], off, 120, order[i] != 4);
			sent++;
			if (overlaps && order[i] < 3) {
				feed_frag(g, &d[k], off + 8, 120, true);
				sent++;
			}
		}
	}
	return sent;
}

ParameterizedTest(struct nomem_param *p, reasm_nomem, during_reassembly,
		  .timeout = 60)
{
	static struct failing f;
	static uint8_t data[64][600];
	static struct pb_dgram d[64];
	struct rig g;
	uint32_t rng = 99;

	failing_init(&f);
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, p->policy);
	c.alloc = &f.hooks;
	rig_init(&g, &c);
	bool overlaps = p->policy != REASM_STRICT;

	/* Failures on. */
	f.one_in = p->one_in;
	unsigned sent = feed_round(&g, 1, 64, data, d, overlaps, &rng);
	struct reasm_stats st = rig_stats(&g);
	cr_expect_gt(f.failed, 0u, "nothing failed");
	cr_expect_gt(st.no_memory, 0u, "failures not counted");
	cr_expect_eq(st.ReasmReqds, sent);
	check_invariant(&st);
	/* Whatever came out is right. */
	for (size_t i = 0; i < g.nout; i++) {
		const struct reasm_out *o = g.out[i];
		const uint8_t *ip = o->data + 14;
		unsigned id = (ip[0] >> 4) == 4 ? inet_rd16(ip + 4) : 0;
		if ((ip[0] >> 4) == 4 && id >= 1 && id <= 64 && !overlaps) {
			char why[200];
			cr_expect(pb_check(o->data, o->len, &d[id - 1], why,
					   sizeof(why)),
				  "datagram %u: %s", id, why);
		}
		cr_expect(o->reassembled);
	}
	size_t before = g.nout;

	/* Failures off: a fresh round (new ids) completes in full. Let the
	 * leftovers of the first round time out first. */
	f.one_in = 0;
	g.now += 61 * NS_PER_S;
	(void)reasm_expire(&g.w, g.now);
	(void)feed_round(&g, 101, 64, data, d, overlaps, &rng);
	cr_expect_eq(g.nout - before, 64u,
		     "%zu of 64 datagrams after the failures stopped",
		     g.nout - before);
	for (size_t i = before; !overlaps && i < g.nout; i++) {
		const struct reasm_out *o = g.out[i];
		const uint8_t *ip = o->data + 14;
		if ((ip[0] >> 4) != 4)
			continue;
		unsigned id = inet_rd16(ip + 4);
		char why[200];
		cr_assert(id >= 101 && id < 165, "id %u", id);
		cr_expect(pb_check(o->data, o->len, &d[id - 101], why,
				   sizeof(why)),
			  "datagram %u: %s", id, why);
	}
	rig_finish(&g);
	cr_expect_eq(f.outstanding, 0, "%lld allocations leaked",
		     (long long)f.outstanding);
}
