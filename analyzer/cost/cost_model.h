/* Cost functions: how a superstep's w, h, h_in, h_out and NCom become a cost.
 *
 *   bsp      w + g*h + l                      (the default; Valiant, Niculescu)
 *   overlap  max(w, g*h) + l                  (computation overlaps communication)
 *   F_h ... F_i: Bianco and Pucci's nine functions over (h_in, h_out, M = NCom),
 *            each added to w as in their equation (1):
 *   F_h   w + g*h + l            F_io  w + g_i*h_in + g_o*h_out + l
 *   F_ioM w + g_i*h_in + g_o*h_out + g_M*NCom + l
 *   F_hM  w + g*h + g_M*NCom + l F_M   w + g_M*NCom + l
 *   F_oM  w + g_o*h_out + g_M*NCom + l        F_iM  w + g_i*h_in + g_M*NCom + l
 *   F_o   w + g_o*h_out + l      F_i   w + g_i*h_in + l
 * Two price messages as well as words, a message per pair of partners
 * (step_cost.msgs), process by process:
 *   nhalf w + g*max_q max(h_in(q) + n_half*msgs_in(q), h_out(q) + n_half*msgs_out(q)) + l
 *         (Hill, Crumpton and Burgess: g(x) = (n_half/x + 1)*g for messages
 *         of x words, so a message of x words costs g*x + g*n_half)
 *   logp  w + max_q max(g*h_in(q) + o*msgs_in(q), g*h_out(q) + o*msgs_out(q)) + L
 *         (LogP: a gap g per word, an overhead o per message at each end,
 *         the last word arriving L later; no barrier)
 *   (with h = h_in + h_out, each process's two directions added instead)
 *
 * A program's cost is the sum of its supersteps' costs.  The coefficients are
 * symbols (formula parameters named as above) until a machine or -D gives
 * them values; every value is exact (GMP rationals). */
#ifndef BSPCOST_COST_MODEL_H
#define BSPCOST_COST_MODEL_H

#include <stdbool.h>

#include <gmp.h>

#include "analyzer/formula/formula.h"

/* What a cost function reads of a superstep. */
enum cost_term { TERM_W, TERM_H, TERM_H_IN, TERM_H_OUT, TERM_NCOM, TERM_N };

/* The coefficients any cost function may have. */
enum cost_coef { COEF_G, COEF_G_I, COEF_G_O, COEF_G_M, COEF_L, COEF_N_HALF, COEF_O, COEF_LAT,
		 COEF_N };

/* Their names as parameters: "g", "g_i", "g_o", "g_M", "l", "n_half", "o",
 * "L". */
extern const char *const cost_coef_name[COEF_N];

struct cost_model {
	const char *name;       /* "bsp", "overlap", "F_ioM", ... */
	const char *text;       /* "w + h*g + l" */
	bool overlap;           /* max(w, communication) + l instead of w + ... */
	int nterms;             /* communication: sum of coef[k] * term[k] */
	enum cost_coef coef[3];
	enum cost_term term[3];
	/* every coefficient it reads, l last ({"g", "l"} for bsp): how its
	 * formulas are collected when printed */
	int ncoefs;
	const char *coef_names[4];
	/* prices messages (nhalf, logp): the communication is the largest of
	 * the processes' loads (struct message_load), not a sum of terms */
	enum { MSG_NONE, MSG_NHALF, MSG_LOGP } messages;
};

/* One process's words and messages in a superstep, in one direction (or
 * both added, h = h_in + h_out).  A superstep keeps the loads no other
 * beats in both: the models that price messages charge their maximum. */
struct message_load {
	mpz_t words, msgs;
};

/* The coefficient of a model's latency: l, or LogP's L. */
enum cost_coef cost_model_latency(const struct cost_model *cm);

/* The model called NAME (as above, case as written), or NULL. */
const struct cost_model *cost_model_find(const char *name);

/* w + h*g + l. */
const struct cost_model *cost_model_default(void);

/* Every model's name, "bsp, overlap, F_h, ...", malloc'd. */
char *cost_model_names(void);

/* The coefficient called NAME (g, g_i, g_o, g_M, l), or -1; whether NAME is
 * one; whether model CM reads coefficient C, and the one called NAME.  Only g
 * and l are reserved: a specification may name a size g_i, g_o or g_M, which
 * then is a size under a model that does not read that coefficient. */
int cost_coef_find(const char *name);
bool cost_coef_known(const char *name);
bool cost_model_reads(const struct cost_model *cm, enum cost_coef c);
bool cost_model_reads_name(const struct cost_model *cm, const char *name);

/* The cost of a superstep whose quantities are Q (indexed by enum
 * cost_term; only those CM reads are looked at), its coefficients symbols:
 * a new formula, or NULL when out of memory. */
struct formula *cost_model_formula(const struct cost_model *cm,
				   const struct formula *const q[TERM_N]);

/* Numbers for a model's coefficients, in w's unit (flops): COEF[c] where
 * HAS[c]. */
struct cost_prices {
	const struct cost_model *model;
	bool has[COEF_N];
	mpq_t coef[COEF_N];
};

void cost_prices_init(struct cost_prices *p, const struct cost_model *cm);
void cost_prices_clear(struct cost_prices *p);

enum cost_value_status {
	COST_VALUE_OK,
	COST_VALUE_NO_COEF,     /* a coefficient the model reads where its term is
				 * not 0 has no value */
};

/* *OUT = the cost of a superstep whose quantities are Q, at the prices P,
 * exactly.  A coefficient without a value is fine where its term is 0; *MISSING
 * (may be NULL) names the first one that is not. */
enum cost_value_status cost_prices_value(const struct cost_prices *p, const mpq_t q[TERM_N],
					 mpq_t out, enum cost_coef *missing);

/* The same for a model that prices messages, with the superstep's N loads
 * LOADS (its other quantities in Q): the cost of its largest load.  For
 * any other model, cost_prices_value. */
enum cost_value_status cost_prices_step(const struct cost_prices *p, const mpq_t q[TERM_N],
					const struct message_load *loads, int n, mpq_t out,
					enum cost_coef *missing);

/* The same for a superstep in loops whose quantities, summed over its runs,
 * are Q, and whose runs' loads are LOADS[RUN_END[r-1] .. RUN_END[r]) for r
 * < NRUNS: the sum over the runs of each one's cost. */
enum cost_value_status cost_prices_runs(const struct cost_prices *p, const mpq_t q[TERM_N],
					const struct message_load *loads, const int *run_end,
					int nruns, mpq_t out, enum cost_coef *missing);

/* The cost of a superstep whose work is W and whose loads are LOADS[0..N)
 * under a model that prices messages, its coefficients symbols: a new
 * formula, or NULL when out of memory. */
struct formula *cost_model_message_formula(const struct cost_model *cm, const struct formula *w,
					   const struct message_load *loads, int n);

/* The same for a superstep in loops (as cost_prices_runs), W the sum of
 * its runs' work. */
struct formula *cost_model_runs_formula(const struct cost_model *cm, const struct formula *w,
					const struct message_load *loads, const int *run_end,
					int nruns);

/* Adds the load (WORDS, MSGS) to *LOADS (*N of them, *CAP allocated),
 * unless one there has as many words and messages or more; drops those it
 * beats.  Returns 0, or -1 when out of memory. */
int message_loads_add(struct message_load **loads, int *n, int *cap, const mpz_t words,
		      const mpz_t msgs);
void message_loads_free(struct message_load *loads, int n);

#endif
