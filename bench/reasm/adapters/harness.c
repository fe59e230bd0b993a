/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.c - runs one experiment of the reassembly benchmark (see
 * adapters.h): the fanout of a pool over the workers, the prefill, the
 * passes, timing, the output checks and the final books.
 *
 * Timing: the workers end every pass at a barrier; the last to arrive
 * after the warm-up pass reads CLOCK_MONOTONIC (t0), and the last to
 * arrive after a timed pass reads it again and decides whether another
 * pass runs (until duration_ms and min_passes are both reached, and with
 * the flood until it has brought twice mem_high, so that the engine
 * evicts in the timed passes whatever the pool size). The rate
 * is what the emit callbacks counted in the timed passes over t1 - t0.
 *
 * Shared state and its ordering: the gate (common/core.h; the engine, the
 * lists and the worker structs are set up before it opens), and
 *   arrived     the barrier's count: every arrival is an acq_rel RMW, so
 *               the last arrival (RB1) has seen every worker's pass,
 *               engine counters included, before it reads the books.
 *   gen         the barrier's generation, last arrival -> waiters,
 *               release/acquire (RG1 -> AG1): the decision (go_on) and
 *               the clock readings.
 *   done        per worker, blocks of the stream it has finished;
 *               relaxed: it paces the others (the window), and no data
 *               passes through it.
 * Each worker's counters and its struct reasm_worker are its own until the
 * threads are joined; reasm_stats_read() runs only at a barrier.
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET */
#include "frames.h"

#include "reasm.h"

#include "../../common/core.h"

#include <grain/lock.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SPIN_TRIES 64u	       /* pauses before a waiting worker yields */
#define PREFILL_ROUNDS 64u     /* passes over the flood pool at most */
#define PREFILL_ID_TOP 0xffffu /* prefill round r uses IP ID TOP - r */
#define SAMPLE_EVERY 256u      /* outputs per payload comparison */
/* The virtual clock stays under a third of the 30 s IPv4 timeout. */
#define MAX_VIRTUAL_NS 10000000000ull

static struct frame_pool pools[BENCH_REASM_WORKLOAD_COUNT];
static struct bench_reasm_setup setup;
static bool have_setup;

/* One frame of a worker's list. vt: its virtual time within a pass, in
 * ticks. */
struct entry {
	uint8_t *frame;
	uint32_t len;
	uint16_t csum0;
	uint64_t vt;
};

struct run;

struct worker {
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) done; /* blocks finished */
	alignas(GRAIN_CACHELINE) struct reasm_worker w;
	struct run *h;
	unsigned index;
	uint16_t pass; /* the pass this worker is in: its outputs' IP ID */
	struct entry *list;
	size_t nlist;
	size_t *block_start; /* nblocks + 1 */
	uint64_t frames;     /* given to reasm_input */
	bool timed;	     /* in a timed pass */
	uint64_t gate_waits; /* in the timed passes */
	uint64_t wait_ns;    /* time waiting for others, timed passes */
	/* Outputs. */
	uint64_t completed, completed_warm;
	uint32_t *count;  /* per datagram */
	uint64_t *idsum;  /* per datagram: the sum of its IP IDs */
	uint64_t sampled; /* outputs seen, for SAMPLE_EVERY */
	uint64_t errors;
	char error[200];
};

struct run {
	struct bench_gate gate;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) arrived;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) gen;
	/* Written by the last arrival at a barrier, read after AG1. */
	alignas(GRAIN_CACHELINE) bool go_on;
	struct timespec t0, t1;
	unsigned timed_passes;
	uint64_t evicted_before; /* engine count at the end of warm-up */
	/* Read-only while the workers run. */
	struct reasm *r;
	const struct frame_pool *pool;
	struct bench_reasm_config cfg;
	struct worker **workers;
	unsigned nworkers;
	size_t nblocks;
	unsigned block_dgrams;
	uint64_t window_blocks;
	uint32_t l2;
	uint64_t base_vt;     /* ticks before pass 0 (the prefill) */
	uint64_t vt_per_pass; /* ticks of one pass */
	unsigned max_passes;  /* the ID and clock limits */
	unsigned min_passes;  /* cfg's, or more for the flood */
	uint64_t duration_ns;
};

/* --- small helpers ------------------------------------------------------ */

const char *bench_reasm_link_name(enum bench_reasm_link link)
{
	return link == BENCH_REASM_LINK_ETHERNET ? "Ethernet" : "raw IPv4";
}

static uint64_t ns_between(const struct timespec *a, const struct timespec *b)
{
	int64_t ns = (int64_t)(b->tv_sec - a->tv_sec) * 1000000000ll +
		     (int64_t)(b->tv_nsec - a->tv_nsec);
	return ns > 0 ? (uint64_t)ns : 0;
}

/* Record an error; the first one is kept in words. */
static void fail(uint64_t *errors, char *buf, size_t size, const char *fmt, ...)
{
	if ((*errors)++ == 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(buf, size, fmt, ap);
		va_end(ap);
	}
}

#define WFAIL(t, ...) \
	fail(&(t)->errors, (t)->error, sizeof((t)->error), __VA_ARGS__)

static void wait_a_bit(unsigned *tries)
{
	bench_backoff(tries, SPIN_TRIES, 8);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --- setup -------------------------------------------------------------- */

int bench_reasm_setup(const struct bench_reasm_setup *s)
{
	if (s == NULL)
		return -EINVAL;
	bench_reasm_teardown();
	for (int w = 0; w < BENCH_REASM_WORKLOAD_COUNT; w++) {
		int rc = frame_pool_build(&pools[w],
					  (enum bench_reasm_workload)w, s);
		if (rc != 0) {
			bench_reasm_teardown();
			return rc;
		}
	}
	setup = *s;
	have_setup = true;
	return 0;
}

void bench_reasm_teardown(void)
{
	for (int w = 0; w < BENCH_REASM_WORKLOAD_COUNT; w++)
		frame_pool_free(&pools[w]);
	have_setup = false;
}

const struct bench_reasm_workload_info *
bench_reasm_workload_facts(enum bench_reasm_workload w)
{
	if (!have_setup || (unsigned)w >= BENCH_REASM_WORKLOAD_COUNT)
		return NULL;
	return &pools[w].info;
}

const struct frame_pool *bench_reasm_pool(enum bench_reasm_workload w,
					  struct bench_reasm_setup *s)
{
	if (!have_setup || (unsigned)w >= BENCH_REASM_WORKLOAD_COUNT)
		return NULL;
	if (s != NULL)
		*s = setup;
	return &pools[w];
}

bool bench_reasm_config_ok(const struct bench_reasm_config *cfg)
{
	return have_setup && cfg != NULL &&
	       (unsigned)cfg->workload < BENCH_REASM_WORKLOAD_COUNT &&
	       cfg->workers >= 1 && cfg->workers <= setup.max_workers &&
	       cfg->stripes >= 1 && (cfg->stripes & (cfg->stripes - 1)) == 0 &&
	       cfg->duration_ms > 0 && cfg->min_passes >= 1;
}

/* --- outputs ------------------------------------------------------------ */

/* Compare the UDP datagram of an output with what datagram @p index
 * carried. */
static bool payload_ok(const struct frame_pool *p, const uint8_t *u,
		       uint32_t index)
{
	uint32_t len = p->info.ip_payload;

	if (frame_rd16(u) != FRAME_UDP_SPORT ||
	    frame_rd16(u + 2) != FRAME_UDP_DPORT || frame_rd16(u + 4) != len ||
	    frame_rd16(u + 6) != p->udp_csum[index])
		return false;
	for (uint32_t pos = 0; pos + 8 < len; pos++)
		if (u[8 + pos] != frame_payload_byte(index, pos))
			return false;
	return true;
}

/* The emit callback: check the datagram, count it, free it. */
static void on_emit(struct reasm_out *o, void *arg)
{
	struct worker *t = arg;
	const struct run *h = t->h;
	const struct frame_pool *p = h->pool;
	const uint32_t want = h->l2 + 20u + p->info.ip_payload;
	const uint8_t *ip = o->data + h->l2;

	if (o->len != want || !o->reassembled) {
		WFAIL(t,
		      "worker %u: an output of %u bytes (reassembled %d), "
		      "want a datagram of %u",
		      t->index, o->len, (int)o->reassembled, want);
		reasm_out_free(o);
		return;
	}
	uint32_t src = ((uint32_t)frame_rd16(ip + 12) << 16) |
		       frame_rd16(ip + 14);
	uint32_t index = src & 0xffffffu;
	uint32_t dst = ((uint32_t)frame_rd16(ip + 16) << 16) |
		       frame_rd16(ip + 18);
	if (ip[0] != 0x45 || frame_rd16(ip + 2) != want - h->l2 ||
	    frame_rd16(ip + 6) != 0 || ip[9] != 17 || (src >> 24) != 10 ||
	    index >= p->info.datagrams || dst != FRAME_DST_ADDR ||
	    frame_ip_checksum(ip) != 0) {
		WFAIL(t,
		      "worker %u: a bad IPv4 header on an output "
		      "(source %08x, length %u, flags %04x)",
		      t->index, src, frame_rd16(ip + 2), frame_rd16(ip + 6));
		reasm_out_free(o);
		return;
	}
	uint16_t id = frame_rd16(ip + 4);
	if (id != t->pass)
		WFAIL(t,
		      "worker %u: datagram %u of pass %u completed in "
		      "pass %u",
		      t->index, index, id, t->pass);
	if (t->sampled++ % SAMPLE_EVERY == 0 && !payload_ok(p, ip + 20, index))
		WFAIL(t, "worker %u: datagram %u of pass %u: wrong payload",
		      t->index, index, id);
	t->count[index]++;
	t->idsum[index] += id;
	t->completed++;
	reasm_out_free(o);
}

/* --- the workers -------------------------------------------------------- */

/* Before block @p g: wait until no other worker is more than the window
 * behind. */
static void gate(struct worker *t, uint64_t g, uint64_t *seen_min)
{
	const struct run *h = t->h;

	if (g <= h->window_blocks)
		return;
	uint64_t need = g - h->window_blocks;
	if (*seen_min >= need)
		return;
	uint64_t least = UINT64_MAX, since = 0;
	bool waited = false;
	for (unsigned v = 0; v < h->nworkers; v++) {
		if (v == t->index)
			continue;
		const struct worker *o = h->workers[v];
		unsigned tries = 0;
		uint64_t d;
		while ((d = atomic_load_explicit(
				&o->done, memory_order_relaxed)) < need) {
			if (!waited)
				since = now_ns();
			waited = true;
			wait_a_bit(&tries);
		}
		if (d < least)
			least = d;
	}
	if (waited && t->timed) {
		t->gate_waits++;
		t->wait_ns += now_ns() - since;
	}
	*seen_min = least;
}

static void run_pass(struct worker *t, unsigned pass, uint64_t *seen_min)
{
	const struct run *h = t->h;
	const uint64_t base = h->base_vt + (uint64_t)pass * h->vt_per_pass;
	const uint32_t l2 = h->l2;
	const uint16_t id = (uint16_t)pass;
	const bool paced = h->nworkers > 1;

	t->pass = id;
	t->timed = pass > 0;
	for (size_t b = 0; b < h->nblocks; b++) {
		uint64_t g = (uint64_t)pass * h->nblocks + b;
		if (paced)
			gate(t, g, seen_min);
		for (size_t e = t->block_start[b]; e < t->block_start[b + 1];
		     e++) {
			const struct entry *en = &t->list[e];
			frame_set_id(en->frame + l2, id, en->csum0);
			(void)reasm_input(&t->w, en->frame, en->len, en->len,
					  (base + en->vt) *
						  BENCH_REASM_TICK_NS);
		}
		if (paced)
			atomic_store_explicit(&t->done, g + 1,
					      memory_order_relaxed);
	}
	t->frames += t->nlist;
}

/* The end of pass @p pass; returns whether another pass runs. */
static bool barrier(struct worker *t, unsigned pass)
{
	struct run *h = t->h;
	unsigned g = atomic_load_explicit(&h->gen, memory_order_relaxed);
	unsigned tries = 0;

	/* RB1: acq_rel, every worker's pass happens before the last
	 * arrival's reads below. */
	if (atomic_fetch_add_explicit(&h->arrived, 1, memory_order_acq_rel) ==
	    h->nworkers - 1) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (pass == 0) {
			struct reasm_stats st;
			reasm_stats_read(h->r, &st);
			h->evicted_before = st.evicted;
			h->t0 = now;
			h->go_on = 1 < h->max_passes;
		} else {
			h->timed_passes = pass;
			h->t1 = now;
			h->go_on = pass + 1 < h->max_passes &&
				   (pass < h->min_passes ||
				    ns_between(&h->t0, &now) < h->duration_ns);
		}
		atomic_store_explicit(&h->arrived, 0, memory_order_relaxed);
		/* RG1: pairs with AG1; go_on and the clock are written. */
		atomic_store_explicit(&h->gen, g + 1, memory_order_release);
	} else {
		uint64_t since = now_ns();
		/* AG1: pairs with RG1. */
		while (atomic_load_explicit(&h->gen, memory_order_acquire) == g)
			wait_a_bit(&tries);
		if (t->timed)
			t->wait_ns += now_ns() - since;
	}
	return h->go_on;
}

static void *worker_main(void *arg)
{
	struct worker *t = arg;
	struct run *h = t->h;
	uint64_t seen_min = 0;

	bench_gate_wait(&h->gate);
	for (unsigned pass = 0;; pass++) {
		run_pass(t, pass, &seen_min);
		if (pass == 0)
			t->completed_warm = t->completed;
		if (!barrier(t, pass))
			break;
	}
	return NULL;
}

/* --- one experiment ----------------------------------------------------- */

/* The fanout: fragment k of datagram i to worker (i + k) % W (or, with
 * whole_datagrams, i % W), one flood fragment after every flood_every
 * legitimate ones of a worker, cut into blocks of block_dgrams
 * datagrams. */
static int build_lists(struct run *h)
{
	const struct frame_pool *p = h->pool;
	const unsigned W = h->nworkers, F = p->info.frags;
	const unsigned D = p->info.datagrams, every = setup.flood_every;
	const bool flood = h->cfg.flood;
	const unsigned spread = h->cfg.whole_datagrams ? 0u : 1u;
	size_t count[BENCH_REASM_MAX_WORKERS] = { 0 };
	uint64_t legit[BENCH_REASM_MAX_WORKERS] = { 0 };

	for (unsigned i = 0; i < D; i++)
		for (unsigned k = 0; k < F; k++) {
			unsigned w = (i + spread * k) % W;
			count[w]++;
			if (flood && ++legit[w] % every == 0)
				count[w]++;
		}
	for (unsigned w = 0; w < W; w++) {
		struct worker *t = h->workers[w];
		t->list = calloc(count[w] ? count[w] : 1, sizeof(*t->list));
		t->block_start = calloc(h->nblocks + 1, sizeof(size_t));
		if (t->list == NULL || t->block_start == NULL)
			return -ENOMEM;
		legit[w] = 0;
	}
	uint64_t j = 0; /* next flood frame */
	for (size_t b = 0; b < h->nblocks; b++) {
		for (unsigned w = 0; w < W; w++)
			h->workers[w]->block_start[b] = h->workers[w]->nlist;
		unsigned end = (unsigned)((b + 1) * h->block_dgrams);
		for (unsigned i = (unsigned)(b * h->block_dgrams);
		     i < end && i < D; i++)
			for (unsigned k = 0; k < F; k++) {
				struct worker *t =
					h->workers[(i + spread * k) % W];
				const struct pool_frame *f =
					&p->legit[(size_t)i * F + k];
				uint64_t vt = (uint64_t)i * F + k;
				t->list[t->nlist++] =
					(struct entry){ f->data, f->len,
							f->csum0, vt };
				if (!flood || ++legit[t->index] % every != 0)
					continue;
				if (j >= p->info.flood_frames)
					return -EINVAL; /* cannot happen */
				f = &p->flood[j++];
				t->list[t->nlist++] =
					(struct entry){ f->data, f->len,
							f->csum0, vt };
			}
	}
	for (unsigned w = 0; w < W; w++)
		h->workers[w]->block_start[h->nblocks] = h->workers[w]->nlist;
	return 0;
}

/* Flood fragments from the calling thread until the engine evicts. */
static int prefill(struct run *h, struct reasm_worker *pw, uint64_t *frames)
{
	const struct frame_pool *p = h->pool;
	struct reasm_stats st;
	uint64_t vt = 0;

	for (unsigned round = 0; round < PREFILL_ROUNDS; round++) {
		uint16_t id = (uint16_t)(PREFILL_ID_TOP - round);
		for (uint64_t j = 0; j < p->info.flood_frames; j++) {
			const struct pool_frame *f = &p->flood[j];
			frame_set_id(f->data + h->l2, id, f->csum0);
			(void)reasm_input(pw, f->data, f->len, f->len,
					  vt++ * BENCH_REASM_TICK_NS);
			if ((vt & 255) == 0 || j + 1 == p->info.flood_frames) {
				reasm_stats_read(h->r, &st);
				if (st.evicted > 0) {
					*frames = vt;
					h->base_vt = vt;
					return 0;
				}
			}
		}
	}
	*frames = vt;
	h->base_vt = vt;
	return -ENOSPC;
}

static void emit_unexpected(struct reasm_out *o, void *arg)
{
	uint64_t *n = arg;
	(*n)++;
	reasm_out_free(o);
}

/* The books, once every thread is joined and the engine destroyed. */
static void check_books(struct run *h, const struct reasm_stats *st,
			uint64_t frames, uint64_t prefill_out,
			struct bench_reasm_result *res)
{
	const struct frame_pool *p = h->pool;
	const unsigned D = p->info.datagrams, F = p->info.frags;
	const unsigned passes = h->timed_passes + 1; /* with the warm-up */
	uint64_t completed = 0, *e = &res->errors;
	char *msg = res->error;
	size_t size = sizeof(res->error);

	for (unsigned w = 0; w < h->nworkers; w++) {
		struct worker *t = h->workers[w];
		completed += t->completed;
		if (t->errors != 0)
			fail(e, msg, size, "%s", t->error);
		*e += t->errors > 0 ? t->errors - 1 : 0;
	}
	uint64_t acc = st->frags_reassembled + st->frags_dropped +
		       st->frags_discarded + st->frags_pending;
	if (st->packets != frames || st->ReasmReqds != frames)
		fail(e, msg, size,
		     "%llu frames given, the engine counted %llu packets and "
		     "%llu fragments",
		     (unsigned long long)frames,
		     (unsigned long long)st->packets,
		     (unsigned long long)st->ReasmReqds);
	if (st->ReasmReqds != acc)
		fail(e, msg, size,
		     "books do not balance: ReasmReqds %llu != reassembled "
		     "%llu + dropped %llu + discarded %llu + pending %llu",
		     (unsigned long long)st->ReasmReqds,
		     (unsigned long long)st->frags_reassembled,
		     (unsigned long long)st->frags_dropped,
		     (unsigned long long)st->frags_discarded,
		     (unsigned long long)st->frags_pending);
	if (st->ReasmOKs != completed || st->emitted != completed ||
	    st->passed != 0 || prefill_out != 0)
		fail(e, msg, size,
		     "the engine reassembled %llu and emitted %llu (%llu "
		     "passed through, %llu during the prefill); the "
		     "callbacks saw %llu",
		     (unsigned long long)st->ReasmOKs,
		     (unsigned long long)st->emitted,
		     (unsigned long long)st->passed,
		     (unsigned long long)prefill_out,
		     (unsigned long long)completed);
	if (st->frags_reassembled != st->ReasmOKs * F)
		fail(e, msg, size,
		     "%llu fragments reassembled into %llu datagrams of %u",
		     (unsigned long long)st->frags_reassembled,
		     (unsigned long long)st->ReasmOKs, F);
	if (st->ReasmTimeout != 0 || st->malformed != 0 ||
	    st->bad_checksum != 0 || st->truncated != 0 ||
	    st->duplicates != 0 || st->ReasmOverlaps != 0 || st->bad_end != 0 ||
	    st->no_memory != 0 || st->refused != 0)
		fail(e, msg, size,
		     "unexpected outcomes: timeouts %llu, malformed %llu, bad "
		     "checksum %llu, truncated %llu, duplicates %llu, "
		     "overlaps %llu, bad end %llu, no memory %llu, refused "
		     "%llu",
		     (unsigned long long)st->ReasmTimeout,
		     (unsigned long long)st->malformed,
		     (unsigned long long)st->bad_checksum,
		     (unsigned long long)st->truncated,
		     (unsigned long long)st->duplicates,
		     (unsigned long long)st->ReasmOverlaps,
		     (unsigned long long)st->bad_end,
		     (unsigned long long)st->no_memory,
		     (unsigned long long)st->refused);

	/* Per datagram, over the workers. */
	uint64_t idsum_all = (uint64_t)passes * (passes - 1) / 2;
	for (unsigned i = 0; i < D; i++) {
		uint64_t n = 0, ids = 0;
		for (unsigned w = 0; w < h->nworkers; w++) {
			n += h->workers[w]->count[i];
			ids += h->workers[w]->idsum[i];
		}
		if (n > passes) {
			fail(e, msg, size,
			     "datagram %u completed %llu times in %u passes", i,
			     (unsigned long long)n, passes);
		} else if (!h->cfg.flood && (n != passes || ids != idsum_all)) {
			fail(e, msg, size,
			     "no flood, yet datagram %u completed %llu times "
			     "in %u passes (IP ID sum %llu, want %llu; %llu "
			     "evictions)",
			     i, (unsigned long long)n, passes,
			     (unsigned long long)ids,
			     (unsigned long long)idsum_all,
			     (unsigned long long)st->evicted);
		}
	}
	if (h->cfg.flood && res->evictions == 0)
		fail(e, msg, size,
		     "the flood caused no eviction in the timed passes");
}

/* The W workers' records into ws[0..W), each bound to h, with per-datagram
 * counters for datagrams datagrams. -ENOMEM when one is short: those
 * allocated stay in ws for the caller to free. */
static int alloc_workers(struct run *h, struct worker **ws, unsigned W,
			 unsigned datagrams)
{
	for (unsigned w = 0; w < W; w++) {
		ws[w] = aligned_alloc(GRAIN_CACHELINE, sizeof(struct worker));
		if (ws[w] == NULL)
			return -ENOMEM;
		memset(ws[w], 0, sizeof(struct worker));
		ws[w]->h = h;
		ws[w]->index = w;
		ws[w]->count = calloc(datagrams, sizeof(uint32_t));
		ws[w]->idsum = calloc(datagrams, sizeof(uint64_t));
		if (ws[w]->count == NULL || ws[w]->idsum == NULL)
			return -ENOMEM;
	}
	return 0;
}

/* The run's shape in h: the pool, the blocks and window of the schedule,
 * the workers' frame lists (build_lists) and, with the flood, enough
 * passes to push the engine past its memory limit twice. 0, or
 * build_lists' error. */
static int plan_run(struct run *h, const struct bench_reasm_config *cfg,
		    struct worker **ws, unsigned W)
{
	const struct frame_pool *p = &pools[cfg->workload];

	h->pool = p;
	h->cfg = *cfg;
	h->workers = ws;
	h->nworkers = W;
	h->l2 = frame_l2_len(setup.link);
	h->block_dgrams = 32u / p->info.frags ? 32u / p->info.frags : 1u;
	h->nblocks =
		(p->info.datagrams + h->block_dgrams - 1) / h->block_dgrams;
	h->window_blocks = p->info.window_datagrams / h->block_dgrams;
	if (h->window_blocks < 2)
		h->window_blocks = 2;
	h->vt_per_pass = p->info.frames;
	h->duration_ns = (uint64_t)cfg->duration_ms * 1000000ull;
	int rc = build_lists(h);
	if (rc != 0)
		return rc;
	h->min_passes = cfg->min_passes;
	if (cfg->flood) {
		uint64_t n = 0;
		for (unsigned w = 0; w < W; w++)
			n += ws[w]->nlist;
		uint64_t bytes = (n - p->info.frames) *
				 (h->l2 + 20u + BENCH_REASM_FRAG_PAYLOAD);
		uint64_t want = 2ull * BENCH_REASM_MEM_HIGH;
		uint64_t passes = bytes ? (want + bytes - 1) / bytes : 1;
		if (passes > h->min_passes)
			h->min_passes =
				(unsigned)(passes < 4096 ? passes : 4096);
	}
	return 0;
}

/* After the join and reasm_destroy: the timed passes' figures into res
 * from the workers' counters and the engine's final statistics st. */
static void collect_result(const struct run *h, const struct reasm_stats *st,
			   struct bench_reasm_result *res)
{
	const struct bench_reasm_workload_info *in = &h->pool->info;
	const unsigned W = h->nworkers;
	struct worker **ws = h->workers;
	uint64_t per_pass_flood = 0, wait_ns = 0;
	for (unsigned w = 0; w < W; w++)
		per_pass_flood += ws[w]->nlist;
	per_pass_flood -= in->frames;
	res->seconds = (double)ns_between(&h->t0, &h->t1) * 1e-9;
	res->passes = h->timed_passes;
	res->offered = (uint64_t)in->datagrams * res->passes;
	for (unsigned w = 0; w < W; w++) {
		res->completed += ws[w]->completed - ws[w]->completed_warm;
		res->gate_waits += ws[w]->gate_waits;
		wait_ns += ws[w]->wait_ns;
	}
	if (res->seconds > 0)
		res->wait_pct =
			100.0 * (double)wait_ns * 1e-9 / (res->seconds * W);
	res->frames = (in->frames + per_pass_flood) * res->passes;
	res->flood_frames = per_pass_flood * res->passes;
	res->flood_bytes =
		res->flood_frames * (h->l2 + 20u + BENCH_REASM_FRAG_PAYLOAD);
	res->evictions_all = st->evicted;
	res->evictions = st->evicted - h->evicted_before;
	res->bytes_peak = st->bytes_peak;
	if (res->seconds > 0) {
		res->datagrams_per_sec = (double)res->completed / res->seconds;
		res->gbit_per_sec = (double)res->completed * in->ip_payload *
				    8.0 / res->seconds / 1e9;
	}
	res->complete_pct = res->offered ? 100.0 * (double)res->completed /
						   (double)res->offered
					 : 0.0;
}

/* The engine every run measures: strict, on the setup's link, with the
 * bench's memory limits and the case's stripes. */
static void engine_config(struct reasm_config *rcfg, unsigned stripes)
{
	memset(rcfg, 0, sizeof(*rcfg));
	rcfg->policy = REASM_STRICT;
	rcfg->link = frame_dlt(setup.link);
	rcfg->mem_high = BENCH_REASM_MEM_HIGH;
	rcfg->mem_low = BENCH_REASM_MEM_LOW;
	rcfg->stripes = stripes;
}

/* Worker i, on CPU i if pinned. */
static void who(void *ctx, unsigned i, struct bench_spawn *out)
{
	out->fn = worker_main;
	out->arg = ((struct worker **)ctx)[i];
	out->cpu = i;
}

/* The timed passes: the workers spawned, let through the gate and joined.
 * 0, or bench_spawn_all's error once the workers that did start have
 * finished the warm-up pass among themselves. */
static int run_workers(struct run *h, pthread_t *tid,
		       struct bench_reasm_result *res)
{
	/* Pinned, one worker per CPU when they fit, only if asked: a pinned
	 * worker cannot leave a CPU that another process shares, and with
	 * the fanout the slowest worker sets everyone's pace. */
	const unsigned W = h->nworkers, nproc = bench_nproc();
	unsigned started = 0;
	res->pinned = W <= nproc && h->cfg.pin;
	int rc =
		bench_spawn_all(tid, W, res->pinned, who, h->workers, &started);
	if (rc != 0) {
		/* The started ones run the warm-up pass among themselves
		 * and stop. */
		h->nworkers = started;
		h->max_passes = 1;
	}
	bench_gate_open(&h->gate, started);
	for (unsigned w = 0; w < started; w++)
		pthread_join(tid[w], NULL);
	return rc;
}

int bench_reasm_run(const struct bench_reasm_config *cfg,
		    struct bench_reasm_result *res)
{
	if (!bench_reasm_config_ok(cfg) || res == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));

	struct timespec s0, s1;
	clock_gettime(CLOCK_MONOTONIC, &s0);
	const struct frame_pool *p = &pools[cfg->workload];
	const unsigned W = cfg->workers;
	struct run *h = aligned_alloc(GRAIN_CACHELINE, sizeof(struct run));
	struct worker **ws = calloc(W, sizeof(*ws));
	pthread_t *tid = calloc(W, sizeof(*tid));
	int rc = -ENOMEM;
	if (h == NULL || ws == NULL || tid == NULL)
		goto out_free;
	memset(h, 0, sizeof(*h));
	bench_gate_init(&h->gate);
	if (alloc_workers(h, ws, W, p->info.datagrams) != 0)
		goto out_free;
	rc = plan_run(h, cfg, ws, W);
	if (rc != 0)
		goto out_free;

	struct reasm_config rcfg;
	engine_config(&rcfg, cfg->stripes);
	rc = reasm_create(&h->r, &rcfg);
	if (rc != 0)
		goto out_free;
	for (unsigned w = 0; w < W; w++) {
		rc = reasm_worker_init(&ws[w]->w, h->r, on_emit, ws[w]);
		if (rc != 0)
			goto out_destroy;
	}
	struct reasm_worker pw;
	uint64_t prefill_out = 0, frames = 0;
	rc = reasm_worker_init(&pw, h->r, emit_unexpected, &prefill_out);
	if (rc != 0)
		goto out_destroy;
	if (cfg->flood && prefill(h, &pw, &frames) != 0)
		fail(&res->errors, res->error, sizeof(res->error),
		     "the flood pool never filled the engine");
	res->prefill_frames = frames;
	uint64_t limit = (MAX_VIRTUAL_NS / BENCH_REASM_TICK_NS - h->base_vt) /
			 h->vt_per_pass;
	if (limit > PREFILL_ID_TOP - PREFILL_ROUNDS)
		limit = PREFILL_ID_TOP - PREFILL_ROUNDS;
	h->max_passes = (unsigned)limit;
	if (h->max_passes < 2) {
		rc = -EINVAL;
		goto out_destroy;
	}
	clock_gettime(CLOCK_MONOTONIC, &s1);
	res->setup_seconds = (double)ns_between(&s0, &s1) * 1e-9;

	rc = run_workers(h, tid, res);
	if (rc != 0)
		goto out_destroy;

	struct reasm_stats st;
	reasm_destroy(h->r, &st);
	h->r = NULL;
	for (unsigned w = 0; w < W; w++)
		frames += ws[w]->frames;

	collect_result(h, &st, res);
	check_books(h, &st, frames, prefill_out, res);
	rc = 0;

out_destroy:
	if (h->r != NULL)
		reasm_destroy(h->r, NULL);
out_free:
	if (ws != NULL)
		for (unsigned w = 0; w < W; w++) {
			if (ws[w] == NULL)
				continue;
			free(ws[w]->list);
			free(ws[w]->block_start);
			free(ws[w]->count);
			free(ws[w]->idsum);
			free(ws[w]);
		}
	free(tid);
	free(ws);
	free(h);
	return rc;
}
