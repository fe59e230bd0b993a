/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ipv6.c - the suite ipv6 of test_reasm_conformance: the header chain of
 * first fragments (RFC 7112), nested Fragment headers, atomic fragments
 * (RFC 6946).
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * ipv6
 */

/* The fragmentable part starts with @proto; its first fragment carries
 * @first bytes (MF 1). */
struct chain_case {
	uint8_t proto;	/* the Fragment header's Next Header */
	uint16_t ext;	/* destination options after the Fragment header */
	uint8_t upper;	/* the upper layer after them */
	uint32_t first; /* bytes in the first fragment */
	bool ok;
	bool sub8; /* first < 8 and MF 1: also not a multiple of 8 */
};

/* @p d as one atomic fragment (offset 0, no more fragments) or as two,
 * cut at byte 32 of its @p len. */
static void feed_whole_or_halves(struct rig *g, const struct pb_dgram *d,
				 bool atomic, size_t len)
{
	if (atomic) {
		feed_frag(g, d, 0, len, false);
	} else {
		feed_frag(g, d, 0, 32, true);
		feed_frag(g, d, 32, len - 32, false);
	}
}

static const struct chain_case chain_cases[] = {
	{ PB_IPPROTO_TCP, 0, 0, 16, false, false },
	{ PB_IPPROTO_TCP, 0, 0, 8, false, false },
	{ PB_IPPROTO_TCP, 0, 0, 24, true, false },
	{ PB_IPPROTO_UDP, 0, 0, 8, true, false },
	{ PB_IPPROTO_UDP, 0, 0, 4, false, true },
	{ PB_IPPROTO_ICMPV6, 0, 0, 8, true, false },
	{ PB_IPPROTO_ICMPV6, 0, 0, 4, false, true },
	{ PB_IPPROTO_DSTOPTS, 8, PB_IPPROTO_UDP, 8, false, false },
	{ PB_IPPROTO_DSTOPTS, 8, PB_IPPROTO_UDP, 16, true, false },
	{ PB_IPPROTO_DSTOPTS, 16, PB_IPPROTO_TCP, 24, false, false },
	{ PB_IPPROTO_DSTOPTS, 16, PB_IPPROTO_TCP, 40, true, false },
	{ PB_IPPROTO_ESP, 0, 0, 8, true, false },
};

TABLE_PARAMS(ipv6, first_fragment_header_chain, chain_cases)

ParameterizedTest(struct chain_case *p, ipv6, first_fragment_header_chain)
{
	struct rig g;
	uint8_t data[96];
	struct pb_dgram d;
	uint32_t good = 48; /* a first fragment with the whole chain */

	pb_fill(data, sizeof(data), 19);
	uint8_t upper = p->ext ? p->upper : p->proto;
	if (p->ext) {
		data[0] = p->upper;
		data[1] = (uint8_t)(p->ext / 8 - 1);
		data[2] = 1; /* PadN */
		data[3] = (uint8_t)(p->ext - 4);
		memset(data + 4, 0, p->ext - 4u);
	}
	if (upper == PB_IPPROTO_TCP)
		pb_tcp_hdr(data + p->ext, 1, 2, 3);
	else if (upper == PB_IPPROTO_UDP)
		pb_udp_hdr(data + p->ext, 1, 2, (uint16_t)(96 - p->ext));
	else if (upper == PB_IPPROTO_ICMPV6)
		pb_icmp_echo_hdr(data + p->ext, true, 1, 2);
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 71, p->proto, data, sizeof(data));

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	feed_frag(&g, &d, good, sizeof(data) - good, false);
	feed_frag(&g, &d, 0, p->first, true);
	struct reasm_stats st = rig_stats(&g);
	if (p->ok) {
		cr_expect_eq(st.incomplete_chain, 0u,
			     "proto %u ext %u first %u", p->proto, p->ext,
			     p->first);
		feed_frag(&g, &d, p->first, good - p->first, true);
		cr_assert_eq(g.nout, 1u);
		expect_dgram(&g, 0, &d);
	} else {
		/* A first fragment shorter than 8 with MF set is also not a
		 * multiple of 8; Linux checks the chain first (before the
		 * fragment queue), so either counter may say why. */
		if (p->sub8)
			cr_expect_eq(st.incomplete_chain + st.malformed, 1u,
				     "proto %u first %u", p->proto, p->first);
		else
			cr_expect_eq(st.incomplete_chain, 1u,
				     "proto %u ext %u first %u", p->proto,
				     p->ext, p->first);
		cr_expect_eq(st.ReasmFails, 0u);
		cr_expect_eq(st.datagrams_pending, 1u, "queue kept");
		/* The whole first fragment completes the datagram; had the
		 * short one been held, this would overlap it. */
		cr_expect_eq(feed_frag(&g, &d, 0, good, true), 1,
			     "proto %u ext %u first %u", p->proto, p->ext,
			     p->first);
		cr_assert_eq(g.nout, 1u);
		expect_dgram(&g, 0, &d);
	}
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 1), W(ReasmOverlaps, 0),
			     W(frags_dropped, p->ok ? 0u : 1u)));
}

/* A Fragment header nested in the fragmentable part of another: Linux
 * discards the packet once the outer header is done (IP6SKB_FRAGMENTED,
 * then Parameter Problem); STRICT does the same, the other policies emit
 * the datagram with the inner header in place. Both count nested_frag.
 * Cases: the outer header fragments the datagram in two, or is atomic;
 * the inner one comes first or after a destination options header. */
struct nested_case {
	enum reasm_policy policy;
	bool atomic;
	bool dstopts;
};

ParameterizedTestParameters(ipv6, nested_fragment_header)
{
	static struct nested_case v[NPOLICIES * 4];
	size_t n = 0;

	for (size_t k = 0; k < NPOLICIES; k++)
		for (int a = 0; a < 2; a++)
			for (int o = 0; o < 2; o++)
				v[n++] = (struct nested_case){ all_policies[k],
							       a != 0, o != 0 };
	return cr_make_param_array(struct nested_case, v, n);
}

ParameterizedTest(struct nested_case *p, ipv6, nested_fragment_header)
{
	struct rig g;
	uint8_t data[56];
	struct pb_dgram d;
	size_t h = 0;
	const char *name = reasm_policy_name(p->policy);

	pb_fill(data, sizeof(data), 40);
	if (p->dstopts) { /* 8 bytes: Next Header 44, length 0, padding */
		memset(data, 0, 8);
		data[0] = PB_IPPROTO_FRAGMENT;
		data[2] = 1; /* PadN, 4 bytes */
		data[3] = 4;
		h = 8;
	}
	/* The inner Fragment header: UDP next, offset 0, MF 1, id 7. */
	memset(data + h, 0, 8);
	data[h] = PB_IPPROTO_UDP;
	data[h + 3] = 1;
	data[h + 7] = 7;
	pb_udp_hdr(data + h + 8, 4000, 5000, 16);
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 73,
		    p->dstopts ? PB_IPPROTO_DSTOPTS : PB_IPPROTO_FRAGMENT, data,
		    sizeof(data));
	rig_open(&g, REASM_LINK_ETHERNET, p->policy);
	feed_whole_or_halves(&g, &d, p->atomic, sizeof(data));
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.nested_frag, 1u, "%s", name);
	cr_expect_eq(st.datagrams_pending, 0u, "%s", name);
	if (p->policy == REASM_STRICT) {
		cr_expect_eq(g.nout, 0u, "strict: discarded");
		cr_expect_eq(st.ReasmOKs, 0u);
		cr_expect_eq(st.ReasmFails, 1u);
	} else {
		cr_assert_eq(g.nout, 1u, "%s: emitted", name);
		/* The outer header gone, the inner one kept: the datagram
		 * as pb_whole() builds it, byte for byte. (pb_check()
		 * refuses any Fragment header in an output.) */
		struct pb_frame *w = pb_whole(&d);
		cr_expect_eq(g.out[0]->len, w->caplen, "%s", name);
		cr_expect(g.out[0]->len == w->caplen &&
				  memcmp(g.out[0]->data, w->data, w->caplen) ==
					  0,
			  "%s: bytes differ", name);
		pb_frame_free(w);
		cr_expect_eq(st.ReasmOKs, 1u, "%s", name);
		cr_expect_eq(st.ReasmFails, 0u, "%s", name);
	}
	rig_finish(&g);
}

/* Headers a Linux host refuses in an IPv6 datagram: a Hop-by-Hop header
 * anywhere but right after the IPv6 header (no handler: Parameter
 * Problem), a Segment Routing header (routing type 4, dropped while
 * seg6_enabled is 0, the default), before the Fragment header or in the
 * fragmentable part. STRICT discards the datagram, the other policies
 * emit it; both count bad_ext. A Hop-by-Hop header first and a routing
 * header of type 0 with no segments left are taken. Each case is a
 * datagram in two fragments, or atomic. */
struct ext_case {
	char name[CASE_NAME_MAX];
	uint16_t hbh_len; /* before the Fragment header */
	uint8_t rt_type;  /* a routing header before it (with rt) */
	bool rt;
	uint8_t inner[2][2]; /* the fragmentable part's headers before UDP:
				{ Next Header value, routing type }; 0, 0
				ends the list unless it is the first */
	unsigned ninner;
	bool refused;
};

/* clang-format off */
static const struct ext_case ext_base[] = {
	{ "Hop-by-Hop opens the fragmentable part",
	  .inner = { { PB_IPPROTO_HOPOPTS, 0 } }, .ninner = 1,
	  .refused = true },
	{ "Hop-by-Hop after destination options",
	  .inner = { { PB_IPPROTO_DSTOPTS, 0 }, { PB_IPPROTO_HOPOPTS, 0 } },
	  .ninner = 2, .refused = true },
	{ "Hop-by-Hop before the Fragment header and after",
	  .hbh_len = 8, .inner = { { PB_IPPROTO_HOPOPTS, 0 } }, .ninner = 1,
	  .refused = true },
	{ "Segment Routing before the Fragment header", .rt = true,
	  .rt_type = 4, .refused = true },
	{ "Segment Routing in the fragmentable part",
	  .inner = { { PB_IPPROTO_ROUTING, 4 } }, .ninner = 1,
	  .refused = true },
	{ "Hop-by-Hop first, destination options inside", .hbh_len = 8,
	  .inner = { { PB_IPPROTO_DSTOPTS, 0 } }, .ninner = 1 },
	{ "routing type 0, no segments left", .rt = true, .rt_type = 0,
	  .inner = { { PB_IPPROTO_ROUTING, 0 } }, .ninner = 1 },
};
/* clang-format on */

struct ext_run {
	size_t index;
	enum reasm_policy policy;
	bool atomic;
};

ParameterizedTestParameters(ipv6, refused_extension_headers)
{
	static struct ext_run v[ARRAY_LEN(ext_base) * NPOLICIES * 2];
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_LEN(ext_base); i++)
		for (size_t k = 0; k < NPOLICIES; k++)
			for (int a = 0; a < 2; a++)
				v[n++] = (struct ext_run){ i, all_policies[k],
							   a != 0 };
	return cr_make_param_array(struct ext_run, v, n);
}

ParameterizedTest(struct ext_run *p, ipv6, refused_extension_headers)
{
	const struct ext_case *c = &ext_base[p->index];
	const char *pol = reasm_policy_name(p->policy);
	uint8_t data[56];
	struct pb_dgram d;
	struct rig g;
	size_t h = 0;

	pb_fill(data, sizeof(data), 41);
	/* Each inner header 8 bytes: Next Header, length 0, then a PadN
	 * option (options headers) or the routing type and segments left
	 * 0 (routing). */
	for (unsigned i = 0; i < c->ninner; i++, h += 8) {
		memset(data + h, 0, 8);
		data[h] = i + 1 < c->ninner ? c->inner[i + 1][0]
					    : PB_IPPROTO_UDP;
		if (c->inner[i][0] == PB_IPPROTO_ROUTING) {
			data[h + 2] = c->inner[i][1];
		} else {
			data[h + 2] = 1; /* PadN, 4 bytes */
			data[h + 3] = 4;
		}
	}
	pb_udp_hdr(data + h, 4000, 5000, (uint16_t)(sizeof(data) - h));
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 74,
		    c->ninner > 0 ? c->inner[0][0] : PB_IPPROTO_UDP, data,
		    sizeof(data));
	d.v6.hbh_len = c->hbh_len;
	if (c->rt) {
		d.v6.rt_len = 8;
		d.v6.rt_type = c->rt_type;
	}
	rig_open(&g, REASM_LINK_ETHERNET, p->policy);
	feed_whole_or_halves(&g, &d, p->atomic, sizeof(data));
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.bad_ext, c->refused ? 1u : 0u, "%s (%s)", c->name, pol);
	cr_expect_eq(st.datagrams_pending, 0u, "%s (%s)", c->name, pol);
	if (c->refused && p->policy == REASM_STRICT) {
		cr_expect_eq(g.nout, 0u, "%s: strict discards it", c->name);
		cr_expect_eq(st.ReasmOKs, 0u, "%s", c->name);
		cr_expect_eq(st.ReasmFails, 1u, "%s", c->name);
	} else {
		cr_assert_eq(g.nout, 1u, "%s (%s): emitted", c->name, pol);
		struct pb_frame *w = pb_whole(&d);
		cr_expect(g.out[0]->len == w->caplen &&
				  memcmp(g.out[0]->data, w->data, w->caplen) ==
					  0,
			  "%s (%s): bytes differ", c->name, pol);
		pb_frame_free(w);
		cr_expect_eq(st.ReasmOKs, 1u, "%s (%s)", c->name, pol);
		cr_expect_eq(st.ReasmFails, 0u, "%s (%s)", c->name, pol);
	}
	rig_finish(&g);
}

TABLE_PARAMS(ipv6, atomic_fragment_leaves_queue_alone, orders)

ParameterizedTest(bool *with_hbh, ipv6, atomic_fragment_leaves_queue_alone)
{
	struct rig g;
	uint8_t data[32], other[40];
	struct pb_dgram d, a;

	open_make(&g, &d, 6, 72, data, sizeof(data), 20);
	make(&a, 6, PB_DLT_ETHERNET, 72, other, sizeof(other), 21);
	if (*with_hbh)
		a.v6.hbh_len = 8;
	feed_frag(&g, &d, 0, 16, true);
	cr_expect_eq(feed_frag(&g, &a, 0, sizeof(other), false), 1,
		     "atomic: emitted at once");
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &a);
	struct reasm_stats st =
		stats_expect(&g, NULL, COUNTS(W(atomic, 1), W(ReasmOKs, 1)));
	cr_expect_eq(st.datagrams_pending, 1u, "the queue of id 72 stays");
	cr_expect_eq(feed_frag(&g, &d, 16, 16, false), 1);
	cr_assert_eq(g.nout, 2u);
	expect_dgram(&g, 1, &d);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 2), W(atomic, 1), W(ReasmFails, 0),
			     W(ReasmReqds, 3), W(frags_reassembled, 3)));
}
