/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c - the engine's small helpers that need no engine state: policy
 * names, the link types the engine parses, freeing an output frame, the
 * sum of two struct reasm_stats and its two renderings (JSON for machines,
 * a few lines for people).
 *
 * The sum and the JSON writer walk a table of (name, offset) pairs, one
 * per field of struct reasm_stats; a static_assert ties the table's length
 * to the struct's size, so a counter added to reasm.h without a row here
 * fails to compile instead of silently missing from the output.
 */
#include "reasm.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* --- Policies -------------------------------------------------------------- */

static const char *const policy_names[REASM_POLICY_COUNT] = {
	[REASM_STRICT] = "strict",	 [REASM_FIRST] = "first",
	[REASM_LAST] = "last",		 [REASM_BSD] = "bsd",
	[REASM_BSD_RIGHT] = "bsd-right", [REASM_LINUX] = "linux",
	[REASM_WINDOWS] = "windows",	 [REASM_SOLARIS] = "solaris",
};

const char *reasm_policy_name(enum reasm_policy p)
{
	/* Compared as unsigned: a negative value cast to the enum is out of
	 * range too. */
	if ((unsigned)p >= (unsigned)REASM_POLICY_COUNT)
		return NULL;
	return policy_names[p];
}

int reasm_policy_parse(const char *name)
{
	if (name == NULL)
		return -1;
	for (int p = 0; p < (int)REASM_POLICY_COUNT; p++) {
		if (strcmp(name, policy_names[p]) == 0)
			return p;
	}
	return -1;
}

/* --- Link types ------------------------------------------------------------ */

bool reasm_link_supported(int dlt)
{
	switch (dlt) {
	case REASM_LINK_ETHERNET:
	case REASM_LINK_RAW:
	case REASM_LINK_SLL:
	case REASM_LINK_SLL2:
	case REASM_LINK_IPV4:
	case REASM_LINK_IPV6:
	case REASM_LINK_PPP:
	case REASM_LINK_PPP_SERIAL:
		return true;
	default:
		return false;
	}
}

/* --- Output frames --------------------------------------------------------- */

void reasm_out_free(struct reasm_out *out)
{
	free(out);
}

/* --- Statistics ------------------------------------------------------------ */

#define STAT_FIELD(f) COUNTER_FIELD(struct reasm_stats, f)

/* Every field of struct reasm_stats, in declaration order. */
static const struct counter_field stat_fields[] = {
	STAT_FIELD(packets),	       STAT_FIELD(passed),
	STAT_FIELD(ReasmReqds),	       STAT_FIELD(ReasmOKs),
	STAT_FIELD(ReasmFails),	       STAT_FIELD(ReasmTimeout),
	STAT_FIELD(ReasmOverlaps),     STAT_FIELD(duplicates),
	STAT_FIELD(evicted),	       STAT_FIELD(refused),
	STAT_FIELD(too_big),	       STAT_FIELD(too_many_frags),
	STAT_FIELD(bad_end),	       STAT_FIELD(past_end),
	STAT_FIELD(bad_ecn),	       STAT_FIELD(id_wrapped),
	STAT_FIELD(truncated),	       STAT_FIELD(malformed),
	STAT_FIELD(bad_checksum),      STAT_FIELD(incomplete_chain),
	STAT_FIELD(vlan_too_deep),     STAT_FIELD(ppp_other),
	STAT_FIELD(bad_link),	       STAT_FIELD(tunneled),
	STAT_FIELD(bad_tunnel),	       STAT_FIELD(atomic),
	STAT_FIELD(nested_frag),       STAT_FIELD(bad_ext),
	STAT_FIELD(no_memory),	       STAT_FIELD(frags_truncated),
	STAT_FIELD(frags_too_big),     STAT_FIELD(frags_no_memory),
	STAT_FIELD(frags_reassembled), STAT_FIELD(frags_dropped),
	STAT_FIELD(frags_discarded),   STAT_FIELD(frags_pending),
	STAT_FIELD(datagrams_pending), STAT_FIELD(emitted),
	STAT_FIELD(emitted_bytes),     STAT_FIELD(bytes_held),
	STAT_FIELD(bytes_peak),
};

#define STAT_FIELD_COUNT (sizeof(stat_fields) / sizeof(stat_fields[0]))

static_assert(sizeof(struct reasm_stats) == STAT_FIELD_COUNT * sizeof(uint64_t),
	      "struct reasm_stats changed: update stat_fields[] in stats.c");

void counters_json_members(FILE *f, const void *base,
			   const struct counter_field *fields, size_t n,
			   const char *indent)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v;

		memcpy(&v, (const char *)base + fields[i].offset, sizeof(v));
		fprintf(f, "%s%s\"%s\": %llu", i > 0 ? ",\n" : "", indent,
			fields[i].name, (unsigned long long)v);
	}
}

void counters_add(void *into, const void *add,
		  const struct counter_field *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *dst = (char *)into + fields[i].offset;
		uint64_t a, b;

		memcpy(&a, dst, sizeof(a));
		memcpy(&b, (const char *)add + fields[i].offset, sizeof(b));
		a += b;
		memcpy(dst, &a, sizeof(a));
	}
}

void reasm_stats_add(struct reasm_stats *into, const struct reasm_stats *add)
{
	uint64_t peak = into->bytes_peak > add->bytes_peak ? into->bytes_peak
							   : add->bytes_peak;

	counters_add(into, add, stat_fields, STAT_FIELD_COUNT);
	into->bytes_peak = peak;
}

int reasm_stats_json_members(FILE *f, const struct reasm_stats *st)
{
	if (f == NULL || st == NULL)
		return -EINVAL;

	counters_json_members(f, st, stat_fields, STAT_FIELD_COUNT, "  ");
	return 0;
}

int reasm_stats_json(FILE *f, const struct reasm_stats *st)
{
	if (f == NULL || st == NULL)
		return -EINVAL;

	fputs("{\n", f);
	(void)reasm_stats_json_members(f, st);
	fputs("\n}\n", f);
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}

/* One count of a list in brackets. */
struct list_entry {
	uint64_t n;
	const char *what;
};

/* Appends " (<what> <n>, <what> <n>...)" for the entries of @p v whose
 * count is not zero, or nothing if none is. */
static void list_items(FILE *f, const struct list_entry *v, size_t n)
{
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		if (v[i].n == 0)
			continue;
		fprintf(f, "%s%s %llu", first ? " (" : ", ", v[i].what,
			(unsigned long long)v[i].n);
		first = false;
	}
	if (!first)
		fputc(')', f);
}

/* Every count in brackets is a part of the total it follows: the reasons
 * of "failed" are datagrams, those of "fragments ... dropped" fragments
 * dropped (frags_truncated, not truncated, which counts frames of every
 * kind). */
static void summary(FILE *f, const struct reasm_stats *st)
{
	const struct list_entry failed[] = {
		{ st->ReasmTimeout, "timeout" },
		{ st->evicted, "evicted" },
		{ st->too_big - st->frags_too_big, "too big" },
		{ st->too_many_frags, "too many fragments" },
		{ st->bad_end, "bad end" },
		{ st->bad_ecn, "mixed ECN" },
		{ st->id_wrapped, "ID wrapped" },
	};
	const struct list_entry dropped[] = {
		{ st->duplicates, "duplicate" },
		{ st->past_end, "past the end" },
		{ st->refused, "refused" },
		{ st->frags_truncated, "truncated" },
		{ st->malformed, "malformed" },
		{ st->bad_checksum, "bad checksum" },
		{ st->incomplete_chain, "incomplete chain" },
		{ st->frags_too_big, "too big" },
		{ st->frags_no_memory, "no memory" },
	};

	fprintf(f,
		"packets:     %llu read, %llu passed through, "
		"%llu fragments",
		(unsigned long long)st->packets, (unsigned long long)st->passed,
		(unsigned long long)st->ReasmReqds);
	if (st->atomic != 0)
		fprintf(f, " (%llu atomic)", (unsigned long long)st->atomic);
	fputc('\n', f);

	fprintf(f, "reassembled: %llu datagrams from %llu fragments\n",
		(unsigned long long)st->ReasmOKs,
		(unsigned long long)st->frags_reassembled);

	fprintf(f, "failed:      %llu datagrams",
		(unsigned long long)st->ReasmFails);
	list_items(f, failed, sizeof(failed) / sizeof(failed[0]));
	fputc('\n', f);

	/* Datagrams under STRICT, fragments under the other policies: a
	 * line of its own rather than a reason for failure. */
	if (st->ReasmOverlaps != 0)
		fprintf(f, "overlaps:    %llu\n",
			(unsigned long long)st->ReasmOverlaps);

	/* Discarded under STRICT, emitted under the other policies: a line
	 * of its own too. */
	if (st->nested_frag != 0)
		fprintf(f,
			"nested:      %llu IPv6 datagrams with a second "
			"Fragment header\n",
			(unsigned long long)st->nested_frag);
	if (st->bad_ext != 0)
		fprintf(f,
			"headers:     %llu IPv6 datagrams with a header Linux "
			"refuses\n",
			(unsigned long long)st->bad_ext);

	fprintf(f, "fragments:   %llu dropped",
		(unsigned long long)st->frags_dropped);
	list_items(f, dropped, sizeof(dropped) / sizeof(dropped[0]));
	fprintf(f,
		", %llu discarded with their datagram, %llu pending "
		"in %llu datagrams\n",
		(unsigned long long)st->frags_discarded,
		(unsigned long long)st->frags_pending,
		(unsigned long long)st->datagrams_pending);

	fprintf(f, "emitted:     %llu frames, %llu bytes\n",
		(unsigned long long)st->emitted,
		(unsigned long long)st->emitted_bytes);

	fprintf(f, "memory:      peak %llu bytes, %llu held\n",
		(unsigned long long)st->bytes_peak,
		(unsigned long long)st->bytes_held);
}

void reasm_stats_summary(FILE *f, const struct reasm_stats *st)
{
	if (f != NULL && st != NULL)
		summary(f, st);
}
