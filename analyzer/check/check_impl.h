/* Internals shared by check.c and check_bounds.c; not part of the API. */
#ifndef BSPCOST_CHECK_IMPL_H
#define BSPCOST_CHECK_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/check/check.h"

struct isl_ctx;

struct sym {
	const char *name;     /* NULL: free slot */
	enum sym_kind kind;
	struct span span;
	void *decl;
};

struct symtab {
	struct sym *slots;
	size_t cap, n;        /* cap is a power of two */
};

struct checker {
	struct diag *dg;
	struct checked_spec *cs;
	struct arena *arena;
	struct symtab globals;
	/* the candidate block being checked (its arrays are visible there), or
	 * NULL at the top level */
	const struct ast_candidate *cand;
	/* the innermost loop around the superstep (or loop range) being
	 * checked: the variables of it and its outer loops are visible */
	const struct ast_loop *loop;
	struct sym loop_sym;          /* find_sym's answer for a loop variable */
	/* the statement being checked */
	struct ast_var **scope;       /* visible variables, innermost last */
	int nscope, capscope;
	const struct ast_quant **quants; /* enclosing quantifiers */
	const struct ast_quant *forall;  /* the statement's, NULL if none */
	int nquants, capquants;
	struct ptr_list stmt_vars;
	struct ptr_list refs;
	bool bounds_ok;               /* every bound and condition is affine */
	/* where '/' and '%' may appear: nowhere, in a subscript, or in an
	 * operand of a forall's condition (divisors: positive constants) */
	enum { FLOORS_NO, FLOORS_SUBSCRIPT, FLOORS_CONDITION } floor_ok;
	int nfloors;                  /* the floors numbered so far */
	/* ISL, for the bounds check */
	struct isl_ctx *isl;
	struct session *session;
	bool isl_ready;
	bool stopped;                 /* the deadline stopped the bounds check */
};

/* E's text for a message (expr_to_string), malloc'd; NULL when out of
 * memory, said to the sink: a message quoting it is then never printed
 * (glibc writes a NULL %s as "(null)"). */
char *expr_text(struct checker *ck, const struct ast_expr *e);
/* N bytes, zeroed, freed with the checked specification; NULL when out of
 * memory, said to the sink (diag_nomem). */
void *arena_alloc(struct arena *a, size_t n);
char *arena_strdup(struct arena *a, const char *s);
const char *sym_kind_text(enum sym_kind k);
bool aff_is_const(const struct affine *a);
bool aff_equal(const struct affine *a, const struct affine *b);

/* Whether parameter P of the checked specification is a size, or the
 * variable of LOOP or of a loop around it (the parameters a superstep in
 * LOOP may use). */
bool param_in_scope(const struct checked_spec *cs, int p, const struct ast_loop *loop);

/* check_bounds.c */
int bounds_init(struct checker *ck, struct session *session);
void bounds_done(struct checker *ck);
void check_stmt_bounds(struct checker *ck, const struct ast_stmt *s);

#endif
