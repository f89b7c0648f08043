/* The canonical printer (--print).
 *
 * The output parses back to the same tree, so printing it again gives the same
 * text.  Comments and the original spacing are not kept; conditions always use
 * '|', redundant parentheses are dropped and needed ones added. */
#include "grammar/ast.h"

#include <stdlib.h>
#include <string.h>

#define INDENT "    "

enum { PREC_SUM, PREC_ADD, PREC_MUL, PREC_NEG, PREC_ATOM };

static int prec_of(const struct ast_expr *e)
{
	switch (e->kind) {
	case EXPR_SUM: return PREC_SUM;
	case EXPR_ADD: case EXPR_SUB: return PREC_ADD;
	case EXPR_MUL: case EXPR_DIV: case EXPR_MOD: return PREC_MUL;
	case EXPR_NEG: return PREC_NEG;
	default: return PREC_ATOM;
	}
}

static void print_quant(FILE *out, const struct ast_quant *q);
static void print_prec(FILE *out, const struct ast_expr *e, int need);

/* An operand of a chain of additions (ast_chain), printed flat as the user
 * wrote it: the balanced subtrees of the chain are walked in order, the signs
 * of a subtree after a '-' flipped.  first: the chain's leftmost operand. */
static void print_chain(FILE *out, const struct ast_expr *e, bool negate, bool first)
{
	if (e->chain) {
		print_chain(out, e->lhs, negate, first);
		print_chain(out, e->rhs, negate != (e->kind == EXPR_SUB), false);
		return;
	}
	if (!first)
		fputs(negate ? " - " : " + ", out);
	print_prec(out, e, first ? PREC_ADD : PREC_ADD + 1);
}

static void print_prec(FILE *out, const struct ast_expr *e, int need)
{
	bool paren = prec_of(e) < need;
	if (paren)
		fputc('(', out);
	switch (e->kind) {
	case EXPR_INT:
		fprintf(out, "%lld", e->value);
		break;
	case EXPR_NAME:
		fputs(e->name, out);
		break;
	case EXPR_INDEX:
		fputs(e->name, out);
		for (int i = 0; i < e->nargs; i++) {
			fputc('[', out);
			print_prec(out, e->args[i], PREC_SUM);
			fputc(']', out);
		}
		break;
	case EXPR_CALL:
		fprintf(out, "%s(", e->name);
		print_prec(out, e->args[0], PREC_SUM);
		fputc(')', out);
		break;
	case EXPR_NEG:
		fputc('-', out);
		print_prec(out, e->lhs, PREC_ATOM);
		break;
	case EXPR_ADD: case EXPR_SUB:
		print_chain(out, e->lhs, false, true);
		print_chain(out, e->rhs, e->kind == EXPR_SUB, false);
		break;
	case EXPR_MUL: case EXPR_DIV: case EXPR_MOD: {
		static const char ops[] = "+-*/%";
		int p = prec_of(e);
		print_prec(out, e->lhs, p);
		fprintf(out, " %c ", ops[e->kind - EXPR_ADD]);
		print_prec(out, e->rhs, p + 1);
		break;
	}
	case EXPR_SUM:
		fputs("sum ", out);
		print_quant(out, e->quant);
		fputs(" : ", out);
		print_prec(out, e->lhs, PREC_SUM);
		break;
	case EXPR_ERROR:
		fputs("<error>", out);
		break;
	}
	if (paren)
		fputc(')', out);
}

void print_expr(FILE *out, const struct ast_expr *e)
{
	print_prec(out, e, PREC_SUM);
}

char *expr_to_string(const struct ast_expr *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	print_expr(f, e);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Comparison operands bind tighter than the comparison; a sum needs parentheses. */
static void print_cmp(FILE *out, const struct ast_cmp *c)
{
	for (int i = 0; i <= c->nops; i++) {
		if (i > 0)
			fprintf(out, " %s ", cmp_op_text(c->ops[i - 1]));
		print_prec(out, c->operands[i], PREC_ADD);
	}
}

static void print_cond(FILE *out, const struct ast_cond *c)
{
	for (int i = 0; i < c->ncmps; i++) {
		if (i > 0)
			fputs(" and ", out);
		print_cmp(out, c->cmps[i]);
	}
}

static void print_quant(FILE *out, const struct ast_quant *q)
{
	for (int i = 0; i < q->nvars; i++) {
		const struct ast_var *v = q->vars[i];
		if (i > 0)
			fputs(", ", out);
		if (v->lo) {
			print_prec(out, v->lo, PREC_ADD);
			fprintf(out, " %s ", cmp_op_text(v->lo_op));
		}
		fprintf(out, "%s %s ", v->name, cmp_op_text(v->hi_op));
		print_prec(out, v->hi, PREC_ADD);
	}
	if (q->cond) {
		fputs(" | ", out);
		print_cond(out, q->cond);
	}
}

static void print_dkind(FILE *out, const struct ast_dkind *k)
{
	if (k->kind == DIST_BLOCK_CYCLIC && k->block_name)
		fprintf(out, "cyclic(%s)", k->block_name);
	else if (k->kind == DIST_BLOCK_CYCLIC)
		fprintf(out, "cyclic(%lld)", k->block);
	else
		fputs(dist_kind_name(k->kind), out);
}

static void print_layout(FILE *out, const struct ast_layout *l, const char *indent)
{
	fprintf(out, "%slayout %s : ", indent, l->name);
	for (int i = 0; i < l->ndims; i++) {
		const struct ast_ldim *d = &l->dims[i];
		if (i > 0)
			fputs(" x ", out);
		switch (d->kind) {
		case LDIM_STAR:
			fputc('*', out);
			break;
		case LDIM_NAMED:
			fputs(d->name, out);
			break;
		case LDIM_INLINE:
			print_dkind(out, &d->dkind);
			fprintf(out, " over %s", d->name);
			break;
		}
	}
	fputs(";\n", out);
}

static void print_stmt(FILE *out, const struct ast_stmt *s, const char *indent)
{
	if (s->forall) {
		fprintf(out, "%s" INDENT "forall ", indent);
		print_quant(out, s->forall);
		fprintf(out, " :\n%s" INDENT INDENT, indent);
	} else {
		fprintf(out, "%s" INDENT, indent);
	}
	print_expr(out, s->lhs);
	fputs(" = ", out);
	print_expr(out, s->rhs);
	if (s->work) {
		fputs(" work ", out);
		print_expr(out, s->work);
	}
	fputs(";\n", out);
}

static void print_arrays(FILE *out, struct ast_array *const *arrays, int n, const char *indent)
{
	fprintf(out, "%sarray ", indent);
	for (int i = 0; i < n; i++) {
		const struct ast_array *a = arrays[i];
		fprintf(out, "%s%s", i ? ", " : "", a->name);
		for (int k = 0; k < a->rank; k++) {
			fputc('[', out);
			print_expr(out, a->extents[k]);
			fputc(']', out);
		}
		if (a->elem_size)
			fprintf(out, " size %lld", a->elem_size);
	}
	fputs(";\n", out);
}

static void print_superstep(FILE *out, const struct ast_superstep *st, const char *indent)
{
	fprintf(out, "%ssuperstep %s {\n", indent, st->name);
	for (int i = 0; i < st->nstmts; i++)
		print_stmt(out, st->stmts[i], indent);
	fprintf(out, "%s}\n", indent);
}

/* The loops open around the supersteps being printed, outermost first. */
struct open_loops {
	const struct ast_loop *v[64];
	int n;
};

static void put_indent(FILE *out, const char *base, int levels)
{
	fputs(base, out);
	for (int i = 0; i < levels; i++)
		fputs(INDENT, out);
}

/* Closes the open loops past the first KEEP. */
static void close_loops(FILE *out, struct open_loops *o, int keep, const char *base)
{
	while (o->n > keep) {
		o->n--;
		put_indent(out, base, o->n);
		fputs("}\n", out);
	}
}

/* Superstep ST inside the loops around it: the loops it is not in are
 * closed, those it is newly in opened. */
static void print_looped_step(FILE *out, struct open_loops *o, const struct ast_superstep *st,
			      const char *base)
{
	const struct ast_loop *chain[64];
	int n = 0;
	for (const struct ast_loop *l = st->loop; l && n < 64; l = l->outer)
		n++;
	int k = n;
	for (const struct ast_loop *l = st->loop; l && k > 0; l = l->outer)
		chain[--k] = l;
	int common = 0;
	while (common < o->n && common < n && o->v[common] == chain[common])
		common++;
	close_loops(out, o, common, base);
	for (; o->n < n; o->n++) {
		const struct ast_loop *l = chain[o->n];
		put_indent(out, base, o->n);
		fputs("for ", out);
		if (l->var->ratio) {
			/* s = a, a*r, a*r*r, ... < hi */
			long long a = l->var->lo->value, r = l->var->ratio;
			fprintf(out, "%s = %lld, %lld, %lld, ... %s ", l->var->name, a, a * r, a * r * r,
				l->var->hi_op == CMP_LE ? "<=" : "<");
			print_expr(out, l->var->hi);
		} else {
			struct ast_quant q = {.vars = (struct ast_var **)&l->var, .nvars = 1};
			print_quant(out, &q);
		}
		fputs(" {\n", out);
		o->v[o->n] = l;
	}
	char indent[64 * sizeof(INDENT) + 64];
	snprintf(indent, sizeof(indent), "%s", base);
	for (int i = 0; i < n; i++)
		strcat(indent, INDENT);
	print_superstep(out, st, indent);
}

void print_stmt_line(FILE *out, const struct ast_stmt *s)
{
	if (s->forall) {
		fputs("forall ", out);
		print_quant(out, s->forall);
		fputs(" : ", out);
	}
	print_expr(out, s->lhs);
	fputs(" = ", out);
	print_expr(out, s->rhs);
}

static void print_item(FILE *out, const struct ast_item *it, struct open_loops *o)
{
	if (it->kind != ITEM_SUPERSTEP)
		close_loops(out, o, 0, "");
	switch (it->kind) {
	case ITEM_PARAM:
	case ITEM_GRID:
		fputs(it->kind == ITEM_PARAM ? "param " : "grid ", out);
		for (int i = 0; i < it->nparams; i++)
			fprintf(out, "%s%s", i ? ", " : "", it->params[i]->name);
		fputs(";\n", out);
		break;
	case ITEM_ASSUME:
		fputs("assume ", out);
		for (int i = 0; i < it->nconds; i++) {
			if (i > 0)
				fputs(", ", out);
			print_cond(out, it->conds[i]);
		}
		fputs(";\n", out);
		break;
	case ITEM_ARRAY:
		print_arrays(out, it->arrays, it->narrays, "");
		break;
	case ITEM_DIST:
		fprintf(out, "dist %s = ", it->dist->name);
		for (int i = 0; i < it->dist->nalts; i++) {
			if (i > 0)
				fputs(" | ", out);
			print_dkind(out, &it->dist->alts[i]);
		}
		fprintf(out, " over %s;\n", it->dist->axis_name);
		break;
	case ITEM_LAYOUT:
		print_layout(out, it->layout, "");
		break;
	case ITEM_CANDIDATE: {
		const struct ast_candidate *c = it->candidate;
		fprintf(out, "candidate %s {\n", c->name);
		if (c->narrays > 0)
			print_arrays(out, c->arrays, c->narrays, INDENT);
		for (int i = 0; i < c->nlayouts; i++)
			print_layout(out, c->layouts[i], INDENT);
		struct open_loops o = {.n = 0};
		for (int i = 0; i < c->nsupersteps; i++)
			print_looped_step(out, &o, c->supersteps[i], INDENT);
		close_loops(out, &o, 0, INDENT);
		fputs("}\n", out);
		break;
	}
	case ITEM_SUPERSTEP:
		print_looped_step(out, o, it->superstep, "");
		break;
	case ITEM_IMPORT:
		fprintf(out, "import \"%s\";\n", it->path);
		break;
	}
}

/* Declarations come in groups separated by a blank line: the header
 * (param, grid, assume, import), arrays, dists, layouts; each block stands
 * alone. */
static int group_of(enum item_kind k)
{
	switch (k) {
	case ITEM_PARAM: case ITEM_GRID: case ITEM_ASSUME: case ITEM_IMPORT: return 0;
	case ITEM_ARRAY: return 1;
	case ITEM_DIST: return 2;
	case ITEM_LAYOUT: return 3;
	default: return 4;
	}
}

/* Items in source order; a blank line where the group changes and around
 * every block. */
void print_spec(FILE *out, const struct ast_spec *spec)
{
	struct open_loops o = {.n = 0};
	for (int i = 0; i < spec->nitems; i++) {
		const struct ast_item *it = spec->items[i];
		if (i > 0) {
			enum item_kind prev = spec->items[i - 1]->kind;
			bool block = it->kind == ITEM_CANDIDATE || it->kind == ITEM_SUPERSTEP ||
				     prev == ITEM_CANDIDATE || prev == ITEM_SUPERSTEP;
			/* supersteps of one loop stay together */
			bool inside = it->kind == ITEM_SUPERSTEP && prev == ITEM_SUPERSTEP &&
				      it->superstep->loop && o.n > 0;
			if (!inside && (block || group_of(prev) != group_of(it->kind)))
				fputc('\n', out);
		}
		print_item(out, it, &o);
	}
	close_loops(out, &o, 0, "");
}
