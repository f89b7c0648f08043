/* Formulas from ISL: a piecewise quasi-polynomial becomes a formula whose ring
 * holds the quasi-polynomial's parameters, in order, and one floor atom per
 * division (a first pass over the terms bounds the number of atoms, since a
 * ring's size is fixed when it is made); ISL's values become FLINT rationals. */
#include <stdlib.h>

#include <isl/aff.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/val_gmp.h>

#include "analyzer/formula/formula_internal.h"
#include "analyzer/util/coalesce.h"

/* ---------------------------------------------------------------- from ISL */

void fml_val_to_fmpq(fmpq_t out, __isl_take isl_val *v)
{
	mpz_t n, d;

	mpz_init(n);
	mpz_init(d);
	isl_val_get_num_gmp(v, n);
	isl_val_get_den_gmp(v, d);
	fmpz_set_mpz(fmpq_numref(out), n);
	fmpz_set_mpz(fmpq_denref(out), d);
	fmpq_canonicalise(out);
	mpz_clear(n);
	mpz_clear(d);
	isl_val_free(v);
}

static int count_aff_divs(__isl_keep isl_aff *aff)
{
	isl_size nd = isl_aff_dim(aff, isl_dim_div);
	int k, total = 0;

	for (k = 0; k < nd; k++) {
		isl_aff *d = isl_aff_get_div(aff, k);
		total += 1 + count_aff_divs(d);
		isl_aff_free(d);
	}
	return total;
}

/* The value of AFF (taken; the argument of a division, so without a floor of
 * its own) over V, whose first variables are the parameters of AFF's space in
 * order; divisions inside AFF become floor atoms. */
static struct fnode *from_aff(struct fvars *V, __isl_take isl_aff *aff)
{
	isl_size np = isl_aff_dim(aff, isl_dim_param);
	isl_size nd = isl_aff_dim(aff, isl_dim_div);
	struct fnode *r;
	fmpq_t c;
	int i;

	if (!aff || np < 0 || nd < 0) {
		isl_aff_free(aff);
		return NULL;
	}
	fmpq_init(c);
	fml_val_to_fmpq(c, isl_aff_get_constant_val(aff));
	r = fml_poly_fmpq(V, c);
	for (i = 0; i < np && r; i++) {
		fml_val_to_fmpq(c, isl_aff_get_coefficient_val(aff, isl_dim_param, i));
		if (!fmpq_is_zero(c))
			r = fml_add_take(V, r, fml_mul_take(V, fml_poly_fmpq(V, c),
				fml_poly_var(V, i)));
	}
	for (i = 0; i < nd && r; i++) {
		fml_val_to_fmpq(c, isl_aff_get_coefficient_val(aff, isl_dim_div, i));
		if (!fmpq_is_zero(c))
			r = fml_add_take(V, r, fml_mul_take(V, fml_poly_fmpq(V, c),
				fml_floor_take(V, from_aff(V, isl_aff_get_div(aff, i)))));
	}
	fmpq_clear(c);
	isl_aff_free(aff);
	return r;
}

struct term_data {
	struct fvars *V;
	struct fnode *sum;
	int atoms; /* counting pass: an upper bound on the atoms needed */
	int counting;
};

static isl_stat term_fn(__isl_take isl_term *term, void *user)
{
	struct term_data *data = user;
	struct fvars *V = data->V;
	isl_size np = isl_term_dim(term, isl_dim_param);
	isl_size nd = isl_term_dim(term, isl_dim_div);
	struct fnode *t;
	fmpq_t c;
	int i;

	if (np < 0 || nd < 0) {
		isl_term_free(term);
		return isl_stat_error;
	}
	if (data->counting) {
		for (i = 0; i < nd; i++) {
			isl_aff *d = isl_term_get_div(term, i);
			data->atoms += 1 + count_aff_divs(d);
			isl_aff_free(d);
		}
		isl_term_free(term);
		return isl_stat_ok;
	}
	fmpq_init(c);
	fml_val_to_fmpq(c, isl_term_get_coefficient_val(term));
	t = fml_poly_fmpq(V, c);
	fmpq_clear(c);
	for (i = 0; i < np && t; i++) {
		int e = isl_term_get_exp(term, isl_dim_param, i);
		if (e > 0) {
			struct fnode *x = fml_poly_var(V, i);
			if (!x)
				fml_node_free(V, t); /* a failure (the deadline's abort, memory) */
			t = x ? fml_mul_take(V, t, fml_pow(V, x, e)) : NULL;
			fml_node_free(V, x);
		}
	}
	for (i = 0; i < nd && t; i++) {
		int e = isl_term_get_exp(term, isl_dim_div, i);
		if (e > 0) {
			struct fnode *x = fml_floor_take(V,
				from_aff(V, isl_term_get_div(term, i)));
			if (!x)
				fml_node_free(V, t); /* a failure (the deadline's abort, memory) */
			t = x ? fml_mul_take(V, t, fml_pow(V, x, e)) : NULL;
			fml_node_free(V, x);
		}
	}
	isl_term_free(term);
	data->sum = fml_add_take(V, data->sum, t);
	return data->sum ? isl_stat_ok : isl_stat_error;
}

static isl_stat count_piece_fn(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp,
	void *user)
{
	isl_stat r = isl_qpolynomial_foreach_term(qp, &term_fn, user);

	isl_set_free(set);
	isl_qpolynomial_free(qp);
	return r;
}

struct piece_data {
	struct formula *f;
	int size;
};

static isl_stat piece_fn(__isl_take isl_set *set, __isl_take isl_qpolynomial *qp, void *user)
{
	struct piece_data *data = user;
	struct term_data td = { data->f->vars, NULL, 0, 0 };
	isl_stat r;

	td.sum = fml_poly_zero(td.V);
	r = td.sum ? isl_qpolynomial_foreach_term(qp, &term_fn, &td) : isl_stat_error;
	isl_qpolynomial_free(qp);
	set = coalesce_set(set);
	if (r < 0 || !set) {
		isl_set_free(set);
		fml_node_free(td.V, td.sum);
		return isl_stat_error;
	}
	return fml_push_piece(data->f, &data->size, set, td.sum) < 0 ?
		isl_stat_error : isl_stat_ok;
}

int formula_pw_qpolynomial_too_large(__isl_keep isl_pw_qpolynomial *pwqp)
{
	struct term_data count = { NULL, NULL, 0, 1 };
	isl_size np = isl_pw_qpolynomial_dim(pwqp, isl_dim_param);

	if (np < 0 || isl_pw_qpolynomial_foreach_piece(pwqp, &count_piece_fn, &count) < 0)
		return -1;
	return np + count.atoms > FML_MAX_VARS;
}

static struct formula *from_pwqp(__isl_keep isl_pw_qpolynomial *pwqp,
	enum formula_outside outside)
{
	isl_space *space;
	isl_size np, nin;
	struct term_data count = { NULL, NULL, 0, 1 };
	struct piece_data data = { NULL, 0 };
	struct fvars *V;
	int i;

	if (!pwqp)
		return NULL;
	nin = isl_pw_qpolynomial_dim(pwqp, isl_dim_in);
	np = isl_pw_qpolynomial_dim(pwqp, isl_dim_param);
	if (nin != 0 || np < 0)
		return NULL;
	if (isl_pw_qpolynomial_foreach_piece(pwqp, &count_piece_fn, &count) < 0)
		return NULL;
	V = fml_vars_new(np + count.atoms);
	if (!V)
		return NULL;
	space = isl_pw_qpolynomial_get_space(pwqp);
	for (i = 0; i < np; i++)
		if (fml_vars_param(V, isl_space_get_dim_name(space, isl_dim_param, i))
		    != i) {
			isl_space_free(space);
			fml_vars_unref(V);
			return NULL;
		}
	isl_space_free(space);
	data.f = fml_formula_alloc(V, 0);
	if (!data.f)
		return NULL;
	free(data.f->p);
	data.f->p = NULL;
	data.f->outside = outside;
	if (isl_pw_qpolynomial_foreach_piece(pwqp, &piece_fn, &data) < 0) {
		formula_free(data.f);
		return NULL;
	}
	return data.f;
}

struct formula *formula_from_pw_qpolynomial(__isl_keep isl_pw_qpolynomial *pwqp)
{
	return from_pwqp(pwqp, FORMULA_UNDEFINED_OUTSIDE);
}

struct formula *formula_from_pw_qpolynomial_zero_outside(
	__isl_keep isl_pw_qpolynomial *pwqp)
{
	return from_pwqp(pwqp, FORMULA_ZERO_OUTSIDE);
}
