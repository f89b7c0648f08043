/* The bspcost grammar: a pure bison parser with locations.
 *
 * Actions stay thin: they call the constructors of grammar/ast.h and append
 * finished items to the specification in the parser state.  Errors are
 * reported through the diagnostics sink with readable token names, and the
 * parser recovers at the next ';' (or '}') so one run reports every error.
 * Out of memory is a value here too: the constructors free what they take
 * and return NULL, an action that gets NULL stops the parse (NOMEM), and
 * parse_source returns NULL with nothing left allocated.
 * The final grammar is documented in man/bspcost.5.
 *
 * Why this file is long: the rules, the helpers that build what they
 * collect (each freeing its arguments when memory runs out, which bison's
 * YYNOMEM does not do for the current rule) and the syntax errors'
 * messages read the grammar's own tables, and belong with it. */

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
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

/* The bison stack grows on the heap up to this many entries; deeper input is
 * refused with a message instead of exhausting memory. */
#define YYMAXDEPTH 10000
/* The stack's allocations: one that fails is out of memory (PS->nomem),
 * which yyerror tells from a stack deeper than YYMAXDEPTH. */
#define YYMALLOC(n) stack_alloc(ps, (n))
#define YYFREE free

/* Out of memory in an action: what the action took is freed (the
 * constructors free their arguments), and bison frees the rest of the
 * stack through the %destructors (not the current rule's symbols: an
 * action frees those it has not handed to a constructor before NOMEM). */
#define NOMEM() do { ps->nomem = true; YYNOMEM; } while (0)
#define MADE(x) do { if (!(x)) NOMEM(); } while (0)

static void *stack_alloc(struct parser *ps, size_t n)
{
	void *p = malloc(n);
	if (!p)
		ps->nomem = true;
	return p;
}

static void yyerror(const struct span *loc, struct parser *ps, yyscan_t scanner, const char *msg);
static int add_item(struct parser *ps, struct ast_item *it);
static struct ast_item *item_new(enum item_kind kind, struct span sp);
static struct ast_item *item_of(enum item_kind kind, struct span sp, struct ptr_list *list);
static struct ast_candidate *candidate_new(struct span sp, char *name, struct span name_span,
					   struct cand_body *body);
static struct cand_body *body_push(struct cand_body *b, struct ptr_list *which, void *p,
				   void (*free_elem)(void *));
static int loop_items(struct parser *ps, struct ptr_list *steps);
static struct ptr_list *steps_append(struct ptr_list *to, struct ptr_list *steps);
static struct dkind_list *dkinds_append(struct dkind_list *l, struct ast_dkind k);
static struct ldim_list *ldims_append(struct ldim_list *l, struct ast_ldim d);
static void free_expr(void *p);
static void free_param(void *p);
static void free_cond(void *p);
static void free_array(void *p);
static void free_stmt(void *p);
static void free_var(void *p);
static void free_layout(void *p);
static void free_superstep(void *p);
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
static void free_dkinds(struct dkind_list *l);
static void free_cand_body(struct cand_body *b);
static struct ast_superstep *superstep_new(struct span sp, char *name, struct span name_span,
					   struct ptr_list *stmts);
static int loop_new(struct parser *ps, struct span sp, struct ast_var *var, struct ptr_list *steps);
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
%destructor { free_dkinds($$); } <dkinds>
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
	: PARAM names ';'       { MADE(add_item(ps, item_of(ITEM_PARAM, @$, $2)) == 0); }
	| GRID names ';'        { MADE(add_item(ps, item_of(ITEM_GRID, @$, $2)) == 0); }
	| ASSUME assumptions ';' { MADE(add_item(ps, item_of(ITEM_ASSUME, @$, $2)) == 0); }
	| ARRAY array_decls ';' { MADE(add_item(ps, item_of(ITEM_ARRAY, @$, $2)) == 0); }
	| DIST IDENT '=' dkinds OVER IDENT ';'
		{ struct ast_dist *d = ast_dist_new(@$, $2, @2, $4->v, $4->n, $6, @6);
		  free($4);
		  struct ast_item *it = d ? item_new(ITEM_DIST, @$) : NULL;
		  if (!it) {
			ast_dist_free(d);
			NOMEM();
		  }
		  it->dist = d;
		  MADE(add_item(ps, it) == 0); }
	| layout_decl
		{ struct ast_item *it = item_new(ITEM_LAYOUT, @$);
		  if (!it) {
			ast_layout_free($1);
			NOMEM();
		  }
		  it->layout = $1;
		  MADE(add_item(ps, it) == 0); }
	| CANDIDATE IDENT '{' cand_body '}'
		{ struct ast_candidate *c = candidate_new(@$, $2, @2, $4);
		  struct ast_item *it = c ? item_new(ITEM_CANDIDATE, @$) : NULL;
		  if (!it) {
			ast_candidate_free(c);
			NOMEM();
		  }
		  it->candidate = c;
		  MADE(add_item(ps, it) == 0); }
	| SUPERSTEP IDENT '{' stmts '}'
		{ struct ast_superstep *st = superstep_new(@$, $2, @2, $4);
		  struct ast_item *it = st ? item_new(ITEM_SUPERSTEP, @$) : NULL;
		  if (!it) {
			ast_superstep_free(st);
			NOMEM();
		  }
		  it->superstep = st;
		  MADE(add_item(ps, it) == 0); }
	| FOR loop_range '{' loop_body '}'
		{ if (loop_new(ps, span_join(@1, @2), $2, $4) < 0) {
			free_step_list($4);
			NOMEM();
		  }
		  MADE(loop_items(ps, $4) == 0); }
	| IMPORT STRING ';'
		{ struct ast_item *it = item_new(ITEM_IMPORT, @$);
		  if (!it) {
			free($2);
			NOMEM();
		  }
		  it->path = $2;
		  MADE(add_item(ps, it) == 0); }
	| error ';'  { yyerrok; }
	| error '}'  { yyerrok; }
	;

/* names -> IDENT (',' IDENT)* */
names
	: IDENT                 { MADE($$ = ptr_list_append(NULL, ast_param_new(@1, $1), free_param)); }
	| names ',' IDENT       { MADE($$ = ptr_list_append($1, ast_param_new(@3, $3), free_param)); }
	;

/* assumptions -> cond (',' cond)* */
assumptions
	: cond                  { MADE($$ = ptr_list_append(NULL, $1, free_cond)); }
	| assumptions ',' cond  { MADE($$ = ptr_list_append($1, $3, free_cond)); }
	;

/* array_decls -> array_decl (',' array_decl)* */
array_decls
	: array_decl                 { MADE($$ = ptr_list_append(NULL, $1, free_array)); }
	| array_decls ',' array_decl { MADE($$ = ptr_list_append($1, $3, free_array)); }
	;

/* array_decl -> IDENT ('[' expr ']')+ ['size' INT] */
array_decl
	: IDENT subs size_opt
		{ MADE($$ = ast_array_new(@$, $1, @1, $2, $3, @3)); }
	;

size_opt
	: %empty       { $$ = 0; }
	| SIZE INT
		{ $$ = $2;   /* LEX_INT_TOO_LARGE: the scanner has said why */
		  if ($2 <= 0 && $2 != LEX_INT_TOO_LARGE) diag_error(ps->dg, @2, "element size must be positive"); }
	;

/* dkinds -> dkind ('|' dkind)* */
dkinds
	: dkind                 { MADE($$ = dkinds_append(NULL, $1)); }
	| dkinds '|' dkind      { MADE($$ = dkinds_append($1, $3)); }
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
		{ $$ = ast_layout_new(@$, $2, @2, $4->v, $4->n);
		  free($4);
		  MADE($$); }
	;

ldims
	: ldim                  { MADE($$ = ldims_append(NULL, $1)); }
	| ldims IDENT ldim
		{ if (strcmp($2, "x") != 0)
			diag_error(ps->dg, @2, "expected 'x' between layout dimensions, found '%s'", $2);
		  free($2);
		  MADE($$ = ldims_append($1, $3)); }
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
	: %empty                     { MADE($$ = calloc(1, sizeof(*$$))); }
	| cand_body layout_decl      { MADE($$ = body_push($1, &$1->layouts, $2, free_layout)); }
	| cand_body ARRAY array_decls ';'
		{ $$ = $1;
		  for (int i = 0; i < $3->n; i++)
			$$ = $$ ? body_push($$, &$$->arrays, $3->v[i], free_array)
				: (free_array($3->v[i]), NULL);
		  free($3->v);
		  free($3);
		  MADE($$); }
	| cand_body SUPERSTEP IDENT '{' stmts '}'
		{ MADE($$ = body_push($1, &$1->steps, superstep_new(span_join(@2, @6), $3, @3, $5),
				      free_superstep)); }
	| cand_body FOR loop_range '{' loop_body '}'
		{ if (loop_new(ps, span_join(@2, @3), $3, $5) < 0) {
			free_cand_body($1);
			free_step_list($5);
			NOMEM();
		  }
		  $$ = $1;
		  for (int i = 0; i < $5->n; i++)
			$$ = $$ ? body_push($$, &$$->steps, $5->v[i], free_superstep)
				: (free_superstep($5->v[i]), NULL);
		  free($5->v);
		  free($5);
		  MADE($$); }
	| cand_body error ';'        { $$ = $1; yyerrok; }
	;

/* loop_body -> (superstep | 'for' range '{' loop_body '}')*: the supersteps
 * of a loop, those of the loops nested in it included, in order */
loop_body
	: %empty                     { MADE($$ = calloc(1, sizeof(*$$))); }
	| loop_body SUPERSTEP IDENT '{' stmts '}'
		{ MADE($$ = ptr_list_append($1, superstep_new(span_join(@2, @6), $3, @3, $5),
					    free_superstep)); }
	| loop_body FOR loop_range '{' loop_body '}'
		{ if (loop_new(ps, span_join(@2, @3), $3, $5) < 0) {
			free_step_list($1);
			free_step_list($5);
			NOMEM();
		  }
		  MADE($$ = steps_append($1, $5)); }
	| loop_body error ';'        { $$ = $1; yyerrok; }
	;

stmts
	: %empty                { MADE($$ = calloc(1, sizeof(*$$))); }
	| stmts stmt            { MADE($$ = ptr_list_append($1, $2, free_stmt)); }
	| stmts error ';'       { $$ = $1; yyerrok; }
	;

/* stmt -> ['forall' quant ':'] expr '=' expr ['work' expr] ';' */
stmt
	: FORALL quant ':' expr '=' expr work_opt ';'
		{ MADE($$ = ast_stmt_new(@$, $2, $4, $6, $7)); }
	| expr '=' expr work_opt ';'
		{ MADE($$ = ast_stmt_new(@$, NULL, $1, $3, $4)); }
	;

work_opt
	: %empty                { $$ = NULL; }
	| WORK expr             { $$ = $2; }
	;

/* quant -> range (',' range)* [('|' | 'where') cond] */
quant
	: ranges cond_opt       { MADE($$ = ast_quant_new(@$, $1, $2)); }
	;

ranges
	: range
		{ MADE($$ = $1 ? ptr_list_append(NULL, $1, free_var) : calloc(1, sizeof(*$$))); }
	| ranges ',' range      { MADE($$ = $3 ? ptr_list_append($1, $3, free_var) : $1); }
	;

range
	: cmp
		{ if (ast_cmp_is_range($1)) {
			MADE($$ = ast_var_from_cmp($1));
		  } else {
			diag_error(ps->dg, @1, "a range must look like 'i < n' or 'lo <= i < hi'");
			ast_cmp_free($1);
			$$ = NULL;
		  } }
	;

/* A loop's range: a forall's, or a geometric one, `s = 1, 2, 4, ... < P`
 * (its first three values, then the bound) */
loop_range
	: range                 { $$ = $1; }
	| IDENT '=' INT ',' INT ',' INT ',' ELLIPSIS relop expr
		{ $$ = geometric_range(ps, @$, $1, @1, $3, $5, $7, span_join(@3, @7), $10, $11);
		  if (!$$ && ps->nomem)   /* (the scanner's nomem: $$ is the stack's) */
			NOMEM(); }
	;

cond_opt
	: %empty                { $$ = NULL; }
	| '|' cond              { $$ = $2; }
	| WHERE cond            { $$ = $2; }
	;

/* cond -> cmp ('and' cmp)* */
cond
	: cmp                   { MADE($$ = ast_cond_new($1)); }
	| cond AND cmp          { MADE($$ = ast_cond_and($1, $3)); }
	;

/* cmp -> expr relop expr (relop expr)* | expr 'divides' expr
 * `d divides e` is `e % d == 0` (the words the reports use); `divides` is no
 * keyword, so it stays a name anywhere else. */
cmp
	: chain                 { $$ = $1; }
	| expr IDENT expr       { MADE($$ = divides(ps, @$, $1, $2, @2, $3)); }
	;

/* a divisibility is no link of a chain: 'P divides n == 1' is an error */
chain
	: expr relop expr       { MADE($$ = ast_cmp_new(@$, $1, (enum cmp_op)$2, $3)); }
	| chain relop expr      { MADE($$ = ast_cmp_extend($1, @$, (enum cmp_op)$2, $3)); }
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
	: INT                   { MADE($$ = ast_int(@$, $1)); }
	| IDENT                 { MADE($$ = ast_name(@$, $1)); }
	| IDENT subs            { MADE($$ = bounded(ps, ast_index(@$, $1, @1, $2))); }
	| IDENT '(' expr ')'    { MADE($$ = bounded(ps, ast_call(@$, $1, @1, $3))); }
	| '(' expr ')'          { $$ = $2; $$->span = @$; $$->chain = false; }
	| '-' expr %prec UMINUS { MADE($$ = bounded(ps, ast_unary(@$, EXPR_NEG, $2))); }
	| expr '+' expr         { MADE($$ = bounded(ps, ast_chain(EXPR_ADD, $1, $3))); }
	| expr '-' expr         { MADE($$ = bounded(ps, ast_chain(EXPR_SUB, $1, $3))); }
	| expr '*' expr         { MADE($$ = bounded(ps, ast_binary(@$, EXPR_MUL, $1, $3))); }
	| expr '/' expr         { MADE($$ = bounded(ps, ast_binary(@$, EXPR_DIV, $1, $3))); }
	| expr '%' expr         { MADE($$ = bounded(ps, ast_binary(@$, EXPR_MOD, $1, $3))); }
	| SUM quant ':' expr %prec SUMBODY
		{ MADE($$ = bounded(ps, ast_sum(@$, $2, $4))); }
	;

/* subs -> ('[' expr ']')+ */
subs
	: '[' expr ']'          { MADE($$ = ptr_list_append(NULL, $2, free_expr)); }
	| subs '[' expr ']'     { MADE($$ = ptr_list_append($1, $3, free_expr)); }
	;

%%

static struct ast_item *item_new(enum item_kind kind, struct span sp)
{
	struct ast_item *it = calloc(1, sizeof(*it));
	if (it) {
		it->kind = kind;
		it->span = sp;
	}
	return it;
}

/* IT (taken; NULL: its construction failed) appended to the specification;
 * -1 when out of memory. */
static int add_item(struct parser *ps, struct ast_item *it)
{
	struct ast_spec *s = ps->spec;
	struct ast_item **items = it ? ast_array_grow(s->items, (size_t)s->nitems + 1,
						      sizeof(*s->items))
				     : NULL;
	if (!items) {
		ast_item_free(it);
		return -1;
	}
	s->items = items;
	s->items[s->nitems++] = it;
	return 0;
}

/* A declaration of KIND (parameters, grid axes, assumptions, arrays) at SP
 * with the elements of LIST (taken); NULL when out of memory. */
static struct ast_item *item_of(enum item_kind kind, struct span sp, struct ptr_list *list)
{
	struct ast_item *it = item_new(kind, sp);
	if (!it) {
		ptr_list_free(list, kind == ITEM_ASSUME  ? free_cond
				    : kind == ITEM_ARRAY ? free_array
							 : free_param);
		return NULL;
	}
	switch (kind) {
	case ITEM_ASSUME:
		it->conds = (struct ast_cond **)list->v;
		it->nconds = list->n;
		break;
	case ITEM_ARRAY:
		it->arrays = (struct ast_array **)list->v;
		it->narrays = list->n;
		break;
	default:
		it->params = (struct ast_param **)list->v;
		it->nparams = list->n;
		for (int i = 0; kind == ITEM_GRID && i < it->nparams; i++)
			it->params[i]->kind = SYM_GRID_AXIS;
		break;
	}
	free(list);
	return it;
}

/* candidate NAME { BODY } (NAME and BODY taken); NULL when out of memory. */
static struct ast_candidate *candidate_new(struct span sp, char *name, struct span name_span,
					   struct cand_body *body)
{
	struct ast_candidate *c = calloc(1, sizeof(*c));
	if (!c) {
		free(name);
		free_cand_body(body);
		return NULL;
	}
	c->name = name;
	c->name_span = name_span;
	c->span = sp;
	c->layouts = (struct ast_layout **)body->layouts.v;
	c->nlayouts = body->layouts.n;
	c->arrays = (struct ast_array **)body->arrays.v;
	c->narrays = body->arrays.n;
	c->supersteps = (struct ast_superstep **)body->steps.v;
	c->nsupersteps = body->steps.n;
	free(body);
	return c;
}

/* B with P (taken; NULL: its construction failed) appended to WHICH, one of
 * B's lists; NULL when out of memory, B and P freed. */
static struct cand_body *body_push(struct cand_body *b, struct ptr_list *which, void *p,
				   void (*free_elem)(void *))
{
	if (!p || ptr_list_push(which, p) < 0) {
		if (p)
			free_elem(p);
		free_cand_body(b);
		return NULL;
	}
	return b;
}

/* Each superstep of a loop's STEPS (taken) an item; -1 when out of memory. */
static int loop_items(struct parser *ps, struct ptr_list *steps)
{
	int r = 0;
	for (int i = 0; i < steps->n; i++) {
		struct ast_superstep *st = steps->v[i];
		struct ast_item *it = r == 0 ? item_new(ITEM_SUPERSTEP, st->span) : NULL;
		if (!it) {
			ast_superstep_free(st);
			r = -1;
			continue;
		}
		it->superstep = st;
		if (add_item(ps, it) < 0)
			r = -1;
	}
	free(steps->v);
	free(steps);
	return r;
}

/* TO with the supersteps of STEPS appended (both taken); NULL when out of
 * memory, both freed. */
static struct ptr_list *steps_append(struct ptr_list *to, struct ptr_list *steps)
{
	for (int i = 0; i < steps->n; i++)
		to = to ? ptr_list_append(to, steps->v[i], free_superstep)
			: (free_superstep(steps->v[i]), NULL);
	free(steps->v);
	free(steps);
	return to;
}

/* L (NULL: a new list) with K appended, both taken; NULL when out of
 * memory, both freed. */
static struct dkind_list *dkinds_append(struct dkind_list *l, struct ast_dkind k)
{
	if (!l)
		l = calloc(1, sizeof(*l));
	struct ast_dkind *v = l ? ast_array_grow(l->v, (size_t)l->n + 1, sizeof(*v)) : NULL;
	if (!v) {
		free(k.block_name);
		free_dkinds(l);
		return NULL;
	}
	l->v = v;
	l->v[l->n++] = k;
	return l;
}

/* The same for layout dimensions. */
static struct ldim_list *ldims_append(struct ldim_list *l, struct ast_ldim d)
{
	if (!l)
		l = calloc(1, sizeof(*l));
	struct ast_ldim *v = l ? ast_array_grow(l->v, (size_t)l->n + 1, sizeof(*v)) : NULL;
	if (!v) {
		free(d.name);
		free(d.dkind.block_name);
		free_ldims(l);
		return NULL;
	}
	l->v = v;
	l->v[l->n++] = d;
	return l;
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

/* E (taken), or an error expression when it is nested too deeply (said
 * once); NULL when E is (out of memory). */
static struct ast_expr *bounded(struct parser *ps, struct ast_expr *e)
{
	if (!e || e->depth <= AST_MAX_DEPTH)
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
 * makes no loop.  VAR is taken, STEPS not; -1 when out of memory. */
static int loop_new(struct parser *ps, struct span sp, struct ast_var *var, struct ptr_list *steps)
{
	if (!var)
		return 0;
	struct ast_spec *s = ps->spec;
	struct ast_loop *l = calloc(1, sizeof(*l));
	struct ast_loop **loops = l ? ast_array_grow(s->loops, (size_t)s->nloops + 1,
						     sizeof(*s->loops))
				    : NULL;
	if (!loops) {
		free(l);
		ast_var_free(var);
		return -1;
	}
	s->loops = loops;
	l->span = sp;
	l->var = var;
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
	return 0;
}

/* s = A, B, C, ... OP HI: the range A <= s OP HI, its values A*R^k for R =
 * B/A, an integer of at least 2 with C = B*R; NULL (said at VALUES) when the
 * values are not such a progression, or OP not '<' or '<='; NULL with
 * PS->nomem when out of memory.  NAME and HI are taken. */
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
	struct ast_var *v = calloc(1, sizeof(*v));
	struct ast_expr *lo = v ? ast_int(values, a) : NULL;
	if (!lo) {
		free(v);
		free(name);
		ast_expr_free(hi);
		ps->nomem = true;
		return NULL;
	}
	v->name = name;
	v->name_span = name_span;
	v->span = sp;
	v->lo = lo;
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

/* A superstep NAME { STMTS } (NAME and STMTS taken); NULL when out of
 * memory. */
static struct ast_superstep *superstep_new(struct span sp, char *name, struct span name_span,
					   struct ptr_list *stmts)
{
	struct ast_superstep *st = calloc(1, sizeof(*st));
	if (!st) {
		free(name);
		free_stmt_list(stmts);
		return NULL;
	}
	st->name = name;
	st->name_span = name_span;
	st->span = sp;
	st->stmts = (struct ast_stmt **)stmts->v;
	st->nstmts = stmts->n;
	free(stmts);
	return st;
}

static void free_dkinds(struct dkind_list *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->n; i++)
		free(l->v[i].block_name);
	free(l->v);
	free(l);
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
	if (ps->nomem)   /* out of memory: said by parse_source's caller */
		return;
	ps->syntax_errors++;
	if (strcmp(msg, "memory exhausted") == 0)
		diag_error(ps->dg, *loc, "specification nested too deeply");
	else
		diag_error(ps->dg, *loc, "%s", msg);
}

/* The scanner SCANNER (of PS) given SRC's text; -1 when out of memory, with
 * what flex had allocated for it freed (lexer.l's YY_FATAL_ERROR, flex's
 * only way to say it, returns here). */
static int scan_setup(struct parser *ps, const struct source *src, yyscan_t scanner)
{
	if (setjmp(ps->setup) != 0) {
		for (int i = 0; i < ps->nsetup_allocs; i++)
			free(ps->setup_allocs[i]);
		ps->nsetup_allocs = -1;
		return -1;
	}
	ps->nsetup_allocs = 0;
	yy_scan_bytes(src->text, (int)src->len, scanner);
	ps->nsetup_allocs = -1;
	return 0;
}

struct ast_spec *parse_source(const struct source *src, struct diag *dg, bool *ok)
{
	struct parser ps = {.src = src, .dg = dg, .line = 1, .col = 1, .end_line = 1, .end_col = 1,
			    .nsetup_allocs = -1};
	*ok = false;
	int before = dg->nerrors;
	yyscan_t scanner;
	ps.spec = calloc(1, sizeof(*ps.spec));
	if (!ps.spec || yylex_init_extra(&ps, &scanner) != 0) {
		free(ps.spec);
		return NULL;
	}
	int r = 2;
	if (scan_setup(&ps, src, scanner) == 0)
		r = yyparse(&ps, scanner);
	else
		ps.nomem = true;
	yylex_destroy(scanner);   /* the buffer too */
	if (ps.nomem || dg->nomem) {
		ast_spec_free(ps.spec);
		return NULL;
	}
	*ok = r == 0 && dg->nerrors == before && !ps.fatal;
	/* inner loops are built first: put them in source order */
	if (ps.spec->nloops > 1)
		qsort(ps.spec->loops, (size_t)ps.spec->nloops, sizeof(*ps.spec->loops), loop_before);
	return ps.spec;
}
