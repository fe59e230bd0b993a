/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * order.c - the suite order of test_reasm_conformance: in order, reversed,
 * every permutation of 3 and 4, three fragments out of order (a tiny IPv4
 * first fragment, IPv6 extension headers before the Fragment header,
 * atomic fragments).
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * order
 */

static const struct fam_link fam_links[] = {
	{ 4, PB_DLT_ETHERNET },
	{ 6, PB_DLT_ETHERNET },
	{ 4, PB_DLT_RAW },
	{ 6, PB_DLT_RAW },
};

TABLE_PARAMS(order, in_order_and_reversed, fam_links);

ParameterizedTest(struct fam_link *p, order, in_order_and_reversed)
{
	struct rig g;
	uint8_t data[1000];
	struct pb_dgram d;
	size_t n;

	rig_open(&g, p->dlt, REASM_STRICT);
	for (int rev = 0; rev < 2; rev++) {
		make(&d, p->family, p->dlt, 100u + (uint32_t)rev, data,
		     sizeof(data), 10u + (uint32_t)rev);
		struct pb_frame **f = pb_split_every(&d, 208, &n);
		cr_assert_eq(n, 5u);
		for (size_t i = 0; i < n; i++) {
			size_t k = rev ? n - 1 - i : i;
			g.now += 1000;
			int rc = feed(&g, f[k]);
			cr_expect_eq(rc, i + 1 == n ? 1 : 0, "fragment %zu", k);
		}
		cr_assert_eq(g.nout, (size_t)rev + 1);
		expect_dgram(&g, (size_t)rev, &d);
		cr_expect_eq(g.out[rev]->ts_ns, g.now,
			     "ts_ns: the completing fragment's time");
		pb_frames_free(f, n, true);
	}
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.bytes_held, 0u, "bytes held with nothing pending");
	uint64_t bytes = (uint64_t)g.out[0]->len + g.out[1]->len;
	finish_expect(&g, NULL,
		      COUNTS(W(packets, 10), W(ReasmReqds, 10), W(ReasmOKs, 2),
			     W(frags_reassembled, 10), W(ReasmFails, 0),
			     W(frags_pending, 0), W(datagrams_pending, 0),
			     W(emitted, 2), W(emitted_bytes, bytes)));
}

/* Next permutation of @a (n elements) in lexicographic order; false after
 * the last. */
static bool next_perm(unsigned *a, size_t n)
{
	size_t i = n - 1;

	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (i == 0)
		return false;
	size_t j = n - 1;
	while (a[j] <= a[i - 1])
		j--;
	unsigned t = a[i - 1];
	a[i - 1] = a[j];
	a[j] = t;
	for (size_t l = i, r = n - 1; l < r; l++, r--) {
		t = a[l];
		a[l] = a[r];
		a[r] = t;
	}
	return true;
}

FAMILY_PARAMS(order, every_permutation);

ParameterizedTest(int *family, order, every_permutation)
{
	static const uint32_t starts3[] = { 0, 24, 48 };
	static const uint32_t starts4[] = { 0, 8, 40, 64 };
	struct rig g;
	uint8_t data[80];
	struct pb_dgram d;
	struct pb_frame *f[4];
	uint32_t id = 1;
	size_t frags = 0, oks = 0;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	for (size_t n = 3; n <= 4; n++) {
		unsigned perm[4] = { 0, 1, 2, 3 };
		do {
			make(&d, *family, PB_DLT_ETHERNET, id, data,
			     n == 3 ? 60 : 80, id);
			pb_split(&d, n == 3 ? starts3 : starts4, n, f);
			for (size_t i = 0; i < n; i++) {
				int rc = feed(&g, f[perm[i]]);
				cr_assert_eq(rc, i + 1 == n ? 1 : 0,
					     "n %zu id %u step %zu", n, id, i);
			}
			cr_assert_eq(g.nout, oks + 1);
			expect_dgram(&g, oks, &d);
			oks++;
			frags += n;
			id++;
			pb_frames_free(f, n, false);
		} while (next_perm(perm, n));
	}
	cr_assert_eq(oks, 6u + 24u);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, oks), W(ReasmReqds, frags),
			     W(frags_reassembled, frags), W(ReasmFails, 0),
			     W(duplicates, 0), W(ReasmOverlaps, 0)));
}

/* 64 datagrams of both families, their fragments dealt round-robin:
 * fragment i of every datagram, then fragment i + 1 ... */
Test(order, interleaved_datagrams)
{
	enum { N = 64, FR = 4, LEN = 4 * 40 };
	static uint8_t data[N][LEN];
	static struct pb_dgram d[N];
	struct pb_frame *f[N][FR];
	static const uint32_t starts[FR] = { 0, 40, 80, 120 };
	struct rig g;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	for (unsigned k = 0; k < N; k++) {
		/* Same id for pairs of datagrams of different families, and
		 * for pairs that differ in their destination only. */
		make(&d[k], k % 2 ? 6 : 4, PB_DLT_ETHERNET, k / 4, data[k], LEN,
		     k + 100);
		if (k % 4 >= 2) {
			d[k].v4.dst ^= 0xff;
			d[k].v6.dst[15] ^= 0xff;
		}
		pb_split(&d[k], starts, FR, f[k]);
	}
	for (unsigned i = 0; i < FR; i++) {
		unsigned fi = (i + 2) % FR; /* offset 0 third */
		for (unsigned k = 0; k < N; k++)
			cr_expect_eq(feed(&g, f[k][fi]), i + 1 == FR ? 1 : 0,
				     "datagram %u, fragment %u", k, fi);
	}
	cr_assert_eq(g.nout, (size_t)N);
	for (unsigned k = 0; k < N; k++)
		expect_dgram(&g, k, &d[k]);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, (uint64_t)N),
			     W(frags_reassembled, (uint64_t)N * FR)));
	for (unsigned k = 0; k < N; k++)
		pb_frames_free(f[k], FR, false);
}

/* A datagram in three fragments fed out of order, or in one atomic
 * fragment (IPv6: offset 0, MF 0): it reassembles whole. */
struct three_case {
	char name[CASE_NAME_MAX];
	int family;
	bool tcp; /* a TCP header, not the UDP datagram of make() */
	size_t len;
	uint32_t id, seed;
	uint16_t hbh, dst; /* IPv6 options headers before the Fragment header */
	uint32_t starts[3];
	unsigned order[3]; /* the fragments in their order of arrival */
	bool atomic;
};

/* clang-format off */
#define V6_SPLIT .family = 6, .len = 72, .id = 70, .seed = 18, \
	.starts = { 0, 24, 48 }, .order = { 2, 0, 1 }
static const struct three_case three_cases[] = {
	/* A TCP header cut after 8 bytes: IPv4 reassembles it (a filter
	 * may not like it; reassembly has no rule against it). */
	{ .name = "IPv4: a tiny first fragment", .family = 4, .tcp = true,
	  .len = 60, .id = 58, .seed = 17, .starts = { 0, 8, 24 },
	  .order = { 1, 0, 2 } },
	/* Extension headers before the Fragment header. */
	{ .name = "IPv6: hop-by-hop 8", V6_SPLIT, .hbh = 8 },
	{ .name = "IPv6: destination 8", V6_SPLIT, .dst = 8 },
	{ .name = "IPv6: hop-by-hop 8, destination 8", V6_SPLIT, .hbh = 8,
	  .dst = 8 },
	{ .name = "IPv6: hop-by-hop 16, destination 24", V6_SPLIT, .hbh = 16,
	  .dst = 24 },
	{ .name = "IPv6 atomic: hop-by-hop 8, destination 16", V6_SPLIT,
	  .hbh = 8, .dst = 16, .atomic = true },
	{ .name = "IPv6 atomic: destination 8", V6_SPLIT, .dst = 8,
	  .atomic = true },
};
#undef V6_SPLIT
/* clang-format on */

TABLE_PARAMS(order, three_fragments, three_cases);

ParameterizedTest(struct three_case *p, order, three_fragments)
{
	struct rig g;
	uint8_t data[72];
	struct pb_dgram d;
	struct pb_frame *f[3];

	cr_assert_leq(p->len, sizeof(data), "%s", p->name);
	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	if (p->tcp) {
		pb_fill(data, p->len, p->seed);
		pb_tcp_hdr(data, 1234, 80, 1);
		pb_dgram_v4(&d, PB_DLT_ETHERNET, (uint16_t)p->id,
			    PB_IPPROTO_TCP, data, p->len);
	} else {
		make(&d, p->family, PB_DLT_ETHERNET, p->id, data, p->len,
		     p->seed);
	}
	d.v6.hbh_len = p->hbh;
	d.v6.dst_len = p->dst;
	if (p->atomic) {
		cr_expect_eq(feed_frag(&g, &d, 0, p->len, false), 1, "%s",
			     p->name);
	} else {
		pb_split(&d, p->starts, 3, f);
		feed(&g, f[p->order[0]]);
		feed(&g, f[p->order[1]]);
		cr_expect_eq(feed(&g, f[p->order[2]]), 1, "%s", p->name);
		pb_frames_free(f, 3, false);
	}
	cr_assert_eq(g.nout, 1u, "%s", p->name);
	expect_dgram(&g, 0, &d);
	finish_expect(&g, p->name,
		      COUNTS(W(ReasmOKs, 1), W(atomic, p->atomic ? 1 : 0)));
}
