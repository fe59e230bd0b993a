/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gen_overlap.c - reasm-gen-overlap: write an overlap-heavy Ethernet
 * capture for the thread-determinism test (tests/threads_test.sh).
 *
 *   reasm-gen-overlap OUT.pcap [SEED [COUNT]]
 *
 * COUNT datagrams (default 2000), IPv4 and IPv6, from 6 sources to 2
 * destinations with IDs drawn from a small range (so that keys repeat),
 * each cut at multiples of 8 and then given extras, each with its own
 * bytes: copies of some fragments, fragments that overlap one or more
 * others, a second last fragment inside held data, fragments with their
 * MF flag wrong. Up to 8 datagrams are in flight at once, their frames
 * interleaved at random; some are never finished, non-fragments come in
 * between, and half way through the clock jumps 31 s (past IPv4's
 * timeout). The same arguments always give the same file. Every outcome
 * of the engine's overlap rules comes up many times, so any dependence of
 * the output on how frames are spread over threads shows.
 *
 * The pcap file is written by hand (nanosecond magic, link type 1): no
 * libpcap needed.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pktbuild.h"

#define MAX_LIVE 8
#define MAX_DATA 480
#define MAX_PIECES 24

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static uint32_t below(uint32_t n)
{
	return rnd() % n;
}

static FILE *out;
static uint64_t now_ns = 1704067200ull * 1000000000ull;

static void put_le32(uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 24) };

	fwrite(b, 1, 4, out);
}

static void record(const struct pb_frame *f)
{
	now_ns += 7000 + below(20000);
	put_le32((uint32_t)(now_ns / 1000000000ull));
	put_le32((uint32_t)(now_ns % 1000000000ull));
	put_le32(f->caplen);
	put_le32(f->wirelen);
	fwrite(f->data, 1, f->caplen, out);
}

/* A datagram in flight: its frames, to be written in a random order. */
struct live {
	struct pb_dgram d;
	uint8_t data[MAX_DATA];
	uint8_t junk[MAX_DATA];
	struct pb_frame *frames[MAX_PIECES * 2];
	unsigned n, next;
};

static void make_dgram(struct live *l, unsigned serial)
{
	unsigned src = below(6), dst = below(2);
	size_t len = 16 + 8 * below((MAX_DATA - 16) / 8);
	int family = below(3) == 0 ? 6 : 4;
	uint32_t id = 100 + below(24);

	pb_fill(l->data, len, serial);
	pb_fill(l->junk, len, serial ^ 0xabcdefu);
	pb_udp_hdr(l->data, (uint16_t)(1000 + src), 53, (uint16_t)len);
	if (family == 4) {
		pb_dgram_v4(&l->d, PB_DLT_ETHERNET, (uint16_t)id,
			    PB_IPPROTO_UDP, l->data, len);
		l->d.v4.src = 0xc0000201 + src;
		l->d.v4.dst = 0xc6336402 + dst;
	} else {
		pb_dgram_v6(&l->d, PB_DLT_ETHERNET, id, PB_IPPROTO_UDP, l->data,
			    len);
		l->d.v6.src[15] = (uint8_t)(1 + src);
		l->d.v6.dst[14] = (uint8_t)(1 + dst);
	}
	l->d.link.mark = (uint8_t)serial;

	/* The honest cut: pieces of 8..64 bytes. */
	uint32_t starts[MAX_PIECES];
	unsigned np = 0;
	for (uint32_t off = 0; off < len && np < MAX_PIECES - 1;) {
		starts[np++] = off;
		off += 8 * (1 + below(8));
	}
	l->n = 0;
	l->next = 0;
	for (unsigned i = 0; i < np; i++) {
		uint32_t end = i + 1 < np ? starts[i + 1] : (uint32_t)len;
		if (end > len)
			end = (uint32_t)len;
		if (end <= starts[i])
			break;
		bool last = end == len;
		l->frames[l->n++] =
			pb_frag(&l->d, starts[i], NULL, end - starts[i], !last);
		if (last)
			break;
	}
	/* Extras, with other bytes: overlaps, copies, a second last
	 * fragment inside held data, a wrong MF flag. */
	unsigned extras = below(5);
	for (unsigned e = 0; e < extras && l->n < MAX_PIECES * 2; e++) {
		uint32_t a = 8 * below((uint32_t)len / 8);
		uint32_t b = a + 8 * (1 + below(6));
		if (b > len)
			b = (uint32_t)len;
		bool mf = b < len;
		if (below(4) == 0)
			mf = !mf; /* MF 0 inside, or MF 1 at the end */
		l->frames[l->n++] = pb_frag(&l->d, a, l->junk + a, b - a, mf);
	}
	/* Shuffle, and now and then lose one. */
	for (unsigned i = l->n; i > 1; i--) {
		unsigned j = below(i);
		struct pb_frame *t = l->frames[i - 1];
		l->frames[i - 1] = l->frames[j];
		l->frames[j] = t;
	}
	if (l->n > 1 && below(10) == 0)
		pb_frame_free(l->frames[--l->n]);
}

int main(int argc, char **argv)
{
	struct live *live = calloc(MAX_LIVE, sizeof(*live));
	unsigned count = 2000, made = 0, nlive = 0;
	bool jumped = false;

	if (argc < 2 || argc > 4 || live == NULL) {
		fprintf(stderr, "usage: reasm-gen-overlap OUT.pcap [SEED "
				"[COUNT]]\n");
		return 2;
	}
	if (argc > 2)
		rng ^= strtoull(argv[2], NULL, 10) * 0x2545f4914f6cdd1dull;
	if (argc > 3)
		count = (unsigned)strtoul(argv[3], NULL, 10);
	out = fopen(argv[1], "wb");
	if (out == NULL) {
		perror(argv[1]);
		return 2;
	}
	put_le32(0xa1b23c4d);	/* nanosecond pcap */
	put_le32(2 | 4u << 16); /* version 2.4 */
	put_le32(0);
	put_le32(0);
	put_le32(262144);
	put_le32(PB_DLT_ETHERNET);

	uint8_t plain[64];
	pb_fill(plain, sizeof(plain), 1);
	pb_udp_hdr(plain, 7, 7, sizeof(plain));
	while (made < count || nlive > 0) {
		while (nlive < MAX_LIVE && made < count &&
		       (nlive == 0 || below(3) == 0))
			make_dgram(&live[nlive++], made++);
		if (!jumped && made >= count / 2) {
			now_ns += 31ull * 1000000000ull;
			jumped = true;
		}
		if (below(8) == 0) {
			struct pb_dgram d;
			pb_dgram_v4(&d, PB_DLT_ETHERNET, 0, PB_IPPROTO_UDP,
				    plain, sizeof(plain));
			struct pb_frame *f = pb_whole(&d);
			record(f);
			pb_frame_free(f);
		}
		unsigned k = below(nlive);
		struct live *l = &live[k];
		record(l->frames[l->next]);
		pb_frame_free(l->frames[l->next++]);
		if (l->next == l->n) {
			live[k] = live[--nlive];
		}
	}
	free(live);
	if (fclose(out) != 0) {
		perror(argv[1]);
		return 2;
	}
	return 0;
}
