/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_reasm_attacks.c - the reassembly engine of examples/reasm under
 * streams built to hurt it, with bounded memory and time:
 *
 *   flood      100,000 first fragments of datagrams that never complete,
 *              with legitimate datagrams among them: memory stays at the
 *              watermark and (EVICT) the legitimate ones still complete;
 *              (REFUSE) nothing breaks and every counter adds up
 *   tiny       one datagram in 8,192 fragments of 8 bytes, in random
 *              order with overlapping 16-byte ones, max_frags 8192:
 *              STRICT and FIRST, against a model of each
 *   dup        a million copies of one fragment: nothing grows
 *
 * Every test ends with rig_finish(), which checks the accounting
 * invariant of reasm.h on the engine's final totals.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#include "../common/test_util.h"
#include "reasm_test.h"

/* ----------------------------------------------------------------------
 * flood
 */

#define FLOOD 100000u
#define LEGIT_EVERY 100u /* a legitimate datagram per 100 flood ones */
#define LEGIT_LEN 1512u	 /* in three fragments of 504 bytes */
#define FLOOD_MEM_HIGH (256u * 1024u)
#define FLOOD_MEM_LOW (192u * 1024u)
/* What one datagram here may add above the watermark before eviction
 * brings the table back: its state, its pieces and one fragment's
 * payload, with room to spare for the engine's bookkeeping. */
#define ONE_DATAGRAM (LEGIT_LEN + 2048u)

static void legit_dgram(struct pb_dgram *d, uint8_t *data, unsigned k)
{
	pb_fill(data, LEGIT_LEN, k + 1);
	pb_udp_hdr(data, 53, 53, LEGIT_LEN);
	pb_dgram_v4(d, PB_DLT_ETHERNET, (uint16_t)k, PB_IPPROTO_UDP, data,
		    LEGIT_LEN);
	d->v4.src = 0x0a000000u | k; /* 10.0.x.y */
}

static const bool refuse_modes[] = { false, true };

ParameterizedTestParameters(flood, first_fragments_never_completing)
{
	return cr_make_param_array(bool, (void *)refuse_modes, 2);
}

ParameterizedTest(bool *refuse, flood, first_fragments_never_completing,
		  .timeout = 120)
{
	struct rig g;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	const unsigned nlegit = FLOOD / LEGIT_EVERY;
	uint8_t junk[64];
	uint8_t *legit = malloc((size_t)nlegit * LEGIT_LEN);
	struct pb_dgram *ld = calloc(nlegit, sizeof(*ld));
	uint64_t peak_seen = 0;

	cr_assert_not_null(legit);
	cr_assert_not_null(ld);
	c.mem_high = FLOOD_MEM_HIGH;
	c.mem_low = FLOOD_MEM_LOW;
	c.mem_refuse = *refuse;
	rig_init(&g, &c);
	pb_fill(junk, sizeof(junk), 99);

	for (unsigned i = 0; i < FLOOD; i++) {
		struct pb_dgram f;
		pb_dgram_v4(&f, PB_DLT_ETHERNET, (uint16_t)i, PB_IPPROTO_UDP,
			    junk, sizeof(junk));
		f.v4.src = 0xc6120000u | (i >> 16); /* 198.18.0.x */
		g.now += 1000;
		feed_frag(&g, &f, 0, sizeof(junk), true);

		/* Legitimate datagram k: its fragments 10 flood datagrams
		 * apart, the offset-0 one last. */
		unsigned k = i / LEGIT_EVERY, step = i % LEGIT_EVERY;
		struct pb_dgram *d = &ld[k];
		if (step == 0)
			legit_dgram(d, legit + (size_t)k * LEGIT_LEN, k);
		if (step == 0)
			feed_frag(&g, d, 1008, 504, false);
		else if (step == 10)
			feed_frag(&g, d, 504, 504, true);
		else if (step == 20)
			feed_frag(&g, d, 0, 504, true);

		/* The engine's own bytes_peak may be sampled; look after
		 * every input here. */
		struct reasm_stats now = rig_stats(&g);
		if (now.bytes_held > peak_seen)
			peak_seen = now.bytes_held;
	}

	/* Which legitimate datagrams came out whole. */
	unsigned ok = 0;
	char why[256];
	for (size_t i = 0; i < g.nout; i++) {
		const struct reasm_out *o = g.out[i];
		cr_assert(o->reassembled, "output %zu not reassembled", i);
		cr_assert_geq(o->len, 14u + 20u);
		unsigned k = inet_rd32(o->data + 14 + 12) & 0xffffu;
		cr_assert_lt(k, nlegit, "a flood datagram came out");
		bool good = pb_check(o->data, o->len, &ld[k], why, sizeof(why));
		cr_assert(good, "legitimate datagram %u: %s", k, why);
		ok++;
	}

	struct reasm_stats st = rig_stats(&g);
	cr_expect_leq(st.bytes_peak, FLOOD_MEM_HIGH + ONE_DATAGRAM,
		      "bytes_peak %llu, mem_high %u",
		      (unsigned long long)st.bytes_peak, FLOOD_MEM_HIGH);
	cr_expect_leq(peak_seen, FLOOD_MEM_HIGH + ONE_DATAGRAM,
		      "bytes held reached %llu, mem_high %u",
		      (unsigned long long)peak_seen, FLOOD_MEM_HIGH);
	cr_expect_eq(st.ReasmReqds, FLOOD + 3ull * nlegit);
	if (*refuse) {
		cr_expect_gt(st.refused, 0u, "nothing refused");
		cr_expect_eq(st.evicted, 0u);
	} else {
		cr_expect_gt(st.evicted, 0u, "nothing evicted");
		cr_expect_geq(ok * 100u, nlegit * 95u,
			      "%u of %u legitimate datagrams completed", ok,
			      nlegit);
	}
	cr_expect_eq(st.ReasmOKs, ok);
	cr_log_info("flood %s: %u of %u legitimate datagrams completed, "
		    "peak %llu bytes (mem_high %u), %llu evicted, "
		    "%llu refused",
		    *refuse ? "refuse" : "evict", ok, nlegit,
		    (unsigned long long)st.bytes_peak, FLOOD_MEM_HIGH,
		    (unsigned long long)st.evicted,
		    (unsigned long long)st.refused);
	st = rig_finish(&g);
	cr_expect_eq(st.ReasmOKs, ok);
	free(ld);
	free(legit);
}

/* ----------------------------------------------------------------------
 * tiny: 8,192 fragments of one datagram
 */

#define TINY_BLOCKS 8180u /* 8-byte fragments: 65440 bytes of payload */
#define TINY_WIDE 12u	  /* 16-byte fragments over two blocks */
#define TINY_FRAGS (TINY_BLOCKS + TINY_WIDE)
#define TINY_LEN (8u * TINY_BLOCKS)
#define TINY_PEAK (1024u * 1024u)

struct tiny_frag {
	uint32_t off, len;
	bool mf;
	uint8_t fill; /* 0: the datagram's bytes; else this byte */
};

/* The model: which blocks are held, and what each holds. */
struct tiny_model {
	enum reasm_policy policy;
	uint8_t held[TINY_BLOCKS];
	uint8_t bytes[TINY_LEN];
	unsigned nheld;
	bool end_known;
	unsigned oks, overlaps, duplicates;
	size_t ok_at;		/* the fragment that completed one */
	uint8_t done[TINY_LEN]; /* what completed */
};

static void model_reset(struct tiny_model *m)
{
	memset(m->held, 0, sizeof(m->held));
	m->nheld = 0;
	m->end_known = false;
}

/* One fragment into the model: STRICT drops a fragment inside held data
 * and discards the datagram on any other overlap; FIRST keeps held bytes
 * and fills the rest. Fragments here never contradict the end. */
static void model_feed(struct tiny_model *m, const struct tiny_frag *f,
		       const uint8_t *data, size_t idx)
{
	unsigned b0 = f->off / 8, nb = f->len / 8, held = 0;

	for (unsigned b = b0; b < b0 + nb; b++)
		held += m->held[b];
	if (held == nb) {
		m->duplicates++;
		return;
	}
	if (held > 0) {
		m->overlaps++;
		if (m->policy == REASM_STRICT) {
			model_reset(m);
			return;
		}
	}
	for (unsigned b = b0; b < b0 + nb; b++) {
		if (m->held[b])
			continue;
		m->held[b] = 1;
		m->nheld++;
		for (unsigned i = 0; i < 8; i++) {
			unsigned at = 8 * b + i;
			m->bytes[at] = f->fill ? f->fill : data[at];
		}
	}
	if (!f->mf)
		m->end_known = true;
	if (m->end_known && m->nheld == TINY_BLOCKS) {
		m->oks++;
		m->ok_at = idx;
		memcpy(m->done, m->bytes, TINY_LEN);
		model_reset(m);
	}
}

static const enum reasm_policy tiny_policies[] = { REASM_STRICT, REASM_FIRST };

ParameterizedTestParameters(tiny, eight_thousand_fragments)
{
	return cr_make_param_array(enum reasm_policy, (void *)tiny_policies, 2);
}

ParameterizedTest(enum reasm_policy *policy, tiny, eight_thousand_fragments,
		  .timeout = 30)
{
	struct rig g;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, *policy);
	static uint8_t data[TINY_LEN];
	static struct tiny_frag frags[TINY_FRAGS];
	static struct tiny_model m;
	struct pb_dgram d;
	uint64_t rng = 0x7e57ab1e;

	c.max_frags = REASM_MAX_FRAGS_LIMIT;
	rig_init(&g, &c);
	pb_fill(data, sizeof(data), 5);
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 0x7171, PB_IPPROTO_UDP, data,
		    sizeof(data));
	for (unsigned b = 0; b < TINY_BLOCKS; b++)
		frags[b] =
			(struct tiny_frag){ 8 * b, 8, b + 1 < TINY_BLOCKS, 0 };
	for (unsigned w = 0; w < TINY_WIDE; w++) {
		unsigned b = (unsigned)(test_rand(&rng) % (TINY_BLOCKS - 2));
		frags[TINY_BLOCKS + w] =
			(struct tiny_frag){ 8 * b, 16, true,
					    (uint8_t)(0xe0 + w) };
	}
	/* Fisher-Yates, seeded: the same order every run. */
	for (unsigned i = TINY_FRAGS - 1; i > 0; i--) {
		unsigned j = (unsigned)(test_rand(&rng) % (i + 1));
		struct tiny_frag t = frags[i];
		frags[i] = frags[j];
		frags[j] = t;
	}

	memset(&m, 0, sizeof(m));
	m.policy = *policy;
	uint8_t wide[16];
	int64_t t0 = test_now_ns();
	for (size_t i = 0; i < TINY_FRAGS; i++) {
		const struct tiny_frag *f = &frags[i];
		size_t before = g.nout;
		g.now += 1000;
		if (f->fill) {
			memset(wide, f->fill, sizeof(wide));
			feed_bytes(&g, &d, f->off, wide, f->len, f->mf);
		} else {
			feed_bytes(&g, &d, f->off, NULL, f->len, f->mf);
		}
		model_feed(&m, f, data, i);
		if (g.nout != before)
			cr_expect_eq(i, m.ok_at,
				     "completed at fragment %zu, model at %zu",
				     i, m.ok_at);
	}
	double secs = (double)(test_now_ns() - t0) / 1e9;

	const char *name = reasm_policy_name(*policy);
	struct reasm_stats st = rig_stats(&g);
	cr_expect_leq(st.bytes_peak, TINY_PEAK, "%s: bytes_peak %llu", name,
		      (unsigned long long)st.bytes_peak);
	cr_expect_eq(st.evicted, 0u, "%s", name);
	cr_expect_eq(st.too_many_frags, 0u, "%s", name);
	cr_expect_eq(st.ReasmOKs, m.oks, "%s: %llu reassembled, model %u", name,
		     (unsigned long long)st.ReasmOKs, m.oks);
	/* STRICT counts exactly; FIRST may count a fragment inside held
	 * data as an overlap too. */
	if (*policy == REASM_STRICT) {
		cr_expect_eq(st.duplicates, m.duplicates, "%s: duplicates",
			     name);
		cr_expect_eq(st.ReasmOverlaps, m.overlaps, "%s: overlaps",
			     name);
	} else {
		cr_expect_geq(st.ReasmOverlaps, m.overlaps, "%s: overlaps",
			      name);
	}
	cr_expect_gt(m.overlaps, 0u, "the order makes no overlap");
	if (m.oks) {
		cr_assert_eq(g.nout, 1u);
		struct pb_dgram want = d;
		want.data = m.done;
		char why[256];
		bool good = pb_check(g.out[0]->data, g.out[0]->len, &want, why,
				     sizeof(why));
		cr_expect(good, "%s: %s", name, why);
	}
	cr_log_info("tiny %s: %zu fragments in %.3f s, peak %llu bytes, "
		    "%u overlaps, %u completed",
		    name, (size_t)TINY_FRAGS, secs,
		    (unsigned long long)st.bytes_peak, m.overlaps, m.oks);
	rig_finish(&g);
}

/* ----------------------------------------------------------------------
 * dup: a million copies of one fragment
 */

#define COPIES 1000000u

Test(dup, million_identical_fragments, .timeout = 120)
{
	struct rig g;
	uint8_t data[64];
	struct pb_dgram d;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	pb_fill(data, sizeof(data), 77);
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 0x0d0d, PB_IPPROTO_UDP, data,
		    sizeof(data));
	struct pb_frame *f = pb_frag(&d, 0, NULL, 32, true);
	feed(&g, f);
	struct reasm_stats first = rig_stats(&g);
	cr_assert_gt(first.bytes_held, 0u);
	for (unsigned i = 1; i < COPIES; i++) {
		g.now += 10;
		feed(&g, f);
		if (i % 100000 == 0) {
			struct reasm_stats st = rig_stats(&g);
			cr_assert_eq(st.bytes_held, first.bytes_held,
				     "bytes held grew to %llu after %u copies",
				     (unsigned long long)st.bytes_held, i);
		}
	}
	pb_frame_free(f);
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.bytes_held, first.bytes_held);
	cr_expect_eq(st.bytes_peak, first.bytes_held);
	cr_expect_eq(st.duplicates, COPIES - 1u);
	cr_expect_eq(st.datagrams_pending, 1u);
	st = rig_finish(&g);
	cr_expect_eq(st.ReasmReqds, COPIES);
	cr_expect_eq(st.frags_dropped, COPIES - 1u);
	cr_expect_eq(st.frags_pending, 1u);
	cr_expect_eq(st.ReasmOverlaps, 0u);
	cr_expect_eq(st.emitted, 0u);
}
