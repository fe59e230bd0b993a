/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * common.c - the calls that the suites of test_reasm_conformance share
 * (conformance.h says what each does).
 */
#include "conformance.h"

/* Every row of @p base (@p n rows of @p size bytes, the family an int at
 * @p at) once under each family, into @p out; @return how many rows. */
size_t per_family(void *out, const void *base, size_t n, size_t size, size_t at)
{
	char *o = out;

	for (size_t f = 0; f < NFAMILIES; f++)
		for (size_t i = 0; i < n; i++, o += size) {
			memcpy(o, (const char *)base + i * size, size);
			memcpy(o + at, &families[f], sizeof(families[f]));
		}
	return NFAMILIES * n;
}

/* A datagram of @len bytes of fragmentable part on @dlt: a UDP header,
 * then a pattern from @seed. */
void make(struct pb_dgram *d, int family, int dlt, uint32_t id, uint8_t *data,
	  size_t len, uint32_t seed)
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
void open_make(struct rig *g, struct pb_dgram *d, int family, uint32_t id,
	       uint8_t *data, size_t len, uint32_t seed)
{
	rig_open(g, REASM_LINK_ETHERNET, REASM_STRICT);
	make(d, family, PB_DLT_ETHERNET, id, data, len, seed);
}

/* The datagram of make() cut to its first @p len bytes (the bytes kept
 * as they are: the UDP header still gives the whole length). */
void make_cut(struct pb_dgram *d, int family, uint32_t id, const uint8_t *data,
	      size_t len)
{
	if (family == 4)
		pb_dgram_v4(d, PB_DLT_ETHERNET, (uint16_t)id, PB_IPPROTO_UDP,
			    data, len);
	else
		pb_dgram_v6(d, PB_DLT_ETHERNET, id, PB_IPPROTO_UDP, data, len);
}

static uint64_t stat_at(const struct reasm_stats *st, size_t at)
{
	uint64_t v;

	memcpy(&v, (const char *)st + at, sizeof(v));
	return v;
}

/* Frame @p i of the rig is @p f, passed as it came (not reassembled). */
void expect_passed(struct rig *g, size_t i, const struct pb_frame *f)
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

/* Every counter of @p w must have its value in @p st; @p what (or NULL)
 * names the case in a failure. */
void expect_counts(const struct reasm_stats *st, const char *what,
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
struct reasm_stats stats_expect(struct rig *g, const char *what,
				const struct want *w)
{
	struct reasm_stats st = rig_stats(g);

	expect_counts(&st, what, w);
	return st;
}

/* The final totals (rig_finish()), checked against @p w. */
struct reasm_stats finish_expect(struct rig *g, const char *what,
				 const struct want *w)
{
	struct reasm_stats st = rig_finish(g);

	expect_counts(&st, what, w);
	return st;
}

/* Every (family, policy) of every script of @p v, into @p out. */
size_t script_runs(const struct script *v, size_t n, struct script_run *out)
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

void run_script(const struct script *s, const struct script_run *p)
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
