/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * link.c - the suite link of test_reasm_conformance: Ethernet with 0..7
 * tags (more: passed), SLL, SLL2, raw links.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * link
 */

struct eth_case {
	int family;
	unsigned nvlan;
	uint16_t tpid[PB_VLAN_MAX];
};

#define AD PB_TPID_8021AD
#define Q PB_TPID_8021Q

static const struct eth_case eth_cases[] = {
	{ 4, 0, { 0, 0 } },
	{ 4, 1, { PB_TPID_8021Q, 0 } },
	{ 4, 1, { PB_TPID_8021AD, 0 } },
	{ 4, 2, { PB_TPID_8021AD, PB_TPID_8021Q } },
	{ 4, 2, { PB_TPID_8021Q, PB_TPID_8021Q } },
	{ 6, 0, { 0, 0 } },
	{ 6, 1, { PB_TPID_8021Q, 0 } },
	{ 6, 2, { PB_TPID_8021AD, PB_TPID_8021Q } },
	/* Three tags and more, any mix, up to REASM_MAX_VLAN_TAGS (7). */
	{ 4, 3, { AD, Q, Q } },
	{ 6, 3, { AD, AD, Q } },
	{ 4, 4, { Q, Q, Q, Q } },
	{ 6, 5, { AD, Q, AD, Q, Q } },
	{ 4, 7, { AD, AD, AD, Q, Q, Q, Q } },
	{ 6, 7, { Q, AD, Q, AD, Q, AD, Q } },
};
#undef AD
#undef Q

/* Three fragments, each with its own link header (mark 0xa0 + index):
 * the output carries the offset-0 fragment's, which comes second. */
static void link_run(struct rig *g, struct pb_dgram *d)
{
	struct pb_frame *f[3];
	struct pb_dgram v[3];

	for (int i = 0; i < 3; i++) {
		v[i] = *d;
		v[i].link.mark = (uint8_t)(0xa0 + i);
	}
	f[0] = pb_frag(&v[0], 0, NULL, 16, true);
	f[1] = pb_frag(&v[1], 16, NULL, 24, true);
	f[2] = pb_frag(&v[2], 40, NULL, d->len - 40, false);
	cr_expect_eq(feed(g, f[2]), 0);
	cr_expect_eq(feed(g, f[0]), 0);
	cr_expect_eq(feed(g, f[1]), 1);
	pb_frames_free(f, 3, false);
	cr_assert_eq(g->nout, 1u);
	expect_dgram(g, 0, &v[0]);
}

TABLE_PARAMS(link, ethernet_vlan_tags, eth_cases);

ParameterizedTest(struct eth_case *p, link, ethernet_vlan_tags)
{
	struct rig g;
	uint8_t data[64];
	struct pb_dgram d;

	open_make(&g, &d, p->family, 97, data, sizeof(data), 31);
	d.link.nvlan = p->nvlan;
	for (unsigned i = 0; i < p->nvlan; i++) {
		d.link.tpid[i] = p->tpid[i];
		d.link.tci[i] = (uint16_t)(0x2000 | (300 + i));
	}
	link_run(&g, &d);
	struct reasm_stats st = rig_finish(&g);
	cr_expect_eq(st.ReasmOKs, 1u, "%u tags", p->nvlan);
	cr_expect_eq(st.passed, 0u, "%u tags", p->nvlan);
}

/* Past REASM_MAX_VLAN_TAGS: passed through as it is, and counted. */
Test(link, too_many_vlan_tags_passed_and_counted)
{
	struct rig g;
	uint8_t data[32];
	struct pb_dgram d;

	open_make(&g, &d, 4, 99, data, sizeof(data), 33);
	d.link.nvlan = 8;
	struct pb_frame *f = pb_frag(&d, 0, NULL, 16, true);
	cr_expect_eq(feed(&g, f), 1);
	cr_assert_eq(g.nout, 1u);
	expect_passed(&g, 0, f);
	pb_frame_free(f);
	finish_expect(&g, NULL,
		      COUNTS(W(vlan_too_deep, 1), W(passed, 1),
			     W(ReasmReqds, 0)));
}

/* @f with @extra bytes after the IP packet (Ethernet padding to 60
 * bytes, a frame check sequence): on the wire and in the capture. */
static struct pb_frame *pad_frame(struct pb_frame *f, uint32_t extra)
{
	struct pb_frame *p = malloc(sizeof(*p) + f->caplen + extra);

	cr_assert_not_null(p);
	memcpy(p, f, sizeof(*p) + f->caplen);
	memset(p->data + f->caplen, 0xa5, extra);
	p->caplen += extra;
	p->wirelen += extra;
	pb_frame_free(f);
	return p;
}

FAMILY_PARAMS(link, ethernet_padding_ignored);

ParameterizedTest(int *family, link, ethernet_padding_ignored)
{
	struct rig g;
	uint8_t data[24];
	struct pb_dgram d;
	struct pb_frame *f[3];

	open_make(&g, &d, *family, 101, data, sizeof(data), 36);
	for (uint32_t i = 0; i < 3; i++) {
		f[i] = pb_frag(&d, 8 * i, NULL, 8, i < 2);
		uint32_t extra = f[i]->caplen < 60 ? 60 - f[i]->caplen : 0;
		f[i] = pad_frame(f[i], extra + 4);
	}
	feed(&g, f[1]);
	feed(&g, f[2]);
	cr_expect_eq(feed(&g, f[0]), 1);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &d);
	pb_frames_free(f, 3, false);
	finish_expect(&g, NULL, COUNTS(W(ReasmOKs, 1), W(malformed, 0)));
}

static const struct fam_link other_links[] = {
	{ 4, PB_DLT_SLL },  { 6, PB_DLT_SLL },	{ 4, PB_DLT_SLL2 },
	{ 6, PB_DLT_SLL2 }, { 4, PB_DLT_RAW },	{ 6, PB_DLT_RAW },
	{ 4, PB_DLT_IPV4 }, { 6, PB_DLT_IPV6 },
};

TABLE_PARAMS(link, cooked_and_raw, other_links);

ParameterizedTest(struct fam_link *p, link, cooked_and_raw)
{
	struct rig g;
	uint8_t data[64];
	struct pb_dgram d;

	rig_open(&g, p->dlt, REASM_STRICT);
	make(&d, p->family, p->dlt, 98, data, sizeof(data), 32);
	link_run(&g, &d);
	/* A non-fragment on the same link passes unchanged. */
	struct pb_frame *w = pb_whole(&d);
	cr_expect_eq(feed(&g, w), 1);
	cr_assert_eq(g.nout, 2u);
	expect_passed(&g, 1, w);
	pb_frame_free(w);
	finish_expect(&g, NULL, COUNTS(W(ReasmOKs, 1), W(passed, 1)));
}
