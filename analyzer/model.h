/* The polyhedral model of a checked specification: what the cost analysis reads.
 *
 * Lowered from the checked AST (analyzer/lower.c), written in ISL's own notation so
 * that relations are built by printing and parsing text: every condition and
 * subscript below is an ISL affine expression or condition over the size
 * parameters, the grid axis names and the space's variables.
 *
 * Distribution predicates (`d2(k) == v`) stay symbolic here because the
 * distribution they name differs from one candidate to the next. */
#ifndef BSPCOST_MODEL_H
#define BSPCOST_MODEL_H

#include "distributions/dist.h"

/* The most dimensions an array may have (the checker enforces it). */
#define MODEL_MAX_DIMS 8

/* owner_dist(index) == coord, for the named distribution `dist`. */
struct model_pred {
	int dist;          /* index into model.dists */
	char *index;       /* ISL affine text */
	char *coord;       /* ISL affine text */
};

/* An iteration space: integer variables and the condition they satisfy. */
struct model_space {
	int nvars;
	char **vars;
	char *cond;        /* ISL condition; "true" when unconstrained */
	int npreds;
	struct model_pred *preds;
	long weight;       /* a term of work: units per point (1 for other spaces) */
};

/* One array element named by an instance of a space: array[subs[0]]...[subs[n-1]]. */
struct model_access {
	int array;
	struct model_space space;
	char **subs;       /* one ISL affine text per dimension of the array */
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
};

struct model_array {
	char *name;
	int ndims;
	char **extents;    /* ISL affine text over the parameters and grid axes */
};

/* One candidate: a distribution for each named distribution and for each dimension
 * of each array. */
struct model_candidate {
	char *name;
	struct dist *named;     /* [model.ndists] */
	struct dist **layout;   /* [model.narrays][array.ndims] */
};

struct model {
	int nparams;
	char **params;          /* size parameters */
	int naxes;
	char **axes;            /* grid axis names, also symbolic axis sizes */
	char *assumptions;      /* ISL condition over params and axes ("true" if none) */
	int ndists;
	char **dists;           /* names of the named distributions */
	char **dist_extents;    /* the extent of the dimensions each one spreads */
	int narrays;
	struct model_array *arrays;
	int ncands;
	struct model_candidate *cands;
	int nsteps;
	struct model_superstep *steps;
};

void model_free(struct model *m);

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
#endif
