/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rte_frag.c - the anchor of the reassembly benchmark: DPDK's
 * librte_ip_frag on the frames of the engine cases, one thread, checked
 * against the engine (adapters.h says what a run does and times).
 *
 * Compiled with the flags of pkg-config libdpdk (-include rte_config.h,
 * -march=corei7); linked with librte_eal, librte_mempool, librte_mbuf and
 * librte_ip_frag only. The mbuf pool needs DPDK's "ring_mp_mc" mempool
 * driver, which the EAL loads from its plugin directory.
 */
#define _GNU_SOURCE /* pthread_getaffinity_np, CPU_ISSET; inet.h */
#include "frames.h"

#include "reasm.h"

#include "common/sysinfo.h"

#include <grain/common.h>

#include "common/dpdk_eal.h"

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ip_frag.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NMBUFS 8191u /* a power of two less one, as mempool likes */
#define MBUF_CACHE 256u
#define TBL_BUCKETS 4096u
#define TBL_BUCKET_ENTRIES 16u
#define TIMEOUT_NS 30000000000ull	 /* the engine's IPv4 timeout */
#define MAX_PASSES 60000u		 /* IP IDs and the virtual clock */
#define BATCH 64u			 /* datagrams per timed batch */
#define OUT_MAX (INET_ETH_HLEN + 65535u) /* the longest engine output */

static bool started;
static struct rte_mempool *mbufs;

unsigned bench_rte_frag_max_frags(void)
{
	return RTE_LIBRTE_IP_FRAG_MAX_FRAG;
}

static int eal_init(void)
{
	return bench_eal_init("grain_bench_reasm", "256");
}

int bench_rte_frag_start(char *why, size_t n)
{
	if (started)
		return 0;
	/* First in a child: an EAL that cannot start may abort. */
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, n, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		_exit(eal_init() == 0 ? 0 : 1);
	int st = 0;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		snprintf(why, n,
			 "DPDK's EAL did not start in a trial process (%s %d)",
			 WIFSIGNALED(st) ? "signal" : "status",
			 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		return -1;
	}
	if (eal_init() != 0) {
		snprintf(why, n, "rte_eal_init: %s", rte_strerror(rte_errno));
		return -1;
	}
	mbufs = rte_pktmbuf_pool_create("grain_bench_reasm", NMBUFS, MBUF_CACHE,
					0, RTE_MBUF_DEFAULT_BUF_SIZE,
					SOCKET_ID_ANY);
	if (mbufs == NULL) {
		snprintf(why, n, "rte_pktmbuf_pool_create: %s",
			 rte_strerror(rte_errno));
		rte_eal_cleanup();
		return -1;
	}
	started = true;
	return 0;
}

void bench_rte_frag_stop(void)
{
	if (!started)
		return;
	rte_mempool_free(mbufs);
	mbufs = NULL;
	rte_eal_cleanup();
	started = false;
}

/* --- frames in, datagrams out ------------------------------------------- */

/* Frame @p f with IP ID @p id (IPv6: the Fragment header's) copied into a
 * fresh mbuf, as a NIC would have received it, with the header lengths
 * DPDK wants; NULL if the pool is empty. */
static struct rte_mbuf *to_mbuf(const struct frame_pool *p,
				const struct pool_frame *f, uint32_t id)
{
	if (p->v6)
		inet_wr32(f->data + p->l2 + INET_IPV6_HLEN + 4, id);
	else
		frame_set_id(f->data + p->l2, (uint16_t)id, f->csum0);
	struct rte_mbuf *m = rte_pktmbuf_alloc(mbufs);
	if (m == NULL)
		return NULL;
	char *d = rte_pktmbuf_append(m, (uint16_t)f->len);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(d, f->data, f->len);
	m->l2_len = p->l2 & 0x7fu;
	m->l3_len = p->l3 & 0x1ffu;
	return m;
}

/* Fragment @p m into the table: the reassembled datagram, or NULL. Whatever
 * DPDK dropped is freed at once. */
static GRAIN_ALWAYS_INLINE struct rte_mbuf *
feed(const struct frame_pool *p, struct rte_ip_frag_tbl *tbl,
     struct rte_ip_frag_death_row *dr, struct rte_mbuf *m, uint64_t tms)
{
	struct rte_mbuf *out = NULL;

	if (p->v6) {
		struct rte_ipv6_hdr *ip6 = rte_pktmbuf_mtod_offset(
			m, struct rte_ipv6_hdr *, p->l2);
		struct rte_ipv6_fragment_ext *fh =
			rte_ipv6_frag_get_ipv6_fragment_header(ip6);
		if (fh == NULL)
			rte_pktmbuf_free(m); /* cannot happen: all have one */
		else
			out = rte_ipv6_frag_reassemble_packet(tbl, dr, m, tms,
							      ip6, fh);
	} else {
		struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
			m, struct rte_ipv4_hdr *, p->l2);
		out = rte_ipv4_frag_reassemble_packet(tbl, dr, m, tms, ip);
	}
	if (dr->cnt != 0)
		rte_ip_frag_free_death_row(dr, 0);
	return out;
}

/* The chain @p m copied into one malloc'd buffer of *@p len bytes, as the
 * engine emits a datagram (IPv4: with the header checksum DPDK leaves 0
 * filled in); NULL if out of memory. */
static GRAIN_ALWAYS_INLINE uint8_t *
whole(const struct frame_pool *p, const struct rte_mbuf *m, uint32_t *len)
{
	uint32_t n = rte_pktmbuf_pkt_len(m), at = 0;
	uint8_t *b = malloc(n ? n : 1);

	if (b == NULL)
		return NULL;
	for (const struct rte_mbuf *s = m; s != NULL && at < n; s = s->next) {
		uint32_t k = s->data_len < n - at ? s->data_len : n - at;
		memcpy(b + at, rte_pktmbuf_mtod(s, const uint8_t *), k);
		at += k;
	}
	*len = at;
	if (!p->v6 && at >= p->l2 + INET_IPV4_HLEN) {
		uint8_t *ip = b + p->l2;
		inet_wr16(ip + 10, 0);
		inet_wr16(ip + 10, inet_csum(ip, INET_IPV4_HLEN));
	}
	return b;
}

static int engine_new(struct reasm **r, const struct frame_pool *p)
{
	struct reasm_config rcfg = { .policy = REASM_STRICT,
				     .link = p->dlt,
				     .mem_high = FRAME_MEM_HIGH,
				     .mem_low = FRAME_MEM_LOW };
	return reasm_create(r, &rcfg);
}

/* --- the checking pass -------------------------------------------------- */

/* The engine's outputs: the latest copied (checking pass), or counted and
 * their lengths checked (timed passes). */
struct engine_out {
	uint8_t buf[OUT_MAX];
	uint32_t len, want;
	uint64_t count, bad;
};

static void on_emit(struct reasm_out *o, void *arg)
{
	struct engine_out *e = arg;

	if (e->count++ == 0 && o->len <= OUT_MAX) {
		memcpy(e->buf, o->data, o->len);
		e->len = o->len;
	}
	reasm_out_free(o);
}

static void on_emit_count(struct reasm_out *o, void *arg)
{
	struct engine_out *e = arg;

	e->count++;
	e->bad += o->len != e->want;
	reasm_out_free(o);
}

/* Every datagram of @p p with IP ID 0 through a fresh engine and through
 * @p tbl, compared byte for byte, from virtual time *@p vt on; those DPDK
 * returned counted in *@p returned. */
static int check_pass(const struct frame_pool *p, struct rte_ip_frag_tbl *tbl,
		      struct rte_ip_frag_death_row *dr, uint64_t *vt,
		      struct bench_rte_frag_result *res, uint64_t *returned)
{
	struct engine_out *eo = malloc(sizeof(*eo));
	struct reasm *r = NULL;
	struct reasm_worker w;
	int rc = eo != NULL ? engine_new(&r, p) : -ENOMEM;

	if (rc == 0)
		rc = reasm_worker_init(&w, r, on_emit, eo);
	for (unsigned i = 0; rc == 0 && i < p->info.datagrams; i++) {
		struct rte_mbuf *out = NULL;
		eo->count = 0;
		eo->len = 0;
		for (unsigned k = 0; k < p->info.frags; k++) {
			const struct pool_frame *f =
				&p->legit[(size_t)i * p->info.frags + k];
			uint64_t t = (*vt)++ * FRAME_TICK_NS;
			struct rte_mbuf *m = to_mbuf(p, f, 0), *o;
			(void)reasm_input(&w, f->data, f->len, f->len, t);
			if (m == NULL) {
				rc = -ENOMEM;
				break;
			}
			o = feed(p, tbl, dr, m, t);
			if (o != NULL && out == NULL)
				out = o;
			else if (o != NULL)
				rte_pktmbuf_free(o);
		}
		uint32_t len = 0, at = 0;
		uint8_t *b = out != NULL && rc == 0 ? whole(p, out, &len)
						    : NULL;
		rte_pktmbuf_free(out);
		*returned += out != NULL;
		res->compared += rc == 0;
		if (rc == 0 && (b == NULL || eo->count != 1 || len != eo->len ||
				memcmp(b, eo->buf, len) != 0)) {
			while (b != NULL && at < len && at < eo->len &&
			       b[at] == eo->buf[at])
				at++;
			res->mismatches++;
			frame_fail(&res->errors, res->error,
				   "%sdatagram %u: DPDK gave %u bytes%s, the "
				   "engine %" PRIu64 " output(s) of %u bytes; "
				   "first difference at byte %u",
				   p->v6 ? "IPv6 " : "", i, len,
				   out == NULL ? " (none)" : "", eo->count,
				   eo->len, at);
		}
		free(b);
	}
	reasm_destroy(r, NULL);
	free(eo);
	return rc;
}

/* --- the timed passes --------------------------------------------------- */

/* Seconds of each timed part, and DPDK's datagrams, summed over a run. */
struct sums {
	double fill, chain, linear, engine;
	uint64_t completed, bad;
};

/* Datagrams [d0, d1) of @p p with IP ID @p id: mbufs filled, then
 * reassembled, made whole and freed, each part timed apart; then the
 * engine @p w on the same frames and virtual times, timed apart. */
static int timed_batch(const struct frame_pool *p, struct rte_ip_frag_tbl *tbl,
		       struct rte_ip_frag_death_row *dr, struct reasm_worker *w,
		       unsigned d0, unsigned d1, uint32_t id, uint64_t *vt,
		       struct sums *s)
{
	struct rte_mbuf *in[BATCH * RTE_LIBRTE_IP_FRAG_MAX_FRAG], *out[BATCH];
	const struct pool_frame *f = &p->legit[(size_t)d0 * p->info.frags];
	const unsigned nin = (d1 - d0) * p->info.frags;
	const uint64_t t0 = *vt;
	unsigned nout = 0;

	double z = bench_now_s();
	for (unsigned j = 0; j < nin; j++) {
		in[j] = to_mbuf(p, &f[j], id);
		if (in[j] == NULL) {
			rte_pktmbuf_free_bulk(in, j);
			return -ENOMEM;
		}
	}
	double a = bench_now_s();
	for (unsigned j = 0; j < nin; j++) {
		struct rte_mbuf *o =
			feed(p, tbl, dr, in[j], (t0 + j) * FRAME_TICK_NS);
		if (o != NULL && nout < BATCH)
			out[nout++] = o;
		else if (o != NULL)
			rte_pktmbuf_free(o);
	}
	double b = bench_now_s();
	for (unsigned j = 0; j < nout; j++) {
		uint32_t len = 0;
		uint8_t *buf = whole(p, out[j], &len);
		s->bad += buf == NULL || len != p->want;
		free(buf);
	}
	double c = bench_now_s();
	rte_pktmbuf_free_bulk(out, nout);
	double d = bench_now_s();
	for (unsigned j = 0; j < nin; j++)
		(void)reasm_input(w, f[j].data, f[j].len, f[j].len,
				  (t0 + j) * FRAME_TICK_NS);
	double e = bench_now_s();
	*vt = t0 + nin;
	s->fill += a - z;
	s->chain += (b - a) + (d - c);
	s->linear += c - b;
	s->engine += e - d;
	s->completed += nout;
	return 0;
}

static double per_sec(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0;
}

static struct rte_ip_frag_tbl *table_new(void)
{
	return rte_ip_frag_table_create(TBL_BUCKETS, TBL_BUCKET_ENTRIES,
					TBL_BUCKETS * TBL_BUCKET_ENTRIES,
					TIMEOUT_NS, SOCKET_ID_ANY);
}

int bench_rte_frag_run(enum bench_reasm_workload wl, unsigned duration_ms,
		       unsigned min_passes, struct bench_rte_frag_result *res)
{
	const struct frame_pool *p = frame_pool_of(wl);
	struct rte_ip_frag_death_row dr = { 0 };
	struct engine_out *ec = calloc(1, sizeof(*ec));
	struct rte_ip_frag_tbl *tbl = NULL;
	struct reasm *r = NULL;
	struct reasm_worker w;
	struct sums s = { 0 };
	uint64_t vt = 0, returned = 0;
	int rc = -EINVAL;

	memset(res, 0, sizeof(*res));
	if (!started || p == NULL || ec == NULL ||
	    p->info.frags > RTE_LIBRTE_IP_FRAG_MAX_FRAG)
		goto out;
	rc = (tbl = table_new()) == NULL ? -ENOMEM : 0;
	if (rc == 0)
		rc = check_pass(p, tbl, &dr, &vt, res, &returned);
	if (rc == 0)
		rc = engine_new(&r, p);
	ec->want = p->want;
	if (rc == 0)
		rc = reasm_worker_init(&w, r, on_emit_count, ec);
	double start = bench_now_s();
	for (unsigned pass = 1; rc == 0 && pass < MAX_PASSES; pass++) {
		for (unsigned d0 = 0; rc == 0 && d0 < p->info.datagrams;
		     d0 += BATCH) {
			unsigned d1 = d0 + BATCH < p->info.datagrams
					      ? d0 + BATCH
					      : p->info.datagrams;
			rc = timed_batch(p, tbl, &dr, &w, d0, d1, pass, &vt,
					 &s);
		}
		res->passes = pass;
		if (pass >= min_passes &&
		    (bench_now_s() - start) * 1e3 >= duration_ms)
			break;
	}
	uint64_t offered = (uint64_t)p->info.datagrams * res->passes;
	if (rc == 0 && (s.completed != offered || s.bad != 0 ||
			ec->count != offered || ec->bad != 0))
		frame_fail(&res->errors, res->error,
			   "%sof %" PRIu64
			   " datagrams DPDK reassembled %" PRIu64 " (%" PRIu64
			   " of the wrong length), the engine in "
			   "the anchor's loop %" PRIu64 " (%" PRIu64 ")",
			   p->v6 ? "IPv6: " : "", offered, s.completed, s.bad,
			   ec->count, ec->bad);
	res->datagrams_per_sec = per_sec(s.completed, s.chain + s.linear);
	res->chain_datagrams_per_sec = per_sec(s.completed, s.chain);
	res->filled_datagrams_per_sec =
		per_sec(s.completed, s.chain + s.linear + s.fill);
	res->engine_datagrams_per_sec = per_sec(ec->count, s.engine);
	res->seconds = s.chain + s.linear + (p->v6 ? s.engine : 0);
	reasm_destroy(r, NULL);
out:
	if (tbl != NULL)
		rte_ip_frag_table_destroy(tbl);
	free(ec);
	return rc;
}

int bench_rte_frag_probe(enum bench_reasm_workload w, uint64_t *offered,
			 uint64_t *completed)
{
	const struct frame_pool *p = frame_pool_of(w);
	struct rte_ip_frag_death_row dr = { 0 };
	struct bench_rte_frag_result scratch = { 0 };
	uint64_t vt = 0;

	if (!started || p == NULL)
		return -EINVAL;
	struct rte_ip_frag_tbl *tbl = table_new();
	if (tbl == NULL)
		return rte_errno ? -rte_errno : -ENOMEM;
	*offered = p->info.datagrams;
	*completed = 0;
	int rc = check_pass(p, tbl, &dr, &vt, &scratch, completed);
	rte_ip_frag_table_destroy(tbl);
	return rc;
}
