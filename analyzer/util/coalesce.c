#include "analyzer/util/coalesce.h"

#include <stdlib.h>

#include <isl/space.h>

__isl_give isl_set *coalesce_set(__isl_take isl_set *set)
{
	isl_set *c = isl_set_coalesce(isl_set_copy(set));
	isl_bool same = c ? isl_set_is_equal(c, set) : isl_bool_error;
	if (same < 0) {
		isl_set_free(c);
		return isl_set_free(set);
	}
	if (!same) {
		isl_set_free(c);
		return set;
	}
	isl_set_free(set);
	return c;
}

__isl_give isl_map *coalesce_map(__isl_take isl_map *map)
{
	isl_map *c = isl_map_coalesce(isl_map_copy(map));
	isl_bool same = c ? isl_map_is_equal(c, map) : isl_bool_error;
	if (same < 0) {
		isl_map_free(c);
		return isl_map_free(map);
	}
	if (!same) {
		isl_map_free(c);
		return map;
	}
	isl_map_free(map);
	return c;
}

/* The pieces of a piecewise quasipolynomial, kept. */
struct pieces {
	int n, cap;
	isl_set **dom;
	isl_qpolynomial **qp;
};

static isl_stat add_piece(__isl_take isl_set *dom, __isl_take isl_qpolynomial *qp, void *user)
{
	struct pieces *p = user;
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 8;
		isl_set **d = realloc(p->dom, sizeof(*d) * (size_t)cap);
		if (d)
			p->dom = d;
		isl_qpolynomial **q = d ? realloc(p->qp, sizeof(*q) * (size_t)cap) : NULL;
		if (q)
			p->qp = q;
		if (!d || !q) {
			isl_set_free(dom);
			isl_qpolynomial_free(qp);
			return isl_stat_error;
		}
		p->cap = cap;
	}
	p->dom[p->n] = dom;
	p->qp[p->n++] = qp;
	return isl_stat_ok;
}

static void pieces_clear(struct pieces *p)
{
	for (int i = 0; i < p->n; i++) {
		isl_set_free(p->dom[i]);
		isl_qpolynomial_free(p->qp[i]);
	}
	free(p->dom);
	free(p->qp);
}

/* Whether C, the coalescing of the pieces A, has their values: every point of
 * A's domains is in C's, and each piece of C lies within the pieces of A that
 * have its expression (coalescing only unites the domains of the pieces whose
 * expressions are the same, then coalesces each; the pieces of A are
 * disjoint). */
static isl_bool same_values(const struct pieces *a, __isl_keep isl_pw_qpolynomial *c)
{
	struct pieces b = {0};
	isl_bool ok = isl_bool_error;
	if (isl_pw_qpolynomial_foreach_piece(c, add_piece, &b) < 0)
		goto done;
	isl_set *da = isl_set_empty(isl_pw_qpolynomial_get_domain_space(c));
	for (int j = 0; j < a->n && da; j++)
		da = isl_set_union(da, isl_set_copy(a->dom[j]));
	isl_set *db = isl_pw_qpolynomial_domain(isl_pw_qpolynomial_copy(c));
	ok = da && db ? isl_set_is_subset(da, db) : isl_bool_error;
	isl_set_free(da);
	isl_set_free(db);
	for (int i = 0; i < b.n && ok == isl_bool_true; i++) {
		isl_set *within = isl_set_empty(isl_set_get_space(b.dom[i]));
		for (int j = 0; j < a->n && within; j++) {
			isl_bool eq = isl_qpolynomial_plain_is_equal(b.qp[i], a->qp[j]);
			if (eq < 0)
				within = isl_set_free(within);
			else if (eq)
				within = isl_set_union(within, isl_set_copy(a->dom[j]));
		}
		ok = within ? isl_set_is_subset(b.dom[i], within) : isl_bool_error;
		isl_set_free(within);
	}
done:
	pieces_clear(&b);
	return ok;
}

/* The piecewise quasi-polynomial of the pieces A on SPACE, in their order. */
static __isl_give isl_pw_qpolynomial *rebuild(const struct pieces *a, __isl_keep isl_space *space)
{
	isl_pw_qpolynomial *pw = isl_pw_qpolynomial_zero(isl_space_copy(space));
	for (int j = 0; j < a->n && pw; j++)
		pw = isl_pw_qpolynomial_add_disjoint(
			pw, isl_pw_qpolynomial_alloc(isl_set_copy(a->dom[j]),
						     isl_qpolynomial_copy(a->qp[j])));
	return pw;
}

/* ISL coalesces a piecewise quasi-polynomial in place, every other copy of it
 * included (it deems the meaning unchanged): the one it is given is rebuilt
 * from the pieces of PW, which are kept aside, and so is the result when
 * the coalescing is not exact. */
__isl_give isl_pw_qpolynomial *coalesce_pw_qpolynomial(__isl_take isl_pw_qpolynomial *pw)
{
	struct pieces a = {0};
	isl_space *space = isl_pw_qpolynomial_get_space(pw);
	isl_bool same = isl_bool_error;
	if (space && isl_pw_qpolynomial_foreach_piece(pw, add_piece, &a) >= 0) {
		isl_pw_qpolynomial *c = isl_pw_qpolynomial_coalesce(rebuild(&a, space));
		same = c ? same_values(&a, c) : isl_bool_error;
		isl_pw_qpolynomial_free(pw);
		pw = same == isl_bool_true ? c : isl_pw_qpolynomial_free(c);
	}
	if (same == isl_bool_false)
		pw = rebuild(&a, space);
	else if (same < 0)
		pw = isl_pw_qpolynomial_free(pw);
	pieces_clear(&a);
	isl_space_free(space);
	return pw;
}
