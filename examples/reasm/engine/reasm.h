/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file reasm.h
 * @brief The reassembly engine of examples/reasm: link-layer frames in,
 *        whole datagrams out. Built on grain's public API only: one
 *        grain_htab per address family holds the datagrams being
 *        reassembled (striped locks, byte watermarks, LRU eviction,
 *        timeouts as the table's TTL).
 *
 * Synchronization
 *
 * | call                         | may run concurrently with             |
 * |------------------------------|---------------------------------------|
 * | reasm_input, reasm_expire    | each other, from any number of        |
 * |                              |   threads, each with its own          |
 * |                              |   struct reasm_worker                 |
 * | reasm_stats_read             | nothing that uses a worker            |
 * | reasm_create, reasm_destroy  | nothing on the same engine            |
 *
 * Datagrams are keyed as Linux keys them: IPv4 {src, dst, id, protocol,
 * vlan}, IPv6 {src, dst, id, vlan}, where vlan is every VLAN tag's VID and
 * their count. Work on one datagram is serialized by
 * its stripe lock; the copy into the output buffer happens after the
 * datagram has left the table, with no lock held.
 *
 * Clock: every call takes `now` in nanoseconds of the caller's clock (the
 * capture time for files), so a run over a file is deterministic. A
 * datagram times out `timeout` after its first fragment arrived; later
 * fragments do not extend it. A fragment that finds its datagram past the
 * timeout retires it (a timeout) and starts a new one, whether or not
 * reasm_expire() ran in between.
 *
 * Work per fragment: a binary search over the datagram's pieces and a move
 * of at most 2 * max_frags piece descriptors (24 bytes each); appends at
 * the tail (in-order arrival) are O(1). max_frags is at most
 * REASM_MAX_FRAGS_LIMIT, so a crafted stream cannot make one fragment cost
 * more than that (no O(n) rescans of an unbounded list: FragmentSmack).
 * A fragment's payload is copied before the stripe lock is taken (the lock
 * covers bookkeeping only); duplicates and refused fragments keep nothing.
 *
 * Memory: a datagram is charged the bytes it actually holds (its state,
 * its piece array and a copy of each accepted fragment's payload), never a
 * 64 KiB buffer up front (Rose attack).
 */
#ifndef REASM_H
#define REASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Overlap policies. STRICT is Linux 4.19+ and RFC 5722; the others are
 * the target-based policies of Novak's "Target-Based Fragmentation
 * Reassembly" as Snort's frag3 and Suricata's defrag name them. For a new
 * fragment N = [ns, ne) overlapping held data P = [ps, pe) (the held
 * piece as it stands, possibly already trimmed), N's bytes win when:
 *   FIRST      never            LAST       always
 *   BSD        ns < ps          LINUX      ns <= ps
 *   WINDOWS    ns < ps && ne > pe
 *   SOLARIS    ns < ps && ne >= pe
 *   BSD_RIGHT  ps < ns ? pe < ne : pe <= ne
 * and P's bytes win otherwise. */
enum reasm_policy {
	REASM_STRICT = 0,
	REASM_FIRST,
	REASM_LAST,
	REASM_BSD,
	REASM_BSD_RIGHT,
	REASM_LINUX,
	REASM_WINDOWS,
	REASM_SOLARIS,
	REASM_POLICY_COUNT
};

/** "strict", "first", ...; NULL for an unknown value. */
const char *reasm_policy_name(enum reasm_policy p);
/** The policy called @p name; -1 if there is none. */
int reasm_policy_parse(const char *name);

/** Link types (the pcap DLT_ values). */
enum reasm_link {
	REASM_LINK_RAW = 12,	    /**< DLT_RAW: IPv4 or IPv6, no L2 header */
	REASM_LINK_PPP = 9,	    /**< DLT_PPP: optional 0xff 0x03, then the
				      PPP protocol (1 or 2 bytes) */
	REASM_LINK_PPP_SERIAL = 50, /**< DLT_PPP_SERIAL: as DLT_PPP */
	REASM_LINK_ETHERNET = 1,    /**< DLT_EN10MB, 0..REASM_MAX_VLAN_TAGS
				      802.1Q/802.1ad tags, then IPv4, IPv6
				      or a PPPoE session (0x8864) carrying
				      PPP's IPv4 (0x0021) or IPv6 (0x0057) */
	REASM_LINK_SLL = 113,	    /**< DLT_LINUX_SLL */
	REASM_LINK_SLL2 = 276,	    /**< DLT_LINUX_SLL2 */
	REASM_LINK_IPV4 = 228,	    /**< DLT_IPV4 */
	REASM_LINK_IPV6 = 229	    /**< DLT_IPV6 */
};

/** The deepest stack of 802.1Q/802.1ad tags (any mix of TPIDs 0x8100
 * and 0x88a8) the engine parses: the count and every VID are part of a
 * datagram's key. A frame with more is passed through unparsed
 * (counted vlan_too_deep). */
#define REASM_MAX_VLAN_TAGS 7u

/** Is @p dlt one the engine parses? */
bool reasm_link_supported(int dlt);

#define REASM_MAX_FRAGS_DEFAULT 128u
/** IPv4 IDs are 16 bits: a datagram whose source has since begun this
 * many others (half the ID space) is taken for an older one whose ID came
 * round again, and is discarded rather than completed with a newer
 * datagram's fragments. Sources are counted in 1024 hashed slots, so a
 * busy source sharing a slot only makes the check earlier. */
#define REASM_ID_DIST 32768u
#define REASM_MAX_FRAGS_LIMIT 8192u /* 65535 / 8, rounded up */

struct grain_alloc; /* <grain/common.h> */

/** Tunnels whose inner datagrams reasm_config.decap reassembles. */
enum reasm_decap {
	REASM_DECAP_GRE = 1u,  /**< IP protocol 47: GRE version 0 (RFC 2784,
				    2890: checksum, key and sequence fields)
				    carrying IPv4, IPv6 or PPP (0x880b), and
				    version 1 (RFC 2637, PPTP) carrying PPP */
	REASM_DECAP_IPIP = 2u, /**< IP protocols 4 and 41: 4in4, 6in4, 4in6,
				    6in6 */
	REASM_DECAP_ALL = 3u
};

/** Engine configuration; zero fields take the defaults shown. */
struct reasm_config {
	enum reasm_policy policy; /**< STRICT */
	int link;		  /**< a DLT_ value; required */
	uint64_t timeout_v4_ns;	  /**< 30 s */
	uint64_t timeout_v6_ns;	  /**< 60 s */
	size_t mem_high;	  /**< bytes per family; 4 MiB */
	size_t mem_low;		  /**< bytes per family; 3/4 of
				         mem_high (3 MiB) */
	bool mem_refuse;	  /**< refuse new datagrams above mem_high
				         (Linux) instead of evicting the
				         ones begun first */
	unsigned max_frags;	  /**< per datagram; 128; <= LIMIT */
	unsigned stripes;	  /**< lock stripes per table, power of
				         two; 64. 1 is the global lock */
	/** Allocation hooks for everything the engine holds (its tables,
	 * datagrams, payload buffers); NULL: the default hooks. Output frames
	 * are plain malloc() (reasm_out_free()): with the default hooks a
	 * reassembled datagram's output is the buffer it was assembled in. A failed allocation drops
	 * the fragment at hand (counted no_memory) and nothing else. The
	 * hooks must be thread-safe when several workers run. */
	const struct grain_alloc *alloc;
	/** REASM_DECAP_* bits; 0: tunnels are not opened. With a bit set,
	 * a whole (unfragmented) outer IPv4 or IPv6 packet of that tunnel
	 * whose inner packet is a fragment is handled as that fragment:
	 * the inner datagram is reassembled, keyed by its own header, and
	 * emitted with the outer headers of its offset-0 fragment (their
	 * length and checksum fields set to the whole; a datagram they
	 * cannot describe, past 65535 bytes, is discarded as too_big), or
	 * without them when decap_strip is set. One level of tunnel only. */
	unsigned decap;
	/** Emit decapsulated datagrams without their outer IP and tunnel
	 * headers: the link header (its EtherType or PPP protocol set to the
	 * inner family's) followed by the inner datagram. On DLT_IPV4 and
	 * DLT_IPV6, an inner datagram of the other family keeps its outer
	 * headers (the link type names the family). */
	bool decap_strip;
};

/** Counters. The ReasmX names are the kernel's (/proc/net/snmp). Every
 * fragment is accounted for exactly once:
 *   ReasmReqds == frags_reassembled + frags_dropped + frags_discarded
 *                 + frags_pending
 * (frags_pending: held when the engine was destroyed, or now). */
struct reasm_stats {
	uint64_t packets;	   /**< frames given to reasm_input */
	uint64_t passed;	   /**< not fragments: emitted unchanged */
	uint64_t ReasmReqds;	   /**< fragments received */
	uint64_t ReasmOKs;	   /**< datagrams reassembled */
	uint64_t ReasmFails;	   /**< datagrams abandoned, for any reason */
	uint64_t ReasmTimeout;	   /**< ... of them, timed out */
	uint64_t ReasmOverlaps;	   /**< STRICT: datagrams discarded for an
				      overlap; other policies: fragments
				      that overlapped held data */
	uint64_t duplicates;	   /**< fragments inside held data (dropped) */
	uint64_t evicted;	   /**< datagrams evicted (memory, the
				        ones begun first) */
	uint64_t refused;	   /**< fragments refused above mem_high */
	uint64_t too_big;	   /**< fragments or datagrams past 65535 */
	uint64_t too_many_frags;   /**< datagrams past max_frags */
	uint64_t bad_end;	   /**< datagrams discarded by the policy's
				      end rules (a second different last
				      fragment, data past the end), or for
				      a zero-length fragment */
	uint64_t past_end;	   /**< fragments dropped alone because they
				      disagreed with the datagram's end
				      (the end rules of BSD and of the
				      frag3-modelled policies) */
	uint64_t bad_ecn;	   /**< datagrams discarded: Not-ECT mixed
				      with ECT or CE */
	uint64_t id_wrapped;	   /**< IPv4 datagrams discarded: a fragment
				      came after its source had begun
				      REASM_ID_DIST other datagrams, so the
				      16-bit ID may have wrapped (Linux:
				      ipfrag_max_dist) */
	uint64_t truncated;	   /**< captures shorter than the packet */
	uint64_t malformed;	   /**< fragments with a broken header */
	uint64_t bad_checksum;	   /**< IPv4 fragments, wrong header checksum */
	uint64_t incomplete_chain; /**< IPv6 first fragments without the
				        whole header chain (RFC 7112) */
	uint64_t vlan_too_deep;	   /**< frames with more than
				      REASM_MAX_VLAN_TAGS VLAN tags, passed
				      through unparsed (of passed) */
	uint64_t ppp_other;	   /**< PPP frames (DLT_PPP, PPPoE, PPP in
				      GRE) of a protocol other than IPv4 and
				      IPv6: passed through (of passed) */
	uint64_t bad_link;	   /**< frames whose PPP or PPPoE header is
				      cut short or broken: passed through
				      (of passed) */
	uint64_t tunneled;	   /**< fragments found inside a tunnel
				      (reasm_config.decap; of ReasmReqds) */
	uint64_t bad_tunnel;	   /**< outer packets of an opened tunnel with
				      a broken or cut short GRE header, an
				      outer length past the frame or a wrong
				      outer IPv4 checksum: passed through
				      (of passed) */
	uint64_t atomic;	   /**< IPv6 atomic fragments (RFC 6946) */
	uint64_t nested_frag;	   /**< IPv6 datagrams (atomic fragments
				      included) whose fragmentable part holds
				      another Fragment header: STRICT
				      discards them (ReasmFails), as Linux
				      does; the other policies emit them
				      with the inner header in place */
	uint64_t bad_ext;	   /**< IPv6 datagrams (atomic fragments
				      included) with a header Linux refuses:
				      a Hop-by-Hop header anywhere but right
				      after the IPv6 header, or a Segment
				      Routing header (routing type 4),
				      judged on the offset-0 fragment's
				      headers: STRICT discards them
				      (ReasmFails), the other policies emit
				      them */
	uint64_t no_memory;	   /**< allocation failures */
	/* Of frags_dropped, by reason, beside the counters above that count
	 * only dropped fragments (duplicates, past_end, refused, malformed,
	 * bad_checksum, incomplete_chain); these nine add up to
	 * frags_dropped. */
	uint64_t frags_truncated; /**< fragments cut short by the capture
				       (of truncated, which counts every
				       frame) */
	uint64_t frags_too_big;	  /**< of too_big: fragments dropped (the
				       rest are datagrams discarded) */
	uint64_t frags_no_memory; /**< of no_memory: fragments dropped */
	uint64_t frags_reassembled, frags_dropped, frags_discarded;
	uint64_t frags_pending;
	uint64_t datagrams_pending; /**< in the tables */
	uint64_t emitted;	    /**< frames handed to the emit callback
				       or committed to the sink */
	uint64_t emitted_bytes;
	uint64_t bytes_held; /**< memory held now, both tables */
	uint64_t bytes_peak; /**< most held at once, as seen by a sample
				      every 64 fragments per worker and by
				      every reasm_stats_read(): a lower
				      bound of the true peak */
};

/** One output frame: same link type as the input. Owned by whoever got it
 * from the emit callback; free with reasm_out_free(). */
struct reasm_out {
	uint64_t ts_ns;	   /**< capture time of the packet that made it */
	uint32_t len;	   /**< bytes in data (wire length) */
	uint32_t orig_len; /**< length on the wire (== len unless a
			         truncated capture is passed through) */
	uint8_t dscp;	   /**< DSCP of the IP header (0 if not IP) */
	bool reassembled;  /**< false: passed through unchanged */
	uint8_t data[];
};

void reasm_out_free(struct reasm_out *out);

/** Receives each output frame (ownership passes to it). */
typedef void (*reasm_emit_fn)(struct reasm_out *out, void *arg);

/** An output frame's description: struct reasm_out without its bytes. */
struct reasm_meta {
	uint64_t ts_ns;	   /**< as reasm_out */
	uint32_t len;	   /**< bytes of the frame */
	uint32_t orig_len; /**< as reasm_out */
	uint8_t dscp;	   /**< as reasm_out */
	bool reassembled;  /**< as reasm_out */
};

/**
 * Zero-copy output: the engine writes a frame straight into memory its
 * consumer hands out, instead of into a reasm_out for the emit callback.
 * Optional: set struct reasm_worker.sink after reasm_worker_init().
 *
 * For each reassembled datagram and each frame passed through (IPv6
 * atomic fragments, rare, always take the emit callback), once every
 * check that can be made before writing has passed, the engine calls
 * reserve() with the frame's description @p m (every field final) and
 * @p lead, the first @p lead_len bytes of the frame exactly as they will
 * be written (lead_len <= m->len; at least the link-layer header up to
 * its type field for Ethernet, fewer on other link types, 0 for DLT_RAW).
 * reserve() returns m->len writable bytes, or NULL to decline: the engine
 * then builds the frame in a reasm_out and calls the emit callback, as
 * without a sink, so a declined frame loses nothing and is counted as it
 * would have been. On success the engine writes the whole frame there and
 * calls commit() with the same area and description, or, if the datagram
 * proves undeliverable while it is written (a nested IPv6 Fragment header
 * under REASM_STRICT, a tunnel length that overflows its field), calls
 * nothing: the reservation lapses, and the next reserve() may hand out the
 * same area. At most one reservation is open at a time.
 *
 * Both callbacks run on the thread inside reasm_input(), with no lock of
 * the engine held; a committed frame counts as emitted (emitted,
 * emitted_bytes) exactly as one handed to the emit callback.
 */
struct reasm_sink {
	uint8_t *(*reserve)(void *arg, const struct reasm_meta *m,
			    const uint8_t *lead, uint32_t lead_len);
	void (*commit)(void *arg, uint8_t *data, const struct reasm_meta *m);
	void *arg;
};

struct reasm;

/** Per-thread state: give each thread that calls reasm_input its own. */
struct reasm_worker {
	struct reasm *r;
	struct reasm_stats st; /* this worker's share */
	reasm_emit_fn emit;
	void *emit_arg;
	/* NULL (reasm_worker_init()'s): every frame goes to emit; else see
	 * struct reasm_sink. Set before the worker's first reasm_input(). */
	const struct reasm_sink *sink;
	/* private: fragments this worker put into datagrams / took out */
	uint64_t held_in, held_out;
	unsigned sample;
};

/**
 * reasm_create - make an engine.
 * @return 0; -EINVAL (unknown link type or policy, mem_low > mem_high,
 *         max_frags > REASM_MAX_FRAGS_LIMIT, stripes not a power of two);
 *         -ENOMEM. *rp untouched on error.
 */
int reasm_create(struct reasm **rp, const struct reasm_config *cfg);

/** reasm_destroy - free every datagram still held (counted as
 * frags_pending / datagrams_pending in the engine's stats, which
 * reasm_stats_read() no longer reaches: read them before, or pass @p st
 * to get the final totals including every registered worker). NULL: no-op. */
void reasm_destroy(struct reasm *r, struct reasm_stats *st);

/** reasm_worker_init - bind @p w to @p r; outputs go to @p emit. Registers
 * @p w so that reasm_stats_read() sums it. Not thread-safe against other
 * reasm_worker_init calls on the same engine; call before starting
 * threads. @return 0, -EINVAL, -ENOSPC (more than 64 workers). */
int reasm_worker_init(struct reasm_worker *w, struct reasm *r,
		      reasm_emit_fn emit, void *emit_arg);

/**
 * reasm_input - process one captured frame.
 * @frame: the bytes captured; @caplen of them; @wirelen: the length on the
 *         wire (caplen < wirelen is a truncated capture).
 * Non-fragments are emitted unchanged (a copy); fragments are held, and a
 * datagram they complete is emitted whole, with the link-layer header of
 * its offset-0 fragment. "Emitted": handed to the emit callback, or
 * committed to w->sink (struct reasm_sink). Each outcome is counted in
 * w->st.
 * @return 1 if something was emitted, 0 if not; never fails: every error
 *         is a counter. Thread safety: as the table at the top.
 */
int reasm_input(struct reasm_worker *w, const uint8_t *frame, uint32_t caplen,
		uint32_t wirelen, uint64_t now_ns);

/**
 * reasm_flow_of - which frames must reach the engine in order relative to
 * each other, for spreading a capture over workers deterministically.
 * @return -1 for a frame that is not a fragment the engine would hold
 *         (passed through, or dropped on sight): any worker may take it,
 *         in any order. Otherwise a value in [0, INT32_MAX]: frames with
 *         different values never change each other's outcome (except
 *         through the memory limits, mem_high and eviction). IPv4
 *         fragments share one value per source address slot (the
 *         REASM_ID_DIST count is kept per source), IPv6 fragments one per
 *         datagram (a keyed hash, so the values differ from one engine to
 *         the next). Feed the frames of one value to one worker in capture
 *         order and every datagram's outcome is that of one thread.
 * Thread safety: reads only the configuration; any thread, any time
 * between reasm_create() and reasm_destroy().
 */
int32_t reasm_flow_of(const struct reasm *r, const uint8_t *frame,
		      uint32_t caplen);

/** reasm_expire - time out datagrams whose first fragment is at least the
 * family's timeout older than @p now_ns. @return how many. Any thread with
 * a worker. */
unsigned reasm_expire(struct reasm_worker *w, uint64_t now_ns);

/** reasm_stats_read - the sum of every worker's counters and the engine's
 * own (timeouts, evictions), plus datagrams/bytes held now. Workers'
 * counters are plain fields: call it only while no thread is inside
 * reasm_input() or reasm_expire() (between bursts, or after joining). */
void reasm_stats_read(struct reasm *r, struct reasm_stats *st);

/** reasm_stats_shared - the counters the engine itself keeps, readable
 * from any thread at any time (the workers may be running): ReasmTimeout
 * and evicted as decided by the tables (timeouts a worker found itself
 * are in that worker's share), datagrams_pending, and bytes_held (the
 * tables' folded totals: within their fold lag of the exact figure).
 * Every other field of @p st is set to 0. */
void reasm_stats_shared(struct reasm *r, struct reasm_stats *st);

/** reasm_stats_json - write every counter of @p st as one JSON object.
 * @return 0 or -errno of the write. */
int reasm_stats_json(FILE *f, const struct reasm_stats *st);

/** reasm_stats_json_members - the members of reasm_stats_json()'s object
 * alone: one `  "name": value` per counter, separated by ",\n", with no
 * braces and no newline after the last, so that a caller can add members
 * of its own before closing the object. @return 0 or -EINVAL. */
int reasm_stats_json_members(FILE *f, const struct reasm_stats *st);

/** A named uint64_t member of a struct of counters, for the tables that
 * walk such a struct (reasm_stats here, live_stats in live.c). */
struct counter_field {
	const char *name;
	size_t offset;
};

#define COUNTER_FIELD(type, f)        \
	{                             \
#f, offsetof(type, f) \
	}

/** counters_json_members - one `<indent>"name": value` per field of
 * @p base named in @p fields (n of them), separated by ",\n", with no
 * newline after the last. Names are plain identifiers: nothing needs
 * escaping. */
void counters_json_members(FILE *f, const void *base,
			   const struct counter_field *fields, size_t n,
			   const char *indent);

/** counters_add - add each field of @p add named in @p fields (n of them)
 * to the same field of @p into. */
void counters_add(void *into, const void *add,
		  const struct counter_field *fields, size_t n);

/** reasm_stats_add - *@p into += *@p add, counter by counter, except
 * bytes_peak, which becomes the larger of the two (each one a lower bound
 * of its own peak, so the larger is one of the total's). */
void reasm_stats_add(struct reasm_stats *into, const struct reasm_stats *add);

/** reasm_stats_summary - a few human lines. */
void reasm_stats_summary(FILE *f, const struct reasm_stats *st);

#endif /* REASM_H */
