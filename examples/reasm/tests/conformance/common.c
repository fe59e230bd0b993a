/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_reasm_conformance.c - the reassembly engine of examples/reasm,
 * one frame at a time on a fake clock, against reasm.h and the behaviour
 * of the Linux stack it follows:
 *
 *   api          configuration checking, policy and link names, workers,
 *                the counters' helpers (sum, JSON), bytes_peak,
 *                reasm_flow_of(), reasm_stats_shared()
 *   pass         non-fragments come out unchanged
 *   order        in order, reversed, every permutation of 3 and 4, three
 *                fragments out of order (a tiny IPv4 first fragment, IPv6
 *                extension headers before the Fragment header, atomic
 *                fragments)
 *   strict       duplicates kept out, overlaps discard (RFC 5722), the
 *                end of the datagram (second last fragment, data past the
 *                end, zero-length fragments)
 *   ends         each policy's end rules: data past the end, a second
 *                last fragment ending before or after the first's
 *   eight        non-last fragments not a multiple of 8 bytes
 *   limits       65535, ping of death, teardrop, max_frags
 *   ipv6         the header chain of first fragments (RFC 7112), nested
 *                Fragment headers, atomic fragments (RFC 6946)
 *   ecn          RFC 3168 section 5.3, as Linux's table
 *   ipv4         options, DF, header checksums
 *   keys         id reuse, fields that keep datagrams apart, fields
 *                that do not
 *   timeout      30 s / 60 s from the first fragment
 *   policy       the target-based policies on Novak's overlap test,
 *                overlaps counted per fragment
 *   link         Ethernet with 0..7 tags (more: passed), SLL, SLL2, raw links
 *   truncated    captures shorter than the packet
 *   memory       what a datagram is charged, the default watermarks per
 *                family, eviction order, mem_refuse
 *
 * Every test ends with rig_finish(), which checks the accounting
 * invariant of reasm.h on the engine's final totals.
 */
#define _GNU_SOURCE /* open_memstream */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reasm_test.h"

static const int families[] = { 4, 6 };
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The parameters of a test run once per row of @table. Each case runs in
 * a process of its own, where its row arrives as bytes: a row holds no
 * pointers, its name included (an array of CASE_NAME_MAX bytes). */
#define CASE_NAME_MAX 48
#define TABLE_PARAMS(suite, name, table)                                       \
	ParameterizedTestParameters(suite, name)                               \
	{                                                                      \
		return cr_make_param_array(__typeof__((table)[0]),             \
					   (void *)(table), ARRAY_LEN(table)); \
	}

/* The parameters of a test run once per family (an int *: 4 or 6). */
#define FAMILY_PARAMS(suite, name) TABLE_PARAMS(suite, name, families)

/* Every row of @p base (@p n rows of @p size bytes, the family an int at
 * @p at) once under each family, into @p out; @return how many rows. */
static size_t per_family(void *out, const void *base, size_t n, size_t size,
			 size_t at)
{
	char *o = out;

	for (size_t f = 0; f < NFAMILIES; f++)
		for (size_t i = 0; i < n; i++, o += size) {
			memcpy(o, (const char *)base + i * size, size);
			memcpy(o + at, &families[f], sizeof(families[f]));
		}
	return NFAMILIES * n;
}

/* The parameters of a test run once per row of @base under each family
 * (rows of @type, whose int family is set by per_family()). */
#define PER_FAMILY_PARAMS(suite, name, type, base)                            \
	ParameterizedTestParameters(suite, name)                              \
	{                                                                     \
		static type v[NFAMILIES * ARRAY_LEN(base)];                   \
		size_t n = per_family(v, base, ARRAY_LEN(base), sizeof(v[0]), \
				      offsetof(type, family));                \
		return cr_make_param_array(type, v, n);                       \
	}

/* A datagram of @len bytes of fragmentable part on @dlt: a UDP header,
 * then a pattern from @seed. */
static void make(struct pb_dgram *d, int family, int dlt, uint32_t id,
		 uint8_t *data, size_t len, uint32_t seed)
{
	pb_fill(data, len, seed);
	if (len >= 8)
		pb_udp_hdr(data, 4000, 5000, (uint16_t)len);
	if (family == 4)
		pb_dgram_v4(d, dlt, (uint16_t)id, PB_IPPROTO_UDP, data, len);
	else
		pb_dgram_v6(d, dlt, id, PB_IPPROTO_UDP, data, len);
}

/* A rig on Ethernet under strict, and the datagram of make() on it. */
static void open_make(struct rig *g, struct pb_dgram *d, int family,
		      uint32_t id, uint8_t *data, size_t len, uint32_t seed)
{
	rig_open(g, REASM_LINK_ETHERNET, REASM_STRICT);
	make(d, family, PB_DLT_ETHERNET, id, data, len, seed);
}

/* The datagram of make() cut to its first @p len bytes (the bytes kept
 * as they are: the UDP header still gives the whole length). */
static void make_cut(struct pb_dgram *d, int family, uint32_t id,
		     const uint8_t *data, size_t len)
{
	if (family == 4)
		pb_dgram_v4(d, PB_DLT_ETHERNET, (uint16_t)id, PB_IPPROTO_UDP,
			    data, len);
	else
		pb_dgram_v6(d, PB_DLT_ETHERNET, id, PB_IPPROTO_UDP, data, len);
}

/* ----------------------------------------------------------------------
 * Counters: a list of counters of struct reasm_stats and the value each
 * must have, checked one cr_expect_eq() a counter.
 */

/* A counter (or the sum of two) and its value. */
struct want {
	size_t at, plus; /* offsetof() of the counters; plus: NO_PLUS */
	uint64_t value;
	const char *name; /* NULL ends a list */
};

/* The counter initializers read as a table. */
/* clang-format off */
#define NO_PLUS SIZE_MAX
#define W(field, v) { offsetof(struct reasm_stats, field), NO_PLUS, v, #field }
#define W_SUM(a, b, v)                                                   \
	{ offsetof(struct reasm_stats, a), offsetof(struct reasm_stats, b), \
	  v, #a " + " #b }
#define COUNTS(...) ((const struct want[]){ __VA_ARGS__, { 0, 0, 0, NULL } })
/* clang-format on */

static uint64_t stat_at(const struct reasm_stats *st, size_t at)
{
	uint64_t v;

	memcpy(&v, (const char *)st + at, sizeof(v));
	return v;
}

/* Every counter of @p w must have its value in @p st; @p what (or NULL)
 * names the case in a failure. */
static void expect_counts(const struct reasm_stats *st, const char *what,
			  const struct want *w)
{
	for (; w != NULL && w->name != NULL; w++) {
		uint64_t v = stat_at(st, w->at);
		if (w->plus != NO_PLUS)
			v += stat_at(st, w->plus);
		cr_expect_eq(v, w->value, "%s: %s %llu, want %llu",
			     what ? what : "counters", w->name,
			     (unsigned long long)v,
			     (unsigned long long)w->value);
	}
}

/* The counters now (rig_stats()), checked against @p w. */
static struct reasm_stats stats_expect(struct rig *g, const char *what,
				       const struct want *w)
{
	struct reasm_stats st = rig_stats(g);

	expect_counts(&st, what, w);
	return st;
}

/* The final totals (rig_finish()), checked against @p w. */
static struct reasm_stats finish_expect(struct rig *g, const char *what,
					const struct want *w)
{
	struct reasm_stats st = rig_finish(g);

	expect_counts(&st, what, w);
	return st;
}

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

/* ----------------------------------------------------------------------
 * pktbuild: the checker itself must catch what it is there to catch
 */

Test(pktbuild, checker_catches_errors)
{
	uint8_t data[64];
	struct pb_dgram d;
	char why[256];

	for (int fam = 4; fam <= 6; fam += 2) {
		make(&d, fam, PB_DLT_ETHERNET, 5, data, sizeof(data), 1);
		d.v6.hbh_len = 8;
		struct pb_frame *w = pb_whole(&d);
		cr_assert(pb_check(w->data, w->caplen, &d, why, sizeof(why)),
			  "IPv%d whole: %s", fam, why);
		if (fam == 4)
			cr_expect_eq(inet_csum(w->data + 14, 20), 0);

		/* A fragment is not a reassembled datagram (an IPv4
		 * "fragment" at offset 0 without MF is a whole one). */
		struct pb_frame *f;
		if (fam == 6) {
			f = pb_frag(&d, 0, NULL, sizeof(data), false);
			cr_expect_not(pb_check(f->data, f->caplen, &d, why,
					       sizeof(why)),
				      "IPv6 atomic fragment taken as whole");
			pb_frame_free(f);
		}
		f = pb_frag(&d, 0, NULL, sizeof(data), true);
		cr_expect_not(
			pb_check(f->data, f->caplen, &d, why, sizeof(why)));
		pb_frame_free(f);

		/* One payload byte, the ECN bits, the link header. */
		w->data[w->caplen - 1] ^= 1;
		cr_expect_not(
			pb_check(w->data, w->caplen, &d, why, sizeof(why)));
		cr_expect_not_null(strstr(why, "byte"), "%s", why);
		w->data[w->caplen - 1] ^= 1;
		struct pb_dgram t = d;
		t.v4.tos = PB_ECN_CE;
		t.v6.tclass = PB_ECN_CE;
		cr_expect_not(
			pb_check(w->data, w->caplen, &t, why, sizeof(why)));
		t = d;
		t.link.mark = 9;
		cr_expect_not(
			pb_check(w->data, w->caplen, &t, why, sizeof(why)));
		cr_expect_not(
			pb_check(w->data, w->caplen - 1, &d, why, sizeof(why)));
		pb_frame_free(w);
	}

	/* IPv4: a wrong checksum, DF, options. */
	make(&d, 4, PB_DLT_RAW, 5, data, sizeof(data), 1);
	struct pb_dgram t = d;
	t.v4.bad_checksum = true;
	struct pb_frame *w = pb_whole(&t);
	cr_expect_not(pb_check(w->data, w->caplen, &d, why, sizeof(why)));
	cr_expect_not_null(strstr(why, "checksum"), "%s", why);
	pb_frame_free(w);
	t = d;
	t.v4.df = true;
	w = pb_whole(&t);
	cr_expect_not(pb_check(w->data, w->caplen, &d, why, sizeof(why)));
	cr_expect(pb_check(w->data, w->caplen, &t, why, sizeof(why)), "%s",
		  why);
	pb_frame_free(w);
	t = d;
	t.v4.optlen = 4;
	memset(t.v4.opts, 1, 4);
	w = pb_whole(&t);
	cr_expect_not(pb_check(w->data, w->caplen, &d, why, sizeof(why)));
	cr_expect(pb_check(w->data, w->caplen, &t, why, sizeof(why)), "%s",
		  why);
	pb_frame_free(w);

	/* IPv6: a Next Header left at 44 after the options headers. */
	make(&d, 6, PB_DLT_RAW, 5, data, sizeof(data), 1);
	d.v6.dst_len = 8;
	w = pb_whole(&d);
	w->data[40] = PB_IPPROTO_FRAGMENT;
	cr_expect_not(pb_check(w->data, w->caplen, &d, why, sizeof(why)));
	cr_expect_not_null(strstr(why, "Fragment"), "%s", why);
	pb_frame_free(w);

	/* Splitting covers the datagram exactly once. */
	size_t n;
	make(&d, 4, PB_DLT_SLL2, 5, data, sizeof(data), 1);
	struct pb_frame **v = pb_split_every(&d, 24, &n);
	cr_assert_eq(n, 3u);
	uint8_t back[64];
	for (size_t i = 0; i < n; i++) {
		const uint8_t *ip = v[i]->data + v[i]->l3off;
		cr_expect_eq(v[i]->l3off, 20u);
		cr_expect_eq(inet_rd16(v[i]->data), PB_ETH_IPV4);
		uint16_t frag = inet_rd16(ip + 6);
		cr_expect_eq((frag & 0x1fff) * 8u, 24u * i);
		cr_expect_eq(!!(frag & 0x2000), i + 1 < n);
		size_t len = inet_rd16(ip + 2) - 20u;
		memcpy(back + 24 * i, ip + 20, len);
	}
	cr_expect_eq(memcmp(back, data, sizeof(data)), 0);
	pb_frames_free(v, n, true);
}

/* ----------------------------------------------------------------------
 * pass: non-fragments
 */

static void expect_passed(struct rig *g, size_t i, const struct pb_frame *f)
{
	cr_assert_lt(i, g->nout, "frame %zu not emitted", i);
	const struct reasm_out *o = g->out[i];
	cr_expect_not(o->reassembled, "frame %zu: reassembled set", i);
	cr_assert_eq(o->len, f->caplen, "frame %zu: len %u, want %u", i, o->len,
		     f->caplen);
	cr_expect_eq(o->orig_len, f->wirelen);
	cr_expect_eq(memcmp(o->data, f->data, f->caplen), 0,
		     "frame %zu changed", i);
}

Test(pass, non_fragments_unchanged)
{
	struct rig g;
	uint8_t data[100];
	struct pb_dgram d;
	struct pb_frame *f[7];

	open_make(&g, &d, 4, 7, data, sizeof(data), 1);
	f[0] = pb_whole(&d);
	d.v4.df = true;
	d.v4.tos = 0x2e << 2 | PB_ECN_CE;
	f[1] = pb_whole(&d);
	make(&d, 6, PB_DLT_ETHERNET, 7, data, sizeof(data), 2);
	f[2] = pb_whole(&d);
	d.v6.hbh_len = 8;
	d.v6.dst_len = 16;
	f[3] = pb_whole(&d);
	uint8_t arp[28] = { 0, 1, 8, 0, 6, 4, 0, 1 };
	f[4] = pb_wrap(&d.link, PB_ETH_ARP, arp, sizeof(arp));
	d.link.nvlan = 1;
	d.link.tci[0] = 42;
	f[5] = pb_wrap(&d.link, PB_ETH_ARP, arp, sizeof(arp));
	/* Not IP (a local experimental EtherType), though its first bytes
	 * read as an IPv4 header with DSCP 46: its DSCP is 0. */
	uint8_t other[24] = { 0x45, 0x2e << 2 };
	f[6] = pb_wrap(&d.link, 0x88b5, other, sizeof(other));

	uint64_t bytes = 0;
	for (size_t i = 0; i < 7; i++) {
		g.now += 1000;
		cr_expect_eq(feed(&g, f[i]), 1, "frame %zu", i);
		bytes += f[i]->caplen;
		cr_expect(g.nout == i + 1 && g.out[i]->ts_ns == g.now,
			  "frame %zu: not emitted at once, or not stamped with "
			  "its capture time",
			  i);
	}
	cr_assert_eq(g.nout, 7u);
	for (size_t i = 0; i < 7; i++)
		expect_passed(&g, i, f[i]);
	cr_expect_eq(g.out[1]->dscp, 0x2e, "DSCP of a passed IPv4 packet");
	cr_expect_eq(g.out[4]->dscp, 0, "DSCP of an ARP frame");
	cr_expect_eq(g.out[6]->dscp, 0, "DSCP of a frame that is not IP");
	finish_expect(&g, NULL,
		      COUNTS(W(packets, 7), W(passed, 7), W(ReasmReqds, 0),
			     W(emitted, 7), W(emitted_bytes, bytes)));
	pb_frames_free(f, 7, false);
}

/* ----------------------------------------------------------------------
 * order
 */

struct fam_link {
	int family;
	int dlt;
};

static const struct fam_link fam_links[] = {
	{ 4, PB_DLT_ETHERNET },
	{ 6, PB_DLT_ETHERNET },
	{ 4, PB_DLT_RAW },
	{ 6, PB_DLT_RAW },
};

TABLE_PARAMS(order, in_order_and_reversed, fam_links)

ParameterizedTest(struct fam_link *p, order, in_order_and_reversed)
{
	struct rig g;
	uint8_t data[1000];
	struct pb_dgram d;
	size_t n;

	rig_open(&g, p->dlt, REASM_STRICT);
	for (int rev = 0; rev < 2; rev++) {
		make(&d, p->family, p->dlt, 100u + (uint32_t)rev, data,
		     sizeof(data), 10u + (uint32_t)rev);
		struct pb_frame **f = pb_split_every(&d, 208, &n);
		cr_assert_eq(n, 5u);
		for (size_t i = 0; i < n; i++) {
			size_t k = rev ? n - 1 - i : i;
			g.now += 1000;
			int rc = feed(&g, f[k]);
			cr_expect_eq(rc, i + 1 == n ? 1 : 0, "fragment %zu", k);
		}
		cr_assert_eq(g.nout, (size_t)rev + 1);
		expect_dgram(&g, (size_t)rev, &d);
		cr_expect_eq(g.out[rev]->ts_ns, g.now,
			     "ts_ns: the completing fragment's time");
		pb_frames_free(f, n, true);
	}
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.bytes_held, 0u, "bytes held with nothing pending");
	uint64_t bytes = (uint64_t)g.out[0]->len + g.out[1]->len;
	finish_expect(&g, NULL,
		      COUNTS(W(packets, 10), W(ReasmReqds, 10), W(ReasmOKs, 2),
			     W(frags_reassembled, 10), W(ReasmFails, 0),
			     W(frags_pending, 0), W(datagrams_pending, 0),
			     W(emitted, 2), W(emitted_bytes, bytes)));
}

/* Next permutation of @a (n elements) in lexicographic order; false after
 * the last. */
static bool next_perm(unsigned *a, size_t n)
{
	size_t i = n - 1;

	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (i == 0)
		return false;
	size_t j = n - 1;
	while (a[j] <= a[i - 1])
		j--;
	unsigned t = a[i - 1];
	a[i - 1] = a[j];
	a[j] = t;
	for (size_t l = i, r = n - 1; l < r; l++, r--) {
		t = a[l];
		a[l] = a[r];
		a[r] = t;
	}
	return true;
}

FAMILY_PARAMS(order, every_permutation)

ParameterizedTest(int *family, order, every_permutation)
{
	static const uint32_t starts3[] = { 0, 24, 48 };
	static const uint32_t starts4[] = { 0, 8, 40, 64 };
	struct rig g;
	uint8_t data[80];
	struct pb_dgram d;
	struct pb_frame *f[4];
	uint32_t id = 1;
	size_t frags = 0, oks = 0;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	for (size_t n = 3; n <= 4; n++) {
		unsigned perm[4] = { 0, 1, 2, 3 };
		do {
			make(&d, *family, PB_DLT_ETHERNET, id, data,
			     n == 3 ? 60 : 80, id);
			pb_split(&d, n == 3 ? starts3 : starts4, n, f);
			for (size_t i = 0; i < n; i++) {
				int rc = feed(&g, f[perm[i]]);
				cr_assert_eq(rc, i + 1 == n ? 1 : 0,
					     "n %zu id %u step %zu", n, id, i);
			}
			cr_assert_eq(g.nout, oks + 1);
			expect_dgram(&g, oks, &d);
			oks++;
			frags += n;
			id++;
			pb_frames_free(f, n, false);
		} while (next_perm(perm, n));
	}
	cr_assert_eq(oks, 6u + 24u);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, oks), W(ReasmReqds, frags),
			     W(frags_reassembled, frags), W(ReasmFails, 0),
			     W(duplicates, 0), W(ReasmOverlaps, 0)));
}

/* 64 datagrams of both families, their fragments dealt round-robin:
 * fragment i of every datagram, then fragment i + 1 ... */
Test(order, interleaved_datagrams)
{
	enum { N = 64, FR = 4, LEN = 4 * 40 };
	static uint8_t data[N][LEN];
	static struct pb_dgram d[N];
	struct pb_frame *f[N][FR];
	static const uint32_t starts[FR] = { 0, 40, 80, 120 };
	struct rig g;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	for (unsigned k = 0; k < N; k++) {
		/* Same id for pairs of datagrams of different families, and
		 * for pairs that differ in their destination only. */
		make(&d[k], k % 2 ? 6 : 4, PB_DLT_ETHERNET, k / 4, data[k], LEN,
		     k + 100);
		if (k % 4 >= 2) {
			d[k].v4.dst ^= 0xff;
			d[k].v6.dst[15] ^= 0xff;
		}
		pb_split(&d[k], starts, FR, f[k]);
	}
	for (unsigned i = 0; i < FR; i++) {
		unsigned fi = (i + 2) % FR; /* offset 0 third */
		for (unsigned k = 0; k < N; k++)
			cr_expect_eq(feed(&g, f[k][fi]), i + 1 == FR ? 1 : 0,
				     "datagram %u, fragment %u", k, fi);
	}
	cr_assert_eq(g.nout, (size_t)N);
	for (unsigned k = 0; k < N; k++)
		expect_dgram(&g, k, &d[k]);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, (uint64_t)N),
			     W(frags_reassembled, (uint64_t)N * FR)));
	for (unsigned k = 0; k < N; k++)
		pb_frames_free(f[k], FR, false);
}

/* ----------------------------------------------------------------------
 * Scripted cases: one datagram, a list of steps (fragments fed, the
 * clock moved, counters read, outputs counted; a step may run a named
 * list of steps shared by several cases), run by one body under each
 * family and policy a case names. The strict, ends, eight, limits, ipv4
 * and timeout suites below have tables of them.
 */

/* The step initializers read as a table. */
/* clang-format off */

enum step_kind {
	STEP_END,
	STEP_FRAG,   /* feed a fragment */
	STEP_STATS,  /* counters read now (rig_stats) */
	STEP_OUT,    /* the outputs so far; the last is the datagram */
	STEP_FINISH, /* counters of rig_finish() */
	STEP_RUN,    /* the steps of another list */
	STEP_CLOCK,  /* the clock moves on */
};

#define ANY_RC (-1) /* STEP_FRAG: whatever reasm_input() returns */

struct step {
	enum step_kind kind;
	uint32_t off, len; /* STEP_FRAG: [off, off + len) */
	bool mf;
	int rc; /* STEP_FRAG: reasm_input()'s return, or ANY_RC */
	/* STEP_FRAG: the bytes are the datagram's at off, except from
	 * byte fill_from of the fragment on, which are @fill (when not 0);
	 * with head, the datagram's first bytes instead. */
	uint8_t fill;
	uint32_t fill_from;
	bool head;
	bool bad_checksum; /* STEP_FRAG: IPv4, a wrong header checksum */
	size_t nout;		 /* STEP_OUT */
	size_t out_len;		 /* STEP_OUT: the datagram's first out_len
				    bytes (0: all of it) */
	const struct want *want; /* STEP_STATS, STEP_FINISH */
	const struct step *run;	 /* STEP_RUN */
	uint64_t ns;		 /* STEP_CLOCK: by this much */
};

#define FRAG(o, l, m, r) \
	{ .kind = STEP_FRAG, .off = o, .len = l, .mf = m, .rc = r }
#define JUNK(o, l, m, r, b) FILL(o, l, m, r, b, 0)
#define FILL(o, l, m, r, b, from) \
	{ .kind = STEP_FRAG, .off = o, .len = l, .mf = m, .rc = r, .fill = b, \
	  .fill_from = from }
#define BAD_CSUM(o, l, m, r) \
	{ .kind = STEP_FRAG, .off = o, .len = l, .mf = m, .rc = r, \
	  .bad_checksum = true }
#define HEAD(o, l, m) \
	{ .kind = STEP_FRAG, .off = o, .len = l, .mf = m, .rc = ANY_RC, .head = true }
#define STATS(...) { .kind = STEP_STATS, .want = COUNTS(__VA_ARGS__) }
#define OUT(n) { .kind = STEP_OUT, .nout = n }
#define OUT_LEN(n, l) { .kind = STEP_OUT, .nout = n, .out_len = l }
#define FINISH(...) { .kind = STEP_FINISH, .want = COUNTS(__VA_ARGS__) }
#define FINISH_ONLY { .kind = STEP_FINISH }
#define RUN(list) { .kind = STEP_RUN, .run = list }
#define CLOCK(n) { .kind = STEP_CLOCK, .ns = n }
#define STEP_LIST(...) { __VA_ARGS__, { .kind = STEP_END } }
#define STEPS(...) ((const struct step[])STEP_LIST(__VA_ARGS__))
/* clang-format on */

#define FAM4 (1u << 4)
#define FAM6 (1u << 6)
#define POLICY(p) (1u << (p))
#define EVERY_POLICY ((1u << REASM_POLICY_COUNT) - 1)

struct script {
	const char *name;
	unsigned families; /* FAM4 | FAM6 */
	unsigned policies; /* POLICY() bits */
	size_t len;	   /* the datagram's fragmentable part */
	uint32_t id, seed; /* of make() */
	const struct step *steps;
};

/* One script under one family and one policy: a test case. It holds the
 * script's index, not its address: each case runs in a process of its
 * own, where the parameters arrive as bytes. */
struct script_run {
	size_t index;
	int family;
	enum reasm_policy policy;
};

#define SCRIPT_RUNS_MAX 128

/* Every (family, policy) of every script of @p v, into @p out. */
static size_t script_runs(const struct script *v, size_t n,
			  struct script_run *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		for (int fam = 4; fam <= 6; fam += 2)
			for (int p = 0; p < REASM_POLICY_COUNT; p++) {
				if (!(v[i].families & (1u << fam)) ||
				    !(v[i].policies & POLICY(p)))
					continue;
				cr_assert_lt(k, SCRIPT_RUNS_MAX);
				out[k++] = (struct script_run){
					i, fam, (enum reasm_policy)p
				};
			}
	return k;
}

static int feed_step(struct rig *g, const struct pb_dgram *d,
		     const uint8_t *data, const struct step *s)
{
	uint8_t buf[64];
	const uint8_t *bytes = NULL;
	struct pb_dgram bad = *d;

	bad.v4.bad_checksum = s->bad_checksum;
	if (s->head) {
		bytes = data;
	} else if (s->fill != 0) {
		cr_assert_leq(s->len, sizeof(buf));
		for (uint32_t k = 0; k < s->len; k++)
			buf[k] = k >= s->fill_from ? s->fill : data[s->off + k];
		bytes = buf;
	}
	return feed_bytes(g, &bad, s->off, bytes, s->len, s->mf);
}

#define SCRIPT_STEPS_MAX 32

/* The steps of @p v, each STEP_RUN replaced by the steps of its list, into
 * @p out from index @p n on; @return the index past the last. */
static size_t flatten(const struct step *v, struct step *out, size_t n)
{
	for (; v->kind != STEP_END; v++) {
		if (v->kind == STEP_RUN) {
			n = flatten(v->run, out, n);
		} else {
			if (n + 1 >= SCRIPT_STEPS_MAX)
				cr_assert_fail("more than %d steps",
					       SCRIPT_STEPS_MAX - 1);
			out[n++] = *v;
		}
	}
	out[n].kind = STEP_END;
	return n;
}

static void run_script(const struct script *s, const struct script_run *p)
{
	struct rig g;
	uint8_t data[64];
	struct pb_dgram d;
	struct step steps[SCRIPT_STEPS_MAX];
	char what[128], at[160];
	bool finished = false;

	snprintf(what, sizeof(what), "%s (IPv%d, %s)", s->name, p->family,
		 reasm_policy_name(p->policy));
	cr_assert_leq(s->len, sizeof(data));
	rig_open(&g, REASM_LINK_ETHERNET, p->policy);
	make(&d, p->family, PB_DLT_ETHERNET, s->id, data, s->len, s->seed);
	flatten(s->steps, steps, 0);
	for (size_t i = 0; steps[i].kind != STEP_END; i++) {
		const struct step *t = &steps[i];
		int rc;

		snprintf(at, sizeof(at), "%s, step %zu", what, i);
		switch (t->kind) {
		case STEP_FRAG:
			rc = feed_step(&g, &d, data, t);
			if (t->rc != ANY_RC)
				cr_expect_eq(rc, t->rc, "%s: [%u, +%u) MF %d",
					     at, t->off, t->len, t->mf);
			break;
		case STEP_STATS:
			stats_expect(&g, at, t->want);
			break;
		case STEP_OUT:
			cr_assert_eq(g.nout, t->nout, "%s: outputs", at);
			if (t->nout > 0 && t->out_len > 0) {
				struct pb_dgram cut;
				make_cut(&cut, p->family, s->id, data,
					 t->out_len);
				expect_dgram(&g, t->nout - 1, &cut);
			} else if (t->nout > 0) {
				expect_dgram(&g, t->nout - 1, &d);
			}
			break;
		case STEP_FINISH:
			finish_expect(&g, at, t->want);
			finished = true;
			break;
		case STEP_CLOCK:
			g.now += t->ns;
			break;
		case STEP_END:
		case STEP_RUN:
			break;
		}
	}
	if (!finished)
		rig_finish(&g);
}

/* The parameters and the test of a table of scripts. */
#define SCRIPT_TEST(suite, name, table)                                      \
	ParameterizedTestParameters(suite, name)                             \
	{                                                                    \
		static struct script_run v[SCRIPT_RUNS_MAX];                 \
		size_t n = script_runs(table,                                \
				       sizeof(table) / sizeof(table[0]), v); \
		return cr_make_param_array(struct script_run, v, n);         \
	}                                                                    \
	ParameterizedTest(struct script_run *p, suite, name)                 \
	{                                                                    \
		run_script(&table[p->index], p);                             \
	}

/* ----------------------------------------------------------------------
 * strict
 */

#define BOTH (FAM4 | FAM6)
#define STRICT POLICY(REASM_STRICT)

/* Held [8, 24) (plus [40, 48) MF 0); the new fragment [o, o + l) MF 1
 * overlaps it: the datagram is discarded; what follows starts a new
 * queue, which completes only once all of it has come again. At the end
 * two fragments were discarded with the datagram, and the overlapping
 * one. */
/* clang-format off */
#define OVERLAP(what, o, l)                                                  \
	{ what, BOTH, STRICT, 48, 21, 6,                                     \
	  STEPS(FRAG(8, 16, true, ANY_RC), FRAG(40, 8, false, ANY_RC),       \
		FRAG(o, l, true, 0),                                         \
		STATS(W(ReasmOverlaps, 1), W(ReasmFails, 1),                 \
		      W(duplicates, 0), W(datagrams_pending, 0),             \
		      W(bytes_held, 0)),                                     \
		FRAG(0, 8, true, 0), FRAG(24, 16, true, 0),                  \
		STATS(W(datagrams_pending, 1)),                              \
		FRAG(8, 16, true, ANY_RC), FRAG(40, 8, false, 1), OUT(1),    \
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 1), W(ReasmReqds, 7),   \
		       W(frags_reassembled, 4),                              \
		       W_SUM(frags_dropped, frags_discarded, 3))) }

/* Some fragments held, then one that contradicts the end ([o1, +l1) MF
 * m1, then [o2, +l2) MF m2): the datagram is discarded (bad_end); the
 * datagram whole, from scratch, completes a new queue. */
#define BAD_END(what, o1, l1, m1, o2, l2, m2)                                \
	{ what, BOTH, STRICT, 32, 33, 7,                                     \
	  STEPS(FRAG(o1, l1, m1, ANY_RC), FRAG(o2, l2, m2, ANY_RC),          \
		STATS(W(bad_end, 1), W(ReasmFails, 1), W(ReasmOverlaps, 0),  \
		      W(datagrams_pending, 0)),                              \
		OUT(0), FRAG(0, 16, true, ANY_RC), FRAG(16, 16, false, 1),   \
		OUT(1),                                                      \
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 2),              \
		       W(ReasmReqds, 4))) }
/* clang-format on */

static const struct script strict_scripts[] = {
	{ "exact duplicate, other bytes and the same", BOTH, STRICT, 48, 9, 3,
	  STEPS(FRAG(0, 16, true, 0), FRAG(16, 16, true, 0),
		JUNK(16, 16, true, 0, 0xee), FRAG(0, 16, true, 0),
		STATS(W(duplicates, 2), W(ReasmOverlaps, 0),
		      W(datagrams_pending, 1)),
		FRAG(32, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 0), W(duplicates, 2),
		       W(ReasmReqds, 5), W(frags_reassembled, 3),
		       W(frags_dropped, 2))) },
	/* Inside [0, 32): at the start, in the middle, at the end. */
	{ "contained duplicates", BOTH, STRICT, 64, 9, 4,
	  STEPS(FRAG(0, 32, true, 0), JUNK(0, 8, true, 0, 0x5a),
		JUNK(8, 16, true, 0, 0x5a), JUNK(16, 16, true, 0, 0x5a),
		FRAG(32, 32, false, 1), OUT(1),
		FINISH(W(duplicates, 3), W(ReasmOverlaps, 0), W(ReasmOKs, 1),
		       W(ReasmFails, 0), W(frags_reassembled, 2),
		       W(frags_dropped, 3))) },
	/* A fragment inside held data that spans two held fragments: a
	 * duplicate when they arrived in order (one run, as Linux keeps
	 * them), an overlap when the first arrived second (two runs). */
	{ "[8,24) inside the run [0,16)+[16,32)", BOTH, STRICT, 48, 12, 5,
	  STEPS(FRAG(0, 16, true, ANY_RC), FRAG(16, 16, true, ANY_RC),
		JUNK(8, 16, true, 0, 0x77),
		STATS(W(duplicates, 1), W(ReasmOverlaps, 0)),
		FRAG(32, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 0))) },
	{ "[8,24) across two runs", BOTH, STRICT, 48, 12, 5,
	  STEPS(FRAG(16, 16, true, ANY_RC), FRAG(0, 16, true, ANY_RC),
		JUNK(8, 16, true, 0, 0x77),
		STATS(W(duplicates, 0), W(ReasmOverlaps, 1), W(ReasmFails, 1)),
		FRAG(32, 16, false, 0), OUT(0), FINISH_ONLY) },
	OVERLAP("partial, from the left", 0, 16),
	OVERLAP("partial, from the right", 16, 16),
	OVERLAP("superset", 0, 32),
	OVERLAP("same start, longer", 8, 24),
	OVERLAP("same end, longer", 0, 24),
	BAD_END("second last fragment, shorter", 16, 8, false, 8, 8, false),
	BAD_END("second last fragment, longer", 16, 8, false, 24, 8, false),
	BAD_END("data past the end", 8, 8, false, 16, 8, true),
	BAD_END("last fragment before held data", 16, 16, true, 8, 8, false),
	BAD_END("zero-length fragment", 0, 8, true, 8, 0, true),
	BAD_END("zero-length last fragment", 0, 8, true, 8, 0, false),
};

SCRIPT_TEST(strict, scripted, strict_scripts)

/* ----------------------------------------------------------------------
 * ends: each policy's end rules (README.md's policy table). Three
 * models: Linux's (strict, linux) discards the datagram; FreeBSD's
 * (bsd) drops the fragment alone and keeps the first end; frag3's
 * (first, last, bsd-right, windows, solaris) drops a non-last fragment
 * past the end, lets the higher end of two last fragments win, and
 * discards the datagram when a last fragment that ends short meets held
 * data.
 */

#define LINUXES (STRICT | POLICY(REASM_LINUX))
#define FRAG3S                                                                \
	(POLICY(REASM_FIRST) | POLICY(REASM_LAST) | POLICY(REASM_BSD_RIGHT) | \
	 POLICY(REASM_WINDOWS) | POLICY(REASM_SOLARIS))
#define FREEBSD POLICY(REASM_BSD)

/* [0, 8) and [16, 24) MF 0: the end known, [8, 16) missing. */
static const struct step ends_apart[] =
	STEP_LIST(FRAG(0, 8, true, 0), FRAG(16, 8, false, 0));

/* [8, 24) MF 0, then [8, 16) MF 0 with other bytes, over it. */
static const struct step end_over_held[] =
	STEP_LIST(FRAG(8, 16, false, 0), JUNK(8, 8, false, 0, 0xee));

/* [8, 16) MF 0, then [16, 24) MF 0. */
static const struct step end_after[] =
	STEP_LIST(FRAG(8, 8, false, 0), FRAG(16, 8, false, 0));

/* [24, 32) MF 1, then [8, 16) MF 0. */
static const struct step end_before_held[] =
	STEP_LIST(FRAG(24, 8, true, 0), FRAG(8, 8, false, 0));

/* clang-format off */
/* FreeBSD dropped the last fragment fed as past the end, and [8, 16)
 * completes the 24 bytes. */
static const struct step bsd_past_end[] = STEP_LIST(
	STATS(W(past_end, 1)), FRAG(8, 8, true, 1), OUT(1),
	FINISH(W(ReasmOKs, 1), W(past_end, 1), W(frags_reassembled, 3)));

static const struct script end_scripts[] = {
	/* [0, 8), [16, 24) MF 0, then [24, 32) MF 1: past the end. */
	{ "data past the end", BOTH, LINUXES, 24, 61, 21,
	  STEPS(RUN(ends_apart), JUNK(24, 8, true, 0, 0xee),
		STATS(W(bad_end, 1), W(ReasmFails, 1), W(past_end, 0),
		      W(datagrams_pending, 0)),
		FRAG(8, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(datagrams_pending, 1))) },
	{ "data past the end", BOTH, FREEBSD | FRAG3S, 24, 61, 21,
	  STEPS(RUN(ends_apart), JUNK(24, 8, true, 0, 0xee),
		STATS(W(past_end, 1), W(bad_end, 0), W(ReasmFails, 0),
		      W(datagrams_pending, 1)),
		FRAG(8, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(past_end, 1), W(frags_dropped, 1),
		       W(frags_reassembled, 3))) },
	/* [0, 8), [16, 24) MF 0, then [8, 24) MF 1 (the same bytes): it
	 * ends at the end. An overlap to strict; FreeBSD refuses a
	 * non-last fragment that reaches the end (i >= ipq_maxoff); the
	 * others take it and complete. */
	{ "a non-last fragment ending at the end", BOTH, STRICT, 24, 62, 22,
	  STEPS(RUN(ends_apart), FRAG(8, 16, true, 0), OUT(0),
		FINISH(W(ReasmOverlaps, 1), W(ReasmFails, 1),
		       W(past_end, 0))) },
	{ "a non-last fragment ending at the end", BOTH,
	  POLICY(REASM_LINUX) | FRAG3S, 24, 62, 22,
	  STEPS(RUN(ends_apart), FRAG(8, 16, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(past_end, 0), W(bad_end, 0))) },
	{ "a non-last fragment ending at the end", BOTH, FREEBSD, 24, 62, 22,
	  STEPS(RUN(ends_apart), FRAG(8, 16, true, 0), RUN(bsd_past_end)) },
	/* [0, 8), [16, 24) MF 0, then [8, 16) MF 0: a second last fragment
	 * that ends before the first's end, over nothing held. */
	{ "a second last fragment ending before, apart", BOTH, LINUXES, 24,
	  63, 23,
	  STEPS(RUN(ends_apart), FRAG(8, 8, false, 0), OUT(0),
		FINISH(W(bad_end, 1), W(ReasmFails, 1),
		       W(datagrams_pending, 0))) },
	{ "a second last fragment ending before, apart", BOTH, FRAG3S, 24,
	  63, 23,
	  STEPS(RUN(ends_apart), FRAG(8, 8, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(past_end, 0),
		       W(frags_reassembled, 3))) },
	{ "a second last fragment ending before, apart", BOTH, FREEBSD, 24,
	  63, 23,
	  STEPS(RUN(ends_apart), FRAG(8, 8, false, 0), RUN(bsd_past_end)) },
	/* [8, 24) MF 0, then [8, 16) MF 0 (other bytes) over it, then
	 * [0, 8): a second last fragment that ends before the first's
	 * end, over held data (frag3's "teardrop"). */
	{ "a second last fragment ending before, over held data", BOTH,
	  LINUXES | FRAG3S, 24, 64, 24,
	  STEPS(RUN(end_over_held),
		STATS(W(bad_end, 1), W(ReasmFails, 1), W(datagrams_pending, 0)),
		FRAG(0, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(past_end, 0))) },
	{ "a second last fragment ending before, over held data", BOTH,
	  FREEBSD, 24, 64, 24,
	  STEPS(RUN(end_over_held), STATS(W(past_end, 1), W(bad_end, 0)),
		FRAG(0, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 2))) },
	/* [8, 16) MF 0, then [16, 24) MF 0, then [0, 8): a second last
	 * fragment that ends after the first's end. FreeBSD keeps the
	 * first end and delivers 16 bytes; frag3 moves the end. */
	{ "a second last fragment ending after", BOTH, LINUXES, 24, 65, 25,
	  STEPS(RUN(end_after), STATS(W(bad_end, 1), W(ReasmFails, 1)),
		FRAG(0, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(datagrams_pending, 1))) },
	{ "a second last fragment ending after", BOTH, FREEBSD, 24, 65, 25,
	  STEPS(RUN(end_after), STATS(W(past_end, 1), W(bad_end, 0)),
		FRAG(0, 8, true, 1), OUT_LEN(1, 16),
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 2))) },
	{ "a second last fragment ending after", BOTH, FRAG3S, 24, 65, 25,
	  STEPS(RUN(end_after), STATS(W(past_end, 0), W(bad_end, 0)),
		FRAG(0, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 3))) },
	/* [24, 32) MF 1, then [8, 16) MF 0, then [0, 8) and [16, 24): the
	 * last fragment ends before held data. FreeBSD records the end,
	 * refuses what reaches it, and never completes; frag3 keeps the
	 * higher end and completes 32 bytes. */
	{ "the last fragment ending before held data", BOTH, LINUXES, 32, 66,
	  26,
	  STEPS(RUN(end_before_held), STATS(W(bad_end, 1), W(ReasmFails, 1)),
		FRAG(0, 8, true, 0), FRAG(16, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(datagrams_pending, 1))) },
	{ "the last fragment ending before held data", BOTH, FREEBSD, 32, 66,
	  26,
	  STEPS(RUN(end_before_held), FRAG(0, 8, true, 0),
		FRAG(16, 8, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(ReasmFails, 0), W(bad_end, 0),
		       W(past_end, 1), W(datagrams_pending, 1),
		       W(frags_pending, 3))) },
	{ "the last fragment ending before held data", BOTH, FRAG3S, 32, 66,
	  26,
	  STEPS(RUN(end_before_held), FRAG(0, 8, true, 0),
		FRAG(16, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(past_end, 0),
		       W(frags_reassembled, 4))) },
};
/* clang-format on */

SCRIPT_TEST(ends, scripted, end_scripts)

/* ----------------------------------------------------------------------
 * eight: non-last fragments whose length is not a multiple of 8
 */

static const struct script eight_scripts[] = {
	/* [0, 20) MF 1: bytes 16..19 are ignored (Linux rounds the end
	 * down); they differ from the datagram's so that using them
	 * shows. [16, 40) meets the rounded-down [0, 16). */
	{ "IPv4: the end rounded down", FAM4, STRICT, 40, 44, 8,
	  STEPS(FILL(0, 20, true, 0, 0xcc, 16), FRAG(16, 24, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmOverlaps, 0),
		       W(frags_reassembled, 2))) },
	/* [8, 12) MF 1 rounds down to [8, 8): a zero-length fragment. */
	{ "IPv4: a short fragment rounds to nothing", FAM4, STRICT, 32, 45, 9,
	  STEPS(FRAG(0, 8, true, ANY_RC), FRAG(8, 4, true, ANY_RC), OUT(0),
		FINISH(W(bad_end, 1), W(ReasmFails, 1),
		       W(datagrams_pending, 0))) },
	/* 12 bytes, MF 1: dropped, the queue kept. */
	{ "IPv6: the fragment dropped, the queue kept", FAM6, STRICT, 32, 46,
	  10,
	  STEPS(FRAG(0, 16, true, 0), FRAG(16, 12, true, 0),
		STATS(W(malformed, 1), W(ReasmFails, 0),
		      W(datagrams_pending, 1)),
		FRAG(16, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(frags_reassembled, 2),
		       W(frags_dropped, 1))) },
};

SCRIPT_TEST(eight, scripted, eight_scripts)

/* ----------------------------------------------------------------------
 * limits
 */

/* Datagrams at the 65535-byte limit, fed in fragments of 1480 bytes
 * (IPv4) or 1448 (IPv6), in order: those that fit reassemble, the
 * others fail as too big. */
struct big_case {
	char name[CASE_NAME_MAX];
	int family;
	bool icmp;    /* an ICMP echo, not the UDP datagram of make() */
	size_t len;   /* the fragmentable part */
	uint16_t hbh; /* IPv6: hop-by-hop options before the Fragment header */
	uint8_t optlen; /* IPv4: NOP options of the offset-0 fragment alone */
	uint32_t id, seed;
	uint32_t out_len; /* the output frame, when it fits; 0: it fails */
};

/* clang-format off */
static const struct big_case big_cases[] = {
	{ .name = "IPv4: exactly 65535 reassembles", .family = 4, .len = 65515,
	  .id = 51, .seed = 51, .out_len = 14 + 65535 },
	{ .name = "IPv4: 65536 fails", .family = 4, .len = 65516,
	  .id = 52, .seed = 52 },
	/* Every fragment fits (20 + offset + len <= 65535), but the
	 * offset-0 fragment's 60-byte header makes 60 + 65500 = 65560. */
	{ .name = "IPv4: options push the datagram past 65535", .family = 4,
	  .len = 65500, .optlen = 40, .id = 53, .seed = 12 },
	/* ICMP echo with 65510 data bytes: 20 + 8 + 65510 = 65538. */
	{ .name = "IPv4: ping of death", .family = 4, .icmp = true,
	  .len = 8 + 65510, .id = 56, .seed = 15 },
	/* The payload length counts the options before the Fragment
	 * header. */
	{ .name = "IPv6: 0 + 65535", .family = 6, .len = 65535,
	  .id = 55, .seed = 14, .out_len = 14 + 40 + 65535 },
	{ .name = "IPv6: 8 + 65527", .family = 6, .hbh = 8, .len = 65527,
	  .id = 55, .seed = 14, .out_len = 14 + 40 + 65535 },
	{ .name = "IPv6: 16 + 65519", .family = 6, .hbh = 16, .len = 65519,
	  .id = 55, .seed = 14, .out_len = 14 + 40 + 65535 },
	{ .name = "IPv6: 0 + 65536", .family = 6, .len = 65536,
	  .id = 55, .seed = 14 },
	{ .name = "IPv6: 8 + 65528", .family = 6, .hbh = 8, .len = 65528,
	  .id = 55, .seed = 14 },
	{ .name = "IPv6: 16 + 65520", .family = 6, .hbh = 16, .len = 65520,
	  .id = 55, .seed = 14 },
};
/* clang-format on */

TABLE_PARAMS(limits, big_datagrams, big_cases)

ParameterizedTest(struct big_case *p, limits, big_datagrams, .timeout = 30)
{
	struct rig g;
	uint8_t *data = malloc(p->len);
	struct pb_dgram d;
	size_t n;

	cr_assert_not_null(data);
	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	if (p->icmp) {
		pb_fill(data, p->len, p->seed);
		pb_icmp_echo_hdr(data, false, 1, 1);
		pb_dgram_v4(&d, PB_DLT_ETHERNET, (uint16_t)p->id,
			    PB_IPPROTO_ICMP, data, p->len);
	} else {
		make(&d, p->family, PB_DLT_ETHERNET, p->id, data, p->len,
		     p->seed);
	}
	if (p->family == 6)
		d.v6.hbh_len = p->hbh;
	struct pb_frame **f =
		pb_split_every(&d, p->family == 4 ? 1480 : 1448, &n);
	if (p->optlen > 0) {
		struct pb_dgram head = d;
		head.v4.optlen = p->optlen;
		memset(head.v4.opts, 1, p->optlen); /* NOPs */
		pb_frame_free(f[0]);
		f[0] = pb_frag(&head, 0, NULL, 1480, true);
	}
	for (size_t i = 0; i < n; i++)
		feed(&g, f[i]);
	pb_frames_free(f, n, true);
	if (p->out_len > 0) {
		cr_assert_eq(g.nout, 1u, "%s", p->name);
		cr_expect_eq(g.out[0]->len, p->out_len, "%s", p->name);
		expect_dgram(&g, 0, &d);
		finish_expect(&g, p->name,
			      COUNTS(W(ReasmOKs, 1), W(too_big, 0)));
	} else {
		cr_expect_eq(g.nout, 0u, "%s", p->name);
		struct reasm_stats st =
			finish_expect(&g, p->name, COUNTS(W(ReasmOKs, 0)));
		cr_expect_geq(st.too_big, 1u, "%s", p->name);
	}
	free(data);
}

static const enum reasm_policy all_policies[] = {
	REASM_STRICT,	 REASM_FIRST, REASM_LAST,    REASM_BSD,
	REASM_BSD_RIGHT, REASM_LINUX, REASM_WINDOWS, REASM_SOLARIS,
};
#define NPOLICIES (sizeof(all_policies) / sizeof(all_policies[0]))

#define LINUX_ENDS (STRICT | POLICY(REASM_LINUX))
#define TARGET_ENDS (EVERY_POLICY & ~LINUX_ENDS)

/* [0, 16) MF 1, [16, 32) MF 0 on the same ID after a datagram was
 * discarded: a new datagram, emitted (as the second output, or the
 * first). */
#define AGAIN(nout) FRAG(0, 16, true, 0), FRAG(16, 16, false, 1), OUT(nout)

static const struct script limits_scripts[] = {
	/* 20 + 65512 + 8 = 65540; 20 + 65512 + 4 = 65536, one byte too
	 * many, as a last fragment; 20 + 65504 + 8 = 65532 fits. The
	 * target-based policies drop each fragment past 65535 alone, as
	 * FreeBSD's ip_input() does. */
	{ "IPv4: a fragment past 65535 dropped", FAM4, TARGET_ENDS, 16, 50, 11,
	  STEPS(HEAD(65512, 8, true), HEAD(65512, 4, false),
		HEAD(65504, 8, true),
		FINISH(W(too_big, 2), W(ReasmReqds, 3), W(frags_pending, 1),
		       W(datagrams_pending, 1))) },
	/* Linux queues it: [65512, 65520) raises the queue's length, the
	 * last fragment [65512, 65516) then ends short of it and the queue
	 * is discarded with both; [65504, 65512) starts a new one. */
	{ "IPv4: a fragment past 65535 raises the end", FAM4, LINUX_ENDS, 16,
	  50, 11,
	  STEPS(HEAD(65512, 8, true), HEAD(65512, 4, false),
		HEAD(65504, 8, true),
		FINISH(W(too_big, 0), W(bad_end, 1), W(ReasmFails, 1),
		       W(ReasmReqds, 3), W(frags_discarded, 2),
		       W(frags_pending, 1), W(datagrams_pending, 1))) },
	/* The datagram [0, 32) with a fragment past 65535 slipped in
	 * before its last fragment, then the same datagram again on the
	 * same ID. Linux delivers only the second (the first queue ends
	 * short of the length the bad fragment gave it); the target-based
	 * policies drop the bad fragment and emit both. */
	{ "IPv4: a fragment past 65535 kills its datagram", FAM4, LINUX_ENDS,
	  32, 59, 18,
	  STEPS(FRAG(0, 16, true, 0), HEAD(65512, 8, true),
		FRAG(16, 16, false, 0), OUT(0),
		STATS(W(bad_end, 1), W(ReasmFails, 1), W(frags_discarded, 3),
		      W(datagrams_pending, 0)),
		AGAIN(1),
		FINISH(W(ReasmOKs, 1), W(too_big, 0), W(frags_reassembled, 2),
		       W(frags_dropped, 0))) },
	{ "IPv4: a fragment past 65535 kills its datagram", FAM4, TARGET_ENDS,
	  32, 59, 18,
	  STEPS(FRAG(0, 16, true, 0), HEAD(65512, 8, true),
		FRAG(16, 16, false, 1), OUT(1), AGAIN(2),
		FINISH(W(ReasmOKs, 2), W(too_big, 1), W(frags_too_big, 1),
		       W(bad_end, 0), W(frags_reassembled, 4))) },
	/* The bad fragment first: it starts the queue, whose length it
	 * sets; the last fragment ends short of it. */
	{ "IPv4: a fragment past 65535 first", FAM4, LINUX_ENDS, 32, 60, 19,
	  STEPS(HEAD(65512, 8, true), FRAG(0, 16, true, 0),
		FRAG(16, 16, false, 0), OUT(0), AGAIN(1),
		FINISH(W(ReasmOKs, 1), W(bad_end, 1), W(frags_discarded, 3),
		       W(frags_reassembled, 2))) },
	{ "IPv4: a fragment past 65535 first", FAM4, TARGET_ENDS, 32, 60, 19,
	  STEPS(HEAD(65512, 8, true), FRAG(0, 16, true, 0),
		FRAG(16, 16, false, 1), OUT(1), AGAIN(2),
		FINISH(W(ReasmOKs, 2), W(too_big, 1), W(bad_end, 0))) },
	/* The last fragment first: the bad fragment lies past the end and
	 * discards the queue; [0, 16) then starts a queue that never
	 * completes. */
	{ "IPv4: a fragment past 65535 after the last", FAM4, LINUX_ENDS, 32,
	  61, 20,
	  STEPS(FRAG(16, 16, false, 0), HEAD(65512, 8, true),
		FRAG(0, 16, true, 0), OUT(0),
		FINISH(W(ReasmOKs, 0), W(bad_end, 1), W(too_big, 0),
		       W(frags_discarded, 2), W(frags_pending, 1),
		       W(datagrams_pending, 1))) },
	{ "IPv4: a fragment past 65535 after the last", FAM4, TARGET_ENDS, 32,
	  61, 20,
	  STEPS(FRAG(16, 16, false, 0), HEAD(65512, 8, true),
		FRAG(0, 16, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(too_big, 1), W(bad_end, 0))) },
	/* 65536, 65536, then 65535 fits. */
	{ "IPv6: a fragment past 65535 dropped", FAM6, STRICT, 16, 54, 13,
	  STEPS(HEAD(65528, 8, true), HEAD(65528, 8, false),
		HEAD(65528, 7, false),
		FINISH(W(too_big, 2), W(frags_pending, 1))) },
	/* The classic: [0, 36) MF 1, then [24, 28) MF 0, inside the first
	 * and ending before it. FreeBSD records the end, drops the
	 * fragment (held data covers it) and never completes the queue:
	 * the held [0, 36) lies past the end. */
	{ "teardrop", FAM4, EVERY_POLICY & ~POLICY(REASM_BSD), 36, 57, 16,
	  STEPS(FRAG(0, 36, true, ANY_RC), FRAG(24, 4, false, ANY_RC), OUT(0),
		FINISH(W(bad_end, 1), W(ReasmFails, 1),
		       W(datagrams_pending, 0))) },
	{ "teardrop", FAM4, POLICY(REASM_BSD), 36, 57, 16,
	  STEPS(FRAG(0, 36, true, ANY_RC), FRAG(24, 4, false, ANY_RC), OUT(0),
		FINISH(W(bad_end, 0), W(ReasmFails, 0), W(duplicates, 1),
		       W(datagrams_pending, 1), W(frags_pending, 1))) },
	/* A last fragment whose bytes are all held already still marks the
	 * end (Linux sets INET_FRAG_LAST_IN before its duplicate and
	 * overlap checks), under every policy: [8, 24) MF 1, then [16, 24)
	 * MF 0, then [0, 8) completes the 24-byte datagram. Every policy but
	 * last keeps the held bytes: the last fragment brought nothing
	 * new. */
	{ "a duplicate last fragment marks the end", BOTH,
	  EVERY_POLICY & ~POLICY(REASM_LAST), 24, 58, 17,
	  STEPS(FRAG(8, 16, true, 0), FRAG(16, 8, false, 0),
		FRAG(0, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 0), W(datagrams_pending, 0),
		       W(duplicates, 1), W(frags_reassembled, 2))) },
	{ "a duplicate last fragment marks the end", BOTH, POLICY(REASM_LAST),
	  24, 58, 17,
	  STEPS(FRAG(8, 16, true, 0), FRAG(16, 8, false, 0),
		FRAG(0, 8, true, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmFails, 0),
		       W(datagrams_pending, 0))) },
};

SCRIPT_TEST(limits, scripted, limits_scripts)

static const bool orders[] = { false, true };

TABLE_PARAMS(limits, max_frags, orders)

ParameterizedTest(bool *reversed, limits, max_frags)
{
	struct rig g;
	uint8_t data[40];
	struct pb_dgram d;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	size_t n;

	c.max_frags = 4;
	rig_init(&g, &c);
	for (uint32_t frags = 4; frags <= 5; frags++) {
		make(&d, 4, PB_DLT_ETHERNET, 60 + frags, data, 8 * frags,
		     frags);
		struct pb_frame **f = pb_split_every(&d, 8, &n);
		cr_assert_eq(n, frags);
		for (size_t i = 0; i < n; i++)
			feed(&g, f[*reversed ? n - 1 - i : i]);
		pb_frames_free(f, n, true);
	}
	cr_assert_eq(g.nout, 1u, "4 fragments fit, 5 do not");
	make(&d, 4, PB_DLT_ETHERNET, 64, data, 32, 4);
	expect_dgram(&g, 0, &d);
	struct reasm_stats st = finish_expect(
		&g, NULL,
		COUNTS(W(ReasmOKs, 1), W(too_many_frags, 1), W(ReasmFails, 1),
		       W(ReasmReqds, 9), W(frags_reassembled, 4)));
	cr_expect_eq(st.datagrams_pending, 0u,
		     "the fifth fragment discards the datagram");
}

/* max_frags 0 is the default, 128: a datagram of 128 fragments
 * completes, one of 129 is discarded at its 129th. */
FAMILY_PARAMS(limits, max_frags_default)

ParameterizedTest(int *family, limits, max_frags_default)
{
	static uint8_t data[128 * 8], more[129 * 8];
	struct rig g;
	struct pb_dgram d, e;
	size_t n;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	make(&d, *family, PB_DLT_ETHERNET, 67, data, sizeof(data), 36);
	make(&e, *family, PB_DLT_ETHERNET, 68, more, sizeof(more), 37);
	struct pb_frame **f = pb_split_every(&d, 8, &n);
	cr_assert_eq(n, 128u);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(feed(&g, f[n - 1 - i]), i + 1 == n ? 1 : 0,
			     "128 fragments, fragment %zu", i);
	pb_frames_free(f, n, true);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &d);
	f = pb_split_every(&e, 8, &n);
	cr_assert_eq(n, 129u);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(feed(&g, f[n - 1 - i]), 0,
			     "129 fragments, fragment %zu", i);
	pb_frames_free(f, n, true);
	cr_expect_eq(g.nout, 1u);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 1), W(too_many_frags, 1),
			     W(ReasmFails, 1), W(frags_reassembled, 128),
			     W(frags_discarded, 129), W(datagrams_pending, 0)));
}

/* The default 128 is below what Linux takes (it has no count, only its
 * memory limit): 129 fragments of 8 bytes pass the host and not reasm.
 * max_frags REASM_MAX_FRAGS_LIMIT closes that: the most fragments a
 * datagram can have without overlaps, 8189 of 8 bytes and a last one of
 * 3 (65515 bytes of IPv4 data), reassemble, in order and reversed (the
 * dearest order: every fragment goes in at the front). */
TABLE_PARAMS(limits, max_frags_limit_takes_every_datagram, orders)

ParameterizedTest(bool *reversed, limits, max_frags_limit_takes_every_datagram,
		  .timeout = 60)
{
	static uint8_t data[65515], small[129 * 8];
	struct rig g;
	struct pb_dgram d, e;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);
	size_t n;

	c.max_frags = REASM_MAX_FRAGS_LIMIT;
	c.mem_high = 64u << 20;
	rig_init(&g, &c);
	make(&e, 4, PB_DLT_ETHERNET, 69, small, sizeof(small), 38);
	make(&d, 4, PB_DLT_ETHERNET, 70, data, sizeof(data), 39);
	struct pb_frame **f = pb_split_every(&e, 8, &n);
	cr_assert_eq(n, 129u);
	for (size_t i = 0; i < n; i++)
		feed(&g, f[*reversed ? n - 1 - i : i]);
	pb_frames_free(f, n, true);
	f = pb_split_every(&d, 8, &n);
	cr_assert_eq(n, 8190u);
	for (size_t i = 0; i < n; i++)
		feed(&g, f[*reversed ? n - 1 - i : i]);
	pb_frames_free(f, n, true);
	cr_assert_eq(g.nout, 2u);
	expect_dgram(&g, 0, &e);
	expect_dgram(&g, 1, &d);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 2), W(too_many_frags, 0),
			     W(frags_reassembled, 129 + 8190)));
}

/* max_frags counts fragments: under FIRST one fragment that fills three
 * gaps between held ones ([8, 48) over [0, 8), [16, 24), [32, 40)) is one
 * fragment, though it leaves six pieces. */
Test(limits, max_frags_counts_fragments)
{
	struct rig g;
	uint8_t data[48], big[40];
	struct pb_dgram d, want;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_FIRST);

	c.max_frags = 4;
	rig_init(&g, &c);
	make(&d, 4, PB_DLT_ETHERNET, 66, data, sizeof(data), 35);
	memset(big, 0xbb, sizeof(big));
	feed_frag(&g, &d, 0, 8, true);
	feed_frag(&g, &d, 16, 8, true);
	feed_frag(&g, &d, 32, 8, true);
	cr_expect_eq(feed_bytes(&g, &d, 8, big, 40, false), 1);
	cr_assert_eq(g.nout, 1u);
	uint8_t out[48];
	for (unsigned b = 0; b < 6; b++)
		memcpy(out + 8 * b, b % 2 ? big : data + 8 * b, 8);
	want = d;
	want.data = out;
	expect_dgram(&g, 0, &want);
	finish_expect(&g, NULL,
		      COUNTS(W(too_many_frags, 0), W(ReasmOKs, 1),
			     W(frags_reassembled, 4)));
}

/* ----------------------------------------------------------------------
 * ipv6
 */

/* A datagram in three fragments fed out of order, or in one atomic
 * fragment (IPv6: offset 0, MF 0): it reassembles whole. */
struct three_case {
	char name[CASE_NAME_MAX];
	int family;
	bool tcp; /* a TCP header, not the UDP datagram of make() */
	size_t len;
	uint32_t id, seed;
	uint16_t hbh, dst; /* IPv6 options headers before the Fragment header */
	uint32_t starts[3];
	unsigned order[3]; /* the fragments in their order of arrival */
	bool atomic;
};

/* clang-format off */
#define V6_SPLIT .family = 6, .len = 72, .id = 70, .seed = 18, \
	.starts = { 0, 24, 48 }, .order = { 2, 0, 1 }
static const struct three_case three_cases[] = {
	/* A TCP header cut after 8 bytes: IPv4 reassembles it (a filter
	 * may not like it; reassembly has no rule against it). */
	{ .name = "IPv4: a tiny first fragment", .family = 4, .tcp = true,
	  .len = 60, .id = 58, .seed = 17, .starts = { 0, 8, 24 },
	  .order = { 1, 0, 2 } },
	/* Extension headers before the Fragment header. */
	{ .name = "IPv6: hop-by-hop 8", V6_SPLIT, .hbh = 8 },
	{ .name = "IPv6: destination 8", V6_SPLIT, .dst = 8 },
	{ .name = "IPv6: hop-by-hop 8, destination 8", V6_SPLIT, .hbh = 8,
	  .dst = 8 },
	{ .name = "IPv6: hop-by-hop 16, destination 24", V6_SPLIT, .hbh = 16,
	  .dst = 24 },
	{ .name = "IPv6 atomic: hop-by-hop 8, destination 16", V6_SPLIT,
	  .hbh = 8, .dst = 16, .atomic = true },
	{ .name = "IPv6 atomic: destination 8", V6_SPLIT, .dst = 8,
	  .atomic = true },
};
#undef V6_SPLIT
/* clang-format on */

TABLE_PARAMS(order, three_fragments, three_cases)

ParameterizedTest(struct three_case *p, order, three_fragments)
{
	struct rig g;
	uint8_t data[72];
	struct pb_dgram d;
	struct pb_frame *f[3];

	cr_assert_leq(p->len, sizeof(data), "%s", p->name);
	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	if (p->tcp) {
		pb_fill(data, p->len, p->seed);
		pb_tcp_hdr(data, 1234, 80, 1);
		pb_dgram_v4(&d, PB_DLT_ETHERNET, (uint16_t)p->id,
			    PB_IPPROTO_TCP, data, p->len);
	} else {
		make(&d, p->family, PB_DLT_ETHERNET, p->id, data, p->len,
		     p->seed);
	}
	d.v6.hbh_len = p->hbh;
	d.v6.dst_len = p->dst;
	if (p->atomic) {
		cr_expect_eq(feed_frag(&g, &d, 0, p->len, false), 1, "%s",
			     p->name);
	} else {
		pb_split(&d, p->starts, 3, f);
		feed(&g, f[p->order[0]]);
		feed(&g, f[p->order[1]]);
		cr_expect_eq(feed(&g, f[p->order[2]]), 1, "%s", p->name);
		pb_frames_free(f, 3, false);
	}
	cr_assert_eq(g.nout, 1u, "%s", p->name);
	expect_dgram(&g, 0, &d);
	finish_expect(&g, p->name,
		      COUNTS(W(ReasmOKs, 1), W(atomic, p->atomic ? 1 : 0)));
}

/* The fragmentable part starts with @proto; its first fragment carries
 * @first bytes (MF 1). */
struct chain_case {
	uint8_t proto;	/* the Fragment header's Next Header */
	uint16_t ext;	/* destination options after the Fragment header */
	uint8_t upper;	/* the upper layer after them */
	uint32_t first; /* bytes in the first fragment */
	bool ok;
	bool sub8; /* first < 8 and MF 1: also not a multiple of 8 */
};

static const struct chain_case chain_cases[] = {
	{ PB_IPPROTO_TCP, 0, 0, 16, false, false },
	{ PB_IPPROTO_TCP, 0, 0, 8, false, false },
	{ PB_IPPROTO_TCP, 0, 0, 24, true, false },
	{ PB_IPPROTO_UDP, 0, 0, 8, true, false },
	{ PB_IPPROTO_UDP, 0, 0, 4, false, true },
	{ PB_IPPROTO_ICMPV6, 0, 0, 8, true, false },
	{ PB_IPPROTO_ICMPV6, 0, 0, 4, false, true },
	{ PB_IPPROTO_DSTOPTS, 8, PB_IPPROTO_UDP, 8, false, false },
	{ PB_IPPROTO_DSTOPTS, 8, PB_IPPROTO_UDP, 16, true, false },
	{ PB_IPPROTO_DSTOPTS, 16, PB_IPPROTO_TCP, 24, false, false },
	{ PB_IPPROTO_DSTOPTS, 16, PB_IPPROTO_TCP, 40, true, false },
	{ PB_IPPROTO_ESP, 0, 0, 8, true, false },
};

TABLE_PARAMS(ipv6, first_fragment_header_chain, chain_cases)

ParameterizedTest(struct chain_case *p, ipv6, first_fragment_header_chain)
{
	struct rig g;
	uint8_t data[96];
	struct pb_dgram d;
	uint32_t good = 48; /* a first fragment with the whole chain */

	pb_fill(data, sizeof(data), 19);
	uint8_t upper = p->ext ? p->upper : p->proto;
	if (p->ext) {
		data[0] = p->upper;
		data[1] = (uint8_t)(p->ext / 8 - 1);
		data[2] = 1; /* PadN */
		data[3] = (uint8_t)(p->ext - 4);
		memset(data + 4, 0, p->ext - 4u);
	}
	if (upper == PB_IPPROTO_TCP)
		pb_tcp_hdr(data + p->ext, 1, 2, 3);
	else if (upper == PB_IPPROTO_UDP)
		pb_udp_hdr(data + p->ext, 1, 2, (uint16_t)(96 - p->ext));
	else if (upper == PB_IPPROTO_ICMPV6)
		pb_icmp_echo_hdr(data + p->ext, true, 1, 2);
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 71, p->proto, data, sizeof(data));

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	feed_frag(&g, &d, good, sizeof(data) - good, false);
	feed_frag(&g, &d, 0, p->first, true);
	struct reasm_stats st = rig_stats(&g);
	if (p->ok) {
		cr_expect_eq(st.incomplete_chain, 0u,
			     "proto %u ext %u first %u", p->proto, p->ext,
			     p->first);
		feed_frag(&g, &d, p->first, good - p->first, true);
		cr_assert_eq(g.nout, 1u);
		expect_dgram(&g, 0, &d);
	} else {
		/* A first fragment shorter than 8 with MF set is also not a
		 * multiple of 8; Linux checks the chain first (before the
		 * fragment queue), so either counter may say why. */
		if (p->sub8)
			cr_expect_eq(st.incomplete_chain + st.malformed, 1u,
				     "proto %u first %u", p->proto, p->first);
		else
			cr_expect_eq(st.incomplete_chain, 1u,
				     "proto %u ext %u first %u", p->proto,
				     p->ext, p->first);
		cr_expect_eq(st.ReasmFails, 0u);
		cr_expect_eq(st.datagrams_pending, 1u, "queue kept");
		/* The whole first fragment completes the datagram; had the
		 * short one been held, this would overlap it. */
		cr_expect_eq(feed_frag(&g, &d, 0, good, true), 1,
			     "proto %u ext %u first %u", p->proto, p->ext,
			     p->first);
		cr_assert_eq(g.nout, 1u);
		expect_dgram(&g, 0, &d);
	}
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 1), W(ReasmOverlaps, 0),
			     W(frags_dropped, p->ok ? 0u : 1u)));
}

/* A Fragment header nested in the fragmentable part of another: Linux
 * discards the packet once the outer header is done (IP6SKB_FRAGMENTED,
 * then Parameter Problem); STRICT does the same, the other policies emit
 * the datagram with the inner header in place. Both count nested_frag.
 * Cases: the outer header fragments the datagram in two, or is atomic;
 * the inner one comes first or after a destination options header. */
struct nested_case {
	enum reasm_policy policy;
	bool atomic;
	bool dstopts;
};

ParameterizedTestParameters(ipv6, nested_fragment_header)
{
	static struct nested_case v[NPOLICIES * 4];
	size_t n = 0;

	for (size_t k = 0; k < NPOLICIES; k++)
		for (int a = 0; a < 2; a++)
			for (int o = 0; o < 2; o++)
				v[n++] = (struct nested_case){ all_policies[k],
							       a != 0, o != 0 };
	return cr_make_param_array(struct nested_case, v, n);
}

ParameterizedTest(struct nested_case *p, ipv6, nested_fragment_header)
{
	struct rig g;
	uint8_t data[56];
	struct pb_dgram d;
	size_t h = 0;
	const char *name = reasm_policy_name(p->policy);

	pb_fill(data, sizeof(data), 40);
	if (p->dstopts) { /* 8 bytes: Next Header 44, length 0, padding */
		memset(data, 0, 8);
		data[0] = PB_IPPROTO_FRAGMENT;
		data[2] = 1; /* PadN, 4 bytes */
		data[3] = 4;
		h = 8;
	}
	/* The inner Fragment header: UDP next, offset 0, MF 1, id 7. */
	memset(data + h, 0, 8);
	data[h] = PB_IPPROTO_UDP;
	data[h + 3] = 1;
	data[h + 7] = 7;
	pb_udp_hdr(data + h + 8, 4000, 5000, 16);
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 73,
		    p->dstopts ? PB_IPPROTO_DSTOPTS : PB_IPPROTO_FRAGMENT, data,
		    sizeof(data));
	rig_open(&g, REASM_LINK_ETHERNET, p->policy);
	if (p->atomic) {
		feed_frag(&g, &d, 0, sizeof(data), false);
	} else {
		feed_frag(&g, &d, 0, 32, true);
		feed_frag(&g, &d, 32, sizeof(data) - 32, false);
	}
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.nested_frag, 1u, "%s", name);
	cr_expect_eq(st.datagrams_pending, 0u, "%s", name);
	if (p->policy == REASM_STRICT) {
		cr_expect_eq(g.nout, 0u, "strict: discarded");
		cr_expect_eq(st.ReasmOKs, 0u);
		cr_expect_eq(st.ReasmFails, 1u);
	} else {
		cr_assert_eq(g.nout, 1u, "%s: emitted", name);
		/* The outer header gone, the inner one kept: the datagram
		 * as pb_whole() builds it, byte for byte. (pb_check()
		 * refuses any Fragment header in an output.) */
		struct pb_frame *w = pb_whole(&d);
		cr_expect_eq(g.out[0]->len, w->caplen, "%s", name);
		cr_expect(g.out[0]->len == w->caplen &&
				  memcmp(g.out[0]->data, w->data, w->caplen) ==
					  0,
			  "%s: bytes differ", name);
		pb_frame_free(w);
		cr_expect_eq(st.ReasmOKs, 1u, "%s", name);
		cr_expect_eq(st.ReasmFails, 0u, "%s", name);
	}
	rig_finish(&g);
}

/* Headers a Linux host refuses in an IPv6 datagram: a Hop-by-Hop header
 * anywhere but right after the IPv6 header (no handler: Parameter
 * Problem), a Segment Routing header (routing type 4, dropped while
 * seg6_enabled is 0, the default), before the Fragment header or in the
 * fragmentable part. STRICT discards the datagram, the other policies
 * emit it; both count bad_ext. A Hop-by-Hop header first and a routing
 * header of type 0 with no segments left are taken. Each case is a
 * datagram in two fragments, or atomic. */
struct ext_case {
	char name[CASE_NAME_MAX];
	uint16_t hbh_len; /* before the Fragment header */
	uint8_t rt_type;  /* a routing header before it (with rt) */
	bool rt;
	uint8_t inner[2][2]; /* the fragmentable part's headers before UDP:
				{ Next Header value, routing type }; 0, 0
				ends the list unless it is the first */
	unsigned ninner;
	bool refused;
};

/* clang-format off */
static const struct ext_case ext_base[] = {
	{ "Hop-by-Hop opens the fragmentable part",
	  .inner = { { PB_IPPROTO_HOPOPTS, 0 } }, .ninner = 1,
	  .refused = true },
	{ "Hop-by-Hop after destination options",
	  .inner = { { PB_IPPROTO_DSTOPTS, 0 }, { PB_IPPROTO_HOPOPTS, 0 } },
	  .ninner = 2, .refused = true },
	{ "Hop-by-Hop before the Fragment header and after",
	  .hbh_len = 8, .inner = { { PB_IPPROTO_HOPOPTS, 0 } }, .ninner = 1,
	  .refused = true },
	{ "Segment Routing before the Fragment header", .rt = true,
	  .rt_type = 4, .refused = true },
	{ "Segment Routing in the fragmentable part",
	  .inner = { { PB_IPPROTO_ROUTING, 4 } }, .ninner = 1,
	  .refused = true },
	{ "Hop-by-Hop first, destination options inside", .hbh_len = 8,
	  .inner = { { PB_IPPROTO_DSTOPTS, 0 } }, .ninner = 1 },
	{ "routing type 0, no segments left", .rt = true, .rt_type = 0,
	  .inner = { { PB_IPPROTO_ROUTING, 0 } }, .ninner = 1 },
};
/* clang-format on */

struct ext_run {
	size_t index;
	enum reasm_policy policy;
	bool atomic;
};

ParameterizedTestParameters(ipv6, refused_extension_headers)
{
	static struct ext_run v[ARRAY_LEN(ext_base) * NPOLICIES * 2];
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_LEN(ext_base); i++)
		for (size_t k = 0; k < NPOLICIES; k++)
			for (int a = 0; a < 2; a++)
				v[n++] = (struct ext_run){ i, all_policies[k],
							   a != 0 };
	return cr_make_param_array(struct ext_run, v, n);
}

ParameterizedTest(struct ext_run *p, ipv6, refused_extension_headers)
{
	const struct ext_case *c = &ext_base[p->index];
	const char *pol = reasm_policy_name(p->policy);
	uint8_t data[56];
	struct pb_dgram d;
	struct rig g;
	size_t h = 0;

	pb_fill(data, sizeof(data), 41);
	/* Each inner header 8 bytes: Next Header, length 0, then a PadN
	 * option (options headers) or the routing type and segments left
	 * 0 (routing). */
	for (unsigned i = 0; i < c->ninner; i++, h += 8) {
		memset(data + h, 0, 8);
		data[h] = i + 1 < c->ninner ? c->inner[i + 1][0]
					    : PB_IPPROTO_UDP;
		if (c->inner[i][0] == PB_IPPROTO_ROUTING) {
			data[h + 2] = c->inner[i][1];
		} else {
			data[h + 2] = 1; /* PadN, 4 bytes */
			data[h + 3] = 4;
		}
	}
	pb_udp_hdr(data + h, 4000, 5000, (uint16_t)(sizeof(data) - h));
	pb_dgram_v6(&d, PB_DLT_ETHERNET, 74,
		    c->ninner > 0 ? c->inner[0][0] : PB_IPPROTO_UDP, data,
		    sizeof(data));
	d.v6.hbh_len = c->hbh_len;
	if (c->rt) {
		d.v6.rt_len = 8;
		d.v6.rt_type = c->rt_type;
	}
	rig_open(&g, REASM_LINK_ETHERNET, p->policy);
	if (p->atomic) {
		feed_frag(&g, &d, 0, sizeof(data), false);
	} else {
		feed_frag(&g, &d, 0, 32, true);
		feed_frag(&g, &d, 32, sizeof(data) - 32, false);
	}
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.bad_ext, c->refused ? 1u : 0u, "%s (%s)", c->name, pol);
	cr_expect_eq(st.datagrams_pending, 0u, "%s (%s)", c->name, pol);
	if (c->refused && p->policy == REASM_STRICT) {
		cr_expect_eq(g.nout, 0u, "%s: strict discards it", c->name);
		cr_expect_eq(st.ReasmOKs, 0u, "%s", c->name);
		cr_expect_eq(st.ReasmFails, 1u, "%s", c->name);
	} else {
		cr_assert_eq(g.nout, 1u, "%s (%s): emitted", c->name, pol);
		struct pb_frame *w = pb_whole(&d);
		cr_expect(g.out[0]->len == w->caplen &&
				  memcmp(g.out[0]->data, w->data, w->caplen) ==
					  0,
			  "%s (%s): bytes differ", c->name, pol);
		pb_frame_free(w);
		cr_expect_eq(st.ReasmOKs, 1u, "%s (%s)", c->name, pol);
		cr_expect_eq(st.ReasmFails, 0u, "%s (%s)", c->name, pol);
	}
	rig_finish(&g);
}

TABLE_PARAMS(ipv6, atomic_fragment_leaves_queue_alone, orders)

ParameterizedTest(bool *with_hbh, ipv6, atomic_fragment_leaves_queue_alone)
{
	struct rig g;
	uint8_t data[32], other[40];
	struct pb_dgram d, a;

	open_make(&g, &d, 6, 72, data, sizeof(data), 20);
	make(&a, 6, PB_DLT_ETHERNET, 72, other, sizeof(other), 21);
	if (*with_hbh)
		a.v6.hbh_len = 8;
	feed_frag(&g, &d, 0, 16, true);
	cr_expect_eq(feed_frag(&g, &a, 0, sizeof(other), false), 1,
		     "atomic: emitted at once");
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &a);
	struct reasm_stats st =
		stats_expect(&g, NULL, COUNTS(W(atomic, 1), W(ReasmOKs, 1)));
	cr_expect_eq(st.datagrams_pending, 1u, "the queue of id 72 stays");
	cr_expect_eq(feed_frag(&g, &d, 16, 16, false), 1);
	cr_assert_eq(g.nout, 2u);
	expect_dgram(&g, 1, &d);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 2), W(atomic, 1), W(ReasmFails, 0),
			     W(ReasmReqds, 3), W(frags_reassembled, 3)));
}

/* ----------------------------------------------------------------------
 * ecn
 */

#define DSCP_AF11 10u

struct ecn_case {
	int family;
	uint8_t ecn[3]; /* of the fragments, offset 0 first (and in) */
	int want;	/* the output's ECN, or -1: discarded */
};

static const struct ecn_case ecn_base[] = {
	{ 0,
	  { PB_ECN_NOT_ECT, PB_ECN_NOT_ECT, PB_ECN_NOT_ECT },
	  PB_ECN_NOT_ECT },
	{ 0, { PB_ECN_ECT0, PB_ECN_ECT0, PB_ECN_ECT0 }, PB_ECN_ECT0 },
	{ 0, { PB_ECN_ECT1, PB_ECN_ECT1, PB_ECN_ECT1 }, PB_ECN_ECT1 },
	{ 0, { PB_ECN_CE, PB_ECN_CE, PB_ECN_CE }, PB_ECN_CE },
	{ 0, { PB_ECN_ECT0, PB_ECN_CE, PB_ECN_ECT0 }, PB_ECN_CE },
	{ 0, { PB_ECN_CE, PB_ECN_ECT1, PB_ECN_ECT1 }, PB_ECN_CE },
	{ 0, { PB_ECN_ECT1, PB_ECN_ECT0, PB_ECN_CE }, PB_ECN_CE },
	{ 0, { PB_ECN_ECT0, PB_ECN_ECT1, PB_ECN_ECT1 }, PB_ECN_ECT0 },
	{ 0, { PB_ECN_ECT1, PB_ECN_ECT0, PB_ECN_ECT0 }, PB_ECN_ECT1 },
	{ 0, { PB_ECN_NOT_ECT, PB_ECN_ECT0, PB_ECN_ECT0 }, -1 },
	{ 0, { PB_ECN_ECT1, PB_ECN_NOT_ECT, PB_ECN_ECT1 }, -1 },
	{ 0, { PB_ECN_CE, PB_ECN_CE, PB_ECN_NOT_ECT }, -1 },
	{ 0, { PB_ECN_NOT_ECT, PB_ECN_NOT_ECT, PB_ECN_CE }, -1 },
};
PER_FAMILY_PARAMS(ecn, rfc3168_table, struct ecn_case, ecn_base)

ParameterizedTest(struct ecn_case *p, ecn, rfc3168_table)
{
	struct rig g;
	uint8_t data[48];
	struct pb_dgram d;

	open_make(&g, &d, p->family, 80, data, sizeof(data), 22);
	for (uint32_t i = 0; i < 3; i++) {
		struct pb_dgram f = d;
		uint8_t tos = (uint8_t)(DSCP_AF11 << 2 | p->ecn[i]);
		f.v4.tos = tos;
		f.v6.tclass = tos;
		feed_frag(&g, &f, 16 * i, 16, i < 2);
	}
	const char *fam = p->family == 4 ? "IPv4" : "IPv6";
	if (p->want >= 0) {
		cr_assert_eq(g.nout, 1u, "%s ECN %u %u %u", fam, p->ecn[0],
			     p->ecn[1], p->ecn[2]);
		d.v4.tos = (uint8_t)(DSCP_AF11 << 2 | (unsigned)p->want);
		d.v6.tclass = d.v4.tos;
		expect_dgram(&g, 0, &d);
		cr_expect_eq(g.out[0]->dscp, DSCP_AF11);
	} else {
		cr_expect_eq(g.nout, 0u, "%s ECN %u %u %u", fam, p->ecn[0],
			     p->ecn[1], p->ecn[2]);
	}
	finish_expect(&g, NULL,
		      COUNTS(W(bad_ecn, p->want < 0 ? 1u : 0u),
			     W(ReasmFails, p->want < 0 ? 1u : 0u),
			     W(ReasmOKs, p->want < 0 ? 0u : 1u),
			     W(datagrams_pending, 0)));
}

/* ----------------------------------------------------------------------
 * ipv4: options, DF, checksums
 */

Test(ipv4, options_from_offset_zero_fragment)
{
	struct rig g;
	uint8_t data[64];
	struct pb_dgram d, head;
	static const uint8_t opts[12] = {
		7, 11, 4, 0, 0, 0, 0, 0, 0, 0, 0, /* record route, 2 slots */
		0,				  /* end of options */
	};

	open_make(&g, &d, 4, 90, data, sizeof(data), 23);
	head = d;
	head.v4.optlen = sizeof(opts);
	memcpy(head.v4.opts, opts, sizeof(opts));
	head.v4.ttl = 17; /* the output's header is this one */
	/* Non-first fragments without the option (not copied), and one
	 * with an unrelated option of its own. */
	struct pb_dgram mid = d;
	mid.v4.optlen = 4;
	memcpy(mid.v4.opts, "\x01\x01\x01\x00", 4);
	feed_frag(&g, &d, 48, 16, false);
	feed_frag(&g, &mid, 24, 24, true);
	cr_expect_eq(feed_frag(&g, &head, 0, 24, true), 1);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &head);
	rig_finish(&g);
}

struct df_case {
	bool df[3]; /* fragments of 32, 24 and 16 bytes */
	bool want;
};

static const struct df_case df_cases[] = {
	{ { false, false, false }, false }, { { true, true, true }, true },
	{ { true, false, false }, true }, /* the largest had DF */
	{ { false, true, true }, false }, /* smaller ones had it */
	{ { true, false, true }, true },
};

TABLE_PARAMS(ipv4, df_of_largest_fragment, df_cases)

ParameterizedTest(struct df_case *p, ipv4, df_of_largest_fragment)
{
	struct rig g;
	uint8_t data[72];
	struct pb_dgram d;
	static const uint32_t off[3] = { 0, 32, 56 };
	static const uint32_t len[3] = { 32, 24, 16 };

	open_make(&g, &d, 4, 91, data, sizeof(data), 24);
	/* Arrival: the middle one, the last, then offset 0. */
	static const int order[3] = { 1, 2, 0 };
	for (int k = 0; k < 3; k++) {
		int i = order[k];
		struct pb_dgram f = d;
		f.v4.df = p->df[i];
		feed_frag(&g, &f, off[i], len[i], i < 2);
	}
	cr_assert_eq(g.nout, 1u);
	d.v4.df = p->want;
	expect_dgram(&g, 0, &d);
	rig_finish(&g);
}

/* Fragments with a wrong header checksum are dropped, the queue kept:
 * the last fragment completes nothing until a good copy comes. */
static const struct script ipv4_scripts[] = {
	{ "bad header checksum dropped", FAM4, STRICT, 48, 92, 25,
	  STEPS(FRAG(0, 16, true, ANY_RC), BAD_CSUM(16, 16, true, ANY_RC),
		BAD_CSUM(32, 16, false, 0),
		STATS(W(bad_checksum, 2), W(datagrams_pending, 1)),
		FRAG(32, 16, false, 0), FRAG(16, 16, true, 1), OUT(1),
		FINISH(W(bad_checksum, 2), W(ReasmOKs, 1), W(ReasmFails, 0),
		       W(frags_reassembled, 3))) },
};

SCRIPT_TEST(ipv4, scripted, ipv4_scripts)

/* ----------------------------------------------------------------------
 * keys
 */

FAMILY_PARAMS(keys, id_reuse_after_completion)

ParameterizedTest(int *family, keys, id_reuse_after_completion)
{
	struct rig g;
	uint8_t a[40], b[56];
	struct pb_dgram da, db;

	rig_open(&g, REASM_LINK_ETHERNET, REASM_STRICT);
	make(&da, *family, PB_DLT_ETHERNET, 93, a, sizeof(a), 26);
	make(&db, *family, PB_DLT_ETHERNET, 93, b, sizeof(b), 27);
	feed_frag(&g, &da, 0, 24, true);
	cr_expect_eq(feed_frag(&g, &da, 24, 16, false), 1);
	g.now += NS_PER_S;
	/* Same id, other data, overlapping the first's ranges. */
	feed_frag(&g, &db, 16, 40, false);
	cr_expect_eq(feed_frag(&g, &db, 0, 16, true), 1);
	cr_assert_eq(g.nout, 2u);
	expect_dgram(&g, 0, &da);
	expect_dgram(&g, 1, &db);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmOKs, 2), W(ReasmOverlaps, 0),
			     W(duplicates, 0)));
}

/* [0, 16) of the 32-byte @p d, then [16, 32) of @p o, which differs in
 * its key: two datagrams, each completed by its own other half. */
static void expect_apart(struct rig *g, const struct pb_dgram *d,
			 const struct pb_dgram *o, const char *what)
{
	feed_frag(g, d, 0, 16, true);
	cr_expect_eq(feed_frag(g, o, 16, 16, false), 0, "%s", what);
	struct reasm_stats st = rig_stats(g);
	cr_expect_eq(st.datagrams_pending, 2u, "%s", what);
	cr_expect_eq(g->nout, 0u, "%s", what);
	cr_expect_eq(feed_frag(g, o, 0, 16, true), 1, "%s", what);
	cr_expect_eq(feed_frag(g, d, 16, 16, false), 1, "%s", what);
	cr_assert_eq(g->nout, 2u, "%s", what);
	expect_dgram(g, 0, o);
	expect_dgram(g, 1, d);
}

/* Ways a second fragment differs from the first one's datagram. */
enum key_kind {
	KEY_SRC,
	KEY_DST,
	KEY_ID,
	KEY_PROTO, /* IPv4 only: not part of the IPv6 key */
	KEY_VID,   /* the TCI of tag @at, bits @flip flipped */
	KEY_DEPTH, /* @at tags instead of @nvlan */
};

/* The first datagram carries @nvlan tags of TCI @tci (the first of TPID
 * @tpid0, when not 0). */
struct key_case {
	char name[CASE_NAME_MAX];
	int family;
	enum key_kind kind;
	unsigned at;
	uint16_t flip;
	unsigned nvlan;
	uint16_t tpid0;
	uint16_t tci[PB_VLAN_MAX];
	uint32_t id, seed;
};

/* clang-format off */
/* An 802.1ad tag and an 802.1Q one; the VLAN cases flip bit 0 of a VID. */
#define QINQ .nvlan = 2, .tpid0 = PB_TPID_8021AD, .tci = { 100, 200 }, \
	.flip = 1, .id = 94, .seed = 28
#define QINQ4 .family = 4, QINQ
#define QINQ6 .family = 6, QINQ
/* Every tag of a deep stack is part of the key: bit 11 of the VID of any
 * tag, or the depth. */
#define DEEP .family = 4, .nvlan = 7, \
	.tci = { 400, 401, 402, 403, 404, 405, 406 }, .flip = 0x800, \
	.id = 98, .seed = 32
static const struct key_case key_cases[] = {
	{ .name = "IPv4: source", .kind = KEY_SRC, QINQ4 },
	{ .name = "IPv4: destination", .kind = KEY_DST, QINQ4 },
	{ .name = "IPv4: id", .kind = KEY_ID, QINQ4 },
	{ .name = "IPv4: protocol", .kind = KEY_PROTO, QINQ4 },
	{ .name = "IPv4: VLAN", .kind = KEY_VID, .at = 0, QINQ4 },
	{ .name = "IPv4: inner VLAN", .kind = KEY_VID, .at = 1, QINQ4 },
	{ .name = "IPv4: tagged vs untagged", .kind = KEY_DEPTH, QINQ4 },
	{ .name = "IPv6: source", .kind = KEY_SRC, QINQ6 },
	{ .name = "IPv6: VLAN", .kind = KEY_VID, .at = 0, QINQ6 },
	{ .name = "IPv6: destination", .kind = KEY_DST, QINQ6 },
	{ .name = "IPv6: id", .kind = KEY_ID, QINQ6 },
	{ .name = "IPv6: inner VLAN", .kind = KEY_VID, .at = 1, QINQ6 },
	{ .name = "IPv6: tagged vs untagged", .kind = KEY_DEPTH, QINQ6 },
	{ .name = "7 tags: VID of tag 0", .kind = KEY_VID, .at = 0, DEEP },
	{ .name = "7 tags: VID of tag 1", .kind = KEY_VID, .at = 1, DEEP },
	{ .name = "7 tags: VID of tag 2", .kind = KEY_VID, .at = 2, DEEP },
	{ .name = "7 tags: VID of tag 3", .kind = KEY_VID, .at = 3, DEEP },
	{ .name = "7 tags: VID of tag 4", .kind = KEY_VID, .at = 4, DEEP },
	{ .name = "7 tags: VID of tag 5", .kind = KEY_VID, .at = 5, DEEP },
	{ .name = "7 tags: VID of tag 6", .kind = KEY_VID, .at = 6, DEEP },
	{ .name = "7 tags: one tag fewer", .kind = KEY_DEPTH, .at = 6, DEEP },
};
#undef QINQ
#undef QINQ4
#undef QINQ6
#undef DEEP
/* clang-format on */

TABLE_PARAMS(keys, separate_datagrams_never_merge, key_cases)

ParameterizedTest(struct key_case *p, keys, separate_datagrams_never_merge)
{
	struct rig g;
	uint8_t data[32];
	struct pb_dgram d, o;

	open_make(&g, &d, p->family, p->id, data, sizeof(data), p->seed);
	d.link.nvlan = p->nvlan;
	if (p->tpid0 != 0)
		d.link.tpid[0] = p->tpid0;
	for (unsigned i = 0; i < p->nvlan; i++)
		d.link.tci[i] = p->tci[i];
	o = d;
	switch (p->kind) {
	case KEY_SRC:
		o.v4.src ^= 1;
		o.v6.src[15] ^= 0x10;
		break;
	case KEY_DST:
		o.v4.dst ^= 0x100;
		o.v6.dst[0] ^= 0x01;
		break;
	case KEY_ID:
		o.v4.id ^= 0x8000;
		o.v6.id ^= 0x80000000u;
		break;
	case KEY_PROTO:
		o.v4.proto = PB_IPPROTO_TCP;
		break;
	case KEY_VID:
		o.link.tci[p->at] ^= p->flip;
		break;
	case KEY_DEPTH:
		o.link.nvlan = p->at;
		break;
	}
	expect_apart(&g, &d, &o, p->name);
	finish_expect(&g, p->name,
		      COUNTS(W(ReasmOKs, 2), W(ReasmOverlaps, 0),
			     W(duplicates, 0)));
}

/* What is not part of a datagram's key: a fragment that differs from the
 * others only there belongs to the same datagram, which carries the
 * offset-0 fragment's headers. */
enum same_kind {
	SAME_PCP,  /* the VLAN tag's priority and DEI bits */
	SAME_TPID, /* 802.1ad instead of 802.1Q */
	SAME_TTL,  /* IPv4 TTL, IPv6 hop limit */
	SAME_NEXT, /* IPv6: the Fragment header's Next Header */
	SAME_FLOW, /* IPv6: the flow label */
};

struct same_case {
	char name[CASE_NAME_MAX];
	int family;
	enum same_kind kind;
};

static const struct same_case same_cases[] = {
	{ "IPv4: VLAN priority and DEI", 4, SAME_PCP },
	{ "IPv6: VLAN priority and DEI", 6, SAME_PCP },
	{ "IPv4: 802.1ad and 802.1Q", 4, SAME_TPID },
	{ "IPv6: 802.1ad and 802.1Q", 6, SAME_TPID },
	{ "IPv4: TTL", 4, SAME_TTL },
	{ "IPv6: hop limit", 6, SAME_TTL },
	{ "IPv6: Fragment header Next Header", 6, SAME_NEXT },
	{ "IPv6: flow label", 6, SAME_FLOW },
};

TABLE_PARAMS(keys, other_fields_same_datagram, same_cases)

ParameterizedTest(struct same_case *p, keys, other_fields_same_datagram)
{
	struct rig g;
	uint8_t data[32];
	struct pb_dgram d, o;

	open_make(&g, &d, p->family, 102, data, sizeof(data), 37);
	d.link.nvlan = 1;
	d.link.tci[0] = 0x2000 | 100; /* priority 1, VID 100 */
	o = d;
	switch (p->kind) {
	case SAME_PCP:
		o.link.tci[0] ^= 0xf000;
		break;
	case SAME_TPID:
		o.link.tpid[0] = PB_TPID_8021AD;
		break;
	case SAME_TTL:
		o.v4.ttl = 3;
		o.v6.hlim = 3;
		break;
	case SAME_NEXT:
		o.v6.proto = PB_IPPROTO_TCP;
		break;
	case SAME_FLOW:
		o.v6.flow = 0x54321;
		break;
	}
	cr_expect_eq(feed_frag(&g, &o, 16, 16, false), 0, "%s", p->name);
	cr_expect_eq(feed_frag(&g, &d, 0, 16, true), 1, "%s", p->name);
	cr_assert_eq(g.nout, 1u, "%s", p->name);
	expect_dgram(&g, 0, &d);
	finish_expect(&g, p->name,
		      COUNTS(W(ReasmOKs, 1), W(datagrams_pending, 0),
			     W(frags_reassembled, 2)));
}

/* ----------------------------------------------------------------------
 * timeout
 */

struct timeout_case {
	int family;
	uint64_t cfg_ns; /* 0: the default */
	uint64_t want_ns;
};

static const struct timeout_case timeout_cases[] = {
	{ 4, 0, 30 * NS_PER_S },
	{ 6, 0, 60 * NS_PER_S },
	{ 4, 5 * NS_PER_S, 5 * NS_PER_S },
	{ 6, 7 * NS_PER_S, 7 * NS_PER_S },
};

/* IPv4 IDs are 16 bits. A datagram left incomplete while its source
 * begins REASM_ID_DIST others is not completed by a later fragment with
 * its ID (most likely a newer datagram's); below that distance it is.
 * The count is its source's: datagrams of a source in another slot
 * (another reasm_flow_of() value) do not count. */
struct wrap_case {
	unsigned between; /* datagrams from one source in between */
	bool completes;
	bool other_slot; /* that source is another one, in another slot */
};

ParameterizedTestParameters(ipv4, id_wrap)
{
	static struct wrap_case p[] = {
		{ 1000, true, false },
		{ REASM_ID_DIST - 8, true, false },
		{ REASM_ID_DIST + 8, false, false },
		{ REASM_ID_DIST + 8, true, true },
	};
	return cr_make_param_array(struct wrap_case, p, 4);
}

ParameterizedTest(struct wrap_case *p, ipv4, id_wrap, .timeout = 60)
{
	struct rig g;
	uint8_t data[64], other[16];
	struct pb_dgram d, o;

	open_make(&g, &d, 4, 7, data, sizeof(data), 1);
	cr_expect_eq(feed_frag(&g, &d, 0, 32, true), 0);
	/* Others from the same source (other IDs, never 7), each complete. */
	make(&o, 4, PB_DLT_ETHERNET, 8, other, sizeof(other), 2);
	if (p->other_slot) {
		struct pb_frame *f = pb_frag(&d, 0, NULL, 32, true);
		int32_t mine = reasm_flow_of(g.r, f->data, f->caplen);
		pb_frame_free(f);
		for (uint32_t s = 1;; s++) {
			cr_assert_lt(s, 4096u, "no source in another slot");
			o.v4.src = d.v4.src + s;
			f = pb_frag(&o, 0, NULL, 8, true);
			int32_t theirs = reasm_flow_of(g.r, f->data, f->caplen);
			pb_frame_free(f);
			if (theirs != mine)
				break;
		}
	}
	for (unsigned k = 0; k < p->between; k++) {
		o.v4.id = (uint16_t)(8 + k % 60000);
		cr_expect_eq(feed_frag(&g, &o, 0, 8, true), 0);
		cr_expect_eq(feed_frag(&g, &o, 8, 8, false), 1);
	}
	size_t before = g.nout;
	int rc = feed_frag(&g, &d, 32, 32, false);
	struct reasm_stats st = rig_stats(&g);
	cr_expect_eq(st.ReasmOKs, p->between + (p->completes ? 1u : 0u));
	if (p->completes) {
		cr_expect_eq(rc, 1);
		cr_assert_eq(g.nout, before + 1);
		expect_dgram(&g, before, &d);
		cr_expect_eq(st.id_wrapped, 0u);
	} else {
		cr_expect_eq(rc, 0);
		cr_expect_eq(g.nout, before);
		cr_expect_eq(st.id_wrapped, 1u);
		cr_expect_eq(st.ReasmFails, 1u);
		cr_expect_eq(st.ReasmTimeout, 0u);
		/* The late fragment began a datagram of its own. */
		cr_expect_eq(st.datagrams_pending, 1u);
	}
	rig_finish(&g);
}

TABLE_PARAMS(timeout, from_first_fragment, timeout_cases)

ParameterizedTest(struct timeout_case *p, timeout, from_first_fragment)
{
	struct rig g;
	uint8_t data[48];
	struct pb_dgram d;
	struct reasm_config c = rig_config(REASM_LINK_ETHERNET, REASM_STRICT);

	if (p->family == 4)
		c.timeout_v4_ns = p->cfg_ns;
	else
		c.timeout_v6_ns = p->cfg_ns;
	rig_init(&g, &c);
	make(&d, p->family, PB_DLT_ETHERNET, 95, data, sizeof(data), 29);
	uint64_t t0 = g.now, T = p->want_ns;
	feed_frag(&g, &d, 0, 16, true);
	g.now = t0 + T / 2; /* does not extend the timeout */
	feed_frag(&g, &d, 16, 16, true);
	cr_expect_eq(reasm_expire(&g.w, t0 + T - 1), 0u, "1 ns early");
	struct reasm_stats st = stats_expect(
		&g, NULL, COUNTS(W(datagrams_pending, 1), W(ReasmTimeout, 0)));
	cr_expect_eq(reasm_expire(&g.w, t0 + T), 1u,
		     "timeout after the "
		     "first fragment");
	st = stats_expect(&g, NULL,
			  COUNTS(W(ReasmTimeout, 1), W(ReasmFails, 1),
				 W(frags_discarded, 2), W(datagrams_pending, 0),
				 W(bytes_held, 0)));
	/* The last fragment, late: a new queue of its own. */
	g.now = t0 + T + 1;
	cr_expect_eq(feed_frag(&g, &d, 32, 16, false), 0);
	st = rig_stats(&g);
	cr_expect_eq(st.datagrams_pending, 1u);
	cr_expect_eq(g.nout, 0u);
	/* It times out on its own clock, T after it came. */
	cr_expect_eq(reasm_expire(&g.w, g.now + T - 1), 0u);
	cr_expect_eq(reasm_expire(&g.w, g.now + T), 1u);
	finish_expect(&g, NULL,
		      COUNTS(W(ReasmTimeout, 2), W(ReasmFails, 2),
			     W(frags_discarded, 3), W(ReasmOKs, 0)));
}

/* Nobody called reasm_expire(), but the datagram's time is up (30 s for
 * IPv4, 60 s for IPv6) when its last fragment comes: it must not
 * complete. */
static const struct script timeout_scripts[] = {
	{ "late fragment without expire", FAM4, STRICT, 32, 96, 30,
	  STEPS(FRAG(0, 16, true, ANY_RC), CLOCK(31 * NS_PER_S),
		FRAG(16, 16, false, 0), OUT(0)) },
	{ "late fragment without expire", FAM6, STRICT, 32, 96, 30,
	  STEPS(FRAG(0, 16, true, ANY_RC), CLOCK(61 * NS_PER_S),
		FRAG(16, 16, false, 0), OUT(0)) },
	/* Exactly the timeout after the first fragment, the datagram is
	 * retired (a timeout) and the fragment begins a new one, which the
	 * other half then completes. */
	{ "fragment at the timeout retires and begins anew", FAM4, STRICT, 32,
	  97, 31,
	  STEPS(FRAG(0, 16, true, 0), CLOCK(30 * NS_PER_S),
		FRAG(16, 16, false, 0),
		STATS(W(ReasmTimeout, 1), W(ReasmFails, 1),
		      W(frags_discarded, 1), W(datagrams_pending, 1),
		      W(frags_pending, 1)),
		FRAG(0, 16, true, 1), OUT(1),
		FINISH(W(packets, 3), W(ReasmOKs, 1), W(ReasmTimeout, 1),
		       W(ReasmFails, 1), W(frags_reassembled, 2),
		       W(frags_discarded, 1))) },
	{ "fragment at the timeout retires and begins anew", FAM6, STRICT, 32,
	  97, 31,
	  STEPS(FRAG(0, 16, true, 0), CLOCK(60 * NS_PER_S),
		FRAG(16, 16, false, 0),
		STATS(W(ReasmTimeout, 1), W(ReasmFails, 1),
		      W(frags_discarded, 1), W(datagrams_pending, 1),
		      W(frags_pending, 1)),
		FRAG(0, 16, true, 1), OUT(1),
		FINISH(W(packets, 3), W(ReasmOKs, 1), W(ReasmTimeout, 1),
		       W(ReasmFails, 1), W(frags_reassembled, 2),
		       W(frags_discarded, 1))) },
	/* 1 ns before it, the datagram still completes. */
	{ "fragment 1 ns before the timeout", FAM4, STRICT, 32, 98, 32,
	  STEPS(FRAG(0, 16, true, 0), CLOCK(30 * NS_PER_S - 1),
		FRAG(16, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmTimeout, 0), W(ReasmFails, 0))) },
	{ "fragment 1 ns before the timeout", FAM6, STRICT, 32, 98, 32,
	  STEPS(FRAG(0, 16, true, 0), CLOCK(60 * NS_PER_S - 1),
		FRAG(16, 16, false, 1), OUT(1),
		FINISH(W(ReasmOKs, 1), W(ReasmTimeout, 0), W(ReasmFails, 0))) },
};

SCRIPT_TEST(timeout, scripted, timeout_scripts)

/* ----------------------------------------------------------------------
 * policy: Novak's target-based reassembly test
 */

struct novak_frag {
	char letter;
	uint16_t off; /* bytes */
	uint16_t len;
	bool mf;
};

static const struct novak_frag novak[] = {
	{ 'A', 0, 24, true },	{ 'B', 32, 16, true },	 { 'C', 48, 24, true },
	{ 'D', 80, 8, true },	{ 'E', 104, 16, true },	 { 'F', 120, 24, true },
	{ 'G', 144, 16, true }, { 'H', 160, 16, true },	 { 'I', 176, 8, true },
	{ 'J', 8, 32, true },	{ 'K', 48, 24, true },	 { 'L', 72, 24, true },
	{ 'M', 96, 24, true },	{ 'N', 128, 8, true },	 { 'O', 152, 8, true },
	{ 'P', 160, 8, true },	{ 'Q', 176, 16, false },
};
#define NNOVAK (sizeof(novak) / sizeof(novak[0]))

struct novak_case {
	int family;
	enum reasm_policy policy;
	char want[25]; /* one letter per 8-byte block; "" for STRICT */
};

static const struct novak_case novak_base[] = {
	{ 0, REASM_BSD, "AAAJJBCCCLLLMMMFFFGGHHIQ" },
	{ 0, REASM_LINUX, "AAAJJBKKKLLLMMMFFFGGPHQQ" },
	{ 0, REASM_WINDOWS, "AAAJBBCCCLLLMEEFFFGGHHIQ" },
	{ 0, REASM_SOLARIS, "AAAJBBCCCLLLMMMFFFGGHHIQ" },
	{ 0, REASM_FIRST, "AAAJBBCCCLDLMEEFFFGGHHIQ" },
	{ 0, REASM_LAST, "AJJJJBKKKLLLMMMFNFGOPHQQ" },
	{ 0, REASM_BSD_RIGHT, "AJJJBBKKKLLLMMMFFFGGHHQQ" },
	{ 0, REASM_STRICT, "" },
};
PER_FAMILY_PARAMS(policy, novak, struct novak_case, novak_base)

ParameterizedTest(struct novak_case *p, policy, novak)
{
	struct rig g;
	uint8_t bytes[32], want[192];
	struct pb_dgram d;
	const char *name = reasm_policy_name(p->policy);
	uint8_t proto = p->family == 4 ? PB_IPPROTO_ICMP : PB_IPPROTO_ICMPV6;

	rig_open(&g, REASM_LINK_ETHERNET, p->policy);
	if (p->family == 4)
		pb_dgram_v4(&d, PB_DLT_ETHERNET, 0x4e56, proto, NULL, 0);
	else
		pb_dgram_v6(&d, PB_DLT_ETHERNET, 0x4e56, proto, NULL, 0);
	for (size_t i = 0; i < NNOVAK; i++) {
		memset(bytes, novak[i].letter, novak[i].len);
		int rc = feed_bytes(&g, &d, novak[i].off, bytes, novak[i].len,
				    novak[i].mf);
		cr_expect_eq(rc, i + 1 == NNOVAK && p->want[0] ? 1 : 0,
			     "%s: fragment %c", name, novak[i].letter);
	}
	struct reasm_stats st = rig_stats(&g);
	cr_expect_gt(st.ReasmOverlaps, 0u, "%s", name);
	if (p->want[0] == '\0') {
		cr_expect_eq(g.nout, 0u, "strict: discarded for overlap");
		cr_expect_eq(st.ReasmOKs, 0u);
		cr_expect_geq(st.ReasmFails, 1u);
		rig_finish(&g);
		return;
	}
	cr_assert_eq(g.nout, 1u, "%s", name);
	char got[25] = { 0 };
	const struct reasm_out *o = g.out[0];
	size_t l3 = o->len >= 192 ? o->len - 192 : 0;
	for (size_t b = 0; b < 24 && l3 + 8 * b < o->len; b++)
		got[b] = (char)o->data[l3 + 8 * b];
	for (size_t i = 0; i < 24; i++)
		memset(want + 8 * i, p->want[i], 8);
	d.data = want;
	d.len = sizeof(want);
	char why[256];
	bool ok = pb_check(o->data, o->len, &d, why, sizeof(why));
	cr_expect(ok, "%s (IPv%d): got %s, want %s (%s)", name, p->family, got,
		  p->want, why);
	st = rig_finish(&g);
	cr_expect_eq(st.ReasmOKs, 1u, "%s", name);
	cr_expect_eq(st.ReasmFails, 0u, "%s", name);
	cr_expect_eq(st.frags_pending, 0u, "%s", name);
}

/* Under the target-based policies ReasmOverlaps counts fragments: one
 * over two held fragments counts once, one inside held data (a duplicate
 * under some policies) once more. The bytes are the datagram's own, so
 * every policy completes it. */
static const struct script overlap_scripts[] = {
	{ "overlaps counted per fragment", BOTH, EVERY_POLICY & ~STRICT, 48,
	  104, 38,
	  STEPS(FRAG(0, 8, true, 0), FRAG(16, 8, true, 0), FRAG(0, 24, true, 0),
		STATS(W(ReasmOverlaps, 1)), FRAG(8, 16, true, 0),
		STATS(W(ReasmOverlaps, 2)), FRAG(24, 24, false, 1), OUT(1),
		FINISH(W(ReasmOverlaps, 2), W(ReasmOKs, 1), W(ReasmFails, 0),
		       W(ReasmReqds, 5))) },
};

SCRIPT_TEST(policy, scripted, overlap_scripts)

/* ----------------------------------------------------------------------
 * link
 */

struct eth_case {
	int family;
	unsigned nvlan;
	uint16_t tpid[PB_VLAN_MAX];
};

#define AD PB_TPID_8021AD
#define Q PB_TPID_8021Q

static const struct eth_case eth_cases[] = {
	{ 4, 0, { 0, 0 } },
	{ 4, 1, { PB_TPID_8021Q, 0 } },
	{ 4, 1, { PB_TPID_8021AD, 0 } },
	{ 4, 2, { PB_TPID_8021AD, PB_TPID_8021Q } },
	{ 4, 2, { PB_TPID_8021Q, PB_TPID_8021Q } },
	{ 6, 0, { 0, 0 } },
	{ 6, 1, { PB_TPID_8021Q, 0 } },
	{ 6, 2, { PB_TPID_8021AD, PB_TPID_8021Q } },
	/* Three tags and more, any mix, up to REASM_MAX_VLAN_TAGS (7). */
	{ 4, 3, { AD, Q, Q } },
	{ 6, 3, { AD, AD, Q } },
	{ 4, 4, { Q, Q, Q, Q } },
	{ 6, 5, { AD, Q, AD, Q, Q } },
	{ 4, 7, { AD, AD, AD, Q, Q, Q, Q } },
	{ 6, 7, { Q, AD, Q, AD, Q, AD, Q } },
};
#undef AD
#undef Q

/* Three fragments, each with its own link header (mark 0xa0 + index):
 * the output carries the offset-0 fragment's, which comes second. */
static void link_run(struct rig *g, struct pb_dgram *d)
{
	struct pb_frame *f[3];
	struct pb_dgram v[3];

	for (int i = 0; i < 3; i++) {
		v[i] = *d;
		v[i].link.mark = (uint8_t)(0xa0 + i);
	}
	f[0] = pb_frag(&v[0], 0, NULL, 16, true);
	f[1] = pb_frag(&v[1], 16, NULL, 24, true);
	f[2] = pb_frag(&v[2], 40, NULL, d->len - 40, false);
	cr_expect_eq(feed(g, f[2]), 0);
	cr_expect_eq(feed(g, f[0]), 0);
	cr_expect_eq(feed(g, f[1]), 1);
	pb_frames_free(f, 3, false);
	cr_assert_eq(g->nout, 1u);
	expect_dgram(g, 0, &v[0]);
}

TABLE_PARAMS(link, ethernet_vlan_tags, eth_cases)

ParameterizedTest(struct eth_case *p, link, ethernet_vlan_tags)
{
	struct rig g;
	uint8_t data[64];
	struct pb_dgram d;

	open_make(&g, &d, p->family, 97, data, sizeof(data), 31);
	d.link.nvlan = p->nvlan;
	for (unsigned i = 0; i < p->nvlan; i++) {
		d.link.tpid[i] = p->tpid[i];
		d.link.tci[i] = (uint16_t)(0x2000 | (300 + i));
	}
	link_run(&g, &d);
	struct reasm_stats st = rig_finish(&g);
	cr_expect_eq(st.ReasmOKs, 1u, "%u tags", p->nvlan);
	cr_expect_eq(st.passed, 0u, "%u tags", p->nvlan);
}

/* Past REASM_MAX_VLAN_TAGS: passed through as it is, and counted. */
Test(link, too_many_vlan_tags_passed_and_counted)
{
	struct rig g;
	uint8_t data[32];
	struct pb_dgram d;

	open_make(&g, &d, 4, 99, data, sizeof(data), 33);
	d.link.nvlan = 8;
	struct pb_frame *f = pb_frag(&d, 0, NULL, 16, true);
	cr_expect_eq(feed(&g, f), 1);
	cr_assert_eq(g.nout, 1u);
	expect_passed(&g, 0, f);
	pb_frame_free(f);
	finish_expect(&g, NULL,
		      COUNTS(W(vlan_too_deep, 1), W(passed, 1),
			     W(ReasmReqds, 0)));
}

/* @f with @extra bytes after the IP packet (Ethernet padding to 60
 * bytes, a frame check sequence): on the wire and in the capture. */
static struct pb_frame *pad_frame(struct pb_frame *f, uint32_t extra)
{
	struct pb_frame *p = malloc(sizeof(*p) + f->caplen + extra);

	cr_assert_not_null(p);
	memcpy(p, f, sizeof(*p) + f->caplen);
	memset(p->data + f->caplen, 0xa5, extra);
	p->caplen += extra;
	p->wirelen += extra;
	pb_frame_free(f);
	return p;
}

FAMILY_PARAMS(link, ethernet_padding_ignored)

ParameterizedTest(int *family, link, ethernet_padding_ignored)
{
	struct rig g;
	uint8_t data[24];
	struct pb_dgram d;
	struct pb_frame *f[3];

	open_make(&g, &d, *family, 101, data, sizeof(data), 36);
	for (uint32_t i = 0; i < 3; i++) {
		f[i] = pb_frag(&d, 8 * i, NULL, 8, i < 2);
		uint32_t extra = f[i]->caplen < 60 ? 60 - f[i]->caplen : 0;
		f[i] = pad_frame(f[i], extra + 4);
	}
	feed(&g, f[1]);
	feed(&g, f[2]);
	cr_expect_eq(feed(&g, f[0]), 1);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &d);
	pb_frames_free(f, 3, false);
	finish_expect(&g, NULL, COUNTS(W(ReasmOKs, 1), W(malformed, 0)));
}

static const struct fam_link other_links[] = {
	{ 4, PB_DLT_SLL },  { 6, PB_DLT_SLL },	{ 4, PB_DLT_SLL2 },
	{ 6, PB_DLT_SLL2 }, { 4, PB_DLT_RAW },	{ 6, PB_DLT_RAW },
	{ 4, PB_DLT_IPV4 }, { 6, PB_DLT_IPV6 },
};

TABLE_PARAMS(link, cooked_and_raw, other_links)

ParameterizedTest(struct fam_link *p, link, cooked_and_raw)
{
	struct rig g;
	uint8_t data[64];
	struct pb_dgram d;

	rig_open(&g, p->dlt, REASM_STRICT);
	make(&d, p->family, p->dlt, 98, data, sizeof(data), 32);
	link_run(&g, &d);
	/* A non-fragment on the same link passes unchanged. */
	struct pb_frame *w = pb_whole(&d);
	cr_expect_eq(feed(&g, w), 1);
	cr_assert_eq(g.nout, 2u);
	expect_passed(&g, 1, w);
	pb_frame_free(w);
	finish_expect(&g, NULL, COUNTS(W(ReasmOKs, 1), W(passed, 1)));
}

/* ----------------------------------------------------------------------
 * truncated
 */

FAMILY_PARAMS(truncated, fragment_never_reassembled)

ParameterizedTest(int *family, truncated, fragment_never_reassembled)
{
	struct rig g;
	uint8_t data[48];
	struct pb_dgram d;
	struct pb_frame *mid, *last;

	open_make(&g, &d, *family, 99, data, sizeof(data), 33);
	feed_frag(&g, &d, 0, 16, true);
	/* The middle fragment, its capture 6 bytes short. */
	mid = pb_frag(&d, 16, NULL, 16, true);
	cr_expect_eq(reasm_input(&g.w, mid->data, mid->caplen - 6, mid->wirelen,
				 g.now),
		     0);
	/* And the last one, its capture cut 2 bytes after its headers. */
	last = pb_frag(&d, 32, NULL, 16, false);
	uint32_t cut = last->l3off + (*family == 4 ? 20u : 48u) + 2u;
	cr_expect_eq(reasm_input(&g.w, last->data, cut, last->wirelen, g.now),
		     0);
	stats_expect(&g, NULL, COUNTS(W(truncated, 2), W(ReasmOKs, 0)));
	cr_expect_eq(g.nout, 0u);
	/* Whole captures of both complete the datagram: the queue was not
	 * touched. */
	feed(&g, mid);
	cr_expect_eq(feed(&g, last), 1);
	cr_assert_eq(g.nout, 1u);
	expect_dgram(&g, 0, &d);
	pb_frame_free(mid);
	pb_frame_free(last);
	finish_expect(&g, NULL,
		      COUNTS(W(truncated, 2), W(frags_dropped, 2),
			     W(ReasmOKs, 1), W(frags_reassembled, 3)));
}

FAMILY_PARAMS(truncated, non_fragment_passed_as_captured)

ParameterizedTest(int *family, truncated, non_fragment_passed_as_captured)
{
	struct rig g;
	uint8_t data[200];
	struct pb_dgram d;

	open_make(&g, &d, *family, 100, data, sizeof(data), 34);
	struct pb_frame *w = pb_whole(&d);
	w->caplen = 96; /* a snap length */
	cr_expect_eq(feed(&g, w), 1);
	cr_assert_eq(g.nout, 1u);
	expect_passed(&g, 0, w);
	cr_expect_eq(g.out[0]->orig_len, w->wirelen);
	pb_frame_free(w);
	struct reasm_stats st = rig_finish(&g);
	cr_expect_eq(st.ReasmReqds, 0u);
}

/* The summary's bracketed counts are parts of the totals they follow:
 * three frames cut short, of which one is a fragment, make "1 dropped
 * (truncated 1)", not "(truncated 3)". */
Test(truncated, summary_counts_only_dropped_fragments)
{
	struct rig g;
	uint8_t data[200];
	struct pb_dgram d;
	char *buf = NULL;
	size_t len = 0;

	open_make(&g, &d, 4, 101, data, sizeof(data), 35);
	struct pb_frame *w = pb_whole(&d);
	w->caplen = 60;
	feed(&g, w);
	feed(&g, w);
	pb_frame_free(w);
	struct pb_frame *f = pb_frag(&d, 0, NULL, 64, true);
	f->caplen -= 4;
	feed(&g, f);
	pb_frame_free(f);
	struct reasm_stats st =
		finish_expect(&g, NULL,
			      COUNTS(W(truncated, 3), W(frags_truncated, 1),
				     W(frags_dropped, 1)));
	FILE *mf = open_memstream(&buf, &len);
	cr_assert_not_null(mf);
	reasm_stats_summary(mf, &st);
	fclose(mf);
	cr_assert_not_null(buf);
	cr_expect_not_null(strstr(buf, "fragments:   1 dropped (truncated 1),"),
			   "summary:\n%s", buf);
	free(buf);
}

/* ----------------------------------------------------------------------
 * memory
 */

#define KIB 1024u
#define MIB (1024u * 1024u)

/* A datagram is charged what it holds: its state and a copy of each
 * fragment's payload, never a buffer for the whole datagram. An 8-byte
 * fragment at offset 64000 costs far less than 64 KiB; 1000 more bytes
 * cost 1000 and a small header. */
FAMILY_PARAMS(memory, charged_what_is_held)

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
