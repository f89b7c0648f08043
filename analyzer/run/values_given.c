/* The values given (-D, --grid) against a specification's assumptions:
 * which they break, as the messages of analyze_cmd.c and rank_cmd.c name
 * them (analyze.h). */
#define _GNU_SOURCE /* asprintf */
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/space.h>

#include "analyzer/check/check.h"
#include "analyzer/run/analyze.h"
#include "analyzer/model/relations.h"
#include "analyzer/util/text.h"
#include "analyzer/util/val.h"

/* COND as written (canonical form): "n >= 2 * P and m >= 1". */
static void print_cond(FILE *f, const struct ast_cond *cond)
{
	for (int k = 0; k < cond->ncmps; k++) {
		const struct ast_cmp *cmp = cond->cmps[k];
		fputs(k ? " and " : "", f);
		for (int o = 0; o <= cmp->nops; o++) {
			if (o)
				fprintf(f, " %s ", cmp_op_text(cmp->ops[o - 1]));
			print_expr(f, cmp->operands[o]);
		}
	}
}

/* The specification's own assumptions, as written (canonical form). */
char **spec_assumptions(const struct ast_spec *ast, int *n)
{
	*n = 0;
	char **v = NULL;
	for (int i = 0; i < ast->nitems; i++) {
		const struct ast_item *it = ast->items[i];
		if (it->kind != ITEM_ASSUME)
			continue;
		for (int c = 0; c < it->nconds; c++) {
			const struct ast_cond *cond = it->conds[c];
			struct text t;
			if (text_open(&t) < 0)
				continue;
			print_cond(t.f, cond);
			char *buf = text_close(&t);
			if (!buf)
				continue;
			char **nv = realloc(v, sizeof(*v) * (size_t)(*n + 1));
			if (!nv) {
				free(buf);
				continue;
			}
			v = nv;
			v[(*n)++] = buf;
		}
	}
	return v;
}

/* Whether -D gives every size parameter of M. */
bool all_params(const struct model *m, const struct options *opt)
{
	for (int i = 0; i < model_nsizes(m); i++)
		if (!options_find_def(opt, m->params[i]))
			return false;
	return true;
}

/* Whether -D gives every parameter and axis of M. */
bool all_values(const struct model *m, const struct options *opt)
{
	if (!all_params(m, opt))
		return false;
	for (int a = 0; a < m->naxes; a++)
		if (!options_find_def(opt, m->axes[a]))
			return false;
	return true;
}

/* SET with the values given (-D, and the grid of REQ when concrete) fixed. */
static __isl_give isl_set *at_values(__isl_take isl_set *set, const struct model *m,
				     const struct options *opt, const struct cost_request *req)
{
	for (int i = 0; set && i < opt->ndefs; i++) {
		int pos = isl_set_find_dim_by_name(set, isl_dim_param, opt->defs[i].name);
		if (pos >= 0)
			set = isl_set_fix_val(set, isl_dim_param, (unsigned)pos,
					      val_from_ll(isl_set_get_ctx(set), opt->defs[i].value));
	}
	for (int a = 0; set && !req->symbolic && a < m->naxes; a++)
		set = isl_set_fix_si(set, isl_dim_param, (unsigned)(m->nparams + a), (int)req->sizes[a]);
	return set;
}

/* Whether the values given leave some point of SET (taken): 1 yes, 0 no, -1
 * when ISL failed. */
static int values_meet(__isl_take isl_set *set, const struct model *m, const struct options *opt,
		       const struct cost_request *req)
{
	set = at_values(set, m, opt, req);
	isl_bool empty = set ? isl_set_is_empty(set) : isl_bool_error;
	isl_set_free(set);
	return empty < 0 ? -1 : !empty;
}

/* Whether the values given leave some point of M's assumptions (1 yes, 0 no,
 * -1 when ISL failed).  The formulas are only claimed there, and every
 * number printed comes from them. */
int values_meet_assumptions(isl_ctx *ctx, const struct model *m, const struct options *opt,
			    const struct cost_request *req)
{
	return values_meet(model_assumption_set(ctx, m), m, opt, req);
}

/* The first implicit assumption (every axis and every extent is at least 1)
 * the values given break, as a malloc'd sentence; NULL when none is (or ISL
 * failed: the analysis then says so). */
char *broken_implicit(isl_ctx *ctx, const struct model *m, const struct options *opt,
		      const struct cost_request *req)
{
	isl_space *space = model_param_space(ctx, m, true);
	char *why = NULL;
	for (int a = 0; a < m->naxes && !why; a++) {
		isl_set *set = isl_set_lower_bound_si(isl_set_universe(isl_space_copy(space)),
						      isl_dim_param, (unsigned)(m->nparams + a), 1);
		if (values_meet(set, m, opt, req) == 0 &&
		    asprintf(&why, "%s >= 1 (every grid axis has a process)", m->axes[a]) < 0)
			why = NULL;
	}
	for (int x = 0; x < m->narrays && !why; x++)
		for (int d = 0; d < m->arrays[x].ndims && !why; d++) {
			struct model_cons c = model_extent_positive(m, x, d);
			if (values_meet(model_cons_param_set(space, m, &c), m, opt, req) == 0 &&
			    asprintf(&why, "%s >= 1 (every extent is at least 1: dimension %d of %s)",
				     m->arrays[x].extents[d], d + 1, m->arrays[x].name) < 0)
				why = NULL;
		}
	isl_space_free(space);
	return why;
}

char *broken_assumptions(const struct ast_spec *ast, const struct model *m,
			 const long long *values, const bool *pknown, const long sizes[3],
			 const bool *aknown, int *n)
{
	long long axes[3];
	for (int a = 0; a < m->naxes; a++)
		axes[a] = sizes[a];
	struct text t;
	if (text_open(&t) < 0)
		return NULL;
	int k = 0;
	for (int i = 0; i < ast->nitems; i++) {
		const struct ast_item *it = ast->items[i];
		if (it->kind != ITEM_ASSUME)
			continue;
		for (int c = 0; c < it->nconds; c++) {
			const struct ast_cond *cond = it->conds[c];
			if (cond_atoms_hold(cond->atoms, cond->natoms, values, pknown, axes, aknown) != 0)
				continue;
			fputs(k++ ? ", " : "", t.f);
			print_cond(t.f, cond);
		}
	}
	char *s = text_close(&t);
	*n = k;
	if (s && k == 0) {
		free(s);
		return NULL;
	}
	return s;
}
