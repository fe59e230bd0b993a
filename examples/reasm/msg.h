/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msg.h - the one-line error messages of the reasm programs:
 * "<program>: <message>" on stderr. Define MSG_PROG (the program's name,
 * a string literal) before including.
 */
#ifndef REASM_MSG_H
#define REASM_MSG_H

#include <stdarg.h>
#include <stdio.h>

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

#endif /* REASM_MSG_H */
