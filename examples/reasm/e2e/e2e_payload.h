/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * e2e_payload.h - the UDP payloads of the end-to-end test
 * (examples/reasm/e2e).
 *
 * Every datagram the helpers send carries a payload that the receiver can
 * check on its own, knowing nothing of what was sent:
 *
 *   offset  size  field
 *        0     4  magic E2E_MAGIC
 *        4     4  sender id
 *        8     4  sequence number
 *       12     4  payload length (the whole UDP payload, this header too)
 *       16     8  FNV-1a 64 of the payload with this field zeroed
 *       24     -  bytes of a stream seeded by (sender, sequence)
 *
 * All fields big-endian. A payload is intact when the magic, the length,
 * the hash and every byte of the stream match; the stream check catches a
 * payload rebuilt from the right bytes in the wrong places, the hash one
 * whose header was kept but whose data changed.
 *
 * Sender ids: e2e_udp_send uses small numbers (one per sending thread);
 * e2e_frag_send sets E2E_SENDER_CRAFTED and puts the kind of set in bits
 * 16..23, so that a receiver's listing says what each datagram was.
 */
#ifndef GRAIN_E2E_PAYLOAD_H
#define GRAIN_E2E_PAYLOAD_H

#include "inet.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define E2E_MAGIC 0x67724531u /* "grE1" */
#define E2E_HDR_LEN 24u
#define E2E_SENDER_CRAFTED 0x80000000u

/* Largest UDP payloads: 65535 - 20 - 8 (IPv4), 65535 - 8 (IPv6). */
#define E2E_MAX_V4 65507u
#define E2E_MAX_V6 65527u

static inline uint64_t e2e_mix64(uint64_t x)
{
	/* splitmix64's finalizer */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline uint64_t e2e_fnv1a(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++) {
		/* The hash field (bytes 16..23) counts as zero. */
		uint8_t b = (i >= 16 && i < 24) ? 0 : p[i];
		h = (h ^ b) * 0x100000001b3ull;
	}
	return h;
}

/* The stream: 8 bytes per step of splitmix64 from the seed. */
static inline void e2e_stream(uint8_t *p, size_t len, uint32_t sender,
			      uint32_t seq)
{
	uint64_t s = (uint64_t)sender << 32 | seq;
	for (size_t i = 0; i < len; i += 8) {
		s += 0x9e3779b97f4a7c15ull;
		uint64_t v = e2e_mix64(s);
		for (size_t j = 0; j < 8 && i + j < len; j++)
			p[i + j] = (uint8_t)(v >> (8 * j));
	}
}

/** Fill @p len bytes (>= E2E_HDR_LEN) at @p p with the payload of
 * (@p sender, @p seq). */
static inline void e2e_payload_fill(uint8_t *p, size_t len, uint32_t sender,
				    uint32_t seq)
{
	inet_wr32(p, E2E_MAGIC);
	inet_wr32(p + 4, sender);
	inet_wr32(p + 8, seq);
	inet_wr32(p + 12, (uint32_t)len);
	e2e_stream(p + E2E_HDR_LEN, len - E2E_HDR_LEN, sender, seq);
	uint64_t h = e2e_fnv1a(p, len);
	inet_wr32(p + 16, (uint32_t)(h >> 32));
	inet_wr32(p + 20, (uint32_t)h);
}

enum e2e_verdict {
	E2E_OK = 0,
	E2E_SHORT, /* shorter than the header */
	E2E_BAD_MAGIC,
	E2E_BAD_LENGTH, /* the length field disagrees with what arrived */
	E2E_BAD_HASH,
	E2E_BAD_DATA, /* hash right, stream wrong (or both wrong) */
};

static inline const char *e2e_verdict_name(enum e2e_verdict v)
{
	switch (v) {
	case E2E_OK:
		return "ok";
	case E2E_SHORT:
		return "short";
	case E2E_BAD_MAGIC:
		return "bad-magic";
	case E2E_BAD_LENGTH:
		return "bad-length";
	case E2E_BAD_HASH:
		return "bad-hash";
	case E2E_BAD_DATA:
		return "bad-data";
	}
	return "?";
}

/** Check the @p len bytes at @p p; on return *sender and *seq hold the
 * header's fields (0 when shorter than the header). @p scratch: at least
 * @p len bytes. */
static inline enum e2e_verdict e2e_payload_check(const uint8_t *p, size_t len,
						 uint8_t *scratch,
						 uint32_t *sender,
						 uint32_t *seq)
{
	*sender = *seq = 0;
	if (len < E2E_HDR_LEN)
		return E2E_SHORT;
	*sender = inet_rd32(p + 4);
	*seq = inet_rd32(p + 8);
	if (inet_rd32(p) != E2E_MAGIC)
		return E2E_BAD_MAGIC;
	if (inet_rd32(p + 12) != len)
		return E2E_BAD_LENGTH;
	uint64_t h = e2e_fnv1a(p, len);
	if (inet_rd32(p + 16) != (uint32_t)(h >> 32) ||
	    inet_rd32(p + 20) != (uint32_t)h)
		return E2E_BAD_HASH;
	e2e_stream(scratch, len - E2E_HDR_LEN, *sender, *seq);
	if (memcmp(scratch, p + E2E_HDR_LEN, len - E2E_HDR_LEN) != 0)
		return E2E_BAD_DATA;
	return E2E_OK;
}

#endif /* GRAIN_E2E_PAYLOAD_H */
