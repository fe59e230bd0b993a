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
		struct reasm *const untouched = (struct reasm *)&c;
		struct reasm *r = untouched;
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
		cr_expect_eq((void *)r, (void *)untouched,
			     "*rp touched on error");
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

/* Each allocation made for a fragment, failed alone: the fragment at hand
 * is dropped (no_memory) and nothing else; its datagram keeps what it
 * held, and the same fragment fed again completes it. Cases: fragments
 * in order; more pieces than a datagram holds inline; an overlap (the
 * merge's scratch array); an IPv6 offset-0 fragment whose headers are
 * too long to be kept inline. */
struct alloc_case {
	char name[48];
	int family;
	enum reasm_policy policy;
	uint16_t hbh; /* IPv6: hop-by-hop options before the Fragment header */
	unsigned n;   /* fragments, fed in this order */
	uint32_t off[6], len[6];
};

#define ALLOC_LEN 48u

/* clang-format off */
static const struct alloc_case alloc_cases[] = {
	{ "IPv4, in order", 4, REASM_STRICT, 0, 3,
	  { 0, 16, 32 }, { 16, 16, 16 } },
	{ "IPv4, six pieces, last first", 4, REASM_STRICT, 0, 6,
	  { 40, 32, 24, 16, 8, 0 }, { 8, 8, 8, 8, 8, 8 } },
	{ "IPv4, an overlap under first", 4, REASM_FIRST, 0, 3,
	  { 0, 8, 32 }, { 16, 24, 16 } },
	{ "IPv6, an overlap under last", 6, REASM_LAST, 0, 4,
	  { 0, 8, 24, 40 }, { 24, 8, 16, 8 } },
	{ "IPv6, long headers", 6, REASM_STRICT, 64, 3,
	  { 16, 0, 32 }, { 16, 16, 16 } },
};
/* clang-format on */

ParameterizedTestParameters(reasm_nomem, each_allocation_fails_alone)
{
	return cr_make_param_array(struct alloc_case, (void *)alloc_cases,
				   sizeof(alloc_cases) /
					   sizeof(alloc_cases[0]));
}

static int feed_nth(struct rig *g, const struct pb_dgram *d,
		    const struct alloc_case *p, unsigned i)
{
	return feed_frag(g, d, p->off[i], p->len[i],
			 p->off[i] + p->len[i] < ALLOC_LEN);
}

ParameterizedTest(struct alloc_case *p, reasm_nomem,
		  each_allocation_fails_alone)
{
	static struct failing f;
	uint8_t data[ALLOC_LEN];
	uint64_t calls[7]; /* allocations before fragment i */
	struct pb_dgram d;
	struct rig g;
	unsigned runs = 0;
	char why[200];

	pb_fill(data, sizeof(data), 61);
	pb_udp_hdr(data, 7, 9, ALLOC_LEN);
	if (p->family == 4)
		pb_dgram_v4(&d, PB_DLT_ETHERNET, 77, PB_IPPROTO_UDP, data,
			    ALLOC_LEN);
	else
		pb_dgram_v6(&d, PB_DLT_ETHERNET, 77, PB_IPPROTO_UDP, data,
			    ALLOC_LEN);
	d.v6.hbh_len = p->hbh;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, p->policy);
	c.alloc = &f.hooks;

	/* Without failures: how many allocations each fragment makes. */
	failing_init(&f);
	rig_init(&g, &c);
	for (unsigned i = 0; i < p->n; i++) {
		calls[i] = f.calls;
		cr_assert_eq(feed_nth(&g, &d, p, i), i + 1 == p->n ? 1 : 0,
			     "%s: fragment %u", p->name, i);
	}
	calls[p->n] = f.calls;
	cr_assert_eq(g.nout, 1u, "%s", p->name);
	rig_finish(&g);

	for (unsigned i = 0; i < p->n; i++)
		for (uint64_t at = calls[i] + 1; at <= calls[i + 1]; at++) {
			failing_init(&f);
			rig_init(&g, &c);
			for (unsigned k = 0; k < i; k++)
				feed_nth(&g, &d, p, k);
			cr_assert_eq(f.calls, calls[i], "%s", p->name);
			f.fail_at = at;
			cr_expect_eq(feed_nth(&g, &d, p, i), 0,
				     "%s: fragment %u, allocation %llu",
				     p->name, i,
				     (unsigned long long)(at - calls[i]));
			cr_assert_eq(f.failed, 1u, "%s", p->name);
			struct reasm_stats st = rig_stats(&g);
			cr_expect(
				st.no_memory == 1 && st.frags_no_memory == 1 &&
					st.frags_dropped == 1 &&
					st.ReasmFails == 0 &&
					st.frags_pending == i &&
					st.datagrams_pending == (i > 0),
				"%s: fragment %u, allocation %llu failed: "
				"no_memory %llu, dropped %llu, failed "
				"%llu, %llu fragments in %llu datagrams",
				p->name, i, (unsigned long long)(at - calls[i]),
				(unsigned long long)st.no_memory,
				(unsigned long long)st.frags_dropped,
				(unsigned long long)st.ReasmFails,
				(unsigned long long)st.frags_pending,
				(unsigned long long)st.datagrams_pending);
			/* The same fragment again, then the rest. */
			for (unsigned k = i; k < p->n; k++)
				feed_nth(&g, &d, p, k);
			cr_expect_eq(g.nout, 1u,
				     "%s: fragment %u, allocation %llu: the "
				     "datagram did not complete",
				     p->name, i,
				     (unsigned long long)(at - calls[i]));
			if (g.nout == 1)
				cr_expect(pb_check(g.out[0]->data,
						   g.out[0]->len, &d, why,
						   sizeof(why)),
					  "%s: %s", p->name, why);
			struct reasm_stats fin = rig_finish(&g);
			cr_expect_eq(fin.ReasmOKs, 1u, "%s", p->name);
			cr_expect_eq(fin.frags_reassembled, p->n, "%s",
				     p->name);
			cr_expect_eq(f.outstanding, 0, "%s: leaked", p->name);
			runs++;
		}
	cr_expect_geq(runs, p->n, "%s: %u failures tried", p->name, runs);
}
