/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * frames.h - internal to bench/reasm/adapters (C11 only): the frame pools
 * of the reassembly benchmark and the few header operations the harness
 * does on them (see adapters.h for what the frames are).
 *
 * Addresses: legitimate datagram i comes from 10.a.b.c (i = a.b.c, i <
 * 2^24); flood fragment j from 100.(64 + j / 65536).(j / 256 % 256).(j %
 * 256), inside 100.64.0.0/10; every frame goes to 192.0.2.1. A key
 * {src, dst, IP ID, UDP} is then unique per datagram and per IP ID, and
 * the harness gives each pass its own IP ID.
 */
#ifndef GRAIN_BENCH_REASM_FRAMES_H
#define GRAIN_BENCH_REASM_FRAMES_H

#include "adapters.h"

#include <stddef.h>
#include <stdint.h>

/* One frame of a pool. csum0 is its IPv4 header checksum with IP ID 0. */
struct pool_frame {
	uint8_t *data;
	uint32_t len;
	uint16_t csum0;
};

struct frame_pool {
	struct bench_reasm_workload_info info;
	uint8_t *mem;		  /* every frame of the pool */
	struct pool_frame *legit; /* datagrams * frags, datagram-major */
	struct pool_frame *flood; /* info.flood_frames */
	uint16_t *udp_csum;	  /* per datagram, as in its UDP header */
};

/* Fill @p p for @p w; see adapters.h. @return 0, -EINVAL, -ENOMEM. */
int frame_pool_build(struct frame_pool *p, enum bench_reasm_workload w,
		     const struct bench_reasm_setup *s);
void frame_pool_free(struct frame_pool *p);

/* The pool of @p w built by bench_reasm_setup(), and the setup it was
 * built with; NULL before setup or out of range (harness.c). For the
 * anchors that feed the same frames; not thread-safe against
 * bench_reasm_setup() or bench_reasm_run(). */
const struct frame_pool *bench_reasm_pool(enum bench_reasm_workload w,
					  struct bench_reasm_setup *setup);

/* Bytes before the IPv4 header. */
uint32_t frame_l2_len(enum bench_reasm_link link);

/* DLT_ value of @p link for the engine. */
int frame_dlt(enum bench_reasm_link link);

#define FRAME_DST_ADDR 0xc0000201u /* 192.0.2.1 */
#define FRAME_UDP_SPORT 40000u
#define FRAME_UDP_DPORT 9u /* discard */

/* Byte @p pos of the UDP data of datagram @p index. */
static inline uint8_t frame_payload_byte(uint32_t index, uint32_t pos)
{
	return (uint8_t)((pos * 2654435761u + index * 0x9e3779b9u) >> 24);
}

static inline uint16_t frame_rd16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline void frame_wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Give the IPv4 header at @p ip the IP ID @p id, and the header checksum
 * that goes with it, from the checksum with ID 0 (RFC 1624: adding @p id
 * to the one's complement sum of the header). */
static inline void frame_set_id(uint8_t *ip, uint16_t id, uint16_t csum0)
{
	uint32_t sum = (uint32_t)(uint16_t)~csum0 + id;

	sum = (sum & 0xffffu) + (sum >> 16);
	frame_wr16(ip + 4, id);
	frame_wr16(ip + 10, (uint16_t)~sum);
}

/* The Internet checksum of @p n bytes (n even), folded, not inverted,
 * added to @p sum. */
uint32_t frame_sum(const uint8_t *p, size_t n, uint32_t sum);

/* The IPv4 header checksum field for the 20-byte header at @p ip (whose
 * own checksum field is taken as it is: 0 gives the value to store,
 * the stored value gives 0 when it is right). */
uint16_t frame_ip_checksum(const uint8_t *ip);

#endif /* GRAIN_BENCH_REASM_FRAMES_H */
