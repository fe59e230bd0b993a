/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * harness.c - one experiment of the reassembly benchmark, bench_reasm_run()
 * (adapters.h):
 *   1. an engine (policy STRICT, mem_high 4 MiB, mem_low 3 MiB, cfg's
 *      stripes: 1 is the global lock) and a struct reasm_worker per worker;
 *   2. the fanout: fragment k of datagram i goes to worker (i + k) % W, in
 *      datagram order, as a load-balancing fanout would, so that workers
 *      contend on the same datagrams; with the flood, each worker's list
 *      has a flood fragment after every flood_every of its own;
 *   3. with the flood, flood fragments from the calling thread until the
 *      engine first evicts: the steady state of a flood from the first
 *      timed fragment on;
 *   4. the workers run the pool as passes: one untimed warm-up, then timed
 *      passes until duration_ms (at least min_passes, and with the flood
 *      until it has brought twice mem_high, so that the engine evicts in
 *      the timed passes whatever the pool size). Pass p gives every frame
 *      IP ID p just before handing it over, so each pass is a fresh set of
 *      datagrams. All workers end a pass together (a barrier), and within a
 *      pass no worker runs more than the window ahead of the slowest (a
 *      bounded receive queue), so a datagram's fragments stay close in
 *      time, as on a wire;
 *   5. join, destroy the engine and check the books: every frame is a
 *      fragment, ReasmReqds == frames given == reassembled + dropped +
 *      discarded + pending fragments, ReasmOKs == emitted == what the emit
 *      callbacks saw, reassembled fragments == ReasmOKs * fragments per
 *      datagram, nothing passed through, no timeout. Every output is a
 *      legitimate datagram of the right length, key, checksum and pass;
 *      the payload is compared byte for byte for every output of the
 *      untimed warm-up pass, then for one in 256. Without the
 *      flood every datagram of every pass completes exactly once; with it,
 *      none more than once a pass, and the flood must have evicted.
 * Each frame's now_ns is a virtual capture time, 100 ns per legitimate
 * fragment (a flood fragment shares the time of the one before it), so
 * LRU ages are distinct and nothing reaches the 30 s timeout.
 *
 * Timing: the last worker to reach the barrier after the warm-up reads
 * the clock (t0), the last after each timed pass reads it again (t1) and
 * decides whether another pass runs; the rate is what the emit callbacks
 * counted in the timed passes over t1 - t0.
 *
 * Shared state and its ordering: the start gate (common/core.h; the
 * engine, the lists and the workers are set up before it opens), and
 *   arrived  the barrier's count: every arrival is an acq_rel RMW, so the
 *            last arrival (RB1) has seen every worker's pass, engine
 *            counters included, before it reads the books.
 *   gen      the barrier's generation, last arrival -> waiters,
 *            release/acquire (RG1 -> AG1): the decision and the clock.
 *   done     per worker, blocks of the stream it has finished; relaxed:
 *            it paces the others (the window), no data passes through it.
 * A worker's counters and struct reasm_worker are its own until the join;
 * reasm_stats_read() runs only at a barrier.
 */
#define _GNU_SOURCE /* for inet.h and core.h */
#include "frames.h"

#include "reasm.h"

#include "common/core.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SPIN_TRIES 64u	       /* pauses before a waiting worker yields */
#define PREFILL_ROUNDS 64u     /* passes over the flood pool at most */
#define PREFILL_ID_TOP 0xffffu /* prefill round r uses IP ID TOP - r */
#define SAMPLE_EVERY 256u      /* outputs per payload comparison */
/* The virtual clock stays under a third of the 30 s IPv4 timeout. */
#define MAX_VIRTUAL_NS 10000000000ull

/* One frame of a worker's list; vt: its virtual time in a pass, in ticks. */
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
	bool timed;    /* in a timed pass */
	struct entry *list;
	size_t nlist;
	size_t *block_start; /* nblocks + 1 */
	uint64_t frames;     /* given to reasm_input */
	uint64_t gate_waits; /* in the timed passes */
	uint64_t wait_ns;    /* time waiting for others, timed passes */
	uint64_t completed, completed_warm;
	uint32_t *count;  /* outputs per datagram */
	uint64_t *idsum;  /* per datagram: the sum of its outputs' IP IDs */
	uint64_t sampled; /* outputs seen, for SAMPLE_EVERY */
	uint64_t errors;
	char error[BENCH_REASM_ERROR_LEN];
};

struct run {
	struct bench_gate gate;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) arrived;
	alignas(GRAIN_CACHELINE) _Atomic(unsigned) gen;
	/* Written by the last arrival at a barrier, read after AG1. */
	alignas(GRAIN_CACHELINE) bool go_on;
	uint64_t t0, t1; /* ns */
	unsigned timed_passes;
	uint64_t evicted_before; /* engine count at the end of warm-up */
	/* Read-only while the workers run. */
	struct reasm *r;
	const struct frame_pool *pool;
	struct bench_reasm_config cfg;
	struct worker *workers;
	unsigned nworkers;
	size_t nblocks;
	unsigned block_dgrams;
	uint64_t window_blocks;
	uint64_t base_vt;    /* ticks before pass 0 (the prefill) */
	unsigned max_passes; /* the ID and clock limits */
	unsigned min_passes; /* cfg's, or more for the flood */
	uint64_t duration_ns;
};

#define WFAIL(t, ...) frame_fail(&(t)->errors, (t)->error, __VA_ARGS__)

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Whether the UDP datagram at @p u is what datagram @p index carried. */
static bool payload_ok(const struct frame_pool *p, const uint8_t *u,
		       uint32_t index)
{
	uint32_t len = p->info.ip_payload;

	if (inet_rd16(u) != FRAME_UDP_SPORT ||
	    inet_rd16(u + 2) != FRAME_UDP_DPORT || inet_rd16(u + 4) != len ||
	    inet_rd16(u + 6) != p->udp_csum[index])
		return false;
	for (uint32_t pos = 0; pos + 8 < len; pos++)
		if (u[8 + pos] != frame_payload_byte(index, pos))
			return false;
	return true;
}

/* Check output @p o of worker @p t and count it. */
static void check_output(struct worker *t, const struct reasm_out *o)
{
	const struct frame_pool *p = t->h->pool;
	const uint8_t *ip = o->data + p->l2;

	if (o->len != p->want || !o->reassembled) {
		WFAIL(t,
		      "worker %u: an output of %u bytes (reassembled %d), "
		      "want a datagram of %u",
		      t->index, o->len, (int)o->reassembled, p->want);
		return;
	}
	uint32_t src = inet_rd32(ip + 12), index = src & 0xffffffu;
	if (ip[0] != 0x45 || inet_rd16(ip + 2) != p->want - p->l2 ||
	    inet_rd16(ip + 6) != 0 || ip[9] != INET_PROTO_UDP ||
	    (src >> 24) != 10 || index >= p->info.datagrams ||
	    inet_rd32(ip + 16) != FRAME_DST_ADDR ||
	    inet_csum(ip, INET_IPV4_HLEN) != 0) {
		WFAIL(t,
		      "worker %u: a bad IPv4 header on an output "
		      "(source %08x, length %u, flags %04x)",
		      t->index, src, inet_rd16(ip + 2), inet_rd16(ip + 6));
		return;
	}
	uint16_t id = inet_rd16(ip + 4);
	if (id != t->pass)
		WFAIL(t,
		      "worker %u: datagram %u of pass %u completed in pass %u",
		      t->index, index, id, t->pass);
	/* Every output of the untimed warm-up pass, then one in 256. */
	if ((t->sampled++ % SAMPLE_EVERY == 0 || !t->timed) &&
	    !payload_ok(p, ip + INET_IPV4_HLEN, index))
		WFAIL(t, "worker %u: datagram %u of pass %u: wrong payload",
		      t->index, index, id);
	t->count[index]++;
	t->idsum[index] += id;
	t->completed++;
}

/* The emit callback. */
static void on_emit(struct reasm_out *o, void *arg)
{
	check_output(arg, o);
	reasm_out_free(o);
}

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
		unsigned tries = 0;
		uint64_t d;
		while ((d = atomic_load_explicit(&h->workers[v].done,
						 memory_order_relaxed)) <
		       need) {
			if (!waited)
				since = now_ns();
			waited = true;
			bench_backoff(&tries, SPIN_TRIES, 8);
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
	const uint64_t base = h->base_vt + pass * h->pool->info.frames;
	const uint32_t l2 = h->pool->l2;
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
					  (base + en->vt) * FRAME_TICK_NS);
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
		uint64_t now = now_ns();
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
				    now - h->t0 < h->duration_ns);
		}
		atomic_store_explicit(&h->arrived, 0, memory_order_relaxed);
		/* RG1: pairs with AG1; go_on and the clock are written. */
		atomic_store_explicit(&h->gen, g + 1, memory_order_release);
	} else {
		uint64_t since = now_ns();
		/* AG1: pairs with RG1. */
		while (atomic_load_explicit(&h->gen, memory_order_acquire) == g)
			bench_backoff(&tries, SPIN_TRIES, 8);
		if (t->timed)
			t->wait_ns += now_ns() - since;
	}
	return h->go_on;
}

static void *worker_main(void *arg)
{
	struct worker *t = arg;
	uint64_t seen_min = 0;

	bench_gate_wait(&t->h->gate);
	for (unsigned pass = 0;; pass++) {
		run_pass(t, pass, &seen_min);
		if (pass == 0)
			t->completed_warm = t->completed;
		if (!barrier(t, pass))
			break;
	}
	return NULL;
}

/* The workers' lists (the fanout at the top; with whole_datagrams
 * datagram i goes to worker i % W), cut into blocks of block_dgrams
 * datagrams: counted first, then filled. */
static int build_lists(struct run *h)
{
	const struct frame_pool *p = h->pool;
	const unsigned W = h->nworkers, F = p->info.frags;
	const unsigned D = p->info.datagrams, every = p->setup.flood_every;
	const unsigned spread = h->cfg.whole_datagrams ? 0u : 1u;
	size_t count[BENCH_REASM_MAX_WORKERS] = { 0 };
	uint64_t legit[BENCH_REASM_MAX_WORKERS] = { 0 };

	for (unsigned i = 0; i < D; i++)
		for (unsigned k = 0; k < F; k++) {
			unsigned w = (i + spread * k) % W;
			count[w]++;
			if (h->cfg.flood && ++legit[w] % every == 0)
				count[w]++;
		}
	for (unsigned w = 0; w < W; w++) {
		struct worker *t = &h->workers[w];
		t->list = calloc(count[w] ? count[w] : 1, sizeof(*t->list));
		t->block_start = calloc(h->nblocks + 1, sizeof(size_t));
		if (t->list == NULL || t->block_start == NULL)
			return -ENOMEM;
		legit[w] = 0;
	}
	uint64_t j = 0; /* next flood frame */
	for (size_t b = 0; b <= h->nblocks; b++) {
		for (unsigned w = 0; w < W; w++)
			h->workers[w].block_start[b] = h->workers[w].nlist;
		for (unsigned i = (unsigned)(b * h->block_dgrams);
		     i < (b + 1) * h->block_dgrams && i < D; i++)
			for (unsigned k = 0; k < F; k++) {
				struct worker *t =
					&h->workers[(i + spread * k) % W];
				const struct pool_frame *f =
					&p->legit[(size_t)i * F + k];
				uint64_t vt = (uint64_t)i * F + k;
				t->list[t->nlist++] =
					(struct entry){ f->data, f->len,
							f->csum0, vt };
				if (!h->cfg.flood ||
				    ++legit[t->index] % every != 0)
					continue;
				if (j >= p->info.flood_frames)
					return -EINVAL; /* cannot happen */
				f = &p->flood[j++];
				t->list[t->nlist++] =
					(struct entry){ f->data, f->len,
							f->csum0, vt };
			}
	}
	return 0;
}

/* The run's shape: the blocks and window of the schedule, the lists and,
 * with the flood, enough passes to bring twice mem_high. */
static int plan_run(struct run *h)
{
	const struct frame_pool *p = h->pool;

	h->block_dgrams = 32u / p->info.frags ? 32u / p->info.frags : 1u;
	h->nblocks =
		(p->info.datagrams + h->block_dgrams - 1) / h->block_dgrams;
	h->window_blocks = p->info.window_datagrams / h->block_dgrams;
	if (h->window_blocks < 2)
		h->window_blocks = 2;
	h->duration_ns = (uint64_t)h->cfg.duration_ms * 1000000ull;
	h->min_passes = h->cfg.min_passes;
	int rc = build_lists(h);
	if (rc != 0 || !h->cfg.flood)
		return rc;
	uint64_t n = 0;
	for (unsigned w = 0; w < h->nworkers; w++)
		n += h->workers[w].nlist;
	uint64_t bytes = (n - p->info.frames) *
			 (p->l2 + INET_IPV4_HLEN + FRAME_FRAG_PAYLOAD);
	uint64_t passes = bytes ? (2ull * FRAME_MEM_HIGH + bytes - 1) / bytes
				: 1;
	if (passes > h->min_passes)
		h->min_passes = (unsigned)(passes < 4096 ? passes : 4096);
	return 0;
}

static void emit_unexpected(struct reasm_out *o, void *arg)
{
	(*(uint64_t *)arg)++;
	reasm_out_free(o);
}

/* Flood fragments from the calling thread through @p pw (registered with
 * the engine until it is destroyed) until the engine evicts; then base_vt
 * is the virtual time they took. 0, or -ENOSPC if it never did. */
static int prefill(struct run *h, struct reasm_worker *pw, uint64_t *outputs)
{
	const struct frame_pool *p = h->pool;
	struct reasm_stats st;
	uint64_t vt = 0;

	int rc = reasm_worker_init(pw, h->r, emit_unexpected, outputs);
	if (rc != 0 || !h->cfg.flood)
		return rc;
	for (unsigned round = 0; round < PREFILL_ROUNDS; round++) {
		uint16_t id = (uint16_t)(PREFILL_ID_TOP - round);
		for (uint64_t j = 0; j < p->info.flood_frames; j++) {
			const struct pool_frame *f = &p->flood[j];
			frame_set_id(f->data + p->l2, id, f->csum0);
			(void)reasm_input(pw, f->data, f->len, f->len,
					  vt++ * FRAME_TICK_NS);
			if ((vt & 255) == 0 || j + 1 == p->info.flood_frames) {
				reasm_stats_read(h->r, &st);
				if (st.evicted > 0) {
					h->base_vt = vt;
					return 0;
				}
			}
		}
	}
	h->base_vt = vt;
	return -ENOSPC;
}

/* The books, once every thread is joined and the engine destroyed (the
 * checks at the top); @p frames given in all, @p prefill_out outputs of
 * the prefill, @p completed those the workers' callbacks saw. */
static void check_books(const struct run *h, const struct reasm_stats *st,
			uint64_t frames, uint64_t prefill_out,
			uint64_t completed, struct bench_reasm_result *res)
{
	const unsigned passes = h->timed_passes + 1; /* with the warm-up */
	const uint64_t idsum_all = (uint64_t)passes * (passes - 1) / 2;
	uint64_t *e = &res->errors;
	char *msg = res->error;
	const struct {
		const char *what;
		uint64_t got, want;
	} books[] = {
		{ "packets = frames given", st->packets, frames },
		{ "ReasmReqds = frames given", st->ReasmReqds, frames },
		{ "ReasmReqds = reassembled + dropped + discarded + pending",
		  st->ReasmReqds,
		  st->frags_reassembled + st->frags_dropped +
			  st->frags_discarded + st->frags_pending },
		{ "ReasmOKs = outputs seen", st->ReasmOKs, completed },
		{ "emitted = outputs seen", st->emitted, completed },
		{ "reassembled = ReasmOKs * fragments per datagram",
		  st->frags_reassembled, st->ReasmOKs * h->pool->info.frags },
		{ "passed through", st->passed, 0 },
		{ "outputs during the prefill", prefill_out, 0 },
		{ "timeouts", st->ReasmTimeout, 0 },
		{ "malformed", st->malformed, 0 },
		{ "bad checksum", st->bad_checksum, 0 },
		{ "truncated", st->truncated, 0 },
		{ "duplicates", st->duplicates, 0 },
		{ "overlaps", st->ReasmOverlaps, 0 },
		{ "bad end", st->bad_end, 0 },
		{ "no memory", st->no_memory, 0 },
		{ "refused", st->refused, 0 },
	};

	for (size_t i = 0; i < sizeof(books) / sizeof(books[0]); i++)
		if (books[i].got != books[i].want)
			frame_fail(e, msg,
				   "books: %s: %" PRIu64 ", want %" PRIu64,
				   books[i].what, books[i].got, books[i].want);
	for (unsigned i = 0; i < h->pool->info.datagrams; i++) {
		uint64_t n = 0, ids = 0;
		for (unsigned w = 0; w < h->nworkers; w++) {
			n += h->workers[w].count[i];
			ids += h->workers[w].idsum[i];
		}
		if (n > passes)
			frame_fail(e, msg,
				   "datagram %u completed %" PRIu64
				   " times in %u passes",
				   i, n, passes);
		else if (!h->cfg.flood && (n != passes || ids != idsum_all))
			frame_fail(
				e, msg,
				"no flood, yet datagram %u completed %" PRIu64
				" times in %u passes (IP ID sum %" PRIu64
				", want %" PRIu64 "; %" PRIu64 " evictions)",
				i, n, passes, ids, idsum_all, st->evicted);
	}
	if (h->cfg.flood && res->evictions == 0)
		frame_fail(e, msg,
			   "the flood caused no eviction in the timed passes");
}

/* After the join and reasm_destroy(): the timed passes' figures from the
 * workers' counters and the engine's final statistics @p st, then the
 * books. */
static void collect(const struct run *h, const struct reasm_stats *st,
		    uint64_t prefill_out, struct bench_reasm_result *res)
{
	const struct bench_reasm_workload_info *in = &h->pool->info;
	uint64_t flood_per_pass = 0, completed = 0, timed = 0, wait_ns = 0;
	uint64_t frames = h->base_vt; /* the prefill's */

	for (unsigned w = 0; w < h->nworkers; w++) {
		const struct worker *t = &h->workers[w];
		if (t->errors != 0)
			frame_fail(&res->errors, res->error, "%s", t->error);
		res->errors += t->errors > 0 ? t->errors - 1 : 0;
		flood_per_pass += t->nlist;
		frames += t->frames;
		completed += t->completed;
		timed += t->completed - t->completed_warm;
		res->gate_waits += t->gate_waits;
		wait_ns += t->wait_ns;
	}
	flood_per_pass -= in->frames;
	res->seconds = (double)(h->t1 - h->t0) * 1e-9;
	res->passes = h->timed_passes;
	res->evictions = st->evicted - h->evicted_before;
	res->flood_fills = (double)(flood_per_pass * res->passes) *
			   (h->pool->l2 + INET_IPV4_HLEN + FRAME_FRAG_PAYLOAD) /
			   FRAME_MEM_HIGH;
	res->complete_pct = 100.0 * (double)timed /
			    (double)((uint64_t)in->datagrams * res->passes);
	if (res->seconds > 0) {
		res->wait_pct = 100.0 * (double)wait_ns * 1e-9 /
				(res->seconds * h->nworkers);
		res->datagrams_per_sec = (double)timed / res->seconds;
		res->gbit_per_sec = (double)timed * in->ip_payload * 8.0 /
				    res->seconds / 1e9;
	}
	check_books(h, st, frames, prefill_out, completed, res);
}

/* Worker i, on CPU i if pinned. */
static void who(void *ctx, unsigned i, struct bench_spawn *out)
{
	out->fn = worker_main;
	out->arg = &((struct worker *)ctx)[i];
	out->cpu = i;
}

/* Start the workers (pinned only if asked and W <= CPUs: a pinned worker
 * cannot leave a CPU that another process shares, and with the fanout the
 * slowest sets everyone's pace), open the gate, join them. 0, or
 * bench_spawn_all's error once the workers that did start have run the
 * warm-up pass among themselves. */
static int run_workers(struct run *h)
{
	pthread_t tid[BENCH_REASM_MAX_WORKERS];
	unsigned started = 0;
	bool pin = h->cfg.pin && h->nworkers <= bench_nproc();
	int rc = bench_spawn_all(tid, h->nworkers, pin, who, h->workers,
				 &started);

	if (rc != 0) {
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
	const struct frame_pool *p = frame_pool_of(cfg->workload);
	const unsigned W = cfg->workers;

	if (p == NULL || p->v6 || W < 1 || W > p->setup.max_workers ||
	    cfg->stripes < 1 || (cfg->stripes & (cfg->stripes - 1)) != 0 ||
	    cfg->duration_ms == 0 || cfg->min_passes < 1)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	struct run *h = aligned_alloc(GRAIN_CACHELINE, sizeof(*h));
	struct worker *ws =
		aligned_alloc(GRAIN_CACHELINE, W * sizeof(struct worker));
	int rc = -ENOMEM;
	if (h == NULL || ws == NULL)
		goto out_free;
	memset(h, 0, sizeof(*h));
	memset(ws, 0, W * sizeof(struct worker));
	bench_gate_init(&h->gate);
	h->pool = p;
	h->cfg = *cfg;
	h->workers = ws;
	h->nworkers = W;
	for (unsigned w = 0; w < W; w++) {
		ws[w].h = h;
		ws[w].index = w;
		ws[w].count = calloc(p->info.datagrams, sizeof(uint32_t));
		ws[w].idsum = calloc(p->info.datagrams, sizeof(uint64_t));
		if (ws[w].count == NULL || ws[w].idsum == NULL)
			goto out_free;
	}
	rc = plan_run(h);
	if (rc != 0)
		goto out_free;

	struct reasm_config rcfg = { .policy = REASM_STRICT,
				     .link = p->dlt,
				     .mem_high = FRAME_MEM_HIGH,
				     .mem_low = FRAME_MEM_LOW,
				     .stripes = cfg->stripes };
	rc = reasm_create(&h->r, &rcfg);
	for (unsigned w = 0; rc == 0 && w < W; w++)
		rc = reasm_worker_init(&ws[w].w, h->r, on_emit, &ws[w]);
	struct reasm_worker pw;
	uint64_t prefill_out = 0;
	if (rc == 0)
		rc = prefill(h, &pw, &prefill_out);
	if (rc == -ENOSPC) {
		frame_fail(&res->errors, res->error,
			   "the flood pool never filled the engine");
		rc = 0;
	}
	uint64_t limit =
		(MAX_VIRTUAL_NS / FRAME_TICK_NS - h->base_vt) / p->info.frames;
	h->max_passes = (unsigned)(limit < PREFILL_ID_TOP - PREFILL_ROUNDS
					   ? limit
					   : PREFILL_ID_TOP - PREFILL_ROUNDS);
	if (rc == 0 && h->max_passes < 2)
		rc = -EINVAL;
	if (rc == 0)
		rc = run_workers(h);
	if (rc == 0) {
		struct reasm_stats st;
		reasm_destroy(h->r, &st);
		h->r = NULL;
		collect(h, &st, prefill_out, res);
	}
	reasm_destroy(h->r, NULL);
out_free:
	for (unsigned w = 0; ws != NULL && w < W; w++) {
		free(ws[w].list);
		free(ws[w].block_start);
		free(ws[w].count);
		free(ws[w].idsum);
	}
	free(ws);
	free(h);
	return rc;
}
