/* The words each process holds: see memory.h. */
#include "analyzer/cost/memory.h"

#include <stdlib.h>

/* The formula of the positional form F over M's parameters and axes (axis
 * a is SIZES[a] when SIZES is given). */
static struct formula *aff_formula(const struct model *m, const struct model_aff *f,
				   const long *sizes)
{
	struct formula *r = formula_const_si((long)f->constant);
	for (int t = 0; r && t < f->nterms; t++) {
		const struct model_term *x = &f->terms[t];
		struct formula *v = x->kind == MODEL_PARAM ? formula_param(m->params[x->index])
				  : sizes ? formula_const_si(sizes[x->index])
					  : formula_param(m->axes[x->index]);
		struct formula *c = formula_const_si((long)x->coef);
		struct formula *cv = v && c ? formula_mul(c, v) : NULL;
		struct formula *s = cv ? formula_add(r, cv) : NULL;
		formula_free(v);
		formula_free(c);
		formula_free(cv);
		formula_free(r);
		r = s;
	}
	return r;
}

/* floor(A / B), B a positive formula (a constant or an axis). */
static struct formula *floor_div(const struct formula *a, const struct formula *b)
{
	struct formula *inv = formula_pow(b, -1);
	struct formula *q = inv ? formula_mul(a, inv) : NULL;
	struct formula *r = q ? formula_floor(q) : NULL;
	formula_free(inv);
	formula_free(q);
	return r;
}

/* How many of the indices 0 <= i < X dimension distribution D gives
 * coordinate 0 of its axis, of size P. */
static struct formula *share_at_zero(const struct model *m, const struct dist *d,
				     const struct formula *x, const struct formula *p)
{
	switch (d->kind) {
	case DIST_NONE:
	case DIST_REPLICATED:   /* every holder has the whole dimension */
		return formula_copy(x);
	case DIST_IDENTITY:
		return formula_const_si(1);
	case DIST_BLOCK:
	case DIST_CYCLIC: {
		/* ceil(X/P) = floor((X + P - 1)/P) */
		struct formula *one = formula_const_si(1);
		struct formula *pm1 = one ? formula_sub(p, one) : NULL;
		struct formula *num = pm1 ? formula_add(x, pm1) : NULL;
		struct formula *r = num ? floor_div(num, p) : NULL;
		formula_free(one);
		formula_free(pm1);
		formula_free(num);
		return r;
	}
	case DIST_BLOCK_CYCLIC: {
		/* full rounds of P blocks of B, then what is left of the last,
		 * of which process 0 gets up to B */
		struct formula *b = d->block_param >= 0 ? formula_param(m->params[d->block_param])
							: formula_const_si((long)d->block);
		struct formula *bp = b ? formula_mul(b, p) : NULL;
		struct formula *rounds = bp ? floor_div(x, bp) : NULL;
		struct formula *full = rounds ? formula_mul(b, rounds) : NULL;
		struct formula *used = rounds ? formula_mul(bp, rounds) : NULL;
		struct formula *left = used ? formula_sub(x, used) : NULL;
		struct formula *last = left ? formula_min(b, left) : NULL;
		struct formula *r = last ? formula_add(full, last) : NULL;
		formula_free(b);
		formula_free(bp);
		formula_free(rounds);
		formula_free(full);
		formula_free(used);
		formula_free(left);
		formula_free(last);
		return r;
	}
	case DIST_NKINDS:
		break;
	}
	return NULL;
}

/* Whether INFO assumes that dimension distribution D of extent X is whole
 * blocks on every process. */
static bool assumed_whole(const struct symbolic_info *info, const struct dist *d,
			  const struct model_aff *x)
{
	for (int i = 0; info && d->block_param < 0 && i < info->nlocals; i++) {
		const struct local_param *lp = &info->locals[i];
		long b = d->kind == DIST_BLOCK_CYCLIC ? (long)d->block : 1;
		if ((d->kind == DIST_BLOCK || d->kind == DIST_CYCLIC || d->kind == DIST_BLOCK_CYCLIC) &&
		    lp->digit < 0 && (lp->axis == d->axis || (d->axis < 32 && lp->axes >> d->axis & 1)) &&
		    lp->block == b &&
		    model_aff_equal(&lp->extent_aff, x))
			return true;
	}
	return false;
}

struct formula *memory_words(const struct model *m, int cand, const bool take[],
			     const long *sizes, const struct symbolic_info *info)
{
	const struct model_candidate *mc = &m->cands[cand];
	struct formula *total = formula_const_si(0);
	for (int a = 0; total && a < m->narrays; a++) {
		if (!take[a] || !model_cand_has(m, cand, a))
			continue;
		const struct model_array *arr = &m->arrays[a];
		struct formula *prod = formula_const_si((long)arr->words);
		for (int d = 0; prod && d < arr->ndims; d++) {
			const struct dist *dd = &mc->layout[a][d];
			struct formula *x = aff_formula(m, &arr->extent_affs[d], sizes);
			struct formula *p = dd->kind == DIST_NONE ? formula_const_si(1)
					  : sizes ? formula_const_si(sizes[dd->axis])
						  : formula_param(m->axes[dd->axis]);
			struct formula *inv = !sizes && assumed_whole(info, dd, &arr->extent_affs[d])
						      ? formula_pow(p, -1) : NULL;
			/* X = P over P: one element each */
			bool one = !sizes && model_dist_is_identity(dd, &arr->extent_affs[d]);
			struct formula *share = one ? formula_const_si(1)
					      : inv ? formula_mul(x, inv)      /* X/P */
					      : x && p ? share_at_zero(m, dd, x, p) : NULL;
			formula_free(inv);
			struct formula *next = share ? formula_mul(prod, share) : NULL;
			formula_free(x);
			formula_free(p);
			formula_free(share);
			formula_free(prod);
			prod = next;
		}
		struct formula *next = prod ? formula_add(total, prod) : NULL;
		formula_free(prod);
		formula_free(total);
		total = next;
	}
	return total;
}

void memory_step_arrays(const struct model *m, int step, bool take[])
{
	for (int a = 0; a < m->narrays; a++)
		take[a] = false;
	const struct model_superstep *s = &m->steps[step];
	for (int i = 0; i < s->nstmts; i++) {
		take[s->stmts[i].lhs.array] = true;
		for (int r = 0; r < s->stmts[i].nreads; r++)
			take[s->stmts[i].reads[r].array] = true;
	}
}

/* *OUT = F at the values (OUT initialized). */
static void aff_at(const struct model_aff *f, const long *sizes, const long long *values, mpz_t out)
{
	mpz_set_si(out, (long)f->constant);
	for (int t = 0; t < f->nterms; t++) {
		const struct model_term *x = &f->terms[t];
		long v = x->kind == MODEL_PARAM ? (long)values[x->index] : sizes[x->index];
		mpz_t term;
		mpz_init_set_si(term, v);
		mpz_mul_si(term, term, (long)x->coef);
		mpz_add(out, out, term);
		mpz_clear(term);
	}
}

int memory_words_at(const struct model *m, int cand, const bool take[], const long *sizes,
		    const long long *values, mpz_t out)
{
	const struct model_candidate *mc = &m->cands[cand];
	mpz_t prod, x, share, bp, rounds;
	mpz_inits(prod, x, share, bp, rounds, NULL);
	mpz_set_ui(out, 0);
	int r = 0;
	for (int a = 0; a < m->narrays && r == 0; a++) {
		if (!take[a] || !model_cand_has(m, cand, a))
			continue;
		const struct model_array *arr = &m->arrays[a];
		mpz_set_si(prod, (long)arr->words);
		for (int d = 0; d < arr->ndims && r == 0; d++) {
			const struct dist *dd = &mc->layout[a][d];
			aff_at(&arr->extent_affs[d], sizes, values, x);
			if (mpz_sgn(x) <= 0) {
				r = -1;
				break;
			}
			long p = dd->kind == DIST_NONE ? 1 : sizes[dd->axis];
			switch (dd->kind) {
			case DIST_NONE:
			case DIST_REPLICATED:
				mpz_set(share, x);
				break;
			case DIST_IDENTITY:
				mpz_set_ui(share, 1);
				break;
			case DIST_BLOCK:
			case DIST_CYCLIC:
				mpz_cdiv_q_ui(share, x, (unsigned long)p);     /* ceil(X/P) */
				break;
			case DIST_BLOCK_CYCLIC: {
				long b = dd->block_param >= 0 ? (long)values[dd->block_param]
							      : (long)dd->block;
				if (b < 1) {
					r = -1;
					break;
				}
				mpz_set_si(bp, b);
				mpz_mul_ui(bp, bp, (unsigned long)p);
				mpz_fdiv_q(rounds, x, bp);                      /* full rounds */
				mpz_submul(x, rounds, bp);                      /* what is left */
				if (mpz_cmp_si(x, b) > 0)
					mpz_set_si(x, b);
				mpz_mul_si(share, rounds, b);
				mpz_add(share, share, x);
				break;
			}
			case DIST_NKINDS:
				r = -1;
				break;
			}
			mpz_mul(prod, prod, share);
		}
		mpz_add(out, out, prod);
	}
	mpz_clears(prod, x, share, bp, rounds, NULL);
	return r;
}
