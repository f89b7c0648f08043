/* AST constructors and destructors. */
#include "grammar/ast.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *ast_array_grow(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	size_t bytes = n * size;
	return realloc(p, bytes ? bytes : 1);
}

char *ast_strndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

struct span span_join(struct span a, struct span b)
{
	struct span s = {a.first_line, a.first_column, b.last_line, b.last_column};
	return s;
}

int ptr_list_push(struct ptr_list *l, void *p)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 4;
		void **v = ast_array_grow(l->v, (size_t)cap, sizeof(*l->v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = p;
	return 0;
}

struct ptr_list *ptr_list_append(struct ptr_list *l, void *p, void (*free_elem)(void *))
{
	if (p && !l)
		l = calloc(1, sizeof(*l));
	if (!p || !l || ptr_list_push(l, p) < 0) {
		if (p && free_elem)
			free_elem(p);
		ptr_list_free(l, free_elem);
		return NULL;
	}
	return l;
}

void ptr_list_free(struct ptr_list *l, void (*free_elem)(void *))
{
	if (!l)
		return;
	for (int i = 0; free_elem && i < l->n; i++)
		free_elem(l->v[i]);
	free(l->v);
	free(l);
}

const char *dist_kind_name(enum dist_kind k)
{
	switch (k) {
	case DIST_NONE: return "*";
	case DIST_BLOCK: return "block";
	case DIST_CYCLIC: return "cyclic";
	case DIST_BLOCK_CYCLIC: return "cyclic";
	case DIST_IDENTITY: return "identity";
	case DIST_REPLICATED: return "replicated";
	case DIST_NKINDS: break;
	}
	return "?";
}

const char *cmp_op_text(enum cmp_op op)
{
	static const char *const text[] = {"<", "<=", ">", ">=", "==", "!="};
	return text[op];
}

/* --- expressions --- */

/* Every constructor takes its operands: when it cannot build its node (out
 * of memory, or an operand that is NULL because its own construction
 * failed) it frees them and returns NULL. */

static struct ast_expr *expr_new(enum expr_kind kind, struct span sp)
{
	struct ast_expr *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->kind = kind;
	e->span = sp;
	e->depth = 1;
	e->sym = SYM_NONE;
	return e;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

struct ast_expr *ast_int(struct span sp, long long value)
{
	struct ast_expr *e = expr_new(EXPR_INT, sp);
	if (e)
		e->value = value;
	return e;
}

struct ast_expr *ast_name(struct span sp, char *name)
{
	struct ast_expr *e = name ? expr_new(EXPR_NAME, sp) : NULL;
	if (!e) {
		free(name);
		return NULL;
	}
	e->name = name;
	e->name_span = sp;
	return e;
}

static void free_expr_elem(void *p)
{
	ast_expr_free(p);
}

struct ast_expr *ast_index(struct span sp, char *name, struct span name_span, struct ptr_list *subs)
{
	struct ast_expr *e = name && subs ? expr_new(EXPR_INDEX, sp) : NULL;
	if (!e) {
		free(name);
		ptr_list_free(subs, free_expr_elem);
		return NULL;
	}
	e->name = name;
	e->name_span = name_span;
	e->args = (struct ast_expr **)subs->v;
	e->nargs = subs->n;
	for (int i = 0; i < e->nargs; i++)
		e->depth = max_int(e->depth, e->args[i]->depth + 1);
	free(subs);
	return e;
}

struct ast_expr *ast_call(struct span sp, char *name, struct span name_span, struct ast_expr *arg)
{
	struct ast_expr *e = name && arg ? expr_new(EXPR_CALL, sp) : NULL;
	struct ast_expr **args = e ? malloc(sizeof(*args)) : NULL;
	if (!args) {
		free(e);
		free(name);
		ast_expr_free(arg);
		return NULL;
	}
	e->name = name;
	e->name_span = name_span;
	e->args = args;
	e->args[0] = arg;
	e->nargs = 1;
	e->depth = arg->depth + 1;
	return e;
}

struct ast_expr *ast_unary(struct span sp, enum expr_kind kind, struct ast_expr *x)
{
	struct ast_expr *e = x ? expr_new(kind, sp) : NULL;
	if (!e) {
		ast_expr_free(x);
		return NULL;
	}
	e->lhs = x;
	e->depth = x->depth + 1;
	return e;
}

struct ast_expr *ast_binary(struct span sp, enum expr_kind kind, struct ast_expr *l, struct ast_expr *r)
{
	struct ast_expr *e = l && r ? expr_new(kind, sp) : NULL;
	if (!e) {
		ast_expr_free(l);
		ast_expr_free(r);
		return NULL;
	}
	e->lhs = l;
	e->rhs = r;
	e->depth = max_int(l->depth, r->depth) + 1;
	return e;
}

static int leaves_of(const struct ast_expr *e)
{
	return e->chain ? e->leaves : 1;
}

/* L op R, a node of a chain; L and R are not NULL. */
static struct ast_expr *chain_node(enum expr_kind kind, struct ast_expr *l, struct ast_expr *r)
{
	int leaves = leaves_of(l) + leaves_of(r);
	struct ast_expr *e = ast_binary(span_join(l->span, r->span), kind, l, r);
	if (e) {
		e->chain = true;
		e->leaves = leaves;
	}
	return e;
}

/* The chain is a left spine whose right children are balanced subtrees of
 * non-increasing size, like the digits of a binary counter: appending an
 * operand merges it with the last subtree while the two are the same size.
 * x op1 y op r is x op1 (y op' r), op' = op when op1 is '+', else flipped.
 * A merged node's span is its operands' text, whose operators may read
 * otherwise (b - c's span in a - b + c reads "b + c"): diagnostics quote
 * whole expressions, and --print prints the chain flat. */
struct ast_expr *ast_chain(enum expr_kind kind, struct ast_expr *l, struct ast_expr *r)
{
	if (!l || !r) {
		ast_expr_free(l);
		ast_expr_free(r);
		return NULL;
	}
	while (l->chain && leaves_of(l->rhs) == leaves_of(r)) {
		enum expr_kind outer = l->kind;
		enum expr_kind inner = outer == EXPR_ADD ? kind
				     : kind == EXPR_ADD ? EXPR_SUB : EXPR_ADD;
		struct ast_expr *x = l->lhs, *y = l->rhs;
		l->lhs = l->rhs = NULL;
		ast_expr_free(l);
		r = chain_node(inner, y, r);
		if (!r) {
			ast_expr_free(x);
			return NULL;
		}
		l = x;
		kind = outer;
	}
	return chain_node(kind, l, r);
}

static int cond_depth(const struct ast_cond *c)
{
	int d = 0;
	for (int i = 0; c && i < c->ncmps; i++)
		for (int j = 0; j <= c->cmps[i]->nops; j++)
			d = max_int(d, c->cmps[i]->operands[j]->depth);
	return d;
}

static int quant_depth(const struct ast_quant *q)
{
	int d = cond_depth(q->cond);
	for (int i = 0; i < q->nvars; i++) {
		if (q->vars[i]->lo)
			d = max_int(d, q->vars[i]->lo->depth);
		d = max_int(d, q->vars[i]->hi->depth);
	}
	return d;
}

struct ast_expr *ast_sum(struct span sp, struct ast_quant *q, struct ast_expr *body)
{
	struct ast_expr *e = q && body ? expr_new(EXPR_SUM, sp) : NULL;
	if (!e) {
		ast_quant_free(q);
		ast_expr_free(body);
		return NULL;
	}
	e->quant = q;
	e->lhs = body;
	e->depth = max_int(body->depth, quant_depth(q)) + 1;
	return e;
}

struct ast_expr *ast_error_expr(struct span sp)
{
	return expr_new(EXPR_ERROR, sp);
}

void ast_expr_free(struct ast_expr *e)
{
	if (!e)
		return;
	ast_expr_free(e->lhs);
	ast_expr_free(e->rhs);
	for (int i = 0; i < e->nargs; i++)
		ast_expr_free(e->args[i]);
	free(e->args);
	ast_quant_free(e->quant);
	free(e->name);
	free(e);
}

/* --- conditions and quantifiers --- */

struct ast_cmp *ast_cmp_new(struct span sp, struct ast_expr *l, enum cmp_op op, struct ast_expr *r)
{
	struct ast_cmp *c = l && r ? calloc(1, sizeof(*c)) : NULL;
	if (c) {
		c->operands = malloc(2 * sizeof(*c->operands));
		c->ops = malloc(sizeof(*c->ops));
	}
	if (!c || !c->operands || !c->ops) {
		if (c) {
			free(c->operands);
			free(c->ops);
			free(c);
		}
		ast_expr_free(l);
		ast_expr_free(r);
		return NULL;
	}
	c->span = sp;
	c->operands[0] = l;
	c->operands[1] = r;
	c->ops[0] = op;
	c->nops = 1;
	return c;
}

struct ast_cmp *ast_cmp_extend(struct ast_cmp *c, struct span sp, enum cmp_op op, struct ast_expr *r)
{
	struct ast_expr **operands = c && r ? ast_array_grow(c->operands, (size_t)c->nops + 2,
							      sizeof(*c->operands))
					    : NULL;
	if (operands)
		c->operands = operands;
	enum cmp_op *ops = operands ? ast_array_grow(c->ops, (size_t)c->nops + 1, sizeof(*c->ops))
				    : NULL;
	if (!ops) {
		ast_cmp_free(c);
		ast_expr_free(r);
		return NULL;
	}
	c->ops = ops;
	c->ops[c->nops] = op;
	c->operands[c->nops + 1] = r;
	c->nops++;
	c->span = sp;
	return c;
}

void ast_cmp_free(struct ast_cmp *c)
{
	if (!c)
		return;
	for (int i = 0; i <= c->nops; i++)
		ast_expr_free(c->operands[i]);
	free(c->operands);
	free(c->ops);
	free(c);
}

struct ast_cond *ast_cond_new(struct ast_cmp *c)
{
	struct ast_cond *k = c ? calloc(1, sizeof(*k)) : NULL;
	if (!k) {
		ast_cmp_free(c);
		return NULL;
	}
	k->span = c->span;
	return ast_cond_and(k, c);
}

struct ast_cond *ast_cond_and(struct ast_cond *k, struct ast_cmp *c)
{
	struct ast_cmp **cmps = k && c ? ast_array_grow(k->cmps, (size_t)k->ncmps + 1,
						       sizeof(*k->cmps))
				       : NULL;
	if (!cmps) {
		ast_cond_free(k);
		ast_cmp_free(c);
		return NULL;
	}
	k->cmps = cmps;
	k->cmps[k->ncmps++] = c;
	k->span = span_join(k->span, c->span);
	return k;
}

void ast_cond_free(struct ast_cond *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->ncmps; i++)
		ast_cmp_free(c->cmps[i]);
	free(c->cmps);
	free(c);
}

static bool is_upper(enum cmp_op op)
{
	return op == CMP_LT || op == CMP_LE;
}

bool ast_cmp_is_range(const struct ast_cmp *c)
{
	return (c->nops == 1 && c->operands[0]->kind == EXPR_NAME && is_upper(c->ops[0])) ||
	       (c->nops == 2 && c->operands[1]->kind == EXPR_NAME && is_upper(c->ops[0]) &&
		is_upper(c->ops[1]));
}

struct ast_var *ast_var_from_cmp(struct ast_cmp *c)
{
	struct ast_var *var = c ? calloc(1, sizeof(*var)) : NULL;
	if (!var) {
		ast_cmp_free(c);
		return NULL;
	}
	struct ast_expr *v = c->operands[c->nops == 1 ? 0 : 1];
	var->span = c->span;
	var->name = v->name;
	var->name_span = v->span;
	v->name = NULL;
	if (c->nops == 1) {
		var->hi = c->operands[1];
		var->hi_op = c->ops[0];
	} else {
		var->lo = c->operands[0];
		var->lo_op = c->ops[0];
		var->hi = c->operands[2];
		var->hi_op = c->ops[1];
	}
	ast_expr_free(v);
	free(c->operands);
	free(c->ops);
	free(c);
	return var;
}

void ast_var_free(struct ast_var *v)
{
	if (!v)
		return;
	free(v->name);
	ast_expr_free(v->lo);
	ast_expr_free(v->hi);
	free(v);
}

static void free_var_elem(void *p)
{
	ast_var_free(p);
}

struct ast_quant *ast_quant_new(struct span sp, struct ptr_list *vars, struct ast_cond *cond)
{
	struct ast_quant *q = vars ? calloc(1, sizeof(*q)) : NULL;
	if (!q) {
		ptr_list_free(vars, free_var_elem);
		ast_cond_free(cond);
		return NULL;
	}
	q->span = sp;
	q->vars = (struct ast_var **)vars->v;
	q->nvars = vars->n;
	q->cond = cond;
	free(vars);
	return q;
}

void ast_quant_free(struct ast_quant *q)
{
	if (!q)
		return;
	for (int i = 0; i < q->nvars; i++)
		ast_var_free(q->vars[i]);
	free(q->vars);
	ast_cond_free(q->cond);
	free(q);
}

/* --- statements and declarations --- */

struct ast_stmt *ast_stmt_new(struct span sp, struct ast_quant *forall, struct ast_expr *lhs,
			      struct ast_expr *rhs, struct ast_expr *work)
{
	struct ast_stmt *s = lhs && rhs ? calloc(1, sizeof(*s)) : NULL;
	if (!s) {
		ast_quant_free(forall);
		ast_expr_free(lhs);
		ast_expr_free(rhs);
		ast_expr_free(work);
		return NULL;
	}
	s->span = sp;
	s->forall = forall;
	s->lhs = lhs;
	s->rhs = rhs;
	s->work = work;
	return s;
}

void ast_stmt_free(struct ast_stmt *s)
{
	if (!s)
		return;
	ast_quant_free(s->forall);
	ast_expr_free(s->lhs);
	ast_expr_free(s->rhs);
	ast_expr_free(s->work);
	free(s->vars);
	free(s);
}

struct ast_param *ast_param_new(struct span sp, char *name)
{
	struct ast_param *p = name ? calloc(1, sizeof(*p)) : NULL;
	if (!p) {
		free(name);
		return NULL;
	}
	p->span = sp;
	p->name = name;
	return p;
}

void ast_param_free(struct ast_param *p)
{
	if (!p)
		return;
	free(p->name);
	free(p);
}

struct ast_array *ast_array_new(struct span sp, char *name, struct span name_span,
				struct ptr_list *extents, long long elem_size, struct span elem_span)
{
	struct ast_array *a = name && extents ? calloc(1, sizeof(*a)) : NULL;
	if (!a) {
		free(name);
		ptr_list_free(extents, free_expr_elem);
		return NULL;
	}
	a->span = sp;
	a->name = name;
	a->name_span = name_span;
	a->extents = (struct ast_expr **)extents->v;
	a->rank = extents->n;
	a->elem_size = elem_size;
	a->elem_size_span = elem_span;
	free(extents);
	return a;
}

void ast_array_free(struct ast_array *a)
{
	if (!a)
		return;
	for (int i = 0; i < a->rank; i++)
		ast_expr_free(a->extents[i]);
	free(a->extents);
	free(a->name);
	free(a);
}

struct ast_dist *ast_dist_new(struct span sp, char *name, struct span name_span,
			      struct ast_dkind *alts, int nalts, char *axis, struct span axis_span)
{
	struct ast_dist *d = name && alts && axis ? calloc(1, sizeof(*d)) : NULL;
	if (!d) {
		free(name);
		for (int i = 0; alts && i < nalts; i++)
			free(alts[i].block_name);
		free(alts);
		free(axis);
		return NULL;
	}
	d->span = sp;
	d->name = name;
	d->name_span = name_span;
	d->alts = alts;
	d->nalts = nalts;
	d->axis_name = axis;
	d->axis_span = axis_span;
	return d;
}

void ast_dist_free(struct ast_dist *d)
{
	if (!d)
		return;
	free(d->name);
	for (int i = 0; i < d->nalts; i++)
		free(d->alts[i].block_name);
	free(d->alts);
	free(d->axis_name);
	free(d);
}

struct ast_layout *ast_layout_new(struct span sp, char *name, struct span name_span,
				  struct ast_ldim *dims, int ndims)
{
	struct ast_layout *l = name && dims ? calloc(1, sizeof(*l)) : NULL;
	if (!l) {
		free(name);
		for (int i = 0; dims && i < ndims; i++) {
			free(dims[i].name);
			free(dims[i].dkind.block_name);
		}
		free(dims);
		return NULL;
	}
	l->span = sp;
	l->name = name;
	l->name_span = name_span;
	l->dims = dims;
	l->ndims = ndims;
	return l;
}

void ast_layout_free(struct ast_layout *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->ndims; i++) {
		free(l->dims[i].name);
		free(l->dims[i].dkind.block_name);
	}
	free(l->dims);
	free(l->name);
	free(l);
}

void ast_candidate_free(struct ast_candidate *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nlayouts; i++)
		ast_layout_free(c->layouts[i]);
	free(c->layouts);
	for (int i = 0; i < c->narrays; i++)
		ast_array_free(c->arrays[i]);
	free(c->arrays);
	for (int i = 0; i < c->nsupersteps; i++)
		ast_superstep_free(c->supersteps[i]);
	free(c->supersteps);
	free(c->name);
	free(c);
}

void ast_superstep_free(struct ast_superstep *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nstmts; i++)
		ast_stmt_free(s->stmts[i]);
	free(s->stmts);
	free(s->name);
	free(s);
}

void ast_loop_free(struct ast_loop *l)
{
	if (!l)
		return;
	ast_var_free(l->var);
	ast_param_free(l->param);
	free(l);
}

void ast_item_free(struct ast_item *it)
{
	if (!it)
		return;
	for (int i = 0; i < it->nparams; i++)
		ast_param_free(it->params[i]);
	free(it->params);
	for (int i = 0; i < it->nconds; i++)
		ast_cond_free(it->conds[i]);
	free(it->conds);
	for (int i = 0; i < it->narrays; i++)
		ast_array_free(it->arrays[i]);
	free(it->arrays);
	ast_dist_free(it->dist);
	ast_layout_free(it->layout);
	ast_candidate_free(it->candidate);
	ast_superstep_free(it->superstep);
	free(it->path);
	free(it);
}

void ast_spec_free(struct ast_spec *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nitems; i++)
		ast_item_free(s->items[i]);
	free(s->items);
	for (int i = 0; i < s->nloops; i++)
		ast_loop_free(s->loops[i]);
	free(s->loops);
	free(s);
}
