/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.h - reasm's command line: what it asks for (struct options) and
 * how a run ends (enum cli_exit).
 *
 * options.c holds one table of the options: long name, short name, the
 * value's name in the help (none: a flag), its range, the call that sets
 * it and its help lines. getopt_long()'s array and the --help text are
 * both made from that table.
 */
#ifndef REASM_CLI_OPTIONS_H
#define REASM_CLI_OPTIONS_H

#include "live.h"
#include "reasm.h"

#include <stdbool.h>
#include <stdint.h>

/* reasm's exit status: 0, or 2 with a one-line message on any error. */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_ERROR = 2,
};

/* What parse_args() found the command line asks for. */
enum args_result {
	ARGS_RUN,     /* a run: struct options is complete */
	ARGS_DONE,    /* --help or --version printed: exit CLI_EXIT_OK */
	ARGS_REFUSED, /* a message said why: exit CLI_EXIT_ERROR */
};

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
static inline bool is_live(const struct options *o)
{
	return o->in_iface != NULL || o->out_iface != NULL;
}

/*
 * Fills *o from argv with getopt_long(): long options only, by their
 * whole names, each value after '=' or in the next word; "-h" as
 * --help. Any other word is an error, "--" included. --help and --version
 * (the first given) act once every word has been read, so that a word
 * they leave over is refused too: the usage goes to stdout, the version
 * as "reasm <grain's version>". Every refusal prints one line on stderr.
 * Not thread-safe (getopt_long()'s globals).
 */
enum args_result parse_args(int argc, char **argv, struct options *o);

#endif /* REASM_CLI_OPTIONS_H */
