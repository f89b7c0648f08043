/* Building and freeing the polyhedral model. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/model/model.h"

#include <gmp.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grows *ARR (of *N elements of SIZE bytes) by one zeroed element; returns it. */
static void *grow(void *arr_p, int *n, size_t size)
{
	void **arr = arr_p;
	char *p = realloc(*arr, size * (size_t)(*n + 1));
	if (!p)
		return NULL;
	memset(p + size * (size_t)*n, 0, size);
	*arr = p;
	return p + size * (size_t)(*n)++;
}

static char **strdup_array(int n, const char *const src[])
{
	char **dst = calloc((size_t)n + 1, sizeof(*dst));
	if (!dst)
		return NULL;
	for (int i = 0; i < n; i++)
		if (!(dst[i] = strdup(src[i]))) {
			while (i-- > 0)
				free(dst[i]);
			free(dst);
			return NULL;
		}
	return dst;
}

static void free_array(int n, char **a)
{
	if (!a)
		return;
	for (int i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

void model_aff_clear(struct model_aff *f)
{
	free(f->terms);
	memset(f, 0, sizeof(*f));
}

/* F at PARAMS and AXES into OUT (F names no variable). */
static void aff_at(const struct model_aff *f, const long long params[], const long long axes[],
		   mpz_t out)
{
	_Static_assert(sizeof(long) == sizeof(long long), "long is 64 bits");
	mpz_t v;
	mpz_init(v);
	mpz_set_si(out, (long)f->constant);
	for (int i = 0; i < f->nterms; i++) {
		const struct model_term *t = &f->terms[i];
		mpz_set_si(v, (long)(t->kind == MODEL_PARAM ? params[t->index] : axes[t->index]));
		mpz_mul_si(v, v, (long)t->coef);
		mpz_add(out, out, v);
	}
	mpz_clear(v);
}

int model_facts_hold(const struct model *m, const long long params[], const long long axes[])
{
	mpz_t f, d;
	mpz_inits(f, d, NULL);
	int r = 1;
	for (int i = 0; i < m->nfacts && r; i++) {
		aff_at(&m->facts[i].f, params, axes, f);
		aff_at(&m->facts[i].divisor, params, axes, d);
		r = mpz_sgn(d) > 0 && mpz_divisible_p(f, d);
	}
	mpz_clears(f, d, NULL);
	return r;
}

bool model_aff_equal(const struct model_aff *a, const struct model_aff *b)
{
	if (a->constant != b->constant || a->nterms != b->nterms)
		return false;
	for (int i = 0; i < a->nterms; i++)
		if (a->terms[i].kind != b->terms[i].kind || a->terms[i].index != b->terms[i].index ||
		    a->terms[i].coef != b->terms[i].coef || a->terms[i].by != b->terms[i].by)
			return false;
	return true;
}

bool model_dist_is_identity(const struct dist *d, const struct model_aff *x)
{
	if (d->kind == DIST_IDENTITY)
		return true;
	return (d->kind == DIST_BLOCK || d->kind == DIST_CYCLIC) && x->constant == 0 &&
	       x->nterms == 1 && x->terms[0].kind == MODEL_AXIS && x->terms[0].index == d->axis &&
	       x->terms[0].coef == 1;
}

struct model_cons model_extent_positive(const struct model *m, int x, int d)
{
	const struct model_aff *e = &m->arrays[x].extent_affs[d];
	return (struct model_cons){MODEL_GE0, {e->constant - 1, e->nterms, e->terms}, 0};
}

int model_aff_copy(struct model_aff *dst, const struct model_aff *src)
{
	*dst = *src;
	dst->terms = NULL;
	if (src->nterms == 0)
		return 0;
	dst->terms = malloc(sizeof(*dst->terms) * (size_t)src->nterms);
	if (!dst->terms) {
		dst->nterms = 0;
		return -1;
	}
	memcpy(dst->terms, src->terms, sizeof(*dst->terms) * (size_t)src->nterms);
	return 0;
}

static void cons_free(struct model_cons *cons, int n)
{
	for (int i = 0; i < n; i++)
		model_aff_clear(&cons[i].f);
	free(cons);
}

int model_cons_add(struct model_cons **cons, int *n, enum model_cons_kind kind,
		   const struct model_aff *f, long long divisor)
{
	struct model_cons *c = grow(cons, n, sizeof(**cons));
	if (!c)
		return -1;
	c->kind = kind;
	c->divisor = divisor;
	return model_aff_copy(&c->f, f);
}

int model_add_fact(struct model *m, const struct model_aff *f, const struct model_aff *divisor)
{
	struct model_fact *x = grow(&m->facts, &m->nfacts, sizeof(*m->facts));
	if (!x)
		return -1;
	if (model_aff_copy(&x->f, f) < 0 || model_aff_copy(&x->divisor, divisor) < 0)
		return -1;
	return 0;
}

static void space_clear(struct model_space *s)
{
	free_array(s->nvars, s->vars);
	free(s->vidx);
	free(s->cond);
	cons_free(s->cons, s->ncons);
	for (int i = 0; i < s->npreds; i++) {
		free(s->preds[i].index);
		free(s->preds[i].coord);
		model_aff_clear(&s->preds[i].index_aff);
		model_aff_clear(&s->preds[i].coord_aff);
	}
	free(s->preds);
}

static void affs_free(struct model_aff *f, int n)
{
	for (int i = 0; f && i < n; i++)
		model_aff_clear(&f[i]);
	free(f);
}

static void access_clear(const struct model *m, struct model_access *a)
{
	space_clear(&a->space);
	int ndims = a->array >= 0 ? m->arrays[a->array].ndims : 0;
	free_array(ndims, a->subs);
	affs_free(a->sub_affs, ndims);
}

void model_free(struct model *m)
{
	if (!m)
		return;
	for (int s = 0; s < m->nsteps; s++) {
		struct model_superstep *step = &m->steps[s];
		for (int i = 0; i < step->nstmts; i++) {
			struct model_stmt *st = &step->stmts[i];
			access_clear(m, &st->lhs);
			for (int r = 0; r < st->nreads; r++)
				access_clear(m, &st->reads[r]);
			free(st->reads);
			for (int k = 0; k < st->nterms; k++)
				space_clear(&st->terms[k]);
			free(st->terms);
		}
		free(step->stmts);
		free(step->name);
	}
	free(m->steps);
	for (int c = 0; c < m->ncands; c++) {
		free(m->cands[c].name);
		free(m->cands[c].named);
		for (int a = 0; m->cands[c].layout && a < m->narrays; a++)
			free(m->cands[c].layout[a]);
		free(m->cands[c].layout);
		free(m->cands[c].steps);
		free(m->cands[c].has);
		free(m->cands[c].replicate);
		free(m->cands[c].pred_array);
		free(m->cands[c].pred_dim);
	}
	free(m->cands);
	for (int a = 0; a < m->narrays; a++) {
		free(m->arrays[a].name);
		free_array(m->arrays[a].ndims, m->arrays[a].extents);
		affs_free(m->arrays[a].extent_affs, m->arrays[a].ndims);
	}
	free(m->arrays);
	free_array(m->ndists, m->dists);
	free_array(m->ndists, m->dist_extents);
	affs_free(m->dist_extent_affs, m->ndists);
	free_array(m->naxes, m->coords);
	free_array(m->naxes, m->axes);
	free_array(m->nparams, m->params);
	for (int l = 0; l < m->nloops; l++) {
		free(m->loops[l].var);
		free(m->loops[l].range);
		model_aff_clear(&m->loops[l].lo);
		model_aff_clear(&m->loops[l].hi);
	}
	free(m->loops);
	free(m->assumptions);
	cons_free(m->assume, m->nassume);
	for (int i = 0; i < m->nfacts; i++) {
		model_aff_clear(&m->facts[i].f);
		model_aff_clear(&m->facts[i].divisor);
	}
	free(m->facts);
	free(m);
}

struct model *model_new(const char *assumptions)
{
	struct model *m = calloc(1, sizeof(*m));
	if (m && !(m->assumptions = strdup(assumptions ? assumptions : "true"))) {
		free(m);
		return NULL;
	}
	return m;
}

/* NAME copied onto NAMES (*N of them); -1 when out of memory, NAMES and
 * *N then unchanged. */
static int add_name(char ***names, int *n, const char *name)
{
	char *copy = strdup(name);
	char **slot = copy ? grow(names, n, sizeof(char *)) : NULL;
	if (!slot) {
		free(copy);
		return -1;
	}
	*slot = copy;
	return *n - 1;
}

int model_add_param(struct model *m, const char *name)
{
	return add_name(&m->params, &m->nparams, name);
}

int model_add_axis(struct model *m, const char *name)
{
	static const char what[] = "the process coordinate on axis ";
	char *coord = malloc(sizeof(what) + strlen(name));
	if (!coord)
		return -1;
	strcpy(coord, what);
	strcat(coord, name);
	int n = m->naxes;
	int r = add_name(&m->coords, &n, coord);
	free(coord);
	if (r < 0)
		return -1;
	r = add_name(&m->axes, &m->naxes, name);
	if (r < 0) {
		free(m->coords[m->naxes]);
		m->coords[m->naxes] = NULL;
	}
	return r;
}

int model_add_dist(struct model *m, const char *name, const char *extent)
{
	int n = m->ndists, k = m->ndists;
	if (add_name(&m->dist_extents, &n, extent) < 0)
		return -1;
	int r = grow(&m->dist_extent_affs, &k, sizeof(*m->dist_extent_affs))
			? add_name(&m->dists, &m->ndists, name) : -1;
	if (r < 0) {   /* model_free frees M->ndists of them */
		free(m->dist_extents[m->ndists]);
		m->dist_extents[m->ndists] = NULL;
	}
	return r;
}

int model_dist_set_extent(struct model *m, int d, const struct model_aff *f)
{
	if (d < 0 || d >= m->ndists)
		return -1;
	model_aff_clear(&m->dist_extent_affs[d]);
	return model_aff_copy(&m->dist_extent_affs[d], f);
}

int model_add_array(struct model *m, const char *name, int ndims, const char *const extents[])
{
	if (ndims > MODEL_MAX_DIMS || m->ncands > 0)
		return -1;
	struct model_array *a = grow(&m->arrays, &m->narrays, sizeof(*a));
	if (!a)
		return -1;
	a->ndims = ndims;
	a->words = 1;
	if (!(a->name = strdup(name)) || !(a->extents = strdup_array(ndims, extents)) ||
	    !(a->extent_affs = calloc((size_t)ndims + 1, sizeof(*a->extent_affs))))
		return -1;
	return m->narrays - 1;
}

int model_add_candidate(struct model *m, const char *name)
{
	struct model_candidate *c = grow(&m->cands, &m->ncands, sizeof(*c));
	if (!c || !(c->name = strdup(name)))
		return -1;
	c->named = calloc((size_t)m->ndists + 1, sizeof(*c->named));
	c->layout = calloc((size_t)m->narrays + 1, sizeof(*c->layout));
	c->replicate = calloc((size_t)m->narrays + 1, sizeof(*c->replicate));
	if (!c->named || !c->layout || !c->replicate)
		return -1;
	for (int i = 0; i < m->ndists; i++)
		c->named[i] = (struct dist){DIST_NONE, -1, 0, -1};
	for (int a = 0; a < m->narrays; a++) {
		c->layout[a] = calloc((size_t)m->arrays[a].ndims + 1, sizeof(**c->layout));
		if (!c->layout[a])
			return -1;
		for (int d = 0; d < m->arrays[a].ndims; d++)
			c->layout[a][d] = (struct dist){DIST_NONE, -1, 0, -1};
	}
	return m->ncands - 1;
}

int model_candidate_add_step(struct model *m, int c, int step)
{
	struct model_candidate *mc = &m->cands[c];
	int *v = realloc(mc->steps, ((size_t)mc->nsteps + 1) * sizeof(*v));
	if (!v)
		return -1;
	v[mc->nsteps++] = step;
	mc->steps = v;
	return 0;
}

int model_candidate_drop_array(struct model *m, int c, int x)
{
	struct model_candidate *mc = &m->cands[c];
	if (!mc->has) {
		mc->has = calloc((size_t)m->narrays + 1, sizeof(*mc->has));
		if (!mc->has)
			return -1;
		for (int a = 0; a < m->narrays; a++)
			mc->has[a] = true;
	}
	mc->has[x] = false;
	return 0;
}

int model_cand_nsteps(const struct model *m, int c)
{
	return m->cands[c].steps ? m->cands[c].nsteps : m->nsteps;
}

int model_cand_step(const struct model *m, int c, int k)
{
	return m->cands[c].steps ? m->cands[c].steps[k] : k;
}

bool model_pred_extent(const struct model *m, const struct model_candidate *c, int d,
		       const struct model_aff **aff, const char **text)
{
	if (!c->pred_array) {
		*aff = &m->dist_extent_affs[d];
		*text = m->dist_extents[d];
		return true;
	}
	int a = c->pred_array[d], k = c->pred_dim[d];
	if (a < 0)
		return false;
	*aff = &m->arrays[a].extent_affs[k];
	*text = m->arrays[a].extents[k];
	return true;
}

bool model_cand_has(const struct model *m, int c, int x)
{
	return !m->cands[c].has || m->cands[c].has[x];
}

int model_add_superstep(struct model *m, const char *name)
{
	struct model_superstep *s = grow(&m->steps, &m->nsteps, sizeof(*s));
	if (!s)
		return -1;
	s->loop = -1;
	s->by_loop = -1;
	if (!(s->name = strdup(name)))
		return -1;
	return m->nsteps - 1;
}

char *model_step_level_reason(const struct model *m, int step)
{
	int l = m->steps[step].by_loop;
	char *why = NULL;
	if (l < 0 || asprintf(&why, "a condition divides by the loop's variable %s, a number only "
				   "level by level: every value given (-D) counts it, and the "
				   "symbolic grid sums the levels of a doubling loop where it can",
			      m->loops[l].var) < 0)
		return NULL;
	return why;
}

int model_nsizes(const struct model *m)
{
	return m->nparams - m->nloops;
}

int model_add_loop(struct model *m, const char *var, const char *range, const struct model_aff *lo,
		   const struct model_aff *hi, long long ratio, int outer)
{
	struct model_loop *l = grow(&m->loops, &m->nloops, sizeof(*l));
	if (!l)
		return -1;
	l->outer = outer;
	l->ratio = ratio;
	l->param = -1;
	if (!(l->var = strdup(var)) || !(l->range = strdup(range)) ||
	    model_aff_copy(&l->lo, lo) < 0 || model_aff_copy(&l->hi, hi) < 0)
		return -1;
	if ((l->param = model_add_param(m, var)) < 0)
		return -1;
	return m->nloops - 1;
}

bool model_loop_bounds(const struct model_loop *l, const long *sizes, long long *lo,
		       long long *hi)
{
	const struct model_aff *b[2] = {&l->lo, &l->hi};
	long long v[2];
	for (int k = 0; k < 2; k++) {
		v[k] = b[k]->constant;
		for (int t = 0; t < b[k]->nterms; t++) {
			const struct model_term *x = &b[k]->terms[t];
			long long p;
			if (x->kind != MODEL_AXIS || !sizes ||
			    __builtin_mul_overflow((long long)sizes[x->index], x->coef, &p) ||
			    __builtin_add_overflow(v[k], p, &v[k]))
				return false;
		}
	}
	*lo = v[0];
	*hi = v[1];
	return true;
}

bool model_loop_next(const struct model_loop *l, long long *v)
{
	return l->ratio < 2 ? !__builtin_add_overflow(*v, 1, v)
			    : !__builtin_mul_overflow(*v, l->ratio, v);
}

int model_step_loops(const struct model *m, int step, int loops[])
{
	int n = 0;
	for (int l = m->steps[step].loop; l >= 0; l = m->loops[l].outer)
		n++;
	int k = n;
	for (int l = m->steps[step].loop; l >= 0; l = m->loops[l].outer)
		loops[--k] = l;
	return n;
}

static bool aff_names(const struct model_aff *a, int param)
{
	for (int i = 0; i < a->nterms; i++)
		if ((a->terms[i].kind == MODEL_PARAM && a->terms[i].index == param) ||
		    a->terms[i].by == param + 1)
			return true;
	return false;
}

static bool space_names(const struct model_space *s, int param)
{
	for (int c = 0; c < s->ncons; c++)
		if (aff_names(&s->cons[c].f, param))
			return true;
	for (int p = 0; p < s->npreds; p++)
		if (aff_names(&s->preds[p].index_aff, param) ||
		    aff_names(&s->preds[p].coord_aff, param))
			return true;
	return false;
}

static bool access_names(const struct model_access *a, int ndims, int param)
{
	if (space_names(&a->space, param))
		return true;
	for (int d = 0; d < ndims; d++)
		if (aff_names(&a->sub_affs[d], param))
			return true;
	return false;
}

bool model_step_names_param(const struct model *m, int step, int param)
{
	const struct model_superstep *st = &m->steps[step];
	for (int k = 0; k < st->nstmts; k++) {
		const struct model_stmt *x = &st->stmts[k];
		if (access_names(&x->lhs, m->arrays[x->lhs.array].ndims, param))
			return true;
		for (int r = 0; r < x->nreads; r++)
			if (access_names(&x->reads[r], m->arrays[x->reads[r].array].ndims, param))
				return true;
		for (int t = 0; t < x->nterms; t++)
			if (space_names(&x->terms[t], param))
				return true;
	}
	return false;
}

static int space_init(struct model_space *s, int nvars, const char *const vars[], int nextra,
		      const char *const extra[], const char *cond)
{
	s->nvars = nvars + nextra;
	s->vars = calloc((size_t)s->nvars + 1, sizeof(*s->vars));
	if (!s->vars)
		return -1;
	for (int i = 0; i < s->nvars; i++)
		if (!(s->vars[i] = strdup(i < nvars ? vars[i] : extra[i - nvars])))
			return -1;
	s->cond = strdup(cond ? cond : "true");
	s->weight = 1;
	return s->cond ? 0 : -1;
}

static int access_init(const struct model *m, struct model_access *a, int array,
		       const char *const subs[])
{
	a->array = array;
	a->subs = strdup_array(m->arrays[array].ndims, subs);
	a->sub_affs = calloc((size_t)m->arrays[array].ndims + 1, sizeof(*a->sub_affs));
	return a->subs && a->sub_affs ? 0 : -1;
}

struct model_stmt *model_add_stmt(struct model *m, int step, int nvars, const char *const vars[],
				  const char *cond, int array, const char *const subs[])
{
	struct model_superstep *s = &m->steps[step];
	struct model_stmt *st = grow(&s->stmts, &s->nstmts, sizeof(*st));
	if (!st)
		return NULL;
	st->lhs.array = -1;
	if (space_init(&st->lhs.space, nvars, vars, 0, NULL, cond) < 0 ||
	    access_init(m, &st->lhs, array, subs) < 0)
		return NULL;
	return st;
}

struct model_access *model_add_read(struct model *m, struct model_stmt *st, int nextra,
				    const char *const extra[], const char *cond, int array,
				    const char *const subs[])
{
	struct model_access *a = grow(&st->reads, &st->nreads, sizeof(*a));
	if (!a)
		return NULL;
	a->array = -1;
	if (space_init(&a->space, st->lhs.space.nvars, (const char *const *)st->lhs.space.vars,
		       nextra, extra, cond) < 0 ||
	    access_init(m, a, array, subs) < 0)
		return NULL;
	return a;
}

struct model_space *model_add_term(struct model_stmt *st, int nextra, const char *const extra[],
				   const char *cond)
{
	struct model_space *s = grow(&st->terms, &st->nterms, sizeof(*s));
	if (!s || space_init(s, st->lhs.space.nvars, (const char *const *)st->lhs.space.vars,
			     nextra, extra, cond) < 0)
		return NULL;
	return s;
}

int model_space_add_pred(struct model_space *s, int dist, const char *index, const char *coord)
{
	struct model_pred *p = grow(&s->preds, &s->npreds, sizeof(*p));
	if (!p)
		return -1;
	p->dist = dist;
	if (!(p->index = strdup(index)) || !(p->coord = strdup(coord)))
		return -1;
	return 0;
}

int model_cand_block_param(const struct model *m, int cand)
{
	const struct model_candidate *c = &m->cands[cand];
	for (int i = 0; i < m->ndists; i++)
		if (c->named[i].block_param >= 0)
			return c->named[i].block_param;
	for (int a = 0; a < m->narrays; a++)
		for (int d = 0; model_cand_has(m, cand, a) && d < m->arrays[a].ndims; d++)
			if (c->layout[a][d].block_param >= 0)
				return c->layout[a][d].block_param;
	return -1;
}

int model_space_add_var(struct model_space *s, const char *name, int index)
{
	char **vars = realloc(s->vars, sizeof(*vars) * (size_t)(s->nvars + 2));
	if (!vars)
		return -1;
	s->vars = vars;
	int *vidx = realloc(s->vidx, sizeof(*vidx) * (size_t)(s->nvars + 2));
	if (!vidx)
		return -1;
	s->vidx = vidx;
	if (!(s->vars[s->nvars] = strdup(name)))
		return -1;
	s->vars[s->nvars + 1] = NULL;
	s->vidx[s->nvars++] = index;
	return 0;
}

int model_space_set_vidx(struct model_space *s, const int vidx[])
{
	free(s->vidx);
	s->vidx = malloc(sizeof(*s->vidx) * (size_t)(s->nvars + 1));
	if (!s->vidx)
		return -1;
	memcpy(s->vidx, vidx, sizeof(*s->vidx) * (size_t)s->nvars);
	return 0;
}

int model_pred_set_affs(struct model_space *s, int k, const struct model_aff *index,
			const struct model_aff *coord)
{
	struct model_pred *p = &s->preds[k];
	model_aff_clear(&p->index_aff);
	model_aff_clear(&p->coord_aff);
	return model_aff_copy(&p->index_aff, index) | model_aff_copy(&p->coord_aff, coord);
}

int model_access_set_sub(struct model_access *a, int ndims, int d, const struct model_aff *f)
{
	if (d < 0 || d >= ndims)
		return -1;
	model_aff_clear(&a->sub_affs[d]);
	return model_aff_copy(&a->sub_affs[d], f);
}

int model_array_set_extent(struct model_array *a, int d, const struct model_aff *f)
{
	if (d < 0 || d >= a->ndims)
		return -1;
	model_aff_clear(&a->extent_affs[d]);
	return model_aff_copy(&a->extent_affs[d], f);
}

static bool same_space(const struct model_space *a, const struct model_space *b)
{
	if (a->nvars != b->nvars || a->npreds != b->npreds || strcmp(a->cond, b->cond) != 0)
		return false;
	for (int i = 0; i < a->nvars; i++)
		if (strcmp(a->vars[i], b->vars[i]) != 0)
			return false;
	for (int i = 0; i < a->npreds; i++)
		if (a->preds[i].negated != b->preds[i].negated)
			return false;
	for (int i = 0; i < a->npreds; i++)
		if (a->preds[i].dist != b->preds[i].dist || a->preds[i].negated != b->preds[i].negated ||
		    strcmp(a->preds[i].index, b->preds[i].index) != 0 ||
		    strcmp(a->preds[i].coord, b->preds[i].coord) != 0)
			return false;
	return true;
}

void model_merge_terms(struct model_stmt *st)
{
	int n = 0;
	for (int k = 0; k < st->nterms; k++) {
		int same = -1;
		for (int i = 0; i < n && same < 0; i++)
			if (same_space(&st->terms[i], &st->terms[k]))
				same = i;
		if (same >= 0) {
			st->terms[same].weight += st->terms[k].weight;
			space_clear(&st->terms[k]);
		} else {
			st->terms[n++] = st->terms[k];
		}
	}
	st->nterms = n;
}

/* F (of sizes and axes only) in the formula grammar on OUT; -1 when a term
 * is of something else. */
static int print_expr_aff(FILE *out, const struct model *m, const struct model_aff *f)
{
	fputc('(', out);
	for (int t = 0; t < f->nterms; t++) {
		const struct model_term *x = &f->terms[t];
		if ((x->kind != MODEL_PARAM && x->kind != MODEL_AXIS) || x->by)
			return -1;
		fprintf(out, "%s%lld*%s", t ? " + " : "", x->coef,
			x->kind == MODEL_PARAM ? m->params[x->index] : m->axes[x->index]);
	}
	fprintf(out, "%s%lld)", f->nterms ? " + " : "", f->constant);
	return 0;
}

/* Condition C (or the fact F) as text into *OUT (malloc'd); -1 when out of
 * memory or not of sizes and axes. */
static int expr_of(const struct model *m, const struct model_cons *c,
		   const struct model_fact *fact, char **text)
{
	size_t len = 0;
	FILE *out = open_memstream(text, &len);
	if (!out)
		return -1;
	int r;
	if (fact) {
		r = print_expr_aff(out, m, &fact->f);
		fputs(" % ", out);
		r |= print_expr_aff(out, m, &fact->divisor);
		fputs(" == 0", out);
	} else {
		r = print_expr_aff(out, m, &c->f);
		if (c->kind == MODEL_DIVIDES)
			fprintf(out, " %% %lld == 0", c->divisor);
		else
			fputs(c->kind == MODEL_GE0 ? " >= 0" : c->kind == MODEL_EQ0 ? " == 0" : " != 0",
			      out);
	}
	if (fclose(out) != 0 || r < 0) {
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}

char **model_assumption_exprs(const struct model *m, int *n)
{
	int extents = 0;
	for (int x = 0; x < m->narrays; x++)
		extents += m->arrays[x].ndims;
	int cap = m->nassume + m->nfacts + m->naxes + extents;
	char **v = calloc((size_t)cap + 1, sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	bool ok = true;
	for (int i = 0; ok && i < m->nassume; i++)
		ok = expr_of(m, &m->assume[i], NULL, &v[(*n)++]) == 0;
	for (int i = 0; ok && i < m->nfacts; i++)
		ok = expr_of(m, NULL, &m->facts[i], &v[(*n)++]) == 0;
	for (int a = 0; ok && a < m->naxes; a++)
		ok = asprintf(&v[(*n)++], "%s >= 1", m->axes[a]) >= 0;
	for (int x = 0; ok && x < m->narrays; x++)
		for (int d = 0; ok && d < m->arrays[x].ndims; d++) {
			struct model_cons c = model_extent_positive(m, x, d);
			ok = expr_of(m, &c, NULL, &v[(*n)++]) == 0;
		}
	if (!ok) {
		for (int i = 0; i < *n; i++)
			free(v[i]);
		free(v);
		*n = 0;
		return NULL;
	}
	return v;
}
