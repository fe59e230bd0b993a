/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pktbuild.c - the packet builder and checker of pktbuild.h.
 *
 * Header layouts: IPv4 RFC 791, IPv6 and its extension headers RFC 8200
 * (hop-by-hop and destination options padded with Pad1/PadN), Ethernet
 * with IEEE 802.1Q/802.1ad tags, and the Linux "cooked" capture headers
 * as libpcap documents them (LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2).
 * A builder misuse (a header that cannot be encoded) aborts: it is a bug
 * in the test, not something to report.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include "pktbuild.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what)
{
	fprintf(stderr, "pktbuild: %s\n", what);
	abort();
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		die("out of memory");
	return p;
}

void pb_fill(uint8_t *buf, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t x = (uint64_t)seed * 0x9e3779b97f4a7c15ULL +
			     (uint64_t)(i / 8 + 1) * 0xbf58476d1ce4e5b9ULL;
		x ^= x >> 31;
		x *= 0x94d049bb133111ebULL;
		x ^= x >> 29;
		buf[i] = (uint8_t)(x >> (8 * (i % 8)));
	}
}

void pb_dgram_v4(struct pb_dgram *d, int dlt, uint16_t id, uint8_t proto,
		 const uint8_t *data, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->family = 4;
	d->link.dlt = dlt;
	d->v4.src = 0xc0000201; /* 192.0.2.1 */
	d->v4.dst = 0xc6336402; /* 198.51.100.2 */
	d->v4.id = id;
	d->v4.proto = proto;
	d->v4.ttl = 64;
	d->data = data;
	d->len = len;
}

void pb_dgram_v6(struct pb_dgram *d, int dlt, uint32_t id, uint8_t proto,
		 const uint8_t *data, size_t len)
{
	static const uint8_t base[16] = { 0x20, 0x01, 0x0d, 0xb8 };

	memset(d, 0, sizeof(*d));
	d->family = 6;
	d->link.dlt = dlt;
	memcpy(d->v6.src, base, 16);
	d->v6.src[15] = 1;
	memcpy(d->v6.dst, base, 16);
	d->v6.dst[15] = 2;
	d->v6.hlim = 64;
	d->v6.id = id;
	d->v6.proto = proto;
	d->data = data;
	d->len = len;
}

size_t pb_udp_hdr(uint8_t *buf, uint16_t sport, uint16_t dport, uint16_t len)
{
	inet_wr16(buf, sport);
	inet_wr16(buf + 2, dport);
	inet_wr16(buf + 4, len);
	inet_wr16(buf + 6, 0);
	return 8;
}

size_t pb_tcp_hdr(uint8_t *buf, uint16_t sport, uint16_t dport, uint32_t seq)
{
	memset(buf, 0, 20);
	inet_wr16(buf, sport);
	inet_wr16(buf + 2, dport);
	inet_wr32(buf + 4, seq);
	buf[12] = 5 << 4; /* data offset: 5 words */
	buf[13] = 0x18;	  /* PSH, ACK */
	inet_wr16(buf + 14, 65535);
	return 20;
}

size_t pb_icmp_echo_hdr(uint8_t *buf, bool v6, uint16_t ident, uint16_t seq)
{
	buf[0] = v6 ? 128 : 8; /* echo request */
	buf[1] = 0;
	inet_wr16(buf + 2, 0);
	inet_wr16(buf + 4, ident);
	inet_wr16(buf + 6, seq);
	return 8;
}

/* --- Link layers ---------------------------------------------------------- */

int pb_link_len(const struct pb_link *l)
{
	switch (l->dlt) {
	case PB_DLT_ETHERNET:
		if (l->nvlan > PB_VLAN_MAX)
			die("more than PB_VLAN_MAX VLAN tags");
		return 14 + 4 * (int)l->nvlan + (l->pppoe ? 8 : 0);
	case PB_DLT_SLL:
		return INET_SLL_HLEN;
	case PB_DLT_SLL2:
		return INET_SLL2_HLEN;
	case PB_DLT_PPP:
		return 1;
	case PB_DLT_PPP_SERIAL:
		return 4;
	case PB_DLT_RAW:
	case PB_DLT_IPV4:
	case PB_DLT_IPV6:
		return 0;
	default:
		die("unknown link type");
	}
	return -1;
}

static uint16_t ethertype_of(int family)
{
	if (family == 4)
		return PB_ETH_IPV4;
	if (family == 6)
		return PB_ETH_IPV6;
	return (uint16_t)family;
}

/* PPP's protocol number for an EtherType. */
static uint16_t ppp_proto(uint16_t ethertype)
{
	if (ethertype == PB_ETH_IPV4)
		return 0x0021;
	if (ethertype == PB_ETH_IPV6)
		return 0x0057;
	return ethertype;
}

/* DLT_PPP: the protocol field, compressed to one byte where it can be. */
static size_t put_ppp(uint8_t *p, uint16_t proto)
{
	if (proto <= 0xff && (proto & 1)) {
		p[0] = (uint8_t)proto;
		return 1;
	}
	inet_wr16(p, proto);
	return 2;
}

/* Ethernet: addresses, tags, then the EtherType or a PPPoE session. */
static size_t put_eth(uint8_t *p, const struct pb_link *l, uint16_t type,
		      size_t l3len)
{
	size_t n = 12;

	(void)pb_link_len(l);
	if (l->macs != NULL) {
		memcpy(p, l->macs, 12);
	} else {
		memcpy(p, "\x02\x00\x00\x00\x00\x02", 6);
		memcpy(p + 6, "\x02\x00\x00\x00\x00\x00", 6);
		p[11] = l->mark;
	}
	for (unsigned i = 0; i < l->nvlan; i++, n += 4) {
		inet_wr16(p + n, l->tpid[i] ? l->tpid[i] : PB_TPID_8021Q);
		inet_wr16(p + n + 2, l->tci[i]);
	}
	if (!l->pppoe) {
		inet_wr16(p + n, type);
		return n + 2;
	}
	inet_wr16(p + n, PB_ETH_PPPOE);
	p[n + 2] = 0x11; /* version 1, type 1 */
	p[n + 3] = 0x00; /* session data */
	inet_wr16(p + n + 4, l->pppoe_session);
	inet_wr16(p + n + 6, (uint16_t)(l3len + 2)); /* modulo 2^16 */
	inet_wr16(p + n + 8, ppp_proto(type));
	return n + 10;
}

size_t pb_link_put(const struct pb_link *l, uint16_t ethertype, size_t l3len,
		   uint8_t *buf)
{
	/* The cooked headers' source address; its last byte is the mark. */
	const uint8_t mac[6] = { 0x02, 0, 0, 0, 0x01, l->mark };
	const uint8_t *ll = l->lladdr != NULL ? l->lladdr : mac;

	switch (l->dlt) {
	case PB_DLT_ETHERNET:
		return put_eth(buf, l, ethertype, l3len);
	case PB_DLT_SLL:
		return inet_put_sll(buf, ethertype, ll);
	case PB_DLT_SLL2:
		return inet_put_sll2(buf, ethertype,
				     l->ifindex ? l->ifindex : 2, ll);
	case PB_DLT_PPP:
		return put_ppp(buf, ppp_proto(ethertype));
	case PB_DLT_PPP_SERIAL:
		buf[0] = 0xff;
		buf[1] = 0x03;
		inet_wr16(buf + 2, ppp_proto(ethertype));
		return 4;
	default:
		(void)pb_link_len(l);
		return 0;
	}
}

size_t pb_link_hdr(const struct pb_link *l, int family, uint8_t *buf)
{
	return pb_link_put(l, ethertype_of(family), 0, buf);
}

static struct pb_frame *frame_alloc(size_t len)
{
	if (len > UINT32_MAX)
		die("frame too long");
	struct pb_frame *f = xmalloc(sizeof(*f) + len);
	f->caplen = (uint32_t)len;
	f->wirelen = (uint32_t)len;
	f->l3off = 0;
	return f;
}

void pb_frame_free(struct pb_frame *f)
{
	free(f);
}

void pb_frames_free(struct pb_frame **v, size_t n, bool free_array)
{
	if (v == NULL)
		return;
	for (size_t i = 0; i < n; i++) {
		free(v[i]);
		v[i] = NULL;
	}
	if (free_array)
		free(v);
}

struct pb_frame *pb_wrap(const struct pb_link *l, uint16_t ethertype,
			 const uint8_t *l3, size_t len)
{
	uint8_t hdr[PB_LINK_MAX];
	int family = ethertype == PB_ETH_IPV4	? 4
		     : ethertype == PB_ETH_IPV6 ? 6
						: ethertype;
	size_t hl = pb_link_put(l, ethertype_of(family), len, hdr);
	struct pb_frame *f = frame_alloc(hl + len);

	memcpy(f->data, hdr, hl);
	if (len)
		memcpy(f->data + hl, l3, len);
	f->l3off = (uint32_t)hl;
	return f;
}

/* --- IP headers ------------------------------------------------------------ */

static size_t ip4_hlen(const struct pb_ip4 *h)
{
	if (h->optlen % 4 || h->optlen > 40)
		die("IPv4 options: a multiple of 4, at most 40 bytes");
	return 20u + h->optlen;
}

/* The IPv4 header of @h with the flags/offset field @frag over @paylen
 * bytes of payload, at @p. */
static size_t put_ip4(uint8_t *p, const struct pb_ip4 *h, uint16_t frag,
		      size_t paylen)
{
	size_t hl = ip4_hlen(h);

	if (hl + paylen > 65535)
		die("IPv4 packet over 65535 bytes");
	p[0] = (uint8_t)(0x40 | hl / 4);
	p[1] = h->tos;
	inet_wr16(p + 2, (uint16_t)(hl + paylen));
	inet_wr16(p + 4, h->id);
	inet_wr16(p + 6, frag);
	p[8] = h->ttl;
	p[9] = h->proto;
	inet_wr16(p + 10, 0);
	inet_wr32(p + 12, h->src);
	inet_wr32(p + 16, h->dst);
	memcpy(p + 20, h->opts, h->optlen);
	uint16_t sum = inet_csum(p, hl);
	if (h->bad_checksum)
		sum = (uint16_t)(sum ^ 0x5a5a);
	inet_wr16(p + 10, sum);
	return hl;
}

static size_t ip6_exthdr_len(const struct pb_ip6 *h)
{
	if (h->hbh_len % 8 || h->dst_len % 8 || h->rt_len % 8 ||
	    h->hbh_len > 2040 || h->dst_len > 2040 || h->rt_len > 2040)
		die("IPv6 extension headers: multiples of 8, at most 2040");
	return (size_t)h->hbh_len + h->dst_len + h->rt_len;
}

/* An options header of @len bytes (a multiple of 8) with Next Header @nh,
 * padded with PadN (Pad1 where one byte is left). */
static void put_opts_hdr(uint8_t *p, size_t len, uint8_t nh)
{
	p[0] = nh;
	p[1] = (uint8_t)(len / 8 - 1);
	size_t left = len - 2;
	uint8_t *o = p + 2;
	if (left == 1) {
		o[0] = 0; /* Pad1 */
		return;
	}
	o[0] = 1; /* PadN */
	o[1] = (uint8_t)(left - 2);
	memset(o + 2, 0, left - 2);
}

/* The IPv6 header of @h and its options headers, ending in Next Header
 * @last (the Fragment header, or the upper layer of a whole datagram),
 * for @rest bytes after them, at @p. */
static size_t put_ip6(uint8_t *p, const struct pb_ip6 *h, uint8_t last,
		      size_t rest)
{
	size_t ext = ip6_exthdr_len(h);

	if (ext + rest > 65535)
		die("IPv6 payload over 65535 bytes");
	uint32_t w = 6u << 28 | (uint32_t)h->tclass << 20 | (h->flow & 0xfffff);
	inet_wr32(p, w);
	inet_wr16(p + 4, (uint16_t)(ext + rest));
	uint8_t after_rt = last;
	uint8_t after_dst = h->rt_len ? PB_IPPROTO_ROUTING : after_rt;
	uint8_t after_hbh = h->dst_len ? PB_IPPROTO_DSTOPTS : after_dst;
	p[6] = h->hbh_len ? PB_IPPROTO_HOPOPTS : after_hbh;
	p[7] = h->hlim;
	memcpy(p + 8, h->src, 16);
	memcpy(p + 24, h->dst, 16);
	size_t off = 40;
	if (h->hbh_len) {
		put_opts_hdr(p + off, h->hbh_len, after_hbh);
		off += h->hbh_len;
	}
	if (h->dst_len) {
		put_opts_hdr(p + off, h->dst_len, after_dst);
		off += h->dst_len;
	}
	if (h->rt_len) {
		memset(p + off, 0, h->rt_len);
		p[off] = after_rt;
		p[off + 1] = (uint8_t)(h->rt_len / 8 - 1);
		p[off + 2] = h->rt_type; /* segments left: 0 */
		off += h->rt_len;
	}
	return off;
}

static size_t ip_hdr_max(const struct pb_dgram *d)
{
	if (d->family == 4)
		return ip4_hlen(&d->v4);
	if (d->family == 6)
		return 40 + ip6_exthdr_len(&d->v6) + 8;
	die("family must be 4 or 6");
	return 0;
}

size_t pb_frag_room(const struct pb_dgram *d, size_t len)
{
	return (size_t)pb_link_len(&d->link) + ip_hdr_max(d) + len;
}

/* The link header of @p d for @p l3len bytes at @p buf, checking that the
 * frame fits in @p cap bytes. */
static size_t put_link(const struct pb_dgram *d, size_t l3len, uint8_t *buf,
		       size_t cap)
{
	if ((size_t)pb_link_len(&d->link) + l3len > cap)
		die("frame larger than its buffer");
	return pb_link_put(&d->link, ethertype_of(d->family), l3len, buf);
}

size_t pb_frag_into(const struct pb_dgram *d, uint32_t off,
		    const uint8_t *bytes, size_t len, bool mf, uint8_t *buf,
		    size_t cap)
{
	if (bytes == NULL) {
		if ((size_t)off + len > d->len)
			die("fragment past the datagram's data");
		bytes = d->data + off;
	}
	if (off / 8 > 8191)
		die("fragment offset past 65528");
	size_t hl = d->family == 4 ? ip4_hlen(&d->v4) : ip_hdr_max(d);
	size_t ll = put_link(d, hl + len, buf, cap);
	uint8_t *p = buf + ll;

	if (d->family == 4) {
		uint16_t frag = (uint16_t)(off / 8);
		if (mf)
			frag |= 0x2000;
		if (d->v4.df)
			frag |= 0x4000;
		hl = put_ip4(p, &d->v4, frag, len);
	} else {
		hl = put_ip6(p, &d->v6, PB_IPPROTO_FRAGMENT, 8 + len);
		uint8_t *fh = p + hl;
		fh[0] = d->v6.proto;
		fh[1] = 0;
		inet_wr16(fh + 2, (uint16_t)((off / 8) << 3 | (mf ? 1 : 0)));
		inet_wr32(fh + 4, d->v6.id);
		hl += 8;
	}
	if (len)
		memcpy(p + hl, bytes, len);
	return ll + hl + len;
}

size_t pb_whole_into(const struct pb_dgram *d, uint8_t *buf, size_t cap)
{
	size_t hl = d->family == 4 ? ip4_hlen(&d->v4)
				   : ip_hdr_max(d) - 8; /* no Fragment header */
	size_t ll = put_link(d, hl + d->len, buf, cap);
	uint8_t *p = buf + ll;

	if (d->family == 4)
		hl = put_ip4(p, &d->v4, d->v4.df ? 0x4000 : 0, d->len);
	else
		hl = put_ip6(p, &d->v6, d->v6.proto, d->len);
	if (d->len)
		memcpy(p + hl, d->data, d->len);
	return ll + hl + d->len;
}

/* A malloc'd frame of @p room bytes for a packet of @p d. */
static struct pb_frame *frame_of(const struct pb_dgram *d, size_t room)
{
	struct pb_frame *f = frame_alloc(room);

	f->l3off = (uint32_t)pb_link_len(&d->link);
	return f;
}

struct pb_frame *pb_frag(const struct pb_dgram *d, uint32_t off,
			 const uint8_t *bytes, size_t len, bool mf)
{
	size_t room = pb_frag_room(d, len);
	struct pb_frame *f = frame_of(d, room);

	f->caplen = f->wirelen =
		(uint32_t)pb_frag_into(d, off, bytes, len, mf, f->data, room);
	return f;
}

struct pb_frame *pb_whole(const struct pb_dgram *d)
{
	size_t room = pb_frag_room(d, d->len);
	struct pb_frame *f = frame_of(d, room);

	f->caplen = f->wirelen = (uint32_t)pb_whole_into(d, f->data, room);
	return f;
}

void pb_split(const struct pb_dgram *d, const uint32_t *starts, size_t n,
	      struct pb_frame **out)
{
	if (n == 0 || starts[0] != 0)
		die("pb_split: the first fragment starts at 0");
	for (size_t i = 0; i < n; i++) {
		uint32_t end = i + 1 < n ? starts[i + 1] : (uint32_t)d->len;
		if (end < starts[i] || end > d->len)
			die("pb_split: boundaries out of order");
		out[i] =
			pb_frag(d, starts[i], NULL, end - starts[i], i + 1 < n);
	}
}

struct pb_frame **pb_split_every(const struct pb_dgram *d, size_t chunk,
				 size_t *n)
{
	if (chunk == 0 || chunk % 8)
		die("pb_split_every: chunk must be a multiple of 8");
	size_t count = d->len ? (d->len + chunk - 1) / chunk : 1;
	struct pb_frame **v = xmalloc(count * sizeof(*v));

	for (size_t i = 0; i < count; i++) {
		size_t off = i * chunk;
		size_t len = d->len - off < chunk ? d->len - off : chunk;
		v[i] = pb_frag(d, (uint32_t)off, NULL, len, i + 1 < count);
	}
	*n = count;
	return v;
}

/* --- Tunnels --------------------------------------------------------------- */

/* Bytes of GRE header (and PPP inside it) of @p t. */
static size_t gre_len(const struct pb_tunnel *t)
{
	size_t n = 4, ppp = t->ppp1 ? 1 : 4;

	switch (t->kind) {
	case PB_TUN_IPIP:
		return 0;
	case PB_TUN_PPTP:
		n = 8u + (t->gre_flags & PB_GRE_S ? 4u : 0u) +
		    (t->gre_flags & PB_GRE_A ? 4u : 0u);
		return n + ppp;
	default:
		n += (t->gre_flags & PB_GRE_C ? 4u : 0u) +
		     (t->gre_flags & PB_GRE_K ? 4u : 0u) +
		     (t->gre_flags & PB_GRE_S ? 4u : 0u);
		return t->kind == PB_TUN_GRE_PPP ? n + ppp : n;
	}
}

size_t pb_tunnel_len(const struct pb_tunnel *t, int family)
{
	(void)family;
	if (t->outer != 4 && t->outer != 6)
		die("tunnel: the outer family must be 4 or 6");
	return (t->outer == 4 ? 20u : 40u) + gre_len(t);
}

/* PPP's header inside GRE for an inner packet of @p family. */
static size_t put_gre_ppp(uint8_t *p, const struct pb_tunnel *t, int family)
{
	uint16_t proto = ppp_proto(ethertype_of(family));

	if (t->ppp1)
		return put_ppp(p, proto);
	p[0] = 0xff;
	p[1] = 0x03;
	inet_wr16(p + 2, proto);
	return 4;
}

/* The GRE header of @p t at @p g, @p len bytes (itself included) to the
 * packet's end. */
static void put_gre(uint8_t *g, const struct pb_tunnel *t, int family,
		    size_t len)
{
	uint16_t f = t->gre_flags;
	size_t n = 4;

	if (t->kind == PB_TUN_PPTP) {
		inet_wr16(g, (uint16_t)(PB_GRE_K | (f & (PB_GRE_S | PB_GRE_A)) |
					1));
		inet_wr16(g + 2, 0x880b);
		inet_wr16(g + 6, t->call_id);
		n = 8;
	} else {
		inet_wr16(g, (uint16_t)(f & (PB_GRE_C | PB_GRE_K | PB_GRE_S)));
		inet_wr16(g + 2, t->kind == PB_TUN_GRE_PPP
					 ? 0x880b
					 : ethertype_of(family));
		if (f & PB_GRE_C) {
			memset(g + n, 0, 4);
			n += 4;
		}
		if (f & PB_GRE_K) {
			inet_wr32(g + n, t->key);
			n += 4;
		}
	}
	if (f & PB_GRE_S) {
		inet_wr32(g + n, t->seq);
		n += 4;
	}
	if (t->kind == PB_TUN_PPTP && (f & PB_GRE_A)) {
		inet_wr32(g + n, t->ack);
		n += 4;
	}
	if (t->kind != PB_TUN_GRE)
		(void)put_gre_ppp(g + n, t, family);
	if (t->kind == PB_TUN_PPTP)
		inet_wr16(g + 4, (uint16_t)(len - n));
	else if (f & PB_GRE_C)
		inet_wr16(g + 4, inet_csum(g, len));
}

size_t pb_tunnel_put(const struct pb_tunnel *t, int family, uint8_t *buf,
		     size_t len)
{
	size_t tl = pb_tunnel_len(t, family), total = tl + len;
	uint8_t proto = t->kind != PB_TUN_IPIP ? 47 : family == 4 ? 4 : 41;

	/* Lengths modulo 2^16: too long a packet gets wrong ones. */
	if (t->outer == 4) {
		struct pb_ip4 h;
		memset(&h, 0, sizeof(h));
		h.src = inet_rd32(t->src);
		h.dst = inet_rd32(t->dst);
		h.id = t->ip_id;
		h.proto = proto;
		h.ttl = 64;
		(void)put_ip4(buf, &h, 0, 0);
		inet_wr16(buf + 2, (uint16_t)total);
		inet_wr16(buf + 10, 0);
		inet_wr16(buf + 10, inet_csum(buf, 20));
	} else {
		struct pb_ip6 h;
		memset(&h, 0, sizeof(h));
		memcpy(h.src, t->src, 16);
		memcpy(h.dst, t->dst, 16);
		h.hlim = 64;
		(void)put_ip6(buf, &h, proto, 0);
		inet_wr16(buf + 4, (uint16_t)(total - 40));
	}
	if (t->kind != PB_TUN_IPIP) {
		size_t at = t->outer == 4 ? 20 : 40;
		put_gre(buf + at, t, family, total - at);
	}
	return tl;
}

/* --- Checking ------------------------------------------------------------- */

static bool fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (whylen == 0)
		return false;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return false;
}

static bool check_ip4(const uint8_t *ip, size_t len, const struct pb_dgram *w,
		      char *why, size_t whylen)
{
	size_t want_hl = ip4_hlen(&w->v4);

	if (len < 20)
		return fail(why, whylen,
			    "IPv4: %zu bytes, no room for a header", len);
	if (ip[0] >> 4 != 4)
		return fail(why, whylen, "IPv4: version %u", ip[0] >> 4);
	size_t hl = (size_t)(ip[0] & 15) * 4;
	if (hl != want_hl)
		return fail(why, whylen, "IPv4: header length %zu, want %zu",
			    hl, want_hl);
	if (len < hl)
		return fail(why, whylen, "IPv4: header cut at %zu", len);
	size_t tot = inet_rd16(ip + 2);
	if (tot != hl + w->len)
		return fail(why, whylen, "IPv4: total length %zu, want %zu",
			    tot, hl + w->len);
	if (tot != len)
		return fail(why, whylen,
			    "IPv4: total length %zu but %zu bytes follow the "
			    "link header",
			    tot, len);
	if (inet_csum(ip, hl) != 0)
		return fail(why, whylen, "IPv4: header checksum 0x%04x wrong",
			    inet_rd16(ip + 10));
	uint16_t frag = inet_rd16(ip + 6);
	if (frag & 0x2000)
		return fail(why, whylen, "IPv4: MF set");
	if (frag & 0x1fff)
		return fail(why, whylen, "IPv4: fragment offset %u, want 0",
			    (frag & 0x1fff) * 8u);
	if (frag & 0x8000)
		return fail(why, whylen, "IPv4: reserved flag set");
	if (!!(frag & 0x4000) != w->v4.df)
		return fail(why, whylen, "IPv4: DF %s, want %s",
			    frag & 0x4000 ? "set" : "clear",
			    w->v4.df ? "set" : "clear");
	if (ip[1] != w->v4.tos)
		return fail(why, whylen,
			    "IPv4: TOS 0x%02x (ECN %u), want 0x%02x (ECN %u)",
			    ip[1], ip[1] & 3u, w->v4.tos, w->v4.tos & 3u);
	if (inet_rd16(ip + 4) != w->v4.id)
		return fail(why, whylen, "IPv4: id %u, want %u",
			    inet_rd16(ip + 4), w->v4.id);
	if (ip[9] != w->v4.proto)
		return fail(why, whylen, "IPv4: protocol %u, want %u", ip[9],
			    w->v4.proto);
	return true;
}

static bool is_ext6(uint8_t nh)
{
	return nh == PB_IPPROTO_HOPOPTS || nh == PB_IPPROTO_DSTOPTS ||
	       nh == PB_IPPROTO_ROUTING || nh == PB_IPPROTO_FRAGMENT;
}

static bool check_ip6(const uint8_t *ip, size_t len, const struct pb_dgram *w,
		      char *why, size_t whylen)
{
	size_t ext = ip6_exthdr_len(&w->v6);

	if (len < 40)
		return fail(why, whylen,
			    "IPv6: %zu bytes, no room for a header", len);
	if (ip[0] >> 4 != 6)
		return fail(why, whylen, "IPv6: version %u", ip[0] >> 4);
	size_t plen = inet_rd16(ip + 4);
	if (plen != ext + w->len)
		return fail(why, whylen, "IPv6: payload length %zu, want %zu",
			    plen, ext + w->len);
	if (40 + plen != len)
		return fail(why, whylen,
			    "IPv6: payload length %zu but %zu bytes follow the "
			    "IPv6 header",
			    plen, len - 40);
	uint8_t tc = (uint8_t)(inet_rd32(ip) >> 20);
	if (tc != w->v6.tclass)
		return fail(why, whylen,
			    "IPv6: traffic class 0x%02x (ECN %u), want 0x%02x "
			    "(ECN %u)",
			    tc, tc & 3u, w->v6.tclass, w->v6.tclass & 3u);
	/* Walk the chain as far as the headers of @w go. */
	uint8_t nh = ip[6];
	size_t off = 40;
	unsigned hops = 0;
	while (off < 40 + ext && is_ext6(nh)) {
		if (nh == PB_IPPROTO_FRAGMENT)
			return fail(why, whylen,
				    "IPv6: a Fragment header at offset %zu",
				    off);
		if (off + 8 > len)
			return fail(why, whylen, "IPv6: header chain cut");
		nh = ip[off];
		off += ((size_t)ip[off + 1] + 1) * 8;
		hops++;
	}
	if (off != 40 + ext)
		return fail(why, whylen,
			    "IPv6: extension headers end at %zu, want %zu", off,
			    40 + ext);
	if (nh == PB_IPPROTO_FRAGMENT)
		return fail(why, whylen,
			    "IPv6: a Fragment header after %u extension "
			    "headers",
			    hops);
	if (nh != w->v6.proto)
		return fail(why, whylen,
			    "IPv6: Next Header %u after %u extension headers, "
			    "want %u (not patched?)",
			    nh, hops, w->v6.proto);
	return true;
}

bool pb_check(const uint8_t *frame, size_t len, const struct pb_dgram *want,
	      char *why, size_t whylen)
{
	struct pb_frame *whole = pb_whole(want);
	size_t ll = whole->l3off;
	bool ok = false;

	if (len < ll) {
		fail(why, whylen,
		     "frame of %zu bytes, shorter than its link "
		     "header (%zu)",
		     len, ll);
		goto out;
	}
	if (memcmp(frame, whole->data, ll) != 0) {
		size_t i = 0;
		while (frame[i] == whole->data[i])
			i++;
		fail(why, whylen,
		     "link header differs at byte %zu: 0x%02x, want 0x%02x", i,
		     frame[i], whole->data[i]);
		goto out;
	}
	if (want->family == 4)
		ok = check_ip4(frame + ll, len - ll, want, why, whylen);
	else
		ok = check_ip6(frame + ll, len - ll, want, why, whylen);
	if (!ok)
		goto out;
	ok = false;
	if (len != whole->caplen) {
		fail(why, whylen, "frame of %zu bytes, want %u", len,
		     whole->caplen);
		goto out;
	}
	for (size_t i = 0; i < len; i++) {
		if (frame[i] != whole->data[i]) {
			size_t ipoff = i - ll;
			fail(why, whylen,
			     "byte %zu (IP offset %zu) is 0x%02x, want 0x%02x",
			     i, ipoff, frame[i], whole->data[i]);
			goto out;
		}
	}
	ok = true;
out:
	pb_frame_free(whole);
	return ok;
}
