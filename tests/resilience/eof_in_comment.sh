# A file that ends inside a comment (no final newline) is complete if the
# declarations are; a missing ';' before such a comment is reported.
. "$(dirname "$0")/lib.inc"
printf 'param n;\ngrid P;  # the last line has no newline' > "$dir/ok.bsp"
run --check "$dir/ok.bsp"
expect_status 0
expect_out "ok.bsp: ok: 1 param, grid 1 axis (P), 0 arrays, 1 candidate, 0 supersteps"
printf 'param n;\ngrid P  # no semicolon before the comment' > "$dir/bad.bsp"
run --check "$dir/bad.bsp"
expect_status 1
expect_err "bad.bsp:2:7: error: expected ';' or ',' before end of file"
