/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c - reasm: reassemble the IPv4 and IPv6 fragments of a capture file
 * or of the frames arriving on a network interface.
 *
 *   reasm --read IN.pcap --write OUT.pcap [options]
 *   reasm --in IFACE --out IFACE [options]   (or any mix: see live.h)
 *
 * Every frame of IN goes through the engine (reasm.h); OUT receives the
 * frames that were not fragments, unchanged, and one frame per datagram
 * reassembled. Capture time is the engine's clock, so a run is
 * deterministic: with one thread the output is the same byte for byte
 * on every run.
 *
 * Threading.
 *   --threads 1 (the default): the main thread reads, calls reasm_input()
 *   and writes from the emit callback; output order follows input order.
 *
 *   --threads N >= 2 on a pcap file that can be mapped: par.h. The main
 *   thread indexes the mapped file and writes; N workers, each with an
 *   engine of its own, take their records straight from the mapping.
 *
 *   --threads N >= 2 otherwise (stdin, pcapng, --read with --out): the
 *   main thread reads and hands a copy of each frame to the worker of its
 *   flow (reasm_flow_of(): every fragment of a
 *   datagram, and every IPv4 datagram of a source, on one worker, in
 *   capture order) through that worker's own grain_ring; frames that are
 *   not fragments go round robin. The worker hands the frame back, with
 *   what the engine emitted for it, through a second ring, and the writer
 *   thread takes them in capture order (the reader tells it which worker
 *   holds each frame through a third ring), so the output is the file one
 *   thread writes, byte for byte. At end of file the reader queues one
 *   NULL per worker, joins them, then queues a NULL for the writer.
 *
 * Timeouts. Once capture time has advanced by a second or more since the
 * last call, reasm_expire() runs before the frame that advanced it is
 * processed. With workers, the reader first waits until every frame it
 * queued has been processed, then expires through worker 0's state (idle
 * at that moment: the counter it bumps after each frame hands its state
 * over to the reader, and the next frame queued hands it back). So a
 * datagram times out exactly when it would with one thread, whatever the
 * scheduling; the pause costs one pipeline drain per second of capture.
 *
 * Live (--in and/or --out, see live.h). With --in the receive workers are
 * the engine workers: each reads its own PACKET_MMAP ring (no reader, no
 * grain_ring) and emits into the grain_prio. With --out the thread that
 * drains the grain_prio fills a PACKET_MMAP transmit ring instead of a
 * file. --read with --out and --threads N >= 2 keeps the reader and
 * workers above, the transmit thread in the writer's place; with
 * --threads 1 there is only the reader, which runs the engine and fills
 * the transmit ring itself. The main thread then only supervises: SIGINT
 * and SIGTERM are blocked in every thread and taken with sigtimedwait(),
 * which also paces --stats-interval and --duration (and, with the lone
 * reader, sends what it left short of a burst while it waits for input:
 * live_tx_nudge()). A stop stops the input, lets the workers finish what
 * they hold, and then shuts down as at the end of a file: every output
 * queued is written or sent before the summary.
 *
 * Copies of each output byte on the way to the transmit ring. --read with
 * --out and --threads 1: one, the engine writing the frame straight into
 * the ring's slot (struct reasm_sink, live_tx_sink()), since the thread
 * that emits is the thread that transmits. Every other --out run (--in,
 * whatever --threads; --read with --threads N >= 2): two, the engine
 * building a reasm_out on a worker and the transmit thread copying it
 * into the slot (live_tx_put()). A frame the ring cannot take (too long
 * for the MTU, cut short by the capture, the ring given up at a stop)
 * goes the second way in either case, which counts it.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends; nanosleep() */
#define MSG_PROG "reasm"
#include "msg.h"
#include "live.h"
#include "par.h"
#include "reasm.h"

#include <grain/prio.h>
#include <grain/ring.h>

#include <pcap/pcap.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/ether.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_S 1000000000ull

/* The engine's defaults (reasm.h, struct reasm_config), needed here to
 * complete a watermark pair given half-way. */
#define DEFAULT_MEM_HIGH (4u << 20)

#define MAX_THREADS 64u	   /* reasm_worker_init() registers up to 64 */
#define MAX_STRIPES 65536u /* grain_htab's limit */
#define MAX_TIMEOUT_S 1e9  /* ~31 years; keeps nanoseconds in 64 bits */
#define OUT_SNAPLEN 262144
#define RING_CAPACITY 1024u
#define PRIO_CAPACITY 4096u
#define WRITER_BURST 32u
#define MAX_TX_FRAMES 65536u
#define DEFAULT_TX_FRAMES 256u
#define SUPERVISE_NS (50 * 1000000ull)	 /* the main thread's longest nap */
#define PUBLISH_WAIT_NS (50 * 1000000ll) /* a worker's longest wait */
#define TX_RETRY_NS 1000000ll		 /* kick again after 1 ms */

/* --- Messages -------------------------------------------------------------- */

/* clang-format off: the help text is laid out as printed. */
static void usage(FILE *f)
{
	fputs("usage: reasm --read IN.pcap --write OUT.pcap [options]\n"
	      "       reasm --in IFACE --out IFACE [options]\n"
	      "\n"
	      "Reassembles the IPv4 and IPv6 fragments of a capture file or of the\n"
	      "frames arriving on an interface. The output gets the frames that are not\n"
	      "fragments, unchanged, and one frame per datagram reassembled, in the\n"
	      "link type of the input (Ethernet with PPPoE, raw IP, Linux SLL/SLL2,\n"
	      "PPP).\n"
	      "\n"
	      "input (one of):\n"
	      "  --read FILE         input capture (pcap or pcapng; - for stdin)\n"
	      "  --in IFACE          frames arriving on IFACE (Ethernet; needs root or\n"
	      "                      CAP_NET_RAW)\n"
	      "  (--read, --write and --stats may each be given once)\n"
	      "output (one of):\n"
	      "  --write FILE        output capture (pcap, nanosecond timestamps)\n"
	      "  --out IFACE         send on IFACE (Ethernet input only)\n"
	      "\n"
	      "options:\n"
	      "  --policy P          overlap policy: strict (default), first, last, bsd,\n"
	      "                      bsd-right, linux, windows, solaris\n"
	      "  --threads N         1 (default): one thread; 2..64: N workers (a pcap\n"
	      "                      file is mapped, stdin read by a thread). From a\n"
	      "                      file the output is the same whatever N. With\n"
	      "                      --in: N receive workers (1..64)\n"
	      "  --timeout SECONDS   reassembly timeout of both families (default: IPv4\n"
	      "                      30, IPv6 60; decimals allowed)\n"
	      "  --mem-high BYTES    memory per family above which the policy acts\n"
	      "                      (default 4M; suffixes K, M, G are powers of 1024)\n"
	      "  --mem-low BYTES     eviction stops below this (default 3/4 of\n"
	      "                      --mem-high, or 3M)\n"
	      "  --mem-policy P      evict (default: drop the oldest datagrams) or\n"
	      "                      refuse (drop new fragments, as Linux does)\n"
	      "  --max-frags N       fragments per datagram, 1..8192 (default 128)\n"
	      "  --stripes N         lock stripes per table, a power of two (default 64;\n"
	      "                      1 is one global lock)\n"
	      "  --decap LIST        reassemble fragments inside tunnels: a comma-\n"
	      "                      separated list of gre (GRE, PPTP's GRE with PPP)\n"
	      "                      and ipip (4in4, 6in4, 4in6, 6in6), or all. The\n"
	      "                      output keeps the outer headers of the first\n"
	      "                      fragment, their lengths and checksums set\n"
	      "  --decap-strip       with --decap: write tunnelled datagrams without\n"
	      "                      their outer IP and tunnel headers\n"
	      "  --stats FILE        write every counter as JSON\n"
	      "  --quiet             no summary on stderr\n"
	      "  -h, --help          this text, then exit 0\n"
	      "  --version           print reasm's version (grain's), then exit 0\n"
	      "\n"
	      "live options:\n"
	      "  --fanout MODE       --in: spread frames over the --threads workers by\n"
	      "                      hash (default: the kernel's hash of the addresses,\n"
	      "                      so a datagram's fragments meet one worker in wire\n"
	      "                      order), lb (round robin) or cpu (receiving CPU).\n"
	      "                      Caveat: with lb or cpu the fragments of a datagram\n"
	      "                      reach several workers in any order, so overlap\n"
	      "                      outcomes (strict's duplicates, the other policies'\n"
	      "                      bytes) can differ from run to run and from the\n"
	      "                      host's\n"
	      "  --qdisc-bypass      --out: send straight to the driver (no qdisc)\n"
	      "  --tx-frames N       --out: transmit ring slots, 1..65536 (default 256)\n"
	      "  --dst-mac MAC       --out: destination address written into every frame\n"
	      "  --src-mac MAC       --out: source address written into every frame\n"
	      "  --stats-interval S  print a line of rates and drops every S seconds\n"
	      "  --duration S        stop after S seconds\n"
	      "\n"
	      "From a file, capture time is the clock: a datagram times out when a later\n"
	      "frame's timestamp is its timeout past its first fragment's. Live, the\n"
	      "clock is real time. SIGINT or SIGTERM stops a live run cleanly: what is\n"
	      "queued is still sent.\n"
	      "\n"
	      "--write FILE and --stats FILE are written to a temporary file beside FILE\n"
	      "and renamed over it only when the run succeeds: a failed run leaves an\n"
	      "existing FILE as it was. Exit status: 0; 2 with a one-line message on\n"
	      "any error, including a reader that closes the pipe of --write -.\n",
	      f);
}
/* clang-format on */

/* --- Arguments ------------------------------------------------------------- */

struct options {
	const char *read_path;
	const char *write_path;
	const char *stats_path;
	const char *in_iface;	 /* --in */
	const char *out_iface;	 /* --out */
	struct reasm_config cfg; /* link filled in once IN is open */
	unsigned threads;
	bool quiet;
	/* Live options (0 / false: not given). */
	enum live_fanout fanout;
	bool fanout_set;
	bool qdisc_bypass;
	unsigned tx_frames;
	uint64_t stats_interval_ns;
	uint64_t duration_ns;
	bool dst_mac_set, src_mac_set;
	uint8_t dst_mac[6], src_mac[6];
};

/* Is this run live (an interface on either side)? */
static bool is_live(const struct options *o)
{
	return o->in_iface != NULL || o->out_iface != NULL;
}

enum opt_id {
	OPT_READ = 256, /* above every short option and getopt's '?', ':' */
	OPT_WRITE,
	OPT_POLICY,
	OPT_THREADS,
	OPT_TIMEOUT,
	OPT_MEM_HIGH,
	OPT_MEM_LOW,
	OPT_MEM_POLICY,
	OPT_MAX_FRAGS,
	OPT_STRIPES,
	OPT_STATS,
	OPT_QUIET,
	OPT_DECAP,
	OPT_DECAP_STRIP,
	OPT_HELP,
	OPT_VERSION,
	OPT_IN,
	OPT_OUT,
	OPT_FANOUT,
	OPT_QDISC_BYPASS,
	OPT_TX_FRAMES,
	OPT_STATS_INTERVAL,
	OPT_DST_MAC,
	OPT_SRC_MAC,
	OPT_DURATION,
};

static const struct option long_options[] = {
	{ "read", required_argument, NULL, OPT_READ },
	{ "write", required_argument, NULL, OPT_WRITE },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "mem-high", required_argument, NULL, OPT_MEM_HIGH },
	{ "mem-low", required_argument, NULL, OPT_MEM_LOW },
	{ "mem-policy", required_argument, NULL, OPT_MEM_POLICY },
	{ "max-frags", required_argument, NULL, OPT_MAX_FRAGS },
	{ "stripes", required_argument, NULL, OPT_STRIPES },
	{ "stats", required_argument, NULL, OPT_STATS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "decap", required_argument, NULL, OPT_DECAP },
	{ "decap-strip", no_argument, NULL, OPT_DECAP_STRIP },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "in", required_argument, NULL, OPT_IN },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "fanout", required_argument, NULL, OPT_FANOUT },
	{ "qdisc-bypass", no_argument, NULL, OPT_QDISC_BYPASS },
	{ "tx-frames", required_argument, NULL, OPT_TX_FRAMES },
	{ "stats-interval", required_argument, NULL, OPT_STATS_INTERVAL },
	{ "dst-mac", required_argument, NULL, OPT_DST_MAC },
	{ "src-mac", required_argument, NULL, OPT_SRC_MAC },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ NULL, 0, NULL, 0 },
};

/* A decimal number without sign or spaces into *v. @return 0 or -1. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = (uint64_t)x;
	return 0;
}

/* An unsigned in [lo, hi]. @return 0 or -1. */
static int parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *v)
{
	uint64_t x;

	if (parse_u64(s, &x) != 0 || x < lo || x > hi)
		return -1;
	*v = (unsigned)x;
	return 0;
}

/* A byte count with an optional K, M or G suffix (powers of 1024). */
static int parse_bytes(const char *s, uint64_t *v)
{
	char digits[32];
	size_t n = strlen(s);
	unsigned shift = 0;
	uint64_t x;

	if (n == 0 || n >= sizeof(digits))
		return -1;
	memcpy(digits, s, n + 1);
	switch (digits[n - 1]) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	default:
		break;
	}
	if (shift != 0)
		digits[n - 1] = '\0';
	if (parse_u64(digits, &x) != 0 || x > (UINT64_MAX >> shift))
		return -1;
	*v = x << shift;
	return 0;
}

/* Seconds, decimals allowed, > 0, into nanoseconds (rounded, >= 1). */
static int parse_seconds(const char *s, uint64_t *ns)
{
	char *end;
	double x;

	/* strtod() would also take signs, spaces, "inf", "nan" and hex. */
	if (!((*s >= '0' && *s <= '9') || *s == '.') || strpbrk(s, "xX"))
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(x > 0) ||
	    x > MAX_TIMEOUT_S)
		return -1;
	*ns = (uint64_t)(x * 1e9 + 0.5);
	return *ns == 0 ? -1 : 0;
}

static bool power_of_two(unsigned x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

/* A MAC address: six pairs of hex digits separated by ':' or '-'.
 * ether_aton_r() converts; the shape is checked first, as it would take
 * one-digit groups and ignore what follows the sixth. */
static int parse_mac(const char *s, uint8_t mac[6])
{
	char text[18];
	struct ether_addr a;

	if (strlen(s) != 17)
		return -1;
	for (int i = 0; i < 17; i++) {
		bool sep = i % 3 == 2;

		if (sep && s[i] != ':' && s[i] != '-')
			return -1;
		if (!sep && !isxdigit((unsigned char)s[i]))
			return -1;
		text[i] = sep ? ':' : s[i];
	}
	text[17] = '\0';
	if (ether_aton_r(text, &a) == NULL)
		return -1;
	memcpy(mac, a.ether_addr_octet, 6);
	return 0;
}

/* Checks the combination of inputs, outputs and live options. @return 0,
 * or 2 after a message. */
static int check_live_args(const struct options *o)
{
	const char *need_out = NULL;

	if (o->read_path != NULL && o->in_iface != NULL) {
		errorf("--read and --in are exclusive: one input");
		return 2;
	}
	if (o->write_path != NULL && o->out_iface != NULL) {
		errorf("--write and --out are exclusive: one output");
		return 2;
	}
	if (o->read_path == NULL && o->in_iface == NULL) {
		errorf("--read or --in is required (try --help)");
		return 2;
	}
	if (o->write_path == NULL && o->out_iface == NULL) {
		errorf("--write or --out is required (try --help)");
		return 2;
	}
	if (o->fanout_set && o->in_iface == NULL) {
		errorf("--fanout needs --in");
		return 2;
	}
	if (o->cfg.decap_strip && o->cfg.decap == 0) {
		errorf("--decap-strip needs --decap");
		return 2;
	}
	if (o->qdisc_bypass)
		need_out = "--qdisc-bypass";
	else if (o->tx_frames != 0)
		need_out = "--tx-frames";
	else if (o->dst_mac_set)
		need_out = "--dst-mac";
	else if (o->src_mac_set)
		need_out = "--src-mac";
	if (need_out != NULL && o->out_iface == NULL) {
		errorf("%s needs --out", need_out);
		return 2;
	}
	if ((o->stats_interval_ns != 0 || o->duration_ns != 0) && !is_live(o)) {
		errorf("--%s needs --in or --out", o->stats_interval_ns != 0
							   ? "stats-interval"
							   : "duration");
		return 2;
	}
	return 0;
}

/* Options given at most once: a second one is a mistake, not a
 * replacement. @return 0, or 2 after a message. */
static int set_once(const char **slot, const char *name, const char *value)
{
	if (*value == '\0') {
		errorf("--%s must not be empty", name);
		return 2;
	}
	if (*slot != NULL) {
		errorf("--%s given twice ('%s', then '%s')", name, *slot,
		       value);
		return 2;
	}
	*slot = value;
	return 0;
}

/* A count from 1 to @p hi. @return 0, or 2 after a message. */
static int set_count(unsigned *slot, const char *name, const char *value,
		     unsigned hi)
{
	if (parse_uint(value, 1, hi, slot) == 0)
		return 0;
	errorf("--%s must be a number from 1 to %u, not '%s'", name, hi, value);
	return 2;
}

/* The watermarks given so far (0: not given). */
struct mem_args {
	uint64_t high, low;
};

/* The engine's options (policy, threads and limits). @return 0, or 2
 * after a message. */
static int set_engine_option(struct options *o, struct mem_args *mem, int id,
			     const char *name, const char *value)
{
	uint64_t bytes;
	int p;

	switch (id) {
	case OPT_POLICY:
		p = reasm_policy_parse(value);
		if (p < 0) {
			errorf("unknown --policy '%s' (strict, first, last, "
			       "bsd, bsd-right, linux, windows, solaris)",
			       value);
			return 2;
		}
		o->cfg.policy = (enum reasm_policy)p;
		return 0;
	case OPT_THREADS:
		return set_count(&o->threads, name, value, MAX_THREADS);
	case OPT_TIMEOUT:
		if (parse_seconds(value, &o->cfg.timeout_v4_ns)) {
			errorf("--timeout must be a number of seconds > 0, "
			       "not '%s'",
			       value);
			return 2;
		}
		o->cfg.timeout_v6_ns = o->cfg.timeout_v4_ns;
		return 0;
	case OPT_MEM_HIGH:
	case OPT_MEM_LOW:
		if (parse_bytes(value, &bytes) || bytes == 0 ||
		    bytes > SIZE_MAX) {
			errorf("--%s must be a byte count > 0 (suffix K, M or "
			       "G allowed), not '%s'",
			       name, value);
			return 2;
		}
		*(id == OPT_MEM_HIGH ? &mem->high : &mem->low) = bytes;
		return 0;
	case OPT_MEM_POLICY:
		if (strcmp(value, "evict") == 0 ||
		    strcmp(value, "refuse") == 0) {
			o->cfg.mem_refuse = strcmp(value, "refuse") == 0;
			return 0;
		}
		errorf("--mem-policy must be evict or refuse, not '%s'", value);
		return 2;
	case OPT_MAX_FRAGS:
		return set_count(&o->cfg.max_frags, name, value,
				 REASM_MAX_FRAGS_LIMIT);
	default: /* OPT_STRIPES */
		if (parse_uint(value, 1, MAX_STRIPES, &o->cfg.stripes) == 0 &&
		    power_of_two(o->cfg.stripes))
			return 0;
		errorf("--stripes must be a power of two from 1 to %u, not "
		       "'%s'",
		       MAX_STRIPES, value);
		return 2;
	}
}

/* The live options (interfaces and what goes with them). @return 0, or 2
 * after a message. */
static int set_live_option(struct options *o, int id, const char *name,
			   const char *value)
{
	int f;

	switch (id) {
	case OPT_IN:
	case OPT_OUT:
		if (*value == '\0') {
			errorf("--%s needs an interface name", name);
			return 2;
		}
		return set_once(id == OPT_IN ? &o->in_iface : &o->out_iface,
				name, value);
	case OPT_FANOUT:
		f = live_fanout_parse(value);
		if (f < 0) {
			errorf("--fanout must be lb, cpu or hash, not '%s'",
			       value);
			return 2;
		}
		o->fanout = (enum live_fanout)f;
		o->fanout_set = true;
		return 0;
	case OPT_QDISC_BYPASS:
		o->qdisc_bypass = true;
		return 0;
	case OPT_TX_FRAMES:
		return set_count(&o->tx_frames, name, value, MAX_TX_FRAMES);
	case OPT_STATS_INTERVAL:
	case OPT_DURATION:
		if (parse_seconds(value, id == OPT_DURATION
						 ? &o->duration_ns
						 : &o->stats_interval_ns) == 0)
			return 0;
		errorf("--%s must be a number of seconds > 0, not '%s'", name,
		       value);
		return 2;
	default: /* OPT_DST_MAC, OPT_SRC_MAC */
		if (parse_mac(value,
			      id == OPT_DST_MAC ? o->dst_mac : o->src_mac)) {
			errorf("--%s must be a MAC address like "
			       "02:00:00:00:00:01, not '%s'",
			       name, value);
			return 2;
		}
		*(id == OPT_DST_MAC ? &o->dst_mac_set : &o->src_mac_set) = true;
		return 0;
	}
}

/* --decap's value: a comma-separated list of gre, ipip and all into
 * *bits. @return 0 or 2 after a message. */
static int set_decap(unsigned *bits, const char *value)
{
	const char *p = value;
	unsigned b = 0;

	for (;;) {
		size_t n = strcspn(p, ",");
		if (n == 3 && strncmp(p, "gre", 3) == 0)
			b |= REASM_DECAP_GRE;
		else if (n == 4 && strncmp(p, "ipip", 4) == 0)
			b |= REASM_DECAP_IPIP;
		else if (n == 3 && strncmp(p, "all", 3) == 0)
			b |= REASM_DECAP_ALL;
		else
			break;
		if (p[n] == '\0') {
			*bits = b;
			return 0;
		}
		p += n + 1;
	}
	errorf("--decap must be a comma-separated list of gre, ipip and all, "
	       "not '%s'",
	       value);
	return 2;
}

/* One option that getopt_long() took (--help and --version are the
 * caller's). @return -1 to go on, or 2 after a message. */
static int set_option(struct options *o, struct mem_args *mem, int id,
		      const char *name, const char *value)
{
	switch (id) {
	case OPT_READ:
		return set_once(&o->read_path, name, value) ? 2 : -1;
	case OPT_WRITE:
		return set_once(&o->write_path, name, value) ? 2 : -1;
	case OPT_STATS:
		return set_once(&o->stats_path, name, value) ? 2 : -1;
	case OPT_QUIET:
		o->quiet = true;
		return -1;
	case OPT_DECAP:
		return set_decap(&o->cfg.decap, value) ? 2 : -1;
	case OPT_DECAP_STRIP:
		o->cfg.decap_strip = true;
		return -1;
	case OPT_POLICY:
	case OPT_THREADS:
	case OPT_TIMEOUT:
	case OPT_MEM_HIGH:
	case OPT_MEM_LOW:
	case OPT_MEM_POLICY:
	case OPT_MAX_FRAGS:
	case OPT_STRIPES:
		return set_engine_option(o, mem, id, name, value) ? 2 : -1;
	default:
		return set_live_option(o, id, name, value) ? 2 : -1;
	}
}

/* The long option named exactly by the word @p arg ("--name" or
 * "--name=value"), or NULL; *len: the name's length. */
static const struct option *exact_option(const char *arg, size_t *len)
{
	const char *name = arg + 2;

	*len = strcspn(name, "=");
	for (const struct option *lo = long_options; lo->name != NULL; lo++)
		if (strlen(lo->name) == *len &&
		    strncmp(lo->name, name, *len) == 0)
			return lo;
	return NULL;
}

/*
 * Whether the word @p arg, which getopt_long() read as option @p c, is one
 * reasm takes: "-h", or a long option by its whole name (getopt_long()
 * also takes unique abbreviations and clusters of short options, reasm
 * does not). @return 0, or 2 after a message.
 */
static int check_word(const char *arg, int c)
{
	size_t len = 0;

	if (c == 'h' ? strcmp(arg, "-h") == 0
		     : strncmp(arg, "--", 2) == 0 &&
			       exact_option(arg, &len) != NULL)
		return 0;
	if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
		errorf("unexpected argument '%s' (try --help)", arg);
		return 2;
	}
	errorf("unknown option '--%.*s' (try --help)", (int)len, arg + 2);
	return 2;
}

/* The message for the word @p arg that getopt_long() refused with
 * @p c ('?' or ':'). @return 2. */
static int bad_word(const char *arg, int c)
{
	size_t len;
	const struct option *lo;

	if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
		errorf("unexpected argument '%s' (try --help)", arg);
		return 2;
	}
	lo = exact_option(arg, &len);
	if (lo == NULL)
		errorf("unknown option '--%.*s' (try --help)", (int)len,
		       arg + 2);
	else if (c == ':')
		errorf("option --%s needs a value", lo->name);
	else
		errorf("option --%s takes no value", lo->name);
	return 2;
}

/* Completes the watermark pair (a zero field takes the engine's default,
 * which may not suit the other one given). @return 0, or 2 after a
 * message. */
static int set_watermarks(struct options *o, struct mem_args mem)
{
	if (mem.high != 0 && mem.low == 0)
		mem.low = mem.high - mem.high / 4;
	if (mem.low != 0 && mem.high == 0)
		mem.high = DEFAULT_MEM_HIGH;
	if (mem.low > mem.high) {
		errorf("--mem-low (%llu) is above --mem-high (%llu)",
		       (unsigned long long)mem.low,
		       (unsigned long long)mem.high);
		return 2;
	}
	o->cfg.mem_high = (size_t)mem.high;
	o->cfg.mem_low = (size_t)mem.low;
	return 0;
}

/*
 * Fills *o from argv with getopt_long(): long options only, by their
 * whole names, each value after '=' or in the next word; "-h" as
 * --help. Any other word is an error, "--" included. --help and --version
 * (the first given) act once every word has been read, so that a word
 * they leave over is refused too. @return -1 to go on, 0 after --help or
 * --version, or 2 after a message.
 */
static int parse_args(int argc, char **argv, struct options *o)
{
	struct mem_args mem = { 0, 0 };
	int at, rc, early = 0;

	memset(o, 0, sizeof(*o));
	o->threads = 1;
	o->fanout = LIVE_FANOUT_HASH;

	/* '+': stop at the first word that is not an option; ':': report
	 * a missing value as ':'. Messages are ours (opterr = 0). */
	opterr = 0;
	optind = 1;
	for (;;) {
		int idx = -1, c;

		at = optind;
		c = getopt_long(argc, argv, "+:h", long_options, &idx);
		if (c == -1)
			break;
		if (c == '?' || c == ':')
			return bad_word(argv[at], c);
		if (check_word(argv[at], c) != 0)
			return 2;
		if (c == 'h')
			c = OPT_HELP;
		if (c == OPT_HELP || c == OPT_VERSION) {
			if (early == 0)
				early = c;
			continue;
		}
		rc = set_option(o, &mem, c, long_options[idx].name, optarg);
		if (rc >= 0)
			return rc;
	}
	/* The word getopt_long() stopped at: "--", "-" or one without a
	 * dash. */
	if (at < argc) {
		errorf("unexpected argument '%s' (try --help)", argv[at]);
		return 2;
	}
	if (early == OPT_HELP) {
		usage(stdout);
		return 0;
	}
	if (early == OPT_VERSION) {
		printf("reasm %s\n", grain_version());
		return 0;
	}
	if (check_live_args(o) != 0 || set_watermarks(o, mem) != 0)
		return 2;
	return -1;
}

/* --- Time ------------------------------------------------------------------ */

/* A record's timestamp in nanoseconds (the input is opened with nanosecond
 * precision). Times before 1970 count as 0; absurdly late ones saturate. */
static uint64_t record_ns(const struct pcap_pkthdr *h)
{
	uint64_t s, frac;

	if (h->ts.tv_sec < 0)
		return 0;
	s = (uint64_t)h->ts.tv_sec;
	frac = h->ts.tv_usec < 0 ? 0 : (uint64_t)h->ts.tv_usec;
	if (s > (UINT64_MAX - frac) / NS_PER_S)
		return UINT64_MAX;
	return s * NS_PER_S + frac;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	nanosleep(&ts, NULL);
}

/* --- Output files ---------------------------------------------------------- */

/*
 * An output file (--write, --stats) is written to a temporary file beside
 * it, ".NAME.XXXXXX" in the same folder, and renamed over NAME only once
 * the run has succeeded; on any error the temporary file is removed, so an
 * existing NAME is never truncated or left half written. "-" (stdout) and
 * a path that exists and is not a regular file (a FIFO, /dev/null) are
 * written in place: renaming over them would replace them.
 */
struct out_file {
	const char *path; /* as given */
	char *target;	  /* what the rename replaces: path, or the file a
			     symbolic link at path points to (malloc'd) */
	char *tmp;	  /* the temporary file, or NULL: written in place */
	FILE *f;
};

/* The temporary files of this run, removed by the signal handler below
 * if a signal ends the run (file mode: nothing else catches them): the
 * two outputs', and the link that keeps an output's old file while the
 * outputs are renamed (outs_finish()). */
#define MAX_TMP_FILES 3
static char *volatile tmp_files[MAX_TMP_FILES];

/* Blocks the signals whose handler removes the temporary files, saving
 * the mask in *old, around a step the handler must not cut in two: a temporary file made but not yet registered, or
 * one output renamed and not the other. */
static void end_signals_block(sigset_t *old)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &s, old);
}

/* From a signal handler: only async-signal-safe calls. */
static void remove_tmp_files(void)
{
	for (int i = 0; i < MAX_TMP_FILES; i++) {
		char *t = tmp_files[i];

		if (t != NULL)
			(void)unlink(t);
	}
}

/* Ends the process by @p sig, as if it had not been caught, once the
 * temporary files are gone. Async-signal-safe. */
static void die_of(int sig)
{
	sigset_t s;

	remove_tmp_files();
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	_exit(128 + sig); /* not reached */
}

/*
 * A capture written in place to a stream (stdout, a FIFO) cannot be taken
 * back, and its reader must never get a record cut short: a signal that
 * ends a file run waits for the record (or batch of whole records) being
 * written, and the writer then dies of it. Each write goes
 * OUT_IDLE -> OUT_WRITING -> (flushed) OUT_IDLE; a signal takes
 * OUT_IDLE -> OUT_STOP and dies at once (nothing is half written: the
 * stream is flushed after every record), or takes OUT_WRITING -> OUT_STOP
 * and leaves the dying to the writer (out_write_end()). A second signal
 * while the writer finishes (a reader that stopped reading, say) dies at
 * once. The state is a lock-free atomic int: safe in a handler.
 */
enum { OUT_IDLE, OUT_WRITING, OUT_STOP };
static _Atomic(int) out_state;
static _Atomic(int) out_stop_sig;
static volatile sig_atomic_t out_stream; /* set once, before any record */

static void remove_tmp_and_die(int sig)
{
	while (out_stream) {
		int s = OUT_IDLE;

		if (atomic_compare_exchange_strong_explicit(
			    &out_state, &s, OUT_STOP, memory_order_relaxed,
			    memory_order_relaxed) ||
		    s == OUT_STOP)
			break;
		/* A record is being written: the writer dies after it. */
		atomic_store_explicit(&out_stop_sig, sig, memory_order_relaxed);
		s = OUT_WRITING;
		/* R1: the writer's A1 then reads the signal stored above. */
		if (atomic_compare_exchange_strong_explicit(
			    &out_state, &s, OUT_STOP, memory_order_release,
			    memory_order_relaxed))
			return;
		/* It went idle meanwhile: try again. */
	}
	die_of(sig);
}

/* Before writing whole records to a stream capture. @return false when a
 * signal is ending the run: write nothing. */
static bool out_write_begin(void)
{
	int s = OUT_IDLE;

	return !out_stream ||
	       atomic_compare_exchange_strong_explicit(&out_state, &s,
						       OUT_WRITING,
						       memory_order_relaxed,
						       memory_order_relaxed);
}

/* After a write that out_write_begin() allowed, the records flushed out
 * of @p f (NULL: written with write() already): dies of the signal that
 * came meanwhile, if one did. */
static void out_write_end(FILE *f)
{
	int s = OUT_WRITING;

	if (!out_stream)
		return;
	if (f != NULL)
		(void)fflush(f);
	/* A1 (on failure): pairs with R1 in remove_tmp_and_die(). */
	if (!atomic_compare_exchange_strong_explicit(&out_state, &s, OUT_IDLE,
						     memory_order_acquire,
						     memory_order_acquire))
		die_of(atomic_load_explicit(&out_stop_sig,
					    memory_order_relaxed));
}

static bool par_begin(void)
{
	return out_write_begin();
}

static void par_end(void)
{
	out_write_end(NULL);
}

static const struct par_write_hooks par_hooks = { par_begin, par_end };

/* SIGBUS: with several threads a capture file is read through a mapping,
 * and a file that another program truncates under it faults there. Say
 * so, leave no temporary file, and exit 2 as for any bad input. */
static void input_gone(int sig)
{
	static const char msg[] = "reasm: bus error reading the capture file "
				  "(was it truncated while being read?)\n";

	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	remove_tmp_files();
	_exit(2);
}

static void tmp_register(char *tmp, bool add)
{
	for (int i = 0; i < MAX_TMP_FILES; i++) {
		if (add && tmp_files[i] == NULL) {
			tmp_files[i] = tmp;
			return;
		}
		if (!add && tmp_files[i] == tmp) {
			tmp_files[i] = NULL;
			return;
		}
	}
}

/* Forgets the temporary file's and the target's names. */
static void out_forget(struct out_file *of)
{
	free(of->tmp);
	of->tmp = NULL;
	free(of->target);
	of->target = NULL;
}

/* Removes the temporary file (if @p remove: it is not renamed over the
 * target) from the names a signal cleans up, then forgets it. */
static void out_drop_tmp(struct out_file *of, bool remove)
{
	if (remove)
		(void)unlink(of->tmp);
	tmp_register(of->tmp, false);
	out_forget(of);
}

/* The path of the link that @p path names, read against the folder of
 * @p path; NULL with errno set on error. */
static char *link_next(const char *path)
{
	char link[PATH_MAX];
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	if (n < 0)
		return NULL;
	link[n] = '\0';
	const char *slash = strrchr(path, '/');
	if (link[0] == '/' || slash == NULL)
		return strdup(link);
	size_t dirlen = (size_t)(slash - path) + 1;
	char *next = malloc(dirlen + (size_t)n + 1);
	if (next != NULL) {
		memcpy(next, path, dirlen);
		memcpy(next + dirlen, link, (size_t)n + 1);
	}
	return next;
}

/* The file that writing @p path replaces or creates: symbolic links
 * followed, a link to nothing yet included, and the folder made
 * absolute where it exists (two spellings of one file then compare
 * equal). NULL with errno set on error. */
static char *out_resolve(const char *path)
{
	char *cur = strdup(path);
	struct stat lst;

	for (unsigned hops = 0;
	     cur != NULL && lstat(cur, &lst) == 0 && S_ISLNK(lst.st_mode);
	     hops++) {
		char *next = hops < 40 ? link_next(cur) : NULL;
		if (hops >= 40)
			errno = ELOOP;
		free(cur);
		cur = next;
	}
	if (cur == NULL)
		return NULL;
	const char *slash = strrchr(cur, '/');
	const char *base = slash != NULL ? slash + 1 : cur;
	char *dir = slash == NULL  ? strdup(".")
		    : slash == cur ? strdup("/")
				   : strndup(cur, (size_t)(slash - cur));
	char *real = dir != NULL ? realpath(dir, NULL) : NULL;
	free(dir);
	if (real == NULL || *base == '\0') {
		/* Left as given: the write reports what is wrong. */
		free(real);
		return cur;
	}
	size_t n = strlen(real) + strlen(base) + 2;
	char *out = malloc(n);
	if (out != NULL)
		snprintf(out, n, "%s/%s", strcmp(real, "/") == 0 ? "" : real,
			 base);
	free(real);
	free(cur);
	return out;
}

/* Opens @p path for writing as described above. @return 0, or 2 after a
 * message. */
static int out_open(struct out_file *of, const char *path)
{
	struct stat st;
	bool exists;
	mode_t mode, mask;
	int fd;

	memset(of, 0, sizeof(*of));
	of->path = path;
	if (strcmp(path, "-") == 0) {
		of->f = stdout;
		return 0;
	}
	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		of->f = fopen(path, "w");
		if (of->f == NULL) {
			errorf("%s: %s", path, strerror(errno));
			return 2;
		}
		return 0;
	}
	/* A symbolic link: replace (or create) the file it names, keep the
	 * link. */
	of->target = out_resolve(path);
	if (of->target == NULL) {
		errorf("%s: %s", path, strerror(errno));
		return 2;
	}
	const char *t = of->target;
	const char *slash = strrchr(t, '/');
	size_t dirlen = slash != NULL ? (size_t)(slash - t) + 1 : 0;
	size_t n = strlen(t) + sizeof("/..XXXXXX");

	of->tmp = malloc(n);
	if (of->tmp == NULL) {
		errorf("out of memory");
		free(of->target);
		of->target = NULL;
		return 2;
	}
	snprintf(of->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, t, t + dirlen);
	/* Made and registered with the signals held off: a signal between
	 * the two would leave the file behind. */
	sigset_t old;
	end_signals_block(&old);
	fd = mkstemp(of->tmp);
	if (fd >= 0)
		tmp_register(of->tmp, true);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		errorf("%s: %s", path, strerror(errno));
		out_forget(of);
		return 2;
	}
	/* The mode a plain create would give, or the existing file's. */
	mask = umask(0);
	umask(mask);
	mode = exists ? st.st_mode & 07777 : 0666 & ~mask;
	(void)fchmod(fd, mode);
	of->f = fdopen(fd, "w");
	if (of->f == NULL) {
		errorf("%s: %s", path, strerror(errno));
		close(fd);
		out_drop_tmp(of, true);
		return 2;
	}
	return 0;
}

/* Finishes an output whose FILE the caller has already closed (or, for
 * stdout, flushed): renames the temporary file over the path if @p ok,
 * else removes it. @return 0, or 2 after a message. */
static int out_finish(struct out_file *of, bool ok)
{
	int status = 0;

	if (of->tmp == NULL)
		return 0;
	if (ok && rename(of->tmp, of->target) != 0) {
		errorf("%s: %s", of->path, strerror(errno));
		status = 2;
		ok = false;
	}
	out_drop_tmp(of, !ok);
	return status;
}

/* A second name (a hard link ".NAME.XXXXXX" beside it) for the file that
 * @p of's rename would replace, so that the rename can be undone; NULL
 * when there is no such file, or it cannot be linked (a file system
 * without hard links, say). Registered with the temporary files. */
static char *out_keep_old(const struct out_file *of)
{
	struct stat st;
	size_t n = strlen(of->tmp) + 1;
	char *keep = malloc(n);

	if (keep == NULL || lstat(of->target, &st) != 0 ||
	    !S_ISREG(st.st_mode)) {
		free(keep);
		return NULL;
	}
	/* A fresh name (the same pattern as the temporary file's), freed
	 * for the link; another program could take it in between: then
	 * try again. */
	for (int tries = 0; tries < 8; tries++) {
		memcpy(keep, of->tmp, n);
		memcpy(keep + n - 7, "XXXXXX", 6);
		int fd = mkstemp(keep);
		if (fd < 0)
			break;
		close(fd);
		(void)unlink(keep);
		if (link(of->target, keep) == 0) {
			tmp_register(keep, true);
			return keep;
		}
		if (errno != EEXIST)
			break;
	}
	free(keep);
	return NULL;
}

/* Forgets (and removes, if @p remove) the name out_keep_old() made. */
static void out_drop_old(char *keep, bool remove)
{
	if (keep == NULL)
		return;
	if (remove)
		(void)unlink(keep);
	tmp_register(keep, false);
	free(keep);
}

/*
 * Finishes both outputs of a run: if @p ok, renames the temporary files
 * over their targets, both or neither; else removes them. The stats file
 * goes first, its old file kept under a second name (out_keep_old()),
 * then the capture; if the capture's rename fails, the stats file's is
 * undone, so that a failed run leaves both files as they were. (Where
 * the old stats file cannot be linked, a stats file that did not exist
 * is removed again, and one that did stays replaced.) @return 0, or 2
 * after a message.
 */
static int outs_finish(struct out_file *cap, struct out_file *stats, bool ok)
{
	if (!ok || cap->tmp == NULL || stats->tmp == NULL) {
		int a = out_finish(stats, ok);
		int b = out_finish(cap, ok && a == 0);
		return a != 0 ? a : b;
	}
	sigset_t old;
	struct stat st;
	end_signals_block(&old);
	bool existed = lstat(stats->target, &st) == 0;
	char *keep = out_keep_old(stats);
	int status = 0;
	if (rename(stats->tmp, stats->target) != 0) {
		errorf("%s: %s", stats->path, strerror(errno));
		status = 2;
		out_drop_tmp(stats, true);
		out_drop_tmp(cap, true);
	} else if (rename(cap->tmp, cap->target) != 0) {
		errorf("%s: %s", cap->path, strerror(errno));
		status = 2;
		if (keep != NULL)
			(void)rename(keep, stats->target);
		else if (!existed)
			(void)unlink(stats->target);
		out_drop_tmp(stats, false);
		out_drop_tmp(cap, true);
	} else {
		out_drop_tmp(stats, false);
		out_drop_tmp(cap, false);
	}
	out_drop_old(keep, true);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return status;
}

/* The name of an output in messages. */
static const char *out_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "stdout" : path;
}

/* The first error writing the capture (an errno value; 0: none). The
 * writer sets it; the reader (or the supervisor of a live run) stops
 * reading once it is set. */
static _Atomic(int) write_errno;

/* --- Output ---------------------------------------------------------------- */

static void dump_out(pcap_dumper_t *d, const struct reasm_out *out)
{
	struct pcap_pkthdr h;

	if (atomic_load_explicit(&write_errno, memory_order_relaxed) != 0)
		return; /* the output is lost already: write nothing more */

	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = (time_t)(out->ts_ns / NS_PER_S);
	/* Nanoseconds: the dumper was opened with nanosecond precision. */
	h.ts.tv_usec = (suseconds_t)(out->ts_ns % NS_PER_S);
	h.caplen = out->len;
	h.len = out->orig_len < out->len ? out->len : out->orig_len;
	if (!out_write_begin())
		return; /* a signal is ending the run */
	errno = 0;
	pcap_dump((u_char *)d, &h, out->data);
	out_write_end(pcap_dump_file(d));
	if (ferror(pcap_dump_file(d)))
		atomic_store_explicit(&write_errno, errno != 0 ? errno : EIO,
				      memory_order_relaxed);
}

/* Emit callback with one thread: straight to the file. */
static void emit_direct(struct reasm_out *out, void *arg)
{
	dump_out(arg, out);
	reasm_out_free(out);
}

/* --- The threaded pipeline ------------------------------------------------- */

/* A frame in flight from the reader to a worker and then, carrying what
 * the engine emitted for it, from the worker to the writer. */
struct frame {
	uint64_t ts_ns;
	uint32_t caplen;
	uint32_t wirelen;
	struct reasm_out *out;	 /* what it made, if anything */
	struct reasm_out **more; /* more outputs (the engine emits at most
				    one per frame today) */
	unsigned nmore;
	uint8_t data[];
};

/*
 * Workers fed by the reader (a capture file) keep capture order: the
 * reader sends each frame to the worker of its flow (reasm_flow_of(), so
 * the frames of a datagram, and every IPv4 datagram of a source, meet the
 * engine in capture order on one worker; other frames go round robin),
 * and tells the writer which worker has it through the `order` ring. A
 * worker hands each frame back with its outputs through its own `done`
 * ring; the writer takes them worker by worker in the order the reader
 * wrote, so the output file is the one a single thread writes, byte for
 * byte. Deadlock-free: the frame the writer waits for was queued to its
 * worker before its token was queued to the writer, and that worker's
 * done ring holds nothing older.
 *
 * Live input (--in) has no reader: the receive workers emit into the
 * grain_prio, band from the DSCP, and the writer drains it.
 */
struct pipeline {
	unsigned nworkers;
	struct grain_ring **in;	  /* reader -> worker i: struct frame * */
	struct grain_ring **out;  /* worker i -> writer: struct frame * */
	struct grain_ring *order; /* reader -> writer: worker i + 1 */
	struct grain_prio *prio;  /* --in workers -> writer: reasm_out * */
	pcap_dumper_t *dumper;	  /* the writer's alone */
	struct live_tx *tx;	  /* --out: the writer sends here instead */
	bool publish;		  /* workers publish their counters (live) */
	/* Frames the workers have finished (R3: a worker's release after its
	 * last use of its reasm_worker for the frame). Bumped once per
	 * frame: on its own cache line, away from the pointers above. */
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) done;
};

struct worker {
	struct reasm_worker w;
	struct pipeline *pl;
	unsigned index;
	struct frame *cur;     /* the frame reasm_input() is working on */
	struct live_slot slot; /* pl->publish: counters for --stats-interval */
	pthread_t thread;
	bool started;
};

/* Emit callback of the live receive workers: into the priority queue,
 * band from the DSCP. A full band means the writer is behind: wait for
 * it rather than lose a frame. */
static void emit_queued(struct reasm_out *out, void *arg)
{
	struct pipeline *pl = arg;
	unsigned prio = grain_prio_dscp_to_priority(out->dscp);

	while (grain_prio_try_enqueue_prio(pl->prio, prio, out) != 0)
		sleep_ns(20000);
}

/* Emit callback of the workers fed by the reader: the output rides back
 * to the writer with the frame that made it. */
static void emit_attach(struct reasm_out *out, void *arg)
{
	struct worker *wk = arg;
	struct frame *f = wk->cur;
	struct reasm_out **more;

	if (f->out == NULL) {
		f->out = out;
		return;
	}
	more = realloc(f->more, (f->nmore + 1) * sizeof(*more));
	if (more == NULL) {
		reasm_out_free(out); /* cannot happen today: one per frame */
		return;
	}
	more[f->nmore++] = out;
	f->more = more;
}

/* Live runs: copy the worker's counters where the statistics line can
 * read them, every so often (@p force: now). */
static void worker_publish(struct worker *wk, bool force)
{
	static const struct live_stats none;

	if (wk->pl->publish &&
	    (live_slot_due(&wk->slot, live_mono_ns()) || force))
		live_slot_publish(&wk->slot, &wk->w.st, &none);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct pipeline *pl = wk->pl;
	struct grain_ring *in = pl->in[wk->index], *out = pl->out[wk->index];
	/* Live runs wake now and then to publish their counters. */
	int64_t wait = pl->publish ? PUBLISH_WAIT_NS : -1;

	for (;;) {
		void *obj = NULL;
		struct frame *f;

		if (grain_ring_dequeue_wait(in, &obj, wait) != 0) {
			worker_publish(wk, false);
			continue; /* timed out */
		}
		if (obj == NULL)
			break; /* end of input */
		f = obj;
		wk->cur = f;
		(void)reasm_input(&wk->w, f->data, f->caplen, f->wirelen,
				  f->ts_ns);
		wk->cur = NULL;
		worker_publish(wk, false);
		/* R3: pairs with A3 in wait_idle(). */
		atomic_fetch_add_explicit(&pl->done, 1, memory_order_release);
		while (grain_ring_enqueue_wait(out, f, -1) != 0)
			;
	}
	worker_publish(wk, true);
	return NULL;
}

/* One output to the file or, with --out, to the transmit ring. */
static void write_out(struct pipeline *pl, struct reasm_out *out)
{
	if (pl->tx != NULL) {
		live_tx_put(pl->tx, out); /* frees it */
		return;
	}
	dump_out(pl->dumper, out);
	reasm_out_free(out);
}

/* The writer, or with --out the transmit thread: the only thread that
 * touches the output. */
static void *writer_main(void *arg)
{
	struct pipeline *pl = arg;
	void *objs[WRITER_BURST];
	bool stop = false;

	while (!stop) {
		/* Frames the kernel has not taken yet (its send buffer was
		 * full): come back soon to kick again. */
		int64_t wait = pl->tx != NULL && live_tx_pending(pl->tx)
				       ? TX_RETRY_NS
				       : -1;
		int n = grain_prio_dequeue_burst_wait(pl->prio, objs,
						      WRITER_BURST, wait);

		for (int i = 0; i < n; i++) {
			if (objs[i] == NULL) {
				stop = true;
				continue;
			}
			write_out(pl, objs[i]);
		}
		if (pl->tx != NULL)
			live_tx_kick(pl->tx); /* one send() per burst */
	}
	/* The NULL was queued after every output (the workers had been
	 * joined), and taking it acquired all of them: whatever a
	 * higher band still holds is found now. */
	for (;;) {
		int n = grain_prio_try_dequeue_burst(pl->prio, objs,
						     WRITER_BURST);

		if (n <= 0)
			break;
		for (int i = 0; i < n; i++) {
			if (objs[i] != NULL)
				write_out(pl, objs[i]);
		}
	}
	/* Wait until the kernel has sent every frame queued. */
	if (pl->tx != NULL)
		live_tx_drain(pl->tx);
	return NULL;
}

/* Writes what a frame made and frees it. */
static void write_frame(struct pipeline *pl, struct frame *f)
{
	if (f->out != NULL)
		write_out(pl, f->out);
	for (unsigned i = 0; i < f->nmore; i++)
		write_out(pl, f->more[i]);
	free(f->more);
	free(f);
}

/* The writer (or transmit thread) of a run fed by the reader: outputs in
 * capture order, as the reader's tokens say. */
static void *ordered_writer_main(void *arg)
{
	struct pipeline *pl = arg;

	for (;;) {
		void *tok = NULL, *obj = NULL;

		if (grain_ring_try_dequeue(pl->order, &tok) != 0) {
			/* Nothing ready: a moment to send what is queued. */
			if (pl->tx != NULL)
				live_tx_kick(pl->tx);
			int64_t wait = pl->tx != NULL && live_tx_pending(pl->tx)
					       ? TX_RETRY_NS
					       : -1;
			if (grain_ring_dequeue_wait(pl->order, &tok, wait) != 0)
				continue;
		}
		if (tok == NULL)
			break; /* queued after the workers were joined */
		unsigned i = (unsigned)((uintptr_t)tok - 1);
		while (grain_ring_dequeue_wait(pl->out[i], &obj, -1) != 0)
			;
		write_frame(pl, obj);
	}
	if (pl->tx != NULL) {
		live_tx_kick(pl->tx);
		live_tx_drain(pl->tx); /* until the kernel has sent it all */
	}
	return NULL;
}

/* Waits until the workers have finished all @p queued frames: they are
 * idle, and everything they did happens-before the return. */
static void wait_idle(struct pipeline *pl, uint64_t queued)
{
	unsigned spins = 0;

	/* A3: pairs with R3 in worker_main(); the counter only ever grows
	 * by read-modify-writes, so reading the last value synchronizes
	 * with every worker's increment. */
	while (atomic_load_explicit(&pl->done, memory_order_acquire) !=
	       queued) {
		if (++spins < 64)
			sleep_ns(1000);
		else
			sleep_ns(50000);
	}
}

/* --- The run --------------------------------------------------------------- */

struct run {
	struct options opt;
	pcap_t *in;
	pcap_t *dead;
	pcap_dumper_t *dumper;
	struct out_file cap_out;   /* --write */
	struct out_file stats_out; /* --stats */
	struct reasm *engine;
	struct reasm_worker single; /* --threads 1 */
	struct worker *workers;	    /* --threads N >= 2, or --read + --out */
	unsigned worker_slots;	    /* workers[i].slot set up */
	struct pipeline pl;
	pthread_t writer;
	bool writer_started;
	struct reasm_stats stats;
	struct par_file *par; /* --threads N >= 2 on a pcap file (par.h) */
	/* Live runs. */
	bool live;
	struct live_ctl ctl;	   /* stop flag, expiry (--in) */
	struct live_rx_worker *rx; /* --in: opt.threads receive workers */
	pthread_t *rx_threads;
	unsigned rx_open;    /* rings opened */
	unsigned rx_ready;   /* slots set up */
	unsigned rx_started; /* threads started */
	struct live_tx *tx;  /* --out */
	pthread_t reader;    /* --read with --out */
	bool reader_started;
	_Atomic(bool) reader_done; /* the reader has returned */
	int reader_status;	   /* its result, read after the join */
	struct live_stats live_stats;
	/* --read with --out and --threads 1: the reader runs the engine and
	 * fills the transmit ring itself, the engine writing each frame
	 * straight into its slot through this sink. */
	bool direct;
	struct reasm_sink sink;
	struct live_slot single_slot; /* its counters, for --stats-interval */
	bool single_slot_ready;
};

/* Does @p write_path name the file @p read_path names? */
static bool same_file(const char *read_path, const char *write_path)
{
	struct stat a, b;

	if (strcmp(read_path, "-") == 0 || strcmp(write_path, "-") == 0)
		return false;
	if (stat(read_path, &a) != 0 || stat(write_path, &b) != 0)
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Do outputs @p a and @p b end in one file: one spelling, one existing
 * file, one file to be created under two spellings or through a link, or
 * stdout ("-") sent to the regular file that the other names? */
static bool same_output(const char *a, const char *b)
{
	bool a_out = strcmp(a, "-") == 0, b_out = strcmp(b, "-") == 0;

	if (strcmp(a, b) == 0)
		return true;
	if (a_out || b_out) {
		struct stat o, f;
		return fstat(STDOUT_FILENO, &o) == 0 && S_ISREG(o.st_mode) &&
		       stat(a_out ? b : a, &f) == 0 && o.st_dev == f.st_dev &&
		       o.st_ino == f.st_ino;
	}
	if (same_file(a, b))
		return true;
	char *ra = out_resolve(a), *rb = out_resolve(b);
	bool same = ra != NULL && rb != NULL && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

/* Linux's pipe resize (fcntl.h defines it only with _GNU_SOURCE). */
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031
#endif

/* A pipe holds 64 KiB by default: less than one 64 KiB frame and its
 * record header, so the writer of the capture could never get a frame
 * ahead of the reader, and the two would take turns. Ask for room for a
 * few (pipe-max-size allows 1 MiB without privileges); a refusal or
 * another kind of input changes nothing. */
static void widen_pipe(FILE *f)
{
	struct stat st;

	if (f != NULL && fstat(fileno(f), &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fileno(f), F_SETPIPE_SZ, 1 << 20);
}

/* Opens the capture file IN and checks its link type. @return 0 or 2. */
static int open_read(struct run *rn)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct options *o = &rn->opt;
	int dlt;

	rn->in = pcap_open_offline_with_tstamp_precision(
		o->read_path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (rn->in == NULL) {
		pcap_errorf(o->read_path, errbuf);
		return 2;
	}
	widen_pipe(pcap_file(rn->in));
	dlt = pcap_datalink(rn->in);
	if (!reasm_link_supported(dlt)) {
		const char *name = pcap_datalink_val_to_name(dlt);

		errorf("unsupported link type %s (%d)",
		       name != NULL ? name : "UNKNOWN", dlt);
		return 2;
	}
	if (o->out_iface != NULL && dlt != REASM_LINK_ETHERNET) {
		const char *name = pcap_datalink_val_to_name(dlt);

		errorf("%s: --out sends Ethernet frames, and this capture's "
		       "link type is %s (%d)",
		       o->read_path, name != NULL ? name : "UNKNOWN", dlt);
		return 2;
	}
	o->cfg.link = dlt;
	return 0;
}

/* Opens the capture file OUT (a temporary file until the run succeeds),
 * of the input's link type. @return 0 or 2. */
static int open_write(struct run *rn)
{
	struct options *o = &rn->opt;
	int status;

	rn->dead = pcap_open_dead_with_tstamp_precision(
		o->cfg.link, OUT_SNAPLEN, PCAP_TSTAMP_PRECISION_NANO);
	if (rn->dead == NULL) {
		errorf("out of memory");
		return 2;
	}
	status = out_open(&rn->cap_out, o->write_path);
	if (status != 0)
		return status;
	rn->dumper = pcap_dump_fopen(rn->dead, rn->cap_out.f);
	if (rn->dumper == NULL) {
		pcap_errorf(o->write_path, pcap_geterr(rn->dead));
		if (rn->cap_out.f != stdout)
			fclose(rn->cap_out.f);
		rn->cap_out.f = NULL;
		(void)out_finish(&rn->cap_out, false);
		return 2;
	}
	/* Written in place to a stream, in a file run (a live run takes
	 * its signals in the main thread and stops cleanly): whole records
	 * only, the file header first, whatever signal ends the run. */
	if (rn->cap_out.tmp == NULL && !is_live(o)) {
		(void)pcap_dump_flush(rn->dumper);
		out_stream = 1;
	}
	return 0;
}

/* Makes the engine, then opens the outputs: the stats file, if any, and
 * the capture file OUT with --write. Nothing is created before every
 * check has passed. @return 0 or 2. */
static int open_rest(struct run *rn)
{
	struct options *o = &rn->opt;
	int rc;

	if (o->write_path != NULL && o->read_path != NULL &&
	    same_file(o->read_path, o->write_path)) {
		errorf("%s: --write would overwrite --read", o->write_path);
		return 2;
	}
	if (o->write_path != NULL && o->stats_path != NULL &&
	    same_output(o->write_path, o->stats_path)) {
		errorf("%s: --stats and --write name the same file",
		       o->stats_path);
		return 2;
	}
	rc = reasm_create(&rn->engine, &o->cfg);
	if (rc != 0) {
		errorf("cannot make the engine: %s", strerror(-rc));
		return 2;
	}
	if (o->stats_path != NULL) {
		rc = out_open(&rn->stats_out, o->stats_path);
		if (rc != 0)
			return rc;
	}
	if (o->write_path != NULL)
		return open_write(rn);
	return 0;
}

/* Opens IN, makes the engine and opens the outputs. @return 0 or 2. */
static int open_all(struct run *rn)
{
	int status = open_read(rn);

	if (status == 0)
		status = open_rest(rn);
	return status;
}

/* At the end of a file: expire what is due at the latest capture time
 * (par.h, expiry_end()). With workers, once they have taken every frame
 * queued, through worker 0's state as at any other expiry point. */
static void expire_at_end(struct run *rn, bool multi, const struct expiry *exp,
			  uint64_t queued)
{
	uint64_t now;

	if (!expiry_end(exp, &now))
		return;
	if (!multi) {
		(void)reasm_expire(&rn->single, now);
		return;
	}
	wait_idle(&rn->pl, queued);
	(void)reasm_expire(&rn->workers[0].w, now);
}

/* --read with --out, one thread: copy the engine's counters where the
 * statistics line can read them, every so often (@p force: now). */
static void direct_publish(struct run *rn, bool force)
{
	static const struct live_stats none;

	if (live_slot_due(&rn->single_slot, live_mono_ns()) || force)
		live_slot_publish(&rn->single_slot, &rn->single.st, &none);
}

/* Emit callback of the direct transmit path: the frames the ring's
 * reservation declined (live_tx_put() counts or sends them). */
static void emit_tx(struct reasm_out *out, void *arg)
{
	live_tx_put(arg, out); /* frees it */
}

/* Reads IN to the end. @p multi: queue frames to the workers; else process
 * them here. @return 0, or 2 after a message (the run is still shut down
 * cleanly by the caller). A live run (--out) also stops at a stop request. */
static int read_all(struct run *rn, bool multi)
{
	struct expiry exp = { 0 };
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t queued = 0;
	unsigned n = rn->opt.threads;
	int rc;

	while ((rc = pcap_next_ex(rn->in, &h, &data)) == 1) {
		uint64_t now = record_ns(h);
		uint32_t wirelen = h->len < h->caplen ? h->caplen : h->len;
		struct frame *f;

		if (rn->live && live_ctl_stopping(&rn->ctl))
			return 0; /* a signal or --duration */
		if (atomic_load_explicit(&write_errno, memory_order_relaxed))
			return 0; /* the output is lost: main reports it */

		if (!multi) {
			if (expiry_due(&exp, now))
				(void)reasm_expire(&rn->single, now);
			(void)reasm_input(&rn->single, data, h->caplen, wirelen,
					  now);
			if (rn->direct)
				direct_publish(rn, false);
			continue;
		}

		if (expiry_due(&exp, now)) {
			/* Worker 0 is idle once wait_idle() returns, and
			 * stays so until the next frame is queued. */
			wait_idle(&rn->pl, queued);
			(void)reasm_expire(&rn->workers[0].w, now);
		}
		f = malloc(sizeof(*f) + h->caplen);
		if (f == NULL) {
			errorf("out of memory");
			return 2;
		}
		f->ts_ns = now;
		f->caplen = h->caplen;
		f->wirelen = wirelen;
		f->out = NULL;
		f->more = NULL;
		f->nmore = 0;
		memcpy(f->data, data, h->caplen);
		/* The frames of one flow to one worker, in capture order;
		 * the others round robin. */
		int32_t flow = reasm_flow_of(rn->engine, data, h->caplen);
		unsigned i = flow < 0 ? (unsigned)(queued % n)
				      : (unsigned)flow % n;
		while (grain_ring_enqueue_wait(rn->pl.in[i], f, -1) != 0)
			;
		/* After the frame: the writer then always finds it. */
		while (grain_ring_enqueue_wait(rn->pl.order,
					       (void *)(uintptr_t)(i + 1),
					       -1) != 0)
			;
		queued++;
	}
	if (rc != PCAP_ERROR_BREAK) {
		pcap_errorf(rn->opt.read_path, pcap_geterr(rn->in));
		return 2;
	}
	expire_at_end(rn, multi, &exp, queued);
	return 0;
}

/* The smallest power of two >= @p x (x <= 2^31). */
static unsigned pow2_ceil(unsigned x)
{
	unsigned p = 1;

	while (p < x)
		p <<= 1;
	return p;
}

/* Starts the writer (or transmit thread) and, unless the receive workers
 * take their place (--in), the workers fed by the reader. @return 0 or 2. */
static int start_threads(struct run *rn)
{
	struct grain_prio_config pc = {
		.bands = 3, /* pfifo_fast's */
		.flags = GRAIN_PRIO_SC | GRAIN_PRIO_WAIT,
		.capacity = PRIO_CAPACITY,
	};
	bool fed = rn->opt.in_iface == NULL; /* workers fed by the reader */
	unsigned n = rn->opt.threads;
	/* Per worker: RING_CAPACITY frames in all, at least 64 each. */
	unsigned cap =
		pow2_ceil(RING_CAPACITY / n < 64 ? 64 : RING_CAPACITY / n);
	int rc;

	rn->pl.dumper = rn->dumper;
	rn->pl.tx = rn->tx;
	rn->pl.publish = rn->live;
	atomic_init(&rn->pl.done, 0);
	if (grain_prio_create(&rn->pl.prio, &pc, NULL) != 0) {
		errorf("out of memory");
		return 2;
	}
	if (fed) {
		rn->pl.in = calloc(n, sizeof(*rn->pl.in));
		rn->pl.out = calloc(n, sizeof(*rn->pl.out));
		rn->workers = calloc(n, sizeof(*rn->workers));
		if (rn->pl.in == NULL || rn->pl.out == NULL ||
		    rn->workers == NULL) {
			errorf("out of memory");
			return 2;
		}
		rn->pl.nworkers = n;
		/* The order ring holds a token for every frame in flight:
		 * in a worker's two rings or in its hands. */
		if (grain_ring_create(&rn->pl.order, pow2_ceil(2 * n * cap + n),
				      GRAIN_RING_SPSC | GRAIN_RING_WAIT,
				      NULL) != 0) {
			errorf("out of memory");
			return 2;
		}
		for (unsigned i = 0; i < n; i++) {
			if (grain_ring_create(&rn->pl.in[i], cap,
					      GRAIN_RING_SPSC | GRAIN_RING_WAIT,
					      NULL) != 0 ||
			    grain_ring_create(&rn->pl.out[i], cap,
					      GRAIN_RING_SPSC | GRAIN_RING_WAIT,
					      NULL) != 0) {
				errorf("out of memory");
				return 2;
			}
		}
		for (unsigned i = 0; i < n; i++) {
			rn->workers[i].pl = &rn->pl;
			rn->workers[i].index = i;
			if (live_slot_init(&rn->workers[i].slot) != 0) {
				errorf("out of memory");
				return 2;
			}
			rn->worker_slots++;
			rc = reasm_worker_init(&rn->workers[i].w, rn->engine,
					       emit_attach, &rn->workers[i]);
			if (rc != 0) {
				errorf("cannot register worker %u: %s", i,
				       strerror(-rc));
				return 2;
			}
		}
	}
	if (thread_start(&rn->writer, fed ? ordered_writer_main : writer_main,
			 &rn->pl, "the writer thread") != 0)
		return 2;
	rn->writer_started = true;
	for (unsigned i = 0; fed && i < n; i++) {
		if (thread_start(&rn->workers[i].thread, worker_main,
				 &rn->workers[i], "worker thread %u", i) != 0)
			return 2;
		rn->workers[i].started = true;
	}
	return 0;
}

/* Stops whatever start_threads() started, in order: workers once their
 * rings are drained, then the writer once the queue is. */
static void stop_threads(struct run *rn)
{
	if (rn->workers != NULL) {
		for (unsigned i = 0; i < rn->opt.threads; i++) {
			if (!rn->workers[i].started)
				continue;
			while (grain_ring_enqueue_wait(rn->pl.in[i], NULL,
						       -1) != 0)
				;
		}
		for (unsigned i = 0; i < rn->opt.threads; i++) {
			if (rn->workers[i].started)
				pthread_join(rn->workers[i].thread, NULL);
		}
	}
	if (rn->writer_started && rn->pl.order != NULL) {
		while (grain_ring_enqueue_wait(rn->pl.order, NULL, -1) != 0)
			;
		pthread_join(rn->writer, NULL);
	} else if (rn->writer_started) {
		unsigned last = grain_prio_bands(rn->pl.prio) - 1;

		while (grain_prio_try_enqueue(rn->pl.prio, last, NULL) != 0)
			sleep_ns(20000);
		pthread_join(rn->writer, NULL);
	}
}

/* Frees the rings of the workers fed by the reader and whatever is
 * left in them (only after a start that failed half way). */
static void free_rings(struct pipeline *pl)
{
	void *obj;

	for (unsigned i = 0; i < pl->nworkers; i++) {
		for (int k = 0; k < 2; k++) {
			struct grain_ring *r = k == 0 ? pl->in[i] : pl->out[i];

			if (r == NULL)
				continue;
			while (grain_ring_try_dequeue(r, &obj) == 0) {
				struct frame *f = obj;

				if (f == NULL)
					continue;
				reasm_out_free(f->out);
				for (unsigned m = 0; m < f->nmore; m++)
					reasm_out_free(f->more[m]);
				free(f->more);
				free(f);
			}
			grain_ring_destroy(r);
		}
	}
	free(pl->in);
	free(pl->out);
	grain_ring_destroy(pl->order);
}

/* --- Live runs ------------------------------------------------------------- */

/* Opens the input and output interfaces (--in, --out) or files, the stats
 * file, and makes the engine. @return 0 or 2. */
static int open_live(struct run *rn)
{
	struct options *o = &rn->opt;
	uint16_t group = 0;
	bool has_group = false;
	int status = 0;

	if (o->read_path != NULL) {
		status = open_read(rn);
	} else {
		o->cfg.link = REASM_LINK_ETHERNET;
		rn->rx = calloc(o->threads, sizeof(*rn->rx));
		rn->rx_threads = calloc(o->threads, sizeof(*rn->rx_threads));
		if (rn->rx == NULL || rn->rx_threads == NULL) {
			errorf("out of memory");
			return 2;
		}
		for (unsigned i = 0; i < o->threads; i++) {
			if (live_rx_open(&rn->rx[i].rx, o->in_iface, o->fanout,
					 &group, &has_group) != 0)
				return 2;
			rn->rx_open++;
		}
	}
	if (status != 0)
		return status;

	if (o->write_path == NULL) {
		struct live_tx_config tc = {
			.ifname = o->out_iface,
			.frames = o->tx_frames != 0 ? o->tx_frames
						    : DEFAULT_TX_FRAMES,
			.qdisc_bypass = o->qdisc_bypass,
			.set_dst = o->dst_mac_set,
			.set_src = o->src_mac_set,
			.stopping = &rn->ctl.stop,
		};

		memcpy(tc.dst, o->dst_mac, 6);
		memcpy(tc.src, o->src_mac, 6);
		if (live_tx_open(&rn->tx, &tc) != 0)
			return 2;
	}
	return open_rest(rn); /* the engine, then the output files */
}

/* Starts the receive workers (--in) or the reader thread (--read).
 * @return 0 or 2. */
static void *reader_main(void *arg);

static int start_live(struct run *rn)
{
	int rc;

	if (rn->direct) {
		if (live_slot_init(&rn->single_slot) != 0) {
			errorf("out of memory");
			return 2;
		}
		rn->single_slot_ready = true;
		if (reasm_worker_init(&rn->single, rn->engine, emit_tx,
				      rn->tx) != 0) {
			errorf("cannot register the worker");
			return 2;
		}
		live_tx_sink(rn->tx, &rn->sink);
		rn->single.sink = &rn->sink;
		/* Reading the input and the kernel's transmit then overlap;
		 * without the kicker the reader sends each burst itself. */
		rc = live_tx_kicker_start(rn->tx);
		if (rc != 0)
			errorf("no transmit thread (%s): the reader sends "
			       "each burst itself",
			       strerror(-rc));
	}
	if (rn->opt.read_path != NULL) {
		if (thread_start(&rn->reader, reader_main, rn,
				 "the reader thread") != 0)
			return 2;
		rn->reader_started = true;
		return 0;
	}
	for (unsigned i = 0; i < rn->opt.threads; i++) {
		struct live_rx_worker *lw = &rn->rx[i];

		lw->ctl = &rn->ctl;
		if (live_slot_init(&lw->slot) != 0) {
			errorf("out of memory");
			return 2;
		}
		rn->rx_ready++;
		rc = reasm_worker_init(&lw->w, rn->engine, emit_queued,
				       &rn->pl);
		if (rc != 0) {
			errorf("cannot register worker %u: %s", i,
			       strerror(-rc));
			return 2;
		}
	}
	for (unsigned i = 0; i < rn->opt.threads; i++) {
		if (thread_start(&rn->rx_threads[i], live_rx_thread, &rn->rx[i],
				 "worker thread %u", i) != 0)
			return 2;
		rn->rx_started++;
	}
	return 0;
}

/* --read with --out: the reader runs beside the main thread, which
 * supervises. */
static void *reader_main(void *arg)
{
	struct run *rn = arg;

	rn->reader_status = read_all(rn, !rn->direct);
	if (rn->direct) {
		/* The reader is the transmit thread: send what is left. */
		direct_publish(rn, true);
		live_tx_kick(rn->tx);
		live_tx_drain(rn->tx);
	}
	/* R7: pairs with A7 in supervise(). */
	atomic_store_explicit(&rn->reader_done, true, memory_order_release);
	return NULL;
}

/* "reasm: ready: ..." once every socket is bound and every thread runs. */
static void print_ready(const struct run *rn)
{
	const struct options *o = &rn->opt;

	fputs("reasm: ready: in ", stderr);
	if (o->in_iface != NULL)
		fprintf(stderr, "%s (%u worker%s, fanout %s)", o->in_iface,
			o->threads, o->threads == 1 ? "" : "s",
			live_fanout_name(o->fanout));
	else
		fputs(o->read_path, stderr);
	fputs(", out ", stderr);
	if (rn->tx != NULL)
		fprintf(stderr, "%s (MTU %u, %u ring slots of %u bytes%s)",
			o->out_iface, live_tx_mtu(rn->tx),
			live_tx_frames(rn->tx), live_tx_frame_size(rn->tx),
			o->qdisc_bypass ? ", no qdisc" : "");
	else
		fputs(o->write_path, stderr);
	fputc('\n', stderr);
}

/* The statistics line: the workers' published counters, the transmit
 * counters and the outputs queued. */
static void print_line(struct run *rn, struct live_meter *m, uint64_t now)
{
	struct reasm_stats st;
	struct live_stats ls;

	memset(&st, 0, sizeof(st));
	memset(&ls, 0, sizeof(ls));
	for (unsigned i = 0; i < rn->rx_started; i++)
		live_slot_sum(&rn->rx[i].slot, &st, &ls);
	for (unsigned i = 0; rn->workers != NULL && i < rn->opt.threads; i++)
		live_slot_sum(&rn->workers[i].slot, &st, &ls);
	if (rn->single_slot_ready)
		live_slot_sum(&rn->single_slot, &st, &ls);
	if (rn->tx != NULL)
		live_tx_counters(rn->tx, &ls);
	/* What the tables decided (evictions, expiries) and hold now. */
	struct reasm_stats eng;
	reasm_stats_shared(rn->engine, &eng);
	st.ReasmTimeout += eng.ReasmTimeout;
	st.evicted = eng.evicted;
	st.bytes_held = eng.bytes_held;
	st.datagrams_pending = eng.datagrams_pending;
	live_meter_line(m, stderr, now, &st, &ls,
			grain_prio_backlog(rn->pl.prio));
}

/* The main thread of a live run: waits for SIGINT or SIGTERM, the end of
 * --duration or the end of the input file, printing the statistics line
 * every --stats-interval meanwhile. */
static void supervise(struct run *rn, const sigset_t *sigs)
{
	const struct options *o = &rn->opt;
	uint64_t start = live_mono_ns();
	uint64_t end = o->duration_ns != 0 ? start + o->duration_ns : 0;
	uint64_t next_line = 0;
	struct live_meter meter;

	live_meter_start(&meter, start);
	if (o->stats_interval_ns != 0)
		next_line = start + o->stats_interval_ns;
	for (;;) {
		uint64_t now = live_mono_ns(), wake = now + SUPERVISE_NS;
		struct timespec ts;

		/* A7: pairs with R7 in reader_main(). */
		if (rn->reader_started &&
		    atomic_load_explicit(&rn->reader_done,
					 memory_order_acquire))
			return;
		if (end != 0 && now >= end)
			return;
		if (atomic_load_explicit(&write_errno, memory_order_relaxed))
			return; /* the output is lost: main reports it */
		/* The reader kicks the ring once per burst; frames left
		 * short of a burst while it waits for input go now. */
		if (rn->direct)
			live_tx_nudge(rn->tx);
		if (next_line != 0 && now >= next_line) {
			print_line(rn, &meter, now);
			next_line += o->stats_interval_ns;
			if (next_line <= now)
				next_line = now + o->stats_interval_ns;
		}
		if (next_line != 0 && next_line < wake)
			wake = next_line;
		if (end != 0 && end < wake)
			wake = end;
		ts.tv_sec = (time_t)((wake - now) / NS_PER_S);
		ts.tv_nsec = (long)((wake - now) % NS_PER_S);
		if (sigtimedwait(sigs, NULL, &ts) > 0)
			return;
	}
}

/* Stops a live run in order: the input, the workers (which finish what
 * they hold), then the writer or transmit thread (which empties the queue
 * and waits for the transmit ring). @return the reader's status. */
static int stop_live(struct run *rn)
{
	int status = 0;

	live_ctl_stop(&rn->ctl);
	if (rn->reader_started) {
		pthread_join(rn->reader, NULL);
		status = rn->reader_status;
	}
	for (unsigned i = 0; i < rn->rx_started; i++)
		pthread_join(rn->rx_threads[i], NULL);
	stop_threads(rn);

	/* Everything has been joined: the counters are final. */
	for (unsigned i = 0; i < rn->rx_started; i++)
		live_stats_add(&rn->live_stats, &rn->rx[i].ls);
	if (rn->tx != NULL)
		live_tx_counters(rn->tx, &rn->live_stats);
	return status;
}

/* Frees what open_live() and start_live() made. */
static void close_live(struct run *rn)
{
	for (unsigned i = 0; i < rn->rx_ready; i++)
		live_slot_fini(&rn->rx[i].slot);
	for (unsigned i = 0; i < rn->rx_open; i++)
		live_rx_close(rn->rx[i].rx);
	free(rn->rx);
	free(rn->rx_threads);
	if (rn->single_slot_ready)
		live_slot_fini(&rn->single_slot);
	live_tx_close(rn->tx);
}

/* A live run, from opening to the last thread joined. @return 0 or 2;
 * *ran: whether input was read. */
static int run_live(struct run *rn, bool *ran)
{
	sigset_t sigs;
	int status, rc;

	rn->live = true;
	live_ctl_init(&rn->ctl);
	atomic_init(&rn->reader_done, false);
	/* Blocked before any thread starts, hence in all of them: only
	 * sigtimedwait() in the main thread takes these signals. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	status = open_live(rn);
	/* One thread from a file to the ring: no workers, no writer (only
	 * the kicker, which makes the ring's send() calls). */
	rn->direct = status == 0 && rn->opt.read_path != NULL &&
		     rn->tx != NULL && rn->opt.threads == 1;
	if (status == 0 && !rn->direct)
		status = start_threads(rn);
	if (status == 0)
		status = start_live(rn);
	if (status == 0) {
		*ran = true;
		if (rn->tx != NULL)
			live_tx_advise(rn->tx, stderr);
		if (!rn->opt.quiet)
			print_ready(rn);
		supervise(rn, &sigs);
	}
	rc = stop_live(rn);
	return status != 0 ? status : rc;
}

/* --- The run --------------------------------------------------------------- */

/* A run from a pcap file mapped into memory, with --threads workers
 * (par.h); any tail par_run() leaves, read here with libpcap. @return 0
 * or 2. */
static int run_mapped(struct run *rn)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t skip;
	bool tail = false;
	int status, rc;

	/* The file header is in the dumper's buffer: out before the records
	 * that go straight to its descriptor. */
	if (pcap_dump_flush(rn->dumper) != 0) {
		atomic_store_explicit(&write_errno, errno != 0 ? errno : EIO,
				      memory_order_relaxed);
		return 0; /* close_capture() reports it */
	}
	par_set_write_hooks(rn->par, &par_hooks);
	status = par_run(rn->par, rn->engine, &rn->opt.cfg, rn->opt.threads,
			 fileno(pcap_dump_file(rn->dumper)), &tail);
	if (status == 0 && tail) {
		skip = par_records(rn->par);
		while ((rc = pcap_next_ex(rn->in, &h, &data)) == 1) {
			uint32_t wirelen = h->len < h->caplen ? h->caplen
							      : h->len;

			if (skip != 0) {
				skip--; /* taken by the workers */
				continue;
			}
			if (par_write_error(rn->par) != 0)
				break; /* the output is lost */
			status = par_input(rn->par, data, h->caplen, wirelen,
					   record_ns(h));
			if (status != 0)
				break;
		}
		if (status == 0 && rc != 1 && rc != PCAP_ERROR_BREAK) {
			pcap_errorf(rn->opt.read_path, pcap_geterr(rn->in));
			status = 2;
		}
	}
	if (status == 0)
		par_finish(rn->par);
	if (par_write_error(rn->par) != 0)
		atomic_store_explicit(&write_errno, par_write_error(rn->par),
				      memory_order_relaxed);
	return status;
}

/* A run from a capture file: the engine on this thread; with --threads
 * N >= 2 the workers of par.h on a pcap file that can be mapped, else the
 * reader here and N workers fed through rings (stdin, pcapng, a file
 * libpcap has to mend). */
static int run_file(struct run *rn, bool *ran)
{
	bool multi = rn->opt.threads > 1;
	int status = open_all(rn);

	if (status == 0 && multi &&
	    par_open(&rn->par, pcap_file(rn->in), pcap_snapshot(rn->in)) == 0) {
		*ran = true;
		return run_mapped(rn);
	}
	if (status == 0) {
		if (multi) {
			status = start_threads(rn);
		} else if (reasm_worker_init(&rn->single, rn->engine,
					     emit_direct, rn->dumper) != 0) {
			errorf("cannot register the worker");
			status = 2;
		}
	}
	if (status == 0) {
		*ran = true;
		status = read_all(rn, multi);
	}
	if (multi)
		stop_threads(rn);
	return status;
}

/* The engine, the pipeline and the live sockets, taken down once the
 * threads have stopped. */
static void release(struct run *rn)
{
	if (rn->engine != NULL)
		reasm_destroy(rn->engine, &rn->stats);
	par_close(rn->par, &rn->stats); /* adds its engines' counters */
	free_rings(&rn->pl);
	grain_prio_destroy(rn->pl.prio);
	for (unsigned i = 0; i < rn->worker_slots; i++)
		live_slot_fini(&rn->workers[i].slot);
	free(rn->workers);
	if (rn->live)
		close_live(rn);
}

/* The output capture flushed and closed, and any write error seen on the
 * way (a closed pipe, a full disk) reported. @return @p status, or 2. */
static int close_capture(struct run *rn, int status)
{
	int werr = atomic_load_explicit(&write_errno, memory_order_relaxed);

	if (werr != 0 && status == 0) {
		if (werr == EPIPE)
			errorf("%s: the reader closed the pipe: output cut short",
			       out_name(rn->opt.write_path));
		else
			errorf("%s: write error: %s",
			       out_name(rn->opt.write_path), strerror(werr));
		status = 2;
	}
	if (rn->dumper != NULL) {
		if (pcap_dump_flush(rn->dumper) != 0 ||
		    ferror(pcap_dump_file(rn->dumper))) {
			if (status == 0)
				errorf("%s: write error: %s",
				       out_name(rn->opt.write_path),
				       strerror(errno));
			status = 2;
		}
		if (rn->cap_out.f == stdout) {
			pcap_dump_flush(rn->dumper);
		} else {
			pcap_dump_close(rn->dumper);
		}
	}
	if (rn->dead != NULL)
		pcap_close(rn->dead);
	if (rn->in != NULL)
		pcap_close(rn->in);
	return status;
}

/* The counters, as JSON (--stats) and as the summary, for a run that read
 * input (@p ran): a failed start says one line and nothing else. @return
 * @p status, or 2. */
static int report(struct run *rn, bool ran, int status)
{
	FILE *sf = rn->stats_out.f;

	if (ran) {
		int rc = 0;

		/* Live runs add a "live" object to the JSON. */
		if (sf != NULL)
			rc = rn->live ? live_stats_json(sf, &rn->stats,
							&rn->live_stats)
				      : reasm_stats_json(sf, &rn->stats);
		if (rc != 0 && status == 0) {
			errorf("%s: write error", rn->opt.stats_path);
			status = 2;
		}
		if (!rn->opt.quiet) {
			reasm_stats_summary(stderr, &rn->stats);
			if (rn->live)
				live_stats_summary(stderr, &rn->live_stats,
						   rn->opt.in_iface != NULL,
						   rn->opt.out_iface != NULL);
		}
	}
	if (sf != NULL && sf != stdout && fclose(sf) != 0 && status == 0) {
		errorf("%s: write error", rn->opt.stats_path);
		status = 2;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct run rn;
	bool ran = false;
	int status;

	memset(&rn, 0, sizeof(rn));
	status = parse_args(argc, argv, &rn.opt);
	if (status >= 0)
		return status;
	/* A closed pipe on --write - is a write error (EPIPE), reported and
	 * ended cleanly, not a silent death; a signal that ends a file run
	 * removes the temporary output files first. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, remove_tmp_and_die);
	signal(SIGTERM, remove_tmp_and_die);
	signal(SIGHUP, remove_tmp_and_die);
	signal(SIGBUS, input_gone);

	if (is_live(&rn.opt))
		status = run_live(&rn, &ran);
	else
		status = run_file(&rn, &ran);
	release(&rn);
	status = close_capture(&rn, status);
	status = report(&rn, ran, status);
	/* Only a run that succeeded replaces its outputs, both of them;
	 * otherwise the temporary files go and any existing file is left as
	 * it was. */
	if (outs_finish(&rn.cap_out, &rn.stats_out, status == 0 && ran) != 0)
		status = 2;
	return status;
}
