/*
 * main.c - reasm: reassemble the IPv4 and IPv6 fragments of a capture file.
 *
 *   reasm --read IN.pcap --write OUT.pcap [options]
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
 *   --threads N >= 2: the main thread reads and hands a copy of each frame
 *   to N workers through one grain_ring (blocking enqueue/dequeue). Each
 *   worker owns a struct reasm_worker; its outputs go through a grain_prio
 *   (band from the DSCP, pfifo_fast's map) to one writer thread, the only
 *   thread that touches the output file. At end of file the reader queues
 *   one NULL per worker (a worker stops at the first NULL it takes), joins
 *   them, then queues a NULL for the writer, which drains what is left and
 *   stops.
 *
 * Timeouts. Once capture time has advanced by a second or more since the
 * last call, reasm_expire() runs before the frame that advanced it is
 * processed. With workers, the reader first waits until every frame it
 * queued has been processed, then expires through worker 0's state (idle
 * at that moment: the counter it bumps after each frame hands its state
 * over to the reader, and the next frame queued hands it back). So a
 * datagram times out exactly when it would with one thread, whatever the
 * scheduling; the pause costs one pipeline drain per second of capture.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends; nanosleep() */
#include "reasm.h"

#include <grain/prio.h>
#include <grain/ring.h>

#include <pcap/pcap.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

/* --- Messages -------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* Prints "reasm: <message>" as one line on stderr. */
static void errorf(const char *fmt, ...) PRINTF_LIKE(1, 2);

static void errorf(const char *fmt, ...)
{
	va_list ap;

	fputs("reasm: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* libpcap's messages, cut at the first newline so that ours stay one
 * line. */
static void one_line(char *msg)
{
	msg[strcspn(msg, "\r\n")] = '\0';
}

/* Reports a libpcap error about @p path, which the message may already
 * name. */
static void pcap_errorf(const char *path, char *msg)
{
	size_t n = strlen(path);

	one_line(msg);
	if (strncmp(msg, path, n) == 0 && msg[n] == ':')
		errorf("%s", msg);
	else
		errorf("%s: %s", path, msg);
}

/* clang-format off: the help text is laid out as printed. */
static void usage(FILE *f)
{
	fputs("usage: reasm --read IN.pcap --write OUT.pcap [options]\n"
	      "\n"
	      "Reassembles the IPv4 and IPv6 fragments of a capture file. OUT gets the\n"
	      "frames that are not fragments, unchanged, and one frame per datagram\n"
	      "reassembled, in the link type of IN (Ethernet, raw IP, Linux SLL/SLL2).\n"
	      "\n"
	      "options:\n"
	      "  --read FILE         input capture (pcap or pcapng; - for stdin)\n"
	      "  --write FILE        output capture (pcap, nanosecond timestamps)\n"
	      "  --policy P          overlap policy: strict (default), first, last, bsd,\n"
	      "                      bsd-right, linux, windows, solaris\n"
	      "  --threads N         1 (default): one thread, output in input order;\n"
	      "                      2..64: N workers, a reader and a writer thread\n"
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
	      "  --stats FILE        write every counter as JSON\n"
	      "  --quiet             no summary on stderr\n"
	      "  --help              this text\n"
	      "\n"
	      "Capture time is the clock: a datagram times out when a later frame's\n"
	      "timestamp is its timeout past its first fragment's. Exit status: 0, or 2\n"
	      "with a one-line message on error.\n",
	      f);
}
/* clang-format on */

/* --- Arguments ------------------------------------------------------------- */

struct options {
	const char *read_path;
	const char *write_path;
	const char *stats_path;
	struct reasm_config cfg; /* link filled in once IN is open */
	unsigned threads;
	bool quiet;
};

enum opt_id {
	OPT_READ,
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
	OPT_HELP,
};

static const struct {
	const char *name;
	enum opt_id id;
	bool has_value;
} option_table[] = {
	{ "read", OPT_READ, true },
	{ "write", OPT_WRITE, true },
	{ "policy", OPT_POLICY, true },
	{ "threads", OPT_THREADS, true },
	{ "timeout", OPT_TIMEOUT, true },
	{ "mem-high", OPT_MEM_HIGH, true },
	{ "mem-low", OPT_MEM_LOW, true },
	{ "mem-policy", OPT_MEM_POLICY, true },
	{ "max-frags", OPT_MAX_FRAGS, true },
	{ "stripes", OPT_STRIPES, true },
	{ "stats", OPT_STATS, true },
	{ "quiet", OPT_QUIET, false },
	{ "help", OPT_HELP, false },
};

#define OPTION_COUNT (sizeof(option_table) / sizeof(option_table[0]))

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

/* Fills *o from argv. @return -1 to go on, 0 after --help, or 2 after a
 * message. */
static int parse_args(int argc, char **argv, struct options *o)
{
	uint64_t mem_high = 0, mem_low = 0;
	uint64_t bytes;

	memset(o, 0, sizeof(*o));
	o->threads = 1;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *name, *value = NULL, *eq;
		size_t name_len;
		size_t k;

		if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
			errorf("unexpected argument '%s' (try --help)", arg);
			return 2;
		}
		name = arg + 2;
		eq = strchr(name, '=');
		name_len = eq ? (size_t)(eq - name) : strlen(name);
		for (k = 0; k < OPTION_COUNT; k++) {
			if (strlen(option_table[k].name) == name_len &&
			    strncmp(option_table[k].name, name, name_len) == 0)
				break;
		}
		if (k == OPTION_COUNT) {
			errorf("unknown option '--%.*s' (try --help)",
			       (int)name_len, name);
			return 2;
		}
		if (option_table[k].has_value) {
			if (eq != NULL) {
				value = eq + 1;
			} else if (i + 1 < argc) {
				value = argv[++i];
			} else {
				errorf("option --%s needs a value",
				       option_table[k].name);
				return 2;
			}
		} else if (eq != NULL) {
			errorf("option --%s takes no value",
			       option_table[k].name);
			return 2;
		}

		switch (option_table[k].id) {
		case OPT_READ:
			o->read_path = value;
			break;
		case OPT_WRITE:
			o->write_path = value;
			break;
		case OPT_STATS:
			o->stats_path = value;
			break;
		case OPT_POLICY: {
			int p = reasm_policy_parse(value);

			if (p < 0) {
				errorf("unknown --policy '%s' (strict, first, "
				       "last, bsd, bsd-right, linux, windows, "
				       "solaris)",
				       value);
				return 2;
			}
			o->cfg.policy = (enum reasm_policy)p;
			break;
		}
		case OPT_THREADS:
			if (parse_uint(value, 1, MAX_THREADS, &o->threads)) {
				errorf("--threads must be a number from 1 to "
				       "%u, not '%s'",
				       MAX_THREADS, value);
				return 2;
			}
			break;
		case OPT_TIMEOUT:
			if (parse_seconds(value, &o->cfg.timeout_v4_ns)) {
				errorf("--timeout must be a number of seconds "
				       "> 0, not '%s'",
				       value);
				return 2;
			}
			o->cfg.timeout_v6_ns = o->cfg.timeout_v4_ns;
			break;
		case OPT_MEM_HIGH:
		case OPT_MEM_LOW:
			if (parse_bytes(value, &bytes) || bytes == 0 ||
			    bytes > SIZE_MAX) {
				errorf("--%s must be a byte count > 0 "
				       "(suffix K, M or G allowed), not '%s'",
				       option_table[k].name, value);
				return 2;
			}
			if (option_table[k].id == OPT_MEM_HIGH)
				mem_high = bytes;
			else
				mem_low = bytes;
			break;
		case OPT_MEM_POLICY:
			if (strcmp(value, "evict") == 0) {
				o->cfg.mem_refuse = false;
			} else if (strcmp(value, "refuse") == 0) {
				o->cfg.mem_refuse = true;
			} else {
				errorf("--mem-policy must be evict or refuse, "
				       "not '%s'",
				       value);
				return 2;
			}
			break;
		case OPT_MAX_FRAGS:
			if (parse_uint(value, 1, REASM_MAX_FRAGS_LIMIT,
				       &o->cfg.max_frags)) {
				errorf("--max-frags must be a number from 1 "
				       "to %u, not '%s'",
				       REASM_MAX_FRAGS_LIMIT, value);
				return 2;
			}
			break;
		case OPT_STRIPES:
			if (parse_uint(value, 1, MAX_STRIPES,
				       &o->cfg.stripes) ||
			    !power_of_two(o->cfg.stripes)) {
				errorf("--stripes must be a power of two from "
				       "1 to %u, not '%s'",
				       MAX_STRIPES, value);
				return 2;
			}
			break;
		case OPT_QUIET:
			o->quiet = true;
			break;
		case OPT_HELP:
			usage(stdout);
			return 0;
		}
	}

	if (o->read_path == NULL || o->write_path == NULL) {
		errorf("--read and --write are required (try --help)");
		return 2;
	}

	/* Watermarks: a zero field takes the engine's default, which may
	 * not suit the other one given; complete the pair here. */
	if (mem_high != 0 && mem_low == 0)
		mem_low = mem_high - mem_high / 4;
	if (mem_low != 0 && mem_high == 0)
		mem_high = DEFAULT_MEM_HIGH;
	if (mem_low > mem_high) {
		errorf("--mem-low (%llu) is above --mem-high (%llu)",
		       (unsigned long long)mem_low,
		       (unsigned long long)mem_high);
		return 2;
	}
	o->cfg.mem_high = (size_t)mem_high;
	o->cfg.mem_low = (size_t)mem_low;
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

/* When to call reasm_expire(): the first time capture time is a second or
 * more past the previous call (or the first frame). Capture time only
 * moves forward here; a frame stamped earlier than one before it does not
 * move it back. */
struct expiry {
	bool started;
	uint64_t last; /* capture time of the previous call */
};

static bool expiry_due(struct expiry *e, uint64_t now)
{
	if (!e->started) {
		e->started = true;
		e->last = now;
		return false;
	}
	if (now < e->last || now - e->last < NS_PER_S)
		return false;
	e->last = now;
	return true;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	nanosleep(&ts, NULL);
}

/* --- Output ---------------------------------------------------------------- */

static void dump_out(pcap_dumper_t *d, const struct reasm_out *out)
{
	struct pcap_pkthdr h;

	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = (time_t)(out->ts_ns / NS_PER_S);
	/* Nanoseconds: the dumper was opened with nanosecond precision. */
	h.ts.tv_usec = (suseconds_t)(out->ts_ns % NS_PER_S);
	h.caplen = out->len;
	h.len = out->orig_len < out->len ? out->len : out->orig_len;
	pcap_dump((u_char *)d, &h, out->data);
}

/* Emit callback with one thread: straight to the file. */
static void emit_direct(struct reasm_out *out, void *arg)
{
	dump_out(arg, out);
	reasm_out_free(out);
}

/* --- The threaded pipeline ------------------------------------------------- */

/* A frame in flight from the reader to a worker. */
struct frame {
	uint64_t ts_ns;
	uint32_t caplen;
	uint32_t wirelen;
	uint8_t data[];
};

struct pipeline {
	struct grain_ring *ring; /* reader -> workers: struct frame * */
	struct grain_prio *prio; /* workers -> writer: struct reasm_out * */
	pcap_dumper_t *dumper;	 /* the writer's alone */
	/* Frames the workers have finished (R3: a worker's release after its
	 * last use of the frame and of its reasm_worker). Bumped once per
	 * frame: on its own cache line, away from the pointers above. */
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) done;
};

struct worker {
	struct reasm_worker w;
	struct pipeline *pl;
	pthread_t thread;
	bool started;
};

/* Emit callback with workers: into the priority queue, band from the
 * DSCP. A full band means the writer is behind: wait for it rather than
 * lose a frame. */
static void emit_queued(struct reasm_out *out, void *arg)
{
	struct pipeline *pl = arg;
	unsigned prio = grain_prio_dscp_to_priority(out->dscp);

	while (grain_prio_enqueue_prio(pl->prio, prio, out) != 0)
		sleep_ns(20000);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct pipeline *pl = wk->pl;

	for (;;) {
		void *obj = NULL;
		struct frame *f;

		if (grain_ring_dequeue_wait(pl->ring, &obj, -1) != 0)
			continue; /* cannot happen with no timeout */
		if (obj == NULL)
			break; /* end of input */
		f = obj;
		(void)reasm_input(&wk->w, f->data, f->caplen, f->wirelen,
				  f->ts_ns);
		free(f);
		/* R3: pairs with A3 in wait_idle(). */
		atomic_fetch_add_explicit(&pl->done, 1, memory_order_release);
	}
	return NULL;
}

static void *writer_main(void *arg)
{
	struct pipeline *pl = arg;
	void *objs[WRITER_BURST];
	bool stop = false;

	while (!stop) {
		int n = grain_prio_dequeue_burst_wait(pl->prio, objs,
						      WRITER_BURST, -1);

		for (int i = 0; i < n; i++) {
			if (objs[i] == NULL) {
				stop = true;
				continue;
			}
			dump_out(pl->dumper, objs[i]);
			reasm_out_free(objs[i]);
		}
	}
	/* The NULL was queued after every output (the workers had been
	 * joined), and taking it acquired all of them: whatever a
	 * higher band still holds is found now. */
	for (;;) {
		int n = grain_prio_dequeue_burst(pl->prio, objs, WRITER_BURST);

		if (n <= 0)
			break;
		for (int i = 0; i < n; i++) {
			if (objs[i] != NULL) {
				dump_out(pl->dumper, objs[i]);
				reasm_out_free(objs[i]);
			}
		}
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
	FILE *stats_file;
	struct reasm *engine;
	struct reasm_worker single; /* --threads 1 */
	struct worker *workers;	    /* --threads N >= 2 */
	struct pipeline pl;
	pthread_t writer;
	bool writer_started;
	struct reasm_stats stats;
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

/* Opens IN, OUT and the stats file and makes the engine. @return 0 or 2. */
static int open_all(struct run *rn)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct options *o = &rn->opt;
	int dlt, rc;

	rn->in = pcap_open_offline_with_tstamp_precision(
		o->read_path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (rn->in == NULL) {
		pcap_errorf(o->read_path, errbuf);
		return 2;
	}
	dlt = pcap_datalink(rn->in);
	if (!reasm_link_supported(dlt)) {
		const char *name = pcap_datalink_val_to_name(dlt);

		errorf("unsupported link type %s (%d)",
		       name != NULL ? name : "UNKNOWN", dlt);
		return 2;
	}
	o->cfg.link = dlt;

	if (same_file(o->read_path, o->write_path)) {
		errorf("%s: --write would overwrite --read", o->write_path);
		return 2;
	}
	rn->dead = pcap_open_dead_with_tstamp_precision(
		dlt, OUT_SNAPLEN, PCAP_TSTAMP_PRECISION_NANO);
	if (rn->dead == NULL) {
		errorf("out of memory");
		return 2;
	}
	rn->dumper = pcap_dump_open(rn->dead, o->write_path);
	if (rn->dumper == NULL) {
		pcap_errorf(o->write_path, pcap_geterr(rn->dead));
		return 2;
	}

	if (o->stats_path != NULL) {
		rn->stats_file = fopen(o->stats_path, "w");
		if (rn->stats_file == NULL) {
			errorf("%s: %s", o->stats_path, strerror(errno));
			return 2;
		}
	}

	rc = reasm_create(&rn->engine, &o->cfg);
	if (rc != 0) {
		errorf("cannot make the engine: %s", strerror(-rc));
		return 2;
	}
	return 0;
}

/* Reads IN to the end. @p multi: queue frames to the workers; else process
 * them here. @return 0, or 2 after a message (the run is still shut down
 * cleanly by the caller). */
static int read_all(struct run *rn, bool multi)
{
	struct expiry exp = { 0 };
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t queued = 0;
	int rc;

	while ((rc = pcap_next_ex(rn->in, &h, &data)) == 1) {
		uint64_t now = record_ns(h);
		uint32_t wirelen = h->len < h->caplen ? h->caplen : h->len;
		struct frame *f;

		if (!multi) {
			if (expiry_due(&exp, now))
				(void)reasm_expire(&rn->single, now);
			(void)reasm_input(&rn->single, data, h->caplen, wirelen,
					  now);
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
		memcpy(f->data, data, h->caplen);
		while (grain_ring_enqueue_wait(rn->pl.ring, f, -1) != 0)
			;
		queued++;
	}
	if (rc != PCAP_ERROR_BREAK) {
		pcap_errorf(rn->opt.read_path, pcap_geterr(rn->in));
		return 2;
	}
	return 0;
}

/* Starts the writer and the workers. @return 0 or 2. */
static int start_threads(struct run *rn)
{
	struct grain_prio_config pc = {
		.bands = 3, /* pfifo_fast's */
		.flags = GRAIN_PRIO_SC | GRAIN_PRIO_WAIT,
		.capacity = PRIO_CAPACITY,
	};
	unsigned n = rn->opt.threads;
	int rc;

	rn->pl.dumper = rn->dumper;
	atomic_init(&rn->pl.done, 0);
	if (grain_ring_create(&rn->pl.ring, RING_CAPACITY,
			      GRAIN_RING_MPMC | GRAIN_RING_WAIT, NULL) != 0 ||
	    grain_prio_create(&rn->pl.prio, &pc, NULL) != 0) {
		errorf("out of memory");
		return 2;
	}
	rn->workers = calloc(n, sizeof(*rn->workers));
	if (rn->workers == NULL) {
		errorf("out of memory");
		return 2;
	}
	for (unsigned i = 0; i < n; i++) {
		rn->workers[i].pl = &rn->pl;
		rc = reasm_worker_init(&rn->workers[i].w, rn->engine,
				       emit_queued, &rn->pl);
		if (rc != 0) {
			errorf("cannot register worker %u: %s", i,
			       strerror(-rc));
			return 2;
		}
	}
	rc = pthread_create(&rn->writer, NULL, writer_main, &rn->pl);
	if (rc != 0) {
		errorf("cannot start the writer thread: %s", strerror(rc));
		return 2;
	}
	rn->writer_started = true;
	for (unsigned i = 0; i < n; i++) {
		rc = pthread_create(&rn->workers[i].thread, NULL, worker_main,
				    &rn->workers[i]);
		if (rc != 0) {
			errorf("cannot start worker thread %u: %s", i,
			       strerror(rc));
			return 2;
		}
		rn->workers[i].started = true;
	}
	return 0;
}

/* Stops whatever start_threads() started, in order: workers once the ring
 * is drained, then the writer once the queue is. */
static void stop_threads(struct run *rn)
{
	if (rn->workers != NULL) {
		for (unsigned i = 0; i < rn->opt.threads; i++) {
			if (!rn->workers[i].started)
				continue;
			while (grain_ring_enqueue_wait(rn->pl.ring, NULL, -1) !=
			       0)
				;
		}
		for (unsigned i = 0; i < rn->opt.threads; i++) {
			if (rn->workers[i].started)
				pthread_join(rn->workers[i].thread, NULL);
		}
	}
	if (rn->writer_started) {
		unsigned last = grain_prio_bands(rn->pl.prio) - 1;

		while (grain_prio_enqueue(rn->pl.prio, last, NULL) != 0)
			sleep_ns(20000);
		pthread_join(rn->writer, NULL);
	}
}

/* Frees what is left in the ring (only after an early stop). */
static void drain_ring(struct grain_ring *ring)
{
	void *obj;

	while (grain_ring_try_dequeue(ring, &obj) == 0)
		free(obj);
}

int main(int argc, char **argv)
{
	struct run rn;
	bool multi, ran = false;
	int status;

	memset(&rn, 0, sizeof(rn));
	status = parse_args(argc, argv, &rn.opt);
	if (status >= 0)
		return status;
	multi = rn.opt.threads > 1;

	status = open_all(&rn);
	if (status == 0) {
		if (multi) {
			status = start_threads(&rn);
		} else if (reasm_worker_init(&rn.single, rn.engine, emit_direct,
					     rn.dumper) != 0) {
			errorf("cannot register the worker");
			status = 2;
		}
	}
	if (status == 0) {
		ran = true;
		status = read_all(&rn, multi);
	}
	if (multi)
		stop_threads(&rn);

	if (rn.engine != NULL)
		reasm_destroy(rn.engine, &rn.stats);
	if (rn.pl.ring != NULL) {
		drain_ring(rn.pl.ring);
		grain_ring_destroy(rn.pl.ring);
	}
	grain_prio_destroy(rn.pl.prio);
	free(rn.workers);

	if (rn.dumper != NULL) {
		if (pcap_dump_flush(rn.dumper) != 0 ||
		    ferror(pcap_dump_file(rn.dumper))) {
			if (status == 0)
				errorf("%s: write error", rn.opt.write_path);
			status = 2;
		}
		pcap_dump_close(rn.dumper);
	}
	if (rn.dead != NULL)
		pcap_close(rn.dead);
	if (rn.in != NULL)
		pcap_close(rn.in);

	/* Counters only for a run that read input: a failed start says one
	 * line and nothing else. */
	if (ran) {
		if (rn.stats_file != NULL &&
		    reasm_stats_json(rn.stats_file, &rn.stats) != 0 &&
		    status == 0) {
			errorf("%s: write error", rn.opt.stats_path);
			status = 2;
		}
		if (!rn.opt.quiet)
			reasm_stats_summary(stderr, &rn.stats);
	}
	if (rn.stats_file != NULL && fclose(rn.stats_file) != 0 &&
	    status == 0) {
		errorf("%s: write error", rn.opt.stats_path);
		status = 2;
	}
	return status;
}
