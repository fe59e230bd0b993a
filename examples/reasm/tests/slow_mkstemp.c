/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * slow_mkstemp.c - an LD_PRELOAD module for tests/cli_test.sh: mkstemp()
 * as the C library's, then a pause of REASM_SLOW_MKSTEMP_MS milliseconds
 * (default 500) once the file exists. A signal sent when the test sees
 * the file then reaches reasm between making its temporary file and
 * registering it for removal, every time, instead of by luck on a busy
 * machine.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

int mkstemp(char *template)
{
	int (*real)(char *);
	const char *ms = getenv("REASM_SLOW_MKSTEMP_MS");
	long n = ms != NULL ? strtol(ms, NULL, 10) : 500;

	/* POSIX's way from dlsym()'s object pointer to a function's. */
	*(void **)&real = dlsym(RTLD_NEXT, "mkstemp");
	if (real == NULL) {
		errno = ENOSYS;
		return -1;
	}
	int fd = real(template);
	int saved = errno;
	/* Signals end the sleep early (EINTR): sleep out the rest, so the
	 * pause is the same whether or not one came. */
	struct timespec left = { n / 1000, (n % 1000) * 1000000 };
	while (fd >= 0 && nanosleep(&left, &left) != 0 && errno == EINTR)
		;
	errno = saved;
	return fd;
}
