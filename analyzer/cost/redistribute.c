/* A transpose between block layouts on the symbolic grid
 * (cost_redistribute_step).
 *
 * The superstep copies one array into another along a permutation of its
 * indices, `forall i < m, j < n : B[j][i] = A[i][j]`, over the whole of both,
 * and both arrays lie in equal blocks over every axis of the grid, each axis
 * splitting one dimension of each array.  Where an index is split over
 * axis a in one array and over axis b != a in the other (A's i over M, B's
 * i over N; j then over N in A and over M in B, or whole in B with another
 * index whole in A over M in B), the relation between the two owners of
 * an element has no affine form over a symbolic grid (a*(m/M) against
 * b*(m/N)), and the engine refuses it.  Where no assumption makes the two
 * splits one (M == N), the formulas follow from the copy's shape instead:
 *
 *  - Every element of A is read by one instance, and every instance runs
 *    where its element of B lies (owner computes), so a process p sends
 *    |A's block at p| - local(p) elements and receives |B's block at p| -
 *    local(p), local(p) the elements of A at p whose element of B is at p
 *    too.  Under the divisibility the symbolic grid assumes, every block of
 *    A has m*n/(M*N) elements (the product of the extents over the product
 *    of the axes), and so has every block of B.  So h_out and h_in are at
 *    most that many elements, each of the array's words.
 *  - Where both a and b have two processes or more, the process at
 *    coordinate 0 on a and b - 1 on b holds A's elements whose index lies
 *    in [0, m/a) and B's whose index lies in [m - m/b, m); as 1/a + 1/b <= 1,
 *    these meet nowhere: local is 0 there, and both maxima are reached.
 *  - Where a == 1 (or b == 1), the split over that axis is the whole
 *    dimension and the two splits are one: the engine counts the candidate
 *    with the layouts over that axis made whole (a candidate of its own,
 *    the same program where the axis has one process).
 *  - In plain loops, the copy names no loop's variable: one run is counted
 *    (the views run the superstep out of its loops) and the sums are the
 *    runs times it (loop_totals).
 *  - w is counted with A laid out as B is along the permutation (its
 *    instances and their work are the same: owner computes), and so are
 *    --explain's NOcc (the same processes read the same elements; its
 *    elements read but not by their owner are NCom's, as NCom); the
 *    memory is the layouts' own, blocks of m*n/(M*N) (memory.h).
 *
 * With two indices crossed, NCom has no formula where a, b >= 2: the
 * elements that stay, summed over the processes, are m*n times the sum of
 * the squares of the pieces that the block boundaries k/a and k/b cut
 * [0, 1) into, which changes with the common factors of a and b (2 x 3:
 * 10/36, 2 x 4: 1/4, 3 x 4: 28/144).  It is left without one, saying why,
 * and so are --explain's elements read but not by their owner and a cost
 * whose function has an NCom term.  With one index crossed (i over a in X
 * and b in Y; X's index over b and Y's over a each whole in the other
 * array) the sum comes apart index by index, and NCom is the elements
 * times 1 - 1/D, D the product of the axes over which the two arrays'
 * indices differ (moved_words); the h above stands, the argument the
 * same. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/id.h>
#include <isl/set.h>
#include <isl/space.h>

#include "analyzer/cost/cost_internal.h"
#include "analyzer/cost/cost_model.h"
#include "analyzer/formula/formula.h"

/* The shape of a transpose this module counts (redistribution_of). */
struct shape {
	int x, y;                        /* the array read, the array written */
	int nd;                          /* their number of dimensions */
	int ydim[MODEL_MAX_DIMS];        /* Y's dimension the variable of X's d indexes */
	int a, b;                        /* the two axes one index is split over */
	int crossings;                   /* the indices split over both: 1 or 2 */
	bool moved[MODEL_MAX_DIMS * 4 + 8]; /* the axes over which X's index is
					     * not Y's (a and b among them) */
};

/* The statement variable a subscript is, -1 when it is no plain variable. */
static int plain_var(const struct model_aff *f)
{
	if (f->constant != 0 || f->nterms != 1 || f->terms[0].kind != MODEL_VAR ||
	    f->terms[0].coef != 1 || f->terms[0].by != 0)
		return -1;
	return f->terms[0].index;
}

/* Whether F is G term for term in any order (each symbol once in each). */
static bool same_form(const struct model_aff *f, const struct model_aff *g)
{
	if (f->constant != g->constant || f->nterms != g->nterms)
		return false;
	for (int i = 0; i < f->nterms; i++) {
		bool found = false;
		for (int k = 0; k < g->nterms && !found; k++)
			found = f->terms[i].kind == g->terms[k].kind &&
				f->terms[i].index == g->terms[k].index &&
				f->terms[i].coef == g->terms[k].coef && f->terms[i].by == g->terms[k].by;
		if (!found)
			return false;
	}
	return true;
}

/* Whether constraint C of a space is 0 <= V (LOWER) or V < E (else):
 * v >= 0, or E - v - 1 >= 0 with E's terms and constant. */
static bool bounds_var(const struct model_cons *c, int v, const struct model_aff *e, bool lower)
{
	if (c->kind != MODEL_GE0)
		return false;
	if (lower)
		return plain_var(&c->f) == v;
	/* E - v - 1: the term -v, and E's with E's constant less one */
	if (c->f.nterms != e->nterms + 1 || c->f.constant != e->constant - 1)
		return false;
	struct model_aff rest = {e->constant, 0, NULL};
	struct model_term t[MODEL_MAX_DIMS * 4 + 8];
	if (e->nterms + 1 > (int)(sizeof(t) / sizeof(*t)))
		return false;
	bool minus_v = false;
	for (int i = 0; i < c->f.nterms; i++) {
		const struct model_term *x = &c->f.terms[i];
		if (!minus_v && x->kind == MODEL_VAR && x->index == v && x->coef == -1 && x->by == 0)
			minus_v = true;
		else
			t[rest.nterms++] = *x;
	}
	rest.terms = t;
	return minus_v && same_form(&rest, e);
}

/* Whether SP is the box of the extents E[v] of its variables: v >= 0 and
 * v < E[v] for each, nothing else. */
static bool is_box(const struct model_space *sp, const struct model_aff *const e[])
{
	if (sp->npreds != 0 || sp->ncons != 2 * sp->nvars)
		return false;
	for (int v = 0; v < sp->nvars; v++) {
		int lo = 0, hi = 0;
		for (int k = 0; k < sp->ncons; k++) {
			lo += bounds_var(&sp->cons[k], sp->vidx[v], e[v], true);
			hi += bounds_var(&sp->cons[k], sp->vidx[v], e[v], false);
		}
		if (lo != 1 || hi != 1)
			return false;
	}
	return true;
}

/* Whether array X's layout in candidate C is blocks over every axis, one
 * dimension each, the others whole, and no copies. */
static bool one_block_per_axis(const struct model *m, const struct model_candidate *c, int x)
{
	if (c->replicate && c->replicate[x] != 0)
		return false;
	int seen[MODEL_MAX_DIMS * 4 + 8] = {0};
	if (m->naxes > (int)(sizeof(seen) / sizeof(*seen)))
		return false;
	for (int d = 0; d < m->arrays[x].ndims; d++) {
		const struct dist *l = c->layout[x] ? &c->layout[x][d] : NULL;
		if (!l || l->kind == DIST_NONE)
			continue;
		if (l->kind != DIST_BLOCK || l->axis < 0 || l->axis >= m->naxes)
			return false;
		seen[l->axis]++;
	}
	for (int a = 0; a < m->naxes; a++)
		if (seen[a] != 1)
			return false;
	return true;
}

/* The axis dimension D of array X lies over in candidate C, -1 whole. */
static int axis_of(const struct model_candidate *c, int x, int d)
{
	return c->layout[x] && c->layout[x][d].kind == DIST_BLOCK ? c->layout[x][d].axis : -1;
}

/* Whether superstep S of candidate CAND is a transpose between block
 * layouts (above) whose one index, or two, is split over two axes; its
 * shape into *SH. */
static bool redistribution_of(const struct model *m, int cand, int s, struct shape *sh)
{
	const struct model_superstep *step = &m->steps[s];
	const struct model_candidate *c = &m->cands[cand];
	if (step->nstmts != 1 || step->by_loop >= 0)
		return false;
	/* in loops, plain ones only (for k < n - 1): the copy names none of
	 * their variables, so every run counts the same */
	for (int l = step->loop; l >= 0; l = m->loops[l].outer)
		if (m->loops[l].ratio != 0)
			return false;
	const struct model_stmt *st = &step->stmts[0];
	if (st->nreads != 1)
		return false;
	const struct model_access *lhs = &st->lhs, *rd = &st->reads[0];
	int x = rd->array, y = lhs->array, nd = m->arrays[y].ndims;
	if (x == y || m->arrays[x].ndims != nd || lhs->space.nvars != nd || rd->space.nvars != nd ||
	    nd > MODEL_MAX_DIMS)
		return false;
	/* Both subscripts a permutation of the forall's variables; the
	 * extent each variable runs to is that of both dimensions it indexes */
	int ydim_of_var[MODEL_MAX_DIMS], seen = 0;
	const struct model_aff *extent[MODEL_MAX_DIMS];
	for (int e = 0; e < nd; e++) {
		int v = plain_var(&lhs->sub_affs[e]);
		if (v < 0 || v >= nd || (seen & (1 << v)))
			return false;
		seen |= 1 << v;
		ydim_of_var[v] = e;
	}
	seen = 0;
	for (int d = 0; d < nd; d++) {
		int v = plain_var(&rd->sub_affs[d]);
		if (v < 0 || v >= nd || (seen & (1 << v)))
			return false;
		seen |= 1 << v;
		sh->ydim[d] = ydim_of_var[v];
		if (!same_form(&m->arrays[x].extent_affs[d],
			       &m->arrays[y].extent_affs[sh->ydim[d]]))
			return false;
	}
	for (int k = 0; k < nd; k++) {
		if (lhs->space.vidx[k] != k || rd->space.vidx[k] != k)
			return false;
		extent[k] = &m->arrays[y].extent_affs[ydim_of_var[k]];
	}
	/* the forall is the box; the read adds nothing to it (no sum) */
	if (!is_box(&lhs->space, extent) || rd->space.ncons != 0 || rd->space.npreds != 0)
		return false;
	if (!one_block_per_axis(m, c, x) || !one_block_per_axis(m, c, y))
		return false;
	/* the axes an index is split over two ways: two of them, and one or
	 * two such indices (i over a and b; j over b and a, or else whole in
	 * one of the arrays) */
	sh->a = sh->b = -1;
	int crossed = 0;
	if (m->naxes > (int)(sizeof(sh->moved) / sizeof(*sh->moved)))
		return false;
	for (int t = 0; t < m->naxes; t++)
		sh->moved[t] = true;
	for (int d = 0; d < nd; d++) {
		int ax = axis_of(c, x, d);
		if (ax >= 0 && ax == axis_of(c, y, sh->ydim[d]))
			sh->moved[ax] = false;
	}
	for (int d = 0; d < nd; d++) {
		int ax = axis_of(c, x, d), ay = axis_of(c, y, sh->ydim[d]);
		if (ax < 0 || ay < 0 || ax == ay)
			continue;
		crossed++;
		for (int k = 0; k < 2; k++) {
			int t = k ? ay : ax;
			if (sh->a < 0 || sh->a == t)
				sh->a = t;
			else if (sh->b < 0 || sh->b == t)
				sh->b = t;
			else
				return false;   /* three axes or more */
		}
	}
	if (sh->a < 0 || sh->b < 0 || crossed < 1 || crossed > 2)
		return false;
	sh->crossings = crossed;
	sh->x = x;
	sh->y = y;
	sh->nd = nd;
	return true;
}

bool cost_is_redistribution(const struct model *m, int cand, int s, int *x, int *y)
{
	struct shape sh;
	if (!redistribution_of(m, cand, s, &sh))
		return false;
	*x = sh.x;
	*y = sh.y;
	return true;
}

/* Candidate CAND of M as a model of its own running superstep S alone,
 * with the layout of the array read that of the array written along the
 * shape's permutation (ALIGNED), or else both arrays' layouts over axis ONE
 * made whole: *V shares M's parts but its candidate and the layouts it
 * changes (view_clear frees those).  0, or -1 when out of memory. */
struct view {
	struct model m;
	struct model_candidate c;
	struct dist **layout;
	struct dist *row;
	struct model_superstep *steps;   /* S out of its loops: one run */
	int step;
};

static void view_clear(struct view *v)
{
	free(v->row);
	free(v->layout);
	free(v->steps);
	memset(v, 0, sizeof(*v));
}

static int view_make(struct view *v, const struct model *m, int cand, int s,
		     const struct shape *sh, bool aligned, int one)
{
	memset(v, 0, sizeof(*v));
	v->m = *m;
	v->c = m->cands[cand];
	v->step = s;
	v->c.steps = &v->step;
	v->c.nsteps = 1;
	v->layout = calloc((size_t)m->narrays + 1, sizeof(*v->layout));
	if (!v->layout)
		return -1;
	for (int x = 0; x < m->narrays; x++)
		v->layout[x] = m->cands[cand].layout[x];
	v->c.layout = v->layout;
	v->m.cands = &v->c;
	v->m.ncands = 1;
	/* one run of a superstep in loops (the copy names no loop's
	 * variable) */
	if (m->steps[s].loop >= 0) {
		v->steps = malloc(sizeof(*v->steps) * (size_t)m->nsteps);
		if (!v->steps)
			return -1;
		memcpy(v->steps, m->steps, sizeof(*v->steps) * (size_t)m->nsteps);
		v->steps[s].loop = -1;
		v->m.steps = v->steps;
	}
	if (aligned) {
		v->row = calloc((size_t)sh->nd + 1, sizeof(*v->row));
		if (!v->row)
			return -1;
		for (int d = 0; d < sh->nd; d++)
			v->row[d] = m->cands[cand].layout[sh->y][sh->ydim[d]];
		v->layout[sh->x] = v->row;
		return 0;
	}
	/* the layouts over ONE made whole: X's and Y's, one row each */
	v->row = calloc(2 * (size_t)sh->nd + 1, sizeof(*v->row));
	if (!v->row)
		return -1;
	for (int k = 0; k < 2; k++) {
		int arr = k ? sh->y : sh->x;
		struct dist *r = v->row + k * sh->nd;
		for (int d = 0; d < sh->nd; d++) {
			r[d] = m->cands[cand].layout[arr][d];
			if (r[d].kind != DIST_NONE && r[d].axis == one)
				r[d] = (struct dist){DIST_NONE, -1, 0, -1};
		}
		v->layout[arr] = r;
	}
	return 0;
}

/* {[A, B] : A == 1} (A_ONE), or {A >= 2, B == 1} (B_ONE), or {A >= 2, B >= 2}. */
static __isl_give isl_set *region(isl_ctx *ctx, const char *a, const char *b, bool a_one,
				  bool b_one)
{
	if (a_one)
		return isl_set_union(cost_one_or_more(ctx, a, b, true, true),
				     cost_one_or_more(ctx, a, b, true, false));
	return cost_one_or_more(ctx, a, b, false, b_one);
}

/* F on region R (taken): formula_on, NULL for either NULL. */
static struct formula *on(const struct formula *f, __isl_take isl_set *r)
{
	struct formula *g = f && r ? formula_on(f, r) : NULL;
	isl_set_free(r);
	return g;
}

/* The three parts (taken) joined: NULL when one is. */
static struct formula *join3(struct formula *p, struct formula *q, struct formula *r)
{
	struct formula *pq = p && q ? formula_join(p, q) : NULL;
	struct formula *all = pq && r ? formula_join(pq, r) : NULL;
	formula_free(p);
	formula_free(q);
	formula_free(r);
	formula_free(pq);
	return all;
}

/* K times the product of the extents of the array read (taken: NULL when
 * out of memory). */
static struct formula *extents_times(const struct model *m, const struct shape *sh, long k)
{
	const struct model_array *arr = &m->arrays[sh->x];
	struct formula *acc = formula_const_si(k);
	for (int d = 0; acc && d < sh->nd; d++) {
		struct formula *e = cost_aff_formula(m, &arr->extent_affs[d], NULL);
		struct formula *next = e ? formula_mul(acc, e) : NULL;
		formula_free(e);
		formula_free(acc);
		acc = next;
	}
	return acc;
}

/* F (taken) over the product of the axes, or of those MOVED marks (NULL:
 * every one). */
static struct formula *over_axes(const struct model *m, struct formula *f, const bool *moved)
{
	for (int a = 0; f && a < m->naxes; a++) {
		if (moved && !moved[a])
			continue;
		struct formula *p = formula_param(m->axes[a]);
		struct formula *inv = p ? formula_pow(p, -1) : NULL;
		struct formula *next = inv ? formula_mul(f, inv) : NULL;
		formula_free(p);
		formula_free(inv);
		formula_free(f);
		f = next;
	}
	return f;
}

/* The words of one block of the array read, K times: K * words * the
 * product of its extents over the product of the axes (each axis splits
 * one dimension, and the symbolic grid assumes it divides it). */
static struct formula *block_words(const struct model *m, const struct shape *sh, long k)
{
	return over_axes(m, extents_times(m, sh, k * (long)m->arrays[sh->x].words), NULL);
}

/* The words of X that move, K words an element, with one index crossed:
 * K * (E - E/D), E the product of the extents and D that of the axes over
 * which X's index is not Y's.  An element stays where, over each axis, its
 * block in X is its block in Y; over such an axis the two blocks are of
 * two indices, and with one crossing (i over a in X, b in Y) each of the
 * others is over one axis only (k over a in Y, j over b in X, an index
 * over c in one array and another in the other): summed over them, each
 * such axis leaves one element in its size where it is, so 1/D of them
 * stay, every block of an index the same length (the symbolic grid's
 * divisibility). */
static struct formula *moved_words(const struct model *m, const struct shape *sh, long k)
{
	struct formula *all = extents_times(m, sh, k);
	struct formula *stay = all ? over_axes(m, formula_copy(all), sh->moved) : NULL;
	struct formula *moved = all && stay ? formula_sub(all, stay) : NULL;
	formula_free(all);
	formula_free(stay);
	return moved;
}

/* What a view's formulas rest on (SUB's assumptions and conditions), onto
 * OUT; refused (-1, the job failed) where a block length is kept. */
static int take_assumptions(struct job *j, const struct candidate_cost *sub,
			    struct candidate_cost *out, const char *what)
{
	if (sub->nlocals > 0) {
		char *why = NULL;
		if (asprintf(&why, "a transpose between block layouts whose formulas keep %s",
			     sub->local_names[0]) < 0)
			why = NULL;
		cost_job_fail(j, COST_REFUSED, why, what);
		return -1;
	}
	for (int k = 0; k < sub->nconditions; k++) {
		char *c = strdup(sub->conditions[k]), *t = strdup(sub->condition_texts[k]);
		if (cost_add_condition(out, c, t) < 0) {
			cost_job_fail(j, COST_FAILED, NULL, what);
			return -1;
		}
	}
	for (int k = 0; k < sub->nassumptions; k++)
		if (cost_add_assumption(out, strdup(sub->assumptions[k])) < 0) {
			cost_job_fail(j, COST_FAILED, NULL, what);
			return -1;
		}
	return 0;
}

/* SC's formulas, one run's of superstep S in loops, made their sums over
 * the runs (every run counts the same), one run's kept as such; tidy on
 * SIZES. */
static void loop_totals(struct job *j, int s, __isl_keep isl_set *sizes, struct step_cost *sc)
{
	cost_loop_runs(j, s, sizes, sc);
	if (failed(&j->fail))
		return;
	if (!sc->iterations) {
		cost_isl_op_failed(j, "the iterations");
		return;
	}
	/* one run's (NCom's where it has one: its reason stands for both) */
	sc->per_w = formula_copy(sc->w);
	sc->per_h = formula_copy(sc->h);
	sc->per_ncom = sc->ncom ? formula_copy(sc->ncom) : NULL;
	sc->per_cost = formula_copy(sc->cost);
	if (!sc->per_w || !sc->per_h || !sc->per_cost || (sc->ncom && !sc->per_ncom)) {
		cost_isl_op_failed(j, "one run's formulas");
		return;
	}
	struct formula **f[] = {&sc->w, &sc->h_in, &sc->h_out, &sc->h, &sc->ncom};
	for (size_t k = 0; k < sizeof(f) / sizeof(*f); k++) {
		if (!*f[k])
			continue;   /* NCom without a formula: its reason stands */
		struct formula *t = formula_mul(*f[k], sc->iterations);
		formula_free(*f[k]);
		*f[k] = t;
		if (!t)
			cost_isl_op_failed(j, "the sums over the runs");
	}
	cost_loop_cost(j, sc);
	struct formula **g[] = {&sc->w, &sc->h_in, &sc->h_out, &sc->h, &sc->ncom, &sc->cost};
	for (size_t k = 0; k < sizeof(g) / sizeof(*g); k++)
		cost_tidy(j, g[k], sizes);
}

enum { VIEW_ALIGNED, VIEW_A_ONE, VIEW_B_ONE, VIEW_N };

void cost_redistribute_step(struct job *j, int cand, int s, struct step_cost *sc,
			    struct candidate_cost *out)
{
	const struct model *m = j->m;
	const char *what = m->steps[s].name;
	struct shape sh;
	if (!redistribution_of(m, cand, s, &sh)) {
		cost_job_fail(j, COST_FAILED, strdup("internal: no transpose between block layouts"),
			      what);
		return;
	}
	const char *A = m->axes[sh.a], *B = m->axes[sh.b];
	const char *X = m->arrays[sh.x].name, *Y = m->arrays[sh.y].name;
	if (j->req->messages)
		sc->msgs_why = strdup("a transpose between blocks over two axes: values only "
				      "(-D every size)");
	struct cost_request req = *j->req;
	req.explain = false;
	req.messages = false;
	req.hierarchy = false;
	req.per_process = false;
	req.values = NULL;
	struct candidate_cost sub[VIEW_N];
	memset(sub, 0, sizeof(sub));
	bool ok = true;
	/* the one-process views first: their assumptions name the axes one
	 * at a time (M divides m, M divides n, then N's) */
	static const int order[VIEW_N] = {VIEW_B_ONE, VIEW_A_ONE, VIEW_ALIGNED};
	for (int i = 0; i < VIEW_N && ok; i++) {
		int k = order[i];
		struct view v;
		if (view_make(&v, m, cand, s, &sh, k == VIEW_ALIGNED,
			      k == VIEW_A_ONE ? sh.a : sh.b) < 0) {
			view_clear(&v);
			cost_job_fail(j, COST_FAILED, NULL, what);
			ok = false;
			break;
		}
		/* with --explain's counts: NOcc from the aligned one (the same
		 * reads, by the same processes), the elements read but not by
		 * their owner from the one-process ones */
		struct cost_request rk = req;
		rk.explain = j->req->explain;
		enum cost_status cs = cost_candidate_within(j, &v.m, 0, &rk, &sub[k]);
		view_clear(&v);
		if (cs != COST_OK) {
			char *why = NULL;
			const char *r = sub[k].reason ? sub[k].reason : "no formula";
			/* "STEP: REASON": the step is named once, by the job */
			size_t nw = strlen(what);
			if (strncmp(r, what, nw) == 0 && strncmp(r + nw, ": ", 2) == 0)
				r += nw + 2;
			if ((k == VIEW_ALIGNED
				     ? asprintf(&why, "a transpose between block layouts, counted with %s "
						      "laid out as %s: %s", X, Y, r)
				     : asprintf(&why, "a transpose between block layouts, counted where "
						      "%s has one process: %s",
						k == VIEW_A_ONE ? A : B, r)) < 0)
				why = NULL;
			cost_job_fail(j, cs, why, what);
			j->timed_out |= sub[k].timed_out;
			ok = false;
		} else if (sub[k].nsteps != 1 || take_assumptions(j, &sub[k], out, what) < 0) {
			if (!failed(&j->fail))
				cost_job_fail(j, COST_FAILED,
					      strdup("internal: a view of one superstep has another "
						     "number"), what);
			ok = false;
		}
	}
	isl_ctx *ctx = j->engine->ctx;
	/* the specification's assumptions: where both axes at 2 or more
	 * have room, and what the formulas are simplified under, as a
	 * superstep's are once its block lengths are written back */
	isl_set *sizes = ok ? cost_sizes_context(j) : NULL;
	if (ok && !sizes) {
		cost_job_fail(j, COST_FAILED, NULL, "the assumptions");
		ok = false;
	}
	if (ok) {
		const struct step_cost *al = &sub[VIEW_ALIGNED].steps[0];
		const struct step_cost *sa = &sub[VIEW_A_ONE].steps[0];
		const struct step_cost *sb = &sub[VIEW_B_ONE].steps[0];
		bool sum = req.h == H_SUM;
		struct formula *one = block_words(m, &sh, 1), *two = block_words(m, &sh, sum ? 2 : 1);
		sc->w = formula_copy(al->w);
		sc->h_in = join3(on(sa->h_in, region(ctx, A, B, true, false)),
				 on(sb->h_in, region(ctx, A, B, false, true)),
				 on(one, region(ctx, A, B, false, false)));
		sc->h_out = join3(on(sa->h_out, region(ctx, A, B, true, false)),
				  on(sb->h_out, region(ctx, A, B, false, true)),
				  on(one, region(ctx, A, B, false, false)));
		sc->h = join3(on(sa->h, region(ctx, A, B, true, false)),
			      on(sb->h, region(ctx, A, B, false, true)),
			      on(two, region(ctx, A, B, false, false)));
		formula_free(one);
		formula_free(two);
		/* where the assumptions leave both axes 2 or more no room
		 * (assume N == 1), NCom is the one-process views' */
		isl_set *both = isl_set_intersect(region(ctx, A, B, false, false),
						  isl_set_copy(sizes));
		isl_bool none = both ? isl_set_is_empty(both) : isl_bool_error;
		isl_set_free(both);
		if (sh.crossings == 1) {
			sc->ncom = moved_words(m, &sh, (long)m->arrays[sh.x].words);
		} else if (none == isl_bool_true) {
			struct formula *pa = on(sa->ncom, region(ctx, A, B, true, false));
			struct formula *pb = on(sb->ncom, region(ctx, A, B, false, true));
			sc->ncom = pa && pb ? formula_join(pa, pb) : NULL;
			formula_free(pa);
			formula_free(pb);
		}
		/* --explain's counts: NOcc's of the aligned one; the elements
		 * read but not by their owner, NCom's in elements, as NCom */
		struct step_cost *as = &sub[VIEW_ALIGNED].steps[0];
		sc->arrays = as->arrays;
		sc->narrays = as->narrays;
		as->arrays = NULL;
		as->narrays = 0;
		for (int k = 0; k < sc->narrays; k++) {
			struct array_occurrence *ao = &sc->arrays[k];
			formula_free(ao->unowned);
			ao->unowned = NULL;
			free(ao->unowned_why);
			ao->unowned_why = NULL;
			if (sh.crossings == 1 && strcmp(ao->name, X) == 0) {
				ao->unowned = moved_words(m, &sh, 1);
				if (!ao->unowned)
					cost_isl_op_failed(j, what);
				continue;
			}
			/* where the assumptions leave an axis at 1, the
			 * one-process views' (as NCom) */
			const struct array_occurrence *oa = k < sa->narrays ? &sa->arrays[k] : NULL;
			const struct array_occurrence *ob = k < sb->narrays ? &sb->arrays[k] : NULL;
			if (none == isl_bool_true && oa && ob && oa->unowned && ob->unowned &&
			    strcmp(oa->name, ao->name) == 0 && strcmp(ob->name, ao->name) == 0) {
				struct formula *pa = on(oa->unowned, region(ctx, A, B, true, false));
				struct formula *pb = on(ob->unowned, region(ctx, A, B, false, true));
				ao->unowned = pa && pb ? formula_join(pa, pb) : NULL;
				formula_free(pa);
				formula_free(pb);
				if (!ao->unowned)
					cost_isl_op_failed(j, what);
				continue;
			}
			ao->unowned_why = strdup("as NCom, no formula where both axes have two "
						 "processes or more (-D every size counts it)");
			if (!ao->unowned_why)
				cost_isl_op_failed(j, what);
		}
		if (none != isl_bool_false || sh.crossings == 1) {
			/* no room for both 2 or more, or a failure; or a formula */
		} else if (asprintf(&sc->ncom_why,
			     "where %s and %s both have two processes or more, the elements of %s "
			     "that stay where they are, summed over the processes, are a multiple "
			     "of the sum of the squares of the pieces that the block boundaries "
			     "k/%s and k/%s cut [0, 1) into, which changes with the common factors "
			     "of %s and %s (2 x 3: 10/36, 2 x 4: 1/4): no formula in pieces of %s and "
			     "%s writes NCom in general, nor does this analysis under assumptions "
			     "that fix them; -D every size counts it",
			     A, B, X, A, B, A, B, A, B) < 0) {
			sc->ncom_why = NULL;
		}
		if (!sc->w || !sc->h_in || !sc->h_out || !sc->h || (!sc->ncom && !sc->ncom_why))
			cost_isl_op_failed(j, what);
	}
	if (!failed(&j->fail)) {
		const struct cost_model *cm = req.model ? req.model : cost_model_default();
		bool by_ncom = false;
		for (int k = 0; k < cm->nterms; k++)
			by_ncom |= cm->term[k] == TERM_NCOM;
		if (by_ncom && !sc->ncom)
			cost_job_fail(j, COST_REFUSED,
				      strdup("the cost function has an NCom term, and NCom has no "
					     "formula for a transpose between blocks over two axes "
					     "(-D every size counts it)"),
				      what);
		else if (!(sc->cost = cost_step_cost_formula(&req, sc)))
			cost_isl_op_failed(j, what);
	}
	struct formula **f[] = {&sc->w, &sc->h_in, &sc->h_out, &sc->h, &sc->ncom, &sc->cost};
	for (size_t k = 0; sizes && k < sizeof(f) / sizeof(*f); k++)
		cost_tidy(j, f[k], sizes);   /* none after a failure */
	if (sizes && !failed(&j->fail) && m->steps[s].loop >= 0)
		loop_totals(j, s, sizes, sc);
	isl_set_free(sizes);
	for (int k = 0; k < VIEW_N; k++)
		candidate_cost_clear(&sub[k]);
}
