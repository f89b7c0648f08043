/* The BSP cost of every candidate, superstep by superstep (Niculescu, section 5).
 *
 * For a candidate and a superstep, with q ranging over the processes:
 *   fan_in(q)  = #{ e : e occurs in R.q, q does not own e }
 *   fan_out(q) = #{ (q', e) : e occurs in R.q', q' != q, q owns e }
 *              = sum over e owned by q of NOcc.e - A.e
 *   h_in = max_q fan_in(q), h_out = max_q fan_out(q),
 *   h    = max_q max(fan_in(q), fan_out(q))   (or max_q fan_in(q) + fan_out(q))
 *   NCom = #{ (q, e) : e occurs in R.q, q does not own e } = sum over e of NOcc.e - A.e
 *   w    = max_q (work of the instances q computes)
 *   cost = w + h*g + l (or the request's cost function, cost_model.h), and the
 *   program's cost is the sum over its supersteps.
 * Every count comes from the counting engine (analyzer/count/count.h) and is exact. */
#ifndef BSPCOST_COST_H
#define BSPCOST_COST_H

#include <stdbool.h>

#include <gmp.h>

#include "analyzer/cost/cost_model.h"
#include "analyzer/cost/hierarchy.h"
#include "analyzer/count/count.h"
#include "analyzer/formula/formula.h"
#include "analyzer/model/model.h"

enum h_rule {
	H_MAX,   /* h_q = max(fan_in_q, fan_out_q) */
	H_SUM,   /* h_q = fan_in_q + fan_out_q */
};

struct cost_request {
	enum h_rule h;
	bool symbolic;        /* axis sizes stay symbols */
	bool explain;         /* also NOcc, occurrences and A.e per array */
	long sizes[3];        /* the grid, when !symbolic */
	/* With every value known: the value of each size parameter (the grid is
	 * SIZES), and every quantity is counted directly for those values
	 * (relations_values, analyzer/model/relations.h): numbers, exact for any sizes. */
	const long long *values;
	/* The cost function (NULL: cost_model_default, w + h*g + l). */
	const struct cost_model *model;
	/* With VALUES on a grid of at most PER_PROCESS_MAX processes: each
	 * process's counts too (step_cost.procs). */
	bool per_process;
	/* On a concrete grid with sizes left free: formulas for every size,
	 * counted process by process, rather than the symbolic grid's with
	 * the axes given their sizes (which hold where the grid divides the
	 * sizes; cost_candidate) */
	bool all_sizes;
	/* On a concrete grid with the sizes left free (and not all_sizes): the
	 * symbolic grid's formulas only, a candidate without them refused
	 * rather than counted process by process (a large grid whose values
	 * are counted apart) */
	bool symbolic_only;
	/* Every value is given and counted apart (the formulas come on top):
	 * a candidate whose loop the symbolic grid could not sum (one
	 * iteration's maximum over the processes no single function,
	 * candidate_cost.loop_max), on a grid of more than 4 processes, then
	 * takes the symbolic grid's formulas only, as symbolic_only does:
	 * counted process by process it meets the same maxima, tens of seconds
	 * where it ends at all */
	bool values_apart;
	/* Count each superstep's messages too (step_cost.msgs): the partners
	 * each process sends to and receives from, a message per pair */
	bool messages;
	/* On a grid of 2^k processes: each superstep's H(i) and alpha
	 * (hierarchy.h), the processes numbered by NUMBERING; with VALUES
	 * numbers (step_cost.hier; for a superstep in loops, summed run by
	 * run), with the sizes left free H(i)'s formulas (step_cost.hf; under
	 * a named numbering, of a superstep outside loops) */
	bool hierarchy;
	enum numbering numbering;
	const struct numbering_map *map;   /* NUMBERING_MAP's */
	/* The counts keep the engine's operation limit on the symbolic grid
	 * too (count_engine.symbolic_max_operations not taken): a level of
	 * the symbolic grid's attempt on a concrete grid (levels.c) */
	bool engine_limit;
};

enum { PER_PROCESS_MAX = 1024 };

/* One process's counts in a superstep (cost_request.per_process): exact. */
struct process_cost {
	long q[3];            /* its coordinates, 0-based, one per axis */
	mpz_t w, in, out;     /* its work, fan-in and fan-out (words) */
	mpz_t msgs_in, msgs_out;   /* with cost_request.messages: its partners */
};


/* How the elements of one array occur in a superstep's local postconditions
 * (computed with cost_request.explain). */
struct array_occurrence {
	const char *name;              /* the model's */
	long long words;               /* the size of its elements (h and NCom count words) */
	struct formula *nocc;          /* max over the elements read of NOcc.e */
	struct formula *occurrences;   /* sum over the elements of NOcc.e */
	struct formula *unowned;       /* elements read whose owner does not read them
					* (A.e = 0) */
	/* why a quantity above is NULL: it has no exact form here (it does not
	 * stop the candidate's costs) */
	char *nocc_why, *occurrences_why, *unowned_why;
};

struct step_cost {
	const char *name;     /* the model's */
	/* why the symbolic grid gives this superstep no formulas, where its
	 * candidate keeps the others' (candidate_cost.formulas_kept); NULL
	 * elsewhere */
	char *refused;
	/* For a superstep in loops, each of these is the sum over every
	 * iteration of the loops (the cost counts l once per iteration). */
	struct formula *w, *h, *h_in, *h_out, *ncom, *cost;
	/* why NCom has no formula where it has none and the others have
	 * (a transpose between blocks over two axes: a sum that changes with
	 * the axes' common factors); NULL elsewhere */
	char *ncom_why;
	/* A superstep in loops: the innermost loop's range, as people read it
	 * ("0 <= k < n - 1", the model's), and how many times the superstep
	 * runs; NULL for a superstep that runs once. */
	const char *loop;
	struct formula *iterations;
	/* ... and one iteration's w, h, NCom and cost, formulas in the loops'
	 * variables; NULL with every value known (the sums are counted
	 * iteration by iteration there) */
	struct formula *per_w, *per_h, *per_ncom, *per_cost;
	/* the most words a process holds of the arrays the superstep reads or
	 * writes (memory.h); NULL when out of memory */
	struct formula *mem;
	/* With cost_request.messages: the most partners a process receives
	 * from (msgs_in), sends to (msgs_out), and the larger (msgs); a
	 * failure to count them is theirs (MSGS_WHY), not the candidate's */
	struct formula *msgs, *msgs_in, *msgs_out;
	char *msgs_why;
	/* ... and at values, the loads of the processes no other beats in
	 * both words and messages (cost_model.h prices them); for a superstep
	 * in loops, run by run: run r's are LOADS[RUN_END[r-1] .. RUN_END[r])
	 * (from 0 for r = 0), each run priced on its own (NRUNS = 0 and
	 * RUN_END NULL for a superstep that runs once) */
	int nloads;
	struct message_load *loads;
	int nruns;
	int *run_end;
	int narrays;          /* arrays read, with cost_request.explain */
	struct array_occurrence *arrays;
	int nprocs;           /* with cost_request.per_process: every process, */
	struct process_cost *procs;   /* the first axis slowest */
	struct hierarchy *hier;       /* with cost_request.hierarchy: H and alpha */
	/* With cost_request.hierarchy on a concrete grid of 2^HK processes
	 * with the sizes left free: H(0) .. H(HK-1) as formulas in the sizes
	 * (HF), or HF NULL and HIER_WHY why; a failure to count them is
	 * theirs, not the candidate's */
	int hk;
	struct formula **hf;
	char *hier_why;
};

/* The failure kinds of analyzer/util/fail.h, as a candidate's outcome. */
enum cost_status {
	COST_OK = FAIL_NONE,
	COST_REFUSED = FAIL_REFUSED,  /* no exact form in this mode; reason says why */
	COST_FAILED = FAIL_ERROR,     /* ISL, the engine or memory failed; reason says how */
};

struct candidate_cost {
	const char *name;     /* the model's */
	enum cost_status status;
	char *reason;
	bool timed_out;       /* refused: the run's deadline stopped it (session.h) */
	bool any_grid;        /* refused for a reason no grid changes */
	/* refused because a loop's per-iteration maximum over the processes is
	 * no single function: counting the processes one by one meets the same */
	bool loop_max;
	/* refused (a loop's runs without a sum, above, or some of its
	 * supersteps refused on the symbolic grid, step_cost.refused), and
	 * every other superstep's formulas kept: the sums of the loops that
	 * have them, one run's (step_cost.per_w, ...) of those that do not;
	 * COST NULL */
	bool formulas_kept;
	int nsteps;
	struct step_cost *steps;
	struct formula *cost;
	/* the most words a process holds of all the arrays of its program
	 * (memory.h): exact like the other formulas, under the same
	 * assumptions (X/P on the symbolic grid where P divides X) */
	struct formula *mem;
	int nassumptions;
	char **assumptions;   /* what the formulas rest on, beyond the spec's own */
	/* The same, as conditions in the formula grammar (analyzer/formula/formula.h) over
	 * the parameters and axes, so that a point can be tested against them. */
	int nconditions;
	char **conditions;
	char **condition_texts;   /* each condition as people read it */
	/* Block lengths the formulas could not do without (NAME = X/P), with their
	 * values in the formula grammar, so that a point can give them values. */
	int nlocals;
	char **local_names;
	char **local_values;
	/* With cost_request.hierarchy and the sizes left free: what H(i)'s
	 * formulas (step_cost.hf) rest on beyond the specification's
	 * assumptions ("4 divides n": each size counted as a multiple of the
	 * processes that split it, unless cost_request.all_sizes), as people
	 * read it and as conditions in the formula grammar */
	int nhier_assumptions;
	char **hier_assumptions, **hier_conditions;
};

/* The cost of candidate CAND of M.  Fills *OUT (clear it with candidate_cost_clear)
 * and returns its status.  On a concrete grid with the sizes left free (and
 * not REQ->all_sizes), the formulas are the symbolic grid's with the axes
 * given their sizes, under its assumptions written with them (4 divides n);
 * a candidate the symbolic grid has no formulas for, or whose formulas rest
 * on something the grid breaks, is counted on the grid process by process. */
enum cost_status cost_candidate(struct count_engine *engine, const struct model *m, int cand,
				const struct cost_request *req, struct candidate_cost *out);

void candidate_cost_clear(struct candidate_cost *c);

/* COST, the cost function at PRICES of a superstep in loops whose
 * quantities are the sums over its ITERATIONS, counts l once: adds the
 * other ITERATIONS - 1 (none without a price for l; cost_prices_value then
 * says it is missing where l matters). */
void cost_loop_latency(const struct cost_prices *prices, const mpq_t iterations, mpq_t cost);

/* CC counted at values (cost_request.values: its quantities are numbers):
 * adds to SUM[t] each quantity summed over the supersteps (TERM_W ..
 * TERM_NCOM) and sets COST to the sum of the supersteps' costs at PRICES.
 * Returns -1 when a quantity is not a number; else 0, with *PRICED
 * COST_VALUE_NO_COEF (and *MISSING, may be NULL) when a coefficient the
 * cost needs has no price (COST is then partial). */
int candidate_cost_totals(const struct candidate_cost *cc, const struct cost_prices *prices,
			  mpq_ptr sum[TERM_N], mpq_t cost, enum cost_value_status *priced,
			  enum cost_coef *missing);

#endif
