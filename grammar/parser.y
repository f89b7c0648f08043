/* Placeholder grammar: replaced by the real one. */
%define api.pure full
%code { static int yylex(void *lval) { (void)lval; return 0; } static void yyerror(const char *m) { (void)m; } }
%%
spec: %empty ;
%%
