/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * limits.c - the suite limits of test_reasm_conformance: 65535, ping of
 * death, teardrop, max_frags.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * limits
 */

/* Datagrams at the 65535-byte limit, fed in fragments of 1480 bytes
 * (IPv4) or 1448 (IPv6), in order: those that fit reassemble, the
 * others fail as too big. */
struct big_case {
	char name[CASE_NAME_MAX];
	int family;
	bool icmp;    /* an ICMP echo, not the UDP datagram of make() */
	size_t len;   /* the fragmentable part */
	uint16_t hbh; /* IPv6: hop-by-hop options before the Fragment header */
	uint8_t optlen; /* IPv4: NOP options of the offset-0 fragment alone */
	uint32_t id, seed;
	uint32_t out_len; /* the output frame, when it fits; 0: it fails */
};

/* clang-format off */
static const struct big_case big_cases[] = {
	{ .name = "IPv4: exactly 65535 reassembles", .family = 4, .len = 65515,
	  .id = 51, .seed = 51, .out_len = 14 + 65535 },
	{ .name = "IPv4: 65536 fails", .family = 4, .len = 65516,
	  .id = 52, .seed = 52 },
	/* Every fragment fits (20 + offset + len <= 65535), but the
	 * offset-0 fragment's 60-byte header makes 60 + 65500 = 65560. */
	{ .name = "IPv4: options push the datagram past 65535", .family = 4,
	  .len = 65500, .optlen = 40, .id = 53, .seed = 12 },
	/* ICMP echo with 65510 data bytes: 20 + 8 + 65510 = 65538. */
	{ .name = "IPv4: ping of death", .family = 4, .icmp = true,
	  .len = 8 + 65510, .id = 56, .seed = 15 },
	/* The payload length counts the options before the Fragment
	 * header. */
	{ .name = "IPv6: 0 + 65535", .family = 6, .len = 65535,
	  .id = 55, .seed = 14, .out_len = 14 + 40 + 65535 },
	{ .name = "IPv6: 8 + 65527", .family = 6, .hbh = 8, .len = 65527,
	  .id = 55, .seed = 14, .out_len = 14 + 40 + 65535 },
	{ .name = "IPv6: 16 + 65519", .family = 6, .hbh = 16, .len = 65519,
	  .id = 55, .seed = 14, .out_len = 14 + 40 + 65535 },
	{ .name = "IPv6: 0 + 65536", .family = 6, .len = 65536,
	  .id = 55, .seed = 14 },
	{ .name = "IPv6: 8 + 65528", .family = 6, .hbh = 8, .len = 65528,
	  .id = 55, .seed = 14 },
	{ .name = "IPv6: 16 + 65520", .family = 6, .hbh = 16, .len = 65520,
	  .id = 55, .seed = 14 },
};
/* clang-format on */

TABLE_PARAMS(limits, big_datagrams, big_cases);

ParameterizedTest(struct big_case *p, limits, big_datagrams, .timeout = 30)
{
	struct rig g;
	uint8_t *data = malloc(p->len);
	struct pb_dgram d;
	size_t n;

	cr_assert_not_null(data);
	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	if (p->icmp) {
		pb_fill(data, p->len, p->seed);
		pb_icmp_echo_hdr(data, false, 1, 1);
		pb_dgram_v4(&d, PB_DLT_ETHERNET, (uint16_t)p->id,
			    PB_IPPROTO_ICMP, data, p->len);
	} else {
		make(&d, p->family, PB_DLT_ETHERNET, p->id, data, p->len,
		     p->seed);
	}
	if (p->family == 6)
		d.v6.hbh_len = p->hbh;
	struct pb_frame **f =
		pb_split_every(&d, p->family == 4 ? 1480 : 1448, &n);
	if (p->optlen > 0) {
		struct pb_dgram head = d;
		head.v4.optlen = p->optlen;
		memset(head.v4.opts, 1, p->optlen); /* NOPs */
		pb_frame_free(f[0]);
		f[0] = pb_frag(&head, 0, NULL, 1480, true);
	}
	for (size_t i = 0; i < n; i++)
		feed(&g, f[i]);
	pb_frames_free(f, n, true);
	if (p->out_len > 0) {
		cr_assert_eq(g.nout, 1u, "%s", p->name);
		cr_expect_eq(g.out[0]->len, p->out_len, "%s", p->name);
		expect_dgram(&g, 0, &d);
		finish_expect(&g, p->name,
			      COUNTS(W(ReasmOKs, 1), W(too_big, 0)));
	} else {
		cr_expect_eq(g.nout, 0u, "%s", p->name);
		struct reasm_stats st =
			finish_expect(&g, p->name, COUNTS(W(ReasmOKs, 0)));
		cr_expect_geq(st.too_big, 1u, "%s", p->name);
	}
	free(data);
}

#define LINUX_ENDS (STRICT | POLICY(REASM_LINUX))
#define TARGET_ENDS (EVERY_POLICY & ~LINUX_ENDS)

/* [0, 16) MF 1, [16, 32) MF 0 on the same ID after a datagram was
 * discarded: a new datagram, emitted (as the second output, or the
 * first). */
#define AGAIN(nout) FRAG(0, 16, true, 0), FRAG(16, 16, false, 1), OUT(nout)

static const struct script limits_scripts[] = {
	/* 20 + 65512 + 8 = 65540; 20 + 65512 + 4 = 65536, one byte too
	 * many, as a last fragment; 20 + 65504 + 8 = 65532 fits. The
	 * target-based policies drop each fragment past 65535 alone, as
	 * FreeBSD's ip_input() does. */
	{ "IPv4: a fragment past 65535 dropped", FAM4, TARGET_ENDS, 16, 50, 11,
	  STEPS(HEAD(65512, 8, true), HEAD(65512, 4, false),
		HEAD(65504, 8, true),
		FINISH(W(too_big, 2), W(ReasmReqds, 3), W(frags_pending, 1),
		       W(datagrams_pending, 1))) },
	/* Linux queues it: [65512, 65520) raises the queue's length, the
	 * last fragment [65512, 65516) then ends short of it and the queue
	 * is discarded with both; [65504, 65512) starts a new one. */
	{ "IPv4: a fragment past 65535 raises the end", FAM4, LINUX_ENDS, 16,
	  50, 11,
	  STEPS(HEAD(65512, 8, true), HEAD(65512, 4, false),
		HEAD(65504, 8, true),
		FINISH(W(too_big, 0), W(bad_end, 1), W(ReasmFails, 1),
		       W(ReasmReqds, 3), W(frags_discarded, 2),
		       W(frags_pending, 1), W(datagrams_pending, 1))) },
	/* The datagram [0, 32) with a fragment past 65535 slipped in
	 * before its last fragment, then the same datagram again on the
	 * same ID. Linux delivers only the second (the first queue ends
	 * short of the length the bad fragment gave it); the target-based
	 * policies drop the bad fragment and emit both. */
	{ "IPv4: a fragment past 65535 kills its datagram", FAM4, LINUX_ENDS,
	  32, 59, 18,
	  STEPS(FRAG(0, 16, true, 0), HEAD(65512, 8, true),
		FRAG(16, 16, false, 0), OUT(0),
		STATS(W(bad_end, 1), W(ReasmFails, 1), W(frags_discarded, 3),
		      W(datagrams_pending, 0)),
		AGAIN(1),
		FINISH(W(ReasmOKs, 1), W(too_big, 0), W(frags_reassembled, 2),
		       W(frags_dropped, 0))) },
	{ "IPv4: a fragment past 65535 kills its datagram", FAM4, TARGET_ENDS,
	  32, 59, 18,
	  STEPS(FRAG(0, 16, true, 0), HEAD(65512, 8, true),
		FRAG(16, 16, false, 1), OUT(1), AGAIN(2),
		FINISH(W(ReasmOKs, 2), W(too_big, 1), W(frags_too_big, 1),
		       W(bad_end, 0), W(frags_reassembled, 4))) },
	/* The bad fragment first: it starts the queue, whose length it
	 * sets; the last fragment ends short of it. */
	{ "IPv4: a fragment past 65535 first", FAM4, LINUX_ENDS, 32, 60, 19,
	  STEPS(HEAD(65512, 8, true), FRAG(0, 16, true, 0),
		FRAG(16, 16, false, 0), OUT(0), AGAIN(1),
		FINISH(W(ReasmOKs, 1), W(bad_end, 1), W(frags_discarded, 3),
		       W(frags_reassembled, 2))) },
	{ "IPv4: a fragment past 65535 first", FAM4, TARGET_ENDS, 32, 60, 19,
	  STEPS(HEAD(65512, 8, true), FRAG(0, 16, true, 0),
		FRAG(16, 16, false, 1), OUT(1), AGAIN(2),
		FINISH(W(ReasmOKs, 2), W(too_big, 1), W(bad_end, 0))) },
	/* The last fragment first: the bad fragment lies past the end and
	 * discards the queue; [0, 16) then starts a queue that never
	 * completes. */
	{ "IPv4: a fragment past 65535 after the last", FAM4, LINUX_ENDS, 32,
	  61, 20,
	  STEPS(FRAG(16, 16, false, 0), HEAD(65512, 8, true),
		FRAG(0, 16, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(bad_end, 1), W(too_big, 0),
		       W(frags_discarded, 2), W(frags_pending, 1),
		       W(datagrams_pending, 1))) },
	{ "IPv4: a fragment past 65535 after the last", FAM4, TARGET_ENDS, 32,
	  61, 20,
	  STEPS(FRAG(16, 16, false, 0), HEAD(65512, 8, true),
		FRAG(0, 16, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(too_big, 1), W(bad_end, 0))) },
	/* 65536, 65536, then 65535 fits. */
	{ "IPv6: a fragment past 65535 dropped", FAM6, STRICT, 16, 54, 13,
	  STEPS(HEAD(65528, 8, true), HEAD(65528, 8, false),
		HEAD(65528, 7, false),
		FINISH(W(too_big, 2), W(frags_pending, 1))) },
	/* The classic: [0, 36) MF 1, then [24, 28) MF 0, inside the first
	 * and ending before it. FreeBSD records the end, drops the
	 * fragment (held data covers it) and never completes the queue:
	 * the held [0, 36) lies past the end. */
	{ "teardrop", FAM4, EVERY_POLICY & ~POLICY(REASM_BSD), 36, 57, 16,
	  STEPS(FRAG(0, 36, true, ANY_RC), FRAG(24, 4, false, ANY_RC), OUT(0),
		FINISH(W(bad_end, 1), W(ReasmFails, 1),
		       W(datagrams_pending, 0))) },
	{ "teardrop", FAM4, POLICY(REASM_BSD), 36, 57, 16,
	  STEPS(FRAG(0, 36, true, ANY_RC), FRAG(24, 4, false, ANY_RC), OUT(0),
		FINISH(W(bad_end, 0), W(ReasmFails, 0), W(duplicates, 1),
		       W(datagrams_pending, 1), W(frags_pending, 1))) },
	/* A last fragment whose bytes are all held already still marks the
	 * end (Linux sets INET_FRAG_LAST_IN before its duplicate and
	 * overlap checks), under every policy: [8, 24) MF 1, then [16, 24)
	 * MF 0, then [0, 8) completes the 24-byte datagram. Every policy but
	 * last keeps the held bytes: the last fragment brought nothing
	 * new. */
	{ "a duplicate last fragment marks the end", BOTH,
	  EVERY_POLICY & ~POLICY(REASM_LAST), 24, 58, 17,
	  STEPS(FRAG(8, 16, true, 0), FRAG(16, 8, false, 0),
		FRAG(0, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 0), W(datagrams_pending, 0),
		       W(duplicates, 1), W(frags_reassembled, 2))) },
	{ "a duplicate last fragment marks the end", BOTH, POLICY(REASM_LAST),
	  24, 58, 17,
	  STEPS(FRAG(8, 16, true, 0), FRAG(16, 8, false, 0),
		FRAG(0, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 0),
		       W(datagrams_pending, 0))) },
};

SCRIPT_TEST(limits, scripted, limits_scripts)

TABLE_PARAMS(limits, max_frags, orders);

ParameterizedTest(bool *reversed, limits, max_frags)
{
	struct rig g;
	uint8_t data[40];
	struct pb_dgram d;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	size_t n;

	c.max_frags = 4;
	rig_init(&g, &c);
	for (uint32_t frags = 4; frags <= 5; frags++) {
		make(&d, 4, PB_DLT_ETHERNET, 60 + frags, data, 8 * frags,
		     frags);
		struct pb_frame **f = pb_split_every(&d, 8, &n);
		cr_assert_eq(n, frags);
		for (size_t i = 0; i < n; i++)
			feed(&g, f[*reversed ? n - 1 - i : i]);
		pb_frames_free(f, n, true);
	}
	cr_assert_eq(g.nout, 1u, "4 fragments fit, 5 do not");
	make(&d, 4, PB_DLT_ETHERNET, 64, data, 32, 4);
	expect_dgram(&g, 0, &d);
	struct reasm_stats st = finish_expect(
		&g, NULL,
		COUNTS(W(ReasmOKs, 1), W(too_many_frags, 1), W(ReasmFails, 1),
		       W(ReasmReqds, 9), W(frags_reassembled, 4)));
	cr_expect_eq(st.datagrams_pending, 0u,
		     "the fifth fragment discards the datagram");
}

/* max_frags 0 is the default, 128: a datagram of 128 fragments
 * completes, one of 129 is discarded at its 129th. */
FAMILY_PARAMS(limits, max_frags_default);

ParameterizedTest(int *family, limits, max_frags_default)
{
	static uint8_t data[128 * 8], more[129 * 8];
	struct rig g;
	struct pb_dgram d, e;
	size_t n;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	make(&d, *family, PB_DLT_ETHERNET, 67, data, sizeof(data), 36);
	make(&e, *family, PB_DLT_ETHERNET, 68, more, sizeof(more), 37);
	struct pb_frame **f = pb_split_every(&d, 8, &n);
	cr_assert_eq(n, 128u);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(feed(&g, f[n - 1 - i]), i + 1 == n ? 1 : 0,
			     "128 fragments, fragment %zu", i);
	pb_frames_free(f, n, true);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &d);
	f = pb_split_every(&e, 8, &n);
	cr_assert_eq(n, 129u);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(feed(&g, f[n - 1 - i]), 0,
			     "129 fragments, fragment %zu", i);
	pb_frames_free(f, n, true);
	cr_expect_eq(g.nout, 1u);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 1), W(too_many_frags, 1),
			     W(ReasmFails, 1), W(frags_reassembled, 128),
			     W(frags_discarded, 129), W(datagrams_pending, 0)));
}

/* The default 128 is below what Linux takes (it has no count, only its
 * memory limit): 129 fragments of 8 bytes pass the host and not reasm.
 * max_frags REASM_MAX_FRAGS_LIMIT closes that: the most fragments a
 * datagram can have without overlaps, 8189 of 8 bytes and a last one of
 * 3 (65515 bytes of IPv4 data), reassemble, in order and reversed (the
 * dearest order: every fragment goes in at the front). */
TABLE_PARAMS(limits, max_frags_limit_takes_every_datagram, orders);

ParameterizedTest(bool *reversed, limits, max_frags_limit_takes_every_datagram,
		  .timeout = 60)
{
	static uint8_t data[65515], small[129 * 8];
	struct rig g;
	struct pb_dgram d, e;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	size_t n;

	c.max_frags = REASM_MAX_FRAGS_LIMIT;
	c.mem_high = 64u << 20;
	rig_init(&g, &c);
	make(&e, 4, PB_DLT_ETHERNET, 69, small, sizeof(small), 38);
	make(&d, 4, PB_DLT_ETHERNET, 70, data, sizeof(data), 39);
	struct pb_frame **f = pb_split_every(&e, 8, &n);
	cr_assert_eq(n, 129u);
	for (size_t i = 0; i < n; i++)
		feed(&g, f[*reversed ? n - 1 - i : i]);
	pb_frames_free(f, n, true);
	f = pb_split_every(&d, 8, &n);
	cr_assert_eq(n, 8190u);
	for (size_t i = 0; i < n; i++)
		feed(&g, f[*reversed ? n - 1 - i : i]);
	pb_frames_free(f, n, true);
	cr_assert_eq(g.nout, 2u);
	expect_dgram(&g, 0, &e);
	expect_dgram(&g, 1, &d);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 2), W(too_many_frags, 0),
			     W(frags_reassembled, 129 + 8190)));
}

/* max_frags counts fragments: under FIRST one fragment that fills three
 * gaps between held ones ([8, 48) over [0, 8), [16, 24), [32, 40)) is one
 * fragment, though it leaves six pieces. */
Test(limits, max_frags_counts_fragments)
{
	struct rig g;
	uint8_t data[48], big[40];
	struct pb_dgram d, want;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_FIRST);

	c.max_frags = 4;
	rig_init(&g, &c);
	make(&d, 4, PB_DLT_ETHERNET, 66, data, sizeof(data), 35);
	memset(big, 0xbb, sizeof(big));
	feed_frag(&g, &d, 0, 8, true);
	feed_frag(&g, &d, 16, 8, true);
	feed_frag(&g, &d, 32, 8, true);
	cr_expect_eq(feed_bytes(&g, &d, 8, big, 40, false), 1);
	cr_assert_eq(g.nout, 1u);
	uint8_t out[48];
	for (unsigned b = 0; b < 6; b++)
		memcpy(out + 8 * b, b % 2 ? big : data + 8 * b, 8);
	want = d;
	want.data = out;
	expect_dgram(&g, 0, &want);
	finish_expect(&g, NULL,
		      COUNTS(W(too_many_frags, 0), W(ReasmOKs, 1),
			     W(frags_reassembled, 4)));
}
