/* The bounds check: can an array reference fall outside its array?
 *
 * For each reference and each dimension, the set of points (parameters, grid
 * sizes, the variables in scope) that satisfy the assumptions, the ranges and
 * conditions of the enclosing quantifiers, and subscript < 0 (or subscript >=
 * extent) is built in ISL.  When it is not empty the reference is reported
 * with a witness: symbolic (i = n - 1) when the lexicographic extremum is one
 * affine piece, otherwise a sample point with every value.
 *
 * Assumed, besides the 'assume' facts: grid sizes and array extents are at
 * least 1.  A distribution predicate d(k) == v only contributes 0 <= v < the
 * size of d's axis, so the check may over-approximate, never miss. */
#include "analyzer/check/check_impl.h"
#include "analyzer/util/text.h"
#include "analyzer/util/val.h"

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BOUNDS_MAX_OPERATIONS 2000000ul

int bounds_init(struct checker *ck)
{
	ck->isl = isl_ctx_alloc();
	if (!ck->isl)
		return -1;
	isl_options_set_on_error(ck->isl, ISL_ON_ERROR_CONTINUE);
	isl_ctx_set_max_operations(ck->isl, BOUNDS_MAX_OPERATIONS);
	return 0;
}

void bounds_done(struct checker *ck)
{
	if (ck->isl)
		isl_ctx_free(ck->isl);
	ck->isl = NULL;
}

/* ISL names: P<k> parameters, G<k> grid sizes, V<k> variables. */
static void put_affine(FILE *out, const struct affine *f)
{
	fprintf(out, "(%lld", f->constant);
	for (int i = 0; i < f->nterms; i++) {
		const struct affine_term *t = &f->terms[i];
		char c = t->kind == SYM_PARAM ? 'P' : t->kind == SYM_GRID_AXIS ? 'G' : 'V';
		fprintf(out, " + %lld*%c%d", t->coef, c, t->index);
	}
	fputc(')', out);
}

static void put_atom(FILE *out, const struct cond_atom *a, const struct checked_spec *cs)
{
	switch (a->kind) {
	case ATOM_GE0:
		put_affine(out, &a->f);
		fputs(" >= 0", out);
		break;
	case ATOM_EQ0:
		put_affine(out, &a->f);
		fputs(" = 0", out);
		break;
	case ATOM_NE0:
		fputs("(", out);
		put_affine(out, &a->f);
		fputs(" <= -1 or ", out);
		put_affine(out, &a->f);
		fputs(" >= 1)", out);
		break;
	case ATOM_DIVIDES:
		if (a->divisor.nterms == 0) {
			put_affine(out, &a->f);
			fprintf(out, " mod %lld = 0", a->divisor.constant);
		} else {
			fputs("0 = 0", out); /* a symbolic divisor is not affine: left out */
		}
		break;
	case ATOM_OWNER:
		if (a->negated || !a->dist->axis) {
			fputs("0 = 0", out);
		} else {
			put_affine(out, &a->value);
			fprintf(out, " >= 0 and ");
			put_affine(out, &a->value);
			fprintf(out, " < G%d", a->dist->axis->index);
		}
		break;
	}
	(void)cs;
}

/* The constraints of the domain of REF: assumptions, ranges, conditions. */
static void put_domain(FILE *out, const struct checked_spec *cs, const struct ref_info *ref)
{
	fputs("0 = 0", out);
	for (int g = 0; g < cs->naxes; g++)
		fprintf(out, " and G%d >= 1", g);
	for (int a = 0; a < cs->narrays; a++)
		for (int d = 0; d < cs->arrays[a]->rank; d++) {
			if (!cs->arrays[a]->extents[d]->aff)
				continue;
			fputs(" and ", out);
			put_affine(out, cs->arrays[a]->extents[d]->aff);
			fputs(" >= 1", out);
		}
	for (int i = 0; i < cs->nassumptions; i++) {
		fputs(" and ", out);
		put_atom(out, &cs->assumptions[i], cs);
	}
	for (int s = 0; s < ref->nscopes; s++) {
		const struct ast_quant *q = ref->scopes[s];
		for (int v = 0; v < q->nvars; v++) {
			fputs(" and ", out);
			put_affine(out, q->vars[v]->lo_aff);
			fprintf(out, " <= V%d < ", q->vars[v]->index);
			put_affine(out, q->vars[v]->hi_aff);
		}
		for (int k = 0; q->cond && k < q->cond->natoms; k++) {
			fputs(" and ", out);
			put_atom(out, &q->cond->atoms[k], cs);
		}
	}
}

static char *set_text(const struct checked_spec *cs, const struct ref_info *ref, int dim, bool upper,
		      bool params_as_dims)
{
	struct text txt;
	if (text_open(&txt) < 0)
		abort();
	FILE *out = txt.f;
	const char *sep = "";
	if (!params_as_dims) {
		fputs("[", out);
		for (int p = 0; p < cs->nparams; p++, sep = ", ")
			fprintf(out, "%sP%d", sep, p);
		for (int g = 0; g < cs->naxes; g++, sep = ", ")
			fprintf(out, "%sG%d", sep, g);
		fputs("] -> ", out);
		sep = "";
	}
	fputs("{ [", out);
	if (params_as_dims) {
		for (int p = 0; p < cs->nparams; p++, sep = ", ")
			fprintf(out, "%sP%d", sep, p);
		for (int g = 0; g < cs->naxes; g++, sep = ", ")
			fprintf(out, "%sG%d", sep, g);
	}
	for (int s = 0; s < ref->nscopes; s++)
		for (int v = 0; v < ref->scopes[s]->nvars; v++, sep = ", ")
			fprintf(out, "%sV%d", sep, ref->scopes[s]->vars[v]->index);
	fputs("] : ", out);
	put_domain(out, cs, ref);
	fputs(" and ", out);
	put_affine(out, &ref->subs[dim]);
	if (upper) {
		fputs(" >= ", out);
		put_affine(out, ref->array->extents[dim]->aff);
	} else {
		fputs(" <= -1", out);
	}
	fputs(" }", out);
	return text_close(&txt);
}

/* An isl_aff over the parameters as our affine form, if it is one (no
 * division, integer coefficients). */
static bool aff_from_isl(struct checker *ck, isl_aff *aff, struct affine *out)
{
	if (!aff || isl_aff_dim(aff, isl_dim_div) != 0 || isl_aff_dim(aff, isl_dim_in) != 0)
		return false;
	isl_val *den = isl_aff_get_denominator_val(aff);
	bool one = den && isl_val_is_one(den) == isl_bool_true;
	isl_val_free(den);
	if (!one)
		return false;
	isl_size np = isl_aff_dim(aff, isl_dim_param);
	if (np < 0)
		return false;
	out->nterms = 0;
	out->terms = arena_alloc(ck->arena, (size_t)np * sizeof(*out->terms) + 1);
	if (!val_to_ll(isl_aff_get_constant_val(aff), &out->constant))
		return false;
	for (int k = 0; k < np; k++) {
		long long c;
		if (!val_to_ll(isl_aff_get_coefficient_val(aff, isl_dim_param, k), &c))
			return false;
		if (c == 0)
			continue;
		const char *name = isl_aff_get_dim_name(aff, isl_dim_param, k);
		if (!name || (name[0] != 'P' && name[0] != 'G'))
			return false;
		out->terms[out->nterms++] = (struct affine_term){name[0] == 'P' ? SYM_PARAM : SYM_GRID_AXIS,
								 atoi(name + 1), c};
	}
	/* our canonical order: parameters, then grid sizes, by index */
	for (int i = 1; i < out->nterms; i++)
		for (int j = i; j > 0; j--) {
			struct affine_term *a = &out->terms[j - 1], *b = &out->terms[j];
			if (a->kind < b->kind || (a->kind == b->kind && a->index <= b->index))
				break;
			struct affine_term t = *a;
			*a = *b;
			*b = t;
		}
	return true;
}

struct piece_data {
	isl_multi_aff *ma;
};

static isl_stat grab_piece(isl_set *set, isl_multi_aff *ma, void *user)
{
	struct piece_data *d = user;
	isl_set_free(set);
	isl_multi_aff_free(d->ma);
	d->ma = ma;
	return isl_stat_ok;
}

/* "i = n - 1" for the variables of the subscript, or NULL. */
static char *symbolic_witness(struct checker *ck, isl_set *set, const struct ref_info *ref, int dim,
			      bool upper, const struct ast_stmt *s)
{
	const struct affine *sub = &ref->subs[dim];
	bool has_var = false;
	for (int i = 0; i < sub->nterms; i++)
		has_var |= sub->terms[i].kind == SYM_VAR;
	if (!has_var)
		return NULL;
	isl_pw_multi_aff *pma = upper ? isl_set_lexmax_pw_multi_aff(isl_set_copy(set))
				      : isl_set_lexmin_pw_multi_aff(isl_set_copy(set));
	if (!pma || isl_pw_multi_aff_n_piece(pma) != 1) {
		isl_pw_multi_aff_free(pma);
		return NULL;
	}
	struct piece_data d = {NULL};
	isl_pw_multi_aff_foreach_piece(pma, grab_piece, &d);
	isl_pw_multi_aff_free(pma);
	if (!d.ma)
		return NULL;
	struct text txt;
	if (text_open(&txt) < 0)
		abort();
	FILE *out = txt.f;
	bool ok = true;
	const char *sep = "";
	int pos = 0;
	for (int sc = 0; sc < ref->nscopes && ok; sc++)
		for (int v = 0; v < ref->scopes[sc]->nvars && ok; v++, pos++) {
			const struct ast_var *var = ref->scopes[sc]->vars[v];
			bool in_sub = false;
			for (int i = 0; i < sub->nterms; i++)
				in_sub |= sub->terms[i].kind == SYM_VAR && sub->terms[i].index == var->index;
			if (!in_sub)
				continue;
			struct affine f;
			isl_aff *aff = isl_multi_aff_get_at(d.ma, pos);
			ok = aff_from_isl(ck, aff, &f);
			isl_aff_free(aff);
			if (!ok)
				break;
			char *t = affine_to_string(&f, ck->cs, s->vars);
			fprintf(out, "%s%s = %s", sep, var->name, t);
			free(t);
			sep = ", ";
		}
	char *buf = text_close(&txt);
	isl_multi_aff_free(d.ma);
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* "n = 2, P = 1, i = 1": one point of SET (all of whose dimensions are
 * parameters, grid sizes, then the variables in scope). */
static char *sample_witness(struct checker *ck, isl_set *flat, const struct ref_info *ref)
{
	const struct checked_spec *cs = ck->cs;
	isl_point *pt = isl_set_sample_point(flat);
	if (!pt || isl_point_is_void(pt) != isl_bool_false) {
		isl_point_free(pt);
		return NULL;
	}
	struct text txt;
	if (text_open(&txt) < 0)
		abort();
	FILE *out = txt.f;
	int pos = 0;
	const char *sep = "";
	bool ok = true;
	for (int p = 0; p < cs->nparams + cs->naxes && ok; p++, pos++) {
		long long v;
		ok = val_to_ll(isl_point_get_coordinate_val(pt, isl_dim_set, pos), &v);
		const char *name = p < cs->nparams ? cs->params[p]->name : cs->axes[p - cs->nparams]->name;
		fprintf(out, "%s%s = %lld", sep, name, v);
		sep = ", ";
	}
	for (int sc = 0; sc < ref->nscopes && ok; sc++)
		for (int v = 0; v < ref->scopes[sc]->nvars && ok; v++, pos++) {
			long long x;
			ok = val_to_ll(isl_point_get_coordinate_val(pt, isl_dim_set, pos), &x);
			fprintf(out, "%s%s = %lld", sep, ref->scopes[sc]->vars[v]->name, x);
		}
	char *buf = text_close(&txt);
	isl_point_free(pt);
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void isl_trouble(struct checker *ck, const struct ref_info *ref)
{
	const char *msg = isl_ctx_last_error_msg(ck->isl);
	char *t = expr_to_string(ref->expr);
	diag_warning(ck->dg, ref->expr->span, "could not check the bounds of '%s' (ISL: %s)", t,
		     msg ? msg : "operation limit reached");
	free(t);
	isl_ctx_reset_error(ck->isl);
}

/* Returns true when it reported something for REF. */
static bool check_one(struct checker *ck, const struct ast_stmt *s, const struct ref_info *ref, int dim,
		      bool upper)
{
	isl_ctx_reset_operations(ck->isl);
	char *text = set_text(ck->cs, ref, dim, upper, false);
	isl_set *set = isl_set_read_from_str(ck->isl, text);
	free(text);
	isl_bool empty = set ? isl_set_is_empty(set) : isl_bool_error;
	if (empty == isl_bool_error) {
		isl_set_free(set);
		isl_trouble(ck, ref);
		return true;
	}
	if (empty == isl_bool_true) {
		isl_set_free(set);
		return false;
	}
	char *witness = symbolic_witness(ck, set, ref, dim, upper, s);
	isl_set_free(set);
	if (!witness) {
		isl_ctx_reset_operations(ck->isl);
		text = set_text(ck->cs, ref, dim, upper, true);
		witness = sample_witness(ck, isl_set_read_from_str(ck->isl, text), ref);
		free(text);
	}
	char *rt = expr_to_string(ref->expr);
	char *st = expr_to_string(ref->expr->args[dim]);
	if (upper) {
		char *et = expr_to_string(ref->array->extents[dim]);
		diag_error(ck->dg, ref->expr->span, "'%s' is out of bounds%s%s: subscript %s must be less than %s",
			   rt, witness ? " for " : "", witness ? witness : "", st, et);
		free(et);
	} else {
		diag_error(ck->dg, ref->expr->span, "'%s' is out of bounds%s%s: subscript %s must not be negative",
			   rt, witness ? " for " : "", witness ? witness : "", st);
	}
	isl_ctx_reset_error(ck->isl);
	free(rt);
	free(st);
	free(witness);
	return true;
}

void check_stmt_bounds(struct checker *ck, const struct ast_stmt *s)
{
	if (!ck->isl_ready || !ck->isl)
		return;
	for (int r = 0; r < s->nrefs; r++) {
		const struct ref_info *ref = &s->refs[r];
		bool reported = false;
		for (int d = 0; d < ref->array->rank && !reported; d++) {
			if (!ref->array->extents[d]->aff)
				break;
			reported = check_one(ck, s, ref, d, false) || check_one(ck, s, ref, d, true);
		}
	}
}
