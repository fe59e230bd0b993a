/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c - reasm's command line (options.h): one table of the options,
 * from which getopt_long()'s array and the --help text are made, the
 * values' parsers and setters, and the checks of what goes together.
 */
#define _DEFAULT_SOURCE /* ether_aton_r() */
#define MSG_PROG "reasm"
#include "msg.h"
#include "options.h"

#include <grain/common.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/ether.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The engine's defaults (reasm.h, struct reasm_config), needed here to
 * complete a watermark pair given half-way. */
#define DEFAULT_MEM_HIGH (4u << 20)

#define MAX_THREADS 64u	   /* reasm_worker_init() registers up to 64 */
#define MAX_STRIPES 65536u /* grain_htab's limit */
#define MAX_TIMEOUT_S 1e9  /* ~31 years; keeps nanoseconds in 64 bits */
#define MAX_TX_FRAMES 65536u

/* --- Values ---------------------------------------------------------------- */

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

/* --- The table ------------------------------------------------------------- */

/* The state of one parse: the options, the watermarks given so far (0:
 * not given) and the first of --help and --version. */
struct args {
	struct options *o;
	uint64_t mem_high, mem_low;
	enum { EARLY_NONE, EARLY_HELP, EARLY_VERSION } early;
};

/* Where an option stands in --help. */
enum opt_group { GROUP_INPUT, GROUP_OUTPUT, GROUP_MAIN, GROUP_LIVE };

/* One option. */
struct opt_def {
	const char *name;  /* long name, without "--" */
	char short_name;   /* 0: none */
	const char *value; /* the value's name in --help; NULL: a flag */
	enum opt_group group;
	unsigned lo, hi; /* a count's range (0, 0: not a count) */
	/* Sets it from @p value (NULL for a flag). @return true, or false
	 * after a message. */
	bool (*set)(struct args *a, const struct opt_def *d, const char *value);
	size_t at;	  /* where the setter stores it in struct options */
	const char *help; /* its lines, '\n' between them */
};

/* The field of struct options that row @p d sets. */
#define AT(member) offsetof(struct options, member)

static void *field(struct args *a, const struct opt_def *d)
{
	return (char *)a->o + d->at;
}

/* --- Setters --------------------------------------------------------------- */

/* Options given at most once: a second one is a mistake, not a
 * replacement. @p empty: the message for an empty value. */
static bool set_once(const char **slot, const char *name, const char *value,
		     const char *empty)
{
	if (*value == '\0') {
		errorf(empty, name);
		return false;
	}
	if (*slot != NULL) {
		errorf("--%s given twice ('%s', then '%s')", name, *slot,
		       value);
		return false;
	}
	*slot = value;
	return true;
}

/* A file name (--read, --write, --stats). */
static bool set_path(struct args *a, const struct opt_def *d, const char *v)
{
	return set_once(field(a, d), d->name, v, "--%s must not be empty");
}

/* An interface name (--in, --out). */
static bool set_iface(struct args *a, const struct opt_def *d, const char *v)
{
	return set_once(field(a, d), d->name, v,
			"--%s needs an interface name");
}

/* A count in the row's range [d->lo, d->hi]. */
static bool set_count(struct args *a, const struct opt_def *d, const char *v)
{
	if (parse_uint(v, d->lo, d->hi, field(a, d)) == 0)
		return true;
	errorf("--%s must be a number from %u to %u, not '%s'", d->name, d->lo,
	       d->hi, v);
	return false;
}

static bool set_stripes(struct args *a, const struct opt_def *d, const char *v)
{
	unsigned *s = field(a, d);

	if (parse_uint(v, d->lo, d->hi, s) == 0 && power_of_two(*s))
		return true;
	errorf("--stripes must be a power of two from %u to %u, not '%s'",
	       d->lo, d->hi, v);
	return false;
}

static bool set_policy(struct args *a, const struct opt_def *d, const char *v)
{
	int p = reasm_policy_parse(v);

	(void)d;
	if (p < 0) {
		errorf("unknown --policy '%s' (strict, first, last, bsd, "
		       "bsd-right, linux, windows, solaris)",
		       v);
		return false;
	}
	a->o->cfg.policy = (enum reasm_policy)p;
	return true;
}

/* Seconds > 0, into nanoseconds. */
static bool set_seconds(struct args *a, const struct opt_def *d, const char *v)
{
	if (parse_seconds(v, field(a, d)) == 0)
		return true;
	errorf("--%s must be a number of seconds > 0, not '%s'", d->name, v);
	return false;
}

/* --timeout: both families'. */
static bool set_timeout(struct args *a, const struct opt_def *d, const char *v)
{
	if (!set_seconds(a, d, v))
		return false;
	a->o->cfg.timeout_v6_ns = a->o->cfg.timeout_v4_ns;
	return true;
}

/* A watermark, > 0 and within size_t, into *bytes. */
static bool set_bytes(uint64_t *bytes, const struct opt_def *d, const char *v)
{
	if (parse_bytes(v, bytes) == 0 && *bytes != 0 && *bytes <= SIZE_MAX)
		return true;
	errorf("--%s must be a byte count > 0 (suffix K, M or G allowed), not "
	       "'%s'",
	       d->name, v);
	return false;
}

static bool set_mem_high(struct args *a, const struct opt_def *d, const char *v)
{
	return set_bytes(&a->mem_high, d, v);
}

static bool set_mem_low(struct args *a, const struct opt_def *d, const char *v)
{
	return set_bytes(&a->mem_low, d, v);
}

static bool set_mem_policy(struct args *a, const struct opt_def *d,
			   const char *v)
{
	(void)d;
	if (strcmp(v, "evict") == 0 || strcmp(v, "refuse") == 0) {
		a->o->cfg.mem_refuse = strcmp(v, "refuse") == 0;
		return true;
	}
	errorf("--mem-policy must be evict or refuse, not '%s'", v);
	return false;
}

/* --decap's value: a comma-separated list of gre, ipip and all. */
static bool set_decap(struct args *a, const struct opt_def *d, const char *v)
{
	const char *p = v;
	unsigned b = 0;

	(void)d;
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
			a->o->cfg.decap = b;
			return true;
		}
		p += n + 1;
	}
	errorf("--decap must be a comma-separated list of gre, ipip and all, "
	       "not '%s'",
	       v);
	return false;
}

static bool set_fanout(struct args *a, const struct opt_def *d, const char *v)
{
	int f = live_fanout_parse(v);

	(void)d;
	if (f < 0) {
		errorf("--fanout must be lb, cpu or hash, not '%s'", v);
		return false;
	}
	a->o->fanout = (enum live_fanout)f;
	a->o->fanout_set = true;
	return true;
}

/* A MAC address into @p mac, *set once it is. */
static bool set_mac(uint8_t mac[6], bool *set, const struct opt_def *d,
		    const char *v)
{
	if (parse_mac(v, mac) != 0) {
		errorf("--%s must be a MAC address like 02:00:00:00:00:01, "
		       "not '%s'",
		       d->name, v);
		return false;
	}
	*set = true;
	return true;
}

static bool set_dst_mac(struct args *a, const struct opt_def *d, const char *v)
{
	return set_mac(a->o->dst_mac, &a->o->dst_mac_set, d, v);
}

static bool set_src_mac(struct args *a, const struct opt_def *d, const char *v)
{
	return set_mac(a->o->src_mac, &a->o->src_mac_set, d, v);
}

/* A flag (--quiet, --decap-strip, --qdisc-bypass). */
static bool set_flag(struct args *a, const struct opt_def *d, const char *v)
{
	(void)v;
	*(bool *)field(a, d) = true;
	return true;
}

/* --help and --version: the first one given acts after the last word. */
static bool set_help(struct args *a, const struct opt_def *d, const char *v)
{
	(void)d, (void)v;
	if (a->early == EARLY_NONE)
		a->early = EARLY_HELP;
	return true;
}

static bool set_version(struct args *a, const struct opt_def *d, const char *v)
{
	(void)d, (void)v;
	if (a->early == EARLY_NONE)
		a->early = EARLY_VERSION;
	return true;
}

/* The help lines are laid out as printed. */
/* clang-format off */
static const struct opt_def opt_table[] = {
	{ "read", 0, "FILE", GROUP_INPUT, 0, 0,
	  set_path, AT(read_path),
	  "input capture (pcap or pcapng; - for stdin)" },
	{ "in", 0, "IFACE", GROUP_INPUT, 0, 0,
	  set_iface, AT(in_iface),
	  "frames arriving on IFACE (Ethernet; needs root or\n"
	  "CAP_NET_RAW)" },
	{ "write", 0, "FILE", GROUP_OUTPUT, 0, 0,
	  set_path, AT(write_path),
	  "output capture (pcap, nanosecond timestamps)" },
	{ "out", 0, "IFACE", GROUP_OUTPUT, 0, 0,
	  set_iface, AT(out_iface),
	  "send on IFACE (Ethernet input only)" },
	{ "policy", 0, "P", GROUP_MAIN, 0, 0,
	  set_policy, 0,
	  "overlap policy: strict (default), first, last, bsd,\n"
	  "bsd-right, linux, windows, solaris" },
	{ "threads", 0, "N", GROUP_MAIN, 1, MAX_THREADS,
	  set_count, AT(threads),
	  "1 (default): one thread; 2..64: N workers (a pcap\n"
	  "file is mapped, stdin read by a thread). From a\n"
	  "file the output is the same whatever N. With\n"
	  "--in: N receive workers (1..64)" },
	{ "timeout", 0, "SECONDS", GROUP_MAIN, 0, 0,
	  set_timeout, AT(cfg.timeout_v4_ns),
	  "reassembly timeout of both families (default: IPv4\n"
	  "30, IPv6 60; decimals allowed)" },
	{ "mem-high", 0, "BYTES", GROUP_MAIN, 0, 0,
	  set_mem_high, 0,
	  "memory per family above which the policy acts\n"
	  "(default 4M; suffixes K, M, G are powers of 1024)" },
	{ "mem-low", 0, "BYTES", GROUP_MAIN, 0, 0,
	  set_mem_low, 0,
	  "eviction stops below this (default 3/4 of\n"
	  "--mem-high, or 3M)" },
	{ "mem-policy", 0, "P", GROUP_MAIN, 0, 0,
	  set_mem_policy, 0,
	  "evict (default: drop the oldest datagrams) or\n"
	  "refuse (drop new fragments, as Linux does)" },
	{ "max-frags", 0, "N", GROUP_MAIN, 1, REASM_MAX_FRAGS_LIMIT,
	  set_count, AT(cfg.max_frags),
	  "fragments per datagram, 1..8192 (default 128)" },
	{ "stripes", 0, "N", GROUP_MAIN, 1, MAX_STRIPES,
	  set_stripes, AT(cfg.stripes),
	  "lock stripes per table, a power of two (default 64;\n"
	  "1 is one global lock)" },
	{ "decap", 0, "LIST", GROUP_MAIN, 0, 0,
	  set_decap, 0,
	  "reassemble fragments inside tunnels: a comma-\n"
	  "separated list of gre (GRE, PPTP's GRE with PPP)\n"
	  "and ipip (4in4, 6in4, 4in6, 6in6), or all. The\n"
	  "output keeps the outer headers of the first\n"
	  "fragment, their lengths and checksums set" },
	{ "decap-strip", 0, NULL, GROUP_MAIN, 0, 0,
	  set_flag, AT(cfg.decap_strip),
	  "with --decap: write tunnelled datagrams without\n"
	  "their outer IP and tunnel headers" },
	{ "stats", 0, "FILE", GROUP_MAIN, 0, 0,
	  set_path, AT(stats_path),
	  "write every counter as JSON" },
	{ "quiet", 0, NULL, GROUP_MAIN, 0, 0,
	  set_flag, AT(quiet),
	  "no summary on stderr" },
	{ "help", 'h', NULL, GROUP_MAIN, 0, 0,
	  set_help, 0,
	  "this text, then exit 0" },
	{ "version", 0, NULL, GROUP_MAIN, 0, 0,
	  set_version, 0,
	  "print reasm's version (grain's), then exit 0" },
	{ "fanout", 0, "MODE", GROUP_LIVE, 0, 0,
	  set_fanout, 0,
	  "--in: spread frames over the --threads workers by\n"
	  "hash (default: the kernel's hash of the addresses,\n"
	  "so a datagram's fragments meet one worker in wire\n"
	  "order), lb (round robin) or cpu (receiving CPU).\n"
	  "Caveat: with lb or cpu the fragments of a datagram\n"
	  "reach several workers in any order, so overlap\n"
	  "outcomes (strict's duplicates, the other policies'\n"
	  "bytes) can differ from run to run and from the\n"
	  "host's" },
	{ "qdisc-bypass", 0, NULL, GROUP_LIVE, 0, 0,
	  set_flag, AT(qdisc_bypass),
	  "--out: send straight to the driver (no qdisc)" },
	{ "tx-frames", 0, "N", GROUP_LIVE, 1, MAX_TX_FRAMES,
	  set_count, AT(tx_frames),
	  "--out: transmit ring slots, 1..65536 (default 256)" },
	{ "dst-mac", 0, "MAC", GROUP_LIVE, 0, 0,
	  set_dst_mac, 0,
	  "--out: destination address written into every frame" },
	{ "src-mac", 0, "MAC", GROUP_LIVE, 0, 0,
	  set_src_mac, 0,
	  "--out: source address written into every frame" },
	{ "stats-interval", 0, "S", GROUP_LIVE, 0, 0,
	  set_seconds, AT(stats_interval_ns),
	  "print a line of rates and drops every S seconds" },
	{ "duration", 0, "S", GROUP_LIVE, 0, 0,
	  set_seconds, AT(duration_ns),
	  "stop after S seconds" },
};

#define OPT_COUNT (sizeof(opt_table) / sizeof(opt_table[0]))

/* What --help prints around the options: the groups' headings and notes,
 * then the text before and after them. */
static const struct {
	const char *head, *foot;
} opt_groups[] = {
	[GROUP_INPUT] = { "\ninput (one of):\n",
			  "  (--read, --write and --stats may each be given once)\n" },
	[GROUP_OUTPUT] = { "output (one of):\n", "" },
	[GROUP_MAIN] = { "\noptions:\n", "" },
	[GROUP_LIVE] = { "\nlive options:\n", "" },
};

static const char usage_head[] =
	"usage: reasm --read IN.pcap --write OUT.pcap [options]\n"
	"       reasm --in IFACE --out IFACE [options]\n"
	"\n"
	"Reassembles the IPv4 and IPv6 fragments of a capture file or of the\n"
	"frames arriving on an interface. The output gets the frames that are not\n"
	"fragments, unchanged, and one frame per datagram reassembled, in the\n"
	"link type of the input (Ethernet with PPPoE, raw IP, Linux SLL/SLL2,\n"
	"PPP).\n";

static const char usage_foot[] =
	"\n"
	"From a file, capture time is the clock: a datagram times out when a later\n"
	"frame's timestamp is its timeout past its first fragment's. Live, the\n"
	"clock is real time. SIGINT or SIGTERM stops a live run cleanly: what is\n"
	"queued is still sent.\n"
	"\n"
	"--write FILE and --stats FILE are written to a temporary file beside FILE\n"
	"and renamed over it only when the run succeeds: a failed run leaves an\n"
	"existing FILE as it was. Exit status: 0; 2 with a one-line message on\n"
	"any error, including a reader that closes the pipe of --write -.\n";
/* clang-format on */

/* --- Usage ----------------------------------------------------------------- */

#define HELP_COLUMN 20 /* the help lines start 2 + this far in */

/* One option's lines: "  --name VALUE", padded, then its help lines. */
static void usage_option(FILE *f, const struct opt_def *d)
{
	char left[64], shrt[5] = "";
	const char *line = d->help;

	if (d->short_name != 0)
		snprintf(shrt, sizeof(shrt), "-%c, ", d->short_name);
	snprintf(left, sizeof(left), "%s--%s%s%s", shrt, d->name,
		 d->value != NULL ? " " : "", d->value != NULL ? d->value : "");
	fprintf(f, "  %-*s", HELP_COLUMN, left);
	for (;;) {
		size_t n = strcspn(line, "\n");

		fprintf(f, "%.*s\n", (int)n, line);
		if (line[n] == '\0')
			break;
		line += n + 1;
		fprintf(f, "  %-*s", HELP_COLUMN, "");
	}
}

/* The --help text, made from opt_table[]. */
static void usage(FILE *f)
{
	fputs(usage_head, f);
	for (unsigned g = 0; g < sizeof(opt_groups) / sizeof(opt_groups[0]);
	     g++) {
		fputs(opt_groups[g].head, f);
		for (unsigned i = 0; i < OPT_COUNT; i++)
			if (opt_table[i].group == (enum opt_group)g)
				usage_option(f, &opt_table[i]);
		fputs(opt_groups[g].foot, f);
	}
	fputs(usage_foot, f);
}

/* --- Parsing --------------------------------------------------------------- */

/* getopt_long() returns OPT_BASE + the row of a long option: above every
 * short option and getopt's '?' and ':'. */
#define OPT_BASE 256

/* getopt_long()'s array and short options, made from opt_table[]. */
static void getopt_arrays(struct option *lo, char *shorts)
{
	/* '+': stop at the first word that is not an option; ':': report a
	 * missing value as ':'. */
	*shorts++ = '+';
	*shorts++ = ':';
	for (unsigned i = 0; i < OPT_COUNT; i++) {
		const struct opt_def *d = &opt_table[i];

		lo[i] = (struct option){ d->name,
					 d->value != NULL ? required_argument
							  : no_argument,
					 NULL, OPT_BASE + (int)i };
		if (d->short_name != 0)
			*shorts++ = d->short_name;
	}
	lo[OPT_COUNT] = (struct option){ NULL, 0, NULL, 0 };
	*shorts = '\0';
}

/* The row that getopt_long() answered with @p c. */
static const struct opt_def *opt_row(int c)
{
	if (c >= OPT_BASE)
		return &opt_table[c - OPT_BASE];
	for (unsigned i = 0; i < OPT_COUNT; i++)
		if (opt_table[i].short_name == c)
			return &opt_table[i];
	return NULL;
}

/* Is the word @p arg the option @p d spelled out: "-h" for a short one,
 * else "--name" or "--name=value" (getopt_long() also takes unique
 * abbreviations and clusters of short options; reasm does not)? */
static bool whole_word(const char *arg, int c, const struct opt_def *d)
{
	size_t n = strlen(d->name);

	if (c < OPT_BASE)
		return arg[0] == '-' && arg[1] == c && arg[2] == '\0';
	return strncmp(arg, "--", 2) == 0 &&
	       strncmp(arg + 2, d->name, n) == 0 &&
	       (arg[2 + n] == '\0' || arg[2 + n] == '=');
}

/* The message for the word @p arg that getopt_long() refused with @p c
 * ('?' or ':'), or took as something it does not spell out. */
static void refuse_word(const char *arg, int c)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");

	if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
		errorf("unexpected argument '%s' (try --help)", arg);
		return;
	}
	for (unsigned i = 0; i < OPT_COUNT; i++) {
		const char *n = opt_table[i].name;

		if (strlen(n) != len || strncmp(n, name, len) != 0)
			continue;
		if (c == ':')
			errorf("option --%s needs a value", n);
		else if (c == '?')
			errorf("option --%s takes no value", n);
		else
			break; /* not reached: an exact word is taken */
		return;
	}
	errorf("unknown option '--%.*s' (try --help)", (int)len, name);
}

/* --- What goes together ---------------------------------------------------- */

/* Checks the combination of inputs, outputs and live options. @return
 * true, or false after a message. */
static bool check_live_args(const struct options *o)
{
	const char *need_out = NULL;

	if (o->read_path != NULL && o->in_iface != NULL) {
		errorf("--read and --in are exclusive: one input");
		return false;
	}
	if (o->write_path != NULL && o->out_iface != NULL) {
		errorf("--write and --out are exclusive: one output");
		return false;
	}
	if (o->read_path == NULL && o->in_iface == NULL) {
		errorf("--read or --in is required (try --help)");
		return false;
	}
	if (o->write_path == NULL && o->out_iface == NULL) {
		errorf("--write or --out is required (try --help)");
		return false;
	}
	if (o->fanout_set && o->in_iface == NULL) {
		errorf("--fanout needs --in");
		return false;
	}
	if (o->cfg.decap_strip && o->cfg.decap == 0) {
		errorf("--decap-strip needs --decap");
		return false;
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
		return false;
	}
	if ((o->stats_interval_ns != 0 || o->duration_ns != 0) && !is_live(o)) {
		errorf("--%s needs --in or --out", o->stats_interval_ns != 0
							   ? "stats-interval"
							   : "duration");
		return false;
	}
	return true;
}

/* Completes the watermark pair (a zero field takes the engine's default,
 * which may not suit the other one given). @return true, or false after
 * a message. */
static bool set_watermarks(struct options *o, uint64_t high, uint64_t low)
{
	if (high != 0 && low == 0)
		low = high - high / 4;
	if (low != 0 && high == 0)
		high = DEFAULT_MEM_HIGH;
	if (low > high) {
		errorf("--mem-low (%llu) is above --mem-high (%llu)",
		       (unsigned long long)low, (unsigned long long)high);
		return false;
	}
	o->cfg.mem_high = (size_t)high;
	o->cfg.mem_low = (size_t)low;
	return true;
}

enum args_result parse_args(int argc, char **argv, struct options *o)
{
	static struct option lo[OPT_COUNT + 1];
	static char shorts[OPT_COUNT + 3];
	struct args a = { .o = o, .early = EARLY_NONE };
	int at;

	memset(o, 0, sizeof(*o));
	o->threads = 1;
	o->fanout = LIVE_FANOUT_HASH;
	getopt_arrays(lo, shorts);

	/* Messages are ours (opterr = 0). */
	opterr = 0;
	optind = 1;
	for (;;) {
		const struct opt_def *d;
		int c;

		at = optind;
		c = getopt_long(argc, argv, shorts, lo, NULL);
		if (c == -1)
			break;
		d = c == '?' || c == ':' ? NULL : opt_row(c);
		if (d == NULL || !whole_word(argv[at], c, d)) {
			refuse_word(argv[at], c);
			return ARGS_REFUSED;
		}
		if (!d->set(&a, d, optarg))
			return ARGS_REFUSED;
	}
	/* The word getopt_long() stopped at: "--", "-" or one without a
	 * dash. */
	if (at < argc) {
		errorf("unexpected argument '%s' (try --help)", argv[at]);
		return ARGS_REFUSED;
	}
	if (a.early == EARLY_HELP) {
		usage(stdout);
		return ARGS_DONE;
	}
	if (a.early == EARLY_VERSION) {
		printf("reasm %s\n", grain_version());
		return ARGS_DONE;
	}
	if (!check_live_args(o) || !set_watermarks(o, a.mem_high, a.mem_low))
		return ARGS_REFUSED;
	return ARGS_RUN;
}
