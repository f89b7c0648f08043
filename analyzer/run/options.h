/* What the user asked for on the command line, handed to each command.
 *
 * The driver (main.c) fills this in; the commands (check, count, analyze) read it.
 * Nothing here is global: every command gets the struct it works for. */
#ifndef BSPCOST_OPTIONS_H
#define BSPCOST_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "analyzer/decide/rank.h"    /* RANK_MAX_COUNTS */
#include "analyzer/machine/machine.h"
#include "analyzer/report/report.h"   /* struct param_value */

/* Exit statuses, documented in bspcost(1). */
enum exit_status {
	EXIT_OK = 0,    /* success (warnings do not change it) */
	EXIT_SPEC = 1,  /* an error in a specification, a set or an analysis */
	EXIT_USAGE = 2, /* bad command line */
};

/* The run's deadline without --timeout or BSPCOST_TIMEOUT, in seconds: no
 * input runs without end unless asked to. */
enum { DEFAULT_TIMEOUT = 60 };


/* -D NAME=LO..HI*K (geometric) or LO..HI+K (arithmetic): the values LO,
 * LO*K (or LO+K), ... up to HI. */
struct sweep {
	const char *name;
	long long lo, hi, step;
	bool geometric;
	int npoints;
};

/* The most ranges one run sweeps, and the most points of all of them. */
enum { MAX_SWEEPS = 4, MAX_SWEEP_POINTS = 10000 };

/* Where a run hands its results instead of printing them (the library,
 * analyzer/api): the analysis of one specification, and each ranking of -p
 * or point of a range, while their formulas are alive.  A callback returns
 * 0, or -1 when it could not keep what it needs (out of memory); NULL: that
 * answer is not wanted (nor printed). */
struct run_sink {
	void *user;
	int (*analysis)(void *user, const struct analysis *a);
	int (*ranking)(void *user, const struct ranking *r);
	/* --compare: candidates CA and CB of A as CMP compared them */
	int (*comparison)(void *user, const struct analysis *a, int ca, int cb,
			  const struct comparison *cmp);
};

struct options {
	enum output_format format;
	struct param_value *defs; /* -D values, in command-line order */
	int ndefs;
	struct sweep sweeps[MAX_SWEEPS];   /* -D ranges, in command-line order */
	int nsweeps;
	bool check_only;          /* --check */
	bool print;               /* --print */
	int grid_naxes;           /* --grid 4x8: the axis sizes, 0 when not given */
	long grid[3];
	bool h_sum;               /* --h sum: h = max_q fan_in_q + fan_out_q */
	int verify;               /* --verify[=N]: random points per candidate, 0 = off */
	unsigned seed;            /* --seed: for --verify */
	bool allow_unverified;    /* --allow-unverified: no point is not a failure */
	bool explain;             /* --explain */
	bool values_only;         /* --values: no formulas when every value is given */
	bool all_sizes;           /* --all-sizes: a concrete grid's formulas for every size */
	bool summary;             /* --summary: the summary table alone (text) */
	bool per_process;         /* --per-process: each process's counts */
	bool messages;            /* --msgs (or a cost function that prices them) */
	bool hierarchy;           /* --hierarchy: H(i) and alpha per superstep */
	enum numbering numbering; /* --numbering (NUMBERING_ROW when not given) */
	bool numbering_given;     /* ... given: -p --hierarchy ranks that one alone */
	const char *numbering_file;   /* --numbering FILE (NUMBERING_MAP) */
	const struct numbering_map *numbering_map;   /* ... read (cmd_analyze) */
	const struct topology *topology;  /* --topology (NULL: none) */
	const char *compare[2];   /* --compare A B: the candidates (NULL: none) */
	const char **assumes;     /* --assume A: conditions added to the specification's */
	int nassumes;
	int width;                /* --width, or the terminal's: text wraps at it (0: never) */
	int digits;               /* --digits: values for people rounded (0: exact) */
	bool work_flops;          /* --work flops */
	int jobs;                 /* -j, --jobs: candidates analyzed at once (0: one per processor) */
	double timeout;           /* --timeout: seconds for the whole run, 0: none */
	int nprocs;               /* -p, --procs: the process counts to rank (0: no -p) */
	long procs[RANK_MAX_COUNTS];   /* ... in the order given, each once */
	int top;                  /* --top K: the K best rows of each ranking (0: all) */
	const char *machine_arg;  /* --machine NAME|FILE (NULL: none) */
	const char *speed_arg;    /* --speed S: the machine's flop/s (NULL: its own) */
	const char *plot;         /* --plot FILE.svg|png (NULL: none) */
	const struct machine *machine;   /* ... read (cmd_analyze) */
	long machine_procs;       /* the processes its g and l (in defs) are for */
	bool speed_known;
	mpq_srcptr speed;         /* its flop/s at those (speed_known) */
	const struct cost_model *model;  /* --model (never NULL once main has run) */
	const struct run_sink *sink;   /* NULL: the reports are printed on OUT */
	FILE *out;                /* results */
	FILE *err;                /* diagnostics */
};

/* What of OPT the reports read. */
/* The options of a run given none: the text format on OUT and ERR, the
 * default cost function, the default deadline.  Every caller starts from
 * these (main, the fuzzing harnesses). */
struct options options_defaults(FILE *out, FILE *err);

struct report_request options_report_request(const struct options *opt);

/* -D ARG into OPT: a value (NAME=INTEGER, or a decimal or fraction, for
 * the cost's coefficients) appended to OPT->defs, which must have room for
 * one more, replacing an earlier one of the same name; or a range
 * (NAME=LO..HI*K, NAME=LO..HI+K) into OPT->sweeps.  ARG is cut at its '='
 * and must live as long as OPT.  Returns 0, or -1 with *WHY the reason, a
 * malloc'd "bad -D 'ARG': ..." (NULL when out of memory). */
int options_add_define(struct options *opt, char *arg, char **why);

/* OPT's -D values and ranges against each other, its cost function and its
 * machine: 0, or -1 with *WHY what is wrong (bspcost(1)'s usage errors),
 * malloc'd (NULL when out of memory). */
int options_check_defines(const struct options *opt, char **why);

/* The value given with -D for NAME, or NULL. */
const struct param_value *options_find_def(const struct options *opt, const char *name);

struct model;
/* Whether OPT gives a value (-D) to a size or an axis of M, not only to the
 * cost's coefficients. */
bool options_give_sizes(const struct options *opt, const struct model *m);

#endif
