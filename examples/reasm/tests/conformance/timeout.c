/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timeout.c - the suite timeout of test_reasm_conformance: 30 s / 60 s
 * from the first fragment.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * timeout
 */

struct timeout_case {
	int family;
	uint64_t cfg_ns; /* 0: the default */
	uint64_t want_ns;
};

static const struct timeout_case timeout_cases[] = {
	{ 4, 0, 30 * NS_PER_S },
	{ 6, 0, 60 * NS_PER_S },
	{ 4, 5 * NS_PER_S, 5 * NS_PER_S },
	{ 6, 7 * NS_PER_S, 7 * NS_PER_S },
};

TABLE_PARAMS(timeout, from_first_fragment, timeout_cases);

ParameterizedTest(struct timeout_case *p, timeout, from_first_fragment)
{
	struct rig g;
	uint8_t data[48];
	struct pb_dgram d;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);

	if (p->family == 4)
		c.timeout_v4_ns = p->cfg_ns;
	else
		c.timeout_v6_ns = p->cfg_ns;
	rig_init(&g, &c);
	make(&d, p->family, PB_DLT_ETHERNET, 95, data, sizeof(data), 29);
	uint64_t t0 = g.now, T = p->want_ns;
	feed_frag(&g, &d, 0, 16, true);
	g.now = t0 + T / 2; /* does not extend the timeout */
	feed_frag(&g, &d, 16, 16, true);
	cr_expect_eq(reasm_expire(&g.w, t0 + T - 1), 0u, "1 ns early");
	struct reasm_stats st = stats_expect(
		&g, NULL, COUNTS(W(datagrams_pending, 1), W(ReasmTimeout, 0)));
	cr_expect_eq(reasm_expire(&g.w, t0 + T), 1u,
		     "timeout after the "
		     "first fragment");
	st = stats_expect(&g, NULL,
			  COUNTS(W(ReasmTimeout, 1), W(ReasmFails, 1),
				 W(frags_discarded, 2), W(datagrams_pending, 0),
				 W(bytes_held, 0)));
	/* The last fragment, late: a new queue of its own. */
	g.now = t0 + T + 1;
	cr_expect_eq(feed_frag(&g, &d, 32, 16, false), 0);
	st = rig_stats(&g);
	cr_expect_eq(st.datagrams_pending, 1u);
	cr_expect_eq(g.nout, 0u);
	/* It times out on its own clock, T after it came. */
	cr_expect_eq(reasm_expire(&g.w, g.now + T - 1), 0u);
	cr_expect_eq(reasm_expire(&g.w, g.now + T), 1u);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmTimeout, 2), W(ReasmFails, 2),
			     W(frags_discarded, 3), W(ReasmOKs, 0)));
}

/* Nobody called reasm_expire(), but the datagram's time is up (30 s for
 * IPv4, 60 s for IPv6) when its last fragment comes: it must not
 * complete. */
static const struct script timeout_scripts[] = {
	{ "late fragment without expire", FAM4, STRICT, 32, 96, 30,
	  STEPS(FRAG(0, 16, true, ANY_RC), CLOCK(31 * NS_PER_S),
		FRAG(16, 16, false, 0), OUT(0)) },
	{ "late fragment without expire", FAM6, STRICT, 32, 96, 30,
	  STEPS(FRAG(0, 16, true, ANY_RC), CLOCK(61 * NS_PER_S),
		FRAG(16, 16, false, 0), OUT(0)) },
	/* Exactly the timeout after the first fragment, the datagram is
	 * retired (a timeout) and the fragment begins a new one, which the
	 * other half then completes. */
	{ "fragment at the timeout retires and begins anew", FAM4, STRICT, 32,
	  97, 31,
	  STEPS(FRAG(0, 16, true, 0), CLOCK(30 * NS_PER_S),
		FRAG(16, 16, false, 0),
		STATS(W(ReasmTimeout, 1), W(ReasmFails, 1),
		      W(frags_discarded, 1), W(datagrams_pending, 1),
		      W(frags_pending, 1)),
		FRAG(0, 16, true, 1), OUT(1),
		FINISH(W(packets, 3), W(ReasmOKs, 1), W(ReasmTimeout, 1),
		       W(ReasmFails, 1), W(frags_reassembled, 2),
		       W(frags_discarded, 1))) },
	{ "fragment at the timeout retires and begins anew", FAM6, STRICT, 32,
	  97, 31,
	  STEPS(FRAG(0, 16, true, 0), CLOCK(60 * NS_PER_S),
		FRAG(16, 16, false, 0),
		STATS(W(ReasmTimeout, 1), W(ReasmFails, 1),
		      W(frags_discarded, 1), W(datagrams_pending, 1),
		      W(frags_pending, 1)),
		FRAG(0, 16, true, 1), OUT(1),
		FINISH(W(packets, 3), W(ReasmOKs, 1), W(ReasmTimeout, 1),
		       W(ReasmFails, 1), W(frags_reassembled, 2),
		       W(frags_discarded, 1))) },
	/* 1 ns before it, the datagram still completes. */
	{ "fragment 1 ns before the timeout", FAM4, STRICT, 32, 98, 32,
	  STEPS(FRAG(0, 16, true, 0), CLOCK(30 * NS_PER_S - 1),
		FRAG(16, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmTimeout, 0), W(ReasmFails, 0))) },
	{ "fragment 1 ns before the timeout", FAM6, STRICT, 32, 98, 32,
	  STEPS(FRAG(0, 16, true, 0), CLOCK(60 * NS_PER_S - 1),
		FRAG(16, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmTimeout, 0), W(ReasmFails, 0))) },
};

SCRIPT_TEST(timeout, scripted, timeout_scripts)
