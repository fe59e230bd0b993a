/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pktbuild.h - packets for examples/reasm: its tests, reasm-gen, the fuzz
 * harness and the benchmark.
 *
 * Contents
 *   1. Link layers: Ethernet with 0..9 VLAN tags (802.1Q 0x8100, 802.1ad
 *      0x88a8) and optionally a PPPoE session, Linux SLL (16-byte header,
 *      protocol at offset 14), SLL2 (20-byte header, protocol at offset
 *      0), PPP (DLT_PPP: the protocol alone, compressed to one byte where
 *      RFC 1661 allows; DLT_PPP_SERIAL: 0xff 0x03 and two bytes of
 *      protocol), raw IP (DLT_RAW, DLT_IPV4, DLT_IPV6).
 *   2. A datagram description (struct pb_dgram): the IPv4 or IPv6 header
 *      fields, IPv6 extension headers before the Fragment header, and the
 *      fragmentable part (upper-layer header and data).
 *   3. Fragments of a datagram: one at a time (pb_frag) with any offset,
 *      length, bytes and MF flag, or a whole split at chosen boundaries
 *      (pb_split, pb_split_every).
 *   4. Tunnels around an IP packet (struct pb_tunnel): IP-in-IP
 *      (RFC 2003, RFC 2473), GRE version 0 (RFC 2784, RFC 2890) carrying
 *      IP or PPP, and PPTP's GRE version 1 (RFC 2637) carrying PPP.
 *   5. The checker (pb_check): parses a reassembled frame, checks the IP
 *      header field by field (IPv4 total length, checksum, MF and offset
 *      clear, DF, TOS; IPv6 payload length, no Fragment header, the Next
 *      Header of the header before it patched), then every byte against
 *      the datagram built whole.
 *
 * Numbers on the wire are big-endian; the structs hold host values. To
 * vary one fragment (TOS, DF, options, link header, a wrong checksum),
 * copy the pb_dgram, change the copy, and build that fragment from it.
 *
 * Frames come either in a malloc'd struct pb_frame or, for programs that
 * lay out their own memory (the benchmark's pools, a capture writer), in
 * a caller's buffer (the _into calls).
 *
 * Nothing here depends on the engine or on Criterion.
 */
#ifndef REASM_PKTBUILD_H
#define REASM_PKTBUILD_H

#include "inet.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* pcap link types (DLT_ values). */
#define PB_DLT_ETHERNET 1
#define PB_DLT_PPP 9
#define PB_DLT_RAW 12
#define PB_DLT_PPP_SERIAL 50
#define PB_DLT_SLL 113
#define PB_DLT_IPV4 228
#define PB_DLT_IPV6 229
#define PB_DLT_SLL2 276

#define PB_ETH_IPV4 0x0800
#define PB_ETH_IPV6 0x86dd
#define PB_ETH_ARP 0x0806
#define PB_TPID_8021Q 0x8100
#define PB_TPID_8021AD 0x88a8
#define PB_ETH_PPPOE 0x8864

#define PB_IPPROTO_HOPOPTS 0
#define PB_IPPROTO_ICMP 1
#define PB_IPPROTO_TCP 6
#define PB_IPPROTO_UDP 17
#define PB_IPPROTO_ROUTING 43
#define PB_IPPROTO_FRAGMENT 44
#define PB_IPPROTO_ESP 50
#define PB_IPPROTO_ICMPV6 58
#define PB_IPPROTO_NONE 59
#define PB_IPPROTO_DSTOPTS 60

/* ECN codepoints (the low two bits of TOS / Traffic Class). */
#define PB_ECN_NOT_ECT 0u
#define PB_ECN_ECT1 1u
#define PB_ECN_ECT0 2u
#define PB_ECN_CE 3u

/* The most VLAN tags pb_link can carry. */
#define PB_VLAN_MAX 9u

/* Room for any link header built here (Ethernet with nine tags and a
 * PPPoE session: 58). */
#define PB_LINK_MAX 60u

/** A link layer. */
struct pb_link {
	int dlt;	/**< PB_DLT_* */
	unsigned nvlan; /**< Ethernet: 0..PB_VLAN_MAX tags, outer first */
	uint16_t tpid[PB_VLAN_MAX]; /**< each tag's TPID; 0 means 0x8100 */
	uint16_t tci[PB_VLAN_MAX];  /**< each tag's PCP/DEI/VID */
	/** Varies the header without changing the key: the last byte of the
	 * source MAC (Ethernet) or of the link address (SLL, SLL2). */
	uint8_t mark;
	/** Ethernet: the destination and then the source MAC address (12
	 * bytes, not owned); NULL: 02:00:00:00:00:02 and
	 * 02:00:00:00:00:<mark>. */
	const uint8_t *macs;
	/** SLL, SLL2: the link address (6 bytes, not owned); NULL:
	 * 02:00:00:00:01:<mark>. */
	const uint8_t *lladdr;
	/** SLL2: the interface index; 0 means 2. */
	uint32_t ifindex;
	/** Ethernet: after the tags, a PPPoE session header (RFC 2516,
	 * session @p pppoe_session) and PPP's protocol instead of the
	 * EtherType. */
	bool pppoe;
	uint16_t pppoe_session;
};

/** IPv4 header fields (not the ones that differ per fragment). */
struct pb_ip4 {
	uint32_t src, dst; /**< host order: 0xc0000201 is 192.0.2.1 */
	uint16_t id;
	uint8_t proto;
	uint8_t tos; /**< DSCP << 2 | ECN */
	uint8_t ttl;
	bool df;
	uint8_t optlen; /**< bytes of options: a multiple of 4, <= 40 */
	uint8_t opts[40];
	bool bad_checksum; /**< write a wrong header checksum */
};

/** IPv6 header fields and the extension headers before the Fragment
 * header (hop-by-hop first, then destination options, then routing). */
struct pb_ip6 {
	uint8_t src[16], dst[16];
	uint8_t tclass; /**< DSCP << 2 | ECN */
	uint32_t flow;	/**< 20 bits */
	uint8_t hlim;
	uint32_t id; /**< Fragment header identification */
	/** The Fragment header's Next Header: the first header of the
	 * fragmentable part. */
	uint8_t proto;
	/** Bytes of the hop-by-hop and destination options headers: 0 (none)
	 * or a multiple of 8, at most 2040. */
	uint16_t hbh_len, dst_len;
	/** Bytes of a routing header (0: none; else a multiple of 8, at
	 * least 8, at most 2040) of routing type @p rt_type, segments left
	 * 0, the rest zero. */
	uint16_t rt_len;
	uint8_t rt_type;
};

/** A datagram: its headers and its fragmentable part. */
struct pb_dgram {
	int family; /**< 4 or 6 */
	struct pb_link link;
	struct pb_ip4 v4;
	struct pb_ip6 v6;
	const uint8_t *data; /**< the fragmentable part (not owned) */
	size_t len;
};

/** A frame, as a capture holds it. */
struct pb_frame {
	uint32_t caplen;  /**< bytes in data */
	uint32_t wirelen; /**< length on the wire (caplen unless truncated) */
	uint32_t l3off;	  /**< where the IP header starts */
	uint8_t data[];
};

/* --- Datagrams ----------------------------------------------------------- */

/** An IPv4 datagram on @p dlt: 192.0.2.1 -> 198.51.100.2, TTL 64, no
 * options, no DF, TOS 0, of @p len bytes at @p data (not copied). */
void pb_dgram_v4(struct pb_dgram *d, int dlt, uint16_t id, uint8_t proto,
		 const uint8_t *data, size_t len);

/** An IPv6 datagram on @p dlt: 2001:db8::1 -> 2001:db8::2, hop limit 64,
 * no extension headers, of @p len bytes at @p data (not copied). */
void pb_dgram_v6(struct pb_dgram *d, int dlt, uint32_t id, uint8_t proto,
		 const uint8_t *data, size_t len);

/** Fill @p len bytes with a pseudo-random pattern that depends on
 * @p seed and on the position. */
void pb_fill(uint8_t *buf, size_t len, uint32_t seed);

/** Upper-layer headers to put at the start of a fragmentable part; each
 * returns its length. Checksums are left 0 (the engine never reads them). */
size_t pb_udp_hdr(uint8_t *buf, uint16_t sport, uint16_t dport, uint16_t len);
size_t pb_tcp_hdr(uint8_t *buf, uint16_t sport, uint16_t dport, uint32_t seq);
size_t pb_icmp_echo_hdr(uint8_t *buf, bool v6, uint16_t ident, uint16_t seq);

/* --- Frames -------------------------------------------------------------- */

/** Write the link header of @p l for an IP packet of @p family (4 or 6;
 * anything else: the EtherType/protocol @p family itself) into @p buf
 * (PB_LINK_MAX bytes); @return its length. A PPPoE length field counts
 * no bytes after the header: pb_link_put() sets it. */
size_t pb_link_hdr(const struct pb_link *l, int family, uint8_t *buf);

/** Write the link header of @p l for @p l3len bytes of EtherType
 * @p ethertype (PPP links: IPv4 as protocol 0x0021, IPv6 as 0x0057, any
 * other as the same number) into @p buf (PB_LINK_MAX bytes), PPPoE's
 * length field included (l3len + 2, modulo 2^16: too long a packet gets
 * a wrong one, as a fuzzer may want); @return its length. */
size_t pb_link_put(const struct pb_link *l, uint16_t ethertype, size_t l3len,
		   uint8_t *buf);

/** A frame of @p l around the @p len bytes at @p l3, whose EtherType is
 * @p ethertype (PB_ETH_*). Raw links take the bytes as they are. */
struct pb_frame *pb_wrap(const struct pb_link *l, uint16_t ethertype,
			 const uint8_t *l3, size_t len);

/** Fragment of @p d: offset @p off (bytes), @p len bytes taken from
 * @p bytes, or from d->data + off when @p bytes is NULL, and the
 * more-fragments flag @p mf. IPv4 fragments carry d->v4 (DF, TOS, options,
 * checksum); IPv6 fragments the extension headers of d->v6 and then a
 * Fragment header. Off need not be a multiple of 8 (the offset field
 * holds off / 8). */
struct pb_frame *pb_frag(const struct pb_dgram *d, uint32_t off,
			 const uint8_t *bytes, size_t len, bool mf);

/** Bytes a fragment of @p len data bytes of @p d takes at most (a
 * buffer that large suits pb_frag_into()). */
size_t pb_frag_room(const struct pb_dgram *d, size_t len);

/** pb_frag() written into the @p cap bytes at @p buf instead of a
 * malloc'd frame (too small a buffer aborts); @return the frame's length.
 * Its IP header starts pb_link_len(&d->link) bytes in. */
size_t pb_frag_into(const struct pb_dgram *d, uint32_t off,
		    const uint8_t *bytes, size_t len, bool mf, uint8_t *buf,
		    size_t cap);

/** pb_whole() written into the @p cap bytes at @p buf (at least
 * pb_frag_room(d, d->len)); @return the frame's length. */
size_t pb_whole_into(const struct pb_dgram *d, uint8_t *buf, size_t cap);

/** @p d whole, not fragmented: IPv4 with MF 0 and offset 0 (DF as d->v4),
 * IPv6 without a Fragment header and with the extension headers' Next
 * Header chain ending in d->v6.proto. This is what reassembly of @p d
 * must produce. */
struct pb_frame *pb_whole(const struct pb_dgram *d);

/** Split @p d into @p n fragments starting at @p starts[0] (0) <
 * starts[1] < ...; fragment i ends where i + 1 starts, the last at d->len
 * with MF 0. @p out receives @p n frames. */
void pb_split(const struct pb_dgram *d, const uint32_t *starts, size_t n,
	      struct pb_frame **out);

/** Split @p d into fragments of @p chunk bytes (a multiple of 8), the last
 * one shorter. @return a malloc'd array of *n frames. */
struct pb_frame **pb_split_every(const struct pb_dgram *d, size_t chunk,
				 size_t *n);

void pb_frame_free(struct pb_frame *f);
/** Free @p n frames of @p v and, when @p free_array, the array. */
void pb_frames_free(struct pb_frame **v, size_t n, bool free_array);

/* --- Tunnels ------------------------------------------------------------ */

enum pb_tunnel_kind {
	PB_TUN_IPIP,	/**< the inner packet right after the outer header */
	PB_TUN_GRE,	/**< GRE version 0, protocol the inner EtherType */
	PB_TUN_GRE_PPP, /**< GRE version 0, protocol 0x880b, PPP */
	PB_TUN_PPTP,	/**< GRE version 1 (key bit always set), PPP */
};

/* GRE flags (pb_tunnel.gre_flags). */
#define PB_GRE_C 0x8000u /* version 0: a checksum */
#define PB_GRE_K 0x2000u /* version 0: a key */
#define PB_GRE_S 0x1000u /* a sequence number */
#define PB_GRE_A 0x0080u /* version 1: an acknowledgment number */

/** A tunnel: the outer IP header and what follows it up to the inner
 * packet. */
struct pb_tunnel {
	int outer; /**< the outer header's family: 4 or 6 */
	enum pb_tunnel_kind kind;
	uint16_t gre_flags; /**< PB_GRE_*: C, K, S (v0); S, A (PPTP) */
	bool ppp1;	/**< PPP: a 1-byte protocol, no 0xff 0x03 in front */
	uint16_t ip_id; /**< the outer IPv4 header's */
	uint8_t src[16], dst[16]; /**< outer addresses (IPv4: 4 bytes) */
	uint32_t key, seq, ack;	  /**< GRE fields, where present */
	uint16_t call_id;	  /**< PPTP */
};

/** Bytes of the headers of @p t around an inner packet of @p family. */
size_t pb_tunnel_len(const struct pb_tunnel *t, int family);

/** Write the headers of @p t at @p buf, in front of the inner packet of
 * @p family and @p len bytes that already stands at buf +
 * pb_tunnel_len(t, family): every length set, the outer IPv4 checksum and
 * a GRE checksum (PB_GRE_C) over the inner packet too. Lengths are
 * written modulo 2^16: too long a packet gets wrong ones (a fuzzer may
 * want them). @return pb_tunnel_len(t, family). */
size_t pb_tunnel_put(const struct pb_tunnel *t, int family, uint8_t *buf,
		     size_t len);

/* --- Checking ------------------------------------------------------------ */

/**
 * pb_check - do the @p len bytes at @p frame hold exactly @p want
 * reassembled? @p want describes the output: want->link the offset-0
 * fragment's link layer, want->v4 / want->v6 its header with the TOS or
 * Traffic Class and the DF flag the output must carry, want->data the
 * whole fragmentable part. Checks, in order, the link header, the IP
 * header's fields (each with its own message), then every byte against
 * pb_whole(@p want).
 * @return true, or false with a message in @p why (@p whylen bytes).
 */
bool pb_check(const uint8_t *frame, size_t len, const struct pb_dgram *want,
	      char *why, size_t whylen);

/** Offset of the IP header in a frame of @p l that carries IP (-1 if
 * @p l has a variable header, never here). */
int pb_link_len(const struct pb_link *l);

#endif /* REASM_PKTBUILD_H */
