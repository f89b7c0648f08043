/* --verify finds what is wrong: a candidate's true formulas pass at every
 * point, and each quantity made wrong by one (w, h, h_in, h_out, NCom, the
 * cost of a superstep, the whole cost) is caught and named, for a
 * superstep once and one in a loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <isl/ctx.h>

#include "analyzer/check/load.h"
#include "analyzer/cost/cost.h"
#include "analyzer/cost/verify.h"
#include "analyzer/formula/formula.h"
#include "analyzer/model/lower.h"
#include "analyzer/util/session.h"

struct fixture {
	isl_ctx *ctx;
	struct count_engine engine;
	struct loaded_spec ls;
	struct model *m;
	struct candidate_cost cc;
	struct cost_request req;
};

/* Candidate 0 of PATH on the symbolic grid. */
static void load(struct fixture *fx, const char *path)
{
	memset(fx, 0, sizeof(*fx));
	fx->ctx = session_ctx(NULL);
	count_engine_init(&fx->engine, fx->ctx);
	fx->engine.max_pieces = 64;
	assert_int_equal(spec_load(&fx->ls, path, stderr, NULL), 0);
	char *reason = NULL;
	fx->m = lower_spec(fx->ls.cs, WORK_TERMS, &reason);
	if (!fx->m)
		fail_msg("%s: %s", path, reason);
	fx->req = (struct cost_request){.h = H_MAX, .symbolic = true};
	if (cost_candidate(&fx->engine, fx->m, 0, &fx->req, &fx->cc) != COST_OK)
		fail_msg("%s: %s", path, fx->cc.reason);
}

static void unload(struct fixture *fx)
{
	candidate_cost_clear(&fx->cc);
	model_free(fx->m);
	spec_unload(&fx->ls);
	isl_ctx_free(fx->ctx);
}

/* Verification of FX's candidate at 2 points: the mismatches, and the first
 * one's text into WHAT (when not NULL). */
static int mismatches(struct fixture *fx, char what[256])
{
	struct verify_result vr;
	unsigned seed = 7;
	assert_int_equal(verify_candidate(fx->ctx, &fx->engine, fx->m, 0, &fx->req, &fx->cc, 2,
					  &seed, &vr),
			 0);
	assert_true(vr.points > 0);
	assert_true(vr.checks > 0);
	if (what)
		snprintf(what, 256, "%s", vr.first ? vr.first : "");
	int n = vr.mismatches;
	verify_result_clear(&vr);
	return n;
}

static void catches(const char *path)
{
	struct fixture fx;
	load(&fx, path);
	char what[256];
	assert_int_equal(mismatches(&fx, what), 0);
	struct step_cost *sc = &fx.cc.steps[0];
	struct {
		struct formula **f;
		const char *name;
	} wrong[] = {{&sc->w, "w"}, {&sc->h, "h"}, {&sc->h_in, "h_in"}, {&sc->h_out, "h_out"},
		     {&sc->ncom, "NCom"}, {&sc->cost, "cost"}, {&fx.cc.cost, "cost"}};
	for (size_t i = 0; i < sizeof(wrong) / sizeof(*wrong); i++) {
		/* the quantity made one more than it is */
		struct formula *right = *wrong[i].f, *one = formula_const_si(1);
		*wrong[i].f = formula_add(right, one);
		formula_free(one);
		assert_non_null(*wrong[i].f);
		int n = mismatches(&fx, what);
		if (n == 0)
			fail_msg("%s: %s made one more than it is, and --verify finds nothing", path,
				 wrong[i].name);
		if (!strstr(what, wrong[i].name))
			fail_msg("%s: %s made wrong, but the first mismatch reads: %s", path,
				 wrong[i].name, what);
		formula_free(*wrong[i].f);
		*wrong[i].f = right;
	}
	assert_int_equal(mismatches(&fx, NULL), 0);
	unload(&fx);
}

static void one_superstep(void **state)
{
	(void)state;
	catches("examples/stencil1d.bsp");
}

static void in_a_loop(void **state)
{
	(void)state;
	catches("examples/jacobi.bsp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_superstep),
		cmocka_unit_test(in_a_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
