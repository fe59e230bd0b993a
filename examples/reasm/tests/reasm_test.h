/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * reasm_test.h - what the tests of examples/reasm share: a rig that holds
 * an engine, one worker whose emit callback collects every output frame,
 * and a fake clock; feeding frames; reading counters; and the end of a
 * test, which destroys the engine and checks the accounting invariant of
 * reasm.h:
 *   ReasmReqds == frags_reassembled + frags_dropped + frags_discarded
 *                 + frags_pending
 *
 * Zero-copy mode: with rig_zc.on set before rig_init(), the worker gets a
 * sink (struct reasm_sink) whose reservations are a buffer of the rig's
 * and whose commits record the frame in g->out as a reasm_out, as the emit
 * callback does, so a test reads its outputs the same way in either mode.
 * Every rig_zc.decline_every-th reservation (0: none) is declined, which
 * sends that frame through the emit callback. Each commit is checked
 * against its reservation: the same area, the same description, and a
 * frame that begins with the lead bytes reserve() was given, which on
 * Ethernet cover the link header through its type field.
 */
#ifndef REASM_TEST_RIG_H
#define REASM_TEST_RIG_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pktbuild.h"
#include "reasm.h"

#define NS_PER_S 1000000000ULL

/* Room for any frame the engine builds (link header, IP headers, 65535
 * bytes of IP datagram). */
#define RIG_ZC_CAP (128u << 10)

static struct {
	bool on;
	unsigned decline_every;
} rig_zc;

struct rig {
	struct reasm *r;
	int link; /* the engine's link type */
	struct reasm_worker w;
	struct reasm_out **out; /* every frame emitted, in order */
	size_t nout, cap;
	uint64_t now; /* the fake clock, ns */
	/* Zero-copy mode (rig_zc). */
	struct reasm_sink sink;
	uint8_t *zc_buf, *zc_lead; /* RIG_ZC_CAP bytes each */
	uint32_t zc_lead_len;
	struct reasm_meta zc_meta; /* of the open reservation */
	bool zc_open;		   /* reserved, not committed yet */
	size_t zc_reserves, zc_declines, zc_commits, zc_lapses;
};

static void rig_emit(struct reasm_out *o, void *arg)
{
	struct rig *g = arg;

	if (g->nout == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->out = realloc(g->out, g->cap * sizeof(*g->out));
		cr_assert_not_null(g->out);
	}
	g->out[g->nout++] = o;
}

static inline void expect_meta(const struct reasm_meta *a,
			       const struct reasm_meta *b, const char *what)
{
	cr_expect_eq(a->ts_ns, b->ts_ns, "%s: ts_ns", what);
	cr_expect_eq(a->len, b->len, "%s: len %u, then %u", what, a->len,
		     b->len);
	cr_expect_eq(a->orig_len, b->orig_len, "%s: orig_len", what);
	cr_expect_eq(a->dscp, b->dscp, "%s: dscp", what);
	cr_expect_eq(a->reassembled, b->reassembled, "%s: reassembled", what);
}

static uint8_t *rig_reserve(void *arg, const struct reasm_meta *m,
			    const uint8_t *lead, uint32_t lead_len)
{
	struct rig *g = arg;

	if (g->zc_open)
		g->zc_lapses++; /* the last one was never committed */
	g->zc_open = false;
	g->zc_reserves++;
	cr_assert_leq(lead_len, m->len, "lead of %u bytes for a %u-byte frame",
		      lead_len, m->len);
	cr_assert_leq(m->len, RIG_ZC_CAP, "a %u-byte frame", m->len);
	if (rig_zc.decline_every != 0 &&
	    g->zc_reserves % rig_zc.decline_every == 0) {
		g->zc_declines++;
		return NULL;
	}
	memcpy(g->zc_lead, lead, lead_len);
	g->zc_lead_len = lead_len;
	g->zc_meta = *m;
	g->zc_open = true;
	/* Whatever the engine does not write shows. */
	memset(g->zc_buf, 0xa5, m->len);
	return g->zc_buf;
}

/* The bytes of the Ethernet frame @p f (@p len bytes) through its type
 * field: 14, and 4 more for each VLAN tag the engine parses. */
static inline uint32_t eth_through_type(const uint8_t *f, uint32_t len)
{
	uint32_t off = 12;

	for (unsigned tags = 0; tags < REASM_MAX_VLAN_TAGS; tags++) {
		if (off + 2 > len)
			break;
		unsigned type = (unsigned)f[off] << 8 | f[off + 1];
		if (type != 0x8100 && type != 0x88a8)
			break;
		off += 4;
	}
	return off + 2 <= len ? off + 2 : len;
}

static void rig_commit(void *arg, uint8_t *data, const struct reasm_meta *m)
{
	struct rig *g = arg;
	struct reasm_out *o;

	cr_assert(g->zc_open, "a commit without a reservation");
	cr_assert_eq(data, g->zc_buf, "a commit of another area");
	expect_meta(m, &g->zc_meta, "commit against reserve");
	cr_assert_eq(memcmp(data, g->zc_lead, g->zc_lead_len), 0,
		     "the frame does not begin with its %u lead bytes",
		     g->zc_lead_len);
	if (g->link == REASM_LINK_ETHERNET)
		cr_assert_geq(g->zc_lead_len, eth_through_type(data, m->len),
			      "a lead of %u bytes, short of the Ethernet "
			      "type field",
			      g->zc_lead_len);
	g->zc_open = false;
	g->zc_commits++;
	o = malloc(sizeof(*o) + m->len);
	cr_assert_not_null(o);
	o->ts_ns = m->ts_ns;
	o->len = m->len;
	o->orig_len = m->orig_len;
	o->dscp = m->dscp;
	o->reassembled = m->reassembled;
	memcpy(o->data, data, m->len);
	rig_emit(o, g);
}

static inline struct reasm_config rig_config(int dlt, enum reasm_policy p)
{
	struct reasm_config c;

	memset(&c, 0, sizeof(c));
	c.link = dlt;
	c.policy = p;
	return c;
}

static inline void rig_init(struct rig *g, const struct reasm_config *c)
{
	memset(g, 0, sizeof(*g));
	g->link = c->link;
	g->now = 1000 * NS_PER_S;
	int rc = reasm_create(&g->r, c);
	cr_assert_eq(rc, 0, "reasm_create: %d", rc);
	cr_assert_not_null(g->r);
	rc = reasm_worker_init(&g->w, g->r, rig_emit, g);
	cr_assert_eq(rc, 0, "reasm_worker_init: %d", rc);
	cr_assert_null(g->w.sink, "reasm_worker_init() leaves no sink");
	if (rig_zc.on) {
		g->zc_buf = malloc(RIG_ZC_CAP);
		g->zc_lead = malloc(RIG_ZC_CAP);
		cr_assert(g->zc_buf != NULL && g->zc_lead != NULL);
		g->sink.reserve = rig_reserve;
		g->sink.commit = rig_commit;
		g->sink.arg = g;
		g->w.sink = &g->sink;
	}
}

static inline void rig_open(struct rig *g, int dlt, enum reasm_policy p)
{
	struct reasm_config c = rig_config(dlt, p);

	rig_init(g, &c);
}

/* Feed @f at the rig's clock; @return what reasm_input returned. */
static inline int feed(struct rig *g, const struct pb_frame *f)
{
	return reasm_input(&g->w, f->data, f->caplen, f->wirelen, g->now);
}

/* Feed @f and free it. */
static inline int feed_free(struct rig *g, struct pb_frame *f)
{
	int rc = feed(g, f);

	pb_frame_free(f);
	return rc;
}

/* Feed the fragment [@off, @off + @len) of @d, MF @mf. */
static inline int feed_frag(struct rig *g, const struct pb_dgram *d,
			    uint32_t off, size_t len, bool mf)
{
	return feed_free(g, pb_frag(d, off, NULL, len, mf));
}

/* Feed a fragment of @d at @off holding @len bytes of @bytes (of d->data
 * when NULL). */
static inline int feed_bytes(struct rig *g, const struct pb_dgram *d,
			     uint32_t off, const uint8_t *bytes, size_t len,
			     bool mf)
{
	return feed_free(g, pb_frag(d, off, bytes, len, mf));
}

static inline struct reasm_stats rig_stats(struct rig *g)
{
	struct reasm_stats st;

	memset(&st, 0, sizeof(st));
	reasm_stats_read(g->r, &st);
	return st;
}

static inline void check_invariant(const struct reasm_stats *st)
{
	cr_expect_eq(st->ReasmReqds,
		     st->frags_reassembled + st->frags_dropped +
			     st->frags_discarded + st->frags_pending,
		     "accounting: ReasmReqds %llu != reassembled %llu + "
		     "dropped %llu + discarded %llu + pending %llu",
		     (unsigned long long)st->ReasmReqds,
		     (unsigned long long)st->frags_reassembled,
		     (unsigned long long)st->frags_dropped,
		     (unsigned long long)st->frags_discarded,
		     (unsigned long long)st->frags_pending);
	/* The reasons of frags_dropped add up to it (the summary's
	 * bracketed counts are parts of its totals). */
	cr_expect_eq(st->frags_dropped,
		     st->duplicates + st->past_end + st->refused +
			     st->frags_truncated + st->malformed +
			     st->bad_checksum + st->incomplete_chain +
			     st->frags_too_big + st->frags_no_memory,
		     "frags_dropped %llu is not the sum of its reasons",
		     (unsigned long long)st->frags_dropped);
	cr_expect_leq(st->frags_too_big, st->too_big);
	cr_expect_leq(st->frags_no_memory, st->no_memory);
	cr_expect_leq(st->frags_truncated, st->truncated);
	cr_expect_eq(st->emitted, st->passed + st->ReasmOKs,
		     "emitted %llu != passed %llu + ReasmOKs %llu",
		     (unsigned long long)st->emitted,
		     (unsigned long long)st->passed,
		     (unsigned long long)st->ReasmOKs);
}

/* Destroy the engine, check the invariant on the final totals, free the
 * outputs; @return the totals. */
static inline struct reasm_stats rig_finish(struct rig *g)
{
	struct reasm_stats st;

	memset(&st, 0, sizeof(st));
	reasm_destroy(g->r, &st);
	g->r = NULL;
	check_invariant(&st);
	for (size_t i = 0; i < g->nout; i++)
		reasm_out_free(g->out[i]);
	free(g->out);
	g->out = NULL;
	g->nout = g->cap = 0;
	if (g->zc_open)
		g->zc_lapses++;
	g->zc_open = false;
	free(g->zc_buf);
	free(g->zc_lead);
	g->zc_buf = g->zc_lead = NULL;
	return st;
}

/* Output @i must be @want reassembled. */
static inline void expect_dgram(const struct rig *g, size_t i,
				const struct pb_dgram *want)
{
	char why[256];

	cr_assert_lt(i, g->nout, "output %zu missing (%zu emitted)", i,
		     g->nout);
	const struct reasm_out *o = g->out[i];
	cr_expect(o->reassembled, "output %zu: reassembled flag clear", i);
	cr_expect_eq(o->orig_len, o->len, "output %zu: orig_len %u != len %u",
		     i, o->orig_len, o->len);
	bool ok = pb_check(o->data, o->len, want, why, sizeof(why));
	cr_assert(ok, "output %zu: %s", i, why);
}

#endif /* REASM_TEST_RIG_H */
