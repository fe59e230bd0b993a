/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * keys.c - the suite keys of test_reasm_conformance: id reuse, fields that
 * keep datagrams apart, fields that do not.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * keys
 */

FAMILY_PARAMS(keys, id_reuse_after_completion);

ParameterizedTest(int *family, keys, id_reuse_after_completion)
{
	struct rig g;
	uint8_t a[40], b[56];
	struct pb_dgram da, db;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	make(&da, *family, PB_DLT_ETHERNET, 93, a, sizeof(a), 26);
	make(&db, *family, PB_DLT_ETHERNET, 93, b, sizeof(b), 27);
	feed_frag(&g, &da, 0, 24, true);
	cr_expect_eq(feed_frag(&g, &da, 24, 16, false), 1);
	g.now += NS_PER_S;
	/* Same id, other data, overlapping the first's ranges. */
	feed_frag(&g, &db, 16, 40, false);
	cr_expect_eq(feed_frag(&g, &db, 0, 16, true), 1);
	cr_assert_eq(g.nout, 2u);
	expect_dgram(&g, 0, &da);
	expect_dgram(&g, 1, &db);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 2), W(ReasmOverlaps, 0),
			     W(duplicates, 0)));
}

/* [0, 16) of the 32-byte @p d, then [16, 32) of @p o, which differs in
 * its key: two datagrams, each completed by its own other half. */
static void expect_apart(struct rig *g, const struct pb_dgram *d,
			 const struct pb_dgram *o, const char *what)
{
	feed_frag(g, d, 0, 16, true);
	cr_expect_eq(feed_frag(g, o, 16, 16, false), 0, "%s", what);
	struct reasm_stats st = rig_stats(g);
	cr_expect_eq(st.datagrams_pending, 2u, "%s", what);
	cr_expect_eq(g->nout, 0u, "%s", what);
	cr_expect_eq(feed_frag(g, o, 0, 16, true), 1, "%s", what);
	cr_expect_eq(feed_frag(g, d, 16, 16, false), 1, "%s", what);
	cr_assert_eq(g->nout, 2u, "%s", what);
	expect_dgram(g, 0, o);
	expect_dgram(g, 1, d);
}

/* Ways a second fragment differs from the first one's datagram. */
enum key_kind {
	KEY_SRC,
	KEY_DST,
	KEY_ID,
	KEY_PROTO, /* IPv4 only: not part of the IPv6 key */
	KEY_VID,   /* the TCI of tag @at, bits @flip flipped */
	KEY_DEPTH, /* @at tags instead of @nvlan */
};

/* The first datagram carries @nvlan tags of TCI @tci (the first of TPID
 * @tpid0, when not 0). */
struct key_case {
	char name[CASE_NAME_MAX];
	int family;
	enum key_kind kind;
	unsigned at;
	uint16_t flip;
	unsigned nvlan;
	uint16_t tpid0;
	uint16_t tci[PB_VLAN_MAX];
	uint32_t id, seed;
};

/* clang-format off */
/* An 802.1ad tag and an 802.1Q one; the VLAN cases flip bit 0 of a VID. */
#define QINQ .nvlan = 2, .tpid0 = PB_TPID_8021AD, .tci = { 100, 200 }, \
	.flip = 1, .id = 94, .seed = 28
#define QINQ4 .family = 4, QINQ
#define QINQ6 .family = 6, QINQ
/* Every tag of a deep stack is part of the key: bit 11 of the VID of any
 * tag, or the depth. */
#define DEEP .family = 4, .nvlan = 7, \
	.tci = { 400, 401, 402, 403, 404, 405, 406 }, .flip = 0x800, \
	.id = 98, .seed = 32
static const struct key_case key_cases[] = {
	{ .name = "IPv4: source", .kind = KEY_SRC, QINQ4 },
	{ .name = "IPv4: destination", .kind = KEY_DST, QINQ4 },
	{ .name = "IPv4: id", .kind = KEY_ID, QINQ4 },
	{ .name = "IPv4: protocol", .kind = KEY_PROTO, QINQ4 },
	{ .name = "IPv4: VLAN", .kind = KEY_VID, .at = 0, QINQ4 },
	{ .name = "IPv4: inner VLAN", .kind = KEY_VID, .at = 1, QINQ4 },
	{ .name = "IPv4: tagged vs untagged", .kind = KEY_DEPTH, QINQ4 },
	{ .name = "IPv6: source", .kind = KEY_SRC, QINQ6 },
	{ .name = "IPv6: VLAN", .kind = KEY_VID, .at = 0, QINQ6 },
	{ .name = "IPv6: destination", .kind = KEY_DST, QINQ6 },
	{ .name = "IPv6: id", .kind = KEY_ID, QINQ6 },
	{ .name = "IPv6: inner VLAN", .kind = KEY_VID, .at = 1, QINQ6 },
	{ .name = "IPv6: tagged vs untagged", .kind = KEY_DEPTH, QINQ6 },
	{ .name = "7 tags: VID of tag 0", .kind = KEY_VID, .at = 0, DEEP },
	{ .name = "7 tags: VID of tag 1", .kind = KEY_VID, .at = 1, DEEP },
	{ .name = "7 tags: VID of tag 2", .kind = KEY_VID, .at = 2, DEEP },
	{ .name = "7 tags: VID of tag 3", .kind = KEY_VID, .at = 3, DEEP },
	{ .name = "7 tags: VID of tag 4", .kind = KEY_VID, .at = 4, DEEP },
	{ .name = "7 tags: VID of tag 5", .kind = KEY_VID, .at = 5, DEEP },
	{ .name = "7 tags: VID of tag 6", .kind = KEY_VID, .at = 6, DEEP },
	{ .name = "7 tags: one tag fewer", .kind = KEY_DEPTH, .at = 6, DEEP },
};
#undef QINQ
#undef QINQ4
#undef QINQ6
#undef DEEP
/* clang-format on */

TABLE_PARAMS(keys, separate_datagrams_never_merge, key_cases);

ParameterizedTest(struct key_case *p, keys, separate_datagrams_never_merge)
{
	struct rig g;
	uint8_t data[32];
	struct pb_dgram d, o;

	open_make(&g, &d, p->family, p->id, data, sizeof(data), p->seed);
	d.link.nvlan = p->nvlan;
	if (p->tpid0 != 0)
		d.link.tpid[0] = p->tpid0;
	for (unsigned i = 0; i < p->nvlan; i++)
		d.link.tci[i] = p->tci[i];
	o = d;
	switch (p->kind) {
	case KEY_SRC:
		o.v4.src ^= 1;
		o.v6.src[15] ^= 0x10;
		break;
	case KEY_DST:
		o.v4.dst ^= 0x100;
		o.v6.dst[0] ^= 0x01;
		break;
	case KEY_ID:
		o.v4.id ^= 0x8000;
		o.v6.id ^= 0x80000000u;
		break;
	case KEY_PROTO:
		o.v4.proto = PB_IPPROTO_TCP;
		break;
	case KEY_VID:
		o.link.tci[p->at] ^= p->flip;
		break;
	case KEY_DEPTH:
		o.link.nvlan = p->at;
		break;
	}
	expect_apart(&g, &d, &o, p->name);
	finish_expect(&g, p->name,
		      COUNTS(W(ReasmOKs, 2), W(ReasmOverlaps, 0),
			     W(duplicates, 0)));
}

/* What is not part of a datagram's key: a fragment that differs from the
 * others only there belongs to the same datagram, which carries the
 * offset-0 fragment's headers. */
enum same_kind {
	SAME_PCP,  /* the VLAN tag's priority and DEI bits */
	SAME_TPID, /* 802.1ad instead of 802.1Q */
	SAME_TTL,  /* IPv4 TTL, IPv6 hop limit */
	SAME_NEXT, /* IPv6: the Fragment header's Next Header */
	SAME_FLOW, /* IPv6: the flow label */
};

struct same_case {
	char name[CASE_NAME_MAX];
	int family;
	enum same_kind kind;
};

static const struct same_case same_cases[] = {
	{ "IPv4: VLAN priority and DEI", 4, SAME_PCP },
	{ "IPv6: VLAN priority and DEI", 6, SAME_PCP },
	{ "IPv4: 802.1ad and 802.1Q", 4, SAME_TPID },
	{ "IPv6: 802.1ad and 802.1Q", 6, SAME_TPID },
	{ "IPv4: TTL", 4, SAME_TTL },
	{ "IPv6: hop limit", 6, SAME_TTL },
	{ "IPv6: Fragment header Next Header", 6, SAME_NEXT },
	{ "IPv6: flow label", 6, SAME_FLOW },
};

TABLE_PARAMS(keys, other_fields_same_datagram, same_cases);

ParameterizedTest(struct same_case *p, keys, other_fields_same_datagram)
{
	struct rig g;
	uint8_t data[32];
	struct pb_dgram d, o;

	open_make(&g, &d, p->family, 102, data, sizeof(data), 37);
	d.link.nvlan = 1;
	d.link.tci[0] = 0x2000 | 100; /* priority 1, VID 100 */
	o = d;
	switch (p->kind) {
	case SAME_PCP:
		o.link.tci[0] ^= 0xf000;
		break;
	case SAME_TPID:
		o.link.tpid[0] = PB_TPID_8021AD;
		break;
	case SAME_TTL:
		o.v4.ttl = 3;
		o.v6.hlim = 3;
		break;
	case SAME_NEXT:
		o.v6.proto = PB_IPPROTO_TCP;
		break;
	case SAME_FLOW:
		o.v6.flow = 0x54321;
		break;
	}
	cr_expect_eq(feed_frag(&g, &o, 16, 16, false), 0, "%s", p->name);
	cr_expect_eq(feed_frag(&g, &d, 0, 16, true), 1, "%s", p->name);
	cr_assert_eq(g.nout, 1u, "%s", p->name);
	expect_dgram(&g, 0, &d);
	finish_expect(&g, p->name,
		      COUNTS(W(ReasmOKs, 1), W(datagrams_pending, 0),
			     W(frags_reassembled, 2)));
}
