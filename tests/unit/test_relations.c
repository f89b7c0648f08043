/* The relations of Niculescu's Example 1 (C = A x B, examples/matmul.bsp) on
 * concrete and symbolic grids, checked for every block/cyclic candidate against an independent oracle: plain C loops over
 * the instances with the owner functions written out (block: i / ceil(X/P),
 * cyclic: i mod P), at divisible and non-divisible sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/val.h>

#include "analyzer/check/load.h"
#include "analyzer/model/lower.h"
#include "analyzer/model/model.h"
#include "analyzer/model/relations.h"
#include "analyzer/model/symbolic.h"
#include "analyzer/util/session.h"

/* examples/matmul.bsp through the parser, the checker and the lowering: its
 * candidates are d0..d3 = block or cyclic, and choice() says which. */
static struct loaded_spec spec;

static struct model *matmul_model(void)
{
	assert_int_equal(spec_load(&spec, "examples/matmul.bsp", stderr, NULL), 0);
	char *reason = NULL;
	struct model *m = lower_spec(spec.cs, WORK_TERMS, &reason);
	if (!m)
		fail_msg("examples/matmul.bsp: %s", reason);
	assert_int_equal(m->ndists, 4);
	assert_int_equal(m->narrays, 3);
	return m;
}

static void matmul_free(struct model *m)
{
	model_free(m);
	spec_unload(&spec);
}

/* Bit d of the choice: distribution d (d0..d3) is cyclic. */
static int choice(const struct model *m, int cand)
{
	int c = 0;
	for (int d = 0; d < 4; d++)
		c |= (m->cands[cand].named[d].kind == DIST_CYCLIC) << d;
	return c;
}

static int owner(int cyclic, int i, int extent, int P)
{
	if (cyclic)
		return i % P;
	int b = (extent + P - 1) / P;
	return i / b;
}

/* The oracle: for process (s,t), the number of A and B elements it uses but does
 * not own (fan-in), and the number of (user, element) pairs it owns and others use. */
struct oracle {
	long fan_in, fan_out, work;
};

static struct oracle oracle(int choice, int m, int n, int o, int M, int N, int s, int t)
{
	int k0 = choice & 1, k1 = choice >> 1 & 1, k2 = choice >> 2 & 1, k3 = choice >> 3 & 1;
	struct oracle r = {0, 0, 0};
	/* uses[q][elem]: process q uses element. */
	for (int i = 0; i < m; i++)
		for (int k = 0; k < o; k++) {
			/* A[i][k] is used by every (d0(i), t') that owns some C[i][j]. */
			int ownA_s = owner(k0, i, m, M), ownA_t = owner(k2, k, o, N);
			for (int tt = 0; tt < N; tt++) {
				int used = 0;
				for (int j = 0; j < n && !used; j++)
					used = owner(k1, j, n, N) == tt;
				if (!used)
					continue;
				/* the user (d0(i), tt) shares the row owner d0(i) with A[i][k] */
				int remote = tt != ownA_t;
				if (remote && ownA_s == s && tt == t)
					r.fan_in++;
				if (remote && ownA_s == s && ownA_t == t)
					r.fan_out++;
			}
		}
	for (int k = 0; k < o; k++)
		for (int j = 0; j < n; j++) {
			int ownB_s = owner(k3, k, o, M), ownB_t = owner(k1, j, n, N);
			for (int ss = 0; ss < M; ss++) {
				int used = 0;
				for (int i = 0; i < m && !used; i++)
					used = owner(k0, i, m, M) == ss;
				if (!used)
					continue;
				int remote = !(ss == ownB_s);
				if (remote && ss == s && ownB_t == t)
					r.fan_in++;
				if (remote && ownB_s == s && ownB_t == t)
					r.fan_out++;
			}
		}
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			if (owner(k0, i, m, M) == s && owner(k1, j, n, N) == t)
				r.work += o;
	return r;
}

static long count_set(__isl_take isl_set *set)
{
	isl_val *v = isl_set_count_val(set);
	long r = isl_val_get_num_si(v);
	isl_val_free(v);
	isl_set_free(set);
	return r;
}

static __isl_give isl_map *fix_params(__isl_take isl_map *map, const int vals[3])
{
	for (int p = 0; p < 3; p++)
		map = isl_map_fix_si(map, isl_dim_param, p, vals[p]);
	return map;
}

static void test_matmul_concrete(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	struct model *m = matmul_model();
	static const int sizes[][5] = {
		/* m, n, o, M, N */
		{4, 4, 4, 2, 2}, {6, 4, 6, 2, 2}, {5, 7, 6, 2, 3}, {9, 5, 7, 3, 2}, {3, 3, 3, 3, 3},
	};
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		const int *v = sizes[z];
		long grid[2] = {v[3], v[4]};
		for (int c = 0; c < m->ncands; c++) {
			struct step_relations r;
			char *reason = NULL;
			assert_int_equal(relations_concrete(ctx, m, c, 0, grid, &r, &reason), 0);
			for (int s = 0; s < v[3]; s++)
				for (int t = 0; t < v[4]; t++) {
					struct oracle want = oracle(choice(m, c), v[0], v[1], v[2], v[3], v[4], s, t);
					long fan_in = 0, fan_out = 0, work = 0;
					for (int a = 0; a < 2; a++) {
						isl_map *remote = isl_map_subtract(
							isl_map_copy(r.use[a]),
							isl_map_reverse(isl_map_copy(r.own[a])));
						remote = fix_params(remote, v);
						isl_map *mine = isl_map_fix_si(isl_map_fix_si(isl_map_copy(remote),
							isl_dim_in, 0, s), isl_dim_in, 1, t);
						fan_in += count_set(isl_map_range(mine));
						isl_set *owned = isl_map_domain(isl_map_fix_si(isl_map_fix_si(
							fix_params(isl_map_copy(r.own[a]), v), isl_dim_out, 0, s),
							isl_dim_out, 1, t));
						fan_out += count_set(isl_map_wrap(
							isl_map_intersect_range(remote, owned)));
					}
					isl_map *w = fix_params(isl_map_copy(r.work[0]), v);
					w = isl_map_fix_si(isl_map_fix_si(w, isl_dim_in, 0, s), isl_dim_in, 1, t);
					work = count_set(isl_map_range(w));
					if (fan_in != want.fan_in || fan_out != want.fan_out || work != want.work)
						fail_msg("candidate %d, m=%d n=%d o=%d grid %dx%d, process (%d,%d): "
							 "fan_in %ld (want %ld), fan_out %ld (want %ld), work %ld (want %ld)",
							 c, v[0], v[1], v[2], v[3], v[4], s, t, fan_in, want.fan_in,
							 fan_out, want.fan_out, work, want.work);
				}
			step_relations_clear(&r);
		}
	}
	matmul_free(m);
	isl_ctx_free(ctx);
}

/* Fixes parameter NAME of MAP to V (if MAP has it). */
static __isl_give isl_map *fix_named(__isl_take isl_map *map, const char *name, long v)
{
	int pos = isl_map_find_dim_by_name(map, isl_dim_param, name);
	return pos < 0 ? map : isl_map_fix_si(map, isl_dim_param, pos, (int)v);
}

/* Fixes the size parameters, the axes and every block length X/P. */
static __isl_give isl_map *fix_all(__isl_take isl_map *map, const struct symbolic_info *info,
				   const int v[5])
{
	static const char *const names[] = {"m", "n", "o", "M", "N"};
	for (int i = 0; i < 5; i++)
		map = fix_named(map, names[i], v[i]);
	for (int l = 0; l < info->nlocals; l++) {
		const struct local_param *lp = &info->locals[l];
		int x = -1;
		for (int i = 0; i < 3; i++)
			if (strcmp(lp->extent, names[i]) == 0)
				x = v[i];
		assert_true(x >= 0);
		map = fix_named(map, lp->name, x / (v[3 + lp->axis] * lp->block));
	}
	return map;
}

/* The symbolic-grid relations, with every parameter fixed at divisible sizes,
 * give the oracle's counts for every process. */
static void test_matmul_symbolic(void **state)
{
	(void)state;
	isl_ctx *ctx = session_ctx(NULL);
	struct model *m = matmul_model();
	static const int sizes[][5] = {
		{4, 4, 4, 2, 2}, {6, 4, 6, 2, 2}, {6, 6, 6, 2, 3}, {6, 4, 6, 3, 2}, {3, 3, 3, 3, 3},
		{4, 2, 2, 2, 1},
	};
	for (int c = 0; c < m->ncands; c++) {
		struct step_relations r;
		struct symbolic_info info = {0};
		char *reason = NULL;
		int st = relations_symbolic(ctx, m, c, 0, &r, &info, &reason);
		if (st != 0)
			fail_msg("candidate %d: %s", c, reason ? reason : "?");
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			const int *v = sizes[z];
			for (int s = 0; s < v[3]; s++)
				for (int t = 0; t < v[4]; t++) {
					struct oracle want = oracle(choice(m, c), v[0], v[1], v[2], v[3], v[4], s, t);
					long fan_in = 0, fan_out = 0;
					for (int a = 0; a < 2; a++) {
						isl_map *remote = isl_map_subtract(
							isl_map_copy(r.use[a]),
							isl_map_reverse(isl_map_copy(r.own[a])));
						remote = fix_all(remote, &info, v);
						isl_map *mine = isl_map_fix_si(isl_map_fix_si(isl_map_copy(remote),
							isl_dim_in, 0, s), isl_dim_in, 1, t);
						fan_in += count_set(isl_map_range(mine));
						isl_set *owned = isl_map_domain(isl_map_fix_si(isl_map_fix_si(
							fix_all(isl_map_copy(r.own[a]), &info, v), isl_dim_out, 0, s),
							isl_dim_out, 1, t));
						fan_out += count_set(isl_map_wrap(
							isl_map_intersect_range(remote, owned)));
					}
					isl_map *w = fix_all(isl_map_copy(r.work[0]), &info, v);
					w = isl_map_fix_si(isl_map_fix_si(w, isl_dim_in, 0, s), isl_dim_in, 1, t);
					long work = count_set(isl_map_range(w));
					if (fan_in != want.fan_in || fan_out != want.fan_out || work != want.work)
						fail_msg("symbolic candidate %d, m=%d n=%d o=%d grid %dx%d, process "
							 "(%d,%d): fan_in %ld (want %ld), fan_out %ld (want %ld), "
							 "work %ld (want %ld)",
							 c, v[0], v[1], v[2], v[3], v[4], s, t, fan_in, want.fan_in,
							 fan_out, want.fan_out, work, want.work);
				}
		}
		step_relations_clear(&r);
		symbolic_info_clear(&info);
	}
	matmul_free(m);
	isl_ctx_free(ctx);
}

/* examples/broadcast.bsp assumes n % P == 0: a divisibility by an axis, which
 * no set of the parameters holds, so the model keeps it as a fact checked at
 * values (--verify draws no point outside it).  Checked against n % P at
 * every n in [0, 40) and P in [1, 8], and at 64-bit extremes. */
static void test_broadcast_fact(void **state)
{
	(void)state;
	struct loaded_spec bs;
	assert_int_equal(spec_load(&bs, "examples/broadcast.bsp", stderr, NULL), 0);
	char *reason = NULL;
	struct model *m = lower_spec(bs.cs, WORK_TERMS, &reason);
	if (!m)
		fail_msg("examples/broadcast.bsp: %s", reason);
	assert_int_equal(m->nfacts, 1);
	for (long long n = 0; n < 40; n++)
		for (long long P = 1; P <= 8; P++) {
			long long params[1] = {n}, axes[1] = {P};
			assert_int_equal(model_facts_hold(m, params, axes), n % P == 0);
		}
	long long big[1] = {9223372036854775806LL}, two[1] = {2}, five[1] = {5};
	assert_int_equal(model_facts_hold(m, big, two), 1);
	assert_int_equal(model_facts_hold(m, big, five), 0);
	long long zero[1] = {0}, any[1] = {6};
	assert_int_equal(model_facts_hold(m, any, zero), 0); /* no axis of size 0 */
	model_free(m);
	spec_unload(&bs);
}

/* A failure part way (an ISL operation refused: the deadline's abort, or
 * here the context's operation limit, which ISL checks at the same place)
 * leaves nothing behind: every candidate and superstep of stencil2d (four
 * reads of one array in a statement, whose union takes each in turn) on a
 * 2 x 2 grid, stopped after N operations for N up to the count that
 * succeeds.  Each attempt must fail with a reason or succeed; the sanitized
 * pass (LeakSanitizer) finds what an attempt did not free, as it found the
 * reads so far dropped when the next one failed. */
static void test_stopped_part_way(void **state)
{
	(void)state;
	struct loaded_spec ss;
	assert_int_equal(spec_load(&ss, "examples/stencil2d.bsp", stderr, NULL), 0);
	char *reason = NULL;
	struct model *m = lower_spec(ss.cs, WORK_TERMS, &reason);
	if (!m)
		fail_msg("examples/stencil2d.bsp: %s", reason);
	long sizes[2] = {2, 2};
	isl_ctx *ctx = session_ctx(NULL);
	assert_non_null(ctx);
	int stopped = 0;
	for (int cand = 0; cand < m->ncands; cand++)
		for (int k = 0; k < model_cand_nsteps(m, cand); k++) {
			int s = model_cand_step(m, cand, k);
			for (unsigned long n = 1;; n += 1 + n / 16) {
				struct step_relations r;
				isl_ctx_reset_operations(ctx);
				isl_ctx_set_max_operations(ctx, n);
				int st = relations_concrete(ctx, m, cand, s, sizes, &r, &reason);
				isl_ctx_set_max_operations(ctx, 0);
				isl_ctx_reset_error(ctx);
				if (st == 0) {
					step_relations_clear(&r);
					break;
				}
				assert_int_equal(st, -1);
				assert_non_null(reason);
				free(reason);
				reason = NULL;
				stopped++;
				if (n > 10000000)
					fail_msg("candidate %d, superstep %d: not built in 10^7 operations",
						 cand, s);
			}
		}
	assert_true(stopped > 100);
	session_ctx_free(NULL, ctx);
	model_free(m);
	spec_unload(&ss);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matmul_concrete),
		cmocka_unit_test(test_matmul_symbolic),
		cmocka_unit_test(test_broadcast_fact),
		cmocka_unit_test(test_stopped_part_way),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
