/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * e2e_pkt_send - send frames one sendto() each on an AF_PACKET socket.
 *
 *   e2e_pkt_send --if IFACE [--count N | --duration SECONDS]
 *                [--qdisc-bypass] [frame options of e2e_frames.h]
 *   e2e_pkt_send --write-pcap FILE [--count N] [frame options]
 *
 * The baseline of tx_bench.sh: the frames of e2e_frames.h (built once),
 * sent in turn, one send() per frame, on a SOCK_RAW packet socket bound
 * to IFACE with protocol 0 (it receives nothing). A send refused for want
 * of buffer space (ENOBUFS, EAGAIN) is tried again and counted as a
 * retry. It also feeds a reassembler with fragments (--frag-mtu).
 *
 * --write-pcap FILE (- for stdout) writes the N frames as a pcap capture
 * (Ethernet, microsecond stamps 1 us apart) instead of sending them, for
 * `reasm --read`.
 *
 * Prints one line:
 *   e2e_pkt_send: mode=sendto frames=N bytes=B secs=T pps=P mbps=M
 *     retries=R
 * Exits 0, 1 if a send failed for another reason, 2 on a usage error.
 */
#define _GNU_SOURCE
#include "e2e_frames.h"
#include "e2e_util.h"

#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static _Noreturn void usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "e2e_pkt_send: %s\n", msg);
	fprintf(stderr,
		"usage: e2e_pkt_send --if IFACE [--count N | --duration S] "
		"[--qdisc-bypass]\n"
		"         (--src4 A --dst4 B | --src6 A --dst6 B) [--dst-mac "
		"MAC] [--src-mac MAC]\n"
		"         [--port P] [--size BYTES] [--distinct N] "
		"[--frag-mtu MTU]\n"
		"       e2e_pkt_send --write-pcap FILE [--count N] "
		"[frame options]\n");
	exit(2);
}

/* Write @p count frames of @p fs, in turn, as a pcap capture. */
static int write_pcap(const struct e2e_frames *fs, const char *path,
		      unsigned long long count)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	if (f == NULL) {
		fprintf(stderr, "e2e_pkt_send: %s: %s\n", path,
			strerror(errno));
		return 2;
	}
	e2e_pcap_header(f);
	uint64_t us = 1700000000ull * 1000000;
	for (unsigned long long i = 0; i < count; i++, us++) {
		const struct pb_frame *fr = fs->f[i % fs->n];
		e2e_pcap_record(f, us, fr->data, fr->caplen);
	}
	if (fflush(f) != 0 || ferror(f)) {
		fprintf(stderr, "e2e_pkt_send: %s: write failed\n", path);
		return 1;
	}
	if (f != stdout)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct e2e_frames fs;
	struct e2e_send_opts o;
	const char *pcap = NULL;

	e2e_frames_defaults(&fs);
	e2e_send_defaults(&o);
	for (int i = 1; i < argc; i++) {
		int r = e2e_frames_option(&fs, argc, argv, &i);
		if (r == 0)
			r = e2e_send_option(&o, argc, argv, &i);
		if (r < 0)
			usage(NULL);
		if (r > 0)
			continue;
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			usage(NULL);
		if (strcmp(a, "--write-pcap") != 0)
			usage("unknown option");
		if (i + 1 >= argc)
			usage("missing value");
		pcap = argv[++i];
	}
	if ((o.ifname == NULL) == (pcap == NULL))
		usage("one of --if and --write-pcap is required");
	if (o.count == 0 && (o.duration <= 0 || pcap))
		usage("--count (or, sending, --duration) must be positive");
	if (e2e_frames_build(&fs) != 0)
		return 2;
	if (pcap) {
		int rc = write_pcap(&fs, pcap, o.count);
		e2e_frames_free(&fs);
		return rc;
	}

	int fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("e2e_pkt_send: packet socket");
		return 2;
	}
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = 0,
				   .sll_ifindex =
					   (int)if_nametoindex(o.ifname) };
	if (sll.sll_ifindex == 0) {
		fprintf(stderr, "e2e_pkt_send: %s: no such interface\n",
			o.ifname);
		return 2;
	}
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("e2e_pkt_send: bind");
		return 2;
	}
	int bypass = 1;
	if (o.qdisc_bypass && setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS,
					 &bypass, sizeof(bypass)) < 0) {
		perror("e2e_pkt_send: PACKET_QDISC_BYPASS");
		return 2;
	}

	unsigned long long sent = 0, bytes = 0, retries = 0;
	int failed = 0;
	size_t k = 0;
	double t0 = e2e_now_s();
	while (!e2e_send_done(&o, sent, t0)) {
		const struct pb_frame *f = fs.f[k];
		ssize_t n = send(fd, f->data, f->caplen, 0);
		if (n < 0) {
			if (errno == ENOBUFS || errno == EAGAIN ||
			    errno == EINTR) {
				retries++;
				continue;
			}
			fprintf(stderr, "e2e_pkt_send: send (%u bytes): %s\n",
				f->caplen, strerror(errno));
			failed = 1;
			break;
		}
		sent++;
		bytes += f->caplen;
		if (++k == fs.n)
			k = 0;
	}
	double secs = e2e_now_s() - t0;
	printf("e2e_pkt_send: mode=sendto frames=%llu bytes=%llu secs=%.3f "
	       "pps=%.0f mbps=%.1f retries=%llu\n",
	       sent, bytes, secs, secs > 0 ? (double)sent / secs : 0.0,
	       secs > 0 ? (double)bytes * 8 / secs / 1e6 : 0.0, retries);
	close(fd);
	e2e_frames_free(&fs);
	return failed;
}
