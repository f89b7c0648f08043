#include "analyzer/util/coalesce.h"

#include <stdlib.h>

#include <isl/space.h>

/* Whether C, the coalescing of SET, has the points of SET.  ISL's coalescing
 * keeps or simplifies each disjunct (implicit equalities made explicit,
 * redundant constraints dropped, coefficients reduced: the same points),
 * drops a disjunct another one contains, and fuses disjuncts into one that
 * contains them; the check follows that, since comparing the whole sets is
 * costly (it counts against the ISL operation budget, and conditions of 20
 * disjuncts with floors are common).  A disjunct of C that is one of SET's
 * is kept; another one must lie within the disjuncts of SET it contains (or
 * else within SET); a disjunct of SET that is none of C's must lie within
 * one of C's (or else within C). */
static isl_bool same_points(__isl_keep isl_set *set, __isl_keep isl_set *c)
{
	isl_basic_set_list *in = isl_set_get_basic_set_list(set);
	isl_basic_set_list *out = isl_set_get_basic_set_list(c);
	isl_size n = isl_basic_set_list_size(in);
	isl_size nc = isl_basic_set_list_size(out);
	/* seen[j]: SET's disjunct j is one of C's (1), or within one (2) */
	char *seen = n < 0 ? NULL : calloc((size_t)n + 1, 1);
	char *kept = nc < 0 ? NULL : calloc((size_t)nc + 1, 1);
	isl_bool ok = seen && kept ? isl_bool_true : isl_bool_error;
	for (int i = 0; i < nc && ok == isl_bool_true; i++)
		for (int j = 0; j < n && !kept[i] && ok == isl_bool_true; j++) {
			if (seen[j])
				continue;
			isl_basic_set *a = isl_basic_set_list_get_at(in, j);
			isl_basic_set *b = isl_basic_set_list_get_at(out, i);
			ok = isl_basic_set_plain_is_equal(a, b);
			isl_basic_set_free(a);
			isl_basic_set_free(b);
			if (ok == isl_bool_true)
				seen[j] = kept[i] = 1;
			else if (ok == isl_bool_false)
				ok = isl_bool_true;
		}
	for (int i = 0; i < nc && ok == isl_bool_true; i++) {
		if (kept[i])
			continue;
		isl_basic_set *b = isl_basic_set_list_get_at(out, i);
		isl_set *within = isl_set_empty(isl_basic_set_get_space(b));
		for (int j = 0; j < n && ok == isl_bool_true && within; j++) {
			if (seen[j] == 1)
				continue;
			isl_basic_set *a = isl_basic_set_list_get_at(in, j);
			ok = isl_basic_set_is_subset(a, b);
			if (ok == isl_bool_true) {
				seen[j] = 2;
				within = isl_set_union(within, isl_set_from_basic_set(a));
			} else {
				isl_basic_set_free(a);
				if (ok == isl_bool_false)
					ok = isl_bool_true;
			}
		}
		isl_set *bs = isl_set_from_basic_set(b);
		if (ok == isl_bool_true)
			ok = within ? isl_set_is_subset(bs, within) : isl_bool_error;
		if (ok == isl_bool_false)
			ok = isl_set_is_subset(bs, set);
		isl_set_free(bs);
		isl_set_free(within);
	}
	for (int j = 0; j < n && ok == isl_bool_true; j++) {
		if (seen[j])
			continue;
		isl_set *a = isl_set_from_basic_set(isl_basic_set_list_get_at(in, j));
		ok = isl_set_is_subset(a, c);
		isl_set_free(a);
	}
	free(seen);
	free(kept);
	isl_basic_set_list_free(in);
	isl_basic_set_list_free(out);
	return ok;
}

__isl_give isl_set *coalesce_set(__isl_take isl_set *set)
{
	isl_set *c = isl_set_coalesce(isl_set_copy(set));
	isl_bool same = c ? same_points(set, c) : isl_bool_error;
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

/* A map as the set of its pairs, wrapped: the same coalescing. */
__isl_give isl_map *coalesce_map(__isl_take isl_map *map)
{
	return isl_set_unwrap(coalesce_set(isl_map_wrap(map)));
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

/* Whether C, the coalescing of the pieces A, has their values: each piece of
 * A lies within the pieces of C that have its expression, and each piece of C
 * within the pieces of A that have its (coalescing only unites the domains of
 * the pieces whose expressions are the same, then coalesces each).  The
 * pieces of each side are disjoint, so the two functions are then the same:
 * the same domain, the same value at each point.  An expression ISL wrote
 * another way fails plain equality and the coalescing is not taken. */
static isl_bool same_values(const struct pieces *a, __isl_keep isl_pw_qpolynomial *c)
{
	struct pieces b = {0};
	isl_bool ok = isl_bool_error;
	if (isl_pw_qpolynomial_foreach_piece(c, add_piece, &b) < 0)
		goto done;
	ok = isl_bool_true;
	/* each piece of A within the pieces of C of its expression, and each
	 * piece of C within the pieces of A of its expression: the same values
	 * wherever either is defined (both are disjoint).  Expression by
	 * expression, so that no union of every domain is ever formed. */
	for (int dir = 0; dir < 2 && ok == isl_bool_true; dir++) {
		const struct pieces *x = dir ? &b : a, *y = dir ? a : &b;
		for (int i = 0; i < x->n && ok == isl_bool_true; i++) {
			isl_set *within = isl_set_empty(isl_set_get_space(x->dom[i]));
			for (int j = 0; j < y->n && within; j++) {
				isl_bool eq = isl_qpolynomial_plain_is_equal(x->qp[i], y->qp[j]);
				if (eq < 0)
					within = isl_set_free(within);
				else if (eq)
					within = isl_set_union(within, isl_set_copy(y->dom[j]));
			}
			ok = within ? isl_set_is_subset(x->dom[i], within) : isl_bool_error;
			isl_set_free(within);
		}
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
 * the coalescing is not exact or does not finish within its operations.
 *
 * The coalescing and its check run under an ISL operation limit of their
 * own, COALESCE_MAX_OPERATIONS, and the context's limit is restored after
 * them (its count of operations starts again, as after every count).  A
 * result of 42 pieces with floors of 12 took 45 s to coalesce without it
 * (tests/unit/test_count_random.c's slowest set); the limit is a count of
 * ISL's own steps, so the outcome is the same on every machine. */
enum { COALESCE_MAX_OPERATIONS = 2000000 };

__isl_give isl_pw_qpolynomial *coalesce_pw_qpolynomial(__isl_take isl_pw_qpolynomial *pw)
{
	struct pieces a = {0};
	isl_space *space = isl_pw_qpolynomial_get_space(pw);
	isl_ctx *ctx = isl_pw_qpolynomial_get_ctx(pw);
	isl_bool same = isl_bool_error;
	if (space && isl_pw_qpolynomial_foreach_piece(pw, add_piece, &a) >= 0) {
		unsigned long old = isl_ctx_get_max_operations(ctx);
		isl_ctx_reset_operations(ctx);
		isl_ctx_set_max_operations(ctx, COALESCE_MAX_OPERATIONS);
		isl_pw_qpolynomial *c = isl_pw_qpolynomial_coalesce(rebuild(&a, space));
		same = c ? same_values(&a, c) : isl_bool_error;
		if (same < 0 && isl_ctx_last_error(ctx) == isl_error_quota) {
			/* out of operations: the pieces as they were */
			isl_ctx_reset_error(ctx);
			same = isl_bool_false;
		}
		isl_ctx_reset_operations(ctx);
		isl_ctx_set_max_operations(ctx, old);
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
