/* The words each process holds: see memory.h. */
#include "analyzer/cost/memory.h"

#include "analyzer/cost/cost_internal.h"

#include <stdlib.h>

struct formula *cost_aff_formula(const struct model *m, const struct model_aff *f,
				 const long *sizes)
{
	struct formula *r = formula_const_si((long)f->constant);
	for (int t = 0; r && t < f->nterms; t++) {
		const struct model_term *x = &f->terms[t];
		struct formula *v = x->kind == MODEL_PARAM ? formula_param(m->params[x->index])
				  : sizes ? formula_const_si(sizes[x->index])
					  : formula_param(m->axes[x->index]);
		struct formula *c = formula_const_si((long)x->coef);
		struct formula *cv = formula_mul(c, v);
		struct formula *s = formula_add(r, cv);
		formula_free(v);
		formula_free(c);
		formula_free(cv);
		formula_free(r);
		r = s;
	}
	return r;
}

/* ---- the kinds' shares in formulas (dist_arith) ------------------------ */

static void *f_constant(void *user, long c)
{
	(void)user;
	return formula_const_si(c);
}

static void *f_param(void *user, int index)
{
	const struct model *m = user;
	return formula_param(m->params[index]);
}

static void *f_copy(void *user, const void *a)
{
	(void)user;
	return formula_copy(a);
}

static void f_free(void *user, void *a)
{
	(void)user;
	formula_free(a);
}

/* OP(A, B), both freed. */
static void *f_apply(struct formula *(*op)(const struct formula *, const struct formula *),
		     void *a, void *b)
{
	struct formula *r = op(a, b);   /* NULL in, NULL out */
	formula_free(a);
	formula_free(b);
	return r;
}

static void *f_add(void *user, void *a, void *b)
{
	(void)user;
	return f_apply(formula_add, a, b);
}

static void *f_sub(void *user, void *a, void *b)
{
	(void)user;
	return f_apply(formula_sub, a, b);
}

static void *f_mul(void *user, void *a, void *b)
{
	(void)user;
	return f_apply(formula_mul, a, b);
}

static void *f_min(void *user, void *a, void *b)
{
	(void)user;
	return f_apply(formula_min, a, b);
}

/* floor(A / B), B a positive formula (a constant or an axis). */
static void *f_floor_div(void *user, void *a, void *b)
{
	(void)user;
	struct formula *inv = formula_pow(b, -1);
	struct formula *q = formula_mul(a, inv);
	struct formula *r = formula_floor(q);
	formula_free(inv);
	formula_free(q);
	formula_free(a);
	formula_free(b);
	return r;
}

static struct dist_arith formula_arith(const struct model *m)
{
	return (struct dist_arith){(void *)m, f_constant, f_param, f_copy, f_add, f_sub,
				   f_mul, f_floor_div, f_min, f_free};
}

/* Whether D splits its extent into blocks of a length of its own (the
 * symbolic grid's DIGIT_LOCAL), X/P or X/(P*b). */
static bool split_in_blocks(const struct dist *d)
{
	const struct digits *dg = &dist_ops(d->kind)->digits;
	for (int k = 0; k < dg->n; k++)
		if (dg->size[k] == DIGIT_LOCAL)
			return true;
	return false;
}

/* Whether INFO assumes that dimension distribution D of extent X is whole
 * blocks on every process. */
static bool assumed_whole(const struct symbolic_info *info, const struct dist *d,
			  const struct model_aff *x)
{
	for (int i = 0; info && i < info->nlocals; i++) {
		const struct local_param *lp = &info->locals[i];
		if (split_in_blocks(d) && lp->digit < 0 && (lp->axis == d->axis || (d->axis < 32 && lp->axes >> d->axis & 1)) &&
		    lp->block_param == d->block_param &&
		    (d->block_param >= 0 || lp->block == dist_block_length(d)) &&
		    model_aff_equal(&lp->extent_aff, x))
			return true;
	}
	return false;
}

struct formula *memory_words(const struct model *m, int cand, const bool take[],
			     const long *sizes, const struct symbolic_info *info,
			     const bool *whole)
{
	const struct model_candidate *mc = &m->cands[cand];
	struct dist_arith ar = formula_arith(m);
	struct formula *total = formula_const_si(0);
	for (int a = 0; total && a < m->narrays; a++) {
		if (!take[a] || !model_cand_has(m, cand, a))
			continue;
		const struct model_array *arr = &m->arrays[a];
		struct formula *prod = formula_const_si((long)arr->words);
		for (int d = 0; prod && d < arr->ndims; d++) {
			const struct dist *dd = &mc->layout[a][d];
			struct formula *x = cost_aff_formula(m, &arr->extent_affs[d], sizes);
			struct formula *p = dd->axis < 0 ? formula_const_si(1)   /* not distributed */
					  : sizes ? formula_const_si(sizes[dd->axis])
						  : formula_param(m->axes[dd->axis]);
			bool blocks = !sizes && (assumed_whole(info, dd, &arr->extent_affs[d]) ||
						 (whole && whole[a] && split_in_blocks(dd)));
			struct formula *inv = blocks ? formula_pow(p, -1) : NULL;
			/* X = P over P: one element each */
			bool one = !sizes && model_dist_is_identity(dd, &arr->extent_affs[d]);
			struct formula *share;
			if (one || inv) {
				share = one ? formula_const_si(1) : formula_mul(x, inv);   /* X/P */
				formula_free(x);
				formula_free(p);
			} else {   /* the kind's own share; it takes X and P */
				share = dist_ops(dd->kind)->share(dd, &ar, x, p);
			}
			formula_free(inv);
			struct formula *next = formula_mul(prod, share);
			formula_free(share);
			formula_free(prod);
			prod = next;
		}
		struct formula *next = formula_add(total, prod);
		formula_free(prod);
		formula_free(total);
		total = next;
	}
	return total;
}

void memory_step_arrays(const struct model *m, int step, bool take[])
{
	for (int a = 0; a < m->narrays; a++)
		take[a] = false;
	const struct model_superstep *s = &m->steps[step];
	for (int i = 0; i < s->nstmts; i++) {
		take[s->stmts[i].lhs.array] = true;
		for (int r = 0; r < s->stmts[i].nreads; r++)
			take[s->stmts[i].reads[r].array] = true;
	}
}

/* ---- the kinds' shares at values (dist_arith): GMP integers ----------- */

static mpz_ptr v_new(void)
{
	mpz_ptr z = malloc(sizeof(*z));
	if (z)
		mpz_init(z);
	return z;
}

static void v_free(void *user, void *a)
{
	(void)user;
	if (a) {
		mpz_clear(a);
		free(a);
	}
}

static void *v_constant(void *user, long c)
{
	(void)user;
	mpz_ptr z = v_new();
	if (z)
		mpz_set_si(z, c);
	return z;
}

static void *v_param(void *user, int index)
{
	const long long *values = user;
	return v_constant(NULL, (long)values[index]);
}

static void *v_copy(void *user, const void *a)
{
	(void)user;
	mpz_ptr z = a ? v_new() : NULL;
	if (z)
		mpz_set(z, a);
	return z;
}

/* OP(A, B) into A, B freed; NULL (both freed) when either is NULL or
 * when OP says no (nonzero). */
static void *v_apply(int (*op)(mpz_ptr, mpz_srcptr), void *a, void *b)
{
	if (!a || !b || op(a, b) != 0) {
		v_free(NULL, a);
		v_free(NULL, b);
		return NULL;
	}
	v_free(NULL, b);
	return a;
}

static int op_add(mpz_ptr a, mpz_srcptr b)
{
	mpz_add(a, a, b);
	return 0;
}

static int op_sub(mpz_ptr a, mpz_srcptr b)
{
	mpz_sub(a, a, b);
	return 0;
}

static int op_mul(mpz_ptr a, mpz_srcptr b)
{
	mpz_mul(a, a, b);
	return 0;
}

static int op_min(mpz_ptr a, mpz_srcptr b)
{
	if (mpz_cmp(b, a) < 0)
		mpz_set(a, b);
	return 0;
}

/* a block of b < 1, a grid axis of no process: no share */
static int op_floor_div(mpz_ptr a, mpz_srcptr b)
{
	if (mpz_sgn(b) <= 0)
		return -1;
	mpz_fdiv_q(a, a, b);
	return 0;
}

static void *v_add(void *user, void *a, void *b)
{
	(void)user;
	return v_apply(op_add, a, b);
}

static void *v_sub(void *user, void *a, void *b)
{
	(void)user;
	return v_apply(op_sub, a, b);
}

static void *v_mul(void *user, void *a, void *b)
{
	(void)user;
	return v_apply(op_mul, a, b);
}

static void *v_floor_div(void *user, void *a, void *b)
{
	(void)user;
	return v_apply(op_floor_div, a, b);
}

static void *v_min(void *user, void *a, void *b)
{
	(void)user;
	return v_apply(op_min, a, b);
}

static struct dist_arith value_arith(const long long *values)
{
	return (struct dist_arith){(void *)values, v_constant, v_param, v_copy, v_add, v_sub,
				   v_mul, v_floor_div, v_min, v_free};
}

/* *OUT = F at the values (OUT initialized). */
static void aff_at(const struct model_aff *f, const long *sizes, const long long *values, mpz_t out)
{
	mpz_set_si(out, (long)f->constant);
	for (int t = 0; t < f->nterms; t++) {
		const struct model_term *x = &f->terms[t];
		long v = x->kind == MODEL_PARAM ? (long)values[x->index] : sizes[x->index];
		mpz_t term;
		mpz_init_set_si(term, v);
		mpz_mul_si(term, term, (long)x->coef);
		mpz_add(out, out, term);
		mpz_clear(term);
	}
}

int memory_words_at(const struct model *m, int cand, const bool take[], const long *sizes,
		    const long long *values, mpz_t out)
{
	const struct model_candidate *mc = &m->cands[cand];
	struct dist_arith ar = value_arith(values);
	mpz_t prod;
	mpz_init(prod);
	mpz_set_ui(out, 0);
	int r = 0;
	for (int a = 0; a < m->narrays && r == 0; a++) {
		if (!take[a] || !model_cand_has(m, cand, a))
			continue;
		const struct model_array *arr = &m->arrays[a];
		mpz_set_si(prod, (long)arr->words);
		for (int d = 0; d < arr->ndims && r == 0; d++) {
			const struct dist *dd = &mc->layout[a][d];
			mpz_ptr x = v_new();
			if (x)
				aff_at(&arr->extent_affs[d], sizes, values, x);
			if (!x || mpz_sgn(x) <= 0) {
				v_free(NULL, x);
				r = -1;
				break;
			}
			mpz_ptr share = dist_ops(dd->kind)->share(
				dd, &ar, x, v_constant(NULL, dd->axis < 0 ? 1 : sizes[dd->axis]));
			if (!share)
				r = -1;
			else
				mpz_mul(prod, prod, share);
			v_free(NULL, share);
		}
		mpz_add(out, out, prod);
	}
	mpz_clear(prod);
	return r;
}
