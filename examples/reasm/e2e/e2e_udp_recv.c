/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * e2e_udp_recv - receive and verify the datagrams of the end-to-end test.
 *
 *   e2e_udp_recv --port PORT [--expect N] [--drain-ms MS] [--done-file F]
 *                [--idle-ms MS] [--timeout S] [--ready FILE] [--list]
 *
 * Binds PORT on every IPv4 and IPv6 address (two sockets; IPv6 zero UDP
 * checksums accepted, since e2e_frag_send leaves them zero) and checks
 * every payload as e2e_payload.h describes.
 *
 * Stops when N datagrams have arrived (with --expect), when nothing has
 * arrived for MS milliseconds (default 2000) after the first datagram, or
 * after S seconds in all (default 60). With --drain-ms D, reaching N does
 * not stop it: it goes on until nothing more has arrived for D ms (or the
 * timeout), so that datagrams past the N expected are seen and listed.
 * --done-file F (with --drain-ms D): once F exists (the script creates it
 * when the sender has finished), stop when nothing has arrived for D ms
 * counted from the later of the last datagram and the moment F was seen,
 * however long the sending took. --ready FILE: created once the
 * sockets are bound, so that a script can start the senders.
 *
 * Output (stdout):
 *   rx v4|v6 SENDER SEQ LENGTH VERDICT     one per datagram, with --list
 *                                          (SENDER in hex)
 *   e2e_udp_recv: received R (v4 A, v6 B) of N expected, corrupt C,
 *     duplicate D                          the summary
 *   e2e_udp_recv: v4 sizes ...             per family: sizes seen
 *   e2e_udp_recv: corrupt v4 SENDER SEQ LENGTH VERDICT   each bad one
 *
 * Exits 0, or 1 when any payload was corrupt, any datagram arrived twice,
 * or fewer than N arrived; 2 on a usage error or a socket failure.
 */
#define _GNU_SOURCE
#include "e2e_payload.h"
#include "e2e_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef UDP_NO_CHECK6_RX
#define UDP_NO_CHECK6_RX 102
#endif

#define NBUCKETS 5
static const unsigned bucket_lo[NBUCKETS] = { 0, 2048, 8192, 32768, 65000 };

struct fam_stats {
	unsigned long long n, bytes;
	unsigned long long bucket[NBUCKETS];
	size_t min, max;
};

/* Seen (family, sender, seq): open addressing, grows at half full. */
struct seen {
	uint64_t *keys; /* 0 = empty; key | 1 stored so 0 never appears */
	size_t cap, n;
};

static uint64_t key_of(int fam, uint32_t sender, uint32_t seq)
{
	/* seq's top bit is given up to the family; ids here never use it. */
	return ((uint64_t)sender << 32 | (seq & 0x7fffffffu) |
		(fam == 6 ? 0x80000000u : 0))
		       << 1 |
	       1;
}

/* Insert @p k; @return true if it was already there. */
static bool seen_add(struct seen *s, uint64_t k)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 1024;
		uint64_t *nk = calloc(ncap, sizeof(*nk));
		if (nk == NULL) {
			perror("e2e_udp_recv: calloc");
			exit(2);
		}
		for (size_t i = 0; i < s->cap; i++) {
			if (!s->keys[i])
				continue;
			size_t j = (size_t)e2e_mix64(s->keys[i]) & (ncap - 1);
			while (nk[j])
				j = (j + 1) & (ncap - 1);
			nk[j] = s->keys[i];
		}
		free(s->keys);
		s->keys = nk;
		s->cap = ncap;
	}
	size_t j = (size_t)e2e_mix64(k) & (s->cap - 1);
	while (s->keys[j]) {
		if (s->keys[j] == k)
			return true;
		j = (j + 1) & (s->cap - 1);
	}
	s->keys[j] = k;
	s->n++;
	return false;
}

static _Noreturn void usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "e2e_udp_recv: %s\n", msg);
	fprintf(stderr, "usage: e2e_udp_recv --port PORT [--expect N] "
			"[--drain-ms MS] [--done-file F] [--idle-ms MS] "
			"[--timeout S] [--ready FILE] [--list]\n");
	exit(2);
}

static unsigned num(const char *s, unsigned lo, unsigned hi, const char *what)
{
	return e2e_num("e2e_udp_recv", s, lo, hi, what);
}

static int open_socket(int family, unsigned port)
{
	int fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	int one = 1, buf = 64 << 20;
	/* As root the forced size applies; otherwise rmem_max caps it. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	if (family == AF_INET) {
		struct sockaddr_in a = { .sin_family = AF_INET,
					 .sin_port = htons((uint16_t)port) };
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
			goto fail;
	} else {
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
				 sizeof(one));
		(void)setsockopt(fd, IPPROTO_UDP, UDP_NO_CHECK6_RX, &one,
				 sizeof(one));
		struct sockaddr_in6 a = { .sin6_family = AF_INET6,
					  .sin6_port = htons((uint16_t)port) };
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
			goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

static void print_sizes(const char *fam, const struct fam_stats *f)
{
	if (f->n == 0) {
		printf("e2e_udp_recv: %s none\n", fam);
		return;
	}
	printf("e2e_udp_recv: %s %llu datagrams, %llu bytes, sizes %zu..%zu:",
	       fam, f->n, f->bytes, f->min, f->max);
	for (int b = 0; b < NBUCKETS; b++) {
		unsigned hi = b + 1 < NBUCKETS ? bucket_lo[b + 1] - 1 : 65535;
		printf(" [%u..%u] %llu%s", bucket_lo[b], hi, f->bucket[b],
		       b + 1 < NBUCKETS ? "," : "\n");
	}
}

/* What the receive loop keeps. */
struct rx {
	struct fam_stats fs[2];
	struct seen seen;
	unsigned long long received, corrupt, dup;
	bool list;
};

/* Account for datagram @p buf of @p len bytes from socket @p k (0: IPv4,
 * 1: IPv6): its size, its payload check, whether it came before. */
static void rx_account(struct rx *rx, int k, const uint8_t *buf, size_t len,
		       uint8_t *scratch)
{
	int fam = k == 0 ? 4 : 6;
	uint32_t sender, seq;
	enum e2e_verdict v =
		e2e_payload_check(buf, len, scratch, &sender, &seq);
	struct fam_stats *f = &rx->fs[k];

	rx->received++;
	f->n++;
	f->bytes += len;
	if (f->n == 1 || len < f->min)
		f->min = len;
	if (len > f->max)
		f->max = len;
	int b = NBUCKETS - 1;
	while (b > 0 && len < bucket_lo[b])
		b--;
	f->bucket[b]++;
	if (v != E2E_OK) {
		rx->corrupt++;
		printf("e2e_udp_recv: corrupt v%d %08x %u %zu %s\n", fam,
		       sender, seq, len, e2e_verdict_name(v));
	} else if (seen_add(&rx->seen, key_of(fam, sender, seq))) {
		rx->dup++;
		printf("e2e_udp_recv: duplicate v%d %08x %u %zu\n", fam, sender,
		       seq, len);
	}
	if (rx->list)
		printf("rx v%d %08x %u %zu %s\n", fam, sender, seq, len,
		       e2e_verdict_name(v));
}

/* The command line. */
struct args {
	unsigned port, expect, idle_ms, timeout_s, drain_ms;
	const char *done_file, *ready;
	bool list;
};

/* Read the command line into @p o; usage errors exit(2). */
static void parse_args(struct args *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->idle_ms = 2000;
	o->timeout_s = 60;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			usage(NULL);
		if (strcmp(a, "--list") == 0) {
			o->list = true;
			continue;
		}
		const char *v = i + 1 < argc ? argv[++i] : NULL;
		if (v == NULL)
			usage("missing value");
		if (strcmp(a, "--port") == 0)
			o->port = num(v, 1, 65535, a);
		else if (strcmp(a, "--expect") == 0)
			o->expect = num(v, 0, 100000000, a);
		else if (strcmp(a, "--done-file") == 0)
			o->done_file = v;
		else if (strcmp(a, "--drain-ms") == 0)
			o->drain_ms = num(v, 1, 3600000, a);
		else if (strcmp(a, "--idle-ms") == 0)
			o->idle_ms = num(v, 1, 3600000, a);
		else if (strcmp(a, "--timeout") == 0)
			o->timeout_s = num(v, 1, 3600, a);
		else if (strcmp(a, "--ready") == 0)
			o->ready = v;
		else
			usage("unknown option");
	}
	if (o->port == 0)
		usage("--port is required");
	if (o->done_file != NULL && o->drain_ms == 0)
		usage("--done-file needs --drain-ms");
}

int main(int argc, char **argv)
{
	struct args o;
	struct rx rx;

	parse_args(&o, argc, argv);
	memset(&rx, 0, sizeof(rx));
	rx.list = o.list;
	unsigned port = o.port, expect = o.expect, idle_ms = o.idle_ms;
	unsigned timeout_s = o.timeout_s, drain_ms = o.drain_ms;
	const char *done_file = o.done_file, *ready = o.ready;

	struct pollfd pfd[2] = {
		{ .fd = open_socket(AF_INET, port), .events = POLLIN },
		{ .fd = open_socket(AF_INET6, port), .events = POLLIN }
	};
	if (pfd[0].fd < 0 || pfd[1].fd < 0) {
		fprintf(stderr, "e2e_udp_recv: port %u: %s\n", port,
			strerror(errno));
		return 2;
	}
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			fprintf(stderr, "e2e_udp_recv: %s: %s\n", ready,
				strerror(errno));
			return 2;
		}
		close(fd);
	}

	static uint8_t buf[65536], scratch[65536];
	double start = e2e_now_s(), last = 0, done_at = 0;

	for (;;) {
		double t = e2e_now_s();
		bool reached = expect && rx.received >= expect;
		if (reached && drain_ms == 0)
			break;
		if (done_file != NULL && done_at == 0 &&
		    access(done_file, F_OK) == 0)
			done_at = t;
		/* Past N with --drain-ms, or the sender done: the drain is
		 * the idle limit, from the later of the last datagram and
		 * the moment the sender was seen done. */
		bool draining = reached || done_at > 0;
		unsigned idle = draining ? drain_ms : idle_ms;
		double since = done_at > last ? done_at : last;
		if (t - start >= timeout_s)
			break;
		if (since > 0 && (t - since) * 1000.0 >= idle)
			break;
		double wait = since > 0 ? idle / 1000.0 - (t - since)
					: timeout_s - (t - start);
		if (done_file != NULL && done_at == 0 && wait > 0.05)
			wait = 0.05; /* look for the file again soon */
		if (wait < 0.001)
			wait = 0.001;
		int pr = poll(pfd, 2, (int)(wait * 1000.0) + 1);
		if (pr < 0 && errno != EINTR) {
			perror("e2e_udp_recv: poll");
			return 2;
		}
		for (int k = 0; k < 2; k++) {
			if (pr <= 0 || !(pfd[k].revents & POLLIN))
				continue;
			for (;;) {
				ssize_t n = recv(pfd[k].fd, buf, sizeof(buf),
						 MSG_TRUNC);
				if (n < 0)
					break;
				last = e2e_now_s();
				size_t len = (size_t)n;
				if (len > sizeof(buf))
					len = sizeof(buf); /* cannot happen */
				rx_account(&rx, k, buf, len, scratch);
			}
		}
	}

	printf("e2e_udp_recv: received %llu (v4 %llu, v6 %llu) of %u "
	       "expected, corrupt %llu, duplicate %llu, in %.2f s\n",
	       rx.received, rx.fs[0].n, rx.fs[1].n, expect, rx.corrupt, rx.dup,
	       e2e_now_s() - start);
	print_sizes("v4", &rx.fs[0]);
	print_sizes("v6", &rx.fs[1]);
	fflush(stdout);
	free(rx.seen.keys);
	close(pfd[0].fd);
	close(pfd[1].fd);
	if (rx.corrupt || rx.dup || (expect && rx.received < expect))
		return 1;
	return 0;
}
