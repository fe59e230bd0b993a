/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file rte_frag.h
 * @brief Anchor of the reassembly benchmark: DPDK's librte_ip_frag
 *        (rte_ipv4_frag_reassemble_packet) on the frames the engine cases
 *        use, one thread, with its outputs compared byte for byte with the
 *        engine's.
 *
 * Plain C, callable from C++ (bench_reasm.cc). Built only where DPDK was
 * found (GRAIN_BENCH_HAVE_RTE_FRAG).
 *
 * DPDK's environment (EAL) is started in this process once, by
 * bench_rte_frag_start(): no hugepages (--no-huge -m 256), no PCI scan,
 * no shared config files (--no-shconf: --in-memory needs hugepages), no
 * telemetry, one lcore (the first CPU the process may use), and the
 * calling thread's CPU affinity restored afterwards so that the engine's
 * workers are placed as before. It is tried first in a child process,
 * so that an EAL that aborts cannot take the benchmark with it; when it
 * cannot start, the reason is returned and the anchor is left out.
 *
 * One run (bench_rte_frag_run), on the 3F pool of the harness (3
 * fragments per datagram: within RTE_LIBRTE_IP_FRAG_MAX_FRAG):
 *   1. a fresh fragment table (4096 buckets of 16 entries, timeout 30 s
 *      on the same virtual clock as the engine's: 100 ns per fragment);
 *   2. an untimed checking pass: every datagram of the pool reassembled
 *      by DPDK and by a fresh engine (examples/reasm, strict, one worker,
 *      the harness's memory limits) from the same frames, and the two
 *      datagrams compared byte for byte (link header, IPv4 header and
 *      payload);
 *   3. timed passes, each with its own IP ID as in the engine cases,
 *      in batches of 64 datagrams: copying the frames into mbufs (what a
 *      NIC does by DMA) is not timed; rte_ipv4_frag_reassemble_packet on
 *      each is ("chain" time: DPDK returns the datagram as an mbuf
 *      chain), and so is making each reassembled chain one contiguous
 *      datagram as the engine emits it ("linear" time: a malloc'd copy
 *      of the chain, the IPv4 header checksum filled in, since DPDK
 *      leaves it 0 for the NIC, then freed). The fill is timed apart,
 *      for a third figure: the whole path of software that has to copy
 *      its frames into mbufs first. After DPDK, each batch also goes
 *      through an engine (strict, one worker), timed apart
 *      (engine_datagrams_per_sec).
 *
 * bench_rte_frag_probe() feeds one pass of a pool that DPDK cannot
 * reassemble (64K: 45 fragments per datagram) and counts what comes out.
 *
 * Thread safety: none; call from one thread, not concurrently with
 * bench_reasm_run().
 */
#ifndef GRAIN_BENCH_REASM_RTE_FRAG_H
#define GRAIN_BENCH_REASM_RTE_FRAG_H

#include "adapters.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Datagrams per timed batch. */
#define BENCH_RTE_FRAG_BATCH 64u

struct bench_rte_frag_result {
	double seconds;			/**< chain + linear, the timed parts */
	double chain_seconds;		/**< rte_ipv4_frag_reassemble_packet */
	double linear_seconds;		/**< chain -> contiguous datagram */
	double fill_seconds;		/**< frames copied into mbufs (not in
				    seconds) */
	unsigned passes;		/**< timed passes */
	uint64_t offered;		/**< datagrams in the timed passes */
	uint64_t completed;		/**< ... returned whole by DPDK */
	double datagrams_per_sec;	/**< completed / seconds */
	double chain_datagrams_per_sec; /**< completed / chain_seconds */
	/** completed / (seconds + fill_seconds) */
	double filled_datagrams_per_sec;
	/** The engine (strict, one worker) in the same loop, on the same
	 * frames after DPDK's turn in each batch: a cross-check of the
	 * engine cases' figure, without their harness (IP ID rewrites and
	 * output checks in the timed part). */
	double engine_seconds;
	uint64_t engine_completed;
	double engine_datagrams_per_sec;
	uint64_t compared;   /**< datagrams compared with the engine's */
	uint64_t mismatches; /**< ... that differ or are missing on a side */
	/** Failures (mismatches included). Must be 0. */
	uint64_t errors;
	char error[240]; /**< the first one, in words */
};

/** RTE_LIBRTE_IP_FRAG_MAX_FRAG of the DPDK built against. */
unsigned bench_rte_frag_max_frags(void);

/** Start DPDK's EAL (see the top). @return 0, or -1 with the reason in
 * @p why (@p n bytes). Once started, later calls return 0. */
int bench_rte_frag_start(char *why, size_t n);

/** One run (see the top) of @p w, at least @p min_passes timed passes and
 * @p duration_ms. @return 0 (then read @p res, errors included), -EINVAL
 * (not started, no setup, or a workload with more fragments than DPDK
 * takes), -ENOMEM, or another negative errno from DPDK or the engine. */
int bench_rte_frag_run(enum bench_reasm_workload w, unsigned duration_ms,
		       unsigned min_passes, struct bench_rte_frag_result *res);

/** One untimed pass of @p w through a fresh table: the datagrams offered
 * and those DPDK returned, in @p offered and @p completed. @return 0, or
 * as bench_rte_frag_run. */
int bench_rte_frag_probe(enum bench_reasm_workload w, uint64_t *offered,
			 uint64_t *completed);

/** IPv6: the engine and DPDK side by side, both timed here. */
struct bench_rte_frag6_result {
	double seconds;	  /**< both sides' timed parts */
	unsigned passes;  /**< timed passes */
	uint64_t offered; /**< datagrams per side in the timed passes */
	/** DPDK's side, as in bench_rte_frag_run (compared and mismatches
	 * are below). */
	struct bench_rte_frag_result dpdk;
	double engine_seconds;		 /**< reasm_input, outputs freed */
	uint64_t engine_completed;	 /**< datagrams it emitted */
	double engine_datagrams_per_sec; /**< engine_completed / seconds */
	uint64_t compared, mismatches;	 /**< as in bench_rte_frag_run */
	uint64_t errors;		 /**< mismatches included; must be 0 */
	char error[240];
};

/**
 * bench_rte_frag_run6 - IPv6 3F: datagrams as many as the 3F pool's, of
 * 4296 UDP bytes in 3 fragments (1448 + 1448 + 1400), each fragment a
 * Fragment header right after the IPv6 header (the only layout
 * librte_ip_frag takes), built on first use. A checking pass as in
 * bench_rte_frag_run (the engine's output and DPDK's linearised one byte
 * for byte), then timed passes, in batches: DPDK as there, and the
 * engine (strict, one worker, the harness's limits) on the same frames,
 * timed by the same clock around reasm_input (its emit callback counts,
 * checks the length and frees). @return as bench_rte_frag_run.
 */
int bench_rte_frag_run6(unsigned duration_ms, unsigned min_passes,
			struct bench_rte_frag6_result *res);

/** Release what bench_rte_frag_start() took (the mbuf pool, the EAL). */
void bench_rte_frag_stop(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_REASM_RTE_FRAG_H */
