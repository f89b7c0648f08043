/* Points of a piece's condition at which a polynomial is evaluated before a
 * proof of its sign is looked for (fml_both_signs_at_points): where it is > 0
 * at one and < 0 at another, no proof can show a sign, and none is searched
 * for.  A hint, never a proof: a point not found only leaves the proof to
 * be tried. */
#include <limits.h>
#include <stdlib.h>

#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include "analyzer/formula/formula_internal.h"

/* The coordinates of PT (taken) as the next row of OC's points, its index;
 * -2 when it is no point or a coordinate is too large to evaluate at. */
static int add_sign_point(struct fml_on_cond *oc, __isl_take isl_point *pt)
{
	bool ok = pt && isl_point_is_void(pt) == isl_bool_false;
	long long *row = oc->pts + (size_t)oc->npts * (size_t)oc->pt_np;
	for (int k = 0; ok && k < oc->pt_np; k++) {
		isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_param, (unsigned)k);
		ok = v && isl_val_is_int(v) && isl_val_cmp_si(v, LLONG_MAX / 2) <= 0 &&
		     isl_val_cmp_si(v, LLONG_MIN / 2) >= 0;
		if (ok)
			row[k] = isl_val_get_num_si(v);
		isl_val_free(v);
	}
	isl_point_free(pt);
	return ok ? oc->npts++ : -2;
}

/* The values at a point of OC's condition found way S: 0 a sample point,
 * 1 + 2*k (2 + 2*k) one where parameter k of the condition is larger
 * (smaller) than at the sample; NULL when there is none, or ISL fails
 * (a hint only: the sign is then asked of a proof).  Each is looked for
 * once. */
static const long long *sign_point(struct fml_on_cond *oc, int s)
{
	if (!oc->row) {
		isl_size np = isl_set_dim(oc->cond, isl_dim_param);
		size_t nways = np > 0 ? 2 * (size_t)np + 1 : 0;
		oc->pt_names = nways ? calloc((size_t)np, sizeof(*oc->pt_names)) : NULL;
		oc->pts = nways ? calloc((size_t)np * nways, sizeof(*oc->pts)) : NULL;
		oc->row = nways ? malloc(sizeof(*oc->row) * nways) : NULL;
		if (!oc->pt_names || !oc->pts || !oc->row) {
			free(oc->pt_names);
			free(oc->pts);
			free(oc->row);
			oc->pt_names = NULL;
			oc->pts = NULL;
			oc->row = NULL;
			return NULL;
		}
		oc->pt_np = (int)np;
		for (int k = 0; k < oc->pt_np; k++)
			oc->pt_names[k] = isl_set_get_dim_name(oc->cond, isl_dim_param, (unsigned)k);
		for (size_t w = 0; w < nways; w++)
			oc->row[w] = -1;
	}
	if (oc->row[s] == -1) {
		const long long *at = s > 0 ? sign_point(oc, 0) : NULL;
		int k = (s - 1) / 2;
		isl_set *part = NULL;
		if (s == 0)
			part = isl_set_copy(oc->cond);
		else if (at && at[k] > INT_MIN + 1 && at[k] < INT_MAX - 1)
			part = s % 2 ? isl_set_lower_bound_si(isl_set_copy(oc->cond), isl_dim_param,
							      (unsigned)k, (int)(at[k] + 1))
				     : isl_set_upper_bound_si(isl_set_copy(oc->cond), isl_dim_param,
							      (unsigned)k, (int)(at[k] - 1));
		oc->row[s] = part ? add_sign_point(oc, isl_set_sample_point(part)) : -2;
		if (oc->row[s] < 0)
			isl_ctx_reset_error(isl_set_get_ctx(oc->cond));
	}
	return oc->row[s] >= 0 ? oc->pts + (size_t)oc->row[s] * (size_t)oc->pt_np : NULL;
}

/* The sign of X at VALUES of OC's names: 1, -1, 0, or 2 when X has no value
 * there (a variable the condition does not name, a zero denominator). */
static int sign_at(const struct fvars *V, const struct fnode *x, const struct fml_on_cond *oc,
		   const long long *values)
{
	struct feval_env env;
	if (fml_env_init(&env, V, oc->pt_names, values, oc->pt_np) != 0)
		return 2;
	fmpq_t v;
	fmpq_init(v);
	int sign = fml_node_eval(V, x, &env, v) == 0 ? fmpq_sgn(v) : 2;
	fmpq_clear(v);
	fml_env_clear(&env, V);
	return sign;
}

/* Whether X is > 0 at one point of OC's condition and < 0 at another: then
 * no proof can show it >= 0 or <= 0 there, and none is looked for (each is
 * sound; the points only spare a search that cannot succeed).  The points:
 * a sample, and those a step beyond it along each parameter X names. */
bool fml_both_signs_at_points(const struct fvars *V, const struct fnode *x,
				 struct fml_on_cond *oc)
{
	const long long *at = sign_point(oc, 0);
	int first = at ? sign_at(V, x, oc, at) : 2;
	bool pos = first == 1, neg = first == -1;
	for (slong i = 0; at && i < V->n && !(pos && neg); i++) {
		if (!V->v[i].name || (x->den[i] == 0 && fmpq_mpoly_degree_si(x->num, i, V->ctx) <= 0))
			continue;
		int k = isl_set_find_dim_by_name(oc->cond, isl_dim_param, V->v[i].name);
		for (int dir = 1; k >= 0 && dir <= 2 && !(pos && neg); dir++) {
			const long long *p = sign_point(oc, 2 * k + dir);
			int sg = p ? sign_at(V, x, oc, p) : 2;
			pos = pos || sg == 1;
			neg = neg || sg == -1;
		}
	}
	return pos && neg;
}
