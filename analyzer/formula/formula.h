/* Exact symbolic values: the formulas every bspcost report prints.
 *
 * A `struct formula` is an exact value over named integer parameters (n, m, M, N,
 * g, l, ...).  It is piecewise: a list of pieces, each a condition (an isl_set over
 * the parameters, which may use existentially quantified variables, e.g. for
 * divisibility) and a value.  Pieces are disjoint; where several could apply the
 * first one wins.
 *
 * A value is an expression whose leaves are Laurent polynomials with rational
 * coefficients in the parameters and in floor atoms (floor(e) of an expression e,
 * as in ISL quasi-polynomials: floor((m + 3)/4)).  Negative exponents are allowed,
 * so m/M and (o*m*(N-1) + o*n*(M-1))/(M*N) are single leaves.  Inner nodes are
 * sums, products, max and min; they are kept simplified: polynomial operands of a
 * sum or product fold into one polynomial, identical operands of max/min fold, and
 * max/min of polynomials that differ by a constant keep only the larger/smaller.
 *
 * Outside every piece the value is UNDEFINED (formula_eval fails there), unless
 * the formula is marked FORMULA_ZERO_OUTSIDE: then it is 0 wherever no piece
 * applies.  Counts are zero-outside (ISL's own convention for pw_qpolynomials),
 * so use formula_from_pw_qpolynomial_zero_outside for them.
 *
 * Ownership: every function below keeps (only reads) its formula arguments and
 * returns a new formula that the caller frees with formula_free.  ISL objects
 * follow ISL's annotations.  A formula that holds conditions refers to the isl_ctx
 * of those conditions: free the formula before the ctx.  Nothing here is global;
 * functions that return a pointer return NULL on failure (out of memory, an ISL
 * error, or the documented refusals).  NULL in, NULL out: a NULL formula or
 * ISL argument (a failure upstream) makes every function fail the same way
 * (NULL, or its documented failure value), freeing what it takes, so a caller
 * passes a failure on without a test of its own (tests/unit/test_formula.c,
 * test_null_in_null_out).
 *
 * The machine grammar (FORMULA_EXPR output, formula_parse_expr input), as used in
 * the JSON reports:
 *
 *     expr    := cond                       whole input is one expr
 *     cond    := or [ "?" expr ":" expr ]   right-associative
 *     or      := and { "||" and }
 *     and     := cmp { "&&" cmp }
 *     cmp     := sum [ ("==" | "!=" | "<" | "<=" | ">" | ">=") sum ]
 *     sum     := prod { ("+" | "-") prod }
 *     prod    := unary { ("*" | "/" | "%") unary }
 *     unary   := "-" unary | power
 *     power   := atom [ "^" unary ]         right-associative, integer exponent
 *     atom    := INTEGER | NAME | FUNC "(" expr { "," expr } ")" | "(" expr ")"
 *     FUNC    := "floor" | "ceil" | "log2" (one argument) | "min" | "max" (one or more)
 *     INTEGER := [0-9]+      NAME := [A-Za-z_][A-Za-z0-9_]*  (not a FUNC name)
 *
 * Semantics: exact rational arithmetic; "/" is exact rational division (never
 * integer division); a % b = a - b*floor(a/b) (so 7 % 4 == 3 and -1 % 4 == 3);
 * "^" needs an integer exponent (negative ones divide); comparisons, "&&" and "||"
 * give 1 or 0, and "c ? a : b" is a when c != 0.  Blanks are ignored.  Division
 * by zero, a non-integer exponent and log2 of anything but a power of two
 * (1, 2, 4, ...) are evaluation errors.
 */
#ifndef BSPCOST_FORMULA_H
#define BSPCOST_FORMULA_H

#include <stdbool.h>

#include <gmp.h>
#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/polynomial.h>

struct formula;

/* What a formula is where none of its pieces applies. */
enum formula_outside {
	FORMULA_UNDEFINED_OUTSIDE = 0, /* formula_eval fails there */
	FORMULA_ZERO_OUTSIDE = 1,      /* the value is 0 there (counts) */
};

enum formula_style {
	/* For people, one line.  A single piece whose condition is everything
	 * prints as its value alone; otherwise each piece prints as
	 * "VALUE if CONDITION", pieces separated by "; ", and a zero-outside
	 * formula ends with "; 0 otherwise" (just "0" when it has no piece).
	 * Values: terms collected over a common denominator, common factors
	 * pulled out (n*(n+1)/2, (o*m*(N-1) + o*n*(M-1))/(M*N), m*n*o/(M*N)),
	 * floor atoms as floor((m + 3)/4).  Conditions: "n >= 1 && m % 4 == 0",
	 * alternatives joined by "||". */
	FORMULA_TEXT,
	/* The machine grammar above.  Values print as in FORMULA_TEXT; pieces
	 * print as "c1 ? v1 : c2 ? v2 : ... : 0" for a zero-outside formula.
	 * For an undefined-outside formula the last piece's condition is not
	 * printed (its value is taken as the value outside every piece, where
	 * the formula promises nothing). */
	FORMULA_EXPR,
	/* LaTeX math mode (no $...$): \frac{o m (N - 1) + ...}{M N},
	 * \left\lfloor \frac{m + 3}{4} \right\rfloor, \max(a, b), pieces in a
	 * cases environment; names longer than one letter as \mathit{name}. */
	FORMULA_LATEX,
	/* FORMULA_EXPR with every piece's condition, the last one's too, and
	 * "0/0" where no piece applies to an undefined-outside formula: its
	 * evaluation fails there rather than take the last piece's value (for
	 * programs that evaluate a formula at points that may lie outside). */
	FORMULA_EXPR_STRICT,
};

/* --- Construction --------------------------------------------------------- */

/* The quasi-polynomial PWQP, whose domain must be a parameter set (no set
 * dimensions; NULL otherwise).  Each ISL piece becomes a piece; integer
 * divisions become floor atoms.  Undefined outside the pieces. */
struct formula *formula_from_pw_qpolynomial(__isl_keep isl_pw_qpolynomial *pwqp);
/* The most distinct parameters and floor terms one formula may hold: past
 * it a conversion or an operation fails (no person could read it anyway). */
#define FORMULA_MAX_TERMS 1024
/* 1 when PWQP has too many distinct floors for a formula (its conversion
 * then fails), 0 when not, -1 when ISL failed. */
int formula_pw_qpolynomial_too_large(__isl_keep isl_pw_qpolynomial *pwqp);
/* Whether an operation on A and B (formula_add, formula_max, ...) fails for
 * FORMULA_MAX_TERMS rather than for want of memory. */
bool formula_pair_too_large(const struct formula *a, const struct formula *b);
/* The same, zero outside the pieces: use this for counts. */
struct formula *formula_from_pw_qpolynomial_zero_outside(
	__isl_keep isl_pw_qpolynomial *pwqp);

/* Constants and parameters: one piece, condition everything. */
struct formula *formula_const_si(long value);
struct formula *formula_const_mpq(const mpq_t value);
/* VALUE (taken), a rational; NULL if it is not one (or is NULL). */
struct formula *formula_const_val(__isl_take isl_val *value);
struct formula *formula_param(const char *name);

/* F restricted to COND: every piece condition intersected with COND (pieces that
 * become empty are dropped); the result is undefined outside COND even if F was
 * zero-outside there.  COND must be a parameter set. */
struct formula *formula_restrict(const struct formula *f, __isl_take isl_set *cond);

/* F with each condition simplified in CONTEXT (isl_set_gist) and the pieces that
 * do not meet CONTEXT dropped: equal to F on CONTEXT, and printed shorter. */
struct formula *formula_gist(const struct formula *f, __isl_keep isl_set *context);

/* F with every disjunct of a condition that does not meet CONTEXT left out
 * (a piece with none left goes) and each other one replaced by its gist in
 * CONTEXT where that has fewer constraints and names no parameter the
 * disjunct does not: equal to F on CONTEXT; unlike formula_gist, which
 * intersects first, a condition such as P == 1 is not written out with what
 * CONTEXT then implies (k0_P == 0 where k0_P < P). */
struct formula *formula_prune(const struct formula *f, __isl_keep isl_set *context);

/* F with each condition of 2 to 16 disjuncts (no quotients) written as its
 * box within CONTEXT (each parameter's least and largest value there) where,
 * within CONTEXT, that box is the condition, has fewer disjuncts and names
 * no parameter the condition does not: equal
 * to F on CONTEXT; four disjuncts that make up M >= 3 && N >= 3 printed as
 * that. */
struct formula *formula_hull_conditions(const struct formula *f, __isl_keep isl_set *context);

/* The isl_ctx of F's conditions, NULL when it has none. */
isl_ctx *formula_get_ctx(const struct formula *f);

/* 1 when every value of F is shown >= 0 on CONTEXT (each piece's on its
 * condition within CONTEXT; a zero-outside F is 0 elsewhere), 0 when that
 * is not shown (a value whose sign is not shown by the tests of
 * fml_poly_sign_on, which drop an operand of a max, there or on each basic
 * set of the condition; a value with maxima, a least of clauses p + the
 * sum of maxima, by one term or the mean of each maximum; a product of two
 * values not constant; an ISL failure within a proof), -1 when a piece's
 * condition could not be met with CONTEXT (formula_bound.c).  With
 * F = A - B: whether max(A, B) is A all over. */
int formula_nonnegative_on(const struct formula *f, __isl_keep isl_set *context);

/* F with each piece's value replaced, where its sign on the piece's
 * condition within CONTEXT is shown, by a simpler one of the same sign
 * there (the conditions are F's), wherever the names
 * NAMES[0..N) (at most 8: a cost's coefficients, never negative) are >= 0:
 * a value A + sum_c B_c*c linear in them, whose A and B_c are each 0 or of
 * one strict sign S on the piece's condition within CONTEXT, becomes S
 * where A is not 0 (g*(n - P)/P + n/P: 1), else S times the sum of the
 * names with a B_c (g*(2*P - 2*n)/P where n >= 2*P: -g).  For conditions
 * on that sign (formula_sign_text); NULL on failure. */
struct formula *formula_sign_fold(const struct formula *f, __isl_keep isl_set *context,
				  const char *const names[], int n);

/* F on CONTEXT and undefined outside it: every condition intersected with
 * CONTEXT, and for a zero-outside formula an explicit zero piece where it has no
 * piece in CONTEXT.  For values that are only claimed under assumptions. */
struct formula *formula_on(const struct formula *f, __isl_keep isl_set *context);

/* F on CONTEXT with as few pieces as can be proven: when one piece's value
 * equals another's on that other's condition (formula_equal proves it), the two
 * pieces become one; for a zero-outside formula the region with no piece counts
 * as a zero piece.  Conditions are then simplified in CONTEXT as formula_gist
 * does.  For a value computed case by case (M == 1, M >= 2) this gives back the
 * one formula that holds in every case. */
struct formula *formula_coalesce(const struct formula *f, __isl_keep isl_set *context);

/* formula_coalesce, except that no merge gives a condition in which one of the
 * N parameters KEEP_APART appears in a constraint with another parameter when
 * neither merged condition had such a constraint: a block length L = n/M is
 * written back as n/M only where each constraint on it is L against a constant
 * (L >= 3 is n >= 3*M; M + L >= 4 has no affine form). */
struct formula *formula_coalesce_apart(const struct formula *f, __isl_keep isl_set *context,
				       const char *const keep_apart[], int n);

/* F on CONTEXT with the pieces whose values are the same expression merged
 * (their conditions joined), conditions then simplified as formula_gist does:
 * formula_coalesce's cheap part, with no proof that two different
 * expressions agree (for a formula whose proofs would cost too much). */
struct formula *formula_merge_same(const struct formula *f, __isl_keep isl_set *context);

/* F with, in each max and min of a piece's value, the operands another
 * one is shown to bound on the piece's condition within CONTEXT left out
 * (their difference has a sign there): max(b*m*(N-1)/M, b*m/M) where N >= 2
 * and b, m >= 1 is b*m*(N-1)/M.  Equal to F on CONTEXT; conditions as they
 * are.  NULL on failure. */
struct formula *formula_drop_bounded(const struct formula *f, __isl_keep isl_set *context);

/* The pieces of A and then those of B, undefined outside them: for parts of
 * one function on disjoint conditions (the caller sees to it that they are;
 * a zero-outside operand gives its pieces only, not its zero elsewhere). */
struct formula *formula_join(const struct formula *a, const struct formula *b);

/* Mark F as zero or undefined outside its pieces. */
void formula_set_outside(struct formula *f, enum formula_outside outside);
enum formula_outside formula_get_outside(const struct formula *f);

/* --- Algebra ----------------------------------------------------------------
 * Piecewise operands combine piece by piece on the (non-empty) intersections of
 * their conditions.  A zero-outside operand contributes a 0 piece on the
 * complement of its pieces; the result is zero-outside when both operands are. */

struct formula *formula_add(const struct formula *a, const struct formula *b);
struct formula *formula_sub(const struct formula *a, const struct formula *b);
struct formula *formula_mul(const struct formula *a, const struct formula *b);
struct formula *formula_max(const struct formula *a, const struct formula *b);
struct formula *formula_min(const struct formula *a, const struct formula *b);
struct formula *formula_neg(const struct formula *a);
/* floor(A), and A to the integer power K (K < 0 needs A to be a single
 * monomial, as m/M needs M; NULL otherwise). */
struct formula *formula_floor(const struct formula *a);
struct formula *formula_pow(const struct formula *a, long k);
/* A times the rational FACTOR. */
struct formula *formula_scale(const struct formula *a, const mpq_t factor);

/* F with the parameter NAME replaced by R everywhere (e.g. mb by m/M).  Fails
 * (NULL) when NAME occurs with a negative exponent and R is not a single
 * monomial, or when NAME occurs in a piece condition and R is not an affine
 * polynomial with integer coefficients in parameters only (a condition must stay
 * an ISL set): simplify such conditions away first with formula_gist. */
struct formula *formula_subst(const struct formula *f, const char *name,
	const struct formula *r);

/* The sum of F over NAME = 2^k for k = 1 .. K - 2, K the parameter KNAME and
 * TOP = 2^(K - 1) (the middle levels of a doubling loop 1, 2, 4, ... <
 * 2^K): each term c*NAME^e of a piece's value (e of either sign) adds
 * c*(TOP^e - 2^e)/(2^e - 1), and c*(K - 2) for e = 0.  NULL when a
 * condition involves NAME, or a value does other than as a Laurent
 * polynomial in it (a floor of it, a max of it), or a power of it is past
 * FORMULA_SUM_POWERS_MAX (or on failure): (TOP^e - 2^e)/(2^e - 1) is exact
 * for any e, but past it no person reads the formula. */
#define FORMULA_SUM_POWERS_MAX 16
struct formula *formula_sum_powers(const struct formula *f, const char *name, const char *kname,
				   const struct formula *top);

/* F with each piece whose condition fixes BNAME at 1 or 2 joined to
 * another piece whose value gives its value there, KNAME = log2(BNAME)
 * being 0 or 1 (formula_equal's proof): "2*lg_P if P >= 2; 0 if P == 1" is
 * 2*lg_P where P >= 1.  The same values; NULL on failure. */
struct formula *formula_merge_levels(const struct formula *f, const char *bname,
				     const char *kname);

/* F with each floor(a) of a piece's value, a affine in the parameters with
 * denominator d, written a - r/d where the piece's condition makes a's
 * numerator r modulo d (2*n - 2*floor(n/2) - 1 where n % 2 == 1 is n).  The
 * same values; NULL on failure. */
struct formula *formula_fold_residues(const struct formula *f);

/* F with the parameter NAME replaced by R (one piece, condition everything)
 * in the pieces whose conditions lie within WHERE, a parameter set: in
 * their values, and in their conditions too where R is affine with integer
 * coefficients and WHERE does not constrain NAME (the conditions must go on
 * saying where the identity holds); the other pieces as they are.  For an identity that holds
 * on WHERE only (kk + b - 1 and kk in one block there: their offsets differ
 * by b - 1), so that F's values at the points where it holds are the same.
 * NULL on failure. */
struct formula *formula_subst_where(const struct formula *f, const char *name,
	const struct formula *r, __isl_keep isl_set *where);

struct formula *formula_copy(const struct formula *f);
void formula_free(struct formula *f);

/* --- Inspection ------------------------------------------------------------ */

int formula_n_pieces(const struct formula *f);
/* 1 when F has a value wherever G has one (F zero-outside, or its pieces'
 * conditions cover G's, everything for a zero-outside G), 0 when not, -1
 * on failure. */
int formula_covers(const struct formula *f, const struct formula *g);

/* Moves to the front of F's pieces the one whose condition holds at the
 * point NAMES[i] = VALUES[i] (0 <= i < N), when exactly one does for some
 * values of the parameters the point leaves out and it is disjoint from the
 * pieces before it (so that the order changes no value), and marks it to
 * be printed first (the others follow in their usual order, small cases
 * first): the typical case first, for people.  Returns its former
 * position, -1 when there is none (no piece or several hold there, or it
 * overlaps an earlier piece), -2 when ISL failed (F unchanged).  Any other
 * operation on F gives a formula without the mark. */
int formula_typical_first(struct formula *f, const char *const names[], const long long values[],
			  int n);

/* Exact value of F where parameter NAMES[i] is VALUES[i] (0 <= i < N); OUT must
 * be initialized.  Returns 0 on success; -1 when a parameter F needs (in the
 * value, or in a condition that has to be tested) has no value, when no piece
 * covers the point and F is undefined outside its pieces, or on a division by
 * zero (a Laurent term with a zero denominator). */
int formula_eval(const struct formula *f, const char *const names[],
	const long long values[], int n, mpq_t out);

/* Whether F and G are identical as functions wherever both are defined.
 *   1  proven: on every non-empty intersection of a piece of F with a piece of
 *      G the difference is zero, either as an expression (the polynomial
 *      difference vanishes identically; like terms such as equal max/min trees
 *      cancel), or according to ISL (gist and is_zero of the difference's
 *      numerator on that intersection), or because on every residue class of
 *      the parameters modulo the product of the floors' denominators that
 *      meets the intersection the numerator is a polynomial vanishing on a
 *      grid of (degree + 1) points per parameter (at most 20000 points);
 *   0  disproven: an integer point where both are defined and differ was found;
 *  -1  undecided: the difference is not provably zero and no witness point
 *      turned up in the search (about 3000 points in a box around the origin
 *      and as many around a sample point of each intersection).  This happens
 *      for max/min whose arguments differ structurally (max(n,m) + min(n,m)
 *      against n + m), for floor identities whose period grid is too large,
 *      and for intersections whose points all lie far from the boxes. */
int formula_equal(const struct formula *f, const struct formula *g);

/* 1 when formula_equal would prove F and G identical, 0 otherwise, without the
 * search for a witness point (for simplifying, where only a proof helps). */
int formula_proven_equal(const struct formula *f, const struct formula *g);

/* The names of the parameters F's values and conditions use, sorted (strcmp),
 * as a malloc'd array of malloc'd strings; *N gets the count.  NULL on error. */
char **formula_params(const struct formula *f, int *n);

/* 1 when a value or a condition of F involves parameter NAME, 0 when none
 * does, -1 on failure. */
int formula_involves(const struct formula *f, const char *name);
void formula_params_free(char **names, int n);

/* --- Printing -------------------------------------------------------------- */

/* F as a malloc'd string in STYLE (see enum formula_style).  Deterministic. */
char *formula_to_string(const struct formula *f, enum formula_style style);

/* The same, with each value first split by the powers of the parameters NAMES
 * (e.g. {"g", "l"} for a BSP cost): each coefficient is collected over its own
 * denominator, so a cost prints as m*n*(N+o)/(M*N) + g*(...)/(M*N) + 2*l. */
char *formula_to_string_by(const struct formula *f, enum formula_style style,
	const char *const names[], int n);

/* F in FORMULA_LATEX as formula_to_string_by writes it, broken into lines
 * (analyzer/formula/latex_break.h) to fit WIDTH digits (0: no limit): each
 * long value and condition as an aligned environment, and when a piece does
 * not fit beside its condition, every condition on a line of its own below
 * its value. */
char *formula_to_latex(const struct formula *f, const char *const names[], int n, double width);

/* The condition under which F's value compares with 0 as OP says ("<", "<=",
 * ">", ">=", "==", "!="), in STYLE: each piece's condition (less those of the
 * pieces before it, which win there) and "VALUE OP 0", or "LHS OP VALUE" when
 * LHS is given (the caller has solved F = LHS - VALUE, or a positive multiple,
 * for a name); pieces with the same comparison joined into one part, parts
 * joined by "||".  A value whose every term is negative is written negated
 * (-g < 0 as g > 0).  A constant value folds: its piece gives its condition
 * alone, or nothing; with NONNEG (the names NAMES are never negative) so
 * does a value of them with positive coefficients for < and >= (g < 0
 * nowhere), and <= is == there.  Values are written as
 * formula_to_string_by does with NAMES.  Everywhere: "always" ("1" in
 * FORMULA_EXPR); nowhere: "never" ("0").  F must be undefined outside its
 * pieces (NULL otherwise, or on failure); malloc'd.  With CONTEXT (NULL:
 * none; kept, of F's isl_ctx), the text is read within it: each region is
 * written with what CONTEXT gives left out (M >= 1 of M == 1 or M >= 2
 * where the axes are at least 1), true at the same points of CONTEXT. */
char *formula_sign_text(const struct formula *f, const char *lhs, const char *op,
	enum formula_style style, const char *const names[], int n, int nonneg,
	__isl_keep isl_set *context);

/* --- The machine grammar ---------------------------------------------------- */

/* A parsed FORMULA_EXPR string (see the grammar above), evaluated as written. */
struct formula_expr;

/* Parses TEXT.  On a syntax error returns NULL and, when ERROR is not NULL, sets
 * *ERROR to a malloc'd message "column C: ..." (1-based). */
struct formula_expr *formula_parse_expr(const char *text, char **error);
void formula_expr_free(struct formula_expr *e);
/* Evaluates E exactly with NAMES[i] = VALUES[i].  Returns 0 on success, -1 on an
 * unknown name, a division by zero or a non-integer exponent. */
int formula_expr_eval(const struct formula_expr *e, const char *const names[],
	const long long values[], int n, mpq_t out);

/* The formula for E, when E is arithmetic (no "?:", comparisons, "%", "&&",
 * "||"), divides only by monomials and takes floor/ceil of expressions without
 * max/min; NULL otherwise.  One piece, condition everything.  Lets tests write
 * an expected value as text and compare it with formula_equal. */
struct formula *formula_from_expr(const struct formula_expr *e);

#endif
