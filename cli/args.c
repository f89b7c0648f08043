/* The command line's options: one table (name, argument, what it sets and
 * within which limits, its place among the options that cannot be
 * combined, its help), read by getopt_long, written out by --help, and the
 * checks between options that bspcost(1) states.  Usage errors end in
 * "Try 'bspcost --help' ...", on standard error. */
#define _GNU_SOURCE /* asprintf */
#include "cli/args.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <gmp.h>

#include "analyzer/cost/cost_model.h"
#include "analyzer/machine/topology.h"
#include "analyzer/util/limits.h"
#include "analyzer/util/number.h"
#include "analyzer/report/report.h"

#ifndef BSPCOST_VERSION
#define BSPCOST_VERSION "unknown"
#endif

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg) {
		report_error(stderr, NULL, "out of memory");
		return EXIT_SPEC;
	}
	report_error(stderr, NULL, "%s", msg);
	free(msg);
	fputs("Try 'bspcost --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

/* WHY (malloc'd, taken) as a usage error; NULL: memory ran out, as every
 * other such failure of the run says it (EXIT_SPEC). */
static int refused(char *why)
{
	if (!why) {
		report_error(stderr, NULL, "out of memory");
		return EXIT_SPEC;
	}
	int st = usage_error("%s", why);
	free(why);
	return st;
}

/* --- What the options choose, for the table of conflicts ------------------ */

enum run_option {
	USE_NONE, USE_P, USE_RANGE, USE_GRID, USE_COUNT, USE_CHECK, USE_PRINT, USE_VERIFY,
	USE_VALUES, USE_EXPLAIN, USE_SUMMARY, USE_ALL_SIZES, USE_PER_PROCESS, USE_COMPARE,
	USE_PLOT, USE_MACHINE, USE_ASSUME, USE_HIERARCHY, USE_N
};
static const char *const run_option_name[USE_N] = {
	"", "-p", "a -D range", "--grid", "--count", "--check", "--print", "--verify",
	"--values", "--explain", "--summary", "--all-sizes", "--per-process", "--compare",
	"--plot", "--machine", "--assume", "--hierarchy",
};

/* The pairs of options that cannot be combined, the one the message names
 * first on the left, in the order they are tested (the first pair given
 * wins); bspcost(1) lists the same pairs in "Options that cannot be
 * combined", and tests/resilience/option_conflicts.sh holds the two
 * together.  WHY, when not NULL, replaces "A cannot be combined with B". */
static const struct conflict {
	enum run_option a, b;
	const char *why;
} conflicts[] = {
	{USE_ASSUME, USE_COUNT, NULL},
	{USE_MACHINE, USE_COUNT, NULL},
	{USE_MACHINE, USE_CHECK, NULL},
	{USE_MACHINE, USE_PRINT, NULL},
	{USE_PER_PROCESS, USE_P, NULL},
	{USE_PER_PROCESS, USE_RANGE, NULL},
	{USE_PER_PROCESS, USE_COUNT, NULL},
	{USE_PER_PROCESS, USE_CHECK, NULL},
	{USE_PER_PROCESS, USE_PRINT, NULL},
	{USE_PER_PROCESS, USE_VERIFY, NULL},
	{USE_PER_PROCESS, USE_EXPLAIN, NULL},
	{USE_PER_PROCESS, USE_SUMMARY, NULL},
	{USE_PER_PROCESS, USE_ALL_SIZES, NULL},
	{USE_HIERARCHY, USE_RANGE, NULL},
	{USE_HIERARCHY, USE_COUNT, NULL},
	{USE_HIERARCHY, USE_CHECK, NULL},
	{USE_HIERARCHY, USE_PRINT, NULL},
	{USE_HIERARCHY, USE_VERIFY, NULL},
	{USE_HIERARCHY, USE_EXPLAIN, NULL},
	{USE_HIERARCHY, USE_SUMMARY, NULL},
	{USE_HIERARCHY, USE_PER_PROCESS, NULL},
	{USE_COMPARE, USE_P, NULL},
	{USE_COMPARE, USE_RANGE, NULL},
	{USE_COMPARE, USE_COUNT, NULL},
	{USE_COMPARE, USE_CHECK, NULL},
	{USE_COMPARE, USE_PRINT, NULL},
	{USE_COMPARE, USE_VERIFY, NULL},
	{USE_COMPARE, USE_EXPLAIN, NULL},
	{USE_COMPARE, USE_SUMMARY, NULL},
	{USE_COMPARE, USE_PER_PROCESS, NULL},
	{USE_COMPARE, USE_VALUES, NULL},
	{USE_COMPARE, USE_PLOT, NULL},
	{USE_COMPARE, USE_HIERARCHY, NULL},
	{USE_ALL_SIZES, USE_VALUES, "--all-sizes asks for formulas, --values for none: give one of them"},
	{USE_P, USE_COUNT, NULL},
	{USE_P, USE_CHECK, NULL},
	{USE_P, USE_PRINT, NULL},
	{USE_P, USE_GRID, NULL},
	{USE_P, USE_VERIFY, NULL},
	{USE_P, USE_VALUES, NULL},
	{USE_P, USE_EXPLAIN, NULL},
	{USE_P, USE_SUMMARY, NULL},
	{USE_P, USE_ALL_SIZES, NULL},
	{USE_RANGE, USE_COUNT, NULL},
	{USE_RANGE, USE_CHECK, NULL},
	{USE_RANGE, USE_PRINT, NULL},
	{USE_RANGE, USE_VERIFY, NULL},
	{USE_RANGE, USE_VALUES, NULL},
	{USE_RANGE, USE_EXPLAIN, NULL},
	{USE_RANGE, USE_SUMMARY, NULL},
	{USE_RANGE, USE_ALL_SIZES, NULL},
	{USE_COUNT, USE_CHECK, NULL},
	{USE_COUNT, USE_PRINT, NULL},
	{USE_CHECK, USE_PRINT, NULL},
};

/* --- The options --------------------------------------------------------------- */

/* What the setters share: the request, the rest of the command line. */
struct parse {
	struct options *opt;
	struct args *a;
	int argc;
	char **argv;
	bool numbering_given;
};

enum arg_kind { ARG_NONE = no_argument, ARG_REQUIRED = required_argument,
		ARG_OPTIONAL = optional_argument };
enum set_kind {
	OPT_FLAG,   /* a bool of struct options set */
	OPT_COUNT,  /* an int of struct options, an integer from LO to HI */
	OPT_SET,    /* SET reads the argument */
};

struct option_def {
	const char *name;       /* --NAME */
	char short_name;        /* -C, or 0 */
	enum arg_kind arg;
	enum run_option use;    /* its place among the conflicts (USE_NONE: none) */
	enum set_kind kind;
	size_t field;           /* OPT_FLAG, OPT_COUNT: offsetof(struct options, ...) */
	long lo, hi;            /* OPT_COUNT */
	const char *what;       /* OPT_COUNT: "a number of rows" */
	/* OPT_SET: ARG (NULL for none) read into P; EXIT_OK, or EXIT_USAGE after
	 * the usage error */
	int (*set)(struct parse *p, char *arg);
	const char *synopsis;   /* --help's left column */
	const char *help;       /* --help's right column, a line each */
};

#define FLAG(f) .kind = OPT_FLAG, .field = offsetof(struct options, f)
#define COUNT(f, lo_, hi_, what_) .kind = OPT_COUNT, .field = offsetof(struct options, f), \
	.lo = lo_, .hi = hi_, .what = what_
#define SET(fn) .kind = OPT_SET, .set = fn

/* Seconds for --timeout and BSPCOST_TIMEOUT: a decimal number, 0 (no limit) to
 * 1000000; -1 otherwise. */
static double parse_seconds(const char *s)
{
	char *end;
	errno = 0;
	double t = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !(t >= 0) || t > 1e6)
		return -1;
	return t;
}

/* A decimal integer in [LO, HI], or -1. */
static long parse_count(const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	return v;
}

/* Appends V to opt->procs unless it is there already: 0, or -1 when full. */
static int add_procs(struct options *opt, long v)
{
	for (int i = 0; i < opt->nprocs; i++)
		if (opt->procs[i] == v)
			return 0;
	if (opt->nprocs == RANK_MAX_COUNTS)
		return -1;
	opt->procs[opt->nprocs++] = v;
	return 0;
}

/* -p: comma-separated items, each a count ("64"), a geometric range
 * ("4..4096*2": 4, 8, ..., 4096) or an arithmetic one ("1..16+3": 1, 4, ...,
 * 16), every count 1 to RANK_MAX_PROCS.  Returns NULL, or the usage error's
 * format (taking ARG). */
static const char *parse_procs(const char *arg, struct options *opt)
{
	static const char bad[] = "bad -p '%s': expected process counts like 64, 16,64,256, "
				  "4..4096*2 (geometric) or 1..16+3 (arithmetic), each 1 to "
				  LIMIT_TEXT(LIMIT_PROCESSES);
	char buf[256];
	if (strlen(arg) >= sizeof(buf) || !*arg || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,"))
		return bad;
	strcpy(buf, arg);
	for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *dots = strstr(item, "..");
		if (!dots) {
			long v = parse_count(item, 1, RANK_MAX_PROCS);
			if (v < 0)
				return bad;
			if (add_procs(opt, v) < 0)
				return "bad -p '%s': more than 256 process counts";
			continue;
		}
		*dots = '\0';
		char *hi_text = dots + 2;
		char *op = strpbrk(hi_text, "*+");
		if (!op)
			return "bad -p '%s': a range needs a step: 4..4096*2 (geometric) or 1..16+3 "
			       "(arithmetic)";
		char kind = *op;
		*op = '\0';
		long lo = parse_count(item, 1, RANK_MAX_PROCS);
		long hi = parse_count(hi_text, 1, RANK_MAX_PROCS);
		long step = parse_count(op + 1, kind == '*' ? 2 : 1, RANK_MAX_PROCS);
		if (lo < 0 || hi < 0 || step < 0 || lo > hi)
			return bad;
		for (long v = lo;;) {
			if (add_procs(opt, v) < 0)
				return "bad -p '%s': more than 256 process counts";
			if (kind == '*' ? v > hi / step : v > hi - step)
				break;
			v = kind == '*' ? v * step : v + step;
		}
	}
	return NULL;
}

static int set_procs(struct parse *p, char *arg)
{
	const char *why = parse_procs(arg, p->opt);
	if (!why)
		return EXIT_OK;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	return usage_error(why, arg);
#pragma GCC diagnostic pop
}

/* "4x8" (1 to 3 sizes, each 1 to 4096) into opt->grid. */
static int set_grid(struct parse *p, char *arg)
{
	char buf[64];
	int n = 0;
	bool ok = strlen(arg) < sizeof(buf) && arg[0] != 'x' && !strstr(arg, "xx") &&
		  (!*arg || arg[strlen(arg) - 1] != 'x');
	if (ok) {
		strcpy(buf, arg);
		for (char *save = NULL, *tok = strtok_r(buf, "x", &save); ok && tok;
		     tok = strtok_r(NULL, "x", &save)) {
			long v = parse_count(tok, 1, LIMIT_AXIS);
			ok = v >= 0 && n < 3;
			if (ok)
				p->opt->grid[n++] = v;
		}
	}
	if (!ok || n == 0)
		return usage_error("bad --grid '%s': expected sizes like 4x8, each 1 to "
				   LIMIT_TEXT(LIMIT_AXIS), arg);
	p->opt->grid_naxes = n;
	return EXIT_OK;
}

static int set_h(struct parse *p, char *arg)
{
	if (strcmp(arg, "max") != 0 && strcmp(arg, "sum") != 0)
		return usage_error("bad --h '%s': expected max or sum", arg);
	p->opt->h_sum = strcmp(arg, "sum") == 0;
	return EXIT_OK;
}

static int set_work(struct parse *p, char *arg)
{
	if (strcmp(arg, "terms") != 0 && strcmp(arg, "flops") != 0)
		return usage_error("bad --work '%s': expected terms or flops", arg);
	p->opt->work_flops = strcmp(arg, "flops") == 0;
	return EXIT_OK;
}

static int set_seed(struct parse *p, char *arg)
{
	long n = parse_count(arg, 1, 4294967295L);
	if (n < 0)
		return usage_error("bad --seed '%s': expected a positive integer", arg);
	p->opt->seed = (unsigned)n;
	return EXIT_OK;
}

static int set_assume(struct parse *p, char *arg)
{
	p->opt->assumes[p->opt->nassumes++] = arg;
	return EXIT_OK;
}

static int set_model(struct parse *p, char *arg)
{
	p->opt->model = cost_model_find(arg);
	if (p->opt->model)
		return EXIT_OK;
	char *names = cost_model_names();
	int st = usage_error("--model '%s': no such cost function (one of: %s)", arg,
			     names ? names : "?");
	free(names);
	return st;
}

static int set_machine(struct parse *p, char *arg)
{
	p->opt->machine_arg = arg;
	return EXIT_OK;
}

static int set_numbering(struct parse *p, char *arg)
{
	if (numbering_parse(arg, &p->opt->numbering) < 0) {
		/* a file of the processes' coordinates, in their order */
		p->opt->numbering = NUMBERING_MAP;
		p->opt->numbering_file = arg;
	}
	p->numbering_given = p->opt->numbering_given = true;
	return EXIT_OK;
}

static int set_topology(struct parse *p, char *arg)
{
	p->opt->topology = topology_find(arg);
	if (!p->opt->topology)
		return usage_error("--topology '%s': no such topology (one of: %s)", arg,
				   topology_names());
	return EXIT_OK;
}

/* two arguments: the second is the next word (getopt moves it with the
 * option, as it does an option's argument) */
static int set_compare(struct parse *p, char *arg)
{
	if (optind >= p->argc || p->argv[optind][0] == '-')
		return usage_error("%s", "--compare takes two candidates: --compare A B");
	p->opt->compare[0] = arg;
	p->opt->compare[1] = p->argv[optind++];
	return EXIT_OK;
}

static int set_plot(struct parse *p, char *arg)
{
	p->opt->plot = arg;
	return EXIT_OK;
}

static int set_speed(struct parse *p, char *arg)
{
	mpq_t v;
	mpq_init(v);
	bool ok = number_parse(arg, v) == 0 && mpq_sgn(v) > 0;
	mpq_clear(v);
	if (!ok)
		return usage_error("--speed '%s': a machine's flop/s, a number above 0 (26e6, 1/3)",
				   arg);
	p->opt->speed_arg = arg;
	return EXIT_OK;
}

static int set_timeout(struct parse *p, char *arg)
{
	double t = parse_seconds(arg);
	if (t < 0)
		return usage_error("bad --timeout '%s': expected seconds, 0 (no limit) to 1000000",
				   arg);
	p->opt->timeout = t;
	return EXIT_OK;
}

static int set_count(struct parse *p, char *arg)
{
	p->a->count_set = arg;
	return EXIT_OK;
}

static int set_define(struct parse *p, char *arg)
{
	char *why = NULL;
	if (options_add_define(p->opt, arg, &why) == 0)
		return EXIT_OK;
	return refused(why);
}

static int set_format(struct parse *p, char *arg)
{
	static const struct { const char *name; enum output_format f; } formats[] = {
		{"text", FORMAT_TEXT}, {"json", FORMAT_JSON}, {"markdown", FORMAT_MARKDOWN},
		{"latex", FORMAT_LATEX}, {"csv", FORMAT_CSV}};
	for (size_t i = 0; i < sizeof(formats) / sizeof(*formats); i++)
		if (strcmp(arg, formats[i].name) == 0) {
			p->opt->format = formats[i].f;
			return EXIT_OK;
		}
	return usage_error("unknown format '%s' (expected text, json, markdown, latex or csv)", arg);
}

static int set_help(struct parse *p, char *arg)
{
	(void)arg;
	args_help(stdout);
	p->a->done = true;
	return EXIT_OK;
}

static int set_version(struct parse *p, char *arg)
{
	(void)arg;
	printf("bspcost %s\n", BSPCOST_VERSION);
	p->a->done = true;
	return EXIT_OK;
}

/* Every option, in --help's order; bspcost(1) documents each
 * (tests/resilience/option_table.sh holds the two together). */
static const struct option_def options[] = {
	{.name = "grid", .arg = ARG_REQUIRED, .use = USE_GRID, SET(set_grid),
	 .synopsis = "--grid AxB[xC]",
	 .help = "analyze on a concrete grid of that shape (e.g. 4x8)\n"},
	{.name = "h", .arg = ARG_REQUIRED, SET(set_h),
	 .synopsis = "--h max|sum",
	 .help = "h = max(fan-in, fan-out) (default) or their sum\n"},
	{.name = "verify", .arg = ARG_OPTIONAL, .use = USE_VERIFY, COUNT(verify, 1, 100000,
	       "a number of points"),
	 .synopsis = "--verify[=N]",
	 .help = "check every formula against enumeration at N random\n"
		 "points (default 20)\n"},
	{.name = "seed", .arg = ARG_REQUIRED, SET(set_seed),
	 .synopsis = "--seed S",
	 .help = "seed for --verify\n"},
	{.name = "allow-unverified", .arg = ARG_NONE, FLAG(allow_unverified),
	 .synopsis = "--allow-unverified",
	 .help = "with --verify, a candidate no point could be drawn for\n"
		 "is reported but does not make the exit status 1\n"},
	{.name = "assume", .arg = ARG_REQUIRED, .use = USE_ASSUME, SET(set_assume),
	 .synopsis = "--assume COND",
	 .help = "analyze under COND too, as if the specification\n"
		 "said `assume COND;` ('M == N': a square grid,\n"
		 "whose formulas a split over both axes may have)\n"},
	{.name = "explain", .arg = ARG_NONE, .use = USE_EXPLAIN, FLAG(explain),
	 .synopsis = "--explain",
	 .help = "show the derivation: local postconditions, NOcc, A.e\n"},
	{.name = "values", .arg = ARG_NONE, .use = USE_VALUES, FLAG(values_only),
	 .synopsis = "--values",
	 .help = "with every size and axis given: the values only, no\n"
		 "formulas (milliseconds at any size)\n"},
	{.name = "all-sizes", .arg = ARG_NONE, .use = USE_ALL_SIZES, FLAG(all_sizes),
	 .synopsis = "--all-sizes",
	 .help = "on a concrete grid: formulas for every size, counted\n"
		 "process by process (can take minutes), rather than the\n"
		 "symbolic grid's with the grid's sizes, which hold\n"
		 "where the grid divides the sizes\n"},
	{.name = "work", .arg = ARG_REQUIRED, SET(set_work),
	 .synopsis = "--work terms|flops",
	 .help = "w counts terms of sums (default) or every + - * /\n"},
	{.name = "jobs", .short_name = 'j', .arg = ARG_REQUIRED, COUNT(jobs, 1, 256,
	       "a number of threads"),
	 .synopsis = "-j, --jobs N",
	 .help = "analyze N candidates at once (default: one per processor)\n"},
	{.name = "procs", .short_name = 'p', .arg = ARG_REQUIRED, .use = USE_P, SET(set_procs),
	 .synopsis = "-p, --procs LIST",
	 .help = "rank every grid shape of each process count of LIST\n"
		 "(64; 16,64,256; 4..4096*2; 1..16+3) and every\n"
		 "candidate by cost (needs -D for every size, and the\n"
		 "cost's coefficients: -D g and l, or --machine)\n"},
	{.name = "top", .arg = ARG_REQUIRED, COUNT(top, 1, 1000000,
	       "a number of rows"),
	 .synopsis = "--top K",
	 .help = "with -p or a -D range, the K best rows of each ranking\n"},
	{.name = "summary", .arg = ARG_NONE, .use = USE_SUMMARY, FLAG(summary),
	 .synopsis = "--summary",
	 .help = "the summary alone: one line per cost, best first\n"},
	{.name = "compare", .arg = ARG_REQUIRED, .use = USE_COMPARE, SET(set_compare),
	 .synopsis = "--compare A B",
	 .help = "where candidate A costs less than B: the condition on\n"
		 "the sizes, grid sizes, g and l (and with every value\n"
		 "given, by how much and which of w, h*g, l makes it)\n"},
	{.name = "per-process", .arg = ARG_NONE, .use = USE_PER_PROCESS, FLAG(per_process),
	 .synopsis = "--per-process",
	 .help = "with every value and a grid of at most 1024\n"
		 "processes: each process's w, fan-in and fan-out\n"},
	{.name = "msgs", .arg = ARG_NONE, FLAG(messages),
	 .synopsis = "--msgs",
	 .help = "count messages too: each superstep's msgs_in,\n"
		 "msgs_out and msgs, the most partners a process\n"
		 "receives from and sends to (a message per pair)\n"},
	{.name = "hierarchy", .arg = ARG_NONE, .use = USE_HIERARCHY, FLAG(hierarchy),
	 .synopsis = "--hierarchy",
	 .help = "on a grid of 2^k processes: each superstep's\n"
		 "H(0..k-1) and alpha (Soviani and Singh's cluster\n"
		 "hierarchy: the most words a cluster of 2^(k-i-1)\n"
		 "processes sends out or receives, per process), at the\n"
		 "values given, or H(i) as formulas in the sizes left free\n"},
	{.name = "numbering", .arg = ARG_REQUIRED, SET(set_numbering),
	 .synopsis = "--numbering NAME",
	 .help = "with --hierarchy: the processes' order on the machine,\n"
		 "row (default), col, morton, or a file of their\n"
		 "coordinates in order, a line each\n"},
	{.name = "topology", .arg = ARG_REQUIRED, SET(set_topology),
	 .synopsis = "--topology NAME",
	 .help = "with --hierarchy: each superstep's D-BSP cost (Theorem\n"
		 "3.1) and flat BSP cost on butterfly, pruned-butterfly,\n"
		 "mesh2d or mesh3d (asymptotic models, unit constants;\n"
		 "or --machine with a profile's level entries); with\n"
		 "-p, every shape, numbering and candidate ranked by it\n"},
	{.name = "plot", .arg = ARG_REQUIRED, .use = USE_PLOT, SET(set_plot),
	 .synopsis = "--plot FILE",
	 .help = "with -p and one count, draw the cost of every\n"
		 "candidate against the grid shape with gnuplot\n"
		 "into FILE (.svg or .png; its script: FILE.gp);\n"
		 "with a -D range, against it; with --per-process,\n"
		 "each process's fan-in and fan-out; with\n"
		 "--hierarchy, each superstep's H(i) against i\n"},
	{.name = "digits", .arg = ARG_REQUIRED, COUNT(digits, 1, 100,
	       "a number of significant digits"),
	 .synopsis = "--digits N",
	 .help = "round values that are no integer to N significant\n"
		 "digits, marked ~ (text, markdown, latex; JSON and\n"
		 "CSV stay exact)\n"},
	{.name = "width", .arg = ARG_REQUIRED, COUNT(width, 0, 100000,
	       "a number of columns (0: never wrap)"),
	 .synopsis = "--width N",
	 .help = "wrap long formulas of the text report at N columns\n"
		 "(default: the terminal's width; 0: never)\n"},
	{.name = "machine", .arg = ARG_REQUIRED, .use = USE_MACHINE, SET(set_machine),
	 .synopsis = "--machine NAME|FILE",
	 .help = "take the cost's coefficients (g, l, ...) and s for\n"
		 "the number of processes from a machine profile\n"
		 "(sp2-switch, sp2-ethernet, sgi-powerchallenge,\n"
		 "now-p4, now-p8, or a file): costs and seconds\n"},
	{.name = "speed", .arg = ARG_REQUIRED, SET(set_speed),
	 .synopsis = "--speed S",
	 .help = "with --machine: its speed s in flop/s, instead of the\n"
		 "profile's (now-p4 and now-p8 give none)\n"},
	{.name = "model", .arg = ARG_REQUIRED, SET(set_model),
	 .synopsis = "--model NAME",
	 .help = "the cost function: bsp (default, w + h*g + l),\n"
		 "overlap (max(w, h*g) + l), or Bianco and Pucci's\n"
		 "F_h, F_io, F_ioM, F_hM, F_M, F_oM, F_iM, F_o, F_i;\n"
		 "nhalf and logp price each process's words and\n"
		 "messages (bspcost(1)), with every size given\n"
		 "(implies --msgs)\n"},
	{.name = "timeout", .arg = ARG_REQUIRED, SET(set_timeout),
	 .synopsis = "--timeout S",
	 .help = "stop the whole run after S seconds, reporting what is\n"
		 "finished (default 60, or $BSPCOST_TIMEOUT; 0: never)\n"},
	{.name = "check", .arg = ARG_NONE, .use = USE_CHECK, FLAG(check_only),
	 .synopsis = "--check",
	 .help = "parse and check only; one summary line per file\n"},
	{.name = "print", .arg = ARG_NONE, .use = USE_PRINT, FLAG(print),
	 .synopsis = "--print",
	 .help = "print each specification in canonical form\n"},
	{.name = "count", .arg = ARG_REQUIRED, .use = USE_COUNT, SET(set_count),
	 .synopsis = "--count SET",
	 .help = "count the points of an ISL set, e.g.\n"
		 "'[n] -> { [i,j] : 0 <= i < n and 0 <= j <= i }'\n"},
	{.name = "define", .short_name = 'D', .arg = ARG_REQUIRED, SET(set_define),
	 .synopsis = "-D, --define NAME=V",
	 .help = "give parameter NAME the integer value V (a cost\n"
		 "coefficient such as g or l: any exact number); a\n"
		 "size may be a range, LO..HI*K or LO..HI+K, a sweep\n"},
	{.name = "format", .short_name = 'f', .arg = ARG_REQUIRED, SET(set_format),
	 .synopsis = "-f, --format FMT",
	 .help = "text (default), json, markdown, latex or csv\n"},
	{.name = "help", .short_name = 'h', .arg = ARG_NONE, SET(set_help),
	 .synopsis = "-h, --help",
	 .help = "show this help and exit\n"},
	{.name = "version", .short_name = 'V', .arg = ARG_NONE, SET(set_version),
	 .synopsis = "-V, --version",
	 .help = "show the version and exit\n"},
};

enum { NOPTIONS = sizeof(options) / sizeof(*options) };

void args_help(FILE *out)
{
	fputs("usage: bspcost [options] FILE...\n"
	      "       bspcost --count 'ISL SET' [-D NAME=VALUE]... [--format text|json]\n"
	      "\n"
	      "Computes the BSP cost of every candidate distribution of each specification\n"
	      "(FILE may be - for standard input).\n"
	      "\n", out);
	for (int i = 0; i < NOPTIONS; i++) {
		const char *h = options[i].help;
		fprintf(out, "  %-19s  ", options[i].synopsis);
		for (bool first = true; *h; first = false) {
			size_t len = strcspn(h, "\n");
			fprintf(out, "%*s%.*s\n", first ? 0 : 23, "", (int)len, h);
			h += len + (h[len] == '\n');
		}
	}
	fputs("\n"
	      "Exit status: 0 success, 1 error in a specification or analysis, 2 bad usage.\n",
	      out);
}

/* Option D with argument ARG (NULL: none) into P; an exit status. */
static int apply(const struct option_def *d, struct parse *p, char *arg)
{
	char *base = (char *)p->opt;
	switch (d->kind) {
	case OPT_FLAG:
		*(bool *)(base + d->field) = true;
		return EXIT_OK;
	case OPT_COUNT: {
		/* --verify alone: 20 points */
		long n = arg ? parse_count(arg, d->lo, d->hi) : 20;
		if (n < 0)
			return usage_error("bad --%s '%s': expected %s, %ld to %ld", d->name, arg,
					   d->what, d->lo, d->hi);
		*(int *)(base + d->field) = (int)n;
		return EXIT_OK;
	}
	case OPT_SET:
		return d->set(p, arg);
	}
	return EXIT_USAGE;
}

/* The first pair of GIVEN options that cannot be combined, reported as a
 * usage error; EXIT_OK when there is none. */
static int check_conflicts(const bool given[USE_N])
{
	for (size_t i = 0; i < sizeof(conflicts) / sizeof(*conflicts); i++) {
		const struct conflict *c = &conflicts[i];
		if (!given[c->a] || !given[c->b])
			continue;
		if (c->why)
			return usage_error("%s", c->why);
		return usage_error("%s cannot be combined with %s", run_option_name[c->a],
				   run_option_name[c->b]);
	}
	return EXIT_OK;
}

/* The columns of the terminal FD is, or 0 when it is none (or says none). */
static int terminal_width(int fd)
{
	struct winsize ws;
	if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
		return 0;
	return ws.ws_col;
}

/* The FILE arguments against the options; EXIT_OK or EXIT_USAGE. */
static int check_files(const struct options *opt, const struct args *a)
{
	if (a->count_set && a->nfiles > 0)
		return usage_error("--count takes no FILE (got '%s')", a->files[0]);
	if (a->count_set)
		return EXIT_OK;
	if (opt->compare[0] && a->nfiles == 0)
		return usage_error("--compare '%s' '%s' needs a FILE (--compare A B FILE; was "
				   "'%s' meant as the FILE?)", opt->compare[0], opt->compare[1],
				   opt->compare[1]);
	if (a->nfiles == 0)
		return usage_error("%s", "no FILE given");
	if (opt->compare[0] && a->nfiles > 1)
		return usage_error("%s", "--compare compares two candidates of one FILE: give one");
	if (opt->plot && a->nfiles > 1)
		return usage_error("%s", "--plot draws one picture: give one FILE");
	return EXIT_OK;
}

/* What no single option says wrong but the options together do (and the
 * FILE arguments), in bspcost(1)'s words; EXIT_OK or EXIT_USAGE. */
static int check_together(struct options *opt, const struct args *a, bool numbering_given)
{
	char *why = NULL;
	if (options_check_defines(opt, &why) < 0)
		return refused(why);
	if (opt->speed_arg && !opt->machine_arg)
		return usage_error("--speed gives a machine profile its flop/s: use it with "
				   "--machine%s", "");
	if (opt->plot && plot_format_of(opt->plot) == PLOT_NONE)
		return usage_error("--plot '%s': the picture's file name ends in .svg or .png",
				   opt->plot);
	if (opt->plot && opt->nsweeps > 1)
		return usage_error("%s", "--plot draws the cost against one range of values: "
				   "give one -D range");
	if (opt->plot && opt->nprocs > 1)
		return usage_error("%s", "--plot draws -p's ranking of one process count (cost "
				   "against the grid shape, or against a -D range): give -p with one "
				   "count");
	if ((numbering_given || opt->topology) && !opt->hierarchy)
		return usage_error("%s", numbering_given
				   ? "--numbering orders the processes for --hierarchy: give "
				     "--hierarchy too"
				   : "--topology prices --hierarchy's levels: give --hierarchy too");
	if (opt->hierarchy && opt->h_sum)
		return usage_error("%s", "--hierarchy's H(k-1) is h = max(fan-in, fan-out) "
				   "(Soviani and Singh's): --h sum cannot go with it");
	if (opt->per_process && opt->format == FORMAT_LATEX)
		return usage_error("%s", "--per-process supports the formats text, json, csv "
				   "and markdown (not latex)");
	if (opt->plot && opt->hierarchy && opt->nprocs > 0)
		return usage_error("%s", "--plot draws --hierarchy's H(i) on one grid, not -p's "
				   "ranking of the hierarchy: give the grid (-D or --grid) instead of -p");
	if (opt->plot && opt->nprocs == 0 && opt->nsweeps == 0 && !opt->per_process &&
	    !opt->hierarchy)
		return usage_error("%s", "--plot draws -p's ranking of one process count (cost "
				   "against the grid shape), the cost against a -D range, "
				   "--per-process's counts or --hierarchy's H(i): give one of them");
	if (opt->compare[0] && strcmp(opt->compare[0], opt->compare[1]) == 0)
		return usage_error("--compare '%s' '%s': give two different candidates",
				   opt->compare[0], opt->compare[1]);
	if (opt->messages && opt->nprocs > 0 && opt->model->messages == MSG_NONE)
		return usage_error("%s", "--msgs: -p ranks by the cost function, which counts no "
				   "message (--model nhalf or logp prices them)");
	if (opt->model->messages != MSG_NONE) {
		opt->messages = true;
		if (opt->verify || opt->compare[0])
			return usage_error("--model %s: %s checks and compares the costs of g and l "
					   "alone (bsp, overlap and Bianco and Pucci's F_)",
					   opt->model->name, opt->verify ? "--verify" : "--compare");
	}
	if (opt->summary && opt->format != FORMAT_TEXT)
		return usage_error("%s", "--summary is for the text report of the analysis (not "
				   "-p, whose table is a summary, nor the other formats)");
	if (opt->top && !opt->nprocs && !opt->nsweeps)
		return usage_error("%s", "--top needs -p or a -D range (it limits each ranking)");
	return check_files(opt, a);
}

int args_parse(int argc, char **argv, struct options *opt, struct args *a)
{
	memset(a, 0, sizeof(*a));
	struct parse p = {.opt = opt, .a = a, .argc = argc, .argv = argv};
	const char *env_timeout = getenv("BSPCOST_TIMEOUT");
	if (env_timeout && *env_timeout) {
		opt->timeout = parse_seconds(env_timeout);
		if (opt->timeout < 0) {
			report_error(stderr, NULL,
				     "bad BSPCOST_TIMEOUT '%s': expected seconds, 0 (no limit) "
				     "to 1000000", env_timeout);
			return EXIT_USAGE;
		}
	}
	opt->defs = calloc((size_t)argc, sizeof(*opt->defs));
	opt->assumes = calloc((size_t)argc, sizeof(*opt->assumes));
	if (!opt->defs || !opt->assumes) {
		report_error(stderr, NULL, "out of memory");
		return EXIT_SPEC;
	}
	/* getopt_long's view of the table */
	struct option longopts[NOPTIONS + 1];
	char shorts[2 * NOPTIONS + 2] = ":";
	bool given[USE_N] = {false};
	for (int i = 0; i < NOPTIONS; i++) {
		longopts[i] = (struct option){options[i].name, options[i].arg, NULL, 256 + i};
		if (options[i].short_name) {
			size_t n = strlen(shorts);
			shorts[n] = options[i].short_name;
			shorts[n + 1] = options[i].arg == ARG_NONE ? '\0' : ':';
		}
	}
	longopts[NOPTIONS] = (struct option){NULL, 0, NULL, 0};
	opterr = 0;
	int c, status = EXIT_OK;
	while (status == EXIT_OK && !a->done &&
	       (c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		int i = c - 256;
		for (int k = 0; c < 256 && k < NOPTIONS; k++)
			if (options[k].short_name == c)
				i = k;
		if (c == ':')
			status = usage_error("option '%s' needs an argument", argv[optind - 1]);
		else if (i < 0 || i >= NOPTIONS)
			status = usage_error("unknown option '%s'", argv[optind - 1]);
		else {
			given[options[i].use] = true;
			a->width_given |= strcmp(options[i].name, "width") == 0;
			status = apply(&options[i], &p, optarg);
		}
	}
	if (status != EXIT_OK || a->done)
		return status;
	given[USE_NONE] = false;
	given[USE_RANGE] = opt->nsweeps > 0;
	a->nfiles = argc - optind;
	a->files = argv + optind;
	status = check_conflicts(given);
	if (status == EXIT_OK)
		status = check_together(opt, a, p.numbering_given);
	/* the text report wraps long formulas at a terminal's width, never in a
	 * file or a pipe unless --width says so */
	if (status == EXIT_OK && !a->width_given)
		opt->width = terminal_width(STDOUT_FILENO);
	return status;
}

void args_clear(struct options *opt, struct args *a)
{
	free(opt->defs);
	free(opt->assumes);
	opt->defs = NULL;
	opt->assumes = NULL;
	memset(a, 0, sizeof(*a));
}
