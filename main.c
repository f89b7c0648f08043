/* bspcost: the command-line driver.
 *
 * Reads the options, then hands the work to one command (analyzer/run/commands.h).
 * Usage errors exit with EXIT_USAGE; everything else is the command's status. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <gmp.h>
#include <stdbool.h>

#include <flint/flint.h>

#include "analyzer/run/commands.h"
#include "analyzer/run/options.h"
#include "analyzer/cost/cost_model.h"
#include "analyzer/machine/topology.h"
#include "analyzer/util/number.h"
#include "analyzer/util/limits.h"

#ifndef BSPCOST_VERSION
#define BSPCOST_VERSION "unknown"
#endif

static int usage_error(const char *fmt, ...)
{
	fputs("bspcost: ", stderr);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'bspcost --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

/* The options that choose what a run does, for the table of conflicts. */
enum run_option {
	USE_P, USE_RANGE, USE_GRID, USE_COUNT, USE_CHECK, USE_PRINT, USE_VERIFY, USE_VALUES,
	USE_EXPLAIN, USE_SUMMARY, USE_ALL_SIZES, USE_PER_PROCESS, USE_COMPARE, USE_PLOT,
	USE_MACHINE, USE_ASSUME, USE_HIERARCHY, USE_N
};
static const char *const run_option_name[USE_N] = {
	"-p", "a -D range", "--grid", "--count", "--check", "--print", "--verify", "--values",
	"--explain", "--summary", "--all-sizes", "--per-process", "--compare", "--plot",
	"--machine", "--assume", "--hierarchy",
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

/* The value of --OPTION ARG, a count from LO to HI, in *OUT: 0; else the
 * usage error, saying what is expected (WHAT: "a number of rows"). */
static int count_option(const char *option, const char *arg, long lo, long hi, const char *what,
			int *out)
{
	long n = parse_count(arg, lo, hi);
	if (n >= 0) {
		*out = (int)n;
		return 0;
	}
	fprintf(stderr, "bspcost: bad --%s '%s': expected %s, %ld to %ld\n", option, arg, what, lo,
		hi);
	fputs("Try 'bspcost --help' for more information.\n", stderr);
	return EXIT_USAGE;
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

/* "4x8" (1 to 3 sizes, each 1 to 4096) into opt->grid. */
static int parse_grid(const char *arg, struct options *opt)
{
	char buf[64];
	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	int n = 0;
	for (char *save = NULL, *tok = strtok_r(buf, "x", &save); tok;
	     tok = strtok_r(NULL, "x", &save)) {
		long v = parse_count(tok, 1, LIMIT_AXIS);
		if (v < 0 || n == 3)
			return -1;
		opt->grid[n++] = v;
	}
	if (n == 0 || arg[0] == 'x' || arg[strlen(arg) - 1] == 'x' || strstr(arg, "xx"))
		return -1;
	opt->grid_naxes = n;
	return 0;
}

/* The columns of the terminal FD is, or 0 when it is none (or says none). */
static int terminal_width(int fd)
{
	struct winsize ws;
	if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
		return 0;
	return ws.ws_col;
}

int main(int argc, char **argv)
{
	enum { OPT_CHECK = 256, OPT_PRINT, OPT_COUNT, OPT_GRID, OPT_H, OPT_VERIFY, OPT_SEED,
	       OPT_EXPLAIN, OPT_WORK, OPT_TIMEOUT, OPT_VALUES, OPT_ALLOW_UNVERIFIED, OPT_TOP,
	       OPT_MACHINE, OPT_SUMMARY, OPT_WIDTH, OPT_DIGITS, OPT_PLOT, OPT_MODEL, OPT_PER_PROCESS,
	       OPT_MSGS, OPT_HIERARCHY, OPT_NUMBERING, OPT_TOPOLOGY,
	       OPT_SPEED, OPT_COMPARE, OPT_ALL_SIZES, OPT_ASSUME };
	static const struct option longopts[] = {
		{"check", no_argument, NULL, OPT_CHECK},
		{"print", no_argument, NULL, OPT_PRINT},
		{"count", required_argument, NULL, OPT_COUNT},
		{"grid", required_argument, NULL, OPT_GRID},
		{"h", required_argument, NULL, OPT_H},
		{"verify", optional_argument, NULL, OPT_VERIFY},
		{"seed", required_argument, NULL, OPT_SEED},
		{"explain", no_argument, NULL, OPT_EXPLAIN},
		{"values", no_argument, NULL, OPT_VALUES},
		{"all-sizes", no_argument, NULL, OPT_ALL_SIZES},
		{"allow-unverified", no_argument, NULL, OPT_ALLOW_UNVERIFIED},
		{"work", required_argument, NULL, OPT_WORK},
		{"jobs", required_argument, NULL, 'j'},
		{"timeout", required_argument, NULL, OPT_TIMEOUT},
		{"procs", required_argument, NULL, 'p'},
		{"top", required_argument, NULL, OPT_TOP},
		{"machine", required_argument, NULL, OPT_MACHINE},
		{"summary", no_argument, NULL, OPT_SUMMARY},
		{"per-process", no_argument, NULL, OPT_PER_PROCESS},
		{"msgs", no_argument, NULL, OPT_MSGS},
		{"hierarchy", no_argument, NULL, OPT_HIERARCHY},
		{"numbering", required_argument, NULL, OPT_NUMBERING},
		{"topology", required_argument, NULL, OPT_TOPOLOGY},
		{"compare", required_argument, NULL, OPT_COMPARE},
		{"assume", required_argument, NULL, OPT_ASSUME},
		{"width", required_argument, NULL, OPT_WIDTH},
		{"digits", required_argument, NULL, OPT_DIGITS},
		{"plot", required_argument, NULL, OPT_PLOT},
		{"model", required_argument, NULL, OPT_MODEL},
		{"speed", required_argument, NULL, OPT_SPEED},
		{"define", required_argument, NULL, 'D'},
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct options opt = options_defaults(stdout, stderr);
	const char *count_set = NULL;
	bool width_given = false;
	bool numbering_given = false;
	struct session *session = NULL;
	int status;

	const char *env_timeout = getenv("BSPCOST_TIMEOUT");
	if (env_timeout && *env_timeout) {
		opt.timeout = parse_seconds(env_timeout);
		if (opt.timeout < 0) {
			fprintf(stderr, "bspcost: bad BSPCOST_TIMEOUT '%s': expected seconds, 0 (no "
					"limit) to 1000000\n", env_timeout);
			return EXIT_USAGE;
		}
	}

	opt.defs = calloc((size_t)argc, sizeof(*opt.defs));
	opt.assumes = calloc((size_t)argc, sizeof(*opt.assumes));
	if (!opt.defs || !opt.assumes) {
		fputs("bspcost: out of memory\n", stderr);
		return EXIT_SPEC;
	}

	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":D:f:hj:p:V", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CHECK:
			opt.check_only = true;
			break;
		case OPT_PRINT:
			opt.print = true;
			break;
		case OPT_COUNT:
			count_set = optarg;
			break;
		case OPT_GRID:
			if (parse_grid(optarg, &opt) < 0) {
				status = usage_error("bad --grid '%s': expected sizes like 4x8, each 1 to "
						     LIMIT_TEXT(LIMIT_AXIS),
						     optarg);
				goto out;
			}
			break;
		case OPT_H:
			if (strcmp(optarg, "max") == 0 || strcmp(optarg, "sum") == 0)
				opt.h_sum = strcmp(optarg, "sum") == 0;
			else {
				status = usage_error("bad --h '%s': expected max or sum", optarg);
				goto out;
			}
			break;
		case OPT_VERIFY: {
			long n = optarg ? parse_count(optarg, 1, 100000) : 20;
			if (n < 0) {
				status = usage_error("bad --verify '%s': expected a number of points, 1 to 100000",
						     optarg);
				goto out;
			}
			opt.verify = (int)n;
			break;
		}
		case OPT_WORK:
			if (strcmp(optarg, "terms") == 0 || strcmp(optarg, "flops") == 0)
				opt.work_flops = strcmp(optarg, "flops") == 0;
			else {
				status = usage_error("bad --work '%s': expected terms or flops", optarg);
				goto out;
			}
			break;
		case OPT_EXPLAIN:
			opt.explain = true;
			break;
		case OPT_ALLOW_UNVERIFIED:
			opt.allow_unverified = true;
			break;
		case OPT_VALUES:
			opt.values_only = true;
			break;
		case OPT_ALL_SIZES:
			opt.all_sizes = true;
			break;
		case OPT_SEED: {
			long n = parse_count(optarg, 1, 4294967295L);
			if (n < 0) {
				status = usage_error("bad --seed '%s': expected a positive integer", optarg);
				goto out;
			}
			opt.seed = (unsigned)n;
			break;
		}
		case 'j': {
			long n = parse_count(optarg, 1, 256);
			if (n < 0) {
				status = usage_error("bad --jobs '%s': expected a number of threads, 1 to 256",
						     optarg);
				goto out;
			}
			opt.jobs = (int)n;
			break;
		}
		case 'p': {
			const char *why = parse_procs(optarg, &opt);
			if (why) {
				status = usage_error(why, optarg);
				goto out;
			}
			break;
		}
		case OPT_TOP:
			status = count_option("top", optarg, 1, 1000000, "a number of rows", &opt.top);
			if (status)
				goto out;
			break;
		case OPT_MODEL:
			opt.model = cost_model_find(optarg);
			if (!opt.model) {
				char *names = cost_model_names();
				status = usage_error("--model '%s': no such cost function (one of: %s)",
						     optarg, names ? names : "?");
				free(names);
				goto out;
			}
			break;
		case OPT_MACHINE:
			opt.machine_arg = optarg;
			break;
		case OPT_PER_PROCESS:
			opt.per_process = true;
			break;
		case OPT_MSGS:
			opt.messages = true;
			break;
		case OPT_HIERARCHY:
			opt.hierarchy = true;
			break;
		case OPT_NUMBERING:
			if (numbering_parse(optarg, &opt.numbering) < 0) {
				/* a file of the processes' coordinates, in their order */
				opt.numbering = NUMBERING_MAP;
				opt.numbering_file = optarg;
			}
			numbering_given = opt.numbering_given = true;
			break;
		case OPT_TOPOLOGY:
			opt.topology = topology_find(optarg);
			if (!opt.topology) {
				status = usage_error("--topology '%s': no such topology (one of: %s)",
						     optarg, topology_names());
				goto out;
			}
			break;
		case OPT_COMPARE:
			/* two arguments: the second is the next word (getopt moves it
			 * with the option, as it does an option's argument) */
			if (optind >= argc || argv[optind][0] == '-') {
				status = usage_error("%s", "--compare takes two candidates: --compare A B");
				goto out;
			}
			opt.compare[0] = optarg;
			opt.compare[1] = argv[optind++];
			break;
		case OPT_SUMMARY:
			opt.summary = true;
			break;
		case OPT_ASSUME:
			opt.assumes[opt.nassumes++] = optarg;
			break;
		case OPT_PLOT:
			opt.plot = optarg;
			break;
		case OPT_SPEED: {
			mpq_t v;
			mpq_init(v);
			bool ok = number_parse(optarg, v) == 0 && mpq_sgn(v) > 0;
			mpq_clear(v);
			if (!ok) {
				status = usage_error("--speed '%s': a machine's flop/s, a number above 0 "
						     "(26e6, 1/3)", optarg);
				goto out;
			}
			opt.speed_arg = optarg;
			break;
		}
		case OPT_DIGITS:
			status = count_option("digits", optarg, 1, 100,
					      "a number of significant digits", &opt.digits);
			if (status)
				goto out;
			break;
		case OPT_WIDTH:
			status = count_option("width", optarg, 0, 100000,
					      "a number of columns (0: never wrap)", &opt.width);
			if (status)
				goto out;
			width_given = true;
			break;
		case OPT_TIMEOUT: {
			double t = parse_seconds(optarg);
			if (t < 0) {
				status = usage_error("bad --timeout '%s': expected seconds, 0 (no limit) to 1000000",
						     optarg);
				goto out;
			}
			opt.timeout = t;
			break;
		}
		case 'D': {
			char *why = options_add_define(&opt, optarg);
			if (why) {
				status = usage_error("%s", why);
				free(why);
				goto out;
			}
			break;
		}
		case 'f':
			if (strcmp(optarg, "text") == 0)
				opt.format = FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				opt.format = FORMAT_JSON;
			else if (strcmp(optarg, "markdown") == 0)
				opt.format = FORMAT_MARKDOWN;
			else if (strcmp(optarg, "latex") == 0)
				opt.format = FORMAT_LATEX;
			else if (strcmp(optarg, "csv") == 0)
				opt.format = FORMAT_CSV;
			else {
				status = usage_error("unknown format '%s' (expected text, json, markdown, latex or csv)",
						     optarg);
				goto out;
			}
			break;
		case 'h':
			fputs(cli_usage_text, stdout);
			status = EXIT_OK;
			goto out;
		case 'V':
			printf("bspcost %s\n", BSPCOST_VERSION);
			status = EXIT_OK;
			goto out;
		case ':':
			status = usage_error("option '%s' needs an argument", argv[optind - 1]);
			goto out;
		default:
			status = usage_error("unknown option '%s'", argv[optind - 1]);
			goto out;
		}
	}

	const bool given[USE_N] = {
		[USE_P] = opt.nprocs > 0, [USE_RANGE] = opt.nsweeps > 0,
		[USE_GRID] = opt.grid_naxes > 0, [USE_COUNT] = count_set != NULL,
		[USE_CHECK] = opt.check_only, [USE_PRINT] = opt.print, [USE_VERIFY] = opt.verify,
		[USE_VALUES] = opt.values_only, [USE_EXPLAIN] = opt.explain,
		[USE_SUMMARY] = opt.summary, [USE_ALL_SIZES] = opt.all_sizes,
		[USE_PER_PROCESS] = opt.per_process, [USE_COMPARE] = opt.compare[0] != NULL,
		[USE_PLOT] = opt.plot != NULL, [USE_MACHINE] = opt.machine_arg != NULL,
		[USE_ASSUME] = opt.nassumes > 0, [USE_HIERARCHY] = opt.hierarchy,
	};
	status = check_conflicts(given);
	if (status != EXIT_OK)
		goto out;
	char *why = options_check_defines(&opt);
	if (why) {
		status = usage_error("%s", why);
		free(why);
		goto out;
	}
	/* the text report wraps long formulas at a terminal's width, never in a
	 * file or a pipe unless --width says so */
	if (!width_given)
		opt.width = terminal_width(STDOUT_FILENO);
	if (opt.speed_arg && !opt.machine_arg) {
		status = usage_error("--speed gives a machine profile its flop/s: use it with "
				     "--machine%s", "");
		goto out;
	}
	if (opt.plot && plot_format_of(opt.plot) == PLOT_NONE) {
		status = usage_error("--plot '%s': the picture's file name ends in .svg or .png",
				     opt.plot);
		goto out;
	}
	if (opt.plot && opt.nsweeps > 1) {
		status = usage_error("%s", "--plot draws the cost against one range of values: "
				     "give one -D range");
		goto out;
	}
	if (opt.plot && opt.nprocs > 1) {
		status = usage_error("%s", "--plot draws -p's ranking of one process count (cost "
				     "against the grid shape, or against a -D range): give -p with one "
				     "count");
		goto out;
	}
	if ((numbering_given || opt.topology) && !opt.hierarchy) {
		status = usage_error("%s", numbering_given
				     ? "--numbering orders the processes for --hierarchy: give "
				       "--hierarchy too"
				     : "--topology prices --hierarchy's levels: give --hierarchy too");
		goto out;
	}
	if (opt.hierarchy && opt.h_sum) {
		status = usage_error("%s", "--hierarchy's H(k-1) is h = max(fan-in, fan-out) "
				     "(Soviani and Singh's): --h sum cannot go with it");
		goto out;
	}
	if (opt.per_process) {
		if (opt.format == FORMAT_LATEX) {
			status = usage_error("%s", "--per-process supports the formats text, json, csv "
					     "and markdown (not latex)");
			goto out;
		}
	}
	if (opt.plot && opt.hierarchy && opt.nprocs > 0) {
		status = usage_error("%s", "--plot draws --hierarchy's H(i) on one grid, not -p's "
				     "ranking of the hierarchy: give the grid (-D or --grid) instead of -p");
		goto out;
	}
	if (opt.plot && opt.nprocs == 0 && opt.nsweeps == 0 && !opt.per_process && !opt.hierarchy) {
		status = usage_error("%s", "--plot draws -p's ranking of one process count (cost "
				     "against the grid shape), the cost against a -D range, "
				     "--per-process's counts or --hierarchy's H(i): give one of them");
		goto out;
	}
	if (opt.compare[0]) {
		if (strcmp(opt.compare[0], opt.compare[1]) == 0) {
			status = usage_error("--compare '%s' '%s': give two different candidates",
					     opt.compare[0], opt.compare[1]);
			goto out;
		}
	}
	if (opt.messages && opt.nprocs > 0 && opt.model->messages == MSG_NONE) {
		status = usage_error("%s", "--msgs: -p ranks by the cost function, which counts no "
				     "message (--model nhalf or logp prices them)");
		goto out;
	}
	if (opt.model->messages != MSG_NONE) {
		opt.messages = true;
		if (opt.verify || opt.compare[0]) {
			status = usage_error("--model %s: %s checks and compares the costs of g and l "
					     "alone (bsp, overlap and Bianco and Pucci's F_)",
					     opt.model->name, opt.verify ? "--verify" : "--compare");
			goto out;
		}
	}
	if (opt.summary && opt.format != FORMAT_TEXT) {
		status = usage_error("%s", "--summary is for the text report of the analysis (not "
				     "-p, whose table is a summary, nor the other formats)");
		goto out;
	}
	if (opt.top && !opt.nprocs && !opt.nsweeps) {
		status = usage_error("%s", "--top needs -p or a -D range (it limits each ranking)");
		goto out;
	}

	/* One deadline for the whole run, from here (analyzer/util/session.h). */
	session = session_start(opt.timeout);
	if (!session) {
		fputs("bspcost: cannot start the time limit's watchdog (out of memory or threads)\n",
		      stderr);
		status = EXIT_SPEC;
		goto out;
	}
	if (count_set) {
		if (optind < argc) {
			status = usage_error("--count takes no FILE (got '%s')", argv[optind]);
			goto out;
		}
		status = cmd_count(count_set, &opt, session);
		goto out;
	}
	if (opt.compare[0] && optind >= argc) {
		status = usage_error("--compare '%s' '%s' needs a FILE (--compare A B FILE; was "
				     "'%s' meant as the FILE?)", opt.compare[0], opt.compare[1],
				     opt.compare[1]);
		goto out;
	}
	if (optind >= argc) {
		status = usage_error("%s", "no FILE given");
		goto out;
	}
	if (opt.compare[0] && argc - optind > 1) {
		status = usage_error("%s", "--compare compares two candidates of one FILE: give one");
		goto out;
	}
	if (opt.plot && argc - optind > 1) {
		status = usage_error("%s", "--plot draws one picture: give one FILE");
		goto out;
	}
	if (opt.check_only || opt.print)
		status = cmd_check(argc - optind, argv + optind, &opt, session);
	else
		status = cmd_analyze(argc - optind, argv + optind, &opt, session);
out:
	session_end(session);
	free(opt.defs);
	free(opt.assumes);
	flint_cleanup(); /* FLINT's caches, so that leak checkers see a clean exit */
	if (fflush(stdout) != 0 && status == EXIT_OK) {
		fputs("bspcost: error writing output\n", stderr);
		status = EXIT_SPEC;
	}
	return status;
}
