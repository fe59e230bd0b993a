/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine.c - the reassembly engine: parse, hold, resolve, rebuild.
 *
 * Design
 *   - One grain_htab per family (the timeouts differ: 30 s / 60 s, as the
 *     table's TTL). Entries are struct dgram, keyed as Linux keys its
 *     fragment queues. Tables are GRAIN_HTAB_NO_RCU: every access to a
 *     datagram happens inside a stripe scope, so a datagram the table
 *     evicts or expires is freed as soon as it is unlinked.
 *   - A datagram holds a sorted array of non-overlapping pieces; each
 *     piece points into a reference-counted copy of one fragment's
 *     payload. STRICT never lets pieces overlap (RFC 5722: an overlap
 *     kills the datagram, a fragment inside held data is a duplicate);
 *     the target-based policies decide, piece by piece, whose bytes win,
 *     and trim or split the loser. Completion is O(1): every byte from 0
 *     to the end is held exactly when `meat` == `len`.
 *   - A completed (or killed) datagram leaves the table inside the scope;
 *     the output is built after the unlock, so the stripe lock covers only
 *     the bookkeeping, never the 64 KiB copy.
 *
 * References: Linux net/ipv4/inet_fragment.c (runs, DUP vs OVERLAP),
 * net/ipv4/ip_fragment.c and net/ipv6/reassembly.c (end checks, ECN table,
 * DF rule, nhoff patching), RFC 791, 5722, 6946, 7112, 8200 section 4.5,
 * RFC 3168 section 5.3; Novak, "Target-Based Fragmentation Reassembly".
 */
#define _GNU_SOURCE
#include "inet.h"
#include "reasm.h"

#include <grain/hash.h>
#include <grain/htab.h>

#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORKERS 64
#define SRC_SLOTS 1024u
#define IP_MAXPACKET 65535u

/* --- keys and datagrams -------------------------------------------------- */

/* Packed so that an IPv4 key is its first KEY4_LEN bytes: the hash reads
 * 28 bytes for IPv4, 52 for IPv6. */
struct rkey {
	uint32_t id;
	uint32_t vlan;	       /* tag count << 24, VIDs of tags 1 and 2 */
	uint32_t vlan_more[2]; /* VIDs of tags 3 to REASM_MAX_VLAN_TAGS */
	uint8_t family;	       /* 4 or 6 */
	uint8_t proto;	       /* IPv4 protocol; 0 for IPv6 */
	uint8_t pad[2];
	uint8_t addr[32]; /* IPv4: src, dst in 8 bytes; IPv6: src, dst */
};

#define KEY4_LEN (offsetof(struct rkey, addr) + 8)

/* How the link-layer type field before an IP header is written. */
enum type_kind {
	TYPE_NONE,  /* raw IP: no field */
	TYPE_FIXED, /* DLT_IPV4, DLT_IPV6: the link type names the family */
	TYPE_ETHER, /* a 2-byte EtherType (Ethernet, SLL, SLL2) */
	TYPE_PPP1,  /* a 1-byte (compressed) PPP protocol */
	TYPE_PPP2   /* a 2-byte PPP protocol */
};

/* The headers around a fragment's IP header whose fields depend on its
 * length, as offsets in the frame (0: absent; none of them can start a
 * frame), and the link's type field before the outermost IP header. */
struct encap {
	uint32_t pppoe;	   /* the PPPoE header (its length field) */
	uint32_t outer;	   /* a tunnel's outer IP header */
	uint32_t gre;	   /* the GRE header */
	uint32_t gre_hlen; /* its length */
	uint32_t type_off; /* the link's type field */
	uint16_t gre_flags;
	uint8_t outer_family; /* 4, 6; 0: no tunnel */
	uint8_t type_kind;    /* enum type_kind */
};

/* A copy of one fragment's payload; pieces point into it. */
struct fbuf {
	uint32_t refs;
	uint32_t off; /* the fragment's offset in the datagram */
	uint32_t len;
	uint8_t data[];
};

struct piece {
	uint32_t start, end; /* [start, end) in the datagram */
	/* STRICT: where the piece's run starts. A run, as Linux keeps them,
	 * is fragments that arrived back to back at the tail, each starting
	 * where the previous one ended; a fragment inserted anywhere else
	 * starts a run of its own, even when it touches its neighbours. */
	uint32_t run;
	struct fbuf *buf;
};

enum { FIRST_IN = 1, LAST_IN = 2, STALLED = 4 };

#define INLINE_PIECES 4u
#define INLINE_HEAD \
	96u /* Ethernet, two tags, IPv4 with 40 bytes of options;
			   IPv6 with 32 bytes of extension headers (more:
			   allocated) */

struct dgram {
	struct rkey key; /* just before the node: a hit is one cache line */
	struct grain_hnode node;
	uint32_t len;	 /* end of the datagram (or largest end so far) */
	uint32_t meat;	 /* bytes held */
	uint32_t nfrags; /* fragments whose bytes are in it */
	uint32_t npieces, cap;
	uint8_t flags;
	uint8_t ecn;	    /* OR of the fragments' ECN bits (Linux's table) */
	uint8_t v6_nexthdr; /* the offset-0 fragment's Fragment header NH */
	uint16_t max_size, max_df_size; /* IPv4 DF rule */
	uint32_t head_len; /* bytes of head: link + IP header (+ v6 ext);
			       an IPv6 chain alone may pass 64 KiB */
	uint32_t l2_len;
	uint32_t nh_off;      /* IPv6: offset in head of the NH byte to patch */
	struct encap enc;     /* length fields in head around the IP header */
	uint64_t first_ts;    /* capture time of the first fragment */
	uint32_t born;	      /* IPv4: its source's src_born count when begun */
	struct piece *pieces; /* small: the inline array below */
	uint8_t *head;	      /* small: the inline bytes below */
	/* A typical datagram needs no allocation beyond this one and its
	 * payload copies: up to INLINE_PIECES pieces and INLINE_HEAD bytes
	 * of headers live here. */
	struct piece inline_pieces[INLINE_PIECES];
	uint8_t inline_head[INLINE_HEAD];
};

struct reasm {
	struct reasm_config cfg;
	struct grain_alloc alloc;     /* copy of *cfg.alloc, when given */
	const struct grain_alloc *ap; /* &alloc or NULL (default hooks) */
	struct grain_htab *tab[2];    /* [0] IPv4, [1] IPv6 */
	struct grain_hash_key secret;
	struct reasm_worker *workers[MAX_WORKERS];
	unsigned nworkers;
	/* Outcomes decided inside the table's callbacks (eviction, expiry,
	 * destroy), on whichever thread ran them. */
	_Atomic(uint64_t) cb_timeout, cb_evicted, cb_frags;
	_Atomic(uint64_t) cb_pending_dgrams, cb_pending_frags;
	_Atomic(uint64_t) peak_read; /* most bytes any stats read saw */
	/* IPv4 datagrams begun per hashed source (REASM_ID_DIST). */
	_Atomic(uint32_t) src_born[SRC_SLOTS];
};

/* --- small helpers ------------------------------------------------------- */

/* The engine's own memory (datagrams, payload copies, piece arrays,
 * headers) goes through the configured allocation hooks; output frames are
 * plain malloc (their consumer frees them with reasm_out_free()), or the
 * memory a worker's sink hands out (struct reasm_sink). */
#define MEM_ALIGN _Alignof(max_align_t)

static void *mem_get(const struct reasm *r, size_t n)
{
	return grain_mem_alloc(r->ap, n, MEM_ALIGN);
}

static void mem_put(const struct reasm *r, void *p, size_t n)
{
	grain_mem_free(r->ap, p, n, MEM_ALIGN);
}

/* ECN codepoint -> the bit Linux's ip_frag_ecn_table is indexed by. */
static inline uint8_t ecn_bit(uint8_t tos)
{
	return (uint8_t)(1u << (tos & 3)); /* NOT-ECT 1, ECT1 2, ECT0 4, CE 8 */
}

/* RFC 3168 section 5.3: -1 discards the datagram, 3 sets CE, 0 keeps the
 * offset-0 fragment's codepoint. */
static int ecn_combine(uint8_t bits)
{
	if ((bits & 1) && (bits & ~1u))
		return -1; /* Not-ECT mixed with ECT or CE */
	if ((bits & 8) && (bits & 6))
		return 3; /* CE is never lost */
	return 0;
}

/* --- parsing ------------------------------------------------------------- */

/* What reasm_input learns about a frame. */
struct frag {
	const uint8_t *frame;
	uint32_t caplen, wirelen;
	uint32_t l3;	  /* offset of the IP header */
	uint32_t ip_len;  /* IP packet length per its header */
	uint32_t hdr_len; /* v4: ihl*4; v6: 40 + ext headers before frag hdr */
	uint32_t fh_off;  /* v6: offset of the Fragment header from l3 */
	uint32_t nh_off;  /* v6: offset from l3 of the NH byte naming it */
	uint32_t offset, len; /* fragment position and payload length */
	const uint8_t *payload;
	bool mf, df, is_frag, truncated;
	uint8_t note; /* enum link_note: why a frame passes */
	uint8_t family, tos, v6_nexthdr;
	struct encap enc;
	struct rkey key;
};

/* The VLAN tags of a frame, as the key holds them. */
struct vlan_key {
	uint32_t vlan;
	uint32_t more[2];
};

/* Why a frame is passed through, when a counter says so. */
enum link_note {
	NOTE_NONE,
	NOTE_VLAN_DEEP, /* vlan_too_deep */
	NOTE_PPP_OTHER, /* ppp_other */
	NOTE_BAD_LINK,	/* bad_link */
	NOTE_BAD_TUNNEL /* bad_tunnel */
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

enum parse_result {
	P_PASS,	     /* not a fragment (or not IP): emit unchanged */
	P_FRAG,	     /* a fragment, fields filled */
	P_TRUNCATED, /* a fragment, but the capture is cut short */
	P_MALFORMED, /* a fragment with a broken header */
	P_BADSUM,    /* an IPv4 fragment with a wrong header checksum */
};

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
static bool v6_chain_complete(const uint8_t *p, uint32_t n, uint8_t nh)
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

/* Does the header chain at @p p (@p n bytes), starting with header @p nh,
 * hold a Fragment header before its upper-layer header? That is a
 * Fragment header nested in the fragmentable part of another one: Linux
 * discards such a packet once the outer one is processed
 * (IP6SKB_FRAGMENTED set, then ipv6_frag_rcv() sends Parameter Problem). */
static bool v6_nested_frag(const uint8_t *p, uint32_t n, uint8_t nh)
{
	uint32_t off = 0;

	for (unsigned hops = 0; hops < 32; hops++) {
		uint32_t need;

		if (nh == 44)
			return true;
		need = v6_ext_len(p, n, off, nh);
		if (need == V6_NOT_EXT || need == 0 || off + need > n)
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

/* Does the header chain at @p p (@p n bytes), starting with header @p nh
 * (@p first: right after the IPv6 header), hold a header Linux refuses
 * (v6_ext_refused()) before its upper-layer header or a Fragment header?
 * What follows a nested Fragment header belongs to the inner fragment. */
static bool v6_chain_refused(const uint8_t *p, uint32_t n, uint8_t nh,
			     bool first)
{
	uint32_t off = 0;

	for (unsigned hops = 0; hops < 32; hops++, first = false) {
		uint32_t need;

		if (v6_ext_refused(p, n, off, nh, first))
			return true;
		need = v6_ext_len(p, n, off, nh);
		if (need == V6_NOT_EXT || need == 0 || off + need > n)
			return false;
		nh = p[off];
		off += need;
	}
	return false;
}

/* An IPv6 datagram whose IPv6 header and unfragmentable headers are the
 * @p hlen bytes at @p ip, and whose fragmentable part (@p n bytes at
 * @p p) starts with header @p nh: does a Linux host refuse a header of
 * it? Each fragment carries the unfragmentable part, and Linux refuses
 * each one that holds such a header; the engine judges the offset-0
 * fragment's. */
static bool v6_refused(const uint8_t *ip, uint32_t hlen, const uint8_t *p,
		       uint32_t n, uint8_t nh)
{
	return v6_chain_refused(ip + 40, hlen - 40, ip[6], true) ||
	       v6_chain_refused(p, n, nh, false);
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

static enum parse_result parse(const struct reasm *r, struct frag *fr)
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

/* --- output -------------------------------------------------------------- */

static struct reasm_out *out_alloc(size_t len, uint64_t ts)
{
	struct reasm_out *o = malloc(sizeof(*o) + len);

	if (o == NULL)
		return NULL;
	o->ts_ns = ts;
	o->len = (uint32_t)len;
	o->orig_len = (uint32_t)len;
	o->dscp = 0;
	o->reassembled = true;
	return o;
}

static void emit(struct reasm_worker *w, struct reasm_out *o)
{
	w->st.emitted++;
	w->st.emitted_bytes += o->len;
	w->emit(o, w->emit_arg);
}

/* Where an output frame is being written: a reservation of the worker's
 * sink (struct reasm_sink), or a reasm_out for the emit callback. */
struct out_dst {
	uint8_t *data;	     /* the frame's first byte */
	struct reasm_out *o; /* NULL: data is the sink's reservation */
};

/* Begin the output frame @p m, whose first @p lead_len bytes will be
 * @p lead: in the sink's memory if it takes the frame, else in a
 * reasm_out (a declined frame takes the emit path, whole). @return false
 * for want of memory (nothing to undo). */
static bool out_begin(struct reasm_worker *w, const struct reasm_meta *m,
		      const uint8_t *lead, uint32_t lead_len,
		      struct out_dst *dst)
{
	const struct reasm_sink *s = w->sink;

	dst->o = NULL;
	if (s != NULL) {
		dst->data = s->reserve(s->arg, m, lead, lead_len);
		if (dst->data != NULL)
			return true;
	}
	dst->o = out_alloc(m->len, m->ts_ns);
	if (dst->o == NULL)
		return false;
	dst->o->orig_len = m->orig_len;
	dst->o->dscp = m->dscp;
	dst->o->reassembled = m->reassembled;
	dst->data = dst->o->data;
	return true;
}

/* Hand over a frame begun with out_begin() and written whole: committed
 * to the sink or emitted, and counted the same either way. */
static void out_end(struct reasm_worker *w, const struct reasm_meta *m,
		    struct out_dst *dst)
{
	if (dst->o != NULL) {
		emit(w, dst->o);
		return;
	}
	w->st.emitted++;
	w->st.emitted_bytes += m->len;
	w->sink->commit(w->sink->arg, dst->data, m);
}

/* Give up a frame begun with out_begin(): a reservation simply lapses
 * (reasm.h: the next reserve may hand out the same memory). */
static void out_drop(struct out_dst *dst)
{
	free(dst->o);
}

static uint8_t dscp_of(const struct reasm *r, const uint8_t *f, uint32_t n)
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

/* Are @p fr's outer headers left out of its output? */
static bool strips(const struct reasm *r, const struct frag *fr)
{
	if (!r->cfg.decap_strip || fr->enc.outer_family == 0)
		return false;
	/* DLT_IPV4 and DLT_IPV6 cannot say that the family changed. */
	return fr->enc.type_kind != TYPE_FIXED ||
	       fr->enc.outer_family == fr->family;
}

/* Bytes of output headers for the first @p n bytes of @p fr (link and IP
 * headers through the fragment's, outer ones included). */
static uint32_t head_size(const struct reasm *r, const struct frag *fr,
			  uint32_t n)
{
	return strips(r, fr) ? n - (fr->l3 - fr->enc.outer) : n;
}

/* Copy the first @p n bytes of @p fr into @p dst (head_size() bytes),
 * without the outer headers when they are stripped (the link's type field
 * then names the inner family). @return the offset of the fragment's IP
 * header in @p dst; *eo: the length fields that remain in @p dst. */
static uint32_t head_copy(const struct reasm *r, const struct frag *fr,
			  uint32_t n, uint8_t *dst, struct encap *eo)
{
	*eo = fr->enc;
	if (!strips(r, fr)) {
		memcpy(dst, fr->frame, n);
		return fr->l3;
	}
	uint32_t o = fr->enc.outer;
	memcpy(dst, fr->frame, o);
	memcpy(dst + o, fr->frame + fr->l3, n - fr->l3);
	eo->outer = 0;
	eo->outer_family = 0;
	eo->gre = 0;
	eo->gre_hlen = 0;
	bool v4 = fr->family == 4;
	switch (fr->enc.type_kind) {
	case TYPE_ETHER:
		inet_wr16(dst + eo->type_off,
			  v4 ? INET_ETH_IPV4 : INET_ETH_IPV6);
		break;
	case TYPE_PPP2:
		inet_wr16(dst + eo->type_off, v4 ? 0x0021 : 0x0057);
		break;
	case TYPE_PPP1:
		dst[eo->type_off] = v4 ? 0x21 : 0x57;
		break;
	default:
		break;
	}
	return o;
}

/* Set the length fields of @p e's headers in the @p n-byte frame @p f
 * (PPPoE, GRE version 1, the outer IP header) and its checksums (GRE's,
 * when present, the outer IPv4 header's). @return false if a length does
 * not fit its field. */
static bool encap_fix(const struct encap *e, uint8_t *f, size_t n)
{
	if (e->pppoe != 0) {
		if (n - (e->pppoe + 6) > 0xffffu)
			return false;
		inet_wr16(f + e->pppoe + 4, (uint16_t)(n - (e->pppoe + 6)));
	}
	if (e->gre != 0) {
		uint8_t *g = f + e->gre;
		if ((e->gre_flags & 7) == 1) {
			if (n - (e->gre + e->gre_hlen) > 0xffffu)
				return false;
			inet_wr16(g + 4,
				  (uint16_t)(n - (e->gre + e->gre_hlen)));
		} else if (e->gre_flags & 0x8000) {
			inet_wr16(g + 4, 0);
			inet_wr16(g + 4, inet_csum(g, n - e->gre));
		}
	}
	if (e->outer_family == 4) {
		uint8_t *ip = f + e->outer;
		if (n - e->outer > 0xffffu)
			return false;
		inet_wr16(ip + 2, (uint16_t)(n - e->outer));
		inet_wr16(ip + 10, 0);
		inet_wr16(ip + 10, inet_csum(ip, (size_t)(ip[0] & 15) * 4));
	} else if (e->outer_family == 6) {
		if (n - e->outer - 40 > 0xffffu)
			return false;
		inet_wr16(f + e->outer + 4, (uint16_t)(n - e->outer - 40));
	}
	return true;
}

static int pass_through(struct reasm_worker *w, const struct frag *fr,
			uint64_t now)
{
	struct reasm_meta m = {
		.ts_ns = now,
		.len = fr->caplen,
		.orig_len = fr->wirelen,
		.dscp = dscp_of(w->r, fr->frame, fr->caplen),
		.reassembled = false,
	};
	struct out_dst dst;

	w->st.passed++;
	if (!out_begin(w, &m, fr->frame, fr->caplen, &dst)) {
		w->st.no_memory++;
		return 0;
	}
	memcpy(dst.data, fr->frame, fr->caplen);
	out_end(w, &m, &dst);
	return 1;
}

/* An IPv6 atomic fragment (RFC 6946): emitted alone, Fragment header
 * removed. */
static int emit_atomic(struct reasm_worker *w, const struct frag *fr,
		       uint64_t now)
{
	uint32_t n = fr->l3 + fr->fh_off;
	uint32_t head = head_size(w->r, fr, n);
	struct reasm_out *o = out_alloc(head + fr->len, now);
	struct encap e;

	if (o == NULL) {
		w->st.no_memory++;
		w->st.frags_no_memory++;
		w->st.frags_dropped++;
		return 0;
	}
	bool nested = v6_nested_frag(fr->payload, fr->len, fr->v6_nexthdr);
	bool refused = v6_refused(fr->frame + fr->l3, fr->fh_off, fr->payload,
				  fr->len, fr->v6_nexthdr);
	if (nested)
		w->st.nested_frag++;
	if (refused)
		w->st.bad_ext++;
	if ((nested || refused) && w->r->cfg.policy == REASM_STRICT) {
		/* A datagram of one fragment, discarded. */
		free(o);
		w->st.ReasmFails++;
		w->st.frags_discarded++;
		return 0;
	}
	uint32_t l3 = head_copy(w->r, fr, n, o->data, &e);
	memcpy(o->data + head, fr->payload, fr->len);
	uint8_t *ip = o->data + l3;
	ip[fr->nh_off] = fr->v6_nexthdr;
	inet_wr16(ip + 4, (uint16_t)(fr->fh_off - 40 + fr->len));
	if (!encap_fix(&e, o->data, o->len)) {
		free(o);
		w->st.too_big++;
		w->st.ReasmFails++;
		w->st.frags_discarded++;
		return 0;
	}
	o->dscp = fr->tos >> 2;
	w->st.atomic++;
	w->st.ReasmOKs++;
	w->st.frags_reassembled++;
	emit(w, o);
	return 1;
}

/* --- datagram state ------------------------------------------------------ */

static void fbuf_free(const struct reasm *r, struct fbuf *b)
{
	if (b != NULL)
		mem_put(r, b, sizeof(*b) + b->len);
}

/* A datagram's bytes in its table's accounting. It holds the scope of
 * its own linked node, and charges stay far below UINT32_MAX (mem_high
 * bounds them), so these cannot fail. */
static void dgram_charge(struct grain_htab_scope *s, struct grain_hnode *n,
			 size_t bytes)
{
	int rc = grain_htab_charge_locked(s, n, bytes);

	assert(rc == 0);
	(void)rc;
}

static void dgram_uncharge(struct grain_htab_scope *s, struct grain_hnode *n,
			   size_t bytes)
{
	int rc = grain_htab_uncharge_locked(s, n, bytes);

	assert(rc == 0);
	(void)rc;
}

static void fbuf_put(const struct reasm *r, struct fbuf *b, size_t *freed)
{
	if (--b->refs == 0) {
		*freed += sizeof(*b) + b->len;
		fbuf_free(r, b);
	}
}

static void dgram_free(const struct reasm *r, struct dgram *d)
{
	size_t freed = 0;

	for (uint32_t i = 0; i < d->npieces; i++)
		fbuf_put(r, d->pieces[i].buf, &freed);
	if (d->pieces != d->inline_pieces)
		mem_put(r, d->pieces, d->cap * sizeof(*d->pieces));
	if (d->head != d->inline_head)
		mem_put(r, d->head, d->head_len);
	mem_put(r, d, sizeof(*d));
}

/* The table let go of @p n (eviction, expiry, destroy); REMOVED datagrams
 * belong to the worker that removed them. */
static void dgram_reclaim(struct grain_hnode *n, enum grain_htab_reason why,
			  void *ctx)
{
	struct reasm *r = ctx;
	struct dgram *d = grain_container_of(n, struct dgram, node);
	_Atomic(uint64_t) *dgrams, *frags;

	switch (why) {
	case GRAIN_HTAB_REMOVED:
		return;
	case GRAIN_HTAB_EXPIRED:
		dgrams = &r->cb_timeout;
		frags = &r->cb_frags;
		break;
	case GRAIN_HTAB_EVICTED:
		dgrams = &r->cb_evicted;
		frags = &r->cb_frags;
		break;
	default: /* DESTROYED */
		dgrams = &r->cb_pending_dgrams;
		frags = &r->cb_pending_frags;
		break;
	}
	atomic_fetch_add_explicit(dgrams, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(frags, d->nfrags, memory_order_relaxed);
	dgram_free(r, d);
}

static uint64_t key_hash(const void *key, const struct grain_hash_key *sec,
			 void *ctx)
{
	const struct rkey *k = key;

	(void)ctx;
	return grain_siphash(key, k->family == 4 ? KEY4_LEN : sizeof(*k), sec);
}

static bool key_eq(const struct grain_hnode *n, const void *key, void *ctx)
{
	const struct dgram *d = grain_container_of(n, const struct dgram, node);

	(void)ctx;
	return memcmp(&d->key, key, sizeof(struct rkey)) == 0;
}

/* The key's hash and equality as compile-time parameters of the table's
 * fast paths: both inline into the lookup and insert of every fragment. */
static const struct grain_htab_params key_params = { key_hash, key_eq };

/* What adding a fragment did. */
enum add_result {
	ADD_OK,	      /* held (the datagram may now be complete) */
	ADD_DUP,      /* nothing new: dropped, datagram kept */
	ADD_NOMEM,    /* dropped, datagram kept */
	ADD_PAST_END, /* disagrees with the end: dropped, datagram kept */
	KILL_OVERLAP, /* datagram discarded */
	KILL_BAD_END,
	KILL_TOO_MANY,
};

/* Does the new fragment [ns, ne) win the bytes it shares with held piece
 * [ps, pe)? See enum reasm_policy. */
static bool new_wins(enum reasm_policy p, uint32_t ns, uint32_t ne, uint32_t ps,
		     uint32_t pe)
{
	switch (p) {
	case REASM_LAST:
		return true;
	case REASM_BSD:
		return ns < ps;
	case REASM_LINUX:
		return ns <= ps;
	case REASM_WINDOWS:
		return ns < ps && ne > pe;
	case REASM_SOLARIS:
		return ns < ps && ne >= pe;
	case REASM_BSD_RIGHT:
		return ps < ns ? pe < ne : pe <= ne;
	default: /* FIRST */
		return false;
	}
}

/* Grow the piece array to hold @p need; charges the table. */
static int pieces_reserve(const struct reasm *r, struct grain_htab_scope *s,
			  struct dgram *d, uint32_t need)
{
	if (need <= d->cap)
		return 0;
	uint32_t cap = d->cap;
	while (cap < need)
		cap *= 2;
	struct piece *p = mem_get(r, cap * sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	memcpy(p, d->pieces, d->npieces * sizeof(*p));
	if (d->pieces != d->inline_pieces)
		mem_put(r, d->pieces, d->cap * sizeof(*p));
	size_t more = (size_t)(cap - d->cap) * sizeof(*p);
	d->pieces = p;
	d->cap = cap;
	dgram_charge(s, &d->node, more);
	return 0;
}

/* First piece whose end is past @p x (ends are sorted too). */
static uint32_t first_ending_after(const struct dgram *d, uint32_t x)
{
	uint32_t lo = 0, hi = d->npieces;

	if (hi > 0 && d->pieces[hi - 1].end <= x)
		return hi; /* tail: in-order arrival */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->pieces[mid].end <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct fbuf *fbuf_new(const struct reasm *r, const struct frag *fr,
			     uint32_t len)
{
	struct fbuf *b = mem_get(r, sizeof(*b) + len);

	if (b == NULL)
		return NULL;
	b->refs = 0;
	b->off = fr->offset;
	b->len = len;
	memcpy(b->data, fr->payload, len);
	return b;
}

/* Replace pieces [i, j) of @p d with @p n pieces from @p with. */
static void pieces_splice(struct dgram *d, uint32_t i, uint32_t j,
			  const struct piece *with, uint32_t n)
{
	memmove(&d->pieces[i + n], &d->pieces[j],
		(d->npieces - j) * sizeof(struct piece));
	memcpy(&d->pieces[i], with, n * sizeof(struct piece));
	d->npieces = d->npieces - (j - i) + n;
}

/* Record the offset-0 fragment's headers. */
static int take_head(const struct reasm *r, struct grain_htab_scope *s,
		     struct dgram *d, const struct frag *fr)
{
	uint32_t n = head_size(r, fr, fr->l3 + fr->hdr_len);
	uint8_t *h = n <= INLINE_HEAD ? d->inline_head : mem_get(r, n);

	if (h == NULL)
		return -ENOMEM;
	d->l2_len = head_copy(r, fr, fr->l3 + fr->hdr_len, h, &d->enc);
	d->head = h;
	d->head_len = n;
	d->nh_off = fr->nh_off;
	d->v6_nexthdr = fr->v6_nexthdr;
	if (h != d->inline_head) {
		dgram_charge(s, &d->node, n);
	}
	return 0;
}

/*
 * The end rules. Four cases meet a datagram's end (its last fragment's,
 * once one has come; otherwise the furthest end held):
 *   past        a non-last fragment reaches past a known end
 *   short_first the first last fragment ends before held data
 *   short_again a second last fragment ends before the known end
 *   long_again  a second last fragment ends after it
 * and each policy answers each case with one of:
 *   END_KILL  discard the datagram (Linux's ip_frag_queue())
 *   END_DROP  drop the fragment alone; the end stays (FreeBSD's
 *             ip_reass(), its ipq_maxoff check)
 *   END_KEEP  hold the fragment's bytes, the end stays; a fragment that
 *             overlaps held data discards the datagram (frag3's
 *             "teardrop")
 *   END_MOVE  the end moves to the fragment's (frag3: the higher end
 *             point wins)
 *   END_STALL record the end, hold the fragment, never complete: the
 *             datagram waits for its timeout (FreeBSD: the held data
 *             past the end can never leave the queue)
 * See README.md's policy table for the sources.
 */
enum end_act { END_KILL, END_DROP, END_KEEP, END_MOVE, END_STALL };

struct end_rule {
	uint8_t past, short_first, short_again, long_again; /* end_act */
	bool at_end_is_past; /* a non-last fragment ending at the end is
				past it (FreeBSD's i >= ipq_maxoff) */
};

/* Linux (strict, linux), FreeBSD (bsd) and frag3 (the others). */
static const struct end_rule end_rules[REASM_POLICY_COUNT] = {
	/*		   past	     short_first short_again long_again */
	[REASM_STRICT] = { END_KILL, END_KILL, END_KILL, END_KILL, false },
	[REASM_LINUX] = { END_KILL, END_KILL, END_KILL, END_KILL, false },
	[REASM_BSD] = { END_DROP, END_STALL, END_DROP, END_DROP, true },
	[REASM_FIRST] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
	[REASM_LAST] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
	[REASM_BSD_RIGHT] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
	[REASM_WINDOWS] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
	[REASM_SOLARIS] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
};

/* Apply @p act to the fragment [fr->offset, ne); @p overlaps: it meets
 * held data. */
static enum add_result end_apply(struct dgram *d, uint8_t act, uint32_t ne,
				 bool overlaps)
{
	switch (act) {
	case END_DROP:
		return ADD_PAST_END;
	case END_KEEP:
		return overlaps ? KILL_BAD_END : ADD_OK;
	case END_MOVE:
		d->len = ne;
		return ADD_OK;
	case END_STALL:
		d->flags |= STALLED;
		d->len = ne;
		return ADD_OK;
	default: /* KILL */
		return KILL_BAD_END;
	}
}

/*
 * The end rules of the policy (struct end_rule); a zero-length fragment
 * kills the datagram under every one. A last fragment that passes them
 * records the end at once, so it counts even when its bytes are a
 * duplicate or lose every overlap: Linux sets INET_FRAG_LAST_IN before
 * its duplicate and overlap checks, so a last fragment that duplicates
 * held data still ends the datagram.
 * @return ADD_OK, ADD_PAST_END or KILL_BAD_END.
 */
static enum add_result check_end(enum reasm_policy pol, struct dgram *d,
				 const struct frag *fr, uint32_t ne,
				 bool overlaps)
{
	const struct end_rule *er = &end_rules[pol];
	bool last_in = d->flags & LAST_IN;

	if (ne == fr->offset)
		return KILL_BAD_END;
	if (fr->mf) {
		if (last_in &&
		    (ne > d->len || (er->at_end_is_past && ne == d->len)))
			return end_apply(d, er->past, ne, overlaps);
		return ADD_OK;
	}
	d->flags |= LAST_IN;
	if (!last_in) {
		if (ne < d->len)
			return end_apply(d, er->short_first, ne, overlaps);
		d->len = ne;
	} else if (ne < d->len) {
		return end_apply(d, er->short_again, ne, overlaps);
	} else if (ne > d->len) {
		return end_apply(d, er->long_again, ne, overlaps);
	}
	return ADD_OK;
}

/* The fragment [ns, ne) overlaps nothing held: insert it as piece @p i.
 * Takes *bp on success. */
static enum add_result add_clear(struct reasm *r, struct grain_htab_scope *s,
				 struct dgram *d, const struct frag *fr,
				 uint32_t i, uint32_t ne, struct fbuf **bp)
{
	const uint32_t ns = fr->offset;

	if (d->nfrags >= r->cfg.max_frags)
		return KILL_TOO_MANY;
	if (pieces_reserve(r, s, d, d->npieces + 1) != 0)
		return ADD_NOMEM;
	if (ns == 0 && d->head == NULL && take_head(r, s, d, fr) != 0)
		return ADD_NOMEM;
	struct fbuf *b = *bp;
	*bp = NULL; /* the datagram's now */
	b->refs = 1;
	/* Appended where the tail fragment ends: the tail's run goes on.
	 * Anywhere else: a run of its own. */
	uint32_t n = d->npieces;
	uint32_t run = n > 0 && i == n && d->pieces[n - 1].end == ns
			       ? d->pieces[n - 1].run
			       : ns;
	struct piece p = { ns, ne, run, b };
	pieces_splice(d, i, i, &p, 1);
	d->meat += ne - ns;
	dgram_charge(s, &d->node, sizeof(*b) + b->len);
	return ADD_OK;
}

/* Append the new fragment's bytes [a, z) from @p b to the replacement
 * @p out (*m pieces), extending its last piece when that one ends at
 * @p a in the same buffer. */
static void push_new(struct piece *out, uint32_t *m, struct fbuf *b, uint32_t a,
		     uint32_t z)
{
	if (*m > 0 && out[*m - 1].buf == b && out[*m - 1].end == a)
		out[*m - 1].end = z;
	else
		out[(*m)++] = (struct piece){ a, z, a, b };
}

/*
 * Target-based policies: walk the pieces [i, j) that [ns, ne) overlaps,
 * in order, building their replacement in @p out (at most two pieces per
 * overlapped one plus one for the tail). *lost: the held bytes the new
 * fragment won.
 * @return the number of pieces in @p out.
 */
static uint32_t overlap_merge(enum reasm_policy pol, const struct dgram *d,
			      uint32_t i, uint32_t j, uint32_t ns, uint32_t ne,
			      struct fbuf *b, struct piece *out, uint32_t *lost)
{
	uint32_t m = 0, cursor = ns;

	*lost = 0;
	for (uint32_t k = i; k < j; k++) {
		struct piece p = d->pieces[k];
		uint32_t os = p.start > ns ? p.start : ns;
		uint32_t oe = p.end < ne ? p.end : ne;
		if (new_wins(pol, ns, ne, p.start, p.end)) {
			if (p.start < os)
				out[m++] = (struct piece){ p.start, os, p.start,
							   p.buf };
			push_new(out, &m, b, cursor, oe);
			cursor = oe;
			if (p.end > oe)
				out[m++] =
					(struct piece){ oe, p.end, oe, p.buf };
			*lost += oe - os; /* the held piece's bytes */
		} else {
			if (cursor < os)
				push_new(out, &m, b, cursor, os);
			out[m++] = p;
			cursor = p.end > cursor ? p.end : cursor;
		}
	}
	if (cursor < ne)
		push_new(out, &m, b, cursor, ne);
	return m;
}

/* The fragment [ns, ne) overlaps pieces [i, j), under a target-based
 * policy: the winning bytes of each replace the others'. Takes *bp on
 * success; on failure the caller frees it. */
static enum add_result add_overlap(struct reasm *r, struct grain_htab_scope *s,
				   struct dgram *d, const struct frag *fr,
				   uint32_t i, uint32_t j, uint32_t ne,
				   struct fbuf **bp)
{
	const uint32_t ns = fr->offset;
	uint32_t m, lost, gained = 0, maxn = 2 * (j - i) + 1;
	struct piece *out = mem_get(r, maxn * sizeof(*out));
	struct fbuf *b = *bp;
	size_t freed = 0;

	if (out == NULL)
		return ADD_NOMEM;
	m = overlap_merge(r->cfg.policy, d, i, j, ns, ne, b, out, &lost);
	for (uint32_t k = 0; k < m; k++)
		if (out[k].buf == b)
			gained += out[k].end - out[k].start;
	enum add_result fail = ADD_OK;
	if (gained == 0)
		fail = ADD_DUP; /* every byte lost: nothing new */
	else if (d->nfrags >= r->cfg.max_frags)
		fail = KILL_TOO_MANY;
	else if (pieces_reserve(r, s, d, d->npieces - (j - i) + m) != 0 ||
		 (ns == 0 && d->head == NULL && take_head(r, s, d, fr) != 0))
		fail = ADD_NOMEM;
	if (fail != ADD_OK) {
		mem_put(r, out, maxn * sizeof(*out));
		return fail;
	}
	*bp = NULL;
	/* References: count the new ones first, then drop the old. */
	for (uint32_t k = 0; k < m; k++)
		out[k].buf->refs++;
	for (uint32_t k = i; k < j; k++)
		fbuf_put(r, d->pieces[k].buf, &freed);
	pieces_splice(d, i, j, out, m);
	mem_put(r, out, maxn * sizeof(*out));
	d->meat = d->meat + gained - lost;
	dgram_charge(s, &d->node, sizeof(*b) + b->len);
	if (freed > 0) {
		dgram_uncharge(s, &d->node, freed);
	}
	return ADD_OK;
}

/* A fragment [fr->offset, ne) now held: the datagram's counts, flags,
 * ECN and (IPv4) largest fragment sizes. */
static void note_held(struct dgram *d, const struct frag *fr, uint32_t ne)
{
	d->nfrags++;
	if (fr->offset == 0)
		d->flags |= FIRST_IN;
	if (ne > d->len)
		d->len = ne;
	d->ecn |= ecn_bit(fr->tos);
	if (fr->family == 4) {
		uint32_t size = fr->hdr_len + fr->len;
		if (size > d->max_size)
			d->max_size = (uint16_t)size;
		if (fr->df && size > d->max_df_size)
			d->max_df_size = (uint16_t)size;
	}
}

/*
 * Add fragment [fr->offset, ne) to @p d: the end rules (check_end()),
 * then either a piece of its own or, where it overlaps held pieces, the
 * policy's choice. On ADD_OK *bp has been taken; otherwise the caller
 * frees it.
 */
static enum add_result add_fragment(struct reasm *r, struct grain_htab_scope *s,
				    struct dgram *d, const struct frag *fr,
				    uint32_t ne, struct fbuf **bp,
				    bool *overlapped)
{
	const uint32_t ns = fr->offset;
	enum add_result res;

	*overlapped = false;
	uint32_t i = first_ending_after(d, ns), j = i;
	while (j < d->npieces && d->pieces[j].start < ne)
		j++;
	res = check_end(r->cfg.policy, d, fr, ne, i != j);
	if (res != ADD_OK)
		return res;

	if (i == j) { /* no overlap: the common case */
		res = add_clear(r, s, d, fr, i, ne, bp);
	} else {
		*overlapped = true;
		if (r->cfg.policy == REASM_STRICT) {
			/* Inside one run of back-to-back pieces: a
			 * duplicate (runs are contiguous). */
			bool inside = d->pieces[i].start <= ns &&
				      d->pieces[j - 1].end >= ne &&
				      d->pieces[i].run == d->pieces[j - 1].run;
			return inside ? ADD_DUP : KILL_OVERLAP;
		}
		res = add_overlap(r, s, d, fr, i, j, ne, bp);
	}
	if (res == ADD_OK)
		note_held(d, fr, ne);
	return res;
}

static bool complete(const struct dgram *d)
{
	return (d->flags & (FIRST_IN | LAST_IN | STALLED)) ==
		       (FIRST_IN | LAST_IN) &&
	       d->meat == d->len;
}

/* Why a complete datagram could not be rebuilt. */
enum rebuild_fail {
	REBUILD_OK,
	REBUILD_BAD_ECN,     /* mixed ECN codepoints (RFC 3168 5.3) */
	REBUILD_TOO_BIG,     /* past 65535 bytes */
	REBUILD_NO_MEMORY,   /* no output frame */
	REBUILD_NESTED_FRAG, /* STRICT: an IPv6 Fragment header nested in
				the payload, or a header Linux refuses */
};

/* The DSCP of @p d's output: its IP header's in d->head (the ECN bits
 * rebuild() may set are not part of it). */
static uint8_t dgram_dscp(const struct dgram *d)
{
	const uint8_t *ip = d->head + d->l2_len;

	if (d->key.family == 4)
		return ip[1] >> 2;
	return (uint8_t)((((ip[0] & 15) << 4) | (ip[1] >> 4)) >> 2);
}

/* How many bytes at the start of @p d's output rebuild() writes as d->head
 * holds them: up to the first field it sets (the IP header's; before it,
 * the PPPoE length, the outer IP header's length, GRE's checksum or
 * length). Ethernet: at least the header through its type field. */
static uint32_t dgram_lead(const struct dgram *d)
{
	const struct encap *e = &d->enc;
	uint32_t n = d->l2_len;

	if (e->pppoe != 0 && e->pppoe + 4 < n)
		n = e->pppoe + 4;
	if (e->outer_family != 0 && e->outer + 2 < n)
		n = e->outer + 2;
	if (e->gre != 0 && e->gre + 4 < n)
		n = e->gre + 4;
	return n;
}

/* Build the datagram (no lock held: it has left the table) into a frame
 * begun with out_begin() (the sink's reservation or a reasm_out), left in
 * *dst for out_end() on REBUILD_OK and dropped otherwise. *nested: the
 * payload holds an IPv6 Fragment header; *refused: the headers hold one
 * Linux refuses (v6_refused()); both whatever the policy. */
static enum rebuild_fail rebuild(struct reasm_worker *w, const struct dgram *d,
				 uint64_t now, struct reasm_meta *m,
				 struct out_dst *dst, bool *nested,
				 bool *refused)
{
	uint32_t l3len = d->head_len - d->l2_len; /* IP header (+ v6 ext) */
	int ecn = ecn_combine(d->ecn);

	if (ecn < 0)
		return REBUILD_BAD_ECN;
	/* 64-bit sums: nothing here can wrap. v4: header + data; v6: the
	 * payload, extension headers before the Fragment header included. */
	uint64_t size = (uint64_t)l3len + d->len;
	if (size > IP_MAXPACKET + (d->key.family == 6 ? 40u : 0u))
		return REBUILD_TOO_BIG;
	m->ts_ns = now;
	m->len = d->head_len + d->len;
	m->orig_len = m->len;
	m->dscp = dgram_dscp(d);
	m->reassembled = true;
	if (!out_begin(w, m, d->head, dgram_lead(d), dst))
		return REBUILD_NO_MEMORY;
	uint8_t *f = dst->data;
	memcpy(f, d->head, d->head_len);
	uint8_t *data = f + d->head_len;
	for (uint32_t k = 0; k < d->npieces; k++) {
		const struct piece *p = &d->pieces[k];
		memcpy(data + p->start, p->buf->data + (p->start - p->buf->off),
		       p->end - p->start);
	}
	uint8_t *ip = f + d->l2_len;
	if (d->key.family == 4) {
		inet_wr16(ip + 2, (uint16_t)(l3len + d->len));
		inet_wr16(ip + 6, d->max_df_size == d->max_size ? 0x4000 : 0);
		if (ecn == 3)
			ip[1] |= 3;
		inet_wr16(ip + 10, 0);
		inet_wr16(ip + 10, inet_csum(ip, l3len));
	} else {
		*nested = v6_nested_frag(data, d->len, d->v6_nexthdr);
		*refused = v6_refused(ip, l3len, data, d->len, d->v6_nexthdr);
		if ((*nested || *refused) && w->r->cfg.policy == REASM_STRICT) {
			out_drop(dst);
			return REBUILD_NESTED_FRAG;
		}
		ip[d->nh_off] = d->v6_nexthdr;
		inet_wr16(ip + 4, (uint16_t)(l3len - 40 + d->len));
		if (ecn == 3)
			ip[1] |= 0x30;
	}
	if (!encap_fix(&d->enc, f, m->len)) {
		out_drop(dst);
		return REBUILD_TOO_BIG;
	}
	return REBUILD_OK;
}

/* --- input --------------------------------------------------------------- */

static void sample_bytes(struct reasm_worker *w)
{
	if ((w->sample++ & 63) != 0)
		return;
	uint64_t b =
		grain_htab_bytes(w->r->tab[0]) + grain_htab_bytes(w->r->tab[1]);
	if (b > w->st.bytes_peak)
		w->st.bytes_peak = b;
}

/* The index of an IPv4 key's source in src_born. */
static uint32_t born_index(const struct rkey *k)
{
	uint32_t a;

	memcpy(&a, k->addr, sizeof(a));
	return (a * 2654435761u) >> 22; /* 10 bits */
}

/* The src_born slot of an IPv4 key's source. */
static _Atomic(uint32_t) *born_slot(struct reasm *r, const struct rkey *k)
{
	return &r->src_born[born_index(k)];
}

/* A datagram found past its timeout, or (id_wrapped) older than its
 * source's last REASM_ID_DIST datagrams, retired by this worker. */
static void time_out(struct reasm_worker *w, struct dgram *d, bool wrapped)
{
	if (d == NULL)
		return;
	if (wrapped)
		w->st.id_wrapped++;
	else
		w->st.ReasmTimeout++;
	w->st.ReasmFails++;
	w->st.frags_discarded += d->nfrags;
	w->held_out += d->nfrags;
	dgram_free(w->r, d);
}

/* Count a fragment dropped for the reason @p counter. */
static void drop(struct reasm_stats *st, uint64_t *counter)
{
	(*counter)++;
	st->frags_dropped++;
}

/* Count a fragment dropped for want of memory. */
static void drop_nomem(struct reasm_stats *st)
{
	st->frags_no_memory++;
	drop(st, &st->no_memory);
}

/*
 * Step 1: the checks on the fragment alone, before any lock. On false the
 * fragment is dropped (and counted) and nothing else moves; on true *ne
 * is the end of its data as the engine keeps it.
 *
 * An IPv4 fragment that ends past 65535 bytes (with a 20-byte header) is
 * dropped alone under the target-based policies, as FreeBSD's ip_input()
 * and frag3 drop it. Linux has no such check before ip_frag_queue(): the
 * fragment goes into its queue like any other, its end raises the
 * queue's length, and the queue can then only die (the end rules discard
 * it when the real last fragment ends short of it, or when it lies past
 * a last fragment already in; a queue that fills up fails as too big).
 * STRICT and LINUX let it in the same way, so that a datagram the host
 * never gets is not emitted either. IPv6 drops such a fragment alone
 * (ip6_frag_queue()), under every policy.
 */
static bool frag_acceptable(struct reasm_stats *st, enum reasm_policy pol,
			    const struct frag *fr, uint32_t *ne)
{
	uint32_t end = fr->offset + fr->len;

	if (fr->family == 6) {
		if (fr->offset == 0 &&
		    !v6_chain_complete(fr->payload, fr->len, fr->v6_nexthdr)) {
			drop(st, &st->incomplete_chain);
			return false;
		}
		if (fr->mf && (fr->len & 7)) {
			/* RFC 8200: Parameter Problem */
			drop(st, &st->malformed);
			return false;
		}
		if (end > IP_MAXPACKET) {
			st->frags_too_big++;
			drop(st, &st->too_big);
			return false;
		}
	} else {
		if (fr->mf)
			end &= ~7u; /* Linux: round a non-last end down */
		if (20 + end > IP_MAXPACKET && pol != REASM_STRICT &&
		    pol != REASM_LINUX) {
			/* ping of death: no header fits */
			st->frags_too_big++;
			drop(st, &st->too_big);
			return false;
		}
	}
	*ne = end;
	return true;
}

/* A datagram retired on the way (timed out or ID-wrapped): freed by
 * time_out() once the stripe lock is released. */
struct stale {
	struct dgram *d;
	bool wrapped;
};

/*
 * Whether @p d, found in the table for a fragment stamped @p now, is too
 * old to take it: past its timeout, though nobody has expired it yet (the
 * outcome must not depend on how often the caller runs reasm_expire()),
 * or so old in its source's datagrams that this fragment likely belongs to
 * a newer one with the same 16-bit ID (*wrapped).
 */
static bool dgram_stale(struct reasm *r, const struct dgram *d,
			const struct frag *fr, uint64_t now, bool *wrapped)
{
	uint64_t ttl = fr->family == 6 ? r->cfg.timeout_v6_ns
				       : r->cfg.timeout_v4_ns;

	*wrapped = fr->family == 4 &&
		   atomic_load_explicit(born_slot(r, &fr->key),
					memory_order_relaxed) -
				   d->born >
			   REASM_ID_DIST;
	/* Workers' clocks may be a little apart: a fragment stamped before
	 * the first one is not late. */
	return *wrapped || (now >= d->first_ts && now - d->first_ts >= ttl);
}

/*
 * A new datagram for @p fr, linked into the stripe @p s holds. NULL when
 * it cannot be (the fragment is dropped and counted; @p b is freed).
 * Called with the stripe lock held; returns with it held.
 */
static struct dgram *dgram_start(struct reasm_worker *w,
				 struct grain_htab_scope *s,
				 const struct frag *fr, struct fbuf **b,
				 uint64_t now)
{
	struct reasm *r = w->r;
	struct dgram *d;

	if (*b == NULL) { /* zero length, nothing to kill */
		drop(&w->st, &w->st.malformed);
		return NULL;
	}
	d = mem_get(r, sizeof(*d));
	if (d == NULL) {
		drop_nomem(&w->st);
		return NULL;
	}
	memset(d, 0, sizeof(*d));
	d->key = fr->key;
	d->first_ts = now;
	if (fr->family == 4)
		d->born = atomic_fetch_add_explicit(born_slot(r, &fr->key), 1u,
						    memory_order_relaxed) +
			  1u;
	d->pieces = d->inline_pieces;
	d->cap = INLINE_PIECES;
	if (grain_htab_insert_locked_fast(s, &d->node, &fr->key, now,
					  sizeof(*d), key_params) != 0) {
		mem_put(r, d, sizeof(*d));
		drop(&w->st, &w->st.refused);
		return NULL;
	}
	return d;
}

/*
 * Step 2: the datagram @p fr belongs to, found or begun, with the stripe
 * lock held (@p s). NULL when the fragment is dropped (counted, the lock
 * released, @p b freed). A datagram found too old is unlinked into
 * @p stale, for the caller to retire after the lock.
 */
static struct dgram *dgram_for(struct reasm_worker *w,
			       struct grain_htab_scope *s,
			       const struct frag *fr, struct fbuf **b,
			       uint64_t now, struct stale *stale)
{
	struct reasm *r = w->r;
	struct grain_htab *t = r->tab[fr->family == 6];
	struct grain_hnode *n;
	struct dgram *d = NULL;

	grain_htab_lock_fast(t, &fr->key, s, key_params);
	n = grain_htab_find_locked_fast(s, &fr->key, key_params);
	if (n != NULL) {
		d = grain_container_of(n, struct dgram, node);
		if (dgram_stale(r, d, fr, now, &stale->wrapped)) {
			int rc = grain_htab_remove_locked(s, &d->node);

			assert(rc == 0);
			(void)rc;
			stale->d = d;
			d = NULL; /* this fragment starts a new datagram */
		} else if (r->cfg.mem_refuse &&
			   grain_htab_bytes(t) > r->cfg.mem_high) {
			/* Linux refuses fragments of existing queues too. */
			drop(&w->st, &w->st.refused);
			goto dropped;
		}
	}
	if (d == NULL)
		d = dgram_start(w, s, fr, b, now);
	if (d != NULL)
		return d;
dropped:
	grain_htab_unlock(s);
	fbuf_free(r, *b);
	*b = NULL;
	return NULL;
}

/* Step 3 (stripe lock released): count what add_fragment() did with the
 * fragment. */
static void count_add(struct reasm_worker *w, enum add_result res)
{
	struct reasm_stats *st = &w->st;

	switch (res) {
	case ADD_OK:
		w->held_in++;
		break;
	case ADD_DUP:
		drop(st, &st->duplicates);
		break;
	case ADD_NOMEM:
		drop_nomem(st);
		break;
	case ADD_PAST_END:
		drop(st, &st->past_end);
		break;
	case KILL_OVERLAP:
		st->ReasmOverlaps++;
		break;
	case KILL_BAD_END:
		st->bad_end++;
		break;
	case KILL_TOO_MANY:
		st->too_many_frags++;
		break;
	}
}

/* Step 4a: a datagram unlinked without being completed. One killed by a
 * fragment (@p res) takes that fragment along; a fresh one that took
 * nothing (no memory) is no failure. */
static void dgram_kill(struct reasm_worker *w, struct dgram *d,
		       enum add_result res)
{
	w->held_out += d->nfrags;
	if (res >= KILL_OVERLAP) {
		w->st.ReasmFails++;
		w->st.frags_discarded += d->nfrags + 1u;
	}
	dgram_free(w->r, d);
}

/* Step 4b: a completed datagram, unlinked: rebuilt and emitted, or
 * counted as failed. @return 1 if a datagram was emitted, else 0. */
static int dgram_deliver(struct reasm_worker *w, struct dgram *d, uint64_t now)
{
	struct reasm_stats *st = &w->st;
	struct reasm_meta m;
	struct out_dst dst;
	bool nested = false, refused = false;
	enum rebuild_fail why = rebuild(w, d, now, &m, &dst, &nested, &refused);
	int emitted = 0;

	w->held_out += d->nfrags;
	if (nested)
		st->nested_frag++;
	if (refused)
		st->bad_ext++;
	if (why == REBUILD_OK) {
		st->ReasmOKs++;
		st->frags_reassembled += d->nfrags;
		out_end(w, &m, &dst);
		emitted = 1;
	} else {
		st->ReasmFails++;
		st->frags_discarded += d->nfrags;
		if (why == REBUILD_BAD_ECN)
			st->bad_ecn++;
		else if (why == REBUILD_TOO_BIG)
			st->too_big++;
		else if (why == REBUILD_NO_MEMORY)
			st->no_memory++;
	}
	dgram_free(w->r, d);
	return emitted;
}

/*
 * One fragment: checked alone, its payload copied, its datagram found or
 * begun under the stripe lock, the fragment added, and the datagram
 * unlinked there if it is complete or killed; then, without the lock, the
 * counts, and the datagram rebuilt and emitted or freed.
 * @return 1 if a datagram was emitted, else 0.
 */
static int handle_fragment(struct reasm_worker *w, struct frag *fr,
			   uint64_t now)
{
	struct reasm *r = w->r;
	struct stale stale = { NULL, false };
	struct grain_htab_scope s;
	struct fbuf *b = NULL;
	struct dgram *d;
	uint32_t ne;
	int emitted = 0;

	if (fr->family == 6 && fr->offset == 0 && !fr->mf)
		return emit_atomic(w, fr, now);
	if (!frag_acceptable(&w->st, r->cfg.policy, fr, &ne))
		return 0;
	/* The payload copy is made before the stripe lock is taken, so the
	 * lock covers bookkeeping only; unused, it is freed after unlock. */
	if (ne > fr->offset) {
		b = fbuf_new(r, fr, ne - fr->offset);
		if (b == NULL) {
			drop_nomem(&w->st);
			return 0;
		}
	}
	d = dgram_for(w, &s, fr, &b, now, &stale);
	if (d == NULL) {
		time_out(w, stale.d, stale.wrapped);
		return 0;
	}

	bool overlapped;
	enum add_result res = add_fragment(r, &s, d, fr, ne, &b, &overlapped);
	if (overlapped && r->cfg.policy != REASM_STRICT)
		w->st.ReasmOverlaps++;

	bool done = res == ADD_OK && complete(d);
	/* A new datagram that took nothing is not kept either. */
	bool kill = res >= KILL_OVERLAP || (!done && d->npieces == 0);
	if (done || kill) {
		int rc = grain_htab_remove_locked(&s, &d->node);
		assert(rc == 0); /* d is linked in this stripe */
		(void)rc;
	}
	grain_htab_unlock(&s);
	time_out(w, stale.d, stale.wrapped);
	fbuf_free(r, b); /* not taken */

	count_add(w, res);
	if (kill)
		dgram_kill(w, d, res);
	else if (done)
		emitted = dgram_deliver(w, d, now);
	sample_bytes(w);
	return emitted;
}

/* The counter of a fragment that parse() refused: P_TRUNCATED,
 * P_MALFORMED or P_BADSUM. */
static uint64_t *drop_reason(struct reasm_stats *st, enum parse_result res)
{
	switch (res) {
	case P_TRUNCATED:
		return &st->frags_truncated;
	case P_MALFORMED:
		return &st->malformed;
	default:
		return &st->bad_checksum;
	}
}

int reasm_input(struct reasm_worker *w, const uint8_t *frame, uint32_t caplen,
		uint32_t wirelen, uint64_t now_ns)
{
	struct frag fr;

	memset(&fr, 0, sizeof(fr));
	fr.frame = frame;
	fr.caplen = caplen;
	fr.wirelen = wirelen < caplen ? caplen : wirelen;
	fr.truncated = caplen < wirelen;
	w->st.packets++;
	if (fr.truncated)
		w->st.truncated++;

	enum parse_result res = parse(w->r, &fr);
	if (res != P_PASS && fr.enc.outer_family != 0)
		w->st.tunneled++;
	switch (res) {
	case P_PASS:
		if (fr.note == NOTE_VLAN_DEEP)
			w->st.vlan_too_deep++;
		else if (fr.note == NOTE_PPP_OTHER)
			w->st.ppp_other++;
		else if (fr.note == NOTE_BAD_LINK)
			w->st.bad_link++;
		else if (fr.note == NOTE_BAD_TUNNEL)
			w->st.bad_tunnel++;
		return pass_through(w, &fr, now_ns);
	case P_TRUNCATED:
	case P_MALFORMED:
	case P_BADSUM:
		w->st.ReasmReqds++;
		w->st.frags_dropped++;
		(*drop_reason(&w->st, res))++;
		return 0;
	case P_FRAG:
		break;
	}
	w->st.ReasmReqds++;
	if (fr.truncated) { /* readable, but not all of it was captured */
		w->st.frags_truncated++;
		w->st.frags_dropped++;
		return 0;
	}
	return handle_fragment(w, &fr, now_ns);
}

int32_t reasm_flow_of(const struct reasm *r, const uint8_t *frame,
		      uint32_t caplen)
{
	struct frag fr;

	memset(&fr, 0, sizeof(fr));
	fr.frame = frame;
	fr.caplen = caplen;
	fr.wirelen = caplen;
	if (parse(r, &fr) != P_FRAG)
		return -1; /* passed through or dropped: touches no table */
	if (fr.family == 4)
		return (int32_t)born_index(&fr.key); /* REASM_ID_DIST */
	return (int32_t)(key_hash(&fr.key, &r->secret, NULL) & 0x7fffffff);
}

unsigned reasm_expire(struct reasm_worker *w, uint64_t now_ns)
{
	return grain_htab_expire(w->r->tab[0], now_ns) +
	       grain_htab_expire(w->r->tab[1], now_ns);
}

/* --- lifecycle and statistics --------------------------------------------- */

static void engine_free(struct reasm *r)
{
	struct grain_alloc a = r->alloc;

	grain_mem_free(r->ap != NULL ? &a : NULL, r, sizeof(*r),
		       _Alignof(struct reasm));
}

int reasm_create(struct reasm **rp, const struct reasm_config *cfg)
{
	struct reasm_config c;

	if (rp == NULL || cfg == NULL)
		return -EINVAL;
	c = *cfg;
	if (!reasm_link_supported(c.link) ||
	    (unsigned)c.policy >= REASM_POLICY_COUNT)
		return -EINVAL;
	if (c.timeout_v4_ns == 0)
		c.timeout_v4_ns = 30ull * 1000000000ull;
	if (c.timeout_v6_ns == 0)
		c.timeout_v6_ns = 60ull * 1000000000ull;
	if (c.mem_high == 0)
		c.mem_high = 4u << 20;
	if (c.mem_low == 0)
		c.mem_low = c.mem_high == (4u << 20) ? 3u << 20
						     : c.mem_high / 4 * 3;
	if (c.mem_low > c.mem_high)
		return -EINVAL;
	if (c.max_frags == 0)
		c.max_frags = REASM_MAX_FRAGS_DEFAULT;
	if (c.max_frags > REASM_MAX_FRAGS_LIMIT)
		return -EINVAL;
	if (c.stripes == 0)
		c.stripes = 64;
	if (c.stripes & (c.stripes - 1))
		return -EINVAL;
	if (c.decap & ~(unsigned)REASM_DECAP_ALL)
		return -EINVAL;

	struct reasm *r =
		grain_mem_alloc(cfg->alloc, sizeof(*r), _Alignof(struct reasm));
	if (r == NULL)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	r->cfg = c;
	if (cfg->alloc != NULL) {
		r->alloc = *cfg->alloc;
		r->ap = &r->alloc;
	}
	r->cfg.alloc = NULL; /* the copy above is the one used */
	int rc = grain_hash_key_random(&r->secret);
	if (rc != 0) {
		engine_free(r);
		return rc;
	}
	for (int f = 0; f < 2; f++) {
		struct grain_htab_config hc = {
			.ops = { .hash = key_hash,
				 .eq = key_eq,
				 .reclaim = dgram_reclaim },
			.ctx = r,
			.stripes = c.stripes,
			.mem_high = c.mem_high,
			.mem_low = c.mem_low,
			.policy = c.mem_refuse ? GRAIN_HTAB_REFUSE
					       : GRAIN_HTAB_EVICT,
			.ttl = f == 0 ? c.timeout_v4_ns : c.timeout_v6_ns,
			.flags = GRAIN_HTAB_NO_RCU,
			.secret = &r->secret,
		};
		rc = grain_htab_create(&r->tab[f], &hc, r->ap);
		if (rc != 0) {
			if (f == 1)
				grain_htab_destroy(r->tab[0]);
			engine_free(r);
			return rc;
		}
	}
	*rp = r;
	return 0;
}

int reasm_worker_init(struct reasm_worker *w, struct reasm *r,
		      reasm_emit_fn emit_fn, void *emit_arg)
{
	if (w == NULL || r == NULL || emit_fn == NULL)
		return -EINVAL;
	if (r->nworkers >= MAX_WORKERS)
		return -ENOSPC;
	memset(w, 0, sizeof(*w));
	w->r = r;
	w->emit = emit_fn;
	w->emit_arg = emit_arg;
	r->workers[r->nworkers++] = w;
	return 0;
}

/* Every worker's share, plus what the table's callbacks decided. */
static void stats_collect(struct reasm *r, struct reasm_stats *st)
{
	uint64_t held = 0;

	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < r->nworkers; i++) {
		reasm_stats_add(st, &r->workers[i]->st);
		held += r->workers[i]->held_in - r->workers[i]->held_out;
	}
	uint64_t timeouts =
		atomic_load_explicit(&r->cb_timeout, memory_order_relaxed);
	uint64_t evicted =
		atomic_load_explicit(&r->cb_evicted, memory_order_relaxed);
	uint64_t gone =
		atomic_load_explicit(&r->cb_frags, memory_order_relaxed);
	st->ReasmTimeout += timeouts;
	st->evicted += evicted;
	st->ReasmFails += timeouts + evicted;
	st->frags_discarded += gone;
	st->frags_pending = held - gone;
	uint64_t seen =
		atomic_load_explicit(&r->peak_read, memory_order_relaxed);
	if (seen > st->bytes_peak)
		st->bytes_peak = seen;
}

void reasm_stats_read(struct reasm *r, struct reasm_stats *st)
{
	struct grain_htab_stats hs;

	stats_collect(r, st);
	st->datagrams_pending = 0;
	st->bytes_held = 0;
	for (int f = 0; f < 2; f++) {
		grain_htab_get_stats(r->tab[f], &hs);
		st->datagrams_pending += hs.entries;
		st->bytes_held += grain_htab_bytes_exact(r->tab[f]);
	}
	uint64_t seen =
		atomic_load_explicit(&r->peak_read, memory_order_relaxed);
	while (st->bytes_held > seen &&
	       !atomic_compare_exchange_weak_explicit(
		       &r->peak_read, &seen, st->bytes_held,
		       memory_order_relaxed, memory_order_relaxed))
		;
	if (st->bytes_held > st->bytes_peak)
		st->bytes_peak = st->bytes_held;
}

void reasm_stats_shared(struct reasm *r, struct reasm_stats *st)
{
	struct grain_htab_stats hs;

	memset(st, 0, sizeof(*st));
	st->ReasmTimeout =
		atomic_load_explicit(&r->cb_timeout, memory_order_relaxed);
	st->evicted =
		atomic_load_explicit(&r->cb_evicted, memory_order_relaxed);
	for (int f = 0; f < 2; f++) {
		grain_htab_get_stats(r->tab[f], &hs);
		st->datagrams_pending += hs.entries;
		st->bytes_held += grain_htab_bytes(r->tab[f]);
	}
}

void reasm_destroy(struct reasm *r, struct reasm_stats *st)
{
	if (r == NULL)
		return;
	uint64_t held = 0;
	for (int f = 0; f < 2; f++)
		held += grain_htab_bytes_exact(r->tab[f]);
	grain_htab_destroy(r->tab[0]);
	grain_htab_destroy(r->tab[1]);
	if (st != NULL) {
		stats_collect(r, st);
		/* Measured from what destroy found, not derived. */
		st->frags_pending = atomic_load_explicit(&r->cb_pending_frags,
							 memory_order_relaxed);
		st->datagrams_pending = atomic_load_explicit(
			&r->cb_pending_dgrams, memory_order_relaxed);
		st->bytes_held = 0;
		if (held > st->bytes_peak)
			st->bytes_peak = held;
	}
	engine_free(r);
}
