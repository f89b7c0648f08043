# End of file in the middle of a statement, of an expression, of a subscript.
. "$(dirname "$0")/lib.inc"
printf 'param n;\ngrid P;\narray u[n];\nlayout u : *;\nsuperstep s {\n    forall i < n : u[i] = ' > "$dir/a.bsp"
run --check "$dir/a.bsp"
expect_status 1
expect_err "a.bsp:6:26: error: expected an expression before end of file"
printf 'param n;\ngrid P;\narray u[n' > "$dir/b.bsp"
run --check "$dir/b.bsp"
expect_status 1
expect_err "b.bsp:3:10: error: expected an operator or ']' before end of file (to close '[' at line 3)"
printf 'param n;\ngrid P;\nsuperstep s {\n' > "$dir/c.bsp"
run --check "$dir/c.bsp"
expect_status 1
expect_err "c.bsp:3:14: error: expected an expression, 'forall' or '}' before end of file (to close '{' at line 3)"
