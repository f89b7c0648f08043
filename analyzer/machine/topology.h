/* Hierarchical machines: the D-BSP parameters g(i), l(i) and the parallel
 * prefix time Pf(i) of an i-cluster (a submachine of p' = p / 2^i = 2^(k-i)
 * processes) of a few network topologies, as Soviani and Singh (shared/
 * seeds/001, Table 1 and section 4) plug them into their bounds: leading
 * terms with unit constants, asymptotic models rather than measurements.
 *
 *   butterfly         g(i) = log2 p',  l(i) = log2 p',  Pf(i) = (log2 p')^2
 *   pruned-butterfly  g(i) = sqrt(p'), l(i) = log2 p',  Pf(i) = (log2 p')^2
 *                     (Theorem 3.2: g(i) = 2^((k-i)/2), l(i) = k - i)
 *   mesh2d            g(i) = l(i) = Pf(i) = p'^(1/2)
 *   mesh3d            g(i) = l(i) = Pf(i) = p'^(1/3)
 *
 * (Pf: a prefix takes log2 p' supersteps of l(i) each on the butterflies,
 * the diameter p'^(1/n) on an n-D mesh.)  Theorem 3.1 bounds the time of a
 * 0-superstep of work w whose words form the H-relation H (hierarchy.h) by
 *
 *   w + sum over 0 <= i < k of ceil(H(i)) g(i) + l(i) + Pf(i)
 *
 * and a flat BSP superstep on the same machine costs w + h g(0) + l(0).
 * The square and cube roots make these numbers irrational: they are kept
 * exactly as sums of rationals times 2^(r/n) (struct root2). */
#ifndef BSPCOST_TOPOLOGY_H
#define BSPCOST_TOPOLOGY_H

#include <gmp.h>

enum topology_kind {
	TOPOLOGY_BUTTERFLY,
	TOPOLOGY_PRUNED_BUTTERFLY,
	TOPOLOGY_MESH2D,
	TOPOLOGY_MESH3D,
	TOPOLOGY_N,
	TOPOLOGY_PROFILE      /* a machine profile's `level` entries (machine.h) */
};

struct machine;

struct topology {
	enum topology_kind kind;
	const char *name;     /* --topology NAME, or the profile's */
	const char *title;    /* for people: "a butterfly (g = ...)" */
	int root;             /* its numbers lie in Q(2^(1/root)) */
	const struct machine *profile;   /* TOPOLOGY_PROFILE: its levels */
	char text[160];       /* TOPOLOGY_PROFILE: its title */
};

/* *T: the levels of machine profile M (kept; it outlives T) as a topology:
 * g, l and Pf of a cluster of 2^d processes its `level 2^d` entry's. */
void topology_from_machine(const struct machine *m, struct topology *t);

/* Whether T gives every level of a machine of 2^K processes (clusters of
 * 2 .. 2^K); when not, *WHY (malloc'd) says which it lacks. */
int topology_covers(const struct topology *t, int k, char **why);

/* The topology called NAME, or NULL. */
const struct topology *topology_find(const char *name);

/* "butterfly, pruned-butterfly, mesh2d, mesh3d", static. */
const char *topology_names(void);

/* An exact number c[0] + c[1] 2^(1/n) + ... + c[n-1] 2^((n-1)/n), n <= 3. */
struct root2 {
	int n;
	mpq_t c[3];
};

void root2_init(struct root2 *x, int n);
void root2_clear(struct root2 *x);
/* X += Y (of the same n) */
void root2_add(struct root2 *x, const struct root2 *y);
/* X += A 2^(E/N) (X's n divides... N is X's n, E >= 0) */
void root2_add_pow(struct root2 *x, mpq_srcptr a, long e);
/* The sign of X - Y (of the same n): -1, 0 or 1, exactly. */
int root2_cmp(const struct root2 *x, const struct root2 *y);
/* X's value, rounded. */
double root2_approx(const struct root2 *x);
/* X exactly, "41", "12 + 3*2^(1/2)", "2^(1/3) + 5/2*2^(2/3)", malloc'd;
 * NULL when out of memory. */
char *root2_text(const struct root2 *x);

/* The costs of a superstep at values on a machine of T with 2^K processes:
 * W its work (summed over its runs), H its h (the same), CEIL[i] the sum over
 * its runs of ceil(H_run(i)) (0 <= i < K), RUNS its runs (1 outside loops).
 * adds W + sum_i CEIL[i] g(i) + RUNS (l(i) + Pf(i)) to *DBSP (Theorem 3.1)
 * and W + H g(0) + RUNS l(0) to *FLAT (both initialized with T's root). */
void topology_costs(const struct topology *t, int k, mpq_srcptr w, mpq_srcptr h,
		    const mpq_t *ceil, long runs, struct root2 *dbsp, struct root2 *flat);

#endif
