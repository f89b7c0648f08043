/* The cost functions (cost_model.h). */
#define _GNU_SOURCE
#include "analyzer/cost/cost_model.h"

#include <stdlib.h>
#include <string.h>

const char *const cost_coef_name[COEF_N] = {"g", "g_i", "g_o", "g_M", "l"};

#define G COEF_G
#define GI COEF_G_I
#define GO COEF_G_O
#define GM COEF_G_M
#define H TERM_H
#define HI TERM_H_IN
#define HO TERM_H_OUT
#define M TERM_NCOM

static const struct cost_model models[] = {
	{"bsp", "w + h*g + l", false, 1, {G}, {H}, 2, {"g", "l"}},
	{"overlap", "max(w, h*g) + l", true, 1, {G}, {H}, 2, {"g", "l"}},
	{"F_h", "w + h*g + l", false, 1, {G}, {H}, 2, {"g", "l"}},
	{"F_io", "w + h_in*g_i + h_out*g_o + l", false, 2, {GI, GO}, {HI, HO}, 3,
	 {"g_i", "g_o", "l"}},
	{"F_ioM", "w + h_in*g_i + h_out*g_o + NCom*g_M + l", false, 3, {GI, GO, GM},
	 {HI, HO, M}, 4, {"g_i", "g_o", "g_M", "l"}},
	{"F_hM", "w + h*g + NCom*g_M + l", false, 2, {G, GM}, {H, M}, 3, {"g", "g_M", "l"}},
	{"F_M", "w + NCom*g_M + l", false, 1, {GM}, {M}, 2, {"g_M", "l"}},
	{"F_oM", "w + h_out*g_o + NCom*g_M + l", false, 2, {GO, GM}, {HO, M}, 3,
	 {"g_o", "g_M", "l"}},
	{"F_iM", "w + h_in*g_i + NCom*g_M + l", false, 2, {GI, GM}, {HI, M}, 3,
	 {"g_i", "g_M", "l"}},
	{"F_o", "w + h_out*g_o + l", false, 1, {GO}, {HO}, 2, {"g_o", "l"}},
	{"F_i", "w + h_in*g_i + l", false, 1, {GI}, {HI}, 2, {"g_i", "l"}},
};
enum { NMODELS = sizeof(models) / sizeof(*models) };

const struct cost_model *cost_model_find(const char *name)
{
	for (int i = 0; name && i < NMODELS; i++)
		if (strcmp(models[i].name, name) == 0)
			return &models[i];
	return NULL;
}

const struct cost_model *cost_model_default(void)
{
	return &models[0];
}

char *cost_model_names(void)
{
	size_t len = 1;
	for (int i = 0; i < NMODELS; i++)
		len += strlen(models[i].name) + 2;
	char *s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < NMODELS; i++) {
		strcat(s, i ? ", " : "");
		strcat(s, models[i].name);
	}
	return s;
}

int cost_coef_find(const char *name)
{
	for (int c = 0; c < COEF_N; c++)
		if (strcmp(cost_coef_name[c], name) == 0)
			return c;
	return -1;
}

bool cost_coef_known(const char *name)
{
	return cost_coef_find(name) >= 0;
}

bool cost_model_reads_name(const struct cost_model *cm, const char *name)
{
	int c = cost_coef_find(name);
	return c >= 0 && cost_model_reads(cm, (enum cost_coef)c);
}

bool cost_model_reads(const struct cost_model *cm, enum cost_coef c)
{
	if (c == COEF_L)
		return true;
	for (int k = 0; k < cm->nterms; k++)
		if (cm->coef[k] == c)
			return true;
	return false;
}

struct formula *cost_model_formula(const struct cost_model *cm,
				   const struct formula *const q[TERM_N])
{
	/* communication: the sum of each term times its coefficient */
	struct formula *comm = NULL;
	bool ok = true;
	for (int k = 0; k < cm->nterms && ok; k++) {
		struct formula *c = formula_param(cost_coef_name[cm->coef[k]]);
		struct formula *t = c && q[cm->term[k]] ? formula_mul(q[cm->term[k]], c) : NULL;
		struct formula *sum = !t ? NULL : comm ? formula_add(comm, t) : formula_copy(t);
		formula_free(c);
		formula_free(t);
		formula_free(comm);
		comm = sum;
		ok = sum != NULL;
	}
	struct formula *l = formula_param("l");
	struct formula *body = !comm || !q[TERM_W] ? NULL
			       : cm->overlap ? formula_max(q[TERM_W], comm)
					     : formula_add(q[TERM_W], comm);
	struct formula *cost = body && l ? formula_add(body, l) : NULL;
	formula_free(comm);
	formula_free(l);
	formula_free(body);
	return cost;
}

void cost_prices_init(struct cost_prices *p, const struct cost_model *cm)
{
	memset(p, 0, sizeof(*p));
	p->model = cm;
	for (int c = 0; c < COEF_N; c++)
		mpq_init(p->coef[c]);
}

void cost_prices_clear(struct cost_prices *p)
{
	for (int c = 0; c < COEF_N; c++)
		mpq_clear(p->coef[c]);
}

enum cost_value_status cost_prices_value(const struct cost_prices *p, const mpq_t q[TERM_N],
					 mpq_t out, enum cost_coef *missing)
{
	const struct cost_model *cm = p->model;
	enum cost_value_status st = COST_VALUE_OK;
	mpq_t comm, t;
	mpq_inits(comm, t, NULL);
	for (int k = 0; k < cm->nterms && st == COST_VALUE_OK; k++) {
		if (mpq_sgn(q[cm->term[k]]) == 0)
			continue;   /* its coefficient does not matter */
		if (!p->has[cm->coef[k]]) {
			st = COST_VALUE_NO_COEF;
			if (missing)
				*missing = cm->coef[k];
			break;
		}
		mpq_mul(t, q[cm->term[k]], p->coef[cm->coef[k]]);
		mpq_add(comm, comm, t);
	}
	if (st == COST_VALUE_OK && !p->has[COEF_L]) {
		st = COST_VALUE_NO_COEF;
		if (missing)
			*missing = COEF_L;
	}
	if (st == COST_VALUE_OK) {
		if (cm->overlap)
			mpq_set(out, mpq_cmp(q[TERM_W], comm) >= 0 ? q[TERM_W] : comm);
		else
			mpq_add(out, q[TERM_W], comm);
		mpq_add(out, out, p->coef[COEF_L]);
	}
	mpq_clears(comm, t, NULL);
	return st;
}
