/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.c - the frames the engine hands on: written into the worker's
 * sink or a reasm_out for its emit callback, counted the same either way.
 * A frame passed through unchanged, an IPv6 atomic fragment without its
 * Fragment header, and a completed datagram rebuilt from its pieces: the
 * offset-0 fragment's headers (outer ones stripped with --decap-strip),
 * the lengths, DF (IPv4), the ECN codepoint and the checksums set again.
 * Nothing here runs under a stripe lock but head_size() and head_copy(),
 * with which take_head() records the offset-0 fragment's headers.
 *
 * References: Linux net/ipv4/ip_fragment.c (ip_frag_reasm(): ECN table,
 * DF rule) and net/ipv6/reassembly.c (nhoff patching); RFC 3168 section
 * 5.3, RFC 6946.
 */
#define _GNU_SOURCE
#include "engine_int.h"

#include <stdlib.h>
#include <string.h>

/* --- output frames ------------------------------------------------------- */

/* A reasm_out of @p len bytes stamped @p ts, reassembled until told
 * otherwise; NULL for want of memory. */
static struct reasm_out *out_alloc(size_t len, uint64_t ts)
{
	struct reasm_out *o = malloc(sizeof(*o) + len);

	if (o == NULL)
		return NULL;
	o->ts_ns = ts;
	o->len = (uint32_t)len;
	o->orig_len = (uint32_t)len;
	o->dscp = 0;
	o->reassembled = true;
	return o;
}

/* The output frame @p m in the reasm_out @p o, its header filled. */
static void out_fill(struct reasm_out *o, const struct reasm_meta *m,
		     struct out_dst *dst)
{
	o->ts_ns = m->ts_ns;
	o->len = m->len;
	o->orig_len = m->orig_len;
	o->dscp = m->dscp;
	o->reassembled = m->reassembled;
	dst->o = o;
	dst->data = o->data;
}

static void emit(struct reasm_worker *w, struct reasm_out *o)
{
	w->st.emitted++;
	w->st.emitted_bytes += o->len;
	w->emit(o, w->emit_arg);
}

/* Begin the output frame @p m, whose first @p lead_len bytes will be
 * @p lead: in the sink's memory if it takes the frame, else in a
 * reasm_out (a declined frame takes the emit path, whole). @return false
 * for want of memory (nothing to undo). */
static bool out_begin(struct reasm_worker *w, const struct reasm_meta *m,
		      const uint8_t *lead, uint32_t lead_len,
		      struct out_dst *dst)
{
	const struct reasm_sink *s = w->sink;

	dst->o = NULL;
	if (s != NULL) {
		dst->data = s->reserve(s->arg, m, lead, lead_len);
		if (dst->data != NULL)
			return true;
	}
	struct reasm_out *o = out_alloc(m->len, m->ts_ns);
	if (o == NULL)
		return false;
	out_fill(o, m, dst);
	return true;
}

/* Hand over a frame begun with out_begin() and written whole: committed
 * to the sink or emitted, and counted the same either way. */
REASM_INTERNAL void out_end(struct reasm_worker *w, const struct reasm_meta *m,
			    struct out_dst *dst)
{
	if (dst->o != NULL) {
		emit(w, dst->o);
		return;
	}
	w->st.emitted++;
	w->st.emitted_bytes += m->len;
	w->sink->commit(w->sink->arg, dst->data, m);
}

/* Give up a frame begun with out_begin(): a reservation simply lapses
 * (reasm.h: the next reserve may hand out the same memory). */
static void out_drop(struct out_dst *dst)
{
	free(dst->o);
}

/* --- headers ------------------------------------------------------------- */

/* Are @p fr's outer headers left out of its output? */
static bool strips(const struct reasm *r, const struct frag *fr)
{
	if (!r->cfg.decap_strip || fr->enc.outer_family == 0)
		return false;
	/* DLT_IPV4 and DLT_IPV6 cannot say that the family changed. */
	return fr->enc.type_kind != TYPE_FIXED ||
	       fr->enc.outer_family == fr->family;
}

/* Bytes of output headers for the first @p n bytes of @p fr (link and IP
 * headers through the fragment's, outer ones included). */
REASM_INTERNAL uint32_t head_size(const struct reasm *r, const struct frag *fr,
				  uint32_t n)
{
	return strips(r, fr) ? n - (fr->l3 - fr->enc.outer) : n;
}

/* Copy the first @p n bytes of @p fr into @p dst (head_size() bytes),
 * without the outer headers when they are stripped (the link's type field
 * then names the inner family). @return the offset of the fragment's IP
 * header in @p dst; *eo: the length fields that remain in @p dst. */
REASM_INTERNAL uint32_t head_copy(const struct reasm *r, const struct frag *fr,
				  uint32_t n, uint8_t *dst, struct encap *eo)
{
	*eo = fr->enc;
	if (!strips(r, fr)) {
		memcpy(dst, fr->frame, n);
		return fr->l3;
	}
	uint32_t o = fr->enc.outer;
	memcpy(dst, fr->frame, o);
	memcpy(dst + o, fr->frame + fr->l3, n - fr->l3);
	eo->outer = 0;
	eo->outer_family = 0;
	eo->gre = 0;
	eo->gre_hlen = 0;
	bool v4 = fr->family == 4;
	switch (fr->enc.type_kind) {
	case TYPE_ETHER:
		inet_wr16(dst + eo->type_off,
			  v4 ? INET_ETH_IPV4 : INET_ETH_IPV6);
		break;
	case TYPE_PPP2:
		inet_wr16(dst + eo->type_off, v4 ? 0x0021 : 0x0057);
		break;
	case TYPE_PPP1:
		dst[eo->type_off] = v4 ? 0x21 : 0x57;
		break;
	default:
		break;
	}
	return o;
}

/* Set the length fields of @p e's headers in the @p n-byte frame @p f
 * (PPPoE, GRE version 1, the outer IP header) and its checksums (GRE's,
 * when present, the outer IPv4 header's). @return false if a length does
 * not fit its field. */
static bool encap_fix(const struct encap *e, uint8_t *f, size_t n)
{
	if (e->pppoe != 0) {
		if (n - (e->pppoe + 6) > 0xffffu)
			return false;
		inet_wr16(f + e->pppoe + 4, (uint16_t)(n - (e->pppoe + 6)));
	}
	if (e->gre != 0) {
		uint8_t *g = f + e->gre;
		if ((e->gre_flags & 7) == 1) {
			if (n - (e->gre + e->gre_hlen) > 0xffffu)
				return false;
			inet_wr16(g + 4,
				  (uint16_t)(n - (e->gre + e->gre_hlen)));
		} else if (e->gre_flags & 0x8000) {
			inet_wr16(g + 4, 0);
			inet_wr16(g + 4, inet_csum(g, n - e->gre));
		}
	}
	if (e->outer_family == 4) {
		uint8_t *ip = f + e->outer;
		if (n - e->outer > 0xffffu)
			return false;
		inet_wr16(ip + 2, (uint16_t)(n - e->outer));
		inet_wr16(ip + 10, 0);
		inet_wr16(ip + 10, inet_csum(ip, (size_t)(ip[0] & 15) * 4));
	} else if (e->outer_family == 6) {
		if (n - e->outer - 40 > 0xffffu)
			return false;
		inet_wr16(f + e->outer + 4, (uint16_t)(n - e->outer - 40));
	}
	return true;
}

/* --- frames that pass, atomic fragments, rebuilt datagrams --------------- */

/* @p fr emitted unchanged. @return 1, or 0 for want of memory. */
REASM_INTERNAL int pass_through(struct reasm_worker *w, const struct frag *fr,
				uint64_t now)
{
	struct reasm_meta m = {
		.ts_ns = now,
		.len = fr->caplen,
		.orig_len = fr->wirelen,
		.dscp = dscp_of(w->r, fr->frame, fr->caplen),
		.reassembled = false,
	};
	struct out_dst dst;

	w->st.passed++;
	if (!out_begin(w, &m, fr->frame, fr->caplen, &dst)) {
		w->st.no_memory++;
		return 0;
	}
	memcpy(dst.data, fr->frame, fr->caplen);
	out_end(w, &m, &dst);
	return 1;
}

/* An IPv6 atomic fragment (RFC 6946): emitted alone, Fragment header
 * removed. */
REASM_INTERNAL int emit_atomic(struct reasm_worker *w, const struct frag *fr,
			       uint64_t now)
{
	uint32_t n = fr->l3 + fr->fh_off;
	uint32_t head = head_size(w->r, fr, n);
	struct reasm_out *o = out_alloc(head + fr->len, now);
	struct encap e;

	if (o == NULL) {
		w->st.no_memory++;
		w->st.frags_no_memory++;
		w->st.frags_dropped++;
		return 0;
	}
	bool nested = v6_nested_frag(fr->payload, fr->len, fr->v6_nexthdr);
	bool refused = v6_refused(fr->frame + fr->l3, fr->fh_off, fr->payload,
				  fr->len, fr->v6_nexthdr);
	if (nested)
		w->st.nested_frag++;
	if (refused)
		w->st.bad_ext++;
	if ((nested || refused) && w->r->cfg.policy == REASM_STRICT) {
		/* A datagram of one fragment, discarded. */
		free(o);
		w->st.ReasmFails++;
		w->st.frags_discarded++;
		return 0;
	}
	uint32_t l3 = head_copy(w->r, fr, n, o->data, &e);
	memcpy(o->data + head, fr->payload, fr->len);
	uint8_t *ip = o->data + l3;
	ip[fr->nh_off] = fr->v6_nexthdr;
	inet_wr16(ip + 4, (uint16_t)(fr->fh_off - 40 + fr->len));
	if (!encap_fix(&e, o->data, o->len)) {
		free(o);
		w->st.too_big++;
		w->st.ReasmFails++;
		w->st.frags_discarded++;
		return 0;
	}
	o->dscp = fr->tos >> 2;
	w->st.atomic++;
	w->st.ReasmOKs++;
	w->st.frags_reassembled++;
	emit(w, o);
	return 1;
}

/* RFC 3168 section 5.3: -1 discards the datagram, 3 sets CE, 0 keeps the
 * offset-0 fragment's codepoint. */
static int ecn_combine(uint8_t bits)
{
	if ((bits & 1) && (bits & ~1u))
		return -1; /* Not-ECT mixed with ECT or CE */
	if ((bits & 8) && (bits & 6))
		return 3; /* CE is never lost */
	return 0;
}

/* The DSCP of @p d's output: its IP header's in d->head (the ECN bits
 * dgram_rebuild() may set are not part of it). */
static uint8_t dgram_dscp(const struct dgram *d)
{
	const uint8_t *ip = d->head + d->l2_len;

	if (d->key.family == 4)
		return ip[1] >> 2;
	return (uint8_t)((((ip[0] & 15) << 4) | (ip[1] >> 4)) >> 2);
}

/* How many bytes at the start of @p d's output dgram_rebuild() writes as
 * d->head holds them: up to the first field it sets (the IP header's;
 * before it, the PPPoE length, the outer IP header's length, GRE's
 * checksum or length). Ethernet: at least the header through its type
 * field. */
static uint32_t dgram_lead(const struct dgram *d)
{
	const struct encap *e = &d->enc;
	uint32_t n = d->l2_len;

	if (e->pppoe != 0 && e->pppoe + 4 < n)
		n = e->pppoe + 4;
	if (e->outer_family != 0 && e->outer + 2 < n)
		n = e->outer + 2;
	if (e->gre != 0 && e->gre + 4 < n)
		n = e->gre + 4;
	return n;
}

/* Copy @p d's pieces to @p to (payload byte 0); @p all: those in place
 * in its buffer too. */
static void pieces_copy(const struct dgram *d, uint8_t *to, bool all)
{
	for (uint32_t k = 0; k < d->npieces; k++) {
		const struct piece *p = &d->pieces[k];
		if (all || p->buf != NULL)
			memcpy(to + p->start, piece_bytes(d, p),
			       p->end - p->start);
	}
}

/*
 * Begin @p d's output frame @p m, its payload in place after the headers'
 * bytes: the sink's reservation if it takes the frame; else, with the
 * default allocation hooks (malloc's, so that reasm_out_free() frees it),
 * d's buffer itself when it holds the frame, taken from it, the pieces
 * not already in it copied in; else a new reasm_out. @return false for
 * want of memory (nothing to undo).
 */
static bool dgram_out_begin(struct reasm_worker *w, struct dgram *d,
			    const struct reasm_meta *m, struct out_dst *dst)
{
	const struct reasm_sink *s = w->sink;

	dst->o = NULL;
	if (s != NULL) {
		dst->data = s->reserve(s->arg, m, d->head, dgram_lead(d));
		if (dst->data != NULL) {
			pieces_copy(d, dst->data + d->head_len, true);
			return true;
		}
	}
	struct reasm_out *o = d->buf;
	if (w->r->ap == NULL && o != NULL && d->room == d->head_len &&
	    d->buf_cap >= d->len) {
		pieces_copy(d, dgram_payload(d), false);
		d->buf = NULL; /* the output's now */
		out_fill(o, m, dst);
		return true;
	}
	o = out_alloc(m->len, m->ts_ns);
	if (o == NULL)
		return false;
	out_fill(o, m, dst);
	pieces_copy(d, o->data + d->head_len, true);
	return true;
}

/* Build the datagram (no lock held: it has left the table) into a frame
 * begun with dgram_out_begin() (the sink's reservation or a reasm_out),
 * left in *dst for out_end() on REBUILD_OK and dropped otherwise.
 * *nested: the payload holds an IPv6 Fragment header; *refused: the
 * headers hold one Linux refuses (v6_refused()); both whatever the
 * policy. */
REASM_INTERNAL enum rebuild_fail dgram_rebuild(struct reasm_worker *w,
					       struct dgram *d, uint64_t now,
					       struct reasm_meta *m,
					       struct out_dst *dst,
					       bool *nested, bool *refused)
{
	uint32_t l3len = d->head_len - d->l2_len; /* IP header (+ v6 ext) */
	int ecn = ecn_combine(d->ecn);

	if (ecn < 0)
		return REBUILD_BAD_ECN;
	/* 64-bit sums: nothing here can wrap. v4: header + data; v6: the
	 * payload, extension headers before the Fragment header included. */
	uint64_t size = (uint64_t)l3len + d->len;
	if (size > IP_MAXPACKET + (d->key.family == 6 ? 40u : 0u))
		return REBUILD_TOO_BIG;
	m->ts_ns = now;
	m->len = d->head_len + d->len;
	m->orig_len = m->len;
	m->dscp = dgram_dscp(d);
	m->reassembled = true;
	if (!dgram_out_begin(w, d, m, dst))
		return REBUILD_NO_MEMORY;
	uint8_t *f = dst->data;
	memcpy(f, d->head, d->head_len);
	uint8_t *data = f + d->head_len;
	uint8_t *ip = f + d->l2_len;
	if (d->key.family == 4) {
		inet_wr16(ip + 2, (uint16_t)(l3len + d->len));
		inet_wr16(ip + 6, d->max_df_size == d->max_size ? 0x4000 : 0);
		if (ecn == 3)
			ip[1] |= 3;
		inet_wr16(ip + 10, 0);
		inet_wr16(ip + 10, inet_csum(ip, l3len));
	} else {
		*nested = v6_nested_frag(data, d->len, d->v6_nexthdr);
		*refused = v6_refused(ip, l3len, data, d->len, d->v6_nexthdr);
		if ((*nested || *refused) && w->r->cfg.policy == REASM_STRICT) {
			out_drop(dst);
			return REBUILD_NESTED_FRAG;
		}
		ip[d->nh_off] = d->v6_nexthdr;
		inet_wr16(ip + 4, (uint16_t)(l3len - 40 + d->len));
		if (ecn == 3)
			ip[1] |= 0x30;
	}
	if (!encap_fix(&d->enc, f, m->len)) {
		out_drop(dst);
		return REBUILD_TOO_BIG;
	}
	return REBUILD_OK;
}
