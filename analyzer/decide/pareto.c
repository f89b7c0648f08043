/* The Pareto set of costs a + b*g + c*l and the region where each is best
 * (pareto.h). */
#include "analyzer/decide/pareto.h"

#include <stdlib.h>
#include <string.h>

/* ---- classes and dominance ---------------------------------------------- */

struct rows {
	const mpq_t *a, *b, *c;
};

static int lex(const struct rows *r, int i, int j)
{
	int d = mpq_cmp(r->a[i], r->a[j]);
	if (!d)
		d = mpq_cmp(r->b[i], r->b[j]);
	if (!d)
		d = mpq_cmp(r->c[i], r->c[j]);
	return d;
}

/* qsort's comparison takes no user pointer: it sorts (index, rows) pairs. */
struct keyed {
	int i;
	const struct rows *r;
};

static int by_lex(const void *x, const void *y)
{
	const struct keyed *p = x, *q = y;
	int d = lex(p->r, p->i, q->i);
	return d ? d : (p->i > q->i) - (p->i < q->i);
}

/* Row i dominates row j: no worse in a, b and c, better in one. */
static bool dominates(const struct rows *r, int i, int j)
{
	int da = mpq_cmp(r->a[i], r->a[j]), db = mpq_cmp(r->b[i], r->b[j]),
	    dc = mpq_cmp(r->c[i], r->c[j]);
	return da <= 0 && db <= 0 && dc <= 0 && (da < 0 || db < 0 || dc < 0);
}

/* ---- exact convex polygons ---------------------------------------------- */

struct pt {
	mpq_t g, l;
};

struct poly {
	int n, cap;
	struct pt *v;
};

static int poly_push(struct poly *p, mpq_srcptr g, mpq_srcptr l)
{
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 8;
		struct pt *v = realloc(p->v, sizeof(*v) * (size_t)cap);
		if (!v)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	mpq_init(p->v[p->n].g);
	mpq_init(p->v[p->n].l);
	mpq_set(p->v[p->n].g, g);
	mpq_set(p->v[p->n].l, l);
	p->n++;
	return 0;
}

static void poly_clear(struct poly *p)
{
	for (int k = 0; k < p->n; k++)
		mpq_clears(p->v[k].g, p->v[k].l, NULL);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* OUT = alpha*g + beta*l - gamma at point V. */
static void side(mpq_t out, const struct pt *v, mpq_srcptr alpha, mpq_srcptr beta,
		 mpq_srcptr gamma, mpq_t tmp)
{
	mpq_mul(out, alpha, v->g);
	mpq_mul(tmp, beta, v->l);
	mpq_add(out, out, tmp);
	mpq_sub(out, out, gamma);
}

/* P clipped to alpha*g + beta*l <= gamma (Sutherland and Hodgman: a convex
 * polygon stays convex).  Returns 0, or -1 when out of memory. */
static int clip(struct poly *p, mpq_srcptr alpha, mpq_srcptr beta, mpq_srcptr gamma)
{
	struct poly out = {0};
	mpq_t vp, vq, t, tmp, g, l;
	mpq_inits(vp, vq, t, tmp, g, l, NULL);
	int r = 0;
	for (int k = 0; k < p->n && r == 0; k++) {
		const struct pt *P = &p->v[k], *Q = &p->v[(k + 1) % p->n];
		side(vp, P, alpha, beta, gamma, tmp);
		side(vq, Q, alpha, beta, gamma, tmp);
		if (mpq_sgn(vp) <= 0)
			r = poly_push(&out, P->g, P->l);
		if (r == 0 && mpq_sgn(vp) * mpq_sgn(vq) < 0) {
			/* P + t*(Q - P), t = vp / (vp - vq) */
			mpq_sub(t, vp, vq);
			mpq_div(t, vp, t);
			mpq_sub(g, Q->g, P->g);
			mpq_mul(g, g, t);
			mpq_add(g, g, P->g);
			mpq_sub(l, Q->l, P->l);
			mpq_mul(l, l, t);
			mpq_add(l, l, P->l);
			r = poly_push(&out, g, l);
		}
	}
	mpq_clears(vp, vq, t, tmp, g, l, NULL);
	poly_clear(p);
	*p = out;
	if (r < 0)
		poly_clear(p);
	return r;
}

/* Drops repeated vertices; returns twice the polygon's area (>= 0). */
static void poly_tidy(struct poly *p, mpq_t area2)
{
	int n = 0;
	for (int k = 0; k < p->n; k++) {
		if (n > 0 && mpq_equal(p->v[n - 1].g, p->v[k].g) && mpq_equal(p->v[n - 1].l, p->v[k].l)) {
			mpq_clears(p->v[k].g, p->v[k].l, NULL);
			continue;
		}
		if (n != k)
			p->v[n] = p->v[k];
		n++;
	}
	while (n > 1 && mpq_equal(p->v[n - 1].g, p->v[0].g) && mpq_equal(p->v[n - 1].l, p->v[0].l)) {
		n--;
		mpq_clears(p->v[n].g, p->v[n].l, NULL);
	}
	p->n = n;
	mpq_t t;
	mpq_init(t);
	mpq_set_ui(area2, 0, 1);
	for (int k = 0; k < n; k++) {
		const struct pt *P = &p->v[k], *Q = &p->v[(k + 1) % n];
		mpq_mul(t, P->g, Q->l);
		mpq_add(area2, area2, t);
		mpq_mul(t, Q->g, P->l);
		mpq_sub(area2, area2, t);
	}
	mpq_abs(area2, area2);
	mpq_clear(t);
}

/* ---- the regions ---------------------------------------------------------- */

/* The line between classes I and J: (b_i - b_j) g + (c_i - c_j) l = a_j - a_i. */
static void line_of(const struct rows *r, int i, int j, mpq_t alpha, mpq_t beta, mpq_t gamma)
{
	mpq_sub(alpha, r->b[i], r->b[j]);
	mpq_sub(beta, r->c[i], r->c[j]);
	mpq_sub(gamma, r->a[j], r->a[i]);
}

/* M = max(M, |(P*Q - R*S) / DET|); X and T scratch. */
static void keep_larger(mpq_t m, mpq_srcptr p, mpq_srcptr q, mpq_srcptr r, mpq_srcptr s,
			mpq_srcptr det, mpq_t x, mpq_t t)
{
	mpq_mul(x, p, q);
	mpq_mul(t, r, s);
	mpq_sub(x, x, t);
	mpq_div(x, x, det);
	mpq_abs(x, x);
	if (mpq_cmp(x, m) > 0)
		mpq_set(m, x);
}

/* |coordinates| of the intersection of two lines a*g + b*l = c, at most
 * into M (kept when they are parallel). */
static void bound_meet(mpq_srcptr a1, mpq_srcptr b1, mpq_srcptr c1, mpq_srcptr a2, mpq_srcptr b2,
		       mpq_srcptr c2, mpq_t m, mpq_t det, mpq_t x, mpq_t t)
{
	mpq_mul(det, a1, b2);
	mpq_mul(t, a2, b1);
	mpq_sub(det, det, t);
	if (mpq_sgn(det) == 0)
		return;
	keep_larger(m, c1, b2, c2, b1, det, x, t);   /* g = (c1 b2 - c2 b1) / det */
	keep_larger(m, a1, c2, a2, c1, det, x, t);   /* l = (a1 c2 - a2 c1) / det */
}

static bool on_line(const struct pt *v, mpq_srcptr alpha, mpq_srcptr beta, mpq_srcptr gamma,
		    mpq_t s, mpq_t tmp)
{
	side(s, v, alpha, beta, gamma, tmp);
	return mpq_sgn(s) == 0;
}

/* Whether line (A2, B2, C2) is (A1, B1, C1) times a positive number. */
static bool same_halfplane(const struct pareto_cons *x, mpq_srcptr a, mpq_srcptr b, mpq_srcptr c)
{
	/* cross products zero and the same orientation */
	mpq_t t, u;
	mpq_inits(t, u, NULL);
	bool same = true;
	mpq_srcptr p[3] = {x->g, x->l, x->rhs}, q[3] = {a, b, c};
	for (int i = 0; i < 3 && same; i++)
		for (int j = i + 1; j < 3 && same; j++) {
			mpq_mul(t, p[i], q[j]);
			mpq_mul(u, p[j], q[i]);
			same = mpq_equal(t, u);
		}
	for (int i = 0; i < 3 && same; i++)
		if (mpq_sgn(p[i]) != 0 || mpq_sgn(q[i]) != 0)
			same = mpq_sgn(p[i]) == mpq_sgn(q[i]);
	mpq_clears(t, u, NULL);
	return same;
}

/* Region of class I among the NP Pareto classes PC. */
static int region_of(const struct rows *r, const int *pc, int np, int i, struct pareto_region *reg)
{
	memset(reg, 0, sizeof(*reg));
	reg->cls = i;
	mpq_inits(reg->lo, reg->hi, NULL);
	int n = np + 1;   /* the lines: the other classes', and g = 0, l = 0 */
	mpq_t *al = calloc((size_t)n + 2, sizeof(mpq_t)), *be = calloc((size_t)n + 2, sizeof(mpq_t)),
	      *ga = calloc((size_t)n + 2, sizeof(mpq_t));
	if (!al || !be || !ga) {
		free(al);
		free(be);
		free(ga);
		return -1;
	}
	int nl = 0;
	for (int k = 0; k < np; k++) {
		if (pc[k] == i)
			continue;
		mpq_inits(al[nl], be[nl], ga[nl], NULL);
		line_of(r, i, pc[k], al[nl], be[nl], ga[nl]);
		nl++;
	}
	int nother = nl;
	for (int axis = 0; axis < 2; axis++) {   /* -g <= 0, -l <= 0 */
		mpq_inits(al[nl], be[nl], ga[nl], NULL);
		mpq_set_si(axis ? be[nl] : al[nl], -1, 1);
		nl++;
	}
	/* a box past every vertex any two of the lines can make */
	mpq_t big, det, x, t;
	mpq_inits(big, det, x, t, NULL);
	for (int p = 0; p < nl; p++)
		for (int q = p + 1; q < nl; q++)
			bound_meet(al[p], be[p], ga[p], al[q], be[q], ga[q], big, det, x, t);
	mpq_mul_2exp(big, big, 1);
	mpq_set_ui(t, 1, 1);
	mpq_add(big, big, t);
	struct poly poly = {0};
	mpq_t zero;
	mpq_init(zero);
	int rc = poly_push(&poly, zero, zero);
	if (rc == 0)
		rc = poly_push(&poly, big, zero);
	if (rc == 0)
		rc = poly_push(&poly, big, big);
	if (rc == 0)
		rc = poly_push(&poly, zero, big);
	for (int k = 0; k < nother && rc == 0; k++)
		if (mpq_sgn(al[k]) != 0 || mpq_sgn(be[k]) != 0)
			rc = clip(&poly, al[k], be[k], ga[k]);
	if (rc == 0) {
		poly_tidy(&poly, x);
		reg->empty = poly.n < 3 || mpq_sgn(x) == 0;
		reg->touches = reg->empty && poly.n > 0;
	}
	/* the boundaries: the lines an edge of the polygon lies on */
	reg->cons = rc == 0 && !reg->empty ? calloc((size_t)nother + 1, sizeof(*reg->cons)) : NULL;
	if (rc == 0 && !reg->empty && !reg->cons)
		rc = -1;
	for (int k = 0; rc == 0 && !reg->empty && k < nother; k++) {
		if (mpq_sgn(al[k]) == 0 && mpq_sgn(be[k]) == 0)
			continue;
		bool edge = false;
		for (int v = 0; v < poly.n && !edge; v++)
			edge = on_line(&poly.v[v], al[k], be[k], ga[k], det, t) &&
			       on_line(&poly.v[(v + 1) % poly.n], al[k], be[k], ga[k], det, t);
		bool dup = false;
		for (int c = 0; c < reg->ncons && !dup; c++)
			dup = same_halfplane(&reg->cons[c], al[k], be[k], ga[k]);
		if (!edge || dup)
			continue;
		/* scaled so that g's coefficient (else l's) is 1 or -1 */
		struct pareto_cons *c = &reg->cons[reg->ncons++];
		mpq_inits(c->g, c->l, c->rhs, NULL);
		mpq_abs(x, mpq_sgn(al[k]) != 0 ? al[k] : be[k]);
		mpq_div(c->g, al[k], x);
		mpq_div(c->l, be[k], x);
		mpq_div(c->rhs, ga[k], x);
	}
	if (rc == 0 && !reg->empty) {
		reg->g_only = true;
		for (int c = 0; c < reg->ncons; c++)
			reg->g_only &= mpq_sgn(reg->cons[c].l) == 0;
		reg->unbounded = true;
		for (int c = 0; reg->g_only && c < reg->ncons; c++) {
			mpq_div(x, reg->cons[c].rhs, reg->cons[c].g);
			if (mpq_sgn(reg->cons[c].g) > 0) {   /* g <= x */
				if (reg->unbounded || mpq_cmp(x, reg->hi) < 0)
					mpq_set(reg->hi, x);
				reg->unbounded = false;
			} else if (mpq_cmp(x, reg->lo) > 0) {   /* g >= x */
				mpq_set(reg->lo, x);
			}
		}
		/* where it starts: its least g, then its least l (the order) */
		if (!reg->g_only) {
			mpq_set(reg->lo, poly.v[0].g);
			for (int v = 1; v < poly.n; v++)
				if (mpq_cmp(poly.v[v].g, reg->lo) < 0)
					mpq_set(reg->lo, poly.v[v].g);
			mpq_set(reg->hi, big);
			for (int v = 0; v < poly.n; v++)
				if (mpq_equal(poly.v[v].g, reg->lo) && mpq_cmp(poly.v[v].l, reg->hi) < 0)
					mpq_set(reg->hi, poly.v[v].l);
		}
	}
	poly_clear(&poly);
	mpq_clears(big, det, x, t, zero, NULL);
	for (int k = 0; k < nl; k++)
		mpq_clears(al[k], be[k], ga[k], NULL);
	free(al);
	free(be);
	free(ga);
	return rc;
}

static int by_start(const void *x, const void *y)
{
	const struct pareto_region *p = x, *q = y;
	if (p->empty != q->empty)
		return p->empty ? 1 : -1;
	if (p->empty)
		return (p->cls > q->cls) - (p->cls < q->cls);
	int d = mpq_cmp(p->lo, q->lo);
	if (!d && !p->g_only && !q->g_only)
		d = mpq_cmp(p->hi, q->hi);   /* the least l where it starts */
	return d ? d : (p->cls > q->cls) - (p->cls < q->cls);
}

int pareto_compute(struct pareto *p, int n, const mpq_t *a, const mpq_t *b, const mpq_t *c)
{
	memset(p, 0, sizeof(*p));
	p->n = n;
	struct rows r = {a, b, c};
	p->cls = malloc(sizeof(int) * (size_t)(n + 1));
	p->dominated_by = malloc(sizeof(int) * (size_t)(n + 1));
	struct keyed *order = malloc(sizeof(*order) * (size_t)(n + 1));
	int *pc = malloc(sizeof(int) * (size_t)(n + 1));
	if (!p->cls || !p->dominated_by || !order || !pc) {
		free(order);
		free(pc);
		pareto_clear(p);
		return -1;
	}
	for (int i = 0; i < n; i++)
		order[i] = (struct keyed){i, &r};
	qsort(order, (size_t)n, sizeof(*order), by_lex);
	/* classes: equal neighbours in the order, named by their first row */
	for (int k = 0; k < n; k++) {
		int i = order[k].i;
		p->cls[i] = k > 0 && lex(&r, order[k - 1].i, i) == 0 ? p->cls[order[k - 1].i] : i;
		p->dominated_by[i] = -1;
	}
	for (int k = 0; k < n; k++) {
		int i = order[k].i;
		if (order[k].i != p->cls[i])
			continue;
		/* a class dominated by any is dominated by one of the Pareto
		 * classes before it in the order */
		for (int q = 0; q < p->nregions; q++)
			if (dominates(&r, pc[q], i)) {
				p->dominated_by[i] = pc[q];
				break;
			}
		if (p->dominated_by[i] < 0)
			pc[p->nregions++] = i;
	}
	for (int i = 0; i < n; i++)
		p->dominated_by[i] = p->dominated_by[p->cls[i]];
	free(order);
	int np = p->nregions;
	p->nregions = 0;
	p->regions = calloc((size_t)np + 1, sizeof(*p->regions));
	if (!p->regions) {
		free(pc);
		pareto_clear(p);
		return -1;
	}
	for (int q = 0; q < np; q++) {
		if (region_of(&r, pc, np, pc[q], &p->regions[q]) < 0) {
			p->nregions = q + 1;
			free(pc);
			pareto_clear(p);
			return -1;
		}
		p->nregions = q + 1;
	}
	free(pc);
	qsort(p->regions, (size_t)p->nregions, sizeof(*p->regions), by_start);
	/* what the answer depends on: the regions with an area (a class
	 * tied on a point or a line only decides nothing) */
	int areas = 0;
	p->g_only = true;
	for (int q = 0; q < p->nregions; q++)
		if (!p->regions[q].empty) {
			areas++;
			p->g_only &= p->regions[q].g_only;
		}
	p->one_best = areas == 1;
	return 0;
}

void pareto_clear(struct pareto *p)
{
	for (int q = 0; q < p->nregions; q++) {
		struct pareto_region *reg = &p->regions[q];
		for (int c = 0; c < reg->ncons; c++)
			mpq_clears(reg->cons[c].g, reg->cons[c].l, reg->cons[c].rhs, NULL);
		free(reg->cons);
		mpq_clears(reg->lo, reg->hi, NULL);
	}
	free(p->regions);
	free(p->cls);
	free(p->dominated_by);
	memset(p, 0, sizeof(*p));
}
