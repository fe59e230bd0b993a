/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nids.c - the libnids anchor of the reassembly benchmark: libnids's IPv4
 * defragmentation (Linux 2.0's ip_defrag, as libnids carries it) on the
 * frames of the 3F case, one thread, beside the engine in the same loop
 * (adapters.h says what a run does and times).
 *
 * libnids keeps its state in globals and is started once per process
 * (nids_init() on a dead pcap handle of the pool's link type, no port
 * scan detection); every frame goes through nids_pcap_handler(), the call
 * its own capture loop makes, stamped with the engine's virtual clock.
 * libnids has no call that tears it down.
 */
#define _GNU_SOURCE /* inet.h */
#include "frames.h"

#include "reasm.h"

#include "common/sysinfo.h"

#include <nids.h>
#include <pcap/pcap.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 64u	  /* datagrams per timed batch */
#define MAX_PASSES 60000u /* IP IDs and the virtual clock */
#define START_S 1000000u  /* the virtual clock's second 0 in pcap time */

static bool started;
static const struct frame_pool *nids_pool; /* the run's, for on_ip() */
static uint64_t nids_outs, nids_bad;	   /* libnids's datagrams */

/* libnids's IP callback: every whole IP packet it has, reassembled or
 * not (every frame here is a fragment, so only reassembled ones). @p len
 * is libnids's accounting size; the IP header has the length. */
static void on_ip(struct ip *ip, int len)
{
	(void)len;
	nids_outs++;
	nids_bad += inet_rd16((const uint8_t *)ip + 2) !=
		    nids_pool->want - nids_pool->l2;
}

int bench_nids_start(char *why, size_t n)
{
	if (started)
		return 0;
	const struct frame_pool *p = frame_pool_of(BENCH_REASM_3F);
	if (p == NULL) {
		snprintf(why, n, "no frame pool");
		return -1;
	}
	pcap_t *dead = pcap_open_dead(p->l2 ? DLT_EN10MB : DLT_RAW, 65535);
	if (dead == NULL) {
		snprintf(why, n, "pcap_open_dead failed");
		return -1;
	}
	nids_params.pcap_desc = dead;
	nids_params.scan_num_hosts = 0; /* no port scan detection */
	nids_params.n_tcp_streams = 1;
	nids_params.n_hosts = 4096;
	if (!nids_init()) {
		snprintf(why, n, "nids_init: %s", nids_errbuf);
		pcap_close(dead);
		return -1;
	}
	/* nids.h declares the callback as a void *: POSIX lets a function
	 * pointer pass through one, ISO C does not. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
	nids_register_ip(on_ip);
#pragma GCC diagnostic pop
	started = true;
	return 0;
}

static uint64_t engine_outs, engine_bad;
static uint32_t engine_want;

static void on_emit(struct reasm_out *o, void *arg)
{
	(void)arg;
	engine_outs++;
	engine_bad += o->len != engine_want;
	reasm_out_free(o);
}

/* Frame @p f to libnids at virtual time @p vt (ticks). */
static void nids_feed(const struct pool_frame *f, uint64_t vt)
{
	uint64_t ns = vt * FRAME_TICK_NS;
	struct pcap_pkthdr h;

	h.ts.tv_sec = (time_t)(START_S + ns / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
	h.caplen = f->len;
	h.len = f->len;
	nids_pcap_handler(NULL, &h, f->data);
}

int bench_nids_run(enum bench_reasm_workload wl, unsigned duration_ms,
		   unsigned min_passes, struct bench_nids_result *res)
{
	const struct frame_pool *p = frame_pool_of(wl);
	struct reasm_config rcfg = { .policy = REASM_STRICT,
				     .mem_high = FRAME_MEM_HIGH,
				     .mem_low = FRAME_MEM_LOW };
	struct reasm *r = NULL;
	struct reasm_worker w;
	double tn = 0, te = 0;
	uint64_t vt = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	if (!started || p == NULL || p->v6)
		return -EINVAL;
	rcfg.link = p->dlt;
	rc = reasm_create(&r, &rcfg);
	if (rc == 0)
		rc = reasm_worker_init(&w, r, on_emit, NULL);
	nids_pool = p;
	nids_outs = nids_bad = engine_outs = engine_bad = 0;
	engine_want = p->want;
	const unsigned D = p->info.datagrams, F = p->info.frags;
	double start = 0;
	uint64_t warm_n = 0, warm_e = 0;
	/* Pass 0 warms both up, untimed; each pass has its own IP ID. */
	for (unsigned pass = 0; rc == 0 && pass < MAX_PASSES; pass++) {
		for (size_t j = 0; j < (size_t)D * F; j++)
			frame_set_id(p->legit[j].data + p->l2, (uint16_t)pass,
				     p->legit[j].csum0);
		for (unsigned d0 = 0; d0 < D; d0 += BATCH) {
			unsigned d1 = d0 + BATCH < D ? d0 + BATCH : D;
			const struct pool_frame *f = &p->legit[(size_t)d0 * F];
			const size_t nin = (size_t)(d1 - d0) * F;
			double a = bench_now_s();
			for (size_t j = 0; j < nin; j++)
				nids_feed(&f[j], vt + j);
			double b = bench_now_s();
			for (size_t j = 0; j < nin; j++)
				(void)reasm_input(&w, f[j].data, f[j].len,
						  f[j].len,
						  (vt + j) * FRAME_TICK_NS);
			double e = bench_now_s();
			vt += nin;
			if (pass > 0) {
				tn += b - a;
				te += e - b;
			}
		}
		if (pass == 0) {
			warm_n = nids_outs;
			warm_e = engine_outs;
			start = bench_now_s();
			continue;
		}
		res->passes = pass;
		if (pass >= min_passes &&
		    (bench_now_s() - start) * 1e3 >= duration_ms)
			break;
	}
	uint64_t offered = (uint64_t)D * (res->passes + 1);
	if (rc == 0 && (nids_outs != offered || nids_bad != 0 ||
			engine_outs != offered || engine_bad != 0))
		frame_fail(&res->errors, res->error,
			   "of %" PRIu64
			   " datagrams libnids reassembled %" PRIu64
			   " (%" PRIu64 " of the wrong length), the engine "
			   "%" PRIu64 " (%" PRIu64 ")",
			   offered, nids_outs, nids_bad, engine_outs,
			   engine_bad);
	res->seconds = tn;
	res->datagrams_per_sec = tn > 0 ? (double)(nids_outs - warm_n) / tn : 0;
	res->engine_datagrams_per_sec =
		te > 0 ? (double)(engine_outs - warm_e) / te : 0;
	reasm_destroy(r, NULL);
	return rc;
}
