/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * api.c - the suite api of test_reasm_conformance: configuration checking,
 * policy and link names, workers, the counters' helpers (sum, JSON),
 * bytes_peak, reasm_flow_of(), reasm_stats_shared().
 */
#define _GNU_SOURCE /* open_memstream */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * api
 */

Test(api, create_rejects_bad_config)
{
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	struct reasm *r = (struct reasm *)&c; /* must stay untouched */

	c.link = 105; /* DLT_IEEE802_11 */
	cr_expect_eq(reasm_create(&r, &c), -EINVAL, "unknown link type");
	c = rig_config(REASM_LINK_ETHERNET, REASM_POLICY_COUNT);
	cr_expect_eq(reasm_create(&r, &c), -EINVAL, "unknown policy");
	c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	c.mem_high = 1000;
	c.mem_low = 2000;
	cr_expect_eq(reasm_create(&r, &c), -EINVAL, "mem_low > mem_high");
	c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	c.max_frags = REASM_MAX_FRAGS_LIMIT + 1;
	cr_expect_eq(reasm_create(&r, &c), -EINVAL, "max_frags too big");
	c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	c.stripes = 3;
	cr_expect_eq(reasm_create(&r, &c), -EINVAL, "stripes not 2^n");
	cr_expect_eq((void *)r, (void *)&c, "*rp touched on error");

	c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	c.max_frags = REASM_MAX_FRAGS_LIMIT;
	c.stripes = 1;
	r = NULL;
	cr_assert_eq(reasm_create(&r, &c), 0);
	cr_assert_not_null(r);
	reasm_destroy(r, NULL);
	reasm_destroy(NULL, NULL);
}

Test(api, policy_and_link_names)
{
	static const struct {
		const char *name;
		enum reasm_policy p;
	} v[] = {
		{ "strict", REASM_STRICT },	  { "first", REASM_FIRST },
		{ "last", REASM_LAST },		  { "bsd", REASM_BSD },
		{ "bsd-right", REASM_BSD_RIGHT }, { "linux", REASM_LINUX },
		{ "windows", REASM_WINDOWS },	  { "solaris", REASM_SOLARIS },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		cr_expect_eq(reasm_policy_parse(v[i].name), (int)v[i].p, "%s",
			     v[i].name);
		const char *n = reasm_policy_name(v[i].p);
		cr_assert_not_null(n, "%s", v[i].name);
		cr_expect_eq(reasm_policy_parse(n), (int)v[i].p, "%s", n);
	}
	cr_expect_null(reasm_policy_name(REASM_POLICY_COUNT));
	cr_expect_eq(reasm_policy_parse("nope"), -1);

	static const int ok[] = { 1, 12, 113, 276, 228, 229 };
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		cr_expect(reasm_link_supported(ok[i]), "DLT %d", ok[i]);
	cr_expect_not(reasm_link_supported(0));
	cr_expect_not(reasm_link_supported(105));
}

Test(api, stats_json_names_every_counter)
{
	static const char *const names[] = {
		"packets",	     "passed",		"ReasmReqds",
		"ReasmOKs",	     "ReasmFails",	"ReasmTimeout",
		"ReasmOverlaps",     "duplicates",	"evicted",
		"refused",	     "too_big",		"too_many_frags",
		"bad_end",	     "past_end",	"bad_ecn",
		"truncated",	     "malformed",	"bad_checksum",
		"incomplete_chain",  "vlan_too_deep",	"atomic",
		"nested_frag",	     "no_memory",	"frags_truncated",
		"frags_too_big",     "frags_no_memory", "frags_reassembled",
		"frags_dropped",     "frags_discarded", "frags_pending",
		"datagrams_pending", "emitted",		"emitted_bytes",
		"bytes_held",	     "bytes_peak",	"id_wrapped",
		"ppp_other",	     "bad_link",	"tunneled",
		"bad_tunnel",	     "bad_ext",
	};
	struct reasm_stats st;
	char *buf = NULL;
	size_t len = 0;

	cr_assert_eq(sizeof(names) / sizeof(names[0]),
		     sizeof(st) / sizeof(uint64_t), "a counter left unnamed");
	memset(&st, 0, sizeof(st));
	st.ReasmOKs = 12345;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	cr_expect_eq(reasm_stats_json(f, &st), 0);
	fclose(f);
	cr_assert_not_null(buf);
	cr_expect(strchr(buf, '{') != NULL && strrchr(buf, '}') != NULL,
		  "not an object: %s", buf);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char key[64];
		snprintf(key, sizeof(key), "\"%s\"", names[i]);
		cr_expect_not_null(strstr(buf, key), "%s missing", key);
	}
	cr_expect_not_null(strstr(buf, "12345"));
	free(buf);
}

/* bytes_peak is the most held at once, whenever that was. */
Test(api, bytes_peak_is_most_held)
{
	struct rig g;
	uint8_t data[10][64];
	struct pb_dgram d[10];

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	for (unsigned k = 0; k < 10; k++) {
		make(&d[k], 4, PB_DLT_ETHERNET, 200 + k, data[k], 64, k);
		feed_frag(&g, &d[k], 0, 32, true);
	}
	struct reasm_stats st = rig_stats(&g);
	uint64_t most = st.bytes_held;
	cr_assert_gt(most, 0u);
	for (unsigned k = 0; k < 10; k++)
		cr_expect_eq(feed_frag(&g, &d[k], 32, 32, false), 1);
	st = rig_stats(&g);
	cr_expect_eq(st.bytes_held, 0u);
	cr_expect_geq(st.bytes_peak, most,
		      "bytes_peak %llu, but %llu were held at once",
		      (unsigned long long)st.bytes_peak,
		      (unsigned long long)most);
	rig_finish(&g);
}

/* Between reads, bytes_peak still sees a sample every 64 fragments of a
 * worker: of 200 first fragments, the last 64 were sampled at least once.
 * A second engine fed the same fragments, read after each, gives the
 * bytes held at each step. It is a lower bound: never past the most held.
 * (mem_high 1 MiB: the samples read the table's folded total, which lags
 * the exact one by less than mem_high / 64.) */
Test(api, bytes_peak_sampled_between_reads)
{
	enum { N = 200, LEN = 1400, FIRST = 1392 };
	static uint8_t data[N][LEN];
	static struct pb_dgram d[N];
	static uint64_t held[N];
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	struct rig a, b;

	c.mem_high = 1u << 20;
	c.mem_low = 3u << 18;
	rig_init(&a, &c);
	rig_init(&b, &c);
	for (unsigned k = 0; k < N; k++) {
		make(&d[k], 4, PB_DLT_ETHERNET, 500 + k, data[k], LEN, k);
		feed_frag(&a, &d[k], 0, FIRST, true);
		held[k] = rig_stats(&a).bytes_held;
		feed_frag(&b, &d[k], 0, FIRST, true);
	}
	cr_assert_lt(held[N - 1], c.mem_high, "nothing may be evicted here");
	for (unsigned k = 0; k < N; k++)
		cr_expect_eq(feed_frag(&b, &d[k], FIRST, LEN - FIRST, false),
			     1);
	struct reasm_stats st = rig_stats(&b);
	cr_expect_eq(st.bytes_held, 0u);
	cr_expect_geq(st.bytes_peak, held[N - 64] - (c.mem_high / 64),
		      "bytes_peak %llu: no sample of the last 64 first "
		      "fragments (%llu held 64 fragments before the peak)",
		      (unsigned long long)st.bytes_peak,
		      (unsigned long long)held[N - 64]);
	cr_expect_gt(st.bytes_peak, held[N / 2],
		     "bytes_peak %llu below what half the datagrams held",
		     (unsigned long long)st.bytes_peak);
	cr_expect_leq(st.bytes_peak, held[N - 1],
		      "bytes_peak %llu past the most held, %llu",
		      (unsigned long long)st.bytes_peak,
		      (unsigned long long)held[N - 1]);
	rig_finish(&a);
	rig_finish(&b);
}

static void count_and_free(struct reasm_out *o, void *arg)
{
	unsigned *n = arg;

	(*n)++;
	reasm_out_free(o);
}

/* reasm_worker_init(): -EINVAL without an engine or an emit callback,
 * -ENOSPC for a 65th worker; reasm_stats_read() and reasm_destroy() sum
 * every worker registered. */
Test(api, worker_init_limits_and_sums)
{
	static struct reasm_worker w[65];
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	struct reasm *r = NULL;
	uint8_t data[32];
	struct pb_dgram d;
	unsigned n = 0;

	cr_assert_eq(reasm_create(&r, &c), 0);
	cr_expect_eq(reasm_worker_init(&w[0], NULL, count_and_free, &n),
		     -EINVAL);
	cr_expect_eq(reasm_worker_init(&w[0], r, NULL, &n), -EINVAL);
	for (unsigned i = 0; i < 64; i++)
		cr_assert_eq(reasm_worker_init(&w[i], r, count_and_free, &n), 0,
			     "worker %u", i);
	cr_expect_eq(reasm_worker_init(&w[64], r, count_and_free, &n), -ENOSPC);

	/* A whole packet through workers 0 and 63, a fragment through 31. */
	make(&d, 4, PB_DLT_ETHERNET, 140, data, sizeof(data), 40);
	struct pb_frame *whole = pb_whole(&d);
	struct pb_frame *frag = pb_frag(&d, 0, NULL, 16, true);
	cr_expect_eq(reasm_input(&w[0], whole->data, whole->caplen,
				 whole->wirelen, NS_PER_S),
		     1);
	cr_expect_eq(reasm_input(&w[63], whole->data, whole->caplen,
				 whole->wirelen, NS_PER_S),
		     1);
	cr_expect_eq(reasm_input(&w[31], frag->data, frag->caplen,
				 frag->wirelen, NS_PER_S),
		     0);
	cr_expect_eq(n, 2u);
	struct reasm_stats st;
	reasm_stats_read(r, &st);
	expect_counts(&st, "read",
		      COUNTS(W(packets, 3), W(passed, 2), W(emitted, 2),
			     W(ReasmReqds, 1), W(frags_pending, 1),
			     W(datagrams_pending, 1)));
	memset(&st, 0, sizeof(st));
	reasm_destroy(r, &st);
	check_invariant(&st);
	expect_counts(&st, "destroy",
		      COUNTS(W(packets, 3), W(passed, 2), W(ReasmReqds, 1),
			     W(frags_pending, 1), W(datagrams_pending, 1)));
	pb_frame_free(whole);
	pb_frame_free(frag);
}

/* reasm_stats_add(): every counter summed, but bytes_peak, the larger. */
Test(api, stats_add_sums_but_peak)
{
	struct reasm_stats a, b;
	uint64_t *pa = (uint64_t *)(void *)&a, *pb = (uint64_t *)(void *)&b;
	const size_t n = sizeof(a) / sizeof(uint64_t);
	const size_t peak =
		offsetof(struct reasm_stats, bytes_peak) / sizeof(uint64_t);

	for (int round = 0; round < 2; round++) {
		for (size_t k = 0; k < n; k++) {
			pa[k] = k + 1;
			pb[k] = 1000 * (k + 1);
		}
		/* The larger peak on either side. */
		pa[peak] = round ? 9000 : 7;
		pb[peak] = round ? 11 : 5000;
		reasm_stats_add(&a, &b);
		for (size_t k = 0; k < n; k++)
			if (k != peak)
				cr_expect_eq(pa[k], 1001 * (k + 1),
					     "counter %zu: %llu", k,
					     (unsigned long long)pa[k]);
		cr_expect_eq(a.bytes_peak, round ? 9000u : 5000u,
			     "bytes_peak %llu",
			     (unsigned long long)a.bytes_peak);
	}
}

/* reasm_stats_json_members(): one `  "name": value` per counter,
 * separated by ",\n", no braces, nothing after the last value;
 * -EINVAL without a stream or counters. reasm_stats_json(): -errno when
 * the write fails. */
Test(api, stats_json_members_and_errors)
{
	struct reasm_stats st;
	uint64_t *v = (uint64_t *)(void *)&st;
	const size_t n = sizeof(st) / sizeof(uint64_t);
	bool seen[sizeof(struct reasm_stats) / sizeof(uint64_t)] = { false };
	char *buf = NULL;
	size_t len = 0, members = 0;

	for (size_t k = 0; k < n; k++)
		v[k] = 70000 + k;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	cr_expect_eq(reasm_stats_json_members(f, &st), 0);
	fclose(f);
	cr_assert_not_null(buf);
	cr_assert_gt(len, 0u);
	cr_expect_null(strpbrk(buf, "{}"), "braces: %s", buf);
	cr_expect_neq(buf[len - 1], '\n', "a newline after the last member");
	for (char *p = buf; p != NULL; members++) {
		char name[64];
		unsigned long long value;
		int used = 0;
		char *next = strstr(p, ",\n");
		if (next != NULL)
			*next = '\0';
		cr_expect_eq(sscanf(p, "  \"%63[A-Za-z_]\": %llu%n", name,
				    &value, &used),
			     2, "member %zu: \"%s\"", members, p);
		cr_expect_eq((size_t)used, strlen(p), "member %zu: \"%s\"",
			     members, p);
		if (value >= 70000 && value < 70000 + n) {
			cr_expect_not(seen[value - 70000], "%s twice", name);
			seen[value - 70000] = true;
		} else {
			cr_expect_fail("%s: %llu, no counter's", name, value);
		}
		p = next != NULL ? next + 2 : NULL;
	}
	cr_expect_eq(members, n, "%zu members for %zu counters", members, n);
	free(buf);
	cr_expect_eq(reasm_stats_json_members(NULL, &st), -EINVAL);
	f = fopen("/dev/null", "w");
	cr_assert_not_null(f);
	cr_expect_eq(reasm_stats_json_members(f, NULL), -EINVAL);
	fclose(f);

	f = fopen("/dev/null", "r"); /* every write fails */
	cr_assert_not_null(f);
	int rc = reasm_stats_json(f, &st);
	cr_expect_lt(rc, 0, "a failed write returned %d", rc);
	fclose(f);
}

/* reasm_flow_of(): -1 for what the engine passes or drops on sight;
 * else a value in [0, INT32_MAX], one for every IPv4 fragment of a source
 * and one for every fragment of an IPv6 datagram, keyed so that another
 * engine gives other values. It feeds nothing. */
Test(api, flow_of)
{
	struct rig g, h;
	uint8_t data[48], data6[48];
	struct pb_dgram d, o, d6;
	struct pb_frame *f;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	rig_open(&h, REASM_LINK_ETHERNET, REASM_STRICT);
	make(&d, 4, PB_DLT_ETHERNET, 150, data, sizeof(data), 41);
	make(&d6, 6, PB_DLT_ETHERNET, 151, data6, sizeof(data6), 42);

	/* Passed or dropped on sight. */
	struct pb_frame *none[6];
	static const uint8_t arp[28] = { 0, 1, 8, 0, 6, 4, 0, 1 };
	none[0] = pb_whole(&d);
	none[1] = pb_whole(&d6);
	none[2] = pb_wrap(&d.link, PB_ETH_ARP, arp, sizeof(arp));
	o = d;
	o.v4.bad_checksum = true;
	none[3] = pb_frag(&o, 0, NULL, 16, true);
	none[4] = pb_frag(&d, 0, NULL, 16, true);
	none[4]->caplen -= 4; /* cut short */
	o = d;
	o.link.nvlan = REASM_MAX_VLAN_TAGS + 1;
	none[5] = pb_frag(&o, 0, NULL, 16, true);
	for (size_t i = 0; i < 6; i++)
		cr_expect_eq(reasm_flow_of(g.r, none[i]->data, none[i]->caplen),
			     -1, "frame %zu", i);
	pb_frames_free(none, 6, false);

	/* IPv4: one value per source, whatever the id, destination,
	 * protocol or offset. */
	f = pb_frag(&d, 0, NULL, 16, true);
	int32_t v4 = reasm_flow_of(g.r, f->data, f->caplen);
	pb_frame_free(f);
	cr_expect_geq(v4, 0);
	for (unsigned k = 0; k < 8; k++) {
		o = d;
		o.v4.id = (uint16_t)(1000 + 77 * k);
		o.v4.dst ^= k << 8;
		o.v4.proto = k % 2 ? PB_IPPROTO_TCP : PB_IPPROTO_UDP;
		/* Offset 0 with MF set: a fragment, not a whole packet. */
		f = pb_frag(&o, 8 * (k % 5), NULL, 8, k % 5 == 0 || k % 2 == 0);
		cr_expect_eq(reasm_flow_of(g.r, f->data, f->caplen), v4,
			     "IPv4 fragment %u", k);
		pb_frame_free(f);
	}

	/* IPv6: one value per datagram; another engine, other values. */
	unsigned differ = 0;
	for (uint32_t id = 0; id < 16; id++) {
		o = d6;
		o.v6.id = 151 + id;
		int32_t v6 = -1;
		for (uint32_t off = 0; off < 48; off += 16) {
			f = pb_frag(&o, off, NULL, 16, off < 32);
			int32_t x = reasm_flow_of(g.r, f->data, f->caplen);
			cr_expect_geq(x, 0, "IPv6 id %u offset %u", o.v6.id,
				      off);
			if (off == 0)
				v6 = x;
			cr_expect_eq(x, v6, "IPv6 id %u offset %u", o.v6.id,
				     off);
			if (off == 0)
				differ += reasm_flow_of(h.r, f->data,
							f->caplen) != x;
			pb_frame_free(f);
		}
	}
	cr_expect_gt(differ, 0u, "two engines, the same values");
	rig_finish(&h);
	finish_expect(&g, NULL,
		      COUNTS(W(packets, 0), W(ReasmReqds, 0), W(passed, 0)));
}

/* reasm_stats_shared(): the tables' timeouts and evictions (not the
 * timeouts a worker found itself), the datagrams held, the bytes held
 * within the tables' fold lag (< mem_high / 64 each); every other field
 * 0. */
static void expect_shared(struct rig *g, const char *what,
			  struct reasm_stats *sh, struct reasm_stats *rd)
{
	static const size_t kept[] = {
		offsetof(struct reasm_stats, ReasmTimeout),
		offsetof(struct reasm_stats, evicted),
		offsetof(struct reasm_stats, datagrams_pending),
		offsetof(struct reasm_stats, bytes_held),
	};
	const uint64_t *v = (const uint64_t *)(const void *)sh;

	memset(sh, 0xa5, sizeof(*sh));
	reasm_stats_shared(g->r, sh);
	*rd = rig_stats(g);
	for (size_t k = 0; k < sizeof(*sh) / sizeof(uint64_t); k++) {
		bool is_kept = false;
		for (size_t i = 0; i < ARRAY_LEN(kept); i++)
			is_kept |= kept[i] == k * sizeof(uint64_t);
		if (!is_kept)
			cr_expect_eq(v[k], 0u, "%s: counter %zu is %llu", what,
				     k, (unsigned long long)v[k]);
	}
	cr_expect_eq(sh->datagrams_pending, rd->datagrams_pending, "%s", what);
	cr_expect_eq(sh->evicted, rd->evicted, "%s", what);
}

Test(api, stats_shared)
{
	enum { N = 700, LEN = 1400, FIRST = 1392 };
	static uint8_t data[LEN];
	struct reasm_stats sh, rd;
	struct pb_dgram d;
	struct rig g;
	const uint64_t lag = 2 * ((4u << 20) / 64); /* two tables */

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	pb_fill(data, sizeof(data), 43);
	uint64_t t0 = g.now;
	/* About 1.3 MB held in the IPv4 table, far more than its lag. */
	for (unsigned k = 0; k < N; k++) {
		pb_dgram_v4(&d, PB_DLT_ETHERNET, (uint16_t)k, PB_IPPROTO_UDP,
			    data, LEN);
		feed_frag(&g, &d, 0, FIRST, true);
	}
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 900, PB_IPPROTO_UDP, data, LEN);
	feed_frag(&g, &d, 0, 16, true);
	g.now = t0 + 10 * NS_PER_S;
	pb_dgram_v4(&d, PB_DLT_ETHERNET, 1000, PB_IPPROTO_UDP, data, 32);
	feed_frag(&g, &d, 0, 16, true);

	expect_shared(&g, "held", &sh, &rd);
	cr_expect_eq(sh.datagrams_pending, N + 2u);
	cr_expect_eq(sh.ReasmTimeout, 0u);
	cr_expect_gt(rd.bytes_held, 4 * lag);
	cr_expect_leq(sh.bytes_held, rd.bytes_held + lag,
		      "bytes_held %llu, exactly %llu",
		      (unsigned long long)sh.bytes_held,
		      (unsigned long long)rd.bytes_held);
	cr_expect_geq(sh.bytes_held + lag, rd.bytes_held,
		      "bytes_held %llu, exactly %llu",
		      (unsigned long long)sh.bytes_held,
		      (unsigned long long)rd.bytes_held);

	/* The N first datagrams time out in the table; id 1000 is found
	 * late by the worker. */
	cr_expect_eq(reasm_expire(&g.w, t0 + 30 * NS_PER_S), N);
	g.now = t0 + 40 * NS_PER_S;
	cr_expect_eq(feed_frag(&g, &d, 16, 16, false), 0);
	expect_shared(&g, "timed out", &sh, &rd);
	cr_expect_eq(sh.ReasmTimeout, N, "the tables' timeouts");
	cr_expect_eq(rd.ReasmTimeout, N + 1u);
	cr_expect_eq(sh.datagrams_pending, 2u);
	rig_finish(&g);

	/* Evictions. */
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	c.mem_high = 64u << 10;
	c.mem_low = 32u << 10;
	rig_init(&g, &c);
	for (unsigned k = 0; k < 100; k++) {
		pb_dgram_v4(&d, PB_DLT_ETHERNET, (uint16_t)k, PB_IPPROTO_UDP,
			    data, LEN);
		feed_frag(&g, &d, 0, FIRST, true);
	}
	expect_shared(&g, "evicted", &sh, &rd);
	cr_expect_gt(sh.evicted, 0u);
	cr_expect_eq(sh.ReasmTimeout, 0u);
	rig_finish(&g);
}
