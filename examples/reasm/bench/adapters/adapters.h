/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * adapters.h - the C side of the reassembly benchmark, called from
 * bench_reasm.cc (plain C, no atomics): the frame pools (frames.c), one
 * experiment of examples/reasm's engine on them with W worker threads
 * (harness.c, whose top says what a run does and checks), and DPDK's
 * librte_ip_frag on the same frames as an anchor (rte_frag.c, linked only
 * where DPDK was found: GRAIN_BENCH_HAVE_RTE_FRAG).
 *
 * The frames, built once by bench_reasm_setup() before anything is timed:
 * UDP datagrams cut into fragments at MTU 1500, with correct header and
 * UDP checksums, as raw IP or Ethernet frames, about pool_mib MiB per
 * workload; 64K and 3F also have a pool of flood fragments, each a
 * distinct datagram (its own source address) at offset 0 with MF set and
 * 1480 payload bytes, never completed.
 *
 * Thread safety: none; call everything from one thread.
 */
#ifndef GRAIN_BENCH_REASM_ADAPTERS_H
#define GRAIN_BENCH_REASM_ADAPTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_REASM_MAX_WORKERS 16u
#define BENCH_REASM_ERROR_LEN 240u

enum bench_reasm_workload {
	BENCH_REASM_64K,   /* UDP datagrams of 65507 data bytes: 45 fragments */
	BENCH_REASM_3F,	   /* 4400-byte IP payload: 3 fragments */
	BENCH_REASM_3F_V6, /* IPv6, as many datagrams as 3F, of 4296 UDP
			      bytes in 3 fragments (1448 + 1448 + 1400), the
			      Fragment header right after the IPv6 header:
			      for the anchor only */
	BENCH_REASM_WORKLOAD_COUNT
};

enum bench_reasm_link { BENCH_REASM_LINK_RAW, BENCH_REASM_LINK_ETHERNET };

struct bench_reasm_setup {
	enum bench_reasm_link link;
	unsigned pool_mib;    /* MiB of legitimate frames per workload */
	unsigned flood_every; /* legitimate fragments per flood fragment */
	unsigned max_workers; /* the largest worker count to be run */
};

/* One workload's pool, valid after bench_reasm_setup(). */
struct bench_reasm_workload_info {
	const char *name;	   /* "64K", "3F", "3F-v6" */
	unsigned frags;		   /* fragments per datagram */
	unsigned ip_payload;	   /* bytes after the IP header(s) */
	unsigned datagrams;	   /* datagrams in the pool (a pass) */
	uint64_t frames;	   /* legitimate frames in a pass */
	uint64_t flood_frames;	   /* flood frames in the pool */
	unsigned window_datagrams; /* about 1 MiB of them: how far a worker
				      may run ahead of the slowest */
};

struct bench_reasm_config {
	enum bench_reasm_workload workload; /* 64K or 3F */
	bool flood;
	unsigned workers;     /* 1 .. the setup's max_workers */
	unsigned stripes;     /* engine lock stripes: 1 (global), 64, ... */
	unsigned duration_ms; /* timed part, rounded up to whole passes */
	unsigned min_passes;  /* timed passes at least (>= 1) */
	bool pin;	      /* one worker per CPU when W <= CPUs */
	bool whole_datagrams; /* datagram i whole to worker i % W (a
				 diagnostic: no two workers share one) */
};

struct bench_reasm_result {
	double seconds;		  /* the timed passes */
	unsigned passes;	  /* timed passes */
	double datagrams_per_sec; /* legitimate datagrams completed / s */
	double gbit_per_sec;	  /* their IP payload bits / s, in 1e9 */
	double complete_pct;	  /* completed / offered, in % */
	uint64_t evictions;	  /* datagrams evicted in the timed passes */
	double flood_fills;	  /* flood bytes in them / mem_high */
	uint64_t gate_waits;	  /* times a worker waited at the window */
	double wait_pct; /* share of the workers' time spent waiting for
				each other (window and end of pass) */
	uint64_t errors; /* failed checks; must be 0 */
	char error[BENCH_REASM_ERROR_LEN]; /* the first, in words */
};

/* Build the pools (again). @return 0, -EINVAL or -ENOMEM. */
int bench_reasm_setup(const struct bench_reasm_setup *s);
void bench_reasm_teardown(void);

/* Facts about @p w; NULL before setup or out of range. */
const struct bench_reasm_workload_info *
bench_reasm_workload_facts(enum bench_reasm_workload w);

/* One experiment (harness.c). @return 0 (then read @p res, errors
 * included), -EINVAL for a config the setup cannot run, -ENOMEM, or
 * another negative errno if the engine or a thread could not start. */
int bench_reasm_run(const struct bench_reasm_config *cfg,
		    struct bench_reasm_result *res);

/*
 * The anchor (rte_frag.c): DPDK's EAL started in this process once by
 * bench_rte_frag_start() (no hugepages, no PCI scan, no shared files, no
 * telemetry, one lcore, the caller's CPU affinity restored), tried first
 * in a child process, so that an EAL that aborts leaves the benchmark
 * running: on failure the reason is in @p why and the anchor is left out.
 *
 * bench_rte_frag_run() on 3F or 3F-v6, one thread: a fresh table (4096
 * buckets of 16, timeout 30 s on the engine's virtual clock); an untimed
 * checking pass, every datagram reassembled by DPDK and by a fresh engine
 * (strict, one worker) and the two compared byte for byte; then timed
 * passes, each with its own IP ID, in batches of 64 datagrams: the copy
 * of the frames into mbufs (a NIC's DMA) timed apart ("filled"),
 * rte_*_frag_reassemble_packet and freeing the chain ("chain"), and
 * making each chain one contiguous datagram as the engine emits it (a
 * malloc'd copy, the IPv4 header checksum that DPDK leaves 0 filled in);
 * then the same batch through an engine (strict, one worker) in the same
 * loop, timed apart. bench_rte_frag_probe() feeds one checking pass of a
 * pool past DPDK's fragment limit (64K) and counts what it returns.
 */
struct bench_rte_frag_result {
	double seconds;		  /* of the case: DPDK's contiguous path (3F-v6:
			     and the engine's) */
	unsigned passes;	  /* timed passes */
	double datagrams_per_sec; /* DPDK, contiguous */
	double chain_datagrams_per_sec;	 /* DPDK, mbuf chain */
	double filled_datagrams_per_sec; /* contiguous, copy into mbufs too */
	double engine_datagrams_per_sec; /* the engine in the same loop */
	uint64_t compared, mismatches;	 /* datagrams of the checking pass */
	uint64_t errors;		 /* mismatches included; must be 0 */
	char error[BENCH_REASM_ERROR_LEN];
};

unsigned bench_rte_frag_max_frags(void);       /* RTE_LIBRTE_IP_FRAG_MAX_FRAG */
int bench_rte_frag_start(char *why, size_t n); /* 0 or -1 */
int bench_rte_frag_run(enum bench_reasm_workload w, unsigned duration_ms,
		       unsigned min_passes, struct bench_rte_frag_result *res);
int bench_rte_frag_probe(enum bench_reasm_workload w, uint64_t *offered,
			 uint64_t *completed);
void bench_rte_frag_stop(void);

/*
 * The libnids anchor (nids.c, linked only where libnids was found:
 * GRAIN_BENCH_HAVE_NIDS): libnids's IPv4 defragmentation, started once in
 * this process by bench_nids_start() after bench_reasm_setup() (on a dead
 * pcap handle of the pools' link type; on failure the reason is in
 * @p why). bench_nids_run() on 3F, one thread: an untimed warm-up pass,
 * then timed passes, each with its own IP ID, in batches of 64
 * datagrams: each frame through nids_pcap_handler() (libnids's own
 * capture loop's call), timed; then the same batch through an engine
 * (strict, one worker, emitting reasm_outs) in the same loop, timed
 * apart. Every datagram of every pass must come out of both once, of the
 * right length.
 */
struct bench_nids_result {
	double seconds;			 /* libnids's timed part */
	unsigned passes;		 /* timed passes */
	double datagrams_per_sec;	 /* libnids */
	double engine_datagrams_per_sec; /* the engine in the same loop */
	uint64_t errors;
	char error[BENCH_REASM_ERROR_LEN];
};

int bench_nids_start(char *why, size_t n); /* 0 or -1 */
int bench_nids_run(enum bench_reasm_workload w, unsigned duration_ms,
		   unsigned min_passes, struct bench_nids_result *res);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_REASM_ADAPTERS_H */
