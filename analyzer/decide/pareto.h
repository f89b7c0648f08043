/* Decisions for every machine: which rows can be the best for some g and l.
 *
 * Under w + h*g + l a row's cost is a + b*g + c*l, with a its work (the sum
 * of w), b the g-coefficient (the sum of h) and c the l-coefficient (how many
 * supersteps run), all exact.  Row i dominates row j when a_i <= a_j,
 * b_i <= b_j and c_i <= c_j, one of them strictly: j is then never cheaper,
 * whatever g, l >= 0.  Rows of equal (a, b, c) are one class, ranked alike.
 *
 * The classes no other class dominates (the Pareto set) share the quadrant
 * g, l >= 0: class i is the best exactly on the convex region where
 * (b_i - b_j)*g + (c_i - c_j)*l <= a_j - a_i for every other class j.  Each
 * region is computed exactly (rational polygon clipping), and described by
 * the inequalities that bound it.  When the Pareto classes all have the same
 * c, l shifts every cost alike, and the regions are intervals of g: the
 * answer changes at the ends of the intervals.
 *
 * Pure arithmetic on GMP rationals: no ISL, no report. */
#ifndef BSPCOST_PARETO_H
#define BSPCOST_PARETO_H

#include <stdbool.h>

#include <gmp.h>

/* An inequality of a region: G*g + L*l <= RHS, one of the boundaries that
 * make it (none of g >= 0, l >= 0). */
struct pareto_cons {
	mpq_t g, l, rhs;
};

struct pareto_region {
	int cls;                    /* its class */
	bool empty;                 /* no area where it is the best alone: */
	bool touches;               /* empty, yet as cheap as the best on a
				     * point or a segment (tied there) */
	int ncons;
	struct pareto_cons *cons;
	/* all of them in g alone (G != 0, L == 0): lo <= g <= hi */
	bool g_only;
	mpq_t lo, hi;               /* g_only: its interval of g */
	bool unbounded;             /* g_only: hi is infinite */
};

struct pareto {
	int n;                      /* rows */
	int *cls;                   /* [n] the first row of equal (a, b, c) */
	int *dominated_by;          /* [n] a row of a class that dominates it, or -1 */
	int nregions;               /* one per class of the Pareto set */
	struct pareto_region *regions;  /* non-empty ones by g first (then l), empty last */
	bool one_best;              /* one region has an area: its class is the
				     * best for every g, l >= 0 */
	bool g_only;                /* every region with an area is an interval
				     * of g (the classes there share c) */
};

/* The Pareto set and the regions of N rows of costs A[i] + B[i]*g + C[i]*l
 * (A, B, C >= 0).  Returns 0, or -1 when out of memory (P then empty). */
int pareto_compute(struct pareto *p, int n, const mpq_t *a, const mpq_t *b, const mpq_t *c);

void pareto_clear(struct pareto *p);

#endif
