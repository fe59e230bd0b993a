/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * eight.c - the suite eight of test_reasm_conformance: non-last fragments
 * not a multiple of 8 bytes.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * eight: non-last fragments whose length is not a multiple of 8
 */

static const struct script eight_scripts[] = {
	/* [0, 20) MF 1: bytes 16..19 are ignored (Linux rounds the end
	 * down); they differ from the datagram's so that using them
	 * shows. [16, 40) meets the rounded-down [0, 16). */
	{ "IPv4: the end rounded down", FAM4, STRICT, 40, 44, 8,
	  STEPS(FILL(0, 20, true, 0, 0xcc, 16), FRAG(16, 24, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmOverlaps, 0),
		       W(frags_reassembled, 2))) },
	/* [8, 12) MF 1 rounds down to [8, 8): a zero-length fragment. */
	{ "IPv4: a short fragment rounds to nothing", FAM4, STRICT, 32, 45, 9,
	  STEPS(FRAG(0, 8, true, ANY_RC), FRAG(8, 4, true, ANY_RC), OUT(0),
		FINISH(W(bad_end, 1), W(ReasmFails, 1),
		       W(datagrams_pending, 0))) },
	/* 12 bytes, MF 1: dropped, the queue kept. */
	{ "IPv6: the fragment dropped, the queue kept", FAM6, STRICT, 32, 46,
	  10,
	  STEPS(FRAG(0, 16, true, 0), FRAG(16, 12, true, 0),
		STATS(W(malformed, 1), W(ReasmFails, 0),
		      W(datagrams_pending, 1)),
		FRAG(16, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 2),
		       W(frags_dropped, 1))) },
};

SCRIPT_TEST(eight, scripted, eight_scripts)
