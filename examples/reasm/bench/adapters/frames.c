/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * frames.c - the frame pools of the reassembly benchmark (frames.h), built
 * once by bench_reasm_setup() and reused by every experiment: UDP
 * datagrams cut into IPv4 (or IPv6) fragments at MTU 1500, and the flood
 * fragments, all with correct checksums (RFC 791 header checksum, RFC 768
 * UDP checksum over the pseudo-header). In one allocation, a datagram's
 * fragments in order, then the flood. The headers are written by the
 * reassembler's packet builder (pkt/pktbuild.h) into the pool's memory.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include "frames.h"

#include "pktbuild.h"
#include "reasm.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_ALIGN 64u
#define V6_FRAG_PAYLOAD 1448u /* (1500 - 40 - 8) rounded down to 8 */

static struct frame_pool pools[BENCH_REASM_WORKLOAD_COUNT];
static bool have_setup;

/* Ethernet destination 02:00:00:00:00:01, source 02:00:00:00:00:02. */
static const uint8_t eth_addrs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
static const uint8_t v6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

void frame_fail(uint64_t *errors, char *error, const char *fmt, ...)
{
	if ((*errors)++ == 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(error, BENCH_REASM_ERROR_LEN, fmt, ap);
		va_end(ap);
	}
}

static uint64_t round_up(uint64_t n)
{
	return (n + FRAME_ALIGN - 1) / FRAME_ALIGN * FRAME_ALIGN;
}

/* The datagram description of pool @p p from source address @p src (4 or
 * 16 bytes), IP ID 0, over the @p len bytes at @p data. */
static void dgram_of(const struct frame_pool *p, struct pb_dgram *d,
		     const uint8_t *src, const uint8_t *data, size_t len)
{
	if (p->v6) {
		pb_dgram_v6(d, PB_DLT_RAW, 0, PB_IPPROTO_UDP, data, len);
		memcpy(d->v6.src, src, 16);
		memcpy(d->v6.dst, v6_dst, 16);
	} else {
		pb_dgram_v4(d, PB_DLT_RAW, 0, PB_IPPROTO_UDP, data, len);
		d->v4.src = inet_rd32(src);
		d->v4.dst = FRAME_DST_ADDR;
	}
	if (p->l2 != 0) {
		d->link.dlt = PB_DLT_ETHERNET;
		d->link.macs = eth_addrs;
	}
}

/* At @p f (a slot of @p p), the fragment of @p d at @p off of @p n bytes,
 * with MF if @p mf; returns its IPv4 header checksum (IPv6: 0). */
static uint16_t put_frag(const struct frame_pool *p, uint8_t *f,
			 const struct pb_dgram *d, const uint8_t *bytes,
			 uint32_t n, uint32_t off, bool mf)
{
	(void)pb_frag_into(d, off, bytes, n, mf, f, p->l2 + p->l3 + n);
	return p->v6 ? 0 : inet_rd16(f + p->l2 + 10);
}

/* The legitimate datagrams' fragments from @p at on, @p udp a scratch
 * buffer of info.ip_payload bytes; returns the end. */
static uint8_t *fill_legit(struct frame_pool *p, uint8_t *at, uint8_t *udp,
			   uint32_t fp)
{
	const struct bench_reasm_workload_info *in = &p->info;
	uint8_t src[16] = { 0xfd }, dst[4];

	inet_wr32(dst, FRAME_DST_ADDR);
	for (uint32_t i = 0; i < in->datagrams; i++) {
		if (p->v6)
			inet_wr32(src + 12, i); /* fd00::a:b:c */
		else
			inet_wr32(src, (10u << 24) | i);
		(void)pb_udp_hdr(udp, (uint16_t)FRAME_UDP_SPORT,
				 (uint16_t)FRAME_UDP_DPORT,
				 (uint16_t)in->ip_payload);
		for (uint32_t pos = 0; pos + INET_UDP_HLEN < in->ip_payload;
		     pos++)
			udp[INET_UDP_HLEN + pos] = frame_payload_byte(i, pos);
		uint32_t sum = inet_pseudo_sum(src, p->v6 ? v6_dst : dst,
					       p->v6 ? 16 : 4, INET_PROTO_UDP,
					       in->ip_payload);
		p->udp_csum[i] =
			inet_udp_fold(inet_sum(sum, udp, in->ip_payload));
		inet_wr16(udp + 6, p->udp_csum[i]);
		struct pb_dgram d;
		dgram_of(p, &d, src, udp, in->ip_payload);
		for (uint32_t k = 0; k < in->frags; k++) {
			uint32_t off = k * fp, last = k + 1 == in->frags;
			uint32_t n = last ? in->ip_payload - off : fp;
			struct pool_frame *f = &p->legit[i * in->frags + k];
			f->data = at;
			f->len = p->l2 + p->l3 + n;
			f->csum0 = put_frag(p, at, &d, NULL, n, off, !last);
			at += round_up(f->len);
		}
	}
	return at;
}

/* The flood fragments from @p at on: each the start of a 65000-byte UDP
 * datagram whose other fragments never come; @p u a scratch buffer of
 * FRAME_FRAG_PAYLOAD bytes. */
static void fill_flood(struct frame_pool *p, uint8_t *at, uint8_t *u)
{
	const uint32_t fp = FRAME_FRAG_PAYLOAD;
	uint8_t src[4];
	struct pb_dgram d;

	(void)pb_udp_hdr(u, (uint16_t)FRAME_UDP_SPORT,
			 (uint16_t)FRAME_UDP_DPORT, 65000u);
	for (uint32_t j = 0; j < p->info.flood_frames; j++) {
		struct pool_frame *f = &p->flood[j];
		inet_wr32(src, (100u << 24) | ((64u + (j >> 16)) << 16) |
				       (j & 0xffffu));
		for (uint32_t pos = INET_UDP_HLEN; pos < fp; pos++)
			u[pos] = (uint8_t)(pos ^ j);
		dgram_of(p, &d, src, u, fp);
		f->data = at;
		f->len = p->l2 + INET_IPV4_HLEN + fp;
		f->csum0 = put_frag(p, at, &d, NULL, fp, 0, true);
		at += round_up(f->len);
	}
}

static void pool_free(struct frame_pool *p)
{
	free(p->mem);
	free(p->legit);
	free(p->flood);
	free(p->udp_csum);
	memset(p, 0, sizeof(*p));
}

/* Pool @p w: @p datagrams of them, or about pool_mib MiB if 0. */
static int pool_build(struct frame_pool *p, enum bench_reasm_workload w,
		      const struct bench_reasm_setup *s, uint64_t datagrams)
{
	static const struct {
		const char *name;
		unsigned ip_payload, frag_payload;
	} kinds[] = {
		{ "64K", 65535u - INET_IPV4_HLEN, FRAME_FRAG_PAYLOAD },
		{ "3F", 2 * FRAME_FRAG_PAYLOAD + 1440u, FRAME_FRAG_PAYLOAD },
		{ "3F-v6", 2 * V6_FRAG_PAYLOAD + 1400u, V6_FRAG_PAYLOAD },
	};
	struct bench_reasm_workload_info *in = &p->info;
	const uint32_t fp = kinds[w].frag_payload;

	memset(p, 0, sizeof(*p));
	p->setup = *s;
	p->v6 = w == BENCH_REASM_3F_V6;
	p->l2 = s->link == BENCH_REASM_LINK_ETHERNET ? INET_ETH_HLEN : 0;
	p->l3 = p->v6 ? INET_IPV6_HLEN + INET_FRAG_HLEN : INET_IPV4_HLEN;
	p->dlt = p->l2 ? REASM_LINK_ETHERNET : REASM_LINK_RAW;
	in->name = kinds[w].name;
	in->ip_payload = kinds[w].ip_payload;
	in->frags = (in->ip_payload + fp - 1) / fp;
	p->want = p->l2 + (p->v6 ? INET_IPV6_HLEN : INET_IPV4_HLEN) +
		  in->ip_payload;
	uint64_t per_dgram = 0; /* bytes of a datagram's frames, laid out */
	for (unsigned k = 0; k < in->frags; k++)
		per_dgram += round_up(
			p->l2 + p->l3 +
			(k + 1 < in->frags ? fp : in->ip_payload - k * fp));
	uint64_t d = datagrams ? datagrams
			       : ((uint64_t)s->pool_mib << 20) / per_dgram;
	if (d < 2 * s->max_workers)
		d = 2 * s->max_workers;
	if (d >= (1u << 24))
		return -EINVAL;
	in->datagrams = (unsigned)d;
	in->frames = d * in->frags;
	/* Each worker's list has one flood fragment after every flood_every
	 * of its own legitimate ones: at most this many. */
	if (!p->v6)
		in->flood_frames = in->frames / s->flood_every + s->max_workers;
	in->window_datagrams = (1u << 20) / in->ip_payload;
	uint64_t flood_slot = round_up(p->l2 + INET_IPV4_HLEN + fp);
	p->mem = aligned_alloc(
		FRAME_ALIGN,
		(size_t)(per_dgram * d + flood_slot * in->flood_frames));
	p->legit = calloc((size_t)in->frames, sizeof(*p->legit));
	p->flood = calloc((size_t)in->flood_frames + 1, sizeof(*p->flood));
	p->udp_csum = calloc((size_t)d, sizeof(*p->udp_csum));
	uint8_t *udp = malloc(in->ip_payload > FRAME_FRAG_PAYLOAD
				      ? in->ip_payload
				      : FRAME_FRAG_PAYLOAD);
	if (p->mem == NULL || p->legit == NULL || p->flood == NULL ||
	    p->udp_csum == NULL || udp == NULL) {
		free(udp);
		pool_free(p);
		return -ENOMEM;
	}
	fill_flood(p, fill_legit(p, p->mem, udp, fp), udp);
	free(udp);
	return 0;
}

int bench_reasm_setup(const struct bench_reasm_setup *s)
{
	bench_reasm_teardown();
	if (s == NULL || s->flood_every == 0 || s->pool_mib == 0 ||
	    s->max_workers == 0 || s->max_workers > BENCH_REASM_MAX_WORKERS)
		return -EINVAL;
	for (int w = 0; w < BENCH_REASM_WORKLOAD_COUNT; w++) {
		/* IPv6: as many datagrams as 3F. */
		uint64_t d = w == BENCH_REASM_3F_V6
				     ? pools[BENCH_REASM_3F].info.datagrams
				     : 0;
		int rc = pool_build(&pools[w], w, s, d);
		if (rc != 0) {
			bench_reasm_teardown();
			return rc;
		}
	}
	have_setup = true;
	return 0;
}

void bench_reasm_teardown(void)
{
	for (int w = 0; w < BENCH_REASM_WORKLOAD_COUNT; w++)
		pool_free(&pools[w]);
	have_setup = false;
}

const struct frame_pool *frame_pool_of(enum bench_reasm_workload w)
{
	return have_setup && (unsigned)w < BENCH_REASM_WORKLOAD_COUNT
		       ? &pools[w]
		       : NULL;
}

const struct bench_reasm_workload_info *
bench_reasm_workload_facts(enum bench_reasm_workload w)
{
	const struct frame_pool *p = frame_pool_of(w);
	return p != NULL ? &p->info : NULL;
}
