/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * regress_reasm.c - runs fuzz_reasm's LLVMFuzzerTestOneInput on stored
 * inputs, without libFuzzer: every seed of examples/reasm/fuzz/corpus/ and
 * every crash kept in examples/reasm/fuzz/crashes/ becomes a regression
 * test that any C11 compiler builds (CTest runs it in every build that has
 * the examples and the tests).
 *
 *   regress_reasm [-v] PATH...
 *
 * A PATH is a file, or a directory whose files are all run (in name order;
 * names starting with '.' or "README" are skipped). A failing input
 * aborts the process, after the harness printed which check failed and
 * this program which file it was. -v prints each input's final counters.
 * Exit status 1 if no input was found at all.
 */
#define _DEFAULT_SOURCE /* scandir, alphasort */
#include "fuzz_input.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (f == NULL) {
		perror(path);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			uint8_t *p = realloc(buf, cap);
			if (p == NULL) {
				fclose(f);
				free(buf);
				fprintf(stderr, "%s: out of memory\n", path);
				return -1;
			}
			buf = p;
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		fprintf(stderr, "%s: read error\n", path);
		return -1;
	}
	/* Named before the run: a failing check aborts the process. */
	fprintf(stderr, "regress_reasm: %s (%zu bytes)\n", path, n);
	/* An exact copy, so that a read past the input is caught too. */
	uint8_t *exact = malloc(n ? n : 1);
	if (exact == NULL) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, n);
	free(buf);
	(void)LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

static int wanted(const struct dirent *e)
{
	return e->d_name[0] != '.' && strncmp(e->d_name, "README", 6) != 0;
}

/* How many inputs @p path held; -1 on error. */
static long run_path(const char *path)
{
	struct stat sb;
	struct dirent **names;
	long count = 0;

	if (stat(path, &sb) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(sb.st_mode))
		return run_file(path) == 0 ? 1 : -1;
	int n = scandir(path, &names, wanted, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char file[4096];
		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (count >= 0 && stat(file, &sb) == 0 && S_ISREG(sb.st_mode))
			count = run_file(file) == 0 ? count + 1 : -1;
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	long total = 0;
	int i = 1;

	if (i < argc && strcmp(argv[i], "-v") == 0) {
		fz_verbose = true;
		i++;
	}
	if (i == argc) {
		fprintf(stderr, "usage: regress_reasm [-v] PATH...\n");
		return 2;
	}
	for (; i < argc; i++) {
		long n = run_path(argv[i]);
		if (n < 0)
			return 1;
		total += n;
	}
	fprintf(stderr, "regress_reasm: %ld inputs, every check passed\n",
		total);
	return total > 0 ? 0 : 1;
}
