/* The cost analysis against Niculescu's reference results (Examples 1 and 2),
 * checked as identities between formulas, not as strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gmp.h>
#include <isl/ctx.h>
#include <isl/options.h>

#include "analyzer/cost/cost.h"
#include "analyzer/check/load.h"
#include "analyzer/model/lower.h"
#include "analyzer/util/session.h"

struct fixture {
	isl_ctx *ctx;
	struct count_engine engine;
	struct loaded_spec ls;
	struct model *m;
	struct candidate_cost *costs;
};

static void load(struct fixture *fx, const char *path, const struct cost_request *req)
{
	memset(fx, 0, sizeof(*fx));
	fx->ctx = session_ctx(NULL);
	count_engine_init(&fx->engine, fx->ctx);
	assert_int_equal(spec_load(&fx->ls, path, stderr, NULL), 0);
	char *reason = NULL;
	fx->m = lower_spec(fx->ls.cs, WORK_TERMS, &reason);
	if (!fx->m)
		fail_msg("%s: %s", path, reason);
	fx->costs = calloc((size_t)fx->m->ncands, sizeof(*fx->costs));
	for (int c = 0; c < fx->m->ncands; c++) {
		enum cost_status st = cost_candidate(&fx->engine, fx->m, c, req, &fx->costs[c]);
		if (st != COST_OK)
			fail_msg("%s: candidate %s: %s", path, fx->costs[c].name, fx->costs[c].reason);
	}
}

static void unload(struct fixture *fx)
{
	for (int c = 0; c < fx->m->ncands; c++)
		candidate_cost_clear(&fx->costs[c]);
	free(fx->costs);
	model_free(fx->m);
	spec_unload(&fx->ls);
	isl_ctx_free(fx->ctx);
}

/* F equals the formula written as TEXT (the machine grammar) as a function. */
static void assert_formula(const struct formula *f, const char *text, const char *what)
{
	char *err = NULL;
	struct formula_expr *e = formula_parse_expr(text, &err);
	if (!e)
		fail_msg("bad expected formula '%s': %s", text, err);
	struct formula *want = formula_from_expr(e);
	formula_expr_free(e);
	assert_non_null(want);
	int eq = formula_equal(f, want);
	if (eq != 1) {
		char *got = formula_to_string(f, FORMULA_TEXT);
		fail_msg("%s: got %s, expected %s (formula_equal says %d)", what, got, text, eq);
	}
	formula_free(want);
}

static const struct cost_request symbolic = {.h = H_MAX, .symbolic = true};

static void test_example1(void **state)
{
	(void)state;
	struct fixture fx;
	load(&fx, "examples/matmul.bsp", &symbolic);
	assert_int_equal(fx.m->ncands, 16);
	for (int c = 0; c < fx.m->ncands; c++) {
		const struct candidate_cost *cc = &fx.costs[c];
		assert_int_equal(cc->nsteps, 1);
		const struct step_cost *s = &cc->steps[0];
		assert_formula(s->h, "(o*m*(N-1) + o*n*(M-1))/(M*N)", cc->name);
		assert_formula(s->ncom, "o*m*(N-1) + o*n*(M-1)", cc->name);
		assert_formula(s->w, "m*n*o/(M*N)", cc->name);
		assert_formula(cc->cost, "m*n*o/(M*N) + l + g*(o*m*(N-1) + o*n*(M-1))/(M*N)", cc->name);
	}
	unload(&fx);
}

static void test_example2(void **state)
{
	(void)state;
	struct fixture fx;
	load(&fx, "examples/matmul2.bsp", &symbolic);
	assert_int_equal(fx.m->ncands, 1);
	const struct candidate_cost *cc = &fx.costs[0];
	assert_int_equal(cc->nsteps, 2);
	assert_formula(cc->steps[0].ncom, "o*n*(M-1)", "NCom_0");
	assert_formula(cc->steps[0].h, "o*n*(M-1)/(M*N)", "h_0");
	assert_formula(cc->steps[0].w, "m*n*o/(M*N)", "w_0");
	assert_formula(cc->steps[1].ncom, "m*n*(N-1)", "NCom_1");
	assert_formula(cc->steps[1].h, "m*n*(N-1)/(M*N)", "h_1");
	assert_formula(cc->steps[1].w, "m*n*N/(M*N)", "w_1");
	assert_formula(cc->cost, "m*n*(o+N)/(M*N) + g*(o*n*(M-1) + m*n*(N-1))/(M*N) + 2*l", "cost");
	unload(&fx);
}

/* The paper's remark on Example 1: for m = n, the h of M x N grids with M*N = p
 * is smallest at M = N when p is a square. */
static void test_square_grid_is_best(void **state)
{
	(void)state;
	struct fixture fx;
	load(&fx, "examples/matmul.bsp", &symbolic);
	const struct formula *h = fx.costs[0].steps[0].h;
	static const long ps[] = {4, 16, 36, 64, 144};
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		long p = ps[k], best_m = -1;
		mpq_t best, v;
		mpq_inits(best, v, NULL);
		for (long M = 1; M <= p; M++) {
			if (p % M)
				continue;
			const char *names[] = {"m", "n", "o", "M", "N"};
			long long n = 720720, values[] = {n, n, 5040, M, p / M};
			assert_int_equal(formula_eval(h, names, values, 5, v), 0);
			if (best_m < 0 || mpq_cmp(v, best) < 0) {
				mpq_set(best, v);
				best_m = M;
			}
		}
		long r = 1;
		while ((r + 1) * (r + 1) <= p)
			r++;
		assert_int_equal(best_m, r);
		mpq_clears(best, v, NULL);
	}
	unload(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example1),
		cmocka_unit_test(test_example2),
		cmocka_unit_test(test_square_grid_is_best),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
