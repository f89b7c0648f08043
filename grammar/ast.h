/* The abstract syntax tree of a bspcost specification.
 *
 * Every node knows its source span.  The parser builds the tree through the
 * constructors below (the grammar actions stay thin); the checker
 * (analyzer/check/check.h) then resolves every name to its declaration and fills in
 * the fields marked "checked", which point either at other nodes of the tree or
 * at memory owned by the checked specification (see analyzer/check/check.h for the
 * lifetime rules).
 *
 * Nothing here is global.  Expression trees are at most AST_MAX_DEPTH deep
 * (the constructors enforce it), so the recursive walkers over them are safe. */
#ifndef BSPCOST_AST_H
#define BSPCOST_AST_H

#include <stdbool.h>
#include <stddef.h>

/* Deepest expression nesting the constructors accept. */
#define AST_MAX_DEPTH 200

/* A source span: 1-based lines and byte columns, both ends inclusive.  The
 * field names are the ones bison's location code expects. */
struct span {
	int first_line, first_column;
	int last_line, last_column;
};

struct span span_join(struct span a, struct span b);

/* What a name can denote.  Affine terms (analyzer/check/check.h) only use the first
 * three kinds, and SYM_FLOOR. */
enum sym_kind {
	SYM_PARAM,     /* a size parameter: param m, n; */
	SYM_GRID_AXIS, /* a processor-grid axis: grid M, N; */
	SYM_VAR,       /* a variable bound by forall or sum */
	SYM_FLOOR,     /* no name: a '/' or '%' of a subscript (struct affine_floor) */
	SYM_ARRAY,
	SYM_DIST,
	SYM_NONE,      /* unresolved (an error was reported) */
};

#include "grammar/dist_kind.h"

/* Comparison operators, in a chain such as 1 <= i < n - 1. */
enum cmp_op { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE };

enum expr_kind {
	EXPR_INT,   /* value */
	EXPR_NAME,  /* name: a parameter, grid axis or variable (or a misuse) */
	EXPR_INDEX, /* name[args[0]]...[args[nargs-1]]: an array element */
	EXPR_CALL,  /* name(args[0]): a distribution applied to an index */
	EXPR_NEG,   /* -lhs */
	EXPR_ADD, EXPR_SUB, EXPR_MUL, EXPR_DIV, EXPR_MOD, /* lhs op rhs */
	EXPR_SUM,   /* sum quant : lhs */
	EXPR_ERROR, /* stands for a part that could not be built (error reported) */
};

struct affine;      /* analyzer/check/check.h */
struct cond_atom;   /* analyzer/check/check.h */
struct ref_info;    /* analyzer/check/check.h */
struct ast_param;
struct ast_array;
struct ast_dist;
struct ast_var;
struct ast_quant;

struct ast_expr {
	enum expr_kind kind;
	struct span span;
	int depth;                /* 1 for a leaf */
	/* EXPR_ADD, EXPR_SUB: a node of an unparenthesized chain of additions and
	 * subtractions (ast_chain), over `leaves` operands; the chain is kept
	 * balanced, so a flat sum of any length stays shallow */
	bool chain;
	int leaves;
	long long value;          /* EXPR_INT */
	char *name;               /* EXPR_NAME, EXPR_INDEX, EXPR_CALL */
	struct span name_span;
	struct ast_expr *lhs, *rhs;
	struct ast_expr **args;   /* EXPR_INDEX subscripts, EXPR_CALL argument */
	int nargs;
	struct ast_quant *quant;  /* EXPR_SUM */

	/* checked: what name denotes (sym), and the declaration */
	enum sym_kind sym;
	const struct ast_param *param;  /* SYM_PARAM, SYM_GRID_AXIS */
	const struct ast_array *array;  /* SYM_ARRAY (EXPR_INDEX) */
	const struct ast_dist *dist;    /* SYM_DIST (EXPR_CALL) */
	const struct ast_var *var;      /* SYM_VAR */
	/* checked: the affine form, for the expressions that must be affine
	 * (subscripts, extents, bounds, condition operands); NULL elsewhere */
	const struct affine *aff;
};

/* A comparison chain: operands[0] ops[0] operands[1] ops[1] ... */
struct ast_cmp {
	struct span span;
	struct ast_expr **operands;
	enum cmp_op *ops;
	int nops;                 /* number of operators; operands has nops + 1 */
};

/* A conjunction of comparison chains (cmps joined by 'and'). */
struct ast_cond {
	struct span span;
	struct ast_cmp **cmps;
	int ncmps;
	/* checked: the normalized atoms, in order (analyzer/check/check.h) */
	const struct cond_atom *atoms;
	int natoms;
};

/* A bound variable with its range lo <op> name <op> hi (lo may be absent). */
struct ast_var {
	char *name;
	struct span span;         /* the whole range, e.g. "1 <= i < n - 1" */
	struct span name_span;
	struct ast_expr *lo;      /* NULL: 0 <= name */
	enum cmp_op lo_op;        /* CMP_LE or CMP_LT */
	struct ast_expr *hi;
	enum cmp_op hi_op;        /* CMP_LT or CMP_LE */
	/* a loop's geometric range `s = a, a*r, a*r*r, ... < hi`: r (lo is a);
	 * 0 for every integer of the range */
	long long ratio;
	/* checked */
	int index;                /* position in its statement's vars[] */
	const struct affine *lo_aff;  /* inclusive lower bound */
	const struct affine *hi_aff;  /* exclusive upper bound */
	bool used;
};

/* The quantifier of a forall or a sum: variables, then an optional condition. */
struct ast_quant {
	struct span span;
	struct ast_var **vars;
	int nvars;
	struct ast_cond *cond;    /* NULL when absent */
};

/* One assignment, optionally quantified:
 *   forall QUANT : LHS = RHS [work WORK];   or   LHS = RHS [work WORK]; */
struct ast_stmt {
	struct span span;
	struct ast_quant *forall; /* NULL when absent */
	struct ast_expr *lhs, *rhs;
	struct ast_expr *work;    /* NULL: the default weight */
	/* checked: every variable of the statement (forall variables, then the
	 * sum variables in source order); ast_var.index points in here */
	struct ast_var **vars;
	int nvars;
	/* checked: every array reference, the left-hand side first */
	const struct ref_info *refs;
	int nrefs;
	/* checked: the work weight as a sum of products of factors (NULL with
	 * the default weight) */
	const struct work_term *work_terms;
	int nwork_terms;
};

/* for RANGE { ... }: a loop around supersteps.  Its variable is an
 * integer that the supersteps of its body (and the ranges of the loops
 * nested in it) may use wherever a size parameter may appear; the body runs
 * once for each value of the range, in order. */
struct ast_loop {
	struct span span;         /* "for" to the range's end */
	struct ast_var *var;      /* the variable and its range (var->ratio: a
				   * geometric loop, 1, 2, 4, ... < P) */
	const struct ast_loop *outer;   /* the loop around it, NULL at the outermost */
	/* checked: the parameter the variable is to the analyses (kind
	 * SYM_PARAM, index past the specification's sizes), owned here; the
	 * range as atoms over the sizes, the axes and the outer variables */
	struct ast_param *param;
	const struct cond_atom *range;
	int nrange;
};

struct ast_superstep {
	char *name;
	struct span span, name_span;
	struct ast_stmt **stmts;
	int nstmts;
	/* the innermost loop around it, NULL when it runs once */
	const struct ast_loop *loop;
	int index;                /* checked: among every superstep of the spec */
	/* checked: the candidate block that declares it (a program variant),
	 * NULL at the top level */
	const struct ast_candidate *cand;
};

/* A parameter or a grid axis. */
struct ast_param {
	char *name;
	struct span span;
	enum sym_kind kind;       /* SYM_PARAM or SYM_GRID_AXIS */
	int index;                /* among the parameters, or the axis number */
};

struct ast_array {
	char *name;
	struct span span, name_span;
	struct ast_expr **extents;
	int rank;
	long long elem_size;      /* 0 when not given (then 1) */
	struct span elem_size_span;
	int index;                /* checked: among every array of the spec */
	bool used;                /* checked: referenced in some statement */
	/* checked: the candidate block that declares it (an array of a program
	 * variant, visible in that block only), NULL at the top level */
	const struct ast_candidate *cand;
};

/* One alternative of a distribution: block, cyclic, cyclic(B), identity. */
struct ast_dkind {
	enum dist_kind kind;
	long long block;          /* DIST_BLOCK_CYCLIC, a number */
	struct span span;
	char *block_name;         /* DIST_BLOCK_CYCLIC by a size: cyclic(nb) */
	int block_param;          /* checked: that size's index, -1 for none */
};

/* dist NAME = KIND | KIND ... over AXIS; */
struct ast_dist {
	char *name;
	struct span span, name_span;
	struct ast_dkind *alts;
	int nalts;
	char *axis_name;
	struct span axis_span;
	int index;                /* among the dists, in source order */
	const struct ast_param *axis; /* checked */
};

enum ldim_kind {
	LDIM_STAR,   /* '*' */
	LDIM_NAMED,  /* a named dist */
	LDIM_INLINE, /* KIND over AXIS */
};

struct ast_ldim {
	enum ldim_kind kind;
	struct span span;
	char *name;               /* LDIM_NAMED: the dist; LDIM_INLINE: the axis */
	struct span name_span;
	struct ast_dkind dkind;   /* LDIM_INLINE */
	const struct ast_dist *dist;  /* checked, LDIM_NAMED */
	const struct ast_param *axis; /* checked, LDIM_NAMED and LDIM_INLINE */
};

/* layout ARRAY : DIM x DIM ...; */
struct ast_layout {
	char *name;
	struct span span, name_span;
	struct ast_ldim *dims;
	int ndims;
	const struct ast_array *array; /* checked */
};

/* candidate NAME { ... }: layouts, and for a program variant its own arrays
 * (added to the top-level ones) and supersteps (which replace the top-level
 * program when there is at least one). */
struct ast_candidate {
	char *name;
	struct span span, name_span;
	struct ast_layout **layouts;
	int nlayouts;
	struct ast_array **arrays;
	int narrays;
	struct ast_superstep **supersteps;
	int nsupersteps;
};

enum item_kind {
	ITEM_PARAM, ITEM_GRID, ITEM_ASSUME, ITEM_ARRAY, ITEM_DIST, ITEM_LAYOUT,
	ITEM_CANDIDATE, ITEM_SUPERSTEP, ITEM_IMPORT,
};

struct ast_item {
	enum item_kind kind;
	struct span span;
	struct ast_param **params; /* ITEM_PARAM, ITEM_GRID */
	int nparams;
	struct ast_cond **conds;   /* ITEM_ASSUME: comma-separated conditions */
	int nconds;
	struct ast_array **arrays; /* ITEM_ARRAY */
	int narrays;
	struct ast_dist *dist;
	struct ast_layout *layout;
	struct ast_candidate *candidate;
	struct ast_superstep *superstep;
	char *path;                /* ITEM_IMPORT */
};

struct ast_spec {
	struct ast_item **items;
	int nitems;
	/* every loop, in source order of their 'for' (outer before inner); the
	 * supersteps of their bodies are items or candidate supersteps as any */
	struct ast_loop **loops;
	int nloops;
};

/* --- constructors ---
 *
 * Out of memory is a value, as everywhere in bspcost: a constructor that
 * cannot build its node returns NULL.  Every constructor takes ownership of
 * its pointer arguments, and frees them when it returns NULL; a required
 * argument that is NULL (its own construction failed) makes it return NULL
 * too, so constructors compose without checks in between.  Optional
 * arguments (a statement's forall and work, a quantifier's condition) may
 * be NULL. */

/* A growable array of pointers, for the lists the grammar builds. */
struct ptr_list {
	void **v;
	int n, cap;
};
/* Appends P to L; -1 when out of memory (P not taken, L unchanged). */
int ptr_list_push(struct ptr_list *l, void *p);
/* L (a new list when NULL) with P appended; NULL when out of memory or P is
 * NULL, with P and L freed (each element with FREE_ELEM). */
struct ptr_list *ptr_list_append(struct ptr_list *l, void *p, void (*free_elem)(void *));

struct ast_expr *ast_int(struct span sp, long long value);
struct ast_expr *ast_name(struct span sp, char *name);
struct ast_expr *ast_index(struct span sp, char *name, struct span name_span, struct ptr_list *subs);
struct ast_expr *ast_call(struct span sp, char *name, struct span name_span, struct ast_expr *arg);
struct ast_expr *ast_unary(struct span sp, enum expr_kind kind, struct ast_expr *e);
struct ast_expr *ast_binary(struct span sp, enum expr_kind kind, struct ast_expr *l, struct ast_expr *r);
/* l + r or l - r (kind), where l may be a chain built by earlier calls: the
 * same value as ast_binary, as a tree of depth O(log n) over n operands. */
struct ast_expr *ast_chain(enum expr_kind kind, struct ast_expr *l, struct ast_expr *r);
struct ast_expr *ast_sum(struct span sp, struct ast_quant *q, struct ast_expr *body);
struct ast_expr *ast_error_expr(struct span sp);

struct ast_cmp *ast_cmp_new(struct span sp, struct ast_expr *l, enum cmp_op op, struct ast_expr *r);
struct ast_cmp *ast_cmp_extend(struct ast_cmp *c, struct span sp, enum cmp_op op, struct ast_expr *r);
struct ast_cond *ast_cond_new(struct ast_cmp *c);
struct ast_cond *ast_cond_and(struct ast_cond *k, struct ast_cmp *c);
/* Whether comparison chain C has the shape of a variable range, "v < e" or
 * "lo <= v < hi". */
bool ast_cmp_is_range(const struct ast_cmp *c);
/* The range that C (taken), of that shape, reads. */
struct ast_var *ast_var_from_cmp(struct ast_cmp *c);
struct ast_quant *ast_quant_new(struct span sp, struct ptr_list *vars, struct ast_cond *cond);

struct ast_stmt *ast_stmt_new(struct span sp, struct ast_quant *forall, struct ast_expr *lhs,
			      struct ast_expr *rhs, struct ast_expr *work);
struct ast_param *ast_param_new(struct span sp, char *name);
struct ast_array *ast_array_new(struct span sp, char *name, struct span name_span,
				struct ptr_list *extents, long long elem_size, struct span elem_span);
struct ast_dist *ast_dist_new(struct span sp, char *name, struct span name_span,
			      struct ast_dkind *alts, int nalts, char *axis, struct span axis_span);
struct ast_layout *ast_layout_new(struct span sp, char *name, struct span name_span,
				  struct ast_ldim *dims, int ndims);

void ast_expr_free(struct ast_expr *e);
void ast_cmp_free(struct ast_cmp *c);
void ast_cond_free(struct ast_cond *c);
void ast_var_free(struct ast_var *v);
void ast_quant_free(struct ast_quant *q);
void ast_stmt_free(struct ast_stmt *s);
void ast_param_free(struct ast_param *p);
void ast_array_free(struct ast_array *a);
void ast_dist_free(struct ast_dist *d);
void ast_layout_free(struct ast_layout *l);
void ast_candidate_free(struct ast_candidate *c);
void ast_superstep_free(struct ast_superstep *s);
void ast_loop_free(struct ast_loop *l);
void ast_item_free(struct ast_item *it);
void ast_spec_free(struct ast_spec *s);
void ptr_list_free(struct ptr_list *l, void (*free_elem)(void *));

/* P (NULL: a new array) resized to N elements of SIZE bytes; NULL when out
 * of memory or when N * SIZE overflows (P is then unchanged). */
void *ast_array_grow(void *p, size_t n, size_t size);
/* The first N bytes of S as a string, malloc'd; NULL when out of memory. */
char *ast_strndup(const char *s, size_t n);

const char *dist_kind_name(enum dist_kind k);
const char *cmp_op_text(enum cmp_op op);

/* --- the canonical printer (grammar/print.c) --- */
#include <stdio.h>
void print_spec(FILE *out, const struct ast_spec *spec);
void print_expr(FILE *out, const struct ast_expr *e);
/* A statement on one line, without its work weight: "forall i < n : v[i] = ...". */
void print_stmt_line(FILE *out, const struct ast_stmt *s);
/* The canonical text of an expression, malloc'd; NULL when out of memory. */
char *expr_to_string(const struct ast_expr *e);

#endif
