/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ends.c - the suite ends of test_reasm_conformance: each policy's end
 * rules: data past the end, a second last fragment ending before or after
 * the first's.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * ends: each policy's end rules (README.md's policy table). Three
 * models: Linux's (strict, linux) discards the datagram; FreeBSD's
 * (bsd) drops the fragment alone and keeps the first end; frag3's
 * (first, last, bsd-right, windows, solaris) drops a non-last fragment
 * past the end, lets the higher end of two last fragments win, and
 * discards the datagram when a last fragment that ends short meets held
 * data.
 */

#define LINUXES (STRICT | POLICY(REASM_LINUX))
#define FRAG3S                                                                \
	(POLICY(REASM_FIRST) | POLICY(REASM_LAST) | POLICY(REASM_BSD_RIGHT) | \
	 POLICY(REASM_WINDOWS) | POLICY(REASM_SOLARIS))
#define FREEBSD POLICY(REASM_BSD)

/* [0, 8) and [16, 24) MF 0: the end known, [8, 16) missing. */
static const struct step ends_apart[] =
	STEP_LIST(FRAG(0, 8, true, 0), FRAG(16, 8, false, 0));

/* [8, 24) MF 0, then [8, 16) MF 0 with other bytes, over it. */
static const struct step end_over_held[] =
	STEP_LIST(FRAG(8, 16, false, 0), JUNK(8, 8, false, 0, 0xee));

/* [8, 16) MF 0, then [16, 24) MF 0. */
static const struct step end_after[] =
	STEP_LIST(FRAG(8, 8, false, 0), FRAG(16, 8, false, 0));

/* [24, 32) MF 1, then [8, 16) MF 0. */
static const struct step end_before_held[] =
	STEP_LIST(FRAG(24, 8, true, 0), FRAG(8, 8, false, 0));

/* clang-format off */
/* FreeBSD dropped the last fragment fed as past the end, and [8, 16)
 * completes the 24 bytes. */
static const struct step bsd_past_end[] = STEP_LIST(
	STATS(W(past_end, 1)), FRAG(8, 8, true, 1), OUT(1),
	FINISH(W(ReasmOKs, 1), W(past_end, 1), W(frags_reassembled, 3)));

static const struct script end_scripts[] = {
	/* [0, 8), [16, 24) MF 0, then [24, 32) MF 1: past the end. */
	{ "data past the end", BOTH, LINUXES, 24, 61, 21,
	  STEPS(RUN(ends_apart), JUNK(24, 8, true, 0, 0xee),
		STATS(W(bad_end, 1), W(ReasmFails, 1), W(past_end, 0),
		      W(datagrams_pending, 0)),
		FRAG(8, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(datagrams_pending, 1))) },
	{ "data past the end", BOTH, FREEBSD | FRAG3S, 24, 61, 21,
	  STEPS(RUN(ends_apart), JUNK(24, 8, true, 0, 0xee),
		STATS(W(past_end, 1), W(bad_end, 0), W(ReasmFails, 0),
		      W(datagrams_pending, 1)),
		FRAG(8, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(past_end, 1), W(frags_dropped, 1),
		       W(frags_reassembled, 3))) },
	/* [0, 8), [16, 24) MF 0, then [8, 24) MF 1 (the same bytes): it
	 * ends at the end. An overlap to strict; FreeBSD refuses a
	 * non-last fragment that reaches the end (i >= ipq_maxoff); the
	 * others take it and complete. */
	{ "a non-last fragment ending at the end", BOTH, STRICT, 24, 62, 22,
	  STEPS(RUN(ends_apart), FRAG(8, 16, true, 0), OUT(0),
		FINISH(W(ReasmOverlaps, 1), W(ReasmFails, 1),
		       W(past_end, 0))) },
	{ "a non-last fragment ending at the end", BOTH,
	  POLICY(REASM_LINUX) | FRAG3S, 24, 62, 22,
	  STEPS(RUN(ends_apart), FRAG(8, 16, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(past_end, 0), W(bad_end, 0))) },
	{ "a non-last fragment ending at the end", BOTH, FREEBSD, 24, 62, 22,
	  STEPS(RUN(ends_apart), FRAG(8, 16, true, 0), RUN(bsd_past_end)) },
	/* [0, 8), [16, 24) MF 0, then [8, 16) MF 0: a second last fragment
	 * that ends before the first's end, over nothing held. */
	{ "a second last fragment ending before, apart", BOTH, LINUXES, 24,
	  63, 23,
	  STEPS(RUN(ends_apart), FRAG(8, 8, false, 0), OUT(0),
		FINISH(W(bad_end, 1), W(ReasmFails, 1),
		       W(datagrams_pending, 0))) },
	{ "a second last fragment ending before, apart", BOTH, FRAG3S, 24,
	  63, 23,
	  STEPS(RUN(ends_apart), FRAG(8, 8, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(past_end, 0),
		       W(frags_reassembled, 3))) },
	{ "a second last fragment ending before, apart", BOTH, FREEBSD, 24,
	  63, 23,
	  STEPS(RUN(ends_apart), FRAG(8, 8, false, 0), RUN(bsd_past_end)) },
	/* [8, 24) MF 0, then [8, 16) MF 0 (other bytes) over it, then
	 * [0, 8): a second last fragment that ends before the first's
	 * end, over held data (frag3's "teardrop"). */
	{ "a second last fragment ending before, over held data", BOTH,
	  LINUXES | FRAG3S, 24, 64, 24,
	  STEPS(RUN(end_over_held),
		STATS(W(bad_end, 1), W(ReasmFails, 1), W(datagrams_pending, 0)),
		FRAG(0, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(past_end, 0))) },
	{ "a second last fragment ending before, over held data", BOTH,
	  FREEBSD, 24, 64, 24,
	  STEPS(RUN(end_over_held), STATS(W(past_end, 1), W(bad_end, 0)),
		FRAG(0, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 2))) },
	/* [8, 16) MF 0, then [16, 24) MF 0, then [0, 8): a second last
	 * fragment that ends after the first's end. FreeBSD keeps the
	 * first end and delivers 16 bytes; frag3 moves the end. */
	{ "a second last fragment ending after", BOTH, LINUXES, 24, 65, 25,
	  STEPS(RUN(end_after), STATS(W(bad_end, 1), W(ReasmFails, 1)),
		FRAG(0, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(datagrams_pending, 1))) },
	{ "a second last fragment ending after", BOTH, FREEBSD, 24, 65, 25,
	  STEPS(RUN(end_after), STATS(W(past_end, 1), W(bad_end, 0)),
		FRAG(0, 8, true, 1), OUT_LEN(1, 16),
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 2))) },
	{ "a second last fragment ending after", BOTH, FRAG3S, 24, 65, 25,
	  STEPS(RUN(end_after), STATS(W(past_end, 0), W(bad_end, 0)),
		FRAG(0, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 3))) },
	/* [24, 32) MF 1, then [8, 16) MF 0, then [0, 8) and [16, 24): the
	 * last fragment ends before held data. FreeBSD records the end,
	 * refuses what reaches it, and never completes; frag3 keeps the
	 * higher end and completes 32 bytes. */
	{ "the last fragment ending before held data", BOTH, LINUXES, 32, 66,
	  26,
	  STEPS(RUN(end_before_held), STATS(W(bad_end, 1), W(ReasmFails, 1)),
		FRAG(0, 8, true, 0), FRAG(16, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(datagrams_pending, 1))) },
	{ "the last fragment ending before held data", BOTH, FREEBSD, 32, 66,
	  26,
	  STEPS(RUN(end_before_held), FRAG(0, 8, true, 0),
		FRAG(16, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(ReasmFails, 0), W(bad_end, 0),
		       W(past_end, 1), W(datagrams_pending, 1),
		       W(frags_pending, 3))) },
	{ "the last fragment ending before held data", BOTH, FRAG3S, 32, 66,
	  26,
	  STEPS(RUN(end_before_held), FRAG(0, 8, true, 0),
		FRAG(16, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(past_end, 0),
		       W(frags_reassembled, 4))) },
};
/* clang-format on */

SCRIPT_TEST(ends, scripted, end_scripts)
