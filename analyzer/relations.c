/* Relations on a concrete grid.
 *
 * Everything is printed as ISL text over the size parameters and the grid axes,
 * parsed, and then the axes are fixed to their sizes and projected out, so the
 * model's expressions (`sum v < N`, `W[m][n][N]`) need no rewriting. */
#include "analyzer/relations.h"

#include <stdlib.h>
#include <string.h>

#include <isl/space.h>

#include "analyzer/text.h"

void print_model_param_list(FILE *out, const struct model *m)
{
	for (int i = 0; i < m->nparams; i++)
		fprintf(out, "%s%s", i ? ", " : "", m->params[i]);
	for (int a = 0; a < m->naxes; a++)
		fprintf(out, "%s%s", m->nparams + a ? ", " : "", m->axes[a]);
}

void print_model_params(FILE *out, const struct model *m)
{
	fputs("[", out);
	print_model_param_list(out, m);
	fputs("] -> ", out);
}

static void print_tuple(FILE *out, const char *name, int n, char *const vars[])
{
	fprintf(out, "%s[", name);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", vars[i]);
	fputs("]", out);
}

/* The process tuple P[q0, ...] and its names. */
static const char *const qname[] = {"q__0", "q__1", "q__2"};
static void print_proc_tuple(FILE *out, const struct model *m)
{
	print_tuple(out, "P", m->naxes, (char *const *)qname);
}

static void print_space_cond(FILE *out, const struct model *m, const struct model_candidate *c,
			     const long sizes[], const struct model_space *s)
{
	fprintf(out, "(%s)", s->cond);
	for (int i = 0; i < s->npreds; i++) {
		const struct model_pred *p = &s->preds[i];
		const struct dist *d = &c->named[p->dist];
		fputs(" and ", out);
		if (d->kind == DIST_NONE || d->axis < 0) {
			fprintf(out, "((%s) = 0)", p->coord);
			continue;
		}
		fprintf(out, "(0 <= %s < %ld) and ", p->coord, sizes[d->axis]);
		dist_ops(d->kind)->owner_concrete(out, d, p->index, p->coord,
						  m->dist_extents[p->dist], sizes[d->axis]);
	}
}

/* Coordinates named QNAMES own element SUBS of array A.  An axis that no
 * dimension of the layout spreads over is coordinate 0. */
static void print_owner_cond(FILE *out, const struct model *m, const struct model_candidate *c,
			     const long sizes[], int a, char *const subs[], const char *const qn[])
{
	const struct model_array *arr = &m->arrays[a];
	for (int ax = 0; ax < m->naxes; ax++) {
		int dim = -1;
		for (int d = 0; d < arr->ndims; d++)
			if (c->layout[a][d].kind != DIST_NONE && c->layout[a][d].axis == ax)
				dim = d;
		fprintf(out, "%s(0 <= %s < %ld) and ", ax ? " and " : "", qn[ax], sizes[ax]);
		if (dim < 0) {
			fprintf(out, "(%s = 0)", qn[ax]);
			continue;
		}
		const struct dist *d = &c->layout[a][dim];
		dist_ops(d->kind)->owner_concrete(out, d, subs[dim], qn[ax], arr->extents[dim],
						  sizes[ax]);
	}
	if (m->naxes == 0)
		fputs("true", out);
}

static void print_in_bounds(FILE *out, const struct model_array *arr, char *const subs[])
{
	for (int d = 0; d < arr->ndims; d++)
		fprintf(out, "%s0 <= %s < %s", d ? " and " : "", subs[d], arr->extents[d]);
	if (arr->ndims == 0)
		fputs("true", out);
}

/* Fixes every grid axis parameter to its size and removes it. */
static __isl_give isl_map *fix_axes(__isl_take isl_map *map, const struct model *m,
				    const long sizes[])
{
	for (int a = m->naxes - 1; a >= 0; a--) {
		int pos = isl_map_find_dim_by_name(map, isl_dim_param, m->axes[a]);
		if (pos < 0)
			continue;
		map = isl_map_fix_si(map, isl_dim_param, pos, (int)sizes[a]);
		map = isl_map_project_out(map, isl_dim_param, pos, 1);
	}
	return map;
}

static __isl_give isl_map *read_map(isl_ctx *ctx, char *text, const struct model *m,
				    const long sizes[], char **reason)
{
	if (!text) {
		*reason = strdup("out of memory");
		return NULL;
	}
	isl_map *map = isl_map_read_from_str(ctx, text);
	if (!map) {
		const char *msg = isl_ctx_last_error_msg(ctx);
		size_t n = strlen(text) + 64 + (msg ? strlen(msg) : 0);
		*reason = malloc(n);
		if (*reason)
			snprintf(*reason, n, "ISL rejected a relation (%s): %s", msg ? msg : "?", text);
		isl_ctx_reset_error(ctx);
		free(text);
		return NULL;
	}
	free(text);
	return fix_axes(map, m, sizes);
}

/* The names e0, e1, ... of an element's indices. */
struct elem_names {
	char buf[MODEL_MAX_DIMS][16];
	char *name[MODEL_MAX_DIMS];
};

static char *const *elem_names(struct elem_names *n, int ndims)
{
	for (int d = 0; d < ndims && d < MODEL_MAX_DIMS; d++) {
		snprintf(n->buf[d], sizeof(n->buf[d]), "e__%d", d);
		n->name[d] = n->buf[d];
	}
	return n->name;
}

/* { P[q] -> A[e] : exists vars of the read : A[e] = read, the lhs owned by q } */
static char *use_text(const struct model *m, const struct model_candidate *c, const long sizes[],
		      const struct model_stmt *st, const struct model_access *rd)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	const struct model_array *arr = &m->arrays[rd->array];
	struct elem_names en;
	print_model_params(t.f, m);
	fputs("{ ", t.f);
	print_proc_tuple(t.f, m);
	fputs(" -> ", t.f);
	print_tuple(t.f, arr->name, arr->ndims, elem_names(&en, arr->ndims));
	fputs(" : exists (", t.f);
	for (int v = 0; v < rd->space.nvars; v++)
		fprintf(t.f, "%s%s", v ? ", " : "", rd->space.vars[v]);
	fprintf(t.f, " : (%s) and ", m->assumptions);
	print_space_cond(t.f, m, c, sizes, &st->lhs.space);
	fputs(" and ", t.f);
	print_space_cond(t.f, m, c, sizes, &rd->space);
	for (int d = 0; d < arr->ndims; d++)
		fprintf(t.f, " and e__%d = %s", d, rd->subs[d]);
	fputs(" and ", t.f);
	print_owner_cond(t.f, m, c, sizes, st->lhs.array, st->lhs.subs, qname);
	fputs(") }", t.f);
	return text_close(&t);
}

/* { A[e] -> P[q] : q owns A[e] } */
static char *own_text(const struct model *m, const struct model_candidate *c, const long sizes[],
		      int a)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	const struct model_array *arr = &m->arrays[a];
	struct elem_names en;
	char *const *e = elem_names(&en, arr->ndims);
	print_model_params(t.f, m);
	fputs("{ ", t.f);
	print_tuple(t.f, arr->name, arr->ndims, e);
	fputs(" -> ", t.f);
	print_proc_tuple(t.f, m);
	fprintf(t.f, " : (%s) and ", m->assumptions);
	print_in_bounds(t.f, arr, e);
	fputs(" and ", t.f);
	print_owner_cond(t.f, m, c, sizes, a, e, qname);
	fputs(" }", t.f);
	return text_close(&t);
}

/* { P[q] -> [vars] : the term's point belongs to an instance q computes } */
static char *work_text(const struct model *m, const struct model_candidate *c, const long sizes[],
		       const struct model_stmt *st, const struct model_space *term)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	print_model_params(t.f, m);
	fputs("{ ", t.f);
	print_proc_tuple(t.f, m);
	fputs(" -> ", t.f);
	print_tuple(t.f, "", term->nvars, term->vars);
	fprintf(t.f, " : (%s) and ", m->assumptions);
	print_space_cond(t.f, m, c, sizes, &st->lhs.space);
	fputs(" and ", t.f);
	print_space_cond(t.f, m, c, sizes, term);
	fputs(" and ", t.f);
	print_owner_cond(t.f, m, c, sizes, st->lhs.array, st->lhs.subs, qname);
	fputs(" }", t.f);
	return text_close(&t);
}

int relations_concrete(isl_ctx *ctx, const struct model *m, int cand, int step,
		       const long sizes[], struct step_relations *out, char **reason)
{
	const struct model_candidate *c = &m->cands[cand];
	const struct model_superstep *s = &m->steps[step];
	memset(out, 0, sizeof(*out));
	*reason = NULL;

	isl_space *space = isl_space_set_alloc(ctx, 0, m->naxes);
	space = isl_space_set_tuple_name(space, isl_dim_set, "P");
	isl_set *procs = isl_set_universe(space);
	for (int a = 0; a < m->naxes; a++) {
		procs = isl_set_lower_bound_si(procs, isl_dim_set, a, 0);
		procs = isl_set_upper_bound_si(procs, isl_dim_set, a, (int)sizes[a] - 1);
	}
	out->processes = procs;

	out->narrays = m->narrays;
	out->use = calloc((size_t)m->narrays, sizeof(*out->use));
	out->own = calloc((size_t)m->narrays, sizeof(*out->own));
	int nwork = 0;
	for (int i = 0; i < s->nstmts; i++)
		nwork += s->stmts[i].nterms;
	out->work = calloc((size_t)nwork + 1, sizeof(*out->work));
	out->work_weight = calloc((size_t)nwork + 1, sizeof(*out->work_weight));
	if (!out->use || !out->own || !out->work || !out->work_weight)
		goto nomem;

	for (int i = 0; i < s->nstmts; i++) {
		const struct model_stmt *st = &s->stmts[i];
		for (int r = 0; r < st->nreads; r++) {
			const struct model_access *rd = &st->reads[r];
			isl_map *u = read_map(ctx, use_text(m, c, sizes, st, rd), m, sizes, reason);
			if (!u)
				goto fail;
			if (out->use[rd->array])
				u = isl_map_union(out->use[rd->array], u);
			out->use[rd->array] = isl_map_coalesce(u);
		}
		for (int k = 0; k < st->nterms; k++) {
			isl_map *w = read_map(ctx, work_text(m, c, sizes, st, &st->terms[k]), m, sizes,
					      reason);
			if (!w)
				goto fail;
			out->work_weight[out->nwork] = st->terms[k].weight;
			out->work[out->nwork++] = w;
		}
	}
	for (int a = 0; a < m->narrays; a++) {
		if (!out->use[a])
			continue;
		out->own[a] = read_map(ctx, own_text(m, c, sizes, a), m, sizes, reason);
		if (!out->own[a])
			goto fail;
	}
	return 0;
nomem:
	*reason = strdup("out of memory");
fail:
	step_relations_clear(out);
	return -1;
}

int step_relations_restrict(struct step_relations *r, __isl_keep isl_set *params)
{
	bool ok = true;
	r->processes = isl_set_intersect_params(r->processes, isl_set_copy(params));
	ok &= r->processes != NULL;
	for (int a = 0; a < r->narrays; a++) {
		if (r->use[a]) {
			r->use[a] = isl_map_intersect_params(r->use[a], isl_set_copy(params));
			ok &= r->use[a] != NULL;
		}
		if (r->own[a]) {
			r->own[a] = isl_map_intersect_params(r->own[a], isl_set_copy(params));
			ok &= r->own[a] != NULL;
		}
	}
	for (int k = 0; k < r->nwork; k++) {
		r->work[k] = isl_map_intersect_params(r->work[k], isl_set_copy(params));
		ok &= r->work[k] != NULL;
	}
	return ok ? 0 : -1;
}

void step_relations_clear(struct step_relations *r)
{
	isl_set_free(r->processes);
	for (int a = 0; a < r->narrays; a++) {
		if (r->use)
			isl_map_free(r->use[a]);
		if (r->own)
			isl_map_free(r->own[a]);
	}
	for (int k = 0; k < r->nwork; k++)
		isl_map_free(r->work[k]);
	free(r->use);
	free(r->own);
	free(r->work);
	free(r->work_weight);
	memset(r, 0, sizeof(*r));
}

__isl_give isl_set *model_assumption_set(isl_ctx *ctx, const struct model *m)
{
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	print_model_params(t.f, m);
	fprintf(t.f, "{ : %s }", m->assumptions);
	char *str = text_close(&t);
	isl_set *set = str ? isl_set_read_from_str(ctx, str) : NULL;
	free(str);
	return set;
}
