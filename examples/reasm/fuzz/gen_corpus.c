/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gen_corpus.c - writes the seed corpus of fuzz_reasm
 * (examples/reasm/fuzz/corpus/), one small file per situation worth
 * starting from, in the layout of fuzz_input.h.
 *
 *   gen_corpus DIR          write every seed into DIR
 *   gen_corpus --check DIR  exit 1 unless every seed in DIR is what this
 *                           program writes (CTest runs this, so a change
 *                           of the layout cannot leave stale seeds)
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include "fuzz_input.h"
#include "inet.h"
#include "reasm.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index into fz_links of the harness. */
enum { L_RAW, L_ETH, L_SLL, L_SLL2, L_IPV4, L_IPV6, L_PPP, L_PPP_SERIAL };

/* The link byte's other fields (fuzz_input.h). */
#define PPPOE FZ_LINK_PPPOE
#define DECAP(bits) ((unsigned)(bits) << FZ_LINK_DECAP_SHIFT)
#define STRIP FZ_LINK_STRIP
#define WRAP FZ_LINK_WRAP

/* config flags byte */
#define MEMLOW_HALF 0x01u /* mem_low = mem_high / 2 */
#define STRIPES4 0x04u
#define REFUSE 0x08u
#define TIMEOUT_S(n) ((unsigned)(n) << 4)

#define SECONDS(n) (FZ_CTL_SECONDS | (n))

struct seed {
	uint8_t b[4096];
	size_t n;
};

static void put(struct seed *s, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (s->n + n > sizeof(s->b)) {
		fprintf(stderr, "gen_corpus: seed too big\n");
		exit(2);
	}
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void config(struct seed *s, unsigned link, enum reasm_policy pol,
		   unsigned mem, unsigned flags, unsigned max_frags,
		   unsigned start)
{
	uint8_t c[FZ_CONFIG_LEN] = { (uint8_t)link,	 (uint8_t)pol,
				     (uint8_t)mem,	 (uint8_t)flags,
				     (uint8_t)max_frags, (uint8_t)start };

	s->n = 0;
	put(s, c, sizeof(c));
}

static void record(struct seed *s, uint8_t ctl, const void *body, size_t n)
{
	uint8_t h[FZ_REC_HDR] = { (uint8_t)n, (uint8_t)(n >> 8), ctl };

	put(s, h, sizeof(h));
	put(s, body, n);
}

static void spec(struct seed *s, uint8_t ctl, const struct fz_spec *sp)
{
	uint8_t b[FZ_SPEC_LEN];

	fz_spec_encode(b, sp);
	record(s, ctl, b, sizeof(b));
}

/* An IPv4 (or, with v6, IPv6) fragment: offset in 8-byte units. */
static struct fz_spec frag(bool v6, uint8_t id, unsigned off8, unsigned len,
			   bool mf, uint8_t fill)
{
	struct fz_spec sp;

	memset(&sp, 0, sizeof(sp));
	sp.kind = v6 ? FZ_KIND_V6 : 0;
	sp.id = id;
	sp.off = (uint16_t)(off8 | (mf ? FZ_OFF_MF : 0));
	sp.len = (uint16_t)len;
	sp.fill = fill;
	return sp;
}

static void f4(struct seed *s, uint8_t ctl, uint8_t id, unsigned off8,
	       unsigned len, bool mf, uint8_t fill)
{
	struct fz_spec sp = frag(false, id, off8, len, mf, fill);

	spec(s, ctl, &sp);
}

static void f6(struct seed *s, uint8_t ctl, uint8_t id, unsigned off8,
	       unsigned len, bool mf, uint8_t fill)
{
	struct fz_spec sp = frag(true, id, off8, len, mf, fill);

	spec(s, ctl, &sp);
}

/* A 3000-byte IPv4 datagram in three fragments, in the order given. */
static void three(struct seed *s, uint8_t id, const int order[3])
{
	static const unsigned off[3] = { 0, 185, 370 },
			      len[3] = { 1480, 1480, 40 };

	for (int i = 0; i < 3; i++)
		f4(s, 0, id, off[order[i]], len[order[i]], order[i] < 2, 0);
}

/* --- the seeds ----------------------------------------------------------- */

typedef void (*make_fn)(struct seed *s);

static void v4_inorder(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	three(s, 1, (const int[]){ 0, 1, 2 });
}

static void v4_reversed(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	three(s, 1, (const int[]){ 2, 1, 0 });
	three(s, 2, (const int[]){ 1, 2, 0 });
}

static void v4_overlap_strict(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	f4(s, 0, 1, 0, 1480, true, 0);
	f4(s, 0, 1, 100, 1480, true, 0); /* overlaps: kills id 1 */
	f4(s, 0, 1, 285, 40, false, 0);
	three(s, 2, (const int[]){ 0, 2, 1 });
}

/* Overlaps of every kind for a target-based policy: each fragment its own
 * fill, so the policy decides which bytes come out. */
static void overlaps(struct seed *s, enum reasm_policy pol)
{
	config(s, L_RAW, pol, 15, 0, 0, 1);
	f4(s, 0, 1, 0, 40, true, 'A');
	f4(s, 0, 1, 5, 16, true, 'B');
	f4(s, 0, 1, 7, 24, true, 'C');
	f4(s, 0, 1, 2, 32, true, 'D'); /* over A and B */
	f4(s, 0, 1, 8, 24, true, 'E'); /* over C */
	f4(s, 0, 1, 0, 8, true, 'G');  /* same start as A */
	f4(s, 0, 1, 10, 16, false, 'F');
}

static void overlap_first(struct seed *s)
{
	overlaps(s, REASM_FIRST);
}
static void overlap_last(struct seed *s)
{
	overlaps(s, REASM_LAST);
}
static void overlap_bsd(struct seed *s)
{
	overlaps(s, REASM_BSD);
}
static void overlap_bsd_right(struct seed *s)
{
	overlaps(s, REASM_BSD_RIGHT);
}
static void overlap_linux(struct seed *s)
{
	overlaps(s, REASM_LINUX);
}
static void overlap_windows(struct seed *s)
{
	overlaps(s, REASM_WINDOWS);
}
static void overlap_solaris(struct seed *s)
{
	overlaps(s, REASM_SOLARIS);
}

static void v4_duplicates(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	f4(s, 0, 1, 0, 1480, true, 0);
	f4(s, 0, 1, 0, 1480, true, 0); /* exact duplicate */
	f4(s, 0, 1, 10, 80, true, 0);  /* inside held data */
	f4(s, 0, 1, 185, 40, false, 0);
	f4(s, 0, 1, 185, 40, false, 0); /* after completion: a new one */
}

static void v6_ext_headers(struct seed *s)
{
	config(s, L_ETH, REASM_STRICT, 15, 0, 0, 1);
	for (unsigned i = 0; i < 3; i++) {
		struct fz_spec sp =
			frag(true, 7, 154 * i, i < 2 ? 1232 : 100, i < 2, 0);
		/* HBH, routing, destination options, then Fragment */
		sp.proto = 3 << 5;
		sp.ext = 0 | 1 << 2 | 2 << 4;
		sp.extlen = 0 | 1 << 2 | 3 << 4;
		spec(s, 0, &sp);
	}
	/* 1 KiB of hop-by-hop headers in front of the Fragment header */
	struct fz_spec a = frag(true, 8, 0, 64, true, 0);
	struct fz_spec b = frag(true, 8, 8, 64, false, 0);
	a.pad = b.pad = 4;
	spec(s, 0, &b);
	spec(s, 0, &a);
}

static void v6_atomic(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	f6(s, 0, 3, 0, 200, false, 0);
	struct fz_spec sp = frag(true, 4, 0, 300, false, 0);
	sp.off |= FZ_OFF_X; /* no Fragment header at all */
	spec(s, 0, &sp);
}

static void eth_vlan(struct seed *s)
{
	config(s, L_ETH, REASM_STRICT, 15, 0, 0, 1);
	/* The same id on VLAN 1 (802.1Q) and on 2 + 101 (802.1ad, QinQ):
	 * two datagrams, interleaved. */
	for (unsigned i = 0; i < 3; i++) {
		for (unsigned tags = 1; tags <= 3; tags += 2) {
			struct fz_spec sp = frag(false, 9, 185 * i,
						 i < 2 ? 1480 : 40, i < 2, 0);
			sp.addr = (uint8_t)(tags << 4 | (tags == 3) << 6);
			spec(s, 0, &sp);
		}
	}
}

static void sll(struct seed *s)
{
	config(s, L_SLL, REASM_LINUX, 15, 0, 0, 1);
	three(s, 1, (const int[]){ 0, 1, 2 });
	f6(s, 0, 1, 0, 1232, true, 0);
	f6(s, 0, 1, 154, 64, false, 0);
}

static void sll2(struct seed *s)
{
	config(s, L_SLL2, REASM_BSD, 15, 0, 0, 1);
	three(s, 1, (const int[]){ 2, 0, 1 });
	f6(s, 0, 1, 154, 64, false, 0);
	f6(s, 0, 1, 0, 1232, true, 0);
}

/* DLT_PPP (compressed protocol) and DLT_PPP_SERIAL (0xff 0x03), and a
 * PPPoE session on Ethernet with tags. */
static void ppp(struct seed *s)
{
	config(s, L_PPP, REASM_STRICT, 15, 0, 0, 1);
	three(s, 1, (const int[]){ 2, 0, 1 });
	f6(s, 0, 1, 154, 64, false, 0);
	f6(s, 0, 1, 0, 1232, true, 0);
}

static void ppp_serial(struct seed *s)
{
	config(s, L_PPP_SERIAL, REASM_LINUX, 15, 0, 0, 1);
	three(s, 1, (const int[]){ 0, 2, 1 });
	/* LCP, then a protocol field cut short. */
	record(s, 0, (const uint8_t[]){ FZ_KIND_RAW, 0xff, 3, 0xc0, 0x21, 1 },
	       6);
	record(s, 0, (const uint8_t[]){ FZ_KIND_RAW, 0xff, 3, 0x00 }, 4);
}

static void pppoe(struct seed *s)
{
	config(s, L_ETH | PPPOE, REASM_STRICT, 15, 0, 0, 1);
	for (unsigned i = 0; i < 3; i++) {
		struct fz_spec sp =
			frag(false, 9, 185 * i, i < 2 ? 1480 : 40, i < 2, 0);
		sp.addr = 1 << 4; /* one 802.1Q tag */
		spec(s, 0, &sp);
	}
	f6(s, 0, 2, 0, 1232, true, 0);
	f6(s, 0, 2, 154, 64, false, 0);
}

/* Every structured packet inside a tunnel that --decap opens. */
static void decap(struct seed *s, unsigned link, unsigned bits, bool strip)
{
	config(s, link | DECAP(bits) | (strip ? STRIP : 0) | WRAP, REASM_STRICT,
	       15, 0, 0, 1);
	/* ids: bit 6 PPTP (where GRE is opened), bit 7 the other family
	 * outside. */
	three(s, 0x01, (const int[]){ 2, 1, 0 });
	three(s, 0x41, (const int[]){ 0, 1, 2 });
	three(s, 0x81, (const int[]){ 1, 0, 2 });
	f6(s, 0, 0xc1, 154, 64, false, 0);
	f6(s, 0, 0xc1, 0, 1232, true, 0);
	f6(s, 0, 0x02, 0, 1232, true, 0);
	f6(s, 0, 0x02, 154, 64, false, 0);
}

static void decap_gre(struct seed *s)
{
	decap(s, L_ETH, REASM_DECAP_GRE, false);
}

static void decap_gre_strip(struct seed *s)
{
	decap(s, L_ETH | PPPOE, REASM_DECAP_GRE, true);
}

static void decap_ipip(struct seed *s)
{
	decap(s, L_RAW, REASM_DECAP_IPIP, false);
}

static void decap_ipip_strip(struct seed *s)
{
	decap(s, L_PPP_SERIAL, REASM_DECAP_IPIP, true);
}

/* Tunnels written out: GRE with a routing bit, PPTP cut short, and a
 * whole GRE packet around a first fragment. */
static void decap_raw(struct seed *s)
{
	/* clang-format off */
	static const uint8_t gre[] = {
		FZ_KIND_RAW,
		0x45, 0, 0, 52, 0, 1, 0, 0, 64, 47, 0, 0,
		10, 9, 0, 1, 10, 9, 0, 2,
		0x00, 0x00, 0x08, 0x00,
		0x45, 0, 0, 28, 0x12, 0x34, 0x20, 0x00, 64, 17, 0, 0,
		10, 0, 0, 1, 10, 0, 1, 1,
		1, 2, 3, 4, 5, 6, 7, 8,
	};
	/* clang-format on */
	uint8_t b[sizeof(gre)];

	config(s, L_RAW | DECAP(REASM_DECAP_ALL), REASM_STRICT, 15, 0, 0, 1);
	memcpy(b, gre, sizeof(b));
	inet_wr16(b + 11, inet_csum(b + 1, 20));
	inet_wr16(b + 35, inet_csum(b + 25, 20));
	record(s, 0, b, sizeof(b));
	b[21] = 0x40; /* routing present */
	record(s, 0, b, sizeof(b));
	b[21] = 0x30; /* PPTP's flags, version 1, cut short */
	b[22] = 0x01;
	record(s, 0, b, 26);
}

static void truncated(struct seed *s)
{
	/* clang-format off */
	static const uint8_t raw[] = {
		FZ_KIND_RAW | 3, /* wirelen = caplen + 192 */
		0x45, 0x00, 0x05, 0xdc, 0x00, 0x01, 0x20, 0x00,
		0x40, 0x11, 0x00, 0x00, 10, 0, 0, 1, 10, 0, 1, 1,
	};
	/* clang-format on */
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	struct fz_spec sp = frag(false, 1, 0, 1480, true, 0);
	sp.damage = 4 << FZ_DMG_CUT_SHIFT; /* 32 bytes not captured */
	spec(s, 0, &sp);
	sp = frag(true, 1, 0, 1232, true, 0);
	sp.damage = 31 << FZ_DMG_CUT_SHIFT; /* into the headers */
	spec(s, 0, &sp);
	record(s, 0, raw, sizeof(raw));
	f4(s, 0, 1, 185, 40, false, 0);
}

static void tiny(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 8, 1);
	for (unsigned i = 0; i < 12; i++)
		f4(s, 0, 1, i, 8, true, 0); /* past max_frags at 9 */
	for (unsigned i = 0; i < 4; i++)
		f6(s, 0, 2, i, 8, i < 3, 0);
	f4(s, 0, 3, 0, 7, true, 0); /* rounds down to nothing */
	f4(s, 0, 4, 0, 16, true, 0);
	f4(s, 0, 4, 2, 0, true, 0); /* zero length: kills id 4 */
}

static void ping_of_death(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	f4(s, 0, 1, 0, 1480, true, 0);
	f4(s, 0, 1, 8189, 100, false, 0); /* ends past 65535 */
	/* 65500 bytes of data fit, but not behind a 48-byte header. */
	struct fz_spec sp = frag(false, 2, 0, 65000, true, 0);
	sp.proto = 7 << 5;
	spec(s, 0, &sp);
	sp = frag(false, 2, 8125, 500, false, 0);
	sp.proto = 7 << 5;
	spec(s, 0, &sp);
	f6(s, 0, 3, 8190, 200, false, 0);
}

static void many(struct seed *s, unsigned flags)
{
	config(s, L_RAW, REASM_STRICT, 0, flags, 0, 1); /* 16 KiB */
	for (unsigned id = 0; id < 40; id++)
		f4(s, 1, (uint8_t)id, 0, 1480, true, 0);
	for (unsigned id = 30; id < 40; id++)
		f4(s, 1, (uint8_t)id, 185, 8, false, 0);
	for (unsigned id = 0; id < 10; id++)
		f6(s, 1, (uint8_t)id, 0, 1232, true, 0);
}

static void evict(struct seed *s)
{
	many(s, STRIPES4 | MEMLOW_HALF);
}

static void refuse(struct seed *s)
{
	many(s, REFUSE);
}

static void timeout(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, TIMEOUT_S(1), 0, 1);
	f4(s, 0, 1, 0, 1480, true, 0);
	f6(s, 0, 1, 0, 1232, true, 0);
	f4(s, SECONDS(2) | FZ_CTL_EXPIRE, 1, 185, 40, false, 0);
	f6(s, 0, 1, 154, 40, false, 0);
	f6(s, SECONDS(3) | FZ_CTL_EXPIRE, 2, 0, 8, true, 0);
	/* Out of time order: a fragment from before the first one. */
	f6(s, FZ_CTL_BACK, 2, 1, 8, false, 0);
}

/* A saturated clock: every packet at UINT64_MAX. */
static void clock_max(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 0, 0, 0, 4);
	for (unsigned id = 1; id <= 5; id++) /* 40 KB: past mem_high */
		f4(s, 0, (uint8_t)id, 0, 8000, true, 0);
	f4(s, SECONDS(1), 5, 1000, 8, false, 0);
}

static void ecn(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	struct fz_spec a = frag(false, 1, 0, 1480, true, 0);
	struct fz_spec b = frag(false, 1, 185, 40, false, 0);
	a.proto = 3 << 3; /* CE */
	spec(s, 0, &a);
	spec(s, 0, &b); /* Not-ECT: discarded */
	a.id = b.id = 2;
	b.proto = 2 << 3; /* ECT(0): comes out CE */
	spec(s, 0, &a);
	spec(s, 0, &b);
	a = frag(true, 3, 0, 1232, true, 0);
	b = frag(true, 3, 154, 40, false, 0);
	a.proto = 3 << 3; /* the same over IPv6 */
	b.proto = 1 << 3; /* ECT(1) */
	spec(s, 0, &b);
	spec(s, 0, &a);
}

static void damage(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	struct fz_spec sp = frag(false, 1, 0, 1480, true, 0);
	sp.damage = FZ_DMG_CSUM;
	spec(s, 0, &sp);
	sp.damage = FZ_DMG_LONGER;
	sp.delta = 8;
	spec(s, 0, &sp);
	sp.damage = FZ_DMG_SHORTER;
	sp.delta = 200;
	spec(s, 0, &sp);
	sp = frag(true, 1, 0, 200, true, 0);
	sp.damage = FZ_DMG_SHORTER;
	sp.delta = 204; /* no room for the Fragment header */
	spec(s, 0, &sp);
	f4(s, 0, 1, 185, 40, false, 0);
}

static void v6_incomplete_chain(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	struct fz_spec sp = frag(true, 1, 0, 8, true, 0);
	sp.proto = 4; /* Fragment NH: destination options */
	spec(s, 0, &sp);
	sp = frag(true, 2, 0, 16, true, 0);
	sp.proto = 1; /* TCP, 16 of its 20 bytes */
	spec(s, 0, &sp);
	f6(s, 0, 2, 2, 8, false, 0);
	sp = frag(true, 3, 0, 8, true, 0);
	sp.proto = 7; /* AH */
	sp.fill = 4;  /* its length byte: 24 bytes, of which 8 are here */
	spec(s, 0, &sp);
}

static void v6_nested_fragment(struct seed *s)
{
	config(s, L_IPV6, REASM_STRICT, 15, 0, 0, 1);
	struct fz_spec sp = frag(true, 1, 0, 64, true, 0);
	sp.proto = 6; /* Fragment NH: another Fragment header */
	spec(s, 0, &sp);
	sp.off = 8;
	spec(s, 0, &sp);
}

static void raw_frames(struct seed *s)
{
	/* clang-format off */
	static const uint8_t arp[] = {
		FZ_KIND_RAW, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0,
		0, 1, 0x08, 0x06, 0, 1, 8, 0, 6, 4, 0, 1,
	};
	static const uint8_t v4[] = {
		FZ_KIND_RAW, 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00,
		0x45, 0xb8, 0x00, 0x1c, 0x12, 0x34, 0x20, 0x00, 0x40, 0x11,
		0x00, 0x00, 10, 0, 0, 1, 10, 0, 1, 1,
		1, 2, 3, 4, 5, 6, 7, 8,
	};
	/* clang-format on */
	uint8_t v4sum[sizeof(v4)];

	config(s, L_ETH, REASM_STRICT, 15, 0, 0, 1);
	record(s, 0, arp, sizeof(arp));
	/* An IPv4 first fragment, written out, with its checksum. */
	memcpy(v4sum, v4, sizeof(v4));
	inet_wr16(v4sum + 25, inet_csum(v4sum + 15, 20));
	record(s, 0, v4sum, sizeof(v4sum));
	record(s, 0, NULL, 0); /* an empty frame */
	record(s, 0, (const uint8_t[]){ FZ_KIND_RAW }, 1);
}

static void overlay(struct seed *s)
{
	uint8_t b[FZ_SPEC_LEN + 4];
	struct fz_spec sp = frag(false, 1, 0, 200, true, 0);

	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	sp.kind = FZ_KIND_OVERLAY;
	fz_spec_encode(b, &sp);
	b[FZ_SPEC_LEN] = 0; /* at byte 0: version and IHL */
	b[FZ_SPEC_LEN + 1] = 0;
	b[FZ_SPEC_LEN + 2] = 0x46;
	b[FZ_SPEC_LEN + 3] = 0;
	record(s, 0, b, sizeof(b));
}

static void dlt_ip(struct seed *s)
{
	config(s, L_IPV4, REASM_WINDOWS, 15, 0, 0, 1);
	three(s, 5, (const int[]){ 1, 0, 2 });
	f6(s, 0, 5, 0, 1232, true, 0);
	f6(s, 0, 5, 154, 64, false, 0);
}

static void dont_fragment(struct seed *s)
{
	config(s, L_RAW, REASM_STRICT, 15, 0, 0, 1);
	struct fz_spec sp = frag(false, 1, 0, 1480, true, 0);
	sp.off |= FZ_OFF_DF;
	spec(s, 0, &sp);
	sp = frag(false, 1, 185, 40, false, 0); /* no DF: DF not kept */
	spec(s, 0, &sp);
	sp = frag(false, 2, 0, 1480, true, 0);
	sp.off |= FZ_OFF_DF;
	spec(s, 0, &sp);
	sp = frag(false, 2, 185, 40, false, 0);
	sp.off |= FZ_OFF_DF;
	spec(s, 0, &sp);
}

static void clock_wrap(struct seed *s)
{
	config(s, L_RAW, REASM_SOLARIS, 15, TIMEOUT_S(5), 0, 3);
	f4(s, 0, 1, 0, 1480, true, 0);
	f4(s, SECONDS(30), 2, 0, 1480, true, 0);
	f4(s, SECONDS(30) | FZ_CTL_EXPIRE, 1, 185, 40, false, 0);
	f4(s, SECONDS(10) | FZ_CTL_EXPIRE, 2, 185, 40, false, 0);
}

static void largest(struct seed *s)
{
	config(s, L_RAW, REASM_LAST, 15, 0, 0, 0);
	/* 20 + 65515: the largest IPv4 datagram, in two fragments. */
	f4(s, 0, 1, 0, 32768, true, 0);
	f4(s, 0, 1, 4096, 32747, false, 0);
	/* IPv6: 65535 bytes after the Fragment header, plus an extension
	 * header: too big once rebuilt. */
	struct fz_spec sp = frag(true, 1, 0, 65000, true, 0);
	sp.proto = 1 << 5;
	spec(s, 0, &sp);
	sp = frag(true, 1, 8125, 535, false, 0);
	sp.proto = 1 << 5;
	spec(s, 0, &sp);
}

static const struct {
	const char *name;
	make_fn make;
} seeds[] = {
	{ "v4-inorder", v4_inorder },
	{ "v4-reversed", v4_reversed },
	{ "v4-overlap-strict", v4_overlap_strict },
	{ "v4-overlap-first", overlap_first },
	{ "v4-overlap-last", overlap_last },
	{ "v4-overlap-bsd", overlap_bsd },
	{ "v4-overlap-bsd-right", overlap_bsd_right },
	{ "v4-overlap-linux", overlap_linux },
	{ "v4-overlap-windows", overlap_windows },
	{ "v4-overlap-solaris", overlap_solaris },
	{ "v4-duplicates", v4_duplicates },
	{ "v6-ext-headers", v6_ext_headers },
	{ "v6-atomic", v6_atomic },
	{ "v6-incomplete-chain", v6_incomplete_chain },
	{ "v6-nested-fragment", v6_nested_fragment },
	{ "eth-vlan", eth_vlan },
	{ "sll", sll },
	{ "sll2", sll2 },
	{ "dlt-ip", dlt_ip },
	{ "truncated", truncated },
	{ "tiny", tiny },
	{ "ping-of-death", ping_of_death },
	{ "largest", largest },
	{ "evict", evict },
	{ "refuse", refuse },
	{ "timeout", timeout },
	{ "clock-wrap", clock_wrap },
	{ "clock-max", clock_max },
	{ "ecn", ecn },
	{ "dont-fragment", dont_fragment },
	{ "damage", damage },
	{ "raw-frames", raw_frames },
	{ "overlay", overlay },
	{ "ppp", ppp },
	{ "ppp-serial", ppp_serial },
	{ "pppoe", pppoe },
	{ "decap-gre", decap_gre },
	{ "decap-gre-strip", decap_gre_strip },
	{ "decap-ipip", decap_ipip },
	{ "decap-ipip-strip", decap_ipip_strip },
	{ "decap-raw", decap_raw },
};

/* 0 if @p path holds exactly @p n bytes @p b. */
static int same(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "rb");
	uint8_t got[sizeof(((struct seed *)0)->b) + 1];
	size_t k;

	if (f == NULL)
		return -1;
	k = fread(got, 1, sizeof(got), f);
	fclose(f);
	return k == n && memcmp(got, b, n) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	bool check = argc == 3 && strcmp(argv[1], "--check") == 0;
	const char *dir = argv[argc - 1];
	static struct seed s;
	int bad = 0;

	if (argc != 2 && !check) {
		fprintf(stderr, "usage: gen_corpus [--check] DIR\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		char path[4096];
		seeds[i].make(&s);
		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		if (check) {
			if (same(path, s.b, s.n) != 0) {
				fprintf(stderr,
					"gen_corpus: %s is missing or stale;"
					" regenerate with gen_corpus %s\n",
					path, dir);
				bad = 1;
			}
			continue;
		}
		FILE *f = fopen(path, "wb");
		if (f == NULL || fwrite(s.b, 1, s.n, f) != s.n ||
		    fclose(f) != 0) {
			fprintf(stderr, "gen_corpus: cannot write %s\n", path);
			return 1;
		}
	}
	return bad;
}
