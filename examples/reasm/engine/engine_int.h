/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine_int.h - what the engine's layers share, and nothing outside the
 * engine includes: the key, the datagram and the engine objects, a parsed
 * frame (struct frag), the results that cross from one layer to the next,
 * and the calls each layer offers the others, grouped by the file that
 * defines them. The API is reasm.h.
 *
 * Every includer defines _GNU_SOURCE before its first #include (inet.h).
 */
#ifndef REASM_ENGINE_INT_H
#define REASM_ENGINE_INT_H

#include "inet.h"
#include "reasm.h"

#include <grain/hash.h>
#include <grain/htab.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_WORKERS 64
#define SRC_SLOTS 1024u
#define IP_MAXPACKET 65535u

/* --- keys and datagrams -------------------------------------------------- */

/* Packed so that an IPv4 key is its first KEY4_LEN bytes: the hash reads
 * 28 bytes for IPv4, 52 for IPv6. */
struct rkey {
	uint32_t id;
	uint32_t vlan;	       /* tag count << 24, VIDs of tags 1 and 2 */
	uint32_t vlan_more[2]; /* VIDs of tags 3 to REASM_MAX_VLAN_TAGS */
	uint8_t family;	       /* 4 or 6 */
	uint8_t proto;	       /* IPv4 protocol; 0 for IPv6 */
	uint8_t pad[2];
	uint8_t addr[32]; /* IPv4: src, dst in 8 bytes; IPv6: src, dst */
};

#define KEY4_LEN (offsetof(struct rkey, addr) + 8)

/* How the link-layer type field before an IP header is written. */
enum type_kind {
	TYPE_NONE,  /* raw IP: no field */
	TYPE_FIXED, /* DLT_IPV4, DLT_IPV6: the link type names the family */
	TYPE_ETHER, /* a 2-byte EtherType (Ethernet, SLL, SLL2) */
	TYPE_PPP1,  /* a 1-byte (compressed) PPP protocol */
	TYPE_PPP2   /* a 2-byte PPP protocol */
};

/* The headers around a fragment's IP header whose fields depend on its
 * length, as offsets in the frame (0: absent; none of them can start a
 * frame), and the link's type field before the outermost IP header. */
struct encap {
	uint32_t pppoe;	   /* the PPPoE header (its length field) */
	uint32_t outer;	   /* a tunnel's outer IP header */
	uint32_t gre;	   /* the GRE header */
	uint32_t gre_hlen; /* its length */
	uint32_t type_off; /* the link's type field */
	uint16_t gre_flags;
	uint8_t outer_family; /* 4, 6; 0: no tunnel */
	uint8_t type_kind;    /* enum type_kind */
};

/* A copy of one fragment's payload; pieces point into it. */
struct fbuf {
	uint32_t refs;
	uint32_t off; /* the fragment's offset in the datagram */
	uint32_t len;
	uint8_t data[];
};

struct piece {
	uint32_t start, end; /* [start, end) in the datagram */
	/* STRICT: where the piece's run starts. A run, as Linux keeps them,
	 * is fragments that arrived back to back at the tail, each starting
	 * where the previous one ended; a fragment inserted anywhere else
	 * starts a run of its own, even when it touches its neighbours. */
	uint32_t run;
	uint32_t fresh;	  /* the fragment being added: only while fragq.c
			   merges an overlap, 0 in a held piece */
	struct fbuf *buf; /* NULL: the bytes are in the datagram's buffer */
};

enum { FIRST_IN = 1, LAST_IN = 2, STALLED = 4 };

#define INLINE_PIECES 4u
#define INLINE_HEAD \
	96u /* Ethernet, two tags, IPv4 with 40 bytes of options;
			   IPv6 with 32 bytes of extension headers (more:
			   allocated) */

struct dgram {
	struct rkey key; /* just before the node: a hit is one cache line */
	struct grain_hnode node;
	uint32_t len;	 /* end of the datagram (or largest end so far) */
	uint32_t meat;	 /* bytes held */
	uint32_t nfrags; /* fragments whose bytes are in it */
	uint32_t npieces, cap;
	uint8_t flags;
	uint8_t ecn;	    /* OR of the fragments' ECN bits (Linux's table) */
	uint8_t v6_nexthdr; /* the offset-0 fragment's Fragment header NH */
	uint16_t max_size, max_df_size; /* IPv4 DF rule */
	uint32_t head_len; /* bytes of head: link + IP header (+ v6 ext);
			       an IPv6 chain alone may pass 64 KiB */
	uint32_t l2_len;
	uint32_t nh_off;      /* IPv6: offset in head of the NH byte to patch */
	struct encap enc;     /* length fields in head around the IP header */
	uint64_t first_ts;    /* capture time of the first fragment */
	uint32_t born;	      /* IPv4: its source's src_born count when begun */
	struct piece *pieces; /* small: the inline array below */
	uint8_t *head;	      /* small: the inline bytes below */
	/* The datagram's buffer (fragq.c, buf_begin()), or NULL: a struct
	 * reasm_out whose data holds `room` bytes for the headers, then
	 * payload bytes [0, buf_cap); a piece whose buf is NULL has its bytes
	 * there, in place. */
	struct reasm_out *buf;
	uint32_t buf_size; /* bytes allocated (and charged) at buf */
	uint32_t buf_cap;
	uint32_t room;
	/* A typical datagram needs no allocation beyond this one and its
	 * buffer: up to INLINE_PIECES pieces and INLINE_HEAD bytes of
	 * headers live here. */
	struct piece inline_pieces[INLINE_PIECES];
	uint8_t inline_head[INLINE_HEAD];
};

struct reasm {
	struct reasm_config cfg;
	struct grain_alloc alloc;     /* copy of *cfg.alloc, when given */
	const struct grain_alloc *ap; /* &alloc or NULL (default hooks) */
	struct grain_htab *tab[2];    /* [0] IPv4, [1] IPv6 */
	struct grain_hash_key secret;
	struct reasm_worker *workers[MAX_WORKERS];
	unsigned nworkers;
	/* Outcomes decided inside the table's callbacks (eviction, expiry,
	 * destroy), on whichever thread ran them. */
	_Atomic(uint64_t) cb_timeout, cb_evicted, cb_frags;
	_Atomic(uint64_t) cb_pending_dgrams, cb_pending_frags;
	_Atomic(uint64_t) peak_read; /* most bytes any stats read saw */
	/* IPv4 datagrams begun per hashed source (REASM_ID_DIST). */
	_Atomic(uint32_t) src_born[SRC_SLOTS];
};

/* --- small helpers ------------------------------------------------------- */

/* The engine's own memory (datagrams, payload buffers, piece arrays,
 * headers) goes through the configured allocation hooks; output frames are
 * plain malloc (their consumer frees them with reasm_out_free()), or the
 * memory a worker's sink hands out (struct reasm_sink). With the default
 * hooks (malloc's), a completed datagram's buffer is itself the output
 * frame (output.c). */
#define MEM_ALIGN _Alignof(max_align_t)

static inline void *mem_get(const struct reasm *r, size_t n)
{
	return grain_mem_alloc(r->ap, n, MEM_ALIGN);
}

static inline void mem_put(const struct reasm *r, void *p, size_t n)
{
	grain_mem_free(r->ap, p, n, MEM_ALIGN);
}

/* Where payload byte 0 of @p d lives (once d->buf is allocated). */
static inline uint8_t *dgram_payload(const struct dgram *d)
{
	return d->buf->data + d->room;
}

/* Where the bytes of piece @p p of @p d are. */
static inline const uint8_t *piece_bytes(const struct dgram *d,
					 const struct piece *p)
{
	if (p->buf == NULL)
		return dgram_payload(d) + p->start;
	return p->buf->data + (p->start - p->buf->off);
}

/* Count a fragment dropped for the reason @p counter. */
static inline void drop(struct reasm_stats *st, uint64_t *counter)
{
	(*counter)++;
	st->frags_dropped++;
}

/* Count a fragment dropped for want of memory. */
static inline void drop_nomem(struct reasm_stats *st)
{
	st->frags_no_memory++;
	drop(st, &st->no_memory);
}

/* --- parsed frames ------------------------------------------------------- */

/* What reasm_input learns about a frame. */
struct frag {
	const uint8_t *frame;
	uint32_t caplen, wirelen;
	uint32_t l3;	  /* offset of the IP header */
	uint32_t ip_len;  /* IP packet length per its header */
	uint32_t hdr_len; /* v4: ihl*4; v6: 40 + ext headers before frag hdr */
	uint32_t fh_off;  /* v6: offset of the Fragment header from l3 */
	uint32_t nh_off;  /* v6: offset from l3 of the NH byte naming it */
	uint32_t offset, len; /* fragment position and payload length */
	const uint8_t *payload;
	bool mf, df, is_frag, truncated;
	uint8_t note; /* enum link_note: why a frame passes */
	uint8_t family, tos, v6_nexthdr;
	struct encap enc;
	struct rkey key;
};

/* Why a frame is passed through, when a counter says so. */
enum link_note {
	NOTE_NONE,
	NOTE_VLAN_DEEP, /* vlan_too_deep */
	NOTE_PPP_OTHER, /* ppp_other */
	NOTE_BAD_LINK,	/* bad_link */
	NOTE_BAD_TUNNEL /* bad_tunnel */
};

enum parse_result {
	P_PASS,	     /* not a fragment (or not IP): emit unchanged */
	P_FRAG,	     /* a fragment, fields filled */
	P_TRUNCATED, /* a fragment, but the capture is cut short */
	P_MALFORMED, /* a fragment with a broken header */
	P_BADSUM,    /* an IPv4 fragment with a wrong header checksum */
};

/* --- results ------------------------------------------------------------- */

/* What adding a fragment did. */
enum add_result {
	ADD_OK,	      /* held (the datagram may now be complete) */
	ADD_DUP,      /* nothing new: dropped, datagram kept */
	ADD_NOMEM,    /* dropped, datagram kept */
	ADD_PAST_END, /* disagrees with the end: dropped, datagram kept */
	KILL_OVERLAP, /* datagram discarded */
	KILL_BAD_END,
	KILL_TOO_MANY,
};

/* Why a complete datagram could not be rebuilt. */
enum rebuild_fail {
	REBUILD_OK,
	REBUILD_BAD_ECN,     /* mixed ECN codepoints (RFC 3168 5.3) */
	REBUILD_TOO_BIG,     /* past 65535 bytes */
	REBUILD_NO_MEMORY,   /* no output frame */
	REBUILD_NESTED_FRAG, /* STRICT: an IPv6 Fragment header nested in
				the payload, or a header Linux refuses */
};

/* Where an output frame is being written: a reservation of the worker's
 * sink (struct reasm_sink), or a reasm_out for the emit callback. */
struct out_dst {
	uint8_t *data;	     /* the frame's first byte */
	struct reasm_out *o; /* NULL: data is the sink's reservation */
};

/* A datagram retired on the way (timed out or ID-wrapped): freed by
 * time_out() once the stripe lock is released. */
struct stale {
	struct dgram *d;
	bool wrapped;
};

/* --- calls, by the file that defines them ------------------------------ */

/* The calls one layer makes to another. The library compiles the layers as
 * one translation unit (engine_unit.c), where these are static: on the
 * input path each runs once per fragment, and the compiler inlines them
 * as it would within one file (as separate objects the calls cost about
 * 5% more instructions per frame). Compiled one file at a time (the fuzz
 * target does) they are ordinary external functions. */
#ifndef REASM_INTERNAL
#define REASM_INTERNAL
#endif

/* parse.c: link, VLAN, PPP/PPPoE, IPv4, the IPv6 header chain, tunnels. */
REASM_INTERNAL enum parse_result parse_frame(const struct reasm *r,
					     struct frag *fr);
REASM_INTERNAL uint8_t dscp_of(const struct reasm *r, const uint8_t *f,
			       uint32_t n);
REASM_INTERNAL bool v6_chain_complete(const uint8_t *p, uint32_t n, uint8_t nh);
REASM_INTERNAL bool v6_nested_frag(const uint8_t *p, uint32_t n, uint8_t nh);
REASM_INTERNAL bool v6_refused(const uint8_t *ip, uint32_t hlen,
			       const uint8_t *p, uint32_t n, uint8_t nh);

/* fragq.c: pieces, overlap policies, end rules, completion. */
REASM_INTERNAL void dgram_free(const struct reasm *r, struct dgram *d);
REASM_INTERNAL enum add_result
add_fragment(struct reasm *r, struct grain_htab_scope *s, struct dgram *d,
	     const struct frag *fr, uint32_t ne, bool *overlapped);
REASM_INTERNAL bool dgram_complete(const struct dgram *d);

/* output.c: output frames, pass-through, atomic fragments, rebuilding. */
REASM_INTERNAL void out_end(struct reasm_worker *w, const struct reasm_meta *m,
			    struct out_dst *dst);
REASM_INTERNAL uint32_t head_size(const struct reasm *r, const struct frag *fr,
				  uint32_t n);
REASM_INTERNAL uint32_t head_copy(const struct reasm *r, const struct frag *fr,
				  uint32_t n, uint8_t *dst, struct encap *eo);
REASM_INTERNAL int pass_through(struct reasm_worker *w, const struct frag *fr,
				uint64_t now);
REASM_INTERNAL int emit_atomic(struct reasm_worker *w, const struct frag *fr,
			       uint64_t now);
REASM_INTERNAL enum rebuild_fail dgram_rebuild(struct reasm_worker *w,
					       struct dgram *d, uint64_t now,
					       struct reasm_meta *m,
					       struct out_dst *dst,
					       bool *nested, bool *refused);

/* table.c: the grain_htab glue, datagram lookup, timeouts. */
REASM_INTERNAL struct dgram *dgram_for(struct reasm_worker *w,
				       struct grain_htab_scope *s,
				       const struct frag *fr, uint32_t ne,
				       uint64_t now, struct stale *stale);
REASM_INTERNAL void time_out(struct reasm_worker *w, struct dgram *d,
			     bool wrapped);

#endif /* REASM_ENGINE_INT_H */
