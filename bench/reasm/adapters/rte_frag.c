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

#include <grain/common.h>

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

/* --- the IPv6 pool ------------------------------------------------------ */

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

/* One address family's frames as the passes below see them: datagram-major
 * @frags per datagram, @l2 and @l3 header bytes before the payload, @want
 * bytes in a whole datagram as the engine emits it. */
struct fam {
	const struct pool_frame *frames;
	unsigned datagrams, frags;
	uint32_t l2, l3, want;
	bool v6;
};

/* The passes below are always inlined into each family's run, where v6
 * is a constant: each gets the code of its own family only. */

static struct fam fam4(const struct frame_pool *p, uint32_t l2)
{
	return (struct fam){ .frames = p->legit,
			     .datagrams = p->info.datagrams,
			     .frags = p->info.frags,
			     .l2 = l2,
			     .l3 = IP_HDR,
			     .want = l2 + IP_HDR + p->info.ip_payload };
}

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

static double per_sec(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0;
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

/* IP ID @p id (IPv6: the Fragment header's) into frame @p f. */
static GRAIN_ALWAYS_INLINE void set_id(const struct fam *fa,
				       const struct pool_frame *f, uint32_t id)
{
	if (fa->v6)
		v6_set_id(f, id);
	else
		frame_set_id(f->data + fa->l2, (uint16_t)id, f->csum0);
}

/* Fragment @p m into the table: the reassembled datagram, or NULL. Whatever
 * DPDK dropped is freed at once. */
static GRAIN_ALWAYS_INLINE struct rte_mbuf *
feed(const struct fam *fa, struct rte_ip_frag_tbl *tbl,
     struct rte_ip_frag_death_row *dr, struct rte_mbuf *m, uint64_t tms)
{
	struct rte_mbuf *out = NULL;

	if (fa->v6) {
		struct rte_ipv6_hdr *ip6 = rte_pktmbuf_mtod_offset(
			m, struct rte_ipv6_hdr *, fa->l2);
		struct rte_ipv6_fragment_ext *fh =
			rte_ipv6_frag_get_ipv6_fragment_header(ip6);
		if (fh == NULL)
			rte_pktmbuf_free(m); /* cannot happen: all have one */
		else
			out = rte_ipv6_frag_reassemble_packet(tbl, dr, m, tms,
							      ip6, fh);
	} else {
		struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
			m, struct rte_ipv4_hdr *, fa->l2);
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
whole(const struct fam *fa, const struct rte_mbuf *m, uint32_t *len)
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
	if (!fa->v6 && at >= fa->l2 + IP_HDR) {
		uint8_t *ip = b + fa->l2;
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

/* Every datagram of @p fa with IP ID 0 through a fresh engine and through
 * @p tbl, compared; the virtual clock from *@p vt on. */
static GRAIN_ALWAYS_INLINE int
check_pass(const struct fam *fa, enum bench_reasm_link link,
	   struct rte_ip_frag_tbl *tbl, struct rte_ip_frag_death_row *dr,
	   uint64_t *vt, struct bench_rte_frag_result *res)
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
	for (unsigned i = 0; i < fa->datagrams; i++) {
		struct rte_mbuf *out = NULL;
		eo.count = 0;
		eo.len = 0;
		for (unsigned k = 0; k < fa->frags; k++) {
			const struct pool_frame *f =
				&fa->frames[(size_t)i * fa->frags + k];
			set_id(fa, f, 0);
			uint64_t t = (*vt)++ * BENCH_REASM_TICK_NS;
			(void)reasm_input(&w, f->data, f->len, f->len, t);
			struct rte_mbuf *m = to_mbuf(f, fa->l2, fa->l3);
			if (m == NULL) {
				if (out != NULL)
					rte_pktmbuf_free(out);
				rc = -ENOMEM;
				goto out;
			}
			struct rte_mbuf *o = feed(fa, tbl, dr, m, t);
			if (o != NULL && out == NULL)
				out = o;
			else if (o != NULL)
				rte_pktmbuf_free(o);
		}
		uint32_t len = 0;
		uint8_t *b = out != NULL ? whole(fa, out, &len) : NULL;
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
			     "%sdatagram %u: DPDK gave %u bytes%s, the engine "
			     "%u output(s) of %u bytes; first difference at "
			     "byte %u",
			     fa->v6 ? "IPv6 " : "", i, len,
			     out == NULL ? " (none)" : "", eo.count, eo.len,
			     at);
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

/* Datagrams [d0, d1) of @p fa with IP ID @p id: mbufs filled untimed, then
 * reassembled, made whole and freed, each part timed; then the engine @p w
 * on the same frames, the same virtual times, timed apart. */
static GRAIN_ALWAYS_INLINE int
timed_batch(const struct fam *fa, struct rte_ip_frag_tbl *tbl,
	    struct rte_ip_frag_death_row *dr, struct reasm_worker *w,
	    struct engine_count *ec, unsigned d0, unsigned d1, uint32_t id,
	    uint64_t *vt, struct bench_rte_frag_result *res)
{
	struct rte_mbuf *in[BENCH_RTE_FRAG_BATCH * RTE_LIBRTE_IP_FRAG_MAX_FRAG];
	struct rte_mbuf *out[BENCH_RTE_FRAG_BATCH];
	const struct pool_frame *f = &fa->frames[(size_t)d0 * fa->frags];
	const unsigned nin = (d1 - d0) * fa->frags;
	unsigned nout = 0;
	uint64_t t0 = *vt, bad = 0, before = ec->n;
	struct timespec z, a, b, c, d, e;

	clock_gettime(CLOCK_MONOTONIC, &z);
	for (unsigned j = 0; j < nin; j++) {
		set_id(fa, &f[j], id);
		in[j] = to_mbuf(&f[j], fa->l2, fa->l3);
		if (in[j] == NULL) {
			rte_pktmbuf_free_bulk(in, j);
			return -ENOMEM;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned j = 0; j < nin; j++) {
		struct rte_mbuf *o = feed(fa, tbl, dr, in[j],
					  (t0 + j) * BENCH_REASM_TICK_NS);
		if (o != NULL && nout < BENCH_RTE_FRAG_BATCH)
			out[nout++] = o;
		else if (o != NULL)
			rte_pktmbuf_free(o);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	for (unsigned j = 0; j < nout; j++) {
		uint32_t len = 0;
		uint8_t *buf = whole(fa, out[j], &len);
		bad += buf == NULL || len != fa->want;
		free(buf);
	}
	clock_gettime(CLOCK_MONOTONIC, &c);
	rte_pktmbuf_free_bulk(out, nout);
	clock_gettime(CLOCK_MONOTONIC, &d);
	for (unsigned j = 0; j < nin; j++)
		(void)reasm_input(w, f[j].data, f[j].len, f[j].len,
				  (t0 + j) * BENCH_REASM_TICK_NS);
	clock_gettime(CLOCK_MONOTONIC, &e);
	*vt = t0 + nin;
	res->fill_seconds += seconds_between(&z, &a);
	res->chain_seconds += seconds_between(&a, &b) + seconds_between(&c, &d);
	res->linear_seconds += seconds_between(&b, &c);
	res->completed += nout;
	res->engine_seconds += seconds_between(&d, &e);
	res->engine_completed += ec->n - before;
	if (bad != 0)
		fail(res, "%llu %s of the wrong length",
		     (unsigned long long)bad,
		     fa->v6 ? "IPv6 datagram(s) from DPDK"
			    : "reassembled datagram(s)");
	return 0;
}

/* A fresh table and engine; the checking pass, then timed passes of @p fa
 * until @p duration_ms and at least @p min_passes; the engine's outputs
 * of the wrong length in *@p bad. */
static GRAIN_ALWAYS_INLINE int
run_passes(const struct fam *fa, enum bench_reasm_link link,
	   unsigned duration_ms, unsigned min_passes,
	   struct bench_rte_frag_result *res, uint64_t *bad)
{
	const unsigned D = fa->datagrams;
	struct rte_ip_frag_death_row dr;
	memset(&dr, 0, sizeof(dr));
	struct rte_ip_frag_tbl *tbl = table_new();
	if (tbl == NULL)
		return rte_errno ? -rte_errno : -ENOMEM;

	uint64_t vt = 0;
	struct engine_count ec = { .want = fa->want };
	struct reasm *r = NULL;
	struct reasm_worker w;
	int rc = check_pass(fa, link, tbl, &dr, &vt, res);
	if (rc == 0)
		rc = engine_new(&r, link);
	if (rc == 0)
		rc = reasm_worker_init(&w, r, on_emit_count, &ec);
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (unsigned pass = 1; rc == 0 && pass < MAX_PASSES; pass++) {
		for (unsigned d0 = 0; rc == 0 && d0 < D;
		     d0 += BENCH_RTE_FRAG_BATCH) {
			unsigned d1 = d0 + BENCH_RTE_FRAG_BATCH;
			rc = timed_batch(fa, tbl, &dr, &w, &ec, d0,
					 d1 < D ? d1 : D, pass, &vt, res);
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
	res->offered = (uint64_t)D * res->passes;
	*bad = ec.bad;
	return rc;
}

int bench_rte_frag_run(enum bench_reasm_workload w, unsigned duration_ms,
		       unsigned min_passes, struct bench_rte_frag_result *res)
{
	struct bench_reasm_setup s;
	const struct frame_pool *p = bench_reasm_pool(w, &s);
	uint64_t bad = 0;

	if (res == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (!started || p == NULL ||
	    p->info.frags > RTE_LIBRTE_IP_FRAG_MAX_FRAG)
		return -EINVAL;
	const struct fam fa = fam4(p, frame_l2_len(s.link));
	int rc = run_passes(&fa, s.link, duration_ms, min_passes, res, &bad);
	if (rc != 0)
		return rc;
	res->seconds = res->chain_seconds + res->linear_seconds;
	if (res->completed != res->offered)
		fail(res, "DPDK reassembled %llu of %llu datagrams",
		     (unsigned long long)res->completed,
		     (unsigned long long)res->offered);
	if (res->engine_completed != res->offered || bad != 0)
		fail(res,
		     "the engine, in the anchor's loop, reassembled %llu of "
		     "%llu datagrams (%llu of the wrong length)",
		     (unsigned long long)res->engine_completed,
		     (unsigned long long)res->offered, (unsigned long long)bad);
	res->engine_datagrams_per_sec =
		per_sec(res->engine_completed, res->engine_seconds);
	res->datagrams_per_sec = per_sec(res->completed, res->seconds);
	res->chain_datagrams_per_sec =
		per_sec(res->completed, res->chain_seconds);
	res->filled_datagrams_per_sec =
		per_sec(res->completed, res->seconds + res->fill_seconds);
	return 0;
}

int bench_rte_frag_probe(enum bench_reasm_workload w, uint64_t *offered,
			 uint64_t *completed)
{
	struct bench_reasm_setup s;
	const struct frame_pool *p = bench_reasm_pool(w, &s);

	if (!started || p == NULL || offered == NULL || completed == NULL)
		return -EINVAL;
	const struct fam fa = fam4(p, frame_l2_len(s.link));
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
		set_id(&fa, f, 0);
		struct rte_mbuf *m = to_mbuf(f, fa.l2, IP_HDR);
		if (m == NULL) {
			rc = -ENOMEM;
			break;
		}
		struct rte_mbuf *o =
			feed(&fa, tbl, &dr, m, j * BENCH_REASM_TICK_NS);
		if (o != NULL) {
			(*completed)++;
			rte_pktmbuf_free(o);
		}
	}
	rte_ip_frag_table_destroy(tbl);
	return rc;
}

int bench_rte_frag_run6(unsigned duration_ms, unsigned min_passes,
			struct bench_rte_frag6_result *res)
{
	struct bench_reasm_setup s;
	const struct frame_pool *p3 = bench_reasm_pool(BENCH_REASM_3F, &s);
	uint64_t bad = 0;

	if (res == NULL)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	if (!started || p3 == NULL)
		return -EINVAL;
	if (!v6.built && v6_build(p3->info.datagrams, s.link) != 0)
		return -ENOMEM;
	const struct fam fa = { .frames = v6.frames,
				.datagrams = v6.datagrams,
				.frags = V6_FRAGS,
				.l2 = v6.l2,
				.l3 = IP6_HDR + FRAG6_HDR,
				.want = v6.l2 + IP6_HDR + V6_UDP_LEN,
				.v6 = true };
	struct bench_rte_frag_result *d = &res->dpdk;
	int rc = run_passes(&fa, s.link, duration_ms, min_passes, d, &bad);
	/* The checks and the engine's side belong to the whole result. */
	res->compared = d->compared;
	res->mismatches = d->mismatches;
	res->errors = d->errors;
	memcpy(res->error, d->error, sizeof(res->error));
	if (rc != 0)
		return rc;
	res->passes = d->passes;
	res->offered = d->offered;
	res->engine_seconds = d->engine_seconds;
	res->engine_completed = d->engine_completed;
	d->seconds = d->chain_seconds + d->linear_seconds;
	if ((d->completed != res->offered ||
	     res->engine_completed != res->offered || bad != 0) &&
	    res->errors++ == 0)
		snprintf(res->error, sizeof(res->error),
			 "IPv6: of %llu datagrams DPDK reassembled %llu, the "
			 "engine %llu (%llu of the wrong length)",
			 (unsigned long long)res->offered,
			 (unsigned long long)d->completed,
			 (unsigned long long)res->engine_completed,
			 (unsigned long long)bad);
	d->datagrams_per_sec = per_sec(d->completed, d->seconds);
	d->chain_datagrams_per_sec = per_sec(d->completed, d->chain_seconds);
	res->engine_datagrams_per_sec =
		per_sec(res->engine_completed, res->engine_seconds);
	res->seconds = d->seconds + res->engine_seconds;
	return 0;
}
