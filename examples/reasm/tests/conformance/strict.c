/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * strict.c - the suite strict of test_reasm_conformance: duplicates kept
 * out, overlaps discard (RFC 5722), the end of the datagram (second last
 * fragment, data past the end, zero-length fragments).
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * strict
 */

/* Held [8, 24) (plus [40, 48) MF 0); the new fragment [o, o + l) MF 1
 * overlaps it: the datagram is discarded; what follows starts a new
 * queue, which completes only once all of it has come again. At the end
 * two fragments were discarded with the datagram, and the overlapping
 * one. */
/* clang-format off */
#define OVERLAP(what, o, l)                                                  \
	{ what, BOTH, STRICT, 48, 21, 6,                                     \
	  STEPS(FRAG(8, 16, true, ANY_RC), FRAG(40, 8, false, ANY_RC),       \
		FRAG(o, l, true, 0),                                         \
		STATS(W(ReasmOverlaps, 1), W(ReasmFails, 1),                 \
		      W(duplicates, 0), W(datagrams_pending, 0),             \
		      W(bytes_held, 0)),                                     \
		FRAG(0, 8, true, 0), FRAG(24, 16, true, 0),                  \
		STATS(W(datagrams_pending, 1)),                              \
		FRAG(8, 16, true, ANY_RC), FRAG(40, 8, false, 1), OUT(1),    \
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 1), W(ReasmReqds, 7),   \
		       W(frags_reassembled, 4),                              \
		       W_SUM(frags_dropped, frags_discarded, 3))) }

/* Some fragments held, then one that contradicts the end ([o1, +l1) MF
 * m1, then [o2, +l2) MF m2): the datagram is discarded (bad_end); the
 * datagram whole, from scratch, completes a new queue. */
#define BAD_END(what, o1, l1, m1, o2, l2, m2)                                \
	{ what, BOTH, STRICT, 32, 33, 7,                                     \
	  STEPS(FRAG(o1, l1, m1, ANY_RC), FRAG(o2, l2, m2, ANY_RC),          \
		STATS(W(bad_end, 1), W(ReasmFails, 1), W(ReasmOverlaps, 0),  \
		      W(datagrams_pending, 0)),                              \
		OUT(0), FRAG(0, 16, true, ANY_RC), FRAG(16, 16, false, 1),   \
		OUT(1),                                                      \
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 2),              \
		       W(ReasmReqds, 4))) }
/* clang-format on */

static const struct script strict_scripts[] = {
	{ "exact duplicate, other bytes and the same", BOTH, STRICT, 48, 9, 3,
	  STEPS(FRAG(0, 16, true, 0), FRAG(16, 16, true, 0),
		JUNK(16, 16, true, 0, 0xee), FRAG(0, 16, true, 0),
		STATS(W(duplicates, 2), W(ReasmOverlaps, 0),
		      W(datagrams_pending, 1)),
		FRAG(32, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 0), W(duplicates, 2),
		       W(ReasmReqds, 5), W(frags_reassembled, 3),
		       W(frags_dropped, 2))) },
	/* Inside [0, 32): at the start, in the middle, at the end. */
	{ "contained duplicates", BOTH, STRICT, 64, 9, 4,
	  STEPS(FRAG(0, 32, true, 0), JUNK(0, 8, true, 0, 0x5a),
		JUNK(8, 16, true, 0, 0x5a), JUNK(16, 16, true, 0, 0x5a),
		FRAG(32, 32, false, 1), OUT(1),
		FINISH(W(duplicates, 3), W(ReasmOverlaps, 0), W(ReasmOKs, 1),
		       W(ReasmFails, 0), W(frags_reassembled, 2),
		       W(frags_dropped, 3))) },
	/* A fragment inside held data that spans two held fragments: a
	 * duplicate when they arrived in order (one run, as Linux keeps
	 * them), an overlap when the first arrived second (two runs). */
	{ "[8,24) inside the run [0,16)+[16,32)", BOTH, STRICT, 48, 12, 5,
	  STEPS(FRAG(0, 16, true, ANY_RC), FRAG(16, 16, true, ANY_RC),
		JUNK(8, 16, true, 0, 0x77),
		STATS(W(duplicates, 1), W(ReasmOverlaps, 0)),
		FRAG(32, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 0))) },
	{ "[8,24) across two runs", BOTH, STRICT, 48, 12, 5,
	  STEPS(FRAG(16, 16, true, ANY_RC), FRAG(0, 16, true, ANY_RC),
		JUNK(8, 16, true, 0, 0x77),
		STATS(W(duplicates, 0), W(ReasmOverlaps, 1), W(ReasmFails, 1)),
		FRAG(32, 16, false, 0), OUT(0), FINISH_ONLY) },
	OVERLAP("partial, from the left", 0, 16),
	OVERLAP("partial, from the right", 16, 16),
	OVERLAP("superset", 0, 32),
	OVERLAP("same start, longer", 8, 24),
	OVERLAP("same end, longer", 0, 24),
	BAD_END("second last fragment, shorter", 16, 8, false, 8, 8, false),
	BAD_END("second last fragment, longer", 16, 8, false, 24, 8, false),
	BAD_END("data past the end", 8, 8, false, 16, 8, true),
	BAD_END("last fragment before held data", 16, 16, true, 8, 8, false),
	BAD_END("zero-length fragment", 0, 8, true, 8, 0, true),
	BAD_END("zero-length last fragment", 0, 8, true, 8, 0, false),
};

SCRIPT_TEST(strict, scripted, strict_scripts)
