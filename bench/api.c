/* What a question costs through the library against a process per question
 * (issue: "one evaluation through the library against one process per
 * evaluation").  examples/stencil2d.bsp on 8 x 8, the rows block and the
 * columns block, its cost at n = m = 64, 128, ...:
 *
 *   process:  `bspcost --values -D ...` once per point (fork, exec, load,
 *             check, count);
 *   counted:  bspcost_analyze with bspcost_request_values_only per point,
 *             the specification loaded once;
 *   formula:  one symbolic bspcost_analyze, then bspcost_result_eval per
 *             point (10^4 points).
 *
 * Figures, not assertions: the ratios are of one run on one machine.  The
 * three agree on every value compared (a disagreement is an error). */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyzer/api/bspcost.h"

enum { PROCESS_POINTS = 20, EVAL_POINTS = 10000 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	(void)argc;
	/* the command beside this program's directory: O/bench/api -> O/bspcost */
	char bin[4096];
	snprintf(bin, sizeof(bin), "%s", argv[0]);
	char *slash = strrchr(bin, '/');
	if (!slash)
		return 1;
	*slash = '\0';
	slash = strrchr(bin, '/');
	snprintf(slash ? slash + 1 : bin, sizeof(bin) - (size_t)(slash ? slash + 1 - bin : 0),
		 "bspcost");
	const char *file = "examples/stencil2d.bsp";

	/* one process per point */
	double t0 = now();
	char values[PROCESS_POINTS][64];
	for (int i = 0; i < PROCESS_POINTS; i++) {
		long long n = 64 * (i + 1);
		char cmd[8192];
		snprintf(cmd, sizeof(cmd),
			 "%s --values -f csv -D n=%lld -D m=%lld -D M=8 -D N=8 -D g=1 -D l=1000 %s "
			 "| grep '^\"rows=block,cols=block\",\"\",\"cost\"' | cut -d, -f6 | tr -d '\"'",
			 bin, n, n, file);
		FILE *p = popen(cmd, "r");
		bool read = p && fgets(values[i], sizeof(values[i]), p);
		if (!p || pclose(p) != 0 || !read) {
			fprintf(stderr, "api: %s failed\n", bin);
			return 1;
		}
		values[i][strcspn(values[i], "\n")] = '\0';
	}
	double process = (now() - t0) / PROCESS_POINTS;

	/* the library, counting each point */
	bspcost_session *s = bspcost_session_new(0);
	bspcost_spec *spec = bspcost_spec_load(s, file);
	bspcost_request *rq = bspcost_request_new();
	if (!s || !spec || !rq || bspcost_spec_status(spec) != BSPCOST_OK)
		return 1;
	bspcost_request_values_only(rq, 1);
	char counted[PROCESS_POINTS][64];
	t0 = now();
	for (int i = 0; i < PROCESS_POINTS; i++) {
		char n[32];
		snprintf(n, sizeof(n), "%d", 64 * (i + 1));
		bspcost_request_clear_values(rq);
		const char *set[][2] = {{"n", n}, {"m", n}, {"M", "8"}, {"N", "8"},
					{"g", "1"}, {"l", "1000"}};
		for (int k = 0; k < 6; k++)
			if (bspcost_request_set(rq, set[k][0], set[k][1]) != BSPCOST_OK)
				return 1;
		bspcost_result *r = NULL;
		if (bspcost_analyze(s, spec, rq, &r) != BSPCOST_OK) {
			fputs(bspcost_session_message(s), stderr);
			return 1;
		}
		snprintf(counted[i], sizeof(counted[i]), "%s",
			 bspcost_result_value(r, 0, BSPCOST_PROGRAM, BSPCOST_COST));
		bspcost_result_free(r);
	}
	double library = (now() - t0) / PROCESS_POINTS;

	/* the library, the formula counted once and evaluated */
	bspcost_request *none = bspcost_request_new();
	bspcost_result *sym = NULL;
	t0 = now();
	if (!none || bspcost_analyze(s, spec, none, &sym) != BSPCOST_OK)
		return 1;
	double once = now() - t0;
	const char *names[] = {"n", "m", "M", "N", "g", "l"};
	long long sum = 0;
	int bad = 0;
	t0 = now();
	for (int i = 0; i < EVAL_POINTS; i++) {
		long long n = 64 * (i % PROCESS_POINTS + 1), v[] = {n, n, 8, 8, 1, 1000}, num, den;
		if (bspcost_result_eval(sym, 0, BSPCOST_PROGRAM, BSPCOST_COST, 6, names, v, &num,
					&den, NULL) != BSPCOST_OK)
			return 1;
		sum += num;
		if (i < PROCESS_POINTS) {
			char text[64];
			snprintf(text, sizeof(text), den == 1 ? "%lld" : "%lld/%lld", num, den);
			if (strcmp(text, values[i]) != 0 || strcmp(text, counted[i]) != 0) {
				if (!bad)
					fprintf(stderr, "api: at n = %lld: formula %s, process %s, library %s\n",
						n, text, values[i], counted[i]);
				bad++;
			}
		}
	}
	double eval = (now() - t0) / EVAL_POINTS;
	printf("stencil2d on 8 x 8, the cost of rows=block,cols=block at n = m = 64 .. %d:\n",
	       64 * PROCESS_POINTS);
	printf("  a process per point (bspcost --values):  %8.2f ms per point (%d points)\n",
	       process * 1e3, PROCESS_POINTS);
	printf("  the library, counted at each point:      %8.2f ms per point (%d points): "
	       "%.1fx faster\n", library * 1e3, PROCESS_POINTS, process / library);
	printf("  the library, its formula evaluated:      %8.2f us per point (%d points, after "
	       "%.2f s for the formulas): %.0fx faster\n", eval * 1e6, EVAL_POINTS, once,
	       process / eval);
	printf("  values compared with the process's: %d of %d differ (checksum %lld)\n", bad,
	       PROCESS_POINTS, sum);
	bspcost_result_free(sym);
	bspcost_request_free(none);
	bspcost_request_free(rq);
	bspcost_spec_free(spec);
	bspcost_session_free(s);
	return bad ? 1 : 0;
}
