/*
 * sysinfo.c - see sysinfo.h.
 */
#include "sysinfo.h"

#include <unistd.h>

unsigned bench_nproc(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1u;
}

const char *bench_c_compiler(void)
{
#if defined(__clang__)
	return "clang " __clang_version__;
#elif defined(__GNUC__)
	return "gcc " __VERSION__;
#else
	return "unknown";
#endif
}
