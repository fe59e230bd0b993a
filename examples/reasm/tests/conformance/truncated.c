/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * truncated.c - the suite truncated of test_reasm_conformance: captures
 * shorter than the packet.
 */
#define _GNU_SOURCE /* open_memstream */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * truncated
 */

FAMILY_PARAMS(truncated, fragment_never_reassembled);

ParameterizedTest(int *family, truncated, fragment_never_reassembled)
{
	struct rig g;
	uint8_t data[48];
	struct pb_dgram d;
	struct pb_frame *mid, *last;

	open_make(&g, &d, *family, 99, data, sizeof(data), 33);
	feed_frag(&g, &d, 0, 16, true);
	/* The middle fragment, its capture 6 bytes short. */
	mid = pb_frag(&d, 16, NULL, 16, true);
	cr_expect_eq(reasm_input(&g.w, mid->data, mid->caplen - 6, mid->wirelen,
				 g.now),
		     0);
	/* And the last one, its capture cut 2 bytes after its headers. */
	last = pb_frag(&d, 32, NULL, 16, false);
	uint32_t cut = last->l3off + (*family == 4 ? 20u : 48u) + 2u;
	cr_expect_eq(reasm_input(&g.w, last->data, cut, last->wirelen, g.now),
		     0);
	stats_expect(&g, NULL, COUNTS(W(truncated, 2), W(ReasmOKs, 0)));
	cr_expect_eq(g.nout, 0u);
	/* Whole captures of both complete the datagram: the queue was not
	 * touched. */
	feed(&g, mid);
	cr_expect_eq(feed(&g, last), 1);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &d);
	pb_frame_free(mid);
	pb_frame_free(last);
	finish_expect(&g, NULL,
		      COUNTS(W(truncated, 2), W(frags_dropped, 2),
			     W(ReasmOKs, 1), W(frags_reassembled, 3)));
}

FAMILY_PARAMS(truncated, non_fragment_passed_as_captured);

ParameterizedTest(int *family, truncated, non_fragment_passed_as_captured)
{
	struct rig g;
	uint8_t data[200];
	struct pb_dgram d;

	open_make(&g, &d, *family, 100, data, sizeof(data), 34);
	struct pb_frame *w = pb_whole(&d);
	w->caplen = 96; /* a snap length */
	cr_expect_eq(feed(&g, w), 1);
	cr_assert_eq(g.nout, 1u);
	expect_passed(&g, 0, w);
	cr_expect_eq(g.out[0]->orig_len, w->wirelen);
	pb_frame_free(w);
	struct reasm_stats st = rig_finish(&g);
	cr_expect_eq(st.ReasmReqds, 0u);
}

/* The summary's bracketed counts are parts of the totals they follow:
 * three frames cut short, of which one is a fragment, make "1 dropped
 * (truncated 1)", not "(truncated 3)". */
Test(truncated, summary_counts_only_dropped_fragments)
{
	struct rig g;
	uint8_t data[200];
	struct pb_dgram d;
	char *buf = NULL;
	size_t len = 0;

	open_make(&g, &d, 4, 101, data, sizeof(data), 35);
	struct pb_frame *w = pb_whole(&d);
	w->caplen = 60;
	feed(&g, w);
	feed(&g, w);
	pb_frame_free(w);
	struct pb_frame *f = pb_frag(&d, 0, NULL, 64, true);
	f->caplen -= 4;
	feed(&g, f);
	pb_frame_free(f);
	struct reasm_stats st =
		finish_expect(&g, NULL,
			      COUNTS(W(truncated, 3), W(frags_truncated, 1),
				     W(frags_dropped, 1)));
	FILE *mf = open_memstream(&buf, &len);
	cr_assert_not_null(mf);
	reasm_stats_summary(mf, &st);
	fclose(mf);
	cr_assert_not_null(buf);
	cr_expect_not_null(strstr(buf, "fragments:   1 dropped (truncated 1),"),
			   "summary:\n%s", buf);
	free(buf);
}
