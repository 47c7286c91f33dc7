/* user/dumpfile.h - copy a kernel dump (trace, prof) into files, and run the
 * command being traced or profiled; see dumpfile.c. */
#ifndef QUANTA_USER_DUMPFILE_H
#define QUANTA_USER_DUMPFILE_H

/* Reads len bytes of the dump from offset into buf: bytes copied, 0 at its
 * end, -1 on error (trace_read, prof_read). */
typedef int (*dump_reader)(unsigned long offset, void* buf, int len);

/* Writes the whole dump to FILE (split into FILE, FILE.1, ... of 256 KiB
 * each; stale parts of an older dump are removed) and prints
 * "PROG: wrote N bytes to FILE (K parts)". 0, or 1 after printing one line
 * (no_dump when the first read fails). */
int dump_to_file(dump_reader read, const char* file, const char* prog, const char* no_dump);

/* Runs argv[0] with argv in a child and waits for it: the child's exit
 * status (127 if it could not be run), or -1 after printing
 * "PROG: fork failed". */
int run_and_wait(char** argv, const char* prog);

#endif
