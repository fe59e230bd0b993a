/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inet.h - what every part of examples/reasm needs to read and write
 * Internet headers: big-endian loads and stores, the header sizes and
 * protocol numbers, the Internet checksum (RFC 1071) and the Linux
 * cooked-capture headers that captures put before them.
 *
 * Used by the engine, the command-line programs (reasm, reasm-gen), the
 * tests' packet builder (pkt/pktbuild.c), the fuzz harness, the
 * end-to-end senders and the benchmark's frames, so that there is one
 * checksum and one byte order in the tree.
 *
 * Byte order comes from <endian.h> (glibc, musl, the BSDs): the includer
 * defines _DEFAULT_SOURCE (or _GNU_SOURCE) before its first #include, as
 * a strict -std=c11 build hides be16toh() and friends otherwise.
 *
 * Every function is a pure function of its arguments: any thread may call
 * any of them at any time. Pointers may be unaligned.
 */
#ifndef REASM_INET_H
#define REASM_INET_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(be16toh) || !defined(htobe32)
#error "inet.h: define _DEFAULT_SOURCE before the first #include"
#endif

/* --- Sizes and numbers ---------------------------------------------------- */

#define INET_ETH_HLEN 14u  /* Ethernet header, no VLAN tag */
#define INET_IPV4_HLEN 20u /* IPv4 header without options */
#define INET_IPV6_HLEN 40u /* IPv6 fixed header */
#define INET_FRAG_HLEN 8u  /* IPv6 Fragment extension header */
#define INET_UDP_HLEN 8u   /* UDP header */

#define INET_ETH_IPV4 0x0800u
#define INET_ETH_IPV6 0x86ddu

#define INET_PROTO_HOPOPTS 0u
#define INET_PROTO_ICMP 1u
#define INET_PROTO_TCP 6u
#define INET_PROTO_UDP 17u
#define INET_PROTO_FRAGMENT 44u
#define INET_PROTO_DSTOPTS 60u

/* --- Big-endian loads and stores ------------------------------------------ */

static inline uint16_t inet_rd16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return be16toh(v);
}

static inline uint32_t inet_rd32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline void inet_wr16(void *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void inet_wr32(void *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, sizeof(v));
}

/* --- The Internet checksum (RFC 1071) ------------------------------------- */

/* @p sum folded to 16 bits, its carries added back in. */
static inline uint32_t inet_carry(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffffu) + (sum >> 16);
	return (uint32_t)sum;
}

/*
 * The one's complement sum of the @p n bytes at @p p, read as big-endian
 * 16-bit words (an odd last byte is the high half of a word padded with
 * zero), added to @p sum.
 *
 * @return the sum folded to 16 bits (so that any number of calls can be
 * chained without overflow); not inverted. Chain calls only where the
 * previous ones summed an even number of bytes.
 */
static inline uint32_t inet_sum(uint32_t sum, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t acc = sum;

	for (size_t i = 0; i + 1 < n; i += 2)
		acc += (uint32_t)b[i] << 8 | b[i + 1];
	if (n & 1)
		acc += (uint32_t)b[n - 1] << 8;
	return inet_carry(acc);
}

/* The checksum field's value for a one's complement sum @p sum: folded
 * and inverted. */
static inline uint16_t inet_fold(uint32_t sum)
{
	return (uint16_t)~inet_carry(sum);
}

/* The checksum of @p n bytes: the value to store when the checksum field
 * inside them is zero, and 0 when the stored value is right. */
static inline uint16_t inet_csum(const void *p, size_t n)
{
	return inet_fold(inet_sum(0, p, n));
}

/*
 * The sum of the TCP/UDP pseudo-header (RFC 768, RFC 8200 section 8.1):
 * source and destination addresses of @p alen bytes each (4 or 16), the
 * protocol @p proto and the upper-layer length @p l4len. Not folded:
 * pass it to inet_sum() as its @p sum.
 */
static inline uint32_t inet_pseudo_sum(const uint8_t *src, const uint8_t *dst,
				       size_t alen, uint8_t proto,
				       uint32_t l4len)
{
	uint32_t sum = inet_sum(0, src, alen);

	sum = inet_sum(sum, dst, alen);
	return sum + proto + (l4len >> 16) + (l4len & 0xffffu);
}

/* The UDP checksum field for the sum @p sum (pseudo-header included): as
 * inet_fold(), but 0xffff for 0, which would mean "no checksum". */
static inline uint16_t inet_udp_fold(uint32_t sum)
{
	uint16_t c = inet_fold(sum);

	return c == 0 ? 0xffffu : c;
}

/* --- Linux cooked-capture headers (pcap link types SLL and SLL2) ---------- */

#define INET_SLL_HLEN 16u  /* DLT_LINUX_SLL */
#define INET_SLL2_HLEN 20u /* DLT_LINUX_SLL2 */

/* Write at @p p the DLT_LINUX_SLL header that a capture on Linux gives a
 * frame received from an Ethernet device: packet type 0 (to us),
 * ARPHRD_ETHER, the 6-byte source address @p mac (zero-padded to the
 * field's 8 bytes) and @p ethertype. @return INET_SLL_HLEN. */
static inline size_t inet_put_sll(uint8_t *p, uint16_t ethertype,
				  const uint8_t mac[6])
{
	memset(p, 0, INET_SLL_HLEN);
	inet_wr16(p + 2, 1); /* ARPHRD_ETHER */
	inet_wr16(p + 4, 6); /* address length */
	memcpy(p + 6, mac, 6);
	inet_wr16(p + 14, ethertype);
	return INET_SLL_HLEN;
}

/* The same frame's DLT_LINUX_SLL2 header, received on interface
 * @p ifindex. @return INET_SLL2_HLEN. */
static inline size_t inet_put_sll2(uint8_t *p, uint16_t ethertype,
				   uint32_t ifindex, const uint8_t mac[6])
{
	memset(p, 0, INET_SLL2_HLEN);
	inet_wr16(p, ethertype);
	inet_wr32(p + 4, ifindex);
	inet_wr16(p + 8, 1); /* ARPHRD_ETHER; p[10], the packet type: 0 */
	p[11] = 6;	     /* address length */
	memcpy(p + 12, mac, 6);
	return INET_SLL2_HLEN;
}

#endif /* REASM_INET_H */
