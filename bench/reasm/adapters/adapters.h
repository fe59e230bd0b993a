/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file adapters.h
 * @brief The C side of the reassembly benchmark, callable from C++: one
 *        call runs one timed experiment of examples/reasm's engine on one
 *        workload, with one lock configuration and one number of workers.
 *
 * Plain C, no atomics: bench_reasm.cc includes it. Everything that touches
 * the engine lives in the C files beside it, compiled as C11.
 *
 * Frames (built once, by bench_reasm_setup(), before anything is timed):
 * IPv4 fragments of UDP datagrams, MTU 1500 (1480 payload bytes per
 * fragment), with correct IPv4 header and UDP checksums, raw IPv4
 * (REASM_LINK_RAW) or Ethernet. A pool of D datagrams per workload, about
 * pool_mib MiB of frames, and a pool of flood fragments: each flood
 * fragment is a distinct datagram (its own source address), offset 0,
 * MF set, 1480 payload bytes, and is never completed.
 *
 * One experiment (bench_reasm_run):
 *   1. create an engine (policy STRICT, mem_high 4 MiB, mem_low 3 MiB,
 *      `stripes` lock stripes: 1 is the global lock) and one
 *      struct reasm_worker per worker thread;
 *   2. fan the pool out: fragment k of datagram i goes to worker
 *      (i + k) % W, in datagram order, as a load-balancing fanout would,
 *      so workers contend on the same datagrams; with the flood, each
 *      worker's list has one flood fragment after every `flood_every` of
 *      its legitimate ones;
 *   3. with the flood, fill the engine with flood fragments from the
 *      calling thread until it first evicts (the steady state of a flood
 *      from the first timed fragment on);
 *   4. start the workers (with `pin`, one per CPU when W <= CPUs).
 *      They run the pool as passes: one untimed warm-up pass, then timed
 *      passes until duration_ms has passed (at least min_passes, and
 *      with the flood until it has brought 2 * mem_high). Pass p
 *      rewrites the IP ID of each frame to p (header checksum updated)
 *      just before handing it over, so every pass is a fresh set of
 *      datagrams. All workers end a pass together (a barrier), and within
 *      a pass no worker runs more than a window of about 1 MiB of
 *      legitimate datagrams ahead of the slowest (a bounded receive
 *      queue): fragments of one datagram stay close in time, as they are
 *      on a wire;
 *   5. join, destroy the engine, and check the books (below).
 *
 * Clock: each frame's now_ns is a virtual capture time, 100 ns per
 * legitimate fragment of the stream (flood fragments share the time of the
 * legitimate one before them), so LRU ages are distinct and no datagram
 * ever reaches the 30 s timeout.
 *
 * The books: every frame is a fragment, and after reasm_destroy()
 *   ReasmReqds == frames given == frags_reassembled + frags_dropped
 *                 + frags_discarded + frags_pending,
 * ReasmOKs == emitted == datagrams the emit callbacks saw, frags_reassembled
 * == ReasmOKs * fragments per datagram, nothing passed through, no
 * timeout. Every output is a legitimate datagram of the right length, key
 * and header checksum, and one in 256 has its payload compared byte for
 * byte. Without the flood, every datagram of every pass completes exactly
 * once; with it, none completes more than once per pass and the flood
 * must have caused evictions. Any mismatch counts as an error.
 *
 * Thread safety: bench_reasm_run() may not run concurrently with itself
 * or with bench_reasm_setup().
 */
#ifndef GRAIN_BENCH_REASM_ADAPTERS_H
#define GRAIN_BENCH_REASM_ADAPTERS_H

#include "../../common/sysinfo.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_REASM_MAX_WORKERS 16u
#define BENCH_REASM_MTU 1500u
#define BENCH_REASM_FRAG_PAYLOAD 1480u /**< per fragment but the last */
/** The engine's defaults, which every experiment uses. */
#define BENCH_REASM_MEM_HIGH (4u << 20)
#define BENCH_REASM_MEM_LOW (3u << 20)
/** Virtual time between two legitimate fragments of the stream. */
#define BENCH_REASM_TICK_NS 100u

/** The datagrams. */
enum bench_reasm_workload {
	BENCH_REASM_64K, /**< UDP datagrams of 65507 data bytes: 45 fragments */
	BENCH_REASM_3F,	 /**< 4400-byte IP payload: 3 fragments */
	BENCH_REASM_WORKLOAD_COUNT
};

/** Link types the frames can be built with. */
enum bench_reasm_link {
	BENCH_REASM_LINK_RAW,	   /**< raw IPv4, DLT_RAW */
	BENCH_REASM_LINK_ETHERNET, /**< Ethernet II, no VLAN tag */
	BENCH_REASM_LINK_COUNT
};

/** Built once for every experiment. */
struct bench_reasm_setup {
	enum bench_reasm_link link;
	unsigned pool_mib;    /**< MiB of legitimate frames per workload */
	unsigned flood_every; /**< legitimate fragments per flood fragment */
	unsigned max_workers; /**< the largest worker count to be run */
};

/** Static facts about one workload's pool (valid after setup). */
struct bench_reasm_workload_info {
	const char *name;	   /**< "64K", "3F" */
	unsigned frags;		   /**< fragments per datagram */
	unsigned ip_payload;	   /**< IP payload bytes of a datagram */
	unsigned datagrams;	   /**< D: datagrams in the pool (a pass) */
	uint64_t frames;	   /**< legitimate frames in a pass */
	uint64_t frame_bytes;	   /**< their bytes, link headers included */
	uint64_t flood_frames;	   /**< flood frames in a pass */
	uint64_t flood_bytes;	   /**< their bytes */
	unsigned window_datagrams; /**< how far a worker may run ahead */
};

struct bench_reasm_config {
	enum bench_reasm_workload workload;
	bool flood;
	unsigned workers;     /**< 1 .. BENCH_REASM_MAX_WORKERS */
	unsigned stripes;     /**< engine lock stripes: 1 (global), 64, ... */
	unsigned duration_ms; /**< timed part, rounded up to whole passes */
	unsigned min_passes;  /**< timed passes at least (>= 1) */
	bool pin;	      /**< pin the workers one per CPU when they
				   fit (W <= CPUs) */
	bool whole_datagrams; /**< fan out datagram i whole to worker
				   i % W instead (a diagnostic: no two
				   workers share a datagram) */
};

struct bench_reasm_result {
	double seconds;	    /**< timed passes, CLOCK_MONOTONIC */
	unsigned passes;    /**< timed passes */
	uint64_t offered;   /**< legitimate datagrams in the timed passes */
	uint64_t completed; /**< of them, reassembled and emitted */
	double datagrams_per_sec; /**< completed / seconds */
	double gbit_per_sec;	  /**< completed IP payload bits / seconds */
	double complete_pct;	  /**< 100 * completed / offered */
	uint64_t frames;	  /**< frames given in the timed passes */
	uint64_t flood_frames;	  /**< ... of them, flood */
	uint64_t flood_bytes;	  /**< flood bytes in the timed passes */
	uint64_t evictions;	  /**< datagrams evicted in the timed passes */
	uint64_t evictions_all;	  /**< ... in the whole experiment */
	uint64_t prefill_frames;  /**< flood frames to fill the engine */
	uint64_t gate_waits;	  /**< times a worker waited for the
				       slowest one (the window), timed
				       passes */
	double wait_pct;	  /**< share of the workers' time spent
				       waiting for each other (window and
				       end of pass), timed passes */
	bool pinned;		  /**< one worker per CPU */
	uint64_t bytes_peak;	  /**< the engine's peak bytes held */
	double setup_seconds;	  /**< lists, engine, prefill */
	/** Correctness failures (see the top of this file). Must be 0. */
	uint64_t errors;
	char error[240]; /**< the first one, in words */
};

/** Build the frame pools. Call once, before any run. @return 0, -EINVAL,
 * -ENOMEM. */
int bench_reasm_setup(const struct bench_reasm_setup *s);

/** Free the pools. */
void bench_reasm_teardown(void);

/** Facts about @p w, or NULL if out of range or before setup. */
const struct bench_reasm_workload_info *
bench_reasm_workload_facts(enum bench_reasm_workload w);

/** Whether bench_reasm_run(@p cfg) is legal after the setup made. */
bool bench_reasm_config_ok(const struct bench_reasm_config *cfg);

/**
 * bench_reasm_run - one experiment, as described at the top of this file.
 * @return 0 (then read @p res, errors included), -EINVAL if
 *         !bench_reasm_config_ok(), -ENOMEM, or another negative errno if
 *         the engine or a thread could not be created.
 */
int bench_reasm_run(const struct bench_reasm_config *cfg,
		    struct bench_reasm_result *res);

/** "raw IPv4", "Ethernet". */
const char *bench_reasm_link_name(enum bench_reasm_link link);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_REASM_ADAPTERS_H */
