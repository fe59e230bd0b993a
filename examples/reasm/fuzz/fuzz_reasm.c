/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_reasm.c - libFuzzer target for examples/reasm: configure an engine
 * from the first bytes of the input, then feed it a sequence of packets,
 * checking every frame it emits and its counters. fuzz_input.h gives the
 * byte layout; most records are packets synthesized from a few fields
 * (with correct checksums and lengths unless the record asks for damage),
 * so that mutations reach the reassembly logic instead of dying in the
 * parser.
 *
 * Checks (any failure prints what and aborts):
 *   - a frame passed through is a copy of the input, with the input's
 *     lengths and DSCP;
 *   - a reassembled IPv4 datagram has a correct header checksum, a total
 *     length equal to the frame's, MF clear and offset 0; an IPv6 one a
 *     payload length equal to the frame's;
 *   - every synthesized payload byte at datagram position p is
 *     pat(key, p) unless the record chose another fill, so a datagram
 *     built only from such fragments must carry that pattern whatever the
 *     overlap policy (bytes from the wrong place or from another datagram
 *     show). Keys that saw other bytes, and every key once a raw or
 *     overwritten record was fed, are exempt;
 *   - reasm_input() returns 1 exactly when it emitted; reasm_expire()'s
 *     count is the ReasmTimeout it added; with eviction, the bytes held
 *     after each record stay within the two tables' mem_high;
 *   - the counters add up after every record (reasm_stats_read) and at
 *     reasm_destroy(): ReasmReqds == frags_reassembled + frags_dropped +
 *     frags_discarded + frags_pending, bytes_peak >= bytes_held, packets
 *     == records fed, emitted, passed and ReasmOKs == the frames the
 *     callback saw, and the datagrams and fragments destroy finds are
 *     the ones reasm_stats_read() reported pending just before.
 *
 * Each frame is handed to the engine in a heap block of exactly its
 * captured length, so AddressSanitizer catches a read past caplen.
 * The same file builds the regression runner (regress_reasm.c), with any
 * C11 compiler.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include "fuzz_input.h"
#include "inet.h"
#include "pktbuild.h"
#include "reasm.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fz_verbose;

#define NS_PER_S 1000000000ull
#define NS_PER_MS 1000000ull
/* Largest frame a structured record makes: link header (30: Ethernet,
 * two tags and PPPoE with its PPP protocol) + outer headers (60: IPv6,
 * GRE version 1 with sequence and acknowledgment, PPP) + IPv6 header +
 * 65535 bytes of payload length. */
#define FRAME_MAX (30u + 60u + 40u + 65535u)
#define TAINT_BITS 4096u

static const int fz_links[FZ_LINK_COUNT] = {
	REASM_LINK_RAW,	 REASM_LINK_ETHERNET,	REASM_LINK_SLL,
	REASM_LINK_SLL2, REASM_LINK_IPV4,	REASM_LINK_IPV6,
	REASM_LINK_PPP,	 REASM_LINK_PPP_SERIAL,
};

/* The state of one run (one input). */
struct run {
	struct reasm_config cfg;
	bool pppoe, wrap; /* FZ_LINK_PPPOE, FZ_LINK_WRAP */
	uint64_t now;
	uint64_t records;
	/* the frame being fed */
	const uint8_t *frame;
	uint32_t caplen, wirelen;
	/* what the emit callback saw */
	uint64_t outs, passed, reassembled, out_bytes;
	/* keys whose payloads may not follow the pattern */
	bool taint_all;
	uint8_t taint[TAINT_BITS / 8];
};

static struct run run;
static uint8_t frame_buf[FRAME_MAX];

/* --- checks -------------------------------------------------------------- */

static void fail(const char *what, int line)
{
	fprintf(stderr,
		"fuzz_reasm: check failed at line %d: %s\n"
		"  record %llu, link %d, policy %s, mem_high %zu, mem_low %zu,"
		" %s, stripes %u, max_frags %u, now %llu\n",
		line, what, (unsigned long long)run.records, run.cfg.link,
		reasm_policy_name(run.cfg.policy), run.cfg.mem_high,
		run.cfg.mem_low, run.cfg.mem_refuse ? "refuse" : "evict",
		run.cfg.stripes, run.cfg.max_frags,
		(unsigned long long)run.now);
	abort();
}

#define CHECK(cond)                            \
	do {                                   \
		if (!(cond))                   \
			fail(#cond, __LINE__); \
	} while (0)

/* --- packet helpers ------------------------------------------------------ */

/*
 * Where the IP header starts in a frame of link type @p link, its
 * EtherType (0x0800 or 0x86dd for IP) and the VLAN word the engine keys
 * on (802.1Q/802.1ad ids, 12 bits each, and the tag count in bits
 * 24-31), as reasm.h describes the link types. false: no room for the
 * link header.
 */
/* A PPP header at @p off: 0xff 0x03 if there, a protocol of 1 or 2
 * bytes; IPv4 and IPv6 as their EtherTypes, others as 0. */
static bool ppp_l3(const uint8_t *f, uint32_t n, uint32_t off, uint32_t *l3,
		   uint16_t *etype)
{
	if (off + 2 <= n && f[off] == 0xff && f[off + 1] == 3)
		off += 2;
	if (off + 1 > n)
		return false;
	uint16_t proto = f[off];
	if (f[off] & 1) {
		off += 1;
	} else {
		if (off + 2 > n || !(f[off + 1] & 1))
			return false;
		proto = inet_rd16(f + off);
		off += 2;
	}
	*etype = proto == 0x21 ? 0x0800 : proto == 0x57 ? 0x86dd : 0;
	*l3 = off;
	return true;
}

/* Where link_l3() last found a PPPoE header; 0: none. */
static uint32_t pppoe_at;

static bool link_l3(int link, const uint8_t *f, uint32_t n, uint32_t *l3,
		    uint16_t *etype, uint32_t *vlan)
{
	*vlan = 0;
	pppoe_at = 0;
	switch (link) {
	case REASM_LINK_PPP:
	case REASM_LINK_PPP_SERIAL:
		return ppp_l3(f, n, 0, l3, etype);
	case REASM_LINK_ETHERNET: {
		uint32_t off = 12;
		unsigned tags = 0;
		if (n < 14)
			return false;
		*etype = inet_rd16(f + off);
		while ((*etype == 0x8100 || *etype == 0x88a8) && tags < 2) {
			if (n < off + 6)
				return false;
			*vlan |= (uint32_t)(inet_rd16(f + off + 2) & 0xfff)
				 << (12 * tags);
			tags++;
			off += 4;
			*etype = inet_rd16(f + off);
		}
		*vlan |= (uint32_t)tags << 24;
		if (*etype == 0x8864) { /* PPPoE session */
			pppoe_at = off + 2;
			return off + 8 <= n && f[off + 2] == 0x11 &&
			       f[off + 3] == 0 && inet_rd16(f + off + 6) >= 2 &&
			       ppp_l3(f, n, off + 8, l3, etype);
		}
		*l3 = off + 2;
		return true;
	}
	case REASM_LINK_SLL:
		if (n < 16)
			return false;
		*etype = inet_rd16(f + 14);
		*l3 = 16;
		return true;
	case REASM_LINK_SLL2:
		if (n < 20)
			return false;
		*etype = inet_rd16(f);
		*l3 = 20;
		return true;
	default: /* RAW, IPV4, IPV6: the version nibble says */
		if (n < 1)
			return false;
		*etype = (f[0] >> 4) == 6 ? 0x86dd : 0x0800;
		*l3 = 0;
		return true;
	}
}

/* The DSCP of an IP frame; 0 if it is not IP (reasm_out.dscp). */
static uint8_t dscp_of(int link, const uint8_t *f, uint32_t n)
{
	uint32_t l3, vlan;
	uint16_t etype;

	if (!link_l3(link, f, n, &l3, &etype, &vlan) || l3 + 2 > n)
		return 0;
	if (etype == 0x0800 && (f[l3] >> 4) == 4)
		return f[l3 + 1] >> 2;
	if (etype == 0x86dd && (f[l3] >> 4) == 6)
		return (uint8_t)(((f[l3] & 15) << 4 | f[l3 + 1] >> 4) >> 2);
	return 0;
}

/* FNV-1a over what names a datagram and survives reassembly: the
 * addresses, the VLAN word and, for IPv4, id and protocol (an IPv6
 * output has no Fragment header left, so no id). */
static uint32_t key_hash(unsigned family, const uint8_t *ip, uint32_t vlan)
{
	uint32_t h = 2166136261u;
	uint8_t b[4 + 32 + 3];
	size_t n = 0;

	b[n++] = (uint8_t)vlan;
	b[n++] = (uint8_t)(vlan >> 8);
	b[n++] = (uint8_t)(vlan >> 16);
	b[n++] = (uint8_t)(vlan >> 24);
	if (family == 4) {
		memcpy(b + n, ip + 12, 8);
		n += 8;
		b[n++] = ip[4];
		b[n++] = ip[5];
		b[n++] = ip[9];
	} else {
		memcpy(b + n, ip + 8, 32);
		n += 32;
	}
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h ^ family;
}

/* The byte a clean fragment of key @p h carries at datagram position p. */
static uint8_t pat(uint32_t h, uint32_t p)
{
	uint8_t seed = (uint8_t)(h ^ h >> 8 ^ h >> 16 ^ h >> 24);

	return (uint8_t)(seed + p + 31 * (p >> 8));
}

static void taint(uint32_t h)
{
	run.taint[(h % TAINT_BITS) / 8] |= (uint8_t)(1u << (h % 8));
}

static bool tainted(uint32_t h)
{
	return run.taint_all ||
	       (run.taint[(h % TAINT_BITS) / 8] >> (h % 8) & 1);
}

/* --- output checks ------------------------------------------------------- */

static void check_pattern(uint32_t h, const uint8_t *payload, uint32_t n)
{
	for (uint32_t p = 0; p < n; p++) {
		if (payload[p] != pat(h, p)) {
			fprintf(stderr,
				"fuzz_reasm: reassembled byte %u is 0x%02x,"
				" not 0x%02x (%u payload bytes)\n",
				p, payload[p], pat(h, p), n);
			fail("payload pattern", __LINE__);
		}
	}
}

/* A check that raw records (anything at all) may defeat. */
#define TCHECK(c)                           \
	do {                                \
		if (!(c)) {                 \
			if (run.taint_all)  \
				return 0;   \
			fail(#c, __LINE__); \
		}                           \
	} while (0)

/*
 * A reassembled frame whose outer headers were kept (FZ_LINK_WRAP): the
 * outer IP header at @p ip, @p n bytes to the frame's end, and its
 * tunnel's length and checksum fields checked. @return the offset of the
 * inner packet from @p ip, its EtherType in *inner; 0 if @p ip is not the
 * outer header of a tunnel the engine opens.
 */
static uint32_t tunnel_check(const uint8_t *ip, uint32_t n, uint16_t etype,
			     uint16_t *inner)
{
	uint32_t hl, off;
	uint8_t proto;

	if (etype == 0x0800) {
		TCHECK(n >= 20 && ip[0] >> 4 == 4);
		hl = (ip[0] & 15u) * 4;
		TCHECK(hl >= 20 && hl <= n && inet_rd16(ip + 2) == n);
		TCHECK(inet_csum(ip, hl) == 0);
		proto = ip[9];
	} else {
		TCHECK(n >= 40 && ip[0] >> 4 == 6);
		TCHECK(inet_rd16(ip + 4) == n - 40);
		hl = 40;
		proto = ip[6];
	}
	if (proto == 4 || proto == 41) {
		if (!(run.cfg.decap & REASM_DECAP_IPIP))
			return 0;
		*inner = proto == 4 ? 0x0800 : 0x86dd;
		return hl;
	}
	if (proto != 47 || !(run.cfg.decap & REASM_DECAP_GRE))
		return 0;
	const uint8_t *g = ip + hl;
	uint32_t m = n - hl;
	TCHECK(m >= 4);
	uint16_t flags = inet_rd16(g);
	if ((flags & 7) == 1) {
		uint32_t gh =
			8 + (flags & 0x1000 ? 4 : 0) + (flags & 0x0080 ? 4 : 0);
		TCHECK(m >= gh && inet_rd16(g + 4) == m - gh);
		TCHECK(ppp_l3(g, m, gh, &off, inner));
		return hl + off;
	}
	uint32_t gh = 4 + (flags & 0x8000 ? 4 : 0) + (flags & 0x2000 ? 4 : 0) +
		      (flags & 0x1000 ? 4 : 0);
	TCHECK(m >= gh);
	if (flags & 0x8000)
		TCHECK(inet_csum(g, m) == 0);
	if (inet_rd16(g + 2) == 0x880b) {
		TCHECK(ppp_l3(g, m, gh, &off, inner));
		return hl + off;
	}
	*inner = inet_rd16(g + 2);
	return hl + gh;
}

static void check_reassembled(const struct reasm_out *o)
{
	uint32_t l3, vlan;
	uint16_t etype;

	CHECK(o->orig_len == o->len);
	CHECK(link_l3(run.cfg.link, o->data, o->len, &l3, &etype, &vlan));
	CHECK(etype == 0x0800 || etype == 0x86dd);
	if (pppoe_at != 0)
		CHECK(inet_rd16(o->data + pppoe_at + 4) ==
		      o->len - pppoe_at - 6);
	const uint8_t *ip = o->data + l3;
	uint32_t n = o->len - l3;
	uint16_t inner;
	uint32_t in;

	if (run.wrap && run.cfg.decap && !run.cfg.decap_strip &&
	    (in = tunnel_check(ip, n, etype, &inner)) != 0) {
		CHECK(in <= n && (inner == 0x0800 || inner == 0x86dd));
		ip += in;
		n -= in;
		etype = inner;
	}

	if (etype == 0x0800) {
		CHECK(n >= 20 && ip[0] >> 4 == 4);
		uint32_t ihl = (ip[0] & 15u) * 4;
		CHECK(ihl >= 20 && ihl <= n);
		CHECK(inet_rd16(ip + 2) == n);	/* total length */
		CHECK(inet_csum(ip, ihl) == 0); /* header checksum */
		CHECK((inet_rd16(ip + 6) & ~0x4000u) == 0); /* MF 0, offset 0 */
		CHECK(o->dscp == ip[1] >> 2 ||
		      (run.taint_all && run.cfg.decap));
		uint32_t h = key_hash(4, ip, vlan);
		if (!tainted(h))
			check_pattern(h, ip + ihl, n - ihl);
		return;
	}
	CHECK(n >= 40 && ip[0] >> 4 == 6);
	CHECK(inet_rd16(ip + 4) == n - 40); /* payload length */
	CHECK(o->dscp == (uint8_t)(((ip[0] & 15) << 4 | ip[1] >> 4) >> 2) ||
	      (run.taint_all && run.cfg.decap));
	uint32_t h = key_hash(6, ip, vlan);
	if (tainted(h))
		return;
	/* A clean key's chain is the extension headers the generator wrote,
	 * then one of the upper-layer headers fz_v6_nh[0..3]. */
	uint32_t off = 40;
	uint8_t nh = ip[6];
	while ((nh == 0 || nh == 43 || nh == 60) && off + 2 <= n) {
		nh = ip[off];
		off += (ip[off + 1] + 1u) * 8;
	}
	CHECK(off <= n);
	CHECK(nh == 6 || nh == 17 || nh == 58 || nh == 59);
	check_pattern(h, ip + off, n - off);
}

static void on_emit(struct reasm_out *o, void *arg)
{
	(void)arg;
	CHECK(o->ts_ns == run.now);
	run.outs++;
	run.out_bytes += o->len;
	if (o->reassembled) {
		run.reassembled++;
		check_reassembled(o);
	} else {
		run.passed++;
		CHECK(o->len == run.caplen);
		CHECK(o->orig_len == run.wirelen);
		CHECK(memcmp(o->data, run.frame, run.caplen) == 0);
		CHECK(o->dscp == dscp_of(run.cfg.link, run.frame, run.caplen));
	}
	reasm_out_free(o);
}

/* --- the packet generator ------------------------------------------------ */

/* Link header for @p s into @p f, for @p l3len bytes of @p etype; its
 * length (the same whatever @p l3len). Ethernet: from 02:00:00:00:00:02
 * to 02:00:00:00:00:01, the tags of addr bits 4-7, PPPoE session 1. */
static uint32_t build_link(const struct fz_spec *s, uint8_t *f, uint16_t etype,
			   uint32_t l3len)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
	unsigned tags = s->addr >> 4 & 3, sel = s->addr >> 6;
	struct pb_link l;

	memset(&l, 0, sizeof(l));
	switch (run.cfg.link) {
	case REASM_LINK_PPP: /* a compressed protocol */
		l.dlt = PB_DLT_PPP;
		break;
	case REASM_LINK_PPP_SERIAL:
		l.dlt = PB_DLT_PPP_SERIAL;
		break;
	case REASM_LINK_ETHERNET:
		l.dlt = PB_DLT_ETHERNET;
		l.nvlan = tags < 2 ? tags : 2;
		l.tpid[0] = tags == 3 ? PB_TPID_8021AD : PB_TPID_8021Q;
		l.tci[0] = (uint16_t)(1 + sel);
		l.tci[1] = (uint16_t)(100 + sel);
		l.pppoe = run.pppoe;
		l.pppoe_session = 1;
		break;
	case REASM_LINK_SLL:
		l.dlt = PB_DLT_SLL;
		break;
	case REASM_LINK_SLL2:
		l.dlt = PB_DLT_SLL2;
		l.ifindex = 1;
		break;
	default:
		return 0;
	}
	l.macs = macs;
	l.lladdr = macs;
	return (uint32_t)pb_link_put(&l, etype, l3len, f);
}

/* The tunnel around a structured packet (FZ_LINK_WRAP): from 10.9.0.1 to
 * 10.9.0.2 (fd00::9 to fd00::a), as decap allows: GRE with a checksum and
 * key 0x1234abcd, or PPTP (call 0x77, sequence number the IP id, when id
 * bit 6 is set), or IP-in-IP; plain GRE when it opens none. */
struct wrap {
	uint32_t len; /* bytes of outer headers; 0: none */
	int family;   /* the outer header's */
	struct pb_tunnel t;
};

static void plan_wrap(const struct fz_spec *s, bool v6, struct wrap *w)
{
	static const uint8_t a4[2][4] = { { 10, 9, 0, 1 }, { 10, 9, 0, 2 } };
	bool fixed = run.cfg.link == REASM_LINK_IPV4 ||
		     run.cfg.link == REASM_LINK_IPV6;
	unsigned d = run.cfg.decap;
	struct pb_tunnel *t = &w->t;

	memset(w, 0, sizeof(*w));
	if (!run.wrap)
		return;
	w->family = v6 ? 6 : 4;
	/* Stripped on DLT_IPV4/IPV6 only within one family. */
	if ((s->id & 0x80) && !(fixed && run.cfg.decap_strip))
		w->family = v6 ? 4 : 6;
	t->outer = w->family;
	t->kind = (d & REASM_DECAP_IPIP) ? PB_TUN_IPIP : PB_TUN_GRE;
	if (d & REASM_DECAP_GRE) {
		t->kind = (s->id & 0x40) ? PB_TUN_PPTP : PB_TUN_GRE;
		t->gre_flags = (s->id & 0x40) ? PB_GRE_S : PB_GRE_C | PB_GRE_K;
	}
	t->key = 0x1234abcd;
	t->seq = s->id;
	t->call_id = 0x77;
	if (w->family == 4) {
		memcpy(t->src, a4[0], 4);
		memcpy(t->dst, a4[1], 4);
	} else {
		t->src[0] = t->dst[0] = 0xfd;
		t->src[15] = 9;
		t->dst[15] = 10;
	}
	w->len = (uint32_t)pb_tunnel_len(t, v6 ? 6 : 4);
}

/* The IPv4 header of @p s at @p ip, its payload length clamped in *@p len;
 * @return the header's length. */
static uint32_t put_v4(const struct fz_spec *s, uint8_t *ip, uint8_t tos,
		       unsigned words, uint32_t *len)
{
	uint32_t hdr;

	hdr = 20 + 4 * words;
	if (*len > 65535 - hdr)
		*len = 65535 - hdr;
	memset(ip, 0, hdr);
	memset(ip + 20, 1, hdr - 20); /* NOP options */
	ip[0] = (uint8_t)(0x40 | hdr / 4);
	ip[1] = tos;
	inet_wr16(ip + 2, hdr + *len);
	inet_wr16(ip + 4, s->id);
	inet_wr16(ip + 6,
		  s->off & (FZ_OFF_MASK | FZ_OFF_MF | FZ_OFF_DF | FZ_OFF_X));
	ip[8] = 64;
	ip[9] = fz_v4_proto[s->proto & 7];
	memcpy(ip + 12, (const uint8_t[]){ 10, 0, 0, 1 }, 4);
	memcpy(ip + 16, (const uint8_t[]){ 10, 0, 1, 1 }, 4);
	ip[15] = (uint8_t)(1 + (s->addr & 3));
	ip[19] = (uint8_t)(1 + (s->addr >> 2 & 3));
	return hdr;
}

/* The IPv6 header of @p s at @p ip and its extension headers, with a
 * Fragment header (offset *@p pos) if @p frag, else *@p pos 0; the payload
 * length clamped in *@p len; @return the headers' length. */
static uint32_t put_v6(const struct fz_spec *s, uint8_t *ip, uint8_t tos,
		       unsigned words, bool frag, uint32_t *len, uint32_t *pos)
{
	uint32_t hdr;

	uint8_t nh = fz_v6_nh[s->proto & 7];
	uint8_t *prev = ip + 6; /* the byte naming the next header */
	hdr = 40;
	memset(ip, 0, 40);
	ip[0] = (uint8_t)(0x60 | tos >> 4);
	ip[1] = (uint8_t)(tos << 4);
	ip[7] = 64;
	ip[8] = 0xfd;
	ip[21] = 1;
	ip[23] = s->addr & 3;
	ip[24] = 0xfd;
	ip[37] = 2;
	ip[39] = s->addr >> 2 & 3;
	for (unsigned i = 0; i < s->pad; i++) {
		*prev = 0;
		memset(ip + hdr, 0, 256);
		ip[hdr + 1] = 256 / 8 - 1;
		prev = ip + hdr;
		hdr += 256;
	}
	for (unsigned i = 0; i < words; i++) {
		unsigned sh = 2 * (i % 4);
		uint32_t l = 8 * (1 + (s->extlen >> sh & 3u));
		*prev = fz_v6_ext[s->ext >> sh & 3];
		memset(ip + hdr, 0, l);
		ip[hdr + 1] = (uint8_t)(l / 8 - 1);
		prev = ip + hdr;
		hdr += l;
	}
	if (frag) {
		uint8_t *fh = ip + hdr;
		uint32_t id = s->id * 0x01000001u;
		*prev = 44;
		fh[0] = nh;
		fh[1] = 0;
		inet_wr16(fh + 2, (uint32_t)*pos | !!(s->off & FZ_OFF_MF));
		fh[4] = (uint8_t)(id >> 24);
		fh[5] = (uint8_t)(id >> 16);
		fh[6] = (uint8_t)(id >> 8);
		fh[7] = (uint8_t)id;
		hdr += 8;
	} else {
		*prev = nh;
		*pos = 0;
	}
	if (*len > 65535 - (hdr - 40))
		*len = 65535 - (hdr - 40);
	inet_wr16(ip + 4, hdr - 40 + *len);
	return hdr;
}

/*
 * Synthesize the packet @p s describes into frame_buf: sets run.caplen
 * and run.wirelen, and taints its key unless its payload follows the
 * pattern.
 */
static void build(const struct fz_spec *s)
{
	const bool v6 = s->kind & FZ_KIND_V6;
	const bool frag = !(v6 && (s->off & FZ_OFF_X));
	const uint8_t tos =
		(uint8_t)((s->kind >> 1 & 15) << 2 | (s->proto >> 3 & 3));
	const unsigned words = s->proto >> 5;
	uint8_t *f = frame_buf;
	struct wrap wr;
	plan_wrap(s, v6, &wr);
	bool outer6 = wr.len != 0 ? wr.family == 6 : v6;
	const uint16_t ltype = outer6 ? 0x86dd : 0x0800;
	uint32_t l3 = build_link(s, f, ltype, 0);
	uint8_t *ip = f + l3 + wr.len;
	uint32_t hdr, len = s->len, pos = (s->off & FZ_OFF_MASK) * 8u;
	bool clean = s->fill == 0;

	if (!v6) {
		hdr = put_v4(s, ip, tos, words, &len);
	} else {
		hdr = put_v6(s, ip, tos, words, frag, &len, &pos);
		/* Other next headers put pattern bytes where headers go. */
		if ((s->proto & 7) >= 4)
			clean = false;
	}

	uint32_t vlan, where;
	uint16_t etype;
	(void)link_l3(run.cfg.link, f, l3 + wr.len + hdr, &where, &etype,
		      &vlan);
	uint32_t h = key_hash(v6 ? 6 : 4, ip, vlan);
	uint8_t *payload = ip + hdr;
	if (s->fill != 0)
		memset(payload, s->fill, len);
	else
		for (uint32_t p = 0; p < len; p++)
			payload[p] = pat(h, pos + p);
	if (!clean && frag)
		taint(h);

	/* Damage: lengths first, so that a lie can carry a good checksum. */
	uint8_t *lf = v6 ? ip + 4 : ip + 2;
	if (s->damage & FZ_DMG_LONGER)
		inet_wr16(lf, inet_rd16(lf) + s->delta);
	if (s->damage & FZ_DMG_SHORTER)
		inet_wr16(lf, inet_rd16(lf) - s->delta);
	if (!v6) {
		inet_wr16(ip + 10, inet_csum(ip, hdr));
		if (s->damage & FZ_DMG_CSUM)
			inet_wr16(ip + 10, inet_rd16(ip + 10) ^ 0x5555);
	}
	uint32_t total = l3 + wr.len + hdr + len;
	if (wr.len != 0)
		(void)pb_tunnel_put(&wr.t, v6 ? 6 : 4, f + l3,
				    total - l3 - wr.len);
	if (run.pppoe) /* its length */
		(void)build_link(s, f, ltype, total - l3);
	uint32_t cut = (uint32_t)(s->damage >> FZ_DMG_CUT_SHIFT) * 8;
	run.wirelen = total;
	run.caplen = cut < total ? total - cut : 0;
}

/* --- the run ------------------------------------------------------------- */

static void configure(const uint8_t *c)
{
	static const uint64_t start[5] = {
		0,
		1700000000ull * NS_PER_S,
		4294967295ull * NS_PER_S,
		UINT64_MAX - 40 * NS_PER_S,
		UINT64_MAX,
	};
	struct reasm_config *cfg = &run.cfg;

	cfg->link = fz_links[c[0] % FZ_LINK_COUNT];
	run.pppoe = (c[0] & FZ_LINK_PPPOE) && cfg->link == REASM_LINK_ETHERNET;
	cfg->decap = c[0] >> FZ_LINK_DECAP_SHIFT & 3u;
	cfg->decap_strip = (c[0] & FZ_LINK_STRIP) && cfg->decap != 0;
	run.wrap = c[0] & FZ_LINK_WRAP;
	cfg->policy = (enum reasm_policy)(c[1] % REASM_POLICY_COUNT);
	cfg->mem_high = ((c[2] & 15u) + 1) * 16384;
	cfg->mem_low = cfg->mem_high / 4 * ((c[3] & 3u) + 1);
	cfg->stripes = c[3] & 4 ? 4 : 1;
	cfg->mem_refuse = c[3] & 8;
	if (c[3] >> 4) {
		cfg->timeout_v4_ns = (c[3] >> 4) * NS_PER_S;
		cfg->timeout_v6_ns = 2 * cfg->timeout_v4_ns;
	}
	cfg->max_frags = c[4] == 255 ? REASM_MAX_FRAGS_LIMIT : c[4];
	run.now = start[c[5] % 5];
}

static void check_sum(const struct reasm_stats *st)
{
	CHECK(st->ReasmReqds == st->frags_reassembled + st->frags_dropped +
					st->frags_discarded +
					st->frags_pending);
	CHECK(st->frags_dropped ==
	      st->duplicates + st->past_end + st->refused +
		      st->frags_truncated + st->malformed + st->bad_checksum +
		      st->incomplete_chain + st->frags_too_big +
		      st->frags_no_memory);
}

/* Feed one record; the engine gets its frame in a block of exactly
 * caplen bytes. */
static void feed(struct reasm_worker *w, const uint8_t *body, size_t n)
{
	const uint8_t *src;
	struct fz_spec s;

	if (n > 0 && body[0] >= FZ_KIND_RAW) {
		src = body + 1;
		run.caplen = (uint32_t)(n - 1);
		run.wirelen = run.caplen + (body[0] & 15u) * 64;
		run.taint_all = true;
	} else {
		fz_spec_decode(&s, body, n);
		build(&s);
		if (s.kind >= FZ_KIND_OVERLAY && n > FZ_SPEC_LEN + 2) {
			size_t at = (size_t)(body[FZ_SPEC_LEN] |
					     body[FZ_SPEC_LEN + 1] << 8);
			size_t k = n - FZ_SPEC_LEN - 2;
			if (at < run.caplen) {
				if (k > run.caplen - at)
					k = run.caplen - at;
				memcpy(frame_buf + at, body + FZ_SPEC_LEN + 2,
				       k);
			}
			run.taint_all = true;
		}
		src = frame_buf;
	}

	uint8_t *f = malloc(run.caplen ? run.caplen : 1);
	CHECK(f != NULL);
	memcpy(f, src, run.caplen);
	run.frame = f;
	uint64_t before = run.outs;
	int rc = reasm_input(w, f, run.caplen, run.wirelen, run.now);
	CHECK(rc == (run.outs != before));
	CHECK(run.outs - before <= 1);
	run.frame = NULL;
	free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reasm *r;
	struct reasm_worker w;
	struct reasm_stats st, pre;

	if (size < FZ_CONFIG_LEN)
		return 0;
	memset(&run, 0, sizeof(run));
	configure(data);
	CHECK(reasm_create(&r, &run.cfg) == 0);
	CHECK(reasm_worker_init(&w, r, on_emit, NULL) == 0);

	size_t at = FZ_CONFIG_LEN;
	while (size - at >= FZ_REC_HDR) {
		size_t n = (size_t)(data[at] | data[at + 1] << 8);
		uint8_t ctl = data[at + 2];
		at += FZ_REC_HDR;
		if (n > size - at)
			n = size - at;
		uint64_t unit = ctl & FZ_CTL_SECONDS ? NS_PER_S
						     : 25 * NS_PER_MS;
		if ((ctl & FZ_CTL_BACK) == FZ_CTL_BACK)
			run.now -= 5 * NS_PER_S; /* wraps below 0 */
		else
			run.now += (ctl & FZ_CTL_ADV_MASK) * unit;
		feed(&w, data + at, n);
		at += n;
		run.records++;

		reasm_stats_read(r, &st);
		check_sum(&st);
		CHECK(st.bytes_peak >= st.bytes_held);
		if (!run.cfg.mem_refuse)
			CHECK(st.bytes_held <= 2 * run.cfg.mem_high);
		if ((ctl & FZ_CTL_EXPIRE) == FZ_CTL_EXPIRE) {
			unsigned k = reasm_expire(&w, run.now);
			reasm_stats_read(r, &pre);
			CHECK(pre.ReasmTimeout - st.ReasmTimeout == k);
			check_sum(&pre);
		}
	}

	reasm_stats_read(r, &pre);
	reasm_destroy(r, &st);
	if (fz_verbose) {
		fprintf(stderr, "link %d, policy %s, %llu records:\n",
			run.cfg.link, reasm_policy_name(run.cfg.policy),
			(unsigned long long)run.records);
		reasm_stats_summary(stderr, &st);
	}
	check_sum(&st);
	CHECK(st.packets == run.records);
	CHECK(st.frags_pending == pre.frags_pending);
	CHECK(st.datagrams_pending == pre.datagrams_pending);
	CHECK(st.emitted == run.outs);
	CHECK(st.emitted_bytes == run.out_bytes);
	CHECK(st.passed == run.passed);
	CHECK(st.ReasmOKs == run.reassembled);
	return 0;
}
