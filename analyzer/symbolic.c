/* Relations on a symbolic grid (see symbolic.h for the idea and its limits).
 *
 * For each relation (a read, a term of work, an array's ownership) every variable
 * gets at most one decomposition: the distribution of a distributed dimension it
 * subscripts (in the left-hand side, in the read array) or of a distribution
 * predicate it is the index of.  Its digits replace it; conditions on it become
 * conditions on the digits; a subscript v + c becomes digits with a carry.  All of
 * it is printed as ISL text and parsed: a read as the composition of its
 * instances { P[q] -> [digits] } (shared by the reads of a statement, parsed
 * once) with the element each instance reads { [digits] -> A[...] }. */
#define _GNU_SOURCE /* asprintf, vasprintf */
#include "analyzer/symbolic.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/text.h"

/* An affine form over the variables of a space, the parameters and the axes. */
struct lin {
	long long constant;
	long long *var;   /* [nvars] */
	long long *par;   /* [nparams + naxes] */
};

/* How one variable is written: plain (kind DIST_NONE) or as digits of dist d. */
struct decomp {
	struct dist d;
	const char *extent;
};

/* The working state of one relation. */
struct sym {
	isl_ctx *ctx;
	const struct model *m;
	const struct model_candidate *c;
	struct symbolic_info *info;
	int status;         /* 0, 1 refused, -1 failed */
	char *reason;
	int nvars;
	char *const *vars;
	struct decomp *dec; /* [nvars] */
	int fresh;          /* counter for result digit names */
};

/* Array element structure in one step: per dimension, the decomposition used. */
struct elem_shape {
	bool set;
	struct decomp dim[MODEL_MAX_DIMS];
};

static void sym_stop(struct sym *s, int status, const char *fmt, ...)
{
	if (s->status != 0)
		return;
	s->status = status;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&s->reason, fmt, ap) < 0)
		s->reason = NULL;
	va_end(ap);
}

static int npar(const struct model *m)
{
	return m->nparams + m->naxes;
}

static const char *par_name(const struct model *m, int p)
{
	return p < m->nparams ? m->params[p] : m->axes[p - m->nparams];
}

static void print_params(FILE *out, const struct model *m, const struct symbolic_info *info)
{
	fputs("[", out);
	print_model_param_list(out, m);
	for (int l = 0; l < info->nlocals; l++)
		fprintf(out, ", %s", info->locals[l].name);
	fputs("] -> ", out);
}

static void print_vars(FILE *out, int n, char *const vars[])
{
	fputs("[", out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", vars[i]);
	fputs("]", out);
}

static bool same_decomp(const struct decomp *a, const struct decomp *b)
{
	if (a->d.kind != b->d.kind)
		return false;
	if (a->d.kind == DIST_NONE)
		return true;
	return a->d.axis == b->d.axis && a->d.block == b->d.block &&
	       strcmp(a->extent, b->extent) == 0;
}

static const char *kind_name(const struct dist *d)
{
	return dist_ops(d->kind)->name;
}

/* ---- affine forms ------------------------------------------------------- */

static void lin_free(struct lin *l)
{
	free(l->var);
	free(l->par);
}

static int val_to_ll(__isl_take isl_val *v, long long *out)
{
	if (!v || !isl_val_is_int(v)) {
		isl_val_free(v);
		return -1;
	}
	*out = isl_val_get_num_si(v);
	isl_val_free(v);
	return 0;
}

/* Opens T with "[params] -> { [vars of S]": the start of a set or a map over
 * the current variables, to be finished by the caller. */
static int open_space(struct text *t, const struct sym *s)
{
	if (text_open(t) < 0)
		return -1;
	print_model_params(t->f, s->m);
	fputs("{ ", t->f);
	print_vars(t->f, s->nvars, s->vars);
	return 0;
}

/* TEXT (an affine expression over the space's variables) as a lin. */
static int parse_lin(struct sym *s, const char *text, struct lin *out)
{
	struct text t;
	const struct model *m = s->m;
	out->var = calloc((size_t)s->nvars + 1, sizeof(*out->var));
	out->par = calloc((size_t)npar(m) + 1, sizeof(*out->par));
	if (!out->var || !out->par || open_space(&t, s) < 0) {
		sym_stop(s, -1, "out of memory");
		return -1;
	}
	fprintf(t.f, " -> [(%s)] }", text);
	char *str = text_close(&t);
	isl_aff *aff = str ? isl_aff_read_from_str(s->ctx, str) : NULL;
	free(str);
	if (!aff) {
		isl_ctx_reset_error(s->ctx);
		sym_stop(s, 1, "the expression '%s' is not affine", text);
		return -1;
	}
	int bad = isl_aff_dim(aff, isl_dim_div) != 0;
	for (int v = 0; v < s->nvars && !bad; v++)
		bad = val_to_ll(isl_aff_get_coefficient_val(aff, isl_dim_in, v), &out->var[v]) < 0;
	for (int p = 0; p < npar(m) && !bad; p++)
		bad = val_to_ll(isl_aff_get_coefficient_val(aff, isl_dim_param, p), &out->par[p]) < 0;
	if (!bad)
		bad = val_to_ll(isl_aff_get_constant_val(aff), &out->constant) < 0;
	isl_aff_free(aff);
	if (bad) {
		sym_stop(s, 1, "the expression '%s' has a division, which the symbolic grid cannot split",
			 text);
		return -1;
	}
	return 0;
}

/* The single variable of L (coefficient 1) with no parameters: L = var + *c.
 * Returns the variable, -2 for a constant, -1 otherwise. */
static int lin_var_plus_const(const struct sym *s, const struct lin *l, long long *c)
{
	int var = -2;
	for (int p = 0; p < npar(s->m); p++)
		if (l->par[p])
			return -1;
	for (int v = 0; v < s->nvars; v++) {
		if (!l->var[v])
			continue;
		if (l->var[v] != 1 || var != -2)
			return -1;
		var = v;
	}
	*c = l->constant;
	return var;
}

/* ---- decompositions ------------------------------------------------------ */

static void assign(struct sym *s, int v, const struct dist *d, const char *extent,
		   const char *where)
{
	struct decomp want = {*d, extent};
	struct decomp *have = &s->dec[v];
	if (have->d.kind == DIST_NONE) {
		*have = want;
		return;
	}
	if (!same_decomp(have, &want))
		sym_stop(s, 1,
			 "%s is split both %s over %s (extent %s) and %s over %s (extent %s)%s in one "
			 "relation, which has no affine form over a symbolic grid",
			 s->vars[v], kind_name(&have->d), s->m->axes[have->d.axis], have->extent,
			 kind_name(d), s->m->axes[d->axis], extent, where);
}

/* SUB as variable + *C: the variable, -2 for a constant, -1 for anything else,
 * -3 when SUB could not be read (the state says why). */
static int sub_var_plus_const(struct sym *s, const char *sub, long long *c)
{
	struct lin l;
	int r = parse_lin(s, sub, &l) < 0 ? -3 : lin_var_plus_const(s, &l, c);
	lin_free(&l);
	return r;
}

/* Assigns the decomposition a distributed dimension imposes on its subscript. */
static void assign_from_sub(struct sym *s, const char *sub, const struct dist *d,
			    const char *extent, const char *array)
{
	if (d->kind == DIST_NONE || s->status)
		return;
	long long c;
	int v = sub_var_plus_const(s, sub, &c);
	if (v == -3)
		return;
	if (v == -1) {
		sym_stop(s, 1,
			 "the subscript '%s' of %s is not a variable plus a constant in a "
			 "distributed dimension",
			 sub, array);
		return;
	}
	if (v >= 0) {
		char where[128];
		snprintf(where, sizeof(where), " (in %s)", array);
		assign(s, v, d, extent, where);
	}
}

/* ---- digits ------------------------------------------------------------- */

static int local_param(struct sym *s, const char *extent, int axis, long block)
{
	struct symbolic_info *info = s->info;
	for (int l = 0; l < info->nlocals; l++)
		if (info->locals[l].axis == axis && info->locals[l].block == block &&
		    strcmp(info->locals[l].extent, extent) == 0)
			return l;
	struct local_param *p = realloc(info->locals, sizeof(*p) * (size_t)(info->nlocals + 1));
	if (!p) {
		sym_stop(s, -1, "out of memory");
		return -1;
	}
	info->locals = p;
	p = &info->locals[info->nlocals];
	/* A readable name when the extent is one identifier: m over M is m__M.
	 * Every internal name has a double underscore, which user names may not. */
	bool ident = true;
	for (const char *q = extent; *q; q++)
		ident &= (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
			  (*q >= '0' && *q <= '9'));
	int r;
	if (ident && block == 1)
		r = asprintf(&p->name, "%s__%s", extent, s->m->axes[axis]);
	else if (ident)
		r = asprintf(&p->name, "%s__%ld%s", extent, block, s->m->axes[axis]);
	else
		r = asprintf(&p->name, "L__%d", info->nlocals);
	p->extent = strdup(extent);
	p->axis = axis;
	p->block = block;
	if (r < 0 || !p->extent) {
		sym_stop(s, -1, "out of memory");
		return -1;
	}
	return info->nlocals++;
}

/* The size of digit K of decomposition D, as ISL text (static buffer in OUT). */
static const char *digit_size(struct sym *s, const struct decomp *d, int k, char out[64])
{
	const struct digits *dg = &dist_ops(d->d.kind)->digits;
	switch (dg->size[k]) {
	case DIGIT_AXIS:
		return s->m->axes[d->d.axis];
	case DIGIT_LOCAL: {
		long b = d->d.kind == DIST_BLOCK_CYCLIC ? d->d.block : 1;
		int l = local_param(s, d->extent, d->d.axis, b);
		return l < 0 ? "0" : s->info->locals[l].name;
	}
	case DIGIT_BLOCK:
		snprintf(out, 64, "%ld", d->d.block);
		return out;
	case DIGIT_EXTENT:
		return d->extent;
	}
	return "0";
}

static int ndigits(const struct decomp *d)
{
	return d->d.kind == DIST_NONE ? 1 : dist_ops(d->d.kind)->digits.n;
}

/* The name of digit K of variable V: the variable itself when it has one digit. */
static void digit_name(const struct sym *s, int v, int k, char out[64])
{
	if (ndigits(&s->dec[v]) == 1)
		snprintf(out, 64, "%s", s->vars[v]);
	else
		snprintf(out, 64, "%s__%d", s->vars[v], k);
}

static void add_assumption(struct sym *s, const char *fmt, ...)
{
	char *a;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&a, fmt, ap);
	va_end(ap);
	if (r < 0) {
		sym_stop(s, -1, "out of memory");
		return;
	}
	struct symbolic_info *info = s->info;
	for (int i = 0; i < info->nassumptions; i++)
		if (strcmp(info->assumptions[i], a) == 0) {
			free(a);
			return;
		}
	char **p = realloc(info->assumptions, sizeof(*p) * (size_t)(info->nassumptions + 1));
	if (!p) {
		free(a);
		sym_stop(s, -1, "out of memory");
		return;
	}
	info->assumptions = p;
	p[info->nassumptions++] = a;
}

/* The offset C fits in a digit of SIZE: C <= SIZE (every size is at least 1,
 * so C <= 1 goes without saying). */
static void assume_at_most(struct sym *s, long long c, const char *size)
{
	if (c > 1)
		add_assumption(s, "%lld <= %s", c, size);
}

/* C < SIZE, recorded unless C < 1. */
static void assume_below(struct sym *s, long long c, const char *size)
{
	if (c >= 1)
		add_assumption(s, "%lld < %s", c, size);
}

/* Prints "0 <= d < S" for every digit of every decomposed variable. */
static void print_digit_ranges(FILE *out, struct sym *s)
{
	for (int v = 0; v < s->nvars; v++) {
		const struct decomp *d = &s->dec[v];
		if (d->d.kind == DIST_NONE)
			continue;
		for (int k = 0; k < ndigits(d); k++) {
			char name[64], buf[64];
			digit_name(s, v, k, name);
			fprintf(out, " and 0 <= %s < %s", name, digit_size(s, d, k, buf));
		}
	}
}

/* Writes the condition that RES[0..n) are the digits, under D, of variable V plus
 * C (V < 0: of the constant C).  The carry out of the top digit is left out: the
 * checker has proved every subscript in bounds. */
static void print_digits_of(FILE *out, struct sym *s, int v, long long c, const struct decomp *d,
			    char res[][64])
{
	int n = ndigits(d);
	int last = n - 1;
	char dg[3][64], sz[3][64], buf[3][64];
	for (int k = 0; k < n; k++) {
		if (v >= 0)
			digit_name(s, v, k, dg[k]);
		else
			snprintf(dg[k], 64, "0");
		snprintf(sz[k], 64, "%s", digit_size(s, d, k, buf[k]));
	}
	if (v < 0) {
		snprintf(dg[last], 64, "0");
		if (c != 0 && n > 1)
			assume_below(s, c, sz[last]);
	}
	if (c == 0 || n == 1) {
		fputs("(", out);
		for (int k = 0; k < n; k++)
			fprintf(out, "%s%s = %s + %lld", k ? " and " : "", res[k], dg[k],
				k == last ? c : 0);
		fputs(")", out);
		return;
	}
	long long a = c > 0 ? c : -c;
	assume_at_most(s, a, sz[last]);
	fputs("(", out);
	for (int j = 0; j < n; j++) {   /* j levels of carry (or borrow) */
		fprintf(out, "%s(", j ? " or " : "");
		if (c > 0)
			fprintf(out, j ? "%s + %lld >= %s" : "%s + %lld < %s", dg[last], c, sz[last]);
		else
			fprintf(out, j ? "%s - %lld < 0" : "%s - %lld >= 0", dg[last], a);
		for (int l = last - 1; l > last - j; l--)
			fprintf(out, c > 0 ? " and %s = %s - 1" : " and %s = 0%.0s", dg[l], sz[l]);
		if (j > 0)
			fprintf(out, c > 0 ? " and %s + 1 < %s" : " and %s >= 1%.0s", dg[last - j],
				sz[last - j]);
		for (int k = 0; k < n; k++) {
			fprintf(out, " and %s = ", res[k]);
			if (k == last && j == 0)
				fprintf(out, "%s + %lld", dg[k], c);
			else if (k == last)
				fprintf(out, c > 0 ? "%s + %lld - %s" : "%s + %lld + %s", dg[k], c, sz[k]);
			else if (k > last - j)
				fprintf(out, c > 0 ? "0%.0s" : "%s - 1", sz[k]);
			else if (k == last - j)
				fprintf(out, c > 0 ? "%s + 1" : "%s - 1", dg[k]);
			else
				fprintf(out, "%s", dg[k]);
		}
		fputs(")", out);
	}
	fputs(")", out);
}

/* ---- conditions ---------------------------------------------------------- */

static void print_lin(FILE *out, const struct sym *s, const struct lin *l)
{
	fprintf(out, "%lld", l->constant);
	for (int v = 0; v < s->nvars; v++)
		if (l->var[v])
			fprintf(out, " + %lld*%s", l->var[v], s->vars[v]);
	for (int p = 0; p < npar(s->m); p++)
		if (l->par[p])
			fprintf(out, " + %lld*%s", l->par[p], par_name(s->m, p));
}

/* A bound on decomposed variable V (coefficient sign SIGN in L >= 0) as digits. */
static void print_digit_bound(FILE *out, struct sym *s, int v, int sign, const struct lin *l,
			      const char *cond_text)
{
	const struct decomp *d = &s->dec[v];
	int n = ndigits(d), last = n - 1;
	char dg[3][64], sz[3][64], buf[3][64];
	for (int k = 0; k < n; k++) {
		digit_name(s, v, k, dg[k]);
		snprintf(sz[k], 64, "%s", digit_size(s, d, k, buf[k]));
	}
	/* rest = L - sign*v: the bound is v >= -rest (sign > 0) or v <= rest. */
	struct lin ext = {0};
	struct sym tmp = *s;
	bool params_only = true, is_const = true;
	for (int p = 0; p < npar(s->m); p++)
		is_const &= l->par[p] == 0;
	for (int u = 0; u < s->nvars; u++)
		params_only &= u == v || l->var[u] == 0;
	if (!params_only) {
		sym_stop(s, 1,
			 "the condition '%s' relates %s, which is distributed, to another variable; "
			 "the symbolic grid cannot express it",
			 cond_text, s->vars[v]);
		return;
	}
	if (is_const) {
		long long r = l->constant;
		if (sign > 0 && -r <= 0)
			return; /* v >= -r <= 0: the digits already say so */
		if (sign > 0) {
			long long c = -r; /* v >= c, c >= 1: not (upper digits 0 and last < c) */
			assume_at_most(s, c, sz[last]);
			fputs(" and (", out);
			for (int k = 0; k < last; k++)
				fprintf(out, "%s >= 1 or ", dg[k]);
			fprintf(out, "%s >= %lld)", dg[last], c);
			return;
		}
		/* v <= r */
		if (r < 0) {
			fputs(" and false", out);
			return;
		}
		assume_below(s, r, sz[last]);
		fputs(" and (", out);
		for (int k = 0; k < last; k++)
			fprintf(out, "%s = 0 and ", dg[k]);
		fprintf(out, "%s <= %lld)", dg[last], r);
		return;
	}
	/* The rest must be the extent X plus a constant. */
	tmp.nvars = 0;
	if (parse_lin(&tmp, d->extent, &ext) < 0) {
		s->status = tmp.status;
		s->reason = tmp.reason;
		lin_free(&ext);
		return;
	}
	/* sign > 0: v + (par·p + k) >= 0 with par = -X's: v >= X - k'.
	 * sign < 0: -v + (par·p + k) >= 0 with par = X's: v <= X + k. */
	bool is_extent = true;
	for (int p = 0; p < npar(s->m); p++)
		is_extent &= l->par[p] == (sign > 0 ? -ext.par[p] : ext.par[p]);
	long long k = l->constant - (sign > 0 ? -ext.constant : ext.constant);
	lin_free(&ext);
	if (!is_extent) {
		sym_stop(s, 1,
			 "the condition '%s' bounds %s by something other than its extent %s plus "
			 "a constant",
			 cond_text, s->vars[v], d->extent);
		return;
	}
	if (sign < 0) {
		/* v <= X + k; the digits give v <= X - 1. */
		long long c = -k - 1; /* v <= X - 1 - c */
		if (c <= 0)
			return;
		assume_at_most(s, c, sz[last]);
		fputs(" and (", out);
		for (int q = 0; q < last; q++)
			fprintf(out, "%s <= %s - 2 or ", dg[q], sz[q]);
		fprintf(out, "%s <= %s - 1 - %lld)", dg[last], sz[last], c);
		return;
	}
	/* v >= X - k' with k' = k: v + (-X + k) >= 0 */
	long long c = k; /* v >= X - c */
	if (c <= 0) {
		fputs(" and false", out);
		return;
	}
	assume_at_most(s, c, sz[last]);
	fputs(" and (", out);
	for (int q = 0; q < last; q++)
		fprintf(out, "%s = %s - 1 and ", dg[q], sz[q]);
	fprintf(out, "%s >= %s - %lld)", dg[last], sz[last], c);
}

/* The condition COND over the space's variables, in digits. */
static void print_cond(FILE *out, struct sym *s, const char *cond)
{
	struct text t;
	const struct model *m = s->m;
	if (open_space(&t, s) < 0) {
		sym_stop(s, -1, "out of memory");
		return;
	}
	fprintf(t.f, " : %s }", cond);
	char *str = text_close(&t);
	isl_set *set = str ? isl_set_read_from_str(s->ctx, str) : NULL;
	free(str);
	if (!set) {
		isl_ctx_reset_error(s->ctx);
		sym_stop(s, -1, "ISL rejected the condition '%s'", cond);
		return;
	}
	set = isl_set_coalesce(set);
	isl_size nb = isl_set_n_basic_set(set);
	if (nb != 1) {
		isl_set_free(set);
		if (nb == 0)
			fputs(" and false", out);
		else
			sym_stop(s, 1, "the condition '%s' is a disjunction, which the symbolic grid "
				       "does not split", cond);
		return;
	}
	isl_basic_set *bset = isl_set_simple_hull(set);
	if (isl_basic_set_dim(bset, isl_dim_div) != 0) {
		isl_basic_set_free(bset);
		sym_stop(s, 1, "the condition '%s' has a division or a modulo", cond);
		return;
	}
	isl_constraint_list *list = isl_basic_set_get_constraint_list(bset);
	isl_size n = isl_constraint_list_size(list);
	for (int i = 0; i < n && !s->status; i++) {
		isl_constraint *con = isl_constraint_list_get_constraint(list, i);
		struct lin l = {0};
		l.var = calloc((size_t)s->nvars + 1, sizeof(*l.var));
		l.par = calloc((size_t)npar(m) + 1, sizeof(*l.par));
		bool ok = l.var && l.par;
		for (int v = 0; v < s->nvars && ok; v++)
			ok = val_to_ll(isl_constraint_get_coefficient_val(con, isl_dim_set, v), &l.var[v]) == 0;
		for (int p = 0; p < npar(m) && ok; p++)
			ok = val_to_ll(isl_constraint_get_coefficient_val(con, isl_dim_param, p), &l.par[p]) == 0;
		ok = ok && val_to_ll(isl_constraint_get_constant_val(con), &l.constant) == 0;
		bool eq = isl_constraint_is_equality(con) == isl_bool_true;
		isl_constraint_free(con);
		if (!ok) {
			sym_stop(s, -1, "cannot read the condition '%s'", cond);
		} else {
			/* The multi-digit variables in this constraint. */
			int dv = -1, ndv = 0;
			for (int v = 0; v < s->nvars; v++)
				if (l.var[v] && ndigits(&s->dec[v]) > 1) {
					dv = v;
					ndv++;
				}
			if (ndv == 0) {
				fputs(" and ", out);
				print_lin(out, s, &l);
				fputs(eq ? " = 0" : " >= 0", out);
			} else if (ndv > 1 || (l.var[dv] != 1 && l.var[dv] != -1)) {
				sym_stop(s, 1,
					 "the condition '%s' relates distributed variables; the symbolic "
					 "grid cannot express it",
					 cond);
			} else if (eq) {
				/* v = e as v >= e and v <= e */
				print_digit_bound(out, s, dv, (int)l.var[dv], &l, cond);
				for (int v = 0; v < s->nvars; v++)
					l.var[v] = -l.var[v];
				for (int p = 0; p < npar(m); p++)
					l.par[p] = -l.par[p];
				l.constant = -l.constant;
				print_digit_bound(out, s, dv, (int)l.var[dv], &l, cond);
			} else {
				print_digit_bound(out, s, dv, (int)l.var[dv], &l, cond);
			}
		}
		lin_free(&l);
	}
	isl_constraint_list_free(list);
	isl_basic_set_free(bset);
}

/* ---- relations ----------------------------------------------------------- */

static void sym_begin(struct sym *s, const struct model_space *space)
{
	s->nvars = space->nvars;
	s->vars = space->vars;
	free(s->dec);
	s->dec = calloc((size_t)space->nvars + 1, sizeof(*s->dec));
	if (!s->dec)
		sym_stop(s, -1, "out of memory");
	for (int v = 0; v < space->nvars && s->dec; v++)
		s->dec[v].d = (struct dist){DIST_NONE, -1, 0};
}

static void assign_from_preds(struct sym *s, const struct model_space *space)
{
	for (int i = 0; i < space->npreds; i++) {
		const struct model_pred *p = &space->preds[i];
		assign_from_sub(s, p->index, &s->c->named[p->dist], s->m->dist_extents[p->dist],
				s->m->dists[p->dist]);
	}
}

/* The decompositions the left-hand side imposes (its distributed dimensions). */
static void assign_from_lhs(struct sym *s, const struct model_stmt *st)
{
	const struct model_array *arr = &s->m->arrays[st->lhs.array];
	for (int d = 0; d < arr->ndims; d++)
		assign_from_sub(s, st->lhs.subs[d], &s->c->layout[st->lhs.array][d], arr->extents[d],
				arr->name);
	assign_from_preds(s, &st->lhs.space);
}

/* Fresh names for the digits of an expression, declared in NAMES (the list of
 * existential variables) unless NAMES is NULL (names of the relation's tuple). */
static void fresh_names(struct sym *s, int n, char res[][64], FILE *names)
{
	for (int k = 0; k < n; k++) {
		snprintf(res[k], 64, "r__%d", s->fresh++);
		if (names)
			fprintf(names, ", %s", res[k]);
	}
}

/* Writes the digits of SUB under D into RES (fresh names, declared in NAMES). */
static void print_sub_digits(FILE *out, struct sym *s, const char *sub, const struct decomp *d,
			     char res[][64], FILE *names)
{
	long long c;
	int v = sub_var_plus_const(s, sub, &c);
	if (v == -3)
		return;
	int n = ndigits(d);
	fresh_names(s, n, res, names);
	if (d->d.kind == DIST_NONE) {
		if (v >= 0 && ndigits(&s->dec[v]) > 1) {
			sym_stop(s, 1, "internal: a split variable in a plain dimension");
			return;
		}
		/* Every variable in SUB has one digit named after itself. */
		fprintf(out, " and %s = %s", res[0], sub);
		return;
	}
	if (v == -1) {
		sym_stop(s, 1, "the subscript '%s' is not a variable plus a constant", sub);
		return;
	}
	fputs(" and ", out);
	print_digits_of(out, s, v, c, d, res);
}

/* The decomposition with which dimension D of the read array is written: its
 * own distribution, or, not distributed, that of the variable subscripting it. */
static int read_dim_shape(struct sym *s, const struct model_access *rd, int d, struct decomp *out)
{
	const struct model_array *arr = &s->m->arrays[rd->array];
	const struct dist *dd = &s->c->layout[rd->array][d];
	if (dd->kind != DIST_NONE) {
		*out = (struct decomp){*dd, arr->extents[d]};
		return 0;
	}
	*out = (struct decomp){{DIST_NONE, -1, 0}, arr->extents[d]};
	struct lin l;
	if (parse_lin(s, rd->subs[d], &l) < 0) {
		lin_free(&l);
		return -1;
	}
	long long c;
	int v = lin_var_plus_const(s, &l, &c);
	bool split = false;
	for (int u = 0; u < s->nvars; u++)
		if (l.var[u] && ndigits(&s->dec[u]) > 1) {
			split = true;
			if (v != u)
				sym_stop(s, 1,
					 "the subscript '%s' of %s combines a distributed variable with "
					 "something else",
					 rd->subs[d], arr->name);
		}
	lin_free(&l);
	if (split && !s->status)
		*out = s->dec[v];
	return s->status ? -1 : 0;
}

/* " and q_a = owner digit" for every axis, for the left-hand side of ST. */
static void print_lhs_owner(FILE *out, struct sym *s, const struct model_stmt *st, FILE *names)
{
	const struct model_array *arr = &s->m->arrays[st->lhs.array];
	for (int a = 0; a < s->m->naxes; a++) {
		int dim = -1;
		for (int d = 0; d < arr->ndims; d++)
			if (s->c->layout[st->lhs.array][d].kind != DIST_NONE &&
			    s->c->layout[st->lhs.array][d].axis == a)
				dim = d;
		if (dim < 0) {
			fprintf(out, " and q__%d = 0", a);
			continue;
		}
		struct decomp d = {s->c->layout[st->lhs.array][dim], arr->extents[dim]};
		char res[3][64];
		print_sub_digits(out, s, st->lhs.subs[dim], &d, res, names);
		fprintf(out, " and q__%d = %s", a, res[dist_ops(d.d.kind)->digits.owner]);
	}
}

static void print_preds(FILE *out, struct sym *s, const struct model_space *space, FILE *names)
{
	for (int i = 0; i < space->npreds && !s->status; i++) {
		const struct model_pred *p = &space->preds[i];
		const struct dist *dd = &s->c->named[p->dist];
		struct lin l;
		if (parse_lin(s, p->coord, &l) < 0) {
			lin_free(&l);
			return;
		}
		for (int v = 0; v < s->nvars; v++)
			if (l.var[v] && ndigits(&s->dec[v]) > 1)
				sym_stop(s, 1,
					 "the distribution predicate %s(%s) == %s compares with a "
					 "distributed variable",
					 s->m->dists[p->dist], p->index, p->coord);
		lin_free(&l);
		if (dd->kind == DIST_NONE) {
			fprintf(out, " and %s = 0", p->coord);
			continue;
		}
		struct decomp d = {*dd, s->m->dist_extents[p->dist]};
		char res[3][64];
		print_sub_digits(out, s, p->index, &d, res, names);
		fprintf(out, " and %s = %s", res[dist_ops(dd->kind)->digits.owner], p->coord);
	}
}

/* Every digit name of the current variables, comma separated. */
static void print_all_digit_names(FILE *out, struct sym *s)
{
	int first = 1;
	for (int v = 0; v < s->nvars; v++)
		for (int k = 0; k < ndigits(&s->dec[v]); k++) {
			char name[64];
			digit_name(s, v, k, name);
			fprintf(out, "%s%s", first ? "" : ", ", name);
			first = 0;
		}
}

/* The body shared by reads and work: ranges, conditions, predicates, owner. */
static void print_instance(FILE *out, struct sym *s, const struct model_stmt *st,
			   const struct model_space *space, FILE *names)
{
	fprintf(out, "(%s)", s->m->assumptions);
	print_digit_ranges(out, s);
	print_cond(out, s, st->lhs.space.cond);
	if (space != &st->lhs.space)
		print_cond(out, s, space->cond);
	print_preds(out, s, &st->lhs.space, names);
	if (space != &st->lhs.space)
		print_preds(out, s, space, names);
	print_lhs_owner(out, s, st, names);
}

static void print_proc(FILE *out, const struct model *m)
{
	fputs("P[", out);
	for (int a = 0; a < m->naxes; a++)
		fprintf(out, "%sq__%d", a ? ", " : "", a);
	fputs("]", out);
}

static char *join(struct sym *s, const char *head, const char *names, const char *body)
{
	char *r;
	if (asprintf(&r, "%s exists (%s : %s) }", head, names, body) < 0) {
		sym_stop(s, -1, "out of memory");
		return NULL;
	}
	return r;
}

static char *instance_text(struct sym *s, const struct model_stmt *st,
			   const struct model_space *space);

/* The use relation of read RD, as two body texts (the caller adds the
 * parameters): the instances that read it (*INSTANCE, malloc'd) and, returned,
 * the element each instance reads; their composition is the relation. */
static char *read_text(struct sym *s, const struct model_stmt *st, const struct model_access *rd,
		       struct elem_shape *shape, char **instance)
{
	*instance = NULL;
	const struct model_array *arr = &s->m->arrays[rd->array];
	sym_begin(s, &rd->space);
	assign_from_lhs(s, st);
	for (int d = 0; d < arr->ndims; d++)
		assign_from_sub(s, rd->subs[d], &s->c->layout[rd->array][d], arr->extents[d],
				arr->name);
	assign_from_preds(s, &rd->space);
	if (s->status)
		return NULL;

	struct decomp dims[MODEL_MAX_DIMS];
	for (int d = 0; d < arr->ndims; d++)
		if (read_dim_shape(s, rd, d, &dims[d]) < 0)
			return NULL;
	if (shape->set) {
		for (int d = 0; d < arr->ndims; d++)
			if (!same_decomp(&shape->dim[d], &dims[d]))
				sym_stop(s, 1,
					 "dimension %d of %s is indexed by variables split in different "
					 "ways in one superstep",
					 d + 1, arr->name);
		if (s->status)
			return NULL;
	} else {
		shape->set = true;
		memcpy(shape->dim, dims, sizeof(dims));
	}

	/* The instances first: the block lengths they name come first. */
	*instance = instance_text(s, st, &rd->space);
	if (!*instance)
		return NULL;
	/* The element read, from the digits: { [digits] -> A[element digits] }. */
	struct text head, body;
	if (text_open(&head) < 0 || text_open(&body) < 0) {
		sym_stop(s, -1, "out of memory");
		return NULL;
	}
	fputs("{ [", head.f);
	print_all_digit_names(head.f, s);
	fprintf(head.f, "] -> %s[", arr->name);
	fputs("true", body.f);
	for (int d = 0, first = 1; d < arr->ndims; d++) {
		char res[3][64];
		print_sub_digits(body.f, s, rd->subs[d], &dims[d], res, NULL);
		for (int k = 0; k < ndigits(&dims[d]); k++, first = 0)
			fprintf(head.f, "%s%s", first ? "" : ", ", res[k]);
	}
	fputs("] : ", head.f);
	char *h = text_close(&head), *b = text_close(&body);
	char *r = NULL;
	if (h && b && !s->status && asprintf(&r, "%s%s }", h, b) < 0)
		r = NULL;
	free(h);
	free(b);
	if (!r)
		sym_stop(s, -1, "out of memory");
	return r;
}

/* Body text of { P[q] -> [digits of the current variables] : the instances of
 * SPACE (a statement's, a read's or a term's) that q computes }, with the
 * decompositions already assigned.  Its names are its own (the fresh counter
 * restarts), so equal texts are equal relations. */
static char *instance_text(struct sym *s, const struct model_stmt *st, const struct model_space *space)
{
	struct text head, names, body;
	if (text_open(&head) < 0 || text_open(&names) < 0 || text_open(&body) < 0) {
		sym_stop(s, -1, "out of memory");
		return NULL;
	}
	int fresh = s->fresh;
	s->fresh = 0;
	fputs("{ ", head.f);
	print_proc(head.f, s->m);
	fputs(" -> [", head.f);
	print_all_digit_names(head.f, s);
	fputs("] :", head.f);
	fputs("q__unused", names.f); /* a name no condition mentions, so the list is never empty */
	print_instance(body.f, s, st, space, names.f);
	s->fresh = fresh;
	char *h = text_close(&head), *n = text_close(&names), *b = text_close(&body);
	char *r = h && n && b && !s->status ? join(s, h, n, b) : NULL;
	free(h);
	free(n);
	free(b);
	return r;
}

/* Body text of the work relation of TERM: { P[q] -> [digits of its variables] }. */
static char *work_text(struct sym *s, const struct model_stmt *st, const struct model_space *term)
{
	sym_begin(s, term);
	assign_from_lhs(s, st);
	assign_from_preds(s, term);
	if (s->status)
		return NULL;
	return instance_text(s, st, term);
}

/* Body text of the ownership of array A with element shape SHAPE. */
static char *own_text(struct sym *s, int a, const struct elem_shape *shape)
{
	const struct model_array *arr = &s->m->arrays[a];
	struct text t;
	if (text_open(&t) < 0) {
		sym_stop(s, -1, "out of memory");
		return NULL;
	}
	struct sym tmp = *s;
	tmp.nvars = 0;
	fprintf(t.f, "{ %s[", arr->name);
	for (int d = 0, first = 1; d < arr->ndims; d++)
		for (int k = 0; k < ndigits(&shape->dim[d]); k++, first = 0)
			fprintf(t.f, "%se__%d_%d", first ? "" : ", ", d, k);
	fputs("] -> ", t.f);
	print_proc(t.f, s->m);
	fprintf(t.f, " : (%s)", s->m->assumptions);
	for (int d = 0; d < arr->ndims; d++) {
		const struct decomp *dd = &shape->dim[d];
		for (int k = 0; k < ndigits(dd); k++) {
			char buf[64];
			const char *size = dd->d.kind == DIST_NONE ? dd->extent : digit_size(s, dd, k, buf);
			fprintf(t.f, " and 0 <= e__%d_%d < %s", d, k, size);
		}
	}
	for (int ax = 0; ax < s->m->naxes; ax++) {
		int dim = -1;
		for (int d = 0; d < arr->ndims; d++)
			if (s->c->layout[a][d].kind != DIST_NONE && s->c->layout[a][d].axis == ax)
				dim = d;
		if (dim < 0)
			fprintf(t.f, " and q__%d = 0", ax);
		else
			fprintf(t.f, " and q__%d = e__%d_%d", ax, dim,
				dist_ops(s->c->layout[a][dim].kind)->digits.owner);
	}
	fputs(" }", t.f);
	(void)tmp;
	return text_close(&t);
}

static __isl_give isl_map *read_with_params(struct sym *s, char *body)
{
	if (!body)
		return NULL;
	struct text t;
	if (text_open(&t) < 0) {
		free(body);
		sym_stop(s, -1, "out of memory");
		return NULL;
	}
	print_params(t.f, s->m, s->info);
	fputs(body, t.f);
	free(body);
	char *str = text_close(&t);
	isl_map *map = str ? isl_map_read_from_str(s->ctx, str) : NULL;
	if (!map) {
		const char *msg = isl_ctx_last_error_msg(s->ctx);
		sym_stop(s, -1, "ISL rejected a relation (%s): %s", msg ? msg : "?", str ? str : "");
		isl_ctx_reset_error(s->ctx);
	}
	free(str);
	return map;
}

/* The instance relations of one step, parsed once each: the reads of a
 * statement and its work usually share theirs. */
struct instance_cache {
	int n;
	char **text;
	isl_map **map;        /* as parsed */
	isl_map **coalesced;  /* the same, coalesced (NULL until asked for) */
};

static void instance_cache_clear(struct instance_cache *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->text[i]);
		isl_map_free(c->map[i]);
		isl_map_free(c->coalesced[i]);
	}
	free(c->text);
	free(c->map);
	free(c->coalesced);
	memset(c, 0, sizeof(*c));
}

/* The relation of instance text TEXT (taken), from CACHE or parsed and added
 * to it; COALESCED asks for it coalesced.  (The reads are composed with it
 * coalesced, which is cheaper; the work is counted as parsed: coalesced, its
 * count's pieces can defeat ISL's tight bound on the maximum over processes.) */
static __isl_give isl_map *instances(struct sym *s, struct instance_cache *c, char *text,
				     bool coalesced)
{
	int i = 0;
	while (i < c->n && strcmp(c->text[i], text) != 0)
		i++;
	if (i == c->n) {
		char *key = strdup(text);
		isl_map *map = read_with_params(s, text);
		char **t = key && map ? realloc(c->text, sizeof(*t) * (size_t)(c->n + 1)) : NULL;
		if (t)
			c->text = t;
		isl_map **mp = t ? realloc(c->map, sizeof(*mp) * (size_t)(c->n + 1)) : NULL;
		if (mp)
			c->map = mp;
		isl_map **cp = mp ? realloc(c->coalesced, sizeof(*cp) * (size_t)(c->n + 1)) : NULL;
		if (cp)
			c->coalesced = cp;
		if (!cp) {
			free(key);
			return coalesced ? isl_map_coalesce(map) : map;
		}
		c->text[c->n] = key;
		c->map[c->n] = map;
		c->coalesced[c->n++] = NULL;
	} else {
		free(text);
	}
	if (!coalesced)
		return isl_map_copy(c->map[i]);
	if (!c->coalesced[i])
		c->coalesced[i] = isl_map_coalesce(isl_map_copy(c->map[i]));
	return isl_map_copy(c->coalesced[i]);
}

/* The context: axes and block lengths are positive, the user's assumptions. */
static __isl_give isl_set *context(struct sym *s)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	print_params(t.f, s->m, s->info);
	fprintf(t.f, "{ : (%s)", s->m->assumptions);
	for (int a = 0; a < s->m->naxes; a++)
		fprintf(t.f, " and %s >= 1", s->m->axes[a]);
	for (int l = 0; l < s->info->nlocals; l++)
		fprintf(t.f, " and %s >= 1", s->info->locals[l].name);
	fputs(" }", t.f);
	char *str = text_close(&t);
	isl_set *set = str ? isl_set_read_from_str(s->ctx, str) : NULL;
	free(str);
	return set;
}

int relations_symbolic(isl_ctx *ctx, const struct model *m, int cand, int step,
		       struct step_relations *out, struct symbolic_info *info, char **reason)
{
	const struct model_superstep *ss = &m->steps[step];
	struct sym s = {.ctx = ctx, .m = m, .c = &m->cands[cand], .info = info};
	struct instance_cache cache = {0};
	struct elem_shape *shapes = calloc((size_t)m->narrays + 1, sizeof(*shapes));
	memset(out, 0, sizeof(*out));
	*reason = NULL;
	out->narrays = m->narrays;
	out->use = calloc((size_t)m->narrays + 1, sizeof(*out->use));
	out->own = calloc((size_t)m->narrays + 1, sizeof(*out->own));
	int nwork = 0;
	for (int i = 0; i < ss->nstmts; i++)
		nwork += ss->stmts[i].nterms;
	out->work = calloc((size_t)nwork + 1, sizeof(*out->work));
	out->work_weight = calloc((size_t)nwork + 1, sizeof(*out->work_weight));
	if (!shapes || !out->use || !out->own || !out->work || !out->work_weight)
		sym_stop(&s, -1, "out of memory");

	for (int i = 0; i < ss->nstmts && !s.status; i++) {
		const struct model_stmt *st = &ss->stmts[i];
		for (int r = 0; r < st->nreads && !s.status; r++) {
			const struct model_access *rd = &st->reads[r];
			char *inst = NULL;
			char *access = read_text(&s, st, rd, &shapes[rd->array], &inst);
			isl_map *u = NULL;
			if (access && inst) {
				isl_map *d = instances(&s, &cache, inst, true);
				isl_map *a = read_with_params(&s, access);
				u = d && a ? isl_map_coalesce(isl_map_apply_range(d, a))
					   : (isl_map_free(d), isl_map_free(a), NULL);
				access = inst = NULL; /* taken */
			}
			free(access);
			free(inst);
			if (!u) {
				if (!s.status)
					sym_stop(&s, -1, "ISL failed on a read relation");
				break;
			}
			if (out->use[rd->array])
				u = isl_map_union(out->use[rd->array], u);
			out->use[rd->array] = u;
		}
		for (int k = 0; k < st->nterms && !s.status; k++) {
			char *inst = work_text(&s, st, &st->terms[k]);
			isl_map *w = inst ? instances(&s, &cache, inst, false) : NULL;
			if (w) {
				out->work_weight[out->nwork] = st->terms[k].weight;
				out->work[out->nwork++] = w;
			}
		}
	}
	for (int a = 0; a < m->narrays && !s.status; a++)
		if (out->use[a])
			out->own[a] = read_with_params(&s, own_text(&s, a, &shapes[a]));

	if (!s.status) {
		isl_set *ctxset = context(&s);
		struct text t;
		char *str = NULL;
		if (text_open(&t) == 0) {
			print_params(t.f, m, info);
			fputs("{ ", t.f);
			print_proc(t.f, m);
			fputs(" : ", t.f);
			for (int a = 0; a < m->naxes; a++)
				fprintf(t.f, "%s0 <= q__%d < %s", a ? " and " : "", a, m->axes[a]);
			if (m->naxes == 0)
				fputs("true", t.f);
			fputs(" }", t.f);
			str = text_close(&t);
		}
		out->processes = str ? isl_set_read_from_str(ctx, str) : NULL;
		free(str);
		out->processes = isl_set_intersect_params(out->processes, isl_set_copy(ctxset));
		for (int a = 0; a < m->narrays; a++) {
			if (!out->use[a])
				continue;
			out->use[a] = isl_map_coalesce(
				isl_map_intersect_params(out->use[a], isl_set_copy(ctxset)));
			out->own[a] = isl_map_intersect_params(out->own[a], isl_set_copy(ctxset));
		}
		for (int k = 0; k < out->nwork; k++)
			out->work[k] = isl_map_intersect_params(out->work[k], isl_set_copy(ctxset));
		isl_set_free(ctxset);
		if (!out->processes)
			sym_stop(&s, -1, "ISL failed on the process set");
	}
	free(shapes);
	free(s.dec);
	instance_cache_clear(&cache);
	if (s.status) {
		*reason = s.reason ? s.reason : strdup("out of memory");
		step_relations_clear(out);
		return s.status;
	}
	return 0;
}

void symbolic_info_clear(struct symbolic_info *info)
{
	for (int l = 0; l < info->nlocals; l++) {
		free(info->locals[l].name);
		free(info->locals[l].extent);
	}
	free(info->locals);
	for (int i = 0; i < info->nassumptions; i++)
		free(info->assumptions[i]);
	free(info->assumptions);
	memset(info, 0, sizeof(*info));
}
