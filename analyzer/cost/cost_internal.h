/* Internals of analyzer/cost shared by cost.c and loops.c; not part of the
 * API (cost.h). */
#ifndef BSPCOST_COST_INTERNAL_H
#define BSPCOST_COST_INTERNAL_H

#include <stdbool.h>

#include <isl/polynomial.h>
#include <isl/set.h>

#include "analyzer/cost/cost.h"
#include "analyzer/model/relations.h"
#include "analyzer/util/fail.h"

/* The most processes counted one by one: values whose cells are refused
 * (cost.c), a loop's functions of its variable (loops.c). */
enum { EACH_PROCESS_MAX = 1024 };

/* The most bounds of doubling loops one program's sums name. */
enum { COST_DOUBLING_MAX = 4 };

/* One computation's state: the first failure wins. */
struct job {
	struct count_engine *engine;
	const struct model *m;
	int naxes;
	struct fail fail;           /* the first failure (analyzer/util/fail.h) */
	/* the block lengths that will be written back as X/P: merges keep them
	 * apart from other parameters (formula_coalesce_apart) */
	const char **locals;
	int nlocals;
	/* the symbolic grid's own parameters (block lengths, digits of
	 * expressions of the sizes); NULL elsewhere */
	struct symbolic_info *info;
	bool symbolic;              /* the grid's axes are symbols */
	bool timed_out;             /* the failure is the deadline's */
	const struct cost_request *req;
	/* the number of iterations of each doubling loop 1, 2, 4, ... < B on
	 * the symbolic grid, a parameter of its own per bound B: lg_B =
	 * log2(B), B a power of two (loops.c); NGEOMETRIC of them (owned) */
	char *geometric_name[COST_DOUBLING_MAX], *geometric_bound[COST_DOUBLING_MAX];
	int ngeometric;
	/* On a concrete grid whose formulas are the symbolic grid's with the
	 * axes given their sizes (cost_candidate): those sizes, one per axis;
	 * NULL elsewhere.  The texts of the assumptions write them as numbers. */
	const long *fixed;
	/* refused: a loop's per-iteration maximum over the processes is no
	 * single function (loops.c no_single_max) */
	bool loop_max;
	/* ... and why, "WHAT: REASON" (owned; the first such superstep's):
	 * the job goes on, each superstep's formulas are kept (one run's
	 * where its sum has none) and the candidate is refused at the end
	 * with this reason, the total having no formula */
	char *sumless;
};

/* One iteration's quantities of a superstep in loops, functions of the
 * parameters (the loops' variables among them), for their sums; NULL where
 * the maximum over the processes is no single function. */
struct per_iteration {
	isl_pw_qpolynomial *w, *h_in, *h_out, *h, *ncom;
};

void cost_per_iteration_clear(struct per_iteration *it);

/* Each process's fan-in, fan-out and work (and their sums, for h = h_in +
 * h_out) on a concrete grid, as functions of the parameters. */
struct process_functions {
	long n;
	isl_pw_qpolynomial **fi, **fo, **w, **both;
};

void cost_process_functions_clear(struct process_functions *pf);

/* The job fails with status ST, REASON (taken; NULL: ISL's or the job's
 * own) about WHAT, unless it failed already. */
void cost_job_fail(struct job *j, enum cost_status st, char *reason, const char *what);
/* The job fails with ISL's reason about WHAT (or out of memory). */
void cost_isl_op_failed(struct job *j, const char *what);
/* Whether the run's deadline stopped the job (it then fails). */
bool cost_out_of_time(struct job *j);
enum cost_status cost_from_count(enum count_status st);
/* The value of A at the sizes' values VALS and the axes' SIZES into *OUT;
 * false on an overflow or a variable. */
bool cost_aff_value(const struct model_aff *a, const long long *vals, const long *sizes,
		    long long *out);
/* The formula of the positional form F of the sizes and axes (no statement
 * variable) over M's parameters and axes, axis a being SIZES[a] when SIZES
 * is given; NULL on failure (memory.c). */
struct formula *cost_aff_formula(const struct model *m, const struct model_aff *f,
				 const long *sizes);
/* The sum of F over the points of SET (both kept), on SET's parameters;
 * NULL after a failure, which the job takes (about WHAT). */
__isl_give isl_pw_qpolynomial *cost_sum_over(struct job *j, __isl_keep isl_set *set,
					     __isl_keep isl_pw_qpolynomial *f, const char *what);
/* F (kept) as a formula; NULL after a failure. */
struct formula *cost_to_formula(struct job *j, __isl_keep isl_pw_qpolynomial *f,
				const char *what);
/* *F on CONTEXT, its pieces merged. */
void cost_tidy(struct job *j, struct formula **f, __isl_keep isl_set *context);
/* The cost of SC under the request's cost function. */
struct formula *cost_step_cost_formula(const struct cost_request *req, const struct step_cost *sc);
/* A job like J with no failure yet, whose failure is its own. */
struct job cost_explain_job(const struct job *j);
void cost_free_all(__isl_take isl_pw_qpolynomial **f, long n);
/* The sum of F[0..N) (kept, N >= 1). */
__isl_give isl_pw_qpolynomial *cost_sum_tree(struct job *j, __isl_keep isl_pw_qpolynomial *const *f,
					     long n);
/* Each process's fan-in, fan-out and work on the concrete grid of the
 * request, counted process by process from the relations R. */
void cost_count_processes(struct job *j, const struct step_relations *r,
			  const struct cost_request *req, struct process_functions *pf);
/* A superstep's maxima over the processes as few functions, for a loop's
 * sums at values: per quantity (w, h_in, h_out, and h_in + h_out under
 * --h sum) the functions F[t][0..N[t]), at least one, whose largest is at
 * every point the maximum over the processes; NCOM the sum over them of
 * the fan-ins.  F[MAXIMA_BOTH] is NULL under --h max. */
enum { MAXIMA_W, MAXIMA_IN, MAXIMA_OUT, MAXIMA_BOTH, MAXIMA_N };
struct step_maxima {
	isl_pw_qpolynomial **f[MAXIMA_N];
	long n[MAXIMA_N];
	isl_pw_qpolynomial *ncom;
};

void cost_step_maxima_clear(struct step_maxima *sm);
/* SM from the relations R, counted once with the processes' coordinates
 * symbolic rather than process by process, each maximum split into the
 * values of its pieces; -1 with SM empty where a value depends on a
 * coordinate that pinning does not resolve (the job untouched), or after
 * the job failed. */
int cost_count_maxima(struct job *j, const struct step_relations *r,
		      const struct cost_request *req, struct step_maxima *sm);
/* SM for superstep S of candidate CAND in one loop whose variable runs lo
 * .. hi, every other value known: the symbolic grid's relations counted once
 * at the values (its digits of k free), each maximum split into the values
 * of its pieces, each of those then a function of k alone.  -1, the job
 * untouched, where the symbolic grid has no form for the superstep or the
 * values break its assumptions or a value depends on a coordinate; -1 after
 * the job failed. */
int cost_loop_maxima(struct job *j, int cand, int s, const struct cost_request *req,
		     long long lo, long long hi, struct step_maxima *sm);
/* The number of points of SET (taken), a set over the parameters, as a
 * function of them; NULL after a failure, which the job takes (about
 * WHAT). */
__isl_give isl_pw_qpolynomial *cost_count_set(struct job *j, __isl_take isl_set *set,
					      const char *what);
/* SC's quantities from R with every value known (cells of processes). */
void cost_count_step_values(struct job *j, const struct step_relations *r,
			    const struct cost_request *req, struct step_cost *sc);

/* The maximum of the N functions CAND (kept) as one function, the
 * processes (or the functions) a dimension that count_max maximizes over:
 * *R on COUNT_EXACT; a failure is the engine's, not the job's. */
enum count_status cost_max_over_union(struct job *j, __isl_keep isl_pw_qpolynomial **cand, long n,
				      __isl_give isl_pw_qpolynomial **r);

/* The maximum of the N per-process functions CAND (kept) on a concrete
 * grid: one of them when it is proven the largest for all sizes
 * (count_max_of), or else the max of their formulas, each put on CONTEXT
 * first (its zero outside a piece of its own, so that the max needs no
 * complement of the ever more pieces it has): exact either way.  With KEEP
 * (a loop's), also as one function into *KEEP where one is found.  NULL
 * after a failure, which the job takes (about WHAT). */
struct formula *cost_max_of_processes(struct job *j, __isl_keep isl_pw_qpolynomial **cand, long n,
				      __isl_keep isl_set *context, const char *what,
				      __isl_give isl_pw_qpolynomial **keep);

/* levels.c: superstep S of candidate CAND in a doubling loop whose
 * conditions divide by the loop's variable, on the symbolic grid: each
 * level counted as a program of its own (analyzer/model/levels.h) and
 * summed over the levels into SC (the sums, one level's formulas in the
 * loop's variable, the number of levels, the cost), what they rest on onto
 * OUT's assumptions; a failure or refusal is the job's. */
void cost_level_step(struct job *j, int cand, int s, struct step_cost *sc,
		     struct candidate_cost *out);

/* TEXT (taken, NULL fails) among what OUT's formulas rest on, once;
 * and condition COND (formula grammar) with TEXT, how people read it (both
 * taken; either NULL fails); 0 or -1. */
int cost_add_assumption(struct candidate_cost *out, char *text);
int cost_add_condition(struct candidate_cost *out, char *cond, char *text);

/* loops.c: the geometric loop s = 1, 2, 4, ... < B around superstep S,
 * when it is the superstep's only loop and B is one size or grid axis, on
 * the symbolic grid; NULL otherwise.  *BOUND: B's name. */
const struct model_loop *cost_doubling_loop(const struct job *j, int s, const char **bound);
/* The parameter lg_B that counts the levels of the doubling loops up to
 * BOUND (J's own, made once); NULL when out of memory or past
 * COST_DOUBLING_MAX bounds. */
const char *cost_doubling_name(struct job *j, const char *bound);
/* J fails for cost_doubling_name's NULL, about WHAT: refused past
 * COST_DOUBLING_MAX bounds, else out of memory. */
void cost_doubling_failed(struct job *j, const char *what);

/* hierarchy.c */

/* SC's H(i) and alpha (step_cost.hier) from R at values on the grid of
 * REQ, of 2^k processes numbered by REQ->numbering. */
void cost_count_hierarchy(struct job *j, const struct step_relations *r,
			  const struct cost_request *req, struct step_cost *sc);
/* SC's H(i) as formulas in the sizes (step_cost.hf) from R on the
 * concrete grid of REQ, of 2^k processes numbered by a named numbering,
 * the sizes left free: at each level the largest of every cluster's words
 * out and in, on CONTEXT (the sizes' assumptions); a failure is theirs
 * (step_cost.hier_why), the job untouched. */
void cost_hierarchy_formulas(struct job *j, const struct step_relations *r,
			     const struct cost_request *req, __isl_keep isl_set *context,
			     struct step_cost *sc);
/* SC's H formulas dropped, their failure WHY (taken) said instead
 * (step_cost.hier_why). */
void cost_levels_failed(struct step_cost *sc, struct fail *why);

/* {[S, H] : S == 1 (S_ONE) or S >= 2, and the same of H}, over the two
 * parameters named S and H (levels.c). */
__isl_give isl_set *cost_one_or_more(isl_ctx *ctx, const char *S, const char *H, bool s_one,
				     bool h_one);

/* redistribute.c: superstep S of candidate CAND, on the symbolic grid, a
 * copy of one array into another along a permutation of its indices whose
 * blocks split one index over two axes (a transpose on M x N): its
 * formulas into SC from the copy's shape, NCom's reason in SC (it has no
 * formula), what they rest on onto OUT; a failure or refusal is the
 * job's.  cost_is_redistribution: whether superstep S is one, the arrays
 * it reads and writes into *X and *Y. */
bool cost_is_redistribution(const struct model *m, int cand, int s, int *x, int *y);
void cost_redistribute_step(struct job *j, int cand, int s, struct step_cost *sc,
			    struct candidate_cost *out);
/* cost_candidate of candidate CAND of M, a model of J's grid (the same
 * axes), within job J: its engine already has the symbolic grid's piece
 * limit for them. */
enum cost_status cost_candidate_within(struct job *j, const struct model *m, int cand,
				       const struct cost_request *req, struct candidate_cost *out);
/* The specification's assumptions over the sizes and axes, as the
 * formulas are simplified under once their block lengths are written
 * back; NULL on failure. */
__isl_give isl_set *cost_sizes_context(struct job *j);

/* loops.c */

/* How many times superstep S in loops runs: SC's iterations, counted
 * under CONTEXT (kept). */
void cost_loop_runs(struct job *j, int s, __isl_keep isl_set *context, struct step_cost *sc);

/* SC's cost, its quantities the sums over its runs: the cost function on
 * the sums with l once per run. */
void cost_loop_cost(struct job *j, struct step_cost *sc);
/* Superstep S in loops on the symbolic or a concrete grid: SC's formulas
 * become one iteration's, replaced by their sums (IT: the same as
 * functions), tidy on CONTEXT. */
void cost_loop_totals(struct job *j, int s, struct per_iteration *it, __isl_keep isl_set *context,
		      struct step_cost *sc);
/* Superstep S of candidate CAND in loops, every value known: SC's
 * quantities the sums over the iterations. */
void cost_count_loop_values(struct job *j, int cand, int s, const struct cost_request *req,
			    struct step_cost *sc);

#endif
