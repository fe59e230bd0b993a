/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * frames.h - internal to examples/reasm/bench/adapters (C11 only): the frame pools
 * of frames.c as harness.c and rte_frag.c feed them, and what both need
 * to rewrite a frame's IP ID, check an output and report a failure.
 * Includers define _GNU_SOURCE or _DEFAULT_SOURCE first (inet.h).
 *
 * Addresses: legitimate datagram i comes from 10.a.b.c (i = a.b.c, i <
 * 2^24; IPv6: fd00::a:b:c), flood fragment j from 100.(64 + j / 65536).
 * (j / 256 % 256).(j % 256), inside 100.64.0.0/10; every frame goes to
 * 192.0.2.1 (2001:db8::1). A key {src, dst, IP ID, UDP} is then unique per
 * datagram and IP ID, and each pass of a run gives the frames its own ID.
 * Every frame starts on a 64-byte boundary, and no frame is shared by two
 * workers of an experiment, so a frame's ID may be rewritten in place.
 */
#ifndef GRAIN_BENCH_REASM_FRAMES_H
#define GRAIN_BENCH_REASM_FRAMES_H

#include "adapters.h"

#include "inet.h"

/* One frame; csum0 is its IPv4 header checksum with IP ID 0. */
struct pool_frame {
	uint8_t *data;
	uint32_t len;
	uint16_t csum0;
};

struct frame_pool {
	struct bench_reasm_workload_info info;
	struct bench_reasm_setup setup; /* what it was built with */
	bool v6;
	uint32_t l2, l3; /* link and network header bytes before UDP's */
	uint32_t want;	 /* bytes of a whole datagram, link header included */
	int dlt;	 /* the engine's link type */
	uint8_t *mem;	 /* every frame */
	struct pool_frame *legit; /* datagrams * frags, datagram-major */
	struct pool_frame *flood; /* info.flood_frames */
	uint16_t *udp_csum;	  /* per datagram, as in its UDP header */
};

/* The pool of @p w; NULL before bench_reasm_setup() or out of range. */
const struct frame_pool *frame_pool_of(enum bench_reasm_workload w);

#define FRAME_FRAG_PAYLOAD 1480u  /* IPv4, per fragment but the last */
#define FRAME_MEM_HIGH (4u << 20) /* the engine's limits in every run */
#define FRAME_MEM_LOW (3u << 20)
#define FRAME_TICK_NS 100u /* virtual time between two legitimate frames */
#define FRAME_DST_ADDR 0xc0000201u /* 192.0.2.1 */
#define FRAME_UDP_SPORT 40000u
#define FRAME_UDP_DPORT 9u /* discard */

/* Byte @p pos of the UDP data of datagram @p index. */
static inline uint8_t frame_payload_byte(uint32_t index, uint32_t pos)
{
	return (uint8_t)((pos * 2654435761u + index * 0x9e3779b9u) >> 24);
}

/* The IPv4 header at @p ip gets IP ID @p id and the header checksum that
 * goes with it, from its checksum with ID 0 (RFC 1624). */
static inline void frame_set_id(uint8_t *ip, uint16_t id, uint16_t csum0)
{
	uint32_t sum = (uint32_t)(uint16_t)~csum0 + id;

	sum = (sum & 0xffffu) + (sum >> 16);
	inet_wr16(ip + 4, id);
	inet_wr16(ip + 10, (uint16_t)~sum);
}

/* Count a failure in *@p errors; the first is kept in words in @p error. */
void frame_fail(uint64_t *errors, char *error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* GRAIN_BENCH_REASM_FRAMES_H */
