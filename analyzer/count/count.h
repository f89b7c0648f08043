/* The counting engine: exact parametric counting of integer points on ISL 0.25.
 *
 * ISL 0.25 has no parametric counting (isl_set_card is barvinok's), so this module
 * does it by nested summation: the set is made disjoint, every integer division is
 * lifted into an explicit variable, and the variables are summed out one at a time
 * in closed form (Faulhaber), splitting the parameter space into chambers where one
 * lower and one upper bound are active.  Non-unit coefficients introduce new
 * integer variables ceil(l/a) / floor(u/b): a bijection, so the sum stays exact.
 * Floors that depend only on parameters become "atoms" and end up as floor()s of
 * the resulting quasi-polynomial.
 *
 * Every call returns an enum count_status.  COUNT_EXACT means the result is exact
 * for every integer value of the parameters (absent pieces are 0).  COUNT_REFUSED
 * means the engine found no exact route and says why in *reason (which variable,
 * which constraint); COUNT_ERROR means ISL or the engine failed (reason says how).
 * The engine never returns a bound or an approximation as exact.
 *
 * A reason names a variable or a parameter as ISL names it: in a set the user
 * wrote (--count), the user's name.  A caller that names a dimension for its
 * own use gives the dimension's isl_id a user pointer to a description for
 * people (a NUL-terminated string that outlives the count, such as "the
 * process coordinate on axis P"), and reasons say that instead.  Unnamed
 * dimensions, existentially quantified variables and the engine's own
 * auxiliary variables are described by their role; a reason never makes up a
 * name, and quotes a constraint only when it has the user's names alone.
 *
 * Nothing is global: a struct count_engine holds the isl_ctx it was given (not
 * owned) and the limits of one query. */
#ifndef BSPCOST_COUNT_H
#define BSPCOST_COUNT_H

#include <isl/ctx.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/val.h>

#include "analyzer/util/fail.h"

/* The failure kinds of analyzer/util/fail.h, as the engine's answers. */
enum count_status {
	COUNT_EXACT = FAIL_NONE,       /* *result is the exact answer */
	COUNT_REFUSED = FAIL_REFUSED,  /* no exact route (a limit included); *reason says which */
	COUNT_ERROR = FAIL_ERROR,      /* ISL failed or bad input; *reason says how */
};

struct count_engine {
	isl_ctx *ctx;                    /* not owned */
	unsigned long max_operations;    /* ISL operations per query (0: unlimited) */
	/* the same on the symbolic grid itself, whose formulas a designer
	 * waits for (a block-cyclic 2-D stencil's work needs 1.5 million):
	 * the cost layer's to set in place of max_operations there */
	unsigned long symbolic_max_operations;
	int max_steps;                   /* elimination steps per query */
	int max_pieces;                  /* leaf pieces per query */
};

/* The reason of a query the run's deadline stopped (its context was aborted:
 * analyzer/util/session.h); such a query is COUNT_REFUSED. */
#define COUNT_DEADLINE_REASON "stopped: the run's time limit ran out"

/* Fill in *engine for CTX (a context of session_ctx, whose errors ISL
 * returns) with default limits. */
void count_engine_init(struct count_engine *engine, isl_ctx *ctx);

/* The number of integer points of set as a piecewise quasi-polynomial whose domain
 * space is the parameter space of set.  On COUNT_EXACT *result is set (caller frees)
 * and *reason is NULL; otherwise *result is NULL and *reason is a malloc'd message. */
enum count_status count_points(struct count_engine *engine, __isl_keep isl_set *set,
			       __isl_give isl_pw_qpolynomial **result, char **reason);

/* The sum over the points of set of weight, a piecewise (quasi-)polynomial whose
 * domain space is the space of set (points outside weight's domain weigh 0).
 * The result lives on the parameter space of set, as for count_points. */
enum count_status count_sum(struct count_engine *engine, __isl_keep isl_set *set,
			    __isl_keep isl_pw_qpolynomial *weight,
			    __isl_give isl_pw_qpolynomial **result, char **reason);

/* The exact maximum of f over its set dimensions (e.g. the process coordinates):
 * f is a piecewise quasi-polynomial on [P] -> { [s...] } (a count, so >= 0,
 * absent pieces are 0), range (may be NULL: f's domain) a set in the same space
 * that bounds the coordinates, e.g. 0 <= s < 4.  The result is on the parameter
 * space [P].  Exact routes, in order: f has one piece that does not depend on
 * s (project); the coordinates range over a finite box independent of the
 * parameters (concrete grid): each value is fixed and one candidate is proven
 * >= every other for all parameters; no piece's value depends on s (only its
 * domain does): the pieces' values, each where some s reaches it, folded when
 * ISL reduces the fold to one value per region (exact because f >= 0: an s in
 * no piece, whose value is 0, cannot be the maximum); every piece's value is
 * affine, or becomes so once a coordinate that the piece's constraints hold
 * within a few values is fixed value by value: ISL's parametric integer maximum
 * of each, and their union maximum; isl_pw_qpolynomial_bound says its bound is
 * tight.  Otherwise COUNT_REFUSED, never a loose bound. */
enum count_status count_max(struct count_engine *engine, __isl_keep isl_pw_qpolynomial *f,
			    __isl_keep isl_set *range, __isl_give isl_pw_qpolynomial **result,
			    char **reason);

/* The sum of TERMS[0..N) (counts, absent pieces 0; kept) split over the
 * coordinates of RANGE, a box (one basic set, each constraint naming the
 * coordinates of one group): the groups of coordinates that the terms
 * involve, each with the sum of its terms on its own coordinates (F[k], the
 * others dropped) and its range (RANGE[k], projected: exact, the box is
 * their product), and CONSTANT the terms that involve no coordinate (NULL if
 * none), on the parameters.  The maximum of the sum over RANGE is CONSTANT
 * plus each group's maximum over its range (SUMMA's panels: a row broadcast
 * that depends on the process column only, a column broadcast on the
 * process row only).  COUNT_REFUSED when the terms do not split into two
 * groups or more.  count_groups_clear frees OUT. */
struct count_groups {
	int n;
	isl_pw_qpolynomial **f;
	isl_set **range;
	int *ndims;
	isl_pw_qpolynomial *constant;
};
enum count_status count_separate(struct count_engine *engine,
				 __isl_keep isl_pw_qpolynomial *const *terms, int n,
				 __isl_keep isl_set *range, struct count_groups *out, char **reason);
void count_groups_clear(struct count_groups *g);

/* The maximum of f over range (as count_max) as one function when every
 * piece's value is free of the maximized variables: where several values
 * compete, the regions where each is the largest, each comparison an affine
 * inequality or a proof (count_split.c) -- what a sum over a loop's
 * iterations needs where count_max has only max(a, b).  COUNT_REFUSED
 * otherwise. */
enum count_status count_max_split(struct count_engine *engine, __isl_keep isl_pw_qpolynomial *f,
				  __isl_keep isl_set *range, __isl_keep isl_set *context,
				  __isl_give isl_pw_qpolynomial **result, char **reason);

/* The maximum of the N functions CAND[i] (kept, counts: absent is 0, all on
 * the same parameter space) as one function the same way.  Where a function
 * is absent it does not compete, which is a maximum with 0 because counts
 * are never negative.  Both on CONTEXT
 * (kept, NULL: everywhere; its parameters those of the functions): the
 * regions and the proofs hold there, the result is defined there only. */
enum count_status count_max_split_of(struct count_engine *engine,
				     __isl_keep isl_pw_qpolynomial *const *cand, int n,
				     __isl_keep isl_set *context,
				     __isl_give isl_pw_qpolynomial **result, char **reason);

/* The maximum of the N functions CAND[i] (kept), all on the same parameter
 * space: one of them, proven >= every other for all parameters (only those
 * largest at a few sample points are tried).  COUNT_REFUSED when none is. */
enum count_status count_max_of(struct count_engine *engine,
			       __isl_keep isl_pw_qpolynomial *const *cand, int n,
			       __isl_give isl_pw_qpolynomial **result, char **reason);

/* The same, the one proven the largest given by its index *INDEX in CAND
 * (on COUNT_EXACT; -1 otherwise). */
enum count_status count_max_of_index(struct count_engine *engine,
				     __isl_keep isl_pw_qpolynomial *const *cand, int n, int *index,
				     char **reason);

/* The exact maximum of f over the integer points of box, with every value known:
 * f is a piecewise quasi-polynomial whose parameters are all coordinates of the
 * processes (a count, so >= 0: a point of box in none of f's pieces counts 0)
 * and box a bounded set on those parameters.  Piece by piece: a value affine in
 * the coordinates (floors included) by ISL's exact integer maximum over the
 * piece, which costs the same for 4 processes as for 65536; any other value
 * at each point of the piece, up to max_points points in all, and refused
 * beyond.  Nothing is bounded loosely. */
enum count_status count_max_values(struct count_engine *engine, __isl_keep isl_pw_qpolynomial *f,
				   __isl_keep isl_set *box, long max_points,
				   __isl_give isl_val **result, char **reason);

/* max over the first n_max set dimensions of set (the coordinates) of the number
 * of points of the rest: count_points with the coordinates as parameters, then
 * count_max over the coordinates that occur in set.  Result on set's parameters. */
enum count_status count_max_of_count(struct count_engine *engine, __isl_keep isl_set *set,
				     int n_max, __isl_give isl_pw_qpolynomial **result,
				     char **reason);

/* The value of pwqp (on a parameter space) at the named parameter values.  Every
 * parameter of pwqp must be named; extra names are ignored.  Returns NULL (and a
 * malloc'd *reason) if a parameter has no value. */
__isl_give isl_val *count_eval(__isl_keep isl_pw_qpolynomial *pwqp, int n,
			       const char *const names[], const long long values[],
			       char **reason);

#endif
