/* Polynomials in one integer variable, exactly (count_poly.h).
 *
 * Sums over a range use forward differences: with m = b - a + 1,
 *   sum_{i < m} P(a + i) = sum_j (Delta^j P)(a) * C(m, j + 1),
 * where Delta P(x) = P(x + 1) - P(x).  Where P changes sign is found the
 * same way: on a run of integers where Delta P keeps its sign, P is
 * monotone, so its sign changes at most twice there and a binary search
 * finds each change; the runs of Delta P come from the same search one
 * degree lower. */
#include "analyzer/count/count_poly.h"

#include <stdbool.h>
#include <stdlib.h>

void count_poly_init(struct count_poly *p)
{
	p->deg = 0;
	for (int e = 0; e <= COUNT_POLY_MAXDEG; e++)
		mpq_init(p->c[e]);
}

void count_poly_clear(struct count_poly *p)
{
	for (int e = 0; e <= COUNT_POLY_MAXDEG; e++)
		mpq_clear(p->c[e]);
}

/* P's degree lowered past zero leading coefficients. */
static void trim(struct count_poly *p)
{
	while (p->deg > 0 && mpq_sgn(p->c[p->deg]) == 0)
		p->deg--;
}

void count_poly_eval(const struct count_poly *p, long long x, mpq_t out)
{
	mpq_t xq;
	mpq_init(xq);
	mpq_set_si(xq, (long)x, 1);
	mpq_set(out, p->c[p->deg]);
	for (int e = p->deg - 1; e >= 0; e--) {
		mpq_mul(out, out, xq);
		mpq_add(out, out, p->c[e]);
	}
	mpq_clear(xq);
}

static int sign_at(const struct count_poly *p, long long x)
{
	mpq_t v;
	mpq_init(v);
	count_poly_eval(p, x, v);
	int s = mpq_sgn(v);
	mpq_clear(v);
	return s;
}

void count_poly_add_sum(const struct count_poly *p, long long a, long long b, mpq_t out)
{
	if (a > b)
		return;
	int d = p->deg;
	mpq_t y[COUNT_POLY_MAXDEG + 1], t;
	for (int i = 0; i <= d; i++) {
		mpq_init(y[i]);
		count_poly_eval(p, a + i, y[i]);
	}
	/* y[j] = (Delta^j P)(a) */
	for (int j = 1; j <= d; j++)
		for (int i = d; i >= j; i--)
			mpq_sub(y[i], y[i], y[i - 1]);
	mpz_t m, bin;
	mpz_init(m);
	mpz_init(bin);
	mpq_init(t);
	mpz_set_si(m, (long)b);
	mpz_set_si(bin, (long)a);
	mpz_sub(m, m, bin);
	mpz_add_ui(m, m, 1);
	for (int j = 0; j <= d; j++) {
		mpz_bin_ui(bin, m, (unsigned long)j + 1);
		mpq_set_z(t, bin);
		mpq_mul(t, t, y[j]);
		mpq_add(out, out, t);
	}
	mpq_clear(t);
	mpz_clear(m);
	mpz_clear(bin);
	for (int i = 0; i <= d; i++)
		mpq_clear(y[i]);
}

/* D = Delta P. */
static void difference(const struct count_poly *p, struct count_poly *d)
{
	mpz_t bin;
	mpq_t t;
	mpz_init(bin);
	mpq_init(t);
	d->deg = p->deg > 0 ? p->deg - 1 : 0;
	for (int i = 0; i <= COUNT_POLY_MAXDEG; i++)
		mpq_set_ui(d->c[i], 0, 1);
	/* (x + 1)^e - x^e = sum_{i < e} C(e, i) x^i */
	for (int e = 1; e <= p->deg; e++)
		for (int i = 0; i < e; i++) {
			mpz_bin_uiui(bin, (unsigned long)e, (unsigned long)i);
			mpq_set_z(t, bin);
			mpq_mul(t, t, p->c[e]);
			mpq_add(d->c[i], d->c[i], t);
		}
	trim(d);
	mpq_clear(t);
	mpz_clear(bin);
}

/* A sorted list of points. */
struct points {
	long long *x;
	int n, cap;
	bool oom;
};

static void points_add(struct points *s, long long x)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		long long *g = realloc(s->x, (size_t)cap * sizeof(*g));
		if (!g) {
			s->oom = true;
			return;
		}
		s->x = g;
		s->cap = cap;
	}
	s->x[s->n++] = x;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* The least x in LO..HI (sign(P) monotone there, rising when UP) at which
 * sign(P(x)) >= WANT (UP) or <= WANT (falling), or HI + 1. */
static long long first_reaching(const struct count_poly *p, long long lo, long long hi, bool up,
				int want)
{
	long long l = lo, h = hi + 1; /* the answer is in l..h */
	while (l < h) {
		long long mid = l + (h - l) / 2;
		int s = sign_at(p, mid);
		if (up ? s >= want : s <= want)
			h = mid;
		else
			l = mid + 1;
	}
	return l;
}

/* Into S: the points x with A < x <= B at which sign(P(x)) differs from
 * sign(P(x - 1)), in order. */
static void sign_changes(const struct count_poly *p, long long a, long long b, struct points *s)
{
	if (a >= b || p->deg == 0)
		return;
	struct count_poly d;
	count_poly_init(&d);
	difference(p, &d);
	struct points runs = {0};
	sign_changes(&d, a, b - 1, &runs);
	struct points found = {0};
	/* the runs of Delta P on a .. b - 1: P monotone on each run's
	 * first .. last + 1 */
	for (int r = 0; r <= runs.n && !runs.oom; r++) {
		long long lo = r == 0 ? a : runs.x[r - 1];
		long long last = r == runs.n ? b - 1 : runs.x[r] - 1;
		long long hi = last + 1;
		int dir = sign_at(&d, lo);
		if (dir == 0)
			continue; /* P constant there */
		bool up = dir > 0;
		long long x0 = first_reaching(p, lo, hi, up, 0);
		long long x1 = first_reaching(p, lo, hi, up, up ? 1 : -1);
		if (x0 > lo && x0 <= hi)
			points_add(&found, x0);
		if (x1 > lo && x1 <= hi && x1 != x0)
			points_add(&found, x1);
	}
	if (found.n > 1)
		qsort(found.x, (size_t)found.n, sizeof(*found.x), cmp_ll);
	for (int i = 0; i < found.n && !found.oom; i++) {
		if (i > 0 && found.x[i] == found.x[i - 1])
			continue;
		if (sign_at(p, found.x[i]) != sign_at(p, found.x[i] - 1))
			points_add(s, found.x[i]);
	}
	s->oom |= runs.oom || found.oom;
	free(runs.x);
	free(found.x);
	count_poly_clear(&d);
}

int count_poly_first_positive(const struct count_poly *p, long long a, long long b,
			      long long *x)
{
	*x = b + 1;
	if (a > b)
		return 0;
	if (sign_at(p, a) > 0) {
		*x = a;
		return 0;
	}
	struct points s = {0};
	sign_changes(p, a, b, &s);
	for (int i = 0; i < s.n && *x > b; i++)
		if (sign_at(p, s.x[i]) > 0)
			*x = s.x[i];
	bool oom = s.oom;
	free(s.x);
	return oom ? -1 : 0;
}

int count_poly_add_max_sum(const struct count_poly *p, int n, long long a, long long b, mpq_t out)
{
	struct count_poly g;
	count_poly_init(&g);
	mpq_t v, best;
	mpq_init(v);
	mpq_init(best);
	int r = 0;
	for (long long cur = a; cur <= b && r == 0;) {
		/* the largest at cur, the first of equals */
		int w = 0;
		for (int q = 0; q < n; q++) {
			count_poly_eval(&p[q], cur, v);
			if (q == 0 || mpq_cmp(v, best) > 0) {
				mpq_set(best, v);
				w = q;
			}
		}
		/* until another exceeds it */
		long long next = b + 1;
		for (int q = 0; q < n && r == 0; q++) {
			if (q == w)
				continue;
			g.deg = p[q].deg > p[w].deg ? p[q].deg : p[w].deg;
			for (int e = 0; e <= COUNT_POLY_MAXDEG; e++)
				mpq_sub(g.c[e], p[q].c[e], p[w].c[e]);
			trim(&g);
			long long x;
			if (count_poly_first_positive(&g, cur + 1, next - 1, &x) < 0)
				r = -1;
			else if (x < next)
				next = x;
		}
		if (r == 0)
			count_poly_add_sum(&p[w], cur, next - 1, out);
		cur = next;
	}
	mpq_clear(v);
	mpq_clear(best);
	count_poly_clear(&g);
	return r;
}
