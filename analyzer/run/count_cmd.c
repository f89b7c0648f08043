/* --count SET: the number of points of an ISL set, as a formula in its parameters,
 * and its value when -D gives every parameter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/run/commands.h"
#include "analyzer/count/count.h"
#include "analyzer/formula/formula.h"
#include "analyzer/report/report.h"

int cmd_count(const char *set_text, const struct options *opt, struct session *session)
{
	isl_ctx *ctx = session_ctx(session);
	if (!ctx) {
		report_error(opt->err, NULL, "--count: out of memory");
		return EXIT_SPEC;
	}
	int status = EXIT_SPEC;
	isl_set *set = isl_set_read_from_str(ctx, set_text);
	if (!set && session_ctx_stopped(ctx)) {
		report_deadline(opt->err, "--count", session_limit(session), 0, 0, 0);
		session_ctx_free(session, ctx);
		return EXIT_SPEC;
	}
	if (!set) {
		const char *msg = isl_ctx_last_error_msg(ctx);
		report_error(opt->err, NULL, "--count: cannot parse set: %s",
			     msg ? msg : "syntax error");
		session_ctx_free(session, ctx);
		return EXIT_SPEC;
	}
	/* a -D for a name that is not a parameter is a mistake worth reporting */
	isl_space *space = isl_set_get_space(set);
	for (int k = 0; k < opt->ndefs; k++) {
		if (isl_space_find_dim_by_name(space, isl_dim_param, opt->defs[k].name) < 0)
			report_error(opt->err, NULL,
				     "--count: warning: -D %s: the set has no parameter '%s'",
				     opt->defs[k].name, opt->defs[k].name);
	}
	isl_space_free(space);

	struct count_engine eng;
	count_engine_init(&eng, ctx);
	isl_pw_qpolynomial *pw = NULL;
	char *why = NULL;
	enum count_status st = count_points(&eng, set, &pw, &why);
	if (st != COUNT_EXACT && session_ctx_stopped(ctx)) {
		report_deadline(opt->err, "--count", session_limit(session), 0, 0, 0);
	} else if (st != COUNT_EXACT) {
		report_error(opt->err, NULL, "--count: %s: %s",
			     st == COUNT_REFUSED ? "no exact count" : "counting failed",
			     why ? why : "unknown reason");
	}
	if (st != COUNT_EXACT) {
		free(why);
		isl_set_free(set);
		session_ctx_free(session, ctx);
		return EXIT_SPEC;
	}
	struct formula *f = formula_from_pw_qpolynomial_zero_outside(pw);
	char *formula = f ? formula_to_string(f, opt->format == FORMAT_JSON ? FORMULA_EXPR
									   : FORMULA_TEXT)
			  : NULL;
	struct report_request rq = options_report_request(opt);
	char *vstr = f ? formula_value_text(f, &rq) : NULL;
	if (!formula && session_ctx_stopped(ctx)) {
		report_deadline(opt->err, "--count", session_limit(session), 0, 0, 0);
	} else if (!formula) {
		report_error(opt->err, NULL, "--count: cannot print the formula");
	} else {
		report_count(opt->out, opt->format == FORMAT_JSON, formula, vstr);
		status = EXIT_OK;
	}
	free(vstr);
	free(formula);
	formula_free(f);
	isl_pw_qpolynomial_free(pw);
	isl_set_free(set);
	session_ctx_free(session, ctx);
	return status;
}
