/* The polyhedral model of a checked specification: what the cost analysis reads.
 *
 * Lowered from the checked AST (analyzer/model/lower.c) by position (struct
 * model_aff, struct model_cons): every affine form is a constant and
 * coefficients of parameters, axes and variables known by their index, never
 * by name.  The relations built from these (relations.c, symbolic.c) cannot
 * be confused by any name a user chooses.  The same forms are also kept as
 * text (the char * fields) for people: messages and reports quote them, and
 * nothing parses them.
 *
 * Distribution predicates (`d2(k) == v`) stay symbolic here because the
 * distribution they name differs from one candidate to the next. */
#ifndef BSPCOST_MODEL_H
#define BSPCOST_MODEL_H

#include <stdbool.h>

#include "distributions/dist.h"

/* The most dimensions an array may have (the checker enforces it). */
#define MODEL_MAX_DIMS 8

/* The most loops around one superstep (the checker enforces it). */
#define MODEL_MAX_LOOPS 8

/* What a term of a positional affine form multiplies. */
enum model_sym {
	MODEL_PARAM,       /* size parameter number index (model.params) */
	MODEL_AXIS,        /* the size of grid axis number index (model.axes) */
	MODEL_VAR,         /* variable number index of the statement (see model_space.vidx) */
};

struct model_term {
	enum model_sym kind;
	int index;
	long long coef;    /* never 0 */
	/* 0, or 1 + the parameter (a geometric loop's variable) whose value
	 * multiplies the coefficient too: the quotient of a condition by that
	 * variable (`(i / s) % 2`), a number at each level only.  Such terms
	 * are in the supersteps with model_superstep.by_loop >= 0, and only
	 * relations at values build them (relations.h). */
	int by;
};

/* constant + sum of coef * symbol, by position. */
struct model_aff {
	long long constant;
	int nterms;
	struct model_term *terms;
};

enum model_cons_kind {
	MODEL_GE0,         /* f >= 0 */
	MODEL_EQ0,         /* f == 0 */
	MODEL_NE0,         /* f != 0 */
	MODEL_DIVIDES,     /* divisor divides f (divisor a positive constant) */
};

/* One constraint of a space, by position. */
struct model_cons {
	enum model_cons_kind kind;
	struct model_aff f;
	long long divisor;
};

/* DIVISOR divides F, where the divisor is itself an expression of the sizes
 * and axes (`assume n % P == 0`): no ISL set of the parameters holds that
 * (it is not affine), so it is checked at values (model_facts_hold). */
struct model_fact {
	struct model_aff f, divisor;
};

/* owner_dist(index) == coord (!= when negated), for the named distribution
 * `dist`. */
struct model_pred {
	int dist;          /* index into model.dists */
	bool negated;
	char *index;       /* as text, for people */
	char *coord;       /* as text, for people */
	struct model_aff index_aff, coord_aff;
};

/* An iteration space: integer variables and the condition they satisfy. */
struct model_space {
	int nvars;
	char **vars;
	/* the statement's number of each variable (MODEL_VAR index): the forall's
	 * variables come first, in the same order in every space of a statement */
	int *vidx;
	char *cond;        /* as text, for people; "true" when unconstrained */
	int ncons;
	struct model_cons *cons;   /* cond by position: ranges and conditions */
	int npreds;
	struct model_pred *preds;
	long weight;       /* a term of work: units per point (1 for other spaces) */
};

/* One array element named by an instance of a space: array[subs[0]]...[subs[n-1]]. */
struct model_access {
	int array;
	struct model_space space;
	char **subs;       /* one text per dimension of the array, for people */
	struct model_aff *sub_affs;   /* the same by position */
};

/* forall space : lhs = f(reads...).  The lhs space is the forall; each read's
 * space is the forall's variables followed by those of the sums around it. */
struct model_stmt {
	struct model_access lhs;
	int nreads;
	struct model_access *reads;
	/* The work of one instance: one unit per point of each space (one space per
	 * term of a sum, following the paper: o per element of C = sum k < o : ...). */
	int nterms;
	struct model_space *terms;
};

struct model_superstep {
	char *name;
	int nstmts;
	struct model_stmt *stmts;
	int loop;          /* the innermost loop around it (model.loops), -1: none */
	/* a condition of it divides by the variable of this loop (model.loops;
	 * model_term.by): counted at values only, level by level; -1: none */
	int by_loop;
};

/* for lo <= VAR < hi { ... }: the supersteps of the body run once for each
 * value of VAR, in order.  The variable is a parameter of the model past the
 * sizes (model.params[param]); the relations of a superstep in the loop have
 * it as any parameter, and the cost sums over its range. */
struct model_loop {
	char *var;         /* its name, for people */
	char *range;       /* "0 <= k < n - 1", for people */
	int param;
	/* lo <= var < hi, over the sizes, the axes and the outer loops' variables */
	struct model_aff lo, hi;
	/* a geometric loop: var = lo, lo*ratio, lo*ratio^2, ... < hi (lo a
	 * constant); 0 for every integer of the range */
	long long ratio;
	int outer;         /* the loop around it, -1 at the outermost */
};

struct model_array {
	char *name;
	int ndims;
	char **extents;    /* as text over the parameters and grid axes, for people */
	struct model_aff *extent_affs;   /* the same by position */
	long long words;   /* the size of an element (`size`, 1 by default): what
			    * each element moved counts in h and NCom */
};

/* One candidate: a distribution for each named distribution and for each dimension
 * of each array. */
struct model_candidate {
	char *name;
	struct dist *named;     /* [model.ndists] */
	struct dist **layout;   /* [model.narrays][array.ndims] */
	/* Its program, as indices into model.steps in order (a program variant
	 * runs its own supersteps); NULL: every superstep of the model.  Read it
	 * through model_cand_nsteps and model_cand_step. */
	int *steps;
	int nsteps;
	/* [model.narrays]: whether the array is part of its program (the
	 * top-level arrays and its variant's own); NULL: every array. */
	bool *has;
	/* [model.narrays]: the axes (bit a: axis a) a copy of the array lies
	 * along beyond its dimensions' layout (`replicated over AXIS` past the
	 * rank), every coordinate of them holding it; 0 by default. */
	unsigned *replicate;
	/* [model.ndists]: the array dimension whose extent a predicate d(k) == v
	 * splits, for this candidate (the first array in declaration order it
	 * sees laid out with d, and its first such dimension): array
	 * PRED_ARRAY[d], dimension PRED_DIM[d]; -1 when it lays out none with
	 * d.  NULL: the model's dist_extent_affs (models built by hand). */
	int *pred_array, *pred_dim;
};

struct model {
	int nparams;
	/* the size parameters, then the variable of each loop (model_nsizes) */
	char **params;
	int naxes;
	char **axes;            /* grid axis names, also symbolic axis sizes */
	char **coords;          /* for reasons: "the process coordinate on axis P", per axis */
	char *assumptions;      /* as text, for people ("true" if none) */
	int nassume;
	struct model_cons *assume;  /* the same by position (symbolic divisors left out) */
	int nfacts;
	struct model_fact *facts;   /* the symbolic divisors of the assumptions */
	int ndists;
	char **dists;           /* names of the named distributions */
	char **dist_extents;    /* the extent of the dimensions each one spreads */
	struct model_aff *dist_extent_affs;   /* the same by position */
	int narrays;
	struct model_array *arrays;
	int ncands;
	struct model_candidate *cands;
	int nsteps;
	struct model_superstep *steps;
	int nloops;
	struct model_loop *loops;   /* outer loops before inner ones */
};

void model_free(struct model *m);

/* The size parameters: model.params[0 .. model_nsizes(m) - 1]; the loops'
 * variables come after them. */
int model_nsizes(const struct model *m);

/* A loop over VAR (LO <= VAR < HI: affine forms copied; RATIO > 1: only
 * LO, LO*RATIO, ...) inside loop OUTER (-1: none); its variable becomes the
 * model's next parameter.  Returns the loop's
 * index, or -1 when out of memory.  Add every size before the first loop. */
int model_add_loop(struct model *m, const char *var, const char *range, const struct model_aff *lo,
		   const struct model_aff *hi, long long ratio, int outer);
/* Loop L's bounds LO and HI (exclusive) when they are numbers on the grid
 * of SIZES (NULL: the symbolic grid): they name no size and no outer
 * loop's variable; false otherwise, or when they do not fit in 64 bits. */
bool model_loop_bounds(const struct model_loop *l, const long *sizes, long long *lo,
		       long long *hi);

/* *V, a value of loop L's variable, moved to the next one: V + 1, or V times
 * the ratio of a geometric loop; false when that does not fit in 64 bits
 * (past any bound). */
bool model_loop_next(const struct model_loop *l, long long *v);

/* Why superstep STEP is counted at values only when a condition of it
 * divides by a loop's variable (model_superstep.by_loop), malloc'd; NULL
 * when none does (or out of memory). */
char *model_step_level_reason(const struct model *m, int step);

/* Whether a statement of superstep STEP names parameter PARAM (a size, or
 * a loop's variable) in a subscript, a condition, a predicate or a term of
 * its work; where it names no loop's variable, every run of it is alike. */
bool model_step_names_param(const struct model *m, int step, int param);

/* The loops around superstep STEP, outermost first, into LOOPS (room for
 * MODEL_MAX_LOOPS); returns their number. */
int model_step_loops(const struct model *m, int step, int loops[]);

/* Building a model (the lowering and the tests use these).  Every string is
 * copied.  Functions returning an index return -1 when out of memory. */
struct model *model_new(const char *assumptions);
int model_add_param(struct model *m, const char *name);
int model_add_axis(struct model *m, const char *name);
int model_add_dist(struct model *m, const char *name, const char *extent);
int model_add_array(struct model *m, const char *name, int ndims, const char *const extents[]);
/* A candidate whose dimensions are all DIST_NONE until set. */
int model_add_candidate(struct model *m, const char *name);
int model_add_superstep(struct model *m, const char *name);
/* Candidate C runs superstep STEP next (by default it runs every superstep of
 * the model; after one call, only those added).  -1 when out of memory. */
int model_candidate_add_step(struct model *m, int c, int step);
/* Array X is not part of candidate C's program (another variant's array). */
int model_candidate_drop_array(struct model *m, int c, int x);
/* The number of supersteps candidate C runs, and the model's index of the
 * K-th of them. */
int model_cand_nsteps(const struct model *m, int c);
int model_cand_step(const struct model *m, int c, int k);
/* Whether array X is part of candidate C's program. */
bool model_cand_has(const struct model *m, int c, int x);
/* The extent distribution D splits in candidate C's predicates, by
 * position and as text; false when C lays out no array with D. */
bool model_pred_extent(const struct model *m, const struct model_candidate *c, int d,
		       const struct model_aff **aff, const char **text);
/* A statement `forall vars | cond : array[subs] = ...` in superstep STEP. */
struct model_stmt *model_add_stmt(struct model *m, int step, int nvars, const char *const vars[],
				  const char *cond, int array, const char *const subs[]);
/* A read of array[subs] inside sums over EXTRA variables with condition COND. */
struct model_access *model_add_read(struct model *m, struct model_stmt *st, int nextra,
				    const char *const extra[], const char *cond, int array,
				    const char *const subs[]);
/* One term of work over the statement's variables and EXTRA ones with COND. */
struct model_space *model_add_term(struct model_stmt *st, int nextra, const char *const extra[],
				   const char *cond);
/* Merges the terms of ST that are the same space into one, their weights added,
 * so that each space is counted once. */
void model_merge_terms(struct model_stmt *st);
int model_space_add_pred(struct model_space *s, int dist, const char *index, const char *coord);

/* The positional forms.  Each copies what it is given and returns 0, or -1 when
 * out of memory. */
int model_aff_copy(struct model_aff *dst, const struct model_aff *src);
/* A and B are the same form, term for term (the lowering writes equal forms
 * the same way). */
bool model_aff_equal(const struct model_aff *a, const struct model_aff *b);
/* D lays out an extent X that is its axis's size (r[P] over P): block and
 * cyclic are then the identity, index i on coordinate i. */
bool model_dist_is_identity(const struct dist *d, const struct model_aff *x);
void model_aff_clear(struct model_aff *f);

/* Whether every fact of M (the assumptions with a symbolic divisor) holds
 * where size parameter i is PARAMS[i] and axis a is AXES[a], in exact
 * arithmetic: 1 yes, 0 no (a divisor that is not positive there breaks it). */
int model_facts_hold(const struct model *m, const long long params[], const long long axes[]);
/* The implicit assumption that extent D of array X of M is at least 1, as a
 * constraint over the parameters (its terms are the extent's: not copied). */
struct model_cons model_extent_positive(const struct model *m, int x, int d);
/* M's assumptions, its implicit ones (every axis, every extent at least
 * 1) and the facts, as conditions in the formula grammar
 * (analyzer/formula/formula.h) over the sizes and axes: *N malloc'd
 * strings in a malloc'd array; NULL when out of memory. */
char **model_assumption_exprs(const struct model *m, int *n);
/* Appends a constraint (F copied) to *CONS of *N. */
/* Adds the fact DIVISOR | F (both copied) to M; -1 when out of memory. */
int model_add_fact(struct model *m, const struct model_aff *f, const struct model_aff *divisor);

int model_cons_add(struct model_cons **cons, int *n, enum model_cons_kind kind,
		   const struct model_aff *f, long long divisor);
/* The statement variable numbers of S's variables (S->nvars of them). */
/* The size that is a block size of candidate CAND, cyclic(nb), in a layout
 * or a named dist (its parameter index), or -1 when none is. */
int model_cand_block_param(const struct model *m, int cand);

/* Appends variable NAME, the statement's variable number INDEX, to S (whose
 * vidx is set); -1 when out of memory. */
int model_space_add_var(struct model_space *s, const char *name, int index);
int model_space_set_vidx(struct model_space *s, const int vidx[]);
/* Sets the positional form of predicate K of S, of subscript D of access A, of
 * extent D of array A. */
int model_pred_set_affs(struct model_space *s, int k, const struct model_aff *index,
			const struct model_aff *coord);
int model_access_set_sub(struct model_access *a, int ndims, int d, const struct model_aff *f);
int model_array_set_extent(struct model_array *a, int d, const struct model_aff *f);
int model_dist_set_extent(struct model *m, int d, const struct model_aff *f);
#endif
