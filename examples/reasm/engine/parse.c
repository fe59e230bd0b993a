/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parse.c - what a frame is: the link layer (Ethernet with its VLAN tags,
 * Linux cooked captures, PPP, PPPoE, raw IP), the IPv4 header, the IPv6
 * header chain up to the Fragment header, and the GRE and IP-in-IP
 * tunnels that --decap opens. parse_frame() fills a struct frag; nothing
 * here touches a table or writes output.
 *
 * References: RFC 791, 1661, 2516, 2637, 2784, 2890, 8200; Linux
 * net/ipv6/reassembly.c and ip6_input.c (the chains a host refuses).
 */
#define _GNU_SOURCE
#include "engine_int.h"

#include <string.h>

/* The VLAN tags of a frame, as the key holds them. */
struct vlan_key {
	uint32_t vlan;
	uint32_t more[2];
};

/* parse_link's results besides 1 (IP or another EtherType) and 0 (not
 * readable as IP: passed without a note). */
enum { LINK_VLAN_DEEP = -1, LINK_BAD = -2, LINK_PPP_OTHER = -3 };

/* A PPP header at @p off: the address and control bytes 0xff 0x03 if
 * present, then the protocol, 1 byte when compressed (odd) or 2 (the
 * high byte even, the low one odd: RFC 1661). 0x0021 is IPv4, 0x0057
 * IPv6. @return 1 (*l3, *etype set), LINK_BAD or LINK_PPP_OTHER. */
static int parse_ppp(const uint8_t *f, uint32_t caplen, uint32_t off,
		     uint32_t *l3, uint16_t *etype, struct encap *e)
{
	uint16_t proto;
	uint32_t plen = 2;

	if (off + 2 <= caplen && f[off] == 0xff && f[off + 1] == 0x03)
		off += 2;
	if (off + 1 > caplen)
		return LINK_BAD;
	if (f[off] & 1) {
		proto = f[off];
		plen = 1;
	} else {
		if (off + 2 > caplen || !(f[off + 1] & 1))
			return LINK_BAD;
		proto = inet_rd16(f + off);
	}
	e->type_off = off;
	e->type_kind = plen == 1 ? TYPE_PPP1 : TYPE_PPP2;
	*l3 = off + plen;
	if (proto == 0x0021)
		*etype = INET_ETH_IPV4;
	else if (proto == 0x0057)
		*etype = INET_ETH_IPV6;
	else
		return LINK_PPP_OTHER;
	return 1;
}

/* A PPPoE session header (RFC 2516) at @p off, then its PPP header. */
static int parse_pppoe(const uint8_t *f, uint32_t caplen, uint32_t off,
		       uint32_t *l3, uint16_t *etype, struct encap *e)
{
	if (off + 6 > caplen || f[off] != 0x11 || f[off + 1] != 0x00 ||
	    inet_rd16(f + off + 4) < 2)
		return LINK_BAD;
	e->pppoe = off;
	return parse_ppp(f, caplen, off + 6, l3, etype, e);
}

/* Ethernet: any stack of 802.1Q (0x8100) and 802.1ad (0x88a8) tags up to
 * REASM_MAX_VLAN_TAGS (the count and every VID are part of the key),
 * then IP, a PPPoE session or anything else. */
static int parse_ether(const uint8_t *f, uint32_t caplen, uint32_t *l3,
		       uint16_t *etype, struct vlan_key *vk, struct encap *e)
{
	uint32_t off = 12;
	unsigned tags = 0;

	if (caplen < 14)
		return 0;
	*etype = inet_rd16(f + off);
	while (*etype == 0x8100 || *etype == 0x88a8) {
		if (tags == REASM_MAX_VLAN_TAGS)
			return LINK_VLAN_DEEP;
		if (caplen < off + 6)
			return 0;
		uint32_t vid = inet_rd16(f + off + 2) & 0x0fffu;
		if (tags < 2) {
			vk->vlan |= vid << (12 * tags);
		} else {
			/* Tags 3..7: 5 VIDs of 12 bits in 64. */
			unsigned bit = 12 * (tags - 2);
			uint64_t m =
				((uint64_t)vk->more[1] << 32 | vk->more[0]) |
				(uint64_t)vid << bit;
			vk->more[0] = (uint32_t)m;
			vk->more[1] = (uint32_t)(m >> 32);
		}
		tags++;
		off += 4;
		*etype = inet_rd16(f + off);
	}
	vk->vlan |= tags << 24;
	if (*etype == 0x8864)
		return parse_pppoe(f, caplen, off + 2, l3, etype, e);
	e->type_off = off;
	e->type_kind = TYPE_ETHER;
	*l3 = off + 2;
	return 1;
}

/* Link layer: the offset of the IP header and the EtherType (PPP's
 * protocols given as the EtherTypes of IPv4 and IPv6), and in @p e where
 * the link's type field and any PPPoE header are. @return 1; 0 if the
 * frame is not readable as IP; LINK_VLAN_DEEP, LINK_BAD (a PPP or PPPoE
 * header cut short or broken), LINK_PPP_OTHER (PPP, not IP). */
static int parse_link(int link, const uint8_t *f, uint32_t caplen, uint32_t *l3,
		      uint16_t *etype, struct vlan_key *vk, struct encap *e)
{
	memset(vk, 0, sizeof(*vk));
	memset(e, 0, sizeof(*e));
	switch (link) {
	case REASM_LINK_ETHERNET:
		return parse_ether(f, caplen, l3, etype, vk, e);
	case REASM_LINK_PPP:
	case REASM_LINK_PPP_SERIAL:
		return parse_ppp(f, caplen, 0, l3, etype, e);
	case REASM_LINK_SLL:
		if (caplen < INET_SLL_HLEN)
			return 0;
		*etype = inet_rd16(f + 14);
		*l3 = INET_SLL_HLEN;
		e->type_off = 14;
		e->type_kind = TYPE_ETHER;
		return 1;
	case REASM_LINK_SLL2:
		if (caplen < INET_SLL2_HLEN)
			return 0;
		*etype = inet_rd16(f);
		*l3 = INET_SLL2_HLEN;
		e->type_kind = TYPE_ETHER; /* at offset 0 */
		return 1;
	case REASM_LINK_RAW:
	case REASM_LINK_IPV4:
	case REASM_LINK_IPV6:
		if (caplen < 1)
			return 0;
		*etype = (f[0] >> 4) == 6 ? 0x86dd : 0x0800;
		*l3 = 0;
		e->type_kind = link == REASM_LINK_RAW ? TYPE_NONE : TYPE_FIXED;
		return 1;
	default:
		return 0;
	}
}

static enum parse_result parse_v4(struct frag *fr, const uint8_t *ip,
				  uint32_t avail)
{
	if (avail < 20)
		return P_PASS;
	uint32_t ihl = (uint32_t)(ip[0] & 15) * 4;
	uint32_t tot = inet_rd16(ip + 2);
	uint16_t fo = inet_rd16(ip + 6);

	if ((ip[0] >> 4) != 4 || ihl < 20 || tot < ihl)
		return P_PASS; /* not IPv4 we can read: not ours to judge */
	if ((fo & 0x3fff) == 0)
		return P_PASS; /* MF clear, offset 0: not a fragment */
	fr->is_frag = true;
	fr->family = 4;
	if (avail < tot || avail < ihl)
		return fr->truncated ? P_TRUNCATED : P_MALFORMED;
	if (inet_csum(ip, ihl) != 0)
		return P_BADSUM;
	fr->hdr_len = ihl;
	fr->ip_len = tot;
	fr->mf = (fo & 0x2000) != 0;
	fr->df = (fo & 0x4000) != 0;
	fr->offset = (uint32_t)(fo & 0x1fff) * 8;
	fr->len = tot - ihl;
	fr->payload = ip + ihl;
	fr->tos = ip[1];
	memcpy(fr->key.addr, ip + 12, 8); /* src, dst */
	fr->key.id = inet_rd16(ip + 4);
	fr->key.proto = ip[9];
	fr->key.family = 4;
	return P_FRAG;
}

#define V6_NOT_EXT UINT32_MAX

/* The length of the IPv6 extension header @p nh at p[off] (@p n bytes in
 * all): 0 if it is cut short, V6_NOT_EXT if @p nh is none of the headers
 * a chain walk skips (hop-by-hop, routing, destination options, mobility,
 * AH). */
static uint32_t v6_ext_len(const uint8_t *p, uint32_t n, uint32_t off,
			   uint8_t nh)
{
	switch (nh) {
	case 0:	  /* hop-by-hop (misplaced, but skippable) */
	case 43:  /* routing */
	case 60:  /* destination options */
	case 135: /* mobility */
		return off + 2 <= n ? ((uint32_t)p[off + 1] + 1) * 8 : 0;
	case 51: /* AH */
		return off + 2 <= n ? ((uint32_t)p[off + 1] + 2) * 4 : 0;
	default:
		return V6_NOT_EXT;
	}
}

/* Does the first fragment's payload at @p p (@p n bytes), starting with
 * header @p nh, hold every header through the upper-layer one? As Linux's
 * ipv6frag_thdr_truncated(): TCP 20, UDP 8, ICMPv6 8, others 1 byte. */
REASM_INTERNAL bool v6_chain_complete(const uint8_t *p, uint32_t n, uint8_t nh)
{
	uint32_t off = 0;

	for (unsigned hops = 0; hops < 32; hops++) {
		uint32_t need = v6_ext_len(p, n, off, nh);

		if (need == V6_NOT_EXT) {
			switch (nh) {
			case 44: /* another Fragment header */
				if (off + 8 > n)
					return false;
				if (inet_rd16(p + off + 2) & 0xfff8)
					return true; /* Linux gives up here */
				need = 8;
				break;
			case 59: /* no next header */
				return true;
			case 6:
				return off + 20 <= n;
			case 17:
			case 58:
				return off + 8 <= n;
			default:
				return off + 1 <= n;
			}
		}
		if (need == 0 || off + need > n)
			return false;
		nh = p[off];
		off += need;
	}
	return false;
}

/* Is header @p nh at p[off] one a Linux host refuses in a chain, before
 * or after the Fragment header? A Hop-by-Hop header anywhere but right
 * after the IPv6 header (@p first: this one is; ip6_protocol_deliver_rcu()
 * finds no handler for it and sends Parameter Problem), or a Segment
 * Routing header, routing type 4, which ipv6_srh_rcv() drops while
 * seg6_enabled is 0, the default. */
static bool v6_ext_refused(const uint8_t *p, uint32_t n, uint32_t off,
			   uint8_t nh, bool first)
{
	if (nh == 0)
		return !first;
	return nh == 43 && off + 3 <= n && p[off + 2] == 4;
}

/* What v6_chain_find() looks for. */
enum v6_look {
	V6_LOOK_FRAG,	 /* a Fragment header */
	V6_LOOK_REFUSED, /* a header Linux refuses (v6_ext_refused()) */
};

/* Does the header chain at @p p (@p n bytes), starting with header @p nh
 * (@p first: right after the IPv6 header), hold the header @p look names
 * before its upper-layer header (or, for V6_LOOK_REFUSED, before a
 * Fragment header: what follows a nested one belongs to the inner
 * fragment)? */
static bool v6_chain_find(const uint8_t *p, uint32_t n, uint8_t nh, bool first,
			  enum v6_look look)
{
	uint32_t off = 0;

	for (unsigned hops = 0; hops < 32; hops++, first = false) {
		uint32_t need;

		if (look == V6_LOOK_FRAG ? nh == 44
					 : v6_ext_refused(p, n, off, nh, first))
			return true;
		need = v6_ext_len(p, n, off, nh);
		if (need == V6_NOT_EXT || need == 0 || off + need > n)
			return false;
		nh = p[off];
		off += need;
	}
	return false;
}

/* Does the header chain at @p p (@p n bytes), starting with header @p nh,
 * hold a Fragment header before its upper-layer header? That is a
 * Fragment header nested in the fragmentable part of another one: Linux
 * discards such a packet once the outer one is processed
 * (IP6SKB_FRAGMENTED set, then ipv6_frag_rcv() sends Parameter Problem). */
REASM_INTERNAL bool v6_nested_frag(const uint8_t *p, uint32_t n, uint8_t nh)
{
	return v6_chain_find(p, n, nh, false, V6_LOOK_FRAG);
}

/* An IPv6 datagram whose IPv6 header and unfragmentable headers are the
 * @p hlen bytes at @p ip, and whose fragmentable part (@p n bytes at
 * @p p) starts with header @p nh: does a Linux host refuse a header of
 * it? Each fragment carries the unfragmentable part, and Linux refuses
 * each one that holds such a header; the engine judges the offset-0
 * fragment's. */
REASM_INTERNAL bool v6_refused(const uint8_t *ip, uint32_t hlen,
			       const uint8_t *p, uint32_t n, uint8_t nh)
{
	return v6_chain_find(ip + 40, hlen - 40, ip[6], true,
			     V6_LOOK_REFUSED) ||
	       v6_chain_find(p, n, nh, false, V6_LOOK_REFUSED);
}

static enum parse_result parse_v6(struct frag *fr, const uint8_t *ip,
				  uint32_t avail)
{
	if (avail < 40 || (ip[0] >> 4) != 6)
		return P_PASS;
	uint32_t plen = inet_rd16(ip + 4);
	uint32_t off = 40, nh_off = 6;
	uint8_t nh = ip[6];

	if (plen == 0)
		return P_PASS; /* jumbogram or garbage: not a fragment we know */
	/* Headers that may precede the Fragment header. */
	while (nh == 0 || nh == 43 || nh == 60) {
		if (off + 2 > avail || off + 2 > 40 + plen)
			return P_PASS;
		uint32_t l = ((uint32_t)ip[off + 1] + 1) * 8;
		nh_off = off;
		nh = ip[off];
		off += l;
	}
	if (nh != 44 || off + 8 > 40 + plen)
		return P_PASS;
	fr->is_frag = true;
	fr->family = 6;
	if (avail < 40 + plen || avail < off + 8)
		return fr->truncated ? P_TRUNCATED : P_MALFORMED;
	const uint8_t *fh = ip + off;
	uint16_t fo = inet_rd16(fh + 2);
	fr->hdr_len = off;
	fr->fh_off = off;
	fr->nh_off = nh_off;
	fr->ip_len = 40 + plen;
	fr->v6_nexthdr = fh[0];
	fr->offset = fo & 0xfff8u;
	fr->mf = (fo & 1) != 0;
	fr->len = 40 + plen - (off + 8);
	fr->payload = fh + 8;
	fr->tos = (uint8_t)(((ip[0] & 15) << 4) | (ip[1] >> 4));
	memcpy(fr->key.addr, ip + 8, 32); /* src, dst */
	fr->key.id = inet_rd32(fh + 4);
	fr->key.family = 6;
	return P_FRAG;
}

/* A GRE header (RFC 2784, 2890; version 1: RFC 2637) at @p g, @p n bytes
 * of the outer packet's payload: its length in e->gre_hlen and the inner
 * packet's EtherType (PPP's IP as IP's) and offset from @p g.
 * @return 1; 0 for a protocol not opened (passed as it is); LINK_BAD;
 * LINK_PPP_OTHER. */
static int parse_gre(const uint8_t *g, uint32_t n, uint32_t *inner,
		     uint16_t *etype, struct encap *e)
{
	if (n < 4)
		return LINK_BAD;
	uint16_t flags = inet_rd16(g);
	uint16_t proto = inet_rd16(g + 2);
	uint32_t hl;

	switch (flags & 7) {
	case 0: /* C, K, S; routing and the other reserved bits clear */
		if (flags & 0x4ff8)
			return LINK_BAD;
		hl = 4 + (flags & 0x8000 ? 4 : 0) + (flags & 0x2000 ? 4 : 0) +
		     (flags & 0x1000 ? 4 : 0);
		break;
	case 1: /* PPTP: K set (length and call ID), S and A optional */
		if ((flags & ~0x3087u) || !(flags & 0x2000) || proto != 0x880b)
			return LINK_BAD;
		hl = 8 + (flags & 0x1000 ? 4 : 0) + (flags & 0x0080 ? 4 : 0);
		break;
	default:
		return LINK_BAD;
	}
	if (n < hl)
		return LINK_BAD;
	e->gre_hlen = hl;
	e->gre_flags = flags;
	switch (proto) {
	case INET_ETH_IPV4:
	case INET_ETH_IPV6:
		*etype = proto;
		*inner = hl;
		return 1;
	case 0x880b: {
		struct encap pe = { 0 }; /* the link's type field stays */
		return parse_ppp(g, n, hl, inner, etype, &pe);
	}
	default:
		return 0;
	}
}

/*
 * @p fr's IP packet at @p ip (@p avail bytes captured), not a fragment:
 * when it is the whole outer packet of a tunnel that r->cfg.decap opens,
 * the inner packet's offset in the frame and EtherType, with the outer
 * headers noted in fr->enc. @return 1; 0 if it is not such a packet;
 * LINK_BAD (a broken tunnel header, an outer length past the frame, a
 * wrong outer IPv4 header checksum); LINK_PPP_OTHER.
 */
static int parse_tunnel(const struct reasm *r, struct frag *fr,
			const uint8_t *ip, uint32_t avail, uint16_t etype,
			uint32_t *inner, uint16_t *inner_etype)
{
	uint32_t hl, end;
	uint8_t proto;

	if (etype == INET_ETH_IPV4) {
		if (avail < 20 || (ip[0] >> 4) != 4)
			return 0;
		hl = (uint32_t)(ip[0] & 15) * 4;
		end = inet_rd16(ip + 2);
		if (hl < 20 || end < hl || (inet_rd16(ip + 6) & 0x3fff))
			return 0;
		proto = ip[9];
	} else if (etype == INET_ETH_IPV6) {
		if (avail < 40 || (ip[0] >> 4) != 6 || inet_rd16(ip + 4) == 0)
			return 0;
		end = 40 + inet_rd16(ip + 4);
		hl = 40;
		proto = ip[6];
		for (unsigned hops = 0;
		     proto == 0 || proto == 43 || proto == 60; hops++) {
			if (hops == 8 || hl + 2 > avail || hl + 2 > end)
				return 0;
			proto = ip[hl];
			hl += ((uint32_t)ip[hl + 1] + 1) * 8;
		}
		if (hl > end)
			return 0;
	} else {
		return 0;
	}
	bool gre = proto == 47 && (r->cfg.decap & REASM_DECAP_GRE);
	bool ipip = (proto == 4 || proto == 41) &&
		    (r->cfg.decap & REASM_DECAP_IPIP);
	if (!gre && !ipip)
		return 0;
	if (avail < end) {
		if (!fr->truncated)
			return LINK_BAD; /* the outer header claims more */
		end = avail;
	}
	if (end < hl)
		return LINK_BAD;
	/* A host drops an outer IPv4 header with a wrong checksum. */
	if (etype == INET_ETH_IPV4 && inet_csum(ip, hl) != 0)
		return LINK_BAD;
	fr->enc.outer = fr->l3;
	fr->enc.outer_family = etype == INET_ETH_IPV4 ? 4 : 6;
	if (ipip) {
		*inner = fr->l3 + hl;
		*inner_etype = proto == 4 ? INET_ETH_IPV4 : INET_ETH_IPV6;
		return 1;
	}
	uint32_t in;
	int rc = parse_gre(ip + hl, end - hl, &in, inner_etype, &fr->enc);
	if (rc <= 0)
		return rc;
	fr->enc.gre = fr->l3 + hl;
	*inner = fr->l3 + hl + in;
	return 1;
}

static enum parse_result parse_ip(struct frag *fr, uint16_t etype,
				  uint32_t avail)
{
	const uint8_t *ip = fr->frame + fr->l3;

	if (etype == INET_ETH_IPV4)
		return parse_v4(fr, ip, avail);
	if (etype == INET_ETH_IPV6)
		return parse_v6(fr, ip, avail);
	return P_PASS;
}

/* What @p fr (frame, caplen, truncated set) holds: the link, VLAN tags
 * and, with r->cfg.decap, a tunnel opened; the IP header read into @p fr.
 * P_PASS also sets fr->note where a counter says why. */
REASM_INTERNAL enum parse_result parse_frame(const struct reasm *r,
					     struct frag *fr)
{
	uint16_t etype = 0;
	struct vlan_key vk;
	int rc = parse_link(r->cfg.link, fr->frame, fr->caplen, &fr->l3, &etype,
			    &vk, &fr->enc);

	if (rc <= 0) {
		fr->note = rc == LINK_VLAN_DEEP	  ? NOTE_VLAN_DEEP
			   : rc == LINK_BAD	  ? NOTE_BAD_LINK
			   : rc == LINK_PPP_OTHER ? NOTE_PPP_OTHER
						  : NOTE_NONE;
		return P_PASS;
	}
	fr->key.vlan = vk.vlan;
	fr->key.vlan_more[0] = vk.more[0];
	fr->key.vlan_more[1] = vk.more[1];
	uint32_t avail = fr->caplen - fr->l3;
	enum parse_result res = parse_ip(fr, etype, avail);
	if (res != P_PASS || fr->is_frag || r->cfg.decap == 0)
		return res;

	uint32_t inner, outer = fr->l3;
	uint16_t inner_etype;
	rc = parse_tunnel(r, fr, fr->frame + fr->l3, avail, etype, &inner,
			  &inner_etype);
	if (rc <= 0) {
		fr->note = rc == LINK_BAD	  ? NOTE_BAD_TUNNEL
			   : rc == LINK_PPP_OTHER ? NOTE_PPP_OTHER
						  : NOTE_NONE;
		memset(&fr->enc, 0, sizeof(fr->enc));
		return P_PASS;
	}
	/* The inner packet ends where the outer one does (or the capture). */
	uint32_t outer_end = fr->caplen;
	if (fr->enc.outer_family == 4)
		outer_end = fr->l3 + inet_rd16(fr->frame + fr->l3 + 2);
	else
		outer_end = fr->l3 + 40 + inet_rd16(fr->frame + fr->l3 + 4);
	if (outer_end > fr->caplen)
		outer_end = fr->caplen;
	fr->l3 = inner;
	res = parse_ip(fr, inner_etype,
		       outer_end > inner ? outer_end - inner : 0);
	if (res == P_PASS) {
		/* Not a fragment inside: the frame passes as it is. */
		memset(&fr->enc, 0, sizeof(fr->enc));
		fr->l3 = outer;
	}
	return res;
}

/* The DSCP of the IP header of the @p n-byte frame @p f, for a frame
 * passed through; 0 where the link holds no IP header. */
REASM_INTERNAL uint8_t dscp_of(const struct reasm *r, const uint8_t *f,
			       uint32_t n)
{
	uint32_t l3;
	uint16_t etype;
	struct vlan_key vk;
	struct encap e;

	if (parse_link(r->cfg.link, f, n, &l3, &etype, &vk, &e) <= 0 ||
	    l3 + 2 > n)
		return 0;
	if (etype == 0x0800 && (f[l3] >> 4) == 4)
		return f[l3 + 1] >> 2;
	if (etype == 0x86dd && (f[l3] >> 4) == 6)
		return (uint8_t)((((f[l3] & 15) << 4) | (f[l3 + 1] >> 4)) >> 2);
	return 0;
}
