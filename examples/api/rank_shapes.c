/* rank_shapes: which grid shape and which candidate, through libbspcost.
 *
 *     rank_shapes FILE P [NAME=VALUE ...] [--machine M]
 *
 * ranks every grid shape of P processes for every candidate of FILE, at the
 * values given (every size, and g and l unless --machine gives them), and
 * prints one row per shape and candidate, best first: the same ranking as
 * `bspcost -p P -D NAME=VALUE ... FILE`, walked as data.  Build it with
 *
 *     cc rank_shapes.c $(pkg-config --cflags --libs bspcost) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bspcost.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s FILE P [NAME=VALUE ...] [--machine M]\n", argv[0]);
		return 2;
	}
	bspcost_session *s = bspcost_session_new(60);
	bspcost_request *rq = bspcost_request_new();
	if (!s || !rq) {
		fputs("rank_shapes: out of memory\n", stderr);
		return 1;
	}
	int status = bspcost_request_procs(rq, atol(argv[2]));
	for (int i = 3; status == BSPCOST_OK && i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (strcmp(argv[i], "--machine") == 0 && i + 1 < argc) {
			status = bspcost_request_machine(rq, argv[++i]);
		} else if (eq) {
			*eq = '\0';
			status = bspcost_request_set(rq, argv[i], eq + 1);
		} else {
			status = BSPCOST_USAGE;
		}
	}
	if (status != BSPCOST_OK) {
		fprintf(stderr, "rank_shapes: %s\n", bspcost_request_message(rq));
		bspcost_request_free(rq);
		bspcost_session_free(s);
		return status;
	}

	bspcost_spec *spec = bspcost_spec_load(s, argv[1]);
	bspcost_ranking *r = NULL;
	if (!spec) {
		status = BSPCOST_ERROR;
	} else if ((status = bspcost_spec_status(spec)) != BSPCOST_OK) {
		for (int i = 0; i < bspcost_spec_ndiagnostics(spec); i++)
			fprintf(stderr, "%s:%d:%d: %s\n", argv[1], bspcost_spec_diagnostic_line(spec, i),
				bspcost_spec_diagnostic_column(spec, i),
				bspcost_spec_diagnostic_message(spec, i));
	} else {
		status = bspcost_rank(s, spec, rq, &r);
	}
	fputs(bspcost_session_message(s), stderr);

	for (int t = 0; r && t < bspcost_ranking_ntables(r); t++) {
		printf("%ld processes\n", bspcost_ranking_procs(r, t));
		for (int i = 0; i < bspcost_ranking_nrows(r, t); i++) {
			const char *cand = bspcost_ranking_candidate(r, t, i);
			int rank = bspcost_ranking_rank(r, t, i);
			if (rank > 0)
				printf("%4d  %-8s %-24s %s\n", rank, bspcost_ranking_shape(r, t, i),
				       cand, bspcost_ranking_cost(r, t, i));
			else   /* no cost (and why), or for every machine a formula in g and l */
				printf("   -  %-8s %-24s %s\n", bspcost_ranking_shape(r, t, i),
				       cand ? cand : "(every candidate)",
				       bspcost_ranking_cost(r, t, i) ? bspcost_ranking_cost(r, t, i)
								     : bspcost_ranking_why(r, t, i));
		}
	}
	bspcost_ranking_free(r);
	bspcost_spec_free(spec);
	bspcost_request_free(rq);
	bspcost_session_free(s);
	return status;
}
