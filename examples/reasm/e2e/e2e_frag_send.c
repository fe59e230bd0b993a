/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * e2e_frag_send - send crafted IPv4 and IPv6 fragment sets.
 *
 *   e2e_frag_send KIND --src4 A --dst4 B --src6 A --dst6 B --port PORT
 *                 [--family 4|6|both] [--seed S] [--count N]
 *                 [--id-base ID] [--gap-us US] [--seq-base N] [--dry-run]
 *                 [--show-frags] [--write-pcap FILE] [--from N]
 *                 [--src-spread N]
 *
 * Every set is one UDP datagram (source port 40000, destination PORT,
 * UDP checksum 0) whose payload is the e2e_payload.h payload of
 * (sender, seq), sender = E2E_SENDER_CRAFTED | kind << 16. Fragments are
 * built with pkt/pktbuild.h and sent whole (IP header included)
 * through raw sockets: AF_INET/IPPROTO_RAW (IP_HDRINCL; the kernel only
 * fills in the total length and the header checksum) and
 * AF_INET6/IPPROTO_RAW (the IPv6 header as given). Every fragment fits an
 * MTU of 1280.
 *
 * KIND
 *   control   one good datagram per family (3000 bytes, in order)
 *   overlap   per family: a set whose second fragment overlaps the first
 *             by 8 bytes (same bytes), and one where the overlapping bytes
 *             differ (RFC 5722: both discarded)
 *   pod       per family: "ping of death", fragments up to offset 65528
 *             and a last one ending past 65535
 *   teardrop  per family: [0,48) more-fragments, then a last fragment
 *             [24,28) inside it (the last fragment ends before data held)
 *   flood     --count first fragments (default 8000; families alternate,
 *             every one with its own id) that never complete
 *   attacks   control, overlap, control, pod, control, teardrop, control,
 *             flood, control
 *   diff      --count sequences (default 200) generated from --seed:
 *             in order, reversed, shuffled, duplicates, exact duplicates,
 *             same-offset different bytes, partial overlaps (same and
 *             different bytes), gaps, fragments spanning a run,
 *             non-last lengths not a multiple of 8, two different last
 *             fragments, data past the end, zero-length fragments, IPv6
 *             atomic fragments, a fragment ending past byte 65535, IPv6
 *             datagrams whose fragmentable part opens with a Hop-by-Hop
 *             header; families alternate (even sequences
 *             IPv4). --from N starts at sequence N (each sequence is
 *             the same, numbers included, whatever N). Whether each one is
 *             delivered is whatever the reassembler in the path decides:
 *             the point is to compare two runs.
 *   diff-overlap  the same, but every sequence is one of the shapes that
 *             make a reassembler choose between copies of the same bytes:
 *             exact duplicates, contained and same-offset different
 *             bytes, partial overlaps (same and different bytes),
 *             fragments spanning a run, two different last fragments,
 *             a duplicate of the last fragment, data past the end; and
 *             every other sequence also gets an exact duplicate of one
 *             of its fragments on top ("+dup"). Its own random stream:
 *             sequence i differs from diff's sequence i.
 *
 * --src-spread N (diff kinds; default 1): sequence i comes from the
 * source address + 16 * ((i / 2) % N) (the last 16 bits of the IPv6
 * one), so that a receiver spreading flows by address (PACKET_FANOUT_HASH
 * hashes a fragment on its addresses) spreads the sequences too. The
 * addresses need not be the sender's: raw sockets send the header given.
 *
 * Identification: IPv4 ids and IPv6 ids start at --id-base (default 1000)
 * and go up by one per set; two runs through the same receiver should use
 * different bases, so that a queue left incomplete by the first run never
 * meets fragments of the second. --seq-base: the first sequence number
 * (default 0; the "attacks" kind numbers its sets on from it).
 *
 * Output, one line per set, before it is sent:
 *   set v4|v6 SENDER SEQ KIND SHAPE deliver|drop|any FRAGMENTS
 * (SENDER in hex; "any" for diff sets), and with --show-frags one line per
 * fragment in the order sent:
 *   frag OFFSET LENGTH mf|last own-bytes|other-bytes
 * --dry-run prints without sending. --write-pcap FILE writes the fragments
 * as an Ethernet capture (pktbuild's MAC addresses, stamps 1 ms apart)
 * instead of sending them: `reasm --read FILE` then replays a run
 * offline, in the same order.
 * Exits 0, 1 if a send failed, 2 on a usage error.
 */
#define _GNU_SOURCE
#include "e2e_payload.h"
#include "e2e_util.h"
#include "pktbuild.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define UDP_SPORT 40000
#define MAX_FRAG_V4 1256u /* (1280 - 20) rounded down to 8 */
#define MAX_FRAG_V6 1232u /* 1280 - 40 - 8 */

enum kind {
	K_CONTROL = 1,
	K_OVERLAP,
	K_POD,
	K_TEARDROP,
	K_FLOOD,
	K_DIFF,
};

struct opts {
	struct sockaddr_in sa4;
	struct sockaddr_in6 sa6;
	uint32_t src4_host, dst4_host;
	uint8_t src6[16], dst6[16];
	bool have4, have6;
	bool do4, do6;
	unsigned port;
	uint64_t seed;
	unsigned count;
	bool count_set;
	unsigned from;	     /* diff: the first sequence */
	unsigned src_spread; /* diff: source addresses, 16 apart */
	uint32_t id_next;
	uint32_t seq_next;
	unsigned gap_us;
	bool dry_run;
	bool quiet;	 /* no "set" line per set */
	bool show_frags; /* a "frag" line per fragment */
	FILE *pcap;	 /* --write-pcap: frames go here, not out */
	uint64_t pcap_us;
	int fd4, fd6;
	unsigned long long frames_sent;
	int failed;
};

/* One fragment of a set. */
struct frag {
	uint32_t off, len;
	bool mf;
	uint8_t *bytes; /* NULL: the datagram's own bytes; else owned */
};

/* A set: the datagram (UDP header and payload) and its fragments in the
 * order they are sent. */
struct set {
	int fam;
	uint32_t sender, seq, id;
	uint32_t src_add; /* added to the source address */
	uint8_t proto;	  /* the first header of the fragmentable part */
	uint8_t *data;
	size_t len;
	struct frag *f;
	size_t n, cap;
};

static _Noreturn void usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "e2e_frag_send: %s\n", msg);
	fprintf(stderr,
		"usage: e2e_frag_send "
		"control|overlap|pod|teardrop|flood|attacks|diff|"
		"diff-overlap\n"
		"         --src4 A --dst4 B --src6 A --dst6 B --port PORT "
		"[--family 4|6|both]\n"
		"         [--seed S] [--count N] [--id-base ID] "
		"[--seq-base N] [--gap-us US] [--dry-run]\n"
		"         [--show-frags] [--write-pcap FILE] [--from N] "
		"[--src-spread N]\n");
	exit(2);
}

static unsigned long long num(const char *s, unsigned long long lo,
			      unsigned long long hi, const char *what)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || end == s || v < lo || v > hi) {
		fprintf(stderr, "e2e_frag_send: %s: %s out of range\n", what,
			s);
		exit(2);
	}
	return v;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL) {
		fputs("e2e_frag_send: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

/* --- Random numbers (splitmix64) ----------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state += 0x9e3779b97f4a7c15ull;
	return e2e_mix64(rng_state);
}

/* Uniform in [lo, hi]. */
static uint32_t rnd_in(uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(rnd() % ((uint64_t)hi - lo + 1));
}

/* --- Sets ------------------------------------------------------------------ */

/* A set of family @p fam whose datagram is a UDP header and a payload of
 * @p paylen bytes; the UDP length field is 0 when it does not fit. */
static void set_init(struct opts *o, struct set *s, int fam, enum kind k,
		     size_t paylen)
{
	memset(s, 0, sizeof(*s));
	s->fam = fam;
	s->sender = E2E_SENDER_CRAFTED | (uint32_t)k << 16;
	s->seq = o->seq_next++;
	s->id = o->id_next++;
	if (fam == 4 && (s->id & 0xffff) == 0)
		s->id = o->id_next++; /* the kernel replaces id 0 */
	s->len = 8 + paylen;
	s->proto = PB_IPPROTO_UDP;
	s->data = xmalloc(s->len);
	pb_udp_hdr(s->data, UDP_SPORT, (uint16_t)o->port,
		   (uint16_t)(s->len <= 65535 ? s->len : 0));
	e2e_payload_fill(s->data + 8, paylen, s->sender, s->seq);
}

static void set_free(struct set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->f[i].bytes);
	free(s->f);
	free(s->data);
}

/* Insert a fragment at position @p at (s->n: at the end). @p bytes: NULL
 * for the datagram's own bytes, or @p len bytes to copy. */
static void set_insert(struct set *s, size_t at, uint32_t off, uint32_t len,
		       bool mf, const uint8_t *bytes)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		struct frag *nf = realloc(s->f, s->cap * sizeof(*nf));
		if (nf == NULL)
			usage("out of memory");
		s->f = nf;
	}
	memmove(&s->f[at + 1], &s->f[at], (s->n - at) * sizeof(*s->f));
	struct frag *f = &s->f[at];
	f->off = off;
	f->len = len;
	f->mf = mf;
	f->bytes = NULL;
	if (bytes) {
		f->bytes = xmalloc(len);
		memcpy(f->bytes, bytes, len);
	}
	s->n++;
}

static void set_add(struct set *s, uint32_t off, uint32_t len, bool mf,
		    const uint8_t *bytes)
{
	set_insert(s, s->n, off, len, mf, bytes);
}

static void set_remove(struct set *s, size_t at)
{
	free(s->f[at].bytes);
	memmove(&s->f[at], &s->f[at + 1], (s->n - at - 1) * sizeof(*s->f));
	s->n--;
}

/* Cut the datagram into fragments of @p chunk bytes, in order. */
static void set_split(struct set *s, uint32_t chunk)
{
	for (uint32_t off = 0; off < s->len; off += chunk) {
		uint32_t len = (uint32_t)s->len - off;
		bool mf = len > chunk;
		if (mf)
			len = chunk;
		set_add(s, off, len, mf, NULL);
	}
}

static uint32_t max_frag(int fam)
{
	return fam == 4 ? MAX_FRAG_V4 : MAX_FRAG_V6;
}

/* @p len bytes of junk: the datagram's bytes at @p off, inverted (so
 * they always differ), past its end pattern bytes. */
static uint8_t *junk(const struct set *s, uint32_t off, uint32_t len)
{
	uint8_t *j = xmalloc(len);
	for (uint32_t i = 0; i < len; i++)
		j[i] = off + i < s->len ? (uint8_t)~s->data[off + i]
					: (uint8_t)(0xa5 ^ i);
	return j;
}

/* The datagram's bytes [off, off+len), then junk past its end. */
static uint8_t *bytes_past_end(const struct set *s, uint32_t off, uint32_t len)
{
	uint8_t *j = xmalloc(len);
	for (uint32_t i = 0; i < len; i++)
		j[i] = off + i < s->len ? s->data[off + i]
					: (uint8_t)(0x5a ^ i);
	return j;
}

/* The fragmentable part opens with an 8-byte Hop-by-Hop header (Next
 * Header UDP, a PadN option) before the UDP header. */
static void set_hbh_inside(struct set *s)
{
	uint8_t *d = xmalloc(s->len + 8);

	memset(d, 0, 8);
	d[0] = 17; /* UDP */
	d[2] = 1;  /* PadN, 4 bytes */
	d[3] = 4;
	memcpy(d + 8, s->data, s->len);
	free(s->data);
	s->data = d;
	s->len += 8;
	s->proto = 0; /* Hop-by-Hop */
}

static void shuffle(struct set *s)
{
	for (size_t i = s->n; i > 1; i--) {
		size_t j = (size_t)(rnd() % i);
		struct frag t = s->f[i - 1];
		s->f[i - 1] = s->f[j];
		s->f[j] = t;
	}
}

static void reverse(struct set *s)
{
	for (size_t i = 0, j = s->n ? s->n - 1 : 0; i < j; i++, j--) {
		struct frag t = s->f[i];
		s->f[i] = s->f[j];
		s->f[j] = t;
	}
}

/* --- Capture files ------------------------------------------------------------ */

static void pcap_record(struct opts *o, const struct pb_frame *fr)
{
	e2e_pcap_record(o->pcap, 1700000000ull * 1000000 + o->pcap_us, fr->data,
			fr->caplen);
	o->pcap_us += 1000;
}

/* --- Sending ------------------------------------------------------------------ */

static void send_set(struct opts *o, const struct set *s, const char *kind,
		     const char *shape, const char *expect)
{
	if (!o->quiet)
		printf("set v%d %08x %u %s %s %s %zu\n", s->fam, s->sender,
		       s->seq, kind, shape, expect, s->n);
	for (size_t i = 0; o->show_frags && !o->quiet && i < s->n; i++)
		printf("  frag %u %u %s %s\n", s->f[i].off, s->f[i].len,
		       s->f[i].mf ? "mf" : "last",
		       s->f[i].bytes ? "other-bytes" : "own-bytes");
	if (o->dry_run)
		return;

	struct pb_dgram d;
	if (s->fam == 4) {
		pb_dgram_v4(&d, PB_DLT_RAW, (uint16_t)s->id, PB_IPPROTO_UDP,
			    s->data, s->len);
		d.v4.src = o->src4_host + s->src_add;
		d.v4.dst = o->dst4_host;
	} else {
		pb_dgram_v6(&d, PB_DLT_RAW, s->id, s->proto, s->data, s->len);
		memcpy(d.v6.src, o->src6, 16);
		uint32_t low = ((uint32_t)d.v6.src[14] << 8 | d.v6.src[15]) +
			       s->src_add;
		d.v6.src[14] = (uint8_t)(low >> 8);
		d.v6.src[15] = (uint8_t)low;
		memcpy(d.v6.dst, o->dst6, 16);
	}
	if (o->pcap)
		d.link.dlt = PB_DLT_ETHERNET;
	for (size_t i = 0; i < s->n; i++) {
		const struct frag *f = &s->f[i];
		struct pb_frame *fr =
			pb_frag(&d, f->off, f->bytes, f->len, f->mf);
		if (o->pcap) {
			pcap_record(o, fr);
			o->frames_sent++;
			pb_frame_free(fr);
			continue;
		}
		const struct sockaddr *sa =
			s->fam == 4 ? (const struct sockaddr *)&o->sa4
				    : (const struct sockaddr *)&o->sa6;
		socklen_t salen = s->fam == 4 ? sizeof(o->sa4) : sizeof(o->sa6);
		int fd = s->fam == 4 ? o->fd4 : o->fd6;
		for (;;) {
			ssize_t n = sendto(fd, fr->data + fr->l3off,
					   fr->caplen - fr->l3off, 0, sa,
					   salen);
			if (n >= 0) {
				o->frames_sent++;
				break;
			}
			if (errno == ENOBUFS || errno == EAGAIN ||
			    errno == EINTR) {
				usleep(1000);
				continue;
			}
			fprintf(stderr,
				"e2e_frag_send: v%d set %u fragment %zu "
				"(offset %u, %u bytes): %s\n",
				s->fam, s->seq, i, f->off, f->len,
				strerror(errno));
			o->failed = 1;
			break;
		}
		pb_frame_free(fr);
	}
	if (o->gap_us && !o->pcap)
		usleep(o->gap_us);
}

/* --- Kinds ------------------------------------------------------------------ */

static bool fam_on(const struct opts *o, int fam)
{
	return fam == 4 ? o->do4 : o->do6;
}

static void kind_control(struct opts *o)
{
	for (int fam = 4; fam <= 6; fam += 2) {
		if (!fam_on(o, fam))
			continue;
		struct set s;
		set_init(o, &s, fam, K_CONTROL, 3000);
		set_split(&s, max_frag(fam));
		send_set(o, &s, "control", "in-order", "deliver");
		set_free(&s);
	}
}

static void kind_overlap(struct opts *o)
{
	for (int fam = 4; fam <= 6; fam += 2) {
		if (!fam_on(o, fam))
			continue;
		for (int diff = 0; diff < 2; diff++) {
			struct set s;
			set_init(o, &s, fam, K_OVERLAP, 3000);
			/* [0,1232) [1224,2456) [2456,end): 8 bytes of
			 * overlap. */
			set_add(&s, 0, 1232, true, NULL);
			if (diff) {
				uint8_t *b = xmalloc(1232);
				memcpy(b, s.data + 1224, 1232);
				for (int i = 0; i < 8; i++)
					b[i] = (uint8_t)~b[i];
				set_add(&s, 1224, 1232, true, b);
				free(b);
			} else {
				set_add(&s, 1224, 1232, true, NULL);
			}
			set_add(&s, 2456, (uint32_t)s.len - 2456, false, NULL);
			send_set(o, &s, "overlap",
				 diff ? "partial-diff" : "partial-same",
				 "drop");
			set_free(&s);
		}
	}
}

static void kind_pod(struct opts *o)
{
	for (int fam = 4; fam <= 6; fam += 2) {
		if (!fam_on(o, fam))
			continue;
		struct set s;
		/* 65544 bytes of IP payload: the last fragment sits at the
		 * largest offset (65528) and ends 9 bytes past 65535. */
		set_init(o, &s, fam, K_POD, 65544 - 8);
		uint32_t chunk = max_frag(fam);
		for (uint32_t off = 0; off < 65528; off += chunk) {
			uint32_t len = 65528 - off < chunk ? 65528 - off
							   : chunk;
			set_add(&s, off, len, true, NULL);
		}
		set_add(&s, 65528, 16, false, NULL);
		send_set(o, &s, "pod", "past-65535", "drop");
		set_free(&s);
	}
}

static void kind_teardrop(struct opts *o)
{
	for (int fam = 4; fam <= 6; fam += 2) {
		if (!fam_on(o, fam))
			continue;
		struct set s;
		set_init(o, &s, fam, K_TEARDROP, 48);
		set_add(&s, 0, 48, true, NULL);
		set_add(&s, 24, 4, false, NULL);
		send_set(o, &s, "teardrop", "last-inside-first", "drop");
		set_free(&s);
	}
}

static void kind_flood(struct opts *o)
{
	unsigned n = o->count_set ? o->count : 8000;
	unsigned gap = o->gap_us;
	unsigned long long before = o->frames_sent;
	int fams[2], nf = 0;
	if (o->do4)
		fams[nf++] = 4;
	if (o->do6)
		fams[nf++] = 6;

	/* One line for the lot; the gap applies every 64 fragments. */
	printf("flood %u first fragments\n", n);
	o->quiet = true;
	o->gap_us = 0;
	for (unsigned i = 0; i < n; i++) {
		int fam = fams[i % (unsigned)nf];
		struct set s;
		set_init(o, &s, fam, K_FLOOD, 2000);
		set_add(&s, 0, max_frag(fam), true, NULL);
		send_set(o, &s, "flood", "first-only", "drop");
		set_free(&s);
		if (gap && i % 64 == 63 && !o->dry_run)
			usleep(gap);
	}
	o->quiet = false;
	o->gap_us = gap;
	printf("flood sent %llu fragments\n", o->frames_sent - before);
}

/* --- diff: generated sequences ---------------------------------------------- */

enum shape {
	S_IN_ORDER,
	S_REVERSED,
	S_SHUFFLED,
	S_EXACT_DUP,
	S_CONTAINED_DIFF,
	S_SAME_OFFSET_DIFF,
	S_OVERLAP_SAME,
	S_OVERLAP_DIFF,
	S_GAP,
	S_SPAN_RUN,
	S_ODD_LENGTH,
	S_TWO_LASTS,
	S_PAST_END,
	S_ZERO_LENGTH,
	S_ATOMIC,
	S_PAST_MAX,
	S_HBH_INSIDE,
	S_DIFF_COUNT, /* the shapes of diff; those below only diff-overlap's */
	S_DUP_LAST = S_DIFF_COUNT,
	S_COUNT
};

static const char *const shape_names[S_COUNT] = {
	"in-order",	"reversed",	  "shuffled",
	"exact-dup",	"contained-diff", "same-offset-diff",
	"overlap-same", "overlap-diff",	  "gap",
	"span-run",	"odd-length",	  "two-lasts",
	"past-end",	"zero-length",	  "atomic",
	"past-65535",	"hbh-inside",	  "dup-last",
};

/* diff-overlap's shapes. */
static const enum shape overlap_shapes[] = {
	S_EXACT_DUP,	S_CONTAINED_DIFF, S_SAME_OFFSET_DIFF,
	S_OVERLAP_SAME, S_OVERLAP_DIFF,	  S_SPAN_RUN,
	S_TWO_LASTS,	S_DUP_LAST,	  S_PAST_END,
};
#define N_OVERLAP_SHAPES (sizeof(overlap_shapes) / sizeof(overlap_shapes[0]))

/* Insert @p bytes (or the datagram's own) as a fragment at a random
 * position. */
static void insert_random(struct set *s, uint32_t off, uint32_t len, bool mf,
			  const uint8_t *bytes)
{
	set_insert(s, (size_t)rnd_in(0, (uint32_t)s->n), off, len, mf, bytes);
}

/* apply_shape() for the shapes that move a fragment's edges: overlaps,
 * odd lengths, a second last fragment, one past the end. */
static void apply_edge_shape(struct set *s, enum shape sh, uint32_t len,
			     uint32_t mtu)
{
	size_t n = s->n;

	switch (sh) {
	case S_OVERLAP_SAME:
	case S_OVERLAP_DIFF: {
		/* Fragment k (not the last) grows by 8..64 bytes into the
		 * next; if the next is too short for that, the next one
		 * starts 8 bytes early instead. */
		size_t k = rnd_in(0, (uint32_t)n - 2);
		uint32_t grow = 8 * rnd_in(1, 8);
		if (grow > (s->f[k + 1].len & ~7u))
			grow = s->f[k + 1].len & ~7u;
		size_t m = k; /* the fragment made longer */
		if (grow == 0) {
			m = k + 1;
			s->f[m].off -= 8;
			s->f[m].len += 8;
		} else {
			s->f[m].len += grow;
		}
		if (sh == S_OVERLAP_DIFF) {
			/* Only the bytes that overlap differ. */
			uint8_t *b =
				bytes_past_end(s, s->f[m].off, s->f[m].len);
			uint32_t from = m == k ? s->f[m].len - grow : 0;
			uint32_t to = m == k ? s->f[m].len : 8;
			for (uint32_t x = from; x < to; x++)
				b[x] = (uint8_t)~b[x];
			s->f[m].bytes = b;
		}
		break;
	}
	case S_SPAN_RUN: {
		/* A fragment covering the end of k and the start of k + 1
		 * (inside the run they make when both came first: a
		 * duplicate; otherwise an overlap). */
		size_t k = rnd_in(0, (uint32_t)n - 2);
		struct frag a = s->f[k], b = s->f[k + 1];
		uint32_t from = a.off + a.len - 8, to = b.off + b.len;
		bool mf = b.mf;
		if (b.len > 8) {
			to = b.off + 8;
			mf = true;
		}
		if (rnd() & 1) {
			/* Or all of both, when that fits. */
			if (a.len + b.len <= mtu) {
				from = a.off;
				to = b.off + b.len;
				mf = b.mf;
			}
		}
		insert_random(s, from, to - from, mf, NULL);
		break;
	}
	case S_ODD_LENGTH: {
		/* A non-last fragment 1..7 bytes longer or shorter than the
		 * offset of the next one. */
		size_t k = rnd_in(0, (uint32_t)n - 2);
		uint32_t e = rnd_in(1, 7);
		if (rnd() & 1)
			s->f[k].len += e;
		else
			s->f[k].len -= e;
		break;
	}
	case S_TWO_LASTS: {
		/* A second last fragment, ending 8 bytes past the first. */
		struct frag f = s->f[n - 1];
		uint8_t *b = bytes_past_end(s, f.off, f.len + 8);
		insert_random(s, f.off, f.len + 8, false, b);
		free(b);
		break;
	}
	case S_PAST_END: {
		/* A more-fragments fragment reaching 8 bytes past the end. */
		uint32_t off = (len - 1) & ~7u;
		uint32_t flen = ((len - off + 7) & ~7u) + 8;
		uint8_t *b = bytes_past_end(s, off, flen);
		insert_random(s, off, flen, true, b);
		free(b);
		break;
	}
	default:
		break;
	}
}

/* Make the fragment set of a split datagram into shape @p sh (the
 * datagram @p len bytes, its fragments at most @p mtu); *@p mix says
 * whether the sequence is shuffled after, and some shapes decide it. */
static void apply_shape(struct set *s, enum shape sh, uint32_t len,
			uint32_t mtu, bool *mix)
{
	size_t n = s->n;

	switch (sh) {
	case S_IN_ORDER:
		*mix = false;
		break;
	case S_REVERSED:
		reverse(s);
		*mix = false;
		break;
	case S_SHUFFLED:
		*mix = true;
		break;
	case S_EXACT_DUP: {
		struct frag f = s->f[rnd_in(0, (uint32_t)n - 1)];
		insert_random(s, f.off, f.len, f.mf, NULL);
		break;
	}
	case S_CONTAINED_DIFF: {
		/* Different bytes in [a, b), inside one non-last fragment
		 * (so a multiple of 8 long). */
		struct frag f = s->f[rnd_in(0, (uint32_t)n - 2)];
		uint32_t units = f.len / 8;
		uint32_t a = rnd_in(0, units - 1), b = rnd_in(a + 1, units);
		uint8_t *j = junk(s, f.off + 8 * a, 8 * (b - a));
		insert_random(s, f.off + 8 * a, 8 * (b - a), true, j);
		free(j);
		break;
	}
	case S_SAME_OFFSET_DIFF: {
		struct frag f = s->f[rnd_in(0, (uint32_t)n - 1)];
		uint8_t *j = junk(s, f.off, f.len);
		insert_random(s, f.off, f.len, f.mf, j);
		free(j);
		break;
	}
	case S_OVERLAP_SAME:
	case S_OVERLAP_DIFF:
	case S_SPAN_RUN:
	case S_ODD_LENGTH:
	case S_TWO_LASTS:
	case S_PAST_END:
		apply_edge_shape(s, sh, len, mtu);
		break;
	case S_PAST_MAX: {
		/* A more-fragments fragment of 8..64 bytes at offset 65528,
		 * ending past 65535. Linux drops it alone in IPv6; in IPv4
		 * it raises the queue's length, which the real last fragment
		 * then ends short of (or it lies past the last fragment
		 * already in): nothing is delivered. */
		uint32_t flen = 8 * rnd_in(1, 8);
		uint8_t *b = junk(s, 65528, flen);
		insert_random(s, 65528, flen, true, b);
		free(b);
		break;
	}
	case S_GAP:
		set_remove(s, rnd_in(0, (uint32_t)n - 1));
		break;
	case S_ZERO_LENGTH:
		insert_random(s, 8 * rnd_in(0, (len - 1) / 8), 0, true, NULL);
		break;
	case S_ATOMIC:
		/* The whole datagram as an atomic fragment (offset 0, M 0,
		 * the same id) among its own fragments: RFC 6946 has it
		 * processed alone, so a receiver that follows it gets the
		 * datagram twice. */
		insert_random(s, 0, len, false, NULL);
		break;
	case S_HBH_INSIDE:
		/* set_hbh_inside() made the fragmentable part start with a
		 * Hop-by-Hop header: Linux answers Parameter Problem once the
		 * datagram is whole, and delivers nothing. */
		break;
	case S_DUP_LAST: {
		/* The last fragment twice, the same bytes. */
		struct frag f = s->f[n - 1];
		insert_random(s, f.off, f.len, false, NULL);
		break;
	}
	case S_COUNT:
		break;
	}
}

static void diff_one(struct opts *o, unsigned i, int fam, bool overlaps)
{
	enum shape sh;

	if (overlaps) {
		rng_state = (o->seed ^ 0x6f7665726c617073ull) *
				    0x2545f4914f6cdd1dull +
			    i;
		sh = overlap_shapes[rnd() % N_OVERLAP_SHAPES];
	} else {
		rng_state = o->seed * 0x2545f4914f6cdd1dull + i;
		sh = (enum shape)(rnd() % S_DIFF_COUNT);
		if ((sh == S_ATOMIC || sh == S_HBH_INSIDE) && fam == 4)
			sh = S_SHUFFLED; /* IPv6 only */
	}

	/* A UDP datagram of 64..5064 bytes (an atomic fragment carries it
	 * whole, so then at most 1008), cut into 2..12 fragments of
	 * at most the MTU's worth less 64 bytes: room for the shapes that
	 * make a fragment longer. */
	size_t paylen = 56 + rnd_in(0, sh == S_ATOMIC ? 944 : 5000);
	struct set s;
	set_init(o, &s, fam, K_DIFF, paylen);
	s.src_add = 16u * ((i / 2) % o->src_spread);
	if (sh == S_HBH_INSIDE)
		set_hbh_inside(&s);
	uint32_t len = (uint32_t)s.len, mtu = max_frag(fam);
	uint32_t lo = (len / 12 + 7) & ~7u, hi = mtu - 64;
	if (lo < 8)
		lo = 8;
	if (hi > ((len - 1) & ~7u))
		hi = (len - 1) & ~7u; /* at least two fragments */
	if (lo > hi)
		lo = hi;
	set_split(&s, 8 * rnd_in(lo / 8, hi / 8));
	bool mix = rnd() & 1; /* shuffle what the shape made */

	apply_shape(&s, sh, len, mtu, &mix);
	/* diff-overlap: every other sequence also repeats one of the
	 * fragments the shape made, exactly (its bytes included). */
	bool dup = overlaps && (rnd() & 1);
	if (dup) {
		struct frag f = s.f[rnd_in(0, (uint32_t)s.n - 1)];
		insert_random(&s, f.off, f.len, f.mf, f.bytes);
	}
	if (mix)
		shuffle(&s);
	char shape[48];
	snprintf(shape, sizeof(shape), "%s%s%s", shape_names[sh],
		 dup ? "+dup" : "", mix && sh != S_SHUFFLED ? "+shuffled" : "");
	send_set(o, &s, overlaps ? "diff-overlap" : "diff", shape, "any");
	set_free(&s);
}

static void kind_diff(struct opts *o, bool overlaps)
{
	unsigned n = o->count_set ? o->count : 200;
	uint32_t seq0 = o->seq_next, id0 = o->id_next;
	for (unsigned i = o->from; i < o->from + n; i++) {
		/* Sequence i has the same numbers whatever --from is. */
		o->seq_next = seq0 + i;
		o->id_next = id0 + i;
		int fam = (o->do4 && o->do6) ? (i % 2 ? 6 : 4) : o->do4 ? 4 : 6;
		diff_one(o, i, fam, overlaps);
	}
}

/* --- main ------------------------------------------------------------------- */

/* The command line into @p o and *@p family; @return the KIND. Usage
 * errors exit(2). */
static const char *parse_args(struct opts *o, int argc, char **argv,
			      const char **family)
{
	const char *kind = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			usage(NULL);
		if (a[0] != '-') {
			if (kind)
				usage("more than one KIND");
			kind = a;
			continue;
		}
		if (strcmp(a, "--dry-run") == 0) {
			o->dry_run = true;
			continue;
		}
		if (strcmp(a, "--show-frags") == 0) {
			o->show_frags = true;
			continue;
		}
		const char *v = i + 1 < argc ? argv[++i] : NULL;
		if (v == NULL)
			usage("missing value");
		if (strcmp(a, "--src4") == 0 || strcmp(a, "--dst4") == 0) {
			struct in_addr ad;
			if (inet_pton(AF_INET, v, &ad) != 1)
				usage("bad IPv4 address");
			if (a[2] == 's')
				o->src4_host = ntohl(ad.s_addr);
			else {
				o->dst4_host = ntohl(ad.s_addr);
				o->sa4.sin_family = AF_INET;
				o->sa4.sin_addr = ad;
			}
			o->have4 = true;
		} else if (strcmp(a, "--src6") == 0 ||
			   strcmp(a, "--dst6") == 0) {
			struct in6_addr ad;
			if (inet_pton(AF_INET6, v, &ad) != 1)
				usage("bad IPv6 address");
			if (a[2] == 's')
				memcpy(o->src6, &ad, 16);
			else {
				memcpy(o->dst6, &ad, 16);
				o->sa6.sin6_family = AF_INET6;
				o->sa6.sin6_addr = ad;
			}
			o->have6 = true;
		} else if (strcmp(a, "--write-pcap") == 0) {
			o->pcap = strcmp(v, "-") == 0 ? stdout : fopen(v, "wb");
			if (o->pcap == NULL) {
				perror(v);
				exit(2);
			}
			e2e_pcap_header(o->pcap);
		} else if (strcmp(a, "--port") == 0)
			o->port = (unsigned)num(v, 1, 65535, a);
		else if (strcmp(a, "--family") == 0)
			*family = v;
		else if (strcmp(a, "--seed") == 0)
			o->seed = num(v, 0, UINT64_MAX, a);
		else if (strcmp(a, "--count") == 0) {
			o->count = (unsigned)num(v, 1, 1000000, a);
			o->count_set = true;
		} else if (strcmp(a, "--id-base") == 0)
			o->id_next = (uint32_t)num(v, 1, 0xffffffffu, a);
		else if (strcmp(a, "--from") == 0)
			o->from = (unsigned)num(v, 0, 1000000, a);
		else if (strcmp(a, "--seq-base") == 0)
			o->seq_next = (uint32_t)num(v, 0, 0x7fffffffu, a);
		else if (strcmp(a, "--gap-us") == 0)
			o->gap_us = (unsigned)num(v, 0, 10000000, a);
		else if (strcmp(a, "--src-spread") == 0)
			o->src_spread = (unsigned)num(v, 1, 256, a);
		else
			usage("unknown option");
	}
	return kind;
}

/* Send (or write, or print) the sequences of KIND @p kind. */
static void run_kind(struct opts *o, const char *kind)
{
	if (strcmp(kind, "control") == 0)
		kind_control(o);
	else if (strcmp(kind, "overlap") == 0)
		kind_overlap(o);
	else if (strcmp(kind, "pod") == 0)
		kind_pod(o);
	else if (strcmp(kind, "teardrop") == 0)
		kind_teardrop(o);
	else if (strcmp(kind, "flood") == 0)
		kind_flood(o);
	else if (strcmp(kind, "diff") == 0)
		kind_diff(o, false);
	else if (strcmp(kind, "diff-overlap") == 0)
		kind_diff(o, true);
	else if (strcmp(kind, "attacks") == 0) {
		kind_control(o);
		kind_overlap(o);
		kind_control(o);
		kind_pod(o);
		kind_control(o);
		kind_teardrop(o);
		kind_control(o);
		kind_flood(o);
		kind_control(o);
	} else
		usage("unknown KIND");
}

int main(int argc, char **argv)
{
	struct opts o = { .id_next = 1000,
			  .seed = 1,
			  .src_spread = 1,
			  .fd4 = -1,
			  .fd6 = -1 };
	const char *kind = NULL, *family = "both";

	if (argc < 2)
		usage(NULL);
	kind = parse_args(&o, argc, argv, &family);
	if (kind == NULL)
		usage("no KIND");
	if (o.port == 0)
		usage("--port is required");
	o.do4 = strcmp(family, "4") == 0 || strcmp(family, "both") == 0;
	o.do6 = strcmp(family, "6") == 0 || strcmp(family, "both") == 0;
	if (!o.do4 && !o.do6)
		usage("--family: 4, 6 or both");
	if (o.do4 && (!o.src4_host || !o.dst4_host))
		usage("IPv4 needs --src4 and --dst4 (or --family 6)");
	if (o.do6 && (o.src6[0] == 0 || o.dst6[0] == 0))
		usage("IPv6 needs --src6 and --dst6 (or --family 4)");

	if (o.pcap && o.pcap == stdout)
		usage("--write-pcap -: stdout carries the plan; give a file");
	if (!o.dry_run && !o.pcap) {
		if (o.do4) {
			o.fd4 = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
			if (o.fd4 < 0) {
				perror("e2e_frag_send: IPv4 raw socket");
				return 2;
			}
		}
		if (o.do6) {
			o.fd6 = socket(AF_INET6, SOCK_RAW, IPPROTO_RAW);
			if (o.fd6 < 0) {
				perror("e2e_frag_send: IPv6 raw socket");
				return 2;
			}
		}
	}

	run_kind(&o, kind);

	fflush(stdout);
	if (o.pcap && fclose(o.pcap) != 0) {
		perror("e2e_frag_send: --write-pcap");
		o.failed = 1;
	}
	fprintf(stderr, "e2e_frag_send: %s: %llu fragments %s%s\n", kind,
		o.frames_sent, o.pcap ? "written" : "sent",
		o.dry_run ? " (dry run: none)" : "");
	if (o.fd4 >= 0)
		close(o.fd4);
	if (o.fd6 >= 0)
		close(o.fd6);
	return o.failed;
}
