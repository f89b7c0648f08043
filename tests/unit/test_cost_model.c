/* The cost functions (analyzer/cost/cost_model.h) against the formulas as
 * Bianco and Pucci print them (their section 1.1, each added to w as in their
 * equation (1)), the BSP cost and the overlapping model, typed again here in
 * the formula grammar: symbolically, at random points, and priced. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/cost/cost_model.h"

/* W, H, HI, HO and M stand for w, h, h_in, h_out and NCom (= M). */
static const struct {
	const char *name, *hand;
} hand[] = {
	{"bsp", "W + g*H + l"},
	{"overlap", "max(W, g*H) + l"},
	{"F_h", "W + g*H + l"},
	{"F_io", "W + g_i*HI + g_o*HO + l"},
	{"F_ioM", "W + g_i*HI + g_o*HO + g_M*M + l"},
	{"F_hM", "W + g*H + g_M*M + l"},
	{"F_M", "W + g_M*M + l"},
	{"F_oM", "W + g_o*HO + g_M*M + l"},
	{"F_iM", "W + g_i*HI + g_M*M + l"},
	{"F_o", "W + g_o*HO + l"},
	{"F_i", "W + g_i*HI + l"},
};
enum { NHAND = sizeof(hand) / sizeof(*hand) };

static const char *const names[] = {"W", "H", "HI", "HO", "M", "g", "g_i", "g_o", "g_M", "l"};
enum { NNAMES = 10 };

static long long draw(unsigned *seed, long long lo, long long hi)
{
	*seed = *seed * 1103515245u + 12345u;
	return lo + (long long)((*seed >> 8) % (unsigned)(hi - lo + 1));
}

static void test_every_function_symbolic(void **state)
{
	(void)state;
	struct formula *q[TERM_N];
	for (int t = 0; t < TERM_N; t++)
		q[t] = formula_param(names[t]);
	unsigned seed = 7;
	for (int k = 0; k < NHAND; k++) {
		const struct cost_model *cm = cost_model_find(hand[k].name);
		assert_non_null(cm);
		struct formula *f = cost_model_formula(cm, (const struct formula *const *)q);
		assert_non_null(f);
		struct formula_expr *e = formula_parse_expr(hand[k].hand, NULL);
		assert_non_null(e);
		for (int i = 0; i < 300; i++) {
			long long v[NNAMES];
			for (int n = 0; n < NNAMES; n++)
				v[n] = draw(&seed, n < TERM_N ? 0 : 1, n < TERM_N ? 5000 : 40);
			mpq_t got, want;
			mpq_inits(got, want, NULL);
			assert_int_equal(formula_eval(f, names, v, NNAMES, got), 0);
			assert_int_equal(formula_expr_eval(e, names, v, NNAMES, want), 0);
			if (!mpq_equal(got, want))
				fail_msg("%s at point %d: formula and hand differ", hand[k].name, i);
			mpq_clears(got, want, NULL);
		}
		formula_expr_free(e);
		formula_free(f);
	}
	for (int t = 0; t < TERM_N; t++)
		formula_free(q[t]);
}

static void test_every_function_priced(void **state)
{
	(void)state;
	unsigned seed = 11;
	for (int k = 0; k < NHAND; k++) {
		const struct cost_model *cm = cost_model_find(hand[k].name);
		struct formula_expr *e = formula_parse_expr(hand[k].hand, NULL);
		struct cost_prices p;
		cost_prices_init(&p, cm);
		for (int i = 0; i < 300; i++) {
			long long v[NNAMES];
			mpq_t q[TERM_N], got, want;
			for (int n = 0; n < NNAMES; n++)
				v[n] = draw(&seed, 0, n < TERM_N ? 100000 : 60);
			for (int t = 0; t < TERM_N; t++) {
				mpq_init(q[t]);
				mpq_set_si(q[t], (long)v[t], 1);
			}
			/* every coefficient a fraction: v/7 */
			for (int c = 0; c < COEF_N; c++) {
				int n = 0;
				while (n < NNAMES && strcmp(names[n], cost_coef_name[c]) != 0)
					n++;
				if (n == NNAMES)
					continue;   /* n_half, o, L: test_messages_priced */
				mpq_set_si(p.coef[c], (long)v[n], 7);
				mpq_canonicalize(p.coef[c]);
				p.has[c] = true;
			}
			mpq_inits(got, want, NULL);
			assert_int_equal(cost_prices_value(&p, (const mpq_t *)q, got, NULL), COST_VALUE_OK);
			/* the hand formula at the integer coefficients v: the priced one, at
			 * v/7, is W + (hand - W)/7 (the overlap is priced in
			 * test_overlap_priced) */
			assert_int_equal(formula_expr_eval(e, names, v, NNAMES, want), 0);
			if (!cm->overlap) {
				mpq_t w;
				mpq_init(w);
				mpq_set_si(w, (long)v[0], 1);
				mpq_sub(want, want, w);
				mpq_set_si(w, 1, 7);
				mpq_mul(want, want, w);
				mpq_set_si(w, (long)v[0], 1);
				mpq_add(want, want, w);
				mpq_clear(w);
				if (!mpq_equal(got, want))
					fail_msg("%s priced at point %d differs", hand[k].name, i);
			}
			for (int t = 0; t < TERM_N; t++)
				mpq_clear(q[t]);
			mpq_clears(got, want, NULL);
		}
		cost_prices_clear(&p);
		formula_expr_free(e);
	}
}

static void test_overlap_priced(void **state)
{
	(void)state;
	const struct cost_model *cm = cost_model_find("overlap");
	struct cost_prices p;
	cost_prices_init(&p, cm);
	mpq_set_si(p.coef[COEF_G], 3, 1);
	mpq_set_si(p.coef[COEF_L], 10, 1);
	p.has[COEF_G] = p.has[COEF_L] = true;
	mpq_t q[TERM_N], out;
	for (int t = 0; t < TERM_N; t++)
		mpq_init(q[t]);
	mpq_init(out);
	/* w = 100, h = 20: max(100, 60) + 10; h = 50: max(100, 150) + 10 */
	mpq_set_si(q[TERM_W], 100, 1);
	mpq_set_si(q[TERM_H], 20, 1);
	assert_int_equal(cost_prices_value(&p, (const mpq_t *)q, out, NULL), COST_VALUE_OK);
	assert_int_equal(mpz_get_si(mpq_numref(out)), 110);
	mpq_set_si(q[TERM_H], 50, 1);
	assert_int_equal(cost_prices_value(&p, (const mpq_t *)q, out, NULL), COST_VALUE_OK);
	assert_int_equal(mpz_get_si(mpq_numref(out)), 160);
	for (int t = 0; t < TERM_N; t++)
		mpq_clear(q[t]);
	mpq_clear(out);
	cost_prices_clear(&p);
}

static void test_missing_coefficients(void **state)
{
	(void)state;
	const struct cost_model *cm = cost_model_find("F_ioM");
	struct cost_prices p;
	cost_prices_init(&p, cm);
	mpq_t q[TERM_N], out;
	for (int t = 0; t < TERM_N; t++)
		mpq_init(q[t]);
	mpq_init(out);
	enum cost_coef missing = COEF_N;
	/* l is always read */
	assert_int_equal(cost_prices_value(&p, (const mpq_t *)q, out, &missing), COST_VALUE_NO_COEF);
	assert_int_equal(missing, COEF_L);
	p.has[COEF_L] = true;
	mpq_set_si(p.coef[COEF_L], 5, 1);
	/* a coefficient of a zero term does not matter */
	assert_int_equal(cost_prices_value(&p, (const mpq_t *)q, out, &missing), COST_VALUE_OK);
	assert_int_equal(mpz_get_si(mpq_numref(out)), 5);
	mpq_set_si(q[TERM_H_OUT], 4, 1);
	assert_int_equal(cost_prices_value(&p, (const mpq_t *)q, out, &missing), COST_VALUE_NO_COEF);
	assert_int_equal(missing, COEF_G_O);
	for (int t = 0; t < TERM_N; t++)
		mpq_clear(q[t]);
	mpq_clear(out);
	cost_prices_clear(&p);
}

/* The loads a superstep keeps: those no other beats in words and messages. */
static void test_loads(void **state)
{
	(void)state;
	static const long in[][2] = {{5, 1}, {3, 2}, {5, 1}, {4, 1}, {6, 1}, {1, 3}, {6, 3}, {2, 2}};
	static const long keep[][2] = {{6, 3}};
	struct message_load *loads = NULL;
	int n = 0, cap = 0;
	mpz_t w, m;
	mpz_inits(w, m, NULL);
	for (size_t k = 0; k < sizeof(in) / sizeof(*in); k++) {
		mpz_set_si(w, in[k][0]);
		mpz_set_si(m, in[k][1]);
		assert_int_equal(message_loads_add(&loads, &n, &cap, w, m), 0);
		if (k == 5) {   /* (5,1) (3,2) (6,1) (1,3): (6,1), (3,2), (1,3) */
			assert_int_equal(n, 3);
			long sw = 0, sm = 0;
			for (int i = 0; i < n; i++) {
				sw += mpz_get_si(loads[i].words);
				sm += mpz_get_si(loads[i].msgs);
			}
			assert_int_equal(sw, 10);
			assert_int_equal(sm, 6);
		}
	}
	assert_int_equal(n, 1);
	assert_int_equal(mpz_get_si(loads[0].words), keep[0][0]);
	assert_int_equal(mpz_get_si(loads[0].msgs), keep[0][1]);
	mpz_clears(w, m, NULL);
	message_loads_free(loads, n);
}

/* nhalf and logp priced by hand: loads (10 words, 1 message) and (2, 4),
 * w = 100.  nhalf, g = 2, n_half = 3, l = 5: max(2*(10 + 3), 2*(2 + 12)) =
 * 28, so 133.  logp, g = 2, o = 9, L = 7: max(20 + 9, 4 + 36) = 40, so 147.
 * A missing coefficient is named; no loads cost w + the latency. */
static void test_messages_priced(void **state)
{
	(void)state;
	struct message_load loads[2];
	mpz_init_set_si(loads[0].words, 10);
	mpz_init_set_si(loads[0].msgs, 1);
	mpz_init_set_si(loads[1].words, 2);
	mpz_init_set_si(loads[1].msgs, 4);
	mpq_t q[TERM_N], out;
	for (int t = 0; t < TERM_N; t++)
		mpq_init(q[t]);
	mpq_init(out);
	mpq_set_si(q[TERM_W], 100, 1);
	struct cost_prices p;
	cost_prices_init(&p, cost_model_find("nhalf"));
	mpq_set_si(p.coef[COEF_G], 2, 1);
	mpq_set_si(p.coef[COEF_N_HALF], 3, 1);
	mpq_set_si(p.coef[COEF_L], 5, 1);
	p.has[COEF_G] = p.has[COEF_L] = true;
	enum cost_coef missing = COEF_N;
	assert_int_equal(cost_prices_step(&p, (const mpq_t *)q, loads, 2, out, &missing),
			 COST_VALUE_NO_COEF);
	assert_int_equal(missing, COEF_N_HALF);
	p.has[COEF_N_HALF] = true;
	assert_int_equal(cost_prices_step(&p, (const mpq_t *)q, loads, 2, out, NULL), COST_VALUE_OK);
	assert_int_equal(mpz_get_si(mpq_numref(out)), 133);
	assert_int_equal(cost_prices_step(&p, (const mpq_t *)q, loads, 0, out, NULL), COST_VALUE_OK);
	assert_int_equal(mpz_get_si(mpq_numref(out)), 105);
	cost_prices_clear(&p);
	cost_prices_init(&p, cost_model_find("logp"));
	mpq_set_si(p.coef[COEF_G], 2, 1);
	mpq_set_si(p.coef[COEF_O], 9, 1);
	mpq_set_si(p.coef[COEF_LAT], 7, 1);
	p.has[COEF_G] = p.has[COEF_O] = true;
	assert_int_equal(cost_prices_step(&p, (const mpq_t *)q, loads, 2, out, &missing),
			 COST_VALUE_NO_COEF);
	assert_int_equal(missing, COEF_LAT);
	p.has[COEF_LAT] = true;
	assert_int_equal(cost_prices_step(&p, (const mpq_t *)q, loads, 2, out, NULL), COST_VALUE_OK);
	assert_int_equal(mpz_get_si(mpq_numref(out)), 147);
	cost_prices_clear(&p);
	for (int t = 0; t < TERM_N; t++)
		mpq_clear(q[t]);
	mpq_clear(out);
	for (int k = 0; k < 2; k++)
		mpz_clears(loads[k].words, loads[k].msgs, NULL);
}

static void test_names(void **state)
{
	(void)state;
	assert_null(cost_model_find("F_x"));
	assert_null(cost_model_find("f_io"));   /* as written */
	assert_ptr_equal(cost_model_find("bsp"), cost_model_default());
	char *all = cost_model_names();
	assert_string_equal(all, "bsp, overlap, F_h, F_io, F_ioM, F_hM, F_M, F_oM, F_iM, F_o, F_i, "
				 "nhalf, logp");
	free(all);
	/* the names printed are the coefficients read, l last */
	for (int k = 0; k < NHAND; k++) {
		const struct cost_model *cm = cost_model_find(hand[k].name);
		int reads = 0;
		for (int c = 0; c < COEF_N; c++)
			reads += cost_model_reads(cm, c);
		assert_int_equal(reads, cm->ncoefs);
		assert_string_equal(cm->coef_names[cm->ncoefs - 1], "l");
		for (int i = 0; i < cm->ncoefs; i++)
			assert_true(cost_coef_known(cm->coef_names[i]));
	}
	assert_false(cost_coef_known("s"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_function_symbolic),
		cmocka_unit_test(test_every_function_priced),
		cmocka_unit_test(test_overlap_priced),
		cmocka_unit_test(test_missing_coefficients),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_loads),
		cmocka_unit_test(test_messages_priced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
