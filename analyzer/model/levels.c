/* One level of a doubling loop as a program of its own (levels.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/model/levels.h"
#include "analyzer/model/symbolic.h"

/* The most terms a form of the rewriting may have. */
enum { LEVEL_TERMS = 64 };

/* A positional form under construction. */
struct form {
	long long constant;
	int n;
	struct model_term t[LEVEL_TERMS];
};

/* A form of M at one level: s*X + sum_k YC[k]*e(YV[k]) + C0 + REST, X and
 * REST in the level's numbering, YV the old variables whose low digit e
 * appears. */
struct parts {
	struct form x, rest;
	int ny;
	int yv[LEVEL_TERMS];
	long long yc[LEVEL_TERMS];
	long long c0;
};

/* A symbol of the level: a size or an axis, by position. */
struct sym {
	enum model_sym kind;
	int index;
};

struct lv {
	const struct model *m;
	int cand, step;
	int ns, sp;              /* M's sizes; s's parameter in M */
	struct sym b;            /* B in M: a size or an axis */
	const char *sname, *bname;
	bool axis_split;         /* B is an axis the level writes as R x s */
	int *axis;               /* [M's axes] each one's axis at the level (-1: B's, split) */
	struct model *out;
	struct sym S, R, H;      /* at the level */
	bool (*split)[MODEL_MAX_DIMS];   /* [array][dim]: written as two digits */
	bool *used;              /* [array]: the superstep reads or writes it */
	int status;              /* 0, 1 refused (REASON), -1 failed */
	char *reason;
	/* the statement being rewritten */
	int nv;                  /* its variables, by M's numbers */
	bool *divided;           /* [nv] */
	int *first;              /* [nv] the level's number of each (of q for a divided one) */
};

static void refuse(struct lv *lv, const char *fmt, ...)
{
	if (lv->status != 0)
		return;
	lv->status = 1;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&lv->reason, fmt, ap) < 0)
		lv->reason = NULL;
	va_end(ap);
}

static void failed(struct lv *lv)
{
	if (lv->status == 0)
		lv->status = -1;
}

/* An invariant of the model broken: a failure with its reason. */
static void broken(struct lv *lv, const char *what)
{
	if (lv->status != 0)
		return;
	lv->status = -1;
	if (asprintf(&lv->reason, "internal: %s at one level of superstep %s", what,
		     lv->m->steps[lv->step].name) < 0)
		lv->reason = NULL;
}

static const char *step_name(const struct lv *lv)
{
	return lv->m->steps[lv->step].name;
}

static void form_add(struct lv *lv, struct form *f, struct sym s, long long coef)
{
	if (coef == 0)
		return;
	for (int i = 0; i < f->n; i++)
		if (f->t[i].kind == s.kind && f->t[i].index == s.index) {
			f->t[i].coef += coef;
			if (f->t[i].coef == 0)
				f->t[i] = f->t[--f->n];
			return;
		}
	if (f->n == LEVEL_TERMS) {
		refuse(lv, "a form of superstep %s has more than %d terms", step_name(lv), LEVEL_TERMS);
		return;
	}
	f->t[f->n++] = (struct model_term){s.kind, s.index, coef, 0};
}

static struct sym var_sym(int v)
{
	return (struct sym){MODEL_VAR, v};
}

/* F as a model form; its terms are F's (the model copies what it keeps). */
static struct model_aff form_aff(struct form *f)
{
	return (struct model_aff){f->constant, f->n, f->t};
}

static bool is_b(const struct lv *lv, const struct model_term *t)
{
	return t->kind != MODEL_VAR && t->kind == lv->b.kind && t->index == lv->b.index;
}

/* Term T of a form without divided variables, onto F in the level's
 * numbering. */
static void plain_term(struct lv *lv, const struct model_term *t, struct form *f)
{
	switch (t->kind) {
	case MODEL_PARAM:
		if (t->index < lv->ns)
			form_add(lv, f, (struct sym){MODEL_PARAM, t->index}, t->coef);
		else if (t->index == lv->sp)
			form_add(lv, f, lv->S, t->coef);
		else
			refuse(lv, "superstep %s names the variable of a loop other than %s's",
			       step_name(lv), lv->sname);
		return;
	case MODEL_AXIS:
		if (lv->axis[t->index] < 0)
			refuse(lv, "superstep %s names the grid's size %s other than in a form of a "
				   "variable it divides by %s, where one level writes %s as %s*R",
			       step_name(lv), lv->bname, lv->sname, lv->bname, lv->sname);
		else
			form_add(lv, f, (struct sym){MODEL_AXIS, lv->axis[t->index]}, t->coef);
		return;
	case MODEL_VAR:
		if (t->by || t->index >= lv->nv || lv->divided[t->index]) {
			/* the callers tell these apart first */
			broken(lv, "a divided variable in a form taken whole");
			return;
		}
		form_add(lv, f, var_sym(lv->first[t->index]), t->coef);
		return;
	}
}

static void plain_form(struct lv *lv, const struct model_aff *a, struct form *f)
{
	memset(f, 0, sizeof(*f));
	f->constant = a->constant;
	for (int i = 0; i < a->nterms; i++)
		plain_term(lv, &a->terms[i], f);
}

/* Whether A names a variable divided by s, or a quotient by s. */
static bool divided_form(const struct lv *lv, const struct model_aff *a)
{
	for (int i = 0; i < a->nterms; i++) {
		const struct model_term *t = &a->terms[i];
		if (t->kind == MODEL_VAR && (t->by || (t->index < lv->nv && lv->divided[t->index])))
			return true;
	}
	return false;
}

/* A as s*X + Y + C0 + REST (struct parts). */
static void split_form(struct lv *lv, const struct model_aff *a, struct parts *p)
{
	memset(p, 0, sizeof(*p));
	p->c0 = a->constant;
	for (int i = 0; i < a->nterms && lv->status == 0; i++) {
		const struct model_term *t = &a->terms[i];
		if (t->kind == MODEL_VAR && t->by) {
			/* c*s*x, x a quotient by s (never itself divided) */
			if (t->by - 1 != lv->sp || t->index >= lv->nv || lv->divided[t->index]) {
				/* the checker lets no quotient divide another, and
				 * the loop stands alone */
				broken(lv, "a quotient by another loop's variable, or of a quotient");
				return;
			}
			form_add(lv, &p->x, var_sym(lv->first[t->index]), t->coef);
		} else if (t->kind == MODEL_VAR && t->index < lv->nv && lv->divided[t->index]) {
			form_add(lv, &p->x, var_sym(lv->first[t->index]), t->coef);
			if (p->ny == LEVEL_TERMS) {
				refuse(lv, "a form of superstep %s has too many terms", step_name(lv));
				return;
			}
			p->yv[p->ny] = t->index;
			p->yc[p->ny++] = t->coef;
		} else if (t->kind == MODEL_PARAM && t->index == lv->sp) {
			p->x.constant += t->coef;
		} else if (is_b(lv, t)) {
			form_add(lv, &p->x, lv->R, t->coef);
		} else {
			plain_term(lv, t, &p->rest);
		}
	}
}

static void add_cons_list(struct lv *lv, struct model_cons **cons, int *n,
			  enum model_cons_kind kind, struct form *f, long long divisor)
{
	struct model_aff a = form_aff(f);
	if (lv->status == 0 && model_cons_add(cons, n, kind, &a, divisor) < 0)
		failed(lv);
}

static void add_cons(struct lv *lv, struct model_space *sp, enum model_cons_kind kind,
		     struct form *f, long long divisor)
{
	add_cons_list(lv, &sp->cons, &sp->ncons, kind, f, divisor);
}

static void refuse_form(struct lv *lv)
{
	refuse(lv, "superstep %s compares a variable it divides by %s in a form one level does "
		   "not keep: written %s*q + e (0 <= e < %s), it keeps the variable plus a multiple "
		   "of %s compared with a multiple of %s or of %s, and quotients by %s",
	       step_name(lv), lv->sname, lv->sname, lv->sname, lv->sname, lv->sname, lv->bname,
	       lv->sname);
}

/* Constraint C of a space of M onto the level's space SP. */
static void rewrite_cons(struct lv *lv, const struct model_cons *c, struct model_space *sp)
{
	if (!divided_form(lv, &c->f)) {
		struct form f;
		plain_form(lv, &c->f, &f);
		add_cons(lv, sp, c->kind, &f, c->divisor);
		return;
	}
	struct parts p;
	split_form(lv, &c->f, &p);
	if (lv->status != 0)
		return;
	if (p.rest.n != 0 || p.rest.constant != 0) {
		refuse(lv, "superstep %s relates a variable it divides by %s to another variable or "
			   "size in one condition or work term, which the digits of one level do not "
			   "keep",
		       step_name(lv), lv->sname);
		return;
	}
	/* 0 <= e < s: s*X + e >= 0 iff X >= 0, s*X - e - 1 >= 0 iff X >= 1,
	 * s*X >= 0 iff X >= 0, s*X - 1 >= 0 iff X >= 1 (s >= 1) */
	if (c->kind == MODEL_GE0) {
		bool at0 = p.c0 == 0 && (p.ny == 0 || (p.ny == 1 && p.yc[0] == 1));
		bool at1 = p.c0 == -1 && (p.ny == 0 || (p.ny == 1 && p.yc[0] == -1));
		if (!at0 && !at1) {
			refuse_form(lv);
			return;
		}
		p.x.constant -= at1 ? 1 : 0;
		add_cons(lv, sp, MODEL_GE0, &p.x, 0);
		return;
	}
	/* s*X + e == 0 iff X == 0 and e == 0; s*X + e_v - e_w == 0 iff X == 0
	 * and e_v == e_w (|e_v - e_w| < s) */
	bool unit = p.ny >= 1 && (p.yc[0] == 1 || p.yc[0] == -1);
	if (c->kind == MODEL_EQ0 && p.c0 == 0 &&
	    (p.ny == 0 || (p.ny == 1 && unit) || (p.ny == 2 && unit && p.yc[0] == -p.yc[1]))) {
		add_cons(lv, sp, MODEL_EQ0, &p.x, 0);
		if (p.ny > 0) {
			struct form e = {0};
			form_add(lv, &e, var_sym(lv->first[p.yv[0]] + 1), 1);
			if (p.ny == 2)
				form_add(lv, &e, var_sym(lv->first[p.yv[1]] + 1), -1);
			add_cons(lv, sp, MODEL_EQ0, &e, 0);
		}
		return;
	}
	refuse_form(lv);
}

/* The variables of space OLD (M's) onto the level's SP, each divided one
 * as its two digits, 0 <= e < s, then OLD's constraints. */
static void rewrite_space(struct lv *lv, const struct model_space *old, struct model_space *sp)
{
	if (old->npreds > 0) {
		refuse(lv, "superstep %s tests ownership in a condition that divides by %s",
		       step_name(lv), lv->sname);
		return;
	}
	sp->weight = old->weight;
	for (int i = 0; i < old->nvars && lv->status == 0; i++) {
		int v = old->vidx[i];
		if (v < 0 || v >= lv->nv) {
			broken(lv, "a variable numbered past its statement's");
			return;
		}
		if (!lv->divided[v]) {
			if (model_space_add_var(sp, old->vars[i], lv->first[v]) < 0)
				failed(lv);
			continue;
		}
		char *q, *e;
		if (asprintf(&q, "%s/%s", old->vars[i], lv->sname) < 0)
			q = NULL;
		if (asprintf(&e, "%s%%%s", old->vars[i], lv->sname) < 0)
			e = NULL;
		bool ok = q && e && model_space_add_var(sp, q, lv->first[v]) == 0 &&
			  model_space_add_var(sp, e, lv->first[v] + 1) == 0;
		free(q);
		free(e);
		if (!ok) {
			failed(lv);
			return;
		}
		struct form f = {0};
		form_add(lv, &f, var_sym(lv->first[v] + 1), 1);
		add_cons(lv, sp, MODEL_GE0, &f, 0);     /* e >= 0 */
		f.t[0].coef = -1;
		f.constant = -1;
		form_add(lv, &f, lv->S, 1);
		add_cons(lv, sp, MODEL_GE0, &f, 0);     /* s - 1 - e >= 0 */
	}
	for (int i = 0; i < old->ncons && lv->status == 0; i++)
		rewrite_cons(lv, &old->cons[i], sp);
}

/* Subscript A (TEXT) of dimension D of array X, written as two digits: the
 * variable v plus k*s, as (q + k, e) into OUT[0..2). */
static void digit_subs(struct lv *lv, const struct model_aff *a, const char *text, int x, int d,
		       struct form out[2])
{
	struct parts p;
	split_form(lv, a, &p);
	if (lv->status != 0)
		return;
	int v = p.ny == 1 ? p.yv[0] : -1;
	if (v < 0 || p.yc[0] != 1 || p.c0 != 0 || p.rest.n != 0 || p.rest.constant != 0 ||
	    p.x.n != 1 || p.x.t[0].kind != MODEL_VAR || p.x.t[0].index != lv->first[v] ||
	    p.x.t[0].coef != 1) {
		refuse(lv, "superstep %s indexes dimension %d of %s with %s, where one level keeps "
			   "only a variable it divides by %s plus a multiple of %s (another subscript "
			   "of that dimension is such a variable)",
		       step_name(lv), d + 1, lv->m->arrays[x].name, text, lv->sname, lv->sname);
		return;
	}
	memset(out, 0, 2 * sizeof(*out));
	form_add(lv, &out[0], var_sym(lv->first[v]), 1);
	out[0].constant = p.x.constant;
	form_add(lv, &out[1], var_sym(lv->first[v] + 1), 1);
}

static int new_ndims(const struct lv *lv, int x)
{
	int n = 0;
	for (int d = 0; d < lv->m->arrays[x].ndims; d++)
		n += lv->split[x][d] ? 2 : 1;
	return n;
}

static void free_texts(char **t, int n)
{
	for (int i = 0; t && i < n; i++)
		free(t[i]);
	free(t);
}

/* The texts of access A's subscripts at the level, for people. */
static char **access_texts(struct lv *lv, const struct model_access *a)
{
	const struct model_array *arr = &lv->m->arrays[a->array];
	int n = new_ndims(lv, a->array), k = 0;
	char **t = calloc((size_t)n + 1, sizeof(*t));
	for (int d = 0; t && d < arr->ndims; d++) {
		if (!lv->split[a->array][d]) {
			t[k++] = strdup(a->subs[d]);
			continue;
		}
		if (asprintf(&t[k++], "(%s)/%s", a->subs[d], lv->sname) < 0)
			t[k - 1] = NULL;
		if (asprintf(&t[k++], "(%s)%%%s", a->subs[d], lv->sname) < 0)
			t[k - 1] = NULL;
	}
	bool ok = t != NULL;
	for (int i = 0; t && i < n; i++)
		ok &= t[i] != NULL;
	if (!ok) {
		free_texts(t, n);
		failed(lv);
		return NULL;
	}
	return t;
}

/* The subscripts of access OLD onto the level's access NEW. */
static void rewrite_subs(struct lv *lv, const struct model_access *old, struct model_access *new)
{
	const struct model_array *arr = &lv->m->arrays[old->array];
	int nd = new_ndims(lv, old->array), k = 0;
	for (int d = 0; d < arr->ndims && lv->status == 0; d++) {
		struct form f[2];
		int n = 1;
		if (lv->split[old->array][d]) {
			digit_subs(lv, &old->sub_affs[d], old->subs[d], old->array, d, f);
			n = 2;
		} else if (divided_form(lv, &old->sub_affs[d])) {
			/* mark_split split every such dimension */
			broken(lv, "a divided variable in a dimension left whole");
		} else {
			plain_form(lv, &old->sub_affs[d], &f[0]);
		}
		for (int i = 0; i < n && lv->status == 0; i++) {
			struct model_aff a = form_aff(&f[i]);
			if (model_access_set_sub(new, nd, k + i, &a) < 0)
				failed(lv);
		}
		k += n;
	}
}

/* The variables of statement ST and which of them a condition divides by
 * s: those of a constraint with a quotient by s. */
static void statement_vars(struct lv *lv, const struct model_stmt *st)
{
	int n = 1 + st->nreads + st->nterms;
	const struct model_space **sp = calloc((size_t)n, sizeof(*sp));
	free(lv->divided);
	free(lv->first);
	lv->divided = NULL;
	lv->first = NULL;
	lv->nv = 0;
	if (!sp) {
		failed(lv);
		return;
	}
	sp[0] = &st->lhs.space;
	for (int r = 0; r < st->nreads; r++)
		sp[1 + r] = &st->reads[r].space;
	for (int k = 0; k < st->nterms; k++)
		sp[1 + st->nreads + k] = &st->terms[k];
	for (int i = 0; i < n; i++)
		for (int k = 0; k < sp[i]->nvars; k++)
			if (sp[i]->vidx[k] + 1 > lv->nv)
				lv->nv = sp[i]->vidx[k] + 1;
	lv->divided = calloc((size_t)lv->nv + 1, sizeof(*lv->divided));
	lv->first = calloc((size_t)lv->nv + 1, sizeof(*lv->first));
	if (!lv->divided || !lv->first) {
		free(sp);
		failed(lv);
		return;
	}
	for (int i = 0; i < n; i++)
		for (int c = 0; c < sp[i]->ncons; c++) {
			const struct model_aff *f = &sp[i]->cons[c].f;
			bool by = false;
			for (int t = 0; t < f->nterms; t++)
				by |= f->terms[t].kind == MODEL_VAR && f->terms[t].by;
			for (int t = 0; by && t < f->nterms; t++)
				if (f->terms[t].kind == MODEL_VAR && !f->terms[t].by &&
				    f->terms[t].index < lv->nv)
					lv->divided[f->terms[t].index] = true;
		}
	free(sp);
	int next = 0;
	for (int v = 0; v < lv->nv; v++) {
		lv->first[v] = next;
		next += lv->divided[v] ? 2 : 1;
	}
}

/* Whether array X's dimension D, laid out as L, is B's axis's identity. */
static bool on_b_axis(const struct lv *lv, int x, int d, const struct dist *l)
{
	return lv->b.kind == MODEL_AXIS && l->kind != DIST_NONE && l->axis == lv->b.index &&
	       model_dist_is_identity(l, &lv->m->arrays[x].extent_affs[d]);
}

/* Marks the dimensions the superstep's divided variables index: each of
 * extent B, laid out whole or as the identity of B's axis, which is then
 * split, and then used by no other dimension. */
static void mark_split(struct lv *lv)
{
	const struct model *m = lv->m;
	const struct model_candidate *c = &m->cands[lv->cand];
	const struct model_superstep *ss = &m->steps[lv->step];
	for (int i = 0; i < ss->nstmts && lv->status == 0; i++) {
		const struct model_stmt *st = &ss->stmts[i];
		statement_vars(lv, st);
		for (int r = -1; r < st->nreads && lv->status == 0; r++) {
			const struct model_access *a = r < 0 ? &st->lhs : &st->reads[r];
			lv->used[a->array] = true;
			for (int d = 0; d < m->arrays[a->array].ndims; d++)
				if (divided_form(lv, &a->sub_affs[d]))
					lv->split[a->array][d] = true;
		}
	}
	for (int x = 0; x < m->narrays && lv->status == 0; x++) {
		const struct model_array *arr = &m->arrays[x];
		for (int d = 0; d < arr->ndims && lv->status == 0; d++) {
			if (!lv->split[x][d])
				continue;
			const struct model_aff *e = &arr->extent_affs[d];
			const struct dist *l = &c->layout[x][d];
			if (e->constant != 0 || e->nterms != 1 || e->terms[0].coef != 1 ||
			    !is_b(lv, &e->terms[0]))
				refuse(lv, "superstep %s indexes dimension %d of %s, of extent %s, with a "
					   "variable it divides by %s: one level keeps such variables "
					   "only in dimensions of extent %s",
				       ss->name, d + 1, arr->name, arr->extents[d], lv->sname, lv->bname);
			else if (on_b_axis(lv, x, d, l))
				lv->axis_split = true;
			else if (l->kind != DIST_NONE && lv->b.kind == MODEL_AXIS)
				refuse(lv, "superstep %s divides by %s a variable that indexes dimension "
					   "%d of %s, which is distributed other than as the identity of "
					   "axis %s: one level keeps such variables only in dimensions "
					   "laid out whole (*), or one index per process of %s (block or "
					   "cyclic over %s of extent %s)",
				       ss->name, lv->sname, d + 1, arr->name, lv->bname, lv->bname,
				       lv->bname, lv->bname);
			else if (l->kind != DIST_NONE)
				refuse(lv, "superstep %s divides by %s a variable that indexes dimension "
					   "%d of %s, which is distributed: one level keeps such "
					   "variables only in dimensions laid out whole (*), or in the "
					   "identity of an axis the loop runs up to (r[P] over P); "
					   "written as two dimensions, one of extent %s with one index "
					   "per process and one laid out whole, and its loop as two, "
					   "the stages within a process's part and those across the "
					   "processes, it has formulas (examples/fft.bsp's x[P][m])",
				       ss->name, lv->sname, d + 1, arr->name, m->axes[l->axis]);
		}
	}
	/* the statements' variables are not the assumptions' and extents' */
	lv->nv = 0;
	/* a split axis: no other dimension of the superstep's arrays on it, no
	 * copy along it (the other arrays are not the level's) */
	for (int x = 0; lv->axis_split && x < m->narrays && lv->status == 0; x++) {
		if (!lv->used[x])
			continue;
		if (c->replicate[x] & (1u << lv->b.index))
			refuse(lv, "superstep %s divides by %s the coordinate on axis %s, along which "
				   "%s is copied",
			       ss->name, lv->sname, lv->bname, m->arrays[x].name);
		for (int d = 0; d < m->arrays[x].ndims; d++) {
			const struct dist *l = &c->layout[x][d];
			if (!lv->split[x][d] && l->kind != DIST_NONE && l->axis == lv->b.index)
				refuse(lv, "superstep %s divides by %s the coordinate on axis %s, which "
					   "dimension %d of %s also spreads over other than by such a "
					   "variable",
				       ss->name, lv->sname, lv->bname, d + 1, m->arrays[x].name);
		}
	}
}

/* Whether form A names B's axis, which the level splits. */
static bool names_split_axis(const struct lv *lv, const struct model_aff *a)
{
	for (int i = 0; lv->axis_split && i < a->nterms; i++)
		if (is_b(lv, &a->terms[i]))
			return true;
	return false;
}

/* A fresh name for the level's own symbol: BASE, or BASE_2, ... BASE_99;
 * NULL when out of memory, or with *NONE when every one is taken. */
static char *fresh(const struct lv *lv, const char *base, const char *other, bool *none)
{
	for (int k = 1; k < 100; k++) {
		char *name;
		if ((k == 1 ? asprintf(&name, "%s", base) : asprintf(&name, "%s_%d", base, k)) < 0)
			return NULL;
		if (!symbolic_name_taken(lv->m, NULL, name) && (!other || strcmp(name, other) != 0))
			return name;
		free(name);
	}
	*none = true;
	return NULL;
}

/* The level's sizes, axes and assumptions. */
static void symbols(struct lv *lv)
{
	const struct model *m = lv->m;
	struct model *o = lv->out;
	for (int p = 0; p < lv->ns; p++)
		if (model_add_param(o, m->params[p]) < 0)
			failed(lv);
	bool none = false;
	char *rname = fresh(lv, "R", NULL, &none), *hname = rname ? fresh(lv, "H", rname, &none) : NULL;
	if (none) {
		free(rname);
		refuse(lv, "every name R, R_2, ..., R_99 or H, H_2, ..., H_99 is taken: one level "
			   "of superstep %s needs one of each",
		       step_name(lv));
		return;
	}
	int s = -1, r = -1, h = hname ? model_add_param(o, hname) : -1;
	if (!lv->axis_split) {
		s = model_add_param(o, lv->sname);
		r = rname ? model_add_param(o, rname) : -1;
	}
	for (int a = 0; a < m->naxes && lv->status == 0; a++) {
		if (lv->axis_split && a == lv->b.index) {
			lv->axis[a] = -1;
			r = rname ? model_add_axis(o, rname) : -1;
			s = model_add_axis(o, lv->sname);
			continue;
		}
		if ((lv->axis[a] = model_add_axis(o, m->axes[a])) < 0)
			failed(lv);
	}
	free(rname);
	free(hname);
	if (s < 0 || r < 0 || h < 0) {
		failed(lv);
		return;
	}
	enum model_sym k = lv->axis_split ? MODEL_AXIS : MODEL_PARAM;
	lv->S = (struct sym){k, s};
	lv->R = (struct sym){k, r};
	lv->H = (struct sym){MODEL_PARAM, h};
	/* no variable in the assumptions: none divided */
	for (int i = 0; i < m->nassume && lv->status == 0; i++) {
		if (names_split_axis(lv, &m->assume[i].f))
			continue;
		struct form f;
		plain_form(lv, &m->assume[i].f, &f);
		add_cons_list(lv, &o->assume, &o->nassume, m->assume[i].kind, &f, m->assume[i].divisor);
	}
	struct form f = {0};
	form_add(lv, &f, lv->S, 1);
	f.constant = -1;
	add_cons_list(lv, &o->assume, &o->nassume, MODEL_GE0, &f, 0);   /* s >= 1 */
	f = (struct form){0};
	form_add(lv, &f, lv->H, 1);
	f.constant = -1;
	add_cons_list(lv, &o->assume, &o->nassume, MODEL_GE0, &f, 0);   /* H >= 1 */
	f = (struct form){0};
	form_add(lv, &f, lv->R, 1);
	form_add(lv, &f, lv->H, -2);
	add_cons_list(lv, &o->assume, &o->nassume, MODEL_EQ0, &f, 0);   /* R == 2*H */
	for (int i = 0; i < m->nfacts && lv->status == 0; i++) {
		if (names_split_axis(lv, &m->facts[i].f) || names_split_axis(lv, &m->facts[i].divisor))
			continue;
		struct form a, d;
		plain_form(lv, &m->facts[i].f, &a);
		plain_form(lv, &m->facts[i].divisor, &d);
		struct model_aff af = form_aff(&a), ad = form_aff(&d);
		if (lv->status == 0 && model_add_fact(o, &af, &ad) < 0)
			failed(lv);
	}
}

/* The level's distributions, arrays and candidate. */
static void layouts(struct lv *lv)
{
	const struct model *m = lv->m;
	struct model *o = lv->out;
	/* named distributions serve predicates, which no level has: one on a
	 * split axis is left whole */
	for (int d = 0; d < m->ndists && lv->status == 0; d++) {
		struct form f = {0};
		if (!names_split_axis(lv, &m->dist_extent_affs[d]))
			plain_form(lv, &m->dist_extent_affs[d], &f);
		else
			f.constant = 1;
		struct model_aff a = form_aff(&f);
		if (lv->status == 0 && (model_add_dist(o, m->dists[d], m->dist_extents[d]) < 0 ||
					model_dist_set_extent(o, d, &a) < 0))
			failed(lv);
	}
	for (int x = 0; x < m->narrays && lv->status == 0; x++) {
		const struct model_array *arr = &m->arrays[x];
		int nd = new_ndims(lv, x), k = 0;
		if (nd > MODEL_MAX_DIMS) {
			refuse(lv, "%s would have more than %d dimensions at one level", arr->name,
			       MODEL_MAX_DIMS);
			return;
		}
		const char *ext[MODEL_MAX_DIMS];
		struct form f[MODEL_MAX_DIMS];
		for (int d = 0; d < arr->ndims && lv->status == 0; d++) {
			if (!lv->split[x][d]) {
				if (names_split_axis(lv, &arr->extent_affs[d]) && lv->used[x]) {
					refuse(lv, "%s has an extent of %s, the axis one level splits",
					       arr->name, lv->bname);
					return;
				}
				ext[k] = arr->extents[d];
				if (names_split_axis(lv, &arr->extent_affs[d])) {
					f[k] = (struct form){0};
					f[k++].constant = 1; /* not the candidate's */
				} else {
					plain_form(lv, &arr->extent_affs[d], &f[k++]);
				}
				continue;
			}
			f[k] = (struct form){0};
			form_add(lv, &f[k], lv->R, 1);
			ext[k++] = lv->axis_split ? o->axes[lv->R.index] : o->params[lv->R.index];
			f[k] = (struct form){0};
			form_add(lv, &f[k], lv->S, 1);
			ext[k++] = lv->sname;
		}
		int nx = lv->status == 0 ? model_add_array(o, arr->name, nd, ext) : -1;
		for (int d = 0; nx >= 0 && d < nd; d++) {
			struct model_aff a = form_aff(&f[d]);
			if (model_array_set_extent(&o->arrays[nx], d, &a) < 0)
				nx = -1;
		}
		if (nx < 0) {
			failed(lv);
			return;
		}
		o->arrays[nx].words = arr->words;
	}
	if (lv->status != 0)
		return;
	const struct model_candidate *mc = &m->cands[lv->cand];
	int c = model_add_candidate(o, mc->name);
	if (c < 0) {
		failed(lv);
		return;
	}
	struct model_candidate *oc = &o->cands[c];
	for (int d = 0; d < m->ndists; d++) {
		oc->named[d] = mc->named[d];
		if (oc->named[d].kind != DIST_NONE)
			oc->named[d].axis = lv->axis[oc->named[d].axis];
		if (oc->named[d].kind != DIST_NONE && oc->named[d].axis < 0)
			oc->named[d] = (struct dist){DIST_NONE, -1, 0, -1};
	}
	for (int x = 0; x < m->narrays && lv->status == 0; x++) {
		int k = 0;
		for (int d = 0; d < m->arrays[x].ndims; d++) {
			struct dist l = mc->layout[x][d];
			if (!lv->split[x][d]) {
				if (l.kind != DIST_NONE)
					l.axis = lv->axis[l.axis];
				if (l.kind != DIST_NONE && l.axis < 0)
					l = (struct dist){DIST_NONE, -1, 0, -1}; /* not the candidate's */
				oc->layout[x][k++] = l;
				continue;
			}
			if (l.kind != DIST_NONE) {
				/* process s*q + e is (q, e) */
				oc->layout[x][k] = (struct dist){DIST_IDENTITY, lv->R.index, 1, -1};
				oc->layout[x][k + 1] = (struct dist){DIST_IDENTITY, lv->S.index, 1, -1};
			}
			k += 2;
		}
		unsigned rep = 0;
		for (int a = 0; a < m->naxes; a++)
			if ((mc->replicate[x] & (1u << a)) && lv->axis[a] >= 0)
				rep |= 1u << lv->axis[a];
		oc->replicate[x] = rep;
		if (!lv->used[x] && model_candidate_drop_array(o, c, x) < 0)
			failed(lv);
	}
}

/* The superstep's statements, rewritten, into the level's one superstep. */
static void statements(struct lv *lv)
{
	const struct model_superstep *ss = &lv->m->steps[lv->step];
	int step = model_add_superstep(lv->out, ss->name);
	if (step < 0) {
		failed(lv);
		return;
	}
	for (int i = 0; i < ss->nstmts && lv->status == 0; i++) {
		const struct model_stmt *st = &ss->stmts[i];
		statement_vars(lv, st);
		if (lv->status != 0)
			return;
		int x = st->lhs.array;
		char **subs = access_texts(lv, &st->lhs);
		struct model_stmt *ns = subs ? model_add_stmt(lv->out, step, 0, NULL,
							      st->lhs.space.cond, x,
							      (const char *const *)subs)
					     : NULL;
		free_texts(subs, new_ndims(lv, x));
		if (!ns) {
			failed(lv);
			return;
		}
		/* the reads' and terms' spaces first, empty: model_add_read
		 * starts each with the left-hand side's variables */
		for (int r = 0; r < st->nreads && lv->status == 0; r++) {
			const struct model_access *rd = &st->reads[r];
			char **t = access_texts(lv, rd);
			if (!t || !model_add_read(lv->out, ns, 0, NULL, rd->space.cond, rd->array,
						  (const char *const *)t))
				failed(lv);
			free_texts(t, new_ndims(lv, rd->array));
		}
		for (int k = 0; k < st->nterms && lv->status == 0; k++)
			if (!model_add_term(ns, 0, NULL, st->terms[k].cond))
				failed(lv);
		rewrite_space(lv, &st->lhs.space, &ns->lhs.space);
		rewrite_subs(lv, &st->lhs, &ns->lhs);
		for (int r = 0; r < st->nreads && lv->status == 0; r++) {
			rewrite_space(lv, &st->reads[r].space, &ns->reads[r].space);
			rewrite_subs(lv, &st->reads[r], &ns->reads[r]);
		}
		for (int k = 0; k < st->nterms && lv->status == 0; k++)
			rewrite_space(lv, &st->terms[k], &ns->terms[k]);
	}
}

int model_level(const struct model *m, int cand, int step, struct model_level *out,
		char **reason)
{
	*reason = NULL;
	out->m = NULL;
	const struct model_superstep *ss = &m->steps[step];
	const struct model_loop *lp = ss->loop >= 0 ? &m->loops[ss->loop] : NULL;
	const struct model_aff *hi = lp ? &lp->hi : NULL;
	if (!lp || lp->outer >= 0 || lp->ratio != 2 || lp->lo.nterms != 0 || lp->lo.constant != 1 ||
	    hi->constant != 0 || hi->nterms != 1 || hi->terms[0].coef != 1 ||
	    hi->terms[0].kind == MODEL_VAR ||
	    (hi->terms[0].kind == MODEL_PARAM && hi->terms[0].index >= model_nsizes(m))) {
		const struct model_loop *by = ss->by_loop >= 0 ? &m->loops[ss->by_loop] : lp;
		if (asprintf(reason, "superstep %s divides by the variable of the loop %s%s%s, which is "
				     "not s = 1, 2, 4, ... < B (B one size or grid axis) around it "
				     "alone: -D counts it level by level",
			     ss->name, by ? "(" : "", by ? by->range : "", by ? ")" : "") < 0)
			*reason = NULL;
		return 1;
	}
	struct lv lv = {.m = m, .cand = cand, .step = step, .ns = model_nsizes(m), .sp = lp->param,
			.b = {hi->terms[0].kind, hi->terms[0].index}, .sname = lp->var};
	lv.bname = lv.b.kind == MODEL_PARAM ? m->params[lv.b.index] : m->axes[lv.b.index];
	lv.split = calloc((size_t)m->narrays + 1, sizeof(*lv.split));
	lv.axis = calloc((size_t)m->naxes + 1, sizeof(*lv.axis));
	lv.used = calloc((size_t)m->narrays + 1, sizeof(*lv.used));
	lv.out = model_new(m->assumptions);
	if (!lv.split || !lv.axis || !lv.used || !lv.out)
		failed(&lv);
	if (lv.status == 0)
		mark_split(&lv);
	if (lv.status == 0)
		symbols(&lv);
	if (lv.status == 0)
		layouts(&lv);
	if (lv.status == 0)
		statements(&lv);
	free(lv.split);
	free(lv.axis);
	free(lv.used);
	free(lv.divided);
	free(lv.first);
	if (lv.status != 0) {
		model_free(lv.out);
		*reason = lv.reason;
		return lv.status;
	}
	out->m = lv.out;
	out->s = lv.sname;
	out->r = lv.axis_split ? lv.out->axes[lv.R.index] : lv.out->params[lv.R.index];
	out->h = lv.out->params[lv.H.index];
	return 0;
}
