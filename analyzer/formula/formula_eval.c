/* Formulas at a point, and the parameters they depend on: the exact value of a
 * node in its ring (floor atoms computed once per point) and of a formula (the
 * value of the piece whose condition holds there), and the names a formula's
 * values and conditions involve. */
#include <stdlib.h>
#include <string.h>

#include <isl/val.h>

#include "analyzer/formula/formula_internal.h"

/* ---------------------------------------------------------------- evaluation */

int fml_env_init(struct feval_env *env, const struct fvars *V,
	const char *const names[], const long long values[], int n)
{
	slong i;

	env->names = names;
	env->values = values;
	env->n = n;
	env->val = calloc(V->cap + 1, sizeof(fmpq));
	env->state = calloc(V->cap + 1, 1);
	if (!env->val || !env->state) {
		free(env->val);
		free(env->state);
		return -1;
	}
	for (i = 0; i < V->cap + 1; i++)
		fmpq_init(env->val + i);
	return 0;
}

void fml_env_clear(struct feval_env *env, const struct fvars *V)
{
	slong i;

	for (i = 0; i < V->cap + 1; i++)
		fmpq_clear(env->val + i);
	free(env->val);
	free(env->state);
}

static int lookup(const struct feval_env *env, const char *name, long long *v)
{
	int i;

	for (i = 0; i < env->n; i++)
		if (strcmp(env->names[i], name) == 0) {
			*v = env->values[i];
			return 0;
		}
	return -1;
}

static int var_value(const struct fvars *V, slong i, struct feval_env *env)
{
	if (env->state[i] == 1)
		return 0;
	if (V->v[i].name) {
		long long v;
		if (lookup(env, V->v[i].name, &v) < 0)
			return -1;
		fmpz_set_si(fmpq_numref(env->val + i), (slong)v);
		fmpz_one(fmpq_denref(env->val + i));
	} else {
		fmpz_t q;
		if (fml_node_eval(V, V->v[i].arg, env, env->val + i) < 0)
			return -1;
		fmpz_init(q);
		fmpz_fdiv_q(q, fmpq_numref(env->val + i), fmpq_denref(env->val + i));
		fmpz_set(fmpq_numref(env->val + i), q);
		fmpz_one(fmpq_denref(env->val + i));
		fmpz_clear(q);
	}
	env->state[i] = 1;
	return 0;
}

int fml_node_eval(const struct fvars *V, const struct fnode *x,
	struct feval_env *env, fmpq_t out)
{
	slong i;
	int k;

	if (x->kind == FK_POLY) {
		fmpq **vals = calloc(V->cap + 1, sizeof(*vals));
		fmpq_t t;
		int ok = 0;
		if (!vals)
			return -1;
		for (i = 0; i < V->cap; i++) {
			vals[i] = env->val + V->cap; /* the spare slot: 0 */
			if (x->den[i] == 0 && fmpq_mpoly_degree_si(x->num, i, V->ctx) <= 0)
				continue;
			if (var_value(V, i, env) < 0)
				goto done;
			vals[i] = env->val + i;
		}
		if (!fmpq_mpoly_evaluate_all_fmpq(out, x->num, vals, V->ctx))
			goto done;
		fmpq_init(t);
		for (i = 0; i < V->cap; i++) {
			if (x->den[i] == 0)
				continue;
			if (fmpq_is_zero(env->val + i)) {
				fmpq_clear(t);
				goto done;
			}
			fmpq_pow_si(t, env->val + i, x->den[i]);
			fmpq_div(out, out, t);
		}
		fmpq_clear(t);
		ok = 1;
done:
		free(vals);
		return ok ? 0 : -1;
	} else {
		fmpq_t t;
		if (fml_node_eval(V, x->c[0], env, out) < 0)
			return -1;
		fmpq_init(t);
		for (k = 1; k < x->n; k++) {
			if (fml_node_eval(V, x->c[k], env, t) < 0) {
				fmpq_clear(t);
				return -1;
			}
			if (x->kind == FK_ADD)
				fmpq_add(out, out, t);
			else if (x->kind == FK_MUL)
				fmpq_mul(out, out, t);
			else if ((x->kind == FK_MAX) == (fmpq_cmp(t, out) > 0))
				fmpq_set(out, t);
		}
		fmpq_clear(t);
		return 0;
	}
}

int fml_cond_contains(__isl_keep isl_set *cond, const char *const names[],
	const long long values[], int n, bool some)
{
	isl_set *s = isl_set_copy(cond);
	isl_size np = isl_set_dim(s, isl_dim_param);
	isl_bool empty;
	int i, j;

	if (np < 0) {
		isl_set_free(s);
		return -1;
	}
	for (i = np - 1; i >= 0; i--) {
		const char *name = isl_set_get_dim_name(s, isl_dim_param, i);
		for (j = 0; j < n; j++)
			if (name && strcmp(names[j], name) == 0)
				break;
		if (j < n) {
			s = isl_set_fix_val(s, isl_dim_param, i,
				isl_val_int_from_si(isl_set_get_ctx(s), (long)values[j]));
			continue;
		}
		if (!some && isl_set_involves_dims(s, isl_dim_param, i, 1) != isl_bool_false) {
			isl_set_free(s);
			return -1;
		}
		s = isl_set_project_out(s, isl_dim_param, i, 1);
	}
	empty = isl_set_is_empty(s);
	isl_set_free(s);
	return empty < 0 ? -1 : !empty;
}

int formula_eval(const struct formula *f, const char *const names[],
	const long long values[], int n, mpq_t out)
{
	struct feval_env env;
	fmpq_t v;
	int i, r = -1;

	if (!f)
		return -1;
	for (i = 0; i < f->n; i++) {
		int in = f->p[i].cond ? fml_cond_contains(f->p[i].cond, names, values, n, false) : 1;
		if (in < 0)
			return -1;
		if (in)
			break;
	}
	if (i == f->n) {
		if (f->outside != FORMULA_ZERO_OUTSIDE)
			return -1;
		mpq_set_ui(out, 0, 1);
		return 0;
	}
	if (fml_env_init(&env, f->vars, names, values, n) < 0)
		return -1;
	fmpq_init(v);
	if (fml_node_eval(f->vars, f->p[i].val, &env, v) == 0) {
		fmpq_get_mpq(out, v);
		r = 0;
	}
	fmpq_clear(v);
	fml_env_clear(&env, f->vars);
	return r;
}

/* ---------------------------------------------------------------- parameters */

int formula_involves(const struct formula *f, const char *name)
{
	if (!f)
		return -1;
	slong v = fml_vars_find(f->vars, name);
	char *used = v >= 0 ? calloc(f->vars->cap + 1, 1) : NULL;
	if (v >= 0 && !used)
		return -1;
	int r = 0;
	for (int i = 0; i < f->n && !r; i++) {
		if (used) {
			fml_node_used(f->vars, f->p[i].val, used);
			r = used[v] != 0;
		}
		if (!r && f->p[i].cond) {
			int pos = isl_set_find_dim_by_name(f->p[i].cond, isl_dim_param, name);
			isl_bool inv = pos < 0 ? isl_bool_false
				: isl_set_involves_dims(f->p[i].cond, isl_dim_param, (unsigned)pos, 1);
			r = inv < 0 ? -1 : inv == isl_bool_true;
		}
	}
	free(used);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **formula_params(const struct formula *f, int *n)
{
	char *used;
	char **names;
	int count = 0, size = 0, i;
	slong j;

	*n = 0;
	if (!f)
		return NULL;
	used = calloc(f->vars->cap + 1, 1);
	if (!used)
		return NULL;
	for (i = 0; i < f->n; i++) {
		fml_node_used(f->vars, f->p[i].val, used);
		if (f->p[i].cond) {
			isl_size np = isl_set_dim(f->p[i].cond, isl_dim_param);
			if (np < 0) {
				free(used);
				return NULL;
			}
			size += np;
		}
	}
	size += f->vars->n + 1;
	names = calloc(size, sizeof(*names));
	if (!names) {
		free(used);
		return NULL;
	}
	for (j = 0; j < f->vars->n; j++)
		if (used[j] && f->vars->v[j].name &&
		    !(names[count++] = strdup(f->vars->v[j].name)))
			goto error;
	for (i = 0; i < f->n; i++) {
		isl_size np;
		int k;
		if (!f->p[i].cond)
			continue;
		np = isl_set_dim(f->p[i].cond, isl_dim_param);
		for (k = 0; k < np; k++)
			if (isl_set_involves_dims(f->p[i].cond, isl_dim_param, k, 1) ==
			    isl_bool_true &&
			    !(names[count++] = strdup(
				    isl_set_get_dim_name(f->p[i].cond, isl_dim_param, k))))
				goto error;
	}
	free(used);
	qsort(names, count, sizeof(*names), cmp_str);
	for (i = 0, j = 0; i < count; i++) {
		if (j > 0 && strcmp(names[j - 1], names[i]) == 0) {
			free(names[i]);
			continue;
		}
		names[j++] = names[i];
	}
	*n = (int)j;
	return names;
error:
	/* the last name is the NULL that failed */
	formula_params_free(names, count);
	free(used);
	return NULL;
}

void formula_params_free(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
