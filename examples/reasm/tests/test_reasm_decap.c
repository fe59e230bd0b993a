/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_reasm_decap.c - fragments inside PPP (DLT_PPP, DLT_PPP_SERIAL,
 * PPPoE sessions on Ethernet) and, with reasm_config.decap, inside GRE
 * (version 0 with its optional fields, PPP over GRE, PPTP's version 1)
 * and IP-in-IP tunnels of either family.
 *
 * The frames are built here around the IP fragments that pktbuild makes
 * on raw IP, by one function that also sets every length and checksum
 * field of the headers around them; what a reassembled datagram must be
 * is that same function applied to pktbuild's whole datagram (outer
 * headers kept) or to the whole datagram without the tunnel (stripped),
 * compared byte by byte.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include <criterion/criterion.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "reasm_test.h"

enum lk {
	L_ETH,	 /* Ethernet */
	L_PPPOE, /* Ethernet, PPPoE session, PPP */
	L_PPP,	 /* 0xff 0x03, 2-byte protocol */
	L_PPP1,	 /* a compressed 1-byte protocol, no 0xff 0x03 */
	L_RAW,	 /* DLT_RAW */
	L_IPV4,	 /* DLT_IPV4: no link header, the link type names IPv4 */
	L_IPV6,	 /* DLT_IPV6 */
	L_COUNT
};

enum tn {
	T_NONE,
	T_IPIP,	   /* 4in4, 6in4, 4in6, 6in6 */
	T_GRE,	   /* version 0, IPv4 or IPv6 inside */
	T_GRE_PPP, /* version 0, protocol 0x880b, PPP inside */
	T_PPTP,	   /* version 1, PPP inside */
	T_COUNT
};

struct tun {
	enum lk link;
	int outer; /* 0, 4 or 6 */
	enum tn tunnel;
	uint16_t gre_flags; /* v0: C 0x8000, K 0x2000, S 0x1000; v1: S, A */
	bool ppp1; /* PPP in GRE: a 1-byte protocol, no address/control */
};

static int dlt_of(enum lk l)
{
	switch (l) {
	case L_PPP:
		return PB_DLT_PPP_SERIAL;
	case L_PPP1:
		return PB_DLT_PPP;
	case L_RAW:
		return PB_DLT_RAW;
	case L_IPV4:
		return PB_DLT_IPV4;
	case L_IPV6:
		return PB_DLT_IPV6;
	default:
		return PB_DLT_ETHERNET;
	}
}

static const enum pb_tunnel_kind tun_kinds[T_COUNT] = {
	[T_IPIP] = PB_TUN_IPIP,
	[T_GRE] = PB_TUN_GRE,
	[T_GRE_PPP] = PB_TUN_GRE_PPP,
	[T_PPTP] = PB_TUN_PPTP,
};

/* The outer headers of @p t: 10.0.0.1 -> 10.0.0.2 (IPv4 id 0x0777), or
 * fd00::1 -> fd00::2; GRE key 0xdeadbeef, sequence number 9; PPTP call
 * 0x4242, sequence number 7, acknowledgment 6. */
static void tunnel_of(const struct tun *t, struct pb_tunnel *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->outer = t->outer;
	pt->kind = tun_kinds[t->tunnel];
	pt->gre_flags = t->gre_flags;
	pt->ppp1 = t->ppp1;
	pt->ip_id = 0x0777;
	if (t->outer == 4) {
		inet_wr32(pt->src, 0x0a000001);
		inet_wr32(pt->dst, 0x0a000002);
	} else {
		pt->src[0] = pt->dst[0] = 0xfd;
		pt->src[15] = 1;
		pt->dst[15] = 2;
	}
	pt->key = 0xdeadbeef;
	pt->seq = t->tunnel == T_PPTP ? 7 : 9;
	pt->ack = 6;
	pt->call_id = 0x4242;
}

/*
 * The frame of @p t around the @p iplen bytes of the IP packet @p ip of
 * family @p fam, written to @p f; every length and checksum set.
 * @return its length.
 */
static size_t build(const struct tun *t, int fam, const uint8_t *ip,
		    size_t iplen, uint8_t *f)
{
	static const uint8_t macs[12] = { 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2 };
	int lfam = t->outer ? t->outer : fam; /* after the link header */
	struct pb_link l = { .dlt = dlt_of(t->link),
			     .macs = macs,
			     .pppoe = t->link == L_PPPOE,
			     .pppoe_session = 0x1234 };
	struct pb_tunnel pt;
	size_t tl = 0;

	if (t->outer != 0) {
		tunnel_of(t, &pt);
		tl = pb_tunnel_len(&pt, fam);
	}
	size_t n = pb_link_put(&l, lfam == 4 ? PB_ETH_IPV4 : PB_ETH_IPV6,
			       tl + iplen, f);
	memcpy(f + n + tl, ip, iplen);
	if (t->outer != 0)
		(void)pb_tunnel_put(&pt, fam, f + n, iplen);
	return n + tl + iplen;
}

static struct pb_frame *frame_of(const struct tun *t, int fam,
				 const uint8_t *ip, size_t iplen)
{
	struct pb_frame *f = malloc(sizeof(*f) + iplen + 128);

	cr_assert_not_null(f);
	f->caplen = (uint32_t)build(t, fam, ip, iplen, f->data);
	f->wirelen = f->caplen;
	f->l3off = 0;
	return f;
}

struct case_out {
	struct reasm_stats st;
	uint8_t *data; /* the one output frame, or NULL */
	size_t len, nout;
	size_t commits, lapses; /* rig_zc: the sink's */
};

/* Fragments of a @p fam datagram of @p len bytes (UDP) in @p chunk-byte
 * pieces, each inside @p t, fed last first to an engine with @p decap
 * and @p strip; the first output kept. */
static struct case_out run_case(const struct tun *t, int fam, size_t len,
				size_t chunk, unsigned decap, bool strip,
				uint8_t **whole, size_t *whole_len)
{
	struct reasm_config c = rig_config(dlt_of(t->link), REASM_STRICT);
	struct case_out r = { 0 };
	uint8_t *data = malloc(len);
	struct pb_dgram d;
	struct rig g;
	size_t n;

	cr_assert_not_null(data);
	pb_fill(data, len, 77);
	pb_udp_hdr(data, 1000, 2000, (uint16_t)len);
	if (fam == 4)
		pb_dgram_v4(&d, PB_DLT_RAW, 0x4321, PB_IPPROTO_UDP, data, len);
	else
		pb_dgram_v6(&d, PB_DLT_RAW, 0x87654321u, PB_IPPROTO_UDP, data,
			    len);
	c.decap = decap;
	c.decap_strip = strip;
	c.mem_high = 64u << 20;
	if (c.max_frags < len / chunk + 1)
		c.max_frags = (unsigned)(len / chunk + 1);
	rig_init(&g, &c);
	struct pb_frame **fr = pb_split_every(&d, chunk, &n);
	for (size_t i = n; i-- > 0;) {
		struct pb_frame *f =
			frame_of(t, fam, fr[i]->data, fr[i]->caplen);
		feed_free(&g, f);
	}
	pb_frames_free(fr, n, true);
	struct pb_frame *w = pb_whole(&d);
	*whole_len = w->caplen;
	*whole = malloc(w->caplen);
	cr_assert_not_null(*whole);
	memcpy(*whole, w->data, w->caplen);
	pb_frame_free(w);
	r.nout = g.nout;
	if (g.nout > 0) {
		r.len = g.out[0]->len;
		r.data = malloc(r.len);
		cr_assert_not_null(r.data);
		memcpy(r.data, g.out[0]->data, r.len);
	}
	r.st = rig_finish(&g);
	r.commits = g.zc_commits;
	r.lapses = g.zc_lapses;
	free(data);
	return r;
}

static void expect_bytes(const uint8_t *got, size_t glen, const uint8_t *want,
			 size_t wlen, const char *what)
{
	cr_assert_eq(glen, wlen, "%s: %zu bytes, want %zu", what, glen, wlen);
	for (size_t i = 0; i < wlen; i++)
		cr_assert_eq(got[i], want[i], "%s: byte %zu is %#x, want %#x",
			     what, i, got[i], want[i]);
}

static const char *const link_names[] = { "eth", "pppoe", "ppp", "ppp1",
					  "raw", "ipv4",  "ipv6" };
static const char *const tun_names[] = { "none", "ipip", "gre", "gre-ppp",
					 "pptp" };

/* PPP links: the datagram reassembled inside PPP is the one reassembled
 * on plain Ethernet, behind the PPP headers (lengths set). */
Test(ppp, reassembled_like_ethernet)
{
	static const enum lk links[] = { L_PPPOE, L_PPP, L_PPP1 };

	for (int fam = 4; fam <= 6; fam += 2) {
		struct tun eth = { L_ETH, 0, T_NONE, 0, false };
		uint8_t *w, *w2, want[4096];
		size_t wl, wl2;
		struct case_out e =
			run_case(&eth, fam, 3000, 1000, 0, false, &w, &wl);
		cr_assert_eq(e.nout, 1);
		cr_assert_eq(e.st.ReasmOKs, 1);
		for (size_t k = 0; k < sizeof(links) / sizeof(links[0]); k++) {
			struct tun t = { links[k], 0, T_NONE, 0, false };
			char what[64];
			struct case_out p = run_case(&t, fam, 3000, 1000, 0,
						     false, &w2, &wl2);
			snprintf(what, sizeof(what), "%s v%d",
				 link_names[k + 1], fam);
			cr_assert_eq(p.nout, 1, "%s: %zu outputs", what,
				     p.nout);
			cr_expect_eq(p.st.ReasmOKs, 1, "%s", what);
			cr_expect_eq(p.st.ReasmReqds, 3, "%s", what);
			size_t hl = build(&t, fam, w, 0, want);
			/* The IP datagram: that of the Ethernet case. */
			cr_assert_geq(p.len, hl);
			expect_bytes(p.data + hl, p.len - hl, e.data + 14,
				     e.len - 14, what);
			/* And the whole frame: PPP headers, length set. */
			size_t n = build(&t, fam, w, wl, want);
			expect_bytes(p.data, p.len, want, n, what);
			free(p.data);
			free(w2);
		}
		free(e.data);
		free(w);
	}
}

/* Frames for the malformed cases, fed to one engine of @p dlt; each must
 * pass through unchanged with @p counter (a field of the stats) raised
 * once per frame. */
static void expect_passed(int dlt, unsigned decap, const uint8_t *const *f,
			  const size_t *len, size_t n, size_t counter_off,
			  const char *what)
{
	struct reasm_config c = rig_config(dlt, REASM_STRICT);
	struct rig g;

	c.decap = decap;
	rig_init(&g, &c);
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(reasm_input(&g.w, f[i], (uint32_t)len[i],
					 (uint32_t)len[i], g.now),
			     1, "%s: frame %zu not passed", what, i);
		cr_assert_eq(g.nout, i + 1);
		expect_bytes(g.out[i]->data, g.out[i]->len, f[i], len[i], what);
		cr_expect(!g.out[i]->reassembled);
	}
	struct reasm_stats st = rig_finish(&g);
	uint64_t v;
	memcpy(&v, (const uint8_t *)&st + counter_off, sizeof(v));
	cr_expect_eq(v, n, "%s: counted %llu of %zu", what,
		     (unsigned long long)v, n);
	cr_expect_eq(st.passed, n, "%s", what);
	cr_expect_eq(st.ReasmReqds, 0, "%s", what);
}

/* Other PPP protocols pass through under ppp_other; broken or cut short
 * PPP and PPPoE headers under bad_link. */
Test(ppp, other_and_broken_headers)
{
	static const uint8_t lcp[] = { 0xff, 0x03, 0xc0, 0x21, 1, 1, 0, 4 };
	static const uint8_t ipcp1[] = { 0x80, 0x21, 1, 1, 0, 4 };
	static const uint8_t short1[] = { 0xff, 0x03 };
	static const uint8_t even[] = { 0x00, 0x20, 0x45 }; /* low byte even */
	static const uint8_t empty[] = { 0x00 };
	const uint8_t *other[] = { lcp, ipcp1 };
	size_t olen[] = { sizeof(lcp), sizeof(ipcp1) };
	const uint8_t *bad[] = { short1, even, empty };
	size_t blen[] = { sizeof(short1), sizeof(even), sizeof(empty) };

	expect_passed(PB_DLT_PPP, 0, other, olen, 2,
		      offsetof(struct reasm_stats, ppp_other), "ppp other");
	expect_passed(PB_DLT_PPP_SERIAL, 0, bad, blen, 3,
		      offsetof(struct reasm_stats, bad_link), "ppp bad");

	uint8_t e[5][40];
	size_t el[5];
	for (int i = 0; i < 5; i++) {
		memset(e[i], 0x02, 12);
		inet_wr16(e[i] + 12, 0x8864);
		e[i][14] = 0x11;
		e[i][15] = 0;
		inet_wr16(e[i] + 16, 1);
		inet_wr16(e[i] + 18, 22);
		inet_wr16(e[i] + 20, 0x0021);
		memset(e[i] + 22, 0x45, 18);
		el[i] = 40;
	}
	el[0] = 17;		 /* PPPoE header cut short */
	e[1][14] = 0x12;	 /* version 1, type 2 */
	e[2][15] = 0x09;	 /* a discovery code in a session frame */
	inet_wr16(e[3] + 18, 1); /* length too small for a protocol */
	el[4] = 20;		 /* no PPP protocol */
	const uint8_t *pe[5] = { e[0], e[1], e[2], e[3], e[4] };
	expect_passed(PB_DLT_ETHERNET, 0, pe, el, 5,
		      offsetof(struct reasm_stats, bad_link), "pppoe bad");
	inet_wr16(e[0] + 20, 0xc021);
	el[0] = 40;
	expect_passed(PB_DLT_ETHERNET, 0, pe, el, 1,
		      offsetof(struct reasm_stats, ppp_other), "pppoe lcp");
}

/* One tunnel case: @p mode 0 without decap (every fragment passes
 * through untouched), 1 outer headers kept (lengths and checksums set),
 * 2 stripped; checked byte by byte. */
static void tunnel_case(const struct tun *t, int fam, int mode)
{
	static uint8_t want[8192];
	unsigned decap = t->tunnel == T_IPIP ? REASM_DECAP_IPIP
					     : REASM_DECAP_GRE;
	char what[96];
	uint8_t *w;
	size_t wl;

	snprintf(what, sizeof(what), "%s %#x %s v%d in v%d mode %d",
		 tun_names[t->tunnel], t->gre_flags, link_names[t->link], fam,
		 t->outer, mode);
	struct case_out o = run_case(t, fam, 2400, 800, mode ? decap : 0,
				     mode == 2, &w, &wl);
	if (mode == 0) {
		cr_expect_eq(o.nout, 3, "%s", what);
		cr_expect_eq(o.st.ReasmReqds, 0, "%s", what);
		cr_expect_eq(o.st.passed, 3, "%s", what);
	} else {
		cr_assert_eq(o.nout, 1, "%s: %zu outputs", what, o.nout);
		cr_expect_eq(o.st.ReasmOKs, 1, "%s", what);
		cr_expect_eq(o.st.tunneled, 3, "%s", what);
		struct tun s = { t->link, 0, T_NONE, 0, false };
		size_t n = build(mode == 2 ? &s : t, fam, w, wl, want);
		expect_bytes(o.data, o.len, want, n, what);
	}
	free(o.data);
	free(w);
}

/* Every tunnel, outer and inner family and link, in every mode. */
static void every_tunnel(void)
{
	static const struct {
		enum tn t;
		uint16_t flags;
	} tuns[] = {
		{ T_IPIP, 0 },	   { T_GRE, 0 },       { T_GRE, 0x8000 },
		{ T_GRE, 0x2000 }, { T_GRE, 0xb000 },  { T_GRE_PPP, 0x2000 },
		{ T_PPTP, 0 },	   { T_PPTP, 0x1080 },
	};
	static const enum lk links[] = { L_ETH, L_PPPOE, L_PPP, L_RAW };
	unsigned cases = 0;

	for (size_t i = 0; i < 8 * 4 * 2 * 2 * 3; i++) {
		size_t k = i / 48, l = i / 12 % 4;
		struct tun t = { links[l], i / 6 % 2 ? 6 : 4, tuns[k].t,
				 tuns[k].flags, false };
		tunnel_case(&t, i / 3 % 2 ? 6 : 4, (int)(i % 3));
		cases++;
	}
	cr_expect_eq(cases, sizeof(tuns) / sizeof(tuns[0]) *
				    (sizeof(links) / sizeof(links[0])) * 12);
}

Test(decap, every_tunnel_kept_and_stripped)
{
	every_tunnel();
}

/* The same, each frame written straight into a sink's buffer
 * (reasm_test.h, rig_zc): the same bytes, and each frame begins with the
 * lead its reservation was given (the PPPoE length, the outer IP
 * header's fields and GRE's come after it). */
Test(decap, every_tunnel_zero_copy)
{
	rig_zc.on = true;
	every_tunnel();
}

/* decap_strip on DLT_IPV4 and DLT_IPV6, whose link type names the
 * family: an inner datagram of the outer family is stripped of the outer
 * headers; one of the other family keeps them. Every IP-in-IP and GRE
 * case, checked byte by byte. */
Test(decap, strip_on_fixed_family_links)
{
	static uint8_t want[8192];
	static const enum tn tuns[] = { T_IPIP, T_GRE };

	for (int i = 0; i < 8; i++) {
		int outer = i & 1 ? 6 : 4, fam = i & 2 ? 6 : 4;
		enum tn tn = tuns[i >> 2];
		struct tun t = { outer == 4 ? L_IPV4 : L_IPV6, outer, tn, 0,
				 false };
		struct tun s = { t.link, 0, T_NONE, 0, false };
		unsigned decap = tn == T_IPIP ? REASM_DECAP_IPIP
					      : REASM_DECAP_GRE;
		char what[64];
		uint8_t *w;
		size_t wl;

		snprintf(what, sizeof(what), "%s v%d in v%d on %s",
			 tun_names[tn], fam, outer, link_names[t.link]);
		struct case_out o =
			run_case(&t, fam, 2400, 800, decap, true, &w, &wl);
		cr_assert_eq(o.nout, 1, "%s: %zu outputs", what, o.nout);
		cr_expect_eq(o.st.ReasmOKs, 1, "%s", what);
		size_t n = build(fam == outer ? &s : &t, fam, w, wl, want);
		expect_bytes(o.data, o.len, want, n, what);
		free(o.data);
		free(w);
	}
}

/* A datagram whose outer headers cannot describe it fails once it has
 * been written: its reservation lapses, and it is counted too_big as on
 * the emit path. Stripped, the same datagram is committed. */
Test(decap, too_big_after_writing_lapses)
{
	struct tun t = { L_ETH, 4, T_PPTP, 0x1000, false };
	uint8_t *w;
	size_t wl;

	rig_zc.on = true;
	struct case_out o =
		run_case(&t, 4, 65515, 1400, REASM_DECAP_ALL, false, &w, &wl);
	cr_expect_eq(o.nout, 0);
	cr_expect_eq(o.st.too_big, 1);
	cr_expect_eq(o.st.ReasmFails, 1);
	cr_expect_eq(o.st.emitted, 0);
	cr_expect_eq(o.commits, 0);
	cr_expect_eq(o.lapses, 1);
	free(o.data);
	free(w);
	o = run_case(&t, 4, 65515, 1400, REASM_DECAP_ALL, true, &w, &wl);
	cr_expect_eq(o.nout, 1);
	cr_expect_eq(o.commits, 1);
	cr_expect_eq(o.lapses, 0);
	free(o.data);
	free(w);
}

/* A 65535-byte inner IPv4 datagram (a UDP datagram of 65507 bytes of
 * data) fragmented inside PPTP's GRE and PPP: whole when stripped; kept,
 * its outer headers cannot describe it, so it is discarded as too_big. */
Test(decap, big_udp_in_gre_ppp)
{
	static uint8_t want[70000];

	for (int outer = 4; outer <= 6; outer += 2) {
		struct tun t = { L_ETH, outer, T_PPTP, 0x1000, false };
		struct tun s = { L_ETH, 0, T_NONE, 0, false };
		uint8_t *w;
		size_t wl;
		struct case_out o = run_case(&t, 4, 65515, 1400,
					     REASM_DECAP_ALL, true, &w, &wl);
		cr_assert_eq(wl, 65535);
		cr_assert_eq(o.nout, 1);
		cr_expect_eq(o.st.ReasmOKs, 1);
		size_t n = build(&s, 4, w, wl, want);
		expect_bytes(o.data, o.len, want, n, "big stripped");
		free(o.data);
		free(w);

		o = run_case(&t, 4, 65515, 1400, REASM_DECAP_ALL, false, &w,
			     &wl);
		cr_expect_eq(o.nout, 0);
		cr_expect_eq(o.st.ReasmFails, 1);
		cr_expect_eq(o.st.too_big, 1);
		cr_expect_eq(o.st.frags_discarded, o.st.ReasmReqds);
		free(o.data);
		free(w);

		/* An IPv6 datagram of 65040 bytes, stripped: whole too. */
		o = run_case(&t, 6, 65000, 1400, REASM_DECAP_ALL, true, &w,
			     &wl);
		cr_assert_eq(o.nout, 1);
		n = build(&s, 6, w, wl, want);
		expect_bytes(o.data, o.len, want, n, "big v6 stripped");
		free(o.data);
		free(w);
	}
}

/* The shape of suricata-verify's defrag case for bugs 6942 and 6887: a
 * 65535-byte IPv4 datagram (65507 bytes of UDP data) cut into 1024
 * fragments of 64 bytes, each in IPv4 / GRE version 0 / PPP (protocol
 * 0x880b, with a 1-byte PPP protocol as that capture has) over Ethernet.
 * Stripped, it is whole; kept, too_big. */
Test(decap, max_ip_packet_in_gre_v0_ppp)
{
	static uint8_t want[70000];
	struct tun t = { L_ETH, 4, T_GRE_PPP, 0, true };
	struct tun s = { L_ETH, 0, T_NONE, 0, false };
	uint8_t *w;
	size_t wl;
	struct case_out o =
		run_case(&t, 4, 65515, 64, REASM_DECAP_GRE, true, &w, &wl);

	cr_assert_eq(wl, 65535);
	cr_assert_eq(o.nout, 1);
	cr_expect_eq(o.st.ReasmOKs, 1);
	cr_expect_eq(o.st.ReasmReqds, 1024);
	cr_expect_eq(o.st.tunneled, 1024);
	size_t n = build(&s, 4, w, wl, want);
	expect_bytes(o.data, o.len, want, n, "max packet stripped");
	free(o.data);
	free(w);

	o = run_case(&t, 4, 65515, 64, REASM_DECAP_GRE, false, &w, &wl);
	cr_expect_eq(o.nout, 0);
	cr_expect_eq(o.st.too_big, 1);
	cr_expect_eq(o.st.frags_discarded, 1024);
	free(o.data);
	free(w);
}

/* One level of tunnel only: fragments of IPv4 in GRE in IPv4, inside GRE
 * in IPv4 again, are not opened: each frame passes through unchanged and
 * counts no fragment. The same fragments in the outer tunnel alone are
 * reassembled. */
Test(decap, one_level_only)
{
	static const struct tun in = { L_RAW, 4, T_GRE, 0, false };
	static const struct tun out = { L_ETH, 4, T_GRE, 0, false };
	struct reasm_config c = rig_config(PB_DLT_ETHERNET, REASM_STRICT);
	uint8_t data[2400], mid[1024], f[1200];
	struct pb_dgram d;
	struct rig g;
	size_t n;

	c.decap = REASM_DECAP_ALL;
	rig_init(&g, &c);
	pb_fill(data, sizeof(data), 78);
	pb_udp_hdr(data, 1000, 2000, sizeof(data));
	pb_dgram_v4(&d, PB_DLT_RAW, 0x4321, PB_IPPROTO_UDP, data, sizeof(data));
	struct pb_frame **fr = pb_split_every(&d, 800, &n);
	for (size_t i = 0; i < n; i++) {
		size_t ml = build(&in, 4, fr[i]->data, fr[i]->caplen, mid);
		size_t fl = build(&out, 4, mid, ml, f);
		cr_expect_eq(reasm_input(&g.w, f, (uint32_t)fl, (uint32_t)fl,
					 g.now),
			     1, "frame %zu", i);
		cr_assert_eq(g.nout, i + 1);
		cr_expect_not(g.out[i]->reassembled);
		expect_bytes(g.out[i]->data, g.out[i]->len, f, fl,
			     "two levels");
	}
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.passed, n);
	cr_expect_eq(st.ReasmReqds, 0);
	cr_expect_eq(st.tunneled, 0);
	for (size_t i = 0; i < n; i++) {
		size_t fl = build(&out, 4, fr[i]->data, fr[i]->caplen, f);
		cr_expect_eq(reasm_input(&g.w, f, (uint32_t)fl, (uint32_t)fl,
					 g.now),
			     i + 1 == n, "one level, frame %zu", i);
	}
	pb_frames_free(fr, n, true);
	st = rig_finish(&g);
	cr_expect_eq(st.ReasmOKs, 1);
	cr_expect_eq(st.tunneled, n);
}

/* Broken tunnel headers pass through under bad_tunnel; every prefix of a
 * tunnelled fragment, as a truncated capture, is handled without harm. */
Test(decap, broken_tunnels)
{
	/* clang-format off */
	static const uint8_t ipfrag[] = {
		0x45, 0, 0, 28, 0x12, 0x34, 0x20, 0, 64, 17, 0, 0,
		192, 0, 2, 1, 198, 51, 100, 2,
		1, 2, 3, 4, 5, 6, 7, 8,
	};
	/* clang-format on */
	uint8_t ip[28];
	uint8_t f[7][128];
	size_t fl[7];
	struct tun t = { L_RAW, 4, T_GRE, 0, false };

	memcpy(ip, ipfrag, sizeof(ip));
	inet_wr16(ip + 10, inet_csum(ip, 20));
	for (int i = 0; i < 7; i++)
		fl[i] = build(&t, 4, ip, sizeof(ip), f[i]);
	f[0][20] |= 0x40; /* routing present (RFC 1701) */
	f[1][21] = 2;	  /* version 2 */
	/* Outer length covering two bytes of GRE. */
	inet_wr16(f[2] + 2, 22);
	inet_wr16(f[2] + 10, 0);
	inet_wr16(f[2] + 10, inet_csum(f[2], 20));
	/* Outer length past the frame, not a truncated capture. */
	inet_wr16(f[3] + 2, (uint16_t)(fl[3] + 10));
	inet_wr16(f[3] + 10, 0);
	inet_wr16(f[3] + 10, inet_csum(f[3], 20));
	/* Version 1 with protocol IPv4. */
	inet_wr16(f[4] + 20, 0x2001);
	/* Version 0 with the key bit but the frame ends in the key. */
	inet_wr16(f[5] + 20, 0x2000);
	fl[5] = 26;
	inet_wr16(f[5] + 2, 26);
	inet_wr16(f[5] + 10, 0);
	inet_wr16(f[5] + 10, inet_csum(f[5], 20));
	/* A wrong outer header checksum: a host drops the packet. */
	f[6][10] ^= 0x5a;
	const uint8_t *p[7] = { f[0], f[1], f[2], f[3], f[4], f[5], f[6] };
	expect_passed(PB_DLT_RAW, REASM_DECAP_ALL, p, fl, 7,
		      offsetof(struct reasm_stats, bad_tunnel), "gre bad");

	/* The inner packet longer than the outer one: a malformed
	 * fragment. */
	struct reasm_config c = rig_config(PB_DLT_RAW, REASM_STRICT);
	struct rig g;
	uint8_t big[128];
	c.decap = REASM_DECAP_ALL;
	rig_init(&g, &c);
	size_t n = build(&t, 4, ip, sizeof(ip), big);
	inet_wr16(big + 24 + 2, 60);
	cr_expect_eq(reasm_input(&g.w, big, (uint32_t)n, (uint32_t)n, g.now),
		     0);
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.malformed, 1);
	cr_expect_eq(st.tunneled, 1);

	/* Every prefix, of every tunnel, as a truncated capture. */
	for (int i = 0; i < 2 * T_COUNT; i++) {
		enum tn tn = (enum tn)(i / 2);
		struct tun u = { L_PPPOE, i % 2 ? 6 : 4, tn,
				 tn == T_PPTP ? 0x1080 : 0x9000, false };
		uint8_t fr[256];
		size_t m = build(&u, 4, ip, sizeof(ip), fr);
		for (size_t k = 0; k <= m; k++)
			(void)reasm_input(&g.w, fr, (uint32_t)k, (uint32_t)m,
					  g.now);
	}
	rig_finish(&g);
}

Test(decap, unknown_bits_refused)
{
	struct reasm_config c = rig_config(PB_DLT_ETHERNET, REASM_STRICT);
	struct reasm *r = NULL;

	c.decap = 4;
	cr_expect_eq(reasm_create(&r, &c), -EINVAL);
	cr_expect_null(r);
	c.decap = 0;
	c.link = PB_DLT_PPP;
	cr_expect_eq(reasm_create(&r, &c), 0);
	reasm_destroy(r, NULL);
	cr_expect(reasm_link_supported(PB_DLT_PPP_SERIAL));
}
