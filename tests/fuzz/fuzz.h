/* What the libFuzzer harnesses share (tests/fuzz/fuzz_*.c).
 *
 * The harnesses drive the very commands bspcost runs (analyzer/run/commands.h),
 * and those read a specification from a path.  Each input is therefore written
 * to an in-memory file (memfd) that the commands open as /proc/self/fd/N: no
 * disk, no temporary file left behind, and no second way of loading a
 * specification that could differ from the product's.
 *
 * Ordinary output (reports, summaries, diagnostics) goes to a memstream or to
 * /dev/null: only a crash, a sanitizer report or a broken property (abort with
 * a message on stderr) may reach the terminal. */
#ifndef BSPCOST_FUZZ_H
#define BSPCOST_FUZZ_H

#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyzer/run/commands.h"

struct fuzz_file {
	int fd;
	char path[32];   /* /proc/self/fd/N */
};

static inline void fuzz_die(const char *what)
{
	fprintf(stderr, "fuzz harness: %s\n", what);
	abort();
}

/* Replaces the content of F (created on first use) with DATA. */
static inline const char *fuzz_file_set(struct fuzz_file *f, const void *data, size_t size)
{
	if (f->path[0] == '\0') {
		f->fd = memfd_create("bspcost-fuzz", 0);
		if (f->fd < 0)
			fuzz_die("memfd_create failed (the harness needs Linux)");
		snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
	}
	if (ftruncate(f->fd, 0) != 0)
		fuzz_die("ftruncate failed");
	const char *p = data;
	for (size_t done = 0; done < size;) {
		ssize_t w = pwrite(f->fd, p + done, size - done, (off_t)done);
		if (w <= 0)
			fuzz_die("writing the input failed");
		done += (size_t)w;
	}
	return f->path;
}

/* Where ordinary output goes: written (so that the printing code runs) and
 * thrown away. */
static inline FILE *fuzz_devnull(void)
{
	static FILE *devnull;
	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			fuzz_die("cannot open /dev/null");
	}
	return devnull;
}

#endif
