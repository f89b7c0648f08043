/* api_render: a question asked through libbspcost, its answer rendered in
 * every format, for tests/resilience/library_render.sh to hold against the
 * command line's output byte for byte.
 *
 *     api_render DIR FILE [-p P] [--grid AxB] [--machine M] [--model F]
 *                [--assume C] [--per-process] [--compare A B] [NAME=VALUE ...]
 *
 * writes DIR/text, DIR/json, DIR/csv, DIR/markdown and DIR/latex (the
 * analysis; with -p the ranking), DIR/message (the session's message) and
 * exits with the question's status. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/api/bspcost.h"

static const char *const format_name[] = {"text", "json", "csv", "markdown", "latex"};

/* "4x8" into SIZES; the number of axes, 0 when malformed. */
static int grid_sizes(const char *arg, long sizes[3])
{
	int n = 0;
	for (const char *p = arg; *p && n < 3; n++) {
		char *end;
		sizes[n] = strtol(p, &end, 10);
		if (end == p || (*end && *end != 'x'))
			return 0;
		p = *end ? end + 1 : end;
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	bspcost_session *s = bspcost_session_new(60);
	bspcost_request *rq = bspcost_request_new();
	int st = s && rq ? BSPCOST_OK : BSPCOST_ERROR;
	int rank = 0;
	for (int i = 3; st == BSPCOST_OK && i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
		long sizes[3];
		int n;
		if (strcmp(a, "-p") == 0 && ++i) {
			st = bspcost_request_procs(rq, atol(v));
			rank = 1;
		} else if (strcmp(a, "--grid") == 0 && ++i) {
			n = grid_sizes(v, sizes);
			st = bspcost_request_grid(rq, n, sizes);
		} else if (strcmp(a, "--machine") == 0 && ++i) {
			st = bspcost_request_machine(rq, v);
		} else if (strcmp(a, "--model") == 0 && ++i) {
			st = bspcost_request_model(rq, v);
		} else if (strcmp(a, "--assume") == 0 && ++i) {
			st = bspcost_request_assume(rq, v);
		} else if (strcmp(a, "--compare") == 0 && i + 2 < argc) {
			st = bspcost_request_compare(rq, argv[i + 1], argv[i + 2]);
			i += 2;
		} else if (strcmp(a, "--per-process") == 0) {
			bspcost_request_per_process(rq, 1);
		} else if (strchr(a, '=')) {
			char *name = strdup(a), *eq = strchr(name, '=');
			*eq = '\0';
			st = bspcost_request_set(rq, name, eq + 1);
			rank |= strstr(eq + 1, "..") != NULL;
			free(name);
		} else {
			st = BSPCOST_USAGE;
		}
	}
	if (st != BSPCOST_OK)
		fprintf(stderr, "api_render: %s\n", rq ? bspcost_request_message(rq) : "out of memory");
	bspcost_spec *spec = st == BSPCOST_OK ? bspcost_spec_load(s, argv[2]) : NULL;
	bspcost_result *r = NULL;
	bspcost_ranking *k = NULL;
	if (spec && rank)
		st = bspcost_rank(s, spec, rq, &k);
	else if (spec)
		st = bspcost_analyze(s, spec, rq, &r);
	for (int f = 0; f < 5; f++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", argv[1], format_name[f]);
		FILE *out = fopen(path, "w");
		if (!out)
			return 2;
		if (r)
			bspcost_result_render(r, (enum bspcost_format)f, out);
		if (k)
			bspcost_ranking_render(k, (enum bspcost_format)f, out);
		fclose(out);
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/message", argv[1]);
	FILE *out = fopen(path, "w");
	if (out) {
		fputs(s ? bspcost_session_message(s) : "", out);
		fclose(out);
	}
	bspcost_result_free(r);
	bspcost_ranking_free(k);
	bspcost_spec_free(spec);
	bspcost_request_free(rq);
	bspcost_session_free(s);
	return st;
}
