/* Hierarchical machines' D-BSP parameters and costs (topology.h). */
#define _GNU_SOURCE /* open_memstream, asprintf */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/machine/machine.h"
#include "analyzer/machine/topology.h"

static const struct topology topologies[TOPOLOGY_N] = {
	{TOPOLOGY_BUTTERFLY, "butterfly", "a butterfly (g = l = log2 p', Pf = (log2 p')^2)", 1,
	 NULL, ""},
	{TOPOLOGY_PRUNED_BUTTERFLY, "pruned-butterfly",
	 "a pruned butterfly (g = sqrt(p'), l = log2 p', Pf = (log2 p')^2)", 2, NULL, ""},
	{TOPOLOGY_MESH2D, "mesh2d", "a 2-D mesh (g = l = Pf = p'^(1/2))", 2, NULL, ""},
	{TOPOLOGY_MESH3D, "mesh3d", "a 3-D mesh (g = l = Pf = p'^(1/3))", 3, NULL, ""},
};

const struct topology *topology_find(const char *name)
{
	for (int k = 0; k < TOPOLOGY_N; k++)
		if (strcmp(name, topologies[k].name) == 0)
			return &topologies[k];
	return NULL;
}

const char *topology_names(void)
{
	return "butterfly, pruned-butterfly, mesh2d, mesh3d";
}

void root2_init(struct root2 *x, int n)
{
	x->n = n;
	for (int r = 0; r < 3; r++)
		mpq_init(x->c[r]);
}

void root2_clear(struct root2 *x)
{
	for (int r = 0; r < 3; r++)
		mpq_clear(x->c[r]);
}

void root2_add(struct root2 *x, const struct root2 *y)
{
	for (int r = 0; r < x->n; r++)
		mpq_add(x->c[r], x->c[r], y->c[r]);
}

void root2_add_pow(struct root2 *x, mpq_srcptr a, long e)
{
	/* 2^(e/n) = 2^(e div n) 2^((e mod n)/n) */
	mpq_t t;
	mpq_init(t);
	mpq_set(t, a);
	mpz_mul_2exp(mpq_numref(t), mpq_numref(t), (mp_bitcnt_t)(e / x->n));
	mpq_canonicalize(t);
	mpq_add(x->c[e % x->n], x->c[e % x->n], t);
	mpq_clear(t);
}

/* The sign of A + B t + C t^2, t = 2^(1/3), the integers not all 0.  Its
 * norm A^3 + 2B^3 + 4C^3 - 6ABC is a nonzero integer and its two conjugates
 * are at most (1 + t + t^2) H < 4H in size (H the largest of |A|, |B|,
 * |C|), so |value| >= 1/(16 H^2): evaluated with an error below that (here
 * about 2^-(2 bits(H) + 60)), its sign is exact. */
static int cubic_sign(mpz_srcptr a, mpz_srcptr b, mpz_srcptr c)
{
	size_t bits = mpz_sizeinbase(a, 2);
	if (mpz_sizeinbase(b, 2) > bits)
		bits = mpz_sizeinbase(b, 2);
	if (mpz_sizeinbase(c, 2) > bits)
		bits = mpz_sizeinbase(c, 2);
	mp_bitcnt_t prec = (mp_bitcnt_t)(3 * bits + 64);
	mpf_t t, x, y, v;
	mpf_init2(t, prec);
	mpf_init2(x, prec);
	mpf_init2(y, prec);
	mpf_init2(v, prec);
	/* t = 2^(1/3) by Newton's iteration t <- (2t + 2/t^2) / 3, from 5/4 */
	mpf_set_d(t, 1.25);
	for (mp_bitcnt_t good = 2; good < 2 * prec + 8; good *= 2) {
		mpf_mul(x, t, t);
		mpf_ui_div(x, 2, x);
		mpf_mul_ui(y, t, 2);
		mpf_add(y, y, x);
		mpf_div_ui(t, y, 3);
	}
	mpf_set_z(v, a);
	mpf_set_z(x, b);
	mpf_mul(x, x, t);
	mpf_add(v, v, x);
	mpf_set_z(x, c);
	mpf_mul(x, x, t);
	mpf_mul(x, x, t);
	mpf_add(v, v, x);
	int sign = mpf_sgn(v);
	mpf_clears(t, x, y, v, NULL);
	return sign;
}

int root2_cmp(const struct root2 *x, const struct root2 *y)
{
	/* D = X - Y, times the denominators' product: integers A, B, C */
	mpq_t d[3];
	mpz_t z[3], den;
	mpz_init_set_ui(den, 1);
	for (int r = 0; r < 3; r++) {
		mpq_init(d[r]);
		mpz_init(z[r]);
		if (r < x->n)
			mpq_sub(d[r], x->c[r], y->c[r]);
		mpz_mul(den, den, mpq_denref(d[r]));
	}
	for (int r = 0; r < 3; r++) {
		mpz_mul(z[r], mpq_numref(d[r]), den);
		mpz_divexact(z[r], z[r], mpq_denref(d[r]));
	}
	int sign;
	if (mpz_sgn(z[1]) == 0 && mpz_sgn(z[2]) == 0) {
		sign = mpz_sgn(z[0]);
	} else if (x->n == 2) {
		/* A + B sqrt(2): the signs agree, or A^2 against 2 B^2 decides */
		int sa = mpz_sgn(z[0]), sb = mpz_sgn(z[1]);
		if (sa * sb >= 0) {
			sign = sa ? sa : sb;
		} else {
			mpz_t a2, b2;
			mpz_inits(a2, b2, NULL);
			mpz_mul(a2, z[0], z[0]);
			mpz_mul(b2, z[1], z[1]);
			mpz_mul_2exp(b2, b2, 1);
			int c = mpz_cmp(a2, b2);   /* > 0: A wins */
			sign = c > 0 ? sa : c < 0 ? sb : 0;
			mpz_clears(a2, b2, NULL);
		}
	} else {
		sign = cubic_sign(z[0], z[1], z[2]);
	}
	for (int r = 0; r < 3; r++) {
		mpq_clear(d[r]);
		mpz_clear(z[r]);
	}
	mpz_clear(den);
	return sign;
}

double root2_approx(const struct root2 *x)
{
	double v = 0;
	for (int r = 0; r < x->n; r++)
		v += mpq_get_d(x->c[r]) * exp2((double)r / x->n);
	return v;
}

char *root2_text(const struct root2 *x)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	bool any = false;
	for (int r = 0; r < x->n; r++) {
		int sign = mpq_sgn(x->c[r]);
		if (sign == 0)
			continue;
		if (any)
			fputs(sign < 0 ? " - " : " + ", f);
		else if (sign < 0)
			fputs("-", f);
		mpq_t a;
		mpq_init(a);
		mpq_abs(a, x->c[r]);
		bool one = mpq_cmp_ui(a, 1, 1) == 0;
		if (r == 0 || !one) {
			char *s = mpq_get_str(NULL, 10, a);
			fputs(s ? s : "?", f);
			free(s);
		}
		if (r > 0)
			fprintf(f, "%s2^(%d/%d)", one ? "" : "*", r, x->n);
		mpq_clear(a);
		any = true;
	}
	if (!any)
		fputs("0", f);
	return fclose(f) == 0 ? buf : (free(buf), NULL);
}

void topology_from_machine(const struct machine *m, struct topology *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = TOPOLOGY_PROFILE;
	t->name = m->name;
	t->root = 1;
	t->profile = m;
	snprintf(t->text, sizeof(t->text), "machine %s's levels (its profile's level entries)",
		 m->name);
	t->title = t->text;
}

int topology_covers(const struct topology *t, int k, char **why)
{
	*why = NULL;
	if (t->kind != TOPOLOGY_PROFILE)
		return 1;
	mpq_t g, l, pf;
	mpq_inits(g, l, pf, NULL);
	int ok = 1;
	for (int d = 1; d <= k && ok; d++)
		if (machine_level(t->profile, 1L << d, g, l, pf) < 0) {
			bool listed = false;
			for (int i = 0; i < t->profile->nlevels; i++)
				listed |= t->profile->levels[i].p == 1L << d;
			ok = 0;
			if ((listed ? asprintf(why, "machine %s gives its levels in a unit of time and "
						    "no speed s: give --speed FLOPS", t->profile->name)
				    : asprintf(why, "machine %s gives no level for clusters of %ld "
						    "processes (a 'level %ld g G l L' line)",
					       t->profile->name, 1L << d, 1L << d)) < 0)
				*why = NULL;
		}
	mpq_clears(g, l, pf, NULL);
	return ok;
}

/* The parameter of an i-cluster with 2^D processes (D = k - i) into *OUT
 * (+= A times it): g (WHICH 0), l (1) or Pf (2). */
static void add_param(const struct topology *t, int which, long d, mpq_srcptr a, struct root2 *out)
{
	mpq_t c;
	mpq_init(c);
	if (t->kind == TOPOLOGY_PROFILE) {
		/* topology_covers has said it is there; a cluster of one process
		 * (the flat cost of one process) moves nothing */
		mpq_t g, l, pf;
		mpq_inits(g, l, pf, NULL);
		if (d >= 1 && machine_level(t->profile, 1L << d, g, l, pf) == 0) {
			mpq_mul(c, which == 0 ? g : which == 1 ? l : pf, a);
			mpq_add(out->c[0], out->c[0], c);
		}
		mpq_clears(g, l, pf, NULL);
		mpq_clear(c);
		return;
	}
	switch (t->kind) {
	case TOPOLOGY_BUTTERFLY:
	case TOPOLOGY_PRUNED_BUTTERFLY:
		if (which == 0 && t->kind == TOPOLOGY_PRUNED_BUTTERFLY) {
			root2_add_pow(out, a, d);                  /* 2^(d/2) */
			break;
		}
		mpq_set_si(c, which == 2 ? d * d : d, 1);      /* log2 p', its square */
		mpq_mul(c, c, a);
		mpq_add(out->c[0], out->c[0], c);
		break;
	case TOPOLOGY_MESH2D:
	case TOPOLOGY_MESH3D:
		root2_add_pow(out, a, d);                          /* 2^(d/n) */
		break;
	case TOPOLOGY_N:
	case TOPOLOGY_PROFILE:
		break;
	}
	mpq_clear(c);
}

void topology_costs(const struct topology *t, int k, mpq_srcptr w, mpq_srcptr h,
		    const mpq_t *ceil, long runs, struct root2 *dbsp, struct root2 *flat)
{
	mpq_add(dbsp->c[0], dbsp->c[0], w);
	mpq_add(flat->c[0], flat->c[0], w);
	mpq_t r;
	mpq_init(r);
	mpq_set_si(r, runs, 1);
	for (int i = 0; i < k; i++) {
		add_param(t, 0, k - i, ceil[i], dbsp);
		add_param(t, 1, k - i, r, dbsp);
		add_param(t, 2, k - i, r, dbsp);
	}
	add_param(t, 0, k, h, flat);
	add_param(t, 1, k, r, flat);
	mpq_clear(r);
}
