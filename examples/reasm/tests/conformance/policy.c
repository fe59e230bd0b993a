/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * policy.c - the suite policy of test_reasm_conformance: the target-based
 * policies on Novak's overlap test, overlaps counted per fragment.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * policy: Novak's target-based reassembly test
 */

struct novak_frag {
	char letter;
	uint16_t off; /* bytes */
	uint16_t len;
	bool mf;
};

static const struct novak_frag novak[] = {
	{ 'A', 0, 24, true },	{ 'B', 32, 16, true },	 { 'C', 48, 24, true },
	{ 'D', 80, 8, true },	{ 'E', 104, 16, true },	 { 'F', 120, 24, true },
	{ 'G', 144, 16, true }, { 'H', 160, 16, true },	 { 'I', 176, 8, true },
	{ 'J', 8, 32, true },	{ 'K', 48, 24, true },	 { 'L', 72, 24, true },
	{ 'M', 96, 24, true },	{ 'N', 128, 8, true },	 { 'O', 152, 8, true },
	{ 'P', 160, 8, true },	{ 'Q', 176, 16, false },
};
#define NNOVAK (sizeof(novak) / sizeof(novak[0]))

struct novak_case {
	int family;
	enum reasm_policy policy;
	char want[25]; /* one letter per 8-byte block; "" for STRICT */
};

static const struct novak_case novak_base[] = {
	{ 0, REASM_BSD, "AAAJJBCCCLLLMMMFFFGGHHIQ" },
	{ 0, REASM_LINUX, "AAAJJBKKKLLLMMMFFFGGPHQQ" },
	{ 0, REASM_WINDOWS, "AAAJBBCCCLLLMEEFFFGGHHIQ" },
	{ 0, REASM_SOLARIS, "AAAJBBCCCLLLMMMFFFGGHHIQ" },
	{ 0, REASM_FIRST, "AAAJBBCCCLDLMEEFFFGGHHIQ" },
	{ 0, REASM_LAST, "AJJJJBKKKLLLMMMFNFGOPHQQ" },
	{ 0, REASM_BSD_RIGHT, "AJJJBBKKKLLLMMMFFFGGHHQQ" },
	{ 0, REASM_STRICT, "" },
};
PER_FAMILY_PARAMS(policy, novak, struct novak_case, novak_base)

ParameterizedTest(struct novak_case *p, policy, novak)
{
	struct rig g;
	uint8_t bytes[32], want[192];
	struct pb_dgram d;
	const char *name = reasm_policy_name(p->policy);
	uint8_t proto = p->family == 4 ? PB_IPPROTO_ICMP : PB_IPPROTO_ICMPV6;

	rig_open(&g, REASM_LINK_ETHERNET, p->policy);
	if (p->family == 4)
		pb_dgram_v4(&d, PB_DLT_ETHERNET, 0x4e56, proto, NULL, 0);
	else
		pb_dgram_v6(&d, PB_DLT_ETHERNET, 0x4e56, proto, NULL, 0);
	for (size_t i = 0; i < NNOVAK; i++) {
		memset(bytes, novak[i].letter, novak[i].len);
		int rc = feed_bytes(&g, &d, novak[i].off, bytes, novak[i].len,
				    novak[i].mf);
		cr_expect_eq(rc, i + 1 == NNOVAK && p->want[0] ? 1 : 0,
			     "%s: fragment %c", name, novak[i].letter);
	}
	struct reasm_stats st = rig_stats(&g);
	cr_expect_gt(st.ReasmOverlaps, 0u, "%s", name);
	if (p->want[0] == '\0') {
		cr_expect_eq(g.nout, 0u, "strict: discarded for overlap");
		cr_expect_eq(st.ReasmOKs, 0u);
		cr_expect_geq(st.ReasmFails, 1u);
		rig_finish(&g);
		return;
	}
	cr_assert_eq(g.nout, 1u, "%s", name);
	char got[25] = { 0 };
	const struct reasm_out *o = g.out[0];
	size_t l3 = o->len >= 192 ? o->len - 192 : 0;
	for (size_t b = 0; b < 24 && l3 + 8 * b < o->len; b++)
		got[b] = (char)o->data[l3 + 8 * b];
	for (size_t i = 0; i < 24; i++)
		memset(want + 8 * i, p->want[i], 8);
	d.data = want;
	d.len = sizeof(want);
	char why[256];
	bool ok = pb_check(o->data, o->len, &d, why, sizeof(why));
	cr_expect(ok, "%s (IPv%d): got %s, want %s (%s)", name, p->family, got,
		  p->want, why);
	st = rig_finish(&g);
	cr_expect_eq(st.ReasmOKs, 1u, "%s", name);
	cr_expect_eq(st.ReasmFails, 0u, "%s", name);
	cr_expect_eq(st.frags_pending, 0u, "%s", name);
}

/* Under the target-based policies ReasmOverlaps counts fragments: one
 * over two held fragments counts once, one inside held data (a duplicate
 * under some policies) once more. The bytes are the datagram's own, so
 * every policy completes it. */
static const struct script overlap_scripts[] = {
	{ "overlaps counted per fragment", BOTH, EVERY_POLICY & ~STRICT, 48,
	  104, 38,
	  STEPS(FRAG(0, 8, true, 0), FRAG(16, 8, true, 0), FRAG(0, 24, true, 0),
		STATS(W(ReasmOverlaps, 1)), FRAG(8, 16, true, 0),
		STATS(W(ReasmOverlaps, 2)), FRAG(24, 24, false, 1), OUT(1),
		FINISH(W(ReasmOverlaps, 2), W(ReasmOKs, 1), W(ReasmFails, 0),
		       W(ReasmReqds, 5))) },
};

SCRIPT_TEST(policy, scripted, overlap_scripts)
