/* Semantic checks, and the checked specification the analyses work on.
 *
 * check_spec() reports every error of a specification (and its warnings) in
 * one run.  When there is none it returns a struct checked_spec, in which:
 *
 *   - every name is resolved: each struct ast_expr of kind EXPR_NAME,
 *     EXPR_INDEX or EXPR_CALL has .sym and the matching declaration pointer
 *     (.param for SYM_PARAM and SYM_GRID_AXIS, .array, .dist, .var);
 *     layouts point at their array (.array) and every layout dimension at its
 *     dist and grid axis (.dist, .axis); a dist points at its axis;
 *
 *   - every expression that must be affine has its affine form (struct affine)
 *     in .aff: array extents, subscripts (of the left-hand side too), the
 *     operands of every comparison in a condition or assumption (for a
 *     divisibility test e % d == 0, e and d), the argument and the value of
 *     a distribution predicate.  A work weight (ast_stmt.work) is resolved
 *     but may be polynomial, so it has no affine form.  Each variable has its range
 *     as an inclusive lower bound (lo_aff) and an exclusive upper bound
 *     (hi_aff); each condition its normalized atoms (struct cond_atom);
 *
 *   - every statement lists its variables (ast_stmt.vars, forall variables
 *     first, then the sum variables in source order; ast_var.index is the
 *     position there) and its array references (ast_stmt.refs, the left-hand
 *     side first, each with its subscripts and the quantifiers that enclose it);
 *
 *   - the candidates are expanded (struct candidate): one per explicit
 *     candidate block (or one implicit candidate when there is none) times
 *     every combination of the alternatives of the dists that have several,
 *     each with a readable name and, for every array, the distribution of each
 *     of its dimensions.
 *
 * Lifetime: the checked_spec borrows the AST and writes the fields above into
 * it; the memory they point to (affine forms, atoms, references) belongs to
 * the checked_spec.  Free the checked_spec before the AST, and do not use
 * those fields after checked_spec_free(). */
#ifndef BSPCOST_CHECK_H
#define BSPCOST_CHECK_H

#include <stdbool.h>

#include "analyzer/util/session.h"
#include "grammar/ast.h"
#include "grammar/diag.h"

/* The most loops around one superstep. */
#define CHECK_MAX_LOOP_DEPTH 8

/* Most candidates one specification may expand to. */
#define CHECK_MAX_CANDIDATES 4096

/* coef * symbol.  kind is SYM_PARAM (index: position among the parameters,
 * checked_spec.params), SYM_GRID_AXIS (index: the axis, checked_spec.axes),
 * SYM_VAR (index: position in the statement's vars[], ast_var.index) or, in
 * a subscript or a forall's condition, SYM_FLOOR (floor: a quotient or
 * remainder; index: its number, unique in the specification). */
struct affine_term {
	enum sym_kind kind;
	int index;
	long long coef;           /* never 0 */
	const struct affine_floor *floor;   /* SYM_FLOOR */
};

/* constant + sum of terms; terms are sorted by (kind, index), one per symbol.
 * Computed with overflow checks: an expression whose coefficients do not fit
 * in 64 bits is an error, never a wrong form. */
struct affine {
	long long constant;
	int nterms;
	struct affine_term *terms;
};

/* A quotient or remainder in a subscript, by a positive divisor: floor(num /
 * den), or num - den * floor(num / den) (mathematical: never negative).
 *   - A constant divisor (den > 0): always FLOOR_DIV (a remainder is written
 *     as its dividend minus den times the quotient); num may hold constant
 *     floors itself.  The model gives the quotient a variable of its own.
 *   - A symbolic divisor (den == 0): one size parameter or grid size
 *     (den_term, coefficient 1), num an affine form without floors.  The
 *     bounds check proves the quotient lies in [qlo, qhi] wherever the
 *     reference is evaluated (proven); the model splits the reference into
 *     one case per quotient value.
 *   - In a forall's condition only, a divisor that is a positive multiple
 *     of a geometric loop's variable (`(i / s) % 2`, `i % (2*s)`: level,
 *     den == 0, den_term that multiple), num affine without floors: the
 *     variable is a number at each level when every value is known, so the
 *     model gives the quotient a variable defined with the level's divisor;
 *     the bounds check leaves such conditions out (a superset). */
enum floor_kind { FLOOR_DIV, FLOOR_MOD };

struct affine_floor {
	enum floor_kind kind;
	struct affine num;
	long long den;
	struct affine_term den_term;
	bool level;
	bool proven;
	int qlo, qhi;
	const struct ast_expr *expr;      /* the '/' or '%' written */
};

/* The most values a symbolic quotient may take (the cases of a reference). */
#define CHECK_MAX_QUOTIENTS 4

/* One term of a work weight: coef times the product of its factors, each
 * affine in the instance's variables, the sizes and the grid sizes.  The
 * checker proves every factor non-negative wherever the statement runs and
 * refuses a negative coefficient, so that the weight is never negative. */
struct work_term {
	long long coef;            /* > 0 */
	int nfactors;
	const struct affine *factors;
	bool proven;               /* every factor proven >= 0 (the bounds check) */
};

/* The most terms of a work weight, and factors of one term. */
#define CHECK_MAX_WORK_TERMS 16
#define CHECK_MAX_WORK_FACTORS 4

enum atom_kind {
	ATOM_GE0,     /* f >= 0 */
	ATOM_EQ0,     /* f == 0 */
	ATOM_NE0,     /* f != 0 */
	ATOM_DIVIDES, /* divisor divides f (written f % divisor == 0) */
	ATOM_OWNER,   /* dist(f) == value, or != value when negated */
};

/* One normalized comparison.  A chain a < b <= c gives two atoms; a < b
 * becomes b - a - 1 >= 0, a > b becomes a - b - 1 >= 0, and so on. */
struct cond_atom {
	enum atom_kind kind;
	struct span span;
	struct affine f;
	/* ATOM_DIVIDES: a positive constant, or one parameter or grid size with
	 * coefficient 1 */
	struct affine divisor;
	/* ATOM_OWNER: the distribution, applied to f, compared with value */
	const struct ast_dist *dist;
	struct affine value;
	bool negated;
};

/* An array element read (or, for the left-hand side, written). */
struct ref_info {
	const struct ast_expr *expr;       /* the EXPR_INDEX node */
	const struct ast_array *array;
	const struct affine *subs;         /* array->rank subscripts */
	bool is_lhs;
	/* the quantifiers around it, outermost first: the statement's forall (if
	 * any), then each enclosing sum; its variables are those of these scopes */
	const struct ast_quant *const *scopes;
	int nscopes;
};

/* How one dimension of an array is distributed in a candidate. */
struct dim_dist {
	enum dist_kind kind;      /* DIST_NONE for '*' */
	long long block;          /* DIST_BLOCK_CYCLIC */
	int axis;                 /* grid axis index, -1 for DIST_NONE */
	const struct ast_dist *dist; /* the named dist, NULL for inline or '*' */
	int block_param;          /* DIST_BLOCK_CYCLIC by a size: its index, else -1 */
};

struct cand_array {
	const struct ast_array *array;
	/* the layout declaration used; NULL (and dims NULL) for an array another
	 * candidate block declares, which this candidate does not see */
	const struct ast_layout *layout;
	struct dim_dist *dims;            /* array->rank entries */
	/* the axes of `replicated over AXIS` written past the array's rank: a
	 * copy of every element on every process along them (bit a: axis a) */
	unsigned replicated_axes;
};

struct candidate {
	/* "rows", "d0=block,d1=cyclic", "rows/d0=block", or "default" */
	char *name;
	const struct ast_candidate *decl; /* NULL for the implicit candidate */
	int *choice;              /* per dist (by ast_dist.index): the alternative used */
	struct cand_array *arrays;        /* one per array, by ast_array.index */
	/* its program: the supersteps of its block when it declares some (a
	 * program variant), else the top-level ones; in order */
	const struct ast_superstep **steps;
	int nsteps;
};

struct arena;

struct checked_spec {
	struct ast_spec *ast;
	/* the size parameters, by index, then a parameter for the variable of
	 * each loop (ast_loop.param) in the order of ast_spec.loops */
	const struct ast_param **params;
	int nparams;
	int nsizes;                        /* the size parameters among them */
	const struct ast_param **axes;     /* grid axes, by index */
	int naxes;
	struct ast_array **arrays;         /* by index: the top level's, then the
					    * candidate blocks' (ast_array.cand) */
	int narrays;
	const struct ast_dist **dists;     /* by index */
	int ndists;
	/* every superstep, the top-level ones and the candidate blocks', in
	 * source order; a candidate runs those of candidate.steps */
	const struct ast_superstep **supersteps;
	int nsupersteps;
	const struct cond_atom *assumptions;     /* every assume, normalized */
	int nassumptions;
	struct candidate *candidates;
	int ncandidates;
	struct arena *arena;               /* private */
};

/* Checks AST, reporting into DG, the bounds check in a context of SESSION (may
 * be NULL: no deadline).  Returns NULL when there was an error (the deadline
 * passing before the bounds are checked is one). */
struct checked_spec *check_spec(struct ast_spec *ast, struct diag *dg, struct session *session);
void checked_spec_free(struct checked_spec *cs);

/* Whether every atom of ATOMS[0..N) holds where size parameter i is PARAMS[i]
 * and grid axis a is AXES[a] (exact arithmetic): 1 yes, 0 no, -1 when one
 * cannot be decided at those values (it names a variable or a value not
 * known, it is a distribution predicate, or its divisor is not positive
 * there).  PKNOWN[i] and AKNOWN[a] say which values are known; NULL when all
 * are. */
int cond_atoms_hold(const struct cond_atom *atoms, int n, const long long params[],
		    const bool pknown[], const long long axes[], const bool aknown[]);

/* FL for people: "floor((i + 1)/4)", "(t + 1) % N"; malloc'd, NULL when out
 * of memory. */
char *floor_to_string(const struct affine_floor *fl, const struct checked_spec *cs,
		      struct ast_var *const *vars);

/* The one printer of a quasi-affine form: F on OUT with the names of CS (and
 * of VARS for SYM_VAR terms; "?" without VARS), its floors as
 * floor_to_string writes them: "n - 1", "2*i + k", "0", as people read it
 * and as ISL's parser does.  Returns 0, or -1 when out of memory (a floor
 * is then written "?"). */
int affine_print(FILE *out, const struct affine *f, const struct checked_spec *cs,
		 struct ast_var *const *vars);

/* affine_print's text, malloc'd; NULL when out of memory. */
char *affine_to_string(const struct affine *f, const struct checked_spec *cs,
		       struct ast_var *const *vars);

#endif
