/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_reasm_sink.c - zero-copy output (struct reasm_sink): every input
 * run through an engine that builds its frames in reasm_outs for the emit
 * callback, then through one whose worker has a sink writing into a
 * buffer of the test's (reasm_test.h, rig_zc), then through sinks that
 * decline some reservations. The outputs must be the same frames, byte
 * for byte, with the same description (ts_ns, len, orig_len, dscp,
 * reassembled), in the same order, and every counter the same.
 *
 * Inputs: IPv4 and IPv6 datagrams reassembled (in order, out of order,
 * VLAN tags, options, extension headers, ECN, DF, raw IP and SLL links),
 * frames passed through (whole IP, ARP, a truncated capture, VLAN stacks
 * too deep), overlaps under every policy, IPv6 atomic fragments (always
 * the emit path), and datagrams that fail while they are written (a
 * nested Fragment header under strict: the reservation lapses).
 *
 * And the callbacks, the emit callback's included, run with no lock of
 * the engine held: from inside them, the same engine takes more input.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reasm_test.h"

typedef void (*scenario_fn)(struct rig *g);

struct run_out {
	struct reasm_stats st;
	struct reasm_out **out;
	size_t nout;
	size_t reserves, declines, commits, lapses;
};

static struct run_out run_mode(const struct reasm_config *c, scenario_fn fn,
			       bool zc, unsigned decline_every)
{
	struct run_out r;
	struct rig g;

	memset(&r, 0, sizeof(r));
	rig_zc.on = zc;
	rig_zc.decline_every = decline_every;
	rig_init(&g, c);
	fn(&g);
	/* Keep the outputs: rig_finish() frees what g->out holds. */
	r.out = g.out;
	r.nout = g.nout;
	g.out = NULL;
	g.nout = g.cap = 0;
	r.st = rig_finish(&g);
	r.reserves = g.zc_reserves;
	r.declines = g.zc_declines;
	r.commits = g.zc_commits;
	r.lapses = g.zc_lapses;
	rig_zc.on = false;
	rig_zc.decline_every = 0;
	return r;
}

static void run_free(struct run_out *r)
{
	for (size_t i = 0; i < r->nout; i++)
		reasm_out_free(r->out[i]);
	free(r->out);
}

static void expect_same(const struct run_out *a, const struct run_out *b,
			const char *what)
{
	char tag[128];

	cr_assert_eq(a->nout, b->nout, "%s: %zu outputs, then %zu", what,
		     a->nout, b->nout);
	for (size_t i = 0; i < a->nout; i++) {
		const struct reasm_out *x = a->out[i], *y = b->out[i];
		struct reasm_meta mx = { x->ts_ns, x->len, x->orig_len, x->dscp,
					 x->reassembled };
		struct reasm_meta my = { y->ts_ns, y->len, y->orig_len, y->dscp,
					 y->reassembled };

		snprintf(tag, sizeof(tag), "%s: output %zu", what, i);
		expect_meta(&mx, &my, tag);
		cr_assert(x->len == y->len &&
				  memcmp(x->data, y->data, x->len) == 0,
			  "%s: bytes differ", tag);
	}
	/* Every counter (struct reasm_stats is uint64_t fields only). */
	const uint64_t *p = (const uint64_t *)(const void *)&a->st;
	const uint64_t *q = (const uint64_t *)(const void *)&b->st;
	for (size_t k = 0; k < sizeof(a->st) / sizeof(uint64_t); k++)
		cr_expect_eq(p[k], q[k], "%s: counter %zu: %llu, then %llu",
			     what, k, (unsigned long long)p[k],
			     (unsigned long long)q[k]);
}

/*
 * @p fn through the emit path, then through a sink that takes every frame
 * and through sinks that decline every 2nd and every 3rd reservation;
 * each compared with the first. @return the sink run's counts (reserves,
 * commits, lapses) for the caller's own checks.
 */
static struct run_out check_scenario(const struct reasm_config *c,
				     scenario_fn fn, const char *name)
{
	static const unsigned declines[] = { 0, 2, 3, 1 };
	struct run_out base = run_mode(c, fn, false, 0), first = { 0 };
	char what[96];

	cr_assert_gt(base.nout, 0, "%s: emits something", name);
	for (size_t k = 0; k < sizeof(declines) / sizeof(declines[0]); k++) {
		struct run_out z = run_mode(c, fn, true, declines[k]);

		snprintf(what, sizeof(what), "%s, declining every %u", name,
			 declines[k]);
		expect_same(&base, &z, what);
		/* Each frame took one way: committed, or emitted because
		 * it was declined (unless it then failed, as a nested
		 * Fragment header does under strict) or is an atomic
		 * fragment (no sink). */
		cr_expect_leq(z.commits + z.st.atomic, z.nout, "%s", what);
		cr_expect_geq(z.commits + z.declines + z.st.atomic, z.nout,
			      "%s: %zu commits + %zu declines + %llu atomic < "
			      "%zu outputs",
			      what, z.commits, z.declines,
			      (unsigned long long)z.st.atomic, z.nout);
		if (z.declines == 0)
			cr_expect_eq(z.commits + z.st.atomic, z.nout, "%s",
				     what);
		cr_expect_eq(z.reserves, z.commits + z.declines + z.lapses,
			     "%s: reservations unaccounted for", what);
		if (declines[k] == 0) {
			cr_expect_eq(z.declines, 0, "%s", what);
			cr_expect_gt(z.commits, 0, "%s: nothing committed",
				     what);
		} else if (declines[k] == 1) {
			cr_expect_eq(z.commits, 0, "%s", what);
		} else if (z.reserves >= declines[k]) {
			cr_expect_gt(z.declines, 0, "%s: nothing declined",
				     what);
		}
		if (k == 0) {
			first = z;
			first.out = NULL;
			first.nout = 0;
		}
		run_free(&z);
	}
	run_free(&base);
	return first;
}

/* --- Inputs ---------------------------------------------------------------- */

static uint8_t payload[70000];

static void fill_payload(void)
{
	pb_fill(payload, sizeof(payload), 4242);
}

/* Fragments of @p d in @p chunk-byte pieces, in order or last first. */
static void feed_split(struct rig *g, const struct pb_dgram *d, size_t chunk,
		       bool reverse)
{
	size_t n;
	struct pb_frame **fr = pb_split_every(d, chunk, &n);

	for (size_t i = 0; i < n; i++) {
		feed(g, fr[reverse ? n - 1 - i : i]);
		g->now += 1000;
	}
	pb_frames_free(fr, n, true);
}

static void v4_ethernet(struct rig *g)
{
	struct pb_dgram d;

	fill_payload();
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 1, PB_IPPROTO_UDP, payload, 3000);
	d.v4.tos = 46 << 2 | PB_ECN_ECT0; /* EF, ECT(0) */
	feed_split(g, &d, 1480, false);
	/* Out of order, DF, options, one 802.1Q tag. */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 2, PB_IPPROTO_UDP, payload + 7, 4100);
	d.v4.df = true;
	d.v4.optlen = 8;
	memset(d.v4.opts, 1, 8); /* NOPs */
	d.link.nvlan = 1;
	d.link.tci[0] = 100;
	feed_split(g, &d, 1024, true);
	/* 802.1ad outside 802.1Q: the lead covers the whole stack. */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 3, PB_IPPROTO_TCP, payload + 11, 900);
	d.link.nvlan = 2;
	d.link.tpid[0] = PB_TPID_8021AD;
	d.link.tci[0] = 7;
	d.link.tci[1] = 8;
	d.v4.tos = 10 << 2;
	feed_split(g, &d, 296, false);
	/* ECT(0) and CE: reassembled with CE set (RFC 3168). */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 4, PB_IPPROTO_UDP, payload, 2000);
	d.v4.tos = PB_ECN_ECT0;
	feed_frag(g, &d, 0, 1000, true);
	d.v4.tos = PB_ECN_CE;
	feed_frag(g, &d, 1000, 1000, false);
	/* Not-ECT and ECT(0): discarded before anything is reserved. */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 6, PB_IPPROTO_UDP, payload, 2000);
	d.v4.tos = PB_ECN_NOT_ECT;
	feed_frag(g, &d, 0, 1000, true);
	d.v4.tos = PB_ECN_ECT0;
	feed_frag(g, &d, 1000, 1000, false);
	/* The largest datagram: 65535 bytes of IPv4. */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 5, PB_IPPROTO_UDP, payload, 65515);
	feed_split(g, &d, 8000, true);
}

static void v6_ethernet(struct rig *g)
{
	struct pb_dgram d;

	fill_payload();
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 10, PB_IPPROTO_UDP, payload, 5000);
	d.v6.tclass = 26 << 2 | PB_ECN_ECT1;
	d.v6.flow = 0x12345;
	feed_split(g, &d, 1448, false);
	/* Hop-by-hop and destination options before the Fragment header,
	 * last fragment first, a VLAN tag. */
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 11, PB_IPPROTO_TCP, payload + 3, 3001);
	d.v6.hbh_len = 8;
	d.v6.dst_len = 16;
	d.link.nvlan = 1;
	d.link.tci[0] = 4000;
	feed_split(g, &d, 1000, true);
	/* An atomic fragment: emitted alone, always through emit. */
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 12, PB_IPPROTO_UDP, payload, 700);
	feed_frag(g, &d, 0, 700, false);
	/* 65535 bytes of IPv6 payload. */
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 13, PB_IPPROTO_UDP, payload, 65527);
	feed_split(g, &d, 8192, false);
}

/* Raw IP and Linux SLL: leads shorter than an Ethernet header (raw IP's
 * reassembled frames: none at all). */
static void v4_raw(struct rig *g)
{
	struct pb_dgram d;

	fill_payload();
	pb_dgram_v4(&d, PB_DLT_RAW, 20, PB_IPPROTO_UDP, payload, 2500);
	feed_split(g, &d, 800, false);
	pb_dgram_v6(&d, PB_DLT_RAW, 21, PB_IPPROTO_UDP, payload, 2500);
	feed_split(g, &d, 800, true);
	feed_free(g, pb_whole(&d));
}

static void v6_sll(struct rig *g)
{
	struct pb_dgram d;

	fill_payload();
	pb_dgram_v6(&d, PB_DLT_SLL, 30, PB_IPPROTO_UDP, payload, 2500);
	d.v6.dst_len = 8;
	feed_split(g, &d, 800, false);
	pb_dgram_v4(&d, PB_DLT_SLL, 31, PB_IPPROTO_UDP, payload, 2500);
	feed_split(g, &d, 800, true);
}

static void pass_through(struct rig *g)
{
	struct pb_dgram d;
	struct pb_frame *f;
	static const uint8_t arp[28] = { 0, 1, 8, 0, 6, 4, 0, 1 };

	fill_payload();
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 40, PB_IPPROTO_UDP, payload, 1400);
	d.v4.tos = 34 << 2;
	feed_free(g, pb_whole(&d));
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 41, PB_IPPROTO_UDP, payload, 1400);
	d.v6.tclass = 12 << 2;
	feed_free(g, pb_whole(&d));
	feed_free(g, pb_wrap(&d.link, PB_ETH_ARP, arp, sizeof(arp)));
	/* Captured short of the wire: orig_len > len. */
	f = pb_whole(&d);
	f->wirelen = f->caplen;
	f->caplen = 100;
	feed_free(g, f);
	/* More VLAN tags than the engine parses: through, unparsed. */
	d.link.nvlan = 9;
	feed_free(g, pb_whole(&d));
	/* A fragment between whole frames. */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 42, PB_IPPROTO_UDP, payload, 1600);
	feed_frag(g, &d, 0, 800, true);
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 43, PB_IPPROTO_UDP, payload, 64);
	feed_free(g, pb_whole(&d));
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 42, PB_IPPROTO_UDP, payload, 1600);
	feed_frag(g, &d, 800, 800, false);
}

/* Overlapping fragments of different bytes: each policy keeps its own. */
static void overlaps(struct rig *g)
{
	static uint8_t a[4096], b[4096];
	struct pb_dgram d;

	pb_fill(a, sizeof(a), 1);
	pb_fill(b, sizeof(b), 2);
	for (uint16_t id = 50; id < 56; id++) {
		pb_dgram_v4(&d, PB_DLT_ETHERNET, id, PB_IPPROTO_UDP, a, 3200);
		feed_bytes(g, &d, 0, a, 1600, true);
		/* Starts inside the first, ends past it. */
		feed_bytes(g, &d, 800 + 8 * (id - 50u), b, 1600, true);
		/* A duplicate, then the end. */
		feed_bytes(g, &d, 0, a, 800, true);
		feed_bytes(g, &d, 2400, b, 800, false);
		/* Before everything held, covering a hole. */
		feed_bytes(g, &d, 1600, a + 1600, 1600, false);
	}
	for (uint32_t id = 60; id < 64; id++) {
		pb_dgram_v6(&d, PB_DLT_ETHERNET, id, PB_IPPROTO_UDP, a, 3200);
		feed_bytes(g, &d, 1600, b, 1600, false);
		feed_bytes(g, &d, 800, a + 800, 1600, true);
		feed_bytes(g, &d, 0, b, 1200, true);
	}
	/* Something every policy emits. */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 70, PB_IPPROTO_UDP, a, 1000);
	feed_free(g, pb_whole(&d));
	/* Timed out, and retired by a late fragment. */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 71, PB_IPPROTO_UDP, a, 1600);
	feed_frag(g, &d, 0, 800, true);
	g->now += 31 * NS_PER_S;
	reasm_expire(&g->w, g->now);
	feed_frag(g, &d, 800, 800, false);
	feed_frag(g, &d, 0, 800, true);
}

/* An IPv6 datagram whose reassembled payload begins with another
 * Fragment header (after destination options): strict discards it once
 * it has been written (the reservation lapses); the others emit it. */
static void nested(struct rig *g)
{
	uint8_t data[64];
	struct pb_dgram d;

	pb_fill(data, sizeof(data), 5);
	memset(data, 0, 16);
	data[0] = PB_IPPROTO_FRAGMENT; /* destination options, 8 bytes */
	data[2] = 1;
	data[3] = 4;
	data[8] = PB_IPPROTO_UDP; /* the inner Fragment header */
	data[11] = 1;
	data[15] = 9;
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 80, PB_IPPROTO_DSTOPTS, data,
		    sizeof(data));
	feed_frag(g, &d, 32, 32, false);
	feed_frag(g, &d, 0, 32, true);
	/* Then a datagram every policy emits, reserved after the lapse. */
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 81, PB_IPPROTO_UDP, payload, 2000);
	feed_split(g, &d, 1000, false);
}

/* --- Tests ----------------------------------------------------------------- */

static const enum reasm_policy policies[] = {
	REASM_STRICT, REASM_FIRST,     REASM_LAST,    REASM_BSD,
	REASM_LINUX,  REASM_BSD_RIGHT, REASM_WINDOWS, REASM_SOLARIS,
};

Test(sink, ipv4_ethernet)
{
	struct reasm_config c = rig_config(PB_DLT_ETHERNET, REASM_STRICT);
	struct run_out z = check_scenario(&c, v4_ethernet, "v4 ethernet");

	/* Six datagrams, one failed for its ECN before anything was
	 * reserved: five reserved and committed. */
	cr_expect_eq(z.st.ReasmOKs, 5);
	cr_expect_eq(z.st.bad_ecn, 1);
	cr_expect_eq(z.reserves, 5);
	cr_expect_eq(z.commits, 5);
	cr_expect_eq(z.lapses, 0);
}

Test(sink, ipv6_ethernet)
{
	struct reasm_config c = rig_config(PB_DLT_ETHERNET, REASM_STRICT);
	struct run_out z = check_scenario(&c, v6_ethernet, "v6 ethernet");

	cr_expect_eq(z.st.ReasmOKs, 4);
	cr_expect_eq(z.st.atomic, 1);
	cr_expect_eq(z.commits, 3, "the atomic fragment is emitted");
	cr_expect_eq(z.lapses, 0);
}

Test(sink, raw_and_sll)
{
	struct reasm_config c = rig_config(PB_DLT_RAW, REASM_STRICT);

	check_scenario(&c, v4_raw, "raw");
	c = rig_config(PB_DLT_SLL, REASM_STRICT);
	check_scenario(&c, v6_sll, "sll");
}

Test(sink, pass_through)
{
	struct reasm_config c = rig_config(PB_DLT_ETHERNET, REASM_STRICT);
	struct run_out z = check_scenario(&c, pass_through, "pass-through");

	cr_expect_eq(z.st.passed, 6);
	cr_expect_eq(z.st.ReasmOKs, 1);
	cr_expect_eq(z.commits, 7);
}

Test(sink, overlaps_every_policy)
{
	for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		struct reasm_config c =
			rig_config(PB_DLT_ETHERNET, policies[k]);

		check_scenario(&c, overlaps, reasm_policy_name(policies[k]));
	}
}

Test(sink, nested_fragment_lapses_under_strict)
{
	fill_payload();
	for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		struct reasm_config c =
			rig_config(PB_DLT_ETHERNET, policies[k]);
		const char *name = reasm_policy_name(policies[k]);
		struct run_out z = check_scenario(&c, nested, name);
		bool strict = policies[k] == REASM_STRICT;

		cr_expect_eq(z.st.nested_frag, 1, "%s", name);
		cr_expect_eq(z.reserves, 2, "%s", name);
		cr_expect_eq(z.lapses, strict ? 1 : 0, "%s", name);
		cr_expect_eq(z.commits, strict ? 1 : 2, "%s", name);
	}
}

/* The emit callback and the sink's reserve() and commit() run with no
 * lock of the engine held: each feeds the first fragment of a datagram of
 * its own, through a second worker, to the same engine, whose tables have
 * one stripe each (a lock held would be the one that fragment needs). */
static struct {
	struct reasm_worker w2;
	struct pb_dgram d;
	uint8_t data[32];
	uint16_t next_id;
	unsigned calls;
	uint8_t buf[4096];
} re;

static void reenter(void)
{
	re.d.v4.id = re.next_id++;
	struct pb_frame *f = pb_frag(&re.d, 0, NULL, 16, true);
	cr_expect_eq(reasm_input(&re.w2, f->data, f->caplen, f->wirelen,
				 NS_PER_S),
		     0);
	pb_frame_free(f);
	re.calls++;
}

static void reenter_emit(struct reasm_out *o, void *arg)
{
	(void)arg;
	reenter();
	reasm_out_free(o);
}

static uint8_t *reenter_reserve(void *arg, const struct reasm_meta *m,
				const uint8_t *lead, uint32_t lead_len)
{
	(void)arg;
	(void)lead;
	(void)lead_len;
	cr_assert_leq(m->len, sizeof(re.buf));
	reenter();
	return re.buf;
}

static void reenter_commit(void *arg, uint8_t *data, const struct reasm_meta *m)
{
	(void)arg;
	(void)data;
	(void)m;
	reenter();
}

static void drop_out(struct reasm_out *o, void *arg)
{
	(void)arg;
	reasm_out_free(o);
}

Test(sink, callbacks_hold_no_engine_lock, .timeout = 30)
{
	static const struct reasm_sink s = { reenter_reserve, reenter_commit,
					     NULL };

	fill_payload();
	for (int zc = 0; zc < 2; zc++) {
		struct reasm_config c =
			rig_config(PB_DLT_ETHERNET, REASM_STRICT);
		struct reasm_worker w;
		struct reasm *r = NULL;
		struct pb_dgram d;

		c.stripes = 1;
		cr_assert_eq(reasm_create(&r, &c), 0);
		cr_assert_eq(reasm_worker_init(&w, r, reenter_emit, NULL), 0);
		cr_assert_eq(reasm_worker_init(&re.w2, r, drop_out, NULL), 0);
		if (zc)
			w.sink = &s;
		re.calls = 0;
		re.next_id = 1000;
		pb_dgram_v4(&re.d, PB_DLT_ETHERNET, 0, PB_IPPROTO_UDP, re.data,
			    sizeof(re.data));
		re.d.v4.src ^= 0xff;

		pb_dgram_v4(&d, PB_DLT_ETHERNET, 1, PB_IPPROTO_UDP, payload,
			    64);
		struct pb_frame *f[3] = { pb_frag(&d, 0, NULL, 32, true),
					  pb_frag(&d, 32, NULL, 32, false),
					  pb_whole(&d) };
		for (int i = 0; i < 3; i++)
			cr_expect_eq(reasm_input(&w, f[i]->data, f[i]->caplen,
						 f[i]->wirelen, NS_PER_S),
				     i > 0, "frame %d", i);
		pb_frames_free(f, 3, false);
		/* A datagram and a frame passed: each a call of emit, or a
		 * reserve() and a commit(). */
		cr_expect_eq(re.calls, zc ? 4u : 2u);
		struct reasm_stats st;
		reasm_stats_read(r, &st);
		cr_expect_eq(st.ReasmOKs, 1u);
		cr_expect_eq(st.passed, 1u);
		cr_expect_eq(st.datagrams_pending, re.calls);
		reasm_destroy(r, NULL);
	}
}
