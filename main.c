/* bspcost: the command-line driver.
 *
 * Reads the options, then hands the work to one command (analyzer/commands.h).
 * Usage errors exit with EXIT_USAGE; everything else is the command's status. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/commands.h"
#include "analyzer/options.h"

#ifndef BSPCOST_VERSION
#define BSPCOST_VERSION "unknown"
#endif

static const char usage_text[] =
	"usage: bspcost [options] FILE...\n"
	"       bspcost --count 'ISL SET' [-D NAME=VALUE]... [--format text|json]\n"
	"\n"
	"Reads BSP specifications (FILE may be - for standard input).\n"
	"\n"
	"  --check              parse and check only; one summary line per file\n"
	"  --print              print each specification in canonical form\n"
	"  --count SET          count the points of an ISL set, e.g.\n"
	"                       '[n] -> { [i,j] : 0 <= i < n and 0 <= j <= i }'\n"
	"  -D, --define NAME=V  give parameter NAME the integer value V\n"
	"  -f, --format FMT     text (default) or json\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show the version and exit\n"
	"\n"
	"Exit status: 0 success, 1 error in a specification or analysis, 2 bad usage.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fputs("bspcost: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'bspcost --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

/* NAME=VALUE with NAME an identifier and VALUE a decimal integer that fits. */
static int parse_define(char *arg, struct param_value *pv)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return -1;
	for (char *p = arg; p < eq; p++) {
		int c = (unsigned char)*p;
		int ident = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (p > arg && c >= '0' && c <= '9');
		if (!ident)
			return -1;
	}
	*eq = '\0';
	char *end;
	errno = 0;
	long long v = strtoll(eq + 1, &end, 10);
	if (errno == ERANGE || end == eq + 1 || *end != '\0') {
		*eq = '=';
		return -1;
	}
	pv->name = arg;
	pv->value = v;
	return 0;
}

int main(int argc, char **argv)
{
	enum { OPT_CHECK = 256, OPT_PRINT, OPT_COUNT };
	static const struct option longopts[] = {
		{"check", no_argument, NULL, OPT_CHECK},
		{"print", no_argument, NULL, OPT_PRINT},
		{"count", required_argument, NULL, OPT_COUNT},
		{"define", required_argument, NULL, 'D'},
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct options opt = {.format = FORMAT_TEXT, .out = stdout, .err = stderr};
	const char *count_set = NULL;
	int status;

	opt.defs = calloc((size_t)argc, sizeof(*opt.defs));
	if (!opt.defs) {
		fputs("bspcost: out of memory\n", stderr);
		return EXIT_SPEC;
	}

	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":D:f:hV", longopts, NULL)) != -1) {
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
		case 'D':
			if (parse_define(optarg, &opt.defs[opt.ndefs]) < 0) {
				status = usage_error("bad -D '%s': expected NAME=INTEGER", optarg);
				goto out;
			}
			opt.ndefs++;
			break;
		case 'f':
			if (strcmp(optarg, "text") == 0)
				opt.format = FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				opt.format = FORMAT_JSON;
			else {
				status = usage_error("unknown format '%s' (expected text or json)", optarg);
				goto out;
			}
			break;
		case 'h':
			fputs(usage_text, stdout);
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

	if (count_set) {
		if (optind < argc) {
			status = usage_error("--count takes no FILE (got '%s')", argv[optind]);
			goto out;
		}
		if (opt.check_only || opt.print) {
			status = usage_error("%s", "--count cannot be combined with --check or --print");
			goto out;
		}
		status = cmd_count(count_set, &opt);
		goto out;
	}
	if (optind >= argc) {
		status = usage_error("%s", "no FILE given");
		goto out;
	}
	if (opt.check_only && opt.print) {
		status = usage_error("%s", "--check and --print cannot be combined");
		goto out;
	}
	status = cmd_check(argc - optind, argv + optind, &opt);
out:
	free(opt.defs);
	if (fflush(stdout) != 0 && status == EXIT_OK) {
		fputs("bspcost: error writing output\n", stderr);
		status = EXIT_SPEC;
	}
	return status;
}
