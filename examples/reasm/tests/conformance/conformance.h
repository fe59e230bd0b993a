/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conformance.h - test_reasm_conformance: the reassembly engine of
 * examples/reasm, one frame at a time on a fake clock, against reasm.h and
 * the behaviour of the Linux stack it follows. One executable made of one
 * file a suite, each named after its suite:
 *
 *   api          configuration checking, policy and link names, workers,
 *                the counters' helpers (sum, JSON), bytes_peak,
 *                reasm_flow_of(), reasm_stats_shared()
 *   pktbuild     the packet builder's checker (pktbuild_checker.c)
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
 *   ipv4         options, DF, header checksums, the 16-bit ID's wrap
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
 *
 * This header holds what the suites share: the parameter tables,
 * datagrams made from a pattern, lists of counters and their values, and
 * scripted cases; common.c has the calls.
 */
#ifndef REASM_TEST_CONFORMANCE_H
#define REASM_TEST_CONFORMANCE_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reasm_test.h"
#include "test_table.h"

static const int families[] = { 4, 6 };
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Table-driven tests are spelled as everywhere (test_table.h): each case
 * runs in a process of its own, where its row arrives as bytes: a row
 * holds no pointers, its name included (an array of CASE_NAME_MAX bytes). */
#define CASE_NAME_MAX 48

/* The parameters of a test run once per family (an int *: 4 or 6). */
#define FAMILY_PARAMS(suite, name) TABLE_PARAMS(suite, name, families)

/* The parameters of a test run with a flag off, then on (a bool *). */
static const bool orders[] = { false, true };

/* A family on a link type (a DLT). */
struct fam_link {
	int family;
	int dlt;
};

/* Every row of @p base (@p n rows of @p size bytes, the family an int at
 * @p at) once under each family, into @p out; @return how many rows. */
size_t per_family(void *out, const void *base, size_t n, size_t size,
		  size_t at);

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

/* Frame @p i of the rig is @p f, passed as it came (not reassembled). */
void expect_passed(struct rig *g, size_t i, const struct pb_frame *f);

/* A datagram of @len bytes of fragmentable part on @dlt: a UDP header,
 * then a pattern from @seed. */
void make(struct pb_dgram *d, int family, int dlt, uint32_t id, uint8_t *data,
	  size_t len, uint32_t seed);

/* A rig on Ethernet under strict, and the datagram of make() on it. */
void open_make(struct rig *g, struct pb_dgram *d, int family, uint32_t id,
	       uint8_t *data, size_t len, uint32_t seed);

/* The datagram of make() cut to its first @p len bytes (the bytes kept
 * as they are: the UDP header still gives the whole length). */
void make_cut(struct pb_dgram *d, int family, uint32_t id, const uint8_t *data,
	      size_t len);

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

/* Every counter of @p w must have its value in @p st; @p what (or NULL)
 * names the case in a failure. */
void expect_counts(const struct reasm_stats *st, const char *what,
		   const struct want *w);

/* The counters now (rig_stats()), checked against @p w. */
struct reasm_stats stats_expect(struct rig *g, const char *what,
				const struct want *w);

/* The final totals (rig_finish()), checked against @p w. */
struct reasm_stats finish_expect(struct rig *g, const char *what,
				 const struct want *w);

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
#define BOTH (FAM4 | FAM6)
#define STRICT POLICY(REASM_STRICT)

/* Every policy, in the order of enum reasm_policy. */
static const enum reasm_policy all_policies[] = {
	REASM_STRICT,	 REASM_FIRST, REASM_LAST,    REASM_BSD,
	REASM_BSD_RIGHT, REASM_LINUX, REASM_WINDOWS, REASM_SOLARIS,
};
#define NPOLICIES (sizeof(all_policies) / sizeof(all_policies[0]))

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
size_t script_runs(const struct script *v, size_t n, struct script_run *out);

/* One script (@p s) under the family and policy of @p p: the body of a
 * SCRIPT_TEST case. */
void run_script(const struct script *s, const struct script_run *p);

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

#endif /* REASM_TEST_CONFORMANCE_H */
