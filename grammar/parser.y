/* The bspcost grammar: a pure bison parser with locations.
 *
 * Actions stay thin: they call the constructors of grammar/ast.h and append
 * finished items to the specification in the parser state.  Errors are
 * reported through the diagnostics sink with readable token names, and the
 * parser recovers at the next ';' (or '}') so one run reports every error.
 * The final grammar is documented in man/bspcost.5. */

%define api.pure full
%define api.location.type {struct span}
%define parse.error custom
%locations
%expect 0
%parse-param {struct parser *ps}
%param {yyscan_t scanner}

%code requires {
#include "grammar/ast.h"
#include "grammar/parse.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* Lists of small value types the grammar collects. */
struct dkind_list {
	struct ast_dkind *v;
	int n;
};
struct ldim_list {
	struct ast_ldim *v;
	int n;
};
/* What a candidate block declares, as the grammar collects it. */
struct cand_body {
	struct ptr_list layouts, arrays, steps;
};
}

%code {
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

/* The bison stack grows on the heap up to this many entries; deeper input is
 * refused with a message instead of exhausting memory. */
#define YYMAXDEPTH 10000

static void yyerror(const struct span *loc, struct parser *ps, yyscan_t scanner, const char *msg);
static void add_item(struct parser *ps, struct ast_item *it);
static struct ast_item *item_new(enum item_kind kind, struct span sp);
static struct ast_expr *bounded(struct parser *ps, struct ast_expr *e);
static struct ast_cmp *divides(struct parser *ps, struct span sp, struct ast_expr *d, char *word,
			       struct span wsp, struct ast_expr *e);
static void free_expr_list(struct ptr_list *l);
static void free_param_list(struct ptr_list *l);
static void free_var_list(struct ptr_list *l);
static void free_cond_list(struct ptr_list *l);
static void free_array_list(struct ptr_list *l);
static void free_stmt_list(struct ptr_list *l);
static void free_ldims(struct ldim_list *l);
static void free_cand_body(struct cand_body *b);
static struct ast_superstep *superstep_new(struct span sp, char *name, struct span name_span,
					   struct ptr_list *stmts);
static void loop_new(struct parser *ps, struct span sp, struct ast_var *var, struct ptr_list *steps);
static struct ast_var *geometric_range(struct parser *ps, struct span sp, char *name,
				       struct span name_span, long long a, long long b, long long c,
				       struct span values, int op, struct ast_expr *hi);
static void free_step_list(struct ptr_list *l);
}

%union {
	long long num;
	char *str;
	int op;
	struct ast_expr *expr;
	struct ast_cmp *cmp;
	struct ast_cond *cond;
	struct ast_var *var;
	struct ast_quant *quant;
	struct ast_stmt *stmt;
	struct ast_array *array;
	struct ast_layout *layout;
	struct ast_dkind dkind;
	struct ast_ldim ldim;
	struct dkind_list *dkinds;
	struct ldim_list *ldims;
	struct ptr_list *exprs;
	struct ptr_list *params;
	struct ptr_list *vars;
	struct ptr_list *conds;
	struct ptr_list *arrays;
	struct ptr_list *stmts;
	struct ptr_list *layouts;
	struct ptr_list *steps;
	struct cand_body *body;
}

%token END 0 "end of file"
%token <str> IDENT "identifier"
%token <num> INT "integer"
%token <str> STRING "string"
%token PARAM "param" GRID "grid" ASSUME "assume" ARRAY "array" SIZE "size"
%token DIST "dist" OVER "over" LAYOUT "layout" CANDIDATE "candidate"
%token FOR "for"
%token SUPERSTEP "superstep" FORALL "forall" SUM "sum" WHERE "where" AND "and"
%token BLOCK "block" CYCLIC "cyclic" IDENTITY "identity" WORK "work" IMPORT "import"
%token REPLICATED "replicated"
%token LE "<=" GE ">=" EQ "==" NE "!="
%token ELLIPSIS "..."

%type <expr> expr work_opt
%type <cmp> cmp chain
%type <cond> cond cond_opt
%type <var> range loop_range
%type <quant> quant
%type <stmt> stmt
%type <array> array_decl
%type <layout> layout_decl
%type <dkind> dkind
%type <ldim> ldim
%type <dkinds> dkinds
%type <ldims> ldims
%type <exprs> subs
%type <params> names
%type <vars> ranges
%type <conds> assumptions
%type <arrays> array_decls
%type <stmts> stmts
%type <body> cand_body
%type <steps> loop_body
%type <num> size_opt
%type <op> relop

%destructor { free($$); } <str>
%destructor { ast_expr_free($$); } <expr>
%destructor { ast_cmp_free($$); } <cmp>
%destructor { ast_cond_free($$); } <cond>
%destructor { ast_var_free($$); } <var>
%destructor { ast_quant_free($$); } <quant>
%destructor { ast_stmt_free($$); } <stmt>
%destructor { ast_array_free($$); } <array>
%destructor { ast_layout_free($$); } <layout>
%destructor { free($$.name); free($$.dkind.block_name); } <ldim>
%destructor { free($$.block_name); } <dkind>
%destructor { if ($$) { for (int i = 0; i < $$->n; i++) free($$->v[i].block_name); free($$->v); } free($$); } <dkinds>
%destructor { free_ldims($$); } <ldims>
%destructor { free_expr_list($$); } <exprs>
%destructor { free_param_list($$); } <params>
%destructor { free_var_list($$); } <vars>
%destructor { free_cond_list($$); } <conds>
%destructor { free_array_list($$); } <arrays>
%destructor { free_stmt_list($$); } <stmts>
%destructor { free_cand_body($$); } <body>
%destructor { free_step_list($$); } <steps>

%precedence SUMBODY
%left '+' '-'
%left '*' '/' '%'
%precedence UMINUS

%%

/* spec -> item* */
spec
	: %empty
	| spec item
	;

/* item -> declaration ';' | candidate block | superstep block | loop */
item
	: PARAM names ';'
		{ struct ast_item *it = item_new(ITEM_PARAM, @$);
		  it->params = (struct ast_param **)$2->v; it->nparams = $2->n; free($2);
		  add_item(ps, it); }
	| GRID names ';'
		{ struct ast_item *it = item_new(ITEM_GRID, @$);
		  it->params = (struct ast_param **)$2->v; it->nparams = $2->n; free($2);
		  for (int i = 0; i < it->nparams; i++) it->params[i]->kind = SYM_GRID_AXIS;
		  add_item(ps, it); }
	| ASSUME assumptions ';'
		{ struct ast_item *it = item_new(ITEM_ASSUME, @$);
		  it->conds = (struct ast_cond **)$2->v; it->nconds = $2->n; free($2);
		  add_item(ps, it); }
	| ARRAY array_decls ';'
		{ struct ast_item *it = item_new(ITEM_ARRAY, @$);
		  it->arrays = (struct ast_array **)$2->v; it->narrays = $2->n; free($2);
		  add_item(ps, it); }
	| DIST IDENT '=' dkinds OVER IDENT ';'
		{ struct ast_item *it = item_new(ITEM_DIST, @$);
		  it->dist = ast_dist_new(@$, $2, @2, $4->v, $4->n, $6, @6); free($4);
		  add_item(ps, it); }
	| layout_decl
		{ struct ast_item *it = item_new(ITEM_LAYOUT, @$);
		  it->layout = $1;
		  add_item(ps, it); }
	| CANDIDATE IDENT '{' cand_body '}'
		{ struct ast_item *it = item_new(ITEM_CANDIDATE, @$);
		  struct ast_candidate *c = xcalloc(1, sizeof(*c));
		  it->candidate = c;
		  c->name = $2; c->name_span = @2; c->span = @$;
		  c->layouts = (struct ast_layout **)$4->layouts.v; c->nlayouts = $4->layouts.n;
		  c->arrays = (struct ast_array **)$4->arrays.v; c->narrays = $4->arrays.n;
		  c->supersteps = (struct ast_superstep **)$4->steps.v; c->nsupersteps = $4->steps.n;
		  free($4);
		  add_item(ps, it); }
	| SUPERSTEP IDENT '{' stmts '}'
		{ struct ast_item *it = item_new(ITEM_SUPERSTEP, @$);
		  it->superstep = superstep_new(@$, $2, @2, $4);
		  add_item(ps, it); }
	| FOR loop_range '{' loop_body '}'
		{ loop_new(ps, span_join(@1, @2), $2, $4);
		  for (int i = 0; i < $4->n; i++) {
			struct ast_superstep *st = $4->v[i];
			struct ast_item *it = item_new(ITEM_SUPERSTEP, st->span);
			it->superstep = st;
			add_item(ps, it);
		  }
		  free($4->v); free($4); }
	| IMPORT STRING ';'
		{ struct ast_item *it = item_new(ITEM_IMPORT, @$);
		  it->path = $2;
		  add_item(ps, it); }
	| error ';'  { yyerrok; }
	| error '}'  { yyerrok; }
	;

/* names -> IDENT (',' IDENT)* */
names
	: IDENT                 { $$ = xcalloc(1, sizeof(*$$)); ptr_list_push($$, ast_param_new(@1, $1)); }
	| names ',' IDENT       { $$ = $1; ptr_list_push($$, ast_param_new(@3, $3)); }
	;

/* assumptions -> cond (',' cond)* */
assumptions
	: cond                  { $$ = xcalloc(1, sizeof(*$$)); ptr_list_push($$, $1); }
	| assumptions ',' cond  { $$ = $1; ptr_list_push($$, $3); }
	;

/* array_decls -> array_decl (',' array_decl)* */
array_decls
	: array_decl                 { $$ = xcalloc(1, sizeof(*$$)); ptr_list_push($$, $1); }
	| array_decls ',' array_decl { $$ = $1; ptr_list_push($$, $3); }
	;

/* array_decl -> IDENT ('[' expr ']')+ ['size' INT] */
array_decl
	: IDENT subs size_opt
		{ $$ = ast_array_new(@$, $1, @1, $2, $3, @3); }
	;

size_opt
	: %empty       { $$ = 0; }
	| SIZE INT
		{ $$ = $2;   /* LEX_INT_TOO_LARGE: the scanner has said why */
		  if ($2 <= 0 && $2 != LEX_INT_TOO_LARGE) diag_error(ps->dg, @2, "element size must be positive"); }
	;

/* dkinds -> dkind ('|' dkind)* */
dkinds
	: dkind
		{ $$ = xcalloc(1, sizeof(*$$)); $$->v = xmalloc(sizeof(*$$->v)); $$->v[0] = $1; $$->n = 1; }
	| dkinds '|' dkind
		{ $$ = $1; $$->v = xrealloc($$->v, (size_t)$$->n + 1, sizeof(*$$->v)); $$->v[$$->n++] = $3; }
	;

/* dkind -> 'block' | 'cyclic' | 'cyclic' '(' INT ')' | 'cyclic' '(' IDENT ')'
 *        | 'identity' | 'replicated' */
dkind
	: BLOCK                 { $$ = (struct ast_dkind){DIST_BLOCK, 0, @$, NULL, -1}; }
	| CYCLIC                { $$ = (struct ast_dkind){DIST_CYCLIC, 0, @$, NULL, -1}; }
	| CYCLIC '(' INT ')'
		{ $$ = (struct ast_dkind){DIST_BLOCK_CYCLIC, $3, @$, NULL, -1};
		  if ($3 <= 0 && $3 != LEX_INT_TOO_LARGE)   /* too large: said by the scanner */
			  diag_error(ps->dg, @3, "block size must be positive"); }
	| CYCLIC '(' IDENT ')'
		{ $$ = (struct ast_dkind){DIST_BLOCK_CYCLIC, 0, @$, $3, -1}; }
	| IDENTITY              { $$ = (struct ast_dkind){DIST_IDENTITY, 0, @$, NULL, -1}; }
	| REPLICATED            { $$ = (struct ast_dkind){DIST_REPLICATED, 0, @$, NULL, -1}; }
	;

/* layout_decl -> 'layout' IDENT ':' ldim ('x' ldim)* ';' */
layout_decl
	: LAYOUT IDENT ':' ldims ';'
		{ $$ = ast_layout_new(@$, $2, @2, $4->v, $4->n); free($4); }
	;

ldims
	: ldim
		{ $$ = xcalloc(1, sizeof(*$$)); $$->v = xmalloc(sizeof(*$$->v)); $$->v[0] = $1; $$->n = 1; }
	| ldims IDENT ldim
		{ $$ = $1;
		  if (strcmp($2, "x") != 0)
			diag_error(ps->dg, @2, "expected 'x' between layout dimensions, found '%s'", $2);
		  free($2);
		  $$->v = xrealloc($$->v, (size_t)$$->n + 1, sizeof(*$$->v)); $$->v[$$->n++] = $3; }
	;

/* ldim -> IDENT | '*' | dkind 'over' IDENT */
ldim
	: IDENT                 { $$ = (struct ast_ldim){.kind = LDIM_NAMED, .span = @$, .name = $1, .name_span = @1}; }
	| '*'                   { $$ = (struct ast_ldim){.kind = LDIM_STAR, .span = @$}; }
	| dkind OVER IDENT      { $$ = (struct ast_ldim){.kind = LDIM_INLINE, .span = @$, .name = $3,
						     .name_span = @3, .dkind = $1}; }
	;

/* cand_body -> (layout_decl | 'array' array_decls ';' | superstep)*: the
 * layouts of a candidate, and for a program variant its own arrays and
 * supersteps */
cand_body
	: %empty                     { $$ = xcalloc(1, sizeof(*$$)); }
	| cand_body layout_decl      { $$ = $1; ptr_list_push(&$$->layouts, $2); }
	| cand_body ARRAY array_decls ';'
		{ $$ = $1;
		  for (int i = 0; i < $3->n; i++) ptr_list_push(&$$->arrays, $3->v[i]);
		  free($3->v); free($3); }
	| cand_body SUPERSTEP IDENT '{' stmts '}'
		{ $$ = $1; ptr_list_push(&$$->steps, superstep_new(span_join(@2, @6), $3, @3, $5)); }
	| cand_body FOR loop_range '{' loop_body '}'
		{ $$ = $1; loop_new(ps, span_join(@2, @3), $3, $5);
		  for (int i = 0; i < $5->n; i++) ptr_list_push(&$$->steps, $5->v[i]);
		  free($5->v); free($5); }
	| cand_body error ';'        { $$ = $1; yyerrok; }
	;

/* loop_body -> (superstep | 'for' range '{' loop_body '}')*: the supersteps
 * of a loop, those of the loops nested in it included, in order */
loop_body
	: %empty                     { $$ = xcalloc(1, sizeof(*$$)); }
	| loop_body SUPERSTEP IDENT '{' stmts '}'
		{ $$ = $1; ptr_list_push($$, superstep_new(span_join(@2, @6), $3, @3, $5)); }
	| loop_body FOR loop_range '{' loop_body '}'
		{ $$ = $1; loop_new(ps, span_join(@2, @3), $3, $5);
		  for (int i = 0; i < $5->n; i++) ptr_list_push($$, $5->v[i]);
		  free($5->v); free($5); }
	| loop_body error ';'        { $$ = $1; yyerrok; }
	;

stmts
	: %empty                { $$ = xcalloc(1, sizeof(*$$)); }
	| stmts stmt            { $$ = $1; ptr_list_push($$, $2); }
	| stmts error ';'       { $$ = $1; yyerrok; }
	;

/* stmt -> ['forall' quant ':'] expr '=' expr ['work' expr] ';' */
stmt
	: FORALL quant ':' expr '=' expr work_opt ';'
		{ $$ = ast_stmt_new(@$, $2, $4, $6, $7); }
	| expr '=' expr work_opt ';'
		{ $$ = ast_stmt_new(@$, NULL, $1, $3, $4); }
	;

work_opt
	: %empty                { $$ = NULL; }
	| WORK expr             { $$ = $2; }
	;

/* quant -> range (',' range)* [('|' | 'where') cond] */
quant
	: ranges cond_opt       { $$ = ast_quant_new(@$, $1, $2); }
	;

ranges
	: range                 { $$ = xcalloc(1, sizeof(*$$)); if ($1) ptr_list_push($$, $1); }
	| ranges ',' range      { $$ = $1; if ($3) ptr_list_push($$, $3); }
	;

range
	: cmp
		{ $$ = ast_var_from_cmp($1);
		  if (!$$) {
			diag_error(ps->dg, @1, "a range must look like 'i < n' or 'lo <= i < hi'");
			ast_cmp_free($1);
		  } }
	;

/* A loop's range: a forall's, or a geometric one, `s = 1, 2, 4, ... < P`
 * (its first three values, then the bound) */
loop_range
	: range                 { $$ = $1; }
	| IDENT '=' INT ',' INT ',' INT ',' ELLIPSIS relop expr
		{ $$ = geometric_range(ps, @$, $1, @1, $3, $5, $7, span_join(@3, @7), $10, $11); }
	;

cond_opt
	: %empty                { $$ = NULL; }
	| '|' cond              { $$ = $2; }
	| WHERE cond            { $$ = $2; }
	;

/* cond -> cmp ('and' cmp)* */
cond
	: cmp                   { $$ = ast_cond_new($1); }
	| cond AND cmp          { $$ = ast_cond_and($1, $3); }
	;

/* cmp -> expr relop expr (relop expr)* | expr 'divides' expr
 * `d divides e` is `e % d == 0` (the words the reports use); `divides` is no
 * keyword, so it stays a name anywhere else. */
cmp
	: chain                 { $$ = $1; }
	| expr IDENT expr       { $$ = divides(ps, @$, $1, $2, @2, $3); }
	;

/* a divisibility is no link of a chain: 'P divides n == 1' is an error */
chain
	: expr relop expr       { $$ = ast_cmp_new(@$, $1, (enum cmp_op)$2, $3); }
	| chain relop expr      { $$ = ast_cmp_extend($1, @$, (enum cmp_op)$2, $3); }
	;

relop
	: '<'                   { $$ = CMP_LT; }
	| LE                    { $$ = CMP_LE; }
	| '>'                   { $$ = CMP_GT; }
	| GE                    { $$ = CMP_GE; }
	| EQ                    { $$ = CMP_EQ; }
	| NE                    { $$ = CMP_NE; }
	;

expr
	: INT                   { $$ = ast_int(@$, $1); }
	| IDENT                 { $$ = ast_name(@$, $1); }
	| IDENT subs            { $$ = bounded(ps, ast_index(@$, $1, @1, $2)); }
	| IDENT '(' expr ')'    { $$ = bounded(ps, ast_call(@$, $1, @1, $3)); }
	| '(' expr ')'          { $$ = $2; $$->span = @$; $$->chain = false; }
	| '-' expr %prec UMINUS { $$ = bounded(ps, ast_unary(@$, EXPR_NEG, $2)); }
	| expr '+' expr         { $$ = bounded(ps, ast_chain(EXPR_ADD, $1, $3)); }
	| expr '-' expr         { $$ = bounded(ps, ast_chain(EXPR_SUB, $1, $3)); }
	| expr '*' expr         { $$ = bounded(ps, ast_binary(@$, EXPR_MUL, $1, $3)); }
	| expr '/' expr         { $$ = bounded(ps, ast_binary(@$, EXPR_DIV, $1, $3)); }
	| expr '%' expr         { $$ = bounded(ps, ast_binary(@$, EXPR_MOD, $1, $3)); }
	| SUM quant ':' expr %prec SUMBODY
		{ $$ = bounded(ps, ast_sum(@$, $2, $4)); }
	;

/* subs -> ('[' expr ']')+ */
subs
	: '[' expr ']'          { $$ = xcalloc(1, sizeof(*$$)); ptr_list_push($$, $2); }
	| subs '[' expr ']'     { $$ = $1; ptr_list_push($$, $3); }
	;

%%

static struct ast_item *item_new(enum item_kind kind, struct span sp)
{
	struct ast_item *it = xcalloc(1, sizeof(*it));
	it->kind = kind;
	it->span = sp;
	return it;
}

static void add_item(struct parser *ps, struct ast_item *it)
{
	struct ast_spec *s = ps->spec;
	s->items = xrealloc(s->items, (size_t)s->nitems + 1, sizeof(*s->items));
	s->items[s->nitems++] = it;
}

/* Keeps expression trees shallow enough for the recursive walkers. */
/* D WORD E: `E % D == 0` when WORD is `divides`, else an error at WORD
 * (taken), as for any name where a comparison is expected. */
static struct ast_cmp *divides(struct parser *ps, struct span sp, struct ast_expr *d, char *word,
			       struct span wsp, struct ast_expr *e)
{
	if (strcmp(word, "divides") != 0)
		diag_error(ps->dg, wsp, "expected a comparison or 'divides' before identifier '%s'%s",
			   word, diag_misspelt(word, "divides") ? "; did you mean 'divides'?" : "");
	free(word);
	struct ast_expr *mod = bounded(ps, ast_binary(sp, EXPR_MOD, e, d));
	return ast_cmp_new(sp, mod, CMP_EQ, ast_int(wsp, 0));
}

static struct ast_expr *bounded(struct parser *ps, struct ast_expr *e)
{
	if (e->depth <= AST_MAX_DEPTH)
		return e;
	if (!ps->too_deep_reported) {
		diag_error(ps->dg, e->span, "expression nested too deeply (more than %d levels)",
			   AST_MAX_DEPTH);
		ps->too_deep_reported = true;
	}
	struct span sp = e->span;
	ast_expr_free(e);
	return ast_error_expr(sp);
}

static void free_expr(void *p) { ast_expr_free(p); }
static void free_param(void *p) { ast_param_free(p); }
static void free_var(void *p) { ast_var_free(p); }
static void free_cond(void *p) { ast_cond_free(p); }
static void free_array(void *p) { ast_array_free(p); }
static void free_stmt(void *p) { ast_stmt_free(p); }
static void free_layout(void *p) { ast_layout_free(p); }
static void free_expr_list(struct ptr_list *l) { ptr_list_free(l, free_expr); }
static void free_param_list(struct ptr_list *l) { ptr_list_free(l, free_param); }
static void free_var_list(struct ptr_list *l) { ptr_list_free(l, free_var); }
static void free_cond_list(struct ptr_list *l) { ptr_list_free(l, free_cond); }
static void free_array_list(struct ptr_list *l) { ptr_list_free(l, free_array); }
static void free_stmt_list(struct ptr_list *l) { ptr_list_free(l, free_stmt); }
static void free_superstep(void *p) { ast_superstep_free(p); }

static void free_step_list(struct ptr_list *l) { ptr_list_free(l, free_superstep); }

/* for VAR { STEPS }: the loop, owned by the specification, around every
 * superstep of STEPS that no inner loop holds, and around the outermost of
 * those inner loops.  A range the grammar refused (VAR NULL, said already)
 * makes no loop. */
static void loop_new(struct parser *ps, struct span sp, struct ast_var *var, struct ptr_list *steps)
{
	if (!var)
		return;
	struct ast_loop *l = xcalloc(1, sizeof(*l));
	l->span = sp;
	l->var = var;
	struct ast_spec *s = ps->spec;
	s->loops = xrealloc(s->loops, (size_t)s->nloops + 1, sizeof(*s->loops));
	s->loops[s->nloops++] = l;
	for (int i = 0; i < steps->n; i++) {
		struct ast_superstep *st = steps->v[i];
		if (!st->loop) {
			st->loop = l;
			continue;
		}
		struct ast_loop *top = (struct ast_loop *)st->loop;
		while (top->outer)
			top = (struct ast_loop *)top->outer;
		if (top != l)
			top->outer = l;
	}
}

/* s = A, B, C, ... OP HI: the range A <= s OP HI, its values A*R^k for R =
 * B/A, an integer of at least 2 with C = B*R; NULL (said at VALUES) when the
 * values are not such a progression, or OP not '<' or '<='. */
static struct ast_var *geometric_range(struct parser *ps, struct span sp, char *name,
				       struct span name_span, long long a, long long b, long long c,
				       struct span values, int op, struct ast_expr *hi)
{
	long long r = a >= 1 && b % a == 0 ? b / a : 0, rc;
	if (r < 2 || __builtin_mul_overflow(b, r, &rc) || rc != c) {
		diag_error(ps->dg, values, "a geometric loop's first three values are a, a*r, a*r*r, "
			   "with a >= 1 and an integer ratio r >= 2 (s = 1, 2, 4, ... doubles)");
		free(name);
		ast_expr_free(hi);
		return NULL;
	}
	if (op != CMP_LT && op != CMP_LE) {
		diag_error(ps->dg, hi->span, "a geometric loop ends with '< bound' or '<= bound'");
		free(name);
		ast_expr_free(hi);
		return NULL;
	}
	struct ast_var *v = xcalloc(1, sizeof(*v));
	v->name = name;
	v->name_span = name_span;
	v->span = sp;
	v->lo = ast_int(values, a);
	v->lo_op = CMP_LE;
	v->hi = hi;
	v->hi_op = (enum cmp_op)op;
	v->ratio = r;
	return v;
}

static int loop_before(const void *a, const void *b)
{
	const struct ast_loop *x = *(struct ast_loop *const *)a, *y = *(struct ast_loop *const *)b;
	if (x->span.first_line != y->span.first_line)
		return x->span.first_line < y->span.first_line ? -1 : 1;
	return (x->span.first_column > y->span.first_column) - (x->span.first_column < y->span.first_column);
}

static void free_cand_body(struct cand_body *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->layouts.n; i++)
		free_layout(b->layouts.v[i]);
	for (int i = 0; i < b->arrays.n; i++)
		free_array(b->arrays.v[i]);
	for (int i = 0; i < b->steps.n; i++)
		free_superstep(b->steps.v[i]);
	free(b->layouts.v);
	free(b->arrays.v);
	free(b->steps.v);
	free(b);
}

/* A superstep NAME { STMTS } (STMTS taken). */
static struct ast_superstep *superstep_new(struct span sp, char *name, struct span name_span,
					   struct ptr_list *stmts)
{
	struct ast_superstep *st = xcalloc(1, sizeof(*st));
	st->name = name;
	st->name_span = name_span;
	st->span = sp;
	st->stmts = (struct ast_stmt **)stmts->v;
	st->nstmts = stmts->n;
	free(stmts);
	return st;
}

static void free_ldims(struct ldim_list *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].dkind.block_name);
	}
	free(l->v);
	free(l);
}

/* The text of the token at LOC, for "before 'x'" (short, one line). */
static void token_text(struct parser *ps, const struct span *loc, char *buf, size_t size)
{
	size_t len;
	const char *line = source_line(ps->src, loc->first_line, &len);
	size_t from = (size_t)loc->first_column - 1;
	size_t to = loc->last_line == loc->first_line ? (size_t)loc->last_column : len;
	if (!line || from >= len || to > len || to <= from) {
		snprintf(buf, size, "?");
		return;
	}
	size_t n = to - from;
	if (n > 40) {
		snprintf(buf, size, "%.37s...", line + from);
		return;
	}
	snprintf(buf, size, "%.*s", (int)n, line + from);
}

/* A token's readable name: keywords and punctuation quoted, the rest plain. */
static void symbol_text(yysymbol_kind_t sym, char *buf, size_t size)
{
	const char *name = yysymbol_name(sym);
	switch (sym) {
	case YYSYMBOL_YYEOF:
	case YYSYMBOL_IDENT:
	case YYSYMBOL_INT:
	case YYSYMBOL_STRING:
		snprintf(buf, size, "%s", name);
		return;
	default:
		break;
	}
	if (name[0] == '\'')
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "'%s'", name);
}

static const char *closer_of(char c)
{
	return c == '(' ? "')'" : c == '[' ? "']'" : "'}'";
}

/* Drops from V the tokens whose readable names are in GROUP when all of them
 * are there; true if so. */
static bool take_group(yysymbol_kind_t *v, int *n, const char *const *group, int ngroup)
{
	char one[64];
	int found = 0;
	for (int g = 0; g < ngroup; g++)
		for (int i = 0; i < *n; i++) {
			symbol_text(v[i], one, sizeof(one));
			if (strcmp(one, group[g]) == 0) {
				found++;
				break;
			}
		}
	if (found < ngroup)
		return false;
	int k = 0;
	for (int i = 0; i < *n; i++) {
		bool in = false;
		symbol_text(v[i], one, sizeof(one));
		for (int g = 0; g < ngroup; g++)
			in |= strcmp(one, group[g]) == 0;
		if (!in)
			v[k++] = v[i];
	}
	*n = k;
	return true;
}

/* "; did you mean 'superstep'?" into HINT when the identifier TEXT is a
 * misspelling of the closest keyword among the N tokens EXPECTED; else "". */
static void did_you_mean(const char *text, const yysymbol_kind_t *expected, int n, char *hint,
			 size_t size)
{
	char best[64] = "";
	size_t best_d = (size_t)-1;
	for (int i = 0; i < n; i++) {
		char one[64];
		symbol_text(expected[i], one, sizeof(one));
		size_t len = strlen(one);
		if (len < 3 || one[0] != '\'' || one[len - 1] != '\'')
			continue;
		one[len - 1] = '\0';
		const char *word = one + 1;
		bool letters = true;
		for (const char *c = word; *c; c++)
			letters &= *c >= 'a' && *c <= 'z';
		size_t d = diag_edit_distance(text, word);
		if (letters && diag_misspelt(text, word) && d < best_d) {
			best_d = d;
			snprintf(best, sizeof(best), "%s", word);
		}
	}
	hint[0] = '\0';
	if (best[0])
		snprintf(hint, size, "; did you mean '%s'?", best);
}

/* "expected ';' before 'superstep'": the message of a syntax error.  Token
 * sets that mean one thing are named as such: "an expression", "an operator",
 * "a comparison". */
static int yyreport_syntax_error(const yypcontext_t *ctx, struct parser *ps, yyscan_t scanner)
{
	(void)scanner;
	if (ps->fatal)
		return 0;
	ps->syntax_errors++;
	const struct span *loc = yypcontext_location(ctx);
	yysymbol_kind_t look = yypcontext_token(ctx);
	char found[96];
	if (look == YYSYMBOL_YYEOF)
		snprintf(found, sizeof(found), "end of file");
	else if (look == YYSYMBOL_IDENT || look == YYSYMBOL_INT || look == YYSYMBOL_STRING) {
		char text[64];
		token_text(ps, loc, text, sizeof(text));
		snprintf(found, sizeof(found), "%s '%s'", yysymbol_name(look), text);
	} else
		symbol_text(look, found, sizeof(found));

	yysymbol_kind_t expected[YYNTOKENS];
	int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
	char hint[96] = "";
	if (look == YYSYMBOL_IDENT) {
		char text[64];
		token_text(ps, loc, text, sizeof(text));
		did_you_mean(text, expected, n, hint, sizeof(hint));
	}
	if (n <= 0) {
		diag_error(ps->dg, *loc, "unexpected %s%s", found, hint);
		return 0;
	}
	static const char *const binops[] = {"'+'", "'-'", "'*'", "'/'", "'%'"};
	static const char *const expr_start[] = {"identifier", "integer", "'sum'", "'('", "'-'"};
	static const char *const relops[] = {"'<'", "'<='", "'>'", "'>='", "'=='", "'!='"};
	const char *groups[3];
	int ngroups = 0;
	bool binop = take_group(expected, &n, binops, 5);
	if (take_group(expected, &n, expr_start, binop ? 4 : 5))
		groups[ngroups++] = "an expression";
	if (binop)
		groups[ngroups++] = "an operator";
	if (take_group(expected, &n, relops, 6))
		groups[ngroups++] = "a comparison";

	int total = n + ngroups;
	if (total > 6) {
		diag_error(ps->dg, *loc, "unexpected %s%s", found, hint);
		return 0;
	}
	char list[512] = "";
	size_t used = 0;
	bool wants_closer = false;
	for (int i = 0; i < total && used < sizeof(list); i++) {
		char one[64];
		if (i < ngroups)
			snprintf(one, sizeof(one), "%s", groups[i]);
		else
			symbol_text(expected[i - ngroups], one, sizeof(one));
		if (ps->nest > 0 && strcmp(one, closer_of(ps->open_char[ps->nest - 1])) == 0)
			wants_closer = true;
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 i == 0 ? "" : i == total - 1 ? " or " : ", ", one);
	}
	if (wants_closer)
		diag_error(ps->dg, *loc, "expected %s before %s (to close '%c' at line %d)%s", list,
			   found, ps->open_char[ps->nest - 1], ps->open_span[ps->nest - 1].first_line,
			   hint);
	else
		diag_error(ps->dg, *loc, "expected %s before %s%s", list, found, hint);
	return 0;
}

static void yyerror(const struct span *loc, struct parser *ps, yyscan_t scanner, const char *msg)
{
	(void)scanner;
	if (ps->fatal)
		return;
	ps->syntax_errors++;
	if (strcmp(msg, "memory exhausted") == 0)
		diag_error(ps->dg, *loc, "specification nested too deeply");
	else
		diag_error(ps->dg, *loc, "%s", msg);
}

struct ast_spec *parse_source(const struct source *src, struct diag *dg, bool *ok)
{
	struct parser ps = {.src = src, .dg = dg, .line = 1, .col = 1, .end_line = 1, .end_col = 1};
	ps.spec = xcalloc(1, sizeof(*ps.spec));
	int before = dg->nerrors;
	yyscan_t scanner;
	if (yylex_init_extra(&ps, &scanner) != 0) {
		fputs("bspcost: out of memory\n", stderr);
		abort();
	}
	YY_BUFFER_STATE buf = yy_scan_bytes(src->text, (int)src->len, scanner);
	int r = yyparse(&ps, scanner);
	yy_delete_buffer(buf, scanner);
	yylex_destroy(scanner);
	*ok = r == 0 && dg->nerrors == before && !ps.fatal;
	/* inner loops are built first: put them in source order */
	if (ps.spec->nloops > 1)
		qsort(ps.spec->loops, (size_t)ps.spec->nloops, sizeof(*ps.spec->loops), loop_before);
	return ps.spec;
}
