/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * e2e_tx_ring - send frames through reasm's transmit ring (live.h).
 *
 *   e2e_tx_ring --if IFACE [--count N | --duration SECONDS]
 *               [--tx-frames N] [--qdisc-bypass]
 *               [frame options of e2e_frames.h]
 *
 * The other side of tx_bench.sh: the same frames as e2e_pkt_send, each
 * handed to live_tx_put() as a struct reasm_out (allocated and copied per
 * frame, as the reassembler's workers hand theirs over), so what is
 * measured is reasm's own transmit path: slot copy, status word, one
 * kick per burst. The clock stops after live_tx_drain(), once the kernel
 * has given every slot back.
 *
 * Prints one line:
 *   e2e_tx_ring: mode=txring frames=N bytes=B secs=T pps=P mbps=M
 *     slots=S slot_size=Z wrong_format=W errors=E unsent=U oversize=O
 * Exits 0, 1 if a frame was not sent, 2 on a usage error or when the
 * ring cannot be set up.
 */
#define _GNU_SOURCE
#include "e2e_frames.h"
#include "e2e_util.h"
#include "live.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Noreturn void usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "e2e_tx_ring: %s\n", msg);
	fprintf(stderr,
		"usage: e2e_tx_ring --if IFACE [--count N | --duration S] "
		"[--tx-frames N] [--qdisc-bypass]\n"
		"         (--src4 A --dst4 B | --src6 A --dst6 B) [--dst-mac "
		"MAC] [--src-mac MAC]\n"
		"         [--port P] [--size BYTES] [--distinct N] "
		"[--frag-mtu MTU]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct e2e_frames fs;
	struct e2e_send_opts o;
	struct live_tx_config cfg;
	static _Atomic(bool) stopping;

	memset(&cfg, 0, sizeof(cfg));
	cfg.frames = 256;
	cfg.stopping = &stopping;
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
		if (strcmp(a, "--tx-frames") != 0)
			usage("unknown option");
		if (i + 1 >= argc)
			usage("missing value");
		cfg.frames = (unsigned)strtoul(argv[++i], NULL, 0);
	}
	if (o.ifname == NULL)
		usage("--if is required");
	if (o.count == 0 && o.duration <= 0)
		usage("--count or --duration must be positive");
	cfg.ifname = o.ifname;
	cfg.qdisc_bypass = o.qdisc_bypass;
	if (e2e_frames_build(&fs) != 0)
		return 2;

	struct live_tx *tx;
	if (live_tx_open(&tx, &cfg) != 0)
		return 2;

	unsigned long long sent = 0;
	size_t k = 0;
	double t0 = e2e_now_s();
	while (!e2e_send_done(&o, sent, t0)) {
		const struct pb_frame *f = fs.f[k];
		struct reasm_out *out = malloc(sizeof(*out) + f->caplen);
		if (out == NULL) {
			fputs("e2e_tx_ring: out of memory\n", stderr);
			return 2;
		}
		memset(out, 0, sizeof(*out));
		out->len = out->orig_len = f->caplen;
		memcpy(out->data, f->data, f->caplen);
		live_tx_put(tx, out); /* frees out */
		sent++;
		if (++k == fs.n)
			k = 0;
	}
	atomic_store(&stopping, true);
	live_tx_drain(tx);
	double secs = e2e_now_s() - t0;

	struct live_stats ls;
	memset(&ls, 0, sizeof(ls));
	live_tx_counters(tx, &ls);
	printf("e2e_tx_ring: mode=txring frames=%llu bytes=%llu secs=%.3f "
	       "pps=%.0f mbps=%.1f slots=%u slot_size=%u wrong_format=%llu "
	       "errors=%llu unsent=%llu oversize=%llu\n",
	       (unsigned long long)ls.tx_frames,
	       (unsigned long long)ls.tx_bytes, secs,
	       secs > 0 ? (double)ls.tx_frames / secs : 0.0,
	       secs > 0 ? (double)ls.tx_bytes * 8 / secs / 1e6 : 0.0,
	       live_tx_frames(tx), live_tx_frame_size(tx),
	       (unsigned long long)ls.tx_wrong_format,
	       (unsigned long long)ls.tx_errors,
	       (unsigned long long)ls.tx_unsent,
	       (unsigned long long)ls.tx_oversize);
	live_tx_close(tx);
	e2e_frames_free(&fs);
	return ls.tx_frames == sent && ls.tx_wrong_format == 0 &&
			       ls.tx_unsent == 0
		       ? 0
		       : 1;
}
