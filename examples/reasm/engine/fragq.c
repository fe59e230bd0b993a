/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fragq.c - the fragment queue of one datagram: its pieces, the overlap
 * policies, the end rules and completion.
 *
 * A datagram holds a sorted array of non-overlapping pieces
 * [start, end). A fragment's payload is copied once, under the stripe
 * lock, into the datagram's buffer when the datagram has one that reaches
 * its end (buf_begin(): begun by the offset-0 fragment when the
 * datagram's length is known, and in place there, so that the buffer
 * becomes the output frame), else into a reference-counted copy of its
 * own (struct fbuf), which a fragment split by an overlap shares.
 * add_fragment() takes a fragment [ns, ne) through these rules, in this
 * order:
 *
 *   The end rules (check_end(), the table end_rules[] below). A
 *     zero-length fragment kills the datagram. A fragment that reaches
 *     past a known end, a last fragment that ends short of held data or
 *     of an earlier last fragment, or one that ends after it: each policy
 *     kills the datagram, drops the fragment, keeps it, moves the end or
 *     stalls the datagram until its timeout, as its model host does
 *     (Linux, FreeBSD, frag3). A last fragment that passes records the
 *     end at once, even if its bytes turn out to be a duplicate.
 *   No overlap (add_clear()): the fragment becomes a piece of its own.
 *     Appended where the tail piece ends, it continues that piece's run;
 *     anywhere else it starts a run of its own.
 *   STRICT, overlapping held pieces (RFC 5722, Linux 4.19+): inside one
 *     run of back-to-back pieces it is a duplicate, dropped alone;
 *     anything else kills the datagram.
 *   The target-based policies, overlapping (add_overlap(),
 *     overlap_merge()): piece by piece, new_wins() below decides whose
 *     bytes win the overlap (the table of enum reasm_policy in reasm.h);
 *     the loser is trimmed or split. A fragment that wins no byte is a
 *     duplicate.
 *   Limits: a datagram holds at most max_frags fragments (more kills it);
 *     a fragment that finds no memory is dropped alone.
 *   Completion (dgram_complete()): the first and last fragments are in,
 *     the datagram is not stalled, and every byte from 0 to the end is
 *     held, which is O(1): exactly when `meat` (bytes held) == `len`.
 *
 * What a datagram holds is charged to its table: its own struct when it
 * is linked (table.c), and here the piece array beyond the inline one,
 * its buffer (all of it), each payload copy and the headers past
 * INLINE_HEAD; an overlap that frees a copy uncharges it. README.md's policy table gives the sources
 * of each policy.
 *
 * References: Linux net/ipv4/inet_fragment.c (runs, DUP vs OVERLAP) and
 * ip_fragment.c (ip_frag_queue(): the end checks); FreeBSD ip_reass();
 * RFC 5722, 8200; Novak, "Target-Based Fragmentation Reassembly".
 */
#define _GNU_SOURCE
#include "engine_int.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

/* --- the rules ----------------------------------------------------------- */

/* Does the new fragment [ns, ne) win the bytes it shares with held piece
 * [ps, pe)? See enum reasm_policy. */
static bool new_wins(enum reasm_policy p, uint32_t ns, uint32_t ne, uint32_t ps,
		     uint32_t pe)
{
	switch (p) {
	case REASM_LAST:
		return true;
	case REASM_BSD:
		return ns < ps;
	case REASM_LINUX:
		return ns <= ps;
	case REASM_WINDOWS:
		return ns < ps && ne > pe;
	case REASM_SOLARIS:
		return ns < ps && ne >= pe;
	case REASM_BSD_RIGHT:
		return ps < ns ? pe < ne : pe <= ne;
	default: /* FIRST */
		return false;
	}
}

/*
 * The end rules. Four cases meet a datagram's end (its last fragment's,
 * once one has come; otherwise the furthest end held):
 *   past        a non-last fragment reaches past a known end
 *   short_first the first last fragment ends before held data
 *   short_again a second last fragment ends before the known end
 *   long_again  a second last fragment ends after it
 * and each policy answers each case with one of:
 *   END_KILL  discard the datagram (Linux's ip_frag_queue())
 *   END_DROP  drop the fragment alone; the end stays (FreeBSD's
 *             ip_reass(), its ipq_maxoff check)
 *   END_KEEP  hold the fragment's bytes, the end stays; a fragment that
 *             overlaps held data discards the datagram (frag3's
 *             "teardrop")
 *   END_MOVE  the end moves to the fragment's (frag3: the higher end
 *             point wins)
 *   END_STALL record the end, hold the fragment, never complete: the
 *             datagram waits for its timeout (FreeBSD: the held data
 *             past the end can never leave the queue)
 * See README.md's policy table for the sources.
 */
enum end_act { END_KILL, END_DROP, END_KEEP, END_MOVE, END_STALL };

struct end_rule {
	uint8_t past, short_first, short_again, long_again; /* end_act */
	bool at_end_is_past; /* a non-last fragment ending at the end is
				past it (FreeBSD's i >= ipq_maxoff) */
};

/* Linux (strict, linux), FreeBSD (bsd) and frag3 (the others). */
static const struct end_rule end_rules[REASM_POLICY_COUNT] = {
	/*		   past	     short_first short_again long_again */
	[REASM_STRICT] = { END_KILL, END_KILL, END_KILL, END_KILL, false },
	[REASM_LINUX] = { END_KILL, END_KILL, END_KILL, END_KILL, false },
	[REASM_BSD] = { END_DROP, END_STALL, END_DROP, END_DROP, true },
	[REASM_FIRST] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
	[REASM_LAST] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
	[REASM_BSD_RIGHT] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
	[REASM_WINDOWS] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
	[REASM_SOLARIS] = { END_DROP, END_KEEP, END_KEEP, END_MOVE, false },
};

/* Apply @p act to the fragment [fr->offset, ne); @p overlaps: it meets
 * held data. */
static enum add_result end_apply(struct dgram *d, uint8_t act, uint32_t ne,
				 bool overlaps)
{
	switch (act) {
	case END_DROP:
		return ADD_PAST_END;
	case END_KEEP:
		return overlaps ? KILL_BAD_END : ADD_OK;
	case END_MOVE:
		d->len = ne;
		return ADD_OK;
	case END_STALL:
		d->flags |= STALLED;
		d->len = ne;
		return ADD_OK;
	default: /* KILL */
		return KILL_BAD_END;
	}
}

/*
 * The end rules of the policy (struct end_rule); a zero-length fragment
 * kills the datagram under every one. A last fragment that passes them
 * records the end at once, so it counts even when its bytes are a
 * duplicate or lose every overlap: Linux sets INET_FRAG_LAST_IN before
 * its duplicate and overlap checks, so a last fragment that duplicates
 * held data still ends the datagram.
 * @return ADD_OK, ADD_PAST_END or KILL_BAD_END.
 */
static enum add_result check_end(enum reasm_policy pol, struct dgram *d,
				 const struct frag *fr, uint32_t ne,
				 bool overlaps)
{
	const struct end_rule *er = &end_rules[pol];
	bool last_in = d->flags & LAST_IN;

	if (ne == fr->offset)
		return KILL_BAD_END;
	if (fr->mf) {
		if (last_in &&
		    (ne > d->len || (er->at_end_is_past && ne == d->len)))
			return end_apply(d, er->past, ne, overlaps);
		return ADD_OK;
	}
	d->flags |= LAST_IN;
	if (!last_in) {
		if (ne < d->len)
			return end_apply(d, er->short_first, ne, overlaps);
		d->len = ne;
	} else if (ne < d->len) {
		return end_apply(d, er->short_again, ne, overlaps);
	} else if (ne > d->len) {
		return end_apply(d, er->long_again, ne, overlaps);
	}
	return ADD_OK;
}

/* --- pieces -------------------------------------------------------------- */

/* ECN codepoint -> the bit Linux's ip_frag_ecn_table is indexed by. */
static inline uint8_t ecn_bit(uint8_t tos)
{
	return (uint8_t)(1u << (tos & 3)); /* NOT-ECT 1, ECT1 2, ECT0 4, CE 8 */
}

static void fbuf_free(const struct reasm *r, struct fbuf *b)
{
	if (b != NULL)
		mem_put(r, b, sizeof(*b) + b->len);
}

/* A datagram's bytes in its table's accounting. It holds the scope of
 * its own linked node, and charges stay far below UINT32_MAX (mem_high
 * bounds them), so these cannot fail. */
static void dgram_charge(struct grain_htab_scope *s, struct grain_hnode *n,
			 size_t bytes)
{
	int rc = grain_htab_charge_locked(s, n, bytes);

	assert(rc == 0);
	(void)rc;
}

static void dgram_uncharge(struct grain_htab_scope *s, struct grain_hnode *n,
			   size_t bytes)
{
	int rc = grain_htab_uncharge_locked(s, n, bytes);

	assert(rc == 0);
	(void)rc;
}

static void fbuf_put(const struct reasm *r, struct fbuf *b, size_t *freed)
{
	if (b != NULL && --b->refs == 0) {
		*freed += sizeof(*b) + b->len;
		fbuf_free(r, b);
	}
}

REASM_INTERNAL void dgram_free(const struct reasm *r, struct dgram *d)
{
	size_t freed = 0;

	for (uint32_t i = 0; i < d->npieces; i++)
		fbuf_put(r, d->pieces[i].buf, &freed);
	if (d->pieces != d->inline_pieces)
		mem_put(r, d->pieces, d->cap * sizeof(*d->pieces));
	if (d->head != d->inline_head)
		mem_put(r, d->head, d->head_len);
	if (d->buf != NULL)
		mem_put(r, d->buf, d->buf_size);
	mem_put(r, d, sizeof(*d));
}

/* Grow the piece array to hold @p need; charges the table. */
static int pieces_reserve(const struct reasm *r, struct grain_htab_scope *s,
			  struct dgram *d, uint32_t need)
{
	if (need <= d->cap)
		return 0;
	uint32_t cap = d->cap;
	while (cap < need)
		cap *= 2;
	struct piece *p = mem_get(r, cap * sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	memcpy(p, d->pieces, d->npieces * sizeof(*p));
	if (d->pieces != d->inline_pieces)
		mem_put(r, d->pieces, d->cap * sizeof(*p));
	size_t more = (size_t)(cap - d->cap) * sizeof(*p);
	d->pieces = p;
	d->cap = cap;
	dgram_charge(s, &d->node, more);
	return 0;
}

/* First piece whose end is past @p x (ends are sorted too). */
static uint32_t first_ending_after(const struct dgram *d, uint32_t x)
{
	uint32_t lo = 0, hi = d->npieces;

	if (hi > 0 && d->pieces[hi - 1].end <= x)
		return hi; /* tail: in-order arrival */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->pieces[mid].end <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A copy of @p fr's payload up to @p ne, or NULL for want of memory. */
static struct fbuf *fbuf_new(const struct reasm *r, const struct frag *fr,
			     uint32_t ne)
{
	uint32_t len = ne - fr->offset;
	struct fbuf *b = mem_get(r, sizeof(*b) + len);

	if (b == NULL)
		return NULL;
	b->refs = 0;
	b->off = fr->offset;
	b->len = len;
	memcpy(b->data, fr->payload, len);
	return b;
}

/* A datagram's buffer may be at most BUF_SPREAD times the payload bytes
 * it has received when it is begun: a datagram of a few bytes far from
 * offset 0 is charged for what it holds, never for the whole datagram. */
#define BUF_SPREAD 4u

/*
 * The datagram's length as the offset-0 fragment @p fr, ending at @p ne,
 * finds it: its last fragment's end when that has come; else the length
 * its UDP header says, a hint taken only while the table is below
 * mem_low (under memory pressure, a flood of first fragments each
 * claiming a long datagram, a datagram is charged for what it has
 * received); else @p ne.
 */
static uint32_t dgram_len_hint(const struct reasm *r, const struct dgram *d,
			       const struct frag *fr, uint32_t ne)
{
	if (d->flags & LAST_IN)
		return d->len;
	bool udp = fr->family == 4 ? fr->key.proto == INET_PROTO_UDP
				   : fr->v6_nexthdr == INET_PROTO_UDP;
	if (!udp || fr->len < 8)
		return ne;
	uint32_t u = inet_rd16(fr->payload + 4);
	if (u <= ne || u > IP_MAXPACKET ||
	    grain_htab_bytes(r->tab[fr->family == 6]) >= r->cfg.mem_low)
		return ne;
	return u;
}

/*
 * Begin @p d's buffer for its offset-0 fragment @p fr (ending at @p ne),
 * when the datagram's length is known (dgram_len_hint()) and longer than
 * the fragment, and no more than BUF_SPREAD times the bytes received:
 * room for the fragment's headers, then the payload, charged to the
 * table. Without it (or without memory for it) fragments take copies of
 * their own. Only with the default allocation hooks, where the buffer
 * can become the output frame (a reasm_out that reasm_out_free() frees);
 * with the caller's hooks, the output is a copy either way.
 */
static void buf_begin(const struct reasm *r, struct grain_htab_scope *s,
		      struct dgram *d, const struct frag *fr, uint32_t ne)
{
	if (r->ap != NULL)
		return;
	uint32_t want = dgram_len_hint(r, d, fr, ne);
	uint64_t got = (uint64_t)d->meat + ne;

	if (want <= ne || want > BUF_SPREAD * got)
		return;
	uint32_t room = head_size(r, fr, fr->l3 + fr->hdr_len);
	size_t size = sizeof(struct reasm_out) + (size_t)room + want;
	struct reasm_out *b = mem_get(r, size);
	if (b == NULL)
		return;
	d->buf = b;
	d->buf_size = (uint32_t)size;
	d->buf_cap = want;
	d->room = room;
	dgram_charge(s, &d->node, size);
}

/* Where the new fragment [fr->offset, ne) will keep its bytes: *bp NULL,
 * in place in the datagram's buffer (begun here for an offset-0
 * fragment, buf_begin()), or a copy of its own. @return 0, or -ENOMEM
 * (nothing to undo). */
static int frag_store(const struct reasm *r, struct grain_htab_scope *s,
		      struct dgram *d, const struct frag *fr, uint32_t ne,
		      struct fbuf **bp)
{
	*bp = NULL;
	if (d->buf == NULL && fr->offset == 0)
		buf_begin(r, s, d, fr, ne);
	if (d->buf != NULL && ne <= d->buf_cap)
		return 0;
	*bp = fbuf_new(r, fr, ne);
	return *bp != NULL ? 0 : -ENOMEM;
}

/* Replace pieces [i, j) of @p d with @p n pieces from @p with. */
static void pieces_splice(struct dgram *d, uint32_t i, uint32_t j,
			  const struct piece *with, uint32_t n)
{
	memmove(&d->pieces[i + n], &d->pieces[j],
		(d->npieces - j) * sizeof(struct piece));
	memcpy(&d->pieces[i], with, n * sizeof(struct piece));
	d->npieces = d->npieces - (j - i) + n;
}

/* Record the offset-0 fragment's headers. */
static int take_head(const struct reasm *r, struct grain_htab_scope *s,
		     struct dgram *d, const struct frag *fr)
{
	uint32_t n = head_size(r, fr, fr->l3 + fr->hdr_len);
	uint8_t *h = n <= INLINE_HEAD ? d->inline_head : mem_get(r, n);

	if (h == NULL)
		return -ENOMEM;
	d->l2_len = head_copy(r, fr, fr->l3 + fr->hdr_len, h, &d->enc);
	d->head = h;
	d->head_len = n;
	d->nh_off = fr->nh_off;
	d->v6_nexthdr = fr->v6_nexthdr;
	if (h != d->inline_head) {
		dgram_charge(s, &d->node, n);
	}
	return 0;
}

/* The fragment [ns, ne) overlaps nothing held: insert it as piece @p i,
 * its bytes copied where frag_store() says. */
static enum add_result add_clear(struct reasm *r, struct grain_htab_scope *s,
				 struct dgram *d, const struct frag *fr,
				 uint32_t i, uint32_t ne)
{
	const uint32_t ns = fr->offset;
	struct fbuf *b;

	if (d->nfrags >= r->cfg.max_frags)
		return KILL_TOO_MANY;
	if (pieces_reserve(r, s, d, d->npieces + 1) != 0 ||
	    frag_store(r, s, d, fr, ne, &b) != 0)
		return ADD_NOMEM;
	if (ns == 0 && d->head == NULL && take_head(r, s, d, fr) != 0) {
		fbuf_free(r, b);
		return ADD_NOMEM;
	}
	if (b != NULL) {
		b->refs = 1;
		dgram_charge(s, &d->node, sizeof(*b) + b->len);
	} else {
		memcpy(dgram_payload(d) + ns, fr->payload, ne - ns);
	}
	/* Appended where the tail fragment ends: the tail's run goes on.
	 * Anywhere else: a run of its own. */
	uint32_t n = d->npieces;
	uint32_t run = n > 0 && i == n && d->pieces[n - 1].end == ns
			       ? d->pieces[n - 1].run
			       : ns;
	struct piece p = { ns, ne, run, 0, b };
	pieces_splice(d, i, i, &p, 1);
	d->meat += ne - ns;
	return ADD_OK;
}

/* Append the new fragment's bytes [a, z) to the replacement @p out (*m
 * pieces), extending its last piece when that one is the new fragment's
 * too and ends at @p a. */
static void push_new(struct piece *out, uint32_t *m, uint32_t a, uint32_t z)
{
	if (*m > 0 && out[*m - 1].fresh && out[*m - 1].end == a)
		out[*m - 1].end = z;
	else
		out[(*m)++] = (struct piece){ a, z, a, 1, NULL };
}

/*
 * Target-based policies: walk the pieces [i, j) that [ns, ne) overlaps,
 * in order, building their replacement in @p out (at most two pieces per
 * overlapped one plus one for the tail). *lost: the held bytes the new
 * fragment won.
 * @return the number of pieces in @p out.
 */
static uint32_t overlap_merge(enum reasm_policy pol, const struct dgram *d,
			      uint32_t i, uint32_t j, uint32_t ns, uint32_t ne,
			      struct piece *out, uint32_t *lost)
{
	uint32_t m = 0, cursor = ns;

	*lost = 0;
	for (uint32_t k = i; k < j; k++) {
		struct piece p = d->pieces[k];
		uint32_t os = p.start > ns ? p.start : ns;
		uint32_t oe = p.end < ne ? p.end : ne;
		if (new_wins(pol, ns, ne, p.start, p.end)) {
			if (p.start < os)
				out[m++] = (struct piece){ p.start, os, p.start,
							   0, p.buf };
			push_new(out, &m, cursor, oe);
			cursor = oe;
			if (p.end > oe)
				out[m++] = (struct piece){ oe, p.end, oe, 0,
							   p.buf };
			*lost += oe - os; /* the held piece's bytes */
		} else {
			if (cursor < os)
				push_new(out, &m, cursor, os);
			out[m++] = p;
			cursor = p.end > cursor ? p.end : cursor;
		}
	}
	if (cursor < ne)
		push_new(out, &m, cursor, ne);
	return m;
}

/* The fragment [ns, ne) overlaps pieces [i, j), under a target-based
 * policy: the winning bytes of each replace the others' (the new
 * fragment's bytes copied where frag_store() says). */
static enum add_result add_overlap(struct reasm *r, struct grain_htab_scope *s,
				   struct dgram *d, const struct frag *fr,
				   uint32_t i, uint32_t j, uint32_t ne)
{
	const uint32_t ns = fr->offset;
	uint32_t m, lost, gained = 0, maxn = 2 * (j - i) + 1;
	struct piece *out = mem_get(r, maxn * sizeof(*out));
	struct fbuf *b = NULL;
	size_t freed = 0;

	if (out == NULL)
		return ADD_NOMEM;
	m = overlap_merge(r->cfg.policy, d, i, j, ns, ne, out, &lost);
	for (uint32_t k = 0; k < m; k++)
		if (out[k].fresh)
			gained += out[k].end - out[k].start;
	enum add_result fail = ADD_OK;
	if (gained == 0)
		fail = ADD_DUP; /* every byte lost: nothing new */
	else if (d->nfrags >= r->cfg.max_frags)
		fail = KILL_TOO_MANY;
	else if (pieces_reserve(r, s, d, d->npieces - (j - i) + m) != 0 ||
		 frag_store(r, s, d, fr, ne, &b) != 0)
		fail = ADD_NOMEM;
	else if (ns == 0 && d->head == NULL && take_head(r, s, d, fr) != 0)
		fail = ADD_NOMEM;
	if (fail != ADD_OK) {
		fbuf_free(r, b);
		mem_put(r, out, maxn * sizeof(*out));
		return fail;
	}
	/* The new fragment's bytes in place, or in its copy; references:
	 * count the new ones first, then drop the old. */
	uint8_t *pay = b == NULL ? dgram_payload(d) : NULL;
	for (uint32_t k = 0; k < m; k++) {
		struct piece *p = &out[k];
		if (p->fresh && b == NULL)
			memcpy(pay + p->start, fr->payload + (p->start - ns),
			       p->end - p->start);
		else if (p->fresh)
			p->buf = b;
		p->fresh = 0;
		if (p->buf != NULL)
			p->buf->refs++;
	}
	for (uint32_t k = i; k < j; k++)
		fbuf_put(r, d->pieces[k].buf, &freed);
	pieces_splice(d, i, j, out, m);
	mem_put(r, out, maxn * sizeof(*out));
	d->meat = d->meat + gained - lost;
	if (b != NULL)
		dgram_charge(s, &d->node, sizeof(*b) + b->len);
	if (freed > 0) {
		dgram_uncharge(s, &d->node, freed);
	}
	return ADD_OK;
}

/* A fragment [fr->offset, ne) now held: the datagram's counts, flags,
 * ECN and (IPv4) largest fragment sizes. */
static void note_held(struct dgram *d, const struct frag *fr, uint32_t ne)
{
	d->nfrags++;
	if (fr->offset == 0)
		d->flags |= FIRST_IN;
	if (ne > d->len)
		d->len = ne;
	d->ecn |= ecn_bit(fr->tos);
	if (fr->family == 4) {
		uint32_t size = fr->hdr_len + fr->len;
		if (size > d->max_size)
			d->max_size = (uint16_t)size;
		if (fr->df && size > d->max_df_size)
			d->max_df_size = (uint16_t)size;
	}
}

/*
 * Add fragment [fr->offset, ne) to @p d: the end rules (check_end()),
 * then either a piece of its own or, where it overlaps held pieces, the
 * policy's choice.
 */
REASM_INTERNAL enum add_result
add_fragment(struct reasm *r, struct grain_htab_scope *s, struct dgram *d,
	     const struct frag *fr, uint32_t ne, bool *overlapped)
{
	const uint32_t ns = fr->offset;
	enum add_result res;

	*overlapped = false;
	uint32_t i = first_ending_after(d, ns), j = i;
	while (j < d->npieces && d->pieces[j].start < ne)
		j++;
	res = check_end(r->cfg.policy, d, fr, ne, i != j);
	if (res != ADD_OK)
		return res;

	if (i == j) { /* no overlap: the common case */
		res = add_clear(r, s, d, fr, i, ne);
	} else {
		*overlapped = true;
		if (r->cfg.policy == REASM_STRICT) {
			/* Inside one run of back-to-back pieces: a
			 * duplicate (runs are contiguous). */
			bool inside = d->pieces[i].start <= ns &&
				      d->pieces[j - 1].end >= ne &&
				      d->pieces[i].run == d->pieces[j - 1].run;
			return inside ? ADD_DUP : KILL_OVERLAP;
		}
		res = add_overlap(r, s, d, fr, i, j, ne);
	}
	if (res == ADD_OK)
		note_held(d, fr, ne);
	return res;
}

REASM_INTERNAL bool dgram_complete(const struct dgram *d)
{
	return (d->flags & (FIRST_IN | LAST_IN | STALLED)) ==
		       (FIRST_IN | LAST_IN) &&
	       d->meat == d->len;
}
