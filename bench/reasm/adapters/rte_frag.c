/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rte_frag.c - anchor: DPDK's librte_ip_frag on the reassembly
 * benchmark's frames, one thread, checked against the engine (see
 * rte_frag.h for what a run does and what is timed).
 *
 * Compiled with the flags of pkg-config libdpdk (-include rte_config.h,
 * -march=corei7); linked with librte_eal, librte_mempool, librte_mbuf and
 * librte_ip_frag only. The mbuf pool needs DPDK's "ring_mp_mc" mempool
 * driver, which the EAL loads from its plugin directory.
 */
#define _GNU_SOURCE /* pthread_getaffinity_np, CPU_ISSET */
#include "rte_frag.h"

#include "frames.h"

#include "reasm.h"

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ip_frag.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NMBUFS 8191u /* a power of two less one, as mempool likes */
#define MBUF_CACHE 256u
#define TBL_BUCKETS 4096u
#define TBL_BUCKET_ENTRIES 16u
#define TIMEOUT_NS 30000000000ull /* the engine's IPv4 timeout */
#define MAX_PASSES 60000u	  /* IP IDs and the virtual clock */
#define IP_HDR 20u

static bool started;
static struct rte_mempool *mbufs;

unsigned bench_rte_frag_max_frags(void)
{
	return RTE_LIBRTE_IP_FRAG_MAX_FRAG;
}

/* --- starting the EAL --------------------------------------------------- */

static int eal_init(void)
{
	cpu_set_t saved;
	size_t cpu = 0;

	CPU_ZERO(&saved);
	if (pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved) != 0)
		return -1;
	while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &saved))
		cpu++;
	if (cpu == CPU_SETSIZE)
		return -1;
	/* rte_eal_init may reorder its arguments: writable copies. */
	char a0[] = "grain_bench_reasm", a1[] = "-l", a2[16],
	     a3[] = "--no-huge", a4[] = "-m", a5[] = "256", a6[] = "--no-pci",
	     a7[] = "--no-shconf", a8[] = "--no-telemetry",
	     a9[] = "--log-level=error";
	snprintf(a2, sizeof(a2), "%zu", cpu);
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, NULL };
	int rc = rte_eal_init(10, argv);
	/* The EAL pins the calling thread to its lcore: undo that, so that
	 * the engine's workers, spawned from here, are placed as before. */
	pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	return rc < 0 ? -1 : 0;
}

static void why_set(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (why == NULL || n == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
}

int bench_rte_frag_start(char *why, size_t n)
{
	if (started)
		return 0;
	/* First in a child: an EAL that cannot start may abort. */
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		why_set(why, n, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		_exit(eal_init() == 0 ? 0 : 1);
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		why_set(why, n,
			"DPDK's EAL did not start in a trial process (%s %d)",
			WIFSIGNALED(status) ? "signal" : "status",
			WIFSIGNALED(status) ? WTERMSIG(status)
					    : WEXITSTATUS(status));
		return -1;
	}
	if (eal_init() != 0) {
		why_set(why, n, "rte_eal_init: %s", rte_strerror(rte_errno));
		return -1;
	}
	mbufs = rte_pktmbuf_pool_create("grain_bench_reasm", NMBUFS, MBUF_CACHE,
					0, RTE_MBUF_DEFAULT_BUF_SIZE,
					SOCKET_ID_ANY);
	if (mbufs == NULL) {
		why_set(why, n, "rte_pktmbuf_pool_create: %s",
			rte_strerror(rte_errno));
		rte_eal_cleanup();
		return -1;
	}
	started = true;
	return 0;
}

static void v6_free(void);

void bench_rte_frag_stop(void)
{
	v6_free();
	if (!started)
		return;
	rte_mempool_free(mbufs);
	mbufs = NULL;
	rte_eal_cleanup();
	started = false;
}

/* --- frames in, datagrams out ------------------------------------------- */

static double seconds_between(const struct timespec *a,
			      const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

static void fail(struct bench_rte_frag_result *res, const char *fmt, ...)
{
	if (res->errors++ == 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(res->error, sizeof(res->error), fmt, ap);
		va_end(ap);
	}
}

/* A copy of frame @p f in a fresh mbuf, as a NIC would have received it,
 * with its link and network header lengths (@p l2, @p l3) set as DPDK
 * wants them; NULL if the pool is empty. */
static struct rte_mbuf *to_mbuf(const struct pool_frame *f, uint32_t l2,
				uint32_t l3)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mbufs);

	if (m == NULL)
		return NULL;
	char *d = rte_pktmbuf_append(m, (uint16_t)f->len);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(d, f->data, f->len);
	m->l2_len = l2 & 0x7fu;
	m->l3_len = l3 & 0x1ffu;
	return m;
}

/* Fragment @p m into the table: the reassembled datagram, or NULL. Whatever
 * DPDK dropped is freed at once. */
static struct rte_mbuf *feed(struct rte_ip_frag_tbl *tbl,
			     struct rte_ip_frag_death_row *dr,
			     struct rte_mbuf *m, uint32_t l2, uint64_t tms)
{
	struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, l2);
	struct rte_mbuf *out =
		rte_ipv4_frag_reassemble_packet(tbl, dr, m, tms, ip);

	if (dr->cnt != 0)
		rte_ip_frag_free_death_row(dr, 0);
	return out;
}

/* The chain @p m copied into one malloc'd buffer of *@p len bytes; NULL
 * if out of memory. */
static uint8_t *chain_copy(const struct rte_mbuf *m, uint32_t *len)
{
	uint32_t n = rte_pktmbuf_pkt_len(m), at = 0;
	uint8_t *b = malloc(n ? n : 1);

	if (b == NULL)
		return NULL;
	for (const struct rte_mbuf *s = m; s != NULL && at < n; s = s->next) {
		uint32_t k = s->data_len;
		if (k > n - at)
			k = n - at;
		memcpy(b + at, rte_pktmbuf_mtod(s, const uint8_t *), k);
		at += k;
	}
	*len = at;
	return b;
}

/* The IPv4 datagram of chain @p m as chain_copy() makes it, with the
 * header checksum DPDK leaves 0 filled in. */
static uint8_t *linearise(const struct rte_mbuf *m, uint32_t l2, uint32_t *len)
{
	uint8_t *b = chain_copy(m, len);

	if (b != NULL && *len >= l2 + IP_HDR) {
		uint8_t *ip = b + l2;
		frame_wr16(ip + 10, 0);
		frame_wr16(ip + 10, frame_ip_checksum(ip));
	}
	return b;
}

static struct rte_ip_frag_tbl *table_new(void)
{
	return rte_ip_frag_table_create(TBL_BUCKETS, TBL_BUCKET_ENTRIES,
					TBL_BUCKETS * TBL_BUCKET_ENTRIES,
					TIMEOUT_NS, SOCKET_ID_ANY);
}

/* --- the checking pass -------------------------------------------------- */

/* The engine's latest output, copied. */
struct engine_out {
	uint8_t *buf;
	uint32_t len;
	unsigned count;
};

static void on_emit(struct reasm_out *o, void *arg)
{
	struct engine_out *e = arg;

	if (e->count++ == 0 && o->len <= 14u + 65535u) {
		memcpy(e->buf, o->data, o->len);
		e->len = o->len;
	}
	reasm_out_free(o);
}

/* Every datagram of @p p with IP ID 0 through the engine and through
 * @p tbl, compared; the virtual clock from *@p vt on. */
static int check_pass(const struct frame_pool *p,
		      const struct bench_reasm_setup *s,
		      struct rte_ip_frag_tbl *tbl,
		      struct rte_ip_frag_death_row *dr, uint64_t *vt,
		      struct bench_rte_frag_result *res)
{
	const uint32_t l2 = frame_l2_len(s->link), F = p->info.frags;
	struct engine_out eo = { .buf = malloc(14u + 65535u) };
	struct reasm_config rcfg;
	struct reasm *r = NULL;
	struct reasm_worker w;
	int rc = -ENOMEM;

	memset(&rcfg, 0, sizeof(rcfg));
	rcfg.policy = REASM_STRICT;
	rcfg.link = frame_dlt(s->link);
	rcfg.mem_high = BENCH_REASM_MEM_HIGH;
	rcfg.mem_low = BENCH_REASM_MEM_LOW;
	if (eo.buf == NULL)
		goto out;
	rc = reasm_create(&r, &rcfg);
	if (rc != 0)
		goto out;
	rc = reasm_worker_init(&w, r, on_emit, &eo);
	if (rc != 0)
		goto out;
	for (unsigned i = 0; i < p->info.datagrams; i++) {
		struct rte_mbuf *out = NULL;
		eo.count = 0;
		eo.len = 0;
		for (unsigned k = 0; k < F; k++) {
			const struct pool_frame *f =
				&p->legit[(size_t)i * F + k];
			frame_set_id(f->data + l2, 0, f->csum0);
			uint64_t t = (*vt)++ * BENCH_REASM_TICK_NS;
			(void)reasm_input(&w, f->data, f->len, f->len, t);
			struct rte_mbuf *m = to_mbuf(f, l2, IP_HDR);
			if (m == NULL) {
				if (out != NULL)
					rte_pktmbuf_free(out);
				rc = -ENOMEM;
				goto out;
			}
			struct rte_mbuf *o = feed(tbl, dr, m, l2, t);
			if (o != NULL && out == NULL)
				out = o;
			else if (o != NULL)
				rte_pktmbuf_free(o);
		}
		uint32_t len = 0;
		uint8_t *b = out != NULL ? linearise(out, l2, &len) : NULL;
		if (out != NULL)
			rte_pktmbuf_free(out);
		res->compared++;
		if (b == NULL || eo.count != 1 || len != eo.len ||
		    memcmp(b, eo.buf, len) != 0) {
			uint32_t at = 0;
			while (b != NULL && at < len && at < eo.len &&
			       b[at] == eo.buf[at])
				at++;
			res->mismatches++;
			fail(res,
			     "datagram %u: DPDK gave %u bytes%s, the engine %u "
			     "output(s) of %u bytes; first difference at byte "
			     "%u",
			     i, len, out == NULL ? " (none)" : "", eo.count,
			     eo.len, at);
		}
		free(b);
	}
	rc = 0;
out:
	if (r != NULL)
		reasm_destroy(r, NULL);
	free(eo.buf);
	return rc;
}

/* --- the timed passes --------------------------------------------------- */

/* The engine's outputs of the timed passes: counted, length checked. */
struct engine_count {
	uint64_t n, bad;
	uint32_t want;
};

static void on_emit_count(struct reasm_out *o, void *arg)
{
	struct engine_count *c = arg;

	c->n++;
	c->bad += o->len != c->want;
	reasm_out_free(o);
}

static int engine_new(struct reasm **r, enum bench_reasm_link link)
{
	struct reasm_config rcfg;

	memset(&rcfg, 0, sizeof(rcfg));
	rcfg.policy = REASM_STRICT;
	rcfg.link = frame_dlt(link);
	rcfg.mem_high = BENCH_REASM_MEM_HIGH;
	rcfg.mem_low = BENCH_REASM_MEM_LOW;
	return reasm_create(r, &rcfg);
}

/* Datagrams [d0, d1) of @p p with IP ID @p id: mbufs filled untimed, then
 * reassembled, linearised and freed, each part timed. */
static int timed_batch(const struct frame_pool *p, uint32_t l2,
		       struct rte_ip_frag_tbl *tbl,
		       struct rte_ip_frag_death_row *dr, struct reasm_worker *w,
		       struct engine_count *ec, unsigned d0, unsigned d1,
		       uint16_t id, uint64_t *vt,
		       struct bench_rte_frag_result *res)
{
	struct rte_mbuf *in[BENCH_RTE_FRAG_BATCH * RTE_LIBRTE_IP_FRAG_MAX_FRAG];
	struct rte_mbuf *out[BENCH_RTE_FRAG_BATCH];
	const unsigned F = p->info.frags;
	unsigned nin = 0, nout = 0;
	uint64_t t0 = *vt;
	struct timespec z, a, b, c, d, e;

	clock_gettime(CLOCK_MONOTONIC, &z);
	for (unsigned i = d0; i < d1; i++)
		for (unsigned k = 0; k < F; k++) {
			const struct pool_frame *f =
				&p->legit[(size_t)i * F + k];
			frame_set_id(f->data + l2, id, f->csum0);
			in[nin] = to_mbuf(f, l2, IP_HDR);
			if (in[nin] == NULL) {
				rte_pktmbuf_free_bulk(in, nin);
				return -ENOMEM;
			}
			nin++;
		}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned j = 0; j < nin; j++) {
		struct rte_mbuf *o = feed(tbl, dr, in[j], l2,
					  (t0 + j) * BENCH_REASM_TICK_NS);
		if (o != NULL && nout < BENCH_RTE_FRAG_BATCH)
			out[nout++] = o;
		else if (o != NULL)
			rte_pktmbuf_free(o);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	uint64_t bad = 0;
	for (unsigned j = 0; j < nout; j++) {
		uint32_t len = 0;
		uint8_t *buf = linearise(out[j], l2, &len);
		if (buf == NULL || len != l2 + IP_HDR + p->info.ip_payload)
			bad++;
		free(buf);
	}
	clock_gettime(CLOCK_MONOTONIC, &c);
	rte_pktmbuf_free_bulk(out, nout);
	clock_gettime(CLOCK_MONOTONIC, &d);
	/* The engine on the same frames, the same virtual times. */
	uint64_t before = ec->n;
	for (unsigned i = d0, j = 0; i < d1; i++)
		for (unsigned k = 0; k < F; k++, j++) {
			const struct pool_frame *f =
				&p->legit[(size_t)i * F + k];
			(void)reasm_input(w, f->data, f->len, f->len,
					  (t0 + j) * BENCH_REASM_TICK_NS);
		}
	clock_gettime(CLOCK_MONOTONIC, &e);
	res->engine_seconds += seconds_between(&d, &e);
	res->engine_completed += ec->n - before;
	*vt = t0 + nin;
	res->chain_seconds += seconds_between(&a, &b) + seconds_between(&c, &d);
	res->linear_seconds += seconds_between(&b, &c);
	res->fill_seconds += seconds_between(&z, &a);
	res->completed += nout;
	if (bad != 0)
		fail(res, "%llu reassembled datagram(s) of the wrong length",
		     (unsigned long long)bad);
	return 0;
}

int bench_rte_frag_run(enum bench_reasm_workload w, unsigned duration_ms,
		       unsigned min_passes, struct bench_rte_frag_result *res)
{
	struct bench_reasm_setup s;
	const struct frame_pool *p = bench_reasm_pool(w, &s);

	if (res == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (!started || p == NULL ||
	    p->info.frags > RTE_LIBRTE_IP_FRAG_MAX_FRAG)
		return -EINVAL;
	const uint32_t l2 = frame_l2_len(s.link);
	const unsigned D = p->info.datagrams;
	struct rte_ip_frag_death_row dr;
	memset(&dr, 0, sizeof(dr));
	struct rte_ip_frag_tbl *tbl = table_new();
	if (tbl == NULL)
		return rte_errno ? -rte_errno : -ENOMEM;

	uint64_t vt = 0;
	struct engine_count ec = { .want = l2 + IP_HDR + p->info.ip_payload };
	struct reasm *r = NULL;
	struct reasm_worker ew;
	int rc = check_pass(p, &s, tbl, &dr, &vt, res);
	if (rc == 0)
		rc = engine_new(&r, s.link);
	if (rc == 0)
		rc = reasm_worker_init(&ew, r, on_emit_count, &ec);
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (unsigned pass = 1; rc == 0 && pass < MAX_PASSES; pass++) {
		for (unsigned d0 = 0; rc == 0 && d0 < D;
		     d0 += BENCH_RTE_FRAG_BATCH) {
			unsigned d1 = d0 + BENCH_RTE_FRAG_BATCH;
			rc = timed_batch(p, l2, tbl, &dr, &ew, &ec, d0,
					 d1 < D ? d1 : D, (uint16_t)pass, &vt,
					 res);
		}
		res->passes = pass;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (pass >= min_passes &&
		    seconds_between(&start, &now) * 1e3 >= duration_ms)
			break;
	}
	if (r != NULL)
		reasm_destroy(r, NULL);
	rte_ip_frag_table_destroy(tbl);
	if (rc != 0)
		return rc;
	res->offered = (uint64_t)D * res->passes;
	res->seconds = res->chain_seconds + res->linear_seconds;
	if (res->completed != res->offered)
		fail(res, "DPDK reassembled %llu of %llu datagrams",
		     (unsigned long long)res->completed,
		     (unsigned long long)res->offered);
	if (res->engine_completed != res->offered || ec.bad != 0)
		fail(res,
		     "the engine, in the anchor's loop, reassembled %llu of "
		     "%llu datagrams (%llu of the wrong length)",
		     (unsigned long long)res->engine_completed,
		     (unsigned long long)res->offered,
		     (unsigned long long)ec.bad);
	if (res->engine_seconds > 0)
		res->engine_datagrams_per_sec =
			(double)res->engine_completed / res->engine_seconds;
	if (res->seconds > 0)
		res->datagrams_per_sec = (double)res->completed / res->seconds;
	if (res->chain_seconds > 0)
		res->chain_datagrams_per_sec =
			(double)res->completed / res->chain_seconds;
	if (res->seconds + res->fill_seconds > 0)
		res->filled_datagrams_per_sec =
			(double)res->completed /
			(res->seconds + res->fill_seconds);
	return 0;
}

int bench_rte_frag_probe(enum bench_reasm_workload w, uint64_t *offered,
			 uint64_t *completed)
{
	struct bench_reasm_setup s;
	const struct frame_pool *p = bench_reasm_pool(w, &s);

	if (!started || p == NULL || offered == NULL || completed == NULL)
		return -EINVAL;
	const uint32_t l2 = frame_l2_len(s.link);
	struct rte_ip_frag_death_row dr;
	memset(&dr, 0, sizeof(dr));
	struct rte_ip_frag_tbl *tbl = table_new();
	if (tbl == NULL)
		return rte_errno ? -rte_errno : -ENOMEM;
	*offered = p->info.datagrams;
	*completed = 0;
	int rc = 0;
	for (uint64_t j = 0; j < p->info.frames; j++) {
		const struct pool_frame *f = &p->legit[j];
		frame_set_id(f->data + l2, 0, f->csum0);
		struct rte_mbuf *m = to_mbuf(f, l2, IP_HDR);
		if (m == NULL) {
			rc = -ENOMEM;
			break;
		}
		struct rte_mbuf *o =
			feed(tbl, &dr, m, l2, j * BENCH_REASM_TICK_NS);
		if (o != NULL) {
			(*completed)++;
			rte_pktmbuf_free(o);
		}
	}
	rte_ip_frag_table_destroy(tbl);
	return rc;
}

/* --- IPv6 --------------------------------------------------------------- */

#define IP6_HDR 40u
#define FRAG6_HDR 8u
#define V6_FRAG_PAYLOAD 1448u /* (1500 - 40 - 8) rounded down to 8 */
#define V6_UDP_LEN (2u * V6_FRAG_PAYLOAD + 1400u) /* 3 fragments */
#define V6_FRAGS 3u

static const uint8_t v6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
				    0,	  0,	0,    0,    0, 0, 0, 1 };

/* The IPv6 pool: as the 3F one, D datagrams of 3 fragments each, every
 * fragment a Fragment header right after the IPv6 header. */
struct v6_pool {
	uint8_t *mem;
	struct pool_frame *frames; /* datagram-major */
	unsigned datagrams;
	uint32_t l2;
	bool built;
};
static struct v6_pool v6;

static void v6_src(uint8_t *a, uint32_t index)
{
	memset(a, 0, 16);
	a[0] = 0xfd;
	a[13] = (uint8_t)(index >> 16);
	a[14] = (uint8_t)(index >> 8);
	a[15] = (uint8_t)index;
}

static void v6_free(void)
{
	free(v6.mem);
	free(v6.frames);
	memset(&v6, 0, sizeof(v6));
}

/* UDP datagrams of V6_UDP_LEN bytes (payload as frame_payload_byte),
 * checksummed over the IPv6 pseudo-header, cut at V6_FRAG_PAYLOAD. */
static int v6_build(unsigned datagrams, enum bench_reasm_link link)
{
	const uint32_t l2 = frame_l2_len(link);
	const size_t slot =
		64u *
		((l2 + IP6_HDR + FRAG6_HDR + V6_FRAG_PAYLOAD + 63u) / 64u);
	uint8_t *udp = malloc(V6_UDP_LEN);

	v6.mem = malloc(slot * V6_FRAGS * datagrams);
	v6.frames = calloc((size_t)datagrams * V6_FRAGS, sizeof(*v6.frames));
	if (udp == NULL || v6.mem == NULL || v6.frames == NULL) {
		free(udp);
		v6_free();
		return -ENOMEM;
	}
	v6.datagrams = datagrams;
	v6.l2 = l2;
	for (unsigned i = 0; i < datagrams; i++) {
		uint8_t src[16];
		v6_src(src, i);
		frame_wr16(udp, (uint16_t)FRAME_UDP_SPORT);
		frame_wr16(udp + 2, (uint16_t)FRAME_UDP_DPORT);
		frame_wr16(udp + 4, (uint16_t)V6_UDP_LEN);
		frame_wr16(udp + 6, 0);
		for (uint32_t pos = 0; pos < V6_UDP_LEN - 8u; pos++)
			udp[8 + pos] = frame_payload_byte(i, pos);
		/* The pseudo-header: both addresses, length, next header. */
		uint32_t sum = frame_sum(src, 16, 0);
		sum = frame_sum(v6_dst, 16, sum);
		sum += V6_UDP_LEN + 17u;
		sum = frame_sum(udp, V6_UDP_LEN, sum);
		while (sum >> 16)
			sum = (sum & 0xffffu) + (sum >> 16);
		uint16_t csum = (uint16_t)~sum;
		frame_wr16(udp + 6, csum ? csum : 0xffffu);
		for (unsigned k = 0; k < V6_FRAGS; k++) {
			uint32_t off = k * V6_FRAG_PAYLOAD;
			uint32_t n = k + 1 < V6_FRAGS ? V6_FRAG_PAYLOAD
						      : V6_UDP_LEN - off;
			size_t at = ((size_t)i * V6_FRAGS + k) * slot;
			uint8_t *f = v6.mem + at, *ip = f + l2;
			struct pool_frame *pf = &v6.frames[i * V6_FRAGS + k];
			if (l2 != 0) {
				memset(f, 0, 12);
				f[0] = 0x02;
				f[5] = 0x01;
				f[6] = 0x02;
				f[11] = 0x02;
				frame_wr16(f + 12, 0x86dd);
			}
			memset(ip, 0, IP6_HDR + FRAG6_HDR);
			ip[0] = 0x60;
			frame_wr16(ip + 4, (uint16_t)(FRAG6_HDR + n));
			ip[6] = 44; /* Fragment */
			ip[7] = 64;
			memcpy(ip + 8, src, 16);
			memcpy(ip + 24, v6_dst, 16);
			ip[40] = 17; /* UDP */
			frame_wr16(ip + 42,
				   (uint16_t)(off | (k + 1 < V6_FRAGS)));
			memcpy(ip + IP6_HDR + FRAG6_HDR, udp + off, n);
			pf->data = f;
			pf->len = l2 + IP6_HDR + FRAG6_HDR + n;
		}
	}
	free(udp);
	v6.built = true;
	return 0;
}

static void v6_set_id(const struct pool_frame *f, uint32_t id)
{
	uint8_t *fh = f->data + v6.l2 + IP6_HDR;
	frame_wr16(fh + 4, (uint16_t)(id >> 16));
	frame_wr16(fh + 6, (uint16_t)id);
}

static struct rte_mbuf *feed6(struct rte_ip_frag_tbl *tbl,
			      struct rte_ip_frag_death_row *dr,
			      struct rte_mbuf *m, uint64_t tms)
{
	struct rte_ipv6_hdr *ip =
		rte_pktmbuf_mtod_offset(m, struct rte_ipv6_hdr *, v6.l2);
	struct rte_ipv6_fragment_ext *fh =
		rte_ipv6_frag_get_ipv6_fragment_header(ip);
	struct rte_mbuf *out = NULL;

	if (fh == NULL)
		rte_pktmbuf_free(m); /* cannot happen: every frame has one */
	else
		out = rte_ipv6_frag_reassemble_packet(tbl, dr, m, tms, ip, fh);
	if (dr->cnt != 0)
		rte_ip_frag_free_death_row(dr, 0);
	return out;
}

static int check6(struct rte_ip_frag_tbl *tbl, struct rte_ip_frag_death_row *dr,
		  enum bench_reasm_link link, uint64_t *vt,
		  struct bench_rte_frag6_result *res)
{
	struct engine_out eo = { .buf = malloc(14u + 65535u) };
	struct reasm *r = NULL;
	struct reasm_worker w;
	int rc = -ENOMEM;

	if (eo.buf == NULL)
		goto out;
	rc = engine_new(&r, link);
	if (rc == 0)
		rc = reasm_worker_init(&w, r, on_emit, &eo);
	if (rc != 0)
		goto out;
	for (unsigned i = 0; i < v6.datagrams; i++) {
		struct rte_mbuf *out = NULL;
		eo.count = 0;
		eo.len = 0;
		for (unsigned k = 0; k < V6_FRAGS; k++) {
			const struct pool_frame *f =
				&v6.frames[i * V6_FRAGS + k];
			v6_set_id(f, 0);
			uint64_t t = (*vt)++ * BENCH_REASM_TICK_NS;
			(void)reasm_input(&w, f->data, f->len, f->len, t);
			struct rte_mbuf *m =
				to_mbuf(f, v6.l2, IP6_HDR + FRAG6_HDR);
			if (m == NULL) {
				if (out != NULL)
					rte_pktmbuf_free(out);
				rc = -ENOMEM;
				goto out;
			}
			struct rte_mbuf *o = feed6(tbl, dr, m, t);
			if (o != NULL && out == NULL)
				out = o;
			else if (o != NULL)
				rte_pktmbuf_free(o);
		}
		uint32_t len = 0;
		uint8_t *b = out != NULL ? chain_copy(out, &len) : NULL;
		if (out != NULL)
			rte_pktmbuf_free(out);
		res->compared++;
		if (b == NULL || eo.count != 1 || len != eo.len ||
		    memcmp(b, eo.buf, len) != 0) {
			uint32_t at = 0;
			while (b != NULL && at < len && at < eo.len &&
			       b[at] == eo.buf[at])
				at++;
			res->mismatches++;
			if (res->errors++ == 0)
				snprintf(res->error, sizeof(res->error),
					 "IPv6 datagram %u: DPDK gave %u "
					 "bytes%s, the engine %u output(s) of "
					 "%u bytes; first difference at byte "
					 "%u",
					 i, len, out == NULL ? " (none)" : "",
					 eo.count, eo.len, at);
		}
		free(b);
	}
	rc = 0;
out:
	if (r != NULL)
		reasm_destroy(r, NULL);
	free(eo.buf);
	return rc;
}

/* One batch of datagrams [d0, d1) with Fragment ID @p id, through DPDK
 * (as timed_batch) and then through the engine @p w, each timed. */
static int timed_batch6(struct rte_ip_frag_tbl *tbl,
			struct rte_ip_frag_death_row *dr,
			struct reasm_worker *w, struct engine_count *ec,
			unsigned d0, unsigned d1, uint32_t id, uint64_t *vt,
			struct bench_rte_frag6_result *res)
{
	struct rte_mbuf *in[BENCH_RTE_FRAG_BATCH * V6_FRAGS];
	struct rte_mbuf *out[BENCH_RTE_FRAG_BATCH];
	const unsigned first = d0 * V6_FRAGS, nin = (d1 - d0) * V6_FRAGS;
	const uint32_t want = v6.l2 + IP6_HDR + V6_UDP_LEN;
	unsigned nout = 0;
	uint64_t t0 = *vt, bad = 0, before = ec->n;
	struct timespec a, b, c, d, e;

	for (unsigned j = 0; j < nin; j++) {
		v6_set_id(&v6.frames[first + j], id);
		in[j] = to_mbuf(&v6.frames[first + j], v6.l2,
				IP6_HDR + FRAG6_HDR);
		if (in[j] == NULL) {
			rte_pktmbuf_free_bulk(in, j);
			return -ENOMEM;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned j = 0; j < nin; j++) {
		struct rte_mbuf *o =
			feed6(tbl, dr, in[j], (t0 + j) * BENCH_REASM_TICK_NS);
		if (o != NULL && nout < BENCH_RTE_FRAG_BATCH)
			out[nout++] = o;
		else if (o != NULL)
			rte_pktmbuf_free(o);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	for (unsigned j = 0; j < nout; j++) {
		uint32_t len = 0;
		uint8_t *buf = chain_copy(out[j], &len);
		bad += buf == NULL || len != want;
		free(buf);
	}
	clock_gettime(CLOCK_MONOTONIC, &c);
	rte_pktmbuf_free_bulk(out, nout);
	clock_gettime(CLOCK_MONOTONIC, &d);
	for (unsigned j = 0; j < nin; j++) {
		const struct pool_frame *f = &v6.frames[first + j];
		(void)reasm_input(w, f->data, f->len, f->len,
				  (t0 + j) * BENCH_REASM_TICK_NS);
	}
	clock_gettime(CLOCK_MONOTONIC, &e);
	*vt = t0 + nin;
	res->dpdk.chain_seconds +=
		seconds_between(&a, &b) + seconds_between(&c, &d);
	res->dpdk.linear_seconds += seconds_between(&b, &c);
	res->dpdk.completed += nout;
	res->engine_seconds += seconds_between(&d, &e);
	res->engine_completed += ec->n - before;
	if (bad != 0 && res->errors++ == 0)
		snprintf(res->error, sizeof(res->error),
			 "%llu IPv6 datagram(s) from DPDK of the wrong length",
			 (unsigned long long)bad);
	return 0;
}

int bench_rte_frag_run6(unsigned duration_ms, unsigned min_passes,
			struct bench_rte_frag6_result *res)
{
	struct bench_reasm_setup s;
	const struct frame_pool *p3 = bench_reasm_pool(BENCH_REASM_3F, &s);

	if (res == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (!started || p3 == NULL)
		return -EINVAL;
	if (!v6.built && v6_build(p3->info.datagrams, s.link) != 0)
		return -ENOMEM;
	struct rte_ip_frag_death_row dr;
	memset(&dr, 0, sizeof(dr));
	struct rte_ip_frag_tbl *tbl = table_new();
	if (tbl == NULL)
		return rte_errno ? -rte_errno : -ENOMEM;
	struct engine_count ec = { .want = v6.l2 + IP6_HDR + V6_UDP_LEN };
	struct reasm *r = NULL;
	struct reasm_worker w;
	uint64_t vt = 0;
	int rc = check6(tbl, &dr, s.link, &vt, res);
	if (rc == 0)
		rc = engine_new(&r, s.link);
	if (rc == 0)
		rc = reasm_worker_init(&w, r, on_emit_count, &ec);
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (unsigned pass = 1; rc == 0 && pass < MAX_PASSES; pass++) {
		for (unsigned d0 = 0; rc == 0 && d0 < v6.datagrams;
		     d0 += BENCH_RTE_FRAG_BATCH) {
			unsigned d1 = d0 + BENCH_RTE_FRAG_BATCH;
			rc = timed_batch6(tbl, &dr, &w, &ec, d0,
					  d1 < v6.datagrams ? d1 : v6.datagrams,
					  pass, &vt, res);
		}
		res->passes = pass;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (pass >= min_passes &&
		    seconds_between(&start, &now) * 1e3 >= duration_ms)
			break;
	}
	if (r != NULL)
		reasm_destroy(r, NULL);
	rte_ip_frag_table_destroy(tbl);
	if (rc != 0)
		return rc;
	res->offered = (uint64_t)v6.datagrams * res->passes;
	res->dpdk.seconds = res->dpdk.chain_seconds + res->dpdk.linear_seconds;
	if (res->dpdk.completed != res->offered ||
	    res->engine_completed != res->offered || ec.bad != 0) {
		if (res->errors++ == 0)
			snprintf(res->error, sizeof(res->error),
				 "IPv6: of %llu datagrams DPDK reassembled "
				 "%llu, the engine %llu (%llu of the wrong "
				 "length)",
				 (unsigned long long)res->offered,
				 (unsigned long long)res->dpdk.completed,
				 (unsigned long long)res->engine_completed,
				 (unsigned long long)ec.bad);
	}
	if (res->dpdk.seconds > 0)
		res->dpdk.datagrams_per_sec =
			(double)res->dpdk.completed / res->dpdk.seconds;
	if (res->dpdk.chain_seconds > 0)
		res->dpdk.chain_datagrams_per_sec =
			(double)res->dpdk.completed / res->dpdk.chain_seconds;
	if (res->engine_seconds > 0)
		res->engine_datagrams_per_sec =
			(double)res->engine_completed / res->engine_seconds;
	res->seconds = res->dpdk.seconds + res->engine_seconds;
	return 0;
}
