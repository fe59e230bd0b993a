/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ipv4.c - the suite ipv4 of test_reasm_conformance: options, DF, header
 * checksums, the 16-bit ID's wrap.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * ipv4: options, DF, checksums
 */

Test(ipv4, options_from_offset_zero_fragment)
{
	struct rig g;
	uint8_t data[64];
	struct pb_dgram d, head;
	static const uint8_t opts[12] = {
		7, 11, 4, 0, 0, 0, 0, 0, 0, 0, 0, /* record route, 2 slots */
		0,				  /* end of options */
	};

	open_make(&g, &d, 4, 90, data, sizeof(data), 23);
	head = d;
	head.v4.optlen = sizeof(opts);
	memcpy(head.v4.opts, opts, sizeof(opts));
	head.v4.ttl = 17; /* the output's header is this one */
	/* Non-first fragments without the option (not copied), and one
	 * with an unrelated option of its own. */
	struct pb_dgram mid = d;
	mid.v4.optlen = 4;
	memcpy(mid.v4.opts, "\x01\x01\x01\x00", 4);
	feed_frag(&g, &d, 48, 16, false);
	feed_frag(&g, &mid, 24, 24, true);
	cr_expect_eq(feed_frag(&g, &head, 0, 24, true), 1);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &head);
	rig_finish(&g);
}

struct df_case {
	bool df[3]; /* fragments of 32, 24 and 16 bytes */
	bool want;
};

static const struct df_case df_cases[] = {
	{ { false, false, false }, false }, { { true, true, true }, true },
	{ { true, false, false }, true }, /* the largest had DF */
	{ { false, true, true }, false }, /* smaller ones had it */
	{ { true, false, true }, true },
};

TABLE_PARAMS(ipv4, df_of_largest_fragment, df_cases);

ParameterizedTest(struct df_case *p, ipv4, df_of_largest_fragment)
{
	struct rig g;
	uint8_t data[72];
	struct pb_dgram d;
	static const uint32_t off[3] = { 0, 32, 56 };
	static const uint32_t len[3] = { 32, 24, 16 };

	open_make(&g, &d, 4, 91, data, sizeof(data), 24);
	/* Arrival: the middle one, the last, then offset 0. */
	static const int order[3] = { 1, 2, 0 };
	for (int k = 0; k < 3; k++) {
		int i = order[k];
		struct pb_dgram f = d;
		f.v4.df = p->df[i];
		feed_frag(&g, &f, off[i], len[i], i < 2);
	}
	cr_assert_eq(g.nout, 1u);
	d.v4.df = p->want;
	expect_dgram(&g, 0, &d);
	rig_finish(&g);
}

/* Fragments with a wrong header checksum are dropped, the queue kept:
 * the last fragment completes nothing until a good copy comes. */
static const struct script ipv4_scripts[] = {
	{ "bad header checksum dropped", FAM4, STRICT, 48, 92, 25,
	  STEPS(FRAG(0, 16, true, ANY_RC), BAD_CSUM(16, 16, true, ANY_RC),
		BAD_CSUM(32, 16, false, 0),
		STATS(W(bad_checksum, 2), W(datagrams_pending, 1)),
		FRAG(32, 16, false, 0), FRAG(16, 16, true, 1), OUT(1),
		FINISH(W(bad_checksum, 2), W(ReasmOKs, 1), W(ReasmFails, 0),
		       W(frags_reassembled, 3))) },
};

SCRIPT_TEST(ipv4, scripted, ipv4_scripts)

/* IPv4 IDs are 16 bits. A datagram left incomplete while its source
 * begins REASM_ID_DIST others is not completed by a later fragment with
 * its ID (most likely a newer datagram's); below that distance it is.
 * The count is its source's: datagrams of a source in another slot
 * (another reasm_flow_of() value) do not count. */
struct wrap_case {
	unsigned between; /* datagrams from one source in between */
	bool completes;
	bool other_slot; /* that source is another one, in another slot */
};

ParameterizedTestParameters(ipv4, id_wrap)
{
	static struct wrap_case p[] = {
		{ 1000, true, false },
		{ REASM_ID_DIST - 8, true, false },
		{ REASM_ID_DIST + 8, false, false },
		{ REASM_ID_DIST + 8, true, true },
	};
	return cr_make_param_array(struct wrap_case, p, 4);
}

ParameterizedTest(struct wrap_case *p, ipv4, id_wrap, .timeout = 60)
{
	struct rig g;
	uint8_t data[64], other[16];
	struct pb_dgram d, o;

	open_make(&g, &d, 4, 7, data, sizeof(data), 1);
	cr_expect_eq(feed_frag(&g, &d, 0, 32, true), 0);
	/* Others from the same source (other IDs, never 7), each complete. */
	make(&o, 4, PB_DLT_ETHERNET, 8, other, sizeof(other), 2);
	if (p->other_slot) {
		struct pb_frame *f = pb_frag(&d, 0, NULL, 32, true);
		int32_t mine = reasm_flow_of(g.r, f->data, f->caplen);
		pb_frame_free(f);
		for (uint32_t s = 1;; s++) {
			cr_assert_lt(s, 4096u, "no source in another slot");
			o.v4.src = d.v4.src + s;
			f = pb_frag(&o, 0, NULL, 8, true);
			int32_t theirs = reasm_flow_of(g.r, f->data, f->caplen);
			pb_frame_free(f);
			if (theirs != mine)
				break;
		}
	}
	for (unsigned k = 0; k < p->between; k++) {
		o.v4.id = (uint16_t)(8 + k % 60000);
		cr_expect_eq(feed_frag(&g, &o, 0, 8, true), 0);
		cr_expect_eq(feed_frag(&g, &o, 8, 8, false), 1);
	}
	size_t before = g.nout;
	int rc = feed_frag(&g, &d, 32, 32, false);
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.ReasmOKs, p->between + (p->completes ? 1u : 0u));
	if (p->completes) {
		cr_expect_eq(rc, 1);
		cr_assert_eq(g.nout, before + 1);
		expect_dgram(&g, before, &d);
		cr_expect_eq(st.id_wrapped, 0u);
	} else {
		cr_expect_eq(rc, 0);
		cr_expect_eq(g.nout, before);
		cr_expect_eq(st.id_wrapped, 1u);
		cr_expect_eq(st.ReasmFails, 1u);
		cr_expect_eq(st.ReasmTimeout, 0u);
		/* The late fragment began a datagram of its own. */
		cr_expect_eq(st.datagrams_pending, 1u);
	}
	rig_finish(&g);
}
