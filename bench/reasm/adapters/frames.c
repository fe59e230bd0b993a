/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * frames.c - the frame pools of the reassembly benchmark: UDP datagrams
 * cut into IPv4 fragments at MTU 1500, and the flood fragments, all with
 * correct checksums (RFC 791 header checksum, RFC 768 UDP checksum over
 * the pseudo-header), built once and reused by every experiment.
 *
 * Layout: every frame starts on a 64-byte boundary of one allocation, the
 * datagrams' fragments in order, then the flood. No frame is shared
 * between two workers of an experiment, so the harness may rewrite a
 * frame's IP ID in place.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include "frames.h"

#include "inet.h"
#include "reasm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define IP_HDR 20u
#define UDP_HDR 8u
#define FRAME_ALIGN 64u

static const uint8_t eth_dst[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t eth_src[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

uint32_t frame_l2_len(enum bench_reasm_link link)
{
	return link == BENCH_REASM_LINK_ETHERNET ? 14u : 0u;
}

int frame_dlt(enum bench_reasm_link link)
{
	return link == BENCH_REASM_LINK_ETHERNET ? REASM_LINK_ETHERNET
						 : REASM_LINK_RAW;
}

uint32_t frame_sum(const uint8_t *p, size_t n, uint32_t sum)
{
	return inet_sum(sum, p, n);
}

uint16_t frame_ip_checksum(const uint8_t *ip)
{
	return inet_csum(ip, IP_HDR);
}

static uint32_t legit_src(uint32_t index)
{
	return (10u << 24) | (index & 0xffffffu);
}

static uint32_t flood_src(uint32_t j)
{
	return (100u << 24) | ((64u + (j >> 16)) << 16) | (j & 0xffffu);
}

/* The link header and an IPv4 header with IP ID 0; returns the checksum
 * stored (the one with ID 0). */
static uint16_t put_headers(uint8_t *f, enum bench_reasm_link link,
			    uint32_t src, uint32_t payload, uint32_t offset,
			    bool mf)
{
	uint8_t *ip = f + frame_l2_len(link);

	if (link == BENCH_REASM_LINK_ETHERNET) {
		memcpy(f, eth_dst, 6);
		memcpy(f + 6, eth_src, 6);
		frame_wr16(f + 12, 0x0800);
	}
	memset(ip, 0, IP_HDR);
	ip[0] = 0x45;
	frame_wr16(ip + 2, (uint16_t)(IP_HDR + payload));
	frame_wr16(ip + 6, (uint16_t)((mf ? 0x2000u : 0u) | (offset / 8u)));
	ip[8] = 64;
	ip[9] = 17; /* UDP */
	inet_wr32(ip + 12, src);
	inet_wr32(ip + 16, FRAME_DST_ADDR);
	uint16_t csum = frame_ip_checksum(ip);
	frame_wr16(ip + 10, csum);
	return csum;
}

static uint64_t round_up(uint64_t n)
{
	return (n + FRAME_ALIGN - 1) / FRAME_ALIGN * FRAME_ALIGN;
}

/* The UDP datagram of legitimate datagram @p index, @p len bytes (header
 * included), into @p u; returns its checksum field. */
static uint16_t build_udp(uint8_t *u, uint32_t len, uint32_t index)
{
	frame_wr16(u, (uint16_t)FRAME_UDP_SPORT);
	frame_wr16(u + 2, (uint16_t)FRAME_UDP_DPORT);
	frame_wr16(u + 4, (uint16_t)len);
	frame_wr16(u + 6, 0);
	for (uint32_t pos = 0; pos < len - UDP_HDR; pos++)
		u[UDP_HDR + pos] = frame_payload_byte(index, pos);

	uint8_t addrs[8];
	inet_wr32(addrs, legit_src(index));
	inet_wr32(addrs + 4, FRAME_DST_ADDR);
	uint32_t sum =
		inet_pseudo_sum(addrs, addrs + 4, 4, INET_PROTO_UDP, len);
	uint16_t csum = inet_udp_fold(inet_sum(sum, u, len));
	frame_wr16(u + 6, csum);
	return csum;
}

/* The legitimate datagrams' fragments of @p p from @p at on, @p udp a
 * scratch buffer of info.ip_payload bytes. @return the end. */
static uint8_t *fill_legit(struct frame_pool *p, uint8_t *at,
			   enum bench_reasm_link link, uint8_t *udp)
{
	const struct bench_reasm_workload_info *in = &p->info;
	const uint32_t l2 = frame_l2_len(link);
	const uint32_t fp = BENCH_REASM_FRAG_PAYLOAD;

	for (uint32_t i = 0; i < in->datagrams; i++) {
		p->udp_csum[i] = build_udp(udp, in->ip_payload, i);
		for (uint32_t k = 0; k < in->frags; k++) {
			uint32_t off = k * fp;
			uint32_t n = k + 1 < in->frags ? fp
						       : in->ip_payload - off;
			struct pool_frame *f = &p->legit[i * in->frags + k];
			f->data = at;
			f->len = l2 + IP_HDR + n;
			f->csum0 = put_headers(at, link, legit_src(i), n, off,
					       k + 1 < in->frags);
			memcpy(at + l2 + IP_HDR, udp + off, n);
			at += round_up(f->len);
		}
	}
	return at;
}

/* The flood fragments of @p p from @p at on, one @p slot each: the start
 * of a 65000-byte UDP datagram whose other fragments never come. */
static void fill_flood(struct frame_pool *p, uint8_t *at,
		       enum bench_reasm_link link, uint64_t slot)
{
	const uint32_t l2 = frame_l2_len(link);
	const uint32_t fp = BENCH_REASM_FRAG_PAYLOAD;

	for (uint64_t j = 0; j < p->info.flood_frames; j++) {
		struct pool_frame *f = &p->flood[j];
		uint8_t *pl = at + l2 + IP_HDR;
		f->data = at;
		f->len = l2 + IP_HDR + fp;
		f->csum0 = put_headers(at, link, flood_src((uint32_t)j), fp, 0,
				       true);
		frame_wr16(pl, (uint16_t)FRAME_UDP_SPORT);
		frame_wr16(pl + 2, (uint16_t)FRAME_UDP_DPORT);
		frame_wr16(pl + 4, 65000u);
		frame_wr16(pl + 6, 0);
		for (uint32_t pos = UDP_HDR; pos < fp; pos++)
			pl[pos] = (uint8_t)(pos ^ j);
		at += slot;
	}
}

int frame_pool_build(struct frame_pool *p, enum bench_reasm_workload w,
		     const struct bench_reasm_setup *s)
{
	struct bench_reasm_workload_info *in = &p->info;
	const uint32_t l2 = frame_l2_len(s->link);
	const uint32_t fp = BENCH_REASM_FRAG_PAYLOAD;

	memset(p, 0, sizeof(*p));
	if (s->flood_every == 0 || s->pool_mib == 0 || s->max_workers == 0 ||
	    s->max_workers > BENCH_REASM_MAX_WORKERS ||
	    (unsigned)s->link >= BENCH_REASM_LINK_COUNT)
		return -EINVAL;
	switch (w) {
	case BENCH_REASM_64K:
		in->name = "64K";
		in->ip_payload = 65535u - IP_HDR; /* 65507 UDP data bytes */
		break;
	case BENCH_REASM_3F:
		in->name = "3F";
		in->ip_payload = 2 * fp + 1440u;
		break;
	default:
		return -EINVAL;
	}
	in->frags = (in->ip_payload + fp - 1) / fp;

	/* Bytes of one datagram's frames, as laid out. */
	uint64_t per_dgram = 0;
	for (unsigned k = 0; k < in->frags; k++) {
		uint32_t n = k + 1 < in->frags ? fp : in->ip_payload - k * fp;
		per_dgram += round_up(l2 + IP_HDR + n);
		in->frame_bytes += l2 + IP_HDR + n;
	}
	uint64_t want = (uint64_t)s->pool_mib << 20;
	uint64_t d = want / per_dgram;
	if (d < 2 * s->max_workers)
		d = 2 * s->max_workers;
	if (d >= (1u << 24))
		return -EINVAL;
	in->datagrams = (unsigned)d;
	in->frames = d * in->frags;
	in->frame_bytes *= d;
	/* Each worker's list has one flood fragment after every
	 * flood_every of its own legitimate ones: at most this many. */
	in->flood_frames = in->frames / s->flood_every + s->max_workers;
	in->flood_bytes = in->flood_frames * (l2 + IP_HDR + fp);
	/* About 1 MiB of legitimate datagrams in flight at most. */
	in->window_datagrams = (1u << 20) / in->ip_payload;
	if (in->window_datagrams < 1)
		in->window_datagrams = 1;

	uint64_t flood_slot = round_up(l2 + IP_HDR + fp);
	uint64_t total = per_dgram * d + flood_slot * in->flood_frames;
	p->mem = aligned_alloc(FRAME_ALIGN, (size_t)total);
	p->legit = calloc((size_t)in->frames, sizeof(*p->legit));
	p->flood = calloc((size_t)in->flood_frames, sizeof(*p->flood));
	p->udp_csum = calloc((size_t)d, sizeof(*p->udp_csum));
	uint8_t *udp = malloc(in->ip_payload);
	if (p->mem == NULL || p->legit == NULL || p->flood == NULL ||
	    p->udp_csum == NULL || udp == NULL) {
		free(udp);
		frame_pool_free(p);
		return -ENOMEM;
	}

	uint8_t *at = fill_legit(p, p->mem, s->link, udp);
	fill_flood(p, at, s->link, flood_slot);
	free(udp);
	return 0;
}

void frame_pool_free(struct frame_pool *p)
{
	free(p->mem);
	free(p->legit);
	free(p->flood);
	free(p->udp_csum);
	memset(p, 0, sizeof(*p));
}
