/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ecn.c - the suite ecn of test_reasm_conformance: RFC 3168 section 5.3,
 * as Linux's table.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * ecn
 */

#define DSCP_AF11 10u

struct ecn_case {
	int family;
	uint8_t ecn[3]; /* of the fragments, offset 0 first (and in) */
	int want;	/* the output's ECN, or -1: discarded */
};

static const struct ecn_case ecn_base[] = {
	{ 0,
	  { PB_ECN_NOT_ECT, PB_ECN_NOT_ECT, PB_ECN_NOT_ECT },
	  PB_ECN_NOT_ECT },
	{ 0, { PB_ECN_ECT0, PB_ECN_ECT0, PB_ECN_ECT0 }, PB_ECN_ECT0 },
	{ 0, { PB_ECN_ECT1, PB_ECN_ECT1, PB_ECN_ECT1 }, PB_ECN_ECT1 },
	{ 0, { PB_ECN_CE, PB_ECN_CE, PB_ECN_CE }, PB_ECN_CE },
	{ 0, { PB_ECN_ECT0, PB_ECN_CE, PB_ECN_ECT0 }, PB_ECN_CE },
	{ 0, { PB_ECN_CE, PB_ECN_ECT1, PB_ECN_ECT1 }, PB_ECN_CE },
	{ 0, { PB_ECN_ECT1, PB_ECN_ECT0, PB_ECN_CE }, PB_ECN_CE },
	{ 0, { PB_ECN_ECT0, PB_ECN_ECT1, PB_ECN_ECT1 }, PB_ECN_ECT0 },
	{ 0, { PB_ECN_ECT1, PB_ECN_ECT0, PB_ECN_ECT0 }, PB_ECN_ECT1 },
	{ 0, { PB_ECN_NOT_ECT, PB_ECN_ECT0, PB_ECN_ECT0 }, -1 },
	{ 0, { PB_ECN_ECT1, PB_ECN_NOT_ECT, PB_ECN_ECT1 }, -1 },
	{ 0, { PB_ECN_CE, PB_ECN_CE, PB_ECN_NOT_ECT }, -1 },
	{ 0, { PB_ECN_NOT_ECT, PB_ECN_NOT_ECT, PB_ECN_CE }, -1 },
};
PER_FAMILY_PARAMS(ecn, rfc3168_table, struct ecn_case, ecn_base)

ParameterizedTest(struct ecn_case *p, ecn, rfc3168_table)
{
	struct rig g;
	uint8_t data[48];
	struct pb_dgram d;

	open_make(&g, &d, p->family, 80, data, sizeof(data), 22);
	for (uint32_t i = 0; i < 3; i++) {
		struct pb_dgram f = d;
		uint8_t tos = (uint8_t)(DSCP_AF11 << 2 | p->ecn[i]);
		f.v4.tos = tos;
		f.v6.tclass = tos;
		feed_frag(&g, &f, 16 * i, 16, i < 2);
	}
	const char *fam = p->family == 4 ? "IPv4" : "IPv6";
	if (p->want >= 0) {
		cr_assert_eq(g.nout, 1u, "%s ECN %u %u %u", fam, p->ecn[0],
			     p->ecn[1], p->ecn[2]);
		d.v4.tos = (uint8_t)(DSCP_AF11 << 2 | (unsigned)p->want);
		d.v6.tclass = d.v4.tos;
		expect_dgram(&g, 0, &d);
		cr_expect_eq(g.out[0]->dscp, DSCP_AF11);
	} else {
		cr_expect_eq(g.nout, 0u, "%s ECN %u %u %u", fam, p->ecn[0],
			     p->ecn[1], p->ecn[2]);
	}
	finish_expect(&g, NULL,
		      COUNTS(W(bad_ecn, p->want < 0 ? 1u : 0u),
			     W(ReasmFails, p->want < 0 ? 1u : 0u),
			     W(ReasmOKs, p->want < 0 ? 0u : 1u),
			     W(datagrams_pending, 0)));
}
