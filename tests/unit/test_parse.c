/* Unit tests of the front end: the checked AST the analyses are written
 * against (resolved names, affine forms, atoms, references, candidates). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/check/check.h"
#include "grammar/diag.h"
#include "grammar/parse.h"
#include "grammar/source.h"

struct fixture {
	struct source src;
	struct diag dg;
	FILE *err;
	char *errbuf;
	size_t errlen;
	struct ast_spec *spec;
	struct checked_spec *cs;
};

static struct fixture *load(const char *text)
{
	struct fixture *f = calloc(1, sizeof(*f));
	source_from_memory(&f->src, "t.bsp", text, strlen(text));
	f->err = open_memstream(&f->errbuf, &f->errlen);
	diag_init(&f->dg, f->err, &f->src);
	bool ok;
	f->spec = parse_source(&f->src, &f->dg, &ok);
	if (ok)
		f->cs = check_spec(f->spec, &f->dg, NULL);
	diag_flush(&f->dg);
	fflush(f->err);
	return f;
}

static void unload(struct fixture *f)
{
	checked_spec_free(f->cs);
	ast_spec_free(f->spec);
	diag_free(&f->dg);
	fclose(f->err);
	free(f->errbuf);
	source_free(&f->src);
	free(f);
}

static const char matmul[] =
	"param m, n, o;\n"
	"grid M, N;\n"
	"array A[m][o], B[o][n], C[m][n];\n"
	"dist d0 = block | cyclic over M;\n"
	"dist d1 = block | cyclic over N;\n"
	"dist d2 = block | cyclic over N;\n"
	"dist d3 = block | cyclic over M;\n"
	"layout C : d0 x d1;\n"
	"layout A : d0 x d2;\n"
	"layout B : d3 x d1;\n"
	"superstep multiply {\n"
	"    forall i < m, j < n :\n"
	"        C[i][j] = sum k < o : A[i][k] * B[k][j];\n"
	"}\n";

static void test_candidates(void **state)
{
	(void)state;
	struct fixture *f = load(matmul);
	assert_non_null(f->cs);
	assert_int_equal(f->cs->ncandidates, 16);
	assert_string_equal(f->cs->candidates[0].name, "d0=block,d1=block,d2=block,d3=block");
	assert_string_equal(f->cs->candidates[1].name, "d0=block,d1=block,d2=block,d3=cyclic");
	assert_string_equal(f->cs->candidates[15].name, "d0=cyclic,d1=cyclic,d2=cyclic,d3=cyclic");
	/* candidate 1: B (array 1) is d3 x d1 = cyclic over M x block over N */
	const struct cand_array *b = &f->cs->candidates[1].arrays[1];
	assert_string_equal(b->array->name, "B");
	assert_int_equal(b->dims[0].kind, DIST_CYCLIC);
	assert_int_equal(b->dims[0].axis, 0);
	assert_int_equal(b->dims[1].kind, DIST_BLOCK);
	assert_int_equal(b->dims[1].axis, 1);
	assert_string_equal(b->dims[1].dist->name, "d1");
	unload(f);
}

static void test_references(void **state)
{
	(void)state;
	struct fixture *f = load(matmul);
	assert_non_null(f->cs);
	const struct ast_stmt *s = f->cs->supersteps[0]->stmts[0];
	assert_int_equal(s->nvars, 3); /* i, j, then the sum's k */
	assert_string_equal(s->vars[2]->name, "k");
	assert_int_equal(s->nrefs, 3);
	assert_true(s->refs[0].is_lhs);
	assert_string_equal(s->refs[1].array->name, "A");
	assert_int_equal(s->refs[1].nscopes, 2); /* the forall and the sum */
	/* A[i][k]: subscript 1 is 1*k, k being variable 2 */
	const struct affine *k = &s->refs[1].subs[1];
	assert_int_equal(k->constant, 0);
	assert_int_equal(k->nterms, 1);
	assert_int_equal(k->terms[0].kind, SYM_VAR);
	assert_int_equal(k->terms[0].index, 2);
	assert_int_equal(k->terms[0].coef, 1);
	/* the range of k: 0 <= k < o */
	assert_int_equal(s->vars[2]->lo_aff->nterms, 0);
	assert_int_equal(s->vars[2]->hi_aff->terms[0].kind, SYM_PARAM);
	assert_int_equal(s->vars[2]->hi_aff->terms[0].index, 2);
	/* names resolve to their declarations */
	const struct ast_expr *a = s->refs[1].expr;
	assert_ptr_equal(a->array, f->cs->arrays[0]);
	assert_ptr_equal(a->args[0]->var, s->vars[0]);
	unload(f);
}

static void test_affine_forms(void **state)
{
	(void)state;
	struct fixture *f = load("param n;\ngrid P;\nassume n >= 2*P + 1, n % P == 0;\n"
				 "array u[n], v[n];\nlayout u : *;\nlayout v : *;\n"
				 "superstep s {\n    forall 1 <= i < n - 1 : v[i] = u[2*(i+1) - i - 2];\n}\n");
	assert_non_null(f->cs);
	/* n >= 2*P + 1 becomes n - 2*P - 1 >= 0 */
	assert_int_equal(f->cs->nassumptions, 2);
	const struct cond_atom *a = &f->cs->assumptions[0];
	assert_int_equal(a->kind, ATOM_GE0);
	assert_int_equal(a->f.constant, -1);
	assert_int_equal(a->f.nterms, 2);
	assert_int_equal(a->f.terms[0].kind, SYM_PARAM);
	assert_int_equal(a->f.terms[0].coef, 1);
	assert_int_equal(a->f.terms[1].kind, SYM_GRID_AXIS);
	assert_int_equal(a->f.terms[1].coef, -2);
	assert_int_equal(f->cs->assumptions[1].kind, ATOM_DIVIDES);
	assert_int_equal(f->cs->assumptions[1].divisor.terms[0].kind, SYM_GRID_AXIS);
	/* 2*(i+1) - i - 2 simplifies to i */
	const struct ast_stmt *s = f->cs->supersteps[0]->stmts[0];
	const struct affine *sub = &s->refs[1].subs[0];
	assert_int_equal(sub->constant, 0);
	assert_int_equal(sub->nterms, 1);
	assert_int_equal(sub->terms[0].coef, 1);
	/* 1 <= i < n - 1: lower bound 1, exclusive upper bound n - 1 */
	assert_int_equal(s->vars[0]->lo_aff->constant, 1);
	assert_int_equal(s->vars[0]->hi_aff->constant, -1);
	char *t = affine_to_string(s->vars[0]->hi_aff, f->cs, s->vars);
	assert_string_equal(t, "n - 1");
	free(t);
	unload(f);
}

static void test_owner_predicate(void **state)
{
	(void)state;
	struct fixture *f = load("param o;\ngrid N;\narray A[o], W[N];\n"
				 "dist d2 = cyclic(4) over N;\nlayout A : d2;\nlayout W : identity over N;\n"
				 "superstep s {\n    forall v < N : W[v] = sum k < o | d2(k) == v : A[k];\n}\n");
	assert_non_null(f->cs);
	const struct ast_stmt *s = f->cs->supersteps[0]->stmts[0];
	const struct ast_expr *sum = s->rhs;
	assert_int_equal(sum->kind, EXPR_SUM);
	assert_int_equal(sum->quant->cond->natoms, 1);
	const struct cond_atom *at = &sum->quant->cond->atoms[0];
	assert_int_equal(at->kind, ATOM_OWNER);
	assert_string_equal(at->dist->name, "d2");
	assert_false(at->negated);
	assert_int_equal(at->f.terms[0].index, 1);     /* k */
	assert_int_equal(at->value.terms[0].index, 0); /* v */
	assert_int_equal(f->cs->candidates[0].arrays[0].dims[0].kind, DIST_BLOCK_CYCLIC);
	assert_int_equal(f->cs->candidates[0].arrays[0].dims[0].block, 4);
	assert_int_equal(f->cs->candidates[0].arrays[1].dims[0].kind, DIST_IDENTITY);
	assert_string_equal(f->cs->candidates[0].name, "default");
	unload(f);
}

static void test_explicit_candidates(void **state)
{
	(void)state;
	struct fixture *f = load("param n;\ngrid M, N;\narray A[n][n];\ndist d = block | cyclic over M;\n"
				 "candidate rows { layout A : d x *; }\n"
				 "candidate cols { layout A : * x block over N; }\n");
	assert_non_null(f->cs);
	assert_int_equal(f->cs->ncandidates, 4);
	assert_string_equal(f->cs->candidates[0].name, "rows/d=block");
	assert_string_equal(f->cs->candidates[3].name, "cols/d=cyclic");
	assert_int_equal(f->cs->candidates[3].arrays[0].dims[0].kind, DIST_NONE);
	assert_int_equal(f->cs->candidates[3].arrays[0].dims[0].axis, -1);
	unload(f);
}

static void test_errors_reported(void **state)
{
	(void)state;
	struct fixture *f = load("param n;\ngrid P;\narray u[n];\nlayout u : *;\n"
				 "superstep s {\n    forall i < n : u[i] = u[i + 1] + q;\n}\n");
	assert_null(f->cs);
	assert_int_equal(f->dg.nerrors, 1); /* q; the bounds check waits for a clean statement */
	assert_non_null(strstr(f->errbuf, "t.bsp:6:38: error: undefined name 'q'"));
	unload(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_references),
		cmocka_unit_test(test_affine_forms),
		cmocka_unit_test(test_owner_predicate),
		cmocka_unit_test(test_explicit_candidates),
		cmocka_unit_test(test_errors_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
