/* The command line: argv into a request (struct options) through one table
 * of options (cli/args.c), each with its argument, its setter, its place in
 * the table of conflicts and its help; --help is written from the table.
 * Not part of the library: getopt_long keeps its state in globals. */
#ifndef BSPCOST_CLI_ARGS_H
#define BSPCOST_CLI_ARGS_H

#include <stdbool.h>

#include "analyzer/run/options.h"

struct args {
	const char *count_set;   /* --count SET (NULL: none) */
	bool width_given;        /* --width (else the terminal's) */
	int nfiles;              /* the FILE arguments */
	char **files;
	bool done;               /* --help or --version: printed, nothing to run */
};

/* ARGV (ARGC words) into *OPT (from options_defaults) and *A, every option
 * checked alone and against the others as bspcost(1) says.  Returns
 * EXIT_OK, or EXIT_USAGE after the usage error on standard error (EXIT_SPEC
 * when memory ran out); with A->done, --help or --version was printed.  Free with args_clear,
 * whatever this returns. */
int args_parse(int argc, char **argv, struct options *opt, struct args *a);
void args_clear(struct options *opt, struct args *a);

/* --help: the usage, every option's line of the table, the exit statuses. */
void args_help(FILE *out);

#endif
