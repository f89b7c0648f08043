/* The cost functions (cost_model.h). */
#define _GNU_SOURCE
#include "analyzer/cost/cost_model.h"

#include <stdlib.h>
#include <string.h>

const char *const cost_coef_name[COEF_N] = {"g", "g_i", "g_o", "g_M", "l", "n_half", "o", "L"};

#define G COEF_G
#define GI COEF_G_I
#define GO COEF_G_O
#define GM COEF_G_M
#define H TERM_H
#define HI TERM_H_IN
#define HO TERM_H_OUT
#define M TERM_NCOM

static const struct cost_model models[] = {
	{"bsp", "w + h*g + l", false, 1, {G}, {H}, 2, {"g", "l"}, MSG_NONE},
	{"overlap", "max(w, h*g) + l", true, 1, {G}, {H}, 2, {"g", "l"}, MSG_NONE},
	{"F_h", "w + h*g + l", false, 1, {G}, {H}, 2, {"g", "l"}, MSG_NONE},
	{"F_io", "w + h_in*g_i + h_out*g_o + l", false, 2, {GI, GO}, {HI, HO}, 3,
	 {"g_i", "g_o", "l"}, MSG_NONE},
	{"F_ioM", "w + h_in*g_i + h_out*g_o + NCom*g_M + l", false, 3, {GI, GO, GM},
	 {HI, HO, M}, 4, {"g_i", "g_o", "g_M", "l"}, MSG_NONE},
	{"F_hM", "w + h*g + NCom*g_M + l", false, 2, {G, GM}, {H, M}, 3, {"g", "g_M", "l"}, MSG_NONE},
	{"F_M", "w + NCom*g_M + l", false, 1, {GM}, {M}, 2, {"g_M", "l"}, MSG_NONE},
	{"F_oM", "w + h_out*g_o + NCom*g_M + l", false, 2, {GO, GM}, {HO, M}, 3,
	 {"g_o", "g_M", "l"}, MSG_NONE},
	{"F_iM", "w + h_in*g_i + NCom*g_M + l", false, 2, {GI, GM}, {HI, M}, 3,
	 {"g_i", "g_M", "l"}, MSG_NONE},
	{"F_o", "w + h_out*g_o + l", false, 1, {GO}, {HO}, 2, {"g_o", "l"}, MSG_NONE},
	{"F_i", "w + h_in*g_i + l", false, 1, {GI}, {HI}, 2, {"g_i", "l"}, MSG_NONE},
	/* the communication of these two is their loads' (struct message_load);
	 * COEF and TERM say what they read */
	{"nhalf", "w + g*max_q max(h_in + n_half*msgs_in, h_out + n_half*msgs_out) + l", false, 2, {G, COEF_N_HALF}, {H, H}, 3,
	 {"g", "n_half", "l"}, MSG_NHALF},
	{"logp", "w + max_q max(g*h_in + o*msgs_in, g*h_out + o*msgs_out) + L", false, 2, {G, COEF_O}, {H, H}, 3,
	 {"g", "o", "L"}, MSG_LOGP},
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

enum cost_coef cost_model_latency(const struct cost_model *cm)
{
	return cm->messages == MSG_LOGP ? COEF_LAT : COEF_L;
}

bool cost_model_reads(const struct cost_model *cm, enum cost_coef c)
{
	if (c == cost_model_latency(cm))
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
		struct formula *t = formula_mul(q[cm->term[k]], c);
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
	struct formula *cost = formula_add(body, l);
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

/* The communication of a load (WORDS, MSGS) under CM at the prices P into
 * OUT: g*(words + n_half*msgs) or g*words + o*msgs.  A coefficient without
 * a price is fine where what it multiplies is 0 (*MISSING names the first
 * that is not). */
static enum cost_value_status load_value(const struct cost_prices *p, const mpz_t words,
					 const mpz_t msgs, mpq_t out, enum cost_coef *missing)
{
	enum cost_coef cm = p->model->messages == MSG_NHALF ? COEF_N_HALF : COEF_O;
	bool need_g = mpz_sgn(words) != 0 || (p->model->messages == MSG_NHALF && mpz_sgn(msgs));
	if ((need_g && !p->has[COEF_G]) || (mpz_sgn(msgs) != 0 && !p->has[cm])) {
		if (missing)
			*missing = need_g && !p->has[COEF_G] ? COEF_G : cm;
		return COST_VALUE_NO_COEF;
	}
	mpq_t t;
	mpq_init(t);
	mpq_set_z(out, words);
	mpq_set_z(t, msgs);
	if (mpz_sgn(msgs))
		mpq_mul(t, t, p->coef[cm]);
	if (p->model->messages == MSG_NHALF) {
		mpq_add(out, out, t);
		if (need_g)
			mpq_mul(out, out, p->coef[COEF_G]);
	} else {
		if (mpz_sgn(words))
			mpq_mul(out, out, p->coef[COEF_G]);
		mpq_add(out, out, t);
	}
	mpq_clear(t);
	return COST_VALUE_OK;
}

/* *COMM = the largest cost of LOADS[LO..HI) at P (0 for none). */
static enum cost_value_status loads_value(const struct cost_prices *p,
					  const struct message_load *loads, int lo, int hi,
					  mpq_t comm, enum cost_coef *missing)
{
	mpq_t t;
	mpq_init(t);
	mpq_set_ui(comm, 0, 1);
	enum cost_value_status st = COST_VALUE_OK;
	for (int k = lo; k < hi && st == COST_VALUE_OK; k++) {
		st = load_value(p, loads[k].words, loads[k].msgs, t, missing);
		if (st == COST_VALUE_OK && mpq_cmp(t, comm) > 0)
			mpq_set(comm, t);
	}
	mpq_clear(t);
	return st;
}

enum cost_value_status cost_prices_runs(const struct cost_prices *p, const mpq_t q[TERM_N],
					const struct message_load *loads, const int *run_end,
					int nruns, mpq_t out, enum cost_coef *missing)
{
	const struct cost_model *cm = p->model;
	enum cost_coef lat = cost_model_latency(cm);
	if (nruns > 0 && !p->has[lat]) {
		if (missing)
			*missing = lat;
		return COST_VALUE_NO_COEF;
	}
	mpq_t comm, t;
	mpq_inits(comm, t, NULL);
	mpq_set(out, q[TERM_W]);
	enum cost_value_status st = COST_VALUE_OK;
	for (int r = 0; r < nruns && st == COST_VALUE_OK; r++) {
		st = loads_value(p, loads, r ? run_end[r - 1] : 0, run_end[r], comm, missing);
		mpq_add(out, out, comm);
		mpq_add(out, out, p->coef[lat]);
	}
	mpq_clears(comm, t, NULL);
	return st;
}

enum cost_value_status cost_prices_step(const struct cost_prices *p, const mpq_t q[TERM_N],
					const struct message_load *loads, int n, mpq_t out,
					enum cost_coef *missing)
{
	if (p->model->messages == MSG_NONE)
		return cost_prices_value(p, q, out, missing);
	int end = n;
	return cost_prices_runs(p, q, loads, &end, 1, out, missing);
}

/* NUMBER (kept) as a formula. */
static struct formula *mpz_formula(const mpz_t number)
{
	mpq_t q;
	mpq_init(q);
	mpq_set_z(q, number);
	struct formula *f = formula_const_mpq(q);
	mpq_clear(q);
	return f;
}

/* A formula of A times the parameter NAME (both kept). */
static struct formula *times_param(const struct formula *a, const char *name)
{
	struct formula *c = formula_param(name);
	struct formula *r = formula_mul(a, c);
	formula_free(c);
	return r;
}

/* The communication of LOADS[LO..HI) under CM, its coefficients symbols
 * (0 for none): a new formula, or NULL when out of memory. */
static struct formula *loads_formula(const struct cost_model *cm, const struct message_load *loads,
				     int lo, int hi)
{
	struct formula *comm = NULL;
	bool ok = true;
	for (int k = lo; k < hi && ok; k++) {
		struct formula *words = mpz_formula(loads[k].words);
		struct formula *msgs = mpz_formula(loads[k].msgs);
		struct formula *one = NULL;
		if (cm->messages == MSG_NHALF) {
			struct formula *m = msgs ? times_param(msgs, "n_half") : NULL;
			struct formula *s = formula_add(words, m);
			one = s ? times_param(s, "g") : NULL;
			formula_free(m);
			formula_free(s);
		} else {
			struct formula *a = words ? times_param(words, "g") : NULL;
			struct formula *b = msgs ? times_param(msgs, "o") : NULL;
			one = formula_add(a, b);
			formula_free(a);
			formula_free(b);
		}
		formula_free(words);
		formula_free(msgs);
		struct formula *next = !one ? NULL : comm ? formula_max(comm, one) : formula_copy(one);
		formula_free(one);
		formula_free(comm);
		comm = next;
		ok = next != NULL;
	}
	return ok && !comm ? formula_const_si(0) : comm;
}

struct formula *cost_model_runs_formula(const struct cost_model *cm, const struct formula *w,
					const struct message_load *loads, const int *run_end,
					int nruns)
{
	struct formula *lat = formula_param(cost_coef_name[cost_model_latency(cm)]);
	struct formula *cost = w && lat ? formula_copy(w) : NULL;
	for (int r = 0; r < nruns && cost; r++) {
		struct formula *comm = loads_formula(cm, loads, r ? run_end[r - 1] : 0, run_end[r]);
		struct formula *c = formula_add(cost, comm);
		struct formula *d = formula_add(c, lat);
		formula_free(comm);
		formula_free(c);
		formula_free(cost);
		cost = d;
	}
	formula_free(lat);
	return cost;
}

struct formula *cost_model_message_formula(const struct cost_model *cm, const struct formula *w,
					   const struct message_load *loads, int n)
{
	int end = n;
	return cost_model_runs_formula(cm, w, loads, &end, 1);
}

int message_loads_add(struct message_load **loads, int *n, int *cap, const mpz_t words,
		      const mpz_t msgs)
{
	for (int k = 0; k < *n; k++)
		if (mpz_cmp((*loads)[k].words, words) >= 0 && mpz_cmp((*loads)[k].msgs, msgs) >= 0)
			return 0;
	/* drop the loads it beats (moving the last into each place) */
	for (int k = 0; k < *n;) {
		if (mpz_cmp((*loads)[k].words, words) <= 0 && mpz_cmp((*loads)[k].msgs, msgs) <= 0) {
			mpz_swap((*loads)[k].words, (*loads)[*n - 1].words);
			mpz_swap((*loads)[k].msgs, (*loads)[*n - 1].msgs);
			mpz_clears((*loads)[*n - 1].words, (*loads)[*n - 1].msgs, NULL);
			(*n)--;
		} else {
			k++;
		}
	}
	if (*n == *cap) {
		int c = *cap ? 2 * *cap : 4;
		struct message_load *more = realloc(*loads, (size_t)c * sizeof(*more));
		if (!more)
			return -1;
		*loads = more;
		*cap = c;
	}
	mpz_init_set((*loads)[*n].words, words);
	mpz_init_set((*loads)[*n].msgs, msgs);
	(*n)++;
	return 0;
}

void message_loads_free(struct message_load *loads, int n)
{
	for (int k = 0; k < n; k++)
		mpz_clears(loads[k].words, loads[k].msgs, NULL);
	free(loads);
}
