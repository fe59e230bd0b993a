/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_input.h - the byte layout that fuzz_reasm reads, shared by the
 * harness (which decodes it) and the seed generator (which encodes it).
 *
 * input   := config[FZ_CONFIG_LEN] record*
 * config  := link policy mem flags max_frags start
 *   link      bits 0-2: RAW, ETHERNET, SLL, SLL2, IPV4, IPV6, PPP,
 *             PPP_SERIAL (fz_links); bit 3: Ethernet's structured
 *             packets ride a PPPoE session (FZ_LINK_PPPOE); bits 4-5:
 *             reasm_config.decap; bit 6: decap_strip; bit 7: every
 *             structured packet inside a tunnel (FZ_LINK_WRAP): PPTP's
 *             GRE and PPP when id bit 6 is set and GRE is opened, else
 *             GRE (checksum and key) when it is opened, else IP-in-IP;
 *             the outer family is the other one when id bit 7 is set
 *   policy    % 8: enum reasm_policy
 *   mem       mem_high = ((mem & 15) + 1) * 16 KiB per family
 *   flags     bits 0-1: mem_low = mem_high / 4 * (bits + 1)
 *             bit 2: 4 stripes (else 1); bit 3: refuse (else evict)
 *             bits 4-7: 0: default timeouts; n: IPv4 n s, IPv6 2n s
 *   max_frags 0: default; 255: REASM_MAX_FRAGS_LIMIT; else as is
 *   start     % 5: the clock starts at 0, 1.7e18 ns, 2^32-1 s,
 *             UINT64_MAX - 40 s (it wraps), or UINT64_MAX (a saturated
 *             clock: examples/reasm/cli/run_file.c maps absurd capture times there)
 * record  := len_lo len_hi ctl body[len]   (body cut short by the input)
 *   ctl       bits 0-4: clock advance before the record, in units of
 *             25 ms, or of 1 s with bit 5, except that 31 s means 5 s
 *             back (captures are not always in time order); bits 6-7
 *             both set: call reasm_expire() after the record
 *   body[0]   kind:
 *     < 0xe0  structured: a packet synthesized from struct fz_spec
 *             (body[0 .. FZ_SPEC_LEN - 1], missing bytes read as 0);
 *             bit 0: IPv6; bits 1-4: DSCP
 *     0xe0..0xef  structured, then body[FZ_SPEC_LEN + 2 ..] is written
 *             over the frame from the position in the two bytes (LE)
 *             at body[FZ_SPEC_LEN] (clamped to the frame)
 *     >= 0xf0 raw: body[1..] is the frame; wirelen = caplen +
 *             (kind & 15) * 64
 *
 * Every record is one call to reasm_input().
 */
#ifndef GRAIN_FUZZ_INPUT_H
#define GRAIN_FUZZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The harness (fuzz_reasm.c). With fz_verbose set, each input's final
 * counters go to stderr (the regression runner's -v). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern bool fz_verbose;

#define FZ_CONFIG_LEN 6u
#define FZ_LINK_COUNT 8u
#define FZ_LINK_PPPOE 0x08u
#define FZ_LINK_DECAP_SHIFT 4
#define FZ_LINK_STRIP 0x40u
#define FZ_LINK_WRAP 0x80u
#define FZ_REC_HDR 3u /* len_lo len_hi ctl */

/* ctl */
#define FZ_CTL_ADV_MASK 0x1fu
#define FZ_CTL_SECONDS 0x20u
#define FZ_CTL_BACK (FZ_CTL_SECONDS | FZ_CTL_ADV_MASK) /* 5 s back */
#define FZ_CTL_EXPIRE 0xc0u

/* kind */
#define FZ_KIND_V6 0x01u
#define FZ_KIND_OVERLAY 0xe0u
#define FZ_KIND_RAW 0xf0u

/* fz_spec.off: 13 bits of offset in 8-byte units, then flags: MF; DF
 * (IPv4 only); X: for IPv4 the reserved bit, for IPv6 no Fragment header
 * (a plain packet). */
#define FZ_OFF_MASK 0x1fffu
#define FZ_OFF_MF 0x2000u
#define FZ_OFF_DF 0x4000u
#define FZ_OFF_X 0x8000u

/* fz_spec.damage */
#define FZ_DMG_CSUM 0x01u    /* IPv4: wrong header checksum */
#define FZ_DMG_LONGER 0x02u  /* length field + delta */
#define FZ_DMG_SHORTER 0x04u /* length field - delta */
#define FZ_DMG_CUT_SHIFT 3   /* (damage >> 3) * 8 bytes not captured */

/*
 * One synthesized packet. Addresses: IPv4 10.0.0.(1 + src) to
 * 10.0.1.(1 + dst), IPv6 fd00::1:src to fd00::2:dst. Ethernet frames carry
 * the VLAN tags chosen by addr bits 4-5 (0: none, 1: 802.1Q, 2: two
 * 802.1Q, 3: 802.1ad + 802.1Q) with VLAN ids 1 + sel and 100 + sel (sel:
 * bits 6-7); other link types ignore them.
 */
struct fz_spec {
	uint8_t kind;
	uint8_t addr;	/* bits 0-1 src, 2-3 dst, 4-5 tags, 6-7 VLAN ids */
	uint8_t id;	/* IPv4 id = id; IPv6 id = id * 0x01000001 */
	uint16_t off;	/* FZ_OFF_* */
	uint16_t len;	/* payload bytes (clamped to the 65535 limit) */
	uint8_t fill;	/* 0: the position pattern; else every byte */
	uint8_t proto;	/* bits 0-2: fz_v4_proto / fz_v6_nh index;
			    bits 3-4: ECN; bits 5-7: IPv4 option words,
			    IPv6 extension headers before Fragment */
	uint8_t ext;	/* header i: fz_v6_ext[(ext >> 2(i % 4)) & 3] */
	uint8_t extlen; /* header i: 8 * (1 + ((extlen >> 2(i % 4)) & 3)) */
	uint8_t damage; /* FZ_DMG_* */
	uint8_t delta;	/* for FZ_DMG_LONGER / SHORTER */
	uint8_t pad;	/* IPv6: that many 256-byte hop-by-hop headers
			   first, so header chains can pass 64 KiB */
};

#define FZ_SPEC_LEN 14u

static const uint8_t fz_v4_proto[8] = { 17, 6, 1, 47, 17, 6, 1, 0 };
/* The first four end the header chain, so the pattern check applies. */
static const uint8_t fz_v6_nh[8] = { 17, 6, 58, 59, 60, 43, 44, 51 };
static const uint8_t fz_v6_ext[4] = { 0, 43, 60, 60 };

/* Byte layout of a structured record body. */
static inline void fz_spec_encode(uint8_t out[FZ_SPEC_LEN],
				  const struct fz_spec *s)
{
	out[0] = s->kind;
	out[1] = s->addr;
	out[2] = s->id;
	out[3] = (uint8_t)s->off;
	out[4] = (uint8_t)(s->off >> 8);
	out[5] = (uint8_t)s->len;
	out[6] = (uint8_t)(s->len >> 8);
	out[7] = s->fill;
	out[8] = s->proto;
	out[9] = s->ext;
	out[10] = s->extlen;
	out[11] = s->damage;
	out[12] = s->delta;
	out[13] = s->pad;
}

static inline void fz_spec_decode(struct fz_spec *s, const uint8_t *body,
				  size_t n)
{
	uint8_t b[FZ_SPEC_LEN] = { 0 };

	for (size_t i = 0; i < n && i < FZ_SPEC_LEN; i++)
		b[i] = body[i];
	s->kind = b[0];
	s->addr = b[1];
	s->id = b[2];
	s->off = (uint16_t)(b[3] | b[4] << 8);
	s->len = (uint16_t)(b[5] | b[6] << 8);
	s->fill = b[7];
	s->proto = b[8];
	s->ext = b[9];
	s->extlen = b[10];
	s->damage = b[11];
	s->delta = b[12];
	s->pad = b[13];
}

#endif /* GRAIN_FUZZ_INPUT_H */
