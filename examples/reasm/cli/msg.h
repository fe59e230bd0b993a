/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msg.h - the one-line error messages of the reasm programs:
 * "<program>: <message>" on stderr, libpcap's errors as such a line, and
 * the start of a thread that says
 * why it could not start. Define MSG_PROG (the program's name, a string
 * literal) before including.
 */
#ifndef REASM_MSG_H
#define REASM_MSG_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef MSG_PROG
#error "define MSG_PROG before including msg.h"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

static inline void errorf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* Prints MSG_PROG ": <message>" as one line on stderr. */
static inline void errorf(const char *fmt, ...)
{
	va_list ap;

	fputs(MSG_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Reports a libpcap error @p msg about @p path, which the message may
 * already name; @p msg is cut at its first newline so that the report
 * stays one line. */
static inline void pcap_errorf(const char *path, char *msg)
{
	size_t n = strlen(path);

	msg[strcspn(msg, "\r\n")] = '\0';
	if (strncmp(msg, path, n) == 0 && msg[n] == ':')
		errorf("%s", msg);
	else
		errorf("%s: %s", path, msg);
}

static inline int thread_start(pthread_t *thread, void *(*fn)(void *),
			       void *arg, const char *fmt, ...)
	PRINTF_LIKE(4, 5);

/* pthread_create(thread, NULL, fn, arg); if that fails, says "cannot
 * start <what>: <reason>", <what> formatted from @p fmt ("the writer
 * thread", "worker thread %u"). @return 0 or pthread_create()'s error. */
static inline int thread_start(pthread_t *thread, void *(*fn)(void *),
			       void *arg, const char *fmt, ...)
{
	int rc = pthread_create(thread, NULL, fn, arg);

	if (rc != 0) {
		char what[64];
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
		errorf("cannot start %s: %s", what, strerror(rc));
	}
	return rc;
}

#endif /* REASM_MSG_H */
