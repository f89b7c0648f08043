/* The lowering's shared state and its positional forms (lower.c,
 * lower_forms.c): private to analyzer/model/lower*.c. */
#ifndef BSPCOST_LOWER_INTERNAL_H
#define BSPCOST_LOWER_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "analyzer/model/lower.h"
#include "analyzer/util/fail.h"

/* The most quotients by a constant in one statement, and the most cases of
 * one reference (the product of its quotients' ranges by sizes). */
enum { LOWER_MAX_QUOTIENTS = 32, LOWER_MAX_CASES = 64 };

/* The quotients of the statement being lowered (struct affine_floor).  A
 * quotient by a constant is a variable of the statement past its own
 * (ast_stmt.nvars + k), defined by 0 <= num - den*e <= den - 1 in the space
 * of the reference it appears in; a quotient by a size has one value per
 * case of its reference, which is lowered once per case. */
struct quotients {
	int nvars;                                   /* the statement's own */
	const struct affine_floor *var[LOWER_MAX_QUOTIENTS];
	int nvar;
	const struct affine_floor *sym[LOWER_MAX_CASES];
	int q[LOWER_MAX_CASES];                      /* their values in this case */
	int nsym;
};

struct lowering {
	const struct checked_spec *cs;
	bool flops;
	struct model *m;
	struct quotients *quo;   /* the statement's, while it is lowered */
	struct fail fail;   /* the first failure (analyzer/util/fail.h) */
};

char *lw_affine_text(struct lowering *lw, struct ast_var *const *vars, const struct affine *f);

/* F by position, plus VCOEF times statement variable VAR (none when VCOEF is
 * 0), all times SCALE, plus ADD; a quotient by a constant is its variable
 * (lw->quo), one by a size its value in the case.  Returns 0, or -1 (the
 * lowering failed: overflow, a quotient unknown, out of memory) with *OUT
 * empty. */
int lw_pos_aff(struct lowering *lw, struct model_aff *out, const struct affine *f,
	       long long scale, int var, long long vcoef, long long add);

/* The quotients of REF's subscripts added to Q; false (the lowering
 * refused) when its quotients by sizes, from FROM on, make more than
 * LOWER_MAX_CASES cases. */
bool lw_ref_quotients(struct lowering *lw, struct quotients *q, const struct ref_info *ref, int from);

/* The quotients of the condition of FORALL (NULL: none), by constants,
 * added to Q; false when the lowering refused (too many). */
bool lw_cond_quotients(struct lowering *lw, struct quotients *q, const struct ast_quant *forall);

/* The next case of the quotients by sizes Q->sym[from..nsym); false after
 * the last (each back at its least value). */
bool lw_next_quotient_case(struct quotients *q, int from);

/* F >= 0 (F cleared) into S's constraints. */
void lw_add_cons(struct lowering *lw, struct model_space *s, struct model_aff *f);

/* Into S: the variables of the quotients by constants Q->var[from..to),
 * with their definitions 0 <= num - den*e <= den - 1 when DEFINE, and the
 * case of the quotients by sizes Q->sym[sfrom..sto). */
void lw_add_quotients(struct lowering *lw, const struct ast_stmt *st, struct model_space *s,
		      const struct quotients *q, int from, int to, bool define, int sfrom, int sto);

#endif
