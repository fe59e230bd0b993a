/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memory.c - the suite memory of test_reasm_conformance: what a datagram
 * is charged, the default watermarks per family, eviction order,
 * mem_refuse.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * memory
 */

#define KIB 1024u
#define MIB (1024u * 1024u)

/* A datagram is charged what it holds: its state and a copy of each
 * fragment's payload, never a buffer for the whole datagram. An 8-byte
 * fragment at offset 64000 costs far less than 64 KiB; 1000 more bytes
 * cost 1000 and a small header. */
FAMILY_PARAMS(memory, charged_what_is_held);

ParameterizedTest(int *family, memory, charged_what_is_held)
{
	static uint8_t data[64008];
	struct pb_dgram d;
	struct rig g;

	open_make(&g, &d, *family, 130, data, sizeof(data), 41);
	cr_expect_eq(feed_frag(&g, &d, 64000, 8, false), 0);
	struct reasm_stats st = rig_stats(&g);
	uint64_t one = st.bytes_held;
	cr_expect_eq(st.datagrams_pending, 1u);
	cr_expect_gt(one, 8u);
	cr_expect_lt(one, 2 * KIB, "8 bytes held cost %llu",
		     (unsigned long long)one);
	cr_expect_eq(feed_frag(&g, &d, 0, 1000, true), 0);
	st = rig_stats(&g);
	cr_expect_geq(st.bytes_held, one + 1000);
	cr_expect_leq(st.bytes_held, one + 1000 + 64,
		      "1000 bytes more cost %llu",
		      (unsigned long long)(st.bytes_held - one));
	rig_finish(&g);
}

/* The offset-0 fragment of a UDP datagram may begin a buffer for the
 * whole datagram, as long as its UDP header says: a length that lies,
 * longer or shorter than the datagram, changes what is charged, never
 * the output, whatever the order of the fragments; and a datagram is
 * never charged for much more than it has received. */
FAMILY_PARAMS(memory, udp_length_is_a_hint);

ParameterizedTest(int *family, memory, udp_length_is_a_hint)
{
	static const int lies[] = { 0, 8, 600, -8, -1000, -2999, 62000 };
	static const uint32_t orders[][3] = {
		{ 0, 1, 2 }, { 2, 1, 0 }, { 1, 0, 2 }, { 0, 2, 1 }
	};
	static uint8_t data[3000];
	char why[256];
	uint32_t id = 150;

	for (size_t l = 0; l < sizeof(lies) / sizeof(lies[0]); l++)
		for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]);
		     o++) {
			struct pb_dgram d;
			struct rig g;
			open_make(&g, &d, *family, id++, data, sizeof(data),
				  47);
			pb_udp_hdr(data, 4000, 5000,
				   (uint16_t)((int)sizeof(data) + lies[l]));
			for (size_t k = 0; k < 3; k++) {
				uint32_t off = orders[o][k] * 1000;
				cr_expect_eq(feed_frag(&g, &d, off, 1000,
						       off + 1000 < 3000),
					     k == 2 ? 1 : 0,
					     "lie %d, order %zu, fragment %zu",
					     lies[l], o, k);
				struct reasm_stats st = rig_stats(&g);
				cr_expect_lt(st.bytes_held, 6 * KIB,
					     "lie %d, order %zu: %llu bytes "
					     "held",
					     lies[l], o,
					     (unsigned long long)st.bytes_held);
			}
			cr_assert_eq(g.nout, 1u, "lie %d, order %zu", lies[l],
				     o);
			cr_expect(pb_check(g.out[0]->data, g.out[0]->len, &d,
					   why, sizeof(why)),
				  "lie %d, order %zu: %s", lies[l], o, why);
			rig_finish(&g);
		}
}

/* A datagram of WM_LEN bytes of @p family, id @p id; the tests here feed
 * its first WM_FIRST bytes. */
#define WM_LEN 1400u
#define WM_FIRST 1392u

static void wm_dgram(struct pb_dgram *d, int family, uint32_t id,
		     const uint8_t *data)
{
	if (family == 4)
		pb_dgram_v4(d, PB_DLT_ETHERNET, (uint16_t)id, PB_IPPROTO_UDP,
			    data, WM_LEN);
	else
		pb_dgram_v6(d, PB_DLT_ETHERNET, id, PB_IPPROTO_UDP, data,
			    WM_LEN);
}

/* The default watermarks: 4 MiB per family, eviction down to 3 MiB, the
 * oldest datagrams first, each a failure. With one stripe the totals are
 * exact. The IPv6 table has its own 4 MiB: filling it evicts nothing,
 * though both tables together hold more. */
Test(memory, default_watermarks_per_family, .timeout = 60)
{
	static uint8_t data[WM_LEN];
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	struct reasm_stats st;
	struct pb_dgram d;
	struct rig g;
	uint64_t before = 0, per = 0;
	unsigned k;

	c.stripes = 1;
	rig_init(&g, &c);
	pb_fill(data, sizeof(data), 44);
	for (k = 0; k < 4000; k++) {
		wm_dgram(&d, 4, k, data);
		g.now += 1000;
		feed_frag(&g, &d, 0, WM_FIRST, true);
		st = rig_stats(&g);
		if (k == 0)
			per = st.bytes_held;
		if (st.evicted == 0) {
			cr_assert_leq(st.bytes_held, 4 * MIB,
				      "%llu held, nothing evicted",
				      (unsigned long long)st.bytes_held);
			before = st.bytes_held;
			continue;
		}
		cr_expect_gt(before + per, 4 * MIB,
			     "eviction with %llu held before",
			     (unsigned long long)before);
		cr_expect_leq(st.bytes_held, 3 * MIB, "%llu held after",
			      (unsigned long long)st.bytes_held);
		cr_expect_gt(st.bytes_held + per, 3 * MIB,
			     "evicted down to %llu",
			     (unsigned long long)st.bytes_held);
		break;
	}
	cr_assert_lt(k, 4000u, "nothing evicted");
	cr_expect_eq(st.ReasmFails, st.evicted);
	cr_expect_eq(st.datagrams_pending + st.evicted, k + 1u);
	/* The evicted are the oldest: the first datagram kept completes,
	 * the last one evicted does not. */
	uint32_t gone = (uint32_t)st.evicted;
	wm_dgram(&d, 4, gone, data);
	cr_expect_eq(feed_frag(&g, &d, WM_FIRST, WM_LEN - WM_FIRST, false), 1,
		     "the oldest datagram kept, %u", gone);
	wm_dgram(&d, 4, gone - 1, data);
	cr_expect_eq(feed_frag(&g, &d, WM_FIRST, WM_LEN - WM_FIRST, false), 0,
		     "the newest datagram evicted, %u", gone - 1);

	st = rig_stats(&g);
	uint64_t v4 = st.bytes_held, evicted = st.evicted;
	for (k = 0;; k++) {
		cr_assert_lt(k, 4000u);
		wm_dgram(&d, 6, k, data);
		g.now += 1000;
		feed_frag(&g, &d, 0, WM_FIRST, true);
		st = rig_stats(&g);
		cr_assert_eq(st.evicted, evicted,
			     "IPv6 datagram %u evicted, %llu held", k,
			     (unsigned long long)st.bytes_held);
		if (st.bytes_held - v4 >= 7 * MIB / 2)
			break;
	}
	cr_expect_gt(st.bytes_held, 6 * MIB);
	rig_finish(&g);
}

/* mem_refuse: above mem_high a new datagram is refused (its fragment
 * dropped, keeping nothing) and nothing is evicted; once memory is free
 * again, new datagrams are taken. */
Test(memory, refuse_new_datagrams_above_mem_high)
{
	static uint8_t data[WM_LEN];
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	struct reasm_stats st;
	struct pb_dgram d;
	struct rig g;
	unsigned k;

	c.stripes = 1;
	c.mem_high = 64 * KIB;
	c.mem_low = 48 * KIB;
	c.mem_refuse = true;
	rig_init(&g, &c);
	pb_fill(data, sizeof(data), 45);
	for (k = 0;; k++) {
		cr_assert_lt(k, 100u);
		wm_dgram(&d, 4, k, data);
		feed_frag(&g, &d, 0, WM_FIRST, true);
		st = rig_stats(&g);
		cr_assert_eq(st.refused, 0u, "refused at %llu held",
			     (unsigned long long)st.bytes_held);
		if (st.bytes_held > c.mem_high)
			break;
	}
	uint64_t pending = st.datagrams_pending, held = st.bytes_held;
	cr_expect_eq(pending, k + 1u);
	wm_dgram(&d, 4, 1000, data);
	cr_expect_eq(feed_frag(&g, &d, 0, WM_FIRST, true), 0);
	stats_expect(&g, "above mem_high",
		     COUNTS(W(refused, 1), W(frags_dropped, 1), W(evicted, 0),
			    W(ReasmFails, 0), W(datagrams_pending, pending),
			    W(bytes_held, held)));
	g.now += 30 * NS_PER_S;
	cr_expect_eq(reasm_expire(&g.w, g.now), pending);
	wm_dgram(&d, 4, 1001, data);
	cr_expect_eq(feed_frag(&g, &d, 0, WM_FIRST, true), 0);
	cr_expect_eq(feed_frag(&g, &d, WM_FIRST, WM_LEN - WM_FIRST, false), 1);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &d);
	finish_expect(&g, NULL,
		      COUNTS(W(refused, 1), W(evicted, 0), W(ReasmOKs, 1),
			     W(ReasmTimeout, pending)));
}

/* Eviction takes the datagrams that began first, whatever came since: a
 * fragment does not renew its datagram, as it does not restart its
 * timeout. Datagram 0 takes a second fragment just before the eviction
 * and still goes first. */
Test(memory, eviction_oldest_begun_first)
{
	static uint8_t data[3 * WM_LEN];
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	struct reasm_stats st;
	struct pb_dgram d;
	struct rig g;

	c.stripes = 1;
	c.mem_high = 64 * KIB;
	c.mem_low = 48 * KIB;
	rig_init(&g, &c);
	pb_fill(data, sizeof(data), 46);
	/* Datagrams 0, 1, 2 ... while below mem_high. */
	unsigned k;
	for (k = 0;; k++) {
		cr_assert_lt(k, 100u);
		pb_dgram_v4(&d, PB_DLT_ETHERNET, (uint16_t)k, PB_IPPROTO_UDP,
			    data, sizeof(data));
		g.now += 1000;
		feed_frag(&g, &d, 0, WM_FIRST, true);
		st = rig_stats(&g);
		if (st.bytes_held + 2 * (st.bytes_held / (k + 1)) > c.mem_high)
			break;
	}
	cr_assert_eq(st.evicted, 0u);
	/* Datagram 0 is used again; then one more datagram goes past
	 * mem_high. */
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 0, PB_IPPROTO_UDP, data, sizeof(data));
	g.now += 1000;
	feed_frag(&g, &d, WM_FIRST, WM_FIRST, true);
	for (unsigned m = k + 1; st.evicted == 0; m++) {
		cr_assert_lt(m, 200u);
		pb_dgram_v4(&d, PB_DLT_ETHERNET, (uint16_t)m, PB_IPPROTO_UDP,
			    data, sizeof(data));
		g.now += 1000;
		feed_frag(&g, &d, 0, WM_FIRST, true);
		st = rig_stats(&g);
	}
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 0, PB_IPPROTO_UDP, data, sizeof(data));
	cr_expect_eq(feed_frag(&g, &d, 2 * WM_FIRST,
			       sizeof(data) - 2 * WM_FIRST, false),
		     0, "the datagram begun first was kept");
	rig_finish(&g);
}
