/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * engine.c - the reassembly engine's input: reasm_input() takes a frame
 * through the layers, each in a file of its own (their shared types and
 * calls are engine_int.h):
 *
 *   parse.c   what the frame is: link, VLAN, PPP/PPPoE, IPv4, the IPv6
 *             header chain, GRE and IP-in-IP
 *   table.c   the grain_htab glue: the fragment's datagram found or begun
 *             under its stripe lock, timeouts, what eviction and expiry
 *             decide; creation, workers and counters
 *   fragq.c   the datagram's fragment queue: pieces, overlap policies,
 *             end rules, completion (its rules are written down at its
 *             top)
 *   output.c  the frames handed on: passed through, atomic fragments,
 *             rebuilt datagrams
 *   stats.c   the small helpers that need no engine state
 *
 * Design
 *   - One grain_htab per family (the timeouts differ: 30 s / 60 s, as the
 *     table's TTL). Entries are struct dgram, keyed as Linux keys its
 *     fragment queues. Tables are GRAIN_HTAB_NO_RCU: every access to a
 *     datagram happens inside a stripe scope, so a datagram the table
 *     evicts or expires is freed as soon as it is unlinked.
 *   - A datagram holds a sorted array of non-overlapping pieces and one
 *     payload buffer, in which each fragment's bytes are copied once, in
 *     place, under the stripe lock; with the default allocation hooks
 *     the buffer is handed on as the output frame. STRICT never lets pieces overlap (RFC 5722: an overlap
 *     kills the datagram, a fragment inside held data is a duplicate);
 *     the target-based policies decide, piece by piece, whose bytes win,
 *     and trim or split the loser. Completion is O(1): every byte from 0
 *     to the end is held exactly when `meat` == `len`.
 *   - A completed (or killed) datagram leaves the table inside the scope;
 *     its headers are written after the unlock, and a copy into a sink's
 *     memory, when there is one, is made there too.
 *
 * References: Linux net/ipv4/inet_fragment.c (runs, DUP vs OVERLAP),
 * net/ipv4/ip_fragment.c and net/ipv6/reassembly.c (end checks, ECN table,
 * DF rule, nhoff patching), RFC 791, 5722, 6946, 7112, 8200 section 4.5,
 * RFC 3168 section 5.3; Novak, "Target-Based Fragmentation Reassembly".
 */
#define _GNU_SOURCE
#include "engine_int.h"

#include <assert.h>
#include <string.h>

/* Every 64th fragment: the tables' bytes, for bytes_peak. */
static void sample_bytes(struct reasm_worker *w)
{
	if ((w->sample++ & 63) != 0)
		return;
	uint64_t b =
		grain_htab_bytes(w->r->tab[0]) + grain_htab_bytes(w->r->tab[1]);
	if (b > w->st.bytes_peak)
		w->st.bytes_peak = b;
}

/*
 * The checks on the fragment alone, before handle_fragment() takes any
 * lock. On false the fragment is dropped (and counted) and nothing else
 * moves; on true *ne is the end of its data as the engine keeps it.
 *
 * An IPv4 fragment that ends past 65535 bytes (with a 20-byte header) is
 * dropped alone under the target-based policies, as FreeBSD's ip_input()
 * and frag3 drop it. Linux has no such check before ip_frag_queue(): the
 * fragment goes into its queue like any other, its end raises the
 * queue's length, and the queue can then only die (the end rules discard
 * it when the real last fragment ends short of it, or when it lies past
 * a last fragment already in; a queue that fills up fails as too big).
 * STRICT and LINUX let it in the same way, so that a datagram the host
 * never gets is not emitted either. IPv6 drops such a fragment alone
 * (ip6_frag_queue()), under every policy.
 */
static bool frag_acceptable(struct reasm_stats *st, enum reasm_policy pol,
			    const struct frag *fr, uint32_t *ne)
{
	uint32_t end = fr->offset + fr->len;

	if (fr->family == 6) {
		if (fr->offset == 0 &&
		    !v6_chain_complete(fr->payload, fr->len, fr->v6_nexthdr)) {
			drop(st, &st->incomplete_chain);
			return false;
		}
		if (fr->mf && (fr->len & 7)) {
			/* RFC 8200: Parameter Problem */
			drop(st, &st->malformed);
			return false;
		}
		if (end > IP_MAXPACKET) {
			st->frags_too_big++;
			drop(st, &st->too_big);
			return false;
		}
	} else {
		if (fr->mf)
			end &= ~7u; /* Linux: round a non-last end down */
		if (20 + end > IP_MAXPACKET && pol != REASM_STRICT &&
		    pol != REASM_LINUX) {
			/* ping of death: no header fits */
			st->frags_too_big++;
			drop(st, &st->too_big);
			return false;
		}
	}
	*ne = end;
	return true;
}

/* Once the stripe lock is released: count what add_fragment() did with the
 * fragment. */
static void count_add(struct reasm_worker *w, enum add_result res)
{
	struct reasm_stats *st = &w->st;

	switch (res) {
	case ADD_OK:
		w->held_in++;
		break;
	case ADD_DUP:
		drop(st, &st->duplicates);
		break;
	case ADD_NOMEM:
		drop_nomem(st);
		break;
	case ADD_PAST_END:
		drop(st, &st->past_end);
		break;
	case KILL_OVERLAP:
		st->ReasmOverlaps++;
		break;
	case KILL_BAD_END:
		st->bad_end++;
		break;
	case KILL_TOO_MANY:
		st->too_many_frags++;
		break;
	}
}

/* A datagram unlinked without being completed. One killed by a fragment
 * (@p res) takes that fragment along; a fresh one that took nothing (no
 * memory) is no failure. */
static void dgram_kill(struct reasm_worker *w, struct dgram *d,
		       enum add_result res)
{
	w->held_out += d->nfrags;
	if (res >= KILL_OVERLAP) {
		w->st.ReasmFails++;
		w->st.frags_discarded += d->nfrags + 1u;
	}
	dgram_free(w->r, d);
}

/* A completed datagram, unlinked: rebuilt and emitted, or counted as
 * failed. @return 1 if a datagram was emitted, else 0. */
static int dgram_deliver(struct reasm_worker *w, struct dgram *d, uint64_t now)
{
	struct reasm_stats *st = &w->st;
	struct reasm_meta m;
	struct out_dst dst;
	bool nested = false, refused = false;
	enum rebuild_fail why =
		dgram_rebuild(w, d, now, &m, &dst, &nested, &refused);
	int emitted = 0;

	w->held_out += d->nfrags;
	if (nested)
		st->nested_frag++;
	if (refused)
		st->bad_ext++;
	if (why == REBUILD_OK) {
		st->ReasmOKs++;
		st->frags_reassembled += d->nfrags;
		out_end(w, &m, &dst);
		emitted = 1;
	} else {
		st->ReasmFails++;
		st->frags_discarded += d->nfrags;
		if (why == REBUILD_BAD_ECN)
			st->bad_ecn++;
		else if (why == REBUILD_TOO_BIG)
			st->too_big++;
		else if (why == REBUILD_NO_MEMORY)
			st->no_memory++;
	}
	dgram_free(w->r, d);
	return emitted;
}

/*
 * One fragment: checked alone, its datagram found or begun under the
 * stripe lock, the fragment added (its payload copied into place in the
 * datagram's buffer), and the datagram unlinked there if it is complete
 * or killed; then, without the lock, the counts, and the datagram rebuilt
 * (its headers written before the payload) and emitted or freed.
 * @return 1 if a datagram was emitted, else 0.
 */
static int handle_fragment(struct reasm_worker *w, struct frag *fr,
			   uint64_t now)
{
	struct reasm *r = w->r;
	struct stale stale = { NULL, false };
	struct grain_htab_scope s;
	struct dgram *d;
	uint32_t ne;
	int emitted = 0;

	if (fr->family == 6 && fr->offset == 0 && !fr->mf)
		return emit_atomic(w, fr, now);
	if (!frag_acceptable(&w->st, r->cfg.policy, fr, &ne))
		return 0;
	d = dgram_for(w, &s, fr, ne, now, &stale);
	if (d == NULL) {
		time_out(w, stale.d, stale.wrapped);
		return 0;
	}

	bool overlapped;
	enum add_result res = add_fragment(r, &s, d, fr, ne, &overlapped);
	if (overlapped && r->cfg.policy != REASM_STRICT)
		w->st.ReasmOverlaps++;

	bool done = res == ADD_OK && dgram_complete(d);
	/* A new datagram that took nothing is not kept either. */
	bool kill = res >= KILL_OVERLAP || (!done && d->npieces == 0);
	if (done || kill) {
		int rc = grain_htab_remove_locked(&s, &d->node);
		assert(rc == 0); /* d is linked in this stripe */
		(void)rc;
	}
	grain_htab_unlock(&s);
	time_out(w, stale.d, stale.wrapped);

	count_add(w, res);
	if (kill)
		dgram_kill(w, d, res);
	else if (done)
		emitted = dgram_deliver(w, d, now);
	sample_bytes(w);
	return emitted;
}

/* The counter of a fragment that parse_frame() refused: P_TRUNCATED,
 * P_MALFORMED or P_BADSUM. */
static uint64_t *drop_reason(struct reasm_stats *st, enum parse_result res)
{
	switch (res) {
	case P_TRUNCATED:
		return &st->frags_truncated;
	case P_MALFORMED:
		return &st->malformed;
	default:
		return &st->bad_checksum;
	}
}

int reasm_input(struct reasm_worker *w, const uint8_t *frame, uint32_t caplen,
		uint32_t wirelen, uint64_t now_ns)
{
	struct frag fr;

	memset(&fr, 0, sizeof(fr));
	fr.frame = frame;
	fr.caplen = caplen;
	fr.wirelen = wirelen < caplen ? caplen : wirelen;
	fr.truncated = caplen < wirelen;
	w->st.packets++;
	if (fr.truncated)
		w->st.truncated++;

	enum parse_result res = parse_frame(w->r, &fr);
	if (res != P_PASS && fr.enc.outer_family != 0)
		w->st.tunneled++;
	switch (res) {
	case P_PASS:
		if (fr.note == NOTE_VLAN_DEEP)
			w->st.vlan_too_deep++;
		else if (fr.note == NOTE_PPP_OTHER)
			w->st.ppp_other++;
		else if (fr.note == NOTE_BAD_LINK)
			w->st.bad_link++;
		else if (fr.note == NOTE_BAD_TUNNEL)
			w->st.bad_tunnel++;
		return pass_through(w, &fr, now_ns);
	case P_TRUNCATED:
	case P_MALFORMED:
	case P_BADSUM:
		w->st.ReasmReqds++;
		w->st.frags_dropped++;
		(*drop_reason(&w->st, res))++;
		return 0;
	case P_FRAG:
		break;
	}
	w->st.ReasmReqds++;
	if (fr.truncated) { /* readable, but not all of it was captured */
		w->st.frags_truncated++;
		w->st.frags_dropped++;
		return 0;
	}
	return handle_fragment(w, &fr, now_ns);
}
