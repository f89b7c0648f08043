/* Table-driven tests of the counting engine (as isl_test.c is): named sets with
 * their known counts.  Each entry is one cmocka test.
 *
 * An expected count is an ISL piecewise quasi-polynomial written by hand from the
 * closed form; the engine's result is compared with it at many parameter values,
 * and the set itself is enumerated (isl_set_count_val with the parameters fixed) at
 * the same values, so a wrong expectation fails as surely as a wrong engine.  An
 * entry without an expected formula is checked against enumeration only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <flint/flint.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/polynomial.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include "analyzer/count/count.h"
#include <gmp.h>

#include "analyzer/formula/formula.h"
#include "analyzer/util/session.h"

/* Entries leave out the trailing fields their kind does not use. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

enum kind {
	K_COUNT,   /* count_points(set) == expect */
	K_SUM,     /* count_sum(set, weight) == expect */
	K_MAX,     /* count_max_of_count(set, nmax) == expect */
	K_REFUSED, /* count_points must refuse */
	K_MAX_REFUSED, /* count_max_of_count(set, nmax) must refuse */
};

struct entry {
	const char *name;
	enum kind kind;
	const char *set;
	const char *expect; /* NULL: enumeration only (K_COUNT) */
	const char *weight; /* K_SUM */
	int nmax;           /* K_MAX */
};

static const struct entry table[] = {
	/* boxes */
	{"box_1d", K_COUNT, "[n] -> { [i] : 0 <= i < n }", "[n] -> { n : n >= 0 }"},
	{"box_2d", K_COUNT, "[n,m] -> { [i,j] : 0 <= i < n and 0 <= j < m }",
	 "[n,m] -> { n*m : n >= 0 and m >= 0 }"},
	{"box_3d", K_COUNT, "[n,m,k] -> { [i,j,l] : 0 <= i < n and 0 <= j < m and 0 <= l < k }",
	 "[n,m,k] -> { n*m*k : n >= 0 and m >= 0 and k >= 0 }"},
	{"box_offset", K_COUNT, "[n] -> { [i] : 2 <= i <= n + 5 }", "[n] -> { n + 4 : n >= -4 }"},
	{"box_square_negative_params", K_COUNT, "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n }",
	 "[n] -> { n*n : n >= 0 }"},
	{"constant_triangle", K_COUNT, "{ [i,j] : 0 <= i < 10 and 0 <= j < i }", "{ 45 }"},
	/* triangles and tetrahedra */
	{"triangle", K_COUNT, "[n] -> { [i,j] : 0 <= i < n and 0 <= j <= i }",
	 "[n] -> { 1/2*n*n + 1/2*n : n >= 0 }"},
	{"triangle_strict", K_COUNT, "[n] -> { [i,j] : 0 <= j < i < n }",
	 "[n] -> { 1/2*n*n - 1/2*n : n >= 0 }"},
	{"tetrahedron", K_COUNT, "[n] -> { [i,j,k] : 0 <= k <= j <= i < n }",
	 "[n] -> { 1/6*n*n*n + 1/2*n*n + 1/3*n : n >= 0 }"},
	{"tetrahedron_strict", K_COUNT, "[n] -> { [i,j,k] : 0 <= k < j < i < n }",
	 "[n] -> { 1/6*n*n*n - 1/2*n*n + 1/3*n : n >= 0 }"},
	{"triangle_two_params", K_COUNT, "[n,m] -> { [i,j] : 0 <= i < n and 0 <= j <= i and j < m }",
	 NULL},
	{"simplex_4d", K_COUNT, "[n] -> { [i,j,k,l] : 0 <= l <= k <= j <= i < n }",
	 "[n] -> { 1/24*n*n*n*n + 1/4*n*n*n + 11/24*n*n + 1/4*n : n >= 0 }"},
	/* holes */
	{"hole_diagonal", K_COUNT, "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n and i != j }",
	 "[n] -> { n*n - n : n >= 0 }"},
	{"hole_point", K_COUNT, "[n] -> { [i] : 0 <= i < n and i != 3 }",
	 "[n] -> { n - 1 : n >= 4; n : 0 <= n <= 3 }"},
	{"hole_two_lines", K_COUNT,
	 "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n and i != 0 and j != n - 1 }",
	 "[n] -> { (n - 1)*(n - 1) : n >= 1 }"},
	/* stencils */
	{"stencil_1d_pairs", K_COUNT,
	 "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n and (j = i - 1 or j = i + 1) }",
	 "[n] -> { 2*n - 2 : n >= 1 }"},
	{"stencil_1d_radius2", K_COUNT,
	 "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n and -2 <= j - i <= 2 and j != i }",
	 "[n] -> { 4*n - 6 : n >= 3; 2 : n = 2 }"},
	{"stencil_2d_5point", K_COUNT,
	 "[n,m] -> { [i,j,k,l] : 0 <= i,k < n and 0 <= j,l < m and "
	 "((k = i + 1 and l = j) or (k = i - 1 and l = j) or (k = i and l = j + 1) or "
	 "(k = i and l = j - 1)) }",
	 "[n,m] -> { 4*n*m - 2*n - 2*m : n >= 1 and m >= 1 }"},
	{"stencil_block_halo", K_COUNT,
	 "[n] -> { [i] : 0 <= i < n and (i = 4*floor((n+3)/4) - 1 or i = 2*floor((n+3)/4)) }",
	 NULL},
	/* block ownership */
	{"block_first", K_COUNT, "[n] -> { [i] : 0 <= i < n and i < floor((n + 3)/4) }",
	 "[n] -> { floor((n + 3)/4) : n >= 0 }"},
	{"block_second_ceil", K_COUNT,
	 "[n] -> { [i] : 0 <= i < n and ceil(n/4) <= i < 2*ceil(n/4) }",
	 "[n] -> { floor((n + 3)/4) : n >= 2 }"},
	{"block_ragged_last", K_COUNT, "[n] -> { [i] : 3*floor((n + 3)/4) <= i < n }",
	 "[n] -> { n - 3*floor((n + 3)/4) : n >= 3*floor((n + 3)/4) }"},
	{"block_symbolic_grid", K_COUNT, "[P,b] -> { [s,u] : 0 <= s < P and 0 <= u < b }",
	 "[P,b] -> { P*b : P >= 0 and b >= 0 }"},
	{"block_2d_concrete", K_COUNT,
	 "[m,o] -> { [i,k] : 0 <= i < m and 0 <= k < o and floor((m + 3)/4) <= i < "
	 "2*floor((m + 3)/4) and not (2*floor((o + 3)/4) <= k < 3*floor((o + 3)/4)) }",
	 NULL},
	/* cyclic and block-cyclic ownership */
	{"cyclic_concrete", K_COUNT, "[n] -> { [i] : 0 <= i < n and i mod 4 = 1 }",
	 "[n] -> { floor((n + 2)/4) : n >= 0 }"},
	{"cyclic_symbolic_offset", K_COUNT, "[n,s] -> { [i] : 0 <= i < n and exists e : i = 4e + s }",
	 "[n,s] -> { floor((n - 1 - s)/4) + floor(s/4) + 1 : n >= 1 }"},
	{"cyclic_2d_symbolic", K_COUNT,
	 "[n,m,s,t] -> { [i,j] : 0 <= i < n and 0 <= j < m and exists e, f : i = 2e + s and "
	 "j = 3f + t }",
	 "[n,m,s,t] -> { (floor((n - 1 - s)/2) + floor(s/2) + 1) * (floor((m - 1 - t)/3) + "
	 "floor(t/3) + 1) : n >= 1 and m >= 1 }"},
	{"block_cyclic_concrete", K_COUNT,
	 "[n] -> { [i] : 0 <= i < n and exists e : 0 <= i - 8e - 2 <= 1 }",
	 "[n] -> { floor((n + 5)/8) + floor((n + 4)/8) : n >= 0 }"},
	{"block_cyclic_symbolic", K_COUNT,
	 "[n,s] -> { [i] : 0 <= i < n and 0 <= s <= 3 and exists e : 0 <= i - 8e - 2s <= 1 }",
	 "[n,s] -> { floor((n - 1 - 2s)/8) + floor((n - 2 - 2s)/8) + 2 : n >= 1 and 0 <= s <= 3 }"},
	/* one index dealt cyclic(4) over two axes of 2 and 8 processes (PDGEMM's
	 * A[i][l] read by the column of l's owner): the two congruences share
	 * the factor 2, so q0 and q1 must agree mod 2; 4 * 4 elements then */
	{"block_cyclic_two_axes", K_COUNT,
	 "[q0,q1] -> { [e] : 0 <= q0 <= 1 and 0 <= q1 <= 7 and 0 <= e < 128 and "
	 "exists a, b : 0 <= e - 32a - 4q1 <= 3 and 0 <= e - 8b - 4q0 <= 3 }",
	 "[q0,q1] -> { 16 : 0 <= q0 <= 1 and 0 <= q1 <= 7 and (q1 - q0) mod 2 = 0 }"},
	{"block_cyclic_two_axes_2d", K_COUNT,
	 "[q0,q1,n] -> { [e,f] : 0 <= q0 <= 1 and 0 <= q1 <= 3 and 0 <= e < n and 0 <= f < n and "
	 "exists a, b, c : 0 <= e - 8a - 2q1 <= 1 and 0 <= e - 4b - 2q0 <= 1 and "
	 "0 <= f - 8c - 2q1 <= 1 }", NULL},
	/* pairs (process, element) of an index dealt cyclic(4) over 3 and 128
	 * processes (PDGEMM's NCom on 3 x 128), no parameters: the coordinates
	 * are each determined by an element (summed out at once), and a block
	 * of 128 has more residues than are split: its few values are counted
	 * one by one */
	{"pairs_coprime_axes", K_COUNT,
	 "{ [q0, q1, e0, e1] : 0 <= q0 <= 2 and 0 <= q1 <= 127 and 0 <= e0 < 1536 and "
	 "0 <= e1 < 1024 and -3 - 4q1 + e0 <= 512*floor((e0)/512) <= -4q1 + e0 and "
	 "-3 - 4q0 + e0 <= 12*floor((e0)/12) <= -4q0 + e0 and "
	 "-3 - 4q1 + e1 <= 512*floor((e1)/512) <= -4q1 + e1 }", "{ 12288 }"},
	/* an equality whose coefficients are coprime and none a unit: Pugh's
	 * reduction (it looped until the slots ran out) */
	{"equality_coprime_no_unit", K_COUNT,
	 "[n] -> { [a,b,c] : 0 <= a < n and 0 <= b < n and 0 <= c < n and 6a + 10b + 15c = 60 }",
	 NULL},
	/* no parameters, counted slice by slice, each slice reducing equalities
	 * of its own (the slices once kept each other's slots: refused) */
	{"slices_with_equalities", K_COUNT,
	 "{ [a,b,i,j] : 0 <= a <= 100 and 0 <= b <= 100 and b - 50 <= a <= b + 50 and "
	 "0 <= 6a + 10b - 3i <= 1 and 0 <= i < 300 and j >= 0 and 97j <= 89i and "
	 "71j >= 67i - 500 }", "{ 7347 }"},
	{"cyclic_not_owner", K_COUNT,
	 "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n and (i - j) mod 3 != 0 }", NULL},
	/* unions with overlap, empty sets */
	{"union_overlap_1d", K_COUNT, "[n,m] -> { [i] : 0 <= i < n or 0 <= i < m }",
	 "[n,m] -> { n : n >= m and n >= 0; m : m > n and m >= 0 }"},
	{"union_overlap_2d", K_COUNT,
	 "[n] -> { [i,j] : (0 <= i < n and 0 <= j < n) or (0 <= i < 2n and j = 0) }",
	 "[n] -> { n*n + n : n >= 0 }"},
	{"union_three", K_COUNT, "[n] -> { [i] : 0 <= i < n or 5 <= i < 10 or i = 20 }",
	 "[n] -> { 6 : n <= 0; n + 6 : 1 <= n <= 4; 11 : 5 <= n <= 10; n + 1 : 11 <= n <= 20; "
	 "n : n >= 21 }"},
	{"empty_contradiction", K_COUNT, "[n] -> { [i] : 0 <= i < n and i > n }", "[n] -> { 0 }"},
	{"empty_parity", K_COUNT, "[n] -> { [i] : 2i = 2n + 1 }", "[n] -> { 0 }"},
	{"empty_no_params", K_COUNT, "{ [i,j] : 0 <= i < 5 and i + j > 10 and j < 3 }", "{ 0 }"},
	/* equalities, strides, floors, non-unit coefficients */
	{"equality_unit", K_COUNT, "[n] -> { [i,j] : 0 <= i < n and j = 2i + 1 }",
	 "[n] -> { n : n >= 0 }"},
	{"equality_nonunit", K_COUNT, "[n] -> { [i,j] : 2i = 3j and 0 <= i < n }",
	 "[n] -> { floor((n + 2)/3) : n >= 0 }"},
	{"equality_parameter_parity", K_COUNT, "[n] -> { [i] : 0 <= i < 3n and 2i = 3n - 3 }",
	 "[n] -> { 1 : n >= 1 and (n + 1) mod 2 = 0 }"},
	{"stride_existential", K_COUNT, "[n] -> { [i] : exists e : i = 3e and 0 <= i <= n }",
	 "[n] -> { floor(n/3) + 1 : n >= 0 }"},
	{"mod_constraint", K_COUNT, "[n] -> { [i] : 0 <= i < n and i mod 3 = 1 }",
	 "[n] -> { floor((n + 1)/3) : n >= 0 }"},
	{"floor_in_constraint", K_COUNT, "[n] -> { [i] : 0 <= i and floor(i/2) < n }",
	 "[n] -> { 2*n : n >= 0 }"},
	{"nonunit_half_triangle", K_COUNT, "[n] -> { [i,j] : 0 <= i < n and 0 <= 2j <= i }",
	 "[n] -> { n + floor(n/2)*floor((n - 1)/2) : n >= 0 }"},
	{"nonunit_two_thirds", K_COUNT, "[n] -> { [i,j] : 0 <= 3j <= 2i and i < n }", NULL},
	{"nonunit_rational_simplex", K_COUNT, "[n] -> { [i,j] : 0 <= i and 0 <= j and 2i + 3j <= n }",
	 NULL},
	{"nonunit_both_sides", K_COUNT, "[n,m] -> { [i] : n <= 3i <= m }",
	 "[n,m] -> { floor(m/3) - floor((n + 2)/3) + 1 : floor(m/3) >= floor((n + 2)/3) }"},
	/* transposes and matrix multiplication */
	{"transpose_pairs", K_COUNT,
	 "[n] -> { [i,j,k,l] : 0 <= i < n and 0 <= j < n and k = j and l = i }",
	 "[n] -> { n*n : n >= 0 }"},
	{"transpose_block_offdiag", K_COUNT,
	 "[n] -> { [i,j] : 0 <= i < n and 0 <= j < n and floor(i/4) != floor(j/4) }", NULL},
	{"matmul_fan_in_A_symbolic", K_COUNT,
	 "[mb,N,ob,t] -> { [u,ta,ka] : 0 <= t < N and 0 <= u < mb and 0 <= ta < N and ta != t and "
	 "0 <= ka < ob }",
	 "[mb,N,ob,t] -> { mb*(N - 1)*ob : mb >= 0 and ob >= 0 and 0 <= t < N }"},
	{"matmul_ncom_symbolic", K_COUNT,
	 "[M,N,mb,ob] -> { [s,t,u,ta,ka] : 0 <= s < M and 0 <= t < N and 0 <= u < mb and "
	 "0 <= ta < N and ta != t and 0 <= ka < ob }",
	 "[M,N,mb,ob] -> { M*N*mb*(N - 1)*ob : M >= 0 and mb >= 0 and ob >= 0 and N >= 1 }"},
	/* products: summation variables in groups that no constraint ties
	 * (solve_apart), summed group by group and multiplied; rows of blocks of
	 * 2 dealt over 2 on both axes, beyond a pivot k (LU's trailing
	 * update at one process) */
	{"product_block_cyclic_trailing", K_COUNT,
	 "[n,k] -> { [i,j] : k < i < n and k < j < n and i mod 4 >= 2 and j mod 4 < 2 }"},
	{"product_cyclic_residues", K_COUNT,
	 "[n,k] -> { [i,j] : k < i < n and k < j < n and i mod 4 = 1 and j mod 8 = 3 }"},
	{"product_three_groups", K_COUNT,
	 "[n,m] -> { [i,j,l] : 0 <= i < n and i mod 3 = 0 and 0 <= j < m and j mod 2 = 1 and "
	 "0 <= l <= n - m }"},
	{"product_param_condition", K_COUNT,
	 "[n,m] -> { [i,j] : 0 <= i < n and 0 <= j < m and n >= m + 2 }",
	 "[n,m] -> { n*m : m >= 0 and n >= m + 2 }"},
	{"product_one_group_empty", K_COUNT,
	 "[n,m] -> { [i,j] : 0 <= i < n and m <= j < 3 }",
	 "[n,m] -> { n*(3 - m) : n >= 0 and m <= 3 }"},
	/* a product whose groups' sums run out of ISL operations: summed whole
	 * instead, with the operations the groups used given back (exact, 16
	 * pieces); and one whose product has more pieces than the limit: refused,
	 * as the whole is */
	{"product_fallback_whole", K_COUNT,
	 "[n,m] -> { [i,j,l] : -n + 1 <= i <= 2n + m - 1 and i mod 3 < 2 and m - 1 <= j <= 0 and "
	 "i mod 2 = j mod 2 and 2n - m - 3 <= l <= n + 3 and l mod 2 < 1 }"},
	{"product_piece_limit", K_REFUSED,
	 "[n,m] -> { [i,j] : n + 2m + 3 <= i <= m - 2 and i mod 4 < 3 and m + 1 <= j <= 2n - m + 2 "
	 "and j mod 3 < 2 }"},
	/* weighted sums */
	{"sum_i_over_triangle", K_SUM, "[n] -> { [i,j] : 0 <= i < n and 0 <= j <= i }",
	 "[n] -> { 1/3*n*n*n - 1/3*n : n >= 0 }", "[n] -> { [i,j] -> i }"},
	{"sum_work_o_per_element", K_SUM, "[m,n,o] -> { [i,j] : 0 <= i < m and 0 <= j < n }",
	 "[m,n,o] -> { m*n*o : m >= 0 and n >= 0 }", "[m,n,o] -> { [i,j] -> o }"},
	{"sum_j_squared", K_SUM, "[n,m] -> { [i,j] : 0 <= i < n and 0 <= j < m }",
	 "[n,m] -> { n*(1/3*m*m*m - 1/2*m*m + 1/6*m) : n >= 0 and m >= 0 }",
	 "[n,m] -> { [i,j] -> j*j }"},
	/* the weight on one group of a product (summed with it), on both (no
	 * product: summed whole), and a condition on the parameters alone */
	{"sum_weight_one_group_of_product", K_SUM,
	 "[n,m] -> { [i,j] : 0 <= i < n and 0 <= j < m and n >= 3 }",
	 "[n,m] -> { 1/2*n*n*m - 1/2*n*m : n >= 3 and m >= 0 }", "[n,m] -> { [i,j] -> i }"},
	{"sum_weight_ties_groups", K_SUM, "[n,m] -> { [i,j] : 0 <= i < n and 0 <= j < m }",
	 "[n,m] -> { 1/4*n*n*m*m - 1/4*n*n*m - 1/4*n*m*m + 1/4*n*m : n >= 0 and m >= 0 }",
	 "[n,m] -> { [i,j] -> i*j }"},
	{"sum_piecewise_weight", K_SUM, "[n] -> { [i] : 0 <= i < n }",
	 "[n] -> { 2*n : 0 <= n <= 5; n + 5 : n > 5 }",
	 "[n] -> { [i] -> 2 : i < 5; [i] -> 1 : i >= 5 }"},
	/* floors in the weight: lifted into dimensions of the set (by hand:
	 * sum of floor(i/2) over i < n is m*(m-1) at n = 2m, m*m at n = 2m + 1) */
	{"sum_floor_weight", K_SUM, "[n] -> { [i] : 0 <= i < n }",
	 "[n] -> { floor(n/2)*floor((n-1)/2) : n >= 0 }", "[n] -> { [i] -> floor(i/2) }"},
	{"sum_param_floor_weight", K_SUM, "[n,m] -> { [i] : 0 <= i < n }",
	 "[n,m] -> { n*floor(m/3) : n >= 0 }", "[n,m] -> { [i] -> floor(m/3) }"},
	{"sum_mixed_floor_weight", K_SUM, "[n] -> { [i,j] : 0 <= i < n and 0 <= j < 3 }",
	 "[n] -> { 3*floor(n/2)*floor((n-1)/2) + 3*n*floor(n/4) : n >= 0 }",
	 "[n] -> { [i,j] -> floor(i/2) + floor(n/4) }"},
	/* maximum over process coordinates, concrete P = 4 */
	{"max_cyclic_P4", K_MAX, "[n] -> { [s,i] : 0 <= s < 4 and 0 <= i < n and i mod 4 = s }",
	 "[n] -> { floor((n + 3)/4) : n >= 0 }", NULL, 1},
	{"max_block_P4", K_MAX,
	 "[n] -> { [s,i] : 0 <= i < n and ((s = 0 and i < floor((n+3)/4)) or (s = 1 and "
	 "floor((n+3)/4) <= i < 2*floor((n+3)/4)) or (s = 2 and 2*floor((n+3)/4) <= i < "
	 "3*floor((n+3)/4)) or (s = 3 and 3*floor((n+3)/4) <= i)) }",
	 "[n] -> { floor((n + 3)/4) : n >= 0 }", NULL, 1},
	{"max_cyclic_2x2_grid", K_MAX,
	 "[n,m] -> { [s,t,i,j] : 0 <= s < 2 and 0 <= t < 2 and 0 <= i < n and 0 <= j < m and "
	 "i mod 2 = s and j mod 2 = t }",
	 "[n,m] -> { floor((n + 1)/2)*floor((m + 1)/2) : n >= 0 and m >= 0 }", NULL, 2},
	{"max_cyclic_times_param", K_MAX,
	 "[m,o] -> { [s,i,k] : 0 <= s < 4 and 0 <= i < m and 0 <= k < o and i mod 4 = s }",
	 "[m,o] -> { floor((m + 3)/4)*o : m >= 0 and o >= 0 }", NULL, 1},
	{"max_independent_of_process", K_MAX,
	 "[mb,o] -> { [s,u,k] : 0 <= s < 4 and 0 <= u < mb and 0 <= k < o }",
	 "[mb,o] -> { mb*o : mb >= 0 and o >= 0 }", NULL, 1},
	/* symbolic grid: each process's count is constant, the boundary processes
	 * (s = 0, s = M - 1) own one element fewer of the interior 1 <= i <= n - 2 */
	{"max_block_halo_symbolic", K_MAX,
	 "[M,L] -> { [s,u] : M >= 1 and L >= 3 and 0 <= s < M and 0 <= u < L and "
	 "(s >= 1 or u >= 1) and (s <= M - 2 or u <= L - 2) }",
	 "[M,L] -> { L : M >= 3 and L >= 3; L - 1 : M = 2 and L >= 3; L - 2 : M = 1 and L >= 3 }",
	 NULL, 1},
	/* values that depend on the maximized variable: s on 0 <= s <= N - 3,
	 * affine (ISL's parametric maximum), and (N - s)^2 on the two values
	 * s = N - 2, N - 1 (fixed one by one): max(N - 3, 4) */
	{"max_affine_and_spread", K_MAX,
	 "[N] -> { [s,i,j] : s >= 0 and ((s <= N - 3 and 0 <= i < s and j = 0) or "
	 "(N - 2 <= s <= N - 1 and 0 <= i < N - s and 0 <= j < N - s)) }",
	 "[N] -> { 1 : N = 1; 4 : 2 <= N <= 7; N - 3 : N >= 8 }", NULL, 1},
	/* honest refusals */
	/* route 3c's maximum would be an affine function with a floor of a floor,
	 * which ISL 0.25 turns into a wrong quasi-polynomial (21 instead of 27 at
	 * n = 5, m = 1): refused, not printed */
	{"refuse_nested_floor_max", K_MAX_REFUSED,
	 "[n,m] -> { [e,f,k] : 0 <= k < n-1-m+2e+2f and (n) mod 2 = 1 and (e) mod 3 = 0 and "
	 "(f) mod 2 = 0 and n >= 3 and m > 0 and 0 <= e <= 2+n and f >= -1+e and "
	 "5-n <= f <= 5+m and f <= 3+n and 2f > -n+m-2e }", NULL, NULL, 2},
	{"refuse_unbounded", K_REFUSED, "[n] -> { [i] : i >= n }", NULL},
	{"refuse_unbounded_2d", K_REFUSED, "[n] -> { [i,j] : 0 <= i < n and j >= i }", NULL},
};

static isl_ctx *ctx;
static struct count_engine eng;

static int setup(void **state)
{
	(void)state;
	ctx = session_ctx(NULL);
	count_engine_init(&eng, ctx);
	return ctx ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	isl_ctx_free(ctx);
	flint_cleanup(); /* FLINT's mpz cache, so valgrind sees no possible leaks */
	return 0;
}

static uint64_t rng = 88172645463325252ULL;

static long long rnd_in(int lo, int hi)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return lo + (long long)(rng % (uint64_t)(hi - lo + 1));
}

/* The parameter points: a full grid for one or two parameters, random ones
 * (including the all-zero and all-negative points) beyond. */
static int points(int np, long long (*pts)[8], int max)
{
	int n = 0;
	if (np == 0) {
		return 1;
	} else if (np == 1) {
		for (int a = -4; a <= 14 && n < max; a++)
			pts[n++][0] = a;
	} else if (np == 2) {
		for (int a = -3; a <= 9; a++)
			for (int b = -3; b <= 9 && n < max; b++) {
				pts[n][0] = a;
				pts[n++][1] = b;
			}
	} else {
		for (int k = 0; k < np; k++) {
			pts[0][k] = 0;
			pts[1][k] = -1;
		}
		n = 2;
		while (n < max && n < 150) {
			for (int k = 0; k < np; k++)
				pts[n][k] = rnd_in(-2, 7);
			n++;
		}
	}
	return n;
}

static long long brute(isl_set *set, const long long *v)
{
	isl_size np = isl_set_dim(set, isl_dim_param);
	isl_set *s = isl_set_copy(set);
	for (int p = 0; p < np; p++)
		s = isl_set_fix_si(s, isl_dim_param, (unsigned)p, (int)v[p]);
	s = isl_set_project_out(s, isl_dim_param, 0, (unsigned)np);
	isl_val *c = isl_set_count_val(s);
	isl_set_free(s);
	long long r = c && isl_val_is_int(c) ? isl_val_get_num_si(c) : -1;
	isl_val_free(c);
	return r;
}

static long long eval(isl_pw_qpolynomial *pw, isl_space *space, const long long *v)
{
	isl_size np = isl_space_dim(space, isl_dim_param);
	const char *names[8];
	for (int k = 0; k < np; k++)
		names[k] = isl_space_get_dim_name(space, isl_dim_param, (unsigned)k);
	char *why;
	isl_val *r = count_eval(pw, np, names, v, &why);
	free(why);
	long long x = r && isl_val_is_int(r) ? isl_val_get_num_si(r) : -999999;
	isl_val_free(r);
	return x;
}

static void run_entry(void **state)
{
	const struct entry *e = *state;
	isl_set *set = isl_set_read_from_str(ctx, e->set);
	assert_non_null(set);
	isl_pw_qpolynomial *got = NULL;
	char *why = NULL;
	enum count_status st;
	switch (e->kind) {
	case K_SUM: {
		isl_pw_qpolynomial *w = isl_pw_qpolynomial_read_from_str(ctx, e->weight);
		assert_non_null(w);
		st = count_sum(&eng, set, w, &got, &why);
		isl_pw_qpolynomial_free(w);
		break;
	}
	case K_MAX:
	case K_MAX_REFUSED:
		st = count_max_of_count(&eng, set, e->nmax, &got, &why);
		break;
	default:
		st = count_points(&eng, set, &got, &why);
		break;
	}
	if (e->kind == K_REFUSED || e->kind == K_MAX_REFUSED) {
		if (st != COUNT_REFUSED)
			print_error("%s: expected a refusal, got status %d\n", e->name, st);
		else
			assert_non_null(why);
		isl_pw_qpolynomial_free(got);
		free(why);
		isl_set_free(set);
		assert_int_equal(st, COUNT_REFUSED);
		return;
	}
	if (st != COUNT_EXACT)
		print_error("%s: status %d: %s\n", e->name, st, why ? why : "");
	free(why);
	assert_int_equal(st, COUNT_EXACT);
	assert_non_null(got);
	/* every result becomes a formula that prints */
	struct formula *fm = formula_from_pw_qpolynomial_zero_outside(got);
	assert_non_null(fm);
	char *text = formula_to_string(fm, FORMULA_TEXT);
	assert_non_null(text);
	free(text);

	isl_pw_qpolynomial *want = e->expect ? isl_pw_qpolynomial_read_from_str(ctx, e->expect) : NULL;
	if (e->expect)
		assert_non_null(want);
	isl_space *space = isl_pw_qpolynomial_get_domain_space(got);
	isl_size np = isl_space_dim(space, isl_dim_param);
	static long long pts[400][8];
	int npts = points(np, pts, 400);
	int bad = 0;
	for (int k = 0; k < npts; k++) {
		long long g = eval(got, space, pts[k]);
		long long w = want ? eval(want, space, pts[k]) : g;
		/* enumeration checks the expectation itself (counts only) */
		long long b = e->kind == K_COUNT ? brute(set, pts[k]) : w;
		/* the formula the reports print has the same value, by its own arithmetic */
		const char *names[8];
		for (int q = 0; q < np && q < 8; q++)
			names[q] = isl_space_get_dim_name(space, isl_dim_param, q);
		mpq_t fv;
		mpq_init(fv);
		if (formula_eval(fm, names, pts[k], np, fv) != 0 || mpz_cmp_ui(mpq_denref(fv), 1) != 0 ||
		    mpz_cmp_si(mpq_numref(fv), g) != 0) {
			if (bad++ < 3)
				print_error("%s at point %d: the formula disagrees with the engine (%lld)\n",
					    e->name, k, g);
		}
		mpq_clear(fv);
		if (g != w || w != b) {
			if (bad++ < 3)
				print_error("%s at point %d (first param %lld): engine %lld, expected "
					    "%lld, enumeration %lld\n", e->name, k, pts[k][0], g, w, b);
		}
	}
	if (bad) {
		char *s = isl_pw_qpolynomial_to_str(got);
		print_error("%s: engine result %s\n", e->name, s);
		free(s);
	}
	isl_space_free(space);
	formula_free(fm);
	isl_pw_qpolynomial_free(want);
	isl_pw_qpolynomial_free(got);
	isl_set_free(set);
	assert_int_equal(bad, 0);
}

/* count_eval: a missing parameter value is reported, extra names are ignored. */
static void test_eval_missing_param(void **state)
{
	(void)state;
	isl_pw_qpolynomial *pw = isl_pw_qpolynomial_read_from_str(ctx, "[n,m] -> { n*m }");
	const char *names[] = {"n", "zz"};
	long long vals[] = {3, 4};
	char *why = NULL;
	isl_val *v = count_eval(pw, 2, names, vals, &why);
	assert_null(v);
	assert_non_null(why);
	assert_non_null(strstr(why, "m"));
	free(why);
	const char *names2[] = {"m", "zz", "n"};
	long long vals2[] = {5, 1, 7};
	v = count_eval(pw, 3, names2, vals2, &why);
	assert_non_null(v);
	assert_int_equal(isl_val_get_num_si(v), 35);
	isl_val_free(v);
	isl_pw_qpolynomial_free(pw);
}

/* The refusal reason names the variable that blocked the count. */
static void test_refusal_names_variable(void **state)
{
	(void)state;
	isl_set *set = isl_set_read_from_str(ctx, "[n] -> { [i,j] : 0 <= i < n and j >= i }");
	isl_pw_qpolynomial *pw;
	char *why;
	enum count_status st = count_points(&eng, set, &pw, &why);
	assert_int_equal(st, COUNT_REFUSED);
	assert_null(pw);
	assert_non_null(strstr(why, "j"));
	free(why);
	isl_set_free(set);
}

/* Nor does it make up a name: an existentially quantified variable (which
 * ISL keeps unnamed, whatever the set called it) is said to be one. */
static void test_refusal_names_no_made_up_variable(void **state)
{
	(void)state;
	isl_set *set = isl_set_read_from_str(ctx, "[n] -> { [i] : exists k : i = 2k and i >= n }");
	isl_pw_qpolynomial *pw;
	char *why;
	enum count_status st = count_points(&eng, set, &pw, &why);
	assert_int_equal(st, COUNT_REFUSED);
	assert_string_equal(why, "an existentially quantified variable has no lower or upper "
				 "bound: the set is infinite for some parameter values");
	free(why);
	isl_set_free(set);
}

/* A caller's description (the user pointer of a dimension's id) replaces the
 * dimension's name in a reason, and a constraint that has such a dimension
 * is not quoted; the user's names are, in full however long. */
static void test_refusal_uses_descriptions(void **state)
{
	(void)state;
	const char *text = "[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m and 100j <= 77i }";
	isl_set *set = isl_set_read_from_str(ctx, text);
	isl_pw_qpolynomial *pw;
	char *why;
	assert_int_equal(count_points(&eng, set, &pw, &why), COUNT_REFUSED);
	assert_string_equal(why, "cannot sum over variable i: its bound in constraint "
				 "'77*i - 100*j >= 0' is a floor of variable j, and splitting "
				 "variable j by its residues would take 77 cases (at most 64)");
	free(why);
	static const char desc[] = "the process coordinate on axis P";
	set = isl_set_set_dim_id(set, isl_dim_set, 1, isl_id_alloc(ctx, "q0", (void *)desc));
	assert_int_equal(count_points(&eng, set, &pw, &why), COUNT_REFUSED);
	assert_string_equal(why, "cannot sum over variable i: its bound is a floor of the process "
				 "coordinate on axis P, and splitting the process coordinate on "
				 "axis P by its residues would take 77 cases (at most 64)");
	free(why);
	char name[301];
	memset(name, 'x', 300);
	name[300] = '\0';
	set = isl_set_set_dim_name(set, isl_dim_set, 0, name);
	assert_int_equal(count_points(&eng, set, &pw, &why), COUNT_REFUSED);
	assert_non_null(strstr(why, name));
	free(why);
	isl_set_free(set);
}

/* A tiny operation limit makes the engine refuse, not fail or guess. */
static void test_operation_limit_refuses(void **state)
{
	(void)state;
	struct count_engine small = eng;
	small.max_operations = 10;
	isl_set *set = isl_set_read_from_str(ctx, "[n] -> { [i,j,k] : 0 <= k <= j <= i < n and "
					     "i mod 3 = 1 and j != 2k }");
	isl_pw_qpolynomial *pw;
	char *why;
	enum count_status st = count_points(&small, set, &pw, &why);
	assert_int_equal(st, COUNT_REFUSED);
	assert_null(pw);
	assert_non_null(why);
	free(why);
	isl_set_free(set);
	/* and the context works again afterwards */
	st = count_points(&eng, set = isl_set_read_from_str(ctx, "[n] -> { [i] : 0 <= i < n }"),
			  &pw, &why);
	assert_int_equal(st, COUNT_EXACT);
	isl_pw_qpolynomial_free(pw);
	isl_set_free(set);
}

/* The acceptance example of --count: the triangle is n*(n+1)/2 for n >= 0. */
static void test_print_triangle(void **state)
{
	(void)state;
	isl_set *set = isl_set_read_from_str(ctx, "[n] -> { [i,j] : 0 <= i < n and 0 <= j <= i }");
	isl_pw_qpolynomial *pw;
	char *why;
	assert_int_equal(count_points(&eng, set, &pw, &why), COUNT_EXACT);
	struct formula *f = formula_from_pw_qpolynomial_zero_outside(pw);
	char *text = formula_to_string(f, FORMULA_TEXT);
	assert_string_equal(text, "n*(n+1)/2 if n >= 1; 0 otherwise");
	free(text);
	formula_free(f);
	isl_pw_qpolynomial_free(pw);
	isl_set_free(set);
}

int main(void)
{
	size_t n = sizeof(table) / sizeof(table[0]);
	struct CMUnitTest *tests = calloc(n + 6, sizeof(*tests));
	if (!tests)
		return 1;
	for (size_t k = 0; k < n; k++) {
		tests[k].name = table[k].name;
		tests[k].test_func = run_entry;
		tests[k].initial_state = (void *)&table[k];
	}
	tests[n] = (struct CMUnitTest)cmocka_unit_test(test_eval_missing_param);
	tests[n + 1] = (struct CMUnitTest)cmocka_unit_test(test_refusal_names_variable);
	tests[n + 2] = (struct CMUnitTest)cmocka_unit_test(test_operation_limit_refuses);
	tests[n + 3] = (struct CMUnitTest)cmocka_unit_test(test_print_triangle);
	tests[n + 4] = (struct CMUnitTest)cmocka_unit_test(test_refusal_names_no_made_up_variable);
	tests[n + 5] = (struct CMUnitTest)cmocka_unit_test(test_refusal_uses_descriptions);
	int r = _cmocka_run_group_tests("count", tests, n + 6, setup, teardown);
	free(tests);
	return r;
}
