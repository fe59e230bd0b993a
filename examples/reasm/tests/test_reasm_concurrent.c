/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_reasm_concurrent.c - several workers on one engine, as the threaded
 * reassembler runs them: the fragments of each datagram are spread over
 * the workers (fragment k of datagram i goes to worker (i + k) % W, as a
 * load-balancing fanout would), so workers meet on the same datagrams and
 * stripes. Invariants: every datagram comes out exactly once and byte for
 * byte; with a memory limit small enough to evict, nothing is emitted
 * twice, nothing wrong is emitted, and every fragment is accounted for.
 * Then reasm_expire() and reasm_stats_shared() beside the workers.
 * Runs under ThreadSanitizer in CI.
 */
#define _DEFAULT_SOURCE /* be16toh() and friends, for inet.h */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pktbuild.h"
#include "reasm.h"
#include "reasm_test.h"
#include "test_threads.h"

#define NDGRAMS 1200u
#define MAXW 4u

struct cworker {
	struct reasm_worker w;
	struct pb_frame **frames;
	size_t n, cap;
	uint64_t now;
	_Atomic(uint64_t) clock; /* now, for other threads to read */
	unsigned *seen;		 /* per datagram: outputs this worker saw */
	struct cctx *c;
	unsigned wrong;
};

struct cctx {
	struct pb_dgram d[NDGRAMS];
	uint8_t *data[NDGRAMS];
	struct cworker wk[MAXW];
	unsigned nw;
	struct test_gate go;
};

static void push(struct cworker *k, struct pb_frame *f)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 256;
		k->frames = realloc(k->frames, k->cap * sizeof(*k->frames));
		cr_assert_not_null(k->frames);
	}
	k->frames[k->n++] = f;
}

/* Which datagram is this output? IPv4 ids and IPv6 ids are the index. */
static long index_of(const struct reasm_out *o)
{
	const uint8_t *ip = o->data + 14;

	if (o->len < 14 + 20)
		return -1;
	if ((ip[0] >> 4) == 4)
		return (long)inet_rd16(ip + 4);
	if (o->len < 14 + 40)
		return -1;
	/* IPv6: the id is gone with the Fragment header; the flow label
	 * carries the index (set below). */
	return (long)(inet_rd32(ip) & 0xfffff);
}

static void on_emit(struct reasm_out *o, void *arg)
{
	struct cworker *k = arg;
	long i = index_of(o);
	char why[200];

	if (i < 0 || i >= (long)NDGRAMS || !o->reassembled ||
	    !pb_check(o->data, o->len, &k->c->d[i], why, sizeof(why)))
		k->wrong++;
	else
		k->seen[i]++;
	reasm_out_free(o);
}

static void *run(void *arg)
{
	struct cworker *k = arg;

	test_gate_wait(&k->c->go);
	for (size_t i = 0; i < k->n; i++) {
		struct pb_frame *f = k->frames[i];
		(void)reasm_input(&k->w, f->data, f->caplen, f->wirelen,
				  k->now);
		k->now += 1000;
		atomic_store_explicit(&k->clock, k->now, memory_order_relaxed);
	}
	return NULL;
}

/* Datagram @p i of @p c: its payload filled and its headers built, from
 * 2 to @p spread + 1 fragments of a chunk of 8..1000 bytes drawn from
 * *@p rng (advanced), every third one IPv6. @return the chunk. */
static size_t make_dgram(struct cctx *c, unsigned i, uint32_t *rng,
			 unsigned spread)
{
	*rng = *rng * 1103515245u + 12345u;
	uint32_t r = *rng;
	size_t chunk = 8u * (1u + (r >> 8) % 125u);
	size_t nfr = 2u + (r >> 20) % spread;
	size_t len = chunk * (nfr - 1) + 1 + (r >> 4) % chunk;

	c->data[i] = malloc(len);
	cr_assert_not_null(c->data[i]);
	pb_fill(c->data[i], len, i);
	if (i % 3 == 2) {
		pb_dgram_v6(&c->d[i], PB_DLT_ETHERNET, i, PB_IPPROTO_NONE,
			    c->data[i], len);
		c->d[i].v6.flow = i;
	} else {
		pb_dgram_v4(&c->d[i], PB_DLT_ETHERNET, (uint16_t)i,
			    PB_IPPROTO_UDP, c->data[i], len);
	}
	return chunk;
}

/* Free what a run's context holds, and the context. */
static void cctx_free(struct cctx *c)
{
	for (unsigned w = 0; w < c->nw; w++) {
		struct cworker *k = &c->wk[w];
		pb_frames_free(k->frames, k->n, true);
		free(k->seen);
	}
	for (unsigned i = 0; i < NDGRAMS; i++)
		free(c->data[i]);
	free(c);
}

/* Every datagram came out at most once, every output was right, and the
 * fragments are accounted for; @return how many came out exactly once.
 * @p skip_every, if not 0: every such datagram (i % skip_every ==
 * skip_every - 1) lacks a fragment and must not come out. */
static unsigned check_outputs(const struct cctx *c,
			      const struct reasm_stats *st,
			      uint64_t total_frags, unsigned skip_every)
{
	unsigned once = 0, twice = 0, wrong = 0;

	for (unsigned i = 0; i < NDGRAMS; i++) {
		unsigned n = 0;
		for (unsigned w = 0; w < c->nw; w++)
			n += c->wk[w].seen[i];
		once += n == 1;
		twice += n > 1;
		if (skip_every != 0 && i % skip_every == skip_every - 1)
			cr_expect_eq(n, 0u, "datagram %u lacks a fragment", i);
	}
	for (unsigned w = 0; w < c->nw; w++)
		wrong += c->wk[w].wrong;
	cr_expect_eq(wrong, 0u, "%u outputs were wrong", wrong);
	cr_expect_eq(twice, 0u, "%u datagrams came out more than once", twice);
	cr_expect_eq(st->ReasmOKs, once);
	cr_expect_eq(st->ReasmReqds, total_frags);
	check_invariant(st);
	return once;
}

struct cparam {
	unsigned workers;
	unsigned stripes;
	size_t mem_high; /* 0: default, nothing is evicted */
	enum reasm_policy policy;
};

ParameterizedTestParameters(reasm_concurrent, shared_datagrams)
{
	static struct cparam p[] = {
		{ 2, 64, 0, REASM_STRICT },   { 4, 64, 0, REASM_STRICT },
		{ 2, 1, 0, REASM_STRICT },    { 4, 4, 0, REASM_LAST },
		{ 2, 64, 0, REASM_BSD },      { 4, 64, 65536, REASM_STRICT },
		{ 2, 1, 65536, REASM_FIRST },
	};
	return cr_make_param_array(struct cparam, p, sizeof(p) / sizeof(p[0]));
}

ParameterizedTest(struct cparam *p, reasm_concurrent, shared_datagrams,
		  .timeout = 120)
{
	struct cctx *c = calloc(1, sizeof(*c));
	struct reasm *r;
	struct reasm_config cfg;
	uint32_t rng = 12345;

	cr_assert_not_null(c);
	memset(&cfg, 0, sizeof(cfg));
	cfg.link = REASM_LINK_ETHERNET;
	cfg.policy = p->policy;
	cfg.stripes = p->stripes;
	if (p->mem_high) {
		cfg.mem_high = p->mem_high;
		cfg.mem_low = p->mem_high / 2;
	}
	cr_assert_eq(reasm_create(&r, &cfg), 0);
	c->nw = p->workers;
	for (unsigned w = 0; w < c->nw; w++) {
		struct cworker *k = &c->wk[w];
		k->c = c;
		k->now = 1000000000ull;
		k->seen = calloc(NDGRAMS, sizeof(unsigned));
		cr_assert_not_null(k->seen);
		cr_assert_eq(reasm_worker_init(&k->w, r, on_emit, k), 0);
	}

	/* Datagrams of 2..12 fragments of 8..1000 bytes, both families;
	 * some fragments are sent twice (duplicates, to other workers). */
	size_t total_frags = 0, copies = 0;
	for (unsigned i = 0; i < NDGRAMS; i++) {
		size_t chunk = make_dgram(c, i, &rng, 11);
		size_t n;
		struct pb_frame **v = pb_split_every(&c->d[i], chunk, &n);
		for (size_t k = 0; k < n; k++) {
			push(&c->wk[(i + k) % c->nw], v[k]);
			total_frags++;
			if ((rng >> 12) % 16 == 0 && k + 1 < n) {
				/* A copy: dropped as a duplicate under STRICT,
				 * same bytes under the other policies. */
				struct pb_frame *dup =
					malloc(sizeof(*dup) + v[k]->caplen);
				cr_assert_not_null(dup);
				memcpy(dup, v[k], sizeof(*dup) + v[k]->caplen);
				push(&c->wk[(i + k + 1) % c->nw], dup);
				total_frags++;
				copies++;
			}
		}
		free(v);
	}

	struct test_threads workers = { 0 };
	TEST_SPAWN_EACH(&workers, run, c->wk, c->nw);
	test_gate_open(&c->go);
	test_join_all(&workers);

	struct reasm_stats st;
	memset(&st, 0, sizeof(st));
	reasm_destroy(r, &st);

	unsigned once = check_outputs(c, &st, total_frags, 0);
	if (p->mem_high == 0) {
		cr_expect_eq(once, NDGRAMS, "%u of %u datagrams came out", once,
			     NDGRAMS);
		/* A copy that arrives after its datagram completed starts a
		 * new one (as in Linux), which stays pending. */
		cr_expect_leq(st.frags_pending, copies);
		cr_expect_leq(st.frags_reassembled + st.duplicates +
				      st.frags_pending,
			      total_frags);
		cr_expect_eq(st.evicted, 0u);
	} else {
		/* Small memory: some datagrams are evicted; each eviction
		 * is a failure, and some datagrams still complete. */
		cr_expect_geq(st.ReasmFails, st.evicted);
		cr_expect_gt(once, 0u);
		cr_expect_gt(st.evicted, 0u, "the limit evicted nothing");
	}

	cctx_free(c);
}

/*
 * reasm_expire() from a thread with a worker of its own, and
 * reasm_stats_shared() and reasm_flow_of() from a thread with none, while
 * two workers feed fragments; the last fragment of every fourth datagram
 * never comes, so there is always something to time out (timeouts of
 * 200 us of the workers' clocks, 1 us a frame; the expiring thread's
 * clock is the slowest worker's). Invariants: nothing wrong or twice,
 * every fragment accounted for, the shared counters never go back,
 * reasm_flow_of() gives one fragment the same value throughout,
 * reasm_expire()'s returns are timeouts of the tables, and once the
 * threads are joined one reasm_expire() returns every datagram left.
 */
struct side {
	struct cctx *c;
	struct reasm *r;
	struct reasm_worker w; /* the expiring thread's */
	struct test_gate *go;
	_Atomic(unsigned) stop;
	uint64_t expired;	      /* reasm_expire()'s returns */
	unsigned went_back, reads;    /* the reader's */
	const struct pb_frame *probe; /* a fragment, for reasm_flow_of() */
	int32_t flow;		      /* its value */
	unsigned flow_changed;
};

static void *expire_run(void *arg)
{
	struct side *s = arg;

	test_gate_wait(s->go);
	while (!atomic_load_explicit(&s->stop, memory_order_acquire)) {
		uint64_t now = UINT64_MAX;
		for (unsigned w = 0; w < s->c->nw; w++) {
			uint64_t t = atomic_load_explicit(&s->c->wk[w].clock,
							  memory_order_relaxed);
			now = t < now ? t : now;
		}
		s->expired += reasm_expire(&s->w, now);
	}
	return NULL;
}

static void *read_run(void *arg)
{
	struct side *s = arg;
	struct reasm_stats st, last;

	memset(&last, 0, sizeof(last));
	test_gate_wait(s->go);
	while (!atomic_load_explicit(&s->stop, memory_order_acquire)) {
		reasm_stats_shared(s->r, &st);
		s->went_back += st.ReasmTimeout < last.ReasmTimeout ||
				st.evicted < last.evicted;
		s->flow_changed += reasm_flow_of(s->r, s->probe->data,
						 s->probe->caplen) != s->flow;
		last = st;
		s->reads++;
	}
	return NULL;
}

static void discard_out(struct reasm_out *o, void *arg)
{
	(void)arg;
	reasm_out_free(o);
}

Test(reasm_concurrent, expire_and_shared_stats_beside_input, .timeout = 120)
{
	struct cctx *c = calloc(1, sizeof(*c));
	struct side *s = calloc(1, sizeof(*s));
	struct reasm_config cfg;
	uint32_t rng = 777;
	size_t total_frags = 0, complete = 0;

	cr_assert_not_null(c);
	cr_assert_not_null(s);
	memset(&cfg, 0, sizeof(cfg));
	cfg.link = REASM_LINK_ETHERNET;
	cfg.policy = REASM_STRICT;
	cfg.timeout_v4_ns = 200000;
	cfg.timeout_v6_ns = 200000;
	cr_assert_eq(reasm_create(&s->r, &cfg), 0);
	c->nw = 2;
	for (unsigned w = 0; w < c->nw; w++) {
		struct cworker *k = &c->wk[w];
		k->c = c;
		k->now = 1000000000ull;
		atomic_init(&k->clock, k->now);
		k->seen = calloc(NDGRAMS, sizeof(unsigned));
		cr_assert_not_null(k->seen);
		cr_assert_eq(reasm_worker_init(&k->w, s->r, on_emit, k), 0);
	}
	cr_assert_eq(reasm_worker_init(&s->w, s->r, discard_out, NULL), 0);
	s->c = c;
	s->go = &c->go;

	for (unsigned i = 0; i < NDGRAMS; i++) {
		size_t chunk = make_dgram(c, i, &rng, 7);
		size_t n;
		struct pb_frame **v = pb_split_every(&c->d[i], chunk, &n);
		bool whole = i % 4 != 3;
		for (size_t k = 0; k < n; k++) {
			if (!whole && k + 1 == n) {
				pb_frame_free(v[k]);
				continue;
			}
			push(&c->wk[(i + k) % c->nw], v[k]);
			total_frags++;
		}
		complete += whole;
		free(v);
	}

	s->probe = c->wk[0].frames[0];
	s->flow = reasm_flow_of(s->r, s->probe->data, s->probe->caplen);
	cr_assert_geq(s->flow, 0);
	struct test_threads workers = { 0 }, sides = { 0 };
	TEST_SPAWN_EACH(&workers, run, c->wk, c->nw);
	test_spawn(&sides, expire_run, s);
	test_spawn(&sides, read_run, s);
	test_gate_open(&c->go);
	test_join_all(&workers);
	atomic_store_explicit(&s->stop, 1, memory_order_release);
	test_join_all(&sides);

	struct reasm_stats st, sh;
	reasm_stats_read(s->r, &st);
	reasm_stats_shared(s->r, &sh);
	uint64_t left = st.datagrams_pending, found = 0;
	for (unsigned w = 0; w < c->nw; w++)
		found += c->wk[w].w.st.ReasmTimeout;
	cr_expect_eq(sh.ReasmTimeout + found, st.ReasmTimeout);
	cr_expect_leq(s->expired, sh.ReasmTimeout,
		      "reasm_expire() returned %llu, the tables timed out %llu",
		      (unsigned long long)s->expired,
		      (unsigned long long)sh.ReasmTimeout);
	cr_expect_eq(s->went_back, 0u, "%u of %u shared reads went back",
		     s->went_back, s->reads);
	cr_expect_eq(s->flow_changed, 0u,
		     "reasm_flow_of() changed %u times while workers ran",
		     s->flow_changed);
	cr_expect_eq(reasm_expire(&s->w, UINT64_MAX / 2), left);
	memset(&st, 0, sizeof(st));
	reasm_destroy(s->r, &st);

	unsigned once = check_outputs(c, &st, total_frags, 4);
	cr_expect_leq(once, complete);
	cr_expect_eq(st.frags_pending, 0u);
	cr_expect_eq(st.datagrams_pending, 0u);
	cr_log_info("expire beside input: %llu timed out by reasm_expire, "
		    "%llu found late, %u of %zu complete datagrams out, "
		    "%u shared reads",
		    (unsigned long long)s->expired, (unsigned long long)found,
		    once, complete, s->reads);

	cctx_free(c);
	free(s);
}
