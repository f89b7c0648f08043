/* The shapes of a number of processes, and the ranking of their rows. */
#define _GNU_SOURCE /* asprintf */
#include "analyzer/decide/rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends every ordered factorization of REST into the axes AXIS.. of T, the
 * sizes before AXIS being those of CUR. */
static int factor(struct rank_table *t, long rest, int axis, long cur[3], int *cap)
{
	if (axis == t->naxes - 1) {
		if (t->nshapes == *cap) {
			int ncap = *cap ? 2 * *cap : 16;
			long (*ns)[3] = realloc(t->shapes, sizeof(*ns) * (size_t)ncap);
			if (!ns)
				return -1;
			t->shapes = ns;
			*cap = ncap;
		}
		cur[axis] = rest;
		memcpy(t->shapes[t->nshapes++], cur, sizeof(long) * 3);
		return 0;
	}
	for (long d = 1; d <= rest; d++) {
		if (rest % d)
			continue;
		cur[axis] = d;
		if (factor(t, rest / d, axis + 1, cur, cap) < 0)
			return -1;
	}
	return 0;
}

int rank_table_init(struct rank_table *t, long procs, int naxes)
{
	memset(t, 0, sizeof(*t));
	t->procs = procs;
	t->naxes = naxes;
	if (naxes < 1 || naxes > 3 || procs < 1)
		return 0;
	long cur[3] = {1, 1, 1};
	int cap = 0;
	return factor(t, procs, 0, cur, &cap);
}

int rank_table_init_shape(struct rank_table *t, const long *sizes, int naxes)
{
	memset(t, 0, sizeof(*t));
	t->naxes = naxes;
	t->procs = 1;
	for (int a = 0; a < naxes; a++)
		t->procs *= sizes[a];
	t->shapes = calloc(1, sizeof(*t->shapes));
	if (!t->shapes)
		return -1;
	t->nshapes = 1;
	for (int a = 0; a < naxes; a++)
		t->shapes[0][a] = sizes[a];
	return 0;
}

struct rank_row *rank_table_add_row(struct rank_table *t, int shape, int cand)
{
	struct rank_row *nr = realloc(t->rows, sizeof(*nr) * (size_t)(t->nrows + 1));
	if (!nr)
		return NULL;
	t->rows = nr;
	struct rank_row *r = &t->rows[t->nrows++];
	memset(r, 0, sizeof(*r));
	r->shape = shape;
	r->cand = cand;
	r->status = RANK_LATE;
	mpq_inits(r->w, r->h, r->h_in, r->h_out, r->ncom, r->cost, r->mem, r->gcoef, r->lcoef, NULL);
	return r;
}

bool rank_model_linear(const struct cost_model *cm)
{
	return !cm || strcmp(cm->name, "bsp") == 0 || strcmp(cm->name, "F_h") == 0;
}

/* CC's total cost at PRICES (coefficients given: every one), into OUT;
 * -1 when a quantity is not a number. */
static int priced_total(const struct candidate_cost *cc, const struct cost_prices *p, mpq_t out)
{
	mpq_t sum[TERM_N];
	mpq_ptr s[TERM_N];
	for (int t = 0; t < TERM_N; t++) {
		mpq_init(sum[t]);
		s[t] = sum[t];
	}
	enum cost_value_status priced = COST_VALUE_OK;
	int r = candidate_cost_totals(cc, p, s, out, &priced, NULL);
	for (int t = 0; t < TERM_N; t++)
		mpq_clear(sum[t]);
	return r == 0 && priced == COST_VALUE_OK ? 0 : -1;
}

/* The g- and l-parts of CC's cost under the linear cost function CM: its
 * cost with that coefficient 1 and the others 0, less its cost with all of
 * them 0.  Returns 0, or -1 when a quantity is not a number. */
static int linear_parts(const struct candidate_cost *cc, const struct cost_model *cm, mpq_t g,
			mpq_t l)
{
	struct cost_prices p;
	cost_prices_init(&p, cm);
	for (int c = 0; c < COEF_N; c++)
		p.has[c] = true;   /* 0 */
	mpq_t zero;
	mpq_init(zero);
	int r = priced_total(cc, &p, zero);
	mpq_set_ui(p.coef[COEF_G], 1, 1);
	if (r == 0 && (r = priced_total(cc, &p, g)) == 0)
		mpq_sub(g, g, zero);
	mpq_set_ui(p.coef[COEF_G], 0, 1);
	mpq_set_ui(p.coef[COEF_L], 1, 1);
	if (r == 0 && (r = priced_total(cc, &p, l)) == 0)
		mpq_sub(l, l, zero);
	mpq_clear(zero);
	cost_prices_clear(&p);
	return r;
}

void rank_row_measure(struct rank_row *row, const struct candidate_cost *cc,
		      const struct cost_prices *prices, const char *machine)
{
	free(row->reason);
	row->reason = NULL;
	if (cc->status != COST_OK) {
		row->status = cc->timed_out ? RANK_LATE
			      : cc->status == COST_REFUSED ? RANK_REFUSED : RANK_FAILED;
		row->reason = cc->reason ? strdup(cc->reason) : NULL;
		return;
	}
	mpq_ptr sum[TERM_N] = {row->w, row->h, row->h_in, row->h_out, row->ncom};
	enum cost_value_status priced = COST_VALUE_OK;
	enum cost_coef missing = COEF_L;
	int bad = candidate_cost_totals(cc, prices, sum, row->cost, &priced, &missing) < 0;
	/* the memory: a number, counted at the values */
	if (!bad && (!cc->mem || formula_eval(cc->mem, NULL, NULL, 0, row->mem) < 0))
		bad = 1;
	const struct cost_model *cm = prices ? prices->model : NULL;
	if (!bad && rank_model_linear(cm) &&
	    linear_parts(cc, cm ? cm : cost_model_default(), row->gcoef, row->lcoef) < 0)
		bad = 1;
	row->status = bad ? RANK_FAILED : priced == COST_VALUE_OK ? RANK_OK : RANK_REFUSED;
	row->nsteps = cc->nsteps;
	if (bad) {
		row->reason = strdup("its values could not be evaluated");
	} else if (priced == COST_VALUE_NO_COEF) {
		if ((machine ? asprintf(&row->reason, "%s gives no value for the coefficient %s",
					machine, cost_coef_name[missing])
			     : asprintf(&row->reason, "no -D gives the coefficient %s a value",
					cost_coef_name[missing])) < 0)
			row->reason = NULL;
	}
}

/* The order of the rows: ranked ones by cost, then the others, late last. */
static int group(const struct rank_row *r)
{
	return r->status == RANK_OK ? 0 : r->status == RANK_LATE ? 2 : 1;
}

static int compare_rows(const void *pa, const void *pb)
{
	const struct rank_row *a = pa, *b = pb;
	int ga = group(a), gb = group(b);
	if (ga != gb)
		return ga < gb ? -1 : 1;
	if (ga == 0) {
		int c = mpq_cmp(a->cost, b->cost);
		if (c)
			return c < 0 ? -1 : 1;
	}
	if (a->shape != b->shape)
		return a->shape < b->shape ? -1 : 1;
	return a->cand < b->cand ? -1 : a->cand > b->cand;
}

void rank_table_sort(struct rank_table *t)
{
	if (t->nrows > 1)
		qsort(t->rows, (size_t)t->nrows, sizeof(*t->rows), compare_rows);
	t->nranked = 0;
	t->nlate = 0;
	t->nuncounted = 0;
	for (int i = 0; i < t->nrows; i++) {
		struct rank_row *r = &t->rows[i];
		t->nranked += r->status == RANK_OK;
		t->nlate += r->status == RANK_LATE;
		t->nuncounted += r->status != RANK_OK && r->status != RANK_OUTSIDE;
	}
	for (int i = 0; i < t->nranked; i++) {
		struct rank_row *r = &t->rows[i];
		bool same_prev = i > 0 && mpq_equal(r->cost, t->rows[i - 1].cost);
		bool same_next = i + 1 < t->nranked && mpq_equal(r->cost, t->rows[i + 1].cost);
		r->rank = same_prev ? t->rows[i - 1].rank : i + 1;
		r->tie = same_prev || same_next;
	}
	t->sorted = true;
}

void rank_table_clear(struct rank_table *t)
{
	for (int i = 0; i < t->nrows; i++) {
		struct rank_row *r = &t->rows[i];
		mpq_clears(r->w, r->h, r->h_in, r->h_out, r->ncom, r->cost, r->mem, r->gcoef, r->lcoef,
			   NULL);
		free(r->reason);
	}
	free(t->rows);
	free(t->shapes);
	memset(t, 0, sizeof(*t));
}

int rank_row_gap(const struct rank_table *t, int i, const struct cost_model *cm, mpq_srcptr g,
		 mpq_srcptr l, mpq_t by, mpq_t parts[3])
{
	const struct rank_row *a = &t->rows[i], *b = &t->rows[i - 1];
	mpq_sub(by, a->cost, b->cost);
	if (!rank_model_linear(cm))
		return 0;
	mpq_sub(parts[0], a->w, b->w);
	mpq_sub(parts[1], a->h, b->h);
	mpq_mul(parts[1], parts[1], g);
	mpq_sub(parts[2], a->lcoef, b->lcoef);   /* the supersteps run, loops' too */
	mpq_mul(parts[2], parts[2], l);
	return 3;
}
