/*
 * sysinfo.h - what every benchmark driver asks of the machine and the
 * build, in C so that the C++ drivers and the C harnesses share it.
 */
#ifndef GRAIN_BENCH_SYSINFO_H
#define GRAIN_BENCH_SYSINFO_H

#ifdef __cplusplus
extern "C" {
#endif

/** Online CPUs (at least 1). */
unsigned bench_nproc(void);

/** The C compiler that built the harnesses, e.g. "gcc 12.2.0". */
const char *bench_c_compiler(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_SYSINFO_H */
