# '-' reads standard input, for --check and --print.
. "$(dirname "$0")/lib.inc"
printf 'param n; grid P; array u[n]; layout u : block over P;\n' > "$dir/in.bsp"
"$BIN" --check - < "$dir/in.bsp" > "$dir/out" 2> "$dir/err"; st=$?
expect_status 0
expect_out "<stdin>: ok: 1 param, grid 1 axis (P), 1 array, 1 candidate, 0 supersteps"
"$BIN" --print - < "$dir/in.bsp" > "$dir/out" 2> "$dir/err"; st=$?
expect_status 0
expect_out "layout u : block over P;"
printf 'param n grid P;\n' | "$BIN" --check - > "$dir/out" 2> "$dir/err"; st=$?
expect_status 1
expect_err "<stdin>:1:9: error: expected ';' or ',' before 'grid'"
